#ifndef STORE_STATS_EFF_H
#define STORE_STATS_EFF_H
/* store_stats_eff: where the efficiency aggregates (core/stats.h,
 * StatsEffBuild) are kept: rows of table stats_agg with negative months,
 * beside the other aggregates (no schema change):
 *   month -1                    the fingerprint of the jobs and inventory
 *                               they describe, a NUL, then the GPU type
 *                               names the curves number (ids 1, 2, ...);
 *   month -yyyymm               the month's sums and top hogs;
 *   month -(10000000 + yyyymm)  the month's hourly curves.
 * Used by data/store/store_stats_agg.c (the load) and data/store/store_stats_extend.c
 * (the import's extension). */

#include <sqlite3.h>
#include <stddef.h>

#include "core/stats.h"

/* The efficiency aggregates' fingerprint in buf (of n bytes): their
 * layout, the inventory's contents and afp, the fingerprint of the other
 * aggregates (of the jobs). 0, or -1 on a database error. */
int store_eff_fingerprint(sqlite3 *db, const char *afp, char *buf, size_t n);
/* 1 when the stored set describes what efp says, else 0. */
int store_eff_current(sqlite3 *db, const char *efp);
/* The stored GPU type names interned into b (before any job): 0, or -1
 * when there is no stored set or it does not parse. */
int store_eff_types(sqlite3 *db, StatsEffBuild *b);
/* Every stored month's sums and top hogs into buf: 0, or -1. */
int store_eff_read(sqlite3 *db, StatsEffBuf *buf);
/* The stored curves of the months b's attempts touched, as b's old ones:
 * 0, 1 when one does not parse, -1 on a database error. */
int store_eff_old_curves(sqlite3 *db, StatsEffBuild *b);
/* The stored sums and tops of b's months merged into b: 0, 1, -1 as above. */
int store_eff_old_months(sqlite3 *db, StatsEffBuild *b);
/* b's months (sums, tops, curves: replacing those stored) and the
 * header efp with b's type names: 0, or -1. */
int store_eff_write(sqlite3 *db, const StatsEffBuild *b, const char *efp);
/* Forget the header (the next load rebuilds the set): 0, or -1. */
int store_eff_drop(sqlite3 *db);
/* Delete every row of the set: 0, or -1. */
int store_eff_clear(sqlite3 *db);

#endif
