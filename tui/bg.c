/* bg: one read of the database in a worker thread (bg.h). */
#include "tui/bg.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "data/store/store.h"
#include "data/store/store_tui.h"

struct TuiBg {
    pthread_t th;
    Store *db;          /* the worker's connection (the caller's to open and close) */
    TuiBgFn fn;
    void *arg;          /* the task, borrowed */
    atomic_int cancel;  /* the caller asks the worker to stop */
    atomic_int done;    /* fn returned: arg is the caller's again */
    atomic_llong end_ms;
};

static void *worker(void *p)
{
    TuiBg *b = p;
    b->fn(b->db, b->arg, b);
    atomic_store(&b->end_ms, (long long)tui_now_ms());
    atomic_store(&b->done, 1);
    return NULL;
}

TuiBg *tui_bg_start(Store *st, TuiBgFn fn, void *arg)
{
    if (!st)
        return NULL;
    CpErr err = {""};
    Store *db = store_tui_second(st, &err);
    if (!db)
        return NULL;
    TuiBg *b = xcalloc(1, sizeof *b);
    b->db = db;
    b->fn = fn;
    b->arg = arg;
    atomic_init(&b->cancel, 0);
    atomic_init(&b->done, 0);
    atomic_init(&b->end_ms, 0);
    if (pthread_create(&b->th, NULL, worker, b) != 0) {
        store_close(db);
        free(b);
        return NULL;
    }
    return b;
}

int tui_bg_done(const TuiBg *b)
{
    return atomic_load(&b->done);
}

int tui_bg_cancelled(const TuiBg *b)
{
    return b && atomic_load(&b->cancel);
}

int64_t tui_bg_join(TuiBg *b)
{
    if (!b)
        return 0;
    pthread_join(b->th, NULL);
    int64_t end = (int64_t)atomic_load(&b->end_ms);
    store_close(b->db);
    free(b);
    return end;
}

void tui_bg_stop(TuiBg *b)
{
    if (!b)
        return;
    atomic_store(&b->cancel, 1);
    /* Again until fn returns: an interrupt reaches only a statement that
     * runs, and the worker may be between two. */
    while (!atomic_load(&b->done)) {
        store_tui_interrupt(b->db);
        struct timespec ts = {0, 2 * 1000000L};
        nanosleep(&ts, NULL);
    }
    tui_bg_join(b);
}
