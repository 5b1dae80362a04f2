#include "reports/mdtable.h"

#include <stdlib.h>
#include <string.h>

#include "core/cp.h"

int mdlines_next(MdLines *l, const char **s, size_t *n)
{
    if (l->pos >= l->len)
        return 0;
    *s = l->md + l->pos;
    const char *nl = memchr(*s, '\n', l->len - l->pos);
    *n = nl ? (size_t)(nl - *s) : l->len - l->pos;
    l->pos += *n + (nl ? 1 : 0);
    return 1;
}

static int is_table_line(const char *s, size_t n)
{
    return n >= 2 && s[0] == '|' && s[n - 1] == '|';
}

static int is_align_line(const char *s, size_t n)
{
    if (!is_table_line(s, n))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!strchr("|:- ", s[i]))
            return 0;
    return 1;
}

/* The cells of "| a | b \| c |" (an unescaped '|' separates), trimmed. */
static char **split_cells(const char *s, size_t n, size_t *ncells)
{
    char **v = NULL;
    size_t nv = 0, start = 1;
    for (size_t i = 1; i < n; i++) {
        if (s[i] == '\\' && i + 1 < n) {
            i++;
            continue;
        }
        if (s[i] != '|')
            continue;
        size_t a = start, b = i;
        while (a < b && s[a] == ' ')
            a++;
        while (b > a && s[b - 1] == ' ')
            b--;
        v = xrealloc(v, (nv + 1) * sizeof *v);
        v[nv] = xmalloc(b - a + 1);
        memcpy(v[nv], s + a, b - a);
        v[nv++][b - a] = '\0';
        start = i + 1;
    }
    *ncells = nv;
    return v;
}

static void free_cells(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* Add a row of n cells (taken), padded or cut to t->ncols. */
static void add_row(MdTable *t, char **cells, size_t n)
{
    char **row = xcalloc(t->ncols + 1, sizeof *row);
    for (size_t c = 0; c < t->ncols; c++)
        row[c] = c < n ? cells[c] : xstrdup("");
    for (size_t c = t->ncols; c < n; c++)
        free(cells[c]);
    free(cells);
    t->rows = xrealloc(t->rows, (t->nrows + 1) * sizeof *t->rows);
    t->rows[t->nrows++] = row;
}

int mdtable_read(MdLines *l, const char *s, size_t n, MdTable *t)
{
    MdLines at = *l;
    const char *a;
    size_t an, na;
    if (!is_table_line(s, n) || !mdlines_next(&at, &a, &an) || !is_align_line(a, an))
        return 0;
    memset(t, 0, sizeof *t);
    char **head = split_cells(s, n, &t->ncols);
    char **align = split_cells(a, an, &na);
    t->right = xcalloc(t->ncols + 1, 1);
    for (size_t c = 0; c < na && c < t->ncols; c++)
        t->right[c] = align[c][0] && align[c][strlen(align[c]) - 1] == ':';
    free_cells(align, na);
    add_row(t, head, t->ncols);
    for (MdLines next = at; mdlines_next(&next, &s, &n) && is_table_line(s, n); at = next) {
        size_t nc;
        char **cells = split_cells(s, n, &nc);
        add_row(t, cells, nc);
    }
    *l = at;
    return 1;
}

void mdtable_free(MdTable *t)
{
    for (size_t r = 0; r < t->nrows; r++)
        free_cells(t->rows[r], t->ncols);
    free(t->rows);
    free(t->right);
    memset(t, 0, sizeof *t);
}
