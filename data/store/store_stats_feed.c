/* store_stats_feed: the import's attempts extend the cache and the
 * aggregates as data/store/store.c writes them, on a worker thread (see
 * store_stats.h and store_stats_int.h). */
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/handoff.h"
#include "core/strmap.h"
#include "data/store/sqlrow.h"
#include "data/store/store.h"
#include "data/store/store_feed.h"
#include "data/store/store_stats_int.h"

/* ---- the extension fed by the import's own records (store_feed_add) ----
 *
 * The attempts reach the cache and the aggregates as data/store/store.c writes
 * them, in id order, once they can no longer change (data/store/store_feed.h):
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
    if (f->cells && stats_cells_build_size(f->cells) >= store_stats_agg_flush) {
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
                store_stats_name_set(f->eff.names, N_CLUSTERS, i, c->names[N_CLUSTERS][i]);
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
    store_stats_each_row(f->db, "SELECT id, name FROM clusters", store_stats_name_row, &nc, "read names", &ignored);
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
    } else if (f->ins && store_stats_exec(db, "DELETE FROM stats_cache") < 0) {
        return sqlrow_err(db, err, "extend the statistics cache");
    }
    f->part = f->part0;
    f->keep_parts = f->ins != NULL;
    f->cells = m->agg_usable ? stats_cells_build_new(0) : NULL;
    if (f->cells && m->since_id == 0 && store_stats_exec(db, "DELETE FROM stats_agg") < 0)
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
int store_stats_feed_start(Store *st, StoreStatsMark *m, CpErr *err)
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

int store_stats_mark(Store *st, StoreStatsMark *m, CpErr *err)
{
    sqlite3 *db = store_db(st);
    memset(m, 0, sizeof *m);
    m->since_id = store_max_job_id(st, err);
    if (m->since_id < 0)
        return -1;
    if (store_stats_fingerprint(db, m->fp, sizeof m->fp, err) < 0 ||
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
    return store_stats_feed_start(st, m, err);
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
    if (feed_writes(f, err) < 0 || store_stats_fingerprint(f->db, fp, sizeof fp, err) < 0 ||
        (f->cells && !f->cells_dropped && extend_cells(f->db, f->cells, 1, err) < 0))
        return -1;
    if (f->ins) {
        if (store_stats_write_usage(f->db, f->d, f->ins, fp, err) < 0)
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
        rc = store_stats_extend_back(st, m, d, &sc, ins, &cells, err);
    if (rc == 0 && sc.eff)
        rc = eff_finish(db, m, &sc, err);
    eff_end(&ef);
    sqlite3_finalize(ins);
    stats_cells_build_free(cells);
    scan_done(&sc);
    store_stats_free(d);
    return rc;
}

