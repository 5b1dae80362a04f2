#ifndef STORE_KEYS_H
#define STORE_KEYS_H
/* store_keys: the jobs_key index's stand-in during a first load (issue 31
 * item 3). A bulk import into a jobs table without rows drops the index
 * jobs(cluster_id, job_raw) for its transaction and builds it once at the
 * end (data/store/store.c, store_keys_index): kept row by row it cost
 * about a sixth of SQLite's insert. What the load itself asks of the index
 * (a requeued or re-listed job's earlier attempts, store_job_put) is
 * answered from the last STORE_KEYS_WINDOW attempts it inserted, kept
 * here: bounded memory (5 MiB), whatever the file's size. When the window
 * cannot answer (an attempt that left it may have the key asked for), the
 * caller builds the index there and then and asks SQLite from then on.
 * Pure bookkeeping: no SQL here. */

#include <stddef.h>
#include <stdint.h>

#define STORE_KEYS_WINDOW 131072 /* attempts kept (a power of two) */
#define STORE_KEYS_MAX 64        /* rowids store_keys_find gives at most */

typedef struct StoreKeys StoreKeys;

/* A window of `window` attempts (a power of two; 0: STORE_KEYS_WINDOW);
 * the caller frees it with store_keys_free. */
StoreKeys *store_keys_new(size_t window);
void store_keys_free(StoreKeys *k);

/* The attempt with this row id was inserted with this key (row ids
 * increasing): it joins the window, the oldest leaves when it is full. */
void store_keys_add(StoreKeys *k, int64_t cluster_id, int64_t job_raw, int64_t rowid);

/* The row ids of every attempt inserted with this key, ascending (the
 * index's order), into out (at most STORE_KEYS_MAX); returns how many, or
 * -1 when the window cannot tell (an attempt that left it had a job_raw at
 * least this one in the cluster, or more than STORE_KEYS_MAX match). */
int store_keys_find(const StoreKeys *k, int64_t cluster_id, int64_t job_raw, int64_t *out);

#endif
