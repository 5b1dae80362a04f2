/* sim_resample: next year's jobs from the last year's (sim_resample.h). */
#include "core/sim_resample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cp.h"
#include "core/rng.h"

static void push(SimJob **v, size_t *n, size_t *cap, SimJob j)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 1024;
        *v = xrealloc(*v, *cap * sizeof **v);
    }
    (*v)[(*n)++] = j;
}

/* Queue order (sim_run then need not sort): cluster, submit, then the
 * rest of the job so that the order never depends on qsort's. */
static int job_cmp(const void *a, const void *b)
{
    const SimJob *x = a, *y = b;
    if (x->cluster != y->cluster)
        return x->cluster < y->cluster ? -1 : 1;
    if (x->submit != y->submit)
        return x->submit < y->submit ? -1 : 1;
    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    if (x->units != y->units)
        return x->units < y->units ? -1 : 1;
    if (x->runtime != y->runtime)
        return x->runtime < y->runtime ? -1 : 1;
    if (x->limit != y->limit)
        return x->limit < y->limit ? -1 : 1;
    return (x->mem_gib > y->mem_gib) - (x->mem_gib < y->mem_gib);
}

/* Sorting keys: the first fields inline (glibc's qsort copies whole
 * elements: a 64-byte SimJob sorted directly costs more in copying than
 * in comparing), the job itself for the rest. */
typedef struct RKey {
    int64_t submit;
    int32_t cluster;
    uint32_t i;
    const SimJob *j;
} RKey;

static int rkey_cmp(const void *a, const void *b)
{
    const RKey *x = a, *y = b;
    if (x->cluster != y->cluster)
        return x->cluster < y->cluster ? -1 : 1;
    if (x->submit != y->submit)
        return x->submit < y->submit ? -1 : 1;
    return job_cmp(x->j, y->j);
}

/* The order of v[0..m) by rkey_cmp, stable, into from (new[i] =
 * old[from[i]]): a stable LSD radix sort on (cluster, submit) packed in 64
 * bits, then each run of one (cluster, submit) put in job_cmp order by a
 * stable insertion sort (runs are short): the order a stable sort by
 * rkey_cmp gives, in linear time. 0 when the keys do not fit 64 bits. */
static int radix_order(const SimJob *v, size_t m, uint32_t *from)
{
    if (m == 0)
        return 1;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    int32_t cmax = 0;
    for (size_t i = 0; i < m; i++) {
        if (v[i].cluster < 0)
            return 0;
        lo = v[i].submit < lo ? v[i].submit : lo;
        hi = v[i].submit > hi ? v[i].submit : hi;
        cmax = v[i].cluster > cmax ? v[i].cluster : cmax;
    }
    /* the span in unsigned arithmetic: hi - lo may not fit an int64_t */
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    int sb = 0, cb = 0;
    while (sb < 64 && (span >> sb) != 0)
        sb++;
    while (cb < 31 && ((uint32_t)cmax >> cb) != 0)
        cb++;
    if (sb + cb > 64)
        return 0;
    uint64_t *key = xmalloc(2 * m * sizeof *key), *ks = key, *kd = key + m;
    uint32_t *tmp = xmalloc(m * sizeof *tmp), *is = from, *id = tmp;
    for (size_t i = 0; i < m; i++) {
        ks[i] = (cb ? (uint64_t)v[i].cluster << sb : 0) | ((uint64_t)v[i].submit - (uint64_t)lo);
        is[i] = (uint32_t)i;
    }
    for (int shift = 0; shift < sb + cb; shift += 8) {
        size_t cnt[257] = {0};
        for (size_t i = 0; i < m; i++)
            cnt[((ks[i] >> shift) & 255) + 1]++;
        for (int k = 0; k < 256; k++)
            cnt[k + 1] += cnt[k];
        for (size_t i = 0; i < m; i++) {
            size_t at = cnt[(ks[i] >> shift) & 255]++;
            kd[at] = ks[i];
            id[at] = is[i];
        }
        uint64_t *kx = ks;
        ks = kd, kd = kx;
        uint32_t *ix = is;
        is = id, id = ix;
    }
    if (is != from)
        memcpy(from, is, m * sizeof *from);
    for (size_t a = 0; a < m;) { /* runs of one (cluster, submit) in job_cmp order */
        size_t b = a + 1;
        while (b < m && ks[b] == ks[a])
            b++;
        for (size_t i = a + 1; i < b; i++) {
            uint32_t x = from[i];
            size_t k = i;
            for (; k > a && job_cmp(&v[from[k - 1]], &v[x]) > 0; k--)
                from[k] = from[k - 1];
            from[k] = x;
        }
        a = b;
    }
    free(key);
    free(tmp);
    return 1;
}

/* v[0..m) into queue order: its order found (radix_order, else keys
 * sorted by qsort), then v permuted in place along the permutation's
 * cycles. */
static void sort_jobs(SimJob *v, size_t m)
{
    uint32_t *from = xmalloc((m ? m : 1) * sizeof *from); /* new[i] = old[from[i]] */
    if (!radix_order(v, m, from)) {
        RKey *k = xmalloc((m ? m : 1) * sizeof *k);
        for (size_t i = 0; i < m; i++)
            k[i] = (RKey){v[i].submit, v[i].cluster, (uint32_t)i, &v[i]};
        qsort(k, m, sizeof *k, rkey_cmp);
        for (size_t i = 0; i < m; i++)
            from[i] = k[i].i;
        free(k);
    }
    for (size_t i = 0; i < m; i++) {
        if (from[i] == i)
            continue;
        SimJob tmp = v[i];
        size_t x = i;
        for (;;) {
            size_t y = from[x];
            from[x] = (uint32_t)x;
            if (y == i) {
                v[x] = tmp;
                break;
            }
            v[x] = v[y];
            x = y;
        }
    }
    free(from);
}

/* A copy's submit: moved by the jitter, wrapped into [lo, hi). */
static int64_t jittered(int64_t t, int64_t lo, int64_t hi, uint64_t s[4])
{
    int64_t span = hi - lo;
    int64_t d = (int64_t)floor((rng_unit(s) * 2 - 1) * SIM_JITTER_S);
    int64_t x = (t + d - lo) % span;
    return lo + (x < 0 ? x + span : x);
}

SimJob *sim_resample(const SimJob *jobs, size_t n, const double *factor, size_t ngroups,
                     int64_t from, int64_t to, int64_t warm_from, uint64_t seed, size_t *nout)
{
    uint64_t s[4];
    rng_seed(s, seed);
    int64_t shift = to - from;
    size_t m = 0, cap = 0; /* the most jobs it can draw: one allocation, no copy as it grows */
    for (size_t i = 0; i < n; i++) {
        if (jobs[i].submit < from || jobs[i].submit >= to)
            continue;
        double f = jobs[i].group >= 0 && (size_t)jobs[i].group < ngroups ? factor[jobs[i].group]
                                                                         : 1.0;
        cap += (jobs[i].submit >= warm_from) + 1;
        if (f > 1)
            cap += (size_t)ceil(f - 1);
    }
    SimJob *v = xmalloc((cap ? cap : 1) * sizeof *v);
    for (size_t i = 0; i < n; i++) {
        SimJob j = jobs[i];
        if (j.submit < from || j.submit >= to)
            continue;
        if (j.submit >= warm_from) {
            SimJob w = j;
            w.rec_start = SIM_NEVER;
            push(&v, &m, &cap, w);
        }
        double f = j.group >= 0 && (size_t)j.group < ngroups ? factor[j.group] : 1.0;
        j.submit += shift;
        j.rec_start = SIM_NEVER;
        if (f < 1) {
            if (rng_unit(s) < f)
                push(&v, &m, &cap, j);
            continue;
        }
        push(&v, &m, &cap, j);
        double extra = f - 1;
        int copies = (int)floor(extra);
        if (rng_unit(s) < extra - copies)
            copies++;
        for (int c = 0; c < copies; c++) {
            SimJob k = j;
            k.submit = jittered(j.submit, to, to + shift, s);
            push(&v, &m, &cap, k);
        }
    }
    sort_jobs(v, m);
    v = xrealloc(v, (m ? m : 1) * sizeof *v);
    *nout = m;
    return v;
}
