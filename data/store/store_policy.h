#ifndef STORE_POLICY_H
#define STORE_POLICY_H
/* store_policy: the data of issue 9 (allocation-policy replay, energy and
 * carbon): the writing of the three CSV imports (allocations, carbon,
 * sites; read by data/ingest/policy_csv.c), and the
 * reading of what core/policy needs (allocations, sites, the hourly carbon
 * series, the inventory's TDPs, a scenario's policy.* parameters). All
 * its SQL is here, with bound parameters only.
 *
 * Imports are all or nothing: the file is read and checked whole before
 * anything is written; the first bad line is an error
 * "file:line: field X: reason" and the database is unchanged. Re-importing
 * updates the values of the same keys (group and year; zone and hour;
 * cluster). */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"
#include "core/policy.h"
#include "data/store/store_stats.h"

typedef struct Store Store;

/* What an import did. */
typedef struct StorePolicyResult {
    const char *format; /* static: "allocations-csv", "carbon-csv", "electricitymaps-csv"... */
    int64_t rows_read, added, updated, unchanged;
} StorePolicyResult;

/* 1 when kind is "allocations", "carbon" or "sites". */
int store_policy_kind(const char *kind);

/* One checked row of an allocations, carbon or sites file, as
 * data/ingest/policy_csv.c reads it: key (group, zone, cluster), num
 * (year, hour), and up to two values; zone for sites. NaN values are
 * empty cells. */
typedef struct StorePolicyRow {
    char *key, *zone;
    int64_t num;
    double a, b;
    int64_t line; /* in the file, for messages */
} StorePolicyRow;

/* Write rows[0..n) of kind ("allocations", "carbon", "sites"), read from
 * path (name as messages show it) in format, in one transaction with its
 * import recorded; an allocation's group must be known. Counts added,
 * updated and unchanged rows in res. 0, or -1 with err (nothing written). */
int store_policy_write(Store *st, const char *kind, const char *path, const char *name,
                       const char *format, const StorePolicyRow *rows, size_t n,
                       StorePolicyResult *res, CpErr *err);

typedef struct StorePolicyData StorePolicyData;

/* Read everything, and the policy.* parameters of scenario (NULL or
 * "base": the defaults). NULL with err on a database error or a stored
 * value out of range. Caller frees with store_policy_free. */
StorePolicyData *store_policy_load(Store *st, const char *scenario, CpErr *err);
void store_policy_free(StorePolicyData *d);

/* Fill in (policy_input_init first) with d's arrays, borrowed until
 * store_policy_free, and stats. */
void store_policy_input(const StorePolicyData *d, const StatsInput *stats, PolicyInput *in);

/* What the dashboard's Usage view shows: energy and carbon of the last two
 * calendar years of the accounting, and the fair-share state, at the end
 * of the accounting, of up to STORE_POLICY_PANEL_GROUPS allocated groups
 * (the most used against their allocation first). */
#define STORE_POLICY_PANEL_GROUPS 6
typedef struct StorePolicyPanel {
    int nyears;
    int year[2];
    double kwh[2], kg[2];
    double measured_pct; /* of GPU-hours, over both years */
    int has_allocations;
    int ngroups;
    struct {
        char name[40];
        double used_pct, factor; /* NaN when the group has no allocation that year */
        int blocked;
    } group[STORE_POLICY_PANEL_GROUPS];
} StorePolicyPanel;

/* Compute the panel (scenario's policy.* parameters; NULL for the base).
 * Reads what store_policy_open loads. 0, or -1 with err. */
int store_policy_panel(Store *st, const char *scenario, StorePolicyPanel *out, CpErr *err);

/* ---- the runs' aggregate (issue 20) ---- */

/* The cells of every attempt for in (its roster, sites and carbon): those
 * stored in policy_agg when they describe the database as it is, else
 * built in one pass over the jobs (8,192 attempts at a time: memory grows
 * with the cells, not the jobs) and stored when the write lock is free at
 * once (*built 1). 0, or -1 with err. Caller frees out with
 * policy_cells_free. */
int store_policy_cells(Store *st, const PolicyInput *in, PolicyCells *out, int *built,
                       CpErr *err);

/* An import keeps them current: store_policy_mark before its first job
 * is written (after store_feed_begin and store_stats_mark, whose
 * store_watch_old it reads), store_policy_extend before its commit,
 * store_policy_mark_done after either (it frees what the mark holds).
 * When the stored cells described the database at the mark and the import
 * only appended attempts, they take the new attempts in: from the
 * import's feed (data/store/store_feed.h: the mark loads the roster, sites and
 * series, and each attempt is added as it is written), or, when the feed
 * could not follow them (an attempt changed after it was handed on), read
 * once more in id order, 8,192 at a time; the same bytes either way. Else
 * they are dropped and the next replay builds them. 0, or -1 with err. */
typedef struct StorePolicyFeed StorePolicyFeed;
typedef struct StorePolicyMark {
    int64_t since_id; /* the highest attempt id before the import */
    int usable;       /* the stored cells were current */
    StorePolicyFeed *feed; /* the feed's sink, or NULL (owned) */
} StorePolicyMark;
int store_policy_mark(Store *st, StorePolicyMark *m, CpErr *err);
int store_policy_extend(Store *st, const StorePolicyMark *m, CpErr *err);
void store_policy_mark_done(StorePolicyMark *m);
/* 1 when store_policy_extend took the attempts from the feed. */
int store_policy_fed(const StorePolicyMark *m);
/* Tests: 0 makes the marks from now on read the attempts back (as when
 * the feed cannot follow them); 1 (the default) feeds them. */
void store_policy_feed_use(int on);

/* Everything policy_energy (what has STORE_POLICY_ENERGY) and
 * policy_fairshare (STORE_POLICY_FAIRSHARE) read, with scenario's
 * parameters (NULL: base), filled into in: the stored data of issue 9,
 * the roster and inventory (have's when given: a load the caller holds,
 * borrowed), the runs' aggregate for energy, and the attempts only where
 * they are still read (the fair-share replay when there are allocations,
 * the shifting of clusters with an hourly series; have's when it holds
 * them), once for both. NULL with err. in is valid until
 * store_policy_close. */
enum { STORE_POLICY_ENERGY = 1, STORE_POLICY_FAIRSHARE = 2 };
typedef struct StorePolicyOpen StorePolicyOpen;
StorePolicyOpen *store_policy_open(Store *st, const char *scenario, unsigned what,
                                   const StoreStatsData *have, PolicyInput *in, CpErr *err);
void store_policy_close(StorePolicyOpen *o);

/* Counts of what is stored (for the dashboard: is there anything). */
size_t store_policy_nallocs(const StorePolicyData *d);

#endif
