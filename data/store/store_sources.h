#ifndef STORE_SOURCES_H
#define STORE_SOURCES_H
/* store_sources: what the database was built from, for the report's
 * provenance: every import (kind, file, format, when, rows, the span of
 * the jobs it brought). Strings copied out of SQLite and owned by the
 * caller's array. The span is written by the import (store_import_span). */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"

typedef struct Store Store;

typedef struct StoreSource {
    char *kind, *path, *format;  /* format NULL when not recorded */
    int64_t at;                  /* when it was imported, epoch seconds UTC */
    int64_t rows_read, added, updated, rejected; /* -1 when not recorded */
    int64_t first_submit, last_submit; /* span of the jobs it brought; -1 when none */
} StoreSource;

/* Every finished import, in the order they ran. Caller frees with
 * store_sources_free. 0, or -1 with err. */
int store_sources(Store *st, StoreSource **out, size_t *n, CpErr *err);
void store_sources_free(StoreSource *v, size_t n);

/* Record on import import_id the first and last submission (epoch
 * seconds) of the jobs it brought; lo > hi (none) records NULL. Inside the
 * import's transaction. 0, or -1 with err. */
int store_import_span(Store *st, int64_t import_id, int64_t lo, int64_t hi, CpErr *err);

#endif
