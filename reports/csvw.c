#include "reports/csvw.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/anon.h"
#include "reports/rtext.h"

int csvw_plain_number(const char *s)
{
    if (*s == '-')
        s++;
    if (!isdigit((unsigned char)*s))
        return 0;
    while (isdigit((unsigned char)*s))
        s++;
    if (*s == '.') {
        s++;
        if (!isdigit((unsigned char)*s))
            return 0;
        while (isdigit((unsigned char)*s))
            s++;
    }
    return *s == '\0';
}

int csvw_risky(const char *s)
{
    while (*s == ' ') /* a spreadsheet skips leading spaces before a formula */
        s++;
    return s[0] != '\0' && strchr("=+-@\t\r\n", s[0]) && !csvw_plain_number(s);
}

static void csv_char(FILE *out, const char *c, size_t len)
{
    if (*c == '"')
        fputc('"', out);
    fwrite(c, 1, len, out);
}

void csvw_text(FILE *out, const char *s)
{
    char *scrubbed = anon_scrub_current() ? anon_scrub_text(anon_scrub_current(), s) : NULL;
    if (scrubbed)
        s = scrubbed;
    int risky = csvw_risky(s);
    int quote = risky || strpbrk(s, ",\"\r\n") != NULL;
    if (quote)
        fputc('"', out);
    if (risky)
        fputc('\'', out);
    rtext_put(out, s, csv_char);
    if (quote)
        fputc('"', out);
    free(scrubbed);
}

void csvw_num(FILE *out, double v)
{
    if (isnan(v))
        return;
    if (v == 0)
        v = 0; /* -0 */
    if (isinf(v) || fabs(v) >= 1e15)
        fprintf(out, "%.10g", v);
    else {
        char buf[64];
        snprintf(buf, sizeof buf, "%.10g", v);
        if (strchr(buf, 'e')) /* small magnitudes: plain decimals */
            snprintf(buf, sizeof buf, "%.12f", v);
        fputs(buf, out);
    }
}

void csvw_sep(FILE *out)
{
    fputc(',', out);
}

void csvw_end(FILE *out)
{
    fputs("\r\n", out);
}
