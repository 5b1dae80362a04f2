/* sim_idle: the recorded occupancy of each pool as a step function, and
 * how much of each recorded wait passed while a pool the job could use
 * stood idle; the recorded peak of a fleet no inventory names. */
#include <stdlib.h>
#include <string.h>

#include "core/cp.h"
#include "core/sim_stats.h"

typedef struct Ev {
    int64_t t;
    int32_t k;     /* the pool, local to the cluster */
    int32_t dcap;  /* capacity change */
    int32_t dbusy; /* busy change */
    int32_t dwait; /* units waiting change (the cluster's) */
} Ev;

static int ev_cmp(const void *a, const void *b)
{
    int64_t x = ((const Ev *)a)->t, y = ((const Ev *)b)->t;
    return (x > y) - (x < y);
}

typedef struct Steps {
    int64_t *t;     /* segment s is [t[s], t[s+1]) */
    int32_t *idle;  /* idle[s * ncp + k] */
    int64_t *wait;  /* units waiting in segment s */
    size_t ns, ncp;
    const size_t *cp; /* the cluster's pools */
} Steps;

/* The pool a recorded job ran on: its own, else the first that holds it. */
static long rec_pool_of(const SimJob *j, const SimPool *pools, const Steps *st)
{
    for (size_t k = 0; k < st->ncp; k++)
        if ((long)st->cp[k] == j->rec_pool)
            return (long)k;
    for (size_t k = 0; k < st->ncp; k++)
        if (pools[st->cp[k]].mem_gib >= j->mem_gib && pools[st->cp[k]].units >= j->units)
            return (long)k;
    return -1;
}

static void build_steps(const SimJob *jobs, size_t n, const SimPool *pools, int32_t c, Steps *st)
{
    Ev *ev = xmalloc((3 * n + 2 * st->ncp + 1) * sizeof *ev);
    size_t ne = 0;
    for (size_t k = 0; k < st->ncp; k++) {
        const SimPool *p = &pools[st->cp[k]];
        ev[ne++] = (Ev){p->from, (int32_t)k, p->units, 0, 0};
        if (p->to != SIM_OPEN)
            ev[ne++] = (Ev){p->to, (int32_t)k, -p->units, 0, 0};
    }
    for (size_t i = 0; i < n; i++) {
        const SimJob *j = &jobs[i];
        long k = j->cluster == c && j->rec_start != SIM_NEVER ? rec_pool_of(j, pools, st) : -1;
        if (k < 0)
            continue;
        ev[ne++] = (Ev){j->rec_start, (int32_t)k, 0, j->units, -j->units};
        ev[ne++] = (Ev){j->rec_start + j->runtime, (int32_t)k, 0, -j->units, 0};
        ev[ne++] = (Ev){j->submit, (int32_t)k, 0, 0, j->units};
    }
    qsort(ev, ne, sizeof *ev, ev_cmp);
    int32_t *cap = xcalloc(st->ncp + 1, sizeof *cap), *busy = xcalloc(st->ncp + 1, sizeof *busy);
    st->t = xmalloc((ne + 1) * sizeof *st->t);
    st->idle = xmalloc(((ne + 1) * st->ncp + 1) * sizeof *st->idle);
    st->wait = xmalloc((ne + 1) * sizeof *st->wait);
    st->ns = 0;
    int64_t waiting = 0;
    for (size_t a = 0; a < ne;) {
        size_t b = a;
        for (; b < ne && ev[b].t == ev[a].t; b++) {
            cap[ev[b].k] += ev[b].dcap;
            busy[ev[b].k] += ev[b].dbusy;
            waiting += ev[b].dwait;
        }
        st->wait[st->ns] = waiting;
        st->t[st->ns] = ev[a].t;
        for (size_t k = 0; k < st->ncp; k++) {
            int32_t v = cap[k] - busy[k];
            st->idle[st->ns * st->ncp + k] = v > 0 ? v : 0;
        }
        st->ns++;
        a = b;
    }
    free(cap);
    free(busy);
    free(ev);
}

/* Seconds of [lo, hi) during which a usable pool had the job's units idle
 * and the cluster had idle units enough to start every waiting job. */
static double idle_during(const Steps *st, const SimPool *pools, const SimJob *j, int64_t lo,
                          int64_t hi)
{
    size_t a = 0, b = st->ns;
    while (a < b) { /* the first segment starting after lo */
        size_t m = (a + b) / 2;
        if (st->t[m] <= lo)
            a = m + 1;
        else
            b = m;
    }
    double s = 0;
    for (size_t g = a ? a - 1 : 0; g < st->ns && st->t[g] < hi; g++) {
        int64_t x = st->t[g] > lo ? st->t[g] : lo;
        int64_t y = g + 1 < st->ns && st->t[g + 1] < hi ? st->t[g + 1] : hi;
        if (y <= x)
            continue;
        int64_t all = 0, fits = 0;
        for (size_t k = 0; k < st->ncp; k++) {
            int32_t v = st->idle[g * st->ncp + k];
            all += v;
            fits |= pools[st->cp[k]].mem_gib >= j->mem_gib && v >= j->units;
        }
        if (fits && all >= st->wait[g])
            s += (double)(y - x);
    }
    return s;
}

double *sim_idle(const SimJob *jobs, size_t n, const SimPool *pools, size_t np)
{
    double *idle = xcalloc(n ? n : 1, sizeof *idle);
    size_t *cp = xmalloc((np ? np : 1) * sizeof *cp);
    unsigned char *done = xcalloc(n ? n : 1, 1);
    for (size_t i0 = 0; i0 < n; i0++) {
        if (done[i0])
            continue;
        int32_t c = jobs[i0].cluster;
        Steps st = {.cp = cp};
        for (size_t p = 0; p < np; p++)
            if (pools[p].cluster == c)
                cp[st.ncp++] = p;
        build_steps(jobs, n, pools, c, &st);
        for (size_t i = i0; i < n; i++) {
            const SimJob *j = &jobs[i];
            if (j->cluster != c)
                continue;
            done[i] = 1;
            if (j->rec_start != SIM_NEVER && j->rec_start > j->submit)
                idle[i] = idle_during(&st, pools, j, j->submit, j->rec_start);
        }
        free(st.t);
        free(st.idle);
        free(st.wait);
    }
    free(done);
    free(cp);
    return idle;
}

/* Events packed in 8 bytes (time in the high bits, units + 2^31 below:
 * at one second, ends sort before starts and net out first): a sixth of
 * an Ev each, sorted without qsort's copy (a 1M-job log's peak took
 * 86 MB as Evs). */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int32_t sim_peak_units(const SimJob *jobs, size_t n, int32_t cluster)
{
    int64_t t0 = INT64_MAX;
    size_t ne = 0;
    for (size_t i = 0; i < n; i++)
        if (jobs[i].cluster == cluster && jobs[i].rec_start != SIM_NEVER) {
            if (jobs[i].rec_start < t0)
                t0 = jobs[i].rec_start;
            ne += 2;
        }
    uint64_t *ev = xmalloc((ne + 1) * sizeof *ev);
    ne = 0;
    for (size_t i = 0; i < n; i++)
        if (jobs[i].cluster == cluster && jobs[i].rec_start != SIM_NEVER) {
            uint64_t a = (uint64_t)(jobs[i].rec_start - t0), b = a + (uint64_t)jobs[i].runtime;
            uint64_t u = (uint64_t)(uint32_t)jobs[i].units;
            ev[ne++] = a << 32 | (u + 0x80000000u);
            ev[ne++] = b << 32 | (0x80000000u - u);
        }
    qsort(ev, ne, sizeof *ev, cmp_u64);
    int64_t cur = 0, peak = 0;
    for (size_t a = 0; a < ne;) { /* ends and starts at one second net out first */
        size_t b = a;
        for (; b < ne && ev[b] >> 32 == ev[a] >> 32; b++)
            cur += (int64_t)(ev[b] & 0xffffffffu) - 0x80000000;
        if (cur > peak)
            peak = cur;
        a = b;
    }
    free(ev);
    return peak > INT32_MAX ? INT32_MAX : (int32_t)peak;
}
