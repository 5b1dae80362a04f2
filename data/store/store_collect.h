#ifndef STORE_COLLECT_H
#define STORE_COLLECT_H
/* store_collect: the SQL of `capplan collect` (data/ingest/collect.c). Table
 * collects holds one row per successful collect, collect_sources its
 * source (the sacct command, words joined by one blank: "sacct", "ssh
 * login2 sacct"; the view collect_windows puts them together): the list of
 * clusters it asked sacct for ('' = the cluster of the
 * machine), the window of time it read [since, until] in epoch seconds UTC,
 * and the import that landed its rows. Windows are kept per source and
 * cluster list: two slurmdbds into one database each have their own.
 * Nothing here runs sacct or decides the next window: that is collect.c's
 * work. Every statement binds its values. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"

typedef struct Store Store;

typedef struct StoreCollectWindow {
    int64_t since, until;
} StoreCollectWindow;

/* The windows of the earlier successful collects of this source and
 * cluster list (and those recorded before windows had a source, source ''),
 * in order of since. Caller frees *out with free() (NULL when *n is 0).
 * Returns 0, or -1 with err filled. */
int store_collect_windows(Store *st, const char *source, const char *clusters,
                          StoreCollectWindow **out, size_t *n, CpErr *err);

/* Record a successful collect in one transaction of its own: the import
 * row that import_sacct wrote for import_path (its latest with that path)
 * is renamed to kind 'collect' and path label, and the window [since,
 * until] of source and clusters is stored against it. With keep_import 0 (the import read no
 * row) the import row is deleted instead and the window stored alone.
 * Call after the import committed. Returns 0, or -1 with err filled and
 * nothing changed. */
int store_collect_record(Store *st, const char *source, const char *clusters, int64_t since,
                         int64_t until, const char *import_path, const char *label,
                         int keep_import, CpErr *err);

#endif
