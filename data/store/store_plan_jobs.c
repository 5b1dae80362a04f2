/* store_plan_jobs: the jobs planning reads (store_plan.h: store_plan_jobs,
 * store_plan_use), from the job blocks kept at import (data/store/store_blocks.h)
 * and, for the rowids no block covers, from the jobs table, in rowid order
 * either way. */
#include <pthread.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/strmap.h"
#include "data/store/sqlrow.h"
#include "data/store/store.h"
#include "data/store/store_blocks.h"
#include "data/store/store_plan_int.h"
#include "data/store/store_schema.h"

/* ---- GPU memory of a job's GPU model ---- */

typedef struct MemRow {
    int64_t cluster_id; /* clusters.id, 0 when the cluster has no jobs */
    char *model;
    double mem;
} MemRow;

typedef struct MemMap {
    MemRow *rows;
    size_t n;
    StrMap *cache; /* cluster id bytes + type -> double bits */
} MemMap;

static int mem_rows(sqlite3 *db, MemMap *mm, CpErr *err)
{
    sqlite3_stmt *s;
    size_t cap = 0;
    if (store_plan_prep(db,
                        "SELECT coalesce(c.id, 0), i.gpu_model, i.gpu_mem_gib FROM inventory i "
                        "LEFT JOIN clusters c ON lower(c.name) = lower(i.cluster)",
                        &s, "inventory", err) < 0)
        return -1;
    while (sqlite3_step(s) == SQLITE_ROW) {
        mm->rows = sqlrow_grow(mm->rows, mm->n, &cap, sizeof *mm->rows);
        MemRow *r = &mm->rows[mm->n++];
        r->cluster_id = sqlite3_column_int64(s, 0);
        r->model = sqlrow_str(s, 1);
        r->mem = sqlite3_column_double(s, 2);
    }
    sqlite3_finalize(s);
    mm->cache = strmap_new();
    return 0;
}

static void mem_map_free(MemMap *mm)
{
    for (size_t i = 0; i < mm->n; i++)
        free(mm->rows[i].model);
    free(mm->rows);
    strmap_free(mm->cache);
}

/* A MIG type says its memory: "a100_3g.20gb" -> 20. -1 otherwise. */
static double mig_memory(const char *type)
{
    const char *dot = strrchr(type, '.');
    if (!dot || !strchr(type, '_'))
        return -1;
    char *end;
    double v = strtod(dot + 1, &end);
    return end != dot + 1 && strcasecmp(end, "gb") == 0 && v > 0 ? v : -1;
}

static double mem_resolve(const MemMap *mm, int64_t cluster_id, const char *type)
{
    double mig = mig_memory(type), own = -1, any = -1, only = -1;
    int sizes = 0;
    if (mig > 0)
        return mig;
    for (size_t i = 0; i < mm->n; i++) {
        const MemRow *r = &mm->rows[i];
        int same_model = type[0] && strcasecmp(r->model, type) == 0;
        if (same_model && r->mem > any)
            any = r->mem;
        if (r->cluster_id != cluster_id)
            continue;
        if (same_model && r->mem > own)
            own = r->mem;
        if (only != r->mem) {
            sizes++;
            only = r->mem;
        }
    }
    if (own >= 0)
        return own;
    if (any >= 0)
        return any;
    return !type[0] && sizes == 1 ? only : -1;
}

static double mem_lookup(MemMap *mm, int64_t cluster_id, const char *type)
{
    char key[8 + CP_GPU_TYPE_MAX];
    size_t tl = strlen(type);
    if (tl > CP_GPU_TYPE_MAX)
        tl = CP_GPU_TYPE_MAX;
    memcpy(key, &cluster_id, 8);
    memcpy(key + 8, type, tl);
    int64_t bits;
    double v;
    if (strmap_get(mm->cache, key, 8 + tl, &bits)) {
        memcpy(&v, &bits, sizeof v);
        return v;
    }
    v = mem_resolve(mm, cluster_id, type);
    memcpy(&bits, &v, sizeof v);
    strmap_put(mm->cache, key, 8 + tl, bits);
    return v;
}

/* ---- one rowid range of the jobs table ---- */

/* What every reader of a rowid range starts with: the range, the
 * connection it reads on, and how it went. */
typedef struct Half {
    sqlite3 *db;
    int own_db;     /* db opened for this half (closed by its reader) */
    int64_t lo, hi; /* rowids [lo, hi] */
    int rc;
    CpErr err;
} Half;

#ifndef SCAN_SPLIT_ROWS
#define SCAN_SPLIT_ROWS 200000 /* below this, one reader */
#endif

/* A second, read-only connection to db's file; NULL for an in-memory or
 * temporary database (one reader then). */
static sqlite3 *second_connection(sqlite3 *db)
{
    const char *path = sqlite3_db_filename(db, "main");
    sqlite3 *d = NULL;
    if (!path || !path[0])
        return NULL;
    if (sqlite3_open_v2(path, &d, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        sqlite3_close(d);
        return NULL;
    }
    sqlite3_busy_timeout(d, 5000);
    return d;
}

/* Read rowids [lo, hi] with fn, whose argument starts with a Half: on a
 * alone, or, for a large range with a second connection, the first half on
 * a here while b (set up like a by the caller) reads the second in a thread:
 * the second core halves the wall time of a pass over a large jobs table.
 * a->rc afterwards: -1 when either failed (a->err then says why). Returns
 * 1 when b read the rows after a's, else 0. */
static int halves_run(sqlite3 *db, int64_t lo, int64_t hi, void *(*fn)(void *), Half *a,
                      Half *b)
{
    pthread_t th;
    int threaded = 0;
    a->db = db;
    a->own_db = 0;
    a->lo = lo;
    a->hi = hi;
    if (hi - lo > SCAN_SPLIT_ROWS && (b->db = second_connection(db)) != NULL) {
        b->own_db = 1;
        a->hi = lo + (hi - lo) / 2;
        b->lo = a->hi + 1;
        b->hi = hi;
        threaded = pthread_create(&th, NULL, fn, b) == 0;
        if (!threaded) {
            sqlite3_close(b->db);
            a->hi = hi;
        }
    }
    fn(a);
    if (threaded) {
        pthread_join(th, NULL);
        if (b->rc < 0 && a->rc == 0) {
            a->rc = -1;
            a->err = b->err;
        }
    }
    return threaded;
}

/* Both halves' readers begin so: memory pages through a mapping, no copy
 * per page (a hint; errors ignored). Only the fallback of a range the
 * blocks do not cover reads the jobs table. */
static void half_begin(Half *h)
{
    h->rc = -1;
    sqlite3_exec(h->db, "PRAGMA mmap_size=1073741824", NULL, NULL, NULL);
}

static void half_end(Half *h)
{
    if (h->own_db)
        sqlite3_close(h->db);
}

/* ---- jobs for the features ---- */

/* Columns 4 (measured memory or NULL), then with an inventory 5
 * (cluster id) and 6 (GPU type): see the scan's SQL. */
static void job_memory(sqlite3_stmt *s, MemMap *mm, FeatJob *j)
{
    j->mem_gib = -1;
    j->mem_src = FEAT_MEM_UNKNOWN;
    if (sqlite3_column_type(s, 4) != SQLITE_NULL) {
        j->mem_gib = sqlite3_column_double(s, 4);
        j->mem_src = FEAT_MEM_MEASURED;
        return;
    }
    if (mm->n == 0)
        return;
    const char *type = (const char *)sqlite3_column_text(s, 6);
    double v = mem_lookup(mm, sqlite3_column_int64(s, 5), type ? type : "");
    if (v >= 0) {
        j->mem_gib = v;
        j->mem_src = FEAT_MEM_REQUESTED;
    }
}

/* The features' jobs as read so far, in rowid order. */
typedef struct FeatVec {
    FeatJob *out;
    size_t n, cap;
    int64_t last_start;
} FeatVec;

static FeatJob *feat_push(FeatVec *v, int64_t start)
{
    v->out = sqlrow_grow(v->out, v->n, &v->cap, sizeof *v->out);
    if (start > v->last_start)
        v->last_start = start;
    return &v->out[v->n++];
}

/* One reader of a rowid range of the jobs table for the features. */
typedef struct Scan {
    Half h;
    int64_t from, before, min_run;
    int cpu;
    FeatVec v;
} Scan;

/* The filters: final attempts in the rowid range, started in [?1, ?2),
 * run at least ?5 seconds, with GPUs (CPUs) and a user. Only the columns
 * used are read: the cluster and GPU type only when an inventory can give
 * a job's GPU memory (they cost a tenth of the scan). */
#define JOBS_WHERE                                                                             \
    " FROM jobs WHERE rowid >= ?3 AND rowid <= ?4 AND start >= ?1 AND start < ?2 AND "        \
    "user_id IS NOT NULL AND coalesce(elapsed, end_time - start) >= ?5 AND final = 1 AND "
#define JOBS_COLS                                                                              \
    "SELECT user_id, start, coalesce(elapsed, end_time - start), gpus, "                      \
    "CASE WHEN gpu_mem_source > 0 THEN gpu_mem_gib END"
static const char jobs_gpu_inv_sql[] = JOBS_COLS ", cluster_id, gpu_type" JOBS_WHERE "gpus > 0";
static const char jobs_gpu_sql[] = JOBS_COLS JOBS_WHERE "gpus > 0";
static const char jobs_cpu_sql[] =
    "SELECT user_id, start, coalesce(elapsed, end_time - start), " STORE_CPUS_SQL ", NULL" JOBS_WHERE
    "ncpus > 0";

static void scan_row(Scan *sc, sqlite3_stmt *s, MemMap *mm)
{
    if (sqlite3_column_type(s, 2) == SQLITE_NULL)
        return;
    FeatJob *j = feat_push(&sc->v, sqlite3_column_int64(s, 1));
    j->user = (int32_t)sqlite3_column_int64(s, 0);
    j->start = sqlite3_column_int64(s, 1);
    j->end = j->start + sqlite3_column_int64(s, 2);
    j->gpus = sqlite3_column_double(s, 3);
    job_memory(s, mm, j);
}

static void *scan_run(void *arg)
{
    Scan *sc = arg;
    MemMap mm = {NULL, 0, NULL};
    sqlite3_stmt *s = NULL;
    int step = SQLITE_DONE;
    half_begin(&sc->h);
    if (!sc->cpu && mem_rows(sc->h.db, &mm, &sc->h.err) < 0)
        goto out;
    const char *sql = sc->cpu ? jobs_cpu_sql : mm.n ? jobs_gpu_inv_sql : jobs_gpu_sql;
    if (store_plan_prep(sc->h.db, sql, &s, "read jobs", &sc->h.err) < 0)
        goto out;
    sqlite3_bind_int64(s, 1, sc->from);
    sqlite3_bind_int64(s, 2, sc->before);
    sqlite3_bind_int64(s, 3, sc->h.lo);
    sqlite3_bind_int64(s, 4, sc->h.hi);
    sqlite3_bind_int64(s, 5, sc->min_run);
    while ((step = sqlite3_step(s)) == SQLITE_ROW)
        scan_row(sc, s, &mm);
    if (step != SQLITE_DONE) {
        sqlrow_err(sc->h.db, &sc->h.err, "read jobs");
        goto out;
    }
    sc->h.rc = 0;
out:
    sqlite3_finalize(s);
    if (mm.cache)
        mem_map_free(&mm);
    half_end(&sc->h);
    return NULL;
}

/* store_plan_jobs_read over the job blocks (data/store/store_blocks.h). */
typedef struct JobsRead {
    sqlite3 *db;
    const StorePlanJobsReq *q;
    MemMap mm; /* the inventory's GPU memory (mm.cache NULL: not read yet) */
    FeatVec v; /* the jobs kept */
    int overflow;
    int64_t first, last_start;
    CpErr err;
} JobsRead;

static void jobs_sized(void *ctx, size_t n)
{
    JobsRead *r = ctx;
    if (r->q->buf)
        return;
    if (n > r->q->budget)
        n = r->q->budget;
    if (n > r->v.cap) {
        r->v.cap = n;
        r->v.out = xrealloc(r->v.out, n * sizeof *r->v.out);
    }
}

/* A job read (it passed the filters): counted, and the slot to keep it in,
 * or NULL when its user is not kept or the budget is spent. */
static FeatJob *jobs_take(JobsRead *r, int32_t user, int64_t start)
{
    const StorePlanJobsReq *q = r->q;
    if (start > r->last_start)
        r->last_start = start;
    if (user >= 0 && user < q->nusers) {
        if (q->counts)
            q->counts[user]++;
        if (start >= q->first_from && start < q->first_before && start < r->first)
            r->first = start;
    }
    if (user < q->user_lo || user >= q->user_hi || r->overflow)
        return NULL;
    if (r->v.n == q->budget) {
        if (!q->buf) {
            free(r->v.out);
            r->v.out = NULL;
            r->v.cap = 0;
        }
        r->v.n = 0;
        r->overflow = 1;
        return NULL;
    }
    return q->buf ? &q->buf[r->v.n++] : feat_push(&r->v, start);
}

static void rec_memory(JobsRead *r, const StoreBlockRec *b, const char *type, FeatJob *j)
{
    j->mem_gib = -1;
    j->mem_src = FEAT_MEM_UNKNOWN;
    if (r->q->cpu)
        return;
    if (b->flags & STORE_REC_MEM) {
        j->mem_gib = b->mem;
        j->mem_src = FEAT_MEM_MEASURED;
        return;
    }
    double v = r->mm.n ? mem_lookup(&r->mm, b->cluster, type) : -1;
    if (v >= 0) {
        j->mem_gib = v;
        j->mem_src = FEAT_MEM_REQUESTED;
    }
}

static int jobs_block(void *ctx, const StoreBlockRec *recs, size_t n, const char *const *types,
                      int ntypes)
{
    JobsRead *r = ctx;
    const StorePlanJobsReq *q = r->q;
    (void)ntypes;
    if (!q->cpu && !r->mm.cache && mem_rows(r->db, &r->mm, &r->err) < 0)
        return -1;
    /* a pass for some users' jobs alone looks at the user first */
    int32_t lo = q->counts || q->first_from != INT64_MAX ? INT32_MIN : q->user_lo;
    int32_t hi = lo == INT32_MIN ? INT32_MAX : q->user_hi;
    for (size_t i = 0; i < n; i++) {
        const StoreBlockRec *b = &recs[i];
        if (b->user < lo || b->user >= hi)
            continue;
        double amount = q->cpu ? b->ncpus : b->gpus;
        if (!(b->flags & STORE_REC_STARTED) || b->start < q->from || b->start >= q->before ||
            b->run < q->min_run || !(amount > 0))
            continue;
        FeatJob *j = jobs_take(r, b->user, b->start);
        if (!j)
            continue;
        j->user = b->user;
        j->start = b->start;
        j->end = b->start + b->run;
        j->gpus = amount;
        rec_memory(r, b, types[b->type], j);
    }
    return 0;
}

/* The jobs of one half, in order, through jobs_take. */
static void jobs_half(JobsRead *r, FeatVec *h)
{
    for (size_t i = 0; i < h->n; i++) {
        FeatJob *j = jobs_take(r, h->out[i].user, h->out[i].start);
        if (j)
            *j = h->out[i];
    }
    free(h->out);
}

static int jobs_range(void *ctx, int64_t lo, int64_t hi)
{
    JobsRead *r = ctx;
    const StorePlanJobsReq *q = r->q;
    Scan a = {{NULL, 0, 0, 0, -1, {{0}}}, q->from, q->before, q->min_run, q->cpu,
              {NULL, 0, 0, INT64_MIN}};
    Scan b = a;
    int threaded = halves_run(r->db, lo, hi, scan_run, &a.h, &b.h);
    jobs_half(r, &a.v);
    if (threaded)
        jobs_half(r, &b.v);
    if (a.h.rc < 0)
        r->err = a.h.err;
    return a.h.rc;
}

int store_plan_jobs_read(Store *st, const StorePlanJobsReq *q, StorePlanJobsOut *out,
                         CpErr *err)
{
    JobsRead r;
    memset(&r, 0, sizeof r);
    r.db = store_db(st);
    r.q = q;
    r.first = INT64_MAX;
    r.last_start = INT64_MIN;
    StoreBlocksVisit v = {jobs_sized, jobs_block, jobs_range, &r, q->from, q->before};
    CpErr own = {{0}};
    int rc = store_blocks_each(st, &v, &own);
    if (r.mm.cache)
        mem_map_free(&r.mm);
    if (rc < 0) {
        if (err)
            *err = own.msg[0] ? own : r.err;
        free(r.v.out);
        r.v.out = NULL;
        r.v.n = 0;
    }
    out->jobs = q->buf ? q->buf : r.v.out;
    out->n = r.v.n;
    out->overflow = rc < 0 ? 0 : r.overflow;
    out->first = r.first;
    out->last_start = rc < 0 ? INT64_MIN : r.last_start;
    return rc;
}

int store_plan_snapshot_begin(Store *st, int *began, CpErr *err)
{
    sqlite3 *db = store_db(st);
    *began = 0;
    if (!sqlite3_get_autocommit(db))
        return 0;
    if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "read jobs");
    *began = 1;
    return 0;
}

void store_plan_snapshot_end(Store *st, int began)
{
    if (began)
        sqlite3_exec(store_db(st), "COMMIT", NULL, NULL, NULL);
}

int store_plan_jobs(Store *st, int64_t from, int64_t before, int64_t min_run, int cpu,
                    FeatJob **jobs, size_t *njobs, int64_t *last_start, CpErr *err)
{
    StorePlanJobsReq q = {from,     before, min_run, cpu, INT32_MIN, INT32_MAX,
                          SIZE_MAX, NULL,   NULL,    0,   INT64_MAX, INT64_MAX};
    StorePlanJobsOut o;
    int rc = store_plan_jobs_read(st, &q, &o, err);
    *jobs = o.jobs;
    *njobs = o.n;
    *last_start = o.last_start;
    return rc;
}

/* ---- jobs for model v2 ---- */

typedef struct UseVec {
    StorePlanUse *rows;
    size_t n, cap;
    StorePlanKind *kinds;
    size_t nkinds, capkinds;
    StrMap *kmap; /* "cluster\037type" -> kind */
    char **clusters; /* name by cluster id */
    int64_t nclusters;
    int64_t last_cl;  /* the previous row's cluster id and type, and their kind */
    char last_ty[64];
    int last_kind;
} UseVec;

static int use_kind(UseVec *v, const char *cluster, const char *type)
{
    char key[256];
    int64_t k;
    int n = snprintf(key, sizeof key, "%s\037%s", cluster, type);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof key ? (size_t)n : sizeof key - 1;
    if (strmap_get(v->kmap, key, len, &k))
        return (int)k;
    v->kinds = sqlrow_grow(v->kinds, v->nkinds, &v->capkinds, sizeof *v->kinds);
    v->kinds[v->nkinds] = (StorePlanKind){xstrdup(cluster), xstrdup(type)};
    strmap_put(v->kmap, key, len, (int64_t)v->nkinds);
    return (int)v->nkinds++;
}

/* The kind of (cluster id, type), remembered for runs of the same. */
static int use_kind_of(UseVec *v, int64_t cl, const char *ty)
{
    if (cl == v->last_cl && strcmp(ty, v->last_ty) == 0)
        return v->last_kind;
    const char *cname = cl >= 0 && cl < v->nclusters && v->clusters[cl] ? v->clusters[cl] : "";
    int kind = use_kind(v, cname, ty);
    if (strlen(ty) < sizeof v->last_ty) {
        v->last_cl = cl;
        memcpy(v->last_ty, ty, strlen(ty) + 1);
        v->last_kind = kind;
    }
    return kind;
}

/* One row: elig and start as read (start: its submit time when unknown),
 * run time (>= 0 counted), GPUs. */
static void use_push(UseVec *v, int64_t user, int64_t account, int64_t elig, int64_t start,
                     int64_t run, double gpus, int kind)
{
    v->rows = sqlrow_grow(v->rows, v->n, &v->cap, sizeof *v->rows);
    StorePlanUse *u = &v->rows[v->n++];
    u->user_id = user;
    u->account_id = account;
    u->start = start;
    u->elig = elig > start || elig <= 0 ? start : elig;
    u->end = start + (run > 0 ? run : 0);
    u->gpus = gpus;
    u->kind = kind;
}

static int row_use(sqlite3_stmt *s, void *ctx)
{
    UseVec *v = ctx;
    if (sqlite3_column_type(s, 4) == SQLITE_NULL || sqlite3_column_type(s, 3) == SQLITE_NULL)
        return 0;
    int64_t start = sqlite3_column_int64(s, 3);
    const char *ty = (const char *)sqlite3_column_text(s, 7);
    int kind = use_kind_of(v, sqlite3_column_int64(s, 6), ty ? ty : "");
    use_push(v, sqlite3_column_int64(s, 0),
             sqlite3_column_type(s, 1) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 1),
             sqlite3_column_type(s, 2) == SQLITE_NULL ? start : sqlite3_column_int64(s, 2), start,
             sqlite3_column_int64(s, 4), sqlite3_column_double(s, 5), kind);
    return 0;
}

static int row_cluster(sqlite3_stmt *s, void *ctx)
{
    UseVec *v = ctx;
    int64_t id = sqlite3_column_int64(s, 0);
    if (id >= 0 && id < v->nclusters)
        v->clusters[id] = sqlrow_str(s, 1);
    return 0;
}

static int use_clusters(sqlite3 *db, UseVec *v, CpErr *err)
{
    int64_t maxid;
    sqlite3_stmt *s;
    if (store_plan_scalar_int(db, "SELECT max(id) FROM clusters", 0, &maxid, "clusters", err) < 0)
        return -1;
    v->nclusters = maxid + 1;
    v->clusters = xcalloc((size_t)v->nclusters + 1, sizeof *v->clusters);
    if (store_plan_prep(db, "SELECT id, name FROM clusters", &s, "clusters", err) < 0)
        return -1;
    return store_plan_each_row(db, s, row_cluster, v, "clusters", err);
}

static void use_vec_init(UseVec *v)
{
    memset(v, 0, sizeof *v);
    v->kmap = strmap_new();
    v->last_cl = -2;
}

static void use_vec_done(UseVec *v)
{
    strmap_free(v->kmap);
    for (int64_t i = 0; i < v->nclusters; i++)
        free(v->clusters[i]);
    free(v->clusters);
}

/* One reader of a rowid range for store_plan_use. */
typedef struct UseScan {
    Half h;
    int cpu;
    UseVec v;
} UseScan;

static void *use_scan_run(void *arg)
{
    UseScan *u = arg;
    sqlite3_stmt *s;
    /* one pass in rowid order, no join, no sort: the cluster's name from a
     * small table, the order does not matter to core/demand; a run whose
     * start is unknown is placed from its submit time, as usage_month does */
    const char *sql =
        u->cpu ? "SELECT user_id, account_id, coalesce(nullif(eligible, 0), submit), "
                 "coalesce(start, submit), coalesce(elapsed, end_time - start), " STORE_CPUS_SQL ", "
                 "cluster_id, '' FROM jobs WHERE rowid >= ?1 AND rowid <= ?2 AND final = 1 AND "
                 "ncpus > 0 AND user_id IS NOT NULL AND coalesce(start, submit) > 0"
               : "SELECT user_id, account_id, coalesce(nullif(eligible, 0), submit), "
                 "coalesce(start, submit), coalesce(elapsed, end_time - start), gpus, "
                 "cluster_id, gpu_type FROM jobs WHERE rowid >= ?1 AND rowid <= ?2 AND "
                 "final = 1 AND gpus > 0 AND user_id IS NOT NULL AND coalesce(start, submit) > 0";
    half_begin(&u->h);
    if (use_clusters(u->h.db, &u->v, &u->h.err) == 0 &&
        store_plan_prep(u->h.db, sql, &s, "read jobs", &u->h.err) == 0) {
        sqlite3_bind_int64(s, 1, u->h.lo);
        sqlite3_bind_int64(s, 2, u->h.hi);
        u->h.rc = store_plan_each_row(u->h.db, s, row_use, &u->v, "read jobs", &u->h.err);
    }
    half_end(&u->h);
    return NULL;
}

/* b's rows after a's, b's kinds renumbered into a's; b's rows and kinds
 * freed. */
static void use_join(UseVec *a, UseVec *b)
{
    int *map = xcalloc(b->nkinds + 1, sizeof *map);
    for (size_t k = 0; k < b->nkinds; k++)
        map[k] = use_kind(a, b->kinds[k].cluster, b->kinds[k].type);
    if (b->n > 0) {
        if (a->n + b->n > a->cap) {
            a->cap = a->n + b->n;
            a->rows = xrealloc(a->rows, a->cap * sizeof *a->rows);
        }
        for (size_t i = 0; i < b->n; i++) {
            a->rows[a->n + i] = b->rows[i];
            a->rows[a->n + i].kind = map[b->rows[i].kind];
        }
        a->n += b->n;
    }
    free(map);
    store_plan_use_free(b->rows, b->kinds, b->nkinds);
}

/* store_plan_use_each over the job blocks: each block's rows (each range's)
 * collected in v, handed over, forgotten. */
typedef struct UseRead {
    sqlite3 *db;
    int cpu;
    UseVec v;
    int64_t *kcl; /* per type of the block: the cluster of kk's kind (-2 none) */
    int *kk;
    int kcap;
    const StorePlanUseVisit *visit;
    CpErr err;
} UseRead;

static void use_sized(void *ctx, size_t n)
{
    UseRead *r = ctx;
    if (r->visit->sized)
        r->visit->sized(r->visit->ctx, n);
}

static void use_hand(UseRead *r)
{
    if (r->v.n > 0)
        r->visit->rows(r->visit->ctx, r->v.rows, r->v.n, r->v.kinds, r->v.nkinds);
    r->v.n = 0;
}

static int use_block(void *ctx, const StoreBlockRec *recs, size_t n, const char *const *types,
                     int ntypes)
{
    UseRead *r = ctx;
    if (ntypes > r->kcap) {
        r->kcap = ntypes;
        r->kcl = xrealloc(r->kcl, (size_t)ntypes * sizeof *r->kcl);
        r->kk = xrealloc(r->kk, (size_t)ntypes * sizeof *r->kk);
    }
    for (int t = 0; t < ntypes; t++)
        r->kcl[t] = -2;
    for (size_t i = 0; i < n; i++) {
        const StoreBlockRec *b = &recs[i];
        double amount = r->cpu ? b->ncpus : b->gpus;
        if (!(amount > 0) || b->start <= 0)
            continue;
        if (r->kcl[b->type] != b->cluster) { /* a block has one cluster, a few types */
            r->kcl[b->type] = b->cluster;
            r->kk[b->type] = use_kind_of(&r->v, b->cluster, r->cpu ? "" : types[b->type]);
        }
        use_push(&r->v, b->user, b->account, b->elig, b->start, b->run, amount, r->kk[b->type]);
    }
    use_hand(r);
    return 0;
}

static int use_range(void *ctx, int64_t lo, int64_t hi)
{
    UseRead *r = ctx;
    UseScan a, b;
    memset(&a, 0, sizeof a);
    a.cpu = r->cpu;
    use_vec_init(&a.v);
    b = a;
    use_vec_init(&b.v);
    int threaded = halves_run(r->db, lo, hi, use_scan_run, &a.h, &b.h);
    use_join(&r->v, &a.v);
    if (threaded)
        use_join(&r->v, &b.v);
    use_vec_done(&a.v);
    use_vec_done(&b.v);
    if (a.h.rc < 0)
        r->err = a.h.err;
    else
        use_hand(r);
    return a.h.rc;
}

int store_plan_use_each(Store *st, int cpu, const StorePlanUseVisit *visit, CpErr *err)
{
    UseRead r;
    memset(&r, 0, sizeof r);
    r.db = store_db(st);
    r.cpu = cpu;
    r.visit = visit;
    use_vec_init(&r.v);
    StoreBlocksVisit v = {use_sized, use_block, use_range, &r, INT64_MIN, INT64_MAX};
    CpErr own = {{0}};
    int rc = use_clusters(r.db, &r.v, &own);
    if (rc == 0)
        rc = store_blocks_each(st, &v, &own);
    use_vec_done(&r.v);
    free(r.kcl);
    free(r.kk);
    if (rc < 0 && err)
        *err = own.msg[0] ? own : r.err;
    store_plan_use_free(r.v.rows, r.v.kinds, r.v.nkinds);
    return rc;
}

/* store_plan_use: every row kept, each kind copied when first named. */
typedef struct UseAll {
    StorePlanUse *rows;
    size_t n, cap;
    StorePlanKind *kinds;
    size_t nkinds;
} UseAll;

static void all_sized(void *ctx, size_t n)
{
    UseAll *a = ctx;
    if (n > a->cap) {
        a->cap = n;
        a->rows = xrealloc(a->rows, n * sizeof *a->rows);
    }
}

static void all_rows(void *ctx, const StorePlanUse *rows, size_t n, const StorePlanKind *kinds,
                     size_t nkinds)
{
    UseAll *a = ctx;
    if (a->n + n > a->cap) {
        a->cap = (a->n + n) * 2;
        a->rows = xrealloc(a->rows, a->cap * sizeof *a->rows);
    }
    memcpy(a->rows + a->n, rows, n * sizeof *rows);
    a->n += n;
    if (nkinds > a->nkinds) {
        a->kinds = xrealloc(a->kinds, nkinds * sizeof *a->kinds);
        for (size_t k = a->nkinds; k < nkinds; k++)
            a->kinds[k] = (StorePlanKind){xstrdup(kinds[k].cluster), xstrdup(kinds[k].type)};
        a->nkinds = nkinds;
    }
}

int store_plan_use(Store *st, int cpu, StorePlanUse **rows, size_t *n, StorePlanKind **kinds,
                   size_t *nkinds, CpErr *err)
{
    UseAll a;
    memset(&a, 0, sizeof a);
    StorePlanUseVisit v = {all_sized, all_rows, &a};
    int rc = store_plan_use_each(st, cpu, &v, err);
    *rows = a.rows;
    *n = a.n;
    *kinds = a.kinds;
    *nkinds = a.nkinds;
    return rc;
}

void store_plan_use_free(StorePlanUse *rows, StorePlanKind *kinds, size_t nkinds)
{
    free(rows);
    for (size_t i = 0; i < nkinds; i++) {
        free(kinds[i].cluster);
        free(kinds[i].type);
    }
    free(kinds);
}
