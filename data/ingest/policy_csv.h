#ifndef POLICY_CSV_H
#define POLICY_CSV_H
/* policy_csv: the reader of the data of issue 9 (allocation-policy replay,
 * energy and carbon): the three CSV files (allocations, carbon, sites),
 * read and checked whole, then written through store_policy_write
 * (data/store/store_policy.h). A file lands whole or not at all: the first
 * bad line is an error "file:line: field X: reason" and the database is
 * unchanged. Re-importing updates the values of the same keys (group and
 * year; zone and hour; cluster). */

#include "core/cp.h"
#include "data/store/store_policy.h"

typedef struct Store Store;

/* Import path ("-" for stdin), in text encoding enc (a TextEnc of
 * data/ingest/textenc.h: Latin-1 and Windows-1252 are converted), as kind. 0, or
 * -1 with err (nothing written).
 *   allocations: group,year,gpu_hours
 *   carbon:      datetime,zone,carbon_intensity (gCO2e/kWh; hourly; ISO 8601
 *                times, UTC unless they carry an offset), or an Electricity
 *                Maps export (Datetime (UTC), Zone Id, Carbon Intensity
 *                gCO2eq/kWh (LCA) or (direct); its other columns ignored)
 *   sites:       cluster[,pue,carbon_zone,carbon_intensity] */
int store_policy_import(Store *st, const char *kind, const char *path, int enc,
                        StorePolicyResult *res, CpErr *err);

#endif
