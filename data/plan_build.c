/* plan_build: the steps of plan_build (data/plan.h): reading users and
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
#include "data/plan_int.h"

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
    memset(c, 0, sizeof *c);
}

int plan_ctx_load(Store *st, Plan *p, PlanCtx *c, CpErr *err)
{
    (void)p;
    return store_plan_names(st, "users", &c->users, err) < 0 ||
                   store_plan_names(st, "accounts", &c->accounts, err) < 0 ||
                   store_plan_people(st, &c->people, &c->npeople, err) < 0 ||
                   store_plan_groups(st, &c->gtab, &c->ngtab, err) < 0
               ? -1
               : 0;
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

/* ---- roster ---- */

/* The roster line of each user: in force at t, else the latest started
 * by t, else the earliest to come. people are ordered by user, start. */
void plan_ctx_roster(PlanCtx *c, int64_t t)
{
    const StorePlanPerson *pp = c->people;
    size_t i = 0, n = c->npeople;
    strmap_clear(c->roster);
    while (i < n) {
        size_t j = i, pick = i;
        int rank = 0; /* 3 in force, 2 started and ended, 1 to come */
        for (; j < n && strcmp(pp[j].user, pp[i].user) == 0; j++) {
            int started = pp[j].start == STORE_PLAN_NO_DATE || pp[j].start <= t;
            int r = !started ? 1 : (pp[j].end == STORE_PLAN_NO_DATE || pp[j].end > t) ? 3 : 2;
            if (r > rank || (r == rank && r >= 2)) {
                rank = r;
                pick = j;
            }
        }
        strmap_put(c->roster, pp[i].user, strlen(pp[i].user), (int64_t)pick);
        i = j;
    }
}

static const StorePlanPerson *roster_of(const PlanCtx *c, const char *user)
{
    int64_t i;
    if (!user || !strmap_get(c->roster, user, strlen(user), &i))
        return NULL;
    return &c->people[i];
}

int plan_role_kept(const char *filter, const char *role)
{
    if (!filter)
        return 1;
    const char *want = role ? role : "unknown";
    size_t wl = strlen(want);
    for (const char *p = filter; *p;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        while (n > 0 && isspace((unsigned char)*p))
            p++, n--;
        while (n > 0 && isspace((unsigned char)p[n - 1]))
            n--;
        if (n == wl && strncasecmp(p, want, n) == 0)
            return 1;
        if (!comma)
            break;
        p = comma + 1;
    }
    return 0;
}

static const char *name_of(const StorePlanNames *nm, int64_t id)
{
    return id >= 0 && id < nm->n ? nm->names[id] : NULL;
}

const char *plan_group_of(const PlanCtx *c, int64_t user_id, int64_t account_id)
{
    const StorePlanPerson *pp = roster_of(c, name_of(&c->users, user_id));
    if (pp)
        return pp->group;
    const char *a = name_of(&c->accounts, account_id);
    return a && a[0] ? a : "(no account)";
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
    const char *name = name_of(&c->users, id);
    const StorePlanPerson *pp = roster_of(c, name);
    if (!plan_role_kept(p->roles, pp ? pp->role : NULL))
        return;
    PlanUser *u = &p->users[p->nusers++];
    memset(u, 0, sizeof *u);
    u->user_id = id;
    u->name = plan_keep(p, name ? name : "?");
    u->role = pp ? plan_keep(p, pp->role) : NULL;
    u->leaves = pp && pp->end != STORE_PLAN_NO_DATE ? pp->end : PROJ_NEVER;
    u->group = plan_group_add(p, c->gidx, plan_group_of(c, id, account));
    u->profile = -1;
    u->zrow = -1;
    u->f = *f;
}

int plan_from_jobs(Store *st, Plan *p, const PlanOpts *o, PlanCtx *c, int64_t from,
                   int64_t before, CpErr *err)
{
    FeatJob *jobs = NULL;
    size_t n = 0;
    int64_t last_start;
    if (from != INT64_MAX &&
        store_plan_jobs(st, from, before, PLAN_MIN_RUN_S, p->cpu, &jobs, &n, &last_start, err) < 0)
        return -1;
    if (from == INT64_MAX)
        last_start = INT64_MIN;
    plan_set_window_end(p, o->cut ? o->cut : last_start != INT64_MIN ? last_start + 1
                                                                      : (int64_t)time(NULL));
    plan_ctx_roster(c, p->win_end);
    if (load_usage(st, p, c, err) < 0) {
        free(jobs);
        return -1;
    }
    int nids = (int)c->users.n;
    FeatUser *f = xcalloc((size_t)nids + 1, sizeof *f);
    FeatOpts fo = {p->win_start, p->win_end, PLAN_MIN_RUN_S};
    features_compute(jobs, n, nids, &fo, f, &p->summary);
    free(jobs);
    int64_t *acct = dominant_accounts(p, c);
    p->users = xcalloc((size_t)p->summary.users_with_jobs + 1, sizeof *p->users);
    for (int id = 0; id < nids; id++)
        if (f[id].njobs > 0)
            add_user(p, c, id, &f[id], acct[id]);
    free(acct);
    free(f);
    return 0;
}

/* ---- users from the saved run ---- */

static void user_from_member(Plan *p, PlanCtx *c, const StorePlanMember *m)
{
    PlanUser *u = &p->users[p->nusers++];
    memset(u, 0, sizeof *u);
    const char *name = name_of(&c->users, m->user_id);
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

/* ---- growth, buffer, the model ---- */

typedef struct Measure {
    double *now, *before;  /* distinct users per group, this window and the one before */
    double *monthly;       /* G x window months of use */
    double *all_monthly;   /* window months */
} Measure;

/* 1 the first time (period, user, group) is seen. */
static int first_sight(StrMap *seen, int64_t period, int64_t user, int64_t group)
{
    int64_t key[3] = {period, user, group}, v;
    if (strmap_get(seen, (const char *)key, sizeof key, &v))
        return 0;
    strmap_put(seen, (const char *)key, sizeof key, 1);
    return 1;
}

/* Distinct users per group in this window and the one before, and each
 * group's use per month of this window (group G: the whole institute). */
static void count_usage(const Plan *p, const PlanCtx *c, Measure *m)
{
    int wm = p->window_months, G = p->ngroups;
    int64_t cur = plan_ym_add(c->usage_to, -wm);
    StrMap *seen = strmap_new();
    for (size_t i = 0; i < c->nusage; i++) {
        const StorePlanUsage *u = &c->usage[i];
        int is_now = u->month >= cur;
        int mi = (int)((u->month / 100 - cur / 100) * 12 + u->month % 100 - cur % 100);
        const char *gn = plan_group_of(c, u->user_id, u->account_id);
        int64_t g = G;
        if (first_sight(seen, is_now, u->user_id, -1))
            *(is_now ? &m->now[G] : &m->before[G]) += 1;
        if (is_now && mi >= 0 && mi < wm)
            m->all_monthly[mi] += u->hours;
        if (!strmap_get(c->gidx, gn, strlen(gn), &g) || g >= G)
            continue;
        if (first_sight(seen, is_now, u->user_id, g))
            *(is_now ? &m->now[g] : &m->before[g]) += 1;
        if (is_now && mi >= 0 && mi < wm)
            m->monthly[(size_t)g * wm + mi] += u->hours;
    }
    strmap_free(seen);
}

#define GROWTH_MIN_BEFORE 3 /* users a group needs last window to have its own rate */
#define DEFAULT_BUFFER 0.10 /* when no month of use can be measured */

/* Roster people of each group (role filter applied) present at t. */
static void roster_heads(const Plan *p, const PlanCtx *c, int64_t t, double *heads)
{
    for (size_t i = 0; i < c->npeople; i++) {
        const StorePlanPerson *pp = &c->people[i];
        int64_t g;
        if (!plan_role_kept(p->roles, pp->role) ||
            !strmap_get(c->gidx, pp->group, strlen(pp->group), &g) || g >= p->ngroups)
            continue;
        int started = pp->start == STORE_PLAN_NO_DATE || pp->start <= t;
        int ended = pp->end != STORE_PLAN_NO_DATE && pp->end <= t;
        heads[g] += started && !ended;
    }
}

/* Usage-based growth over the window, as a rate a year. */
static double annual(double per_window, int window_months)
{
    return per_window <= -1 ? per_window : pow(1 + per_window, 12.0 / window_months) - 1;
}

/* Growth: from the roster (people present at the window's end against two
 * years before, as a rate a year; one year before when the group was too
 * small two years ago) when the group had enough people then; else from the
 * users with use in the window against the window before; else the
 * institute's. Buffer: from the group's use per month. */
static void measure(Plan *p, const PlanCtx *c, double *growth, double *buffer)
{
    int G = p->ngroups, wm = p->window_months;
    Measure m = {xcalloc((size_t)G + 1, sizeof(double)), xcalloc((size_t)G + 1, sizeof(double)),
                 xcalloc((size_t)G * wm + 1, sizeof(double)), xcalloc((size_t)wm, sizeof(double))};
    double *r_now = xcalloc((size_t)G + 1, sizeof(double));
    double *r_before = xcalloc((size_t)G + 1, sizeof(double));
    double *r_before2 = xcalloc((size_t)G + 1, sizeof(double));
    count_usage(p, c, &m);
    roster_heads(p, c, p->win_end, r_now);
    roster_heads(p, c, plan_add_months(p->win_end, -12), r_before);
    roster_heads(p, c, plan_add_months(p->win_end, -24), r_before2);
    p->institute_growth = annual(
        projection_measure_growth(m.now[G], m.before[G], GROWTH_MIN_BEFORE, 0), wm);
    p->institute_buffer = projection_measure_buffer(m.all_monthly, wm, DEFAULT_BUFFER);
    for (int g = 0; g < G; g++) {
        double used = m.before[g] >= GROWTH_MIN_BEFORE
                          ? annual(projection_measure_growth(m.now[g], m.before[g], 1, 0), wm)
                          : p->institute_growth;
        if (r_before2[g] >= GROWTH_MIN_BEFORE)
            used = sqrt(r_now[g] / r_before2[g]) - 1;
        growth[g] = projection_measure_growth(r_now[g], r_before[g], GROWTH_MIN_BEFORE, used);
        if (r_before2[g] >= GROWTH_MIN_BEFORE)
            growth[g] = used;
        buffer[g] = projection_measure_buffer(m.monthly + (size_t)g * wm, wm, p->institute_buffer);
    }
    free(r_now);
    free(r_before);
    free(r_before2);
    free(m.now);
    free(m.before);
    free(m.monthly);
    free(m.all_monthly);
}

static ProjGpus *read_gpus(Store *st, int *n, CpErr *err)
{
    StorePlanGpus *inv;
    size_t ninv;
    if (store_plan_inventory(st, &inv, &ninv, err) < 0)
        return NULL;
    ProjGpus *g = xcalloc(ninv + 1, sizeof *g);
    for (size_t i = 0; i < ninv; i++)
        g[i] = (ProjGpus){inv[i].gpus, inv[i].mem_gib, inv[i].speed > 0 ? inv[i].speed : 1,
                          inv[i].from, inv[i].to == STORE_PLAN_NO_DATE ? PROJ_NEVER : inv[i].to};
    store_plan_inventory_free(inv, ninv);
    *n = (int)ninv;
    return g;
}

int plan_projection(Store *st, Plan *p, PlanCtx *c, CpErr *err)
{
    int G = p->ngroups, ngpus = 0;
    double *growth = xcalloc((size_t)G + 1, sizeof *growth);
    double *buffer = xcalloc((size_t)G + 1, sizeof *buffer);
    ProjUser *pu = xcalloc((size_t)p->nusers + 1, sizeof *pu);
    ProjGpus *gpus = p->cpu ? xcalloc(1, sizeof *gpus) : read_gpus(st, &ngpus, err);
    int rc = -1;
    if (!gpus)
        goto out;
    measure(p, c, growth, buffer);
    for (int i = 0; i < p->nusers; i++) {
        const PlanUser *u = &p->users[i];
        pu[i] = (ProjUser){u->group, u->profile, u->f.raw[FEAT_CONC_MEAN],
                           u->f.raw[FEAT_CONC_PEAK], u->f.burst_frac, u->f.raw[FEAT_MEM_GIB],
                           u->leaves};
    }
    ProjInput in = {G, p->fit.k, p->ndomains, p->years, p->group_domain, pu, p->nusers,
                    c->arrivals, c->narrivals, gpus, ngpus, growth, buffer, p->win_end,
                    p->year_start};
    p->model = projection_prepare(&in);
    p->measured = projection_params_new(p->model);
    rc = 0;
out:
    free(growth);
    free(buffer);
    free(pu);
    free(gpus);
    return rc;
}
