#ifndef STATS_H
#define STATS_H
/* stats: the usage analytics behind `capplan stats KIND`, the dashboard's
 * Usage view and the report: utilisation against the dated inventory,
 * preemption, waits, requested against used resources (with hogging),
 * research domains and publications, and the hour-of-week heat map.
 *
 * Pure computation over plain arrays that the caller fills (data/
 * store_stats.c reads them from the database): no I/O, no SQLite, no
 * curses. Every figure is computed here, so the command line, the
 * dashboard and the report never disagree.
 *
 * Conventions, for every kind:
 *  - Times are epoch seconds UTC; STATS_TIME_NONE is unknown.
 *  - A job attempt belongs to the period (month, year) of its start, else
 *    of its submission, as usage_month does; hours of a run are charged
 *    pro rata to the periods and hours of the week they fall in.
 *  - A user's group is the roster line in force at the time (the line
 *    whose [start, end] holds it, else the latest that started before,
 *    else the earliest to come); a user the roster does not know, and
 *    every user when the roster is empty, is counted under their account.
 *    A user's research domain is their roster line's, else their group's.
 *  - Inventory rows give GPUs in service over [from, to): capacity is
 *    GPUs x hours, pro rata when GPUs arrive or leave mid-period, and only
 *    inside the window the accounting covers (its first submission to its
 *    last recorded time), so a partial last month is not understated.
 *  - --group G keeps G's usage and jobs only (capacity is unchanged: the
 *    utilisation shown is then G's share of the GPUs); --cluster C keeps
 *    C's usage, jobs, inventory and events (an event that names no
 *    cluster stays, and then stands for C).
 *  - Unknown values are NaN in the tables (null in JSON), never zero. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"

#define STATS_TIME_NONE INT64_MIN

/* Job states, numbered as core/jobrec.h's CpState (checked there). */
enum { STATS_ST_COMPLETED = 4, STATS_ST_CANCELLED = 6, STATS_ST_PREEMPTED = 8 };

/* Thresholds, as documented in `capplan stats --help`. */
#define STATS_IDLE_UTIL 10.0     /* GPU utilisation (%) below which a GPU is idle */
#define STATS_BUSY_UTIL 0.80     /* cluster utilisation in an hour that makes it busy */
#define STATS_WAITING_GPU_H 0.05 /* GPU-hours pending in an hour for "others wait" */
#define STATS_MEM_HEADROOM 0.90  /* a job fits a GPU when its peak <= 90 % of its memory */
#define STATS_MIG_MEM_GIB 20.0   /* the largest common MIG slice (3g.20gb, 2g.20gb) */
#define STATS_MIG_UTIL 40.0      /* ... and its share of the GPU's compute (3/7) */
#define STATS_EVENT_MONTHS 3     /* months before and after an event */

/* Names by database id: v[id], NULL for an id not in use. Borrowed. */
typedef struct StatsNames {
    const char *const *v;
    size_t n;
} StatsNames;

/* One usage_month row. */
typedef struct StatsUsage {
    int32_t month; /* yyyymm */
    int32_t cluster, account, user, partition;
    int64_t jobs, attempts, gpu_jobs, waited, preempted;
    double gpu_hours, cpu_hours, wait_s, gpu_hours_lost;
} StatsUsage;

/* One roster line; [start, end) with end the day after the last day,
 * STATS_TIME_NONE when open. domain may be NULL. */
typedef struct StatsPerson {
    const char *user, *group, *domain;
    int64_t start, end;
} StatsPerson;

typedef struct StatsGroupInfo {
    const char *name, *domain; /* domain may be NULL */
} StatsGroupInfo;

/* GPUs in service over [from, to) (to STATS_TIME_NONE: still there). */
typedef struct StatsGpus {
    const char *cluster, *gpu_model;
    double gpus, gpu_mem_gib;
    int64_t from, to;
} StatsGpus;

typedef struct StatsEvent {
    const char *date, *cluster, *label; /* date YYYY-MM-DD; cluster "" = every cluster */
    int64_t at;                         /* the date's midnight */
} StatsEvent;

typedef struct StatsPub {
    int32_t year;
    const char *group, *domain; /* domain may be NULL */
} StatsPub;

/* StatsJob.flags */
enum {
    STATS_JOB_FINAL = 1,        /* the attempt that counts as the job */
    STATS_JOB_MEM_MEASURED = 2, /* gpu_mem_gib was measured (sacct or a monitor) */
    STATS_JOB_WAS_PREEMPTED = 4 /* final attempt of a job preempted at least once */
};

/* One job attempt, as compact as the analytics allow (68 bytes: the data
 * layer caches arrays of them). Times are epoch seconds in 32 bits
 * (unsigned: good until 2106), 0 when unknown; ids are those of the
 * names in StatsInput (0 unknown). */
typedef struct StatsJob {
    uint32_t submit;   /* 0 unknown */
    uint32_t start;    /* 0: never started */
    uint32_t job_raw;  /* numeric job id (Slurm's are 32-bit) */
    int32_t elapsed;   /* run time, s; -1 unknown */
    int32_t timelimit; /* s; -1 unknown, -2 unlimited */
    int32_t first_ago; /* final attempt: its submit minus the job's first submit, s */
    int32_t cpu_milli; /* CPUs in thousandths (exact for fractional requests, #29), -1 unknown */
    int32_t user, account;
    uint16_t cluster, partition;
    float gpus;                     /* GPUs held (a MIG slice counts as a fraction) */
    float gpu_util;                 /* mean GPU utilisation %, -1 unknown */
    float gpu_mem_gib;              /* peak GPU memory, -1 unknown */
    float max_rss_mib, req_mem_mib; /* -1 unknown */
    float total_cpu_s;              /* CPU time used, -1 unknown */
    uint16_t gpu_type;              /* id into gpu_types; 0 untyped */
    uint8_t state;                  /* CpState code */
    uint8_t flags;                  /* STATS_JOB_* */
} StatsJob;

/* ---- Aggregates (issue 20): what the kinds read instead of the attempts ----
 *
 * The import keeps them (data/store/store_stats.c), one set a month, so that no
 * stats kind reads the attempts (efficiency has its own, below): per cell (month of the
 * attempt's anchor, cluster, partition, GPU class, user, account) sums of
 * attempts, jobs, preemptions, GPU- and CPU-hours and waits; histograms of
 * waits, times to solution and runs before a preemption; and the
 * hour-of-week GPU-hours of each (month, cluster). A cell's group and
 * domain are the roster's at the middle of its month (as usage_month's).
 *
 * Histograms: STATS_HIST_BUCKETS log-linear buckets of whole seconds,
 * exact below 2 * STATS_HIST_SUB s, then STATS_HIST_SUB buckets an octave
 * (a bucket is at most 1/STATS_HIST_SUB of its value wide: 1.6 %); each
 * bucket keeps its count and the sum of its values, and a quantile takes
 * the mean of the bucket its rank falls in (exact when a bucket holds one
 * distinct value, else within the bucket's width). */
#define STATS_HIST_SUB 64
#define STATS_HIST_BUCKETS (2 * STATS_HIST_SUB + 25 * STATS_HIST_SUB)

enum { STATS_HIST_WAIT, STATS_HIST_TTS, STATS_HIST_PRERUN, STATS_HIST_KINDS };

/* A cell's key; user and account are -1 in keys that sum every user
 * (the stored wait and time-to-solution histograms, the heat map). */
typedef struct StatsCellKey {
    int32_t month; /* yyyymm of the attempt's start, else its submission */
    int32_t user, account;
    uint16_t cluster, partition;
    uint8_t gclass; /* GPU class (0, <1, 1, 2, 3-4, 5-8, >8) */
    uint8_t pad[3];
} StatsCellKey;

typedef struct StatsCellSum {
    StatsCellKey k;
    uint32_t pad;
    int64_t attempts, jobs, pre_attempts, pre_jobs, completed, pre_completed, waited, tts_n;
    double gpu_h, gpu_lost, cpu_h, cpu_lost, wait_s, tts_s;
    /* Requested against used over the attempts that started and whose end
     * is known (the dashboard's Usage view): GPU-hours, those with a
     * utilisation and util x GPU-h, with a GPU memory peak and GiB x
     * GPU-h, CPU-hours allocated and used (CPU time known), MiB-hours
     * requested and peak used (both known). */
    int64_t ran;
    double ran_gpu_h, ran_gpu_h_util, ran_util_x_h, ran_gpu_h_mem, ran_mem_x_h;
    double ran_cpu_alloc_h, ran_cpu_used_h, ran_mem_req_h, ran_mem_used_h;
} StatsCellSum;

/* One histogram bucket of key hkeys[key]: count values, summing sum s. */
typedef struct StatsHist {
    uint32_t key;
    uint16_t bucket;
    uint8_t what; /* STATS_HIST_* */
    uint8_t pad;
    uint32_t count;
    uint32_t pad2;
    double sum;
} StatsHist;

/* GPU-hours run in each hour of the week (d * 24 + h, Monday 0 UTC) by
 * the attempts of a key (user, account -1: every user). */
typedef struct StatsHeat {
    StatsCellKey k;
    uint32_t pad;
    double gpu_h[168];
} StatsHeat;

/* A set of aggregates; borrowed in StatsInput, owned by StatsCellsBuf. */
typedef struct StatsCells {
    const StatsCellSum *cells;
    size_t ncells;
    const StatsCellKey *hkeys;
    size_t nhkeys;
    const StatsHist *hist;
    size_t nhist;
    const StatsHeat *heat;
    size_t nheat;
} StatsCells;

/* ---- Efficiency aggregates (issue 20): what `stats efficiency` reads ----
 *
 * Per (month of the attempt's anchor, user, account, cluster) the sums
 * behind the efficiency and waste tables, with the GPU memory a job held
 * and whether it fits a smaller GPU or a MIG slice decided when it is
 * added (from the inventory of that time: the stored set names it, and a
 * load under another inventory rebuilds it); the GPU-hours each idle
 * attempt held while others waited (hogging), from hourly curves of
 * running and pending GPUs per cluster and GPU type (kept per month,
 * bounded by hours, never by jobs); and, per (month, cluster), the
 * STATS_HOG_KEEP attempts that hogged the most (ties: lower id first), so
 * that the top STATS_HOG_KEEP over any months and clusters is exact. */
#define STATS_HOG_KEEP 10

typedef struct StatsEffKey {
    int32_t month, user, account;
    uint16_t cluster, pad;
} StatsEffKey;

typedef struct StatsEffSum {
    StatsEffKey k;
    int64_t attempts, smaller_jobs, mig_jobs;
    double gpu_h, gh_util, util_x_gh, gh_mem, mem_x_gh, cpu_alloc_h, cpu_used_h;
    double mem_req_h, mem_used_h, lim_h, lim_used_h, idle_gh, hog_gh, smaller_gh, mig_gh;
} StatsEffSum;

/* One attempt of a month's top hogs. */
typedef struct StatsHogTop {
    int64_t id; /* the attempt's order (the jobs table's id) */
    double hog; /* GPU-hours held idle while others waited */
    int32_t month, user, account, elapsed;
    uint32_t job_raw, start;
    float gpus, gpu_util;
    uint16_t cluster, pad;
    uint32_t pad2;
} StatsHogTop;

typedef struct StatsEff {
    const StatsEffSum *cells;
    size_t ncells;
    const StatsHogTop *tops;
    size_t ntops;
} StatsEff;

/* Everything a kind may read; all borrowed. Arrays a kind does not need
 * (stats_kind_needs) may be empty. */
typedef struct StatsInput {
    StatsNames clusters, users, accounts, partitions, gpu_types;
    const StatsUsage *usage;
    size_t nusage;
    const StatsPerson *people;
    size_t npeople;
    const StatsGroupInfo *groups;
    size_t ngroups;
    const StatsGpus *inventory;
    size_t ninventory;
    const StatsEvent *events;
    size_t nevents;
    const StatsPub *pubs;
    size_t npubs;
    const StatsJob *jobs;
    size_t njobs;
    /* The aggregates (has_cells): what every kind but efficiency reads
     * when njobs is 0 (with jobs, they are made from the jobs). The window
     * stats_window gives then is [win_from, win_to). */
    StatsCells cells;
    int has_cells;
    /* The efficiency aggregates (has_eff): what efficiency reads (made
     * from the jobs instead without them, or with --group). */
    StatsEff eff;
    int has_eff;
    int64_t win_from, win_to;
} StatsInput;

typedef enum StatsKind {
    STATS_UTILIZATION,
    STATS_PREEMPTION,
    STATS_WAITS,
    STATS_EFFICIENCY,
    STATS_DOMAINS,
    STATS_PUBS,
    STATS_KIND_COUNT
} StatsKind;

/* What a kind reads (bits of stats_kind_needs). */
enum {
    STATS_NEED_USAGE = 1,
    STATS_NEED_JOBS = 2,
    STATS_NEED_ROSTER = 4, /* people and groups */
    STATS_NEED_INVENTORY = 8,
    STATS_NEED_EVENTS = 16,
    STATS_NEED_PUBS = 32,
    STATS_NEED_CELLS = 64, /* the aggregates, and the window */
    STATS_NEED_EFF = 128   /* the efficiency aggregates */
};

typedef enum StatsBy { STATS_BY_MONTH, STATS_BY_YEAR, STATS_BY_ALL } StatsBy;

typedef struct StatsOpts {
    StatsKind kind;
    StatsBy by;
    const char *group;   /* NULL: every group */
    const char *cluster; /* NULL: every cluster */
} StatsOpts;

/* 0 and *out set when name is a kind ("utilization" or "utilisation",
 * "preemption", "waits", "efficiency", "domains", "pubs"), else -1. */
int stats_kind_parse(const char *name, StatsKind *out);
const char *stats_kind_name(StatsKind k);
unsigned stats_kind_needs(StatsKind k);
/* What stats_run(o) needs: the kind's, and the attempts with --group
 * (the stored histograms and heat map sum every user). */
unsigned stats_opts_needs(const StatsOpts *o);
/* The period a kind groups by when --by is not given. */
StatsBy stats_kind_default_by(StatsKind k);

/* ---- Results: named tables of typed cells ---- */

typedef enum StatsColType {
    STATS_COL_TEXT,
    STATS_COL_INT,
    STATS_COL_REAL,
    STATS_COL_BOOL
} StatsColType;

/* A column: key (JSON and CSV), title and unit (text tables: "%", "h",
 * "GiB" are printed in the cells, others in the title), decimals shown. */
typedef struct StatsCol {
    const char *key, *title, *unit;
    StatsColType type;
    int decimals;
} StatsCol;

typedef struct StatsCell {
    double num;       /* NaN: unknown */
    const char *text; /* TEXT cells; owned by the table */
} StatsCell;

typedef struct StatsTable {
    const char *key, *title; /* static */
    const char *note;        /* static, may be NULL: what terse titles mean */
    const StatsCol *cols;    /* static */
    size_t ncols;
    StatsCell *cells; /* nrows x ncols */
    size_t nrows, caprows;
    char **strs; /* owned strings */
    size_t nstrs, capstrs;
} StatsTable;

typedef struct StatsReport {
    StatsKind kind;
    StatsBy by;
    StatsTable *tables;
    size_t ntables;
} StatsReport;

/* Compute kind o->kind over in into out (initialised here). Returns 0, or
 * -1 with err when o->group or o->cluster names nothing the data knows.
 * Caller frees with stats_report_free either way. */
int stats_run(const StatsInput *in, const StatsOpts *o, StatsReport *out, CpErr *err);
void stats_report_free(StatsReport *r);
/* The table with this key, or NULL. Borrowed from r. */
const StatsTable *stats_report_table(const StatsReport *r, const char *key);
/* Cell (row, column key) of t, or NULL when the column does not exist. */
const StatsCell *stats_table_cell(const StatsTable *t, size_t row, const char *col);
/* The first row whose TEXT columns equal the given values (keys[i] =
 * values[i] for i < n), or -1. */
long stats_table_find(const StatsTable *t, const char *const *keys, const char *const *values,
                      size_t n);

/* Building a report (stats_run's kinds, and core/policy's fairshare and
 * energy): a new empty table of r (at most 8 a report; key, title and cols
 * static, note NULL), a new row of unknown cells (returns its first cell;
 * valid until the next row), a copy of s as the text of cell c (owned by
 * t). */
StatsTable *stats_report_add_table(StatsReport *r, const char *key, const char *title,
                                   const StatsCol *cols, size_t ncols);
StatsCell *stats_table_add_row(StatsTable *t);
void stats_cell_set_text(StatsTable *t, StatsCell *c, const char *s);

/* ---- Building blocks (the dashboard uses them directly) ---- */

/* The p-quantile (0..1) of v[0..n), interpolated linearly between the
 * closest ranks (numpy's default). Reorders v. NaN when n == 0. */
double stats_quantile(double *v, size_t n, double p);

/* GPU-hours the inventory rows of cluster (NULL: all) provide over
 * [from, to). */
double stats_capacity_hours(const StatsGpus *inv, size_t n, const char *cluster, int64_t from,
                            int64_t to);

/* Hour-of-week heat map over [from, to): GPU-hours used (by the jobs of
 * in that pass o's group and cluster filters) and provided (inventory of
 * o's cluster), per slot d * 24 + h (d = 0 Monday, h the UTC hour);
 * used / cap is the utilisation. From in's jobs when it has them
 * (store_stats_load(STATS_NEED_JOBS | STATS_NEED_ROSTER |
 * STATS_NEED_INVENTORY)), else from the heat-map aggregates of the months
 * [from, to) overlaps (whole runs; o->kind must be utilization, and
 * without o->group). */
void stats_hour_of_week(const StatsInput *in, const StatsOpts *o, int64_t from, int64_t to,
                        double used[168], double cap[168]);

/* The window the accounting covers, [*from, *to) in epoch seconds: the
 * first submission to the last time recorded (end of a run, else its
 * start or submission) over in's jobs, else the months in's usage covers;
 * *from == *to when in holds neither. Capacity is counted only inside it
 * (a partial first or last month is not understated): the dashboard
 * clips its capacity to the same window. */
void stats_window(const StatsInput *in, int64_t *from, int64_t *to);

/* ---- Building the aggregates (data/store/store_stats.c, and stats_run from jobs) ---- */

typedef struct StatsCellsBuild StatsCellsBuild;

/* An empty set; fine: histograms and heat per user and account (what
 * --group needs), else per (month, cluster, partition, GPU class) only.
 * Free with stats_cells_build_free. */
StatsCellsBuild *stats_cells_build_new(int fine);
void stats_cells_build_free(StatsCellsBuild *b);
/* Add one attempt (its first_ago and flags set as StatsJob says). An
 * attempt with neither start nor submission is left out, as usage_month
 * leaves it. */
void stats_cells_build_job(StatsCellsBuild *b, const StatsJob *j);
/* Add a month's set as stats_cells_month_blob wrote it: 0, or -1 when
 * the bytes are not such a set (nothing added). */
int stats_cells_build_blob(StatsCellsBuild *b, const void *blob, size_t n);
/* How much b holds: its cells and histogram buckets. */
size_t stats_cells_build_size(const StatsCellsBuild *b);
/* The months b holds, ascending (caller frees), and their number. */
size_t stats_cells_build_months(const StatsCellsBuild *b, int32_t **months);
/* Month m of b as bytes (appended to out): counts, then the arrays. */
void stats_cells_month_blob(const StatsCellsBuild *b, int32_t month, CpBuf *out);
/* Every month of b, ascending, as stats_cells_month_blob writes it, made in
 * one pass over b's arrays (stats_cells_month_blob passes over all of them
 * for each month): fn(ctx, month, bytes, n) for each, the bytes valid until
 * fn returns; stops at fn's first nonzero return and returns it, else 0. */
typedef int (*StatsMonthBlobFn)(void *ctx, int32_t month, const void *blob, size_t n);
int stats_cells_month_blobs(const StatsCellsBuild *b, StatsMonthBlobFn fn, void *ctx);

/* The arrays of a StatsCells, owned: blobs appended one after another. */
typedef struct StatsCellsBuf {
    StatsCells c; /* the view of the arrays below */
    StatsCellSum *cells;
    StatsCellKey *hkeys;
    StatsHist *hist;
    StatsHeat *heat;
    size_t cap[4];
} StatsCellsBuf;
/* Append a month's blob to buf: 0, or -1 when malformed (buf unchanged). */
int stats_cells_buf_add(StatsCellsBuf *buf, const void *blob, size_t n);
/* Room for n[0] more cells, n[1] histogram keys, n[2] buckets and n[3]
 * heat-map entries (so that the arrays are not grown by doubling). */
void stats_cells_buf_reserve(StatsCellsBuf *buf, const size_t n[4]);
/* Every month of b into buf (the set stats_run builds from jobs). */
void stats_cells_buf_from(StatsCellsBuf *buf, const StatsCellsBuild *b);
void stats_cells_buf_done(StatsCellsBuf *buf);

/* Epoch seconds of yyyymm's first second, and yyyymm of an epoch second. */
int64_t stats_month_start(int32_t yyyymm);
int32_t stats_month_of(int64_t t);


/* ---- Building the efficiency aggregates (data/store/store_stats.c, and
 * stats_run from jobs) ----
 *
 * Two passes: every attempt (stats_eff_build_job: its sums and the
 * curves), then, once the curves are complete, each idle attempt's
 * hogging (up to keep_idle of them kept from the first pass; beyond,
 * the caller passes them again to stats_eff_build_hog). */
typedef struct StatsEffBuild StatsEffBuild;

/* An empty set deciding GPU memory from inv[0..ninv) (borrowed: it must
 * outlive b). Free with stats_eff_build_free. */
StatsEffBuild *stats_eff_build_new(const StatsGpus *inv, size_t ninv, size_t keep_idle);
/* What the callers keep: 48 bytes an idle attempt, 48 MB. */
#define STATS_EFF_IDLE_KEEP ((size_t)1 << 20)
void stats_eff_build_free(StatsEffBuild *b);
/* The GPU type names (ids 1, 2, ...) of a stored set, as
 * stats_eff_types_blob wrote them, interned first so that stored curves
 * keep their ids: 0, or -1 when malformed. Call before any job. */
int stats_eff_build_types(StatsEffBuild *b, const void *blob, size_t n);
void stats_eff_types_blob(const StatsEffBuild *b, CpBuf *out);
/* Add one attempt of order id, on cluster (name, may be NULL) with GPUs
 * of type (name, NULL or "" untyped): to the curves always, to the sums
 * when count (an attempt with neither start nor submission is not
 * counted); an idle counted attempt is kept for its hogging (see
 * stats_eff_build_second_pass). */
void stats_eff_build_job(StatsEffBuild *b, const StatsJob *j, int64_t id, const char *cluster,
                         const char *type, int count);
/* 1 when b could not keep every idle attempt (past keep_idle): after
 * finish, the caller passes every attempt again to
 * stats_eff_build_hog (it takes the idle ones). */
int stats_eff_build_second_pass(const StatsEffBuild *b);
/* A stored month of curves (stats_eff_curve_blob) added as what was
 * there before this build: 0, or -1 when malformed. */
int stats_eff_build_old_curves(StatsEffBuild *b, const void *blob, size_t n);
/* The months whose curves b's attempts touched, ascending (caller frees). */
size_t stats_eff_build_curve_months(const StatsEffBuild *b, int32_t **months);
/* After the last job (and the old curves): the hourly conditions of
 * hogging. Returns 1 when an hour's condition changed where stored idle
 * attempts ran (their hogging is then stale: rebuild), else 0; then adds
 * the hogging of the kept idle attempts. */
int stats_eff_build_finish(StatsEffBuild *b);
/* After finish, with a second pass: an attempt's hogging (nothing when it
 * is not idle or has no time). */
void stats_eff_build_hog(StatsEffBuild *b, const StatsJob *j, int64_t id, const char *type);
/* A stored month of sums and tops merged into b: 0, or -1. */
int stats_eff_build_month(StatsEffBuild *b, const void *blob, size_t n);
/* The months of b's sums and tops, ascending (caller frees). */
size_t stats_eff_build_months(const StatsEffBuild *b, int32_t **months);
/* Month m of b's sums and tops, and of its curves (old and new), as bytes. */
void stats_eff_month_blob(const StatsEffBuild *b, int32_t month, CpBuf *out);
void stats_eff_curve_blob(const StatsEffBuild *b, int32_t month, CpBuf *out);

/* The arrays of a StatsEff, owned. */
typedef struct StatsEffBuf {
    StatsEff e;
    StatsEffSum *cells;
    StatsHogTop *tops;
    size_t cap[2];
} StatsEffBuf;
/* Append a month's blob: 0, or -1 when malformed (buf unchanged). */
int stats_eff_buf_add(StatsEffBuf *buf, const void *blob, size_t n);
/* Every month of b into buf. */
void stats_eff_buf_from(StatsEffBuf *buf, const StatsEffBuild *b);
void stats_eff_buf_done(StatsEffBuf *buf);

#endif
