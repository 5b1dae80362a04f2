/* store_stats: see store_stats.h. */
#include "data/store/store_stats.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/jobrec.h"
#include "core/strmap.h"
#include "data/store/sqlrow.h"
#include "data/store/store.h"
#include "data/store/store_feed.h"
#include "data/store/store_stats_eff.h"
#include "data/store/store_stats_int.h"

_Static_assert(STATS_TIME_NONE == CP_TIME_NONE, "one 'unknown time'");
_Static_assert(STATS_ST_COMPLETED == (int)CP_ST_COMPLETED &&
                   STATS_ST_CANCELLED == (int)CP_ST_CANCELLED &&
                   STATS_ST_PREEMPTED == (int)CP_ST_PREEMPTED,
               "core/stats.h numbers states as core/jobrec.h");

#define CACHE_LAYOUT 4      /* bump when StatsJob changes meaning (4: cpu_milli, #29) */
#define GPU_TYPES_MAX 65535 /* StatsJob.gpu_type is 16 bits */

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
int store_stats_each_row(sqlite3 *db, const char *sql, void (*row)(sqlite3_stmt *s, void *ctx),
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


/* d's name id of kind which set to a copy of name. */
void store_stats_name_set(StoreStatsData *d, int which, size_t id, const char *name)
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

void store_stats_name_row(sqlite3_stmt *s, void *ctx)
{
    NamesCtx *nc = ctx;
    int64_t id = sqlite3_column_int64(s, 0);
    if (id < 0 || id > INT32_MAX - 1)
        return;
    const unsigned char *name = sqlite3_column_text(s, 1);
    store_stats_name_set(nc->d, nc->which, (size_t)id, name ? (const char *)name : "");
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

int store_stats_load_usage(sqlite3 *db, StoreStatsData *d, CpErr *err)
{
    Vec v = {(void **)&d->usage, &d->in.nusage, 0, sizeof *d->usage};
    return store_stats_each_row(db,
                    "SELECT month, cluster_id, account_id, user_id, partition_id, jobs, "
                    "attempts, gpu_jobs, waited, preempted, gpu_hours, cpu_hours, wait_s, "
                    "gpu_hours_lost FROM usage_month",
                    usage_row, &v, "read usage", err);
}

int store_stats_load_refs(sqlite3 *db, StoreStatsData *d, unsigned needs, CpErr *err)
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
        if (store_stats_each_row(db, refs[i].sql, refs[i].row, &rc, refs[i].what, err) < 0)
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


/* An empty scan that appends its attempts to d. */
void scan_init(Scan *sc, StoreStatsData *d)
{
    memset(sc, 0, sizeof *sc);
    sc->d = d;
    sc->types = strmap_new();
    sc->earlier = strmap_new();
}

/* Frees what the scan owns (not d). */
void scan_done(Scan *sc)
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
void scan_earlier(Scan *sc, const StatsJob *j)
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


static uint32_t col_raw32(sqlite3_stmt *s, int i)
{
    int64_t raw = sqlite3_column_int64(s, i);
    return raw > 0 && raw <= (int64_t)UINT32_MAX ? (uint32_t)raw : 0;
}

/* *j (zeroed) from a JOB_SQL row. */
void job_fill(Scan *sc, sqlite3_stmt *s, StatsJob *j)
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
    j->cpu_milli = sqlite3_column_type(s, 7) == SQLITE_NULL ? -1 : clamp32(sqlite3_column_int64(s, 7));
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

/* *j (zeroed) from an attempt the import wrote (data/store/store_feed.h), as
 * job_fill reads its row back: keep the two in step (the tests compare an
 * extended cache with a rebuild byte for byte). */
void job_of_attempt(Scan *sc, const StoreAttempt *a, StatsJob *j)
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
    j->cpu_milli = a->cpu_milli >= 0 ? clamp32(a->cpu_milli)
                   : a->ncpus == -1 ? -1
                                    : clamp32(a->ncpus * 1000);
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

/* Is cluster id one to read the names again for, known names held and
 * ids below reread looked for already? */
int cluster_unseen(size_t known, size_t reread, uint16_t id)
{
    return id >= known && id >= reread;
}

static const char *eff_cluster(EffFeed *e, uint16_t id)
{
    if (e->db && cluster_unseen(e->names->nnames[N_CLUSTERS], e->reread, id)) {
        NamesCtx nc = {e->names, N_CLUSTERS};
        e->reread = (size_t)id + 1;
        CpErr err;
        store_stats_each_row(e->db, "SELECT id, name FROM clusters", store_stats_name_row, &nc, "read names", &err);
    }
    return name_of(e->names, N_CLUSTERS, id);
}

/* Attempt *j (of order id, its GPU type an id of sc's) into the scan's
 * efficiency aggregates: what a feed of the import's attempts calls. */
void eff_put(Scan *sc, const StatsJob *j, int64_t id)
{
    stats_eff_build_job(sc->eff->b, j, id, eff_cluster(sc->eff, j->cluster),
                        name_of(sc->d, N_GPU_TYPES, j->gpu_type), 1);
}

/* Attempt *j of JOB_SQL row s into the scan's efficiency aggregates. */
void eff_job(Scan *sc, sqlite3_stmt *s, const StatsJob *j)
{
    eff_put(sc, j, sqlite3_column_int64(s, 21));
}

/* The second pass: a JOB_SQL row's hogging. */
void eff_hog_row(sqlite3_stmt *s, void *ctx)
{
    Scan *sc = ctx;
    StatsJob j;
    memset(&j, 0, sizeof j);
    job_fill(sc, s, &j);
    stats_eff_build_hog(sc->eff->b, &j, sqlite3_column_int64(s, 21),
                        name_of(sc->d, N_GPU_TYPES, j.gpu_type));
}


static void job_row(sqlite3_stmt *s, void *ctx)
{
    Scan *sc = ctx;
    StatsJob *j = vec_push(&sc->v);
    job_fill(sc, s, j);
    if (!(j->flags & STATS_JOB_FINAL))
        scan_earlier(sc, j);
}

/* A final attempt learns its job's first submission and preemptions. */
void link_one(const Scan *sc, StatsJob *j)
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
void forget_job(Scan *sc, const StatsJob *j)
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

int scan_jobs(sqlite3 *db, StoreStatsData *d, CpErr *err)
{
    Scan sc;
    scan_init(&sc, d);
    sc.v = (Vec){(void **)&d->jobs, &d->in.njobs, 0, sizeof *d->jobs};
    int rc = store_stats_each_row(db, JOB_SQL, job_row, &sc, "read jobs", err);
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
int store_stats_fingerprint(sqlite3 *db, char *buf, size_t n, CpErr *err)
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
int cache_header(sqlite3 *db, StoreStatsData *d, const char *fp, size_t *njobs,
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

int store_stats_exec(sqlite3 *db, const char *sql)
{
    return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

int put_part(sqlite3_stmt *ins, int64_t part, const char *fp, const void *data, size_t n)
{
    sqlite3_bind_int64(ins, 1, part);
    sqlite3_bind_text(ins, 2, fp, -1, SQLITE_STATIC);
    sqlite3_bind_blob64(ins, 3, data, n, SQLITE_STATIC);
    int rc = sqlite3_step(ins);
    sqlite3_reset(ins);
    return rc == SQLITE_DONE ? 0 : -1;
}

void header_blob(const StoreStatsData *d, CpBuf *b)
{
    uint64_t count[2] = {d->in.njobs, d->in.nusage};
    cpbuf_append(b, count, sizeof count);
    for (size_t i = 1; i < d->nnames[N_GPU_TYPES]; i++)
        cpbuf_append(b, d->names[N_GPU_TYPES][i], strlen(d->names[N_GPU_TYPES][i]) + 1);
}

/* A non-final attempt's (cluster, job_raw, submit, state), as job_fill
 * reads them, for the job's first submission and preemptions. */
void earlier_row(sqlite3_stmt *s, void *ctx)
{
    StatsJob j;
    memset(&j, 0, sizeof j);
    j.cluster = col_id16(s, 0);
    j.job_raw = col_raw32(s, 1);
    j.submit = col_epoch32(s, 2);
    j.state = (uint8_t)sqlite3_column_int(s, 3);
    scan_earlier(ctx, &j);
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

int store_stats_forget(Store *st, CpErr *err)
{
    sqlite3 *db = store_db(st);
    if (sqlite3_exec(db, "DELETE FROM stats_cache; DELETE FROM stats_agg", NULL, NULL, NULL) !=
        SQLITE_OK)
        return sqlrow_err(db, err, "clear the statistics cache");
    return 0;
}

