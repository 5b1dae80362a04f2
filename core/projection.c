#include "core/projection_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/features.h"
#include "core/leavers.h"

/* ---- small helpers ---- */

double *projection_dup_or_zero(const double *src, int n)
{
    double *d = xcalloc((size_t)(n > 0 ? n : 1), sizeof *d);
    if (src && n > 0)
        memcpy(d, src, (size_t)n * sizeof *d);
    return d;
}

/* Share of [a, b) covered by [from, to). */
static double overlap(int64_t a, int64_t b, int64_t from, int64_t to)
{
    int64_t lo = a > from ? a : from, hi = b < to ? b : to;
    return hi > lo && b > a ? (double)(hi - lo) / (double)(b - a) : 0;
}

/* v when finite, else 0: no NaN or inf reaches an output. */
static double fin(double v)
{
    return isfinite(v) ? v : 0;
}

/* ---- measured values ---- */

static void measure_profiles(ProjModel *m)
{
    double *v = xmalloc(((size_t)m->U + 1) * sizeof *v);
    int h = m->calib.half;
    for (int p = 0; p < m->P; p++) {
        int n = 0, nm = 0;
        double s = 0;
        for (int i = 0; i < m->U; i++)
            if (m->users[i].profile == p) {
                s += m->users[i].rate[h];
                n++;
            }
        m->gpus[p] = n > 0 ? s / n : 0;
        for (int i = 0; i < m->U; i++)
            if (m->users[i].profile == p && m->users[i].mem_gib >= 0)
                v[nm++] = m->users[i].mem_gib;
        m->mem[p] = nm > 0 ? features_percentile(v, nm, 75) : -1;
    }
    free(v);
}

static void place_members(ProjModel *m)
{
    for (int i = 0; i < m->U; i++) {
        const ProjUser *u = &m->users[i];
        if (u->group < 0 || u->group >= m->G)
            continue;
        m->heads0[u->group] += 1;
        m->heads_t0[u->group] += u->leaves > m->ystart[0];
        for (int y = 0; y < m->Y; y++)
            m->present[(size_t)i * m->Y + y] =
                u->leaves == PROJ_NEVER
                    ? leave_presence(u->churn, m->ystart[0], m->ystart[y], m->ystart[y + 1])
                    : overlap(m->ystart[y], m->ystart[y + 1], INT64_MIN, u->leaves);
        double r = u->rate[m->calib.half];
        m->cls_share[(size_t)u->group * MEMCLASS_COUNT + profiles_mem_class(u->mem_gib)] +=
            r > 0 ? r : 0;
    }
    for (int g = 0; g < m->G; g++) {
        double *c = m->cls_share + (size_t)g * MEMCLASS_COUNT, s = 0;
        for (int k = 0; k < MEMCLASS_COUNT; k++)
            s += c[k];
        for (int k = 0; k < MEMCLASS_COUNT; k++)
            c[k] = s > 0 ? c[k] / s : k == MEMCLASS_UNKNOWN;
    }
}

static void place_arrivals(ProjModel *m, const ProjInput *in)
{
    for (int a = 0; a < in->narrivals; a++) {
        const ProjArrival *ar = &in->arrivals[a];
        if (ar->group < 0 || ar->group >= m->G)
            continue;
        for (int y = 0; y < m->Y; y++)
            m->arrive[(size_t)ar->group * m->Y + y] +=
                overlap(m->ystart[y], m->ystart[y + 1], ar->start, ar->end);
    }
}

static void place_capacity(ProjModel *m, const ProjInput *in)
{
    for (int i = 0; i < in->ngpus; i++) {
        const ProjGpus *r = &in->gpus[i];
        int c = profiles_mem_class(r->mem_gib);
        double speed = r->speed > 0 ? r->speed : 1;
        for (int y = 0; y < m->Y; y++)
            m->cap[(size_t)c * m->Y + y] +=
                r->gpus * speed * overlap(m->ystart[y], m->ystart[y + 1], r->from, r->to);
    }
}

static void build_mix(ProjModel *m)
{
    int *labels = xmalloc(((size_t)m->U + 1) * sizeof *labels);
    int *group = xmalloc(((size_t)m->U + 1) * sizeof *group);
    for (int i = 0; i < m->U; i++) {
        labels[i] = m->users[i].profile;
        group[i] = m->users[i].group;
    }
    profiles_mix(labels, group, m->U, m->G, m->gdom, m->P, m->mix);
    free(labels);
    free(group);
}

static void take_fit(ProjModel *m, const DemFit *f)
{
    for (int g = 0; g < m->G && f && g < f->ngroups; g++) {
        const DemGroup *d = &f->groups[g];
        m->growth[g] = fin(d->growth);
        m->growth_raw[g] = isfinite(d->growth_raw) ? d->growth_raw : m->growth[g];
        m->growth_capped[g] = d->growth_capped;
        m->newrate[g] = fin(d->newrate);
        m->ramp[g] = d->ramp > 0 ? fin(d->ramp) : 1;
        /* over the part of the window the data covers, as the Overview's years */
        m->used[g] = fin(d->used) / (f->window_cover > 0 ? f->window_cover : 1);
        m->pool[g] = fin(d->pool);
        m->matf[g] = d->mature_factor > 0 ? fin(d->mature_factor) : 1;
        m->matn[g] = d->mature_n;
    }
    m->window_cover = f && f->window_cover > 0 ? f->window_cover : 1;
    if (f) {
        m->pool_inst = fin(f->pool_inst);
        m->intensity = fin(f->intensity);
        m->intensity_raw = fin(f->intensity_raw);
        m->intensity_capped = f->intensity_capped;
        m->growth_inst = fin(f->growth);
        m->newrate_inst = fin(f->newrate);
        m->ramp_inst = f->ramp > 0 ? fin(f->ramp) : 1;
        m->maturation = f->maturation > 0 ? fin(f->maturation) : 1;
    }
}

ProjModel *projection_prepare(const ProjInput *in)
{
    ProjModel *m = xcalloc(1, sizeof *m);
    m->G = in->ngroups;
    m->P = in->nprofiles;
    m->D = in->ndomains;
    m->U = in->nusers;
    m->M = in->nmodels < PROJ_MAX_MODELS ? in->nmodels : PROJ_MAX_MODELS;
    m->Y = in->nyears < 1 ? 1 : in->nyears > PROJ_MAX_YEARS ? PROJ_MAX_YEARS : in->nyears;
    m->calib = in->calib;
    if (m->calib.half < 0 || m->calib.half >= DEM_NHALF)
        m->calib.half = 2;
    for (int i = 0; i < m->M; i++)
        m->models[i] = in->models[i];
    m->gdom = xcalloc((size_t)(m->G + 1), sizeof *m->gdom);
    for (int g = 0; g < m->G; g++)
        m->gdom[g] = in->group_domain ? in->group_domain[g] : 0;
    m->ystart = xmalloc((size_t)(m->Y + 1) * sizeof *m->ystart);
    memcpy(m->ystart, in->year_start, (size_t)(m->Y + 1) * sizeof *m->ystart);
    m->users = xcalloc((size_t)m->U + 1, sizeof *m->users);
    if (m->U > 0)
        memcpy(m->users, in->users, (size_t)m->U * sizeof *m->users);
    m->heads0 = projection_dup_or_zero(NULL, m->G);
    m->heads_t0 = projection_dup_or_zero(NULL, m->G);
    m->present = projection_dup_or_zero(NULL, m->U * m->Y);
    m->arrive = projection_dup_or_zero(NULL, m->G * m->Y);
    m->mix = projection_dup_or_zero(NULL, m->G * m->P);
    m->newrate = projection_dup_or_zero(NULL, m->G);
    m->ramp = projection_dup_or_zero(NULL, m->G);
    m->used = projection_dup_or_zero(NULL, m->G);
    m->cls_share = projection_dup_or_zero(NULL, m->G * MEMCLASS_COUNT);
    m->cap = projection_dup_or_zero(NULL, MEMCLASS_COUNT * m->Y);
    m->growth = projection_dup_or_zero(NULL, m->G);
    m->growth_raw = projection_dup_or_zero(NULL, m->G);
    m->growth_capped = xcalloc((size_t)m->G + 1, sizeof *m->growth_capped);
    m->pool = projection_dup_or_zero(NULL, m->G);
    m->gpus = projection_dup_or_zero(NULL, m->P);
    m->mem = projection_dup_or_zero(NULL, m->P);
    m->level = projection_dup_or_zero(NULL, m->G);
    m->matf = projection_dup_or_zero(NULL, m->G);
    m->matn = xcalloc((size_t)m->G + 1, sizeof *m->matn);
    m->gq = projection_dup_or_zero(NULL, 2 * m->G);
    m->pool_cap = projection_dup_or_zero(NULL, m->G);
    m->stated_u = projection_dup_or_zero(NULL, m->U);
    m->stated_g = projection_dup_or_zero(NULL, m->G);
    for (int i = 0; i < m->U; i++)
        m->stated_u[i] = NAN;
    for (int g = 0; g < m->G; g++) {
        m->level[g] = 1;
        m->pool_cap[g] = INFINITY;
        m->gq[2 * g] = m->gq[2 * g + 1] = NAN;
    }
    m->level_new = 1;
    if (m->P > 0)
        build_mix(m);
    take_fit(m, in->fit);
    place_members(m);
    place_arrivals(m, in);
    place_capacity(m, in);
    measure_profiles(m);
    return m;
}

void projection_model_free(ProjModel *m)
{
    if (!m)
        return;
    free(m->gdom);
    free(m->heads0);
    free(m->heads_t0);
    free(m->users);
    free(m->present);
    free(m->arrive);
    free(m->mix);
    free(m->newrate);
    free(m->ramp);
    free(m->used);
    free(m->cls_share);
    free(m->cap);
    free(m->ystart);
    free(m->growth);
    free(m->growth_raw);
    free(m->growth_capped);
    free(m->pool);
    free(m->gpus);
    free(m->mem);
    free(m->level);
    free(m->pool_cap);
    free(m->gq);
    free(m->matf);
    free(m->matn);
    free(m->stated_u);
    free(m->stated_g);
    free(m);
}

void projection_set_level(ProjModel *m, int g, double level)
{
    if (!isfinite(level) || level < 0)
        return;
    if (g < 0)
        m->level_new = level;
    else if (g < m->G)
        m->level[g] = level;
}

double projection_level(const ProjModel *m, int g)
{
    return g < 0 ? m->level_new : g < m->G ? m->level[g] : 1;
}

void projection_set_extra(ProjModel *m, double v)
{
    m->extra_new = isfinite(v) && v > 0 ? v : 0;
}

static double new_full(const ProjModel *m, const ProjParams *p, int g);

void projection_cap_pools(ProjModel *m, const ProjParams *measured)
{
    ProjResult *r = projection_result_new(m);
    for (int g = 0; g < m->G; g++)
        m->pool_cap[g] = INFINITY;
    projection_run(m, measured, r);
    for (int g = 0; g < m->G; g++) {
        const ProjGroupYear *t = &r->gy[(size_t)g * r->nyears];
        if (m->used[g] <= 0 || r->nyears < 1)
            continue;
        double ramp = m->ramp[g] > 0 ? m->ramp[g] : 1;
        double named = t->arrivals * new_full(m, measured, g) * ramp * m->level[g];
        double room = (PROJ_NEED_CAP * m->used[g] + named) / (1 + measured->buffer[g]) - t->base;
        if (room < 0)
            room = 0;
        double hk = m->heads0[g] > 0 && t->heads > 0 ? t->heads / m->heads0[g] : 1;
        if (t->pool > room)
            m->pool_cap[g] = room / hk;
    }
    projection_result_free(r);
}

void projection_set_stated(ProjModel *m, int user, int g, double gpus)
{
    if (!isfinite(gpus) || gpus < 0)
        return;
    if (user >= 0 && user < m->U)
        m->stated_u[user] = gpus;
    else if (g >= 0 && g < m->G)
        m->stated_g[g] += gpus;
}

double projection_stated_of(const ProjModel *m, int user)
{
    return user >= 0 && user < m->U ? m->stated_u[user] : NAN;
}

void projection_set_group_range(ProjModel *m, int g, double q10, double q90)
{
    if (g >= 0 && g < m->G) {
        m->gq[2 * g] = q10;
        m->gq[2 * g + 1] = q90;
    }
}

/* The range of group g's value v in year y: its own errors' spread when
 * set, else the institute's. */
static ProjRange group_range(const ProjModel *m, int g, double v, int y)
{
    if (isnan(m->gq[2 * g]) || m->calib.ncuts < PROJ_MIN_CUTS)
        return projection_range(&m->calib, v, y);
    ProjCalib c = m->calib;
    c.q10 = m->gq[2 * g];
    c.q90 = m->gq[2 * g + 1];
    return projection_range(&c, v, y);
}

/* A need's range holds the need itself. */
static ProjRange holding(ProjRange r, double v)
{
    if (isnan(r.lo))
        return r;
    if (r.lo > v)
        r.lo = v;
    if (r.hi < v)
        r.hi = v;
    return r;
}

int projection_ngroups(const ProjModel *m)
{
    return m->G;
}

int projection_nprofiles(const ProjModel *m)
{
    return m->P;
}

int projection_nyears(const ProjModel *m)
{
    return m->Y;
}

int projection_ndomains(const ProjModel *m)
{
    return m->D;
}

int projection_group_domain(const ProjModel *m, int g)
{
    return m->gdom[g];
}

double projection_heads0(const ProjModel *m, int g)
{
    return m->heads0[g];
}

double projection_used_now(const ProjModel *m, int g)
{
    if (g >= 0)
        return m->used[g];
    double s = 0;
    for (int i = 0; i < m->G; i++)
        s += m->used[i];
    return s;
}

double projection_window_cover(const ProjModel *m)
{
    return m->window_cover;
}

double projection_ramp(const ProjModel *m, int g)
{
    return g >= 0 ? m->ramp[g] : m->ramp_inst;
}

const double *projection_mix(const ProjModel *m, int g)
{
    return m->mix + (size_t)g * m->P;
}

void projection_year_span(const ProjModel *m, int y, int64_t *from, int64_t *to)
{
    *from = m->ystart[y - 1];
    *to = m->ystart[y];
}

const ProjCalib *projection_calib(const ProjModel *m)
{
    return &m->calib;
}

int projection_nmodels(const ProjModel *m)
{
    return m->M;
}

const ProjModelInfo *projection_model_info(const ProjModel *m, int i)
{
    return &m->models[i];
}

int projection_model_index(const ProjModel *m, const char *name)
{
    for (int i = 0; i < m->M; i++)
        if (strcasecmp(m->models[i].name, name) == 0)
            return i;
    return -1;
}

double projection_growth_raw(const ProjModel *m, int g, int *capped)
{
    if (capped)
        *capped = m->growth_capped[g];
    return m->growth_raw[g];
}

double projection_intensity_raw(const ProjModel *m, int *capped)
{
    if (capped)
        *capped = m->intensity_capped;
    return m->intensity_raw;
}

/* ---- results ---- */

/* Heads after y years of growth r, damped: year k grows by r x
 * PROJ_GROWTH_DAMP^(k-1), so that a measured burst of growth does not
 * compound over ten years (50 %/yr: x2.1 at most, not x58). */
static double grown(double r, int y)
{
    double f = 1, d = 1;
    for (int k = 0; k < y; k++, d *= PROJ_GROWTH_DAMP)
        f *= 1 + r * d;
    return f > 0 ? f : 0;
}

ProjResult *projection_result_new(const ProjModel *m)
{
    ProjResult *r = xcalloc(1, sizeof *r);
    r->ngroups = m->G;
    r->nprofiles = m->P;
    r->ndomains = m->D;
    r->nyears = m->Y;
    r->gy = xcalloc((size_t)m->G * m->Y + 1, sizeof *r->gy);
    r->dom = xcalloc((size_t)m->D * m->Y + 1, sizeof *r->dom);
    r->total = xcalloc((size_t)m->Y, sizeof *r->total);
    r->scratch = xcalloc((size_t)m->G * MEMCLASS_COUNT + 1, sizeof *r->scratch);
    return r;
}

void projection_result_free(ProjResult *r)
{
    if (!r)
        return;
    free(r->gy);
    free(r->dom);
    free(r->total);
    free(r->scratch);
    free(r);
}

ProjRange projection_range(const ProjCalib *c, double v, int y)
{
    ProjRange r = {NAN, NAN};
    if (!c || c->ncuts < PROJ_MIN_CUTS || !isfinite(c->q10) || !isfinite(c->q90))
        return r;
    double s = sqrt((double)(y > 0 ? y : 1));
    if (y >= 2 && c->widen2 > 0)
        s = c->widen2 * sqrt(y / 2.0);
    r.lo = fin(v * exp(c->q10 * s));
    r.hi = fin(v * exp(c->q90 * s));
    return r;
}

/* The rate member i has under p: a profile's (group's) edited value, else
 * their own at the half-life p names. */
/* The per-member rate of profile q in group g when a scenario edited it
 * (the group's own value, else the profile's when it differs from the
 * measured mean); NAN: as measured, each member at their own rate. */
static double edited_gpus(const ProjModel *m, const ProjParams *p, int g, int q)
{
    double v = g >= 0 && g < m->G ? p->gpus_g[(size_t)g * (size_t)m->P + (size_t)q] : NAN;
    if (!isnan(v))
        return v;
    return p->gpus[q] != m->gpus[q] ? p->gpus[q] : NAN;
}

static double user_rate(const ProjModel *m, const ProjParams *p, int i)
{
    const ProjUser *u = &m->users[i];
    if (u->profile >= 0 && u->profile < m->P) {
        double v = edited_gpus(m, p, u->group, u->profile);
        if (!isnan(v))
            return v;
    }
    int h = demand_half_index(p->halflife);
    return fin(u->rate[h < 0 ? m->calib.half : h]);
}

/* A newcomer's full rate in group g under p: the profile mix at edited
 * rates where a profile was edited, else the group's measured rate. */
static double new_full(const ProjModel *m, const ProjParams *p, int g)
{
    double full = m->ramp[g] > 0 ? m->newrate[g] / m->ramp[g] : m->newrate[g], v = 0, w = 0;
    const double *mix = m->mix + (size_t)g * m->P;
    for (int q = 0; q < m->P; q++) {
        double e = edited_gpus(m, p, g, q);
        v += mix[q] * (isnan(e) ? full : e);
        w += mix[q];
    }
    return w > 0 ? v / w : full;
}

int projection_user_group(const ProjModel *m, int user)
{
    return user >= 0 && user < m->U ? m->users[user].group : -1;
}

int64_t projection_user_leaves(const ProjModel *m, int user)
{
    return user >= 0 && user < m->U ? m->users[user].leaves : PROJ_NEVER;
}

double projection_user_churn(const ProjModel *m, int user)
{
    return user >= 0 && user < m->U && m->users[user].leaves == PROJ_NEVER ? m->users[user].churn
                                                                          : 0;
}

int projection_user_matured(const ProjModel *m, int user)
{
    return user >= 0 && user < m->U && m->users[user].matured;
}

double projection_group_maturation(const ProjModel *m, int g, int *n)
{
    *n = g >= 0 && g < m->G ? m->matn[g] : 0;
    return g >= 0 && g < m->G && m->matf[g] > 0 ? m->matf[g] : 1;
}

double projection_maturation(const ProjModel *m)
{
    return m->maturation > 0 ? m->maturation : 1;
}

double projection_heads_t0(const ProjModel *m, int g)
{
    if (g >= 0)
        return g < m->G ? m->heads_t0[g] : 0;
    double s = 0;
    for (int i = 0; i < m->G; i++)
        s += m->heads_t0[i];
    return s;
}

double projection_user_present(const ProjModel *m, int user, int y)
{
    if (user < 0 || user >= m->U || y < 1 || y > m->Y)
        return 0;
    return m->present[(size_t)user * m->Y + y - 1];
}

double projection_user_rate(const ProjModel *m, const ProjParams *p, int user)
{
    return user >= 0 && user < m->U ? user_rate(m, p, user) : 0;
}

double projection_user_use(const ProjModel *m, const ProjParams *p, int user, int y)
{
    if (user < 0 || user >= m->U || y < 1 || y > m->Y)
        return 0;
    int g = m->users[user].group;
    double lv = g >= 0 && g < m->G ? m->level[g] : 1;
    return fin(user_rate(m, p, user) * lv * m->present[(size_t)user * m->Y + y - 1] *
               pow(1 + p->intensity, y));
}

/* Members' part of group g's year-index y: stayers, leavers (negative),
 * heads present and use by memory class (before intensity). */
static void run_members(const ProjModel *m, const ProjParams *p, int y, ProjResult *r,
                        double *cls)
{
    for (int i = 0; i < m->U; i++) {
        const ProjUser *u = &m->users[i];
        if (u->group < 0 || u->group >= m->G)
            continue;
        ProjGroupYear *t = &r->gy[(size_t)u->group * m->Y + y];
        double rate = user_rate(m, p, i), pres = m->present[(size_t)i * m->Y + y];
        t->stay += pres;
        t->stayers += rate;
        t->leavers -= rate * (1 - pres);
        int c = profiles_mem_class(u->mem_gib);
        if (u->profile >= 0 && u->profile < m->P && p->mem[u->profile] != m->mem[u->profile])
            c = profiles_mem_class(p->mem[u->profile]); /* edited: the profile's class */
        cls[(size_t)u->group * MEMCLASS_COUNT + c] += rate * pres;
        if (!isnan(m->stated_u[i])) { /* a stated need beyond the member's own use */
            double use = projection_user_use(m, p, i, y + 1);
            double more = m->stated_u[i] * pres - use;
            t->stated += more > 0 ? more : 0;
        }
    }
}

/* Newcomers, intensity, pool, buffer and need of group g in year index y. */
static void run_group(const ProjModel *m, const ProjParams *p, int g, int y, ProjGroupYear *t,
                      const double *cls)
{
    t->arrivals = m->arrive[(size_t)g * m->Y + y];
    double target = m->heads_t0[g] * grown(p->growth[g], y + 1);
    t->newcomers = fin(target - t->stay - t->arrivals);
    if (t->newcomers < 0)
        t->newcomers = 0;
    t->heads = t->stay + t->arrivals + t->newcomers;
    double full = new_full(m, p, g), ramp = m->ramp[g] > 0 ? m->ramp[g] : 1;
    double prev = 0;
    if (y > 0) {
        const ProjGroupYear *b = t - 1;
        prev = b->arrivals + b->newcomers;
    }
    double newh = t->arrivals + t->newcomers, fresh = newh > prev ? newh - prev : 0;
    if (y == 0)
        fresh = newh;
    t->newcomers_use = fin((newh - fresh) * full + fresh * full * ramp);
    double lv = m->level[g]; /* the forecaster's level (issue 28) */
    if (lv != 1) {
        t->stayers = fin(t->stayers * lv);
        t->leavers = fin(t->leavers * lv);
        t->newcomers_use = fin(t->newcomers_use * lv);
    }
    double before = t->stayers + t->leavers + t->newcomers_use;
    t->intensity = fin(before * (pow(1 + p->intensity, y + 1) - 1));
    t->base = fin(before + t->intensity);
    if (t->base < 0)
        t->base = 0;
    double hk = m->heads0[g] > 0 ? t->heads / m->heads0[g] : 1, rate = p->pool[g];
    t->pool_cut = 0;
    if (rate == m->pool[g] && rate > m->pool_cap[g]) { /* the measured pool, capped */
        t->pool_cut = fin((rate - m->pool_cap[g]) * hk);
        rate = m->pool_cap[g];
    }
    t->pool = fin(rate * hk);
    t->buffer_add = fin((t->base + t->pool) * p->buffer[g]);
    t->stated = fin(t->stated + m->stated_g[g]);
    t->demand = t->base + t->pool + t->buffer_add + t->stated;
    const double *c = cls + (size_t)g * MEMCLASS_COUNT, *sh = m->cls_share + (size_t)g * MEMCLASS_COUNT;
    double members = 0;
    for (int k = 0; k < MEMCLASS_COUNT; k++)
        members += c[k];
    double scale = t->demand;
    for (int k = 0; k < MEMCLASS_COUNT; k++)
        t->demand_c[k] = fin(members > 0 ? scale * c[k] / members : scale * sh[k]);
    t->base_r = group_range(m, g, t->base, y + 1);
    t->demand_r = holding(group_range(m, g, t->demand, y + 1), t->demand);
}

static void add_totals(ProjTotals *s, const ProjGroupYear *t)
{
    s->heads += t->heads;
    s->base += t->base;
    s->pool += t->pool;
    s->buffer_add += t->buffer_add;
    s->stated += t->stated;
    s->demand += t->demand;
    for (int c = 0; c < MEMCLASS_COUNT; c++)
        s->demand_c[c] += t->demand_c[c];
}

/* The institute's need: its base plus the shared pool, its buffer. */
static void run_institute(const ProjModel *m, const ProjParams *p, int y, ProjTotals *t)
{
    double h0 = 0, ht = 0, buf = 0, w = 0;
    for (int g = 0; g < m->G; g++) {
        h0 += m->heads0[g];
        ht += m->heads_t0[g];
        buf += p->buffer[g] * m->heads0[g];
        w += m->heads0[g];
    }
    /* heads the institute's growth brings beyond its groups' (new groups) */
    double target = ht * grown(p->growth_inst, y + 1), extra = target - t->heads;
    t->new_heads = extra > 0 ? fin(extra) : 0;
    double full = m->ramp_inst > 0 ? m->newrate_inst / m->ramp_inst : m->newrate_inst;
    double prev = y > 0 ? (t - 1)->new_heads : 0, fresh = t->new_heads > prev ? t->new_heads - prev : 0;
    t->new_groups = fin((((t->new_heads - fresh) * full + fresh * full * m->ramp_inst) *
                             m->level_new + m->extra_new) *
                        pow(1 + p->intensity, y + 1));
    t->heads += t->new_heads;
    t->base += t->new_groups;
    t->demand += t->new_groups;
    /* a scenario's cut to a group's pool frees its share of the shared pool;
     * what it adds is added in full (a new burst is not assumed shared) */
    double pool_model = 0, pool_kept = 0, pool_added = 0;
    for (int g = 0; g < m->G; g++) {
        pool_model += m->pool[g];
        pool_kept += p->pool[g] < m->pool[g] ? p->pool[g] : m->pool[g];
        pool_added += p->pool[g] > m->pool[g] ? p->pool[g] - m->pool[g] : 0;
    }
    double shared = (pool_model > 0 ? m->pool_inst * pool_kept / pool_model : 0) + pool_added;
    t->pool_sum = t->pool;
    t->pool = fin(shared * (h0 > 0 ? t->heads / h0 : 1));
    if (t->pool > t->pool_sum)
        t->pool = t->pool_sum;
    double b = w > 0 ? buf / w : m->calib.buffer;
    t->buffer_add = fin((t->base + t->pool) * b);
    double sum = t->demand;
    t->demand = t->base + t->pool + t->buffer_add + t->stated;
    for (int c = 0; c < MEMCLASS_COUNT; c++)
        t->demand_c[c] = fin(sum > 0 ? t->demand_c[c] * t->demand / sum : 0);
}

static void run_capacity(const ProjModel *m, const ProjParams *p, int y, ProjTotals *t)
{
    t->capacity = 0;
    double bought[MEMCLASS_COUNT] = {0};
    for (int i = 0; i < m->M; i++)
        for (int k = 0; k <= y && k < PROJ_MAX_YEARS; k++)
            bought[profiles_mem_class(m->models[i].mem_gib)] +=
                p->purchase[i][k] * (m->models[i].speed > 0 ? m->models[i].speed : 1);
    for (int c = 0; c < MEMCLASS_COUNT; c++) {
        t->capacity_c[c] = m->cap[(size_t)c * m->Y + y] + bought[c];
        t->gap_c[c] = t->demand_c[c] - t->capacity_c[c];
        t->capacity += t->capacity_c[c];
    }
    t->gap = t->demand - t->capacity;
    t->base_r = projection_range(&m->calib, t->base, y + 1);
    t->demand_r = holding(projection_range(&m->calib, t->demand, y + 1), t->demand);
    t->gap_r.lo = t->demand_r.lo - t->capacity;
    t->gap_r.hi = t->demand_r.hi - t->capacity;
}

void projection_run(const ProjModel *m, const ProjParams *p, ProjResult *r)
{
    memset(r->gy, 0, (size_t)m->G * m->Y * sizeof *r->gy);
    memset(r->dom, 0, (size_t)m->D * m->Y * sizeof *r->dom);
    memset(r->total, 0, (size_t)m->Y * sizeof *r->total);
    double *cls = r->scratch;
    for (int y = 0; y < m->Y; y++) {
        memset(cls, 0, (size_t)m->G * MEMCLASS_COUNT * sizeof *cls);
        run_members(m, p, y, r, cls);
        for (int g = 0; g < m->G; g++) {
            ProjGroupYear *t = &r->gy[(size_t)g * m->Y + y];
            run_group(m, p, g, y, t, cls);
            add_totals(&r->total[y], t);
            int d = m->gdom[g];
            if (d >= 0 && d < m->D)
                add_totals(&r->dom[(size_t)d * m->Y + y], t);
        }
        run_institute(m, p, y, &r->total[y]);
        run_capacity(m, p, y, &r->total[y]);
        for (int d = 0; d < m->D; d++) {
            ProjTotals *t = &r->dom[(size_t)d * m->Y + y];
            t->base_r = projection_range(&m->calib, t->base, y + 1);
            t->demand_r = holding(projection_range(&m->calib, t->demand, y + 1), t->demand);
        }
    }
}
