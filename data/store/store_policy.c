/* store_policy: see store_policy.h. Order: reading and checking a CSV
 * into rows; writing the rows; loading for core/policy. */
#include "data/store/store_policy.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/ingest/csvin.h"
#include "data/ingest/fields.h"
#include "data/store/sqlrow.h"
#include "data/store/store.h"
#include "data/store/store_meetings.h"
#include "data/store/store_plan.h"
#include "data/store/store_stats.h"

/* ---- reading a file ---- */

typedef enum Kind { K_ALLOC, K_CARBON, K_SITES } Kind;

/* One checked row: key (group, zone, cluster), num (year, hour), and up
 * to two values; zone for sites. NaN values are empty cells. */
typedef struct Row {
    char *key, *zone;
    int64_t num;
    double a, b;
    int64_t line; /* in the file, for messages */
} Row;

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

int store_policy_kind(const char *kind)
{
    return strcmp(kind, "allocations") == 0 || strcmp(kind, "carbon") == 0 ||
           strcmp(kind, "sites") == 0;
}

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

/* ---- writing ---- */

/* exists, upsert (writes only when a value differs) per kind; ?1 key,
 * ?2 num or zone, ?3.. values, last the import id. */
static const char *const sql_exists[] = {
    "SELECT 1 FROM allocations WHERE group_name = ?1 AND year = ?2",
    "SELECT 1 FROM carbon_intensity WHERE zone = ?1 AND hour = ?2",
    "SELECT 1 FROM sites WHERE cluster = ?1",
};
static const char *const sql_upsert[] = {
    "INSERT INTO allocations(group_name, year, gpu_hours, import_id) VALUES(?1, ?2, ?3, ?5) "
    "ON CONFLICT(group_name, year) DO UPDATE SET gpu_hours = excluded.gpu_hours, "
    "import_id = excluded.import_id WHERE gpu_hours IS NOT excluded.gpu_hours",
    "INSERT INTO carbon_intensity(zone, hour, g_per_kwh, import_id) VALUES(?1, ?2, ?3, ?5) "
    "ON CONFLICT(zone, hour) DO UPDATE SET g_per_kwh = excluded.g_per_kwh, "
    "import_id = excluded.import_id WHERE g_per_kwh IS NOT excluded.g_per_kwh",
    "INSERT INTO sites(cluster, carbon_zone, pue, carbon_intensity, import_id) "
    "VALUES(?1, ?2, ?3, ?4, ?5) ON CONFLICT(cluster) DO UPDATE SET "
    "carbon_zone = excluded.carbon_zone, pue = excluded.pue, "
    "carbon_intensity = excluded.carbon_intensity, import_id = excluded.import_id "
    "WHERE carbon_zone IS NOT excluded.carbon_zone OR pue IS NOT excluded.pue OR "
    "carbon_intensity IS NOT excluded.carbon_intensity",
};

static void bind_row(sqlite3_stmt *s, Kind k, const Row *row, int64_t import_id, int values)
{
    sqlite3_bind_text(s, 1, row->key, -1, SQLITE_STATIC);
    if (k == K_SITES) {
        if (!values)
            return;
        if (row->zone)
            sqlite3_bind_text(s, 2, row->zone, -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(s, 2);
    } else {
        sqlite3_bind_int64(s, 2, row->num);
    }
    if (!values)
        return;
    double v[2] = {row->a, row->b};
    for (int i = 0; i < 2; i++)
        if (isnan(v[i]))
            sqlite3_bind_null(s, 3 + i);
        else
            sqlite3_bind_double(s, 3 + i, v[i]);
    sqlite3_bind_int64(s, 5, import_id);
}

static int db_fail(sqlite3 *db, CpErr *err)
{
    return cp_err_set(err, "database: %s", sqlite3_errmsg(db));
}

/* Write one row; counts it. */
static int write_row(sqlite3 *db, sqlite3_stmt *ex, sqlite3_stmt *up, Kind k, const Row *row,
                     int64_t import_id, StorePolicyResult *res, CpErr *err)
{
    bind_row(ex, k, row, import_id, 0);
    int rc = sqlite3_step(ex);
    int exists = rc == SQLITE_ROW;
    sqlite3_reset(ex);
    sqlite3_clear_bindings(ex);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return db_fail(db, err);
    bind_row(up, k, row, import_id, 1);
    rc = sqlite3_step(up);
    sqlite3_reset(up);
    sqlite3_clear_bindings(up);
    if (rc != SQLITE_DONE)
        return db_fail(db, err);
    int changed = sqlite3_changes(db) > 0;
    res->added += !exists;
    res->updated += exists && changed;
    res->unchanged += exists && !changed;
    return 0;
}

static int write_rows(Store *st, const Reader *r, const char *kind, const char *path,
                      StorePolicyResult *res, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *ex = NULL, *up = NULL;
    if (store_begin(st, err) < 0)
        return -1;
    int64_t import_id = store_import_begin(st, kind, path, r->format, err);
    int rc = import_id < 0 ? -1 : 0;
    if (rc == 0 && (sqlite3_prepare_v2(db, sql_exists[r->kind], -1, &ex, NULL) != SQLITE_OK ||
                    sqlite3_prepare_v2(db, sql_upsert[r->kind], -1, &up, NULL) != SQLITE_OK))
        rc = db_fail(db, err);
    for (size_t i = 0; rc == 0 && i < r->n; i++) {
        if (r->kind == K_ALLOC) { /* a group the database knows (roster, groups, accounts) */
            int known = store_meetings_group_known(st, r->rows[i].key, err);
            if (known <= 0) {
                if (known == 0)
                    cp_err_set(err, "%s:%lld: field group: unknown group '%.64s' (not in the "
                                    "roster or the accounts)",
                               r->name, (long long)r->rows[i].line, r->rows[i].key);
                rc = -1;
                break;
            }
        }
        rc = write_row(db, ex, up, r->kind, &r->rows[i], import_id, res, err);
    }
    sqlite3_finalize(ex);
    sqlite3_finalize(up);
    if (rc == 0)
        rc = store_import_end(st, import_id, res->rows_read, res->added, res->updated, 0, err);
    if (rc == 0)
        rc = store_commit(st, err);
    if (rc < 0)
        store_rollback(st);
    return rc < 0 ? -1 : 0;
}

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
        rc = write_rows(st, &r, kind, path, res, err);
    rows_free(r.rows, r.n);
    return rc;
}

/* ---- loading ---- */

struct StorePolicyData {
    PolicyAlloc *allocs;
    size_t nallocs;
    PolicySite *sites;
    size_t nsites;
    PolicyCarbon *carbon;
    size_t ncarbon;
    PolicyTdp *tdp;
    size_t ntdp;
    char **strs; /* every string above */
    size_t nstrs, capstrs;
    PolicyInput params; /* params and delay only */
};

static const char *keep(StorePolicyData *d, const unsigned char *s)
{
    if (!s)
        return NULL;
    if (d->nstrs == d->capstrs) {
        d->capstrs = d->capstrs ? d->capstrs * 2 : 64;
        d->strs = xrealloc(d->strs, d->capstrs * sizeof *d->strs);
    }
    return d->strs[d->nstrs++] = xstrdup((const char *)s);
}

/* The zones repeat: keep one copy of each. */
static const char *keep_zone(StorePolicyData *d, const unsigned char *s, const char *last)
{
    return last && s && strcmp(last, (const char *)s) == 0 ? last : keep(d, s);
}

/* Run sql, calling row for each result row. */
static int each_row(sqlite3 *db, const char *sql, void (*row)(StorePolicyData *, sqlite3_stmt *),
                    StorePolicyData *d, CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return db_fail(db, err);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        row(d, s);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : db_fail(db, err);
}

/* The new capacity of an array of n that must grow before its next
 * element (at 0 and at each power of two), else 0. */
static size_t grown(size_t n)
{
    return (n & (n - 1)) == 0 ? (n ? 2 * n : 1) : 0;
}

static void alloc_row(StorePolicyData *d, sqlite3_stmt *s)
{
    if (grown(d->nallocs))
        d->allocs = xrealloc(d->allocs, grown(d->nallocs) * sizeof *d->allocs);
    PolicyAlloc *a = &d->allocs[d->nallocs++];
    a->group = keep(d, sqlite3_column_text(s, 0));
    a->year = sqlite3_column_int(s, 1);
    a->gpu_hours = sqlite3_column_double(s, 2);
}

static void site_row(StorePolicyData *d, sqlite3_stmt *s)
{
    if (grown(d->nsites))
        d->sites = xrealloc(d->sites, grown(d->nsites) * sizeof *d->sites);
    PolicySite *p = &d->sites[d->nsites++];
    p->cluster = keep(d, sqlite3_column_text(s, 0));
    p->zone = keep(d, sqlite3_column_text(s, 1));
    p->pue = sqlrow_num(s, 2, NAN);
    p->intensity = sqlrow_num(s, 3, NAN);
}

static void carbon_row(StorePolicyData *d, sqlite3_stmt *s)
{
    if (grown(d->ncarbon))
        d->carbon = xrealloc(d->carbon, grown(d->ncarbon) * sizeof *d->carbon);
    PolicyCarbon *c = &d->carbon[d->ncarbon];
    c->zone = keep_zone(d, sqlite3_column_text(s, 0), d->ncarbon ? d->carbon[d->ncarbon - 1].zone
                                                                 : NULL);
    c->hour = sqlite3_column_int64(s, 1);
    c->g_per_kwh = sqlite3_column_double(s, 2);
    d->ncarbon++;
}

static void tdp_row(StorePolicyData *d, sqlite3_stmt *s)
{
    if (grown(d->ntdp))
        d->tdp = xrealloc(d->tdp, grown(d->ntdp) * sizeof *d->tdp);
    PolicyTdp *t = &d->tdp[d->ntdp++];
    t->cluster = keep(d, sqlite3_column_text(s, 0));
    t->gpu_model = keep(d, sqlite3_column_text(s, 1));
    t->tdp_w = sqlite3_column_double(s, 2);
}

static int load_params(Store *st, StorePolicyData *d, const char *scenario, CpErr *err)
{
    if (!scenario || strcmp(scenario, "base") == 0)
        return 0;
    StorePlanParam *pp;
    size_t n;
    if (store_plan_params(st, scenario, &pp, &n, err) < 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        if (policy_key_known(pp[i].key))
            rc = policy_param_set(&d->params, pp[i].key, pp[i].value, err);
    store_plan_params_free(pp, n);
    return rc;
}

StorePolicyData *store_policy_load(Store *st, const char *scenario, CpErr *err)
{
    StorePolicyData *d = xcalloc(1, sizeof *d);
    sqlite3 *db = store_db(st);
    policy_input_init(&d->params);
    if (each_row(db, "SELECT group_name, year, gpu_hours FROM allocations ORDER BY 1, 2",
                 alloc_row, d, err) < 0 ||
        each_row(db, "SELECT cluster, carbon_zone, pue, carbon_intensity FROM sites ORDER BY 1",
                 site_row, d, err) < 0 ||
        each_row(db, "SELECT zone, hour, g_per_kwh FROM carbon_intensity ORDER BY 1, 2",
                 carbon_row, d, err) < 0 ||
        each_row(db, "SELECT cluster, gpu_model, tdp_w FROM inventory WHERE tdp_w IS NOT NULL",
                 tdp_row, d, err) < 0 ||
        load_params(st, d, scenario, err) < 0) {
        store_policy_free(d);
        return NULL;
    }
    return d;
}

void store_policy_free(StorePolicyData *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->nstrs; i++)
        free(d->strs[i]);
    free(d->strs);
    free(d->allocs);
    free(d->sites);
    free(d->carbon);
    free(d->tdp);
    free(d);
}

void store_policy_input(const StorePolicyData *d, const StatsInput *stats, PolicyInput *in)
{
    in->stats = stats;
    in->allocs = d->allocs;
    in->nallocs = d->nallocs;
    in->sites = d->sites;
    in->nsites = d->nsites;
    in->carbon = d->carbon;
    in->ncarbon = d->ncarbon;
    in->tdp = d->tdp;
    in->ntdp = d->ntdp;
    in->params = d->params.params;
    in->shift_delay_h = d->params.shift_delay_h;
}

size_t store_policy_nallocs(const StorePolicyData *d)
{
    return d->nallocs;
}

/* ---- the dashboard's panel ---- */

static double cell_num(const StatsTable *t, size_t r, const char *col)
{
    const StatsCell *c = stats_table_cell(t, r, col);
    return c ? c->num : NAN;
}

static void panel_energy(const PolicyInput *in, StorePolicyPanel *out)
{
    StatsOpts o = {.by = STATS_BY_YEAR};
    StatsReport rep;
    CpErr err;
    if (policy_energy(in, &o, &rep, &err) == 0) {
        const StatsTable *t = stats_report_table(&rep, "energy");
        size_t n = t && t->nrows ? t->nrows - 1 : 0; /* the last row is the total */
        double h = 0, hm = 0;
        for (size_t r = n > 2 ? n - 2 : 0; r < n; r++, out->nyears++) {
            out->year[out->nyears] = atoi(stats_table_cell(t, r, "period")->text);
            out->kwh[out->nyears] = cell_num(t, r, "kwh");
            out->kg[out->nyears] = cell_num(t, r, "kg_co2e");
            h += cell_num(t, r, "gpu_hours");
            hm += cell_num(t, r, "gpu_hours") * cell_num(t, r, "measured_pct") / 100.0;
        }
        out->measured_pct = h > 0 ? 100.0 * hm / h : NAN;
    }
    stats_report_free(&rep);
}

static int panel_used_cmp(const void *pa, const void *pb)
{
    double a = ((const double *)pa)[0], b = ((const double *)pb)[0];
    a = isnan(a) ? -1 : a;
    b = isnan(b) ? -1 : b;
    return (a < b) - (a > b);
}

static void panel_groups(const PolicyInput *in, StorePolicyPanel *out)
{
    StatsOpts o = {.by = STATS_BY_ALL};
    StatsReport rep;
    CpErr err;
    out->has_allocations = in->nallocs > 0;
    if (in->nallocs && policy_fairshare(in, &o, &rep, &err) == 0) {
        const StatsTable *t = stats_report_table(&rep, "series");
        size_t n = t ? t->nrows : 0;
        double *key = xmalloc((2 * n + 1) * sizeof *key); /* (used %, row) pairs */
        for (size_t r = 0; r < n; r++) {
            key[2 * r] = cell_num(t, r, "used_pct");
            key[2 * r + 1] = (double)r;
        }
        qsort(key, n, 2 * sizeof *key, panel_used_cmp);
        for (size_t i = 0; i < n && out->ngroups < STORE_POLICY_PANEL_GROUPS; i++) {
            size_t r = (size_t)key[2 * i + 1];
            int k = out->ngroups++;
            snprintf(out->group[k].name, sizeof out->group[k].name, "%s",
                     stats_table_cell(t, r, "group")->text);
            out->group[k].used_pct = cell_num(t, r, "used_pct");
            out->group[k].factor = cell_num(t, r, "factor");
            out->group[k].blocked = cell_num(t, r, "blocked") > 0;
        }
        free(key);
    }
    if (in->nallocs)
        stats_report_free(&rep);
}

int store_policy_panel(Store *st, const char *scenario, StorePolicyPanel *out, CpErr *err)
{
    memset(out, 0, sizeof *out);
    PolicyInput in;
    StorePolicyOpen *o = store_policy_open(
        st, scenario, STORE_POLICY_ENERGY | STORE_POLICY_FAIRSHARE, NULL, &in, err);
    if (!o)
        return -1;
    panel_energy(&in, out);
    panel_groups(&in, out);
    store_policy_close(o);
    return 0;
}
