/* plan_build: plan_build (data/plan/plan.h) and its steps: reading users and
 * features (from the jobs, or from the saved run), groups and domains,
 * and the measured growth and buffer behind the projection model. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/kmeans.h"
#include "core/leavers.h"
#include "data/plan/plan_int.h"
#include "data/plan/plan_stated.h"

/* ---- context ---- */

void plan_ctx_init(PlanCtx *c)
{
    memset(c, 0, sizeof *c);
    c->roster = strmap_new();
    c->gidx = strmap_new();
}

void plan_ctx_done(PlanCtx *c)
{
    store_plan_names_free(&c->users);
    store_plan_names_free(&c->accounts);
    store_plan_people_free(c->people, c->npeople);
    store_plan_groups_free(c->gtab, c->ngtab);
    strmap_free(c->roster);
    strmap_free(c->gidx);
    if (c->have_run)
        store_plan_run_free(&c->run, c->profiles, c->run.k, c->members, c->nmembers);
    free(c->usage);
    free(c->arrivals);
    plan_hist_free(c);
    free(c->hspeed);
    free(c->hfleet);
    free(c->hspans);
    for (int g = 0; g < c->hist.ngroups; g++)
        free(c->hgroups[g]);
    free(c->hgroups);
    if (c->hgidx)
        strmap_free(c->hgidx);
    demand_fit_done(&c->fit);
    memset(c, 0, sizeof *c);
}

/* As of c->asof: the roster lines started before it, their end dates after
 * it unknown (issue 28: what was known then). */
static void people_asof(PlanCtx *c)
{
    size_t k = 0;
    for (size_t i = 0; i < c->npeople; i++) {
        StorePlanPerson *pp = &c->people[i];
        if (pp->start != STORE_PLAN_NO_DATE && pp->start >= c->asof) {
            free(pp->user);
            free(pp->group);
            free(pp->role);
            free(pp->domain);
            continue;
        }
        if (pp->end != STORE_PLAN_NO_DATE && pp->end >= c->asof)
            pp->end = STORE_PLAN_NO_DATE;
        c->people[k++] = *pp;
    }
    c->npeople = k;
}

void plan_inventory_asof(const PlanCtx *c, StorePlanGpus *inv, size_t *n)
{
    size_t k = 0;
    if (!c->asof)
        return;
    for (size_t i = 0; i < *n; i++) {
        if (inv[i].from != STORE_PLAN_NO_DATE && inv[i].from >= c->asof) {
            free(inv[i].cluster);
            free(inv[i].model);
            continue;
        }
        if (inv[i].to != STORE_PLAN_NO_DATE && inv[i].to >= c->asof)
            inv[i].to = STORE_PLAN_NO_DATE;
        inv[k++] = inv[i];
    }
    *n = k;
}

int plan_ctx_load(Store *st, Plan *p, PlanCtx *c, CpErr *err)
{
    (void)p;
    int rc = store_plan_names(st, "users", &c->users, err) < 0 ||
                     store_plan_names(st, "accounts", &c->accounts, err) < 0 ||
                     store_plan_people(st, &c->people, &c->npeople, err) < 0 ||
                     store_plan_groups(st, &c->gtab, &c->ngtab, err) < 0
                 ? -1
                 : 0;
    if (rc == 0 && c->asof)
        people_asof(c);
    return rc;
}

int plan_ctx_saved(Store *st, PlanCtx *c, int *found, CpErr *err)
{
    if (store_plan_run_latest(st, &c->run, &c->profiles, &c->members, &c->nmembers, found, err) <
        0) {
        c->have_run = 1;
        return -1;
    }
    c->have_run = *found;
    return 0;
}

/* ---- window and usage ---- */

void plan_set_window_end(Plan *p, int64_t win_end)
{
    p->win_end = win_end;
    p->win_start = plan_add_months(win_end, -p->window_months);
    p->year_start[0] = win_end;
    for (int y = 1; y <= p->years; y++)
        p->year_start[y] = plan_add_months(win_end, 12 * y);
}

/* Usage of the window's months and of as many before them. */
static int load_usage(Store *st, Plan *p, PlanCtx *c, CpErr *err)
{
    int64_t last = plan_month_of(p->win_end - 1);
    c->usage_to = plan_ym_add(last, 1);
    c->usage_from = plan_ym_add(c->usage_to, -2 * p->window_months);
    return store_plan_usage(st, c->usage_from, c->usage_to, p->cpu, &c->usage, &c->nusage, err);
}

/* Per user id, the account with the most hours in the window's months. */
static int64_t *dominant_accounts(const Plan *p, const PlanCtx *c)
{
    int64_t n = c->users.n;
    int64_t *best = xcalloc((size_t)n + 1, sizeof *best);
    double *best_h = xcalloc((size_t)n + 1, sizeof *best_h);
    int64_t first = plan_ym_add(c->usage_to, -p->window_months);
    StrMap *sums = strmap_new();
    double *h = xmalloc((c->nusage + 1) * sizeof *h);
    size_t nh = 0;
    for (size_t i = 0; i < c->nusage; i++) {
        const StorePlanUsage *u = &c->usage[i];
        if (u->month < first || u->user_id < 0 || u->user_id >= n)
            continue;
        int64_t key[2] = {u->user_id, u->account_id}, slot;
        if (!strmap_get(sums, (const char *)key, sizeof key, &slot)) {
            slot = (int64_t)nh;
            h[nh++] = 0;
            strmap_put(sums, (const char *)key, sizeof key, slot);
        }
        h[slot] += u->hours;
        if (h[slot] > best_h[u->user_id] ||
            (h[slot] == best_h[u->user_id] && u->account_id < best[u->user_id])) {
            best_h[u->user_id] = h[slot];
            best[u->user_id] = u->account_id;
        }
    }
    strmap_free(sums);
    free(h);
    free(best_h);
    return best;
}

/* ---- users from the jobs ---- */

static void add_user(Plan *p, PlanCtx *c, int64_t id, const FeatUser *f, int64_t account)
{
    const char *name = plan_name_of(&c->users, id);
    const StorePlanPerson *pp = plan_roster_of(c, name);
    if (!plan_role_kept(p->roles, pp ? pp->role : NULL))
        return;
    PlanUser *u = &p->users[p->nusers++];
    memset(u, 0, sizeof *u);
    u->user_id = id;
    u->name = plan_keep(p, name ? name : "?");
    u->role = pp ? plan_keep(p, pp->role) : NULL;
    /* as known now: the roster's end, else its planned end (issue 28) */
    u->leaves = pp ? leave_known(pp->end, pp->planned, p->win_end, 1) : PROJ_NEVER;
    u->group = plan_group_add(p, c->gidx, plan_group_of(c, id, account));
    u->profile = -1;
    u->zrow = -1;
    u->f = *f;
}

/* ---- features, a batch of users at a time ---- */

#define PLAN_JOBS_BUDGET ((size_t)1 << 20) /* FeatJobs held at once: 40 MiB */

static size_t jobs_budget = PLAN_JOBS_BUDGET;

void plan_jobs_budget(size_t n)
{
    jobs_budget = n > 0 ? n : PLAN_JOBS_BUDGET;
}

/* The features of the window's users when their jobs exceed the budget:
 * users [lo, hi) a batch at a time, each batch's jobs (counts[] of them
 * at most, from the first pass) read in a pass of their own; the first
 * batch's pass also finds the window's effective start. */
static int features_batched(Store *st, const Plan *p, const int64_t *counts, int nids,
                            int64_t from, int64_t before, FeatUser *f, FeatSummary *out,
                            CpErr *err)
{
    FeatOpts fo = {p->win_start, p->win_end, PLAN_MIN_RUN_S};
    FeatSummary sum = {0, 0, 0, 0};
    int64_t eff = INT64_MIN;
    FeatJob *buf = NULL; /* one array for every batch: allocated (and faulted in) once */
    size_t cap = 0;
    int rc = 0;
    for (int lo = 0; lo < nids && rc == 0;) {
        size_t need = 0;
        int hi = lo;
        while (hi < nids && (need == 0 || need + (size_t)counts[hi] <= jobs_budget))
            need += (size_t)counts[hi++];
        if (need > cap) {
            free(buf);
            cap = need;
            buf = xmalloc(cap * sizeof *buf);
        }
        StorePlanJobsReq q = {.from = from, .before = before, .min_run = PLAN_MIN_RUN_S,
                              .cpu = p->cpu, .user_lo = lo, .user_hi = hi, .budget = need,
                              .buf = buf, .nusers = nids,
                              .first_from = eff == INT64_MIN ? p->win_start : INT64_MAX,
                              .first_before = p->win_end};
        StorePlanJobsOut r = {NULL, 0, 0, INT64_MAX, INT64_MIN};
        if (need > 0 && store_plan_jobs_read(st, &q, &r, err) < 0)
            rc = -1;
        else if (r.overflow) /* cannot be: one snapshot (store_plan_snapshot_begin) */
            rc = cp_err_set(err, "the jobs changed while they were read");
        if (rc < 0)
            break;
        if (eff == INT64_MIN)
            eff = features_eff_start(r.first, &fo);
        FeatSummary part;
        features_compute_users(r.jobs, r.n, lo, hi, &fo, eff, f, &part);
        sum.jobs_used += part.jobs_used;
        sum.users_with_jobs += part.users_with_jobs;
        sum.eff_start = part.eff_start;
        sum.months = part.months;
        lo = hi;
    }
    free(buf);
    if (nids == 0) { /* no user: what features_compute gives */
        sum.eff_start = features_eff_start(INT64_MAX, &fo);
        sum.months = (double)(p->win_end - sum.eff_start) / FEAT_MONTH_S;
    }
    *out = sum;
    return rc;
}

int plan_from_jobs(Store *st, Plan *p, const PlanOpts *o, PlanCtx *c, int64_t from,
                   int64_t before, CpErr *err)
{
    int nids = (int)c->users.n;
    int64_t *counts = xcalloc((size_t)nids + 1, sizeof *counts);
    StorePlanJobsReq q = {.from = from, .before = before, .min_run = PLAN_MIN_RUN_S,
                          .cpu = p->cpu, .user_lo = INT32_MIN, .user_hi = INT32_MAX,
                          .budget = jobs_budget, .counts = counts, .nusers = nids,
                          .first_from = INT64_MAX, .first_before = INT64_MAX};
    StorePlanJobsOut r = {NULL, 0, 0, INT64_MAX, INT64_MIN};
    int rc = -1;
    FeatUser *f = NULL;
    int began = 0;
    if (store_plan_snapshot_begin(st, &began, err) < 0)
        goto out;
    if (from != INT64_MAX && store_plan_jobs_read(st, &q, &r, err) < 0)
        goto out;
    plan_set_window_end(p, o->cut ? o->cut
                           : r.last_start != INT64_MIN ? plan_obs_end(r.last_start + 1)
                                                        : (int64_t)time(NULL));
    plan_ctx_roster(c, p->win_end);
    if (load_usage(st, p, c, err) < 0)
        goto out;
    f = xcalloc((size_t)nids + 1, sizeof *f);
    FeatOpts fo = {p->win_start, p->win_end, PLAN_MIN_RUN_S};
    if (!r.overflow) {
        features_compute(r.jobs, r.n, nids, &fo, f, &p->summary);
        free(r.jobs);
        r.jobs = NULL;
    } else if (features_batched(st, p, counts, nids, from, before, f, &p->summary, err) < 0)
        goto out;
    int64_t *acct = dominant_accounts(p, c);
    p->users = xcalloc((size_t)p->summary.users_with_jobs + 1, sizeof *p->users);
    for (int id = 0; id < nids; id++)
        if (f[id].njobs > 0)
            add_user(p, c, id, &f[id], acct[id]);
    free(acct);
    rc = 0;
out:
    store_plan_snapshot_end(st, began);
    free(r.jobs);
    free(counts);
    free(f);
    return rc;
}

/* ---- users from the saved run ---- */

static void user_from_member(Plan *p, PlanCtx *c, const StorePlanMember *m)
{
    PlanUser *u = &p->users[p->nusers++];
    memset(u, 0, sizeof *u);
    const char *name = plan_name_of(&c->users, m->user_id);
    u->user_id = m->user_id;
    u->name = plan_keep(p, name ? name : "?");
    u->role = plan_keep(p, m->role);
    u->leaves = m->end == STORE_PLAN_NO_DATE ? PROJ_NEVER : m->end;
    u->group = plan_group_add(p, c->gidx, m->group);
    u->zrow = -1;
    u->f.njobs = m->njobs;
    u->f.gpu_hours = m->gpu_hours;
    u->f.burst_frac = m->burst_frac;
    u->f.mem_src = m->mem_source;
    memcpy(u->f.raw, m->raw, sizeof u->f.raw);
}

/* The fit as saved: labels from the members, centroids recomputed from z
 * (the same figures: the same features, scaled the same way). */
static void fit_from_run(Plan *p, const PlanCtx *c)
{
    ProfFit *f = &p->fit;
    memset(f, 0, sizeof *f);
    f->k = c->run.k;
    f->n = p->nz;
    f->k_auto = c->run.k_auto;
    f->silhouette = c->run.silhouette;
    f->inertia = c->run.inertia;
    f->labels = xcalloc((size_t)p->nz + 1, sizeof *f->labels);
    f->profiles = xcalloc((size_t)f->k + 1, sizeof *f->profiles);
    for (int i = 0; i < p->nusers; i++) {
        PlanUser *u = &p->users[i];
        u->profile = c->members[i].profile < f->k ? c->members[i].profile : -1;
        if (u->zrow < 0 || u->profile < 0)
            continue;
        f->labels[u->zrow] = u->profile;
        for (int j = 0; j < FEAT_COUNT; j++)
            f->profiles[u->profile].centroid_z[j] += p->z[(size_t)u->zrow * FEAT_COUNT + j];
    }
    double *mem = xmalloc(((size_t)p->nz + 1) * sizeof *mem);
    for (int i = 0; i < p->nusers; i++)
        if (p->users[i].zrow >= 0)
            mem[p->users[i].zrow] = p->users[i].f.raw[FEAT_MEM_GIB];
    double need[KMEANS_MAX_K];
    profiles_mem_need(mem, f->labels, p->nz, f->k, need);
    free(mem);
    for (int k = 0; k < f->k; k++) {
        Profile *pr = &f->profiles[k];
        const StorePlanProfile *sp = &c->profiles[k];
        pr->mem_need = need[k];
        snprintf(pr->name, sizeof pr->name, "%s", sp->generated ? sp->generated : "?");
        pr->size = sp->size;
        pr->mem_requested = sp->mem_requested;
        memcpy(pr->centroid_raw, sp->centroid, sizeof pr->centroid_raw);
        for (int j = 0; j < FEAT_COUNT && pr->size > 0; j++)
            pr->centroid_z[j] /= pr->size;
    }
}

int plan_from_run(Store *st, Plan *p, PlanCtx *c, CpErr *err)
{
    plan_set_window_end(p, c->run.win_end);
    plan_ctx_roster(c, p->win_end);
    if (load_usage(st, p, c, err) < 0)
        return -1;
    p->users = xcalloc(c->nmembers + 1, sizeof *p->users);
    for (size_t i = 0; i < c->nmembers; i++)
        user_from_member(p, c, &c->members[i]);
    p->summary.jobs_used = c->run.jobs_used;
    p->summary.eff_start = c->run.win_start;
    p->summary.months = p->window_months;
    p->summary.users_with_jobs = p->nusers;
    plan_scale(p);
    fit_from_run(p, c);
    p->reused = 1;
    return 0;
}

/* ---- groups and domains ---- */

static void add_arrivals(Plan *p, PlanCtx *c)
{
    c->arrivals = xcalloc(c->npeople + 1, sizeof *c->arrivals);
    for (size_t i = 0; i < c->npeople; i++) {
        const StorePlanPerson *pp = &c->people[i];
        if (pp->start == STORE_PLAN_NO_DATE || pp->start <= p->win_end ||
            !plan_role_kept(p->roles, pp->role))
            continue;
        ProjArrival *a = &c->arrivals[c->narrivals++];
        a->group = plan_group_add(p, c->gidx, pp->group);
        a->start = pp->start;
        a->end = pp->end == STORE_PLAN_NO_DATE ? PROJ_NEVER : pp->end;
    }
}

/* The domain of group g: the groups table's, else its roster people's
 * most common one, else NULL. */
static const char *domain_of(const PlanCtx *c, const char *group)
{
    for (size_t i = 0; i < c->ngtab; i++)
        if (strcmp(c->gtab[i].name, group) == 0 && c->gtab[i].domain && c->gtab[i].domain[0])
            return c->gtab[i].domain;
    const char *best = NULL;
    int best_n = 0;
    for (size_t i = 0; i < c->npeople; i++) {
        const char *d = c->people[i].domain;
        if (!d || !d[0] || strcmp(c->people[i].group, group) != 0)
            continue;
        int n = 0;
        for (size_t j = 0; j < c->npeople; j++)
            n += c->people[j].domain && strcmp(c->people[j].group, group) == 0 &&
                 strcmp(c->people[j].domain, d) == 0;
        if (n > best_n || (n == best_n && strcmp(d, best) < 0)) {
            best = d;
            best_n = n;
        }
    }
    return best;
}

static int domain_add(Plan *p, const char *name)
{
    for (int d = 0; d < p->ndomains; d++)
        if (strcmp(p->domains[d], name) == 0)
            return d;
    p->domains = xrealloc(p->domains, (size_t)(p->ndomains + 1) * sizeof *p->domains);
    p->domains[p->ndomains] = xstrdup(name);
    return p->ndomains++;
}

int plan_groups_finish(Store *st, Plan *p, PlanCtx *c, CpErr *err)
{
    (void)st;
    (void)err;
    add_arrivals(p, c);
    p->group_domain = xcalloc((size_t)p->ngroups + 1, sizeof *p->group_domain);
    for (int g = 0; g < p->ngroups; g++) {
        const char *d = domain_of(c, p->groups[g]);
        p->group_domain[g] = domain_add(p, d ? d : "unknown");
    }
    return 0;
}

/* ---- the model ---- */

static ProjGpus *read_gpus(Store *st, const PlanCtx *c, int *n, CpErr *err)
{
    StorePlanGpus *inv;
    size_t ninv;
    if (store_plan_inventory(st, &inv, &ninv, err) < 0)
        return NULL;
    plan_inventory_asof(c, inv, &ninv);
    ProjGpus *g = xcalloc(ninv + 1, sizeof *g);
    for (size_t i = 0; i < ninv; i++) {
        g[i] = (ProjGpus){inv[i].gpus, inv[i].mem_gib, inv[i].speed > 0 ? inv[i].speed : 1,
                          inv[i].from, inv[i].to == STORE_PLAN_NO_DATE ? PROJ_NEVER : inv[i].to,
                          -1};
        for (int m = 0; m < c->nmodels; m++)
            if (strcasecmp(c->models[m].name, inv[i].model) == 0)
                g[i].model = m;
    }
    store_plan_inventory_free(inv, ninv);
    *n = (int)ninv;
    return g;
}

/* The model's users: the fit's active members, with the profile and peak
 * memory of the plan's user of the same id, in the plan's groups. */
static ProjUser *proj_users(Plan *p, const PlanCtx *c, const int64_t *leaves)
{
    const DemFit *f = &c->fit;
    int64_t *at = xmalloc(((size_t)c->users.n + 1) * sizeof *at);
    for (int64_t i = 0; i <= c->users.n; i++)
        at[i] = -1;
    for (int i = 0; i < p->nusers; i++)
        if (p->users[i].user_id >= 0 && p->users[i].user_id < c->users.n)
            at[p->users[i].user_id] = i;
    ProjUser *pu = xcalloc((size_t)f->nactive + 1, sizeof *pu);
    p->proj_user_name = xcalloc((size_t)f->nactive + 1, sizeof *p->proj_user_name);
    p->nproj_users = f->nactive;
    for (int i = 0; i < f->nactive; i++) {
        const DemUser *d = &f->users[i];
        int64_t k = at[d->user];
        const PlanUser *u = k >= 0 ? &p->users[k] : NULL;
        int64_t g;
        const char *gn = c->hgroups[d->group];
        strmap_get(c->gidx, gn, strlen(gn), &g);
        pu[i].group = (int)g;
        pu[i].profile = u ? u->profile : -1;
        memcpy(pu[i].rate, d->rate, sizeof pu[i].rate);
        pu[i].mem_gib = u ? u->f.raw[FEAT_MEM_GIB] : -1;
        pu[i].leaves = leaves[d->user];
        pu[i].churn = plan_hist_churn_of(f, d->group, pu[i].leaves);
        pu[i].matured = d->matured;
        const char *name = d->user < c->users.n ? c->users.names[d->user] : NULL;
        p->proj_user_name[i] = plan_keep(p, name ? name : "?");
    }
    free(at);
    return pu;
}

/* The fit re-indexed from the history's groups to the plan's. */
static DemFit plan_fit(const Plan *p, const PlanCtx *c)
{
    DemFit f = c->fit;
    f.groups = xcalloc((size_t)p->ngroups + 1, sizeof *f.groups);
    f.ngroups = p->ngroups;
    for (int g = 0; g < p->ngroups; g++) {
        int64_t h;
        if (strmap_get(c->hgidx, p->groups[g], strlen(p->groups[g]), &h))
            f.groups[g] = c->fit.groups[h];
        else
            f.groups[g] = (DemGroup){0, 0, 0, 0, 0, 0, c->fit.growth, NAN, 0, c->fit.newrate,
                                     c->fit.ramp, 0, 0, 1, 0, 0};
    }
    return f;
}

int plan_projection(Store *st, Plan *p, PlanCtx *c, CpErr *err)
{
    int G = p->ngroups, ngpus = 0;
    if (!c->cached) { /* else read from the cache with the history's other results */
        p->bt = xcalloc(1, sizeof *p->bt); /* kept: the report reads it */
        if (plan_hist_backtest(p, c, 0, p->bt, err) < 0)
            return -1;
        plan_cuts_save(st, p, c); /* the cuts computed here (issue 31) */
    }
    PlanBacktest *bt = p->bt;
    DemCut cut;
    int64_t *leaves = xcalloc((size_t)c->users.n + 1, sizeof *leaves);
    int *onr = xcalloc((size_t)c->users.n + 1, sizeof *onr);
    plan_hist_cut(c, p->win_end, &cut, leaves, onr);
    ProjUser *pu = proj_users(p, c, leaves);
    ProjGpus *gpus = p->cpu ? xcalloc(1, sizeof *gpus) : read_gpus(st, c, &ngpus, err);
    DemFit f = plan_fit(p, c);
    int rc = -1;
    if (!gpus)
        goto out;
    p->bt_cuts = bt->calib.ncuts;
    p->institute_growth = c->fit.growth;
    p->institute_buffer = bt->calib.buffer;
    ProjInput in = {G, p->fit.k, p->ndomains, p->years, p->group_domain, pu, c->fit.nactive,
                    c->arrivals, c->narrivals, gpus, ngpus, c->models, c->nmodels, &f,
                    bt->calib, p->win_end, p->year_start};
    p->model = projection_prepare(&in);
    p->measured = projection_params_new(p->model);
    plan_forecast_apply(p);
    if (plan_stated_apply(st, p, err) < 0) /* issue 28: stated needs, a named part */
        goto out;
    if (!c->cached)
        plan_hist_years(p, c, gpus, ngpus);
    if (c->cache_save)
        plan_cache_save(st, c->cache_key, p, c, 1);
    rc = 0;
out:
    free(f.groups);
    free(leaves);
    free(onr);
    free(pu);
    free(gpus);
    return rc;
}

/* ---- the whole build ---- */

/* Window bounds, from the latest month with jobs (before the cut). */
static int plan_window_bounds(Store *st, const PlanOpts *o, Plan *p, int64_t *from,
                              int64_t *before, CpErr *err)
{
    int64_t last_month;
    int64_t before_month = o->cut ? plan_ym_add(plan_month_of(o->cut), 1) : 0;
    if (store_plan_last_month(st, before_month, &last_month, err) < 0)
        return -1;
    *before = o->cut ? o->cut : INT64_MAX;
    *from = last_month ? plan_ym_start(plan_ym_add(last_month, -p->window_months)) : *before;
    if (!last_month)
        *from = INT64_MAX;
    return 0;
}

static int same_roles(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The saved run can stand for a fresh computation. */
static int run_reusable(const StorePlanRun *r, const PlanOpts *o, const Plan *p,
                        int64_t last_import)
{
    return !o->fresh && !o->cut && r->last_import == last_import && r->cpu == p->cpu &&
           r->window_months == p->window_months && r->min_jobs == p->min_jobs &&
           same_roles(r->roles, o->roles) && (o->k ? (!r->k_auto && r->k == o->k) : r->k_auto);
}

static void plan_init(Plan *p, const PlanOpts *o)
{
    p->window_months = o->window_months > 0 ? o->window_months : PLAN_WINDOW_MONTHS;
    p->min_jobs = o->min_jobs > 0 ? o->min_jobs : PLAN_MIN_JOBS;
    p->years = o->years > 0 ? o->years : PLAN_YEARS;
    if (p->years > PROJ_MAX_YEARS)
        p->years = PROJ_MAX_YEARS;
    p->roles = o->roles ? xstrdup(o->roles) : NULL;
}

static void plan_cluster(Plan *p, const PlanOpts *o)
{
    int *src = xmalloc(((size_t)p->nz + 1) * sizeof *src);
    double *mem = xmalloc(((size_t)p->nz + 1) * sizeof *mem);
    for (int i = 0; i < p->nusers; i++) {
        if (p->users[i].zrow < 0)
            continue;
        src[p->users[i].zrow] = p->users[i].f.mem_src;
        mem[p->users[i].zrow] = p->users[i].f.raw[FEAT_MEM_GIB];
    }
    ProfOpts po = {o->k, 0, 0, 0, 0, p->cpu};
    profiles_fit(p->z, p->nz, src, mem, &p->scale, &po, &p->fit);
    free(mem);
    for (int i = 0; i < p->nusers; i++)
        p->users[i].profile = p->users[i].zrow >= 0 ? p->fit.labels[p->users[i].zrow] : -1;
    free(src);
}

static int plan_names(Store *st, Plan *p, CpErr *err)
{
    p->names = xcalloc((size_t)(p->fit.k > 0 ? p->fit.k : 1), sizeof *p->names);
    for (int i = 0; i < p->fit.k; i++) {
        int rc = store_plan_chosen_name(st, p->fit.profiles[i].name, p->names[i],
                                        sizeof p->names[i], err);
        if (rc < 0)
            return -1;
        if (rc == 1)
            snprintf(p->names[i], sizeof p->names[i], "%s", p->fit.profiles[i].name);
    }
    return 0;
}

/* Options left at their defaults follow the saved run's (its k, window,
 * roles and min_jobs): `capplan profile --k 4` then `capplan project`
 * projects from those 4 profiles. eo keeps borrowed strings of c. */
static void follow_saved(const PlanOpts *o, const PlanCtx *c, PlanOpts *eo)
{
    *eo = *o;
    if (o->k || o->window_months || o->min_jobs || o->roles)
        return;
    eo->k = c->run.k_auto ? 0 : c->run.k;
    eo->window_months = c->run.window_months;
    eo->min_jobs = c->run.min_jobs;
    eo->roles = c->run.roles;
}

Plan *plan_build(Store *st, const PlanOpts *o, CpErr *err)
{
    Plan *p = xcalloc(1, sizeof *p);
    PlanCtx c;
    PlanOpts eo = *o;
    int64_t last_import, from, before;
    int found = 0;
    plan_ctx_init(&c);
    c.asof = o->asof ? o->cut : 0;
    if (!o->fresh && !o->cut && plan_ctx_saved(st, &c, &found, err) < 0)
        goto fail;
    if (found)
        follow_saved(o, &c, &eo);
    plan_init(p, &eo);
    if (store_plan_cpu_only(st, &p->cpu, err) < 0 ||
        store_plan_last_import(st, &last_import, err) < 0 ||
        plan_window_bounds(st, &eo, p, &from, &before, err) < 0 ||
        plan_ctx_load(st, p, &c, err) < 0)
        goto fail;
    if (found && run_reusable(&c.run, &eo, p, last_import)) {
        if (plan_from_run(st, p, &c, err) < 0)
            goto fail;
    } else {
        if (plan_from_jobs(st, p, &eo, &c, from, before, err) < 0)
            goto fail;
        plan_scale(p);
        plan_cluster(p, &eo);
    }
    if (plan_names(st, p, err) < 0)
        goto fail;
    if (!o->profiles_only &&
        plan_hist_load(st, p, &c, p->win_end, p->win_end, 0, err) < 0)
        goto fail;
    if (plan_groups_finish(st, p, &c, err) < 0 ||
        (!o->profiles_only && plan_projection(st, p, &c, err) < 0))
        goto fail;
    p->run_id = p->reused ? c.run.id : 0;
    plan_ctx_done(&c);
    return p;
fail:
    plan_ctx_done(&c);
    plan_free(p);
    return NULL;
}
