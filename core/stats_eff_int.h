#ifndef STATS_EFF_INT_H
#define STATS_EFF_INT_H
/* stats_eff_int: the efficiency builder's insides, shared by
 * core/stats_effcells.c (types, sums, curves, the bytes) and
 * core/stats_effhog.c (hogging: the second pass over idle attempts and the
 * top hogs). Not a public interface: stats.h is. */

#include "core/stats_int.h"

#define MONTH_HOURS 744 /* 31 days */

enum { CURVE_RUN, CURVE_PEND_ANY, CURVE_PEND, CURVE_IDLE, CURVE_KINDS };

/* A month of one curve: GPUs per hour (GPU-hours in each hour), partial
 * hours direct and whole hours through a difference array until
 * finished. */
typedef struct Curve {
    double v[MONTH_HOURS + 1], diff[MONTH_HOURS + 1];
} Curve;

typedef struct TopList {
    int n;
    StatsHogTop e[STATS_HOG_KEEP];
} TopList;

/* An idle attempt kept for the second pass. */
typedef struct Idle {
    int64_t id;
    uint32_t start, job_raw;
    int32_t elapsed, month, user, account, type;
    float gpus, gpu_util;
    uint16_t cluster, pad;
} Idle;

struct StatsEffBuild {
    const StatsGpus *inv;
    size_t ninv;
    double *sizes; /* the inventory's GPU memory sizes, ascending */
    size_t nsizes;
    /* GPU types by name: id 0 untyped */
    StrMap *tmap;
    char **tname;
    double *tmem;
    unsigned char *tmig;
    size_t ntypes, captypes;
    int32_t *tcache; /* the caller's type id -> id + 1 (0: not seen) */
    size_t ntcache;
    /* the last key of each curve kind and of the sums, and its index */
    AggKey lastkey[CURVE_KINDS + 1];
    size_t lastidx[CURVE_KINDS + 1];
    /* per cluster id: its name (owned) and the memory of its GPUs */
    char **cname;
    double *cmem;
    size_t nclusters;
    Agg cells;  /* (month, user, account, cluster) -> StatsEffSum */
    Agg tops;   /* (month, cluster) -> TopList */
    Agg curves; /* (month, kind, cluster, type) -> Curve, this build's */
    Agg old;    /* ... those stored before it */
    Agg conds;  /* (month, cluster, type, old) -> unsigned char[MONTH_HOURS] */
    int finished;
    Idle *idle;
    size_t nidle, capidle;
    size_t keep_idle; /* how many idle attempts b may keep */
    int dropped;      /* one was not kept: the caller's second pass, for all */
    int32_t mc_month;
    int64_t mc_from, mc_to;
};

/* Hours in month m (YYYYMM). */
uint32_t stats_eff_month_hours(int32_t m);
/* The month (YYYYMM) of epoch second t (the last one's span kept in b). */
int32_t stats_eff_month_of(StatsEffBuild *b, int64_t t);
/* The sums of key k (made when new, its key set); owned by b. */
StatsEffSum *stats_eff_cell_of(StatsEffBuild *b, const StatsEffKey *k);
/* 1 when attempt j counts as idle: GPUs held below STATS_IDLE_UTIL use, ended, ran. */
int stats_eff_job_idle(const StatsJob *j);
/* The id of GPU type name (0 untyped), interned with its memory. */
int32_t stats_eff_type_intern(StatsEffBuild *b, const char *name);
/* e into l's top STATS_HOG_KEEP, biggest hog first (ties: lower id). */
void stats_eff_top_put(TopList *l, const StatsHogTop *e);

#endif
