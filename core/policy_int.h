#ifndef POLICY_INT_H
#define POLICY_INT_H
/* policy_int: what core/policy.c and core/policy_cells.c share (not a
 * public interface): interned names, and who ran a job (its group and
 * domain, as policy.h says: the roster line in force at its start, else
 * its account). Pure computation. */

#include <stddef.h>
#include <stdint.h>

#include "core/energy.h"
#include "core/policy.h"
#include "core/stats.h"
#include "core/strmap.h"

#define POLICY_NONE_GROUP "(none)"
#define POLICY_UNKNOWN_DOMAIN "(unknown)"

/* Interned names: index by name. The strings are borrowed. */
typedef struct Names {
    StrMap *map;
    const char **v;
    size_t n, cap;
} Names;

void names_init(Names *d);
void names_done(Names *d);
/* The id of name, interned (borrowed: name must outlive d) if new. */
int32_t names_id(Names *d, const char *name);
/* The id of name, -1 when absent (or name NULL). */
int32_t names_find(const Names *d, const char *name);
/* Indices of d's names in byte order, d->n + 1 slots. Caller frees. */
int32_t *names_order(const Names *d);

/* Who ran the jobs of a StatsInput: group and domain names, and the memo
 * of owners_of. group[], domain[]: per job of the input after
 * owners_init (NULL after owners_setup). */
typedef struct Owners {
    Names groups, domains;
    int32_t *group, *domain;
    int32_t *gdomain; /* per group id: its domain, -1 unknown (ngdomain slots) */
    size_t ngdomain;
    const StatsInput *in;
    const StatsPerson **lines; /* the roster by user, then start */
    int32_t *first, *count;    /* per user id: its lines in lines[] (first -1: none) */
    size_t nusers, naccounts;  /* the ids of in's names first and memo cover */
    int32_t (*memo)[2];        /* (group, domain) per roster line, then per account, then
                                * none (npeople + naccounts) */
} Owners;

/* Names of in's groups and roster, ready for owners_of (in borrowed). */
void owners_setup(Owners *w, const StatsInput *in);
/* in's users and accounts gained ids (appended: the names of the ids
 * before stay as they were): owners_of then knows them, as an
 * owners_setup over in as it is now would (and owners_of gives the ids it
 * gave before). An id beyond those at the last setup or grow is no one's
 * (its account: none). */
void owners_grow(Owners *w);
/* owners_setup, then the group and domain of every job of in. */
void owners_init(Owners *w, const StatsInput *in);
/* The group and domain ids of job j (interned when first seen). */
void owners_of(Owners *w, const StatsJob *j, int32_t *group, int32_t *domain);
void owners_done(Owners *w);

/* ---- helpers of policy.c that the energy tables share ---- */

/* A table of the report with its note (note static). */
StatsTable *pol_table(StatsReport *r, const char *key, const char *title, const char *note,
                      const StatsCol *cols, size_t ncols);
/* a / b, NaN unless b > 0. */
double pol_ratio(double a, double b);
/* n's name of id, "" when none. Borrowed. */
const char *pol_name_of(const StatsNames *n, int32_t id);
/* 1 when j ran on GPUs (started, ran, held GPUs). */
int pol_job_ran(const StatsJob *j);
/* -1 with err when o's --group is not in groups or its --cluster not in in. */
int pol_check_filters(const StatsInput *in, const StatsOpts *o, const Names *groups, CpErr *err);
/* The period key of t: yyyymm, yyyy or 0; its label (yyyy-mm, yyyy, all). */
int32_t pol_period_of(StatsBy by, int64_t t);
void pol_period_label(StatsBy by, int32_t p, char *buf, size_t n);
void pol_put_period(StatsTable *t, StatsCell *c, StatsBy by, int32_t p);

/* ---- sites and TDPs (core/policy_site.c) ---- */

/* A cluster's PUE, intensity series (a constant is a series of no hours:
 * hourly 0) and where they came from. */
typedef struct PolSite {
    double pue;
    const char *pue_src, *ci_src, *zone;
    int hourly;
    EnergySeries series;
} PolSite;

/* TDP (W) and where it came from. */
typedef struct PolTdp {
    double w;
    const char *src;
    double speed; /* relative speed (GPU-eq per GPU): the inventory's, else 1 */
} PolTdp;

/* The sites of in's clusters (clusters.n + 1 slots); free with
 * pol_sites_free. */
PolSite *pol_sites(const PolicyInput *pi);
/* s, the sites of pi's first n clusters (NULL when n is 0), grown to
 * those of all its clusters (n <= clusters.n; clusters.n + 1 slots, the
 * last zeroed). */
PolSite *pol_sites_grow(const PolicyInput *pi, PolSite *s, size_t n);
void pol_sites_free(PolSite *s, size_t n);
/* The TDP of a GPU type on a cluster (type NULL or "": the cluster's
 * inventory's mean). */
PolTdp pol_tdp(const PolicyInput *pi, const char *cluster, const char *type);

#endif
