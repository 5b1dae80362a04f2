#include "data/plan/plan.h"

#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "core/civil.h"
#include "core/memclass_nest.h"
#include "core/strmap.h"
#include "data/plan/plan_int.h"
#include "data/store/store.h"
#include "data/store/store_plan.h"

/* ---- calendar ---- */

static int days_in(int y, int m)
{
    static const int d[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : d[m - 1];
}

int64_t plan_add_months(int64_t t, int months)
{
    int y, mo, d, h, mi, s;
    fields_civil_of(t, &y, &mo, &d, &h, &mi, &s);
    int64_t total = (int64_t)y * 12 + (mo - 1) + months;
    int64_t ny = total >= 0 ? total / 12 : -((-total + 11) / 12);
    int nm = (int)(total - ny * 12) + 1;
    int nd = d > days_in((int)ny, nm) ? days_in((int)ny, nm) : d;
    return fields_epoch_of((int)ny, nm, nd, h, mi, s);
}

int64_t plan_month_of(int64_t t)
{
    int y, mo, d, h, mi, s;
    fields_civil_of(t, &y, &mo, &d, &h, &mi, &s);
    return (int64_t)y * 100 + mo;
}

int64_t plan_ym_add(int64_t ym, int months)
{
    int64_t total = (ym / 100) * 12 + (ym % 100 - 1) + months;
    return (total / 12) * 100 + total % 12 + 1;
}

int64_t plan_ym_start(int64_t ym)
{
    return fields_epoch_of((int)(ym / 100), (int)(ym % 100), 1, 0, 0, 0);
}

/* The month boundaries of a fit at t0 (see plan_int.h). */
void plan_hist_months(int64_t t0, DemCut *cut)
{
    memset(cut, 0, sizeof *cut);
    for (int m = 0; m <= DEM_HISTORY; m++)
        cut->mb[m] = plan_add_months(t0, m - DEM_HISTORY);
}

/* ---- owned strings ---- */

const char *plan_keep(Plan *p, const char *s)
{
    if (!s)
        return NULL;
    if (p->nstrings == p->capstrings) {
        p->capstrings = p->capstrings ? p->capstrings * 2 : 256;
        p->strings = xrealloc(p->strings, p->capstrings * sizeof *p->strings);
    }
    return p->strings[p->nstrings++] = xstrdup(s);
}

/* ---- groups ---- */

int plan_group_add(Plan *p, StrMap *idx, const char *name)
{
    int64_t g;
    if (strmap_get(idx, name, strlen(name), &g))
        return (int)g;
    p->groups = xrealloc(p->groups, (size_t)(p->ngroups + 1) * sizeof *p->groups);
    p->groups[p->ngroups] = xstrdup(name);
    strmap_put(idx, name, strlen(name), p->ngroups);
    return p->ngroups++;
}

int plan_group_index(const Plan *p, const char *name)
{
    for (int g = 0; g < p->ngroups; g++)
        if (strcmp(p->groups[g], name) == 0)
            return g;
    return -1;
}

int plan_profile_index(const Plan *p, const char *s)
{
    char *end;
    long n = strtol(s, &end, 10);
    if (*s && !*end)
        return n >= 1 && n <= p->fit.k ? (int)n - 1 : -1;
    for (int i = 0; i < p->fit.k; i++)
        if (strcmp(p->names[i], s) == 0 || strcmp(p->fit.profiles[i].name, s) == 0)
            return i;
    return -1;
}

/* ---- freeing, scaling, saving ---- */

void plan_free(Plan *p)
{
    if (!p)
        return;
    free(p->users);
    free(p->z);
    profiles_fit_done(&p->fit);
    free(p->names);
    free(p->roles);
    for (int g = 0; g < p->ngroups; g++)
        free(p->groups[g]);
    free(p->groups);
    for (int d = 0; d < p->ndomains; d++)
        free(p->domains[d]);
    free(p->domains);
    free(p->group_domain);
    projection_model_free(p->model);
    projection_params_free(p->measured);
    free(p->proj_user_name);
    free(p->year_use);
    if (p->bt)
        plan_backtest_free(p->bt);
    free(p->bt);
    for (size_t i = 0; i < p->nstrings; i++)
        free(p->strings[i]);
    free(p->strings);
    free(p);
}

void plan_backtest_free(PlanBacktest *b)
{
    for (int g = 0; g < b->ngroups; g++)
        free(b->groups[g]);
    free(b->groups);
    free(b->g);
    free(b->cuts);
    free(b->cut_model);
    free(b->cut_actual);
    free(b->cut_naive);
    for (int g = 0; g < b->ntarget; g++)
        free(b->target_groups[g]);
    free(b->target_groups);
    free(b->target);
    memset(b, 0, sizeof *b);
}

/* Standardise the clustered users' features into p->z. */
void plan_scale(Plan *p)
{
    int *rows = xmalloc(((size_t)p->nusers + 1) * sizeof *rows);
    FeatUser *fu = xmalloc(((size_t)p->nusers + 1) * sizeof *fu);
    p->nz = 0;
    for (int i = 0; i < p->nusers; i++) {
        fu[i] = p->users[i].f;
        p->users[i].zrow = p->users[i].f.njobs >= p->min_jobs ? p->nz : -1;
        if (p->users[i].zrow >= 0)
            rows[p->nz++] = i;
    }
    p->z = xmalloc(((size_t)p->nz + 1) * FEAT_COUNT * sizeof *p->z);
    features_standardize(fu, rows, p->nz, p->z, &p->scale);
    free(rows);
    free(fu);
}

/* The run row of p, strings copied (freed by store_plan_run_free). */
static StorePlanRun run_of(const Plan *p, int64_t last_import, const char *who)
{
    StorePlanRun r;
    memset(&r, 0, sizeof r);
    r.created_at = (int64_t)time(NULL);
    r.win_start = p->win_start;
    r.win_end = p->win_end;
    r.last_import = last_import;
    r.jobs_used = p->summary.jobs_used;
    r.cpu = p->cpu;
    r.window_months = p->window_months;
    r.min_jobs = p->min_jobs;
    r.k = p->fit.k;
    r.k_auto = p->fit.k_auto;
    r.restarts = PROFILES_RESTARTS;
    r.seed = PROFILES_SEED;
    r.silhouette = p->fit.silhouette;
    r.inertia = p->fit.inertia;
    r.roles = p->roles ? xstrdup(p->roles) : NULL;
    r.who = who ? xstrdup(who) : NULL;
    return r;
}

static StorePlanMember member_of(const Plan *p, const PlanUser *u)
{
    StorePlanMember m;
    memset(&m, 0, sizeof m);
    m.user_id = u->user_id;
    m.profile = u->profile;
    m.group = xstrdup(p->groups[u->group]);
    m.domain = xstrdup(p->domains[p->group_domain[u->group]]);
    m.role = u->role ? xstrdup(u->role) : NULL;
    m.end = u->leaves == PROJ_NEVER ? STORE_PLAN_NO_DATE : u->leaves;
    m.njobs = u->f.njobs;
    m.mem_source = u->f.mem_src;
    m.gpu_hours = u->f.gpu_hours;
    m.burst_frac = u->f.burst_frac;
    memcpy(m.raw, u->f.raw, sizeof m.raw);
    return m;
}

int plan_save(Store *st, Plan *p, const char *who, CpErr *err)
{
    int64_t last_import;
    if (store_plan_last_import(st, &last_import, err) < 0)
        return -1;
    StorePlanRun run = run_of(p, last_import, who);
    int k = p->fit.k;
    StorePlanProfile *pr = xcalloc((size_t)(k > 0 ? k : 1), sizeof *pr);
    StorePlanMember *m = xcalloc((size_t)(p->nusers > 0 ? p->nusers : 1), sizeof *m);
    for (int i = 0; i < k; i++) {
        pr[i].generated = xstrdup(p->fit.profiles[i].name);
        pr[i].size = p->fit.profiles[i].size;
        pr[i].mem_requested = p->fit.profiles[i].mem_requested;
        memcpy(pr[i].centroid, p->fit.profiles[i].centroid_raw, sizeof pr[i].centroid);
    }
    for (int i = 0; i < p->nusers; i++)
        m[i] = member_of(p, &p->users[i]);
    int rc = store_plan_run_save(st, &run, pr, k, m, (size_t)p->nusers, err);
    if (rc == 0)
        p->run_id = run.id;
    store_plan_run_free(&run, pr, k, m, (size_t)p->nusers);
    return rc;
}

const char *plan_who(void)
{
    const char *u = getenv("USER");
    if (u && u[0])
        return u;
    const struct passwd *pw = getpwuid(getuid());
    return pw && pw->pw_name && pw->pw_name[0] ? pw->pw_name : "unknown";
}

void plan_range_text(ProjRange r, const char *unit, char *buf, size_t n)
{
    if (!isfinite(r.lo) || !isfinite(r.hi))
        snprintf(buf, n, "not calibrated");
    else
        snprintf(buf, n, "%.1f-%.1f%s%s", r.lo, r.hi, unit ? " " : "", unit ? unit : "");
}

const char *const plan_csv_cols[PLAN_CSV_TEXTS + PLAN_CSV_NUMS] = {
    "kind", "name", "domain", "year", "from", "to", "stay_people", "arrivals_people",
    "newcomers_people", "heads_people", "expected_use_gpu_eq", "expected_use_p10_gpu_eq",
    "expected_use_p90_gpu_eq", "pool_gpu_eq", "buffer_gpu_eq", "need_gpu_eq", "need_p10_gpu_eq",
    "need_p90_gpu_eq", "need_24_gpu_eq", "need_48_gpu_eq", "need_80_gpu_eq", "need_80plus_gpu_eq",
    "need_unknown_gpu_eq", "capacity_24_gpu_eq", "capacity_48_gpu_eq", "capacity_80_gpu_eq",
    "capacity_80plus_gpu_eq", "capacity_unknown_gpu_eq", "gap_24_gpu_eq", "gap_48_gpu_eq",
    "gap_80_gpu_eq", "gap_80plus_gpu_eq", "gap_unknown_gpu_eq", "gap_gpu_eq",
    "stated_gpu_eq"};

void plan_csv_values(const ProjGroupYear *g, const ProjTotals *t, int total, double *v)
{
    ProjRange br = g ? g->base_r : t->base_r, dr = g ? g->demand_r : t->demand_r;
    const double *dc = g ? g->demand_c : t->demand_c;
    const double head[] = {g ? g->stay : NAN, g ? g->arrivals : NAN, g ? g->newcomers : NAN,
                           g ? g->heads : t->heads, g ? g->base : t->base, br.lo, br.hi,
                           g ? g->pool : t->pool, g ? g->buffer_add : t->buffer_add,
                           g ? g->demand : t->demand, dr.lo, dr.hi};
    int k = 0;
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
        v[k++] = head[i];
    for (int c = 0; c < MEMCLASS_COUNT; c++)
        v[k++] = dc[c];
    for (int c = 0; c < MEMCLASS_COUNT; c++)
        v[k++] = total ? t->capacity_c[c] : NAN;
    double nest[MEMCLASS_COUNT] = {0}; /* #33: gaps nest as on every other surface */
    if (total)
        memclass_nest(t->demand_c, t->capacity_c, nest);
    for (int c = 0; c < MEMCLASS_COUNT; c++)
        v[k++] = total ? nest[c] : NAN;
    v[k++] = total ? t->gap : NAN;
    v[k++] = g ? g->stated : t->stated; /* issue 28: the stated need beyond expected use */
    for (int i = 0; i < k; i++)
        if (!isfinite(v[i]))
            v[i] = NAN;
}
