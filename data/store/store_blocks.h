#ifndef STORE_BLOCKS_H
#define STORE_BLOCKS_H
/* store_blocks: the planner's compact copy of the jobs table (issues 13
 * and 20), so that `profile` and `project` read a few hundred packed rows
 * instead of every row of the wide jobs table.
 *
 * The jobs table is cut into blocks of STORE_BLOCK_ROWS rowids (block b:
 * rowids b * STORE_BLOCK_ROWS ..). Table job_blocks holds one row per block
 * that has jobs: the block's planning records packed in one BLOB (rowid
 * order), their number and the first and last start among them (a zone map:
 * a reader of a window skips the blocks outside it). A planning record is a
 * final attempt with a user, a run time (elapsed, else end - start) and
 * GPUs or CPUs: everything store_plan_jobs and store_plan_use read of it.
 *
 * Kept in step with the jobs table: every capplan write of jobs ends in
 * store_flush, which calls store_blocks_sync; triggers (any writer, the
 * sqlite3 shell included) put the block of an updated or deleted row in
 * job_blocks_stale; rows inserted after the last sync are above
 * job_blocks_state.built_max. A reader never trusts a block that is stale,
 * missing or unreadable: store_blocks_each hands its rowid range back to
 * the caller, who reads it from the jobs table (the figures do not depend
 * on which way a job was read). A cache, never the only copy of anything.
 *
 * The schema migration (data/store/store_schema.c) fills the table with SQL
 * through the aggregate function capplan_block_pack, which
 * store_blocks_register adds to a connection before its migrations run. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"

typedef struct Store Store;
struct sqlite3;

#define STORE_BLOCK_SHIFT 12 /* 4096 rowids a block */

/* One planning record, as packed (64 bytes, host byte order: a block
 * written on another byte order reads as stale). */
enum { STORE_REC_STARTED = 1, /* the job's start is known (else start = submit) */
       STORE_REC_MEM = 2 };   /* mem holds a measured peak GPU memory (GiB) */

typedef struct StoreBlockRec {
    int32_t user, account; /* account -1: NULL */
    int32_t cluster;
    uint16_t type;         /* index in the block's GPU types ("" for none) */
    uint16_t flags;        /* STORE_REC_* */
    int64_t start;         /* start, else submit */
    int64_t elig;          /* eligible (unless 0), else submit */
    int64_t run;           /* elapsed, else end - start */
    double gpus, ncpus, mem;
} StoreBlockRec;

/* Add capplan_block_pack (the aggregate the migration and the sync pack a
 * block with) to the database connection of st. 0, or -1 with err. */
int store_blocks_register(Store *st, CpErr *err);

/* Bring job_blocks up to date with the jobs table: rebuild the stale blocks
 * and those holding rowids above built_max. Runs inside the caller's
 * transaction (store_flush); a database without the tables (older schema,
 * read-only) is left alone. */
int store_blocks_sync(Store *st, CpErr *err);

/* Packing the blocks from the attempts an import writes, as it writes
 * them (data/store/store_feed.h: the feed hands them on in rowid order once they
 * can no longer change), instead of reading them back from the table. The
 * blocks it writes are those store_blocks_sync would: a block that holds
 * rows from before the import is packed from the table, a block one of
 * whose attempts changed after it was handed on is left to the sync (the
 * table's trigger marked it stale). When every block from the first rowid
 * after built_max was written, done moves built_max to the last rowid and
 * the sync at the commit has nothing left to pack.
 *
 * store_blocks_feed_new: *out NULL when the database has no job blocks
 * (older schema). Inside the import's transaction; caller frees with
 * store_blocks_feed_free. put, changed and done are a StoreFeedSink's
 * (data/store/store_feed.h). Each returning int: 0, or -1 with err. */
typedef struct StoreBlocksFeed StoreBlocksFeed;
struct StoreAttempt;
int store_blocks_feed_new(Store *st, StoreBlocksFeed **out, CpErr *err);
void store_blocks_feed_free(StoreBlocksFeed *f);
int store_blocks_feed_put(StoreBlocksFeed *f, const struct StoreAttempt *a, CpErr *err);
void store_blocks_feed_changed(StoreBlocksFeed *f, int64_t id);
int store_blocks_feed_done(StoreBlocksFeed *f, CpErr *err);

/* What store_blocks_each calls, in rowid order. sized (may be NULL), once
 * before the others: the records of the blocks to be visited (ranges come
 * on top). block: n records (borrowed for the call) and the block's ntypes
 * GPU type names. range: the rowids [lo, hi] to read from the jobs table
 * instead. Each returns 0, or -1 to stop (its error kept by the caller). */
typedef struct StoreBlocksVisit {
    void (*sized)(void *ctx, size_t nrecs);
    int (*block)(void *ctx, const StoreBlockRec *recs, size_t n, const char *const *types,
                 int ntypes);
    int (*range)(void *ctx, int64_t lo, int64_t hi);
    void *ctx;
    int64_t start_from, start_before; /* blocks with no started record in
                                         [from, before) are skipped */
} StoreBlocksVisit;

/* Visit every job of the database: clean blocks as records, the rest as
 * rowid ranges. On a database without job_blocks, one range covers the
 * table. 0; -1 when a callback stopped (err untouched) or SQLite failed
 * (err filled). */
int store_blocks_each(Store *st, const StoreBlocksVisit *v, CpErr *err);

#endif
