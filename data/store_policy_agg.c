/* store_policy_agg: the runs' aggregate of core/policy (policy.h) kept in
 * the table policy_agg, and what a replay loads (store_policy.h). Order:
 * the fingerprint; reading the attempts in one pass; the table; opening
 * a replay. */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"
#include "data/sqlrow.h"
#include "data/store.h"
#include "data/store_policy.h"
#include "data/store_stats.h"

#define LAYOUT 1
#define CHUNK 8192 /* attempts per builder call */

static int exec(sqlite3 *db, const char *sql)
{
    return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

/* ---- fingerprint: what the cells depend on ---- */

/* h chained over every column of every row of sql. */
static int digest(sqlite3 *db, const char *sql, uint64_t *h)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return -1;
    int rc, nc = sqlite3_column_count(s);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        for (int i = 0; i < nc; i++) {
            const unsigned char *v = sqlite3_column_text(s, i);
            *h = v ? strmap_hash(*h, v, (size_t)sqlite3_column_bytes(s, i) + 1)
                   : strmap_hash(*h, "\x01", 1);
        }
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* The jobs (highest id, the last import that can change them), the
 * roster, groups, sites and carbon series, and the cells' layout. */
static int fingerprint(sqlite3 *db, char *buf, size_t n, CpErr *err)
{
    uint64_t h = 0;
    if (digest(db,
                "SELECT (SELECT coalesce(max(id), 0) FROM jobs), "
                "(SELECT coalesce(max(id), 0) FROM imports WHERE kind NOT IN "
                "('inventory', 'events', 'pubs', 'papers', 'allocations', 'peers', 'catalog')), "
                "(SELECT count(*) FROM carbon_intensity), "
                "(SELECT total(g_per_kwh) FROM carbon_intensity), "
                "(SELECT total(hour) FROM carbon_intensity)",
                &h) < 0 ||
        digest(db, "SELECT user, group_name, domain, start_date, end_date FROM people ORDER BY id",
               &h) < 0 ||
        digest(db, "SELECT name, domain FROM groups ORDER BY name", &h) < 0 ||
        digest(db, "SELECT cluster, carbon_zone, pue, carbon_intensity FROM sites ORDER BY 1",
               &h) < 0)
        return sqlrow_err(db, err, "read the jobs' state");
    snprintf(buf, n, "policy %d %zu %016llx", LAYOUT, sizeof(PolicyCell), (unsigned long long)h);
    return 0;
}

/* ---- the attempts, as core/stats reads them (data/store_stats.c) ---- */

typedef struct Reader {
    StrMap *types; /* gpu type name -> id */
    char **tv;     /* names by id, 0 untyped */
    size_t ntv;
} Reader;

static int64_t col_time(sqlite3_stmt *s, int i)
{
    if (sqlite3_column_type(s, i) == SQLITE_NULL)
        return INT64_MIN;
    int64_t t = sqlite3_column_int64(s, i);
    return t > 0 ? t : INT64_MIN;
}

static uint32_t col_epoch32(sqlite3_stmt *s, int i)
{
    int64_t t = col_time(s, i);
    return t != INT64_MIN && t <= (int64_t)UINT32_MAX ? (uint32_t)t : 0;
}

static uint16_t col_id16(sqlite3_stmt *s, int i)
{
    int64_t v = sqlite3_column_int64(s, i);
    return v > 0 && v <= UINT16_MAX ? (uint16_t)v : 0;
}

static int32_t clamp32(int64_t v)
{
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

static uint16_t type_id(Reader *r, const unsigned char *name, int n)
{
    int64_t id;
    if (!name || n <= 0)
        return 0;
    if (strmap_get(r->types, (const char *)name, (size_t)n, &id))
        return (uint16_t)id;
    if (r->ntv >= UINT16_MAX)
        return 0;
    r->tv = xrealloc(r->tv, (r->ntv + 1) * sizeof *r->tv);
    r->tv[r->ntv] = xstrndup((const char *)name, (size_t)n);
    strmap_put(r->types, (const char *)name, (size_t)n, (int64_t)r->ntv);
    return (uint16_t)r->ntv++;
}

#define RUN_SQL                                                                    \
    "SELECT cluster_id, submit, start, end_time, elapsed, coalesce(user_id, 0), " \
    "coalesce(account_id, 0), coalesce(partition_id, 0), gpus, gpu_util, gpu_type, state " \
    "FROM jobs WHERE id > ?1 ORDER BY id"

/* *j from a RUN_SQL row: the fields core/policy reads, as
 * data/store_stats.c's job_fill sets them. */
static void run_fill(Reader *r, sqlite3_stmt *s, StatsJob *j)
{
    memset(j, 0, sizeof *j);
    j->cluster = col_id16(s, 0);
    j->submit = col_epoch32(s, 1);
    j->start = col_epoch32(s, 2);
    int64_t end = col_time(s, 3);
    if (sqlite3_column_type(s, 4) != SQLITE_NULL)
        j->elapsed = clamp32(sqlite3_column_int64(s, 4));
    else
        j->elapsed =
            j->start && end != INT64_MIN && end >= j->start ? clamp32(end - j->start) : -1;
    j->user = clamp32(sqlite3_column_int64(s, 5));
    j->account = clamp32(sqlite3_column_int64(s, 6));
    j->partition = col_id16(s, 7);
    j->gpus = (float)sqlite3_column_double(s, 8);
    j->gpu_util =
        sqlite3_column_type(s, 9) == SQLITE_NULL ? -1.0f : (float)sqlite3_column_double(s, 9);
    j->gpu_type = type_id(r, sqlite3_column_text(s, 10), sqlite3_column_bytes(s, 10));
    j->state = (uint8_t)sqlite3_column_int(s, 11);
}

/* Every attempt with id > since into b, CHUNK at a time: 0, or -1 with
 * err. */
static int scan_runs(sqlite3 *db, PolicyCellsBuild *b, int64_t since, CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, RUN_SQL, -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "read jobs");
    sqlite3_bind_int64(s, 1, since);
    Reader r = {strmap_new(), xcalloc(1, sizeof(char *)), 1};
    StatsJob *buf = xmalloc(CHUNK * sizeof *buf);
    size_t k = 0;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW || k > 0) {
        if (rc == SQLITE_ROW)
            run_fill(&r, s, &buf[k++]);
        if (k == CHUNK || (rc != SQLITE_ROW && k > 0)) {
            StatsNames types = {(const char *const *)r.tv, r.ntv};
            policy_cells_build_add(b, buf, k, &types);
            k = 0;
        }
        if (rc != SQLITE_ROW)
            break;
    }
    sqlite3_finalize(s);
    free(buf);
    for (size_t i = 0; i < r.ntv; i++)
        free(r.tv[i]);
    free(r.tv);
    strmap_free(r.types);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "read jobs");
}

/* ---- the table ---- */

/* The stored cells whatever their fingerprint: 1, else 0. */
static int cells_read_any(sqlite3 *db, PolicyCells *out)
{
    sqlite3_stmt *s;
    int ok = 0;
    if (sqlite3_prepare_v2(db, "SELECT data FROM policy_agg WHERE id = 1", -1, &s, NULL) !=
        SQLITE_OK)
        return 0;
    if (sqlite3_step(s) == SQLITE_ROW)
        ok = policy_cells_unpack(sqlite3_column_blob(s, 0), (size_t)sqlite3_column_bytes(s, 0),
                                 out) == 0;
    sqlite3_finalize(s);
    return ok;
}

/* The stored cells when their fingerprint is fp: 1, else 0. */
static int cells_read(sqlite3 *db, const char *fp, PolicyCells *out)
{
    sqlite3_stmt *s;
    int ok = 0;
    if (sqlite3_prepare_v2(db, "SELECT fingerprint, data FROM policy_agg WHERE id = 1", -1, &s,
                           NULL) != SQLITE_OK)
        return 0; /* a database opened read-only before the table */
    if (sqlite3_step(s) == SQLITE_ROW) {
        const unsigned char *f = sqlite3_column_text(s, 0);
        ok = f && strcmp((const char *)f, fp) == 0 &&
             policy_cells_unpack(sqlite3_column_blob(s, 1), (size_t)sqlite3_column_bytes(s, 1),
                                 out) == 0;
    }
    sqlite3_finalize(s);
    return ok;
}

static int put_cells(sqlite3 *db, const PolicyCells *c, const char *fp)
{
    sqlite3_stmt *ins = NULL;
    CpBuf b;
    cpbuf_init(&b);
    policy_cells_pack(c, &b);
    int ok = sqlite3_prepare_v2(db,
                                "INSERT OR REPLACE INTO policy_agg(id, fingerprint, data) "
                                "VALUES(1, ?1, ?2)",
                                -1, &ins, NULL) == SQLITE_OK &&
             sqlite3_bind_text(ins, 1, fp, -1, SQLITE_STATIC) == SQLITE_OK &&
             sqlite3_bind_blob64(ins, 2, b.len ? b.data : "", b.len, SQLITE_STATIC) ==
                 SQLITE_OK &&
             sqlite3_step(ins) == SQLITE_DONE;
    sqlite3_finalize(ins);
    cpbuf_done(&b);
    return ok ? 0 : -1;
}

/* Store c under fp when the write lock is free at once and the database
 * still is what fp describes. Best effort (a read-only database, a
 * writer busy: the next load builds them again). */
static void cells_write(Store *st, const PolicyCells *c, const char *fp)
{
    sqlite3 *db = store_db(st);
    if (!sqlite3_get_autocommit(db))
        return;
    char now[128];
    store_wait(st, 0);
    if (exec(db, "BEGIN IMMEDIATE") == 0) {
        int ok = fingerprint(db, now, sizeof now, NULL) == 0 && strcmp(now, fp) == 0 &&
                 put_cells(db, c, fp) == 0;
        if (!(ok && exec(db, "COMMIT") == 0))
            exec(db, "ROLLBACK");
    }
    store_wait(st, 1);
}

int store_policy_cells(Store *st, const PolicyInput *in, PolicyCells *out, int *built,
                       CpErr *err)
{
    sqlite3 *db = store_db(st);
    char fp[128];
    *built = 0;
    if (fingerprint(db, fp, sizeof fp, err) < 0)
        return -1;
    if (cells_read(db, fp, out))
        return 0;
    PolicyCellsBuild *b = policy_cells_build_new(in);
    int rc = scan_runs(db, b, 0, err);
    policy_cells_build_finish(b, out);
    if (rc < 0) {
        policy_cells_free(out);
        return -1;
    }
    *built = 1;
    cells_write(st, out, fp);
    return 0;
}

/* ---- the import extends them ---- */

int store_policy_mark(Store *st, StorePolicyMark *m, CpErr *err)
{
    sqlite3 *db = store_db(st);
    char fp[128];
    memset(m, 0, sizeof *m);
    m->since_id = store_scalar(st, "SELECT coalesce(max(id), 0) FROM jobs");
    if (m->since_id < 0 || fingerprint(db, fp, sizeof fp, err) < 0)
        return sqlrow_err(db, err, "read the jobs' state");
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "SELECT fingerprint FROM policy_agg WHERE id = 1", -1, &s, NULL) ==
        SQLITE_OK) {
        m->usable = m->since_id == 0 ||
                    (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0) &&
                     strcmp((const char *)sqlite3_column_text(s, 0), fp) == 0);
        sqlite3_finalize(s);
    }
    return 0;
}

/* The stored cells (current at the mark) with the attempts after since
 * added, under fp: 0, 1 when they could not be taken up (the next replay
 * rebuilds them), -1 with err. */
static int extend(Store *st, int64_t since, const char *fp, CpErr *err)
{
    sqlite3 *db = store_db(st);
    StorePolicyData *pd = store_policy_load(st, NULL, err);
    StoreStatsData *sd = pd ? store_stats_load(st, STATS_NEED_ROSTER, err) : NULL;
    PolicyCells c, out;
    int rc = sd ? 1 : -1;
    memset(&c, 0, sizeof c);
    if (sd && (since == 0 || cells_read_any(db, &c))) {
        PolicyInput in;
        policy_input_init(&in);
        store_policy_input(pd, store_stats_input(sd), &in);
        PolicyCellsBuild *b =
            since == 0 ? policy_cells_build_new(&in) : policy_cells_build_from(&in, &c);
        if (b) {
            rc = scan_runs(db, b, since, err);
            policy_cells_build_finish(b, &out);
            if (rc == 0 && put_cells(db, &out, fp) < 0)
                rc = sqlrow_err(db, err, "extend the energy aggregate");
            policy_cells_free(&out);
        }
    }
    policy_cells_free(&c);
    store_stats_free(sd);
    store_policy_free(pd);
    return rc;
}

int store_policy_extend(Store *st, const StorePolicyMark *m, CpErr *err)
{
    sqlite3 *db = store_db(st);
    char fp[128];
    if (!m->usable || store_touched_old(st))
        return exec(db, "DELETE FROM policy_agg") == 0 ? 0 : sqlrow_err(db, err, "delete");
    if (fingerprint(db, fp, sizeof fp, err) < 0)
        return -1;
    int rc = extend(st, m->since_id, fp, err);
    if (rc == 1 && exec(db, "DELETE FROM policy_agg") < 0)
        return sqlrow_err(db, err, "delete");
    return rc < 0 ? -1 : 0;
}

/* ---- a replay ---- */

struct StorePolicyOpen {
    StorePolicyData *pd;
    StoreStatsData *refs, *jobs; /* owned loads */
    PolicyCells cells;
};

void store_policy_close(StorePolicyOpen *o)
{
    if (!o)
        return;
    store_policy_free(o->pd);
    store_stats_free(o->refs);
    store_stats_free(o->jobs);
    policy_cells_free(&o->cells);
    free(o);
}

StorePolicyOpen *store_policy_open(Store *st, const char *scenario, unsigned what,
                                   const StoreStatsData *have, PolicyInput *in, CpErr *err)
{
    const unsigned needs = STATS_NEED_ROSTER | STATS_NEED_INVENTORY;
    StorePolicyOpen *o = xcalloc(1, sizeof *o);
    int built;
    o->pd = store_policy_load(st, scenario, err);
    if (!o->pd)
        goto fail;
    if (!have) {
        o->refs = store_stats_load(st, needs, err);
        if (!o->refs)
            goto fail;
    }
    policy_input_init(in);
    store_policy_input(o->pd, store_stats_input(have ? have : o->refs), in);
    if (what & STORE_POLICY_ENERGY) {
        if (store_policy_cells(st, in, &o->cells, &built, err) < 0)
            goto fail;
        in->cells = &o->cells;
    }
    int need_jobs = ((what & STORE_POLICY_FAIRSHARE) && store_policy_nallocs(o->pd) > 0) ||
                    ((what & STORE_POLICY_ENERGY) && policy_energy_needs_jobs(in));
    if (need_jobs && (!have || store_stats_input(have)->njobs == 0)) {
        o->jobs = store_stats_load(st, needs | STATS_NEED_JOBS, err);
        if (!o->jobs)
            goto fail;
        in->stats = store_stats_input(o->jobs);
    }
    return o;
fail:
    store_policy_close(o);
    return NULL;
}
