#ifndef FAIRSHARE_H
#define FAIRSHARE_H
/* fairshare: replay of the real usage history under an allocation policy
 * in the style of IDRIS Jean Zay (GENCI): each group has a yearly
 * allocation of GPU-hours, may consume up to a ceiling (125 %) of it and
 * is blocked beyond; a fair-share factor ranks groups by their recent
 * usage, decayed with a half-life (14 days), against their share of the
 * allocations.
 *
 * The factor is Slurm's classic one (priority/multifactor, "fair-share
 * factor" in Slurm's priority_multifactor documentation):
 *     F = 2^(-U/S)
 * U the group's decayed usage over the decayed usage of every allocated
 * group, S its allocation over the sum of that year's allocations; a past
 * GPU-hour weighs 2^(-age/half_life). F = 1 for a group that used nothing
 * recently, 0.5 for one that used exactly its share, near 0 for one far
 * above it. A job priority is then w_fairshare x F + w_allocation x (the
 * share of its allocation still unused, 0..1).
 *
 * The replay charges a job's GPU-hours to the year of its start, at its
 * start: a job that starts when its group has used the ceiling is lost
 * whole; one that crosses the ceiling runs until the ceiling and loses the
 * rest (the group is blocked from that moment to the end of the year).
 * Groups without an allocation for a year are not regulated that year.
 *
 * Pure computation over plain arrays: no I/O, no SQLite, no curses. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"

#define FS_DAY 86400

typedef struct FsParams {
    double ceiling;        /* share of the allocation a group may use (1.25) */
    double half_life_days; /* of the decayed usage (14) */
    double w_fairshare;    /* priority weight of the fair-share factor (1000) */
    double w_allocation;   /* priority weight of the allocation left (0) */
} FsParams;

/* The defaults: 1.25, 14 days, 1000, 0. */
void fairshare_params_default(FsParams *p);

/* Set one parameter by scenario key: "policy.ceiling" (>= 1),
 * "policy.half_life_days" (> 0), "policy.w_fairshare", "policy.w_allocation"
 * (>= 0). 0, or -1 with err on an unknown key or a value out of range.
 * p may be NULL (validation only). */
int fairshare_param_set(FsParams *p, const char *key, double value, CpErr *err);
/* 1 when key names a policy parameter ("policy." prefix), else 0. */
int fairshare_key_is_policy(const char *key);

/* The weight of usage age_s seconds old: 2^(-age/half_life). */
double fairshare_decay(double age_s, double half_life_s);
/* Slurm's factor 2^(-U/S); 1 when U is 0, 0 when S is 0 and U > 0, NaN
 * when both are 0. */
double fairshare_factor(double usage_share, double alloc_share);

/* One job to replay: group index (0..ngroups), start (epoch s), GPUs held
 * and run time in seconds. */
typedef struct FsJob {
    int32_t group;
    int64_t start;
    double gpus;
    double run_s;
} FsJob;

/* An allocation: group index, calendar year (UTC), GPU-hours. */
typedef struct FsAlloc {
    int32_t group;
    int32_t year;
    double gpu_hours;
} FsAlloc;

/* What a group's replay summed to. */
typedef struct FsGroupSum {
    double allocated;       /* over the years of the replay */
    double used;            /* GPU-hours it really used */
    double used_allocated;  /* ... in the years it had an allocation */
    double replayed;        /* what the policy would have let it use */
    double lost;            /* used - replayed */
    int64_t first_blocked;  /* first moment blocked, INT64_MIN never */
    double days_blocked;    /* days spent blocked */
    double factor;          /* fair-share factor at the end */
} FsGroupSum;

/* A moment a group hits the ceiling. */
typedef struct FsBlock {
    int32_t group, year;
    int64_t at;
    double lost; /* GPU-hours lost in that year */
} FsBlock;

/* The replay on a daily grid: day d covers [t0 + d x FS_DAY, +FS_DAY).
 * Per group and day (index g * ndays + d), values at the end of day d. */
typedef struct FsResult {
    int32_t ngroups;
    size_t ndays;
    int64_t t0;
    double *alloc;        /* the year's allocation, NaN when none */
    double *used_year;    /* GPU-hours used in the year so far (real) */
    double *replay_year;  /* ... as replayed */
    double *lost_day;     /* GPU-hours lost to the ceiling that day */
    double *factor;       /* fair-share factor, NaN when not allocated */
    unsigned char *blocked; /* 1 when blocked at the end of the day */
    double *machine_used;   /* per day: GPU-hours really used (pro rata) */
    double *machine_replay; /* per day: ... as replayed */
    FsGroupSum *sum;        /* per group */
    FsBlock *blocks;
    size_t nblocks;
} FsResult;

/* Replay jobs (any order) against allocs. Fills r (caller frees with
 * fairshare_result_free). Days run from the first start's UTC midnight to
 * the last end. Nothing to replay (no jobs) gives ndays 0. */
void fairshare_replay(const FsParams *p, int32_t ngroups, const FsJob *jobs, size_t njobs,
                      const FsAlloc *allocs, size_t nallocs, FsResult *r);
void fairshare_result_free(FsResult *r);

/* The calendar year (UTC) of an epoch second, and the epoch second at
 * which a year starts. */
int32_t fairshare_year_of(int64_t t);
int64_t fairshare_year_start(int32_t year);

#endif
