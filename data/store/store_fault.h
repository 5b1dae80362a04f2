#ifndef STORE_FAULT_H
#define STORE_FAULT_H
/* store_fault: private to the store_*.c files. The process's record of
 * what went wrong with the database (a corrupt page SQLite logged, a lock
 * wait that timed out), which store_fault() reports to main, and the busy
 * handler every connection waits for locks with. The public side is in
 * store.h (store_faults_init, store_fault, store_wait_notice,
 * store_lock_timeout). */

#include <stdint.h>

/* One connection's wait for a lock. */
typedef struct StoreWait {
    const char *path;  /* the database, for the notice (borrowed) */
    int64_t waited_ms; /* in the current wait */
    int told;          /* the notice was given (once per connection) */
} StoreWait;

/* Record an SQLite result code: SQLITE_CORRUPT / SQLITE_NOTADB make the
 * fault CORRUPT, SQLITE_BUSY / SQLITE_LOCKED make it LOCKED (unless
 * CORRUPT); others are ignored. */
void store_fault_note(int code);

/* Make every commit on db a rollback once SQLite has reported a corrupt
 * database in this process (a commit hook): nothing is written into a
 * damaged file (#29); and have SQLite check each page's cells as it loads
 * it (PRAGMA cell_size_check), so that a damaged page is reported before a
 * write goes into it. Call on every connection that writes. */
struct sqlite3;
void store_fault_guard(struct sqlite3 *db);

/* sqlite3_busy_handler's callback, ctx a StoreWait: sleep a little longer
 * each time, give the notice once after a second, give up (noting LOCKED)
 * after store_lock_timeout() seconds. */
int store_fault_busy(void *ctx, int count);

#endif
