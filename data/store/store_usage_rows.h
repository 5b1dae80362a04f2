#ifndef STORE_USAGE_ROWS_H
#define STORE_USAGE_ROWS_H
/* store_usage_rows: an import's monthly usage sums, before they are added to
 * usage_month, and the virtual table `usage_rows` that hands them to SQLite
 * (issue 31 item 3). data/store/store.c adds the sums to usage_month with one
 * INSERT ... SELECT FROM usage_rows ... ON CONFLICT DO UPDATE instead of one
 * upsert a row: SQLite's work per statement (its cursors opened and closed,
 * its program started and halted, 14 bindings) was most of each row's. The
 * table is eponymous (nothing is written to the schema) and read-only; it
 * reads the rows the connection's StoreUsageRows points at when a statement
 * runs. */

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

/* usage_month's key of one row. */
typedef struct UsageKey {
    int64_t month, cluster_id, account_id, user_id, partition_id;
} UsageKey;

/* usage_month's sums of one row. */
typedef struct UsageSums {
    UsageKey key;
    int64_t jobs, attempts, gpu_jobs, waited, preempted;
    double gpu_hours, cpu_hours, wait_s, gpu_hours_lost;
} UsageSums;

/* The rows usage_rows lists: v[0..n) (borrowed: the caller owns both the
 * struct and the rows, and keeps them while the connection is open). */
typedef struct StoreUsageRows {
    const UsageSums *v;
    size_t n;
} StoreUsageRows;

/* usage_month's columns in its order (usage_rows has them all, by name). */
#define STORE_USAGE_ROWS_COLS                                                                   \
    "month, cluster_id, account_id, user_id, partition_id, jobs, attempts, gpu_jobs, "          \
    "gpu_hours, cpu_hours, wait_s, waited, preempted, gpu_hours_lost"

/* Make usage_rows list *rows on db. SQLITE_OK or SQLite's error code. */
int store_usage_rows_register(sqlite3 *db, StoreUsageRows *rows);

#endif
