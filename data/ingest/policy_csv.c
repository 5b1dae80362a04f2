/* policy_csv: see policy_csv.h. Order: reading and checking a CSV into
 * rows; the import (rows handed to store_policy_write). */
#include "data/ingest/policy_csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/ingest/csvin.h"
#include "data/ingest/fields.h"

typedef enum Kind { K_ALLOC, K_CARBON, K_SITES } Kind;

typedef StorePolicyRow Row; /* one checked row */

typedef struct Reader {
    Kind kind;
    const char *name; /* as shown in messages */
    int have_header;
    size_t nfields; /* the header's */
    int idx[4];
    const char *const *cols; /* names of idx[], for messages */
    const char *format;
    Row *rows;
    size_t n, cap;
} Reader;

static const char *const alloc_cols[] = {"group", "year", "gpu_hours"};
static const char *const carbon_cols[] = {"datetime", "zone", "carbon_intensity"};
static const char *const em_cols[] = {
    "datetime|Datetime (UTC)", "zone|Zone Id",
    "carbon_intensity|Carbon Intensity gCO\xe2\x82\x82" "eq/kWh (LCA)|Carbon Intensity "
    "gCO\xe2\x82\x82" "eq/kWh (direct)|Carbon Intensity gCO2eq/kWh (LCA)|Carbon Intensity "
    "gCO2eq/kWh (direct)"};
static const char *const site_cols[] = {"cluster", "pue", "carbon_zone", "carbon_intensity"};

/* The first column of hdr that is not one of cols (exact names), or -1. */
static long unknown_column(const CsvinRec *hdr, const char *const *cols, size_t n)
{
    for (size_t i = 0; i < hdr->n; i++) {
        size_t k = 0;
        while (k < n && strcasecmp(hdr->f[i], cols[k]) != 0)
            k++;
        if (k == n)
            return (long)i;
    }
    return -1;
}

static int reader_header(Reader *r, const CsvinRec *hdr, CpErr *err)
{
    const char *const *cols = r->kind == K_ALLOC ? alloc_cols
                              : r->kind == K_SITES ? site_cols
                                                   : carbon_cols;
    size_t ncols = r->kind == K_SITES ? 4 : 3, nreq = r->kind == K_SITES ? 1 : 3;
    r->cols = cols;
    r->format = r->kind == K_ALLOC ? "allocations-csv" : r->kind == K_SITES ? "sites-csv"
                                                                             : "carbon-csv";
    if (r->kind == K_CARBON && csvin_has_column(hdr, "Datetime (UTC)")) {
        r->format = "electricitymaps-csv";
        return csvin_columns(hdr, r->name, em_cols, 3, 3, r->idx, err);
    }
    long u = unknown_column(hdr, cols, ncols);
    if (u >= 0) {
        char expect[96] = "";
        for (size_t i = 0; i < ncols; i++)
            snprintf(expect + strlen(expect), sizeof expect - strlen(expect), "%s%s", i ? "," : "",
                     cols[i]);
        return cp_err_set(err, "%s:%lld: field %.64s: unknown column (expected %s)", r->name,
                          (long long)hdr->line, hdr->f[u], expect);
    }
    return csvin_columns(hdr, r->name, cols, ncols, nreq, r->idx, err);
}

/* Field i of rec ("" when the column is absent or the row short). */
static const char *field(const Reader *r, const CsvinRec *rec, int i)
{
    return r->idx[i] >= 0 && (size_t)r->idx[i] < rec->n ? rec->f[r->idx[i]] : "";
}

static int bad(const Reader *r, const CsvinRec *rec, int i, const char *why, const char *v,
               CpErr *err)
{
    const char *col = r->cols[i];
    return cp_err_set(err, "%s:%lld: field %s: %s '%.64s'", r->name, (long long)rec->line, col,
                      why, v);
}

/* A number >= 0 from field i; NaN when empty and optional. */
static int num_field(const Reader *r, const CsvinRec *rec, int i, int optional, const char *what,
                     double *out, CpErr *err)
{
    const char *v = field(r, rec, i);
    *out = NAN;
    if (!v[0])
        return optional ? 0 : bad(r, rec, i, "missing value", v, err);
    if (fields_double(v, strlen(v), out, NULL) < 0 || !isfinite(*out))
        return bad(r, rec, i, "bad number", v, err);
    if (*out < 0)
        return bad(r, rec, i, what, v, err);
    return 0;
}

/* ISO 8601 as Electricity Maps and others write it: "2024-01-01T00:00:00.000Z",
 * "2024-01-01 00:00:00", "2024-01-01T00:00:00+01:00". */
static int parse_time(const char *s, int64_t *out)
{
    char buf[64];
    size_t n = strlen(s);
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n + 1);
    if (buf[n - 1] == 'Z' || buf[n - 1] == 'z')
        buf[--n] = '\0';
    char *dot = n > 19 ? strchr(buf + 19, '.') : NULL;
    if (dot && dot == buf + 19) { /* drop the fraction, keep an offset after it */
        char *e = dot + 1;
        while (*e >= '0' && *e <= '9')
            e++;
        memmove(dot, e, strlen(e) + 1);
    }
    if (fields_time(buf, strlen(buf), 0, out, NULL) < 0 || *out == CP_TIME_NONE)
        return -1;
    return 0;
}

static Row *reader_push(Reader *r)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 256;
        r->rows = xrealloc(r->rows, r->cap * sizeof *r->rows);
    }
    Row *row = &r->rows[r->n++];
    memset(row, 0, sizeof *row);
    row->a = row->b = NAN;
    return row;
}

static int row_alloc(Reader *r, const CsvinRec *rec, Row *row, CpErr *err)
{
    int64_t y;
    const char *g = field(r, rec, 0), *ys = field(r, rec, 1);
    if (!g[0])
        return bad(r, rec, 0, "missing value", g, err);
    if (fields_int(ys, strlen(ys), &y, NULL) < 0 || y < 1970 || y > 2200)
        return bad(r, rec, 1, "bad year", ys, err);
    row->key = xstrdup(g);
    row->num = y;
    if (num_field(r, rec, 2, 0, "negative hours", &row->a, err) < 0)
        return -1;
    if (row->a == 0) /* regulated with nothing to use: leave the group out instead */
        return bad(r, rec, 2, "an allocation of 0 h (a group without one is not regulated: "
                              "leave it out)",
                   field(r, rec, 2), err);
    return 0;
}

static int row_carbon(Reader *r, const CsvinRec *rec, Row *row, CpErr *err)
{
    const char *t = field(r, rec, 0), *z = field(r, rec, 1);
    if (parse_time(t, &row->num) < 0)
        return bad(r, rec, 0, "bad date and time", t, err);
    row->num -= ((row->num % 3600) + 3600) % 3600;
    if (!z[0])
        return bad(r, rec, 1, "missing value", z, err);
    row->key = xstrdup(z);
    return num_field(r, rec, 2, 0, "negative intensity", &row->a, err);
}

static int row_site(Reader *r, const CsvinRec *rec, Row *row, CpErr *err)
{
    const char *c = field(r, rec, 0), *z = field(r, rec, 2);
    if (!c[0])
        return bad(r, rec, 0, "missing value", c, err);
    row->key = xstrdup(c);
    row->zone = z[0] ? xstrdup(z) : NULL;
    if (num_field(r, rec, 1, 1, "negative PUE", &row->a, err) < 0 ||
        num_field(r, rec, 3, 1, "negative intensity", &row->b, err) < 0)
        return -1;
    if (!isnan(row->a) && row->a < 1.0)
        return bad(r, rec, 1, "PUE below 1", field(r, rec, 1), err);
    return 0;
}

static int reader_rec(void *ctx, const CsvinRec *rec, CpErr *err)
{
    Reader *r = ctx;
    if (!r->have_header) {
        r->have_header = 1;
        r->nfields = rec->n;
        return reader_header(r, rec, err);
    }
    if (csvin_rec_empty(rec))
        return 0;
    if (rec->n != r->nfields) /* "1,000": a thousands separator, an unquoted comma */
        return cp_err_set(err, "%s:%lld: expected %zu fields as in the header, found %zu",
                          r->name, (long long)rec->line, r->nfields, rec->n);
    Row *row = reader_push(r);
    row->line = rec->line;
    return r->kind == K_ALLOC    ? row_alloc(r, rec, row, err)
           : r->kind == K_CARBON ? row_carbon(r, rec, row, err)
                                 : row_site(r, rec, row, err);
}

static void rows_free(Row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(rows[i].key);
        free(rows[i].zone);
    }
    free(rows);
}

static int read_file(Reader *r, const char *path, int enc, CpErr *err)
{
    int rc = csvin_read_path(path, enc, reader_rec, r, err);
    if (rc == 0 && !r->have_header)
        rc = cp_err_set(err, "%s:1: empty file (expected a header)", r->name);
    return rc;
}

/* ---- the import ---- */

int store_policy_import(Store *st, const char *kind, const char *path, int enc,
                        StorePolicyResult *res, CpErr *err)
{
    Reader r;
    memset(&r, 0, sizeof r);
    memset(res, 0, sizeof *res);
    r.kind = strcmp(kind, "allocations") == 0 ? K_ALLOC
             : strcmp(kind, "carbon") == 0    ? K_CARBON
                                              : K_SITES;
    r.name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    int rc = read_file(&r, path, enc, err);
    res->format = r.format;
    res->rows_read = (int64_t)r.n;
    if (rc == 0)
        rc = store_policy_write(st, kind, path, r.name, r.format, r.rows, r.n, res, err);
    rows_free(r.rows, r.n);
    return rc;
}
