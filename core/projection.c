#include "core/projection.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/features.h"

struct ProjModel {
    int G, P, D, Y;
    int *gdom;        /* G */
    double *heads0;   /* G */
    double *stay;     /* G x P x Y */
    double *arrive;   /* G x Y */
    double *mix;      /* G x P */
    double *cap;      /* MEMCLASS_COUNT x Y */
    int64_t *ystart;  /* Y + 1 */
    double *growth, *share, *burst, *buffer; /* G: measured */
    double *gpus, *mem;                      /* P: measured */
};

/* ---- small helpers ---- */

static double *dup_or_zero(const double *src, int n)
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

static double *stay_at(const ProjModel *m, int g, int p)
{
    return m->stay + ((size_t)g * m->P + p) * m->Y;
}

/* ---- measured values ---- */

static void measure_profiles(ProjModel *m, const ProjInput *in)
{
    double *v = xmalloc(((size_t)in->nusers + 1) * sizeof *v);
    for (int p = 0; p < m->P; p++) {
        int n = 0, nm = 0;
        for (int i = 0; i < in->nusers; i++)
            if (in->users[i].profile == p)
                v[n++] = in->users[i].conc_mean;
        m->gpus[p] = features_percentile(v, n, PROJ_B_PERCENTILE);
        for (int i = 0; i < in->nusers; i++)
            if (in->users[i].profile == p && in->users[i].mem_gib >= 0)
                v[nm++] = in->users[i].mem_gib;
        m->mem[p] = nm > 0 ? features_percentile(v, nm, PROJ_B_PERCENTILE) : -1;
    }
    free(v);
}

/* s_g and h_g of group g (g < 0: everyone); 0 with *n = 0 when no member. */
static void measure_pool(const ProjInput *in, int g, double *share, double *burst, int *n)
{
    double *v = xmalloc(((size_t)in->nusers + 1) * sizeof *v);
    double s = 0;
    int k = 0;
    for (int i = 0; i < in->nusers; i++) {
        const ProjUser *u = &in->users[i];
        if (g >= 0 && u->group != g)
            continue;
        s += u->burst_frac;
        v[k++] = u->conc_peak > u->conc_mean ? u->conc_peak - u->conc_mean : 0;
    }
    *share = k > 0 ? s / k : 0;
    *burst = features_percentile(v, k, 50);
    *n = k;
    free(v);
}

static void measure_groups(ProjModel *m, const ProjInput *in)
{
    double all_share, all_burst;
    int n;
    measure_pool(in, -1, &all_share, &all_burst, &n);
    for (int g = 0; g < m->G; g++) {
        measure_pool(in, g, &m->share[g], &m->burst[g], &n);
        if (n == 0) {
            m->share[g] = all_share;
            m->burst[g] = all_burst;
        }
    }
}

/* ---- heads ---- */

static void place_members(ProjModel *m, const ProjInput *in)
{
    for (int i = 0; i < in->nusers; i++) {
        const ProjUser *u = &in->users[i];
        if (u->group < 0 || u->group >= m->G)
            continue;
        m->heads0[u->group] += 1;
        for (int y = 0; y < m->Y; y++) {
            double pres = overlap(m->ystart[y], m->ystart[y + 1], INT64_MIN, u->leaves);
            if (u->profile >= 0 && u->profile < m->P) {
                stay_at(m, u->group, u->profile)[y] += pres;
                continue;
            }
            for (int p = 0; p < m->P; p++)
                stay_at(m, u->group, p)[y] += pres * m->mix[(size_t)u->group * m->P + p];
        }
    }
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

static void build_mix(ProjModel *m, const ProjInput *in)
{
    int *labels = xmalloc(((size_t)in->nusers + 1) * sizeof *labels);
    int *group = xmalloc(((size_t)in->nusers + 1) * sizeof *group);
    for (int i = 0; i < in->nusers; i++) {
        labels[i] = in->users[i].profile;
        group[i] = in->users[i].group;
    }
    profiles_mix(labels, group, in->nusers, m->G, m->gdom, m->P, m->mix);
    free(labels);
    free(group);
}

ProjModel *projection_prepare(const ProjInput *in)
{
    ProjModel *m = xcalloc(1, sizeof *m);
    m->G = in->ngroups;
    m->P = in->nprofiles;
    m->D = in->ndomains;
    m->Y = in->nyears < 1 ? 1 : in->nyears > PROJ_MAX_YEARS ? PROJ_MAX_YEARS : in->nyears;
    m->gdom = xcalloc((size_t)(m->G + 1), sizeof *m->gdom);
    for (int g = 0; g < m->G; g++)
        m->gdom[g] = in->group_domain ? in->group_domain[g] : 0;
    m->ystart = xmalloc((size_t)(m->Y + 1) * sizeof *m->ystart);
    memcpy(m->ystart, in->year_start, (size_t)(m->Y + 1) * sizeof *m->ystart);
    m->heads0 = xcalloc((size_t)(m->G + 1), sizeof(double));
    m->stay = xcalloc((size_t)(m->G * m->P * m->Y + 1), sizeof(double));
    m->arrive = xcalloc((size_t)(m->G * m->Y + 1), sizeof(double));
    m->mix = xcalloc((size_t)(m->G * m->P + 1), sizeof(double));
    m->cap = xcalloc((size_t)(MEMCLASS_COUNT * m->Y), sizeof(double));
    m->growth = dup_or_zero(in->growth, m->G);
    m->buffer = dup_or_zero(in->buffer, m->G);
    m->share = dup_or_zero(NULL, m->G);
    m->burst = dup_or_zero(NULL, m->G);
    m->gpus = dup_or_zero(NULL, m->P);
    m->mem = dup_or_zero(NULL, m->P);
    if (m->P > 0)
        build_mix(m, in);
    place_members(m, in);
    place_capacity(m, in);
    measure_profiles(m, in);
    measure_groups(m, in);
    return m;
}

void projection_model_free(ProjModel *m)
{
    if (!m)
        return;
    free(m->gdom);
    free(m->heads0);
    free(m->stay);
    free(m->arrive);
    free(m->mix);
    free(m->cap);
    free(m->ystart);
    free(m->growth);
    free(m->share);
    free(m->burst);
    free(m->buffer);
    free(m->gpus);
    free(m->mem);
    free(m);
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

const double *projection_mix(const ProjModel *m, int g)
{
    return m->mix + (size_t)g * m->P;
}

void projection_year_span(const ProjModel *m, int y, int64_t *from, int64_t *to)
{
    *from = m->ystart[y - 1];
    *to = m->ystart[y];
}

/* ---- parameters ---- */

ProjParams *projection_params_new(const ProjModel *m)
{
    ProjParams *p = xcalloc(1, sizeof *p);
    p->ngroups = m->G;
    p->nprofiles = m->P;
    p->nyears = m->Y;
    p->growth = dup_or_zero(NULL, m->G);
    p->share = dup_or_zero(NULL, m->G);
    p->burst = dup_or_zero(NULL, m->G);
    p->buffer = dup_or_zero(NULL, m->G);
    p->gpus = dup_or_zero(NULL, m->P);
    p->mem = dup_or_zero(NULL, m->P);
    p->gpus_g = dup_or_zero(NULL, m->G * m->P);
    projection_params_reset(m, p);
    return p;
}

ProjParams *projection_params_copy(const ProjParams *src)
{
    ProjParams *p = xmalloc(sizeof *p);
    *p = *src;
    p->growth = dup_or_zero(src->growth, src->ngroups);
    p->share = dup_or_zero(src->share, src->ngroups);
    p->burst = dup_or_zero(src->burst, src->ngroups);
    p->buffer = dup_or_zero(src->buffer, src->ngroups);
    p->gpus = dup_or_zero(src->gpus, src->nprofiles);
    p->mem = dup_or_zero(src->mem, src->nprofiles);
    p->gpus_g = dup_or_zero(src->gpus_g, src->ngroups * src->nprofiles);
    return p;
}

void projection_params_free(ProjParams *p)
{
    if (!p)
        return;
    free(p->growth);
    free(p->share);
    free(p->burst);
    free(p->buffer);
    free(p->gpus);
    free(p->mem);
    free(p->gpus_g);
    free(p);
}

void projection_params_reset(const ProjModel *m, ProjParams *p)
{
    size_t g = (size_t)m->G * sizeof(double), pr = (size_t)m->P * sizeof(double);
    if (g) {
        memcpy(p->growth, m->growth, g);
        memcpy(p->share, m->share, g);
        memcpy(p->burst, m->burst, g);
        memcpy(p->buffer, m->buffer, g);
    }
    if (pr) {
        memcpy(p->gpus, m->gpus, pr);
        memcpy(p->mem, m->mem, pr);
    }
    for (size_t i = 0; i < (size_t)m->G * (size_t)m->P; i++)
        p->gpus_g[i] = NAN;
    memset(p->purchase, 0, sizeof p->purchase);
}

static const char *const group_keys[] = {"growth", "share", "burst", "buffer"};

int projection_key_is_group(const char *key)
{
    for (size_t i = 0; i < sizeof group_keys / sizeof group_keys[0]; i++)
        if (strcmp(key, group_keys[i]) == 0)
            return 1;
    return 0;
}

int projection_key_takes_group(const char *key)
{
    return projection_key_is_group(key) || strncmp(key, "gpus.", 5) == 0;
}

double projection_gpus_of(const ProjParams *p, int g, int q)
{
    double v = g >= 0 && g < p->ngroups ? p->gpus_g[(size_t)g * (size_t)p->nprofiles + (size_t)q]
                                        : NAN;
    return isnan(v) ? p->gpus[q] : v;
}

static double *group_array(ProjParams *p, const char *key)
{
    if (strcmp(key, "growth") == 0)
        return p->growth;
    if (strcmp(key, "share") == 0)
        return p->share;
    if (strcmp(key, "burst") == 0)
        return p->burst;
    return p->buffer;
}

/* A whole positive integer from s (to its end). -1 if not one. */
static int parse_index(const char *s)
{
    if (!*s)
        return -1;
    long v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > 100000)
            return -1;
        v = v * 10 + (*s - '0');
    }
    return (int)v;
}

/* A resolved key: which array and which slot. */
typedef enum { REF_GROUP, REF_GPUS, REF_MEM, REF_PURCHASE } RefKind;

typedef struct KeyRef {
    RefKind kind;
    int index;    /* profile (0-based) for gpus/mem */
    int group;    /* gpus: the group (0-based), -1 for every group */
    int cls, year; /* purchase: class and year index (0-based) */
} KeyRef;

static int purchase_ref(const ProjModel *m, const char *rest, KeyRef *ref, CpErr *err)
{
    const char *dot = strchr(rest, '.');
    int c = -1;
    for (int i = 0; i < MEMCLASS_UNKNOWN && dot; i++)
        if (strlen(profiles_mem_class_name(i)) == (size_t)(dot - rest) &&
            strncmp(rest, profiles_mem_class_name(i), (size_t)(dot - rest)) == 0)
            c = i;
    int y = dot && dot[1] == 'y' ? parse_index(dot + 2) : -1;
    if (c < 0 || y < 1 || y > m->Y)
        return cp_err_set(err, "bad key 'purchase.%s': expected purchase.C.yK with C one of "
                               "24, 48, 80, 80+ and K 1..%d",
                          rest, m->Y);
    ref->kind = REF_PURCHASE;
    ref->cls = c;
    ref->year = y - 1;
    return 0;
}

static int resolve(const ProjModel *m, const char *key, int g, KeyRef *ref, CpErr *err)
{
    memset(ref, 0, sizeof *ref);
    if (projection_key_is_group(key)) {
        if (g >= m->G)
            return cp_err_set(err, "no group %d", g);
        ref->kind = REF_GROUP;
        return 0;
    }
    if (g >= 0 && strncmp(key, "gpus.", 5) != 0)
        return cp_err_set(err, "'%s' is a profile or purchase parameter: no --group", key);
    if (g >= m->G)
        return cp_err_set(err, "no group %d", g);
    ref->group = g;
    if (strncmp(key, "purchase.", 9) == 0)
        return purchase_ref(m, key + 9, ref, err);
    int is_gpus = strncmp(key, "gpus.", 5) == 0, is_mem = strncmp(key, "mem.", 4) == 0;
    if (!is_gpus && !is_mem)
        return cp_err_set(err, "unknown parameter '%s' (growth, share, burst, buffer, gpus.N, "
                               "mem.N, purchase.C.yK)",
                          key);
    int n = parse_index(key + (is_gpus ? 5 : 4));
    if (n < 1 || n > m->P)
        return cp_err_set(err, "bad key '%s': no profile %s (1..%d)", key, key + (is_gpus ? 5 : 4),
                          m->P);
    ref->kind = is_gpus ? REF_GPUS : REF_MEM;
    ref->index = n - 1;
    return 0;
}

/* The largest value each key takes: far beyond any institute, so that a
 * typo (1e308, or 7 meant as 7 %) is refused instead of projected. */
static double max_value(const char *key)
{
    if (strcmp(key, "growth") == 0 || strcmp(key, "buffer") == 0)
        return 2; /* shares: 200 %, twice the largest measured (7 meant as 7 % is refused) */
    if (strcmp(key, "share") == 0)
        return 1;
    if (strncmp(key, "purchase.", 9) == 0)
        return 1e6; /* GPUs */
    return 1e5;     /* GPUs per burst or per member, GiB */
}

static int check_value(const char *key, double v, int is_mem, CpErr *err)
{
    if (!isfinite(v))
        return cp_err_set(err, "%s: value must be a number", key);
    if (strcmp(key, "growth") == 0 && v <= -1)
        return cp_err_set(err, "growth: must be above -1 (a share per year, 0.08 = 8 %%)");
    if (strcmp(key, "share") == 0 && (v < 0 || v > 1))
        return cp_err_set(err, "share: must be between 0 and 1");
    if (is_mem && v < 0 && v != -1)
        return cp_err_set(err, "%s: must be >= 0 (GiB), or -1 for unknown", key);
    if (!is_mem && strcmp(key, "growth") != 0 && v < 0)
        return cp_err_set(err, "%s: must be >= 0", key);
    if (v > max_value(key))
        return cp_err_set(err, "%s: %g is out of range (at most %g%s)", key, v, max_value(key),
                          strcmp(key, "growth") == 0 || strcmp(key, "buffer") == 0
                              ? ", a share: 0.08 = 8 %"
                              : "");
    return 0;
}

int projection_param_set(const ProjModel *m, ProjParams *p, const char *key, int g,
                         double value, CpErr *err)
{
    KeyRef ref;
    if (resolve(m, key, g, &ref, err) < 0 || check_value(key, value, ref.kind == REF_MEM, err) < 0)
        return -1;
    switch (ref.kind) {
    case REF_GPUS:
        if (ref.group >= 0)
            p->gpus_g[(size_t)ref.group * (size_t)m->P + (size_t)ref.index] = value;
        else
            p->gpus[ref.index] = value;
        break;
    case REF_MEM:
        p->mem[ref.index] = value;
        break;
    case REF_PURCHASE:
        p->purchase[ref.cls][ref.year] = value;
        break;
    case REF_GROUP: {
        double *arr = group_array(p, key);
        for (int i = 0; i < m->G; i++)
            if (g < 0 || i == g)
                arr[i] = value;
        break;
    }
    }
    return 0;
}

static const double *group_array_const(const ProjParams *p, const char *key)
{
    if (strcmp(key, "growth") == 0)
        return p->growth;
    if (strcmp(key, "share") == 0)
        return p->share;
    if (strcmp(key, "burst") == 0)
        return p->burst;
    return p->buffer;
}

int projection_param_get(const ProjModel *m, const ProjParams *p, const char *key, int g,
                         double *value, CpErr *err)
{
    KeyRef ref;
    if (resolve(m, key, g, &ref, err) < 0)
        return -1;
    switch (ref.kind) {
    case REF_GPUS:
        *value = projection_gpus_of(p, ref.group, ref.index);
        break;
    case REF_MEM:
        *value = p->mem[ref.index];
        break;
    case REF_PURCHASE:
        *value = p->purchase[ref.cls][ref.year];
        break;
    case REF_GROUP:
        *value = m->G > 0 ? group_array_const(p, key)[g < 0 ? 0 : g] : 0;
        break;
    }
    return 0;
}

/* ---- results ---- */

ProjResult *projection_result_new(const ProjModel *m)
{
    ProjResult *r = xcalloc(1, sizeof *r);
    r->ngroups = m->G;
    r->nprofiles = m->P;
    r->ndomains = m->D;
    r->nyears = m->Y;
    size_t ngy = (size_t)m->G * m->Y;
    r->gy = xcalloc(ngy + 1, sizeof *r->gy);
    r->heads_store = xcalloc(ngy * m->P + 1, sizeof *r->heads_store);
    for (size_t i = 0; i < ngy; i++)
        r->gy[i].heads_p = r->heads_store + i * m->P;
    r->dom = xcalloc((size_t)m->D * m->Y + 1, sizeof *r->dom);
    r->total = xcalloc((size_t)m->Y, sizeof *r->total);
    return r;
}

void projection_result_free(ProjResult *r)
{
    if (!r)
        return;
    free(r->gy);
    free(r->heads_store);
    free(r->dom);
    free(r->total);
    free(r);
}

/* Heads of group g in year index y (0-based) into t. */
static void run_heads(const ProjModel *m, const ProjParams *p, int g, int y, ProjGroupYear *t)
{
    const double *mix = m->mix + (size_t)g * m->P;
    t->stay = 0;
    for (int q = 0; q < m->P; q++)
        t->stay += stay_at(m, g, q)[y];
    t->arrivals = m->arrive[(size_t)g * m->Y + y];
    t->target = m->heads0[g] * pow(1 + p->growth[g], y + 1);
    t->newcomers = t->target - t->stay - t->arrivals;
    if (t->newcomers < 0)
        t->newcomers = 0;
    t->heads = 0;
    for (int q = 0; q < m->P; q++) {
        t->heads_p[q] = stay_at(m, g, q)[y] + (t->arrivals + t->newcomers) * mix[q];
        t->heads += t->heads_p[q];
    }
    if (m->P == 0)
        t->heads = t->stay + t->arrivals + t->newcomers;
}

/* Base, pool and demand of group g, given its heads. */
static void run_demand(const ProjModel *m, const ProjParams *p, int g, ProjGroupYear *t)
{
    double base_c[MEMCLASS_COUNT] = {0};
    t->base = 0;
    for (int q = 0; q < m->P; q++) {
        double b = t->heads_p[q] * projection_gpus_of(p, g, q);
        t->base += b;
        base_c[profiles_mem_class(p->mem[q])] += b;
    }
    double want = p->share[g] * t->heads;
    t->bursts = want > 1e-9 ? ceil(want - 1e-9) : 0;
    t->pool = t->bursts * p->burst[g];
    double f = 1 + p->buffer[g];
    t->demand = (t->base + t->pool) * f;
    for (int c = 0; c < MEMCLASS_COUNT; c++) {
        double pool_c = t->base > 0 ? t->pool * base_c[c] / t->base
                                    : (c == MEMCLASS_UNKNOWN ? t->pool : 0);
        t->demand_c[c] = (base_c[c] + pool_c) * f;
    }
}

static void add_totals(ProjTotals *s, const ProjGroupYear *t)
{
    s->heads += t->heads;
    s->base += t->base;
    s->pool += t->pool;
    s->demand += t->demand;
    for (int c = 0; c < MEMCLASS_COUNT; c++)
        s->demand_c[c] += t->demand_c[c];
}

static void run_capacity(const ProjModel *m, const ProjParams *p, int y, ProjTotals *t)
{
    t->capacity = 0;
    for (int c = 0; c < MEMCLASS_COUNT; c++) {
        double bought = 0;
        for (int k = 0; k <= y && k < PROJ_MAX_YEARS; k++)
            bought += p->purchase[c][k];
        t->capacity_c[c] = m->cap[(size_t)c * m->Y + y] + bought;
        t->gap_c[c] = t->demand_c[c] - t->capacity_c[c];
        t->capacity += t->capacity_c[c];
    }
    t->gap = t->demand - t->capacity;
}

void projection_run(const ProjModel *m, const ProjParams *p, ProjResult *r)
{
    memset(r->dom, 0, (size_t)m->D * m->Y * sizeof *r->dom);
    memset(r->total, 0, (size_t)m->Y * sizeof *r->total);
    for (int g = 0; g < m->G; g++) {
        for (int y = 0; y < m->Y; y++) {
            ProjGroupYear *t = &r->gy[(size_t)g * m->Y + y];
            run_heads(m, p, g, y, t);
            run_demand(m, p, g, t);
            add_totals(&r->total[y], t);
            int d = m->gdom[g];
            if (d >= 0 && d < m->D)
                add_totals(&r->dom[(size_t)d * m->Y + y], t);
        }
    }
    for (int y = 0; y < m->Y; y++)
        run_capacity(m, p, y, &r->total[y]);
}

/* ---- measuring growth and buffer ---- */

double projection_measure_growth(double heads_now, double heads_before, double min_before,
                                 double fallback)
{
    if (heads_before >= min_before && heads_before > 0)
        return heads_now / heads_before - 1;
    return fallback;
}

double projection_measure_buffer(const double *monthly, int n, double fallback)
{
    int first = 0;
    while (first < n && monthly[first] <= 0) /* months before the first use */
        first++;
    int m = n - first;
    double *v = xmalloc(((size_t)m + 1) * sizeof *v);
    double s = 0;
    for (int i = 0; i < m; i++) {
        v[i] = monthly[first + i];
        s += v[i];
    }
    double b = fallback;
    if (m >= 3 && s > 0) {
        b = features_percentile(v, m, 90) / (s / m) - 1;
        b = b < 0 ? 0 : b > 1 ? 1 : b;
    }
    free(v);
    return b;
}
