/* plan_stream: the job history in two passes over the job blocks, never
 * held (plan_int.h: plan_hist_scan, plan_hist_pass). The first finds the
 * history's bounds, its groups (in the order of their first job), the
 * count of guessed GPU models and, per span of DEM_SPAN jobs, the latest
 * end before it and the earliest start after it; the second turns the same
 * rows into the same jobs and feeds each fit and each sum only while the
 * jobs may run in its months (the spans say when to start and when it is
 * complete), in rowid order: the figures of core/demand over jobs held in
 * memory, to the bit, in memory that does not grow with the jobs. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/plan/plan_int.h"

/* ---- GPU-eq ---- */

/* The speed of (cluster, type): the inventory's model of that name on that
 * cluster, else on any cluster, else the cluster's most common model
 * (*guessed = 1), else 1. */
double plan_kind_speed(const StorePlanGpus *inv, size_t n, const StorePlanKind *k, int *guessed)
{
    double any = -1, best = -1, best_n = -1;
    *guessed = 0;
    for (size_t i = 0; i < n; i++) {
        double sp = inv[i].speed > 0 ? inv[i].speed : 1;
        if (k->type[0] && strcasecmp(inv[i].model, k->type) == 0) {
            if (strcmp(inv[i].cluster, k->cluster) == 0)
                return sp;
            any = sp;
        }
        if (strcmp(inv[i].cluster, k->cluster) == 0 && inv[i].gpus > best_n) {
            best_n = inv[i].gpus;
            best = sp;
        }
    }
    if (any > 0)
        return any;
    *guessed = n > 0;
    return best > 0 ? best : 1;
}

/* One consumer of the second pass: a fit (feed) or a sum of use (act). */
typedef struct Cons {
    int64_t a, b;    /* the jobs that matter: end after a, start before b */
    DemCut cut;      /* a fit's months */
    int pools;       /* a fit's pools; -1: a sum */
    DemFeed *feed;
    DemFit *fit;     /* the fit, when done */
    double *act;     /* a sum: hist.ngroups, added to */
    int state;       /* 0 not started, 1 fed, 2 done */
} Cons;

/* Both passes: the rows into jobs. */
typedef struct Pass {
    Plan *p;
    PlanCtx *c;
    const StorePlanGpus *inv;
    size_t ninv;
    int *guessed;       /* per kind named so far (speeds: c->hspeed) */
    size_t nk;
    int64_t (*ucache)[2];
    size_t n;           /* jobs so far */
    DemJob *buf;        /* one batch */
    size_t bcap;
    int second;         /* 0: the scan; 1: the feeding pass */
    size_t ns, scap;    /* the scan's spans: the latest end up to each, */
    int64_t *send, *smin; /* the earliest start in each */
    int64_t emax;
    Cons *cons;
    int ncons;
    int changed;        /* the second pass saw more jobs than the first */
} Pass;

static void pass_kinds(Pass *r, const StorePlanKind *kinds, size_t nkinds)
{
    PlanCtx *c = r->c;
    if (nkinds <= r->nk)
        return;
    c->hspeed = xrealloc(c->hspeed, nkinds * sizeof *c->hspeed);
    r->guessed = xrealloc(r->guessed, nkinds * sizeof *r->guessed);
    for (size_t k = r->nk; k < nkinds; k++) {
        r->guessed[k] = 0;
        c->hspeed[k] = r->p->cpu ? 1 : plan_kind_speed(r->inv, r->ninv, &kinds[k], &r->guessed[k]);
    }
    r->nk = nkinds;
}

/* The scan's account of job j (index r->n): bounds and spans. */
static void scan_job(Pass *r, const DemJob *j)
{
    PlanCtx *c = r->c;
    if (r->n == 0) {
        c->hist.data_start = j->start;
        c->data_end = j->end; /* the latest end of a run */
        c->hist_end = j->start + 1; /* the latest start: what the forecasters read */
        r->emax = INT64_MIN;
    }
    if (j->start < c->hist.data_start)
        c->hist.data_start = j->start;
    if (j->end > c->data_end)
        c->data_end = j->end;
    if (j->start + 1 > c->hist_end)
        c->hist_end = j->start + 1;
    size_t k = r->n / DEM_SPAN;
    if (k == r->ns) { /* a new span */
        if (r->ns == r->scap) {
            r->scap = r->scap ? r->scap * 2 : 64;
            r->send = xrealloc(r->send, r->scap * sizeof *r->send);
            r->smin = xrealloc(r->smin, r->scap * sizeof *r->smin);
        }
        r->smin[r->ns++] = INT64_MAX;
    }
    int64_t e = j->elig + (j->end - j->start);
    if (j->end > r->emax)
        r->emax = j->end;
    if (e > r->emax)
        r->emax = e;
    r->send[k] = r->emax;
    if (j->start < r->smin[k])
        r->smin[k] = j->start;
}

/* ---- the second pass's consumers ---- */

static void cons_start(PlanCtx *c, Cons *x)
{
    if (x->pools >= 0)
        x->feed = demand_feed_new(&c->hist, &x->cut, x->pools);
    x->state = 1;
}

static void cons_finish(PlanCtx *c, Cons *x)
{
    if (x->state == 0)
        cons_start(c, x);
    if (x->pools >= 0)
        demand_feed_end(x->feed, &c->hist, x->fit);
    x->feed = NULL;
    x->state = 2;
}

/* Before span k: start those whose jobs begin in it, finish those that no
 * later job reaches. */
static void cons_boundary(PlanCtx *c, Cons *cons, int ncons, size_t k)
{
    for (int i = 0; i < ncons; i++) {
        Cons *x = &cons[i];
        if (x->state == 0 && c->hist.span_end[k] > x->a)
            cons_start(c, x);
        if (x->state != 2 && c->hist.span_start[k] >= x->b)
            cons_finish(c, x);
    }
}

static void cons_feed(PlanCtx *c, Cons *cons, int ncons, const DemJob *jobs, size_t n)
{
    for (int i = 0; i < ncons; i++) {
        Cons *x = &cons[i];
        if (x->state != 1)
            continue;
        if (x->pools >= 0)
            demand_feed(x->feed, jobs, n);
        else
            demand_actual_add(jobs, n, c->hist.ngroups, x->a, x->b, x->act);
    }
}

/* ---- both passes ---- */

static void pass_rows(void *ctx, const StorePlanUse *rows, size_t n, const StorePlanKind *kinds,
                      size_t nkinds)
{
    Pass *r = ctx;
    PlanCtx *c = r->c;
    pass_kinds(r, kinds, nkinds);
    if (n > r->bcap) {
        r->bcap = n;
        r->buf = xrealloc(r->buf, n * sizeof *r->buf);
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        const StorePlanUse *u = &rows[i];
        if (c->asof && u->start >= c->asof)
            continue; /* not known at the as-of date */
        DemJob *j = &r->buf[kept++];
        j->user = (int32_t)u->user_id;
        j->group = plan_job_group(c, r->ucache, u->user_id, u->account_id);
        j->elig = u->elig;
        j->start = u->start;
        j->end = u->end;
        j->eq = u->gpus * c->hspeed[u->kind];
        if (!r->second) {
            r->p->unflagged_speed += r->guessed[u->kind];
            scan_job(r, j);
            r->n++;
        }
    }
    n = kept;
    if (!r->second)
        return;
    if (r->changed || r->n + n > c->hist.njobs || c->hist.ngroups != c->hgroups_scanned) {
        r->changed = 1;
        return;
    }
    for (size_t i = 0; i < n;) { /* in pieces that stay within a span */
        if (r->n % DEM_SPAN == 0)
            cons_boundary(c, r->cons, r->ncons, r->n / DEM_SPAN);
        size_t m = DEM_SPAN - r->n % DEM_SPAN;
        if (m > n - i)
            m = n - i;
        cons_feed(c, r->cons, r->ncons, r->buf + i, m);
        i += m;
        r->n += m;
    }
}

static int pass_run(Store *st, Pass *r, CpErr *err)
{
    r->ucache = xmalloc(((size_t)r->c->users.n + 1) * sizeof *r->ucache);
    for (int64_t u = 0; u < r->c->users.n; u++)
        r->ucache[u][0] = -2;
    r->n = 0;
    StorePlanUseVisit v = {NULL, pass_rows, r};
    int rc = store_plan_use_each(st, r->p->cpu, &v, err);
    free(r->ucache);
    free(r->buf);
    r->ucache = NULL;
    r->buf = NULL;
    r->bcap = 0;
    return rc;
}

int plan_hist_scan(Store *st, Plan *p, PlanCtx *c, const StorePlanGpus *inv, size_t ninv,
                   CpErr *err)
{
    Pass r;
    memset(&r, 0, sizeof r);
    r.p = p;
    r.c = c;
    r.inv = inv;
    r.ninv = ninv;
    c->hist.data_start = 0;
    c->data_end = c->hist_end = INT64_MIN;
    int rc = pass_run(st, &r, err);
    free(r.guessed);
    if (rc < 0) {
        free(r.send);
        free(r.smin);
        return -1;
    }
    /* span_start: the earliest start from each span on (a suffix minimum) */
    free(c->hspans);
    c->hspans = xmalloc((2 * r.ns + 1) * sizeof *c->hspans);
    if (r.ns)
        memcpy(c->hspans, r.send, r.ns * sizeof *c->hspans);
    int64_t lo = INT64_MAX;
    for (size_t k = r.ns; k-- > 0;) {
        if (r.smin[k] < lo)
            lo = r.smin[k];
        c->hspans[r.ns + k] = lo;
    }
    free(r.send);
    free(r.smin);
    if (c->asof && r.n && plan_obs_end(c->hist_end) < c->asof) {
        int64_t ym = plan_month_of(c->hist_end - 1);
        return cp_err_set(err, "--as-of: after the data's end (the last job started in "
                               "%04lld-%02lld): run project without it",
                          (long long)(ym / 100), (long long)(ym % 100));
    }
    if (c->asof)
        c->data_end = c->hist_end = c->asof;
    else if (r.n)
        c->hist_end = plan_obs_end(c->hist_end);
    c->hist.jobs = NULL;
    c->hist.njobs = r.n;
    c->hist.nusers = (int)c->users.n;
    c->hist.span_end = c->hspans;
    c->hist.span_start = c->hspans + r.ns;
    c->hgroups_scanned = c->hist.ngroups;
    c->nhspeed = r.nk;
    return 0;
}

static int pass_once(Store *st, Plan *p, PlanCtx *c, const PlanFeedReq *fits, int nfits,
                     const PlanSumReq *sums, int nsums, CpErr *err)
{
    Pass r;
    memset(&r, 0, sizeof r);
    r.p = p;
    r.c = c;
    r.second = 1;
    r.nk = c->nhspeed;
    r.ncons = nfits + nsums;
    r.cons = xcalloc((size_t)r.ncons + 1, sizeof *r.cons);
    for (int i = 0; i < nfits; i++) {
        Cons *x = &r.cons[i];
        plan_hist_months(fits[i].t0, &x->cut);
        x->a = x->cut.mb[0];
        x->b = x->cut.mb[DEM_HISTORY];
        x->pools = fits[i].pools;
        x->fit = fits[i].out;
    }
    for (int i = 0; i < nsums; i++) {
        Cons *x = &r.cons[nfits + i];
        x->a = sums[i].from;
        x->b = sums[i].to;
        x->pools = -1;
        x->act = sums[i].out;
        memset(x->act, 0, (size_t)c->hist.ngroups * sizeof *x->act);
        if (x->b <= x->a)
            x->state = 2; /* an empty period: nothing */
    }
    int rc = pass_run(st, &r, err);
    for (int i = 0; i < r.ncons; i++)
        if (r.cons[i].state != 2)
            cons_finish(c, &r.cons[i]); /* the end: whatever was fed is all */
    free(r.cons);
    if (rc == 0 && (r.changed || r.n != c->hist.njobs))
        rc = cp_err_set(err, "the jobs changed while the planner read them: run it again");
    return rc;
}

/* What the fits fed in a pass hold at once (core/demand.c): their hourly
 * curves (per group, a double per hour of the fit's 12-month window), a
 * fit's from its window's first job to its cut, so about 13 monthly fits
 * at a time; and their users' months, from 24 months before the cut, about
 * 25 fits. Past this many bytes the fits are fed in several passes, each a
 * share of them (every B-th), the sums with the first: the same figures
 * (each fit fed the same jobs in the same order), memory that does not
 * grow with groups x hours x cuts nor users x cuts (issue 31 item 2), one
 * more read of the blocks a pass. */
#define PLAN_POOLS_BUDGET ((size_t)48 << 20)
#define PLAN_CURVES_ALIVE 13
#define PLAN_USERS_ALIVE (DEM_HISTORY + 1)

static size_t pools_budget = PLAN_POOLS_BUDGET;

void plan_pools_budget(size_t n)
{
    pools_budget = n > 0 ? n : PLAN_POOLS_BUDGET;
}

int plan_hist_pass(Store *st, Plan *p, PlanCtx *c, const PlanFeedReq *fits, int nfits,
                   const PlanSumReq *sums, int nsums, CpErr *err)
{
    int pooled = 0;
    for (int i = 0; i < nfits; i++)
        pooled += fits[i].pools != 0;
    size_t per_user, curve;
    demand_feed_bytes(&c->hist, 1, &per_user, &curve);
    size_t held = (size_t)(pooled < PLAN_CURVES_ALIVE ? pooled : PLAN_CURVES_ALIVE) * curve +
                  (size_t)(nfits < PLAN_USERS_ALIVE ? nfits : PLAN_USERS_ALIVE) * per_user;
    size_t nb = (held + pools_budget - 1) / pools_budget;
    if (nb <= 1 || nfits <= 1)
        return pass_once(st, p, c, fits, nfits, sums, nsums, err);
    if (nb > (size_t)nfits)
        nb = (size_t)nfits;
    PlanFeedReq *part = xcalloc((size_t)nfits + 1, sizeof *part);
    int rc = 0;
    for (size_t b = 0; b < nb && rc == 0; b++) {
        int k = 0;
        for (int i = (int)b; i < nfits; i += (int)nb)
            part[k++] = fits[i];
        rc = pass_once(st, p, c, part, k, sums, b == 0 ? nsums : 0, err);
    }
    free(part);
    return rc;
}
