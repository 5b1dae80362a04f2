/* safeout: see safeout.h. */
#include "cli/safeout.h"

#include <stdlib.h>
#include <string.h>

#include "reports/rtext.h"

static void put_plain(FILE *out, const char *c, size_t len)
{
    fwrite(c, 1, len, out);
}

void safeout_text(FILE *out, const char *s, size_t n)
{
    char *line = malloc(n + 1);
    if (!line)
        return;
    size_t i = 0;
    while (i < n) {
        const char *nl = memchr(s + i, '\n', n - i);
        size_t m = nl ? (size_t)(nl - (s + i)) : n - i;
        memcpy(line, s + i, m);
        line[m] = '\0';
        rtext_put(out, line, put_plain); /* a NUL inside ends the line's text early */
        if (nl)
            fputc('\n', out);
        i += m + (nl ? 1 : 0);
    }
    free(line);
}

FILE *safeout_begin(SafeOut *so, FILE *real)
{
    so->buf = NULL;
    so->len = 0;
    so->f = open_memstream(&so->buf, &so->len);
    return so->f ? so->f : real;
}

int safeout_flush(SafeOut *so, FILE *real)
{
    if (!so->f)
        return ferror(real) ? -1 : 0;
    fclose(so->f);
    so->f = NULL;
    if (so->buf)
        safeout_text(real, so->buf, so->len);
    free(so->buf);
    so->buf = NULL;
    return ferror(real) ? -1 : 0;
}
