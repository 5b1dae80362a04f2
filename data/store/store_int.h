#ifndef STORE_INT_H
#define STORE_INT_H
/* store_int: the Store's insides, shared by store.c (opening, migrations,
 * transactions, the feed, flushing what a transaction gathered) and
 * store_jobs.c (an attempt written: names to ids, usage, matching earlier
 * attempts, the row). Not a public interface: everyone else uses store.h. */

#include <sqlite3.h>
#include <stdint.h>

#include "core/strmap.h"
#include "data/store/store.h"
#include "data/store/store_bind.h"
#include "data/store/store_blocks.h"
#include "data/store/store_fault.h"
#include "data/store/store_feed.h"
#include "data/store/store_keys.h"
#include "data/store/store_schema.h"
#include "data/store/store_usage_rows.h"

/* The name dictionaries, in the order job_bind takes their ids. */
enum {
    DICT_CLUSTER = JOB_BIND_CLUSTER, DICT_USER = JOB_BIND_USER, DICT_ACCOUNT = JOB_BIND_ACCOUNT,
    DICT_PARTITION = JOB_BIND_PARTITION, DICT_QOS = JOB_BIND_QOS, DICT_COUNT = JOB_BIND_NIDS
};

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

/* The tables of the dictionaries, in DICT_ order. */
extern const char *const store_dict_table[DICT_COUNT];

/* err "database: what: SQLite's message" (the fault noted); returns -1. */
int store_db_err(Store *st, CpErr *err, const char *what);
/* sql prepared to last (SQLITE_PREPARE_PERSISTENT) into *out; -1 and err. */
int store_prepare(Store *st, const char *sql, sqlite3_stmt **out, CpErr *err);

#endif
