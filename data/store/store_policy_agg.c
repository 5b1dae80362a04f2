/* store_policy_agg: the runs' aggregate of core/policy (policy.h) kept in
 * the table policy_agg, and what a replay loads (store_policy.h). Order:
 * the fingerprint; reading the attempts in one pass; the table; the
 * import's attempts from its feed; the import extends the table; opening
 * a replay. */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"
#include "data/store/sqlrow.h"
#include "core/jobrec.h"
#include "data/store/store.h"
#include "data/store/store_feed.h"
#include "data/store/store_policy.h"
#include "data/store/store_stats.h"

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

/* ---- the attempts, as core/stats reads them (data/store/store_stats.c) ---- */

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

static uint16_t id16(int64_t v)
{
    return v > 0 && v <= UINT16_MAX ? (uint16_t)v : 0;
}

static uint16_t col_id16(sqlite3_stmt *s, int i)
{
    return id16(sqlite3_column_int64(s, i));
}

static int32_t clamp32(int64_t v)
{
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

static void reader_init(Reader *r)
{
    r->types = strmap_new();
    r->tv = xcalloc(1, sizeof(char *));
    r->ntv = 1;
}

static void reader_done(Reader *r)
{
    for (size_t i = 0; i < r->ntv; i++)
        free(r->tv[i]);
    free(r->tv);
    strmap_free(r->types);
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
 * data/store/store_stats.c's job_fill sets them. */
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
    Reader r;
    reader_init(&r);
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
    reader_done(&r);
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

/* ---- the import's attempts from its feed (data/store/store_feed.h) ----
 *
 * What extend does after the import, done as the import writes: the
 * policy input loaded and the builder made at the mark, each attempt the
 * feed hands on made the StatsJob run_fill would read back and added. The
 * import makes users, accounts and clusters that the input loaded at the
 * mark does not name: the first attempt naming an id beyond those known
 * reads the names up to it from the table (the feed's own copy of the
 * input's names, grown) and grows the builder, so that the cells come out
 * as a read-back over the input loaded after the import makes them. */

enum { FN_CLUSTERS, FN_USERS, FN_ACCOUNTS, FN_COUNT };

typedef struct FedNames {
    char **v; /* by id, NULL: no such id (owned) */
    size_t n;
    sqlite3_stmt *q; /* the names of ids ?1..?2 */
} FedNames;

struct StorePolicyFeed {
    StorePolicyData *pd;
    StoreStatsData *sd;
    StatsInput sin; /* sd's, but for the names below */
    PolicyInput in; /* over sin */
    FedNames names[FN_COUNT];
    PolicyCellsBuild *b;
    Reader types;
    const char *last_name; /* the feed's copy of the last GPU type seen, */
    uint16_t last_type;    /* ... and its id */
    int spoiled, done, used;
};

static int feed_on = 1; /* store_policy_feed_use */

void store_policy_feed_use(int on)
{
    feed_on = on;
}

/* *j from attempt a as run_fill reads its row back: keep the two in step
 * (the tests compare a fed aggregate with a read-back one byte for
 * byte). */
static void job_of_attempt(StorePolicyFeed *f, const StoreAttempt *a, StatsJob *j)
{
    memset(j, 0, sizeof *j);
    j->cluster = id16(a->cluster_id);
    j->submit = a->submit > 0 && a->submit <= (int64_t)UINT32_MAX ? (uint32_t)a->submit : 0;
    j->start = a->start != CP_TIME_NONE && a->start > 0 && a->start <= (int64_t)UINT32_MAX
                   ? (uint32_t)a->start
                   : 0;
    int64_t end = a->end != CP_TIME_NONE && a->end > 0 ? a->end : INT64_MIN;
    if (a->elapsed != CP_DUR_UNKNOWN)
        j->elapsed = clamp32(a->elapsed);
    else
        j->elapsed =
            j->start && end != INT64_MIN && end >= j->start ? clamp32(end - j->start) : -1;
    j->user = clamp32(a->user_id);
    j->account = clamp32(a->account_id);
    j->partition = id16(a->partition_id);
    j->gpus = isnan(a->gpus) ? 0.0f : (float)a->gpus; /* SQLite stores NaN as NULL */
    j->gpu_util = a->gpu_util < 0 || isnan(a->gpu_util) ? -1.0f : (float)a->gpu_util;
    if (a->gpu_type != f->last_name) { /* the feed hands one copy of each name */
        f->last_name = a->gpu_type;
        f->last_type = type_id(&f->types, (const unsigned char *)a->gpu_type,
                               (int)strlen(a->gpu_type));
    }
    j->gpu_type = f->last_type;
    j->state = (uint8_t)a->state;
}

/* sin's names from the feed's. */
static void names_publish(StorePolicyFeed *f)
{
    StatsNames *dst[FN_COUNT] = {&f->sin.clusters, &f->sin.users, &f->sin.accounts};
    for (int w = 0; w < FN_COUNT; w++) {
        dst[w]->v = (const char *const *)f->names[w].v;
        dst[w]->n = f->names[w].n;
    }
}

/* The names of ids below id + 1 not known yet (as store_stats_load reads
 * them: "" for a NULL name): 0, or -1 (a database error). */
static int names_learn(FedNames *d, int64_t id)
{
    size_t need = (size_t)id + 1;
    d->v = xrealloc(d->v, need * sizeof *d->v);
    for (size_t i = d->n; i < need; i++)
        d->v[i] = NULL;
    sqlite3_reset(d->q);
    sqlite3_bind_int64(d->q, 1, (int64_t)d->n);
    sqlite3_bind_int64(d->q, 2, id);
    d->n = need;
    int rc;
    while ((rc = sqlite3_step(d->q)) == SQLITE_ROW) {
        int64_t at = sqlite3_column_int64(d->q, 0);
        const unsigned char *name = sqlite3_column_text(d->q, 1);
        if (at >= 0 && (size_t)at < need && !d->v[at])
            d->v[at] = xstrdup(name ? (const char *)name : "");
    }
    sqlite3_reset(d->q);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* The ids of a known to the builder: 0, or -1 when their names could not
 * be read. */
static int ids_known(StorePolicyFeed *f, const StoreAttempt *a)
{
    const int64_t id[FN_COUNT] = {a->cluster_id, a->user_id, a->account_id};
    int grew = 0;
    for (int w = 0; w < FN_COUNT; w++) {
        if (id[w] <= 0 || id[w] > INT32_MAX - 1 || (size_t)id[w] < f->names[w].n)
            continue; /* store_stats_load leaves such ids out too */
        if (names_learn(&f->names[w], id[w]) < 0)
            return -1;
        grew = 1;
    }
    if (grew) {
        names_publish(f);
        policy_cells_build_grow(f->b);
    }
    return 0;
}

static int fed_put(void *ctx, const StoreAttempt *a, CpErr *err)
{
    StorePolicyFeed *f = ctx;
    (void)err;
    if (f->spoiled)
        return 0;
    if (ids_known(f, a) < 0) {
        f->spoiled = 1; /* extend reads them back (and says what failed) */
        return 0;
    }
    StatsJob j;
    job_of_attempt(f, a, &j);
    StatsNames types = {(const char *const *)f->types.tv, f->types.ntv};
    policy_cells_build_add(f->b, &j, 1, &types);
    return 0;
}

static void fed_changed(void *ctx, int64_t id)
{
    StorePolicyFeed *f = ctx;
    (void)id;
    f->spoiled = 1;
}

static int fed_done(void *ctx, CpErr *err)
{
    StorePolicyFeed *f = ctx;
    (void)err;
    f->done = 1;
    return 0;
}

static void fed_free(StorePolicyFeed *f)
{
    if (!f)
        return;
    if (f->b) {
        PolicyCells out;
        policy_cells_build_finish(f->b, &out);
        policy_cells_free(&out);
    }
    for (int w = 0; w < FN_COUNT; w++) {
        for (size_t i = 0; i < f->names[w].n; i++)
            free(f->names[w].v[i]);
        free(f->names[w].v);
        sqlite3_finalize(f->names[w].q);
    }
    reader_done(&f->types);
    store_stats_free(f->sd);
    store_policy_free(f->pd);
    free(f);
}

/* The input extend loads, with the feed's own copy of its names, and the
 * builder (from the stored cells when since > 0): 0 (f->b NULL when the
 * stored cells cannot be taken up), or -1 with err. */
static int fed_init(StorePolicyFeed *f, Store *st, int64_t since, CpErr *err)
{
    static const char *const sql[FN_COUNT] = {
        "SELECT id, name FROM clusters WHERE id BETWEEN ?1 AND ?2",
        "SELECT id, name FROM users WHERE id BETWEEN ?1 AND ?2",
        "SELECT id, name FROM accounts WHERE id BETWEEN ?1 AND ?2"};
    sqlite3 *db = store_db(st);
    f->pd = store_policy_load(st, NULL, err);
    f->sd = f->pd ? store_stats_load(st, STATS_NEED_ROSTER, err) : NULL;
    if (!f->sd)
        return -1;
    f->sin = *store_stats_input(f->sd);
    const StatsNames *from[FN_COUNT] = {&f->sin.clusters, &f->sin.users, &f->sin.accounts};
    for (int w = 0; w < FN_COUNT; w++) {
        FedNames *d = &f->names[w];
        if (sqlite3_prepare_v2(db, sql[w], -1, &d->q, NULL) != SQLITE_OK)
            return sqlrow_err(db, err, "read names");
        d->n = from[w]->n;
        d->v = xcalloc(d->n + 1, sizeof *d->v);
        for (size_t i = 0; i < d->n; i++)
            d->v[i] = from[w]->v[i] ? xstrdup(from[w]->v[i]) : NULL;
    }
    names_publish(f);
    reader_init(&f->types);
    policy_input_init(&f->in);
    store_policy_input(f->pd, &f->sin, &f->in);
    PolicyCells c;
    memset(&c, 0, sizeof c);
    if (since == 0)
        f->b = policy_cells_build_new(&f->in);
    else if (cells_read_any(db, &c))
        f->b = policy_cells_build_from(&f->in, &c);
    policy_cells_free(&c);
    return 0;
}

/* A sink of the import's feed for m, when the store hands the attempts on
 * and the stored cells can be extended: 0, or -1 with err. */
static int fed_start(Store *st, StorePolicyMark *m, CpErr *err)
{
    StorePolicyFeed *f = xcalloc(1, sizeof *f);
    if (fed_init(f, st, m->since_id, err) < 0) {
        fed_free(f);
        return -1;
    }
    StoreFeedSink sink = {fed_put, fed_changed, fed_done, f};
    if (!f->b || !store_feed_add(st, &sink)) {
        fed_free(f);
        return 0;
    }
    m->feed = f;
    return 0;
}

int store_policy_fed(const StorePolicyMark *m)
{
    return m->feed && m->feed->used;
}

void store_policy_mark_done(StorePolicyMark *m)
{
    fed_free(m->feed);
    m->feed = NULL;
}

/* ---- the import extends them ---- */

int store_policy_mark(Store *st, StorePolicyMark *m, CpErr *err)
{
    sqlite3 *db = store_db(st);
    char fp[128];
    memset(m, 0, sizeof *m);
    m->since_id = store_max_job_id(st, err);
    if (m->since_id < 0)
        return -1;
    if (fingerprint(db, fp, sizeof fp, err) < 0)
        return sqlrow_err(db, err, "read the jobs' state");
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "SELECT fingerprint FROM policy_agg WHERE id = 1", -1, &s, NULL) ==
        SQLITE_OK) {
        m->usable = m->since_id == 0 ||
                    (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0) &&
                     strcmp((const char *)sqlite3_column_text(s, 0), fp) == 0);
        sqlite3_finalize(s);
    }
    return m->usable && feed_on ? fed_start(st, m, err) : 0;
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
    StorePolicyFeed *f = m->feed;
    if (f && f->done && !f->spoiled) {
        PolicyCells out;
        policy_cells_build_finish(f->b, &out);
        f->b = NULL;
        f->used = 1;
        int rc = put_cells(db, &out, fp);
        policy_cells_free(&out);
        return rc < 0 ? sqlrow_err(db, err, "extend the energy aggregate") : 0;
    }
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
