#ifndef DEMO_MODEL_H
#define DEMO_MODEL_H
/* demo_model: the generator's private model, shared by the files of
 * data/demo/ and by nothing else. The pipeline, one file per stage:
 *
 *   demo_rng.c     xoshiro256** PRNG and the distributions drawn from it
 *   demo_out.c     calendar, buffered output with fast number formatting
 *   demo_people.c  clusters and their dated inventory, the 25 groups in 6
 *                  domains, the dated roster (arrivals, graduations)
 *   demo_jobs.c    each member's submissions, month by month, by pattern
 *   demo_sched.c   a queue simulation per GPU pool: starts, waits,
 *                  preemption and requeues; then Slurm job ids
 *   demo_extra.c   publications, meeting notes, stated needs
 *   demo_bib.c     each group's publication list as BibTeX
 *   demo_policy.c  allocations and carbon intensity CSV
 *   demo_sacct.c   sacct -D -P text (job + step rows) and sacct --json
 *   demo_csv.c     roster, inventory, events, pubs, gpu-metrics, notes CSV
 *   demo.c         folder handling, the stages in order, the imports
 *   store_demo.c   the demo's own SQL (notes, stated needs, db check)
 *
 * Every number that shapes the institute is in a table in the file that
 * uses it, with a comment saying where its default comes from;
 * docs/demo.md collects them. No I/O outside demo_sacct.c, demo_csv.c and
 * demo.c. Times are epoch seconds UTC. */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/cp.h"
#include "data/demo/demo.h"

#define DEMO_DAY 86400
#define DEMO_HOUR 3600
#define DEMO_NEVER INT64_MAX
#define DEMO_YEARS 5 /* history length */

/* ---- PRNG: xoshiro256** seeded through splitmix64 (never rand()) ---- */

typedef struct DemoRng {
    uint64_t s[4];
} DemoRng;

/* A stream for (seed, stream): independent draws per purpose, so that
 * changing how one stage draws never shifts another stage's numbers. */
void demo_rng_seed(DemoRng *r, uint64_t seed, uint64_t stream);
uint64_t demo_rng_next(DemoRng *r);
double demo_rng_unif(DemoRng *r);                       /* [0, 1) */
double demo_rng_range(DemoRng *r, double lo, double hi); /* [lo, hi) */
int64_t demo_rng_below(DemoRng *r, int64_t n);          /* [0, n), n > 0 */
int demo_rng_bern(DemoRng *r, double p);
double demo_rng_normal(DemoRng *r);
/* exp(N(log median, sigma)): the heavy-tailed shape of job durations. */
double demo_rng_lognormal(DemoRng *r, double median, double sigma);
int demo_rng_poisson(DemoRng *r, double lambda);
/* Index drawn with the given non-negative weights; -1 if all are zero. */
int demo_rng_pick(DemoRng *r, const double *w, int n);

/* ---- calendar (demo_out.c) ---- */

int64_t demo_date(int y, int mon, int d);
void demo_ymd(int64_t t, int *y, int *mon, int *d);
/* "YYYY-MM-DD" into out (11 bytes). */
void demo_fmt_date(int64_t t, char *out);

/* ---- enumerations ---- */

typedef enum DemoPattern {
    DEMO_PAT_INTERACTIVE, /* notebooks and shells: 1 GPU, hours, low utilisation */
    DEMO_PAT_SINGLE,      /* single-GPU training */
    DEMO_PAT_MULTI,       /* multi-GPU long training: 2-8 GPUs, days */
    DEMO_PAT_BIGMEM,      /* large models: > 48 GiB of GPU memory */
    DEMO_PAT_HPO,         /* bursts of many short 1-GPU jobs (job arrays) */
    DEMO_PAT_CPU,         /* CPU-only work on GPU nodes */
    DEMO_PAT_COUNT
} DemoPattern;

typedef enum DemoRole {
    DEMO_ROLE_PROFESSOR,
    DEMO_ROLE_POSTDOC,
    DEMO_ROLE_STAFF,
    DEMO_ROLE_PHD,
    DEMO_ROLE_MSC,
    DEMO_ROLE_COUNT
} DemoRole;

/* Partitions; the value is the scheduling tier (higher runs first, and
 * interactive and gpu may preempt preempt). */
typedef enum DemoPart {
    DEMO_PART_PREEMPT,
    DEMO_PART_GPU,
    DEMO_PART_INTERACTIVE,
    DEMO_PART_COUNT
} DemoPart;

/* Final state of a job attempt (a subset of Slurm's). */
typedef enum DemoOutcome {
    DEMO_OUT_COMPLETED,
    DEMO_OUT_FAILED,
    DEMO_OUT_CANCELLED,
    DEMO_OUT_TIMEOUT,
    DEMO_OUT_OOM,
    DEMO_OUT_NODE_FAIL,
    DEMO_OUT_PREEMPTED, /* only for attempts ended by the simulation */
    DEMO_OUT_RUNNING    /* still running at "today" */
} DemoOutcome;

extern const char *const demo_pattern_names[DEMO_PAT_COUNT];
extern const char *const demo_role_names[DEMO_ROLE_COUNT];
extern const char *const demo_part_names[DEMO_PART_COUNT];

/* ---- the institute ---- */

#define DEMO_NCLUSTERS 3
#define DEMO_NPOOLS 5
#define DEMO_NDOMAINS 6
#define DEMO_MAX_STEPS 3
#define DEMO_MAX_EVENTS 8

typedef struct DemoCluster {
    const char *name;
    int64_t id_base;      /* first Slurm job id of the history */
    int64_t gpumem_from;  /* from when sacct records gres/gpumem (DEMO_NEVER: never) */
    int has_interactive;  /* has the interactive and preempt partitions */
    int64_t json_from;    /* jobs submitted from then on go to sacct --json */
} DemoCluster;

/* One GPU model on one cluster: the unit the queue simulation works on. */
typedef struct DemoPool {
    int cluster;
    const char *model;     /* Slurm GRES type and inventory name: "a100" */
    double mem_gib, speed, tdp_w;
    int node_gpus;         /* GPUs per node */
    const char *node_prefix;
    int nsteps;            /* capacity: gpus[k] from from[k] on (0 = gone) */
    int64_t from[DEMO_MAX_STEPS];
    int gpus[DEMO_MAX_STEPS];       /* as simulated */
    int gpus_file[DEMO_MAX_STEPS];  /* as written to inventory.csv */
} DemoPool;

typedef struct DemoEvent {
    int64_t date;
    int cluster;
    char label[112];
} DemoEvent;

typedef struct DemoDomain {
    const char *name;
    double pattern_w[DEMO_PAT_COUNT]; /* primary pattern of a student */
    int ml_calendar;                  /* follows ML conference deadlines */
    double pubs_per_head;             /* papers per member-year */
} DemoDomain;

extern const DemoDomain demo_domains[DEMO_NDOMAINS];

typedef struct DemoGroup {
    char name[32];        /* also the Slurm account */
    int prof;             /* person index of the professor */
    int domain;
    int64_t start;        /* founded (new groups start inside the history) */
    int64_t intake_stop;  /* no new students from then (DEMO_NEVER: never) */
    double growth;        /* intake growth per year */
    double size;          /* intake scale */
    int home;             /* home cluster */
    int cirrus;           /* has an allocation on the national cluster */
    int idle;             /* holds GPUs idle (low utilisation) */
} DemoGroup;

typedef struct DemoPerson {
    char user[16];
    char first[16], last[20];
    int group;
    DemoRole role;
    int64_t start, end;   /* roster dates; end DEMO_NEVER when open; end may be future */
    int64_t planned;      /* the planned end known in advance (a PhD's four years, a
                             contract's end), DEMO_NEVER none; differs from end (issue 28) */
    int uid;
    uint8_t pat, pat2;    /* primary and secondary pattern */
    double share2;        /* share of submissions in the secondary pattern */
    double intensity;     /* submissions relative to a typical member */
    double mem_gib[2];    /* typical peak GPU memory in pat, pat2 (GiB) */
    double util[2];       /* typical GPU utilisation in pat, pat2 (%) */
    double dur_scale;     /* this person's durations relative to the pattern's */
    int pref_gpus;        /* usual GPU count for multi-GPU work */
    int limit_choice;     /* usual time-limit choice */
    int cpus_per_gpu;
    double mem_per_cpu_gib;
    int idle;             /* holds GPUs idle */
    int names[3];         /* usual job names (indexes in demo_job_names) */
} DemoPerson;

/* One job with all its attempts. The tasks of an array (an HPO burst,
 * training seeds, a CPU array) are consecutive jobs with the same submit
 * time and array_n. The final attempt's times are here; earlier attempts,
 * ended by preemption, are in DemoWorld.att, chained by first_att/next. */
typedef struct DemoJob {
    int64_t submit;        /* first submission */
    int64_t start, end;    /* final attempt; start DEMO_NEVER when it never started */
    int64_t fsubmit;       /* final attempt's submission (later than submit if requeued) */
    int64_t feligible;     /* final attempt's eligible time */
    int64_t job_raw;       /* Slurm JobIDRaw, assigned after the simulation */
    int64_t array_job;     /* array's id, 0 when not an array task */
    int32_t person;
    int32_t dur;           /* intended run time of an attempt, seconds */
    int32_t limit;         /* time limit, seconds */
    int32_t first_att;     /* first preempted attempt, -1 */
    uint16_t array_task, array_n; /* array_n 0 when not an array */
    uint16_t ncpus;
    uint16_t name;         /* index in demo_job_names */
    uint8_t pattern, pool, part, outcome, gpus, nattempts;
    uint8_t keep;          /* written out (sampling below the default size) */
    uint8_t typed;         /* requested a GPU type (needs > 48 GiB) */
    uint8_t srun;          /* interactive srun: .extern + .0, no .batch */
    uint8_t exit_code;
    float gpu_mem;         /* peak GiB used */
    float gpu_util;        /* mean %, 0..100 */
    float cpu_eff;         /* TotalCPU / (Elapsed x NCPUS) */
    float mem_req_gib;
    float rss_frac;        /* MaxRSS / ReqMem */
} DemoJob;

typedef struct DemoAttempt {
    int64_t submit, eligible, start, end;
    int32_t job;
    int32_t next;          /* next preempted attempt of the job, -1 */
} DemoAttempt;

typedef struct DemoPub {
    int year;
    int group;
    char title[112];
    char authors[128];
} DemoPub;

typedef struct DemoNote {
    int group;
    int person;            /* who said it (-1: the group as a whole) */
    int64_t date;
    char text[320];
} DemoNote;

typedef struct DemoNeed {
    int person;
    int64_t date;
    double gpus_fulltime;
    int mem_class_gib;
    double typical_hours;
    double burst_per_month;
    int burst_gpus;
    double burst_hours;
    char text[240];
    double measured_gpus;  /* what the accounting shows (for docs and tests) */
} DemoNeed;

/* Job names: pattern k's names are demo_job_names[demo_name_start[k] ..
 * demo_name_start[k+1]); the rare ones (a '|', UTF-8, a quote) follow. */
extern const char *const demo_job_names[];
extern const int demo_njob_names;
extern const int demo_name_start[DEMO_PAT_COUNT + 1];

typedef struct DemoWorld {
    const DemoOpts *o;
    int64_t today, t0;         /* history: [t0, today) */
    int nmonths;               /* calendar months touched by the history */
    int64_t month[DEMO_YEARS * 12 + 3]; /* month k starts at month[k]; month[nmonths] ends */
    double target_full;        /* jobs simulated (>= DEMO_DEFAULT_JOBS) */
    double rate_mult;          /* submissions per month scale */
    double cap_mult;           /* GPUs simulated = table x cap_mult */
    double keep_p;             /* share of submissions written out */
    DemoCluster clusters[DEMO_NCLUSTERS];
    DemoPool pools[DEMO_NPOOLS];
    DemoEvent events[DEMO_MAX_EVENTS];
    int nevents;
    DemoGroup *groups;
    int ngroups;
    DemoPerson *people;
    int npeople, cappeople;
    DemoJob *jobs;
    size_t njobs, capjobs;
    DemoAttempt *att;
    size_t natt, capatt;
    DemoPub *pubs;
    int npubs, cappubs;
    DemoNote *notes;
    int nnotes;
    DemoNeed *needs;
    int nneeds;
    int32_t *order;            /* kept jobs by (cluster, submit, index) */
    size_t norder;
    int64_t preempted;         /* kept preempted attempts */
} DemoWorld;

/* demo_people.c: world setup (dates, scale) and the institute. */
void demo_world_init(DemoWorld *w, const DemoOpts *o);
void demo_world_done(DemoWorld *w);
void demo_institute(DemoWorld *w);
/* GPUs of pool p at time t as simulated (0 before it exists). */
int demo_pool_gpus(const DemoWorld *w, int p, int64_t t);
/* Calendar month index of t (0 .. nmonths-1), clamped. */
int demo_month_of(const DemoWorld *w, int64_t t);

/* demo_jobs.c: every member's submissions. */
void demo_jobs_generate(DemoWorld *w);

/* demo_sched.c: the queue simulation, sampling, job ids and w->order. */
void demo_schedule(DemoWorld *w);

/* demo_extra.c: publications, notes and stated needs (after the schedule). */
void demo_extras(DemoWorld *w);

/* demo_sacct.c / demo_csv.c: write the input files into dir. Each adds
 * the paths it wrote to files (in import order). */
typedef struct DemoFiles {
    char (*path)[1100];
    const char **kind;   /* "roster", "inventory", ..., "sacct" */
    int n, cap;
    int64_t bytes;
} DemoFiles;

void demo_files_add(DemoFiles *f, const char *kind, const char *path, int64_t bytes);
void demo_files_done(DemoFiles *f);
int demo_write_sacct(const DemoWorld *w, const char *dir, DemoFiles *files, CpErr *err);
int demo_write_csv(const DemoWorld *w, const char *dir, DemoFiles *files, CpErr *err);
int demo_write_metrics(const DemoWorld *w, const char *dir, DemoFiles *files, CpErr *err);
/* demo_policy.c: allocations.csv (cirrus's groups) and carbon.csv (an
 * hourly series), kinds "allocations" and "carbon". */
int demo_write_policy(const DemoWorld *w, const char *dir, DemoFiles *files, CpErr *err);
/* demo_bib.c (issue 18): pubs-<group>.bib per group, pubs-truth.csv. */
int demo_write_bib(const DemoWorld *w, const char *dir, DemoFiles *files, CpErr *err);

/* store_demo.c: the demo's SQL. 1 when path holds a capplan database
 * (an SQLite file with capplan's tables), 0 when it is something else,
 * -1 with err when it cannot be read. */
typedef struct Store Store;
int store_demo_is_capplan(const char *path, CpErr *err);
/* 1 when the capplan database at path holds only what `capplan demo` made
 * (or nothing a person put in), 0 when it holds other work (err says what),
 * -1 with err when it cannot be read. Reads only. */
int store_demo_own_work(const char *path, CpErr *err);
/* Record in st what the demo made, for store_demo_own_work. */
int store_demo_mark(Store *st, CpErr *err);
/* Write w's meeting notes and stated needs (one transaction). */
int store_demo_meetings(Store *st, const DemoWorld *w, CpErr *err);

/* Buffered output with fast number and time formatting (demo_out.c). */
typedef struct DemoOut {
    FILE *f;
    const char *path;
    char *buf;
    size_t len, cap;
    int64_t bytes;
    int failed;
    int64_t day_cached;   /* day number of the cached date text */
    char date_cached[11];
} DemoOut;

int demo_out_open(DemoOut *o, const char *path, CpErr *err);
/* Flush, close and report the first write error. */
int demo_out_close(DemoOut *o, CpErr *err);
void demo_out_str(DemoOut *o, const char *s);
void demo_out_mem(DemoOut *o, const char *s, size_t n);
void demo_out_ch(DemoOut *o, char c);
void demo_out_int(DemoOut *o, int64_t v);
/* v with dec decimals (dec <= 3). */
void demo_out_fixed(DemoOut *o, double v, int dec);
/* "2024-01-23T16:58:36" */
void demo_out_time(DemoOut *o, int64_t t);
void demo_out_date(DemoOut *o, int64_t t);
/* "[D-]HH:MM:SS" */
void demo_out_dur(DemoOut *o, int64_t s);
/* A CSV field, quoted when it holds a comma, quote or line break. */
void demo_out_csv(DemoOut *o, const char *s);

#endif
