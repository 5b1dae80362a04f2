#ifndef CATALOG_H
#define CATALOG_H
/* catalog: the GPUs one could buy (`capplan import catalog FILE.csv`), for
 * the report's recommendation in physical GPUs with their cost and power.
 *
 * The file: a header, then one row per model:
 *   model,mem_gib,relative_speed[,tdp_w][,price][,currency]
 * mem_gib the GPU's memory (GiB, > 0), relative_speed its throughput
 * against the reference GPU of the inventory (relative_speed 1; > 0),
 * tdp_w its board power (W, > 0), price one GPU's price (>= 0) in
 * currency (three capital letters, default EUR; one currency a file).
 * tdp_w and price may be empty: unknown. Column names match
 * case-insensitively; memory_gib and gpu_mem_gib stand for mem_gib.
 *
 * Import follows the rules of every importer (data/ingest/import.h): a bad row is
 * reported as "cat.csv:3: field price: bad number 'x'" and skipped (with
 * strict, the file is rejected and the database unchanged), good rows land
 * in one transaction, keyed by model: a model imported again with the same
 * values adds nothing, with new values is updated. */

#include <stddef.h>

#include "core/cp.h"
#include "data/ingest/import.h"
#include "data/store/store_catalog.h" /* CatalogGpu, catalog_free, catalog_load */

typedef struct Store Store;

/* Read a catalog CSV (path "-": standard input) into *out (n rows, in file
 * order). Each bad row goes to o->reject (when set) and is counted in
 * *rejected; -1 with err on an I/O error, a bad header, or (o->strict) the
 * first bad row. Caller frees with catalog_free (data/store/store_catalog.h). */
int catalog_read_csv(const char *path, const ImportOpts *o, CatalogGpu **out, size_t *n,
                     int64_t *rejected, CpErr *err);

/* Import path into the catalog table (one transaction). 0, or -1 with err
 * (the database unchanged). res->rejected counts the bad rows. */
int catalog_import(Store *st, const char *path, const ImportOpts *o, ImportResult *res,
                   CpErr *err);

/* The reference catalog shipped with capplan (data/ingest/catalog_ref.csv,
 * compiled in: GPUs on sale at CATALOG_BUILTIN_DATE with their memory,
 * datasheet speed over a V100, power, and an indicative USD price where a
 * public source gave one; the file's comments name the sources). Caller
 * frees with catalog_free. Always 0. */
#define CATALOG_BUILTIN_DATE "2026-11"
extern const char catalog_builtin_csv[];
int catalog_builtin(CatalogGpu **out, size_t *n);
const char *catalog_builtin_date(void);

/* The catalog a purchase is chosen from: the imported one, else the
 * reference one (*builtin 1). Caller frees with catalog_free. 0, or -1. */
int catalog_effective(Store *st, CatalogGpu **out, size_t *n, int *builtin, CpErr *err);

#endif
