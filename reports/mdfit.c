#include "reports/mdfit.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/cp.h"
#include "reports/mdtable.h"

/* ---- units into titles ---- */

/* Length of the number at s (-?digits(.digits)?), 0 when none. */
static size_t number_len(const char *s)
{
    size_t i = s[0] == '-' ? 1 : 0;
    if (!isdigit((unsigned char)s[i]))
        return 0;
    while (isdigit((unsigned char)s[i]))
        i++;
    if (s[i] == '.' && isdigit((unsigned char)s[i + 1])) {
        i++;
        while (isdigit((unsigned char)s[i]))
            i++;
    }
    return i;
}

/* The unit word after a number at s ("GPUs" in " GPUs)"): its length
 * (up to a space, ')' or the end), 0 when s does not start with ' '. */
static size_t unit_len(const char *s)
{
    if (s[0] != ' ' || !s[1] || s[1] == '(')
        return 0;
    return strcspn(s + 1, " )");
}

static int has_digit(const char *s)
{
    for (; *s; s++)
        if (isdigit((unsigned char)*s))
            return 1;
    return 0;
}

/* The unit of column c when every number in it carries the same one;
 * into unit (size n), 0; -1 when none or not the same. */
static int column_unit(const MdTable *t, size_t c, char *unit, size_t n)
{
    unit[0] = '\0';
    for (size_t r = 1; r < t->nrows; r++) {
        const char *s = t->rows[r][c];
        size_t k = number_len(s);
        if (k == 0) {
            if (has_digit(s))
                return -1;
            continue;
        }
        size_t u = unit_len(s + k);
        if (u == 0 || u >= n)
            return -1;
        if (!unit[0])
            snprintf(unit, n, "%.*s", (int)u, s + k + 1);
        else if (strlen(unit) != u || strncmp(unit, s + k + 1, u) != 0)
            return -1;
    }
    return unit[0] ? 0 : -1;
}

/* Remove " unit" after every number of s, in place. */
static void strip_unit(char *s, const char *unit)
{
    size_t ul = strlen(unit);
    char *w = s;
    for (const char *p = s; *p;) {
        size_t k = (p == s || !isalnum((unsigned char)p[-1])) ? number_len(p) : 0;
        if (k && p[k] == ' ' && strncmp(p + k + 1, unit, ul) == 0 &&
            strchr(" )", p[k + 1 + ul])) {
            memmove(w, p, k);
            w += k;
            p += k + 1 + ul;
        } else
            *w++ = *p++;
    }
    *w = '\0';
}

/* 1 when s holds word w, bounded by the ends, spaces or brackets. */
static int has_word(const char *s, const char *w)
{
    size_t k = strlen(w);
    for (const char *p = strstr(s, w); p; p = strstr(p + 1, w))
        if ((p == s || strchr(" (", p[-1])) && strchr(" )", p[k]))
            return 1;
    return 0;
}

static void units_to_titles(MdTable *t)
{
    for (size_t c = 0; c < t->ncols; c++) {
        char unit[32];
        if (!t->right[c] || column_unit(t, c, unit, sizeof unit) < 0)
            continue;
        for (size_t r = 1; r < t->nrows; r++)
            strip_unit(t->rows[r][c], unit);
        char paren[40];
        snprintf(paren, sizeof paren, "(%s)", unit);
        if (has_word(t->rows[0][c], unit))
            continue; /* "GPU-h before" says it already */
        size_t n = strlen(t->rows[0][c]) + strlen(paren) + 2;
        char *title = xmalloc(n);
        snprintf(title, n, "%s %s", t->rows[0][c], paren);
        free(t->rows[0][c]);
        t->rows[0][c] = title;
    }
}

/* ---- widths ---- */

/* Printed characters of s[0..n): UTF-8 continuation bytes and escaping
 * backslashes do not count. */
static size_t chars(const char *s, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\' && i + 1 < n)
            continue;
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            w++;
    }
    return w;
}

static size_t longest_word(const char *s)
{
    size_t best = 0;
    while (*s) {
        size_t n = strcspn(s, " ");
        size_t w = chars(s, n);
        best = w > best ? w : best;
        s += n;
        s += strspn(s, " ");
    }
    return best;
}

/* What column c needs: its title's longest word, a number cell whole, a
 * text cell's longest word but at least 16 characters of it (a word in a
 * column of numbers: the word). */
static size_t column_width(const MdTable *t, size_t c)
{
    size_t w = longest_word(t->rows[0][c]);
    for (size_t r = 1; r < t->nrows; r++) {
        const char *s = t->rows[r][c];
        size_t full = chars(s, strlen(s)), cw = full;
        if (t->right[c] && number_len(s) == 0)
            cw = longest_word(s); /* "no data before" in a column of numbers */
        else if (!t->right[c]) {
            cw = longest_word(s);
            if (cw < 16)
                cw = full < 16 ? full : 16;
        }
        w = cw > w ? cw : w;
    }
    return w < 3 ? 3 : w;
}

/* ---- writing ---- */

static void put_row(FILE *out, char *const *row, const size_t *cols, size_t n)
{
    fputc('|', out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, " %s |", row[cols[i]][0] ? row[cols[i]] : " ");
    fputc('\n', out);
}

static void put_part(FILE *out, const MdTable *t, const size_t *cols, size_t n,
                     const size_t *width)
{
    put_row(out, t->rows[0], cols, n);
    fputc('|', out);
    for (size_t i = 0; i < n; i++) {
        fputs(t->right[cols[i]] ? " " : " :", out);
        for (size_t k = 0; k < width[cols[i]]; k++)
            fputc('-', out);
        fputs(t->right[cols[i]] ? ": |" : " |", out);
    }
    fputc('\n', out);
    for (size_t r = 1; r < t->nrows; r++)
        put_row(out, t->rows[r], cols, n);
}

/* The table, split into parts of at most MDFIT_WIDTH, each led by the key
 * columns. */
static void put_table(FILE *out, const MdTable *t)
{
    size_t *width = xcalloc(t->ncols, sizeof *width);
    size_t *cols = xcalloc(t->ncols, sizeof *cols);
    size_t total = 0, nkeys = 0, keyw = 0;
    for (size_t c = 0; c < t->ncols; c++) {
        width[c] = column_width(t, c);
        total += width[c] + 3;
    }
    while (nkeys < t->ncols && !t->right[nkeys])
        nkeys++;
    if (nkeys == 0 || nkeys == t->ncols)
        nkeys = 1;
    for (size_t c = 0; c < nkeys; c++)
        keyw += width[c] + 3;
    while (nkeys > 1 && keyw > MDFIT_WIDTH / 2) /* keys too wide to repeat: the first */
        keyw -= width[--nkeys] + 3;
    if (total <= MDFIT_WIDTH || nkeys >= t->ncols) {
        for (size_t c = 0; c < t->ncols; c++)
            cols[c] = c;
        put_part(out, t, cols, t->ncols, width);
    } else {
        size_t c = nkeys;
        while (c < t->ncols) {
            size_t n = 0, w = keyw;
            for (size_t k = 0; k < nkeys; k++)
                cols[n++] = k;
            while (c < t->ncols && (n == nkeys || w + width[c] + 3 <= MDFIT_WIDTH)) {
                w += width[c] + 3;
                cols[n++] = c++;
            }
            if (n > nkeys && cols[nkeys] != nkeys)
                fputc('\n', out);
            put_part(out, t, cols, n, width);
        }
    }
    free(width), free(cols);
}

/* ---- the document ---- */

void mdfit(FILE *out, const char *md, size_t len)
{
    MdLines l = {md, len, 0};
    const char *s;
    size_t n;
    MdTable t;
    while (mdlines_next(&l, &s, &n)) {
        if (!mdtable_read(&l, s, n, &t)) {
            fwrite(s, 1, n, out);
            fputc('\n', out);
            continue;
        }
        units_to_titles(&t);
        put_table(out, &t);
        mdtable_free(&t);
    }
}
