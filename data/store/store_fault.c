/* store_fault: what went wrong with the database in this process (for the
 * exit code), and the wait for another process's lock (see store.h and
 * store_fault.h). */
#include "data/store/store_fault.h"

#include <sqlite3.h>
#include <stdatomic.h>

#include "data/store/store.h"

static atomic_int fault; /* STORE_FAULT_* seen in this process (any thread: the dashboard's worker) */
static void (*wait_notice)(const char *path); /* told once per wait, or NULL */
static int lock_timeout_s = STORE_LOCK_TIMEOUT_S;

void store_fault_note(int code)
{
    code &= 0xff;
    int locked = STORE_FAULT_NONE;
    if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
        atomic_store(&fault, STORE_FAULT_CORRUPT);
    else if (code == SQLITE_BUSY || code == SQLITE_LOCKED) /* never over CORRUPT */
        atomic_compare_exchange_strong(&fault, &locked, STORE_FAULT_LOCKED);
}

static void on_sqlite_log(void *ctx, int code, const char *msg)
{
    (void)ctx;
    (void)msg;
    if ((code & 0xff) == SQLITE_CORRUPT || (code & 0xff) == SQLITE_NOTADB)
        store_fault_note(code);
}

void store_faults_init(void (*notice)(const char *path), int timeout_s)
{
    sqlite3_config(SQLITE_CONFIG_LOG, on_sqlite_log, NULL);
    wait_notice = notice;
    if (timeout_s >= 0)
        lock_timeout_s = timeout_s;
}

void store_wait_notice(void (*notice)(const char *path))
{
    wait_notice = notice;
}

int store_fault(void)
{
    return atomic_load(&fault);
}

int store_lock_timeout(void)
{
    return lock_timeout_s;
}

static int refuse_if_corrupt(void *ctx)
{
    (void)ctx;
    return atomic_load(&fault) == STORE_FAULT_CORRUPT;
}

void store_fault_guard(sqlite3 *db)
{
    sqlite3_commit_hook(db, refuse_if_corrupt, NULL);
    /* SQLite checks each page's cells as it loads the page, so a damaged
     * page a command reads or writes into is reported (SQLITE_CORRUPT)
     * before anything is put into it, not spread by the write (#29 item 4:
     * without it an edit into a page whose cell offsets were overwritten
     * committed). */
    sqlite3_exec(db, "PRAGMA cell_size_check=ON", NULL, NULL, NULL);
}

int store_fault_busy(void *ctx, int count)
{
    StoreWait *st = ctx;
    int step_ms = count < 10 ? 10 : 100;
    if (count == 0)
        st->waited_ms = 0;
    if (st->waited_ms >= (int64_t)lock_timeout_s * 1000) {
        store_fault_note(SQLITE_BUSY);
        return 0;
    }
    if (st->waited_ms >= 1000 && !st->told && wait_notice) {
        st->told = 1;
        wait_notice(st->path);
    }
    sqlite3_sleep(step_ms);
    st->waited_ms += step_ms;
    return 1;
}
