#ifndef POLICY_H
#define POLICY_H
/* policy: `capplan stats fairshare` and `capplan stats energy` (and the
 * dashboard's and the report's policy panels): it ties the job attempts
 * that core/stats reads (StatsInput) to the allocations, sites and carbon
 * series of issue 9, runs core/fairshare and core/energy over them, and
 * lays the results out as StatsReport tables (freed with
 * stats_report_free), so that the command line prints them as it prints
 * every other kind.
 *
 * Conventions are core/stats.h's: a job's group is the roster line in
 * force at its start (else its account), its domain the line's (else the
 * group's); --group and --cluster keep that group's or cluster's jobs.
 * Every attempt that ran counts (a preempted run drew power too); a run is
 * charged to the period of its start.
 *
 * Pure computation: no I/O, no SQLite, no curses. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"
#include "core/fairshare.h"
#include "core/stats.h"

/* A site: a cluster's PUE (NaN: the default), carbon zone (NULL) and
 * constant intensity (NaN). */
typedef struct PolicySite {
    const char *cluster, *zone;
    double pue, intensity;
} PolicySite;

typedef struct PolicyAlloc {
    const char *group;
    int32_t year;
    double gpu_hours;
} PolicyAlloc;

/* One hour of a zone's series (any order). */
typedef struct PolicyCarbon {
    const char *zone;
    int64_t hour;
    double g_per_kwh;
} PolicyCarbon;

/* An inventory row's TDP (rows without tdp_w are left out). */
typedef struct PolicyTdp {
    const char *cluster, *gpu_model;
    double tdp_w;
} PolicyTdp;

/* Everything borrowed. */
typedef struct PolicyInput {
    const StatsInput *stats; /* jobs, roster, inventory */
    const PolicyAlloc *allocs;
    size_t nallocs;
    const PolicySite *sites;
    size_t nsites;
    const PolicyCarbon *carbon;
    size_t ncarbon;
    const PolicyTdp *tdp;
    size_t ntdp;
    FsParams params;
    int shift_delay_h; /* ENERGY_SHIFT_DELAY_H by default */
    /* The projected demand of a scenario (GPUs per year), may be empty. */
    const double *proj_gpus;
    const int32_t *proj_year;
    size_t nproj;
    const char *scenario; /* its name, for the table's note; may be NULL */
} PolicyInput;

/* 1 when key is a scenario key of this module: "policy.*" (see
 * fairshare_param_set) or "energy.shift_delay_h" (0..168 hours). */
int policy_key_known(const char *key);
/* Set one such key in in (NULL: check only). 0, or -1 with err on an
 * unknown key or a value out of range. */
int policy_param_set(PolicyInput *in, const char *key, double value, CpErr *err);

/* Fill in with defaults (params, delay) and nothing else. */
void policy_input_init(PolicyInput *in);

/* Tables of `stats fairshare`: groups, series, blocks, machine. 0, or -1
 * with err when nothing is allocated or o's group/cluster is unknown.
 * Caller frees out with stats_report_free either way. o->kind is ignored. */
int policy_fairshare(const PolicyInput *in, const StatsOpts *o, StatsReport *out, CpErr *err);

/* Tables of `stats energy`: energy (per period), groups, domains, clusters
 * (PUE, intensity and TDP basis), shifting, and projection (when the input
 * has one). Same contract. */
int policy_energy(const PolicyInput *in, const StatsOpts *o, StatsReport *out, CpErr *err);

#endif
