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

/* An inventory row's relative speed (rows without one are left out):
 * the projection's GPU-eq become physical GPUs (GPU-eq / speed). */
typedef struct PolicySpeed {
    const char *cluster, *gpu_model;
    double speed;
} PolicySpeed;

/* An inventory row's TDP (rows without tdp_w are left out). */
typedef struct PolicyTdp {
    const char *cluster, *gpu_model;
    double tdp_w;
} PolicyTdp;

/* ---- the runs' aggregate (issue 20) ----
 *
 * What `stats energy` reads instead of the attempts: the attempts that ran
 * on GPUs summed per cell (month of their start, group and domain as
 * above, cluster, partition, GPU type). Its size grows with months,
 * groups, partitions and types, never with the number of jobs. The sums
 * are those of each attempt as the tables computed them one by one, so
 * a table's figure is the same sum in another order (equal to about 1e-15
 * of itself). The carbon of a run over an hourly series depends on its
 * hours: each run's is summed as it is added, so a cell set holds for the
 * roster, sites and carbon series it was built with. */
typedef struct PolicyCell {
    int32_t month;              /* yyyymm of the runs' start (UTC) */
    int32_t group, domain;      /* into PolicyCells.groups / .domains */
    uint16_t cluster, partition; /* database ids (StatsInput's names) */
    uint16_t gpu_type;          /* into PolicyCells.types; 0 untyped */
    uint16_t pad;
    double runs;
    double gpu_h, gpu_h_meas;   /* GPU x elapsed (as float) / 3600; those with a utilisation */
    double ghu, ghu_meas;       /* GPUs x hours x utilisation (0..1; 1 unmeasured); measured */
    double util_x_h;            /* utilisation (%) x gpu_h, measured */
    double ghu_ci;              /* ghu x the mean intensity over the run (gCO2e/kWh) */
} PolicyCell;

/* A set of cells with the names they index; owned (policy_cells_free). */
typedef struct PolicyCells {
    PolicyCell *cells;
    size_t ncells;
    char **groups, **domains, **types; /* types[0]: "" (untyped) */
    size_t ngroups, ndomains, ntypes;
    uint16_t *preempted; /* partition ids that saw a preempted attempt */
    size_t npreempted;
} PolicyCells;

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
    const PolicySpeed *speeds;
    size_t nspeeds;
    /* The projected demand of a scenario (GPU-eq per year), may be empty:
     * projected in physical GPUs = GPU-eq / the runs' GPU-hour-weighted
     * mean speed, each at its model's TDP. */
    const double *proj_gpus;
    const int32_t *proj_year;
    size_t nproj;
    const char *scenario; /* its name, for the table's note; may be NULL */
    /* The runs' aggregate built with these roster, sites and series (NULL:
     * policy_energy makes it from stats->jobs). Then stats->jobs need only
     * hold the attempts of clusters with an hourly series (the shifting
     * table moves those one by one), or none (policy_energy_needs_jobs). */
    const PolicyCells *cells;
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

/* The aggregate of every attempt in chunks: new (in borrowed; its stats'
 * names, roster, sites and carbon are those the cells hold), add the
 * attempts in id order (j->gpu_type an index into types, whose names are
 * copied), then finish into out (the builder freed). */
typedef struct PolicyCellsBuild PolicyCellsBuild;
PolicyCellsBuild *policy_cells_build_new(const PolicyInput *in);
/* A builder that goes on from c (taken: c is left empty), made for the
 * same roster; NULL (c freed) when c's names do not follow from in's
 * roster as a build would intern them. */
PolicyCellsBuild *policy_cells_build_from(const PolicyInput *in, PolicyCells *c);
void policy_cells_build_add(PolicyCellsBuild *b, const StatsJob *jobs, size_t n,
                            const StatsNames *types);
/* The input's stats->users, accounts or clusters gained ids (appended;
 * the names of the ids before unchanged; the roster, groups, sites and
 * series as they were): the attempts added from now on may name them,
 * and the cells come out as a builder made over the input as it is now
 * would make them. Until then an attempt naming an id beyond those the
 * builder knows counts as no one's (its account's group, else none; no
 * cell when its cluster is unknown). */
void policy_cells_build_grow(PolicyCellsBuild *b);
void policy_cells_build_finish(PolicyCellsBuild *b, PolicyCells *out);
void policy_cells_free(PolicyCells *c);
/* c as bytes (appended to out), and back: 0, or -1 when data is not such
 * bytes (out then empty). */
void policy_cells_pack(const PolicyCells *c, CpBuf *out);
int policy_cells_unpack(const void *data, size_t n, PolicyCells *out);

/* 1 when in's cluster has an hourly carbon series (its runs' shifting is
 * then computed run by run). */
int policy_cluster_hourly(const PolicyInput *in, const char *cluster);
/* 1 when policy_energy over in->cells still reads attempts: a cluster has
 * an hourly series and the shift delay is above 0. */
int policy_energy_needs_jobs(const PolicyInput *in);

/* Tables of `stats energy`: energy (per period), groups, domains, clusters
 * (PUE, intensity and TDP basis), shifting, and projection (when the input
 * has one). Same contract. */
int policy_energy(const PolicyInput *in, const StatsOpts *o, StatsReport *out, CpErr *err);

#endif
