#include "reports/mdw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/anon.h"
#include "reports/rtext.h"

/* Punctuation that Markdown (CommonMark, GitHub, pandoc) may read as
 * markup inside a line (emphasis, code, links, HTML, table cells, pandoc's
 * math, sub/superscript, citations, entities); every one of them may be
 * backslash-escaped. Data never starts a line of the report, so what is
 * markup only there (-, +, =, :) needs no escape. */
static const char md_special[] = "\\`*_[]<>|$~^@&#";

static void md_char(FILE *out, const char *c, size_t len)
{
    if (len == 1 && strchr(md_special, *c))
        fputc('\\', out);
    fwrite(c, 1, len, out);
}

void mdw_text(FILE *out, const char *s)
{
    char *scrubbed = anon_scrub_current() ? anon_scrub_text(anon_scrub_current(), s) : NULL;
    rtext_put(out, scrubbed ? scrubbed : s, md_char);
    free(scrubbed);
}

void mdw_head(FILE *out, const char *const *titles, const char *align, size_t n)
{
    fputc('|', out);
    for (size_t i = 0; i < n; i++) {
        fputc(' ', out);
        mdw_text(out, titles[i]);
        fputs(" |", out);
    }
    fputs("\n|", out);
    for (size_t i = 0; i < n; i++)
        fputs(align[i] == 'r' ? " ---: |" : " :--- |", out);
    fputc('\n', out);
}

void mdw_row(FILE *out, const char *const *cells, size_t n)
{
    fputc('|', out);
    for (size_t i = 0; i < n; i++) {
        fputc(' ', out);
        mdw_text(out, cells[i][0] ? cells[i] : " ");
        fputs(" |", out);
    }
    fputc('\n', out);
}

void mdw_num(char *buf, size_t n, double v, int decimals, const char *unit)
{
    if (isnan(v)) {
        snprintf(buf, n, "n/a");
        return;
    }
    char num[64];
    snprintf(num, sizeof num, "%.*f", decimals, v);
    if (num[0] == '-' && strspn(num + 1, "0.") == strlen(num + 1))
        memmove(num, num + 1, strlen(num)); /* -0.0 */
    if (!unit || !unit[0])
        snprintf(buf, n, "%s", num);
    else
        snprintf(buf, n, "%s %s", num, unit);
}
