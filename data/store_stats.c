/* store_stats: see store_stats.h. */
#include "data/store_stats.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/handoff.h"
#include "core/strmap.h"
#include "data/fields.h"
#include "data/jobrec.h"
#include "data/sqlrow.h"
#include "data/store.h"
#include "data/store_feed.h"
#include "data/store_stats_eff.h"
#include "data/store_tui.h"

_Static_assert(STATS_TIME_NONE == CP_TIME_NONE, "one 'unknown time'");
_Static_assert(STATS_ST_COMPLETED == (int)CP_ST_COMPLETED &&
                   STATS_ST_CANCELLED == (int)CP_ST_CANCELLED &&
                   STATS_ST_PREEMPTED == (int)CP_ST_PREEMPTED,
               "core/stats.h numbers states as data/jobrec.h");

#define CACHE_CHUNK 65536   /* records per BLOB of the cache */
#define EXTEND_CHUNK 8192   /* ... of those an import appends (its memory stays small) */
#define CACHE_LAYOUT 3      /* bump when StatsJob changes meaning */
#define GPU_TYPES_MAX 65535 /* StatsJob.gpu_type is 16 bits */

enum { N_CLUSTERS, N_USERS, N_ACCOUNTS, N_PARTITIONS, N_GPU_TYPES, N_COUNT };

struct StoreStatsData {
    StatsInput in;
    char **names[N_COUNT]; /* owned arrays behind in's StatsNames */
    size_t nnames[N_COUNT];
    StatsUsage *usage;
    StatsPerson *people;
    StatsGroupInfo *groups;
    StatsGpus *inventory;
    StatsEvent *events;
    StatsPub *pubs;
    StatsJob *jobs;
    char **strs; /* every other string */
    size_t nstrs, capstrs;
    int cached;
    StatsCellsBuf cells;     /* the aggregates */
    StatsCellsBuild *rebuilt; /* made by a scan: to write once the read is over */
    int cells_cached;
    StatsEffBuf eff;             /* the efficiency aggregates */
    StatsEffBuild *eff_rebuilt;  /* made by a scan: to write once the read is over */
    int eff_cached;
};

/* A copy of s owned by d (NULL stays NULL). */
static const char *keep(StoreStatsData *d, const unsigned char *s)
{
    if (!s)
        return NULL;
    if (d->nstrs == d->capstrs) {
        d->capstrs = d->capstrs ? d->capstrs * 2 : 256;
        d->strs = xrealloc(d->strs, d->capstrs * sizeof *d->strs);
    }
    char *c = xstrdup((const char *)s);
    d->strs[d->nstrs++] = c;
    return c;
}

static const char *col_str(StoreStatsData *d, sqlite3_stmt *s, int i)
{
    return keep(d, sqlite3_column_text(s, i));
}

/* "YYYY-MM-DD" as the epoch second of its midnight (of the next day when
 * next_day: the end of a last day), STATS_TIME_NONE when NULL or bad. */
static int64_t date_epoch(const unsigned char *s, int next_day)
{
    int y, m, d;
    if (!s || sscanf((const char *)s, "%4d-%2d-%2d", &y, &m, &d) != 3)
        return STATS_TIME_NONE;
    return fields_epoch_of(y, m, d, 0, 0, 0) + (next_day ? 86400 : 0);
}

/* Growable array of fixed-size items. */
typedef struct Vec {
    void **data;
    size_t *n;
    size_t cap, size;
} Vec;

static void *vec_push(Vec *v)
{
    if (*v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 64;
        *v->data = xrealloc(*v->data, v->cap * v->size);
    }
    char *p = (char *)*v->data + (*v->n)++ * v->size;
    memset(p, 0, v->size);
    return p;
}

/* Prepare sql, call row for each result row. */
static int each_row(sqlite3 *db, const char *sql, void (*row)(sqlite3_stmt *s, void *ctx),
                    void *ctx, const char *what, CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, what);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        row(s, ctx);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, what);
}

/* ---- names by id ---- */

typedef struct NamesCtx {
    StoreStatsData *d;
    int which;
} NamesCtx;

/* d's name id of kind which set to a copy of name. */
static void name_set(StoreStatsData *d, int which, size_t id, const char *name)
{
    size_t need = id + 1;
    if (need > d->nnames[which]) {
        d->names[which] = xrealloc(d->names[which], need * sizeof(char *));
        for (size_t i = d->nnames[which]; i < need; i++)
            d->names[which][i] = NULL;
        d->nnames[which] = need;
    }
    free(d->names[which][id]);
    d->names[which][id] = xstrdup(name);
}

static void name_row(sqlite3_stmt *s, void *ctx)
{
    NamesCtx *nc = ctx;
    int64_t id = sqlite3_column_int64(s, 0);
    if (id < 0 || id > INT32_MAX - 1)
        return;
    const unsigned char *name = sqlite3_column_text(s, 1);
    name_set(nc->d, nc->which, (size_t)id, name ? (const char *)name : "");
}

static int load_names(sqlite3 *db, StoreStatsData *d, CpErr *err)
{
    static const char *const sql[N_GPU_TYPES] = {
        "SELECT id, name FROM clusters", "SELECT id, name FROM users",
        "SELECT id, name FROM accounts", "SELECT id, name FROM partitions"};
    for (int w = 0; w < N_GPU_TYPES; w++) {
        NamesCtx nc = {d, w};
        if (each_row(db, sql[w], name_row, &nc, "read names", err) < 0)
            return -1;
    }
    return 0;
}

static void names_publish(StoreStatsData *d)
{
    StatsNames *dst[N_COUNT] = {&d->in.clusters, &d->in.users, &d->in.accounts, &d->in.partitions,
                                &d->in.gpu_types};
    for (int w = 0; w < N_COUNT; w++) {
        dst[w]->v = (const char *const *)d->names[w];
        dst[w]->n = d->nnames[w];
    }
}

/* ---- usage_month and the reference tables ---- */

static void usage_row(sqlite3_stmt *s, void *ctx)
{
    StatsUsage *u = vec_push(ctx);
    u->month = sqlite3_column_int(s, 0);
    u->cluster = sqlite3_column_int(s, 1);
    u->account = sqlite3_column_int(s, 2);
    u->user = sqlite3_column_int(s, 3);
    u->partition = sqlite3_column_int(s, 4);
    u->jobs = sqlite3_column_int64(s, 5);
    u->attempts = sqlite3_column_int64(s, 6);
    u->gpu_jobs = sqlite3_column_int64(s, 7);
    u->waited = sqlite3_column_int64(s, 8);
    u->preempted = sqlite3_column_int64(s, 9);
    u->gpu_hours = sqlite3_column_double(s, 10);
    u->cpu_hours = sqlite3_column_double(s, 11);
    u->wait_s = sqlite3_column_double(s, 12);
    u->gpu_hours_lost = sqlite3_column_double(s, 13);
}

typedef struct RefCtx {
    StoreStatsData *d;
    Vec v;
} RefCtx;

static void person_row(sqlite3_stmt *s, void *ctx)
{
    RefCtx *rc = ctx;
    StatsPerson *p = vec_push(&rc->v);
    p->user = col_str(rc->d, s, 0);
    p->group = col_str(rc->d, s, 1);
    p->domain = col_str(rc->d, s, 2);
    p->start = date_epoch(sqlite3_column_text(s, 3), 0);
    p->end = date_epoch(sqlite3_column_text(s, 4), 1);
}

static void group_row(sqlite3_stmt *s, void *ctx)
{
    RefCtx *rc = ctx;
    StatsGroupInfo *g = vec_push(&rc->v);
    g->name = col_str(rc->d, s, 0);
    g->domain = col_str(rc->d, s, 1);
}

static void inventory_row(sqlite3_stmt *s, void *ctx)
{
    RefCtx *rc = ctx;
    StatsGpus *g = vec_push(&rc->v);
    g->cluster = col_str(rc->d, s, 0);
    g->gpu_model = col_str(rc->d, s, 1);
    g->gpus = sqlite3_column_double(s, 2);
    g->gpu_mem_gib = sqlite3_column_double(s, 3);
    g->from = date_epoch(sqlite3_column_text(s, 4), 0);
    g->to = date_epoch(sqlite3_column_text(s, 5), 1); /* `to` is the last day in service */
}

static void event_row(sqlite3_stmt *s, void *ctx)
{
    RefCtx *rc = ctx;
    StatsEvent *e = vec_push(&rc->v);
    e->date = col_str(rc->d, s, 0);
    e->cluster = col_str(rc->d, s, 1);
    e->label = col_str(rc->d, s, 2);
    e->at = date_epoch(sqlite3_column_text(s, 0), 0);
}

static void pub_row(sqlite3_stmt *s, void *ctx)
{
    RefCtx *rc = ctx;
    StatsPub *p = vec_push(&rc->v);
    p->year = sqlite3_column_int(s, 0);
    p->group = col_str(rc->d, s, 1);
    p->domain = col_str(rc->d, s, 2);
}

static int load_usage(sqlite3 *db, StoreStatsData *d, CpErr *err)
{
    Vec v = {(void **)&d->usage, &d->in.nusage, 0, sizeof *d->usage};
    return each_row(db,
                    "SELECT month, cluster_id, account_id, user_id, partition_id, jobs, "
                    "attempts, gpu_jobs, waited, preempted, gpu_hours, cpu_hours, wait_s, "
                    "gpu_hours_lost FROM usage_month",
                    usage_row, &v, "read usage", err);
}

static int load_refs(sqlite3 *db, StoreStatsData *d, unsigned needs, CpErr *err)
{
    StatsInput *in = &d->in;
    struct {
        unsigned need;
        const char *sql, *what;
        void (*row)(sqlite3_stmt *, void *);
        void **data;
        size_t *n, size;
    } refs[] = {
        {STATS_NEED_ROSTER, "SELECT user, group_name, domain, start_date, end_date FROM people",
         "read roster", person_row, (void **)&d->people, &in->npeople, sizeof *d->people},
        {STATS_NEED_ROSTER, "SELECT name, domain FROM groups", "read groups", group_row,
         (void **)&d->groups, &in->ngroups, sizeof *d->groups},
        {STATS_NEED_INVENTORY | STATS_NEED_JOBS | STATS_NEED_EFF,
         "SELECT cluster, gpu_model, gpus, gpu_mem_gib, from_date, to_date FROM inventory",
         "read inventory", inventory_row, (void **)&d->inventory, &in->ninventory,
         sizeof *d->inventory},
        {STATS_NEED_EVENTS, "SELECT date, cluster, label FROM events ORDER BY date, cluster, label",
         "read events", event_row, (void **)&d->events, &in->nevents, sizeof *d->events},
        {STATS_NEED_PUBS, "SELECT year, group_name, domain FROM pubs", "read publications", pub_row,
         (void **)&d->pubs, &in->npubs, sizeof *d->pubs},
    };
    for (size_t i = 0; i < sizeof refs / sizeof *refs; i++) {
        if (!(needs & refs[i].need))
            continue;
        RefCtx rc = {d, {refs[i].data, refs[i].n, 0, refs[i].size}};
        if (each_row(db, refs[i].sql, refs[i].row, &rc, refs[i].what, err) < 0)
            return -1;
    }
    in->people = d->people;
    in->groups = d->groups;
    in->inventory = d->inventory;
    in->events = d->events;
    in->pubs = d->pubs;
    return 0;
}

/* ---- job attempts: one scan ---- */

typedef struct Scan {
    StoreStatsData *d;
    Vec v;
    StrMap *types;   /* gpu type name -> id */
    StrMap *earlier; /* (cluster, job_raw) of non-final attempts -> earlier_pack() */
    struct EffFeed *eff; /* the efficiency aggregates the attempts go to, or NULL */
    const char *last_name; /* job_of_attempt: the last GPU type name seen, */
    uint16_t last_type;    /* ... and its id */
} Scan;

/* An empty scan that appends its attempts to d. */
static void scan_init(Scan *sc, StoreStatsData *d)
{
    memset(sc, 0, sizeof *sc);
    sc->d = d;
    sc->types = strmap_new();
    sc->earlier = strmap_new();
}

/* Frees what the scan owns (not d). */
static void scan_done(Scan *sc)
{
    strmap_free(sc->types);
    strmap_free(sc->earlier);
}

static int64_t col_time(sqlite3_stmt *s, int i)
{
    if (sqlite3_column_type(s, i) == SQLITE_NULL)
        return STATS_TIME_NONE;
    int64_t t = sqlite3_column_int64(s, i);
    return t > 0 ? t : STATS_TIME_NONE;
}

/* An epoch second as StatsJob keeps it: 32 bits, 0 unknown (t <= 0
 * included: col_time's rule). */
static uint32_t epoch32(int64_t t)
{
    return t > 0 && t <= (int64_t)UINT32_MAX ? (uint32_t)t : 0;
}

static uint32_t col_epoch32(sqlite3_stmt *s, int i)
{
    return epoch32(col_time(s, i));
}

static uint16_t id16(int64_t v)
{
    return v > 0 && v <= UINT16_MAX ? (uint16_t)v : 0;
}

static uint16_t col_id16(sqlite3_stmt *s, int i)
{
    return id16(sqlite3_column_int64(s, i));
}

static float col_real(sqlite3_stmt *s, int i)
{
    return sqlite3_column_type(s, i) == SQLITE_NULL ? -1.0f : (float)sqlite3_column_double(s, i);
}

static int32_t clamp32(int64_t v)
{
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

static uint16_t type_id(Scan *sc, const unsigned char *name, int n)
{
    int64_t id;
    if (!name || n <= 0)
        return 0;
    if (strmap_get(sc->types, (const char *)name, (size_t)n, &id))
        return (uint16_t)id;
    StoreStatsData *d = sc->d;
    if (d->nnames[N_GPU_TYPES] >= GPU_TYPES_MAX)
        return 0;
    if (d->nnames[N_GPU_TYPES] == 0) {
        d->names[N_GPU_TYPES] = xcalloc(1, sizeof(char *)); /* id 0: untyped */
        d->nnames[N_GPU_TYPES] = 1;
    }
    id = (int64_t)d->nnames[N_GPU_TYPES]++;
    d->names[N_GPU_TYPES] =
        xrealloc(d->names[N_GPU_TYPES], d->nnames[N_GPU_TYPES] * sizeof(char *));
    d->names[N_GPU_TYPES][id] = xstrndup((const char *)name, (size_t)n);
    strmap_put(sc->types, (const char *)name, (size_t)n, id);
    return (uint16_t)id;
}

/* What sc->earlier keeps of a job's non-final attempts, in its value: the
 * earliest submit (an epoch of 32 bits; EARLIER_NONE: none known) times
 * two, plus 1 when one of them was preempted. No array beside the map:
 * an entry the feed drops (feed_put) gives all its memory back. */
#define EARLIER_NONE ((int64_t)1 << 33)

static int64_t earlier_pack(int64_t first, int preempted)
{
    return first * 2 + (preempted != 0);
}

/* A non-final attempt: remember the job's earliest submit and whether
 * it was preempted. */
static void scan_earlier(Scan *sc, const StatsJob *j)
{
    int64_t key[2] = {j->cluster, j->job_raw}, v;
    if (!strmap_get(sc->earlier, (const char *)key, sizeof key, &v))
        v = earlier_pack(EARLIER_NONE, 0);
    int64_t first = v >> 1;
    if (j->submit && j->submit < first)
        first = j->submit;
    strmap_put(sc->earlier, (const char *)key, sizeof key,
               earlier_pack(first, (v & 1) || j->state == STATS_ST_PREEMPTED));
}

/* The columns a StatsJob is read from, in job_fill's order. */
#define JOB_SQL                                                                           \
    "SELECT cluster_id, job_raw, submit, start, end_time, elapsed, timelimit, "           \
    "ncpus, coalesce(user_id, 0), coalesce(account_id, 0), "                             \
    "coalesce(partition_id, 0), gpus, gpu_util, gpu_mem_gib, gpu_mem_source, "           \
    "max_rss_mib, req_mem_mib, total_cpu_s, gpu_type, state, final, id FROM jobs"

static uint32_t col_raw32(sqlite3_stmt *s, int i)
{
    int64_t raw = sqlite3_column_int64(s, i);
    return raw > 0 && raw <= (int64_t)UINT32_MAX ? (uint32_t)raw : 0;
}

/* *j (zeroed) from a JOB_SQL row. */
static void job_fill(Scan *sc, sqlite3_stmt *s, StatsJob *j)
{
    j->job_raw = col_raw32(s, 1);
    j->submit = col_epoch32(s, 2);
    j->start = col_epoch32(s, 3);
    int64_t end = col_time(s, 4);
    if (sqlite3_column_type(s, 5) != SQLITE_NULL)
        j->elapsed = clamp32(sqlite3_column_int64(s, 5));
    else
        j->elapsed =
            j->start && end != STATS_TIME_NONE && end >= j->start ? clamp32(end - j->start) : -1;
    j->timelimit =
        sqlite3_column_type(s, 6) == SQLITE_NULL ? -1 : clamp32(sqlite3_column_int64(s, 6));
    j->ncpus = sqlite3_column_type(s, 7) == SQLITE_NULL ? -1 : clamp32(sqlite3_column_int64(s, 7));
    j->cluster = col_id16(s, 0);
    j->user = clamp32(sqlite3_column_int64(s, 8));
    j->account = clamp32(sqlite3_column_int64(s, 9));
    j->partition = col_id16(s, 10);
    j->gpus = (float)sqlite3_column_double(s, 11);
    j->gpu_util = col_real(s, 12);
    j->gpu_mem_gib = col_real(s, 13);
    j->max_rss_mib = col_real(s, 15);
    j->req_mem_mib = col_real(s, 16);
    j->total_cpu_s = col_real(s, 17);
    j->gpu_type = type_id(sc, sqlite3_column_text(s, 18), sqlite3_column_bytes(s, 18));
    j->state = (uint8_t)sqlite3_column_int(s, 19);
    j->flags = (uint8_t)((sqlite3_column_int(s, 20) ? STATS_JOB_FINAL : 0) |
                         (sqlite3_column_int(s, 14) >= 1 ? STATS_JOB_MEM_MEASURED : 0));
}

/* *j (zeroed) from an attempt the import wrote (data/store_feed.h), as
 * job_fill reads its row back: keep the two in step (the tests compare an
 * extended cache with a rebuild byte for byte). */
static void job_of_attempt(Scan *sc, const StoreAttempt *a, StatsJob *j)
{
    j->job_raw = a->job_raw > 0 && a->job_raw <= (int64_t)UINT32_MAX ? (uint32_t)a->job_raw : 0;
    j->submit = epoch32(a->submit);
    j->start = epoch32(a->start);
    int64_t end = a->end != CP_TIME_NONE && a->end > 0 ? a->end : STATS_TIME_NONE;
    if (a->elapsed != CP_DUR_UNKNOWN)
        j->elapsed = clamp32(a->elapsed);
    else
        j->elapsed =
            j->start && end != STATS_TIME_NONE && end >= j->start ? clamp32(end - j->start) : -1;
    j->timelimit = a->timelimit == CP_DUR_UNKNOWN ? -1 : clamp32(a->timelimit);
    j->ncpus = a->ncpus == -1 ? -1 : clamp32(a->ncpus);
    j->cluster = id16(a->cluster_id);
    j->user = clamp32(a->user_id);
    j->account = clamp32(a->account_id);
    j->partition = id16(a->partition_id);
    j->gpus = (float)a->gpus;
    j->gpu_util = a->gpu_util < 0 ? -1.0f : (float)a->gpu_util;
    j->gpu_mem_gib = a->gpu_mem_gib < 0 ? -1.0f : (float)a->gpu_mem_gib;
    j->max_rss_mib = a->max_rss_mib < 0 ? -1.0f : (float)a->max_rss_mib;
    j->req_mem_mib = a->req_mem_mib < 0 ? -1.0f : (float)a->req_mem_mib;
    j->total_cpu_s = a->total_cpu_s < 0 ? -1.0f : (float)a->total_cpu_s;
    if (a->gpu_type != sc->last_name) { /* the feed hands one copy of each name */
        sc->last_name = a->gpu_type;
        sc->last_type =
            type_id(sc, (const unsigned char *)a->gpu_type, (int)strlen(a->gpu_type));
    }
    j->gpu_type = sc->last_type;
    j->state = (uint8_t)a->state;
    j->flags = (uint8_t)((a->final ? STATS_JOB_FINAL : 0) |
                         (a->gpu_mem_source >= 1 ? STATS_JOB_MEM_MEASURED : 0));
}

/* ---- the efficiency aggregates' attempts (issue 20) ---- */

static const char *name_of(const StoreStatsData *d, int which, size_t id)
{
    return d && id < d->nnames[which] ? d->names[which][id] : NULL;
}

/* Where a scan's attempts go for the efficiency aggregates: the builder,
 * and the cluster names it learns (names' clusters, read again when an
 * attempt names a cluster made after they were read). */
typedef struct EffFeed {
    StatsEffBuild *b;
    StoreStatsData *names;
    sqlite3 *db;   /* NULL: not read again here (the import's feed: feed_clusters) */
    size_t reread; /* ids below it were looked for in the table */
} EffFeed;

/* Is cluster id one to read the names again for, known names held and
 * ids below reread looked for already? */
static int cluster_unseen(size_t known, size_t reread, uint16_t id)
{
    return id >= known && id >= reread;
}

static const char *eff_cluster(EffFeed *e, uint16_t id)
{
    if (e->db && cluster_unseen(e->names->nnames[N_CLUSTERS], e->reread, id)) {
        NamesCtx nc = {e->names, N_CLUSTERS};
        e->reread = (size_t)id + 1;
        CpErr err;
        each_row(e->db, "SELECT id, name FROM clusters", name_row, &nc, "read names", &err);
    }
    return name_of(e->names, N_CLUSTERS, id);
}

/* Attempt *j (of order id, its GPU type an id of sc's) into the scan's
 * efficiency aggregates: what a feed of the import's attempts calls. */
static void eff_put(Scan *sc, const StatsJob *j, int64_t id)
{
    stats_eff_build_job(sc->eff->b, j, id, eff_cluster(sc->eff, j->cluster),
                        name_of(sc->d, N_GPU_TYPES, j->gpu_type), 1);
}

/* Attempt *j of JOB_SQL row s into the scan's efficiency aggregates. */
static void eff_job(Scan *sc, sqlite3_stmt *s, const StatsJob *j)
{
    eff_put(sc, j, sqlite3_column_int64(s, 21));
}

/* The second pass: a JOB_SQL row's hogging. */
static void eff_hog_row(sqlite3_stmt *s, void *ctx)
{
    Scan *sc = ctx;
    StatsJob j;
    memset(&j, 0, sizeof j);
    job_fill(sc, s, &j);
    stats_eff_build_hog(sc->eff->b, &j, sqlite3_column_int64(s, 21),
                        name_of(sc->d, N_GPU_TYPES, j.gpu_type));
}

static void eff_row(sqlite3_stmt *s, void *ctx)
{
    Scan *sc = ctx;
    StatsJob j;
    memset(&j, 0, sizeof j);
    job_fill(sc, s, &j);
    eff_job(sc, s, &j);
}

#define EFF_IDLE_SQL JOB_SQL " WHERE gpus > 0 AND gpu_util < 10"

static void job_row(sqlite3_stmt *s, void *ctx)
{
    Scan *sc = ctx;
    StatsJob *j = vec_push(&sc->v);
    job_fill(sc, s, j);
    if (!(j->flags & STATS_JOB_FINAL))
        scan_earlier(sc, j);
}

/* A final attempt learns its job's first submission and preemptions. */
static void link_one(const Scan *sc, StatsJob *j)
{
    int64_t key[2] = {j->cluster, j->job_raw}, v;
    if (!(j->flags & STATS_JOB_FINAL) ||
        !strmap_get(sc->earlier, (const char *)key, sizeof key, &v))
        return;
    int64_t first = v >> 1;
    if (j->submit && first < j->submit)
        j->first_ago = clamp32(j->submit - first);
    if (v & 1)
        j->flags |= STATS_JOB_WAS_PREEMPTED;
}

/* The final attempt j's job forgotten by sc->earlier (the feed's: no
 * attempt of the job comes after its final one unless the feed is
 * spoiled, and then it reads them back with a new scan). */
static void forget_job(Scan *sc, const StatsJob *j)
{
    int64_t key[2] = {j->cluster, j->job_raw};
    strmap_del(sc->earlier, (const char *)key, sizeof key);
}

static void scan_link(Scan *sc)
{
    StoreStatsData *d = sc->d;
    if (strmap_count(sc->earlier) == 0)
        return;
    for (size_t i = 0; i < d->in.njobs; i++)
        link_one(sc, &d->jobs[i]);
}

static int scan_jobs(sqlite3 *db, StoreStatsData *d, CpErr *err)
{
    Scan sc;
    scan_init(&sc, d);
    sc.v = (Vec){(void **)&d->jobs, &d->in.njobs, 0, sizeof *d->jobs};
    int rc = each_row(db, JOB_SQL, job_row, &sc, "read jobs", err);
    if (rc == 0)
        scan_link(&sc);
    scan_done(&sc);
    return rc;
}

/* ---- the cache ---- */

static int str_same(const unsigned char *a, const char *b)
{
    return a && strcmp((const char *)a, b) == 0;
}

/* What the jobs table holds, as far as the cache cares: its highest id,
 * the last import that can change jobs, and the record layout. */
static int fingerprint(sqlite3 *db, char *buf, size_t n, CpErr *err)
{
    sqlite3_stmt *s;
    const char *sql =
        "SELECT (SELECT coalesce(max(id), 0) FROM jobs), "
        "(SELECT coalesce(max(id), 0) FROM imports WHERE kind NOT IN "
        "('roster', 'inventory', 'events', 'pubs', 'papers', 'allocations', 'carbon', 'peers',"
        " 'sites'))";
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "read the jobs' state");
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        const uint32_t probe = 0x01020304;
        unsigned char b[4];
        memcpy(b, &probe, sizeof b);
        snprintf(buf, n, "layout %d size %zu order %u%u%u%u jobs %lld import %lld", CACHE_LAYOUT,
                 sizeof(StatsJob), b[0], b[1], b[2], b[3], (long long)sqlite3_column_int64(s, 0),
                 (long long)sqlite3_column_int64(s, 1));
    }
    sqlite3_finalize(s);
    return rc == SQLITE_ROW ? 0 : sqlrow_err(db, err, "read the jobs' state");
}

/* The cache's header: fingerprint, and data = the number of attempts and
 * of usage rows (8 bytes each), then the GPU type names (id 1, 2, ...),
 * each NUL-terminated. 1 when it matches fp (sets the counts and the type
 * names), 0 when stale or absent. */
static int cache_header(sqlite3 *db, StoreStatsData *d, const char *fp, size_t *njobs,
                        size_t *nusage)
{
    sqlite3_stmt *s;
    int ok = 0;
    if (sqlite3_prepare_v2(db, "SELECT fingerprint, data FROM stats_cache WHERE part = 0", -1, &s,
                           NULL) != SQLITE_OK)
        return 0;
    if (sqlite3_step(s) == SQLITE_ROW && str_same(sqlite3_column_text(s, 0), fp)) {
        const unsigned char *b = sqlite3_column_blob(s, 1);
        size_t n = (size_t)sqlite3_column_bytes(s, 1);
        uint64_t count[2];
        if (b && n >= sizeof count) {
            memcpy(count, b, sizeof count);
            *njobs = (size_t)count[0];
            *nusage = (size_t)count[1];
            ok = 1;
            size_t ntypes = 1;
            for (size_t i = sizeof count; i < n; i++)
                ntypes += b[i] == 0;
            d->names[N_GPU_TYPES] = xcalloc(ntypes, sizeof(char *));
            d->nnames[N_GPU_TYPES] = 1;
            for (size_t i = sizeof count; i < n;) {
                size_t len = strnlen((const char *)b + i, n - i);
                d->names[N_GPU_TYPES][d->nnames[N_GPU_TYPES]++] =
                    xstrndup((const char *)b + i, len);
                i += len + 1;
            }
        }
    }
    sqlite3_finalize(s);
    return ok;
}

/* Read count records of size bytes from the cache's parts 1, 2, ...
 * (jobs) or -1, -2, ... (usage rows) into a new *out: 0, or -1 when the
 * parts do not add up (then the caller reads the tables). */
static int cache_read(sqlite3 *db, int usage, size_t size, size_t count, void **out)
{
    sqlite3_stmt *s;
    const char *sql = usage ? "SELECT part, length(data) FROM stats_cache WHERE part < 0 "
                              "ORDER BY part DESC"
                            : "SELECT part, length(data) FROM stats_cache WHERE part > 0 "
                              "ORDER BY part";
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return -1;
    char *dst = xmalloc((count + 1) * size);
    size_t got = 0;
    int rc = 0;
    while (rc == 0 && sqlite3_step(s) == SQLITE_ROW) {
        int64_t part = sqlite3_column_int64(s, 0);
        size_t bytes = (size_t)sqlite3_column_int64(s, 1);
        sqlite3_blob *b;
        if (bytes % size || got + bytes / size > count ||
            sqlite3_blob_open(db, "main", "stats_cache", "data", part, 0, &b) != SQLITE_OK) {
            rc = -1;
            break;
        }
        if (sqlite3_blob_read(b, dst + got * size, (int)bytes, 0) != SQLITE_OK)
            rc = -1;
        sqlite3_blob_close(b);
        got += bytes / size;
    }
    sqlite3_finalize(s);
    if (rc == 0 && got == count) {
        *out = dst;
        return 0;
    }
    free(dst);
    return -1;
}

static int exec(sqlite3 *db, const char *sql)
{
    return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static int put_part(sqlite3_stmt *ins, int64_t part, const char *fp, const void *data, size_t n)
{
    sqlite3_bind_int64(ins, 1, part);
    sqlite3_bind_text(ins, 2, fp, -1, SQLITE_STATIC);
    sqlite3_bind_blob64(ins, 3, data, n, SQLITE_STATIC);
    int rc = sqlite3_step(ins);
    sqlite3_reset(ins);
    return rc == SQLITE_DONE ? 0 : -1;
}

static void header_blob(const StoreStatsData *d, CpBuf *b)
{
    uint64_t count[2] = {d->in.njobs, d->in.nusage};
    cpbuf_append(b, count, sizeof count);
    for (size_t i = 1; i < d->nnames[N_GPU_TYPES]; i++)
        cpbuf_append(b, d->names[N_GPU_TYPES][i], strlen(d->names[N_GPU_TYPES][i]) + 1);
}

/* Replace the cache with d's attempts, tagged fp, when the write lock is
 * free at once and the jobs are still those fp describes. Best effort. */
static void cache_write(Store *st, const StoreStatsData *d, const char *fp)
{
    sqlite3 *db = store_db(st);
    char now[160];
    sqlite3_stmt *ins = NULL;
    store_wait(st, 0);
    if (exec(db, "BEGIN IMMEDIATE") < 0)
        goto out;
    if (fingerprint(db, now, sizeof now, NULL) < 0 || strcmp(now, fp) != 0 ||
        exec(db, "DELETE FROM stats_cache") < 0 ||
        sqlite3_prepare_v2(db,
                           "INSERT INTO stats_cache(part, fingerprint, data) VALUES(?1, ?2, ?3)",
                           -1, &ins, NULL) != SQLITE_OK)
        goto fail;
    CpBuf h;
    cpbuf_init(&h);
    header_blob(d, &h);
    int rc = put_part(ins, 0, fp, h.data, h.len);
    cpbuf_done(&h);
    for (size_t i = 0, part = 1; rc == 0 && i < d->in.njobs; i += CACHE_CHUNK, part++) {
        size_t n = d->in.njobs - i < CACHE_CHUNK ? d->in.njobs - i : CACHE_CHUNK;
        rc = put_part(ins, (int64_t)part, fp, d->jobs + i, n * sizeof *d->jobs);
    }
    for (size_t i = 0, part = 1; rc == 0 && i < d->in.nusage; i += CACHE_CHUNK, part++) {
        size_t n = d->in.nusage - i < CACHE_CHUNK ? d->in.nusage - i : CACHE_CHUNK;
        rc = put_part(ins, -(int64_t)part, fp, d->usage + i, n * sizeof *d->usage);
    }
    sqlite3_finalize(ins);
    ins = NULL;
    if (rc == 0 && exec(db, "COMMIT") == 0)
        goto out;
fail:
    sqlite3_finalize(ins);
    exec(db, "ROLLBACK");
out:
    store_wait(st, 1); /* store_open's */
}

static void drop_gpu_types(StoreStatsData *d)
{
    for (size_t i = 0; i < d->nnames[N_GPU_TYPES]; i++)
        free(d->names[N_GPU_TYPES][i]);
    free(d->names[N_GPU_TYPES]);
    d->names[N_GPU_TYPES] = NULL;
    d->nnames[N_GPU_TYPES] = 0;
}

/* What needs asks of the attempts and usage: from the cache when it is
 * current, else from the tables (one scan of the jobs; then fp is left
 * set for the caller to rewrite the cache, with the usage rows read too). */
static int load_cached(sqlite3 *db, StoreStatsData *d, unsigned needs, char *fp, size_t fpsz,
                       CpErr *err)
{
    size_t njobs = 0, nusage = 0;
    void *jobs = NULL, *usage = NULL;
    int want_jobs = (needs & STATS_NEED_JOBS) != 0, want_usage = (needs & STATS_NEED_USAGE) != 0;
    if (fingerprint(db, fp, fpsz, err) < 0)
        return -1;
    if (cache_header(db, d, fp, &njobs, &nusage) &&
        (!want_jobs || cache_read(db, 0, sizeof *d->jobs, njobs, &jobs) == 0) &&
        (!want_usage || cache_read(db, 1, sizeof *d->usage, nusage, &usage) == 0)) {
        d->jobs = jobs;
        d->in.njobs = want_jobs ? njobs : 0;
        d->usage = usage;
        d->in.nusage = want_usage ? nusage : 0;
        d->cached = 1;
        fp[0] = '\0';
        return 0;
    }
    free(jobs);
    drop_gpu_types(d);
    if (!want_jobs)
        fp[0] = '\0'; /* usage alone: read it, leave the cache to a jobs load */
    return load_usage(db, d, err) < 0 || (want_jobs && scan_jobs(db, d, err) < 0) ? -1 : 0;
}

/* A non-final attempt's (cluster, job_raw, submit, state), as job_fill
 * reads them, for the job's first submission and preemptions. */
static void earlier_row(sqlite3_stmt *s, void *ctx)
{
    StatsJob j;
    memset(&j, 0, sizeof j);
    j.cluster = col_id16(s, 0);
    j.job_raw = col_raw32(s, 1);
    j.submit = col_epoch32(s, 2);
    j.state = (uint8_t)sqlite3_column_int(s, 3);
    scan_earlier(ctx, &j);
}

/* ---- the aggregates (issue 20) ----
 *
 * stats_agg holds one row a month (the blob core/stats writes) and, in
 * month 0, the fingerprint of the jobs they describe (agg_fingerprint).
 * The import merges its new attempts into the months they touch
 * (store_stats_extend); a load whose fingerprint does not match builds
 * them with two passes over the jobs (their earlier attempts, then every
 * attempt, as it streams: memory does not grow with the jobs) and writes
 * them when it can take the write lock at once. */

#define AGG_LAYOUT 2

static int agg_fingerprint(sqlite3 *db, char *buf, size_t n, CpErr *err)
{
    char fp[160];
    if (fingerprint(db, fp, sizeof fp, err) < 0)
        return -1;
    snprintf(buf, n, "agg %d %zu %zu %zu %zu %s", AGG_LAYOUT, sizeof(StatsCellSum),
             sizeof(StatsCellKey), sizeof(StatsHist), sizeof(StatsHeat), fp);
    return 0;
}

/* 1 when stats_agg describes the jobs as afp says. */
static int agg_current(sqlite3 *db, const char *afp)
{
    sqlite3_stmt *s;
    int ok = 0;
    if (sqlite3_prepare_v2(db, "SELECT data FROM stats_agg WHERE month = 0", -1, &s, NULL) !=
        SQLITE_OK)
        return 0;
    if (sqlite3_step(s) == SQLITE_ROW) {
        const void *b = sqlite3_column_blob(s, 0);
        size_t n = (size_t)sqlite3_column_bytes(s, 0);
        ok = b && n == strlen(afp) && memcmp(b, afp, n) == 0;
    }
    sqlite3_finalize(s);
    return ok;
}

/* Room in buf for every stored month, from their headers (read alone:
 * the arrays are then allocated once, at their size). */
static void agg_reserve(sqlite3 *db, StatsCellsBuf *buf)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "SELECT month FROM stats_agg WHERE month > 0", -1, &s, NULL) !=
        SQLITE_OK)
        return;
    size_t total[4] = {0, 0, 0, 0};
    while (sqlite3_step(s) == SQLITE_ROW) {
        sqlite3_blob *b;
        uint32_t h[6];
        if (sqlite3_blob_open(db, "main", "stats_agg", "data", sqlite3_column_int64(s, 0), 0, &b) !=
            SQLITE_OK)
            continue;
        if (sqlite3_blob_bytes(b) >= (int)sizeof h && sqlite3_blob_read(b, h, sizeof h, 0) == SQLITE_OK)
            for (int i = 0; i < 4; i++)
                total[i] += h[1 + i];
        sqlite3_blob_close(b);
    }
    sqlite3_finalize(s);
    stats_cells_buf_reserve(buf, total);
}

/* Every stored month into buf: 0, or -1 when one does not parse. */
static int agg_read(sqlite3 *db, StatsCellsBuf *buf)
{
    sqlite3_stmt *s;
    agg_reserve(db, buf);
    if (sqlite3_prepare_v2(db, "SELECT data FROM stats_agg WHERE month > 0 ORDER BY month", -1, &s,
                           NULL) != SQLITE_OK)
        return -1;
    int rc = 0;
    while (rc == 0 && sqlite3_step(s) == SQLITE_ROW)
        rc = stats_cells_buf_add(buf, sqlite3_column_blob(s, 0),
                                 (size_t)sqlite3_column_bytes(s, 0));
    sqlite3_finalize(s);
    return rc;
}

/* Stored month m merged into b (nothing when absent): 0, or -1. */
static int agg_merge_month(sqlite3_stmt *sel, StatsCellsBuild *b, int32_t m)
{
    sqlite3_bind_int(sel, 1, m);
    int rc = 0;
    if (sqlite3_step(sel) == SQLITE_ROW)
        rc = stats_cells_build_blob(b, sqlite3_column_blob(sel, 0),
                                    (size_t)sqlite3_column_bytes(sel, 0));
    sqlite3_reset(sel);
    return rc;
}

/* b's months (replacing those stored) and the header afp (NULL: not). */
static int agg_write(sqlite3 *db, const StatsCellsBuild *b, const char *afp)
{
    sqlite3_stmt *ins;
    if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO stats_agg(month, data) VALUES(?1, ?2)", -1,
                           &ins, NULL) != SQLITE_OK)
        return -1;
    int32_t *months;
    size_t n = stats_cells_build_months(b, &months);
    CpBuf blob;
    cpbuf_init(&blob);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        cpbuf_clear(&blob);
        stats_cells_month_blob(b, months[i], &blob);
        sqlite3_bind_int(ins, 1, months[i]);
        sqlite3_bind_blob64(ins, 2, blob.data, blob.len, SQLITE_STATIC);
        rc = sqlite3_step(ins) == SQLITE_DONE ? 0 : -1;
        sqlite3_reset(ins);
    }
    if (rc == 0 && afp) {
        sqlite3_bind_int(ins, 1, 0);
        sqlite3_bind_blob64(ins, 2, afp, strlen(afp), SQLITE_STATIC);
        rc = sqlite3_step(ins) == SQLITE_DONE ? 0 : -1;
    }
    cpbuf_done(&blob);
    free(months);
    sqlite3_finalize(ins);
    return rc;
}

/* Every attempt into b, linked to its job's earlier attempts (first
 * submission, preemptions): those first, then every attempt as it
 * streams. */
static int agg_scan(sqlite3 *db, StatsCellsBuild *b, CpErr *err)
{
    StoreStatsData *d = xcalloc(1, sizeof *d);
    Scan sc;
    scan_init(&sc, d);
    sqlite3_stmt *s = NULL;
    int rc = each_row(db, "SELECT cluster_id, job_raw, submit, state FROM jobs WHERE final = 0",
                      earlier_row, &sc, "read jobs", err);
    if (rc == 0 && sqlite3_prepare_v2(db, JOB_SQL, -1, &s, NULL) != SQLITE_OK)
        rc = sqlrow_err(db, err, "read jobs");
    while (rc == 0) {
        int step = sqlite3_step(s);
        if (step != SQLITE_ROW) {
            rc = step == SQLITE_DONE ? 0 : sqlrow_err(db, err, "read jobs");
            break;
        }
        StatsJob j;
        memset(&j, 0, sizeof j);
        job_fill(&sc, s, &j);
        link_one(&sc, &j);
        stats_cells_build_job(b, &j);
    }
    sqlite3_finalize(s);
    scan_done(&sc);
    store_stats_free(d);
    return rc;
}

static void window_row(sqlite3_stmt *s, void *ctx)
{
    StatsInput *in = ctx;
    in->win_from = sqlite3_column_int64(s, 0);
    in->win_to = sqlite3_column_int64(s, 1);
}

/* The aggregates and the window: stored when current, else built (afp
 * left set for the caller to write them). */
static int load_cells(sqlite3 *db, StoreStatsData *d, char *afp, size_t afpsz, CpErr *err)
{
    if (agg_fingerprint(db, afp, afpsz, err) < 0 ||
        each_row(db, "SELECT coalesce(lo, 0), coalesce(hi, 0) FROM acct_window", window_row,
                 &d->in, "read the window", err) < 0)
        return -1;
    d->in.has_cells = 1;
    if (agg_current(db, afp) && agg_read(db, &d->cells) == 0) {
        d->cells_cached = 1;
        afp[0] = '\0';
        return 0;
    }
    stats_cells_buf_done(&d->cells);
    d->rebuilt = stats_cells_build_new(0);
    if (agg_scan(db, d->rebuilt, err) < 0)
        return -1;
    stats_cells_buf_from(&d->cells, d->rebuilt);
    return 0;
}

/* Write the aggregates a load built, when the write lock is free at once
 * and the jobs are still those afp describes. Best effort. */
static void cells_write(Store *st, const StoreStatsData *d, const char *afp)
{
    sqlite3 *db = store_db(st);
    char now[256];
    store_wait(st, 0);
    if (exec(db, "BEGIN IMMEDIATE") == 0) {
        if (agg_fingerprint(db, now, sizeof now, NULL) == 0 && strcmp(now, afp) == 0 &&
            exec(db, "DELETE FROM stats_agg WHERE month >= 0") == 0 &&
            agg_write(db, d->rebuilt, afp) == 0 &&
            exec(db, "COMMIT") == 0) {
            store_wait(st, 1);
            return;
        }
        exec(db, "ROLLBACK");
    }
    store_wait(st, 1); /* store_open's */
}

/* Every attempt into b (the curves, then each idle attempt's hogging: a
 * second pass when b could not keep them); names: the cluster names. */
static int eff_scan(sqlite3 *db, StoreStatsData *names, StatsEffBuild *b, CpErr *err)
{
    StoreStatsData *d = xcalloc(1, sizeof *d);
    Scan sc;
    EffFeed e = {b, names, db, 0};
    scan_init(&sc, d);
    sc.eff = &e;
    int rc = each_row(db, JOB_SQL, eff_row, &sc, "read jobs", err);
    if (rc == 0 && stats_eff_build_finish(b) == 0 && stats_eff_build_second_pass(b))
        rc = each_row(db, EFF_IDLE_SQL, eff_hog_row, &sc, "read jobs", err);
    scan_done(&sc);
    store_stats_free(d);
    return rc;
}

/* The efficiency aggregates: stored when current, else built (efp left
 * set for the caller to write them). */
static int load_eff(sqlite3 *db, StoreStatsData *d, char *efp, size_t efpsz, CpErr *err)
{
    char afp[256];
    if (agg_fingerprint(db, afp, sizeof afp, err) < 0)
        return -1;
    if (store_eff_fingerprint(db, afp, efp, efpsz) < 0)
        return sqlrow_err(db, err, "read the inventory");
    d->in.has_eff = 1;
    if (store_eff_current(db, efp) && store_eff_read(db, &d->eff) == 0) {
        d->eff_cached = 1;
        efp[0] = '\0';
        return 0;
    }
    stats_eff_buf_done(&d->eff);
    d->eff_rebuilt = stats_eff_build_new(d->inventory, d->in.ninventory, STATS_EFF_IDLE_KEEP);
    /* a scan through the memory map would count every page of the jobs
     * in the process's memory */
    exec(db, "PRAGMA mmap_size=0");
    if (eff_scan(db, d, d->eff_rebuilt, err) < 0)
        return -1;
    stats_eff_buf_from(&d->eff, d->eff_rebuilt);
    return 0;
}

/* Write the efficiency aggregates a load built, when the write lock is
 * free at once and the jobs and inventory are still those efp describes.
 * Best effort. */
static void eff_write(Store *st, const StoreStatsData *d, const char *efp)
{
    sqlite3 *db = store_db(st);
    char afp[256], now[512];
    store_wait(st, 0);
    if (exec(db, "BEGIN IMMEDIATE") == 0) {
        if (agg_fingerprint(db, afp, sizeof afp, NULL) == 0 &&
            store_eff_fingerprint(db, afp, now, sizeof now) == 0 && strcmp(now, efp) == 0 &&
            store_eff_clear(db) == 0 && store_eff_write(db, d->eff_rebuilt, efp) == 0 &&
            exec(db, "COMMIT") == 0) {
            store_wait(st, 1);
            return;
        }
        exec(db, "ROLLBACK");
    }
    store_wait(st, 1); /* store_open's */
}

StoreStatsData *store_stats_load(Store *st, unsigned needs, CpErr *err)
{
    sqlite3 *db = store_db(st);
    StoreStatsData *d = xcalloc(1, sizeof *d);
    char fp[160] = "", afp[256] = "", efp[512] = "";
    int own = sqlite3_get_autocommit(db);
    /* Read the cache's BLOBs through a memory map (one copy less), then
     * back to store_open's setting (none). */
    exec(db, "PRAGMA mmap_size=4294967296");
    if (own && exec(db, "BEGIN") < 0) {
        sqlrow_err(db, err, "begin");
        goto fail;
    }
    if (load_names(db, d, err) < 0 || load_refs(db, d, needs, err) < 0 ||
        ((needs & (STATS_NEED_JOBS | STATS_NEED_USAGE)) &&
         load_cached(db, d, needs, fp, sizeof fp, err) < 0) ||
        ((needs & STATS_NEED_CELLS) && load_cells(db, d, afp, sizeof afp, err) < 0) ||
        ((needs & STATS_NEED_EFF) && load_eff(db, d, efp, sizeof efp, err) < 0)) {
        if (own)
            exec(db, "ROLLBACK");
        goto fail;
    }
    if (own)
        exec(db, "COMMIT");
    exec(db, "PRAGMA mmap_size=0");
    d->in.jobs = d->jobs;
    d->in.usage = d->usage;
    d->in.cells = d->cells.c;
    d->in.eff = d->eff.e;
    names_publish(d);
    if (own && fp[0])
        cache_write(st, d, fp);
    if (own && afp[0] && d->rebuilt)
        cells_write(st, d, afp);
    stats_cells_build_free(d->rebuilt);
    d->rebuilt = NULL;
    if (own && efp[0] && d->eff_rebuilt)
        eff_write(st, d, efp);
    stats_eff_build_free(d->eff_rebuilt);
    d->eff_rebuilt = NULL;
    return d;
fail:
    exec(db, "PRAGMA mmap_size=0");
    store_stats_free(d);
    return NULL;
}

const StatsInput *store_stats_input(const StoreStatsData *d)
{
    return &d->in;
}

int store_stats_cached(const StoreStatsData *d)
{
    return d->cached;
}

int store_stats_cells_cached(const StoreStatsData *d)
{
    return d->cells_cached;
}

int store_stats_eff_cached(const StoreStatsData *d)
{
    return d->eff_cached;
}

void store_stats_free(StoreStatsData *d)
{
    if (!d)
        return;
    for (int w = 0; w < N_COUNT; w++) {
        for (size_t i = 0; i < d->nnames[w]; i++)
            free(d->names[w][i]);
        free(d->names[w]);
    }
    for (size_t i = 0; i < d->nstrs; i++)
        free(d->strs[i]);
    free(d->strs);
    free(d->usage);
    free(d->people);
    free(d->groups);
    free(d->inventory);
    free(d->events);
    free(d->pubs);
    free(d->jobs);
    stats_cells_buf_done(&d->cells);
    stats_cells_build_free(d->rebuilt);
    stats_eff_buf_done(&d->eff);
    stats_eff_build_free(d->eff_rebuilt);
    free(d);
}

int store_stats_refresh(Store *st, CpErr *err)
{
    StoreStatsData *d =
        store_stats_load(st, STATS_NEED_JOBS | STATS_NEED_CELLS | STATS_NEED_EFF, err);
    int rc = d ? 0 : -1;
    store_stats_free(d);
    return rc;
}

int store_stats_forget(Store *st, CpErr *err)
{
    sqlite3 *db = store_db(st);
    if (sqlite3_exec(db, "DELETE FROM stats_cache; DELETE FROM stats_agg", NULL, NULL, NULL) !=
        SQLITE_OK)
        return sqlrow_err(db, err, "clear the statistics cache");
    return 0;
}

/* ---- the import extends the cache (issue 20) ---- */


/* Run sql (one parameter: ?1 = since) row by row. */
static int each_since(sqlite3 *db, const char *sql, int64_t since,
                      void (*row)(sqlite3_stmt *s, void *ctx), void *ctx, CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "extend the statistics cache");
    sqlite3_bind_int64(s, 1, since);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        row(s, ctx);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "extend the statistics cache");
}

static int feed_start(Store *st, StoreStatsMark *m, CpErr *err);

int store_stats_mark(Store *st, StoreStatsMark *m, CpErr *err)
{
    sqlite3 *db = store_db(st);
    memset(m, 0, sizeof *m);
    m->since_id = store_scalar(st, "SELECT coalesce(max(id), 0) FROM jobs");
    if (m->since_id < 0)
        return sqlrow_err(db, err, "read the jobs' state");
    if (fingerprint(db, m->fp, sizeof m->fp, err) < 0 ||
        agg_fingerprint(db, m->afp, sizeof m->afp, err) < 0)
        return -1;
    StoreStatsData *d = xcalloc(1, sizeof *d);
    size_t njobs, nusage;
    m->usable = m->since_id == 0 || cache_header(db, d, m->fp, &njobs, &nusage);
    m->agg_usable = m->since_id == 0 || agg_current(db, m->afp);
    char efp[512];
    if (store_eff_fingerprint(db, m->afp, efp, sizeof efp) < 0)
        return sqlrow_err(db, err, "read the inventory");
    m->eff_usable = m->since_id == 0 || store_eff_current(db, efp);
    store_stats_free(d);
    store_watch_old(st, m->since_id);
    return feed_start(st, m, err);
}

/* The attempts with id > since, linked among themselves, appended as the
 * cache's parts after part (ins NULL: not) and added to cells (NULL:
 * not); *n their number. A job's earlier attempts come before its final
 * one in id order unless the import said otherwise (store_late_attempts:
 * then sc->earlier was filled beforehand). */
static int extend_cells(sqlite3 *db, StatsCellsBuild *cells, int final, CpErr *err);

/* When *cells holds more than AGG_FLUSH cells and buckets, its months are
 * merged into those stored now and it starts again empty (an import of
 * years of jobs keeps its memory; the months it wrote are merged again if
 * later attempts fall in them). 0, or -1 with err; *cells NULL when the
 * stored months were dropped (see extend_cells). */
#define AGG_FLUSH 400000
static size_t agg_flush = AGG_FLUSH; /* store_stats_merge_every */

void store_stats_merge_every(size_t n)
{
    agg_flush = n > 0 ? n : AGG_FLUSH;
}

static int cells_flush(sqlite3 *db, StatsCellsBuild **cells, CpErr *err)
{
    if (!*cells || stats_cells_build_size(*cells) < agg_flush)
        return 0;
    int rc = extend_cells(db, *cells, 0, err);
    stats_cells_build_free(*cells);
    *cells = rc == 0 ? stats_cells_build_new(0) : NULL;
    return rc < 0 ? -1 : 0;
}

static int append_jobs(sqlite3 *db, Scan *sc, int64_t since, int64_t part, sqlite3_stmt *ins,
                       const char *fp, StatsCellsBuild **cells, size_t *n, CpErr *err)
{
    sqlite3_stmt *s;
    *n = 0;
    if (sqlite3_prepare_v2(db, JOB_SQL " WHERE id > ?1 ORDER BY id", -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "extend the statistics cache");
    sqlite3_bind_int64(s, 1, since);
    StatsJob *buf = xmalloc(EXTEND_CHUNK * sizeof *buf);
    size_t k = 0;
    int rc, bad = 0;
    for (;;) {
        rc = sqlite3_step(s);
        if (rc == SQLITE_ROW) {
            memset(&buf[k], 0, sizeof buf[k]);
            job_fill(sc, s, &buf[k]);
            if (buf[k].flags & STATS_JOB_FINAL)
                link_one(sc, &buf[k]);
            else
                scan_earlier(sc, &buf[k]);
            if (*cells)
                stats_cells_build_job(*cells, &buf[k]);
            if (sc->eff)
                eff_job(sc, s, &buf[k]);
            k++;
        }
        if (k == EXTEND_CHUNK || (rc != SQLITE_ROW && k > 0)) {
            if (ins)
                bad |= put_part(ins, ++part, fp, buf, k * sizeof *buf) < 0;
            *n += k;
            k = 0;
            if (cells_flush(db, cells, err) < 0) {
                bad = 1;
                break;
            }
        }
        if (rc != SQLITE_ROW || bad)
            break;
    }
    free(buf);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE && !bad ? 0 : sqlrow_err(db, err, "extend the statistics cache");
}

/* The usage rows as parts -1, -2, ... (replacing those there). */
static int write_usage(sqlite3 *db, StoreStatsData *d, sqlite3_stmt *ins, const char *fp,
                       CpErr *err)
{
    if (exec(db, "DELETE FROM stats_cache WHERE part < 0") < 0 || load_usage(db, d, err) < 0)
        return sqlrow_err(db, err, "extend the statistics cache");
    for (size_t i = 0, part = 1; i < d->in.nusage; i += CACHE_CHUNK, part++) {
        size_t n = d->in.nusage - i < CACHE_CHUNK ? d->in.nusage - i : CACHE_CHUNK;
        if (put_part(ins, -(int64_t)part, fp, d->usage + i, n * sizeof *d->usage) < 0)
            return sqlrow_err(db, err, "extend the statistics cache");
    }
    return 0;
}

/* The months cells touched, merged with those stored, written back (with
 * the aggregates' new fingerprint when final). 0; 1 when a stored month
 * did not parse (then every month is dropped: the next load rebuilds
 * them); -1 with err on a database error. */
static int extend_cells(sqlite3 *db, StatsCellsBuild *cells, int final, CpErr *err)
{
    char afp[256];
    sqlite3_stmt *sel;
    if (final && agg_fingerprint(db, afp, sizeof afp, err) < 0)
        return -1;
    if (sqlite3_prepare_v2(db, "SELECT data FROM stats_agg WHERE month = ?1", -1, &sel, NULL) !=
        SQLITE_OK)
        return sqlrow_err(db, err, "extend the statistics' aggregates");
    int32_t *months;
    size_t n = stats_cells_build_months(cells, &months);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = agg_merge_month(sel, cells, months[i]);
    free(months);
    sqlite3_finalize(sel);
    if (rc < 0) /* a month that does not parse */
        return exec(db, "DELETE FROM stats_agg WHERE month >= 0") < 0
                   ? sqlrow_err(db, err, "extend the statistics' aggregates")
                   : 1;
    return agg_write(db, cells, final ? afp : NULL) < 0
               ? sqlrow_err(db, err, "extend the statistics' aggregates")
               : 0;
}

static int extend(Store *st, const StoreStatsMark *m, StoreStatsData *d, Scan *sc,
                  sqlite3_stmt *ins, StatsCellsBuild **cells, CpErr *err)
{
    sqlite3 *db = store_db(st);
    size_t old_jobs = 0, old_usage = 0;
    int64_t part = 0;
    if (ins && m->since_id > 0) {
        if (!cache_header(db, d, m->fp, &old_jobs, &old_usage)) {
            ins = NULL; /* gone meanwhile: the next load rebuilds it */
        } else {
            part = store_scalar(st, "SELECT coalesce(max(part), 0) FROM stats_cache");
            if (part < 0)
                return sqlrow_err(db, err, "extend the statistics cache");
        }
    } else if (ins && exec(db, "DELETE FROM stats_cache") < 0) {
        return sqlrow_err(db, err, "extend the statistics cache");
    }
    if (*cells && m->since_id == 0 && exec(db, "DELETE FROM stats_agg") < 0)
        return sqlrow_err(db, err, "extend the statistics' aggregates");
    if (!ins && !*cells && !sc->eff)
        return 0;
    for (size_t i = 1; i < d->nnames[N_GPU_TYPES]; i++)
        strmap_put(sc->types, d->names[N_GPU_TYPES][i], strlen(d->names[N_GPU_TYPES][i]),
                   (int64_t)i);
    char fp[160];
    size_t added;
    if (fingerprint(db, fp, sizeof fp, err) < 0 ||
        (store_late_attempts(st) &&
         each_since(db,
                    "SELECT cluster_id, job_raw, submit, state FROM jobs WHERE id > ?1 AND final = 0",
                    m->since_id, earlier_row, sc, err) < 0) ||
        append_jobs(db, sc, m->since_id, part, ins, fp, cells, &added, err) < 0 ||
        (*cells && extend_cells(db, *cells, 1, err) < 0))
        return -1;
    if (!ins)
        return 0;
    if (write_usage(db, d, ins, fp, err) < 0)
        return -1;
    d->in.njobs = old_jobs + added;
    CpBuf h;
    cpbuf_init(&h);
    header_blob(d, &h);
    int rc = put_part(ins, 0, fp, h.data, h.len);
    cpbuf_done(&h);
    return rc == 0 ? 0 : sqlrow_err(db, err, "extend the statistics cache");
}

/* The import's efficiency aggregates, started when m says the stored set
 * describes the jobs: the inventory and cluster names into e->names (owned,
 * with e->b: eff_end frees them), the stored type names (or none: an empty
 * database) into e->b. 0 (e->b NULL: not kept), or -1 with err. */
static int eff_begin(sqlite3 *db, const StoreStatsMark *m, EffFeed *e, CpErr *err)
{
    NamesCtx nc = {NULL, N_CLUSTERS};
    memset(e, 0, sizeof *e);
    if (!m->eff_usable)
        return 0;
    e->db = db;
    e->names = nc.d = xcalloc(1, sizeof *e->names);
    if (load_refs(db, e->names, STATS_NEED_INVENTORY, err) < 0 ||
        each_row(db, "SELECT id, name FROM clusters", name_row, &nc, "read names", err) < 0)
        return -1;
    e->b = stats_eff_build_new(e->names->inventory, e->names->in.ninventory, STATS_EFF_IDLE_KEEP);
    if (m->since_id == 0 ? store_eff_clear(db) < 0 : store_eff_types(db, e->b) < 0) {
        stats_eff_build_free(e->b); /* gone meanwhile: the next load rebuilds it */
        e->b = NULL;
    }
    return 0;
}

static void eff_end(EffFeed *e)
{
    stats_eff_build_free(e->b);
    store_stats_free(e->names);
    memset(e, 0, sizeof *e);
}

/* The import's new attempts (in sc->eff) merged with the stored months
 * and written, with the fingerprint of the jobs as the import leaves
 * them; when an hour's hogging condition changed under stored idle
 * attempts (or a stored month does not parse), the stored set is
 * forgotten instead: the next load rebuilds it. */
static int eff_finish(sqlite3 *db, const StoreStatsMark *m, Scan *sc, CpErr *err)
{
    StatsEffBuild *b = sc->eff->b;
    char afp[256], efp[512];
    int rc = store_eff_old_curves(db, b);
    if (rc == 0 && stats_eff_build_finish(b))
        rc = 1;
    if (rc == 0 && stats_eff_build_second_pass(b) &&
        each_since(db, EFF_IDLE_SQL " AND id > ?1", m->since_id, eff_hog_row, sc, err) < 0)
        return -1;
    if (rc == 0)
        rc = store_eff_old_months(db, b);
    if (rc == 1)
        return store_eff_drop(db) < 0 ? sqlrow_err(db, err, "extend the efficiency aggregates") : 0;
    if (rc < 0 || agg_fingerprint(db, afp, sizeof afp, err) < 0 ||
        store_eff_fingerprint(db, afp, efp, sizeof efp) < 0 || store_eff_write(db, b, efp) < 0)
        return sqlrow_err(db, err, "extend the efficiency aggregates");
    return 0;
}

/* ---- the extension fed by the import's own records (store_feed_add) ----
 *
 * The attempts reach the cache and the aggregates as data/store.c writes
 * them, in id order, once they can no longer change (data/store_feed.h):
 * each is made a StatsJob as job_fill would read it back, linked as
 * append_jobs links it, appended to the cache's parts (written as they
 * fill, EXTEND_CHUNK records each) and added to the aggregates. When an
 * attempt changed after it was handed on (or came before a later attempt
 * of its job, or GPU metrics were linked to the import's jobs), the feed
 * is spoiled: store_stats_extend drops the parts it wrote and reads the
 * attempts back as before (the aggregates too, unless some of the feed's
 * months were already merged into the stored ones: then they are left
 * stale, for the next load to rebuild).
 *
 * Two threads (the import's main thread is its longer one): feed_put, on
 * the import's thread, copies each attempt into a batch and hands full
 * batches to a worker thread through a bounded queue (the import waits
 * when FEED_QUEUE batches are on their way); the worker does the pure
 * work (feed_job: the record, its links, the aggregates) and hands back,
 * on a second queue, each filled part and each set of aggregates past
 * AGG_FLUSH; the import's thread writes them, in order, when it sends the
 * next batch and at the end. SQLite stays on the import's thread (its
 * connection is not shared): the clusters' names the efficiency
 * aggregates learn during the import are read there and sent with a batch
 * (feed_clusters). Spoiled, the worker stops and what it handed back
 * unwritten is dropped. */

#define FEED_BATCH 2048 /* attempts a batch takes to the worker (360 KB) */
#define FEED_QUEUE 3    /* batches on their way to it, at most */
#define FEED_TYPE_SLOTS 16 /* GPU type names' copies found by address (the feed has one of each) */

/* Attempts on their way to the worker. */
typedef struct FeedBatch {
    StoreStatsData *clusters; /* NULL, or the clusters' names read again before a[0] */
    size_t n;
    StoreAttempt a[FEED_BATCH]; /* gpu_type: the feed's own copy (feed_type) */
} FeedBatch;

/* A write the worker hands back: a filled part of the cache, or
 * aggregates to merge into the stored months (each owned). */
typedef struct FeedWrite {
    StatsJob *part; /* k records; NULL: cells */
    size_t k;
    StatsCellsBuild *cells;
} FeedWrite;

struct StoreStatsFeed {
    /* the import's thread: SQLite, the writes, the batches */
    sqlite3 *db;
    sqlite3_stmt *ins;      /* NULL: the cache is not extended */
    char fp[160];           /* the parts' fingerprint (the header's is written last) */
    int64_t part0, part;    /* the cache's last part before the import, the last written */
    size_t old_jobs;
    int spoiled;            /* read the attempts back instead */
    int merged;             /* the aggregates' months were merged into the stored ones */
    int cells_dropped;      /* ... and a merge dropped them all: no more merges */
    int done;               /* every attempt was handed on */
    int used;               /* store_stats_extend extended from it */
    int eff_kept;           /* the efficiency aggregates are kept */
    size_t cl_known, cl_reread; /* eff_cluster's state, followed (feed_clusters) */
    FeedBatch *batch;       /* being filled, or NULL */
    Handoff *todo;          /* FeedBatch, to the worker */
    Handoff *writes;        /* FeedWrite, back */
    pthread_t thread;
    int running, tried;     /* the worker thread runs; its start was tried */
    StrMap *types;          /* GPU type name -> index in type_copy */
    char **type_copy;
    size_t ntypes;
    const char *type_in[FEED_TYPE_SLOTS], *type_out[FEED_TYPE_SLOTS]; /* copies by address */
    /* the worker's (the import's thread's when none runs or once joined) */
    StoreStatsData *d;      /* the cache's GPU type names, then its usage rows */
    Scan sc;
    int keep_parts;         /* ins is set */
    StatsCellsBuild *cells; /* NULL: the aggregates are not kept */
    StatsJob *buf;          /* the part being filled */
    size_t k;
    size_t added;
    EffFeed eff;            /* the efficiency aggregates (eff.b NULL: not kept) */
};

static void write_free(FeedWrite *w)
{
    free(w->part);
    stats_cells_build_free(w->cells);
    free(w);
}

static void batch_free(FeedBatch *b)
{
    if (b)
        store_stats_free(b->clusters);
    free(b);
}

/* Worker: w to the import's thread. */
static void hand_back(StoreStatsFeed *f, FeedWrite *w)
{
    if (handoff_put(f->writes, w) < 0)
        write_free(w);
}

/* Worker: the filled part and, past AGG_FLUSH, the aggregates handed
 * back (a new part and builder begun), as append_jobs writes them. */
static void feed_chunk(StoreStatsFeed *f)
{
    if (f->keep_parts) {
        FeedWrite *w = xcalloc(1, sizeof *w);
        w->part = f->buf;
        w->k = f->k;
        hand_back(f, w);
        f->buf = xmalloc(EXTEND_CHUNK * sizeof *f->buf);
    }
    f->added += f->k;
    f->k = 0;
    if (f->cells && stats_cells_build_size(f->cells) >= agg_flush) {
        FeedWrite *w = xcalloc(1, sizeof *w);
        w->cells = f->cells;
        hand_back(f, w);
        f->cells = stats_cells_build_new(0);
    }
}

/* Worker: attempt a into the part, the links and the aggregates. */
static void feed_job(StoreStatsFeed *f, const StoreAttempt *a)
{
    StatsJob *j = &f->buf[f->k++];
    memset(j, 0, sizeof *j);
    job_of_attempt(&f->sc, a, j);
    if (j->flags & STATS_JOB_FINAL) {
        link_one(&f->sc, j);
        forget_job(&f->sc, j);
    } else {
        scan_earlier(&f->sc, j);
    }
    if (f->cells)
        stats_cells_build_job(f->cells, j);
    if (f->sc.eff)
        eff_put(&f->sc, j, a->id);
    if (f->k == EXTEND_CHUNK)
        feed_chunk(f);
}

/* Worker: batch b's attempts, then b freed. */
static void feed_work(StoreStatsFeed *f, FeedBatch *b)
{
    if (b->clusters) {
        const StoreStatsData *c = b->clusters;
        for (size_t i = 0; i < c->nnames[N_CLUSTERS]; i++)
            if (c->names[N_CLUSTERS][i])
                name_set(f->eff.names, N_CLUSTERS, i, c->names[N_CLUSTERS][i]);
    }
    for (size_t i = 0; i < b->n; i++)
        feed_job(f, &b->a[i]);
    batch_free(b);
}

static void *feed_worker(void *arg)
{
    StoreStatsFeed *f = arg;
    FeedBatch *b;
    while ((b = handoff_take(f->todo)))
        feed_work(f, b);
    return NULL;
}

/* Part (k records, borrowed) written as the cache's next part. */
static int write_part(StoreStatsFeed *f, const StatsJob *part, size_t k, CpErr *err)
{
    if (put_part(f->ins, ++f->part, f->fp, part, k * sizeof *part) < 0)
        return sqlrow_err(f->db, err, "extend the statistics cache");
    return 0;
}

/* Aggregates merged into the stored months, as cells_flush does. */
static int merge_cells(StoreStatsFeed *f, StatsCellsBuild *cells, CpErr *err)
{
    f->merged = 1;
    if (f->cells_dropped)
        return 0;
    int rc = extend_cells(f->db, cells, 0, err);
    if (rc == 1) /* the stored months were dropped: the next load rebuilds them */
        f->cells_dropped = 1;
    return rc < 0 ? -1 : 0;
}

/* The writes handed back so far, done in order (and freed). 0, or -1
 * with err from the first that failed. */
static int feed_writes(StoreStatsFeed *f, CpErr *err)
{
    FeedWrite *w;
    int rc = 0;
    while ((w = handoff_poll(f->writes))) {
        if (rc == 0)
            rc = w->part ? write_part(f, w->part, w->k, err) : merge_cells(f, w->cells, err);
        write_free(w);
    }
    return rc;
}

/* The batch being filled to the worker (started with the first; on this
 * thread when it cannot start), then the writes handed back. */
static int feed_send(StoreStatsFeed *f, CpErr *err)
{
    FeedBatch *b = f->batch;
    f->batch = NULL;
    if (!f->tried) {
        f->tried = 1;
        f->running = pthread_create(&f->thread, NULL, feed_worker, f) == 0;
    }
    if (!f->running || handoff_put(f->todo, b) < 0)
        feed_work(f, b);
    return feed_writes(f, err);
}

/* The worker ended: at once (stop) or when it has done every batch sent. */
static void feed_join(StoreStatsFeed *f, int stop)
{
    if (!f->running)
        return;
    if (stop)
        handoff_stop(f->todo);
    else
        handoff_close(f->todo);
    pthread_join(f->thread, NULL);
    f->running = 0;
}

/* The import's thread's copy of GPU type name t (the feed's copies go
 * with the store's feed, which a failed import frees first). */
static const char *feed_type(StoreStatsFeed *f, const char *t)
{
    size_t slot = ((uintptr_t)t >> 4) % FEED_TYPE_SLOTS;
    if (t == f->type_in[slot])
        return f->type_out[slot];
    size_t len = strlen(t);
    int64_t i;
    if (!strmap_get(f->types, t, len, &i)) {
        f->type_copy = xrealloc(f->type_copy, (f->ntypes + 1) * sizeof *f->type_copy);
        f->type_copy[f->ntypes] = xstrdup(t);
        i = (int64_t)f->ntypes++;
        strmap_put(f->types, t, len, i);
    }
    f->type_in[slot] = t;
    return f->type_out[slot] = f->type_copy[i];
}

static FeedBatch *batch_new(void)
{
    FeedBatch *b = xmalloc(sizeof *b);
    b->clusters = NULL;
    b->n = 0;
    return b;
}

/* Before an attempt of cluster id goes to the efficiency aggregates: the
 * clusters' names read again where eff_cluster would read them (a
 * cluster the import made), sent with a batch that begins with the
 * attempt. */
static int feed_clusters(StoreStatsFeed *f, uint16_t id, CpErr *err)
{
    if (!cluster_unseen(f->cl_known, f->cl_reread, id))
        return 0;
    f->cl_reread = (size_t)id + 1;
    StoreStatsData *c = xcalloc(1, sizeof *c);
    NamesCtx nc = {c, N_CLUSTERS};
    CpErr ignored; /* as eff_cluster: a name not read is no name */
    each_row(f->db, "SELECT id, name FROM clusters", name_row, &nc, "read names", &ignored);
    if (c->nnames[N_CLUSTERS] > f->cl_known)
        f->cl_known = c->nnames[N_CLUSTERS];
    if (f->batch && f->batch->n > 0 && feed_send(f, err) < 0) {
        store_stats_free(c);
        return -1;
    }
    if (!f->batch)
        f->batch = batch_new();
    store_stats_free(f->batch->clusters);
    f->batch->clusters = c;
    return 0;
}

static int feed_put(void *ctx, const StoreAttempt *a, CpErr *err)
{
    StoreStatsFeed *f = ctx;
    if (f->spoiled)
        return 0;
    if (f->eff_kept && feed_clusters(f, id16(a->cluster_id), err) < 0)
        return -1;
    if (!f->batch)
        f->batch = batch_new();
    StoreAttempt *c = &f->batch->a[f->batch->n++];
    *c = *a;
    c->gpu_type = feed_type(f, a->gpu_type);
    return f->batch->n == FEED_BATCH ? feed_send(f, err) : 0;
}

/* The worker stopped, what is on its way dropped. */
static void feed_halt(StoreStatsFeed *f)
{
    feed_join(f, 1);
    FeedBatch *b;
    FeedWrite *w;
    while ((b = handoff_poll(f->todo)))
        batch_free(b);
    while ((w = handoff_poll(f->writes)))
        write_free(w);
    batch_free(f->batch);
    f->batch = NULL;
}

static void feed_changed(void *ctx, int64_t id)
{
    StoreStatsFeed *f = ctx;
    (void)id;
    if (f->spoiled)
        return;
    f->spoiled = 1;
    feed_halt(f);
}

/* The last batch sent, the worker joined, its writes done. */
static int feed_done(void *ctx, CpErr *err)
{
    StoreStatsFeed *f = ctx;
    f->done = 1;
    if (f->spoiled)
        return 0;
    f->tried = 1; /* no worker yet: the last batch is done on this thread */
    if (f->batch && feed_send(f, err) < 0)
        return -1;
    feed_join(f, 0);
    return feed_writes(f, err);
}

static void feed_free(StoreStatsFeed *f)
{
    if (!f)
        return;
    feed_halt(f);
    handoff_free(f->todo);
    handoff_free(f->writes);
    strmap_free(f->types);
    for (size_t i = 0; i < f->ntypes; i++)
        free(f->type_copy[i]);
    free(f->type_copy);
    sqlite3_finalize(f->ins);
    stats_cells_build_free(f->cells);
    eff_end(&f->eff);
    scan_done(&f->sc);
    store_stats_free(f->d);
    free(f->buf);
    free(f);
}

/* What extend does before it reads the attempts back, done before the
 * first is written: the cache's header and last part (or an empty cache
 * and aggregates for a first import). */
static int feed_init(StoreStatsFeed *f, Store *st, const StoreStatsMark *m, CpErr *err)
{
    sqlite3 *db = f->db;
    size_t old_usage = 0;
    if (m->usable && sqlite3_prepare_v2(db,
                                        "INSERT OR REPLACE INTO stats_cache(part, fingerprint, "
                                        "data) VALUES(?1, ?2, ?3)",
                                        -1, &f->ins, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "extend the statistics cache");
    if (f->ins && m->since_id > 0) {
        if (!cache_header(db, f->d, m->fp, &f->old_jobs, &old_usage)) {
            sqlite3_finalize(f->ins);
            f->ins = NULL;
        } else if ((f->part0 = store_scalar(st, "SELECT coalesce(max(part), 0) FROM "
                                                "stats_cache")) < 0) {
            return sqlrow_err(db, err, "extend the statistics cache");
        }
    } else if (f->ins && exec(db, "DELETE FROM stats_cache") < 0) {
        return sqlrow_err(db, err, "extend the statistics cache");
    }
    f->part = f->part0;
    f->keep_parts = f->ins != NULL;
    f->cells = m->agg_usable ? stats_cells_build_new(0) : NULL;
    if (f->cells && m->since_id == 0 && exec(db, "DELETE FROM stats_agg") < 0)
        return sqlrow_err(db, err, "extend the statistics' aggregates");
    for (size_t i = 1; i < f->d->nnames[N_GPU_TYPES]; i++)
        strmap_put(f->sc.types, f->d->names[N_GPU_TYPES][i], strlen(f->d->names[N_GPU_TYPES][i]),
                   (int64_t)i);
    snprintf(f->fp, sizeof f->fp, "%s", m->fp);
    if (eff_begin(db, m, &f->eff, err) < 0)
        return -1;
    f->sc.eff = f->eff.b ? &f->eff : NULL;
    f->eff_kept = f->eff.b != NULL;
    if (f->eff_kept) {
        f->cl_known = f->eff.names->nnames[N_CLUSTERS];
        f->eff.db = NULL; /* the worker reads no table: feed_clusters does */
    }
    return 0;
}

/* A feed for the import's attempts when the store hands them on
 * (store_feed_begin) and the cache or the aggregates can be extended. */
static int feed_start(Store *st, StoreStatsMark *m, CpErr *err)
{
    if (!m->usable && !m->agg_usable && !m->eff_usable)
        return 0;
    StoreStatsFeed *f = xcalloc(1, sizeof *f);
    f->db = store_db(st);
    f->d = xcalloc(1, sizeof *f->d);
    scan_init(&f->sc, f->d);
    f->buf = xmalloc(EXTEND_CHUNK * sizeof *f->buf);
    f->todo = handoff_new(FEED_QUEUE);
    f->writes = handoff_new(0);
    f->types = strmap_new();
    if (feed_init(f, st, m, err) < 0) {
        feed_free(f);
        return -1;
    }
    StoreFeedSink sink = {feed_put, feed_changed, feed_done, f};
    if ((!f->ins && !f->cells && !f->sc.eff) || !store_feed_add(st, &sink)) {
        feed_free(f);
        return 0;
    }
    m->feed = f;
    return 0;
}

int store_stats_fed(const StoreStatsMark *m)
{
    return m->feed && m->feed->used;
}

void store_stats_mark_done(StoreStatsMark *m)
{
    feed_free(m->feed);
    m->feed = NULL;
}

/* The end of the fed extension (the worker joined by feed_done): the
 * last part, the aggregates' months merged, the usage rows and the header
 * (extend's tail), the efficiency aggregates (as after extend). */
static int extend_fed(StoreStatsFeed *f, const StoreStatsMark *m, CpErr *err)
{
    char fp[160];
    if (f->k > 0)
        feed_chunk(f);
    if (feed_writes(f, err) < 0 || fingerprint(f->db, fp, sizeof fp, err) < 0 ||
        (f->cells && !f->cells_dropped && extend_cells(f->db, f->cells, 1, err) < 0))
        return -1;
    if (f->ins) {
        if (write_usage(f->db, f->d, f->ins, fp, err) < 0)
            return -1;
        f->d->in.njobs = f->old_jobs + f->added;
        CpBuf h;
        cpbuf_init(&h);
        header_blob(f->d, &h);
        int rc = put_part(f->ins, 0, fp, h.data, h.len);
        cpbuf_done(&h);
        if (rc < 0)
            return sqlrow_err(f->db, err, "extend the statistics cache");
    }
    return f->sc.eff ? eff_finish(f->db, m, &f->sc, err) : 0;
}

/* The parts the feed wrote, dropped. */
static int feed_drop(StoreStatsFeed *f, CpErr *err)
{
    sqlite3_stmt *s;
    if (!f->ins || f->part == f->part0)
        return 0;
    if (sqlite3_prepare_v2(f->db, "DELETE FROM stats_cache WHERE part > ?1", -1, &s, NULL) !=
        SQLITE_OK)
        return sqlrow_err(f->db, err, "extend the statistics cache");
    sqlite3_bind_int64(s, 1, f->part0);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    f->part = f->part0;
    return rc == SQLITE_DONE ? 0 : sqlrow_err(f->db, err, "extend the statistics cache");
}

int store_stats_extend(Store *st, const StoreStatsMark *m, CpErr *err)
{
    StoreStatsFeed *f = m->feed;
    int usable = m->usable, agg_usable = m->agg_usable;
    if ((!usable && !agg_usable && !m->eff_usable) || store_touched_old(st))
        return f ? feed_drop(f, err) : 0;
    if (store_flush(st, err) < 0) /* usage_month as the commit will leave it */
        return -1;
    if (f && f->done && !f->spoiled) {
        f->used = 1;
        return extend_fed(f, m, err);
    }
    if (f) { /* read the attempts back */
        if (feed_drop(f, err) < 0)
            return -1;
        agg_usable = agg_usable && !f->merged;
        if (!usable && !agg_usable && !m->eff_usable)
            return 0;
    }
    sqlite3 *db = store_db(st);
    sqlite3_stmt *ins = NULL;
    if (usable && sqlite3_prepare_v2(db,
                                     "INSERT OR REPLACE INTO stats_cache(part, fingerprint, "
                                     "data) VALUES(?1, ?2, ?3)",
                                     -1, &ins, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "extend the statistics cache");
    StoreStatsData *d = xcalloc(1, sizeof *d);
    Scan sc;
    scan_init(&sc, d);
    StatsCellsBuild *cells = agg_usable ? stats_cells_build_new(0) : NULL;
    EffFeed ef;
    int rc = eff_begin(db, m, &ef, err);
    sc.eff = ef.b ? &ef : NULL;
    if (rc == 0)
        rc = extend(st, m, d, &sc, ins, &cells, err);
    if (rc == 0 && sc.eff)
        rc = eff_finish(db, m, &sc, err);
    eff_end(&ef);
    sqlite3_finalize(ins);
    stats_cells_build_free(cells);
    scan_done(&sc);
    store_stats_free(d);
    return rc;
}

/* ---- the dashboard's Usage view (issue 20) ---- */

static void ran_add(StoreTuiEff *e, const StatsCellSum *x)
{
    e->gpu_h += x->ran_gpu_h;
    e->gpu_h_util += x->ran_gpu_h_util;
    e->util_x_h += x->ran_util_x_h;
    e->gpu_h_mem += x->ran_gpu_h_mem;
    e->mem_x_h += x->ran_mem_x_h;
    e->cpu_alloc_h += x->ran_cpu_alloc_h;
    e->cpu_used_h += x->ran_cpu_used_h;
    e->mem_req_h += x->ran_mem_req_h;
    e->mem_used_h += x->ran_mem_used_h;
}

int store_stats_usage_scan(Store *st, int64_t since, StoreTuiScan *out, CpErr *err)
{
    memset(out, 0, sizeof *out);
    StoreStatsData *d = store_stats_load(st, STATS_NEED_CELLS, err);
    if (!d)
        return -1;
    const StatsCells *c = &d->in.cells;
    int32_t m0 = stats_month_of(since);
    int64_t top = 0;
    for (size_t i = 0; i < c->ncells; i++)
        if (c->cells[i].k.month >= m0 && c->cells[i].ran > 0 && c->cells[i].k.user > top)
            top = c->cells[i].k.user;
    out->nby_user = 256;
    while (out->nby_user <= top)
        out->nby_user *= 2;
    out->by_user = xcalloc((size_t)out->nby_user, sizeof *out->by_user);
    out->names = xcalloc((size_t)out->nby_user, sizeof *out->names);
    StoreTuiEff all;
    memset(&all, 0, sizeof all);
    for (size_t i = 0; i < c->ncells; i++) {
        const StatsCellSum *x = &c->cells[i];
        if (x->k.month < m0 || x->ran == 0)
            continue;
        out->attempts += x->ran;
        ran_add(&all, x);
        if (x->k.user > 0)
            ran_add(&out->by_user[x->k.user], x);
    }
    out->gpu_h = all.gpu_h, out->gpu_h_util = all.gpu_h_util, out->util_x_h = all.util_x_h;
    out->gpu_h_mem = all.gpu_h_mem, out->mem_x_h = all.mem_x_h;
    out->cpu_alloc_h = all.cpu_alloc_h, out->cpu_used_h = all.cpu_used_h;
    out->mem_req_h = all.mem_req_h, out->mem_used_h = all.mem_used_h;
    for (size_t i = 0; i < c->nheat; i++)
        if (c->heat[i].k.month >= m0)
            for (int s = 0; s < 168; s++)
                out->heat[s] += c->heat[i].gpu_h[s];
    const StatsNames *u = &d->in.users;
    for (size_t id = 1; id < u->n && (int64_t)id < out->nby_user; id++)
        if (u->v[id])
            out->names[id] = xstrdup(u->v[id]);
    store_stats_free(d);
    return 0;
}
