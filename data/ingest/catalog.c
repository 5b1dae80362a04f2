#include "data/ingest/catalog.h"

#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/ingest/csvin.h"
#include "data/store/store.h"
#include "data/store/store_catalog.h"

enum { C_MODEL, C_MEM, C_SPEED, C_TDP, C_PRICE, C_CURRENCY, C_COUNT };

static const char *const columns[C_COUNT] = {
    "model", "mem_gib|memory_gib|gpu_mem_gib", "relative_speed", "tdp_w", "price", "currency"};
static const char *const field_names[C_COUNT] = {"model", "mem_gib", "relative_speed",
                                                 "tdp_w", "price", "currency"};

typedef struct CatRead {
    const char *name;
    const ImportOpts *o;
    int idx[C_COUNT];
    size_t nfields;
    int have_header;
    CatalogGpu *v;
    size_t n, cap;
    int64_t rejected;
} CatRead;

static const char *field(const CatRead *cr, const CsvinRec *rec, int c)
{
    return cr->idx[c] >= 0 ? rec->f[cr->idx[c]] : "";
}

/* A number in [0, hi], above 0 when positive; empty is -1 when opt. */
static int number(const char *s, double hi, int positive, int opt, double *out, CpErr *err)
{
    if (!s[0]) {
        *out = -1;
        return opt ? 0 : cp_err_set(err, "missing value");
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v))
        return cp_err_set(err, "bad number '%.40s'", s);
    if (v < 0 || v > hi || (positive && v == 0))
        return cp_err_set(err, "%g out of range (%s %g)", v,
                          positive ? "above 0, at most" : "0 to", hi);
    *out = v;
    return 0;
}

static int printable(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return 0;
    return 1;
}

/* Validate one row into g; -1 with *bad the field and err the reason. */
static int parse_row(const CatRead *cr, const CsvinRec *rec, CatalogGpu *g, int *bad,
                     CpErr *err)
{
    const char *model = field(cr, rec, C_MODEL), *cur = field(cr, rec, C_CURRENCY);
    *bad = C_MODEL;
    if (!model[0])
        return cp_err_set(err, "missing value");
    if (strlen(model) > 64 || !printable(model))
        return cp_err_set(err, "bad model name");
    for (size_t i = 0; i < cr->n; i++)
        if (strcmp(cr->v[i].model, model) == 0)
            return cp_err_set(err, "model '%s' listed twice", model);
    if ((*bad = C_MEM, number(field(cr, rec, C_MEM), 4096, 1, 0, &g->mem_gib, err)) < 0 ||
        (*bad = C_SPEED,
         number(field(cr, rec, C_SPEED), 1000, 1, 0, &g->relative_speed, err)) < 0 ||
        (*bad = C_TDP, number(field(cr, rec, C_TDP), 10000, 1, 1, &g->tdp_w, err)) < 0 ||
        (*bad = C_PRICE, number(field(cr, rec, C_PRICE), 1e9, 0, 1, &g->price, err)) < 0)
        return -1;
    *bad = C_CURRENCY;
    if (!cur[0])
        cur = cr->n ? cr->v[0].currency : "EUR";
    if (strlen(cur) != 3 || strspn(cur, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != 3)
        return cp_err_set(err, "bad currency '%.8s' (three capital letters: EUR)", cur);
    if (cr->n && strcmp(cur, cr->v[0].currency) != 0)
        return cp_err_set(err, "currency %s differs from the file's %s", cur, cr->v[0].currency);
    memcpy(g->currency, cur, 4);
    g->model = xstrdup(model);
    return 0;
}

static int on_record(void *ctx, const CsvinRec *rec, CpErr *err)
{
    CatRead *cr = ctx;
    if (csvin_rec_comment(rec)) /* the reference catalog's notes: source and date */
        return 0;
    if (!cr->have_header) {
        cr->have_header = 1;
        cr->nfields = rec->n;
        return csvin_columns(rec, cr->name, columns, C_COUNT, 3, cr->idx, err);
    }
    if (csvin_rec_empty(rec))
        return 0;
    CatalogGpu g;
    CpErr why;
    int bad = C_MODEL;
    char msg[CP_ERR_MAX + 64];
    if (rec->n != cr->nfields)
        snprintf(msg, sizeof msg, "%s:%lld: expected %zu fields, found %zu", cr->name,
                 (long long)rec->line, cr->nfields, rec->n);
    else if (parse_row(cr, rec, &g, &bad, &why) < 0)
        snprintf(msg, sizeof msg, "%s:%lld: field %s: %s", cr->name, (long long)rec->line,
                 field_names[bad], why.msg);
    else {
        cr->v = xrealloc(cr->v, (cr->n + 1) * sizeof *cr->v);
        cr->v[cr->n++] = g;
        return 0;
    }
    if (cr->o->strict)
        return cp_err_set(err, "%s", msg);
    cr->rejected++;
    if (cr->o->reject)
        cr->o->reject(cr->o->reject_ctx, msg);
    return 0;
}

int catalog_read_csv(const char *path, const ImportOpts *o, CatalogGpu **out, size_t *n,
                     int64_t *rejected, CpErr *err)
{
    int is_stdin = strcmp(path, "-") == 0;
    CatRead cr;
    memset(&cr, 0, sizeof cr);
    cr.name = is_stdin ? "<stdin>" : path;
    cr.o = o;
    *out = NULL;
    *n = 0;
    *rejected = 0;
    int rc = csvin_read_path(path, o ? o->encoding : 0, on_record, &cr, err);
    if (rc == 0 && !cr.have_header)
        rc = cp_err_set(err, "%s: empty file (expected a header line)", cr.name);
    if (rc < 0) {
        catalog_free(cr.v, cr.n);
        return -1;
    }
    *out = cr.v;
    *n = cr.n;
    *rejected = cr.rejected;
    return 0;
}

int catalog_import(Store *st, const char *path, const ImportOpts *o, ImportResult *res,
                   CpErr *err)
{
    CatalogGpu *v;
    size_t n;
    memset(res, 0, sizeof *res);
    snprintf(res->format, sizeof res->format, "catalog-csv");
    if (catalog_read_csv(path, o, &v, &n, &res->rejected, err) < 0)
        return -1;
    res->rows_read = (int64_t)n + res->rejected;
    int rc = store_begin(st, err);
    if (rc == 0 && store_catalog_put(st, path, v, n, res, err) < 0) {
        store_rollback(st);
        rc = -1;
    } else if (rc == 0 && store_commit(st, err) < 0) {
        store_rollback(st);
        rc = -1;
    }
    catalog_free(v, n);
    return rc;
}

int catalog_builtin(CatalogGpu **out, size_t *n)
{
    FILE *f = fmemopen((void *)(uintptr_t)catalog_builtin_csv, strlen(catalog_builtin_csv), "r");
    CatRead cr;
    memset(&cr, 0, sizeof cr);
    cr.name = "catalog_ref.csv";
    ImportOpts o;
    memset(&o, 0, sizeof o);
    o.strict = 1;
    cr.o = &o;
    CpErr err;
    int rc = f ? csvin_read(f, cr.name, 1 << 16, on_record, &cr, &err) : -1;
    if (f)
        fclose(f);
    assert(rc == 0 && cr.n > 0); /* compiled in: a bad row is a bug */
    *out = cr.v;
    *n = cr.n;
    return rc;
}

const char *catalog_builtin_date(void)
{
    return CATALOG_BUILTIN_DATE;
}

int catalog_effective(Store *st, CatalogGpu **out, size_t *n, int *builtin, CpErr *err)
{
    if (store_catalog_load(st, out, n, err) < 0)
        return -1;
    *builtin = *n == 0;
    if (*builtin) {
        free(*out);
        return catalog_builtin(out, n) < 0 ? cp_err_set(err, "the reference catalog is bad") : 0;
    }
    return 0;
}
