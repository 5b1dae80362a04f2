#ifndef PROJECTION_H
#define PROJECTION_H
/* projection: GPU demand per group and year from compute profiles, as
 * DESIGN.md "Core model" defines it, with every term kept for display.
 *
 * projection_prepare turns what was measured (today's members and their
 * profiles, roster end and start dates, the inventory, measured growth and
 * buffer) into a small ProjModel once. projection_run is then a pure
 * function of (model, parameters) that allocates nothing: the dashboard
 * calls it on every keystroke (microseconds for a hundred groups).
 *
 * For group g and projected year y (y = 1..Y, the y-th 12-month period
 * after t0):
 *   stay_g,p(y)  today's members expected present in year y (the share of
 *                the year before their roster end date), profile by
 *                profile; a member with too little history counts in the
 *                group's mix;
 *   arrivals_g(y) roster people whose start date falls after t0, present
 *                share of the year;
 *   target_g(y)  = N_g(0) x (1 + r_g)^y  (the group grows at r_g a year);
 *   newcomers_g(y) = max(0, target - sum_p stay - arrivals): graduates are
 *                replaced and growth is filled by newcomers;
 *   N_g,p(y)     = stay_g,p + (arrivals + newcomers) x mix_g,p  (mix: the
 *                group's profile shares, else its domain's, else all);
 *   base_g(y)    = sum_p N_g,p(y) x b_p;
 *   pool_g(y)    = ceil(s_g x N_g(y)) x h_g;
 *   demand_g(y)  = (base + pool) x (1 + buffer_g), by memory class: each
 *                profile's base goes to the class of its memory m_p, the
 *                pool is split like the base (all to "unknown" if base 0);
 *   by domain    = the sum of its groups;
 *   capacity_c(y) = sum of inventory GPUs of class c x relative speed x the
 *                share of year y they are in service, plus purchases;
 *   gap_c(y)     = demand_c(y) - capacity_c(y).
 * Measured defaults: b_p = 75th percentile of the profile members' mean
 * concurrent GPUs; m_p = 75th percentile of their known peak memory;
 * s_g = mean of the group members' burst shares; h_g = median of their
 * peak minus mean concurrent GPUs (the whole institute's when the group has
 * no member); r_g and buffer_g as measured by the caller
 * (projection_measure_growth, projection_measure_buffer).
 *
 * Pure computation over plain structs: no I/O, no SQLite, no curses. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"
#include "core/profiles.h"

#define PROJ_MAX_YEARS 10
#define PROJ_NEVER INT64_MAX /* no end date */
#define PROJ_B_PERCENTILE 75.0

/* One of today's members (a user with jobs in the window). */
typedef struct ProjUser {
    int group;          /* 0..ngroups-1 */
    int profile;        /* 0..nprofiles-1, -1: too little history (group mix) */
    double conc_mean;   /* mean concurrent GPUs (full-time equivalent) */
    double conc_peak;   /* peak concurrent GPUs */
    double burst_frac;  /* share of time in a burst */
    double mem_gib;     /* peak GPU memory, -1 unknown */
    int64_t leaves;     /* roster end date, PROJ_NEVER when none */
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
} ProjGpus;

typedef struct ProjInput {
    int ngroups, nprofiles, ndomains, nyears; /* nyears 1..PROJ_MAX_YEARS */
    const int *group_domain;        /* ngroups: 0..ndomains-1 */
    const ProjUser *users;
    int nusers;
    const ProjArrival *arrivals;
    int narrivals;
    const ProjGpus *gpus;
    int ngpus;
    const double *growth;           /* ngroups: measured r_g */
    const double *buffer;           /* ngroups: measured buffer_g */
    int64_t t0;                     /* start of projected year 1 */
    const int64_t *year_start;      /* nyears + 1 boundaries, [0] == t0 */
} ProjInput;

typedef struct ProjModel ProjModel;

/* Group-level parameters (per group), profile-level (per profile) and the
 * planned purchases (per class and year, GPUs added from that year on). */
typedef struct ProjParams {
    int ngroups, nprofiles, nyears;
    double *growth, *share, *burst, *buffer; /* ngroups each */
    double *gpus, *mem;                      /* nprofiles each: b_p, m_p (-1 unknown) */
    double *gpus_g; /* ngroups x nprofiles: group g's own b_p for profile p at
                       [g * nprofiles + p] (a stated need applied to the group),
                       NAN where the group takes the profile's b_p */
    double purchase[MEMCLASS_COUNT][PROJ_MAX_YEARS];
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
/* [from, to) of year y (1-based). */
void projection_year_span(const ProjModel *m, int y, int64_t *from, int64_t *to);

/* The measured parameters. Caller frees with projection_params_free. */
ProjParams *projection_params_new(const ProjModel *m);
ProjParams *projection_params_copy(const ProjParams *p);
void projection_params_free(ProjParams *p);
/* Back to the measured values. */
void projection_params_reset(const ProjModel *m, ProjParams *p);

/* Set one parameter by key: "growth", "share", "burst", "buffer" (group
 * g, or every group when g < 0), "gpus.N" (profile N, 1-based: for every
 * group when g < 0, for group g alone otherwise), "mem.N" (profile N),
 * "purchase.C.yK" (C one of 24, 48, 80, 80+; K 1..years). Returns 0, or -1
 * with err on an unknown key, a group given to a mem or purchase key, or a
 * value out of range (growth > -1, share 0..1, others >= 0; mem may be -1
 * for unknown). */
int projection_param_set(const ProjModel *m, ProjParams *p, const char *key, int g,
                         double value, CpErr *err);
/* The value of key for group g (g < 0: the first group, or the profile or
 * purchase key itself; "gpus.N" with g >= 0: the group's own value if it has
 * one, else the profile's) in p; -1 with err as projection_param_set. */
int projection_param_get(const ProjModel *m, const ProjParams *p, const char *key, int g,
                         double *value, CpErr *err);
/* 1 when key is a group-level key ("growth", "share", "burst", "buffer"). */
int projection_key_is_group(const char *key);
/* 1 when key may be given for one group: the group-level keys and the
 * per-student GPUs of a profile ("gpus.N"). */
int projection_key_takes_group(const char *key);
/* The per-student GPUs of profile q (0-based) in group g under p: the
 * group's own value when set, else the profile's. */
double projection_gpus_of(const ProjParams *p, int g, int q);

/* Terms of one group and year. */
typedef struct ProjGroupYear {
    double stay, arrivals, target, newcomers, heads;
    double base, bursts, pool, demand;
    double demand_c[MEMCLASS_COUNT];
    double *heads_p; /* nprofiles (points into the result) */
} ProjGroupYear;

typedef struct ProjTotals {
    double heads, base, pool, demand;
    double demand_c[MEMCLASS_COUNT], capacity_c[MEMCLASS_COUNT], gap_c[MEMCLASS_COUNT];
    double capacity, gap;
} ProjTotals;

typedef struct ProjResult {
    int ngroups, nprofiles, ndomains, nyears;
    ProjGroupYear *gy;    /* ngroups x nyears: gy[g * nyears + (y - 1)] */
    ProjTotals *dom;      /* ndomains x nyears (capacity and gap unused) */
    ProjTotals *total;    /* nyears */
    double *heads_store;
} ProjResult;

/* Allocate a result shaped for m. Caller frees with projection_result_free. */
ProjResult *projection_result_new(const ProjModel *m);
void projection_result_free(ProjResult *r);

/* Compute every term. Pure: reads m and p, writes r; allocates nothing. */
void projection_run(const ProjModel *m, const ProjParams *p, ProjResult *r);

/* Measured growth: r = now / before - 1 when before >= min_before, else
 * the fallback. */
double projection_measure_growth(double heads_now, double heads_before, double min_before,
                                 double fallback);
/* Measured buffer from monthly usage (n months, oldest first): the 90th
 * percentile month over the mean month, minus 1, within [0, 1], over the
 * months from the first with use (earlier ones are before the group, or the
 * data, began); fallback when fewer than 3 such months. */
double projection_measure_buffer(const double *monthly, int n, double fallback);

#endif
