#ifndef SIMULATE_NEXT_H
#define SIMULATE_NEXT_H
/* simulate_next: next year's queue on today's fleet and on purchases from
 * the catalog, and the cheapest purchase that meets a service target.
 *
 * Next year starts on the day after the last recorded submit (UTC) and
 * lasts 12 months; the last year is the 12 months before it. Next year's jobs: each group's (account's) jobs of
 * the last year resampled to the forecaster's expected use of year 1 for
 * it (data/plan: plan_build, plan_params, projection_run; the factor is
 * expected use over the GPU-eq its jobs used last year) by
 * core/sim_resample, SIMULATE_REPLICAS replicas with fixed seeds. The
 * fleet: the inventory's pools still in service at next year's start (or
 * later), plus a purchase: COUNT GPUs of one catalog model (the imported
 * catalog, else the reference one: a model outside it is never bought) on
 * the clusters in proportion to the GPU-hours their jobs queued without
 * one (largest remainders), arriving at the start of a quarter. The target: next year's p90 wait (median over replicas)
 * no worse than the last year's recorded p90, or a given number of hours.
 * The purchase: the cheapest (by price; models without one only when no
 * priced model meets it) in steps of SIMULATE_STEP GPUs, arriving in the
 * latest quarter that still meets the target. When the last year's waits
 * are policy (simulate_replay), no purchase is recommended. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"
#include "data/plan/simulate.h"
#include "data/store/store_catalog.h" /* CatalogGpu */

#define SIMULATE_REPLICAS 5
#define SIMULATE_STEP 4       /* GPUs: purchases come in nodes of 4 */
#define SIMULATE_MAX_GPUS 512 /* the largest purchase tried */
#define SIMULATE_CURVE 6      /* points of the capacity curve */
#define SIMULATE_SEED 33
#define SIMULATE_KEEP_BYTES (64.0 * 1024 * 1024) /* every replica kept in memory up to this */

typedef struct SimBand {
    double lo, mid, hi; /* over the replicas: lowest, median, highest */
} SimBand;

typedef struct SimFleetWaits {
    SimBand p50, p90, mean; /* hours, jobs submitted next year */
} SimFleetWaits;

typedef struct SimCurvePt {
    int count;         /* GPUs of the curve's model added */
    double gpu_eq;     /* count x speed */
    SimFleetWaits w;
} SimCurvePt;

#define SIMULATE_MAX_SPLIT 8 /* clusters a purchase is spread over */

typedef struct SimPurchase {
    int found;             /* 0: nothing in the catalog meets the target (or none needed) */
    char model[65];
    int nsplit;            /* clusters with a share of the GPUs */
    char split_cluster[SIMULATE_MAX_SPLIT][64];
    int split_count[SIMULATE_MAX_SPLIT];
    char currency[4];
    int count, quarter;    /* quarter 1..4 of next year */
    int64_t arrives;       /* epoch s */
    double mem_gib, speed, gpu_eq, price, cost, kw; /* price, cost -1 unknown; kw -1 unknown */
    SimFleetWaits w;
} SimPurchase;

/* Past this many jobs drawn for next year (replica 1) simulate_next stops
 * with an error instead of simulating. The backfill tries SIM_BF_DEPTH jobs
 * per event (it scanned the whole queue before: a 100k-job bench database
 * that drew 513k jobs took over 5 minutes), so time grows with the jobs,
 * not jobs x queue; memory is about 200 bytes a job drawn (894k jobs
 * drawn from the 1M-a-year bench database: 195 MB peak, 7.9 s CPU for 6
 * fleets; docs/simulate.md). The cap keeps a database far past that
 * scale from taking minutes and gigabytes. SIMULATE_MAX_JOBS is what
 * `capplan simulate` runs; SIMULATE_EMBED_MAX_JOBS what simulate_next runs
 * for callers that simulate on the way to something else (the report's
 * decision page, the dashboard): seconds there would slow every export
 * (a 100k-job bench database's export: 1.0 s refusing, 20.8 s simulating
 * its 472k jobs). */
#define SIMULATE_MAX_JOBS 1200000
#define SIMULATE_EMBED_MAX_JOBS 400000

typedef struct SimNextOpts {
    double target_h;       /* <= 0: the last year's recorded p90 */
    const char *scenario;  /* NULL: base */
    const CatalogGpu *catalog; /* what a purchase is chosen from (borrowed): the
                                  caller's catalog_effective (data/ingest/catalog.h) */
    size_t ncatalog;
    int builtin_catalog;   /* the catalog is the reference one shipped with capplan */
} SimNextOpts;

typedef struct SimNext {
    int64_t last_from, from, to; /* the last year [last_from, from), next [from, to) */
    int cpu;                     /* processors: no purchase from the GPU catalog */
    int policy;                  /* the last year's waits are policy */
    double idle_share;           /* of the last year's recorded waiting */
    SimWaits last;               /* recorded, the last year */
    SimWaits last_sim, last_plus10; /* the last year replayed; with every pool +10 % */
    double target_h;
    int target_given;
    double use_last, use_next;   /* GPU-eq: the jobs' last year, the forecaster's next */
    double new_use;              /* expected use of groups with no job last year: not drawn */
    size_t jobs_next;            /* next year's jobs, replica 1 */
    SimFleetWaits nothing;
    int meets_nothing;           /* buying nothing meets the target */
    SimPurchase buy;
    SimCurvePt curve[SIMULATE_CURVE];
    int ncurve;
    char curve_model[65];
    int builtin_catalog;
    int fleets;                  /* fleets simulated (each SIMULATE_REPLICAS times or once) */
    size_t bf_depth;             /* the backfill depth simulated (0: the whole queue) */
    int fairshare;               /* the queue in fair-share order (else FCFS) */
    double seconds;
} SimNext;

/* Simulate next year and search the purchase (up to SIMULATE_EMBED_MAX_JOBS
 * jobs drawn). 0, or -1 with err. */
int simulate_next(Store *st, const SimNextOpts *o, SimNext *out, CpErr *err);
/* The same with backfill depth bf_depth (as simulate_bf_depth takes it),
 * up to max_jobs jobs drawn (SIMULATE_MAX_JOBS for `capplan simulate`),
 * in queue order order (SIMULATE_ORDER_*; simulate_next: FCFS). */
int simulate_next_run(Store *st, const SimNextOpts *o, size_t bf_depth, size_t max_jobs,
                      int order, SimNext *out, CpErr *err);

#endif
