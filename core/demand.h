#ifndef DEMAND_H
#define DEMAND_H
/* demand: what model v2 measures from the job history as known at a cut
 * t0 (DESIGN.md "Core model", docs/planning.md): each user's own
 * exponentially weighted rate of use, each group's head count, growth,
 * newcomers' rate and first-year ramp, its exploration/HPO burst curve and
 * pool, the institute's intensity trend and shared pool; and, for a
 * backtest, what each group really used in the 12 months after t0.
 *
 * Units: GPU-eq, i.e. GPUs x the relative speed of the model a job ran on
 * (reference model = 1.0), as mean concurrent GPU-eq over a period
 * (GPU-eq-hours / hours of the period). With CPUs standing in, CPUs.
 *
 * Only what was known at t0 is used: a job counts for the part of its run
 * before t0 (its burst curve from its eligible time); nothing after t0
 * is read except by demand_actual. Pure computation over caller-owned
 * arrays: no I/O, no SQLite. */

#include <stddef.h>
#include <stdint.h>

#define DEM_NHALF 4           /* half-lives tried: 1, 3, 6, 12 months */
#define DEM_WINDOW 12         /* months of the window */
#define DEM_HISTORY 24        /* months read before t0 (window + the one before) */
#define DEM_GROWTH_CAP 1.0    /* head growth capped at +-100 %/yr */
#define DEM_GROWTH_SHRINK 10  /* heads of prior weight toward 0 (a group's growth) */
#define DEM_INTENSITY_CAP 0.2 /* intensity trend capped at +-20 %/yr */
#define DEM_INTENSITY_DAMP 0.0 /* measured and shown, not applied: damped 0.5 it made the
                                  demo's backtest worse; OSC has no complete year to measure
                                  it (docs/planning.md) */
#define DEM_POOL_Q 90.0 /* the pool: this percentile of the burst curve */
#define DEM_MATURE_MONTHS 3 /* a member's first months, below their later use: 2, 3, 6 tried */
#define DEM_MATURE_AFTER 6  /* months after them an arrival needs to measure maturation */
#define DEM_MATURE_MIN 10   /* arrivals needed to measure it */

/* The half-lives (months) demand_fit weighs with: {1, 3, 6, 12}. */
extern const double dem_halflives[DEM_NHALF];
/* Index in dem_halflives of h months, -1 when not one of them. */
int demand_half_index(double h);

/* One job of the history: user and group are indexes (group: the job's
 * group, from the roster else its account), times in epoch seconds (end =
 * start + run time; elig its eligible time, else its submit, else start),
 * eq its GPUs x relative speed. */
typedef struct DemJob {
    int32_t user, group;
    int64_t elig, start, end;
    double eq;
} DemJob;

/* A row of the GPU inventory: gpus of relative speed `speed` in service
 * [from, to) (to INT64_MAX: still). */
typedef struct DemGpus {
    int64_t from, to;
    double gpus, speed;
} DemGpus;

typedef struct DemHist {
    const DemJob *jobs;
    size_t njobs;
    int nusers, ngroups;
    int64_t data_start; /* the earliest start in the history */
    /* The fleet (NULL, 0: none, e.g. CPUs): past use is re-priced at the
     * fleet in service at the cut. A month's use x F(t0) / F(month), F the
     * mean relative speed of a GPU in service (GPU-eq capacity / GPUs, the
     * month's time-weighted mean; at t0 the rows in service then). */
    const DemGpus *fleet;
    int nfleet;
    /* Optional (NULL: every job is visited): per span of DEM_SPAN jobs k,
     * span_end[k] the latest end (or end of the run placed at its eligible
     * time) of jobs [0, (k + 1) DEM_SPAN), span_start[k] the earliest start
     * of jobs [k DEM_SPAN, njobs) (demand_spans). A pass over [a, b) then
     * visits only the spans that may hold a job running in it: in rowid
     * order, nearly time order, that is a contiguous stretch, and the sums
     * keep their order (the same figures to the bit). */
    const int64_t *span_end, *span_start;
} DemHist;

#define DEM_SPAN 4096
/* Spans of njobs jobs. */
size_t demand_nspans(size_t njobs);
/* Fill end[demand_nspans] and start[demand_nspans] for h->jobs (above). */
void demand_spans(const DemHist *h, int64_t *end, int64_t *start);

/* The months of a fit: mb[0..DEM_HISTORY] month boundaries, mb[DEM_HISTORY]
 * == t0, mb[DEM_HISTORY - DEM_WINDOW] the window's start. */
typedef struct DemCut {
    int64_t mb[DEM_HISTORY + 1];
    const int64_t *leaves; /* nusers: roster end date, INT64_MAX none */
    const int *on_roster;  /* nusers: 1 when the user is on the roster */
} DemCut;

/* One user active in the window (use > 0 in its 12 months). */
typedef struct DemUser {
    int user, group;          /* group: where most of their window use went */
    double rate[DEM_NHALF];   /* own rate, GPU-eq, per half-life */
    double used;              /* mean GPU-eq over the window (unweighted; at t0's fleet) */
    int first_month;          /* 0..DEM_HISTORY-1: first month with use */
    int newcomer;             /* first use in the window, none the year before (complete) */
    int matured;              /* arrived in the last DEM_MATURE_MONTHS months: rate x
                                 their group's mature_factor */
} DemUser;

typedef struct DemGroup {
    double heads, heads_before; /* active users in the window, in the year before */
    double heads_h1, heads_h2;  /* active in the window's first and second halves */
    double used, used_before;   /* mean GPU-eq over the window, the year before (as used) */
    double growth, growth_raw;  /* heads a year, shrunk and capped; as measured (NAN none) */
    int growth_capped;
    double newrate;             /* a newcomer's first-year rate (GPU-eq) */
    double ramp;                /* newcomers' first year / the group's members' mean */
    double burst_mean, pool;    /* mean and q90 of the burst curve above the baseline */
    double mature_factor;       /* what the group's recent arrivals' rates are multiplied by
                                   together: the maturation, capped so that they reach at
                                   most a member's mean use each (1: none, or not above
                                   their own) (issue 28) */
    int mature_n;               /* the recent arrivals it applies to */
    double churn;               /* yearly share of the active members with no known leave date
                                   who left, measured before the fit's date (core/leavers.h;
                                   set by the planner's history, 0: none measured) (issue 28) */
} DemGroup;

typedef struct DemFit {
    int complete;          /* the year before the window is fully in the data */
    int window_complete;   /* the window is fully in the data */
    int khalf;             /* no complete year before: growth compares the last khalf
                              months with the khalf before (3..6; 0 none) */
    DemUser *users;        /* nactive, owned */
    int nactive;
    DemGroup *groups;      /* ngroups, owned */
    int ngroups;
    double growth, intensity, intensity_raw; /* institute */
    int intensity_capped;
    double newrate, ramp;                    /* institute */
    double pool_inst, pool_sum;              /* q90 of the summed burst curves; sum of pools */
    double fleet_now;      /* F at t0: GPU-eq per GPU of the fleet in service (0: no fleet) */
    double fleet_window;   /* F over the window (time-weighted mean; 0: no fleet) */
    double maturation;     /* arrivals' use after their first DEM_MATURE_MONTHS / in them
                              (1: fewer than DEM_MATURE_MIN arrivals to measure it) */
    double window_cover;   /* the share of the window's time the data covers: 1 when
                              window_complete, else (t0 - data_start) / the window (issue 30:
                              "used now" is the mean over what was measured) */
} DemFit;

/* Measure everything at cut c over h (pools only when pools: they cost an
 * hourly curve per group). Rates, trends, newcomers and pools are at the
 * fleet of t0 (DemHist.fleet); DemGroup.used/used_before stay as used.
 * out is filled; free with demand_fit_done. */
void demand_fit(const DemHist *h, const DemCut *c, int pools, DemFit *out);
void demand_fit_done(DemFit *f);
/* f as demand_fit gives it over a history of ngroups groups (> f->ngroups)
 * whose groups from f->ngroups on hold no job before the cut (issue 31: a
 * kept fit when new groups appear later): their heads and use 0, growth 0
 * (raw NAN), the newcomers' rate and ramp, the maturation factor and pools
 * an empty group gets, to the bit. The churn is the caller's (0). */
void demand_fit_widen(DemFit *f, int ngroups);

/* The same fit fed with the jobs instead of reading h->jobs: new (h's
 * users, groups and fleet; not its jobs), then feed every job that may run
 * in the cut's 24 months, in the order demand_fit would read them (a job
 * that does not is skipped, as demand_fit skips it), then end (h's
 * data_start), which fills out and frees d. The same figures to the bit. */
typedef struct DemFeed DemFeed;
DemFeed *demand_feed_new(const DemHist *h, const DemCut *c, int pools);
/* What a fed fit holds at most: per user (*per_user, from its first month
 * on) and its hourly curves (*curves, from its window's first job on; 0
 * without pools), for h's users and groups. */
void demand_feed_bytes(const DemHist *h, int pools, size_t *per_user, size_t *curves);
void demand_feed(DemFeed *d, const DemJob *jobs, size_t n);
void demand_feed_end(DemFeed *d, const DemHist *h, DemFit *out);

/* Mean GPU-eq each group used over [from, to) (jobs' runs clipped to it),
 * into actual[ngroups]. */
void demand_actual(const DemHist *h, int64_t from, int64_t to, double *actual);
/* The same, fed: add the use of jobs[0..n) (in order) to actual[ngroups]. */
void demand_actual_add(const DemJob *jobs, size_t n, int ngroups, int64_t from, int64_t to,
                       double *actual);

#endif
