/* stats_agg: quantiles, a growable array of doubles, a hash aggregator
 * over small integer tuples and interned names (see stats_int.h). */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/stats_int.h"

/* ---- quantiles ---- */

static void swap_d(double *a, double *b)
{
    double t = *a;
    *a = *b;
    *b = t;
}

/* Put the k-th smallest of v[0..n) at v[k], no larger ones before it
 * and no smaller ones after (Numerical Recipes' select, 0-based). */
static void select_kth(double *v, size_t n, size_t k)
{
    size_t l = 0, ir = n - 1;
    for (;;) {
        if (ir <= l + 1) {
            if (ir == l + 1 && v[ir] < v[l])
                swap_d(&v[l], &v[ir]);
            return;
        }
        size_t mid = l + (ir - l) / 2;
        swap_d(&v[mid], &v[l + 1]);
        if (v[l] > v[ir])
            swap_d(&v[l], &v[ir]);
        if (v[l + 1] > v[ir])
            swap_d(&v[l + 1], &v[ir]);
        if (v[l] > v[l + 1])
            swap_d(&v[l], &v[l + 1]);
        size_t i = l + 1, j = ir;
        double a = v[l + 1];
        for (;;) {
            do
                i++;
            while (v[i] < a);
            do
                j--;
            while (v[j] > a);
            if (j < i)
                break;
            swap_d(&v[i], &v[j]);
        }
        v[l + 1] = v[j];
        v[j] = a;
        if (j >= k)
            ir = j - 1;
        if (j <= k)
            l = i;
    }
}

/* Quantiles ps[0..k) (ascending, 0..1) of v[0..n) into out, each
 * selected among the values above the previous one. Reorders v. */
static void quantiles(double *v, size_t n, const double *ps, size_t k, double *out)
{
    size_t base = 0; /* v[0..base) are <= every value after them */
    for (size_t q = 0; q < k; q++) {
        if (n == 0) {
            out[q] = NAN;
            continue;
        }
        double h = (double)(n - 1) * ps[q];
        size_t lo = (size_t)h;
        if (lo > n - 1)
            lo = n - 1;
        if (lo >= base) {
            select_kth(v + base, n - base, lo - base);
            base = lo + 1;
        }
        if (lo + 1 >= n || h == (double)lo) {
            out[q] = v[lo];
            continue;
        }
        double next = v[lo + 1];
        for (size_t i = lo + 2; i < n; i++)
            next = v[i] < next ? v[i] : next;
        out[q] = v[lo] + (h - (double)lo) * (next - v[lo]);
    }
}

double stats_quantile(double *v, size_t n, double p)
{
    double out;
    quantiles(v, n, &p, 1, &out);
    return out;
}


void stats_dvec_push(DVec *d, double x)
{
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 16;
        d->v = xrealloc(d->v, d->cap * sizeof *d->v);
    }
    d->v[d->n++] = x;
}
/* ---- a hash aggregator over small integer tuples ---- */



void stats_agg_init(Agg *g, size_t valsz)
{
    memset(g, 0, sizeof *g);
    g->valsz = valsz;
    g->last = -1;
}

void stats_agg_done(Agg *g)
{
    free(g->keys);
    free(g->vals);
    free(g->slots);
    memset(g, 0, sizeof *g);
}

static uint64_t agg_hash(const AggKey *k)
{
    uint64_t h = (uint64_t)(uint32_t)k->period * 0x9E3779B97F4A7C15ULL;
    h ^= ((uint64_t)(uint32_t)k->a + 0x632BE59BD9B4E019ULL) * 0xBF58476D1CE4E5B9ULL;
    h ^= ((uint64_t)(uint32_t)k->b + 0x85EBCA77C2B2AE63ULL) * 0x94D049BB133111EBULL;
    h ^= ((uint64_t)(uint32_t)k->c + 0x27D4EB2F165667C5ULL) * 0xD6E8FEB86659FD93ULL;
    return h ^ (h >> 31);
}

static int key_eq(const AggKey *x, const AggKey *y)
{
    return x->period == y->period && x->a == y->a && x->b == y->b && x->c == y->c;
}

static void agg_rehash(Agg *g)
{
    g->nslots = g->nslots ? g->nslots * 2 : 256;
    free(g->slots);
    g->slots = xcalloc(g->nslots, sizeof *g->slots);
    for (size_t i = 0; i < g->n; i++) {
        size_t s = (size_t)agg_hash(&g->keys[i]) & (g->nslots - 1);
        while (g->slots[s])
            s = (s + 1) & (g->nslots - 1);
        g->slots[s] = (uint32_t)(i + 1);
    }
}

void *stats_agg_get(Agg *g, int32_t period, int32_t a, int32_t b, int32_t c)
{
    AggKey k = {period, a, b, c};
    if (g->last >= 0 && key_eq(&g->keys[g->last], &k))
        return g->vals + (size_t)g->last * g->valsz;
    if (2 * (g->n + 1) > g->nslots)
        agg_rehash(g);
    size_t s = (size_t)agg_hash(&k) & (g->nslots - 1);
    while (g->slots[s]) {
        size_t i = g->slots[s] - 1;
        if (key_eq(&g->keys[i], &k)) {
            g->last = (long)i;
            return g->vals + i * g->valsz;
        }
        s = (s + 1) & (g->nslots - 1);
    }
    if (g->n == g->cap) {
        g->cap = g->cap ? g->cap * 2 : 64;
        g->keys = xrealloc(g->keys, g->cap * sizeof *g->keys);
        g->vals = xrealloc(g->vals, g->cap * g->valsz);
    }
    g->keys[g->n] = k;
    memset(g->vals + g->n * g->valsz, 0, g->valsz);
    g->slots[s] = (uint32_t)(g->n + 1);
    g->last = (long)g->n;
    return g->vals + g->n++ * g->valsz;
}

/* The value of key, or NULL when absent (never creates one). */
void *stats_agg_find(const Agg *g, int32_t period, int32_t a, int32_t b, int32_t c)
{
    AggKey k = {period, a, b, c};
    if (g->nslots == 0)
        return NULL;
    size_t s = (size_t)agg_hash(&k) & (g->nslots - 1);
    while (g->slots[s]) {
        size_t i = g->slots[s] - 1;
        if (key_eq(&g->keys[i], &k))
            return g->vals + i * g->valsz;
        s = (s + 1) & (g->nslots - 1);
    }
    return NULL;
}

void *stats_agg_val(const Agg *g, size_t i)
{
    return g->vals + i * g->valsz;
}

/* Sort order of an aggregator's keys: each dimension through a rank
 * table (rank[id] by name; -1 "all" first), the period as is. */
typedef struct RankKey {
    int64_t k[4];
    size_t idx;
} RankKey;

static int rank_cmp(const void *pa, const void *pb)
{
    const RankKey *a = pa, *b = pb;
    for (int i = 0; i < 4; i++)
        if (a->k[i] != b->k[i])
            return a->k[i] < b->k[i] ? -1 : 1;
    return 0;
}

static int64_t rank_of(const int32_t *rank, int32_t id)
{
    return id < 0 ? -1 : rank ? rank[id] : id;
}

/* Indices of g's keys in order; caller frees. */
size_t *stats_agg_order(const Agg *g, const int32_t *ra, const int32_t *rb, const int32_t *rc)
{
    RankKey *rk = xmalloc((g->n + 1) * sizeof *rk);
    for (size_t i = 0; i < g->n; i++) {
        const AggKey *k = &g->keys[i];
        rk[i].k[0] = k->period;
        rk[i].k[1] = rank_of(ra, k->a);
        rk[i].k[2] = rank_of(rb, k->b);
        rk[i].k[3] = rank_of(rc, k->c);
        rk[i].idx = i;
    }
    qsort(rk, g->n, sizeof *rk, rank_cmp);
    size_t *order = xmalloc((g->n + 1) * sizeof *order);
    for (size_t i = 0; i < g->n; i++)
        order[i] = rk[i].idx;
    free(rk);
    return order;
}

/* ---- interned names (groups, domains) ---- */


int32_t stats_dict_id(Dict *d, const char *name)
{
    int64_t id;
    size_t len = strlen(name);
    if (strmap_get(d->map, name, len, &id))
        return (int32_t)id;
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 32;
        d->name = xrealloc(d->name, d->cap * sizeof *d->name);
    }
    d->name[d->n] = name;
    strmap_put(d->map, name, len, (int64_t)d->n);
    return (int32_t)d->n++;
}

int32_t stats_dict_find(const Dict *d, const char *name)
{
    int64_t id;
    return strmap_get(d->map, name, strlen(name), &id) ? (int32_t)id : -1;
}

typedef struct NameId {
    const char *name;
    int32_t id;
} NameId;

static int name_cmp(const void *pa, const void *pb)
{
    const NameId *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->id > b->id) - (a->id < b->id);
}

/* rank[id] = position of name id in byte order ("" and NULL first). */
int32_t *stats_names_rank(const char *const *names, size_t n)
{
    NameId *tmp = xmalloc((n + 1) * sizeof *tmp);
    int32_t *rank = xmalloc((n + 1) * sizeof *rank);
    for (size_t i = 0; i < n; i++) {
        tmp[i].name = names[i] ? names[i] : "";
        tmp[i].id = (int32_t)i;
    }
    qsort(tmp, n, sizeof *tmp, name_cmp);
    for (size_t i = 0; i < n; i++)
        rank[tmp[i].id] = (int32_t)i;
    if (n == 0)
        rank[0] = 0;
    free(tmp);
    return rank;
}

void stats_dict_rank(Dict *d)
{
    free(d->rank);
    d->rank = stats_names_rank(d->name, d->n);
}

void stats_dict_init(Dict *d)
{
    memset(d, 0, sizeof *d);
    d->map = strmap_new();
}

void stats_dict_done(Dict *d)
{
    strmap_free(d->map);
    free(d->name);
    free(d->rank);
}
