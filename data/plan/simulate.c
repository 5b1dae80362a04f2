/* simulate: the store's jobs and fleet for core/sim, and the replay
 * (simulate.h). */
#include "data/plan/simulate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/plan/plan.h"
#include "data/store/store.h"
#include "data/store/store_plan.h"

double simulate_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

size_t simulate_bf_depth(size_t given)
{
    return given == 0 ? SIM_BF_DEPTH : given == SIMULATE_BF_ALL ? 0 : given;
}

double simulate_idle_share(double wait_h, double idle_wait_h)
{
    return wait_h > 0 ? idle_wait_h / wait_h : 0.0;
}

int simulate_span(Store *st, int64_t *first, int64_t *end, CpErr *err)
{
    int rc = store_sim_span(st, first, end, err);
    if (rc > 0)
        return cp_err_set(err, "no job with a recorded start and runtime to simulate");
    return rc;
}

int simulate_last_year_jobs(Store *st, int64_t *n, CpErr *err)
{
    int64_t first, end;
    if (simulate_span(st, &first, &end, err) < 0)
        return -1;
    return store_sim_count(st, plan_add_months(end, -12), end, n, err);
}

static void add_pool(SimWorld *w, SimPool p, const char *model)
{
    p.model = (int32_t)(store_sim_find(w->raw.models, w->raw.nmodels, model) + 1);
    w->pools = xrealloc(w->pools, (w->np + 1) * sizeof *w->pools);
    w->pool_model = xrealloc(w->pool_model, (w->np + 1) * sizeof *w->pool_model);
    w->pools[w->np] = p;
    w->pool_model[w->np++] = xstrdup(model);
}

/* Which clusters count processors: those where no job holds a GPU. */
static void mark_units(SimWorld *w)
{
    w->cpu = xmalloc(w->raw.nclusters + 1);
    memset(w->cpu, 1, w->raw.nclusters + 1);
    for (size_t i = 0; i < w->raw.n; i++)
        if (w->raw.v[i].gpus > 0)
            w->cpu[w->raw.v[i].cluster] = 0;
}

static void inventory_pools(SimWorld *w, const StorePlanGpus *g, size_t ng)
{
    for (size_t i = 0; i < ng; i++) {
        long c = store_sim_find(w->raw.clusters, w->raw.nclusters, g[i].cluster);
        if (c < 0 || g[i].gpus < 1)
            continue;
        SimPool p = {.from = g[i].from,
                     .to = g[i].to == STORE_PLAN_NO_DATE ? SIM_OPEN : g[i].to + 86400,
                     .mem_gib = g[i].mem_gib,
                     .speed = g[i].speed > 0 ? g[i].speed : 1.0,
                     .units = (int32_t)llround(g[i].gpus),
                     .cluster = (int32_t)c};
        add_pool(w, p, g[i].model);
    }
}

/* The recorded model's speed and pool of job j (at its recorded start). */
static void job_ref(const SimWorld *w, const StoreSimJob *r, SimJob *j)
{
    j->ref_speed = 1.0;
    j->rec_pool = -1;
    if (r->model < 0)
        return;
    const char *m = w->raw.models[r->model];
    for (size_t p = 0; p < w->np; p++) {
        if (w->pools[p].cluster != r->cluster || strcmp(w->pool_model[p], m) != 0)
            continue;
        j->ref_speed = w->pools[p].speed;
        if (w->pools[p].from <= r->start && r->start < w->pools[p].to) {
            j->rec_pool = (int32_t)p;
            return;
        }
    }
}

/* Per partition (raw.parts): its tier, the place of its name in tiers;
 * unlisted: ntiers (after every listed one). Caller frees. */
static int32_t *part_tiers(const SimWorld *w, const SimReplayOpts *o)
{
    int32_t *t = xmalloc((w->raw.nparts + 1) * sizeof *t);
    for (size_t p = 0; p < w->raw.nparts; p++) {
        t[p] = (int32_t)o->ntiers;
        for (size_t k = 0; k < o->ntiers; k++)
            if (strcmp(o->tiers[k], w->raw.parts[p]) == 0) {
                t[p] = (int32_t)k;
                break;
            }
    }
    return t;
}

static void build_jobs(SimWorld *w, const SimReplayOpts *o)
{
    size_t cap = w->raw.n ? w->raw.n : 1;
    w->jobs = xmalloc(cap * sizeof *w->jobs);
    if (o->placement == SIMULATE_PLACE_RECORDED) /* the recorded model, simulate_place checks it */
        w->pin = xmalloc(cap * sizeof *w->pin);
    int32_t *ptier = o->ntiers ? part_tiers(w, o) : NULL;
    if (ptier)
        w->tier = xmalloc(cap * sizeof *w->tier);
    for (size_t i = 0; i < w->raw.n; i++) {
        const StoreSimJob *r = &w->raw.v[i];
        double u = w->cpu[r->cluster] ? r->ncpus : ceil(r->gpus);
        if (u < 1 || u > INT32_MAX) {
            w->skipped++;
            continue;
        }
        SimJob *j = &w->jobs[w->n++];
        *j = (SimJob){.submit = r->submit,
                      .runtime = r->elapsed,
                      .limit = r->limit,
                      .rec_start = r->start,
                      .mem_gib = w->cpu[r->cluster] ? 0 : r->mem_gib,
                      .units = (int32_t)u,
                      .group = r->group,
                      .cluster = r->cluster};
        if (w->pin)
            w->pin[w->n - 1] = r->model + 1;
        if (w->tier)
            w->tier[w->n - 1] = w->raw.part[i] >= 0 ? ptier[w->raw.part[i]] : (int32_t)o->ntiers;
        job_ref(w, r, j);
    }
    free(ptier);
}

/* A cluster without an inventory row: its recorded peak. */
static void peak_pools(SimWorld *w)
{
    for (size_t c = 0; c < w->raw.nclusters; c++) {
        int has = 0;
        for (size_t p = 0; p < w->np && !has; p++)
            has = w->pools[p].cluster == (int32_t)c;
        if (has)
            continue;
        int32_t peak = sim_peak_units(w->jobs, w->n, (int32_t)c);
        if (peak < 1)
            continue;
        SimPool p = {.from = INT64_MIN, .to = SIM_OPEN, .mem_gib = 1e9, .speed = 1.0,
                     .units = peak, .cluster = (int32_t)c};
        add_pool(w, p, "peak");
    }
}

int simulate_load(Store *st, int64_t from, int64_t to, const SimReplayOpts *o, SimWorld *w,
                  CpErr *err)
{
    memset(w, 0, sizeof *w);
    StorePlanGpus *g = NULL;
    size_t ng = 0;
    if (store_sim_jobs(st, from, to, o->ntiers > 0, &w->raw, err) < 0)
        return -1;
    store_release_memory(st); /* the page cache the read filled: the jobs are in memory now */
    if (store_plan_inventory(st, &g, &ng, err) < 0) {
        store_plan_inventory_free(g, ng);
        simulate_world_free(w);
        return -1;
    }
    mark_units(w);
    inventory_pools(w, g, ng);
    for (size_t p = 0; p < w->np; p++) /* every pool so far is the inventory's */
        w->gpu_inventory |= !w->cpu[w->pools[p].cluster];
    store_plan_inventory_free(g, ng);
    build_jobs(w, o);
    free(w->raw.v); /* the rows are in jobs now; the names stay */
    w->raw.v = NULL;
    free(w->raw.part);
    w->raw.part = NULL;
    w->raw.n = 0;
    peak_pools(w);
    return 0;
}

int simulate_fleet_known(const SimWorld *w)
{
    int gpu = 0;
    for (size_t c = 0; c < w->raw.nclusters; c++)
        gpu |= !w->cpu[c];
    return !gpu || w->gpu_inventory;
}

void simulate_world_free(SimWorld *w)
{
    for (size_t p = 0; p < w->np; p++)
        free(w->pool_model[p]);
    free(w->pool_model);
    free(w->pools);
    free(w->jobs);
    free(w->pin);
    free(w->tier);
    free(w->cpu);
    store_sim_free(&w->raw);
    memset(w, 0, sizeof *w);
}

/* The window's simulated waits with every pool grown by 10 % (rounded up). */
static void plus_ten(const SimReplay *r, SimWaits *out)
{
    SimPool *p = xmalloc((r->w.np ? r->w.np : 1) * sizeof *p);
    for (size_t i = 0; i < r->w.np; i++) {
        p[i] = r->w.pools[i];
        p[i].units = (int32_t)ceil(p[i].units * 1.1);
    }
    SimOut o;
    SimHow how = {.depth = r->bf_depth, .fair = simulate_fair_of(&r->fair), .pin = r->w.pin,
                  .tier = r->w.tier, .ntiers = (int32_t)r->ntiers + 1};
    sim_run_how(r->w.jobs, r->w.n, p, r->w.np, &how, &o);
    int64_t *buf = xmalloc((r->w.n ? r->w.n : 1) * sizeof *buf);
    size_t k = 0;
    for (size_t i = 0; i < r->w.n; i++)
        if (r->w.jobs[i].submit >= r->from && r->w.jobs[i].submit < r->to &&
            o.start[i] != SIM_NEVER)
            buf[k++] = o.start[i] - r->w.jobs[i].submit;
    sim_waits(buf, k, out);
    free(buf);
    sim_out_free(&o);
    free(p);
}

/* Keep the pools in service at t, in service throughout. */
static void fleet_as_at(SimWorld *w, int64_t t)
{
    size_t k = 0;
    for (size_t p = 0; p < w->np; p++) {
        if (!(w->pools[p].from <= t && t < w->pools[p].to)) {
            free(w->pool_model[p]);
            continue;
        }
        w->pools[k] = w->pools[p];
        w->pools[k].from = INT64_MIN;
        w->pools[k].to = SIM_OPEN;
        w->pool_model[k++] = w->pool_model[p];
    }
    w->np = k;
    for (size_t i = 0; i < w->n; i++)
        w->jobs[i].rec_pool = -1; /* the recorded pools may be gone */
}

int simulate_replay(Store *st, int64_t from, int64_t to, SimReplay *r, CpErr *err)
{
    return simulate_replay_at(st, from, to, SIM_NEVER, 0, r, err);
}

int simulate_replay_at(Store *st, int64_t from, int64_t to, int64_t fleet_at, size_t bf_depth,
                       SimReplay *r, CpErr *err)
{
    return simulate_replay_order(st, from, to, fleet_at, bf_depth, SIMULATE_ORDER_FCFS, NULL, r,
                                 err);
}

int simulate_replay_order(Store *st, int64_t from, int64_t to, int64_t fleet_at, size_t bf_depth,
                          int order, const char *scenario, SimReplay *r, CpErr *err)
{
    SimReplayOpts o = {from, to, fleet_at, bf_depth, order, SIMULATE_PLACE_ANY, scenario, NULL, 0};
    return simulate_replay_opts(st, &o, r, err);
}

int simulate_replay_opts(Store *st, const SimReplayOpts *o, SimReplay *r, CpErr *err)
{
    memset(r, 0, sizeof *r);
    r->from = o->from;
    r->to = o->to;
    r->bf_depth = simulate_bf_depth(o->bf_depth);
    if (simulate_load(st, o->from - SIMULATE_WARMUP_S, o->to, o, &r->w, err) < 0)
        return -1;
    r->tiers = o->tiers;
    r->ntiers = o->ntiers;
    if (o->fleet_at != SIM_NEVER)
        fleet_as_at(&r->w, o->fleet_at);
    r->pinned = simulate_place(&r->w, o->placement);
    r->placement = o->placement;
    if (o->order == SIMULATE_ORDER_FAIRSHARE &&
        simulate_fair_load(st, o->scenario, &r->w, &r->fair, err) < 0) {
        simulate_world_free(&r->w);
        return -1;
    }
    double t0 = simulate_clock();
    SimHow how = {.depth = r->bf_depth, .fair = simulate_fair_of(&r->fair), .pin = r->w.pin,
                  .tier = r->w.tier, .ntiers = (int32_t)r->ntiers + 1};
    sim_run_how(r->w.jobs, r->w.n, r->w.pools, r->w.np, &how, &r->out);
    r->sim_seconds = simulate_clock() - t0;
    double *idle = sim_idle(r->w.jobs, r->w.n, r->w.pools, r->w.np, r->w.pin);
    sim_summarise(r->w.jobs, r->w.n, &r->out, r->w.pools, r->w.np, idle, o->from, o->to, &r->sum);
    free(idle);
    plus_ten(r, &r->plus10);
    r->policy = simulate_idle_share(r->sum.wait_h, r->sum.idle_wait_h) >= SIMULATE_POLICY_SHARE;
    return 0;
}

void simulate_replay_free(SimReplay *r)
{
    sim_summary_free(&r->sum);
    sim_out_free(&r->out);
    simulate_fair_free(&r->fair);
    simulate_world_free(&r->w);
}
