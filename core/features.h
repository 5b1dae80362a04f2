#ifndef FEATURES_H
#define FEATURES_H
/* features: each user's compute pattern over a window, from their jobs,
 * as DESIGN.md "Core model" defines it, and the log-scaling and
 * standardisation that k-means works on.
 *
 * A job counts when it started inside [window start, window end) and ran
 * at least min_run_s (5 minutes by default). Per user:
 *   gpus_p90        GPU-hour-weighted 90th percentile of GPUs per job: the
 *                   smallest width w such that jobs of width <= w hold at
 *                   least 90 % of the user's GPU-hours;
 *   mem_gib         peak GPU memory over the jobs: measured where known,
 *                   else the memory of the GPU model requested (flagged
 *                   FEAT_MEM_REQUESTED); unknown (-1) when neither;
 *   dur_mean_h, dur_max_h   mean and longest run time, hours;
 *   gpu_hours_month GPU-hours / months of the effective window (the window
 *                   cut to start no earlier than the first job counted);
 *   conc_mean       mean concurrent GPUs: GPU-hours / hours of the user's
 *                   span (from the later of the effective window start and
 *                   the user's first job, to the window end; at least 30
 *                   days or the effective window): a full-time equivalent;
 *   conc_peak       peak concurrent GPUs, from a sweep over the jobs'
 *                   start/end intervals (a job ending when another starts
 *                   does not overlap it).
 * Besides: burst_frac, the share of the span spent above
 * conc_mean + (conc_peak - conc_mean) / 2 (a burst: a peak above the
 * user's mean), used for the projection's pool.
 *
 * Pure computation over caller-owned arrays: no I/O, no SQLite. "GPU" is
 * whatever the caller counts (CPUs stand in on a database without GPUs). */

#include <stddef.h>
#include <stdint.h>

enum {
    FEAT_GPUS_P90,
    FEAT_MEM_GIB,
    FEAT_DUR_MEAN_H,
    FEAT_DUR_MAX_H,
    FEAT_GPUH_MONTH,
    FEAT_CONC_MEAN,
    FEAT_CONC_PEAK,
    FEAT_COUNT
};

/* Where a GPU memory figure comes from. */
enum { FEAT_MEM_UNKNOWN = 0, FEAT_MEM_MEASURED = 1, FEAT_MEM_REQUESTED = 2 };

#define FEAT_MONTH_S 2629746.0 /* mean Gregorian month: 365.2425 d / 12 */

/* Stable names ("gpus_p90", ...), as the JSON output uses. Static storage. */
const char *features_name(int f);

/* 40 bytes, no padding (the planner holds one per job of its window, a
 * batch of users at a time: data/plan/plan_build.c). */
typedef struct FeatJob {
    int32_t user;    /* 0..nusers-1 */
    int32_t mem_src; /* FEAT_MEM_* of mem_gib */
    int64_t start;   /* epoch seconds */
    int64_t end;     /* start + run time */
    double gpus;     /* GPUs held (> 0) */
    double mem_gib;  /* peak GPU memory of the job, < 0 unknown */
} FeatJob;

typedef struct FeatOpts {
    int64_t win_start, win_end; /* [start, end) on job start times */
    int64_t min_run_s;          /* shorter jobs are left out (300) */
} FeatOpts;

typedef struct FeatUser {
    double raw[FEAT_COUNT]; /* raw units; raw[FEAT_MEM_GIB] < 0 when unknown */
    int mem_src;            /* FEAT_MEM_* of raw[FEAT_MEM_GIB] */
    int njobs;              /* jobs counted (0: the user has no feature) */
    double gpu_hours;
    double span_h;          /* hours conc_mean is averaged over */
    double burst_frac;      /* 0..1 */
} FeatUser;

/* What features_compute saw overall. */
typedef struct FeatSummary {
    int64_t jobs_used;       /* jobs counted */
    int64_t eff_start;       /* effective window start */
    double months;           /* effective window length, months */
    int users_with_jobs;
} FeatSummary;

/* Features of nusers users from n jobs (borrowed, any order). out has
 * nusers slots (caller-owned); a user without a counted job gets njobs 0
 * and zero features. sum may be NULL. */
void features_compute(const FeatJob *jobs, size_t n, int nusers, const FeatOpts *o,
                      FeatUser *out, FeatSummary *sum);

/* The same for users [lo, hi) alone (0 <= lo <= hi), with the effective
 * window start given (window-wide: from every user's jobs, see
 * features_eff_start), so that the users of a window can be computed a
 * batch at a time in bounded memory: jobs of other users are ignored;
 * out[lo .. hi) filled (out indexed by user id, caller-owned); sum (may be
 * NULL) counts these users' jobs and users, its eff_start and months from
 * the eff_start given. Each user's figures are those features_compute
 * gives from the same jobs in the same relative order. */
void features_compute_users(const FeatJob *jobs, size_t n, int lo, int hi, const FeatOpts *o,
                            int64_t eff_start, FeatUser *out, FeatSummary *sum);

/* The effective window start features_compute finds, from the earliest
 * start of a counted job of any user (INT64_MAX when none counted). */
int64_t features_eff_start(int64_t first_counted, const FeatOpts *o);

/* How raw features map to the standardised ones: z = (log1p(raw) - mean)
 * / sd (population sd); a feature with sd 0 (or unknown for everyone) gets
 * z = 0. A user's unknown memory takes the median log1p(memory) of the
 * users where it is known (imputed[] says so). */
typedef struct FeatScale {
    double mean[FEAT_COUNT], sd[FEAT_COUNT];
    double mem_impute;       /* log1p GiB given to unknown memory */
    int mem_known;           /* users with a known memory */
} FeatScale;

/* Standardise the n users listed in rows (indexes into users) into z
 * (n x FEAT_COUNT, row-major, caller-owned). */
void features_standardize(const FeatUser *users, const int *rows, int n, double *z,
                          FeatScale *sc);

/* Back to raw units: raw = expm1(z * sd + mean) for every feature. */
void features_unscale(const FeatScale *sc, const double *z, double *raw);

/* GPU-hour-weighted quantile q (0..1) of values v with weights w (n > 0):
 * the smallest v such that the weight of values <= v reaches q of the
 * total. Sorts v and w together in place. */
double features_weighted_quantile(double *v, double *w, int n, double q);

/* Percentile q (0..100) of n values with linear interpolation between
 * order statistics (numpy.percentile's default). Reorders v in place (a
 * selection, not a sort: linear time). 0 when n == 0. */
double features_percentile(double *v, int n, double q);

#endif
