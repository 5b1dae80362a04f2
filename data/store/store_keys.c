/* store_keys: the last attempts a first load inserted, by (cluster_id,
 * job_raw): see store_keys.h. A ring of entries in insertion order (entry
 * seq lives in slot seq % window) chained per hash bucket newest first;
 * a chain is followed until it reaches an entry that left the ring. */
#include "data/store/store_keys.h"

#include <stdlib.h>

#include "core/cp.h"

typedef struct KeyEntry {
    int64_t cluster_id, job_raw, rowid;
    int64_t next; /* seq of the bucket's previous entry; -1 none */
} KeyEntry;

struct StoreKeys {
    KeyEntry *ring;
    int64_t *head; /* per bucket: seq of its newest entry; -1 none */
    size_t window, nbuckets;
    int64_t seq;           /* entries added */
    int64_t *left_max;     /* per cluster id: highest job_raw that left the ring */
    size_t nleft;
};

StoreKeys *store_keys_new(size_t window)
{
    StoreKeys *k = xcalloc(1, sizeof *k);
    k->window = window ? window : STORE_KEYS_WINDOW;
    k->nbuckets = k->window;
    k->ring = xmalloc(k->window * sizeof *k->ring);
    k->head = xmalloc(k->nbuckets * sizeof *k->head);
    for (size_t i = 0; i < k->nbuckets; i++)
        k->head[i] = -1;
    return k;
}

void store_keys_free(StoreKeys *k)
{
    if (!k)
        return;
    free(k->ring);
    free(k->head);
    free(k->left_max);
    free(k);
}

/* By job_raw itself: a file lists jobs in id order, so the window's ids
 * are about consecutive, fall in buckets of their own and are added and
 * asked for in neighbouring memory. */
static size_t bucket(const StoreKeys *k, int64_t cluster_id, int64_t job_raw)
{
    uint64_t h = (uint64_t)job_raw + (uint64_t)cluster_id * 0x9e3779b1ULL;
    return (size_t)h & (k->nbuckets - 1);
}

/* What left the ring, per cluster: the highest job_raw. */
static void note_left(StoreKeys *k, const KeyEntry *e)
{
    size_t c = (size_t)e->cluster_id;
    if (c >= k->nleft) {
        size_t n = c + 16;
        k->left_max = xrealloc(k->left_max, n * sizeof *k->left_max);
        for (size_t i = k->nleft; i < n; i++)
            k->left_max[i] = INT64_MIN;
        k->nleft = n;
    }
    if (e->job_raw > k->left_max[c])
        k->left_max[c] = e->job_raw;
}

void store_keys_add(StoreKeys *k, int64_t cluster_id, int64_t job_raw, int64_t rowid)
{
    KeyEntry *e = &k->ring[(size_t)k->seq & (k->window - 1)];
    if (k->seq >= (int64_t)k->window)
        note_left(k, e);
    size_t b = bucket(k, cluster_id, job_raw);
    e->cluster_id = cluster_id;
    e->job_raw = job_raw;
    e->rowid = rowid;
    e->next = k->head[b];
    k->head[b] = k->seq++;
}

int store_keys_find(const StoreKeys *k, int64_t cluster_id, int64_t job_raw, int64_t *out)
{
    if (cluster_id >= 0 && (size_t)cluster_id < k->nleft && job_raw <= k->left_max[cluster_id])
        return -1;
    int64_t floor = k->seq - (int64_t)k->window; /* entries below it left the ring */
    int n = 0;
    for (int64_t s = k->head[bucket(k, cluster_id, job_raw)]; s >= 0 && s >= floor;) {
        const KeyEntry *e = &k->ring[(size_t)s & (k->window - 1)];
        if (e->cluster_id == cluster_id && e->job_raw == job_raw) {
            if (n == STORE_KEYS_MAX)
                return -1;
            out[n++] = e->rowid;
        }
        s = e->next;
    }
    /* newest first along the chain: ascending for the caller */
    for (int i = 0, j = n - 1; i < j; i++, j--) {
        int64_t t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
    return n;
}
