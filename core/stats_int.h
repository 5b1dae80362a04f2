#ifndef STATS_INT_H
#define STATS_INT_H
/* stats_int: what the files of core/stats share (not part of the API of
 * core/stats.h): the aggregator, interned names, the roster, the context
 * every kind computes in, and the kinds themselves. */

#include <stddef.h>
#include <stdint.h>

#include "core/stats.h"
#include "core/strmap.h"

#define HOUR 3600
#define DAY 86400
#define WEEK (7 * DAY)

/* A growable array of doubles. */
typedef struct DVec {
    double *v;
    size_t n, cap;
} DVec;

typedef struct AggKey {
    int32_t period, a, b, c;
} AggKey;

/* Values of valsz bytes (zeroed when new), found by key. */
typedef struct Agg {
    AggKey *keys;
    char *vals;
    size_t valsz, n, cap;
    uint32_t *slots; /* index + 1, 0 empty */
    size_t nslots;
    long last; /* index of the last key found */
} Agg;

typedef struct Dict {
    StrMap *map;
    const char **name; /* borrowed from the input, or "" literals */
    size_t n, cap;
    int32_t *rank; /* by name, filled by stats_dict_rank */
} Dict;

typedef struct Roster {
    Dict groups, domains;
    const StatsPerson **lines; /* people sorted by user, then start */
    int32_t *line_group, *line_domain;
    size_t nlines;
    int32_t *ufirst, *ucount; /* per user id: the user's lines */
    size_t nusers;
    int32_t *acct_group; /* per account id: the group of users the roster does not know */
    size_t naccounts;
    int32_t *group_domain;  /* per group id */
    int32_t unknown_domain; /* the id of UNKNOWN_DOMAIN */
    size_t ngroup_domain;
} Roster;

typedef struct Ctx {
    const StatsInput *in;
    const StatsOpts *o;
    Roster ro;
    int32_t cluster; /* the --cluster id; 0 none; -1 a cluster with no jobs */
    int32_t group;   /* the --group id, -1 none */
    int64_t w0, w1;  /* the window the accounting covers */
    int32_t *cluster_rank, *part_rank, *user_rank;
    /* per job attempt, computed once: month (yyyymm) of its anchor (0
     * unknown), group, and whether it passes the filters */
    int32_t *jmonth, *jgroup;
    unsigned char *jkept;
    /* the aggregates (has_cells: the input's, or own's made from its
     * jobs); per cell its group and whether the filters keep it, per
     * histogram key and heat-map entry whether they keep it */
    StatsCells cl;
    int has_cells;
    StatsCellsBuf own;
    int32_t *cgroup, *hgroup;
    unsigned char *ckept, *hkept, *heat_kept;
} Ctx;

/* The 168 hours of the week, filled from intervals in O(1) each: partial
 * hours go straight to their slot, whole hours through a cyclic
 * difference array and a count of whole weeks; read after week_finish. */
typedef struct Week {
    double slot[168], diff[169], laps;
} Week;

/* A bucket while rows are summed: its number, count and sum. */
typedef struct StatsHistAcc {
    int64_t bucket, count;
    double sum;
} StatsHistAcc;

#define UNKNOWN_DOMAIN "(unknown)"

#define NCOLS(a) (sizeof(a) / sizeof *(a))

enum { NGPU_CLASS = 7 };

/* ---- stats.c: calendar ---- */
/* yyyymm plus k months (k may be negative). */
int32_t stats_month_add(int32_t yyyymm, int k);
/* Slot of the week (0 = Monday 00:00 UTC .. 167) of an epoch second. */
int stats_week_slot(int64_t t);

/* ---- stats_agg.c: quantiles, arrays, the aggregator, interned names ---- */
/* Append x to d (d owns its array: free(d->v)). */
void stats_dvec_push(DVec *d, double x);
/* An empty aggregator of values of valsz bytes; stats_agg_done frees it. */
void stats_agg_init(Agg *g, size_t valsz);
void stats_agg_done(Agg *g);
/* The value of a key, created zeroed when absent. Borrowed from g: valid
 * until the next stats_agg_get. */
void *stats_agg_get(Agg *g, int32_t period, int32_t a, int32_t b, int32_t c);
/* The value of a key, or NULL when absent (never creates one). */
void *stats_agg_find(const Agg *g, int32_t period, int32_t a, int32_t b, int32_t c);
/* The i-th value (0 <= i < g->n), in insertion order. */
void *stats_agg_val(const Agg *g, size_t i);
/* Indices of g's keys sorted by period, then each dimension through its
 * rank table (rank[id]; NULL: the id itself; -1 "all" first). Caller frees. */
size_t *stats_agg_order(const Agg *g, const int32_t *ra, const int32_t *rb, const int32_t *rc);
/* Id of name in d (added when new; name borrowed: it must outlive d). */
int32_t stats_dict_id(Dict *d, const char *name);
/* Id of name in d, or -1. */
int32_t stats_dict_find(const Dict *d, const char *name);
/* rank[id] = position of names[id] in byte order ("" and NULL first), for
 * n names. Caller frees. */
int32_t *stats_names_rank(const char *const *names, size_t n);
/* Fill d->rank from its names (call after the last stats_dict_id). */
void stats_dict_rank(Dict *d);
void stats_dict_init(Dict *d);
void stats_dict_done(Dict *d);

/* ---- stats_table.c ---- */
/* a / b, NaN when b is not positive. */
double stats_ratio(double a, double b);

/* ---- stats_ctx.c: the roster, filters, periods, capacity ---- */
/* The domain of group g (its own, else of one of its roster lines, else
 * UNKNOWN_DOMAIN's id). */
int32_t stats_group_domain(const Roster *r, int32_t g);
/* a and b are both set and equal. */
int stats_str_eq(const char *a, const char *b);
/* The id of name in n, or -1. */
int32_t stats_names_find(const StatsNames *n, const char *name);
/* The name of id, or none when unknown or empty. Borrowed. */
const char *stats_name_or(const StatsNames *n, int32_t id, const char *none);
/* A job's submission and start as epoch seconds, STATS_TIME_NONE unknown. */
int64_t stats_jsub(const StatsJob *j);
int64_t stats_jstart(const StatsJob *j);
/* id when n knows it, else 0 (unknown): safe to index rank tables. */
int32_t stats_name_id(const StatsNames *n, int32_t id);
/* End of the run, or STATS_TIME_NONE when it did not run. */
int64_t stats_job_end(const StatsJob *j);
/* The --cluster filter keeps cluster id / name. */
int stats_cluster_kept(const Ctx *c, int32_t cluster);
int stats_cluster_name_kept(const Ctx *c, const char *name);
/* The inventory names cluster. */
int stats_inventory_has(const StatsInput *in, const char *cluster);
/* The context of one stats_run: 0, or -1 with err when o's group or
 * cluster names nothing. Free with stats_ctx_done either way. */
int stats_ctx_init(Ctx *c, const StatsInput *in, const StatsOpts *o, CpErr *err);
void stats_ctx_done(Ctx *c);
/* Attempt i passes the filters; its period (its anchor's). */
int stats_job_kept(const Ctx *c, size_t i);
int32_t stats_job_period(const Ctx *c, size_t i);
/* A usage row passes the filters; *group and *domain set (roster at the
 * middle of its month). */
int stats_usage_kept(const Ctx *c, const StatsUsage *u, int32_t *group, int32_t *domain);
/* The group of a user (with their account) at the middle of month
 * yyyymm, as the aggregates count it. */
int32_t stats_month_group(const Ctx *c, int32_t user, int32_t account, int32_t month);
/* The period (yyyymm, yyyy or 0 for --by all) of a month, of a time. */
int32_t stats_period_of_month(const Ctx *c, int32_t yyyymm);
int32_t stats_period_of(const Ctx *c, int64_t t);
/* [*from, *to) of period p. */
void stats_period_bounds(const Ctx *c, int32_t p, int64_t *from, int64_t *to);
/* Period p's label ("2024-03", "2024", "all") as the text of cell. */
void stats_put_period(const Ctx *c, StatsTable *t, StatsCell *cell, int32_t p);
/* Every period from the window's first to its last. Caller frees. */
int32_t *stats_periods_list(const Ctx *c, size_t *n);
/* GPU-hours of cluster (NULL: the --cluster one, else all) over [from,
 * to) inside the window. */
double stats_ctx_capacity(const Ctx *c, const char *cluster, int64_t from, int64_t to);
/* GPUs of a job in classes 0..NGPU_CLASS-1, named stats_gpu_class_name[]. */
int32_t stats_gpu_class(float g);
extern const char *const stats_gpu_class_name[];
/* Seconds the attempt waited, or -1 when it has no wait to count. */
double stats_job_wait(const StatsJob *j);
/* Seconds from the job's first submission to the end of its final run,
 * for a completed final attempt; -1 otherwise. */
double stats_job_tts(const StatsJob *j);
/* The attempt's start, else its submission (STATS_TIME_NONE: neither). */
int64_t stats_job_anchor(const StatsJob *j);

/* ---- stats_cells.c: the aggregates ---- */
/* Add w per hour over [a, b) to wk; stats_week_finish reads the 168
 * slots out. */
void stats_week_add(Week *wk, int64_t a, int64_t b, double w);
void stats_week_finish(const Week *wk, double out[168]);
/* The bucket of a value (seconds) and the smallest value it holds. */
int stats_hist_bucket(double v);
/* Quantiles ps[0..k) (ascending) of the values counted by the buckets
 * h[0..n) (sorted by bucket; those of one key and kind), each the mean of
 * the bucket its rank falls in, interpolated between ranks as numpy does;
 * NaN when empty. Returns the number of values, and their sum in *sum. */
size_t stats_hist_quantiles(const StatsHistAcc *h, size_t n, const double *ps, size_t k,
                            double *out, double *sum);

/* Rows of histograms: an Agg of StatsHistAcc keyed (p, a, b, what << 16 |
 * bucket). Add entry e to row (p, a, b). */
void stats_hist_rows_add(Agg *rows, int32_t p, int32_t a, int32_t b, const StatsHist *e);
/* ... and a bucket y (of kind what) to row (p, a, b). */
void stats_hist_rows_put(Agg *rows, int32_t p, int32_t a, int32_t b, int what,
                         const StatsHistAcc *y);
/* Each row (p, a, b) added to the rows that sum it: (p, -1, -1), (p, -1,
 * b) and (p, a, -1) (add the rows of the finest keys only, then this:
 * after the months merged, a few additions a row and bucket). */
void stats_hist_rows_sum(Agg *rows);
/* With order = stats_agg_order(rows, ...): the entries of one row and
 * kind from order[i] on, copied into *buf (of *cap, grown; caller frees)
 * sorted by bucket, their number in *n; returns the index after them. */
size_t stats_hist_rows_run(const Agg *rows, const size_t *order, size_t i, StatsHistAcc **buf,
                           size_t *cap, size_t *n);

/* ---- stats_effcells.c ---- */
/* y's sums added to x's (not the key). */
void stats_eff_sum_merge(StatsEffSum *x, const StatsEffSum *y);

/* ---- the kinds' tables and their files ---- */
/* Utilisation's last tables: the events (stats_events.c) and the
 * hour-of-week heat maps (stats_heat.c). */
void stats_events_table(const Ctx *c, StatsReport *r);
void stats_heat_tables(const Ctx *c, StatsReport *r);
/* Each kind adds its tables to r (stats_util.c, stats_preempt.c,
 * stats_waits.c, stats_eff.c, stats_domains.c, stats_pubs.c). */
void stats_kind_utilization(const Ctx *c, StatsReport *r);
void stats_kind_preemption(const Ctx *c, StatsReport *r);
void stats_kind_waits(const Ctx *c, StatsReport *r);
void stats_kind_efficiency(const Ctx *c, StatsReport *r);
void stats_kind_domains(const Ctx *c, StatsReport *r);
void stats_kind_pubs(const Ctx *c, StatsReport *r);

#endif
