#ifndef SIM_H
#define SIM_H
/* sim: a trace-driven simulation of a batch queue. Jobs (submit time,
 * units: GPUs, or processors for a CPU-only log; GPU memory needed;
 * runtime; time limit; group; cluster) are placed on a fleet of pools
 * (one GPU model, or the processors, on one cluster, with its memory,
 * relative speed and dates in service) by FCFS with EASY backfill on the
 * time limit, one queue per cluster. Pure computation: no I/O.
 *
 * The rules (tests/sim_ref.py implements the same ones independently):
 * - Order: submit time, then the order of the input array.
 * - A job runs whole on one pool of its cluster that is in service
 *   (from <= t < to) and has at least its memory (memory classes nest: a
 *   20 GiB job runs on an 80 GiB GPU); a job pinned to a GPU model
 *   (SimHow.pin) only on that model's pools (core/sim_place.h). Among the
 *   pools where it fits now it takes the smallest memory, then the
 *   fastest, then the first.
 * - Runtime rule: the work is the recorded runtime on a GPU of the
 *   recorded speed (ref_speed); on a pool of speed s it takes
 *   floor(runtime * ref_speed / s + 0.5) seconds.
 * - The scheduler knows est = max(time limit, that runtime) (the runtime
 *   itself when the limit is unknown, <= 0); jobs never run past est.
 * - Each event time (submits, ends, pools entering service): ends free
 *   their units, submits join the queue, then the queue head starts while
 *   it fits; the first that does not gets a reservation on the pool where
 *   enough units free up earliest by the running jobs' est ends (ties:
 *   smallest memory, fastest, first; a pool leaving service by then is
 *   not used), and every later job starts in queue order if it fits now
 *   and either runs on another pool, ends (by est) by the reservation, or
 *   fits in the units the reservation leaves spare (EASY). A head that
 *   no pool in service can ever hold reserves nothing and blocks nothing.
 * - Backfill depth (Slurm's bf_max_job_test): at each event only the
 *   first SIM_BF_DEPTH jobs behind the head, in queue order, are tried
 *   for backfill (those that start or not alike); the rest wait. The
 *   queue is a linked list: a start unlinks one job, nothing shifts.
 * - A job no pool of its cluster can ever hold (too many units or too
 *   much memory) is not placed: start SIM_NEVER, counted apart.
 * - Tiers (SimHow.tier): the queue is ordered by the job's tier first
 *   (0 before 1 ...), then as below (submit time, or fair share); the
 *   head, reservation and depth walk follow that order.
 * - Fair share (sim_run_fair, #33): the queue order is instead, at each
 *   event, Slurm's fair-share factor 2^(-U/S) of the job's group (highest
 *   first), then submit time, then the input order; the rest as above
 *   (the head, its reservation, the depth walk in that order). U is the
 *   group's usage on this cluster, GPU-seconds (or processor-seconds) each
 *   weighed 2^(-age/half_life), charged as the jobs run (a running job's
 *   seconds so far count); S its share for the year of the event. Since
 *   the factor falls as U/S rises, groups are ranked by U/S (smallest
 *   first; S 0 ranks a group with usage last, one without first). The
 *   ranks are computed once per event, before any job starts; usage is
 *   kept scaled by 2^((t - t0)/half_life), t0 the cluster's first submit
 *   (pow(2, x) in double; spans under about 1000 half-lives), and the
 *   jobs ending at one time are charged in input order. The queue is one
 *   FIFO list per group, merged by rank through a small heap. */

#include <stddef.h>
#include <stdint.h>

#define SIM_NEVER INT64_MAX
#define SIM_OPEN INT64_MAX /* a pool still in service */
#define SIM_BF_DEPTH 100   /* jobs behind the head tried for backfill per event */

typedef struct SimJob {
    int64_t submit;    /* epoch s */
    int64_t runtime;   /* s, as recorded */
    int64_t limit;     /* s, the time limit; <= 0 unknown */
    int64_t rec_start; /* epoch s the recorded start, SIM_NEVER unknown */
    double ref_speed;  /* relative speed of the GPU it was recorded on (1: unknown) */
    double mem_gib;    /* GPU memory needed, 0: any */
    int32_t units;     /* GPUs (or processors) */
    int32_t group;     /* caller's index */
    int32_t cluster;   /* caller's index */
    int32_t rec_pool;  /* the pool it was recorded on, -1 unknown (sim_idle) */
} SimJob;

typedef struct SimPool {
    int64_t from, to;  /* in service [from, to); to SIM_OPEN: still */
    double mem_gib;    /* per GPU */
    double speed;      /* relative speed (> 0) */
    int32_t units;     /* GPUs (or processors) */
    int32_t cluster;
    int32_t model;     /* the GPU model's caller's number (> 0), 0 none */
} SimPool;

/* What happened to each job: parallel to the input array. */
typedef struct SimOut {
    int64_t *start;    /* epoch s, SIM_NEVER never placed */
    int64_t *end;      /* epoch s */
    int32_t *pool;     /* index into the pools, -1 never placed */
    size_t unplaced;   /* jobs no pool could ever hold */
    size_t n;
} SimOut;

/* Simulate jobs[0..n) on pools[0..np) (n < 2^32 - 1). Fills out (arrays
 * allocated here, caller frees with sim_out_free). Jobs need not be
 * sorted. */
void sim_run(const SimJob *jobs, size_t n, const SimPool *pools, size_t np, SimOut *out);
/* The same with another backfill depth (0: the whole queue). */
void sim_run_depth(const SimJob *jobs, size_t n, const SimPool *pools, size_t np, size_t depth,
                   SimOut *out);
void sim_out_free(SimOut *out);

/* The fair-share order's inputs: each group's share of the capacity per
 * calendar year (UTC) y0 .. y0 + nyears - 1, share[g * nyears + y - y0]
 * (an event outside those years takes the nearest), and the half-life of
 * usage in seconds (> 0). Borrowed. */
typedef struct SimFair {
    int32_t ngroups;  /* jobs' groups are 0 .. ngroups - 1 */
    int32_t y0, nyears;
    const double *share;
    double half_life_s;
} SimFair;

/* sim_run_depth in fair-share order (fair NULL: FCFS, the same as
 * sim_run_depth). */
void sim_run_fair(const SimJob *jobs, size_t n, const SimPool *pools, size_t np, size_t depth,
                  const SimFair *fair, SimOut *out);

/* How to run: the backfill depth (0: all), the order (fair NULL: FCFS),
 * the placement: pin[i] > 0 keeps job i on the pools of that model
 * (SimPool.model), 0 lets it use any; pin NULL pins none; and partition
 * priority tiers: tier[i] (0 the highest) orders the queue before fair
 * share or submit time (Slurm's PriorityTier). Per-job arrays beside
 * SimJob, not in it: next year's millions of drawn jobs carry neither.
 * Borrowed. */
typedef struct SimHow {
    size_t depth;
    const SimFair *fair;
    const int32_t *pin;
    const int32_t *tier; /* per job 0 .. ntiers - 1, 0 first; NULL: one tier */
    int32_t ntiers;
} SimHow;

/* sim_run_fair with a placement. */
void sim_run_how(const SimJob *jobs, size_t n, const SimPool *pools, size_t np, const SimHow *how,
                 SimOut *out);

/* The runtime of job j on pool p by the rule above. */
int64_t sim_runtime_on(const SimJob *j, const SimPool *p);

#endif
