/* textcol: see textcol.h. */
#include "cli/textcol.h"

#include <stdint.h>
#include <stdlib.h>

#include "core/cp.h"
#include "core/utf8.h"

static void put_clean(FILE *out, const char *s)
{
    char buf[4];
    while (s && *s) {
        int n = utf8_put(utf8_cp_clean(utf8_next(&s)), buf);
        fwrite(buf, 1, (size_t)n, out);
    }
}

void textcol_put(FILE *out, const char *s, int w, int right)
{
    int pad = w - utf8_width(s);
    if (right && pad > 0)
        fprintf(out, "%*s", pad, "");
    put_clean(out, s);
    if (!right && pad > 0)
        fprintf(out, "%*s", pad, "");
}

/* One line: cell c of text[] in column c, as wide as w[c]. */
static void put_row(FILE *out, const TextCol *cols, int ncols, const char *const *text,
                    const int *w)
{
    for (int c = 0; c < ncols; c++) {
        const char *t = text[c] ? text[c] : "";
        int last = c + 1 == ncols;
        if (last && !cols[c].right && !t[0])
            break; /* no trailing blanks */
        if (c)
            fputs("  ", out);
        textcol_put(out, t, last && !cols[c].right ? 0 : w[c], cols[c].right);
    }
    fputc('\n', out);
}

void textcol_table(FILE *out, const TextCol *cols, int ncols, const char *const *cells,
                   int nrows)
{
    int *w = xcalloc((size_t)ncols, sizeof *w);
    const char **title = xcalloc((size_t)ncols, sizeof *title);
    for (int c = 0; c < ncols; c++) {
        title[c] = cols[c].title;
        w[c] = utf8_width(title[c]);
    }
    for (int r = 0; r < nrows; r++)
        for (int c = 0; c < ncols; c++) {
            int cw = utf8_width(cells[(size_t)r * (size_t)ncols + (size_t)c]);
            w[c] = cw > w[c] ? cw : w[c];
        }
    put_row(out, cols, ncols, title, w);
    for (int r = 0; r < nrows; r++)
        put_row(out, cols, ncols, cells + (size_t)r * (size_t)ncols, w);
    free(title);
    free(w);
}
