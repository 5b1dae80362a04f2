/* anon_order: see anon_order.h. */
#include "reports/anon_order.h"

#include <stdlib.h>
#include <string.h>

#include "core/cp.h"

#define MAX_CELLS 64

int anon_is_pseudonym(const char *s, size_t n)
{
    static const char *const kinds[] = {"group-", "user-", "prof-", "person-", "account-"};
    static const char code[] = "abcdefghijkmnpqrstuvwxyz23456789";
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        size_t p = strlen(kinds[k]);
        if (n != p + 6 || memcmp(s, kinds[k], p) != 0)
            continue;
        for (size_t i = p; i < n; i++)
            if (!memchr(code, s[i], sizeof code - 1))
                return 0;
        return 1;
    }
    return 0;
}

static int is_filler(const char *s, size_t n)
{
    return n == 0 || (n == 1 && s[0] == '-') || (n == 3 && memcmp(s, "all", 3) == 0) ||
           (n == 5 && memcmp(s, "total", 5) == 0);
}

/* One row: its line, and the cells found in it. */
typedef struct Row {
    const char *line;
    size_t len;
    size_t ncells;
    const char *cell[MAX_CELLS];
    size_t clen[MAX_CELLS];
    size_t pos; /* original index: a stable sort */
    int col;    /* the key column, set before sorting */
} Row;

static void trim(const char **s, size_t *n)
{
    while (*n && (**s == ' ' || **s == '\t')) {
        (*s)++;
        (*n)--;
    }
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t' || (*s)[*n - 1] == '\r'))
        (*n)--;
}

/* Markdown cells of "| a | b |" ('\|' is no separator). */
static void md_cells(Row *r)
{
    const char *s = r->line, *end = r->line + r->len;
    r->ncells = 0;
    if (s < end && *s == '|')
        s++;
    const char *start = s;
    for (; s <= end && r->ncells < MAX_CELLS; s++) {
        if (s == end || (*s == '|' && (s == start || s[-1] != '\\'))) {
            if (s == end && s == start)
                break;
            const char *c = start;
            size_t n = (size_t)(s - start);
            trim(&c, &n);
            r->cell[r->ncells] = c;
            r->clen[r->ncells++] = n;
            start = s + 1;
        }
    }
}

/* CSV cells (quotes respected; a quoted cell's quotes stay). */
static void csv_cells(Row *r)
{
    const char *s = r->line, *end = r->line + r->len;
    r->ncells = 0;
    while (r->ncells < MAX_CELLS) {
        const char *c = s;
        int q = 0;
        while (s < end && (q || *s != ',')) {
            if (*s == '"')
                q = !q;
            s++;
        }
        size_t n = (size_t)(s - c);
        trim(&c, &n);
        if (n >= 2 && c[0] == '"' && c[n - 1] == '"') {
            c++;
            n -= 2;
        }
        r->cell[r->ncells] = c;
        r->clen[r->ncells++] = n;
        if (s >= end)
            break;
        s++;
    }
}

/* The column whose cells are all pseudonyms or fillers, two pseudonyms at
 * least; -1 when none. */
static int key_column(const Row *rows, size_t n)
{
    for (int c = 0; c < MAX_CELLS; c++) {
        size_t pseudo = 0, i;
        for (i = 0; i < n; i++) {
            if ((size_t)c >= rows[i].ncells)
                break;
            if (anon_is_pseudonym(rows[i].cell[c], rows[i].clen[c]))
                pseudo++;
            else if (!is_filler(rows[i].cell[c], rows[i].clen[c]))
                break;
        }
        if (i == n && pseudo >= 2)
            return c;
        if (i < n && (size_t)c >= rows[i].ncells)
            return -1;
    }
    return -1;
}

static int row_cmp(const void *pa, const void *pb)
{
    const Row *a = pa, *b = pb;
    int ka = anon_is_pseudonym(a->cell[a->col], a->clen[a->col]);
    int kb = anon_is_pseudonym(b->cell[b->col], b->clen[b->col]);
    if (ka != kb)
        return kb - ka; /* pseudonyms first, the totals after */
    if (ka) {
        size_t n = a->clen[a->col] < b->clen[b->col] ? a->clen[a->col] : b->clen[b->col];
        int c = memcmp(a->cell[a->col], b->cell[b->col], n);
        if (c || a->clen[a->col] != b->clen[b->col])
            return c ? c : a->clen[a->col] < b->clen[b->col] ? -1 : 1;
    }
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Sort rows[0..n) when they have a key column; write them to out. */
static void put_rows(CpBuf *out, Row *rows, size_t n, const char *eol)
{
    int col = key_column(rows, n);
    if (col >= 0) {
        for (size_t i = 0; i < n; i++)
            rows[i].col = col;
        qsort(rows, n, sizeof *rows, row_cmp);
    }
    for (size_t i = 0; i < n; i++) {
        cpbuf_append(out, rows[i].line, rows[i].len);
        cpbuf_append(out, eol, strlen(eol));
    }
}

static int is_align_line(const char *s, size_t n)
{
    if (n < 3 || s[0] != '|')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!strchr("|-: \r", s[i]))
            return 0;
    return 1;
}

char *anon_order_md(const char *md, size_t len, size_t *outlen)
{
    CpBuf out;
    cpbuf_init(&out);
    Row *rows = NULL;
    size_t cap = 0, pos = 0;
    while (pos < len) {
        const char *s = md + pos, *nl = memchr(s, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - s) : len - pos;
        const char *s2 = nl ? nl + 1 : md + len;
        size_t rest = (size_t)(md + len - s2);
        const char *nl2 = rest ? memchr(s2, '\n', rest) : NULL;
        size_t n2 = nl2 ? (size_t)(nl2 - s2) : rest;
        if (n > 0 && s[0] == '|' && rest && is_align_line(s2, n2)) { /* a table */
            cpbuf_append(&out, s, n + 1);
            cpbuf_append(&out, s2, n2);
            cpbuf_append(&out, "\n", 1);
            pos = (size_t)(s2 - md) + n2 + (nl2 ? 1 : 0);
            size_t nrows = 0;
            while (pos < len && md[pos] == '|') {
                const char *r = md + pos, *e = memchr(r, '\n', len - pos);
                size_t rl = e ? (size_t)(e - r) : len - pos;
                if (nrows == cap) {
                    cap = cap ? cap * 2 : 64;
                    rows = xrealloc(rows, cap * sizeof *rows);
                }
                rows[nrows] = (Row){.line = r, .len = rl, .pos = nrows};
                md_cells(&rows[nrows++]);
                pos += rl + (e ? 1 : 0);
            }
            put_rows(&out, rows, nrows, "\n");
            continue;
        }
        cpbuf_append(&out, s, n + (nl ? 1 : 0));
        pos += n + (nl ? 1 : 0);
    }
    free(rows);
    cpbuf_append(&out, "", 1);
    *outlen = out.len - 1;
    return out.data;
}

char *anon_order_csv(const char *text)
{
    size_t len = strlen(text), cap = 0, nrows = 0, pos = 0;
    const char *eol = strstr(text, "\r\n") ? "\r\n" : "\n";
    CpBuf out;
    cpbuf_init(&out);
    Row *rows = NULL;
    while (pos < len) {
        const char *r = text + pos, *e = memchr(r, '\n', len - pos);
        size_t rl = e ? (size_t)(e - r) : len - pos;
        size_t keep = rl && r[rl - 1] == '\r' ? rl - 1 : rl;
        if (pos == 0) { /* the header */
            cpbuf_append(&out, r, keep);
            cpbuf_append(&out, eol, strlen(eol));
        } else if (keep > 0) {
            if (nrows == cap) {
                cap = cap ? cap * 2 : 64;
                rows = xrealloc(rows, cap * sizeof *rows);
            }
            rows[nrows] = (Row){.line = r, .len = keep, .pos = nrows};
            csv_cells(&rows[nrows++]);
        }
        pos += rl + (e ? 1 : 0);
    }
    put_rows(&out, rows, nrows, eol);
    free(rows);
    cpbuf_append(&out, "", 1);
    return out.data;
}
