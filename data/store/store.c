#include "data/store/store.h"

#include <math.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/civil.h"
#include "core/strmap.h"
#include "data/store/store_bind.h"
#include "data/store/store_blocks.h"
#include "data/store/store_fault.h"
#include "data/store/store_feed.h"
#include "data/store/store_keys.h"
#include "data/store/store_schema.h"
#include "data/store/store_usage_rows.h"

#define CACHE_KIB "-65536"     /* the page cache, KiB (negative: SQLite's way) */
#define BULK_CACHE_KIB "-8192" /* ... during a bulk import (store_begin_bulk) */

/* The name dictionaries, in the order job_bind takes their ids. */
enum {
    DICT_CLUSTER = JOB_BIND_CLUSTER, DICT_USER = JOB_BIND_USER, DICT_ACCOUNT = JOB_BIND_ACCOUNT,
    DICT_PARTITION = JOB_BIND_PARTITION, DICT_QOS = JOB_BIND_QOS, DICT_COUNT = JOB_BIND_NIDS
};
static const char *const dict_table[DICT_COUNT] = {"clusters", "users", "accounts",
                                                    "partitions", "qos"};

/* What a job attempt contributes to usage_month. */
typedef struct UsageFacts {
    int64_t cluster_id, account_id, user_id, partition_id;
    int64_t submit, start, end, elapsed;
    double gpus;
    double cpus; /* exactly (jobrec_cpus), -1 unknown */
    int state;
    int64_t timelimit; /* seconds, CP_DUR_UNKNOWN, CP_DUR_UNLIMITED */
} UsageFacts;

/* What this transaction changed in job_counts (schema v16), per cluster. */
typedef struct CountDelta {
    int64_t jobs, attempts;
    int64_t lo, hi; /* first submission > 0 and last submission; 0 / INT64_MIN none */
    int touched;
} CountDelta;

struct Store {
    sqlite3 *db;
    StrMap *dict[DICT_COUNT];
    sqlite3_stmt *dict_insert[DICT_COUNT];
    sqlite3_stmt *lookup_attempts;
    sqlite3_stmt *insert_job;
    sqlite3_stmt *update_job;
    JobBind insert_bind, update_bind; /* their parameters ?1..?35 */
    sqlite3_stmt *unset_final;
    sqlite3_stmt *known_stmt; /* KNOWN_COLS of one attempt */
    sqlite3_stmt *usage_add;
    sqlite3_stmt *max_raw_stmt;
    int64_t *max_raw;    /* per cluster id: highest job_raw stored (-1: not loaded) */
    size_t nmax_raw;
    StrMap *usage_index; /* UsageKey bytes -> index in usage */
    UsageSums *usage;
    size_t nusage, capusage;
    StoreUsageRows usage_rows; /* what the virtual table usage_rows lists (flush_usage) */
    size_t last_usage;          /* the slot usage_slot gave last (checked against nusage) */
    int64_t month, month_lo, month_hi; /* month_of's last month, [lo, hi) in epoch seconds */
    int64_t old_floor; /* store_watch_old: attempts with id <= it are "old" */
    int touched_old;   /* ... and one of them was written or gained an attempt */
    int late_attempts; /* since then, an attempt came after a later one of its job */
    CountDelta *counts; /* per cluster id */
    size_t ncounts;
    sqlite3_stmt *counts_add;
    int bulk; /* the transaction runs under a rollback journal (store_begin_bulk) */
    int64_t win_lo, win_hi; /* this transaction's accounting window (acct_window); 0 none */
    char *path;             /* as opened */
    int64_t dict_version;   /* data_version when the name caches were read */
    StoreWait wait;         /* the current wait for another process's lock */
    StoreFeed *feed;        /* store_feed_begin's, until the transaction ends */
    size_t feed_window;     /* attempts it holds back; 0: STORE_FEED_WINDOW */
    StoreBlocksFeed *blocks_feed;
    StoreKeys *keys;          /* a first load's jobs_key stand-in: the index dropped */
    size_t keys_window;       /* attempts it holds; 0: STORE_KEYS_WINDOW */
    char *key_sql;            /* ... and its CREATE INDEX, as the schema holds it */
    sqlite3_stmt *attempt_by_id; /* lookup_attempts' columns of one row id */
    struct {             /* per dictionary, the name dict_id looked up last */
        char name[64];
        size_t n;        /* its length; 0: none */
        int64_t id;
    } dict_last[DICT_COUNT];
};

static int journal_mode(Store *st, const char *mode);
static void counts_clear(Store *st);
static void feed_stop(Store *st);
static void keys_stop(Store *st);

static int db_err(Store *st, CpErr *err, const char *what)
{
    store_fault_note(sqlite3_errcode(st->db));
    return cp_err_set(err, "database: %s: %s", what, sqlite3_errmsg(st->db));
}

static int prepare(Store *st, const char *sql, sqlite3_stmt **out, CpErr *err)
{
    if (sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT, out, NULL) != SQLITE_OK)
        return db_err(st, err, "prepare");
    return 0;
}

static int exec_sql(Store *st, const char *sql, CpErr *err)
{
    char *msg = NULL;
    if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        cp_err_set(err, "database: %s", msg ? msg : sqlite3_errmsg(st->db));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

int64_t store_scalar(Store *st, const char *sql)
{
    sqlite3_stmt *s;
    int64_t v = -1;
    if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(s) == SQLITE_ROW)
        v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return v;
}

int64_t store_max_job_id(Store *st, CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db, "SELECT coalesce(max(id), 0) FROM jobs", -1, &s, NULL) !=
        SQLITE_OK)
        return db_err(st, err, "read the jobs' state");
    int rc = sqlite3_step(s);
    int64_t v = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : -1;
    if (rc != SQLITE_ROW) {
        db_err(st, err, "read the jobs' state"); /* before finalize resets the message */
        sqlite3_finalize(s);
        return -1;
    }
    sqlite3_finalize(s);
    if (v < 0) {
        store_fault_note(SQLITE_CORRUPT);
        return cp_err_set(err, "database: the jobs' highest id is %lld: a damaged page, the "
                               "database is corrupt", (long long)v);
    }
    return v;
}

/* Bring the schema up to date, one version per transaction; the version
 * is read again under the write lock, so two processes creating one
 * database at once do not both run a script. */
static int migrate(Store *st, CpErr *err)
{
    for (;;) {
        if (store_scalar(st, "PRAGMA user_version") >= store_nmigrations)
            return 0; /* the usual case: no lock taken */
        if (exec_sql(st, "BEGIN IMMEDIATE", err) < 0)
            return -1;
        int64_t v = store_scalar(st, "PRAGMA user_version");
        if (v < 0 || v > store_nmigrations) {
            exec_sql(st, "ROLLBACK", NULL);
            return v < 0 ? db_err(st, err, "read the schema version") : 0;
        }
        char pragma[64];
        snprintf(pragma, sizeof pragma, "PRAGMA user_version=%d", (int)v + 1);
        if (v < store_nmigrations && (exec_sql(st, store_migrations[v], err) < 0 ||
                                      exec_sql(st, pragma, err) < 0)) {
            exec_sql(st, "ROLLBACK", NULL);
            return -1;
        }
        if (exec_sql(st, "COMMIT", err) < 0)
            return -1;
    }
}

/* Fill dictionary d's cache from its table (the names other processes
 * added included) and prepare its insert. */
static int load_dict(Store *st, int d, CpErr *err)
{
    char sql[128];
    sqlite3_stmt *s;
    if (st->dict[d])
        strmap_clear(st->dict[d]);
    else
        st->dict[d] = strmap_new();
    st->dict_last[d].n = 0;
    snprintf(sql, sizeof sql, "SELECT id, name FROM %s", dict_table[d]);
    if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
        return db_err(st, err, "read names");
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(s, 1);
        strmap_put(st->dict[d], name ? name : "", (size_t)sqlite3_column_bytes(s, 1),
                   sqlite3_column_int64(s, 0));
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return db_err(st, err, "read names");
    if (st->dict_insert[d])
        return 0;
    snprintf(sql, sizeof sql, "INSERT INTO %s(name) VALUES(?1)", dict_table[d]);
    return prepare(st, sql, &st->dict_insert[d], err);
}

static int load_dicts(Store *st, CpErr *err)
{
    for (int d = 0; d < DICT_COUNT; d++)
        if (load_dict(st, d, err) < 0)
            return -1;
    return 0;
}

/* PRAGMA data_version: changes when another connection commits. */
static int data_version(Store *st, int64_t *out)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db, "PRAGMA data_version", -1, &s, NULL) != SQLITE_OK)
        return -1;
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return rc == SQLITE_ROW ? 0 : -1;
}

#define JOB_COLS                                                                              \
    "cluster_id, job_raw, submit, job_id, array_job, array_task, user_id, account_id, "     \
    "partition_id, qos_id, name, state, state_raw, exit_code, exit_signal, eligible, start, " \
    "end_time, elapsed, timelimit, nnodes, ncpus, req_mem_mib, max_rss_mib, gpus, req_gpus, " \
    "gpu_type, gpu_mem_gib, gpu_mem_source, gpu_util, total_cpu_s, nodelist, rec_hash, "      \
    "import_id, final, cpu_milli"

/* How many of a stored attempt's fields are known, as record_known counts
 * them on a record (the columns job_bind leaves NULL for unknown; GPU
 * memory and utilisation are left out: a monitor's file may fill them). */
#define KNOWN_COLS                                                                            \
    "(user_id IS NOT NULL) + (account_id IS NOT NULL) + (partition_id IS NOT NULL) + "      \
    "(qos_id IS NOT NULL) + (coalesce(name, '') <> '') + (exit_code IS NOT NULL) + "        \
    "(eligible IS NOT NULL) + (start IS NOT NULL) + (end_time IS NOT NULL) + "              \
    "(elapsed IS NOT NULL) + (timelimit IS NOT NULL) + (nnodes IS NOT NULL) + "             \
    "(ncpus IS NOT NULL) + (req_mem_mib IS NOT NULL) + (max_rss_mib IS NOT NULL) + "        \
    "(req_gpus IS NOT NULL) + (gpu_type IS NOT NULL) + (total_cpu_s IS NOT NULL) + "        \
    "(nodelist IS NOT NULL) + (cpu_milli IS NOT NULL)"

/* What find_attempts reads of an attempt (weigh_attempt takes them apart). */
#define ATTEMPT_COLS                                                                            \
    "id, submit, final, rec_hash, account_id, user_id, partition_id, start, end_time, "         \
    "elapsed, gpus, " STORE_CPUS_SQL ", state, job_id, timelimit"

static int prepare_job_statements(Store *st, CpErr *err)
{
    if (prepare(st, "SELECT " ATTEMPT_COLS " FROM jobs WHERE cluster_id=?1 AND job_raw=?2",
                &st->lookup_attempts, err) < 0)
        return -1;
    if (prepare(st,
                "INSERT INTO jobs(" JOB_COLS ") VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,"
                "?13,?14,?15,?16,?17,?18,?19,?20,?21,?22,?23,?24,?25,?26,?27,?28,?29,?30,?31,"
                "?32,?33,?34,?35,?36)",
                &st->insert_job, err) < 0)
        return -1;
    if (prepare(st,
                "UPDATE jobs SET job_id=?4, array_job=?5, array_task=?6, user_id=?7, "
                "account_id=?8, partition_id=?9, qos_id=?10, name=?11, state=?12, state_raw=?13, "
                "exit_code=?14, exit_signal=?15, eligible=?16, start=?17, end_time=?18, "
                "elapsed=?19, timelimit=?20, nnodes=?21, ncpus=?22, req_mem_mib=?23, "
                "max_rss_mib=?24, gpus=?25, req_gpus=?26, gpu_type=?27, "
                "gpu_mem_gib=CASE WHEN gpu_mem_source=2 THEN gpu_mem_gib ELSE ?28 END, "
                "gpu_mem_source=CASE WHEN gpu_mem_source=2 THEN 2 ELSE ?29 END, gpu_util=?30, "
                "total_cpu_s=?31, nodelist=?32, rec_hash=?33, import_id=?34, final=?35, "
                "cpu_milli=?36 WHERE id=?37",
                &st->update_job, err) < 0)
        return -1;
    job_bind_init(&st->insert_bind, st->insert_job);
    job_bind_init(&st->update_bind, st->update_job);
    if (prepare(st, "UPDATE jobs SET final=0 WHERE id=?1", &st->unset_final, err) < 0)
        return -1;
    if (prepare(st, "SELECT " KNOWN_COLS " FROM jobs WHERE id=?1", &st->known_stmt, err) < 0)
        return -1;
    if (prepare(st, "SELECT max(job_raw) FROM jobs WHERE cluster_id=?1", &st->max_raw_stmt,
                err) < 0)
        return -1;
    if (prepare(st,
                "INSERT INTO job_counts(cluster_id, jobs, attempts, first_submit, last_submit) "
                "VALUES(?1, ?2, ?3, ?4, ?5) ON CONFLICT(cluster_id) DO UPDATE SET "
                "jobs = jobs + excluded.jobs, attempts = attempts + excluded.attempts, "
                "first_submit = CASE WHEN excluded.first_submit IS NULL THEN first_submit "
                "  WHEN first_submit IS NULL THEN excluded.first_submit "
                "  ELSE min(first_submit, excluded.first_submit) END, "
                "last_submit = CASE WHEN excluded.last_submit IS NULL THEN last_submit "
                "  WHEN last_submit IS NULL THEN excluded.last_submit "
                "  ELSE max(last_submit, excluded.last_submit) END",
                &st->counts_add, err) < 0)
        return -1;
    if (store_usage_rows_register(st->db, &st->usage_rows) != SQLITE_OK)
        return db_err(st, err, "prepare");
    /* every row of usage_rows in one statement (WHERE true: an upsert's
     * SELECT needs a clause before ON CONFLICT) */
    return prepare(st,
                   "INSERT INTO usage_month(" STORE_USAGE_ROWS_COLS ") "
                   "SELECT " STORE_USAGE_ROWS_COLS " FROM usage_rows WHERE true "
                   "ON CONFLICT(month, cluster_id, account_id, user_id, partition_id) DO UPDATE "
                   "SET jobs=jobs+excluded.jobs, attempts=attempts+excluded.attempts, "
                   "gpu_jobs=gpu_jobs+excluded.gpu_jobs, gpu_hours=gpu_hours+excluded.gpu_hours, "
                   "cpu_hours=cpu_hours+excluded.cpu_hours, wait_s=wait_s+excluded.wait_s, "
                   "waited=waited+excluded.waited, preempted=preempted+excluded.preempted, "
                   "gpu_hours_lost=gpu_hours_lost+excluded.gpu_hours_lost",
                   &st->usage_add, err);
}

/* 1: wait for other processes' locks (store_fault.c); 0: fail at once. */
static void set_waiting(Store *st, int on)
{
    if (on)
        sqlite3_busy_handler(st->db, store_fault_busy, &st->wait);
    else
        sqlite3_busy_timeout(st->db, 0);
}

void store_wait(Store *st, int on)
{
    set_waiting(st, on);
}

/* ---- open ---- */

/* user_version, read before anything is written; -1 (err filled) when the
 * file cannot be read as a database. */
static int64_t schema_version(Store *st, CpErr *err)
{
    sqlite3_stmt *s;
    int64_t v = -1;
    if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &s, NULL) != SQLITE_OK) {
        db_err(st, err, "read");
        return -1;
    }
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        v = sqlite3_column_int64(s, 0);
    else
        db_err(st, err, "read");
    sqlite3_finalize(s);
    return v;
}

static int open_handle(Store *st, const char *path, int flags, CpErr *err)
{
    static int configured;
    if (!configured) {
        /* No memory statistics (nothing reads them): sqlite3_malloc and
         * sqlite3_free then take no global mutex, a few per row written.
         * Only possible before SQLite starts; later calls just fail. */
        configured = 1;
        sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    }
    if (sqlite3_open_v2(path, &st->db, flags | SQLITE_OPEN_NOMUTEX, NULL) == SQLITE_OK) {
        store_fault_guard(st->db);
        return 0;
    }
    cp_err_set(err, "cannot open database: %s", st->db ? sqlite3_errmsg(st->db) : "out of memory");
    store_fault_note(st->db ? sqlite3_errcode(st->db) : SQLITE_NOMEM);
    sqlite3_close(st->db);
    st->db = NULL;
    return -1;
}

/* The folder holding path is writable (a WAL database needs its -wal and
 * -shm files there). */
static int dir_writable(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    return access(dir, W_OK) == 0;
}

/* Open for reading only: no journal switch, no migration, nothing
 * written. A WAL database in a folder nobody can write (a read-only mount,
 * chmod a-w) is opened immutable: no process can be writing it there. */
static int open_read_only(Store *st, const char *path, int64_t *version, CpErr *err)
{
    if (open_handle(st, path, SQLITE_OPEN_READONLY, err) < 0)
        return -1;
    set_waiting(st, 1);
    *version = schema_version(st, err);
    if (*version >= 0 || dir_writable(path))
        return *version >= 0 ? 0 : -1;
    sqlite3_close(st->db);
    st->db = NULL;
    /* immutable ignores the -wal: committed changes still in it (its
     * -shm gone, the folder not writable to make one) would be missed
     * silently, so refuse (#29) */
    char wal[4096];
    struct stat sb;
    snprintf(wal, sizeof wal, "%s-wal", path);
    if (stat(wal, &sb) == 0 && sb.st_size > 0)
        return cp_err_set(err, "its -wal file holds changes but it has no -shm, in a folder this "
                               "user cannot write: reading it would miss them; copy the "
                               "database and its -wal to a writable folder, or open it as a "
                               "user who can write there");
    char *uri = sqlite3_mprintf("file:%s?immutable=1", path);
    int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
    int rc = open_handle(st, uri, flags, err);
    sqlite3_free(uri);
    if (rc < 0)
        return -1;
    *version = schema_version(st, err);
    return *version >= 0 ? 0 : -1;
}

/* Open for writing: refuse a future schema before anything changes, put a
 * new or rollback-journal database in WAL mode (when no other process
 * holds it: an import's bulk load switches back itself), migrate. */
static int open_read_write(Store *st, const char *path, CpErr *err)
{
    if (open_handle(st, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, err) < 0)
        return -1;
    set_waiting(st, 1);
    int64_t version = schema_version(st, err);
    if (version < 0)
        return -1;
    if (version > store_nmigrations)
        return cp_err_set(err, "database schema version %lld is newer than this capplan (%d); "
                               "nothing changed",
                          (long long)version, store_nmigrations);
    if (version == 0 && exec_sql(st, "PRAGMA page_size=16384", err) < 0)
        return -1;
    set_waiting(st, 0);
    journal_mode(st, "WAL");
    set_waiting(st, 1);
    return exec_sql(st, "PRAGMA synchronous=NORMAL", err) < 0 ||
                   store_blocks_register(st, err) < 0 || migrate(st, err) < 0
               ? -1
               : 0;
}

static Store *open_store(const char *path, int read_only, CpErr *err)
{
    Store *st = xcalloc(1, sizeof *st);
    st->path = xstrdup(path);
    st->wait.path = st->path;
    int64_t version = store_nmigrations;
    int rc = read_only ? open_read_only(st, path, &version, err) : open_read_write(st, path, err);
    if (rc == 0 && version > store_nmigrations)
        rc = cp_err_set(err, "database schema version %lld is newer than this capplan (%d)",
                        (long long)version, store_nmigrations);
    else if (rc == 0 && version < store_nmigrations)
        rc = cp_err_set(err, "database schema version %lld is older than this capplan (%d) "
                             "and cannot be upgraded read-only: run any import with write access",
                        (long long)version, store_nmigrations);
    if (rc == 0 && exec_sql(st, "PRAGMA cache_size=" CACHE_KIB, err) < 0)
        rc = -1;
    if (rc == 0)
        rc = load_dicts(st, err);
    if (rc == 0)
        data_version(st, &st->dict_version);
    if (rc == 0) {
        st->usage_index = strmap_new();
        rc = read_only ? 0 : prepare_job_statements(st, err);
    }
    if (rc == 0)
        return st;
    if (st->db)
        store_fault_note(sqlite3_errcode(st->db));
    cp_err_prefix(err, path);
    store_close(st);
    return NULL;
}

Store *store_open(const char *path, CpErr *err)
{
    return open_store(path, 0, err);
}

Store *store_open_read(const char *path, CpErr *err)
{
    int writable = access(path, W_OK) == 0 && dir_writable(path);
    return open_store(path, !writable, err);
}

void store_close(Store *st)
{
    if (!st)
        return;
    for (int d = 0; d < DICT_COUNT; d++) {
        sqlite3_finalize(st->dict_insert[d]);
        strmap_free(st->dict[d]);
    }
    sqlite3_finalize(st->lookup_attempts);
    sqlite3_finalize(st->attempt_by_id);
    keys_stop(st);
    sqlite3_finalize(st->insert_job);
    sqlite3_finalize(st->update_job);
    sqlite3_finalize(st->unset_final);
    sqlite3_finalize(st->known_stmt);
    sqlite3_finalize(st->usage_add);
    sqlite3_finalize(st->counts_add);
    free(st->counts);
    sqlite3_finalize(st->max_raw_stmt);
    free(st->max_raw);
    strmap_free(st->usage_index);
    free(st->usage);
    feed_stop(st);
    sqlite3_close(st->db);
    free(st->path);
    free(st);
}

int store_read_only(Store *st)
{
    return sqlite3_db_readonly(st->db, "main") == 1;
}

struct sqlite3 *store_db(Store *st)
{
    return st->db;
}

void store_release_memory(Store *st)
{
    if (st->nusage == 0) { /* written: the import's usage table and its index, emptied */
        free(st->usage);
        st->usage = NULL;
        st->capusage = 0;
        st->last_usage = 0;
        strmap_free(st->usage_index);
        st->usage_index = strmap_new();
    }
    sqlite3_db_release_memory(st->db);
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

int store_begin(Store *st, CpErr *err)
{
    strmap_clear(st->usage_index);
    st->nusage = 0;
    st->win_lo = st->win_hi = 0;
    counts_clear(st);
    for (size_t i = 0; i < st->nmax_raw; i++)
        st->max_raw[i] = -1;
    if (exec_sql(st, "BEGIN IMMEDIATE", err) < 0)
        return -1;
    /* the write lock is ours: names another process added since the
     * caches were read are read now, before any is looked up */
    int64_t v;
    if (data_version(st, &v) == 0 && v == st->dict_version)
        return 0;
    if (load_dicts(st, err) < 0) {
        exec_sql(st, "ROLLBACK", NULL);
        return -1;
    }
    st->dict_version = v;
    return 0;
}

/* PRAGMA journal_mode=MODE; returns 1 when the database is in MODE after
 * it (leaving WAL fails while another connection has the database open). */
static int journal_mode(Store *st, const char *mode)
{
    char sql[48];
    snprintf(sql, sizeof sql, "PRAGMA journal_mode=%s", mode);
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
        return 0;
    int ok = sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0) &&
             strcasecmp((const char *)sqlite3_column_text(s, 0), mode) == 0;
    sqlite3_finalize(s);
    return ok;
}

/* A bulk load into a jobs table without rows (a first load) keeps no
 * jobs_key index row by row: the index is dropped in this transaction
 * (so a rollback brings it back) and built once by store_keys_index; what
 * the load asks of it meanwhile, the window answers (store_keys.h). */
static int keys_begin(Store *st, CpErr *err)
{
    if (store_scalar(st, "SELECT EXISTS(SELECT 1 FROM jobs)") != 0)
        return 0;
    sqlite3_stmt *s;
    if (prepare(st, "SELECT sql FROM sqlite_master WHERE type='index' AND name='jobs_key'", &s,
                err) < 0)
        return -1;
    if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
        st->key_sql = xstrdup((const char *)sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
    if (!st->key_sql)
        return 0;
    if (exec_sql(st, "DROP INDEX jobs_key", err) < 0) {
        keys_stop(st);
        return -1;
    }
    st->keys = store_keys_new(st->keys_window);
    return 0;
}

static void keys_stop(Store *st)
{
    store_keys_free(st->keys);
    st->keys = NULL;
    free(st->key_sql);
    st->key_sql = NULL;
}

void store_keys_window(Store *st, size_t n)
{
    st->keys_window = n;
}

int store_keys_index(Store *st, CpErr *err)
{
    if (!st->keys)
        return 0;
    /* the sort's runs go to a temporary file, not memory (temp_store=MEMORY
     * for the statement journals made it 62 MB at 1M attempts, against 21) */
    exec_sql(st, "PRAGMA temp_store=FILE", NULL);
    int rc = exec_sql(st, st->key_sql, err);
    exec_sql(st, "PRAGMA temp_store=MEMORY", NULL);
    keys_stop(st);
    return rc;
}

int store_begin_bulk(Store *st, CpErr *err)
{
    /* another connection (a dashboard) keeps it in WAL mode: ask once, do
     * not wait for it */
    set_waiting(st, 0);
    st->bulk = journal_mode(st, "DELETE");
    set_waiting(st, 1);
    /* Rows go in at the right edge of the jobs table and its index, so a
     * small page cache does: the rest of store_open's 64 MiB is peak RSS
     * (issue 14 item 14: 100 MB at 1M jobs). 8 MiB since the job blocks
     * and the statistics no longer read the new rows back (data/store/store_feed.h):
     * what is left to read is a requeued job's earlier attempt, a few
     * thousand rows back (the OS's cache has the rest). */
    exec_sql(st, "PRAGMA cache_size=" BULK_CACHE_KIB, NULL);
    /* Statements that change pages already in the file (the usage_month
     * upserts, the job blocks' rewrites) keep a statement journal: on disk it
     * was 575 MB of pwrite for 200k site-shape jobs (issue 31), in memory it
     * is a statement's pages, freed when the statement ends. */
    exec_sql(st, "PRAGMA temp_store=MEMORY", NULL);
    if (store_begin(st, err) < 0) {
        store_end_bulk(st);
        return -1;
    }
    if (keys_begin(st, err) < 0) {
        store_rollback(st);
        return -1;
    }
    return 0;
}

void store_end_bulk(Store *st)
{
    exec_sql(st, "PRAGMA cache_size=" CACHE_KIB, NULL);
    exec_sql(st, "PRAGMA temp_store=DEFAULT", NULL);
    if (st->bulk)
        journal_mode(st, "WAL");
    st->bulk = 0;
}

static void counts_clear(Store *st)
{
    for (size_t i = 0; i < st->ncounts; i++) {
        memset(&st->counts[i], 0, sizeof st->counts[i]);
        st->counts[i].hi = INT64_MIN;
    }
}

/* The delta of cluster id (grown on demand). */
static CountDelta *counts_slot(Store *st, int64_t id)
{
    size_t i = id > 0 ? (size_t)id : 0;
    if (i >= st->ncounts) {
        size_t n = i + 16;
        st->counts = xrealloc(st->counts, n * sizeof *st->counts);
        for (size_t k = st->ncounts; k < n; k++) {
            memset(&st->counts[k], 0, sizeof st->counts[k]);
            st->counts[k].hi = INT64_MIN;
        }
        st->ncounts = n;
    }
    st->counts[i].touched = 1;
    return &st->counts[i];
}

static int usage_cmp(const void *pa, const void *pb)
{
    const UsageKey *a = &((const UsageSums *)pa)->key, *b = &((const UsageSums *)pb)->key;
    const int64_t ka[] = {a->month, a->cluster_id, a->account_id, a->user_id, a->partition_id};
    const int64_t kb[] = {b->month, b->cluster_id, b->account_id, b->user_id, b->partition_id};
    for (int i = 0; i < 5; i++)
        if (ka[i] != kb[i])
            return ka[i] < kb[i] ? -1 : 1;
    return 0;
}

/* The transaction's usage sums added to usage_month, in the table's key
 * order (issue 31 item 3: its pages filled in turn, not split at random;
 * the rows are the same), by one statement reading them from usage_rows
 * (data/store/store_usage_rows.h). The sums are forgotten after. */
static int flush_usage(Store *st, CpErr *err)
{
    strmap_clear(st->usage_index); /* the slots move */
    if (st->nusage > 1)
        qsort(st->usage, st->nusage, sizeof *st->usage, usage_cmp);
    int rc = SQLITE_DONE;
    if (st->nusage > 0) {
        st->usage_rows.v = st->usage;
        st->usage_rows.n = st->nusage;
        rc = sqlite3_step(st->usage_add);
        sqlite3_reset(st->usage_add);
        st->usage_rows.n = 0;
    }
    st->nusage = 0;
    return rc == SQLITE_DONE ? 0 : db_err(st, err, "write usage");
}

/* job_counts' changes of this transaction, added to the table. */
static int flush_counts(Store *st, CpErr *err)
{
    sqlite3_stmt *s = st->counts_add;
    for (size_t i = 0; i < st->ncounts; i++) {
        const CountDelta *c = &st->counts[i];
        if (!c->touched)
            continue;
        sqlite3_bind_int64(s, 1, (int64_t)i);
        sqlite3_bind_int64(s, 2, c->jobs);
        sqlite3_bind_int64(s, 3, c->attempts);
        if (c->lo > 0)
            sqlite3_bind_int64(s, 4, c->lo);
        else
            sqlite3_bind_null(s, 4);
        if (c->hi != INT64_MIN)
            sqlite3_bind_int64(s, 5, c->hi);
        else
            sqlite3_bind_null(s, 5);
        int rc = sqlite3_step(s);
        sqlite3_reset(s);
        if (rc != SQLITE_DONE)
            return db_err(st, err, "write job counts");
    }
    counts_clear(st);
    return 0;
}

/* The accounting window of the records put in this transaction, widened
 * into acct_window (schema v9). */
static int flush_window(Store *st, CpErr *err)
{
    if (!st->win_lo && !st->win_hi)
        return 0;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db,
                           "INSERT INTO acct_window(id, lo, hi) VALUES(1, ?1, ?2) "
                           "ON CONFLICT(id) DO UPDATE SET "
                           "lo = CASE WHEN excluded.lo IS NULL THEN lo WHEN lo IS NULL "
                           "  THEN excluded.lo ELSE min(lo, excluded.lo) END, "
                           "hi = CASE WHEN excluded.hi IS NULL THEN hi WHEN hi IS NULL "
                           "  THEN excluded.hi ELSE max(hi, excluded.hi) END",
                           -1, &s, NULL) != SQLITE_OK)
        return db_err(st, err, "accounting window");
    if (st->win_lo)
        sqlite3_bind_int64(s, 1, st->win_lo);
    if (st->win_hi)
        sqlite3_bind_int64(s, 2, st->win_hi);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    st->win_lo = st->win_hi = 0;
    return rc == SQLITE_DONE ? 0 : db_err(st, err, "accounting window");
}

/* Widen the window by one attempt as data/store/store_stats.c reads it back: 32-bit
 * epoch seconds (0 unknown), elapsed else end - start. */
static void window_add(Store *st, const CpJobRec *r)
{
    int64_t sub = r->submit != CP_TIME_NONE && r->submit > 0 && r->submit <= UINT32_MAX
                      ? r->submit
                      : 0;
    int64_t start = r->start != CP_TIME_NONE && r->start > 0 && r->start <= UINT32_MAX
                        ? r->start
                        : 0;
    int64_t el = -1;
    if (r->elapsed != CP_DUR_UNKNOWN)
        el = r->elapsed > INT32_MAX ? INT32_MAX : r->elapsed < INT32_MIN ? INT32_MIN : r->elapsed;
    else if (start && r->end != CP_TIME_NONE && r->end > 0 && r->end >= start)
        el = r->end - start > INT32_MAX ? INT32_MAX : r->end - start;
    int64_t a = sub ? sub : start;
    int64_t b = start && el >= 0 ? start + el : start ? start : sub;
    if (a > 0 && (!st->win_lo || a < st->win_lo))
        st->win_lo = a;
    if (b > 0 && b > st->win_hi)
        st->win_hi = b;
}

int store_flush(Store *st, CpErr *err)
{
    return flush_usage(st, err) < 0 || flush_counts(st, err) < 0 || flush_window(st, err) < 0 ||
                   store_blocks_sync(st, err) < 0
               ? -1
               : 0;
}

static void feed_stop(Store *st)
{
    store_feed_free(st->feed);
    store_blocks_feed_free(st->blocks_feed);
    st->feed = NULL;
    st->blocks_feed = NULL;
}

int store_commit(Store *st, CpErr *err)
{
    if (store_keys_index(st, err) < 0 || store_flush(st, err) < 0)
        return -1;
    int rc = exec_sql(st, "COMMIT", err);
    if (rc == 0) {
        store_end_bulk(st);
        feed_stop(st);
    }
    return rc;
}

void store_rollback(Store *st)
{
    feed_stop(st);
    keys_stop(st); /* the ROLLBACK brings jobs_key back */
    strmap_clear(st->usage_index);
    st->nusage = 0;
    counts_clear(st);
    if (!sqlite3_get_autocommit(st->db))
        exec_sql(st, "ROLLBACK", NULL);
    store_end_bulk(st);
}

/* ---- the feed (store_feed_begin) ---- */

static int blocks_put(void *ctx, const StoreAttempt *a, CpErr *err)
{
    return store_blocks_feed_put(ctx, a, err);
}

static void blocks_changed(void *ctx, int64_t id)
{
    store_blocks_feed_changed(ctx, id);
}

static int blocks_done(void *ctx, CpErr *err)
{
    return store_blocks_feed_done(ctx, err);
}

int store_feed_begin(Store *st, CpErr *err)
{
    feed_stop(st);
    if (store_blocks_feed_new(st, &st->blocks_feed, err) < 0)
        return -1;
    st->feed = store_feed_new(st->feed_window ? st->feed_window : STORE_FEED_WINDOW);
    if (st->blocks_feed) {
        StoreFeedSink s = {blocks_put, blocks_changed, blocks_done, st->blocks_feed};
        store_feed_sink(st->feed, s);
    }
    return 0;
}

void store_feed_window(Store *st, size_t n)
{
    st->feed_window = n;
}

int store_feed_add(Store *st, const StoreFeedSink *sink)
{
    if (!st->feed)
        return 0;
    store_feed_sink(st->feed, *sink);
    return 1;
}

int store_feed_finish(Store *st, CpErr *err)
{
    if (st->feed && store_feed_end(st->feed, err) < 0)
        return -1;
    /* the load's last attempt is written: a first load's index, now,
     * before the statistics' extension and the commit read the table */
    return store_keys_index(st, err);
}

/* The attempt just inserted for r, to the feed. */
static int feed_inserted(Store *st, const CpJobRec *r, const int64_t ids[DICT_COUNT], int final,
                         CpErr *err)
{
    StoreAttempt a;
    job_attempt(r, ids, final, &a);
    a.id = sqlite3_last_insert_rowid(st->db);
    return store_feed_insert(st->feed, &a, err);
}

/* Row id rewritten from r (its final flag kept), to the feed. */
static void feed_updated(Store *st, int64_t id, const CpJobRec *r, const int64_t ids[DICT_COUNT])
{
    StoreAttempt a;
    job_attempt(r, ids, 0, &a);
    a.id = id;
    store_feed_update(st->feed, &a);
}

/* An attempt from before store_watch_old's floor was written or gained
 * an attempt: what the feed's sinks extend no longer holds. */
static void note_old(Store *st)
{
    st->touched_old = 1;
    if (st->feed)
        store_feed_spoil(st->feed);
}

int64_t store_import_begin(Store *st, const char *kind, const char *path, const char *format,
                           CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db,
                           "INSERT INTO imports(kind, path, format, started_at) "
                           "VALUES(?1, ?2, ?3, ?4)",
                           -1, &s, NULL) != SQLITE_OK)
        return db_err(st, err, "record import");
    sqlite3_bind_text(s, 1, kind, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 2, path, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 3, format, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(s, 4, (int64_t)time(NULL));
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return db_err(st, err, "record import");
    return sqlite3_last_insert_rowid(st->db);
}

int store_import_end(Store *st, int64_t import_id, int64_t rows_read, int64_t added,
                     int64_t updated, int64_t rejected, CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db,
                           "UPDATE imports SET finished_at=?2, rows_read=?3, rows_added=?4, "
                           "rows_updated=?5, rows_rejected=?6 WHERE id=?1",
                           -1, &s, NULL) != SQLITE_OK)
        return db_err(st, err, "record import");
    sqlite3_bind_int64(s, 1, import_id);
    sqlite3_bind_int64(s, 2, (int64_t)time(NULL));
    sqlite3_bind_int64(s, 3, rows_read);
    sqlite3_bind_int64(s, 4, added);
    sqlite3_bind_int64(s, 5, updated);
    sqlite3_bind_int64(s, 6, rejected);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : db_err(st, err, "record import");
}

int store_import_format(Store *st, int64_t import_id, const char *format, CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db, "UPDATE imports SET format=?2 WHERE id=?1", -1, &s, NULL) !=
        SQLITE_OK)
        return db_err(st, err, "record import");
    sqlite3_bind_int64(s, 1, import_id);
    sqlite3_bind_text(s, 2, format, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : db_err(st, err, "record import");
}

/* Id of name in dictionary d, inserting it when new. 0 for "" (unknown). */
/* The name's last look-up, kept (a file repeats its cluster, partition and
 * QOS on most lines: issue 31 item 3). */
static void dict_keep(Store *st, int d, const char *name, size_t n, int64_t id)
{
    if (n >= sizeof st->dict_last[d].name)
        return;
    memcpy(st->dict_last[d].name, name, n);
    st->dict_last[d].n = n;
    st->dict_last[d].id = id;
}

static int dict_id(Store *st, int d, const char *name, int64_t *id, CpErr *err)
{
    size_t n = strlen(name);
    if (n > 0 && n == st->dict_last[d].n && memcmp(name, st->dict_last[d].name, n) == 0) {
        *id = st->dict_last[d].id;
        return 0;
    }
    if (strmap_get(st->dict[d], name, n, id)) {
        dict_keep(st, d, name, n, *id);
        return 0;
    }
    sqlite3_stmt *s = st->dict_insert[d];
    sqlite3_bind_text(s, 1, name, (int)n, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    if (rc != SQLITE_DONE)
        return db_err(st, err, "add name");
    *id = sqlite3_last_insert_rowid(st->db);
    strmap_put(st->dict[d], name, n, *id);
    dict_keep(st, d, name, n, *id);
    return 0;
}

static UsageSums *usage_slot(Store *st, const UsageKey *k)
{
    int64_t idx;
    /* an attempt's first slot is most often its month's, the one before */
    if (st->last_usage < st->nusage && memcmp(&st->usage[st->last_usage].key, k, sizeof *k) == 0)
        return &st->usage[st->last_usage];
    if (strmap_get(st->usage_index, (const char *)k, sizeof *k, &idx)) {
        st->last_usage = (size_t)idx;
        return &st->usage[idx];
    }
    if (st->nusage == st->capusage) {
        st->capusage = st->capusage ? st->capusage * 2 : 1024;
        st->usage = xrealloc(st->usage, st->capusage * sizeof *st->usage);
    }
    UsageSums *u = &st->usage[st->nusage];
    memset(u, 0, sizeof *u);
    u->key = *k;
    strmap_put(st->usage_index, (const char *)k, sizeof *k, (int64_t)st->nusage);
    st->last_usage = st->nusage++;
    return u;
}

static int64_t next_month_start(int64_t month)
{
    int y = (int)(month / 100), mo = (int)(month % 100);
    return mo == 12 ? fields_epoch_of(y + 1, 1, 1, 0, 0, 0) : fields_epoch_of(y, mo + 1, 1, 0, 0, 0);
}

/* The month (YYYYMM) of epoch second t; the last one's span is kept
 * (most attempts of an import fall in the month of the one before). */
static int64_t month_of(Store *st, int64_t t)
{
    if (t >= st->month_lo && t < st->month_hi)
        return st->month;
    int y, mo, d, h, mi, s;
    fields_civil_of(t, &y, &mo, &d, &h, &mi, &s);
    st->month = (int64_t)y * 100 + mo;
    st->month_lo = fields_epoch_of(y, mo, 1, 0, 0, 0);
    st->month_hi = next_month_start(st->month);
    return st->month;
}

static UsageKey key_for(const UsageFacts *f, int64_t month)
{
    UsageKey k;
    memset(&k, 0, sizeof k);
    k.month = month;
    k.cluster_id = f->cluster_id;
    k.account_id = f->account_id;
    k.user_id = f->user_id;
    k.partition_id = f->partition_id;
    return k;
}

/* Add (sign = +1) or withdraw (-1) an attempt's contribution; is_job says
 * whether it is the final attempt that counts as the job. */
static void usage_apply(Store *st, const UsageFacts *f, int sign, int is_job, int hours_too)
{
    int64_t anchor = f->start != CP_TIME_NONE ? f->start : f->submit;
    if (anchor == CP_TIME_NONE || anchor <= 0)
        return;
    UsageKey k = key_for(f, month_of(st, anchor));
    UsageSums *u = usage_slot(st, &k);
    if (is_job) {
        u->jobs += sign;
        u->gpu_jobs += f->gpus > 0 ? sign : 0;
    }
    if (!hours_too)
        return;
    u->attempts += sign;
    u->preempted += f->state == CP_ST_PREEMPTED ? sign : 0;
    if (f->start != CP_TIME_NONE && f->submit != CP_TIME_NONE && f->submit > 0 &&
        f->start >= f->submit) {
        u->wait_s += sign * (double)(f->start - f->submit);
        u->waited += sign;
    }
    /* A run whose start is unknown but whose length is known (SWF's wait
     * -1) is placed from its submit time (#14). */
    int64_t run_start = f->start != CP_TIME_NONE ? f->start
                        : f->elapsed > 0 && f->submit > 0 ? f->submit
                                                           : CP_TIME_NONE;
    int64_t run_end = f->elapsed >= 0 && run_start != CP_TIME_NONE ? run_start + f->elapsed : f->end;
    if (run_start == CP_TIME_NONE || run_end == CP_TIME_NONE || run_end <= run_start)
        return;
    double ncpus = f->cpus > 0 ? f->cpus : 0;
    if (f->state == CP_ST_PREEMPTED)
        u->gpu_hours_lost += sign * f->gpus * (double)(run_end - run_start) / 3600.0;
    for (int64_t t = run_start; t < run_end;) { /* pro rata per month */
        int64_t m = month_of(st, t);
        int64_t stop = next_month_start(m);
        if (stop > run_end)
            stop = run_end;
        UsageKey km = key_for(f, m);
        UsageSums *um = usage_slot(st, &km);
        double h = (double)(stop - t) / 3600.0;
        um->gpu_hours += sign * f->gpus * h;
        um->cpu_hours += sign * ncpus * h;
        t = stop;
    }
}

static uint64_t hash_str(uint64_t h, const char *s)
{
    return strmap_hash(h, s, strlen(s) + 1);
}

/* The record's hash: its names, not their ids (which depend on the order
 * the names came in), so that it breaks ties the same in any order. */
static uint64_t record_hash(const CpJobRec *r, const char *const names[DICT_COUNT])
{
    uint64_t h = 0;
    for (int d = 0; d < DICT_COUNT; d++)
        h = hash_str(h, names[d]);
    int64_t nums[] = {r->job_raw, r->array_job, r->array_task, r->state, r->exit_code,
                      r->exit_signal, r->submit, r->eligible, r->start, r->end, r->elapsed,
                      r->timelimit, r->nnodes, r->ncpus};
    double reals[] = {r->req_mem_mib, r->max_rss_mib, r->gpus, r->req_gpus, r->gpu_mem_gib,
                      r->gpu_util, r->total_cpu_s};
    h = strmap_hash(h, nums, sizeof nums);
    h = strmap_hash(h, reals, sizeof reals);
    h = hash_str(h, r->job_id);
    h = hash_str(h, r->job_name);
    h = hash_str(h, r->state_raw);
    h = hash_str(h, r->gpu_type);
    h = hash_str(h, r->nodelist);
    if (r->cpu_milli >= 0) /* only then: the hash of a whole-CPU record as before #29 */
        h = strmap_hash(h, &r->cpu_milli, sizeof r->cpu_milli);
    return h & 0x7fffffffffffffffULL;
}

uint64_t store_rec_hash(const CpJobRec *r, const char *default_cluster)
{
    const char *names[DICT_COUNT] = {r->cluster[0] ? r->cluster : default_cluster, r->user,
                                     r->account, r->partition, r->qos};
    return record_hash(r, names);
}

typedef struct Attempt {
    int64_t id, submit, hash;
    int final;
    UsageFacts facts;
} Attempt;

/* What a record of one attempt says, to choose between two snapshots of
 * it: how far it got (pending, running, requeued, final), when it last
 * says something happened, how many fields it knows, and its hash to
 * break the last ties. The greater wins, whatever the order of imports. */
typedef struct Rank {
    int stage;
    int64_t last, known;
    uint64_t hash;
} Rank;

static int stage_of(int state)
{
    if (jobrec_final((CpState)state))
        return 3;
    return state == CP_ST_REQUEUED ? 2 : state == CP_ST_PENDING ? 0 : 1;
}

static int rank_cmp(const Rank *a, const Rank *b)
{
    if (a->stage != b->stage)
        return a->stage < b->stage ? -1 : 1;
    if (a->last != b->last)
        return a->last < b->last ? -1 : 1;
    if (a->known != b->known)
        return a->known < b->known ? -1 : 1;
    return a->hash < b->hash ? -1 : a->hash > b->hash;
}

/* KNOWN_COLS of a stored attempt (asked only when two records of it
 * differ); -1 on a database error. */
static int stored_known(Store *st, int64_t id, CpErr *err)
{
    sqlite3_stmt *s = st->known_stmt;
    sqlite3_bind_int64(s, 1, id);
    int known = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int(s, 0) : -1;
    sqlite3_reset(s);
    if (known < 0)
        db_err(st, err, "look up job");
    return known;
}

/* KNOWN_COLS of the row job_bind would write for r. */
static int record_known(const CpJobRec *r, const int64_t ids[DICT_COUNT])
{
    return (ids[DICT_USER] != 0) + (ids[DICT_ACCOUNT] != 0) + (ids[DICT_PARTITION] != 0) +
           (ids[DICT_QOS] != 0) + (r->job_name[0] != '\0') + (r->exit_code != -1) +
           (r->eligible != CP_TIME_NONE) + (r->start != CP_TIME_NONE) +
           (r->end != CP_TIME_NONE) + (r->elapsed != CP_DUR_UNKNOWN) +
           (r->timelimit != CP_DUR_UNKNOWN) + (r->nnodes != -1) + (r->ncpus != -1) +
           (r->req_mem_mib >= 0) + (r->max_rss_mib >= 0) + (r->req_gpus >= 0) +
           (r->gpu_type[0] != '\0') + (r->total_cpu_s >= 0) + (r->nodelist[0] != '\0') +
           (r->cpu_milli >= 0); /* a fraction of a CPU says more than it rounded (#29) */
}

static int64_t col_time(sqlite3_stmt *s, int i)
{
    return sqlite3_column_type(s, i) == SQLITE_NULL ? CP_TIME_NONE : sqlite3_column_int64(s, i);
}

/* Highest job_raw stored for a cluster: a record above it is new, and
 * needs no look-up (sacct lists jobs in id order, so most records are). */
static int64_t *max_raw_slot(Store *st, int64_t cluster_id, CpErr *err, int *rc)
{
    *rc = 0;
    if ((size_t)cluster_id >= st->nmax_raw) {
        size_t n = (size_t)cluster_id + 16;
        st->max_raw = xrealloc(st->max_raw, n * sizeof *st->max_raw);
        for (size_t i = st->nmax_raw; i < n; i++)
            st->max_raw[i] = -1;
        st->nmax_raw = n;
    }
    int64_t *slot = &st->max_raw[cluster_id];
    if (*slot == -1 && st->keys) /* a first load: nothing stored before it */
        *slot = INT64_MIN;
    if (*slot == -1) {
        sqlite3_stmt *s = st->max_raw_stmt;
        sqlite3_bind_int64(s, 1, cluster_id);
        if (sqlite3_step(s) != SQLITE_ROW)
            *rc = db_err(st, err, "look up jobs");
        else
            *slot = sqlite3_column_type(s, 0) == SQLITE_NULL ? INT64_MIN
                                                              : sqlite3_column_int64(s, 0);
        sqlite3_reset(s);
    }
    return slot;
}

/* When an attempt's record last says something happened. */
static int64_t last_time(int64_t submit, int64_t start, int64_t end, int64_t elapsed)
{
    if (end != CP_TIME_NONE)
        return end;
    if (start != CP_TIME_NONE)
        return elapsed >= 0 ? start + elapsed : start;
    return submit;
}

/* The latest an attempt can end: when its record says it ended, or, for
 * an attempt still running in its snapshot (which may come after a newer
 * one), its start plus its time limit (no end for UNLIMITED). */
static int64_t latest_end(const UsageFacts *f)
{
    int64_t last = last_time(f->submit, f->start, f->end, f->elapsed);
    if (stage_of(f->state) != 1 || f->start == CP_TIME_NONE)
        return last;
    if (f->timelimit == CP_DUR_UNLIMITED)
        return INT64_MAX / 2;
    return f->timelimit > 0 && f->start + f->timelimit > last ? f->start + f->timelimit : last;
}

/* Two records with one job id are attempts of one job when one was
 * submitted while the other was known, or as it ended: Slurm resubmits a
 * requeued job at the second its previous attempt ends (job 19 of
 * ../shared/data/slurm-sandbox, in text and JSON alike). Otherwise Slurm
 * reused the id (a reset database, ids wrapping round): different jobs. */
static int same_job(const UsageFacts *a, const CpJobRec *r)
{
    const int64_t slack = 5; /* seconds of clock skew between records */
    UsageFacts rf = {.submit = r->submit, .start = r->start, .end = r->end,
                     .elapsed = r->elapsed, .state = (int)r->state, .timelimit = r->timelimit};
    int64_t a_last = latest_end(a);
    int64_t r_last = latest_end(&rf);
    if (r->submit == CP_TIME_NONE || a->submit == CP_TIME_NONE)
        return 1;
    return (r->submit >= a->submit && r->submit <= a_last + slack) ||
           (a->submit >= r->submit && a->submit <= r_last + slack);
}

static int is_pending_range(const char *job_id)
{
    const char *u = strchr(job_id, '_');
    return u && u[1] == '[';
}

/* Both ids name tasks of one array ("12_3", "12_[3-5]"). */
static int same_array(const char *a, const char *b)
{
    const char *ua = strchr(a, '_'), *ub = strchr(b, '_');
    return ua && ub && ua - a == ub - b && memcmp(a, b, (size_t)(ua - a)) == 0;
}

/* The stored attempts that matter: the one with this submit time and the
 * latest one. Slurm lists an array's pending tasks as one record N_[a-b]
 * with the raw id and submit time of the task that runs last: once that
 * task N_b arrives it replaces the range's record (same attempt), and a
 * range arriving after its task is known sets *superseded. Returns 0 on
 * success. */
/* One stored attempt (s's row of ATTEMPT_COLS) weighed for r: find_attempts'
 * loop body. */
static void weigh_attempt(sqlite3_stmt *s, int64_t cluster_id, const CpJobRec *r, int64_t submit,
                          Attempt *same, Attempt *latest, int *superseded)
{
    Attempt a;
    a.id = sqlite3_column_int64(s, 0);
    a.submit = sqlite3_column_int64(s, 1);
    a.final = sqlite3_column_int(s, 2);
    a.hash = sqlite3_column_int64(s, 3);
    a.facts.cluster_id = cluster_id;
    a.facts.account_id = sqlite3_column_int64(s, 4);
    a.facts.user_id = sqlite3_column_int64(s, 5);
    a.facts.partition_id = sqlite3_column_int64(s, 6);
    a.facts.submit = a.submit;
    a.facts.start = col_time(s, 7);
    a.facts.end = col_time(s, 8);
    a.facts.elapsed = sqlite3_column_type(s, 9) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 9);
    a.facts.gpus = sqlite3_column_double(s, 10);
    a.facts.cpus = sqlite3_column_type(s, 11) == SQLITE_NULL ? -1 : sqlite3_column_double(s, 11);
    a.facts.state = sqlite3_column_int(s, 12);
    a.facts.timelimit =
        sqlite3_column_type(s, 14) == SQLITE_NULL ? CP_DUR_UNKNOWN : sqlite3_column_int64(s, 14);
    const char *jid = (const char *)sqlite3_column_text(s, 13);
    if (!jid)
        return;
    if (strcmp(jid, r->job_id) != 0) {
        if (!same_array(jid, r->job_id))
            return; /* another task of an array sharing the raw id */
        if (is_pending_range(r->job_id)) {
            *superseded = 1; /* the range's task is known by now */
            return;
        }
        if (!is_pending_range(jid))
            return;
        /* a pending range N_[a-b] turned into its task N_b: one attempt */
    }
    if (a.submit == submit) {
        *same = a;
    } else if (!same_job(&a.facts, r)) {
        return; /* the id came round again: another job */
    }
    if (!latest->id || a.submit > latest->submit)
        *latest = a;
}

/* A first load's look-up (st->keys): the rows the window names, by row id
 * in the index's order. Returns 1 when it answered, 0 when the window
 * cannot tell (the caller builds the index and asks SQLite), -1 on error. */
static int find_keyed(Store *st, int64_t cluster_id, const CpJobRec *r, int64_t submit,
                      Attempt *same, Attempt *latest, int *superseded, CpErr *err)
{
    int64_t ids[STORE_KEYS_MAX];
    int n = store_keys_find(st->keys, cluster_id, r->job_raw, ids);
    if (n < 0)
        return 0;
    if (n && !st->attempt_by_id &&
        prepare(st, "SELECT " ATTEMPT_COLS " FROM jobs WHERE id=?1", &st->attempt_by_id, err) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        sqlite3_stmt *s = st->attempt_by_id;
        sqlite3_bind_int64(s, 1, ids[i]);
        int rc = sqlite3_step(s);
        if (rc == SQLITE_ROW)
            weigh_attempt(s, cluster_id, r, submit, same, latest, superseded);
        sqlite3_reset(s);
        if (rc != SQLITE_ROW)
            return db_err(st, err, "look up job");
    }
    return 1;
}

/* The stored attempts that matter: the one with this submit time and the
 * latest one. Slurm lists an array's pending tasks as one record N_[a-b]
 * with the raw id and submit time of the task that runs last: once that
 * task N_b arrives it replaces the range's record (same attempt), and a
 * range arriving after its task is known sets *superseded. Returns 0 on
 * success. */
static int find_attempts(Store *st, int64_t cluster_id, const CpJobRec *r, int64_t submit,
                         Attempt *same, Attempt *latest, int *superseded, CpErr *err)
{
    sqlite3_stmt *s = st->lookup_attempts;
    same->id = latest->id = 0;
    *superseded = 0;
    if (st->keys) {
        int got = find_keyed(st, cluster_id, r, submit, same, latest, superseded, err);
        if (got != 0)
            return got < 0 ? -1 : 0;
        if (store_keys_index(st, err) < 0) /* the window cannot tell: the index, now */
            return -1;
    }
    sqlite3_bind_int64(s, 1, cluster_id);
    sqlite3_bind_int64(s, 2, r->job_raw);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        weigh_attempt(s, cluster_id, r, submit, same, latest, superseded);
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? 0 : db_err(st, err, "look up job");
}

static int step_done(Store *st, sqlite3_stmt *s, CpErr *err, const char *what)
{
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? 0 : db_err(st, err, what);
}

/* Two snapshots of one attempt: 1 when r (hashed hash) says more than the
 * stored record, 0 when the stored one stays, -1 on a database error. */
static int says_more(Store *st, const Attempt *had, const CpJobRec *r,
                     const int64_t ids[DICT_COUNT], uint64_t hash, CpErr *err)
{
    if ((uint64_t)had->hash == hash)
        return 0;
    int known = stored_known(st, had->id, err);
    if (known < 0)
        return -1;
    const UsageFacts *f = &had->facts;
    Rank old = {stage_of(f->state), last_time(had->submit, f->start, f->end, f->elapsed), known,
                (uint64_t)had->hash};
    Rank got = {stage_of((int)r->state), last_time(had->submit, r->start, r->end, r->elapsed),
                record_known(r, ids), hash};
    return rank_cmp(&got, &old) > 0;
}

int store_job_put(Store *st, int64_t import_id, const char *default_cluster,
                  const CpJobRec *r, StoreJobCounts *counts, CpErr *err)
{
    int64_t ids[DICT_COUNT] = {0};
    if (!jobrec_finite(r))
        return cp_err_set(err, "job %s: a number is not finite", r->job_id);
    const char *names[DICT_COUNT] = {r->cluster[0] ? r->cluster : default_cluster, r->user,
                                     r->account, r->partition, r->qos};
    for (int d = 0; d < DICT_COUNT; d++)
        if (names[d][0] && dict_id(st, d, names[d], &ids[d], err) < 0)
            return -1;
    int64_t submit = r->submit == CP_TIME_NONE ? 0 : r->submit;
    uint64_t hash = r->rec_hash ? r->rec_hash : record_hash(r, names);
    UsageFacts f = {ids[DICT_CLUSTER], ids[DICT_ACCOUNT], ids[DICT_USER], ids[DICT_PARTITION],
                    r->submit, r->start, r->end, r->elapsed, r->gpus, jobrec_cpus(r), (int)r->state,
                    r->timelimit};
    Attempt same, latest;
    int rc, superseded = 0;
    int64_t *max_raw = max_raw_slot(st, ids[DICT_CLUSTER], err, &rc);
    if (rc < 0)
        return -1;
    if (r->job_raw > *max_raw) {
        same.id = latest.id = 0;
        *max_raw = r->job_raw;
    } else if (find_attempts(st, ids[DICT_CLUSTER], r, submit, &same, &latest, &superseded,
                             err) < 0) {
        return -1;
    }
    if (superseded && !same.id) {
        counts->unchanged++;
        return 0;
    }
    if (same.id) {
        int wins = says_more(st, &same, r, ids, hash, err);
        if (wins < 0)
            return -1;
        if (!wins) {
            counts->unchanged++;
            return 0;
        }
        if (same.id <= st->old_floor)
            note_old(st);
        usage_apply(st, &same.facts, -1, same.final, 1);
        job_bind(&st->update_bind, import_id, r, ids, hash, same.final);
        sqlite3_bind_int64(st->update_job, 37, same.id);
        if (step_done(st, st->update_job, err, "update job") < 0)
            return -1;
        if (st->feed)
            feed_updated(st, same.id, r, ids);
        usage_apply(st, &f, +1, same.final, 1);
        window_add(st, r);
        counts->updated++;
        return 0;
    }
    int final = !latest.id || submit > latest.submit;
    if (latest.id && latest.id <= st->old_floor)
        note_old(st);
    if (latest.id && !final) {
        st->late_attempts = 1; /* the feed hands attempts on in id order: lost */
        if (st->feed)
            store_feed_spoil(st->feed);
    }
    if (final && latest.id) {
        sqlite3_bind_int64(st->unset_final, 1, latest.id);
        if (step_done(st, st->unset_final, err, "update job") < 0)
            return -1;
        if (st->feed)
            store_feed_unfinal(st->feed, latest.id);
        usage_apply(st, &latest.facts, -1, 1, 0);
        counts_slot(st, ids[DICT_CLUSTER])->jobs--;
    }
    job_bind(&st->insert_bind, import_id, r, ids, hash, final);
    if (step_done(st, st->insert_job, err, "insert job") < 0)
        return -1;
    if (st->keys) /* before the feed's sinks insert rows of their own */
        store_keys_add(st->keys, ids[DICT_CLUSTER], r->job_raw, sqlite3_last_insert_rowid(st->db));
    if (st->feed && feed_inserted(st, r, ids, final, err) < 0)
        return -1;
    usage_apply(st, &f, +1, final, 1);
    window_add(st, r);
    CountDelta *cd = counts_slot(st, ids[DICT_CLUSTER]);
    cd->jobs += final;
    cd->attempts++;
    if (r->submit != CP_TIME_NONE) {
        if (r->submit > 0 && (!cd->lo || r->submit < cd->lo))
            cd->lo = r->submit;
        if (r->submit > cd->hi)
            cd->hi = r->submit;
    }
    counts->added++;
    return 0;
}

void store_watch_old(Store *st, int64_t floor)
{
    st->old_floor = floor;
    st->touched_old = 0;
    st->late_attempts = 0;
}

int store_touched_old(const Store *st)
{
    return st->touched_old;
}

int store_late_attempts(const Store *st)
{
    return st->late_attempts;
}

int store_job_put_as(Store *st, int64_t import_id, const char *cluster, const CpJobRec *rec,
                     StoreJobCounts *counts, CpErr *err)
{
    CpJobRec r = *rec;
    r.cluster = cluster;
    return store_job_put(st, import_id, cluster, &r, counts, err);
}

int store_link_metrics(Store *st, int64_t import_id, CpErr *err)
{
    if (store_scalar(st, "SELECT EXISTS(SELECT 1 FROM gpu_metrics)") != 1)
        return 0;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db,
                           "UPDATE jobs SET gpu_mem_gib = m.gpu_mem_max_gib, gpu_mem_source = 2, "
                           "gpu_util = coalesce(m.gpu_util_mean, jobs.gpu_util) "
                           "FROM gpu_metrics m JOIN clusters c "
                           "ON (m.cluster = '' OR c.name = m.cluster) "
                           "WHERE jobs.import_id = ?1 AND jobs.cluster_id = c.id "
                           "AND m.job_key NOT GLOB '*[^0-9]*' "
                           "AND jobs.job_raw = CAST(m.job_key AS INTEGER) "
                           "AND m.gpu_mem_max_gib IS NOT NULL",
                           -1, &s, NULL) != SQLITE_OK)
        return db_err(st, err, "link GPU metrics");
    sqlite3_bind_int64(s, 1, import_id);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    if (rc == SQLITE_DONE && st->feed && sqlite3_changes(st->db) > 0)
        store_feed_spoil(st->feed); /* the import's attempts changed after the feed */
    return rc == SQLITE_DONE ? 0 : db_err(st, err, "link GPU metrics");
}
