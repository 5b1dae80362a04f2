#ifndef STORE_H
#define STORE_H
/* store: the SQLite database, and the only module that holds SQL.
 * Schema versioned with PRAGMA user_version and migrated forward on open;
 * WAL journal, a busy timeout, every statement prepared with bound
 * parameters (nothing from data is ever spliced into SQL text).
 *
 * Imports run inside one transaction per file (store_begin/commit/
 * rollback), so a failed or killed import leaves the database as it was.
 * Usage per month (cluster, account, user, partition) is kept up to date
 * as jobs are written, so no view scans every job. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"
#include "core/jobrec.h"

typedef struct Store Store;

#define STORE_SCHEMA_VERSION 1

/* Open (creating and migrating) the database at path. A database of a
 * newer schema is refused before anything in it changes. Statements wait
 * for other processes' locks (an import) up to store_lock_timeout seconds.
 * Caller closes with store_close. NULL with err on failure. */
Store *store_open(const char *path, CpErr *err);
/* Open for a command that only reads: as store_open when the file and its
 * folder are writable; else (a read-only folder or mount) read-only: no
 * journal switch, no migration, a database of an older or newer schema
 * refused, and a WAL database in a folder nobody may write read as
 * immutable (no process can be writing it there). */
Store *store_open_read(const char *path, CpErr *err);

/* What went wrong with the database in this process, for the exit code. */
enum { STORE_FAULT_NONE, STORE_FAULT_LOCKED, STORE_FAULT_CORRUPT };
#define STORE_LOCK_TIMEOUT_S 120 /* default wait for another process's lock */

/* Once, before any store is opened (main): record SQLite's corruption
 * reports, and call notice (may be NULL) once per wait that lasts more
 * than a second; timeout_s (>= 0; -1 keeps the default) bounds a wait. */
void store_faults_init(void (*notice)(const char *path), int timeout_s);
/* Replace the wait notice (NULL: wait silently, e.g. under curses). */
void store_wait_notice(void (*notice)(const char *path));
/* STORE_FAULT_CORRUPT once SQLite reported a corrupt file, else
 * STORE_FAULT_LOCKED once a wait for a lock timed out, else NONE. */
int store_fault(void);
/* Seconds a statement waits for a lock. */
int store_lock_timeout(void);
/* on 1: statements wait for locks (the default); 0: fail at once (a
 * best-effort write such as a cache). */
void store_wait(Store *st, int on);
void store_close(Store *st);

/* The open sqlite3 handle, for modules of data/ that keep their SQL in a
 * store_*.c file of their own. Borrowed. */
/* 1 when st was opened read-only (a file or folder this process cannot
 * write): readings work, every write fails. */
int store_read_only(Store *st);

struct sqlite3 *store_db(Store *st);

/* Hand back memory the last phase no longer needs before the next phase of
 * the same process (an import's, then the planner's refresh): the usage
 * sums the import kept per (month, account, user, partition) once they are
 * written (their table and its index: 23 MB at 10M jobs), this
 * connection's page cache, and the heap's free pages (glibc's malloc_trim),
 * so the process's peak is its larger phase, not both added up. */
void store_release_memory(Store *st);

/* Transactions (BEGIN IMMEDIATE). commit also flushes pending usage. */
int store_begin(Store *st, CpErr *err);
/* store_begin for a bulk load (an accounting file): the transaction writes
 * its pages straight into the database file under a rollback journal
 * instead of twice (the WAL, then a checkpoint), as safe against a crash or
 * a kill; the database is back in WAL mode after store_commit or
 * store_rollback. When another connection has the database open it stays
 * in WAL mode. */
int store_begin_bulk(Store *st, CpErr *err);

/* A first bulk load (no jobs when store_begin_bulk began) runs without the
 * jobs_key index (data/store/store_keys.h): this builds it, once, when the
 * load's last attempt is written (store_feed_finish and store_commit call
 * it). 0 when there is nothing to build. */
int store_keys_index(Store *st, CpErr *err);

/* Tests: the first load's window of attempts (a power of two; 0, the
 * default: STORE_KEYS_WINDOW), from the next store_begin_bulk on. */
void store_keys_window(Store *st, size_t n);
/* Back to WAL mode after a bulk load (store_commit and store_rollback call
 * it; harmless otherwise). */
void store_end_bulk(Store *st);
/* Write what this transaction kept in memory (usage_month, job_counts and
 * acct_window's changes) and bring the planner's job blocks up to date
 * (data/store/store_blocks.h) without committing; store_commit does it too. */
int store_flush(Store *st, CpErr *err);
int store_commit(Store *st, CpErr *err);
void store_rollback(Store *st);

/* The attempts an import writes, handed on as they are written (issue 20
 * item 2, data/store/store_feed.h) instead of read back from the jobs table:
 * store_feed_begin, inside the import's transaction before its first
 * attempt, starts handing every attempt store_job_put writes to the
 * planner's job blocks (data/store/store_blocks.h) and to the sinks
 * store_feed_add adds; store_feed_finish, after the last attempt, hands on
 * those still held back (and builds a first load's jobs_key index,
 * store_keys_index). The feed ends with the transaction. Each 0, or -1
 * with err (a sink's error stops the import). */
typedef struct StoreFeedSink StoreFeedSink;
int store_feed_begin(Store *st, CpErr *err);
/* Hand the attempts to *sink too (copied); 0 when no feed is on. */
int store_feed_add(Store *st, const StoreFeedSink *sink);
int store_feed_finish(Store *st, CpErr *err);
/* Hold back n attempts in the feeds begun from now on (0: the default,
 * STORE_FEED_WINDOW of data/store/store_feed.h): for tests of a requeue that
 * comes after its attempt left the window. */
void store_feed_window(Store *st, size_t n);

/* One import of one file: kind ("sacct", "roster", ...), path as given,
 * format detected. Returns the import id (> 0) or -1. */
int64_t store_import_begin(Store *st, const char *kind, const char *path, const char *format,
                           CpErr *err);
/* Record the outcome of the import (call before store_commit). */
int store_import_end(Store *st, int64_t import_id, int64_t rows_read, int64_t added,
                     int64_t updated, int64_t rejected, CpErr *err);

/* Record the format the reader detected ("sacct-json 22.05"). */
int store_import_format(Store *st, int64_t import_id, const char *format, CpErr *err);

/* Counters an import reports. */
typedef struct StoreJobCounts {
    int64_t added;     /* attempts new to the database */
    int64_t updated;   /* attempts already there whose values changed */
    int64_t unchanged; /* attempts already there, identical */
} StoreJobCounts;

/* Write one job attempt (a job row with its steps already folded in),
 * keyed (cluster, job_raw, submit). A later attempt of the same job makes
 * the earlier one non-final; a changed record (RUNNING then COMPLETED)
 * replaces the old one. default_cluster is used when rec->cluster is "".
 * Must be called inside store_begin/commit. */
int store_job_put(Store *st, int64_t import_id, const char *default_cluster,
                  const CpJobRec *rec, StoreJobCounts *counts, CpErr *err);

/* The hash store_job_put stores with r (rec_hash: it breaks ties between
 * two snapshots of an attempt): of its names (its cluster, default_cluster
 * when it has none), numbers and texts. Pure; any thread. An import
 * computes it on the reader's thread and hands it in r->rec_hash, which
 * store_job_put then takes as is (0: it computes it). */
uint64_t store_rec_hash(const CpJobRec *r, const char *default_cluster);

/* As store_job_put, but the record's own cluster name is replaced by
 * cluster (--cluster given to a trace import). */
int store_job_put_as(Store *st, int64_t import_id, const char *cluster, const CpJobRec *rec,
                     StoreJobCounts *counts, CpErr *err);

/* From now on, note whether store_job_put writes an attempt whose id is
 * <= floor or adds an attempt to a job that has one (the statistics cache
 * extends itself over an import that only appends new jobs). */
void store_watch_old(Store *st, int64_t floor);
/* 1 when it did since the last store_watch_old. */
int store_touched_old(const Store *st);
/* 1 when, since the last store_watch_old, an attempt was written after a
 * later attempt of its job (so it has the higher id but is not final). */
int store_late_attempts(const Store *st);

/* Give the jobs of this import the GPU memory and utilisation measured by a
 * monitor (gpu_metrics, imported earlier), keyed by cluster and numeric job
 * id. Costs one pass over the jobs, only when metrics exist. */
int store_link_metrics(Store *st, int64_t import_id, CpErr *err);

/* What `capplan status` prints. Caller frees with store_status_free. */
typedef struct StoreNamedCount {
    char *name;
    int64_t count;
} StoreNamedCount;

typedef struct StoreStatus {
    int64_t jobs, attempts, users, accounts, groups, people, clusters_n;
    int64_t inventory_rows, events, pubs, gpu_metrics, imports;
    int64_t first_submit, last_submit; /* CP_TIME_NONE when no jobs */
    double gpu_hours, cpu_hours;
    StoreNamedCount *clusters; /* jobs per cluster */
    int nclusters;
    StoreNamedCount *recent_imports; /* name = "kind path (format)", count = rows added */
    int nrecent;
} StoreStatus;

int store_status(Store *st, StoreStatus *out, CpErr *err);
void store_status_free(StoreStatus *s);

/* Run a statement that returns one integer (tests and status). -1 on error. */
int64_t store_scalar(Store *st, const char *sql);

/* The jobs table's highest id (0 when empty), or -1 with err: SQLite's
 * error, or a negative id, which only a damaged page gives (SQLite read it
 * without noticing): noted as corrupt, so the command exits 4 and writes
 * nothing (#29). */
int64_t store_max_job_id(Store *st, CpErr *err);

#endif
