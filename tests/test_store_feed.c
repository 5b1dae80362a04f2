/* The import's feed (data/store/store_feed.c, issue 20 item 2): the attempts an
 * import writes reach the planner's job blocks and the statistics' cache
 * and aggregates from the records the insert path holds, not read back.
 *
 * First the feed alone (a sink that records what it is handed): id order,
 * changes to attempts it still holds, `changed` for one it let go. Then
 * real imports of a generated sacct file (the bench generator's shape, in
 * small: 5,000 jobs over two 4,096-rowid blocks, every 50th preempted and
 * requeued 3 records later, every other 97th listed again 4 records later
 * with its MaxRSS): imported with a window of 16 attempts (every requeue and
 * second listing comes while its attempt is held: the statistics are fed)
 * and with a window of 2 (they come after: the statistics are read back
 * as before the feed), the two databases hold the same jobs, the same job
 * blocks (and those are what the sync packs from the table), the same
 * cache parts and the same aggregates, byte for byte; a second import on
 * top (its first block shared with the first import's rows) likewise; a
 * failed import leaves every table as it was; GPU metrics linked to the
 * import's jobs after the feed leave the blocks right. Last, a first bulk
 * load without the jobs_key index (data/store/store_keys.h): the window
 * alone, then the same file loaded with the index kept, without it
 * (requeues found in the window) and without it with a window of 2 (the
 * index built mid-load): the same tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "core/strmap.h"
#include "data/ingest/import.h"
#include "data/store/store.h"
#include "data/store/store_feed.h"
#include "data/store/store_keys.h"
#include "data/store/store_stats.h"
#include "tests/lib/testutil.h"

/* ---- the feed alone ---- */

typedef struct Seen {
    int64_t id[32];
    int final[32], state[32];
    char type[32][8];
    int n;
    int64_t changed[8];
    int nchanged, done;
} Seen;

static int seen_put(void *ctx, const StoreAttempt *a, CpErr *err)
{
    Seen *s = ctx;
    (void)err;
    assert_true(s->n < 32);
    s->id[s->n] = a->id;
    s->final[s->n] = a->final;
    s->state[s->n] = a->state;
    snprintf(s->type[s->n], sizeof s->type[0], "%s", a->gpu_type);
    s->n++;
    return 0;
}

static void seen_changed(void *ctx, int64_t id)
{
    Seen *s = ctx;
    assert_true(s->nchanged < 8);
    s->changed[s->nchanged++] = id;
}

static int seen_done(void *ctx, CpErr *err)
{
    Seen *s = ctx;
    (void)err;
    s->done++;
    return 0;
}

static StoreAttempt attempt(int64_t id, int state, const char *type)
{
    StoreAttempt a;
    memset(&a, 0, sizeof a);
    a.id = id;
    a.state = state;
    a.final = 1;
    a.gpu_type = type;
    return a;
}

/* Window 3: ids 1..5 inserted hand on 1 and 2; a change to 2 is told, one
 * to 4 (held) is what 4 is handed on with; the end hands on 3, 4, 5 in
 * order, then done; an insert after the end is told as changed(0). */
static void test_feed_window(void **state)
{
    (void)state;
    Seen s;
    memset(&s, 0, sizeof s);
    CpErr err;
    StoreFeed *f = store_feed_new(3);
    store_feed_sink(f, (StoreFeedSink){seen_put, seen_changed, seen_done, &s});
    char type[8] = "a100";
    for (int64_t id = 1; id <= 5; id++) {
        StoreAttempt a = attempt(id, 4, type);
        assert_int_equal(store_feed_insert(f, &a, &err), 0);
        snprintf(type, sizeof type, "t%d", (int)id); /* the feed keeps its own copy */
    }
    assert_int_equal(s.n, 2);
    assert_int_equal(s.id[0], 1);
    assert_int_equal(s.id[1], 2);
    assert_string_equal(s.type[0], "a100");
    assert_string_equal(s.type[1], "t1");
    store_feed_unfinal(f, 2); /* gone */
    store_feed_unfinal(f, 4); /* held */
    StoreAttempt up = attempt(5, 8, "h100");
    up.final = 0;             /* an update keeps the held final flag */
    store_feed_update(f, &up);
    store_feed_unfinal(f, 99); /* never fed: nobody's business */
    assert_int_equal(s.nchanged, 1);
    assert_int_equal(s.changed[0], 2);
    assert_int_equal(store_feed_end(f, &err), 0);
    assert_int_equal(s.n, 5);
    assert_int_equal(s.done, 1);
    for (int i = 0; i < 5; i++)
        assert_int_equal(s.id[i], i + 1);
    assert_int_equal(s.final[3], 0);
    assert_int_equal(s.final[4], 1);
    assert_int_equal(s.state[4], 8);
    assert_string_equal(s.type[4], "h100");
    assert_string_equal(s.type[3], "t3");
    StoreAttempt late = attempt(6, 4, "");
    assert_int_equal(store_feed_insert(f, &late, &err), 0);
    assert_int_equal(s.n, 5);
    assert_int_equal(s.nchanged, 2);
    assert_int_equal(s.changed[1], 0);
    store_feed_free(f);
}

/* Rowids out of step (7 after 2): the sinks are told changed(0), then
 * get what is held and done; 7 is not handed on. */
static void test_feed_out_of_step(void **state)
{
    (void)state;
    Seen s;
    memset(&s, 0, sizeof s);
    CpErr err;
    StoreFeed *f = store_feed_new(4);
    store_feed_sink(f, (StoreFeedSink){seen_put, seen_changed, seen_done, &s});
    StoreAttempt a = attempt(1, 4, ""), b = attempt(2, 4, ""), c = attempt(7, 4, "");
    assert_int_equal(store_feed_insert(f, &a, &err), 0);
    assert_int_equal(store_feed_insert(f, &b, &err), 0);
    assert_int_equal(store_feed_insert(f, &c, &err), 0);
    assert_int_equal(s.nchanged, 1);
    assert_int_equal(s.changed[0], 0);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.done, 1);
    store_feed_free(f);
}

/* ---- imports ---- */

#define HDR                                                                                       \
    "JobID|JobIDRaw|Cluster|Partition|Account|User|State|Submit|Start|End|ElapsedRaw|"          \
    "Timelimit|NCPUS|ReqMem|MaxRSS|TotalCPU|AllocTRES\n"

static void epoch_text(int64_t t, char *buf, size_t n)
{
    time_t tt = (time_t)t;
    struct tm tm;
    gmtime_r(&tt, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%S", &tm);
}

/* One job line: job id, state, submit, start, elapsed, MaxRSS ("" none);
 * a TotalCPU of 150 s unless id is a multiple of 3. */
static void line(CpBuf *b, int id, const char *state, int64_t submit, int64_t start,
                 int64_t elapsed, const char *rss)
{
    static const char *const users[] = {"ann", "bob", "cat", "dan", "eve"};
    static const char *const tres[] = {"cpu=4,mem=8G,node=1",
                                       "cpu=8,gres/gpu:a100=1,gres/gpu=1,mem=32G,node=1",
                                       "cpu=16,gres/gpu:h100=2,gres/gpu=2,mem=64G,node=1",
                                       "cpu=8,gres/gpu=1,mem=16G,node=1"};
    char s[32], st[32], en[32], l[512];
    epoch_text(submit, s, sizeof s);
    epoch_text(start, st, sizeof st);
    epoch_text(start + elapsed, en, sizeof en);
    int n = snprintf(l, sizeof l,
                     "%d|%d|c%d|%s|acc-%c|%s|%s|%s|%s|%s|%lld|1-00:00:00|%d|8G|%s|%s|%s\n", id,
                     id, 1 + id % 2, id % 3 ? "gpu" : "cpu", 'a' + id % 4, users[id % 5], state, s,
                     st, en, (long long)elapsed, 4 << (id % 3), rss, id % 3 ? "00:02:30" : "",
                     tres[id % 4]);
    cpbuf_append(b, l, (size_t)n);
}

/* Jobs first..last: every 50th PREEMPTED, its requeued run (COMPLETED,
 * submitted as it ended) 3 records later; every other 97th listed again
 * 4 records later with its MaxRSS (the same attempt, saying more). Job i
 * is submitted at 2024-01-01 + 600 i s, starts (i mod 7) x 30 s later and
 * runs 600 + (i mod 13) x 60 s; on cluster c1 when i is even, else c2. */
static char *gen(int first, int last)
{
    CpBuf b;
    cpbuf_init(&b);
    cpbuf_append(&b, HDR, strlen(HDR));
    const int64_t base = 1704067200; /* 2024-01-01 */
    int pend_at[8], pend_id[8], npend = 0;
    for (int i = first; i <= last; i++) {
        int64_t submit = base + (int64_t)i * 600, start = submit + (i % 7) * 30;
        int64_t elapsed = 600 + (i % 13) * 60;
        int preempted = i % 50 == 0, again = i % 97 == 0 && !preempted;
        line(&b, i, preempted ? "PREEMPTED" : "COMPLETED", submit, start, elapsed, "");
        if (preempted || again) {
            pend_at[npend] = i + (preempted ? 3 : 4);
            pend_id[npend++] = i * (preempted ? 1 : -1);
        }
        for (int k = 0; k < npend;) {
            if (pend_at[k] != i && i != last) {
                k++;
                continue;
            }
            int j = pend_id[k] > 0 ? pend_id[k] : -pend_id[k];
            int64_t js = base + (int64_t)j * 600, jst = js + (j % 7) * 30;
            int64_t jel = 600 + (j % 13) * 60;
            if (pend_id[k] > 0) /* the requeued run */
                line(&b, j, "COMPLETED", jst + jel, jst + jel + 10, 300, "");
            else
                line(&b, j, "COMPLETED", js, jst, jel, "2G");
            pend_at[k] = pend_at[--npend];
            pend_id[k] = pend_id[npend];
        }
    }
    cpbuf_append(&b, "", 1);
    return b.data;
}

static int import_gen(Store *st, const char *text, int strict, ImportResult *res, CpErr *err)
{
    char *p = tu_write_temp(text, strlen(text));
    ImportOpts o;
    import_opts_init(&o);
    o.strict = strict;
    int rc = import_sacct(st, p, &o, res, err);
    unlink(p);
    free(p);
    return rc;
}

/* The same, as a bulk load whatever its size (not strict: a strict import
 * is never a bulk load). */
static int import_gen_bulk(Store *st, const char *text, ImportResult *res, CpErr *err)
{
    char *p = tu_write_temp(text, strlen(text));
    ImportOpts o;
    import_opts_init(&o);
    o.bulk_min_bytes = 1;
    int rc = import_sacct(st, p, &o, res, err);
    unlink(p);
    free(p);
    return rc;
}

static Store *open_db(char **path, size_t window)
{
    CpErr err;
    *path = tu_temp_path(".db");
    Store *st = store_open(*path, &err);
    if (!st)
        fail_msg("store_open: %s", err.msg);
    store_feed_window(st, window);
    return st;
}

static void close_db(Store *st, char *path)
{
    store_close(st);
    tu_remove_db(path);
    free(path);
}

/* A digest of sql's rows (every column as text or blob bytes). */
static uint64_t digest(Store *st, const char *sql)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(store_db(st), sql, -1, &s, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(store_db(st)));
    uint64_t h = 1;
    int rows = 0;
    while (sqlite3_step(s) == SQLITE_ROW) {
        rows++;
        for (int i = 0; i < sqlite3_column_count(s); i++) {
            int type = sqlite3_column_type(s, i);
            const void *p = type == SQLITE_BLOB ? sqlite3_column_blob(s, i)
                                                : (const void *)sqlite3_column_text(s, i);
            h = strmap_hash(h, &type, sizeof type);
            if (p)
                h = strmap_hash(h, p, (size_t)sqlite3_column_bytes(s, i));
        }
    }
    sqlite3_finalize(s);
    return strmap_hash(h, &rows, sizeof rows);
}

/* What the feed writes or the read-back writes: the same in a and b. */
static const char *const kept[] = {
    "SELECT * FROM jobs ORDER BY id",
    "SELECT block, n, lo, hi, data FROM job_blocks ORDER BY block",
    "SELECT built_max FROM job_blocks_state",
    "SELECT block FROM job_blocks_stale ORDER BY block",
    "SELECT part, data FROM stats_cache ORDER BY part",
    "SELECT month, data FROM stats_agg ORDER BY month",
    "SELECT * FROM usage_month ORDER BY 1, 2, 3, 4, 5",
};

static void same_kept(Store *a, Store *b)
{
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
        if (digest(a, kept[i]) != digest(b, kept[i]))
            fail_msg("differs: %s", kept[i]);
}

/* The job blocks are those the sync packs from the table. */
static void blocks_as_packed(Store *st)
{
    CpErr err;
    uint64_t had = digest(st, kept[1]);
    char *msg = NULL;
    assert_int_equal(sqlite3_exec(store_db(st),
                                  "BEGIN; DELETE FROM job_blocks; "
                                  "UPDATE job_blocks_state SET built_max = 0",
                                  NULL, NULL, &msg),
                     SQLITE_OK);
    assert_int_equal(store_flush(st, &err), 0);
    assert_int_equal(sqlite3_exec(store_db(st), "COMMIT", NULL, NULL, &msg), SQLITE_OK);
    assert_true(digest(st, kept[1]) == had);
}

/* The statistics read back current: the cache and the aggregates. */
static void stats_current(Store *st)
{
    CpErr err;
    StoreStatsData *d = store_stats_load(st, STATS_NEED_JOBS | STATS_NEED_CELLS, &err);
    assert_non_null(d);
    assert_int_equal(store_stats_cached(d), 1);
    assert_int_equal(store_stats_cells_cached(d), 1);
    store_stats_free(d);
}

static void test_fed_as_read_back(void **state)
{
    (void)state;
    char *pa, *pb;
    Store *a = open_db(&pa, 16), *b = open_db(&pb, 2);
    ImportResult ra, rb;
    CpErr err;
    char *text = gen(1, 5000);
    assert_int_equal(import_gen(a, text, 1, &ra, &err), 0);
    assert_int_equal(import_gen(b, text, 1, &rb, &err), 0);
    free(text);
    /* 5,000 jobs, 100 requeued runs, 50 listed twice (4850 is preempted) */
    assert_int_equal(ra.added, 5100);
    assert_int_equal(ra.updated, 50);
    assert_int_equal(ra.stats_fed, 1);
    assert_int_equal(rb.stats_fed, 0);
    assert_int_equal(store_scalar(a, "SELECT count(*) FROM jobs WHERE final = 0"), 100);
    assert_int_equal(store_scalar(a, "SELECT count(*) FROM job_blocks"), 2);
    assert_int_equal(store_scalar(a, "SELECT built_max FROM job_blocks_state"), 5100);
    same_kept(a, b);
    /* a second import on top: its first rows share block 1 with the first's */
    text = gen(5001, 8400);
    assert_int_equal(import_gen(a, text, 1, &ra, &err), 0);
    assert_int_equal(import_gen(b, text, 1, &rb, &err), 0);
    free(text);
    assert_int_equal(ra.stats_fed, 1);
    assert_int_equal(rb.stats_fed, 0);
    assert_int_equal(store_scalar(a, "SELECT count(*) FROM job_blocks"), 3);
    same_kept(a, b);
    stats_current(a);
    stats_current(b);
    blocks_as_packed(a);
    blocks_as_packed(b);
    close_db(a, pa);
    close_db(b, pb);
}

/* store_release_memory between two imports of one process (it frees the
 * usage sums the first import kept once written): the second import's
 * tables as without it, fed both times; the feed's map of requeued jobs
 * (emptied as each final attempt is linked) leaves the cache as read back
 * (test_fed_as_read_back). */
static void test_release_between_imports(void **state)
{
    (void)state;
    char *pa, *pb;
    Store *a = open_db(&pa, 16), *b = open_db(&pb, 16);
    ImportResult ra, rb;
    CpErr err;
    char *text = gen(1, 5000);
    assert_int_equal(import_gen(a, text, 1, &ra, &err), 0);
    assert_int_equal(import_gen(b, text, 1, &rb, &err), 0);
    free(text);
    store_release_memory(a);
    text = gen(5001, 8400);
    assert_int_equal(import_gen(a, text, 1, &ra, &err), 0);
    assert_int_equal(import_gen(b, text, 1, &rb, &err), 0);
    free(text);
    assert_int_equal(ra.stats_fed, 1);
    assert_int_equal(rb.stats_fed, 1);
    assert_true(store_scalar(a, "SELECT count(*) FROM usage_month") > 0);
    same_kept(a, b);
    close_db(a, pa);
    close_db(b, pb);
}

/* A strict import that fails on its last line, after the feed wrote a job
 * block and cache parts: every table as it was. */
static void test_failed_import_leaves_all(void **state)
{
    (void)state;
    char *path;
    Store *st = open_db(&path, 16);
    ImportResult res;
    CpErr err;
    char *text = gen(1, 5000);
    assert_int_equal(import_gen(st, text, 1, &res, &err), 0);
    free(text);
    uint64_t before[sizeof kept / sizeof *kept];
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
        before[i] = digest(st, kept[i]);
    text = gen(5001, 14000);
    static const char last[] =
        "14001|14001|c1|gpu|acc-a|ann|COMPLETED|2024-13-01T00:00:00||||||||||\n";
    size_t n = strlen(text);
    char *bad = malloc(n + sizeof last);
    memcpy(bad, text, n);
    memcpy(bad + n, last, sizeof last);
    free(text);
    assert_int_equal(import_gen(st, bad, 1, &res, &err), -1);
    free(bad);
    assert_non_null(strstr(err.msg, "Submit"));
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
        if (digest(st, kept[i]) != before[i])
            fail_msg("changed by a failed import: %s", kept[i]);
    close_db(st, path);
}

/* A requeue of a job the database held (across files) leaves the
 * statistics to the next load, as before the feed; the blocks stay
 * right. */
static void test_requeue_across_files(void **state)
{
    (void)state;
    char *path;
    Store *st = open_db(&path, 16);
    ImportResult res;
    CpErr err;
    char *text = gen(1, 200);
    assert_int_equal(import_gen(st, text, 1, &res, &err), 0);
    free(text);
    /* job 200 (submitted 2024-01-02T09:20:00, preempted at 09:37:00) ran
     * again from 09:37:10 to 09:42:10: a third run, submitted as it ended */
    static const char more[] = HDR
        "200|200|c1|gpu|acc-a|ann|COMPLETED|2024-01-02T09:42:10|2024-01-02T09:42:20|"
        "2024-01-02T09:47:20|300|1-00:00:00|4|8G|||cpu=4,mem=8G,node=1\n"
        "201|201|c2|gpu|acc-b|bob|COMPLETED|2024-01-02T10:00:00|2024-01-02T10:00:10|"
        "2024-01-02T10:05:10|300|1-00:00:00|4|8G|||cpu=4,mem=8G,node=1\n";
    assert_int_equal(import_gen(st, more, 1, &res, &err), 0);
    assert_int_equal(res.added, 2);
    assert_int_equal(res.stats_fed, 0);
    CpErr e2;
    StoreStatsData *d = store_stats_load(st, STATS_NEED_JOBS, &e2);
    assert_non_null(d);
    assert_int_equal(store_stats_cached(d), 0); /* stale: scanned */
    store_stats_free(d);
    blocks_as_packed(st);
    close_db(st, path);
}

/* GPU metrics linked to the import's jobs after the feed handed them on:
 * the statistics are read back (they hold the metrics), and the blocks
 * holding those jobs are packed again by the sync. */
static void test_metrics_after_feed(void **state)
{
    (void)state;
    char *path;
    Store *st = open_db(&path, 16);
    ImportResult res;
    CpErr err;
    static const char metrics[] = "job_id,gpu_mem_max_gib,gpu_util_mean,cluster\n"
                                  "101,30,50,c2\n"
                                  "4501,12,70,c2\n";
    char *p = tu_write_temp(metrics, strlen(metrics));
    ImportOpts o;
    import_opts_init(&o);
    o.strict = 1;
    assert_int_equal(import_csv(st, "gpu-metrics", p, &o, &res, &err), 0);
    unlink(p);
    free(p);
    char *text = gen(1, 5000);
    assert_int_equal(import_gen(st, text, 1, &res, &err), 0);
    free(text);
    assert_int_equal(res.stats_fed, 0);
    assert_int_equal(store_scalar(st, "SELECT count(*) FROM jobs WHERE gpu_mem_source = 2"), 2);
    stats_current(st);
    blocks_as_packed(st);
    close_db(st, path);
}

/* Jobs from on cluster c1 moved to a cluster c3 (same length: in place). */
static void move_to_c3(char *text, int from)
{
    for (char *l = text; *l; l = strchr(l, '\n') + 1) {
        char *c = strchr(strchr(l, '|') + 1, '|') + 1;
        if (atoi(l) >= from && strncmp(c, "c1|", 3) == 0)
            c[1] = '3';
    }
}

/* The statistics' per-attempt work on its worker thread, as in a long
 * import (data/store/store_stats_feed.c): 20,000 jobs (20,400 attempts),
 * so two cache parts of 8,192 records are handed back and written while
 * the import runs; the aggregates merged into the stored months whenever
 * they hold 500 cells and buckets (three times: after 8,192 and 16,384
 * attempts and after the last, counted with gdb on merge_cells); cluster
 * c3 first named by job 15,000, so the efficiency aggregates' cluster
 * names are read again mid-import on the import's thread and sent to the
 * worker. The same tables as read back with the same merges, byte for
 * byte. */
static void test_fed_long_import(void **state)
{
    (void)state;
    char *pa, *pb;
    Store *a = open_db(&pa, 16), *b = open_db(&pb, 2);
    ImportResult ra, rb;
    CpErr err;
    store_stats_merge_every(500);
    char *text = gen(1, 20000);
    move_to_c3(text, 15000);
    assert_int_equal(import_gen(a, text, 1, &ra, &err), 0);
    assert_int_equal(import_gen(b, text, 1, &rb, &err), 0);
    free(text);
    store_stats_merge_every(0);
    assert_int_equal(ra.added, 20400);
    assert_int_equal(ra.stats_fed, 1);
    assert_int_equal(rb.stats_fed, 0);
    assert_int_equal(store_scalar(a, "SELECT count(*) FROM stats_cache WHERE part > 0"), 3);
    assert_int_equal(store_scalar(a, "SELECT id FROM clusters WHERE name = 'c3'"), 3);
    /* jobs 15,000 to 20,000 of c1 (the even ones: 2,501) and the requeued
     * runs of the preempted among them (multiples of 50: 101) */
    assert_int_equal(store_scalar(a, "SELECT count(*) FROM jobs WHERE cluster_id = 3"), 2602);
    same_kept(a, b);
    stats_current(a);
    close_db(a, pa);
    close_db(b, pb);
}

/* ---- a first load without the jobs_key index ---- */

static void test_keys_window(void **state)
{
    (void)state;
    StoreKeys *k = store_keys_new(8);
    int64_t got[STORE_KEYS_MAX];
    for (int i = 1; i <= 8; i++)
        store_keys_add(k, 1, i, 100 + i);
    assert_int_equal(store_keys_find(k, 1, 5, got), 1);
    assert_int_equal(got[0], 105);
    assert_int_equal(store_keys_find(k, 2, 5, got), 0);  /* another cluster */
    assert_int_equal(store_keys_find(k, 1, 99, got), 0); /* never added */
    store_keys_add(k, 1, 5, 109);                        /* a requeue: raw 1 leaves */
    assert_int_equal(store_keys_find(k, 1, 5, got), 2);
    assert_int_equal(got[0], 105); /* the index's order */
    assert_int_equal(got[1], 109);
    for (int i = 10; i <= 13; i++) /* raws 2..5 (row 105) leave */
        store_keys_add(k, 1, i, 100 + i);
    assert_int_equal(store_keys_find(k, 1, 5, got), -1); /* row 105 left: cannot tell */
    assert_int_equal(store_keys_find(k, 1, 3, got), -1);
    assert_int_equal(store_keys_find(k, 1, 6, got), 1); /* above all that left */
    assert_int_equal(got[0], 106);
    assert_int_equal(store_keys_find(k, 2, 3, got), 0); /* nothing of cluster 2 left */
    store_keys_free(k);
    k = store_keys_new(128);
    for (int i = 0; i <= STORE_KEYS_MAX; i++)
        store_keys_add(k, 1, 7, i + 1);
    assert_int_equal(store_keys_find(k, 1, 7, got), -1); /* more than it gives */
    store_keys_free(k);
}

static int64_t keys_indexed(Store *st)
{
    return store_scalar(st, "SELECT count(*) FROM sqlite_master WHERE type='index' AND "
                            "name='jobs_key' AND sql='CREATE INDEX jobs_key ON "
                            "jobs(cluster_id, job_raw)'");
}

static void test_first_load_keys(void **state)
{
    (void)state;
    char *pa, *pb, *pc;
    Store *a = open_db(&pa, 0), *b = open_db(&pb, 0), *c = open_db(&pc, 0);
    store_keys_window(b, 2);
    ImportResult ra, rb, rc;
    CpErr err;
    /* a bulk transaction begun and rolled back: the index is back */
    assert_int_equal(store_begin_bulk(a, &err), 0);
    assert_int_equal(keys_indexed(a), 0);
    store_rollback(a);
    assert_int_equal(keys_indexed(a), 1);
    char *text = gen(1, 5000);
    assert_int_equal(import_gen_bulk(a, text, &ra, &err), 0);
    assert_int_equal(import_gen_bulk(b, text, &rb, &err), 0);
    assert_int_equal(import_gen(c, text, 0, &rc, &err), 0); /* the index kept row by row */
    free(text);
    assert_int_equal(ra.added, 5100);
    assert_int_equal(ra.updated, 50);
    assert_int_equal(rb.updated, 50);
    assert_int_equal(store_scalar(a, "SELECT count(*) FROM jobs WHERE final = 0"), 100);
    assert_int_equal(keys_indexed(a), 1);
    assert_int_equal(keys_indexed(b), 1);
    same_kept(a, c);
    same_kept(b, c);
    /* a second bulk load: jobs there, the index kept */
    text = gen(4990, 8400);
    assert_int_equal(import_gen_bulk(a, text, &ra, &err), 0);
    assert_int_equal(import_gen(c, text, 0, &rc, &err), 0);
    free(text);
    assert_int_equal(ra.added, rc.added);
    assert_int_equal(ra.unchanged, rc.unchanged);
    same_kept(a, c);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(store_db(a), "PRAGMA integrity_check", -1, &q, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(q, 0), "ok");
    sqlite3_finalize(q);
    close_db(a, pa);
    close_db(b, pb);
    close_db(c, pc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_feed_window),
        cmocka_unit_test(test_feed_out_of_step),
        cmocka_unit_test(test_fed_as_read_back),
        cmocka_unit_test(test_release_between_imports),
        cmocka_unit_test(test_failed_import_leaves_all),
        cmocka_unit_test(test_requeue_across_files),
        cmocka_unit_test(test_metrics_after_feed),
        cmocka_unit_test(test_fed_long_import),
        cmocka_unit_test(test_keys_window),
        cmocka_unit_test(test_first_load_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
