#ifndef STORE_CATALOG_H
#define STORE_CATALOG_H
/* store_catalog: the SQL of the GPU catalog (data/ingest/catalog.h; schema v10,
 * table gpu_catalog keyed by model). Bound parameters only; no
 * transaction here: data/ingest/catalog.c brackets an import in one. */

#include <stddef.h>

#include "core/cp.h"
#include "data/store/store_import.h"

typedef struct Store Store;

/* One GPU one could buy, as data/ingest/catalog.c reads it from a catalog CSV. */
typedef struct CatalogGpu {
    char *model;
    double mem_gib, relative_speed;
    double tdp_w, price;   /* -1 when unknown */
    char currency[4];      /* "EUR" */
} CatalogGpu;

/* Record an import of path and write v[0..n): a new model is added, a
 * known one with other values updated, else left (res counts each). 0, or
 * -1 with err. */
int store_catalog_put(Store *st, const char *path, const CatalogGpu *v, size_t n,
                      ImportResult *res, CpErr *err);

/* The catalog by model. Caller frees with catalog_free. */
int store_catalog_load(Store *st, CatalogGpu **out, size_t *n, CpErr *err);

/* Free what store_catalog_load, catalog_load or catalog_read_csv returned. */
void catalog_free(CatalogGpu *v, size_t n);

/* The catalog, by model (empty when none was imported). Caller frees with
 * catalog_free. 0, or -1 with err. */
int catalog_load(Store *st, CatalogGpu **out, size_t *n, CpErr *err);

#endif
