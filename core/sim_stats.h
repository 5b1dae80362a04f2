#ifndef SIM_STATS_H
#define SIM_STATS_H
/* sim_stats: what a simulation (core/sim) or the record did to waiting,
 * per month of submission (months since 1970-01, UTC), group and memory
 * class; the share of recorded waiting during which a pool the job could
 * use stood idle; the recorded fleet's peak. Pure computation. */

#include <stddef.h>
#include <stdint.h>

#include "core/sim.h"

#define SIM_WAIT_CAP_S (2 * 86400) /* the capped mean caps each wait at 2 days */
#define SIM_NCLASS 4               /* memory classes: <=24, <=48, <=80, more GiB */

/* The memory class of a job needing mem GiB (0..SIM_NCLASS-1). */
int sim_mem_class(double mem_gib);
/* "<=24 GiB", "<=48 GiB", "<=80 GiB", ">80 GiB". */
const char *sim_class_name(int c);

typedef struct SimWaits {
    size_t n;
    double p50_h, p90_h;  /* nearest rank */
    double mean_h;        /* uncapped */
    double mean_cap_h;    /* each wait capped at 2 days */
} SimWaits;

/* Waits wait_s[0..n) (seconds; the array is sorted in place). */
void sim_waits(int64_t *wait_s, size_t n, SimWaits *w);

/* One month: waits simulated and recorded (jobs with both known), the
 * capacity and busy unit-hours in the month as simulated, the idle share. */
typedef struct SimMonth {
    int32_t month;           /* months since 1970-01 */
    SimWaits sim, rec;
    double cap_h, busy_h;    /* unit-hours; busy / cap is the utilisation */
    double wait_h, idle_wait_h; /* recorded waiting; of it, while a usable pool stood idle */
} SimMonth;

/* One (month, group, memory class) cell of the simulation. */
typedef struct SimCell {
    int32_t month, group, mclass;
    SimWaits sim;
    double run_h;     /* unit-hours of the cell's jobs (as run) */
    double queued_h;  /* unit-hours spent waiting: units x wait */
    double left_h;    /* unit-hours of work not started by the window's end */
    double wait_h, idle_wait_h; /* recorded, as in SimMonth */
} SimCell;

typedef struct SimSummary {
    SimMonth *months;
    size_t nmonths;
    SimCell *cells;   /* by month, group, class */
    size_t ncells;
    SimWaits sim, rec; /* the whole window */
    double wait_h, idle_wait_h;
    double corr;      /* Pearson correlation of monthly mean (capped) waits, simulated vs
                         recorded, the first month dropped; NAN when under 3 months */
} SimSummary;

/* Summarise jobs submitted in [from, to) (epoch s): out from sim_run on
 * pools; idle_s per job from sim_idle (NULL: no idle share). Caller frees
 * with sim_summary_free. */
void sim_summarise(const SimJob *jobs, size_t n, const SimOut *out, const SimPool *pools,
                   size_t np, const double *idle_s, int64_t from, int64_t to, SimSummary *sum);
void sim_summary_free(SimSummary *sum);

/* Per job, the seconds of its recorded wait (submit to rec_start) during
 * which, by the recorded submits, starts and runtimes, some in-service pool
 * of its cluster the job may use (enough memory; of its model when pin[i]
 * > 0, core/sim_place.h; pin NULL pins none) had at least its units idle
 * and the cluster's idle units were enough to start every job then waiting
 * there (so that no queue order explains the wait: policy does; a job with
 * rec_pool -1 counts on the first pool that could hold it). Caller frees
 * the array (n entries; 0 for a job without a recorded wait). */
double *sim_idle(const SimJob *jobs, size_t n, const SimPool *pools, size_t np,
                 const int32_t *pin);

/* The most units of cluster c busy at once by the recorded starts and
 * runtimes: the recorded fleet of a log that names none. */
int32_t sim_peak_units(const SimJob *jobs, size_t n, int32_t cluster);

/* Months since 1970-01 of epoch second t (UTC). */
int32_t sim_month(int64_t t);

#endif
