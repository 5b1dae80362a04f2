/* sim_idle: the recorded occupancy of each pool as a step function, and
 * how much of each recorded wait passed while a pool the job could use
 * stood idle; the recorded peak of a fleet no inventory names. */
#include <stdlib.h>
#include <string.h>

#include "core/cp.h"
#include "core/sim_place.h"
#include "core/sim_stats.h"

/* One change of the recorded occupancy, 16 bytes (a 1M-job log makes 3
 * events a job: 24-byte events and a waiting-units array took 86 MB of
 * a 254 MB peak): the pool (local to the cluster) and the kind share kk. */
enum { EV_CAP, EV_START, EV_END, EV_SUBMIT };

typedef struct Ev {
    int64_t t;
    int32_t units; /* capacity change (EV_CAP, signed) or the job's units */
    uint32_t kk;   /* pool << 2 | kind */
} Ev;

static int ev_cmp(const void *a, const void *b)
{
    int64_t x = ((const Ev *)a)->t, y = ((const Ev *)b)->t;
    return (x > y) - (x < y);
}

static Ev ev_make(int64_t t, size_t k, int kind, int32_t units)
{
    return (Ev){t, units, (uint32_t)k << 2 | (uint32_t)kind};
}

typedef struct Steps {
    int64_t *t;         /* segment s is [t[s], t[s+1]) */
    int32_t *idle;      /* idle[s * ncp + k] when wide, else idle16 */
    uint16_t *idle16;   /* the same when no pool of the cluster has over 65,535 units */
    unsigned char *all; /* 1: the cluster's idle units could start every waiting job */
    size_t ns, ncp;
    const size_t *cp; /* the cluster's pools */
} Steps;

/* The idle units of pool k in segment g. */
static int32_t idle_at(const Steps *st, size_t g, size_t k)
{
    return st->idle ? st->idle[g * st->ncp + k] : st->idle16[g * st->ncp + k];
}

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
        ev[ne++] = ev_make(p->from, k, EV_CAP, p->units);
        if (p->to != SIM_OPEN)
            ev[ne++] = ev_make(p->to, k, EV_CAP, -p->units);
    }
    for (size_t i = 0; i < n; i++) {
        const SimJob *j = &jobs[i];
        long k = j->cluster == c && j->rec_start != SIM_NEVER ? rec_pool_of(j, pools, st) : -1;
        if (k < 0)
            continue;
        ev[ne++] = ev_make(j->rec_start, (size_t)k, EV_START, j->units);
        ev[ne++] = ev_make(j->rec_start + j->runtime, (size_t)k, EV_END, j->units);
        ev[ne++] = ev_make(j->submit, (size_t)k, EV_SUBMIT, j->units);
    }
    qsort(ev, ne, sizeof *ev, ev_cmp);
    int32_t *cap = xcalloc(st->ncp + 1, sizeof *cap), *busy = xcalloc(st->ncp + 1, sizeof *busy);
    st->t = xmalloc((ne + 1) * sizeof *st->t);
    int wide = 0;
    for (size_t k = 0; k < st->ncp; k++)
        wide |= pools[st->cp[k]].units > UINT16_MAX;
    if (wide)
        st->idle = xmalloc(((ne + 1) * st->ncp + 1) * sizeof *st->idle);
    else
        st->idle16 = xmalloc(((ne + 1) * st->ncp + 1) * sizeof *st->idle16);
    st->all = xmalloc(ne + 1);
    st->ns = 0;
    int64_t waiting = 0;
    for (size_t a = 0; a < ne;) {
        size_t b = a;
        for (; b < ne && ev[b].t == ev[a].t; b++) {
            size_t k = ev[b].kk >> 2;
            int32_t u = ev[b].units;
            switch (ev[b].kk & 3) {
            case EV_CAP: cap[k] += u; break;
            case EV_START: busy[k] += u, waiting -= u; break;
            case EV_END: busy[k] -= u; break;
            default: waiting += u; break;
            }
        }
        st->t[st->ns] = ev[a].t;
        int64_t all = 0;
        for (size_t k = 0; k < st->ncp; k++) {
            int32_t v = cap[k] - busy[k] > 0 ? cap[k] - busy[k] : 0; /* <= the pool's units */
            if (wide)
                st->idle[st->ns * st->ncp + k] = v;
            else
                st->idle16[st->ns * st->ncp + k] = (uint16_t)v;
            all += v;
        }
        st->all[st->ns] = all >= waiting;
        st->ns++;
        a = b;
    }
    free(cap);
    free(busy);
    free(ev);
}

/* Seconds of [lo, hi) during which a usable pool had the job's units idle
 * and the cluster had idle units enough to start every waiting job. */
static double idle_during(const Steps *st, const SimPool *pools, const SimJob *j, int32_t model,
                          int64_t lo, int64_t hi)
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
        if (!st->all[g])
            continue;
        int fits = 0;
        for (size_t k = 0; k < st->ncp && !fits; k++)
            fits = sim_may_use(j, model, &pools[st->cp[k]]) && idle_at(st, g, k) >= j->units;
        if (fits)
            s += (double)(y - x);
    }
    return s;
}

double *sim_idle(const SimJob *jobs, size_t n, const SimPool *pools, size_t np,
                 const int32_t *pin)
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
                idle[i] = idle_during(&st, pools, j, pin ? pin[i] : 0, j->submit, j->rec_start);
        }
        free(st.t);
        free(st.idle);
        free(st.idle16);
        free(st.all);
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
