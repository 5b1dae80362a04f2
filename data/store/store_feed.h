#ifndef STORE_FEED_H
#define STORE_FEED_H
/* store_feed: the attempts an import writes, handed on to what the import
 * keeps beside the jobs table (the planner's job blocks, the statistics'
 * cache and aggregates: issues 13 and 20) from the records the insert path
 * already holds, instead of reading them back from the table.
 *
 * data/store/store.c tells the feed every attempt it inserts and every change it
 * makes to one (an UPDATE of the whole row, an attempt made non-final). An
 * attempt can change until the import ends (a requeue makes the previous
 * attempt non-final, a later snapshot of it says more), so the feed holds
 * the last STORE_FEED_WINDOW attempts and patches them there; an attempt
 * leaves the window, to every sink in id order, with its values as the
 * table then holds them. A change to an attempt that already left (a
 * requeue further back than the window, GPU metrics linked after the
 * import's last attempt) is told to the sinks as `changed`: what they built
 * from it no longer describes it (the job blocks are then rebuilt by
 * store_blocks_sync, which the table's triggers told; the statistics fall
 * back to reading the attempts back). Pure bookkeeping: no SQL here. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"

/* One attempt as the jobs table holds it (data/store/store_bind.c's job_bind
 * writes these values; NULL as said). */
typedef struct StoreAttempt {
    int64_t id;
    int64_t cluster_id, user_id, account_id, partition_id; /* 0: NULL (no name) */
    int64_t job_raw;
    int64_t submit;               /* 0 when unknown (NOT NULL column) */
    int64_t eligible, start, end; /* CP_TIME_NONE: NULL */
    int64_t elapsed, timelimit;   /* CP_DUR_UNKNOWN: NULL */
    int64_t ncpus;                /* -1: NULL */
    int64_t cpu_milli;            /* -1: NULL (ncpus exact; #29) */
    double gpus;
    double req_mem_mib, max_rss_mib, gpu_mem_gib, gpu_util, total_cpu_s; /* < 0: NULL */
    const char *gpu_type; /* "": NULL; the feed's copy, valid until store_feed_free */
    int gpu_mem_source, state, final;
} StoreAttempt;

/* What receives the attempts. put: each attempt once, in id order (0, or
 * -1 with err: the import stops). changed (may be NULL): attempt id,
 * already put, has changed since, or an attempt came that the feed cannot
 * order (what the sink built is stale from then on). done (may be NULL):
 * no attempt comes after (0, or -1 with err). */
typedef struct StoreFeedSink {
    int (*put)(void *ctx, const StoreAttempt *a, CpErr *err);
    void (*changed)(void *ctx, int64_t id);
    int (*done)(void *ctx, CpErr *err);
    void *ctx;
} StoreFeedSink;

/* Attempts held back: 65,536 of 176 bytes (11.5 MB). A requeue of the
 * 10M bench file (five years) comes at most 46k attempts after the attempt
 * it ends, of the 1M file (two years) 12k. */
#define STORE_FEED_WINDOW (1 << 16)
#define STORE_FEED_SINKS 4

typedef struct StoreFeed StoreFeed;

/* An empty feed holding back window attempts (STORE_FEED_WINDOW; tests
 * take fewer). Caller frees with store_feed_free (it frees no sink). */
StoreFeed *store_feed_new(size_t window);
void store_feed_free(StoreFeed *f);

/* Hand the attempts to s too (at most STORE_FEED_SINKS; before the first
 * attempt). */
void store_feed_sink(StoreFeed *f, StoreFeedSink s);

/* A new attempt a was inserted (its gpu_type is copied). When the window
 * is full its oldest attempt goes to the sinks first. 0, or -1 with err
 * from a sink. */
int store_feed_insert(StoreFeed *f, const StoreAttempt *a, CpErr *err);

/* Row a->id now holds a (every column rewritten but final, which stays). */
void store_feed_update(StoreFeed *f, const StoreAttempt *a);

/* Row id was made non-final. */
void store_feed_unfinal(StoreFeed *f, int64_t id);

/* Something the feed cannot follow happened to the attempts (an attempt
 * stored before a later attempt of its job, rows changed by SQL): every
 * sink is told `changed` (id 0: any attempt). */
void store_feed_spoil(StoreFeed *f);

/* Hand every attempt still held to the sinks, then tell them done; later
 * inserts are not handed on and later changes reach the sinks as
 * `changed`. 0, or -1 with err from a sink. */
int store_feed_end(StoreFeed *f, CpErr *err);

#endif
