#ifndef STORE_PLAN_H
#define STORE_PLAN_H
/* store_plan: the SQL of planning: reading what the features and the
 * projection need (jobs from the job blocks, usage per month, roster, groups,
 * inventory) and saving what planning produces (profile runs, renamed
 * profiles, scenarios with each edited parameter: who, why, when, the
 * measured value beside it, and every edit in order).
 *
 * Every statement binds its values; strings are copied out of SQLite and
 * owned by the caller's struct (each has a _free). Nothing here computes
 * features, clusters or projects: that is core/'s work, put together by
 * data/plan/plan.c. Time is epoch seconds (UTC); roster and inventory dates
 * ("YYYY-MM-DD") are turned into epoch seconds, PROJ_NEVER-like INT64_MAX
 * when absent. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"
#include "core/features.h"

typedef struct Store Store;

#define STORE_PLAN_NO_DATE INT64_MAX

/* ---- reading ---- */

/* 1 when no job of the database holds a GPU but some hold CPUs: CPUs then
 * stand in for GPUs (the pre-GPU traces). Reads usage_month only. */
int store_plan_cpu_only(Store *st, int *cpu_only, CpErr *err);

/* The last month (yyyymm) before before_month (yyyymm, exclusive; 0 = no
 * bound) in which a job started, from usage_month; 0 when none. */
int store_plan_last_month(Store *st, int64_t before_month, int64_t *month, CpErr *err);

/* When the data ends: the latest end (else start) of a final job;
 * INT64_MIN when there is none. Scans the jobs table (the backtest only). */
int store_plan_data_end(Store *st, int64_t *t, CpErr *err);

/* Highest import id (0 when none): a profile run older than it is stale. */
int store_plan_last_import(Store *st, int64_t *id, CpErr *err);

/* Jobs for the features, read from the job blocks (data/store/store_blocks.h:
 * only the blocks with a start in the window), and from the jobs table for
 * the rowids no block covers yet (in two halves on two connections at once
 * when many): every final
 * attempt that started in [from, before), ran at least min_run seconds and
 * holds GPUs (CPUs when cpu), with its run time (elapsed, else end -
 * start). Memory: the measured peak when the job has one, else the memory
 * a MIG type names ("a100_3g.20gb": 20), else the GPU memory the
 * inventory gives for the job's GPU model on its cluster (any cluster when
 * its own has no such model; the cluster's only memory size when the job
 * names no model), flagged FEAT_MEM_REQUESTED; else unknown. user in each
 * FeatJob is the users table id; jobs come in rowid order. *last_start:
 * the latest start read (INT64_MIN if none). Caller frees *jobs. */
int store_plan_jobs(Store *st, int64_t from, int64_t before, int64_t min_run, int cpu,
                    FeatJob **jobs, size_t *njobs, int64_t *last_start, CpErr *err);

/* store_plan_jobs in bounded memory (data/plan/plan_build.c reads a large
 * window a batch of users at a time). The jobs read are store_plan_jobs's;
 * of them:
 *   kept:    those of users [user_lo, user_hi), in rowid order, at most
 *            budget of them: one more and none is kept (overflow = 1, n 0,
 *            jobs NULL unless buf), the pass goes on for the rest; kept in
 *            buf when not NULL (budget slots, caller-owned: out->jobs is
 *            buf then, reused from pass to pass), else in a new array;
 *   counts:  when not NULL, counts[u] += 1 for each job of user u in
 *            [0, nusers), kept or not;
 *   *first:  the earliest start in [first_from, first_before) of a job of
 *            a user in [0, nusers) (INT64_MAX when none);
 *   *last_start as store_plan_jobs's (every job read; of the users kept
 *            alone when neither counts nor first is asked for).
 * The rowids no block covers are read from the jobs table whole first
 * (memory: that range's jobs). 0, or -1 with err (nothing kept). Caller
 * frees out->jobs when it is not buf. */
typedef struct StorePlanJobsReq {
    int64_t from, before, min_run;
    int cpu;
    int32_t user_lo, user_hi;
    size_t budget;
    FeatJob *buf;
    int64_t *counts;
    int32_t nusers;
    int64_t first_from, first_before;
} StorePlanJobsReq;

typedef struct StorePlanJobsOut {
    FeatJob *jobs;
    size_t n;
    int overflow;
    int64_t first, last_start;
} StorePlanJobsOut;

int store_plan_jobs_read(Store *st, const StorePlanJobsReq *q, StorePlanJobsOut *out,
                         CpErr *err);

/* One read snapshot for several passes of store_plan_jobs_read (their
 * counts then agree): a deferred transaction, unless one is open already
 * (*began 0 then). end closes what begin opened. 0, or -1 with err. */
int store_plan_snapshot_begin(Store *st, int *began, CpErr *err);
void store_plan_snapshot_end(Store *st, int began);

/* Every final job that ran with GPUs (CPUs when cpu) and a user, for model
 * v2 (core/demand), read as store_plan_jobs reads (blocks, then the jobs
 * table where they do not reach): user and account ids, eligible time (else submit,
 * else start), start (unknown: its submit time, as usage_month places
 * it), end (start + run time), GPUs (CPUs) and the id of its
 * (cluster, GPU type) pair in *kinds (cluster name and type, "" when the
 * job names none). In rowid order. Caller frees with
 * store_plan_use_free. */
typedef struct StorePlanUse {
    int64_t user_id, account_id, elig, start, end;
    double gpus;
    int kind;
} StorePlanUse;

typedef struct StorePlanKind {
    char *cluster, *type;
} StorePlanKind;

int store_plan_use(Store *st, int cpu, StorePlanUse **rows, size_t *n, StorePlanKind **kinds,
                   size_t *nkinds, CpErr *err);
void store_plan_use_free(StorePlanUse *rows, StorePlanKind *kinds, size_t nkinds);

/* The same rows without holding them: rows is called with each block's
 * (each range's) rows in rowid order, and the kinds named so far (a row's
 * kind indexes them; a kind keeps its index); both borrowed for the call.
 * sized (may be NULL), once first: how many rows the blocks hold at most
 * (rows read from the jobs table come on top). 0, or -1 with err. */
typedef struct StorePlanUseVisit {
    void (*sized)(void *ctx, size_t n);
    void (*rows)(void *ctx, const StorePlanUse *rows, size_t n, const StorePlanKind *kinds,
                 size_t nkinds);
    void *ctx;
} StorePlanUseVisit;

int store_plan_use_each(Store *st, int cpu, const StorePlanUseVisit *v, CpErr *err);

/* Names by id: names[id], NULL for ids not in use. */
typedef struct StorePlanNames {
    char **names;
    int64_t n; /* highest id + 1 */
} StorePlanNames;

/* "users", "accounts" or "clusters". */
int store_plan_names(Store *st, const char *table, StorePlanNames *out, CpErr *err);
void store_plan_names_free(StorePlanNames *nm);

/* usage_month summed over clusters and partitions for months in
 * [from_month, to_month) (yyyymm): GPU-hours (CPU-hours when cpu). */
typedef struct StorePlanUsage {
    int64_t month, user_id, account_id;
    double hours;
} StorePlanUsage;

int store_plan_usage(Store *st, int64_t from_month, int64_t to_month, int cpu,
                     StorePlanUsage **rows, size_t *n, CpErr *err);

typedef struct StorePlanPerson {
    char *user, *group, *role, *domain; /* domain may be NULL */
    int64_t start, end;                  /* STORE_PLAN_NO_DATE when absent */
    int64_t planned;                     /* the planned end, known in advance (issue 28);
                                            STORE_PLAN_NO_DATE when not given */
} StorePlanPerson;

int store_plan_people(Store *st, StorePlanPerson **out, size_t *n, CpErr *err);
void store_plan_people_free(StorePlanPerson *p, size_t n);

typedef struct StorePlanGroup {
    char *name, *domain; /* domain may be NULL */
} StorePlanGroup;

int store_plan_groups(Store *st, StorePlanGroup **out, size_t *n, CpErr *err);
void store_plan_groups_free(StorePlanGroup *g, size_t n);

typedef struct StorePlanGpus {
    char *cluster, *model;
    double gpus, mem_gib, speed; /* speed -1 when unknown */
    int64_t from, to;            /* to STORE_PLAN_NO_DATE: in service */
} StorePlanGpus;

int store_plan_inventory(Store *st, StorePlanGpus **out, size_t *n, CpErr *err);
void store_plan_inventory_free(StorePlanGpus *g, size_t n);

/* ---- profile runs ---- */

typedef struct StorePlanRun {
    int64_t id, created_at, win_start, win_end, last_import, jobs_used;
    int cpu, window_months, min_jobs, k, k_auto, restarts;
    uint64_t seed;
    double silhouette, inertia;
    char *roles; /* NULL: every role */
    char *who;
} StorePlanRun;

typedef struct StorePlanProfile {
    char *generated;  /* the generated name */
    int size, mem_requested;
    double centroid[FEAT_COUNT]; /* raw units; memory -1 unknown */
} StorePlanProfile;

typedef struct StorePlanMember {
    int64_t user_id;
    int profile;        /* 0-based, -1: too little history */
    char *group, *domain, *role; /* domain, role may be NULL */
    int64_t end;        /* roster end, STORE_PLAN_NO_DATE */
    int njobs, mem_source;
    double gpu_hours, burst_frac;
    double raw[FEAT_COUNT];
} StorePlanMember;

/* Save a run with its profiles and members in one transaction; run->id is
 * set. */
int store_plan_run_save(Store *st, StorePlanRun *run, const StorePlanProfile *profiles, int k,
                        const StorePlanMember *members, size_t n, CpErr *err);
/* The latest run, its profiles and members. *found 0 when there is none.
 * Caller frees with store_plan_run_free. */
int store_plan_run_latest(Store *st, StorePlanRun *run, StorePlanProfile **profiles,
                          StorePlanMember **members, size_t *n, int *found, CpErr *err);
void store_plan_run_free(StorePlanRun *run, StorePlanProfile *profiles, int k,
                         StorePlanMember *members, size_t n);

/* A chosen name for a generated profile name (replaces an earlier one). */
int store_plan_rename(Store *st, const char *generated, const char *name, const char *who,
                      const char *reason, CpErr *err);
/* The chosen name of generated, copied into out (size n); 0 found, 1 none. */
int store_plan_chosen_name(Store *st, const char *generated, char *out, size_t n, CpErr *err);

/* ---- scenarios ---- */

typedef struct StorePlanScenario {
    char *name, *base, *who; /* base, who may be NULL */
    int64_t created_at;
    int nparams;
} StorePlanScenario;

int store_plan_scenarios(Store *st, StorePlanScenario **out, size_t *n, CpErr *err);
void store_plan_scenarios_free(StorePlanScenario *s, size_t n);

/* Create scenario name; with base (not NULL, a stored scenario), copy its
 * parameters. -1 with err when name exists or base does not. */
int store_plan_scenario_new(Store *st, const char *name, const char *base, const char *who,
                            CpErr *err);
/* Remove a scenario with its parameters and edits; -1 when absent. */
int store_plan_scenario_rm(Store *st, const char *name, CpErr *err);
/* 1 when a scenario of that name is stored, else 0; -1 on error. */
int store_plan_scenario_exists(Store *st, const char *name, CpErr *err);

typedef struct StorePlanParam {
    char *key, *group;   /* group "" for every group (or a non-group key) */
    double value, measured; /* measured NAN when it was not known */
    char *label, *reason, *who; /* may be NULL */
    int64_t at;
} StorePlanParam;

/* Every parameter edited in scenario name, by key and group. A scenario
 * not stored reads as none (the measured "base"). */
int store_plan_params(Store *st, const char *name, StorePlanParam **out, size_t *n,
                      CpErr *err);
void store_plan_params_free(StorePlanParam *p, size_t n);

/* Record an edit: the parameter now has value (measured beside it, NAN if
 * unknown), and the edit joins the scenario's history. label names the
 * profile of a gpus.N/mem.N key (may be NULL). -1 when the scenario is not
 * stored. */
int store_plan_param_set(Store *st, const char *scenario, const char *key, const char *group,
                         double value, double measured, const char *label, const char *reason,
                         const char *who, CpErr *err);
/* Drop an edit (back to the measured value), recorded in the history. */
int store_plan_param_unset(Store *st, const char *scenario, const char *key, const char *group,
                           const char *reason, const char *who, CpErr *err);
/* Undo the scenario's latest edit (its history entry goes too). *undone 0
 * when there was nothing to undo. */
int store_plan_undo(Store *st, const char *scenario, int *undone, CpErr *err);

/* One read transaction (a snapshot) over several reads, unless one is open
 * already: 1 begun (end it with store_plan_read_end), 0 not. */
int store_plan_read_begin(Store *st);
void store_plan_read_end(Store *st);

/* ---- the planner's cache (data/plan/plan_cache.c; store_plan_cache.c) ---- */

/* The state of the jobs as the planner's cache keys it, into buf (n
 * bytes): plan_cache_gen (bumped by triggers whenever a job block is
 * written or removed) and the highest job id. *clean = 1 when the job
 * blocks describe every job (none stale, none written since the last
 * sync), else 0 (and always on a database without them): then nothing may
 * be cached. 0, or -1 with err. */
int store_plan_jobs_state(Store *st, char *buf, size_t n, int *clean, CpErr *err);

/* *any = 1 when the database holds a job, else 0. 0, or -1 with err. */
int store_plan_has_jobs(Store *st, int *any, CpErr *err);

/* *any = 1 when the planner's caches (plan_cache, plan_cut_cache) hold an
 * entry, current or not: someone planned on this database. 0, or -1 with
 * err. */
int store_plan_cached(Store *st, int *any, CpErr *err);

/* The entry cached under key: *data (caller frees), *n bytes. 1 found; 0
 * none, or the database cannot say (no cache table): a miss, never an
 * error. */
int store_plan_cache_get(Store *st, const char *key, unsigned char **data, size_t *n);

/* Keep data under key, on a connection of its own that never waits: a
 * database another process is writing, or one this process may not write,
 * is left as it is (the next build tries again). Only the latest
 * STORE_PLAN_CACHE_KEEP entries stay. */
#define STORE_PLAN_CACHE_KEEP 8
void store_plan_cache_put(Store *st, const char *key, const unsigned char *data, size_t n);

/* ---- the per-cut cache (issue 31; data/plan/plan_cache.c; store_plan_cut.c) ---- */

/* The jobs' state a per-cut entry records: the greatest job id (*upto) and
 * the last edit logged (*edits; 0 none). 0; -1 when the database has no
 * per-cut cache (an older schema read-only): then nothing is cached. */
int store_plan_cut_state(Store *st, int64_t *upto, int64_t *edits);
/* The earliest start of a job added after upto or edited after edits (a
 * planning record's start: start, else submit); INT64_MAX when none,
 * INT64_MIN when the database cannot say (every entry is then stale). */
int64_t store_plan_cut_since(Store *st, int64_t upto, int64_t edits);
/* The entry of the cut at t0: its key (into key, nkey bytes), *upto,
 * *edits, *data (caller frees), *n bytes. 1 found, 0 not (or the database
 * cannot say). */
int store_plan_cut_get(Store *st, int64_t t0, char *key, size_t nkey, int64_t *upto,
                       int64_t *edits, unsigned char **data, size_t *n);
/* One cut's entry to keep. */
typedef struct StorePlanCut {
    int64_t t0, upto, edits;
    const char *key;
    const unsigned char *data;
    size_t n;
} StorePlanCut;
/* Keep the entries (each replaces its cut's), then drop the edits no entry
 * needs, on a connection of their own that never waits (as
 * store_plan_cache_put). */
void store_plan_cut_put(Store *st, const StorePlanCut *cuts, int n);

#endif
