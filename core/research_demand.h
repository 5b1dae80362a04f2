#ifndef RESEARCH_DEMAND_H
#define RESEARCH_DEMAND_H
/* research_demand: hidden demand, in GPU-eq (issue 32). Per research
 * cluster, its members' usual need, weighted by their GPU-hours: memory
 * class, GPUs a job, GPU-eq a member (mean concurrent, the profile
 * features' conc_mean), each stated only where a firm majority holds
 * (RESEARCH_FIRM of the GPU-hours and half the members or more, of
 * RESEARCH_FIRM_MIN members or more).
 * Then the people whose research implies more than their jobs show: a
 * smaller memory class than their line's usual one, or jobs of under
 * half the GPUs a job of a line that usually runs multi-GPU. What is at stake for each, in
 * GPU-eq: moving to a bigger class, their use at their peers' level
 * (max of theirs and the usual); only multi-GPU short, what their peers
 * use beyond theirs. The cluster's budget figure is the sum over its
 * flagged people: at their peers' use, +X GPU-eq in the usual class next
 * year. People under min_hours GPU-hours count for nothing (too little to
 * tell).
 *
 * Pure computation over caller-owned arrays: no I/O. */

#define RESEARCH_FIRM 0.6        /* share of the GPU-hours for a majority */
#define RESEARCH_FIRM_MIN 3      /* members with jobs for a majority */
#define RESEARCH_MIN_HOURS 100.0 /* default: GPU-hours under which no one is compared */
#define RESEARCH_PER_GROUP 5     /* default: at most this many shown per group */

/* One person as research_demand reads them. */
typedef struct RsNeedIn {
    int cluster;        /* research cluster, -1: none */
    int group;          /* index of their group (for the per-group cap) */
    double gpu_hours;   /* in the profile window; 0: no jobs */
    double conc;        /* GPU-eq a member: mean concurrent */
    double gpus;        /* GPUs a job (GPU-hour-weighted p90) */
    double mem_gib;     /* peak GPU memory, < 0 unknown */
} RsNeedIn;

/* A cluster's usual need. */
typedef struct ResearchNeed {
    int members;        /* with at least min_hours GPU-hours */
    double hours;       /* their GPU-hours */
    int mem_class;      /* MEMCLASS_* of the firm majority, -1: none */
    double mem_share;   /* its share of the GPU-hours (also when not firm) */
    int multi;          /* 1: multi-GPU jobs hold a firm majority */
    double multi_share; /* GPU-hour share of members with >= 2 GPUs a job */
    double gpus;        /* GPU-hour-weighted median of GPUs a job */
    double conc;        /* GPU-hour-weighted median of GPU-eq a member, 0: none */
    int below;          /* members flagged */
    double budget;      /* sum of their stakes, GPU-eq */
} ResearchNeed;

/* One person's result. */
typedef struct RsNeedOut {
    unsigned char below_mem, below_gpus; /* what their line implies beyond their jobs */
    double stake;       /* GPU-eq at stake, 0: not flagged */
    int rank;           /* 1.. in the list shown (by stake, at most per_group a group),
                           0: not flagged or not shown */
} RsNeedOut;

/* n people in k clusters (in: borrowed; out: n slots; need: k slots).
 * per_group <= 0: no cap. Returns the people flagged; *shown (may be
 * NULL) the ones ranked. */
int research_demand(const RsNeedIn *in, int n, int k, double min_hours, int per_group,
                    RsNeedOut *out, ResearchNeed *need, int *shown);

#endif
