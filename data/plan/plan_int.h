#ifndef PLAN_INT_H
#define PLAN_INT_H
/* plan_int: what the files of the plan module (plan.c, plan_build.c,
 * plan_scen.c) share and nobody else uses: the tables read once per build
 * and the steps of plan_build. Not a public interface. */

#include <stdint.h>

#include "core/demand.h"
#include "core/strmap.h"
#include "data/plan/plan.h"
#include "data/store/store_plan.h"

/* What the pass over the history computed (plan_hist.c, plan_cache.c). */
typedef struct PlanHistRun PlanHistRun;
struct PlanHistRun {
    int n;                   /* origins: every month start with 6 months before, some after */
    int G;
    int64_t one;             /* the cut asked for (0: every cut) */
    int64_t *cut, *until;
    DemFit *fit;             /* n: at each origin (pools when 12 months follow) */
    int T, Tfull;            /* months of history [m0, data_end); of them complete */
    int64_t m0;
    double *months;          /* T x G: each month's mean use (the part before hist_end) */
    double *hours;           /* T: the hours each month covers */
    double *one_act;         /* G: use after the cut asked for, to the data's end */
    int *om;                 /* n: month index of each origin */
    double *f;               /* n x DEM_NHALF x (G + 1): the model's forecasts */
    double *today;           /* DEM_NHALF x (G + 1) at the fit (fit_t), or NULL */
    unsigned char *apart;    /* n */
    int *users;
    double *pool;            /* n: the institute's pool at each origin */
    int64_t y0;              /* past years: y0.., nyears of them */
    int nyears;
    double *years;           /* nyears x G */
    /* the per-cut cache (issue 31, plan_cache.c): cuts read from it, and the
     * jobs' state the pass read (the greatest job id, the edit log's last) */
    unsigned char *cached;   /* n: 1 fit[i] and its forecasts read back, 2 the fit
                                alone (widened to groups added since) */
    int cut_cache;           /* 1: read and write per-cut entries */
    int64_t upto, edits;
    int64_t *eupto, *eedits; /* n: a read entry's own (kept when it is widened) */
    uint64_t base[2];        /* the hash of the inputs every cut's key holds */
    uint64_t save[2];        /* ... with every group, user and account now */
};

typedef struct PlanCtx {
    StorePlanNames users, accounts;
    StorePlanPerson *people;      /* ordered by user, start */
    size_t npeople;
    StrMap *roster;               /* user name -> index of the line in force */
    StorePlanGroup *gtab;         /* the groups table */
    size_t ngtab;
    StrMap *gidx;                 /* group name -> index in the plan's groups */
    int have_run;                 /* run, profiles, members loaded */
    StorePlanRun run;
    StorePlanProfile *profiles;
    StorePlanMember *members;
    size_t nmembers;
    StorePlanUsage *usage;        /* months [usage_from, usage_to) */
    size_t nusage;
    int64_t usage_from, usage_to; /* yyyymm */
    ProjArrival *arrivals;
    int narrivals;
    /* model v2: the job history (plan_hist.c, plan_stream.c): its bounds and
     * spans (hist: no jobs held), what the pass over it computed (hrun) */
    PlanHistRun *hrun;
    double *hspeed;               /* relative speed per (cluster, GPU type) kind */
    size_t nhspeed;
    int hgroups_scanned;          /* hist.ngroups after the scan */
    DemGpus *hfleet;              /* the inventory, for re-pricing past use (hist.fleet) */
    int64_t *hspans;              /* hist.span_end and span_start, one allocation */
    DemHist hist;
    char **hgroups;               /* hist.ngroups names */
    StrMap *hgidx;                /* group name -> index in hgroups */
    ProjModelInfo models[PROJ_MAX_MODELS];
    int nmodels;
    int64_t data_end;             /* the latest end of a run (the as-of date with one) */
    int64_t hist_end;             /* what the forecasters read: the latest start + 1, or
                                     the as-of date (nothing at or after it is read) */
    int64_t now_t;                /* what the roster says is known from this time on
                                     (the fit's); at an earlier cut, only end dates
                                     before it and no later start */
    int64_t asof;                 /* `project --as-of`: only jobs started before it, the
                                     roster as known then (0: everything) */
    DemFit fit;                   /* at the plan's window end */
    /* the cache (plan_cache.c) */
    int nocache;                  /* set by the caller: neither read nor write the cache */
    int cached;                   /* the history's results read from the cache (no job read) */
    int cache_save;               /* computed here: save them under cache_key when done */
    char cache_key[512];
} PlanCtx;

void plan_ctx_init(PlanCtx *c);
void plan_ctx_done(PlanCtx *c);
/* Names, roster, groups table. */
int plan_ctx_load(Store *st, Plan *p, PlanCtx *c, CpErr *err);
/* The inventory as known at c->asof (rows in service from before it; their
 * end after it unknown); nothing when c->asof is 0. */
void plan_inventory_asof(const PlanCtx *c, StorePlanGpus *inv, size_t *n);
/* Pick each user's roster line as at t (in force, else the latest
 * started, else the earliest to come). */
void plan_ctx_roster(PlanCtx *c, int64_t t);
/* The latest saved run (c->have_run, *found). */
int plan_ctx_saved(Store *st, PlanCtx *c, int *found, CpErr *err);

/* Users and features from the jobs in [from, before): one pass over them
 * when they fit the jobs budget, else a counting pass and one pass per
 * batch of users whose jobs fit it (the same figures). */
int plan_from_jobs(Store *st, Plan *p, const PlanOpts *o, PlanCtx *c, int64_t from,
                   int64_t before, CpErr *err);
/* For tests: the most jobs held at once (0: the default, 2^20). */
void plan_jobs_budget(size_t n);
/* Users, features and profiles from the saved run. */
int plan_from_run(Store *st, Plan *p, PlanCtx *c, CpErr *err);
/* Arrivals' groups, then every group's domain. */
int plan_groups_finish(Store *st, Plan *p, PlanCtx *c, CpErr *err);
/* Measured growth and buffer, then the projection model. */
int plan_projection(Store *st, Plan *p, PlanCtx *c, CpErr *err);

/* Model v2 (plan_hist.c): the reference model and purchasable models from
 * the inventory; then what the history gives: from the cache (c->cached;
 * p->bt, p->year_use, c->fit filled), else from two passes over the jobs in
 * one snapshot (c->cache_save when it may be cached): the rolling backtest's
 * fits and sums (one: that cut alone, checked: 6 months of data before it,
 * some after; 0: every cut) and, with fit_t, the fit at fit_t
 * (plan_hist_fit) and the past years' use. roster_t: the time of the
 * roster the jobs' groups were taken from. */
int plan_hist_load(Store *st, Plan *p, PlanCtx *c, int64_t roster_t, int64_t fit_t, int64_t one,
                   CpErr *err);
/* Free c->hrun. */
void plan_hist_free(PlanCtx *c);
/* The speed of a (cluster, GPU type): the inventory's model of that name on
 * that cluster, else on any cluster, else the cluster's most common model
 * (*guessed = 1), else 1. */
double plan_kind_speed(const StorePlanGpus *inv, size_t n, const StorePlanKind *k, int *guessed);
/* The history group of a job of (user, account), remembered per user in
 * ucache (users.n pairs, account -2 none). */
int plan_job_group(PlanCtx *c, int64_t (*ucache)[2], int64_t user, int64_t account);
/* The month boundaries of a fit at t0 (nothing else of cut set). */
void plan_hist_months(int64_t t0, DemCut *cut);

/* The passes (plan_stream.c). The scan: c->hist's bounds, groups, count of
 * jobs and spans (no job held), p->unflagged_speed, c->hspeed. 0, or -1
 * with err. */
int plan_hist_scan(Store *st, Plan *p, PlanCtx *c, const StorePlanGpus *inv, size_t ninv,
                   CpErr *err);
/* A fit at t0 (pools or not) into *out; a period's use per history group
 * into out[hist.ngroups] (zeroed first). */
typedef struct PlanFeedReq {
    int64_t t0;
    int pools;
    DemFit *out;
} PlanFeedReq;
typedef struct PlanSumReq {
    int64_t from, to;
    double *out;
} PlanSumReq;
/* The second pass: every fit and sum asked for, as demand_fit and
 * demand_actual give them over the jobs held in memory (the fits in several
 * passes when their hourly curves would pass the budget below). 0, or -1
 * with err (the jobs changed since the scan: run again). */
int plan_hist_pass(Store *st, Plan *p, PlanCtx *c, const PlanFeedReq *fits, int nfits,
                   const PlanSumReq *sums, int nsums, CpErr *err);
/* For tests: the bytes of hourly curves a pass may hold at once before the
 * fits are fed in several passes (0: the default, 48 MiB; issue 31 item 2). */
void plan_pools_budget(size_t n);

/* The month boundaries of a fit at t0 and each user's roster end as at t0
 * (leaves, on_roster: c->users.n entries, caller-owned). */
void plan_hist_cut(PlanCtx *c, int64_t t0, DemCut *cut, int64_t *leaves, int *on_roster);
/* Arrivals after t0 (roster people starting later) in hist group indexes;
 * caller frees. */
ProjArrival *plan_hist_arrivals(const Plan *p, const PlanCtx *c, int64_t t0, int *n);
/* The churn a member of hist group g whose leave date is leaves gets from
 * fit f: the group's measured churn when no date is known, else 0. */
double plan_hist_churn_of(const DemFit *f, int g, int64_t leaves);
/* The groups of the fit at the plan's window end's active members added to
 * the plan. */
int plan_hist_fit(Plan *p, PlanCtx *c);
/* Past calendar years' use and capacity in GPU-eq (p->year_use). */
void plan_hist_years(Plan *p, const PlanCtx *c, const ProjGpus *gpus, int ngpus);
/* The rolling backtest over the loaded history (cut 0: every cut). */
int plan_hist_backtest(const Plan *p, PlanCtx *c, int64_t cut, PlanBacktest *out, CpErr *err);

/* The planner's cache (plan_cache.c). The key of what the history gives
 * (jobs, users, accounts, clusters, roster, inventory, roles, unit, roster
 * time, fit time) into key: 1; 0 when nothing may be cached (the job
 * blocks are not current); -1 with err. */
int plan_cache_key(Store *st, const Plan *p, const PlanCtx *c, const StorePlanGpus *inv,
                   size_t ninv, int64_t roster_t, int64_t fit_t, char *key, size_t n, CpErr *err);
/* Save the history's results (p->bt; with_fit: c->fit and p->year_use)
 * under key; a database that cannot take them is left alone. */
void plan_cache_save(Store *st, const char *key, const Plan *p, const PlanCtx *c, int with_fit);
/* Read them back: 1 (c->hgroups, hgidx, hist bounds, p->unflagged_speed,
 * p->bt and, with_fit, c->fit and p->year_use set), 0 not cached. */
int plan_cache_load(Store *st, const char *key, Plan *p, PlanCtx *c, int with_fit);

/* The per-cut cache (issue 31): each cut's fit (after its churn) and
 * forecasts kept between builds, an entry good while every job added or
 * edited since starts at or after its cut. plan_cuts_load: when
 * c->hrun->cut_cache, the good entries into c->hrun (cached[i] = 1) and
 * their requests taken out of fits; plan_cuts_save: the cuts computed here
 * kept (a database that cannot take them is left alone). */
void plan_cuts_load(Store *st, const Plan *p, PlanCtx *c, const StorePlanGpus *inv, size_t ninv,
                    PlanFeedReq *fits, int *nfits);
void plan_cuts_save(Store *st, const Plan *p, const PlanCtx *c);

/* The forecaster chosen by the backtest (p->bt->choice, target) applied to
 * p->model: each group's level so that its year-1 expected use under the
 * measured parameters is the forecaster's, its range from its size
 * class's errors (plan_forecast.c); then each group's measured pool capped
 * (projection_cap_pools, issue 28). */
void plan_forecast_apply(Plan *p);

/* Where the data's present ends: the latest start + 1 s (t), or the first
 * of the next month when t falls in its month's last day (a month whose
 * last day is in the data is whole: a database holding the jobs started
 * before a month's first day projects from that day, as `--as-of` does). */
int64_t plan_obs_end(int64_t t);

/* Window and projected years from the window's end. */
void plan_set_window_end(Plan *p, int64_t win_end);
/* Standardise and cluster (plan.c). */
void plan_scale(Plan *p);

/* Helpers of plan.c. */
const char *plan_keep(Plan *p, const char *s);
int plan_group_add(Plan *p, StrMap *idx, const char *name);
int64_t plan_ym_add(int64_t ym, int months);
int64_t plan_ym_start(int64_t ym);
/* The group name of a usage row or a user: roster group, else account. */
const char *plan_group_of(const PlanCtx *c, int64_t user_id, int64_t account_id);
/* 1 when role passes the filter. */
int plan_role_kept(const char *filter, const char *role);
/* The roster line of user as picked by plan_ctx_roster, or NULL
 * (plan_roster.c). */
const StorePlanPerson *plan_roster_of(const PlanCtx *c, const char *user);
/* Name id of nm, or NULL when out of range (plan_roster.c). */
const char *plan_name_of(const StorePlanNames *nm, int64_t id);

#endif
