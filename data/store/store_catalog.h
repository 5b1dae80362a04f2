#ifndef STORE_CATALOG_H
#define STORE_CATALOG_H
/* store_catalog: the SQL of the GPU catalog (data/catalog.h; schema v10,
 * table gpu_catalog keyed by model). Bound parameters only; no
 * transaction here: data/catalog.c brackets an import in one. */

#include <stddef.h>

#include "core/cp.h"
#include "data/ingest/catalog.h"

/* Record an import of path and write v[0..n): a new model is added, a
 * known one with other values updated, else left (res counts each). 0, or
 * -1 with err. */
int store_catalog_put(Store *st, const char *path, const CatalogGpu *v, size_t n,
                      ImportResult *res, CpErr *err);

/* The catalog by model. Caller frees with catalog_free. */
int store_catalog_load(Store *st, CatalogGpu **out, size_t *n, CpErr *err);

#endif
