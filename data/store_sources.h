#ifndef STORE_SOURCES_H
#define STORE_SOURCES_H
/* store_sources: what the database was built from, for the report's
 * provenance: every import (kind, file, format, when, rows). Read only;
 * strings copied out of SQLite and owned by the caller's array. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"

typedef struct Store Store;

typedef struct StoreSource {
    char *kind, *path, *format;  /* format NULL when not recorded */
    int64_t at;                  /* when it was imported, epoch seconds UTC */
    int64_t rows_read, added, updated, rejected; /* -1 when not recorded */
} StoreSource;

/* Every finished import, in the order they ran. Caller frees with
 * store_sources_free. 0, or -1 with err. */
int store_sources(Store *st, StoreSource **out, size_t *n, CpErr *err);
void store_sources_free(StoreSource *v, size_t n);

#endif
