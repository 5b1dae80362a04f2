/* store_policy: see store_policy.h. Order: writing the rows that
 * data/ingest/policy_csv.c read and checked; loading for core/policy. */
#include "data/store/store_policy.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store/sqlrow.h"
#include "data/store/store.h"
#include "data/store/store_meetings.h"
#include "data/store/store_plan.h"
#include "data/store/store_stats.h"

typedef enum Kind { K_ALLOC, K_CARBON, K_SITES } Kind;
typedef StorePolicyRow Row;

int store_policy_kind(const char *kind)
{
    return strcmp(kind, "allocations") == 0 || strcmp(kind, "carbon") == 0 ||
           strcmp(kind, "sites") == 0;
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

int store_policy_write(Store *st, const char *kind, const char *path, const char *name,
                       const char *format, const StorePolicyRow *rows, size_t n,
                       StorePolicyResult *res, CpErr *err)
{
    Kind k = strcmp(kind, "allocations") == 0 ? K_ALLOC
             : strcmp(kind, "carbon") == 0    ? K_CARBON
                                              : K_SITES;
    sqlite3 *db = store_db(st);
    sqlite3_stmt *ex = NULL, *up = NULL;
    if (store_begin(st, err) < 0)
        return -1;
    int64_t import_id = store_import_begin(st, kind, path, format, err);
    int rc = import_id < 0 ? -1 : 0;
    if (rc == 0 && (sqlite3_prepare_v2(db, sql_exists[k], -1, &ex, NULL) != SQLITE_OK ||
                    sqlite3_prepare_v2(db, sql_upsert[k], -1, &up, NULL) != SQLITE_OK))
        rc = db_fail(db, err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (k == K_ALLOC) { /* a group the database knows (roster, groups, accounts) */
            int known = store_meetings_group_known(st, rows[i].key, err);
            if (known <= 0) {
                if (known == 0)
                    cp_err_set(err, "%s:%lld: field group: unknown group '%.64s' (not in the "
                                    "roster or the accounts)",
                               name, (long long)rows[i].line, rows[i].key);
                rc = -1;
                break;
            }
        }
        rc = write_row(db, ex, up, k, &rows[i], import_id, res, err);
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
    PolicySpeed *speeds;
    size_t nspeeds;
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

static void speed_row(StorePolicyData *d, sqlite3_stmt *s)
{
    if (grown(d->nspeeds))
        d->speeds = xrealloc(d->speeds, grown(d->nspeeds) * sizeof *d->speeds);
    PolicySpeed *t = &d->speeds[d->nspeeds++];
    t->cluster = keep(d, sqlite3_column_text(s, 0));
    t->gpu_model = keep(d, sqlite3_column_text(s, 1));
    t->speed = sqlite3_column_double(s, 2);
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
        each_row(db,
                 "SELECT cluster, gpu_model, relative_speed FROM inventory "
                 "WHERE relative_speed IS NOT NULL",
                 speed_row, d, err) < 0 ||
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
    free(d->speeds);
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
    in->speeds = d->speeds;
    in->nspeeds = d->nspeeds;
    in->params = d->params.params;
    in->shift_delay_h = d->params.shift_delay_h;
}

size_t store_policy_nallocs(const StorePolicyData *d)
{
    return d->nallocs;
}
