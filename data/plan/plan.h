#ifndef PLAN_H
#define PLAN_H
/* plan: a planning model put together from the database: per-user
 * features over the window (core/features), compute profiles
 * (core/profiles), groups and domains (roster, else accounts), the
 * projection model (core/projection) with its measured parameters, a
 * scenario's edits on top of them, and the backtest (core/backtest).
 *
 * It reads through store_plan (all of its SQL) and computes through core/;
 * it prints nothing. Who uses it: the profile, project and scenario
 * commands, the dashboard and the report, so that all show the same
 * figures.
 *
 * The window: the window_months calendar months before the latest start
 * of a job that counts (GPUs held, 5 minutes or more), or before the cut of
 * a backtest; when there is none, before now. The group of a user is their
 * roster group (the roster line in force at the window's end, else their
 * latest one), else the account they used most in the window; a group's
 * domain is the groups table's, else its roster people's most common one,
 * else "unknown". When no job holds a GPU, CPUs stand in for GPUs
 * throughout (the pre-GPU traces), and cpu is set. */

#include <stddef.h>
#include <stdint.h>

#include "core/backtest.h"
#include "core/cp.h"
#include "core/features.h"
#include "core/forecast.h"
#include "core/profiles.h"
#include "core/projection.h"

typedef struct Store Store;
typedef struct PlanBacktest PlanBacktest; /* below */

#define PLAN_WINDOW_MONTHS 12
#define PLAN_MIN_JOBS 3
#define PLAN_MIN_RUN_S 300
#define PLAN_YEARS 3

typedef struct PlanOpts {
    int window_months;  /* 0: PLAN_WINDOW_MONTHS */
    int k;              /* 0: choose by silhouette */
    int min_jobs;       /* users with fewer jobs take their group's mix; 0: PLAN_MIN_JOBS */
    const char *roles;  /* comma-separated roster roles to keep ("unknown": users not on
                           the roster); NULL: everyone */
    int64_t cut;        /* 0: all data; else only jobs that started before it */
    int asof;           /* with cut: `project --as-of`: everything as known at cut (roster
                           lines started before it, end dates after it unknown, the
                           backtest's cuts before it only) */
    int years;          /* projection horizon; 0: PLAN_YEARS */
    int fresh;          /* 1: always recompute (never reuse the saved profiles) */
    int profiles_only;  /* 1: features and profiles only: no job history, backtest or
                           projection (model, measured and year_use stay NULL) */
} PlanOpts;

/* A past calendar year on the projection's scale (GPU-eq, CPUs with CPUs):
 * mean use over the part of the year the data covers, and the
 * inventory's mean capacity over it (GPUs x relative speed x share in
 * service). */
typedef struct PlanYearUse {
    int year;
    double months;      /* months of the year the data covers */
    double used, capacity;
} PlanYearUse;

/* One user of the window. */
typedef struct PlanUser {
    int64_t user_id;
    const char *name;    /* borrowed from the plan */
    int group;           /* index in groups */
    int profile;         /* 0-based, -1: too little history */
    const char *role;    /* roster role, NULL when not on the roster */
    int64_t leaves;      /* roster end date, PROJ_NEVER */
    FeatUser f;
    int zrow;            /* row in z, -1 when not clustered */
} PlanUser;

typedef struct Plan {
    int cpu;                     /* CPUs stand in for GPUs */
    int reused;                  /* profiles read from the saved run (not recomputed) */
    int64_t run_id;              /* saved run used or written, 0 none */
    int window_months, min_jobs, years;
    int64_t win_start, win_end;  /* window; win_end is t0 of the projection */
    FeatSummary summary;
    PlanUser *users;
    int nusers;
    /* clustering */
    FeatScale scale;
    double *z;                   /* nz x FEAT_COUNT */
    int nz;
    ProfFit fit;                 /* k profiles */
    char (*names)[PROFILES_NAME_MAX]; /* display names: chosen, else generated */
    char *roles;                 /* the role filter used, NULL all */
    /* groups and domains */
    char **groups;
    int ngroups;
    char **domains;
    int ndomains;
    int *group_domain;
    /* the projection (model v2) */
    int64_t year_start[PROJ_MAX_YEARS + 1];
    ProjModel *model;
    ProjParams *measured;
    double institute_growth, institute_buffer;
    char ref_model[32];          /* the GPU model of relative speed 1 ("CPU" with CPUs) */
    int unflagged_speed;         /* jobs whose model was guessed (cluster's most common) */
    int nproj_users;             /* the model's users (members with use in the window) */
    const char **proj_user_name; /* nproj_users names, borrowed from the plan */
    int bt_cuts;                 /* backtest cuts behind the calibration */
    PlanBacktest *bt;            /* the rolling backtest over every cut that calibrated the
                                    ranges (plan_backtest's figures with cut 0, but on the
                                    plan's roster and roles); owned, NULL with profiles_only */
    PlanYearUse *year_use;       /* calendar years of the data, oldest first */
    int nyear_use;
    /* owned strings behind users[].name and role */
    char **strings;
    size_t nstrings, capstrings;
} Plan;

/* Build the plan: features and profiles (reused from the latest saved run
 * when it is not stale: no import since, same unit, window, roles, k and
 * min_jobs; recomputed otherwise), groups, the projection model. Options
 * all left at 0/NULL (k, window_months, min_jobs, roles) take the saved
 * run's, so that a `capplan profile --k 4` is what later projections use.
 * Caller frees with plan_free. NULL with err on a database error. */
Plan *plan_build(Store *st, const PlanOpts *o, CpErr *err);
void plan_free(Plan *p);

/* Save the plan's features and profiles as a new run (capplan profile). */
int plan_save(Store *st, Plan *p, const char *who, CpErr *err);

/* After an import (once per command, after its last commit): build the plan
 * exactly as `capplan project` with default options does, so that the
 * planner's cache holds the entry the next build reads; with save_profiles,
 * the profiles are saved as project saves them (else no run is saved: the
 * demo's database keeps none until someone profiles). Nothing is done on a database without jobs or
 * whose job blocks are not synced; a cache already current is only read.
 * 0, or -1 with err (the import it follows has succeeded all the same).
 * data/plan/plan_refresh.c. */
int plan_cache_refresh(Store *st, int save_profiles, CpErr *err);

/* Index of a group by name, -1 when absent. */
int plan_group_index(const Plan *p, const char *name);
/* Profile number (0-based) named by s: "3" (1-based), a display or
 * generated name; -1 when none. */
int plan_profile_index(const Plan *p, const char *s);

/* Parameters of scenario name (NULL or "base": the measured ones) into a
 * new ProjParams (caller frees with projection_params_free). An edit that
 * no longer applies (a group or profile gone) is skipped and counted in
 * *skipped (may be NULL). */
int plan_params(Store *st, const Plan *p, const char *scenario, ProjParams **out, int *skipped,
                CpErr *err);

/* Apply one stored edit (key, group "" for all, label: generated profile
 * name or NULL) to params. 1 applied, 0 skipped (no longer applies), -1
 * with err on a bad key. */
int plan_apply(const Plan *p, ProjParams *params, const char *key, const char *group,
               const char *label, double value, CpErr *err);

/* The generated name of the profile a gpus.N/mem.N key names (NULL for
 * other keys or when out of range). Borrowed. */
const char *plan_key_label(const Plan *p, const char *key);

/* The rolling backtest of model v2 (docs/planning.md): at every monthly
 * cut with at least 6 months of data before it and 12 after, the model is
 * refit with only what was known at the cut (jobs started before it, the
 * roster as at the cut, every parameter re-measured, the half-life chosen
 * again from the earlier cuts whose year was over), projects 12 months,
 * and is scored against what each group used, beside the naive forecast
 * (each group's last 12 months, or the months that exist). All figures
 * mean GPU-eq (CPUs when cpu). */
typedef struct PlanBtCut {
    int64_t cut, until;           /* scored: [cut, until) */
    double halflife;              /* months, chosen at this cut */
    double wape_model, wape_naive; /* per-group WAPE of expected use, of naive */
    double actual, model, naive;  /* institute totals */
    double err_model, err_naive;  /* (forecast - actual) / actual of the totals */
    /* issue 28: "model" above is the forecaster chosen at this cut (core/forecast.h) */
    int cand;                     /* the forecaster chosen at the cut (FcCand) */
    int nrec;                     /* earlier origins behind the choice */
    int apart;                    /* the following year's capacity changed > 25 %: left out */
    int calibrated, cover_total;  /* a range from earlier cuts; the total inside it */
    double lo, hi;                /* the total's p10-p90 range (NAN: not calibrated) */
    double cover_groups;          /* share of the groups' use inside their ranges */
    double cand_wape[FC_NCAND], cand_err[FC_NCAND]; /* every forecaster at this cut */
} PlanBtCut;

typedef struct PlanBacktest {
    int cpu;
    char ref_model[32];
    int ncuts;
    PlanBtCut *cuts;              /* owned */
    double mean_wape_model, mean_wape_naive;   /* over the cuts */
    double mae_model, mae_naive;               /* mean |total error| */
    double bias_model, bias_naive;             /* mean total error */
    double ratio_p10, ratio_p50, ratio_p90;    /* actual / forecast of the total */
    ProjCalib calib;                           /* what projections use */
    double wape_by_half[DEM_NHALF];            /* mean per-group WAPE per half-life */
    /* the detail of the last cut scored (the one asked for with a date) */
    int64_t cut, scored_until;
    double scored_months;
    int ngroups;
    char **groups;              /* owned */
    BtGroup *g;                 /* ngroups */
    double *cut_model, *cut_actual, *cut_naive; /* ncuts x ngroups, per group and cut */
    BtScore score;
    int profiles;               /* 0: profiles are not refit per cut */
    int users;                  /* active users at the cut */
    /* issue 28: the forecasters' records over the cuts (rec[FC_NCAND]: the
     * forecaster chosen at each cut), the one chosen now (at the history's
     * end: what `project` uses) and its forecast per history group (target,
     * hist groups + 1: the institute total; NULL without the fit) */
    FcRec rec[FC_NCAND + 1];
    FcChoice choice;
    int napart;                 /* cuts left out (capacity changed > 25 %) */
    int ntarget;
    char **target_groups;       /* ntarget names, owned */
    double *target;             /* ntarget + 1, owned */
} PlanBacktest;

/* "forecaster: smoothing, half-life 2 months, best over 14 cuts" into buf. */
void plan_forecaster_text(const PlanBacktest *b, char *buf, size_t n);
/* "p10-p90 held 24 of 30 past cuts" (the chosen forecasters' totals at
 * each cut with a range), or "p10-p90 not yet tested" into buf. */
void plan_coverage_text(const PlanBacktest *b, char *buf, size_t n);

/* o->cut 0: every cut; else that cut alone (the first second of a month
 * that has 6 months of data before it; scored on what exists after it). */
int plan_backtest(Store *st, const PlanOpts *o, PlanBacktest *out, CpErr *err);
void plan_backtest_free(PlanBacktest *b);

/* Calendar arithmetic: t moved by months (negative: back), day clamped to
 * the month's length. */
int64_t plan_add_months(int64_t t, int months);
/* yyyymm of t. */
int64_t plan_month_of(int64_t t);
/* 1 when t is the first second of a month (UTC). */
int plan_is_month_start(int64_t t);

/* The projection as CSV, the same columns in `capplan project --csv` and
 * the report's projection.csv: kind, name, domain, year, from, to (text),
 * then PLAN_CSV_NUMS numbers whose headers say their unit (people,
 * GPU-eq), the p10 and p90 of expected use and need in columns of their
 * own; capacity and gap only on the total rows. */
#define PLAN_CSV_TEXTS 6
#define PLAN_CSV_NUMS 29
extern const char *const plan_csv_cols[PLAN_CSV_TEXTS + PLAN_CSV_NUMS];
/* The numbers of one row (g for a group, else t for a domain or, with
 * total set, the institute) into v[PLAN_CSV_NUMS]; NAN where a cell is
 * empty (no range, no capacity). The class gaps nest (memclass_nest). */
void plan_csv_values(const ProjGroupYear *g, const ProjTotals *t, int total, double *v);

/* "112-158 GPU-eq" (unit appended when not NULL), or "not calibrated"
 * when r has no range; into buf (n bytes). */
void plan_range_text(ProjRange r, const char *unit, char *buf, size_t n);

/* Who is making an edit, for a scenario's history: $USER, else the login
 * of the process's user, else "unknown". Static storage. */
const char *plan_who(void);

#endif
