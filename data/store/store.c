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

#include "data/store/store_int.h"

const char *const store_dict_table[DICT_COUNT] = {"clusters", "users", "accounts",
                                                  "partitions", "qos"};


static int journal_mode(Store *st, const char *mode);
static void counts_clear(Store *st);
static void feed_stop(Store *st);
static void keys_stop(Store *st);

int store_db_err(Store *st, CpErr *err, const char *what)
{
    store_fault_note(sqlite3_errcode(st->db));
    return cp_err_set(err, "database: %s: %s", what, sqlite3_errmsg(st->db));
}

int store_prepare(Store *st, const char *sql, sqlite3_stmt **out, CpErr *err)
{
    if (sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT, out, NULL) != SQLITE_OK)
        return store_db_err(st, err, "prepare");
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
        return store_db_err(st, err, "read the jobs' state");
    int rc = sqlite3_step(s);
    int64_t v = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : -1;
    if (rc != SQLITE_ROW) {
        store_db_err(st, err, "read the jobs' state"); /* before finalize resets the message */
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
            return v < 0 ? store_db_err(st, err, "read the schema version") : 0;
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
    snprintf(sql, sizeof sql, "SELECT id, name FROM %s", store_dict_table[d]);
    if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
        return store_db_err(st, err, "read names");
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(s, 1);
        strmap_put(st->dict[d], name ? name : "", (size_t)sqlite3_column_bytes(s, 1),
                   sqlite3_column_int64(s, 0));
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return store_db_err(st, err, "read names");
    if (st->dict_insert[d])
        return 0;
    snprintf(sql, sizeof sql, "INSERT INTO %s(name) VALUES(?1)", store_dict_table[d]);
    return store_prepare(st, sql, &st->dict_insert[d], err);
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

static int prepare_job_statements(Store *st, CpErr *err)
{
    if (store_prepare(st, "SELECT " ATTEMPT_COLS " FROM jobs WHERE cluster_id=?1 AND job_raw=?2",
                &st->lookup_attempts, err) < 0)
        return -1;
    if (store_prepare(st,
                "INSERT INTO jobs(" JOB_COLS ") VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,"
                "?13,?14,?15,?16,?17,?18,?19,?20,?21,?22,?23,?24,?25,?26,?27,?28,?29,?30,?31,"
                "?32,?33,?34,?35,?36)",
                &st->insert_job, err) < 0)
        return -1;
    if (store_prepare(st,
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
    if (store_prepare(st, "UPDATE jobs SET final=0 WHERE id=?1", &st->unset_final, err) < 0)
        return -1;
    if (store_prepare(st, "SELECT " KNOWN_COLS " FROM jobs WHERE id=?1", &st->known_stmt, err) < 0)
        return -1;
    if (store_prepare(st, "SELECT max(job_raw) FROM jobs WHERE cluster_id=?1", &st->max_raw_stmt,
                err) < 0)
        return -1;
    if (store_prepare(st,
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
        return store_db_err(st, err, "prepare");
    /* every row of usage_rows in one statement (WHERE true: an upsert's
     * SELECT needs a clause before ON CONFLICT) */
    return store_prepare(st,
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
        store_db_err(st, err, "read");
        return -1;
    }
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        v = sqlite3_column_int64(s, 0);
    else
        store_db_err(st, err, "read");
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
    if (store_prepare(st, "SELECT sql FROM sqlite_master WHERE type='index' AND name='jobs_key'", &s,
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
    return rc == SQLITE_DONE ? 0 : store_db_err(st, err, "write usage");
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
            return store_db_err(st, err, "write job counts");
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
        return store_db_err(st, err, "accounting window");
    if (st->win_lo)
        sqlite3_bind_int64(s, 1, st->win_lo);
    if (st->win_hi)
        sqlite3_bind_int64(s, 2, st->win_hi);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    st->win_lo = st->win_hi = 0;
    return rc == SQLITE_DONE ? 0 : store_db_err(st, err, "accounting window");
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
