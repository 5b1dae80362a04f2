#ifndef STORE_PLAN_INT_H
#define STORE_PLAN_INT_H
/* store_plan_int: what the files of store_plan share and nobody else uses:
 * store_plan.c (these helpers and the small tables), store_plan_runs.c
 * (profile runs), store_plan_scenarios.c (scenarios and their edits),
 * store_plan_jobs.c (the jobs, from the job blocks or the jobs table),
 * store_plan_cache.c and store_plan_cut.c (the planner's caches). Not a
 * public interface. */

#include <sqlite3.h>
#include <stdint.h>

#include "data/store/store_plan.h"

typedef int (*StorePlanRowFn)(sqlite3_stmt *s, void *ctx);

/* Prepare sql into *s (NULL on failure, err "database: what: ..."). */
int store_plan_prep(sqlite3 *db, const char *sql, sqlite3_stmt **s, const char *what, CpErr *err);
/* Step s to its end calling fn on each row (a negative return stops it);
 * finalizes s. */
int store_plan_each_row(sqlite3 *db, sqlite3_stmt *s, StorePlanRowFn fn, void *ctx,
                        const char *what, CpErr *err);
/* Step a statement that returns no row; finalizes it. */
int store_plan_run_done(sqlite3 *db, sqlite3_stmt *s, const char *what, CpErr *err);
/* sqlite3_exec(sql); err "database: ..." on failure. */
int store_plan_exec(sqlite3 *db, const char *sql, CpErr *err);
/* A "YYYY-MM-DD" column as epoch seconds; STORE_PLAN_NO_DATE when NULL or bad. */
int64_t store_plan_col_date(sqlite3_stmt *s, int i);
/* Bind t (copied), or NULL when t is NULL. */
void store_plan_bind_text_or_null(sqlite3_stmt *s, int i, const char *t);
/* Bind v, or NULL when v is NaN. */
void store_plan_bind_real_or_null(sqlite3_stmt *s, int i, double v);
/* The first column of sql's first row (?1 = arg when sql has a
 * parameter); 0 when NULL or no row. */
int store_plan_scalar_int(sqlite3 *db, const char *sql, int64_t arg, int64_t *out,
                          const char *what, CpErr *err);
/* A connection of its own on the database's file in a write transaction
 * begun at once (store_plan_cache.c): NULL when the database is in memory,
 * not ours to write, or locked elsewhere (nothing waits). End it with
 * store_plan_side_end (ok: commit, else roll back), which closes it. */
sqlite3 *store_plan_side_begin(Store *st);
void store_plan_side_end(sqlite3 *db, int ok);

#endif
