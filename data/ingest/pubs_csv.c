/* pubs_csv: the research CSV `year,title,authors[,venue,keywords,abstract]`
 * into papers. Authors are ';'-separated, or joined by " and " as BibTeX
 * writes them. */

#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "data/ingest/csvin.h"
#include "data/ingest/pubs_int.h"

enum { C_YEAR, C_TITLE, C_AUTHORS, C_VENUE, C_KEYWORDS, C_ABSTRACT, C_NCOLS };

static const char *const cols[C_NCOLS] = {"year", "title", "authors|author", "venue",
                                          "keywords", "abstract"};

typedef struct CsvCtx {
    PubsCtx *c;
    int have_header;
    size_t nfields;
    int idx[C_NCOLS];
} CsvCtx;

static const char *col(const CsvCtx *x, const CsvinRec *rec, int i)
{
    return x->idx[i] >= 0 && (size_t)x->idx[i] < rec->n ? rec->f[x->idx[i]] : "";
}

/* Split authors on ';' or " and " into owned plain names. */
static int split_authors(const char *s, char ***out)
{
    size_t n = strlen(s);
    char *buf = xmalloc(n + 1);
    memcpy(buf, s, n + 1);
    char **names = xmalloc((n / 2 + 2) * sizeof *names);
    int k = 0;
    int semi = strchr(buf, ';') != NULL;
    for (char *p = buf; p && *p;) {
        char *e = semi ? strchr(p, ';') : strstr(p, " and ");
        if (e)
            *e = '\0';
        char *t = names_text(p);
        if (*t)
            names[k++] = t;
        else
            free(t);
        p = e ? e + (semi ? 1 : 5) : NULL;
    }
    free(buf);
    *out = names;
    return k;
}

static int row(CsvCtx *x, const CsvinRec *rec, CpErr *err)
{
    PubsCtx *c = x->c;
    c->rc.rows_read++;
    if (rec->n != x->nfields) {
        char why[96];
        snprintf(why, sizeof why, "expected %zu fields, found %zu", x->nfields, rec->n);
        return pubs_reject(c, rec->line, NULL, why, err);
    }
    int year = pubs_year(col(x, rec, C_YEAR));
    if (year < 0) {
        char why[96];
        snprintf(why, sizeof why, "bad year '%.40s'", col(x, rec, C_YEAR));
        return pubs_reject(c, rec->line, "year", why, err);
    }
    char *title = names_text(col(x, rec, C_TITLE));
    if (!*title) {
        free(title);
        return pubs_reject(c, rec->line, "title", "empty value", err);
    }
    char **names;
    int n = split_authors(col(x, rec, C_AUTHORS), &names);
    int rc;
    if (n == 0)
        rc = pubs_reject(c, rec->line, "authors", "empty value", err);
    else {
        PubRec p = {year, title, col(x, rec, C_VENUE), col(x, rec, C_KEYWORDS),
                    col(x, rec, C_ABSTRACT), NULL, (const char *const *)names, n, NULL};
        rc = pubs_put(c, &p, err);
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(title);
    return rc;
}

static int on_record(void *ctx, const CsvinRec *rec, CpErr *err)
{
    CsvCtx *x = ctx;
    if (!x->have_header) {
        x->have_header = 1;
        x->nfields = rec->n;
        return csvin_columns(rec, x->c->name, cols, C_NCOLS, 3, x->idx, err);
    }
    if (csvin_rec_empty(rec))
        return 0;
    return row(x, rec, err);
}

int pubs_csv_read(FILE *f, PubsCtx *c, CpErr *err)
{
    CsvCtx x;
    memset(&x, 0, sizeof x);
    x.c = c;
    if (csvin_read(f, c->name, 0, on_record, &x, err) < 0)
        return -1;
    if (!x.have_header)
        return cp_err_set(err, "%s: empty file (expected a header line)", c->name);
    return 0;
}
