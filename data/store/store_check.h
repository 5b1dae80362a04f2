#ifndef STORE_CHECK_H
#define STORE_CHECK_H
/* store_check: `capplan check`: is the database whole, and do the tables
 * kept up to date at import (usage_month, acct_window) still agree with
 * the jobs they summarise? Reads only. */

#include "core/cp.h"

typedef struct Store Store;

/* Each problem found, one line of text (no newline) to say(ctx, line).
 * corrupt is set to 1 when SQLite's integrity check fails (the other
 * checks are then skipped: they would read the damaged pages). Returns the
 * number of problems, or -1 with err when the checks could not run. */
int store_check(Store *st, void (*say)(void *ctx, const char *line), void *ctx, int *corrupt,
                CpErr *err);

/* store_check, or with quick SQLite's quick_check in place of the
 * integrity check (no index cross-check: minutes, not hours, at 10M jobs)
 * and the same totals (one scan of the jobs). */
int store_check_with(Store *st, int quick, void (*say)(void *ctx, const char *line), void *ctx,
                     int *corrupt, CpErr *err);

#endif
