/* simulate_next: next year's queue and the purchase that meets a service
 * target (simulate_next.h). */
#include "data/plan/simulate_next.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim_resample.h"
#include "data/plan/plan.h"

typedef struct Ctx {
    SimReplay rep;                 /* the last year, replayed */
    SimJob *jobs[SIMULATE_REPLICAS]; /* replica r's jobs in slot r, every replica kept
                                        once drawn when they fit in SIMULATE_KEEP_BYTES;
                                        else one replica at a time in slot 0, drawn again
                                        when another is needed (the search runs on
                                        replica 1 and evaluates fleets replica by
                                        replica: few draws) */
    size_t njobs[SIMULATE_REPLICAS];
    int keep_all;                  /* every replica kept once drawn */
    int drawn;                     /* the replica in slot 0, -1 none */
    const double *factor;
    size_t ngroups;
    int64_t last_from;
    SimPool *pools;                /* next year's fleet, room for a purchase */
    size_t np;
    int64_t from, to;
    double *share;                 /* per cluster: its share of a purchase */
    size_t nclusters;
    int fleets;
} Ctx;

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static SimBand band(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return (SimBand){v[0], v[(n - 1) / 2], v[n - 1]};
}

/* Replica r's jobs (seed SIMULATE_SEED + r). */
static void draw(Ctx *c, int slot, int r)
{
    free(c->jobs[slot]);
    c->jobs[slot] = sim_resample(c->rep.w.jobs, c->rep.w.n, c->factor, c->ngroups, c->last_from,
                                 c->from, c->from - SIMULATE_WARMUP_S,
                                 SIMULATE_SEED + (uint64_t)r, &c->njobs[slot]);
}

/* Waits of next year's jobs of replica r on pools; queued unit-hours per
 * cluster into queued (may be NULL, nclusters long). */
static void run_one(Ctx *c, int r, const SimPool *pools, size_t np, SimWaits *w, double *queued)
{
    SimOut o;
    int slot = c->keep_all ? r : 0;
    if (c->keep_all ? !c->jobs[r] : c->drawn != r) {
        draw(c, slot, r);
        c->drawn = r;
    }
    const SimJob *j = c->jobs[slot];
    size_t n = c->njobs[slot];
    sim_run_fair(j, n, pools, np, c->rep.bf_depth, simulate_fair_of(&c->rep.fair), &o);
    int64_t *buf = xmalloc((n ? n : 1) * sizeof *buf);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (j[i].submit < c->from || j[i].submit >= c->to || o.start[i] == SIM_NEVER)
            continue;
        buf[k++] = o.start[i] - j[i].submit;
        if (queued)
            queued[j[i].cluster] += (double)j[i].units * (double)(o.start[i] - j[i].submit) / 3600;
    }
    sim_waits(buf, k, w);
    free(buf);
    sim_out_free(&o);
}

/* Fleets f[0..nf) (the fleet plus f[i].extra) over reps replicas, replica
 * by replica: each replica is drawn once for all of them. */
typedef struct Fleet {
    SimPool *extra;
    size_t nx;
} Fleet;

/* With stop_h >= 0 and one fleet: returns 1 as soon as so many replicas'
 * p90 exceed stop_h that the median must (out not set then), else 0. */
static int fleets_eval(Ctx *c, const Fleet *f, int nf, int reps, SimFleetWaits *out,
                       double *queued, double stop_h)
{
    double(*v)[3][SIMULATE_REPLICAS] = xcalloc((size_t)nf + 1, sizeof *v); /* p50, p90, mean */
    int over = 0, first = !c->keep_all && c->drawn >= 0 && c->drawn < reps ? c->drawn : 0;
    for (int k = 0; k < reps; k++) { /* the replica drawn now first: one draw fewer */
        int r = k == 0 ? first : k <= first ? k - 1 : k;
        for (int i = 0; i < nf; i++) {
            size_t np = c->np;
            for (size_t x = 0; x < f[i].nx; x++)
                c->pools[np++] = f[i].extra[x];
            SimWaits w;
            run_one(c, r, c->pools, np, &w, r == 0 && i == 0 ? queued : NULL);
            v[i][0][r] = w.p50_h, v[i][1][r] = w.p90_h, v[i][2][r] = w.mean_h;
            over += nf == 1 && stop_h >= 0 && w.p90_h > stop_h + 1e-9;
            /* the median (the (reps+1)/2-th smallest) is over once reps - (reps-1)/2 are */
            if (over >= reps - (reps - 1) / 2) {
                c->fleets++;
                free(v);
                return 1;
            }
        }
    }
    for (int i = 0; i < nf; i++) {
        out[i].p50 = band(v[i][0], reps);
        out[i].p90 = band(v[i][1], reps);
        out[i].mean = band(v[i][2], reps);
        c->fleets++;
    }
    free(v);
    return 0;
}

/* One fleet; queued: as run_one's, from replica 1 (may be NULL). */
static void fleet_eval(Ctx *c, SimPool *extra, size_t nx, int reps, SimFleetWaits *out,
                       double *queued)
{
    Fleet f = {extra, nx};
    fleets_eval(c, &f, 1, reps, out, queued, -1);
}

/* count GPUs over the clusters by their shares (largest remainders):
 * counts per cluster into per (nclusters long). */
static void split(const Ctx *c, int count, int *per)
{
    int given = 0;
    for (size_t k = 0; k < c->nclusters; k++) {
        per[k] = (int)floor(count * c->share[k]);
        given += per[k];
    }
    while (given < count) {
        size_t best = 0;
        double rb = -1;
        for (size_t k = 0; k < c->nclusters; k++) {
            double r = count * c->share[k] - per[k];
            if (c->share[k] > 0 && r > rb)
                best = k, rb = r;
        }
        per[best]++;
        given++;
    }
}

/* The purchase's pools into p (room for nclusters); returns how many. */
static size_t purchase_pools(const Ctx *c, const CatalogGpu *g, int count, int quarter,
                             SimPool *p)
{
    int *per = xcalloc(c->nclusters + 1, sizeof *per);
    split(c, count, per);
    size_t n = 0;
    for (size_t k = 0; k < c->nclusters; k++)
        if (per[k] > 0)
            p[n++] = (SimPool){.from = plan_add_months(c->from, 3 * (quarter - 1)),
                               .to = SIM_OPEN,
                               .mem_gib = g->mem_gib,
                               .speed = g->relative_speed,
                               .units = per[k],
                               .cluster = (int32_t)k};
    free(per);
    return n;
}

static int meets(const SimFleetWaits *w, double target_h)
{
    return w->p90.mid <= target_h + 1e-9;
}

/* Purchases counts[0..nf) of g arriving in quarters[0..nf), each over
 * reps replicas (fleets_eval, stop_h as there: 1 when stopped). */
static int eval_many(Ctx *c, const CatalogGpu *g, const int *counts, const int *quarters,
                     int nf, int reps, SimFleetWaits *w, double stop_h)
{
    Fleet *f = xcalloc((size_t)nf + 1, sizeof *f);
    for (int i = 0; i < nf; i++) {
        f[i].extra = xmalloc((c->nclusters + 1) * sizeof *f[i].extra);
        f[i].nx = purchase_pools(c, g, counts[i], quarters[i], f[i].extra);
    }
    int stopped = fleets_eval(c, f, nf, reps, w, NULL, stop_h);
    for (int i = 0; i < nf; i++)
        free(f[i].extra);
    free(f);
    return stopped;
}

/* Does the purchase meet the target (the median over reps replicas)? w is
 * set when it does: the replicas stop once enough of them miss that the
 * median must (a fleet that fails costs 3 of 5 simulations when the
 * first 3 miss). */
static int eval_meets(Ctx *c, const CatalogGpu *g, int count, int quarter, int reps,
                      double target_h, SimFleetWaits *w)
{
    return !eval_many(c, g, &count, &quarter, 1, reps, w, target_h) && meets(w, target_h);
}

/* Is a (cost, gpu_eq) better than the purchase found so far? Priced
 * first, then the cheaper, then the fewer GPU-eq. */
static int better(const SimPurchase *b, double cost, double gpu_eq)
{
    if (!b->found)
        return 1;
    if ((cost >= 0) != (b->cost >= 0))
        return cost >= 0;
    if (cost >= 0 && cost != b->cost)
        return cost < b->cost;
    return gpu_eq < b->gpu_eq;
}

/* Can n GPUs of g no longer beat the purchase found so far? Then no more
 * can either (cost and GPU-eq grow with n). */
static int beaten(const SimPurchase *best, const CatalogGpu *g, int n)
{
    return !better(best, g->price >= 0 ? n * g->price : -1, n * g->relative_speed);
}

/* The fewest GPUs of g (a multiple of SIMULATE_STEP) arriving at next
 * year's start that meet the target on every replica's median; 0 when
 * SIMULATE_MAX_GPUS do not, or when the answer (at least lo + STEP at
 * every step) could no longer beat best (nothing simulated past that
 * point: the purchase chosen is the same). Searched on replica 1, then
 * confirmed. */
static int fewest(Ctx *c, const CatalogGpu *g, double target_h, const SimPurchase *best,
                  SimFleetWaits *w)
{
    int lo = 0, hi = SIMULATE_STEP;
    for (;;) {
        if (beaten(best, g, lo + SIMULATE_STEP))
            return 0;
        if (eval_meets(c, g, hi, 1, 1, target_h, w))
            break;
        lo = hi;
        hi *= 2;
        if (hi > SIMULATE_MAX_GPUS)
            return 0;
    }
    while (hi - lo > SIMULATE_STEP) {
        int mid = (lo + hi) / 2 / SIMULATE_STEP * SIMULATE_STEP;
        if (beaten(best, g, lo + SIMULATE_STEP))
            return 0;
        if (eval_meets(c, g, mid, 1, 1, target_h, w))
            hi = mid;
        else
            lo = mid;
    }
    for (int n = hi; n <= SIMULATE_MAX_GPUS; n += SIMULATE_STEP) {
        if (beaten(best, g, n))
            return 0;
        if (eval_meets(c, g, n, 1, SIMULATE_REPLICAS, target_h, w))
            return n;
    }
    return 0;
}

static void set_buy(SimPurchase *b, const Ctx *c, const CatalogGpu *g, int count,
                    const SimFleetWaits *w)
{
    b->found = 1;
    snprintf(b->model, sizeof b->model, "%s", g->model);
    int *per = xcalloc(c->nclusters + 1, sizeof *per);
    split(c, count, per);
    b->nsplit = 0;
    for (size_t k = 0; k < c->nclusters && b->nsplit < SIMULATE_MAX_SPLIT; k++)
        if (per[k] > 0) {
            snprintf(b->split_cluster[b->nsplit], sizeof b->split_cluster[0], "%s",
                     c->rep.w.raw.clusters[k]);
            b->split_count[b->nsplit++] = per[k];
        }
    free(per);
    memcpy(b->currency, g->currency, sizeof b->currency);
    b->count = count;
    b->quarter = 1;
    b->arrives = c->from;
    b->mem_gib = g->mem_gib;
    b->speed = g->relative_speed;
    b->gpu_eq = count * g->relative_speed;
    b->price = g->price;
    b->cost = g->price >= 0 ? count * g->price : -1;
    b->kw = g->tdp_w >= 0 ? count * g->tdp_w / 1000 : -1;
    b->w = *w;
}

/* The latest quarter the purchase can arrive and still meet the target. */
static void latest_quarter(Ctx *c, const CatalogGpu *g, double target_h, SimPurchase *b)
{
    for (int q = 4; q > 1; q--) {
        SimFleetWaits w;
        if (eval_meets(c, g, b->count, q, SIMULATE_REPLICAS, target_h, &w)) {
            b->quarter = q;
            b->arrives = plan_add_months(c->from, 3 * (q - 1));
            b->w = w;
            return;
        }
    }
}

static const CatalogGpu *curve_model(const CatalogGpu *v, size_t n, const SimPurchase *b)
{
    const CatalogGpu *best = n ? &v[0] : NULL;
    for (size_t i = 0; i < n; i++) {
        if (b->found && strcmp(v[i].model, b->model) == 0)
            return &v[i];
        double pi = v[i].price >= 0 ? v[i].price / v[i].relative_speed : INFINITY;
        double pb = best->price >= 0 ? best->price / best->relative_speed : INFINITY;
        if (pi < pb)
            best = &v[i];
    }
    return best;
}

static void capacity_curve(Ctx *c, const CatalogGpu *g, SimNext *out)
{
    static const int fixed[SIMULATE_CURVE] = {0, 8, 16, 32, 64, 128};
    snprintf(out->curve_model, sizeof out->curve_model, "%s", g->model);
    int counts[SIMULATE_CURVE], quarters[SIMULATE_CURVE], idx[SIMULATE_CURVE], nrun = 0;
    for (int k = 0; k < SIMULATE_CURVE; k++) {
        int n = fixed[k];
        if (out->buy.found) { /* 0, 1/4, 1/2, 3/4, 1, 3/2 of the purchase */
            n = (out->buy.count * k / 4 + SIMULATE_STEP / 2) / SIMULATE_STEP * SIMULATE_STEP;
            if (k > 0 && n <= out->curve[k - 1].count)
                n = out->curve[k - 1].count + SIMULATE_STEP;
        }
        SimCurvePt *pt = &out->curve[out->ncurve++];
        pt->count = n;
        pt->gpu_eq = n * g->relative_speed;
        if (n == 0)
            pt->w = out->nothing;
        else if (out->buy.found && n == out->buy.count && out->buy.quarter == 1)
            pt->w = out->buy.w;
        else {
            counts[nrun] = n;
            quarters[nrun] = 1;
            idx[nrun++] = k;
        }
    }
    SimFleetWaits w[SIMULATE_CURVE];
    eval_many(c, g, counts, quarters, nrun, SIMULATE_REPLICAS, w, -1); /* the points together */
    for (int i = 0; i < nrun; i++)
        out->curve[idx[i]].w = w[i];
}

/* Each group's factor: the forecaster's expected use of year 1 over the
 * GPU-eq its jobs used last year. */
static int factors(Store *st, const SimNextOpts *o, Ctx *c, double *factor, SimNext *out,
                   CpErr *err)
{
    const SimWorld *w = &c->rep.w;
    size_t ng = w->raw.ngroups;
    double *used = xcalloc(ng + 1, sizeof *used);
    for (size_t i = 0; i < w->n; i++)
        if (w->jobs[i].submit >= out->last_from && w->jobs[i].submit < out->from)
            used[w->jobs[i].group] += w->jobs[i].units * (double)w->jobs[i].runtime *
                                      (w->cpu[w->jobs[i].cluster] ? 1 : w->jobs[i].ref_speed);
    PlanOpts po;
    memset(&po, 0, sizeof po);
    Plan *p = plan_build(st, &po, err);
    ProjParams *params = NULL;
    if (!p || plan_params(st, p, o->scenario, &params, NULL, err) < 0) {
        plan_free(p);
        free(used);
        return -1;
    }
    ProjResult *r = projection_result_new(p->model);
    projection_run(p->model, params, r);
    double span = (double)(out->from - out->last_from);
    unsigned char *seen = xcalloc((size_t)p->ngroups + 1, 1);
    for (size_t g = 0; g < ng; g++) {
        double u = used[g] / span;
        int pg = plan_group_index(p, w->raw.groups[g]);
        double e = pg >= 0 ? r->gy[pg * r->nyears].base : u;
        if (pg >= 0 && u > 0)
            seen[pg] = 1;
        factor[g] = u > 0 ? e / u : 1;
        out->use_last += u;
        out->use_next += u > 0 ? e : 0;
    }
    for (int g = 0; g < p->ngroups; g++)
        if (!seen[g])
            out->new_use += r->gy[g * r->nyears].base;
    free(seen);
    projection_result_free(r);
    projection_params_free(params);
    plan_free(p);
    free(used);
    return 0;
}

/* Next year's fleet: the pools still in service at its start or later. */
static void next_fleet(Ctx *c)
{
    const SimWorld *w = &c->rep.w;
    c->pools = xmalloc((w->np + w->raw.nclusters + 1) * sizeof *c->pools);
    for (size_t p = 0; p < w->np; p++)
        if (w->pools[p].to > c->from)
            c->pools[c->np++] = w->pools[p];
}

/* Buy nothing, and each GPU cluster's share of the GPU-hours queued then
 * (replica 1; equal shares when nothing queued). */
static void buy_nothing(Ctx *c, SimNext *out)
{
    size_t nc = c->nclusters = c->rep.w.raw.nclusters;
    c->share = xcalloc(nc + 1, sizeof *c->share);
    fleet_eval(c, NULL, 0, SIMULATE_REPLICAS, &out->nothing, c->share); /* shares: replica 1 */
    double sum = 0;
    size_t ngpu = 0;
    for (size_t k = 0; k < nc; k++) {
        if (c->rep.w.cpu[k])
            c->share[k] = 0;
        sum += c->share[k];
        ngpu += !c->rep.w.cpu[k];
    }
    for (size_t k = 0; k < nc; k++)
        c->share[k] = c->rep.w.cpu[k] ? 0 : sum > 0 ? c->share[k] / sum : 1.0 / (double)ngpu;
}

static void search(Ctx *c, const CatalogGpu *v, size_t n, SimNext *out)
{
    for (size_t pass = 0; pass < 2 * n; pass++) { /* the priced models, then the others */
        size_t i = pass % n;
        if ((pass < n) != (v[i].price >= 0) || (pass >= n && out->buy.found))
            continue;
        SimFleetWaits w;
        int count = fewest(c, &v[i], out->target_h, &out->buy, &w);
        if (count == 0)
            continue;
        double cost = v[i].price >= 0 ? count * v[i].price : -1;
        if (better(&out->buy, cost, count * v[i].relative_speed))
            set_buy(&out->buy, c, &v[i], count, &w);
    }
    for (size_t i = 0; i < n && out->buy.found; i++)
        if (strcmp(v[i].model, out->buy.model) == 0) {
            latest_quarter(c, &v[i], out->target_h, &out->buy);
            break;
        }
}

static void ctx_free(Ctx *c)
{
    for (int r = 0; r < SIMULATE_REPLICAS; r++)
        free(c->jobs[r]);
    free(c->pools);
    free(c->share);
    simulate_replay_free(&c->rep);
}

int simulate_next(Store *st, const SimNextOpts *o, SimNext *out, CpErr *err)
{
    return simulate_next_run(st, o, 0, SIMULATE_EMBED_MAX_JOBS, SIMULATE_ORDER_FCFS, out, err);
}

int simulate_next_run(Store *st, const SimNextOpts *o, size_t bf_depth, size_t max_jobs,
                      int order, SimNext *out, CpErr *err)
{
    memset(out, 0, sizeof *out);
    double t0 = simulate_clock();
    int64_t first, end;
    if (simulate_span(st, &first, &end, err) < 0)
        return -1;
    out->from = (end + 86399) / 86400 * 86400; /* the day after the last submit */
    out->last_from = plan_add_months(out->from, -12);
    out->to = plan_add_months(out->from, 12);
    Ctx c;
    memset(&c, 0, sizeof c);
    c.from = out->from;
    c.to = out->to;
    if (simulate_replay_order(st, out->last_from, out->from, SIM_NEVER, bf_depth, order,
                              o->scenario, &c.rep, err) < 0)
        return -1;
    if (!simulate_fleet_known(&c.rep.w)) { /* never a purchase against a guessed fleet */
        ctx_free(&c);
        return cp_err_set(err, "%s", SIMULATE_NO_INVENTORY);
    }
    out->bf_depth = c.rep.bf_depth;
    out->fairshare = c.rep.fair.on;
    out->last = c.rep.sum.rec;
    out->last_sim = c.rep.sum.sim;
    out->last_plus10 = c.rep.plus10;
    out->idle_share = simulate_idle_share(c.rep.sum.wait_h, c.rep.sum.idle_wait_h);
    sim_out_free(&c.rep.out); /* the replay's figures are copied; its jobs stay to draw from */
    sim_summary_free(&c.rep.sum);
    out->policy = c.rep.policy;
    out->target_given = o->target_h > 0;
    out->target_h = out->target_given ? o->target_h : out->last.p90_h;
    size_t ng = c.rep.w.raw.ngroups;
    double *factor = xcalloc(ng + 1, sizeof *factor);
    int rc = factors(st, o, &c, factor, out, err);
    const CatalogGpu *v = o->catalog;
    size_t nv = o->ncatalog;
    out->builtin_catalog = o->builtin_catalog;
    if (rc == 0) {
        out->cpu = 1;
        for (size_t k = 0; k < c.rep.w.raw.nclusters; k++)
            out->cpu &= c.rep.w.cpu[k];
        c.factor = factor;
        c.ngroups = ng;
        c.last_from = out->last_from;
        draw(&c, 0, 0);
        c.drawn = 0;
        for (size_t i = 0; i < c.njobs[0]; i++) /* replica 1's, before any other is drawn */
            out->jobs_next += c.jobs[0][i].submit >= c.from;
        c.keep_all = (double)c.njobs[0] * sizeof(SimJob) * SIMULATE_REPLICAS <= SIMULATE_KEEP_BYTES;
        if (c.njobs[0] > max_jobs && max_jobs < SIMULATE_MAX_JOBS)
            rc = cp_err_set(err, "next year draws %zu jobs, more than are simulated on the way "
                                 "(%zu): capplan simulate runs it",
                            c.njobs[0], max_jobs);
        else if (c.njobs[0] > max_jobs)
            rc = cp_err_set(err, "next year draws %zu jobs, more than the simulation runs in "
                                 "reasonable time (%zu): not simulated",
                            c.njobs[0], max_jobs);
    }
    if (rc == 0) {
        next_fleet(&c);
        buy_nothing(&c, out);
        out->meets_nothing = meets(&out->nothing, out->target_h);
        if (!out->cpu && !out->policy && !out->meets_nothing)
            search(&c, v, nv, out);
        const CatalogGpu *g = out->cpu ? NULL : curve_model(v, nv, &out->buy);
        if (g)
            capacity_curve(&c, g, out);
    }
    out->fleets = c.fleets;
    free(factor);
    ctx_free(&c);
    out->seconds = simulate_clock() - t0;
    return rc;
}
