/* plan_cache: what the planner computes from the whole job history (the
 * rolling backtest, the fit at the window's end, the past years, the
 * history's bounds and groups) kept in the database between builds
 * (plan_int.h; docs/plan-speed.md). An entry is found only by the key of
 * everything it was computed from, so a hit gives what a fresh run would,
 * to the bit: the doubles are stored as their bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/plan/plan_int.h"

/* Bump when the model's code (core/demand.c, core/projection.c,
 * core/backtest.c, data/plan/plan_hist.c) changes what it computes, or this
 * layout changes: an entry of an older build is then never read. */
#define PLAN_CACHE_MODEL 7 /* 3: issue 28 (the forecasters, arrivals maturing together);
                              4: planned ends and churn, year 2's range measured;
                              5: groups' levels capped, ranges +-|error| p80;
                              6: issue 30, a history inside the fit's last month:
                              rates by the part it covers (core/demand.c last_cover);
                              7: damped-trend and combination candidates, stated
                              needs a part of the need (issue 28) */
#define CACHE_MAGIC 0x43504331u /* "CPC1" */

/* ---- the key ---- */

/* Two 64-bit hashes (FNV-1a and a multiply-rotate one) of everything fed. */
typedef struct Hash {
    uint64_t a, b;
} Hash;

static void hash_bytes(Hash *h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) {
        h->a = (h->a ^ c[i]) * 0x100000001b3ull;
        h->b = ((h->b ^ c[i]) * 0x9e3779b97f4a7c15ull);
        h->b ^= h->b >> 29;
    }
}

static void hash_i64(Hash *h, int64_t v)
{
    hash_bytes(h, &v, sizeof v);
}

static void hash_f64(Hash *h, double v)
{
    hash_bytes(h, &v, sizeof v);
}

/* A string and its end (NULL apart from ""). */
static void hash_str(Hash *h, const char *s)
{
    hash_i64(h, s ? (int64_t)strlen(s) : -1);
    if (s)
        hash_bytes(h, s, strlen(s));
}

static void hash_names(Hash *h, const StorePlanNames *nm)
{
    hash_i64(h, nm->n);
    for (int64_t i = 0; i < nm->n; i++)
        hash_str(h, nm->names[i]);
}

/* What every entry's key hashes (with_users: the users' and accounts'
 * names too): the clusters, roster, inventory and roles. 0, or -1 with
 * err. */
static int hash_inputs(Store *st, const Plan *p, const PlanCtx *c, const StorePlanGpus *inv,
                       size_t ninv, int with_users, Hash *h, CpErr *err)
{
    StorePlanNames clusters;
    if (store_plan_names(st, "clusters", &clusters, err) < 0)
        return -1;
    if (with_users) {
        hash_names(h, &c->users);
        hash_names(h, &c->accounts);
    }
    hash_names(h, &clusters);
    store_plan_names_free(&clusters);
    hash_i64(h, (int64_t)c->npeople);
    for (size_t i = 0; i < c->npeople; i++) {
        const StorePlanPerson *pp = &c->people[i];
        hash_str(h, pp->user);
        hash_str(h, pp->group);
        hash_str(h, pp->role);
        hash_str(h, pp->domain);
        hash_i64(h, pp->start);
        hash_i64(h, pp->end);
        hash_i64(h, pp->planned);
    }
    hash_i64(h, (int64_t)ninv);
    for (size_t i = 0; i < ninv; i++) {
        hash_str(h, inv[i].cluster);
        hash_str(h, inv[i].model);
        hash_f64(h, inv[i].gpus);
        hash_f64(h, inv[i].mem_gib);
        hash_f64(h, inv[i].speed);
        hash_i64(h, inv[i].from);
        hash_i64(h, inv[i].to);
    }
    hash_str(h, p->roles);
    return 0;
}

static unsigned byte_order(void)
{
    const uint32_t probe = 0x01020304;
    unsigned char order[4];
    memcpy(order, &probe, sizeof order);
    return (unsigned)order[0] << 24 | (unsigned)order[1] << 16 | (unsigned)order[2] << 8 |
           order[3];
}

int plan_cache_key(Store *st, const Plan *p, const PlanCtx *c, const StorePlanGpus *inv,
                   size_t ninv, int64_t roster_t, int64_t fit_t, char *key, size_t n, CpErr *err)
{
    char jobs[96];
    int clean;
    if (store_plan_jobs_state(st, jobs, sizeof jobs, &clean, err) < 0)
        return -1;
    if (!clean)
        return 0;
    Hash h = {0xcbf29ce484222325ull, 0x6a09e667f3bcc909ull};
    if (hash_inputs(st, p, c, inv, ninv, 1, &h, err) < 0)
        return -1;
    snprintf(key, n,
             "plan %d/%zu/%zu/%zu/%zu/%zu/%zu/%zu order %08x %s cpu %d roster %lld fit %lld "
             "inputs %016llx%016llx",
             PLAN_CACHE_MODEL, sizeof(DemFit), sizeof(DemUser), sizeof(DemGroup),
             sizeof(PlanBacktest), sizeof(PlanBtCut), sizeof(BtGroup), sizeof(PlanYearUse),
             byte_order(), jobs, p->cpu, (long long)roster_t, (long long)fit_t,
             (unsigned long long)h.a, (unsigned long long)h.b);
    return 1;
}

/* ---- writing ---- */

typedef struct Out {
    unsigned char *b;
    size_t n, cap;
} Out;

static void put(Out *o, const void *v, size_t n)
{
    if (o->n + n > o->cap) {
        o->cap = (o->n + n) * 2 + 256;
        o->b = xrealloc(o->b, o->cap);
    }
    if (n)
        memcpy(o->b + o->n, v, n);
    o->n += n;
}

static void put_i64(Out *o, int64_t v)
{
    put(o, &v, sizeof v);
}

static void put_str(Out *o, const char *s)
{
    size_t len = s ? strlen(s) : 0;
    put_i64(o, (int64_t)len);
    put(o, s ? s : "", len);
}

static void put_fit(Out *o, const DemFit *f)
{
    DemFit x = *f;
    x.users = NULL;
    x.groups = NULL;
    put(o, &x, sizeof x);
    put(o, f->users, (size_t)f->nactive * sizeof *f->users);
    put(o, f->groups, (size_t)f->ngroups * sizeof *f->groups);
}

static void put_bt(Out *o, const PlanBacktest *b)
{
    PlanBacktest x = *b;
    x.cuts = NULL;
    x.groups = NULL;
    x.g = NULL;
    x.cut_model = x.cut_actual = x.cut_naive = NULL;
    x.target = NULL;
    x.target_groups = NULL;
    put(o, &x, sizeof x);
    put(o, b->cuts, (size_t)b->ncuts * sizeof *b->cuts);
    put_i64(o, b->target != NULL);
    for (int g = 0; g < b->ntarget; g++)
        put_str(o, b->target_groups[g]);
    if (b->target)
        put(o, b->target, ((size_t)b->ntarget + 1) * sizeof *b->target);
    int detail = b->g != NULL;
    put_i64(o, detail);
    if (!detail)
        return;
    for (int g = 0; g < b->ngroups; g++)
        put_str(o, b->groups[g]);
    put(o, b->g, (size_t)b->ngroups * sizeof *b->g);
    size_t nc = (size_t)b->ncuts * (size_t)b->ngroups;
    put(o, b->cut_model, nc * sizeof(double));
    put(o, b->cut_actual, nc * sizeof(double));
    put(o, b->cut_naive, nc * sizeof(double));
}

void plan_cache_save(Store *st, const char *key, const Plan *p, const PlanCtx *c, int with_fit)
{
    Out o = {NULL, 0, 0};
    uint32_t magic = CACHE_MAGIC;
    put(&o, &magic, sizeof magic);
    put_i64(&o, c->hist.data_start);
    put_i64(&o, c->data_end);
    put_i64(&o, p->unflagged_speed);
    put_i64(&o, c->hist_end);
    put_i64(&o, c->hist.ngroups);
    for (int g = 0; g < c->hist.ngroups; g++)
        put_str(&o, c->hgroups[g]);
    put_bt(&o, p->bt);
    put_i64(&o, with_fit);
    if (with_fit) {
        put_fit(&o, &c->fit);
        put_i64(&o, p->nyear_use);
        put(&o, p->year_use, (size_t)p->nyear_use * sizeof *p->year_use);
    }
    store_plan_cache_put(st, key, o.b, o.n);
    free(o.b);
}

/* ---- reading ---- */

typedef struct In {
    const unsigned char *b;
    size_t n, at;
    int bad;
} In;

static void get(In *in, void *v, size_t n)
{
    if (in->bad || n > in->n - in->at) {
        in->bad = 1;
        memset(v, 0, n);
        return;
    }
    memcpy(v, in->b + in->at, n);
    in->at += n;
}

static int64_t get_i64(In *in)
{
    int64_t v;
    get(in, &v, sizeof v);
    return v;
}

/* A count of items of size bytes that the rest of the entry can hold. */
static size_t get_count(In *in, int64_t v, size_t size)
{
    if (v < 0 || (uint64_t)v > (in->n - in->at) / (size ? size : 1)) {
        in->bad = 1;
        return 0;
    }
    return (size_t)v;
}

static char *get_str(In *in)
{
    size_t len = get_count(in, get_i64(in), 1);
    char *s = xmalloc(len + 1);
    get(in, s, len);
    s[len] = 0;
    return s;
}

/* n items of size bytes into a new array (one more, zeroed, so that no
 * allocation is empty). */
static void *get_array(In *in, size_t n, size_t size)
{
    void *a = xcalloc(n + 1, size);
    get(in, a, n * size);
    return a;
}

static void get_fit(In *in, DemFit *f)
{
    get(in, f, sizeof *f);
    size_t nu = get_count(in, f->nactive, sizeof *f->users);
    size_t ng = get_count(in, f->ngroups, sizeof *f->groups);
    f->users = get_array(in, nu, sizeof *f->users);
    f->groups = get_array(in, ng, sizeof *f->groups);
}

static void get_bt(In *in, PlanBacktest *b)
{
    get(in, b, sizeof *b);
    size_t ncuts = get_count(in, b->ncuts, sizeof *b->cuts);
    b->cuts = get_array(in, ncuts, sizeof *b->cuts);
    int has_target = get_i64(in) != 0;
    size_t nt = get_count(in, b->ntarget, sizeof(int64_t));
    b->target_groups = NULL;
    b->target = NULL;
    if (in->bad)
        b->ntarget = 0;
    else if (nt || has_target) {
        b->target_groups = xcalloc(nt + 1, sizeof *b->target_groups);
        for (size_t g = 0; g < nt; g++)
            b->target_groups[g] = get_str(in);
        b->target = get_array(in, has_target ? nt + 1 : 0, sizeof(double));
    }
    b->groups = NULL;
    b->g = NULL;
    b->cut_model = b->cut_actual = b->cut_naive = NULL;
    int detail = get_i64(in) != 0;
    size_t ng = detail ? get_count(in, b->ngroups, sizeof(int64_t)) : 0;
    if (!detail || in->bad) {
        b->ngroups = 0;
        return;
    }
    b->groups = xcalloc(ng + 1, sizeof *b->groups);
    for (size_t g = 0; g < ng; g++)
        b->groups[g] = get_str(in);
    b->g = get_array(in, ng, sizeof *b->g);
    size_t nc = ncuts * ng;
    if (ng && nc / ng != ncuts)
        in->bad = 1;
    b->cut_model = get_array(in, in->bad ? 0 : nc, sizeof(double));
    b->cut_actual = get_array(in, in->bad ? 0 : nc, sizeof(double));
    b->cut_naive = get_array(in, in->bad ? 0 : nc, sizeof(double));
}

int plan_cache_load(Store *st, const char *key, Plan *p, PlanCtx *c, int with_fit)
{
    unsigned char *data;
    size_t n;
    if (!store_plan_cache_get(st, key, &data, &n))
        return 0;
    In in = {data, n, 0, 0};
    uint32_t magic;
    get(&in, &magic, sizeof magic);
    in.bad |= magic != CACHE_MAGIC;
    int64_t data_start = get_i64(&in), data_end = get_i64(&in), unflagged = get_i64(&in);
    int64_t hist_end = get_i64(&in);
    size_t ng = get_count(&in, get_i64(&in), sizeof(int64_t));
    char **groups = xcalloc(ng + 1, sizeof *groups);
    for (size_t g = 0; g < ng && !in.bad; g++)
        groups[g] = get_str(&in);
    PlanBacktest *bt = xcalloc(1, sizeof *bt);
    get_bt(&in, bt);
    DemFit fit;
    memset(&fit, 0, sizeof fit);
    PlanYearUse *years = NULL;
    size_t nyears = 0;
    in.bad |= (get_i64(&in) != 0) != (with_fit != 0);
    if (with_fit && !in.bad) {
        get_fit(&in, &fit);
        nyears = get_count(&in, get_i64(&in), sizeof *years);
        years = get_array(&in, nyears, sizeof *years);
    }
    in.bad |= in.at != in.n || (size_t)fit.ngroups != (with_fit ? ng : 0) ||
              bt->calib.half < 0 || bt->calib.half >= DEM_NHALF ||
              (bt->ngroups > 0 && (size_t)bt->ngroups != ng);
    for (int i = 0; i < fit.nactive && !in.bad; i++)
        in.bad |= fit.users[i].group < 0 || (size_t)fit.users[i].group >= ng ||
                  fit.users[i].user < 0 || fit.users[i].user >= c->users.n ||
                  fit.users[i].first_month < 0 || fit.users[i].first_month >= DEM_HISTORY;
    free(data);
    if (in.bad) {
        for (size_t g = 0; g < ng; g++)
            free(groups[g]);
        free(groups);
        plan_backtest_free(bt);
        free(bt);
        demand_fit_done(&fit);
        free(years);
        return 0;
    }
    c->hist.data_start = data_start;
    c->data_end = data_end;
    c->hist_end = hist_end;
    p->unflagged_speed = (int)unflagged;
    c->hgroups = groups;
    c->hist.ngroups = (int)ng;
    c->hist.nusers = (int)c->users.n;
    for (size_t g = 0; g < ng; g++)
        strmap_put(c->hgidx, groups[g], strlen(groups[g]), (int64_t)g);
    p->bt = bt;
    c->fit = fit;
    p->year_use = years;
    p->nyear_use = (int)nyears;
    return 1;
}

/* ---- the per-cut cache (issue 31: an import pays for the cuts it changes) ----
 *
 * A backtest cut's fit (after its churn) and its forecasts depend on the
 * jobs that start before the cut, nothing later (core/demand.h), and on
 * the inputs hashed below. An entry records the greatest job id and the
 * last logged edit it saw; it stays good while every job added or edited
 * since starts at or after its cut (store_plan_cut_since): the nightly
 * import of the day's jobs leaves every earlier cut's entry as it was. */

/* The first counts of the history's groups, users and accounts an entry
 * was computed with: later ones are added after them (a group in the order
 * of its first job, users and accounts by id) and hold no job before an
 * entry's cut that stays good. */
typedef struct CutPrefix {
    int64_t ng, nu, na;
} CutPrefix;

/* The hash of a cut's inputs but its own time: the clusters, roster,
 * inventory and roles (base), the history's first start, its first ng
 * groups, the first na accounts' names and the first nu users' with the
 * roster group their jobs take (the roster as at the history's roster
 * time). */
static void cut_hash(const PlanCtx *c, const uint64_t base[2], const CutPrefix *x, Hash *h)
{
    h->a = base[0];
    h->b = base[1];
    hash_i64(h, c->hist.data_start);
    hash_i64(h, x->ng);
    for (int64_t g = 0; g < x->ng; g++)
        hash_str(h, c->hgroups[g]);
    hash_i64(h, x->na);
    for (int64_t a = 0; a < x->na; a++)
        hash_str(h, c->accounts.names[a]);
    hash_i64(h, x->nu);
    for (int64_t u = 0; u < x->nu; u++) {
        const char *name = plan_name_of(&c->users, u);
        const StorePlanPerson *pp = plan_roster_of(c, name);
        hash_str(h, name);
        hash_str(h, pp ? pp->group : NULL);
    }
}

/* The key of cut i for the prefix x, whose hash is h. */
static void cut_key(const Plan *p, const PlanCtx *c, int i, const CutPrefix *x, const Hash *h,
                    char *key, size_t n)
{
    const PlanHistRun *b = c->hrun;
    int64_t t0 = b->cut[i];
    snprintf(key, n,
             "groups %lld users %lld accounts %lld cut %d/%zu/%zu/%zu/%d order %08x cpu %d "
             "t0 %lld pools %d known %d inputs %016llx%016llx",
             (long long)x->ng, (long long)x->nu, (long long)x->na, PLAN_CACHE_MODEL,
             sizeof(DemFit), sizeof(DemUser), sizeof(DemGroup), DEM_NHALF, byte_order(), p->cpu,
             (long long)t0, plan_add_months(t0, 12) <= c->data_end, t0 >= c->now_t,
             (unsigned long long)h->a, (unsigned long long)h->b);
}

/* Cut i's forecasts: DEM_NHALF x (G + 1). */
static double *cut_rows(const PlanHistRun *b, int i)
{
    return b->f + (size_t)i * DEM_NHALF * ((size_t)b->G + 1);
}

/* The entry's fit and forecasts into cut i: 1 both read, 2 the fit alone
 * (computed with fewer groups: widened to G, its forecasts to compute), 0
 * not (unreadable). */
static int cut_decode(PlanCtx *c, int i, const unsigned char *data, size_t n)
{
    PlanHistRun *b = c->hrun;
    In in = {data, n, 0, 0};
    DemFit fit;
    get_fit(&in, &fit);
    int ng = fit.ngroups;
    size_t nrows = (size_t)DEM_NHALF * ((size_t)ng + 1);
    double *rows = get_array(&in, in.bad || ng < 0 || ng > b->G ? 0 : nrows, sizeof *rows);
    in.bad |= in.at != in.n || ng < 0 || ng > b->G;
    for (int k = 0; k < fit.nactive && !in.bad; k++)
        in.bad |= fit.users[k].group < 0 || fit.users[k].group >= ng ||
                  fit.users[k].user < 0 || fit.users[k].user >= c->users.n ||
                  fit.users[k].first_month < 0 || fit.users[k].first_month >= DEM_HISTORY;
    int rc = 0;
    if (!in.bad && ng == b->G) {
        b->fit[i] = fit;
        memcpy(cut_rows(b, i), rows, nrows * sizeof *rows);
        rc = 1;
    } else if (!in.bad) {
        demand_fit_widen(&fit, b->G);
        b->fit[i] = fit;
        rc = 2;
    } else
        demand_fit_done(&fit);
    free(rows);
    return rc;
}

void plan_cuts_load(Store *st, const Plan *p, PlanCtx *c, const StorePlanGpus *inv, size_t ninv,
                    PlanFeedReq *fits, int *nfits)
{
    PlanHistRun *b = c->hrun;
    b->cached = xcalloc((size_t)b->n + 1, 1);
    b->eupto = xcalloc(2 * (size_t)b->n + 1, sizeof *b->eupto);
    b->eedits = b->eupto + b->n;
    CpErr err;
    Hash h = {0xcbf29ce484222325ull, 0x6a09e667f3bcc909ull};
    if (!b->cut_cache || store_plan_cut_state(st, &b->upto, &b->edits) < 0 ||
        hash_inputs(st, p, c, inv, ninv, 0, &h, &err) < 0) {
        b->cut_cache = 0;
        return;
    }
    b->base[0] = h.a;
    b->base[1] = h.b;
    /* the key entries are saved under, with the roster as the jobs' groups
     * were taken (the backtest moves it to each cut's time) */
    CutPrefix all = {b->G, c->users.n, c->accounts.n};
    cut_hash(c, b->base, &all, &h);
    b->save[0] = h.a;
    b->save[1] = h.b;
    CutPrefix hx = {-1, -1, -1}; /* the prefix h was computed for */
    int64_t lu = -1, le = -1, since = INT64_MIN; /* the last ones asked */
    for (int i = 0; i < b->n; i++) {
        char key[256], want[256];
        int64_t upto, edits;
        long long ng, nu, na;
        unsigned char *data;
        size_t n;
        if (!store_plan_cut_get(st, b->cut[i], key, sizeof key, &upto, &edits, &data, &n))
            continue;
        int ok = sscanf(key, "groups %lld users %lld accounts %lld ", &ng, &nu, &na) == 3 &&
                 ng >= 0 && ng <= b->G && nu >= 0 && nu <= c->users.n && na >= 0 &&
                 na <= c->accounts.n;
        CutPrefix x = {ng, nu, na};
        if (ok && (x.ng != hx.ng || x.nu != hx.nu || x.na != hx.na)) {
            cut_hash(c, b->base, &x, &h);
            hx = x;
        }
        if (ok) {
            cut_key(p, c, i, &x, &h, want, sizeof want);
            ok = strcmp(key, want) == 0;
        }
        if (ok && (upto != lu || edits != le)) {
            since = store_plan_cut_since(st, upto, edits);
            lu = upto;
            le = edits;
        }
        if (ok && since >= b->cut[i]) {
            b->cached[i] = (unsigned char)cut_decode(c, i, data, n);
            b->eupto[i] = upto;
            b->eedits[i] = edits;
        }
        free(data);
    }
    int k = 0; /* the pass computes the others */
    for (int j = 0; j < *nfits; j++) {
        uintptr_t at = (uintptr_t)fits[j].out, lo = (uintptr_t)b->fit;
        size_t i = (at - lo) / sizeof *b->fit; /* the fits of cuts are b->fit[0..n) */
        if (!(at >= lo && i < (size_t)b->n && b->cached[i]))
            fits[k++] = fits[j];
    }
    *nfits = k;
}

void plan_cuts_save(Store *st, const Plan *p, const PlanCtx *c)
{
    const PlanHistRun *b = c->hrun;
    if (!b || !b->cut_cache)
        return;
    Hash h = {b->save[0], b->save[1]};
    CutPrefix x = {b->G, c->users.n, c->accounts.n};
    StorePlanCut *e = xcalloc((size_t)b->n + 1, sizeof *e);
    char(*keys)[256] = xcalloc((size_t)b->n + 1, sizeof *keys);
    Out *o = xcalloc((size_t)b->n + 1, sizeof *o);
    int ne = 0;
    size_t nrows = (size_t)DEM_NHALF * ((size_t)b->G + 1);
    for (int i = 0; i < b->n; i++) {
        if (b->cached[i] == 1)
            continue; /* else computed, or widened: kept as now */
        cut_key(p, c, i, &x, &h, keys[ne], sizeof keys[ne]);
        put_fit(&o[ne], &b->fit[i]);
        put(&o[ne], cut_rows(b, i), nrows * sizeof(double));
        int kept = b->cached[i] == 2; /* good since its own state: say so */
        e[ne] = (StorePlanCut){b->cut[i], kept ? b->eupto[i] : b->upto,
                               kept ? b->eedits[i] : b->edits, keys[ne], o[ne].b, o[ne].n};
        ne++;
    }
    store_plan_cut_put(st, e, ne);
    for (int i = 0; i < ne; i++)
        free(o[i].b);
    free(o);
    free(keys);
    free(e);
}
