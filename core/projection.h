#ifndef PROJECTION_H
#define PROJECTION_H
/* projection: model v2 of GPU demand per group and year (DESIGN.md "Core
 * model", docs/planning.md), every term kept for display and explanation.
 *
 * One unit everywhere: GPU-eq, mean concurrent GPUs x the relative speed
 * of their model (the reference model = 1.0), over a projected year. Use,
 * need, capacity, purchases and gaps are all GPU-eq.
 *
 * projection_prepare turns what core/demand measured at t0 (each active
 * user's own rates, groups' growth, newcomers' rate, pools, the
 * institute's intensity and shared pool), the roster's end and start
 * dates, the inventory and the backtest's calibration into a ProjModel
 * once. projection_run is then a pure function of (model, parameters)
 * that allocates nothing: the dashboard calls it on every keystroke.
 *
 * For group g and projected year y (y = 1..Y, [t0 + 12(y-1) months,
 * t0 + 12y months)):
 *   stayers   = sum of today's members' own rates u_i (half-life H);
 *   leavers   = - sum u_i x (1 - share of year y before their roster end);
 *   heads     = members present + roster arrivals + newcomers, where
 *               newcomers = max(0, N_g(t0) G(r_g, y) - present - arrivals),
 *               N_g(t0) the members still there at t0 (roster end after it),
 *               G(r, y) = prod_k=1..y (1 + r 0.5^(k-1)) (damped growth: the
 *               measured rate in year 1, halved each year after);
 *   newcomers_use = (arrivals + newcomers) x the group's newcomer rate
 *               (this year's new heads at the ramp, earlier ones at the
 *               group's full rate: newrate / ramp);
 *   intensity = (stayers + leavers + newcomers_use) x ((1 + I)^y - 1);
 *   base      = expected use = stayers + leavers + newcomers_use + intensity;
 *   pool      = pool_g x heads / N_g(0) (N_g(0) = 0: pool_g);
 *   buffer    = (base + pool) x buffer_g;
 *   stated    = what the group's members stated they need beyond their own
 *               expected use (issue 28, projection_set_stated): each
 *               stating member's max(0, stated GPUs x share of the year
 *               present - their expected use), plus the whole stated need
 *               of stating members without use in the window; no buffer,
 *               not capped;
 *   need      = base + pool + buffer + stated  (the parts above sum to it);
 * institute: need = (sum base + pool_inst x heads ratio) x (1 + buffer)
 *               + sum stated,
 * the difference from the sum of the groups' pools being "shared";
 * by memory class: each member's own class (their peak GPU memory),
 * newcomers and pool like the group's members' use;
 * capacity_c(y) = inventory GPUs of class c x relative speed x share of the
 * year in service, plus purchases (N GPUs of a model from year K on);
 * gap_c = need_c - capacity_c.
 * Ranges: every figure v of year y carries [v e^(q10 s_y), v e^(q90 s_y)],
 * q10/q90 the 10th/90th percentiles of log(actual / forecast) of the
 * institute's total over the backtest cuts; not calibrated below 3 cuts;
 * s_1 = 1, s_y = widen2 sqrt(y / 2) when year 2 was measured (calib.widen2),
 * else sqrt y.
 *
 * Pure computation over plain structs: no I/O, no SQLite, no curses. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"
#include "core/demand.h"
#include "core/profiles.h"

#define PROJ_MAX_YEARS 10
#define PROJ_WARN_YEARS 5 /* past this, outputs warn */
#define PROJ_NEVER INT64_MAX /* no end date */
#define PROJ_MIN_CUTS 3      /* backtest cuts needed for a calibrated range */
#define PROJ_MAX_MODELS 16   /* GPU models of the inventory that purchases name */
#define PROJ_GROWTH_DAMP 0.5 /* head growth of year k is r x 0.5^(k-1) */

/* One of today's members (a user with use in the window). */
typedef struct ProjUser {
    int group;                /* 0..ngroups-1 */
    int profile;              /* 0..nprofiles-1, -1: too little history */
    double rate[DEM_NHALF];   /* own rate per half-life, GPU-eq */
    double mem_gib;           /* own peak GPU memory, -1 unknown */
    int64_t leaves;           /* roster end date, PROJ_NEVER when none */
    int matured;              /* arrived in the last DEM_MATURE_MONTHS: rate includes the
                                 maturation (DemUser.matured) */
    double churn;             /* with leaves PROJ_NEVER: the yearly share of such members who
                                 leave (their group's measured churn, core/leavers.h); 0 none
                                 (issue 28) */
} ProjUser;

/* Someone on the roster who starts after t0. */
typedef struct ProjArrival {
    int group;
    int64_t start, end; /* end PROJ_NEVER when none */
} ProjArrival;

/* An inventory row. */
typedef struct ProjGpus {
    double gpus, mem_gib, speed; /* speed 1 when unknown */
    int64_t from, to;            /* in service [from, to); to PROJ_NEVER */
    int model;                   /* index in ProjInput.models, -1 none */
} ProjGpus;

/* A GPU model purchases can name. */
typedef struct ProjModelInfo {
    char name[32];
    double speed, mem_gib;
} ProjModelInfo;

/* The backtest's calibration of the institute total. */
typedef struct ProjCalib {
    int ncuts;          /* < PROJ_MIN_CUTS: not calibrated */
    double q10, q90;    /* percentiles of log(actual / forecast) */
    double buffer;      /* measured buffer: p80 of actual / forecast - 1, >= 0 */
    int half;           /* index of the chosen half-life (dem_halflives) */
    double widen2;      /* year 2's range / year 1's in the exponent, measured on the cuts
                           with 24 months after (issue 28); 0: not measured, sqrt(2).
                           Year y > 2: widen2 x sqrt(y / 2) */
} ProjCalib;

typedef struct ProjInput {
    int ngroups, nprofiles, ndomains, nyears; /* nyears 1..PROJ_MAX_YEARS */
    const int *group_domain;        /* ngroups: 0..ndomains-1 */
    const ProjUser *users;
    int nusers;
    const ProjArrival *arrivals;
    int narrivals;
    const ProjGpus *gpus;
    int ngpus;
    const ProjModelInfo *models;
    int nmodels;                    /* <= PROJ_MAX_MODELS */
    const DemFit *fit;              /* groups' growth, newcomers, pools; institute */
    ProjCalib calib;
    int64_t t0;                     /* start of projected year 1 */
    const int64_t *year_start;      /* nyears + 1 boundaries, [0] == t0 */
} ProjInput;

typedef struct ProjModel ProjModel;

/* The parameters a scenario edits. Measured values come from the model.
 * gpus/mem hold each profile's measured members' mean rate / 75th
 * percentile memory; while a value equals the measured one, each member
 * keeps their own rate and memory class; edited, it replaces them for the
 * profile's members (gpus_g: for one group's; NAN: not set). */
typedef struct ProjParams {
    int ngroups, nprofiles, nyears, nmodels;
    double *growth, *pool, *buffer; /* ngroups each */
    double intensity;               /* institute, a share a year */
    double growth_inst;             /* institute head growth, a share a year */
    double halflife;                /* months: 1, 3, 6 or 12 */
    double *gpus, *mem;             /* nprofiles: members' rate, memory (see above) */
    double *gpus_g;                 /* ngroups x nprofiles: group's own, NAN none */
    double purchase[PROJ_MAX_MODELS][PROJ_MAX_YEARS]; /* GPUs of model m bought for year K */
} ProjParams;

/* Build the model (copies what it needs from in). Caller frees with
 * projection_model_free. */
ProjModel *projection_prepare(const ProjInput *in);
void projection_model_free(ProjModel *m);

int projection_ngroups(const ProjModel *m);
int projection_nprofiles(const ProjModel *m);
int projection_nyears(const ProjModel *m);
int projection_ndomains(const ProjModel *m);
int projection_group_domain(const ProjModel *m, int g);
/* Members today (N_g(0)) and the group's mix (nprofiles shares). Borrowed. */
double projection_heads0(const ProjModel *m, int g);
const double *projection_mix(const ProjModel *m, int g);
/* What group g used over the 12-month window before t0, mean GPU-eq ("used
 * now"; g < 0: the institute, the sum of its groups); a history that starts
 * inside the window: the mean over the part of it the data covers (as the
 * Overview's years are over the part of each year it covers). */
double projection_used_now(const ProjModel *m, int g);
/* The share of that window the data covers (1: all of it). */
double projection_window_cover(const ProjModel *m);
/* The measured ramp of group g (newcomers' first-year use / the members'
 * mean; g < 0: the institute's). */
double projection_ramp(const ProjModel *m, int g);
/* [from, to) of year y (1-based). */
void projection_year_span(const ProjModel *m, int y, int64_t *from, int64_t *to);
/* The calibration the model was built with. Borrowed. */
const ProjCalib *projection_calib(const ProjModel *m);
/* GPU models purchases can name; speed of model i. */
int projection_nmodels(const ProjModel *m);
const ProjModelInfo *projection_model_info(const ProjModel *m, int i);
/* Index of a model by name (case-insensitive), -1 none. */
int projection_model_index(const ProjModel *m, const char *name);
/* The measured growth of group g and whether it was capped; the
 * institute's intensity (measured, capped). */
double projection_growth_raw(const ProjModel *m, int g, int *capped);
double projection_intensity_raw(const ProjModel *m, int *capped);

/* The measured parameters. Caller frees with projection_params_free. */
ProjParams *projection_params_new(const ProjModel *m);
ProjParams *projection_params_copy(const ProjParams *p);
void projection_params_free(ProjParams *p);
/* Back to the measured values. */
void projection_params_reset(const ProjModel *m, ProjParams *p);

/* Set one parameter by key: "growth", "pool", "buffer" (group g, or every
 * group when g < 0), "intensity", "halflife" (institute), "gpus.N"
 * (profile N's members' rate, GPU-eq, 1-based: for every group when g < 0,
 * for group g alone otherwise), "mem.N" (profile N's memory, GiB),
 * "purchase.MODEL.yK" (N GPUs of an inventory model for year K on).
 * Returns 0, or -1 with err on an unknown key (the keys of model v1,
 * "share", "burst" and "purchase.CLASS.yK", are refused with a message
 * naming the new key), a group given to an institute key, or a value out
 * of range. */
int projection_param_set(const ProjModel *m, ProjParams *p, const char *key, int g,
                         double value, CpErr *err);
/* The value of key for group g (g < 0: the first group, or the profile,
 * institute or purchase key itself) in p; "gpus.N"/"mem.N" as measured:
 * the members' mean rate / 75th percentile memory. -1 with err as
 * projection_param_set. */
int projection_param_get(const ProjModel *m, const ProjParams *p, const char *key, int g,
                         double *value, CpErr *err);
/* 1 when key is a group-level key ("growth", "pool", "buffer"). */
int projection_key_is_group(const char *key);
/* 1 when key may be given for one group: the group-level keys and
 * "gpus.N". */
int projection_key_takes_group(const char *key);
/* The message refusing a key of model v1 (names the key to use instead),
 * NULL when key is not one. Static storage. */
const char *projection_old_key(const char *key);
/* The per-member rate of profile q (0-based) in group g under p: the
 * group's own value when set, else the profile's (measured: the members'
 * mean). */
double projection_gpus_of(const ProjParams *p, int g, int q);

/* The memory (GiB) of profile q under p: edited, else measured (-1
 * unknown). */
double projection_mem_of(const ProjModel *m, const ProjParams *p, int q);

/* A low-high range; lo = hi = NAN when not calibrated. */
typedef struct ProjRange {
    double lo, hi;
} ProjRange;

/* Terms of one group and year (GPU-eq unless said). */
typedef struct ProjGroupYear {
    double stay, arrivals, newcomers, heads; /* people (present share of the year) */
    double stayers, leavers, newcomers_use, intensity; /* parts of base */
    double base;                 /* expected use */
    double pool, buffer_add;     /* parts of need */
    double pool_cut;             /* the measured pool left out by the cap (issue 28,
                                    projection_cap_pools); an edited pool is not capped */
    double stated;               /* the stated need beyond expected use (issue 28) */
    double demand;               /* need = base + pool + buffer_add + stated */
    double demand_c[MEMCLASS_COUNT];
    ProjRange base_r, demand_r;
} ProjGroupYear;
#define PROJ_NEED_CAP 3.0

typedef struct ProjTotals {
    double heads, base, pool, buffer_add, demand; /* institute: pool shared, see pool_sum */
    double stated;                                /* the groups' stated parts, summed */
    double new_groups, new_heads; /* institute: newcomers beyond the groups' own growth
                                     (groups that do not exist yet), in base */
    double pool_sum;                              /* sum of the groups' pools */
    double demand_c[MEMCLASS_COUNT], capacity_c[MEMCLASS_COUNT], gap_c[MEMCLASS_COUNT];
    double capacity, gap;
    ProjRange base_r, demand_r, gap_r;
} ProjTotals;

typedef struct ProjResult {
    int ngroups, nprofiles, ndomains, nyears;
    ProjGroupYear *gy;    /* ngroups x nyears: gy[g * nyears + (y - 1)] */
    ProjTotals *dom;      /* ndomains x nyears (sums of groups; capacity unused) */
    ProjTotals *total;    /* nyears */
    double *scratch;      /* ngroups x MEMCLASS_COUNT, for projection_run */
} ProjResult;

/* Allocate a result shaped for m. Caller frees with projection_result_free. */
ProjResult *projection_result_new(const ProjModel *m);
void projection_result_free(ProjResult *r);

/* Compute every term. Pure: reads m and p, writes r; allocates nothing.
 * No term is NaN or infinite. */
void projection_run(const ProjModel *m, const ProjParams *p, ProjResult *r);

/* The range of value v in year y under calibration c. */
ProjRange projection_range(const ProjCalib *c, double v, int y);

/* The group of model user i, their share of year y present (before their
 * roster end), and their rate under p (GPU-eq). */
int projection_user_group(const ProjModel *m, int user);
/* The roster end date of model user i (PROJ_NEVER: none); 1 when their
 * rate includes the maturation of the newly arrived. */
int64_t projection_user_leaves(const ProjModel *m, int user);
int projection_user_matured(const ProjModel *m, int user);
/* The yearly churn model user i leaves by: their group's measured churn when
 * no leave date is known (issue 28), else 0. */
double projection_user_churn(const ProjModel *m, int user);
/* The measured maturation (DemFit.maturation; 1 without a fit), and group
 * g's members still there at t0 (roster end after it: the heads its
 * newcomers keep, times the growth; g < 0: the institute). */
double projection_maturation(const ProjModel *m);
/* The factor group g's recent arrivals' rates carry together (the
 * maturation capped at a member's mean use each: DemGroup.mature_factor),
 * and how many they are (*n). */
double projection_group_maturation(const ProjModel *m, int g, int *n);
double projection_heads_t0(const ProjModel *m, int g);
double projection_user_present(const ProjModel *m, int user, int y);
double projection_user_rate(const ProjModel *m, const ProjParams *p, int user);

/* Issue 28: the forecaster chosen by the backtest sets each group's level.
 * Group g's members' and newcomers' use (before intensity) is multiplied by
 * level (g < 0: the institute's new groups); extra is use the forecaster
 * gives groups without members now, added to the new groups (once a year,
 * before intensity). A group's range takes its own q10/q90 (the spread of
 * its size class's errors) when set, else the institute's. A need's range
 * always holds the need. */
void projection_set_level(ProjModel *m, int g, double level);
double projection_level(const ProjModel *m, int g);
void projection_set_extra(ProjModel *m, double extra);
/* Issue 28: caps each group's measured pool (its rate per head) so that its
 * year-1 need under the measured parameters is at most PROJ_NEED_CAP x its
 * last 12 months' use + its named (roster) arrivals' use; run once the
 * levels are set. An edited pool (a stated need) is never capped; a
 * scenario's heads scale the capped rate as they scale the pool. */
void projection_cap_pools(ProjModel *m, const ProjParams *measured);
void projection_set_group_range(ProjModel *m, int g, double q10, double q90);
/* Issue 28: a member's stated need, GPUs full-time (1 GPU = 1 GPU-eq, the
 * reference model's): model user `user` (>= 0), or, for someone the model
 * has no use of (user < 0), group g's need grows by all of it. The need's
 * part `stated` (above) follows; NAN or negative gpus: nothing. */
void projection_set_stated(ProjModel *m, int user, int g, double gpus);
/* Model user i's stated GPUs, NAN none. */
double projection_stated_of(const ProjModel *m, int user);

/* One member's year-y expected use under p (GPU-eq), for explanations:
 * own rate x share of the year present x intensity. user indexes
 * ProjInput.users. */
double projection_user_use(const ProjModel *m, const ProjParams *p, int user, int y);

#endif
