/* sim: FCFS with EASY backfill on the time limit, one queue per cluster,
 * jobs onto pools by memory (the rules are in sim.h). */
#include "core/sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cp.h"
#include "core/fairshare.h"
#include "core/sim_place.h"

#define QNIL ((size_t)UINT32_MAX) /* the end of the queue (jobs number fewer) */

typedef struct Ends { /* min-heap of (end, job) */
    int64_t *t;
    size_t *j;
    size_t n, cap;
} Ends;

typedef struct Sim {
    const SimJob *jobs;
    const SimPool *pools;
    SimOut *out;
    int64_t *est_end;     /* per job: start + est */
    size_t *cp;           /* this cluster's pools, by smallest memory, fastest, first */
    size_t ncp;
    int32_t *free_u;      /* per pool */
    size_t **run;         /* per pool: running jobs, a min-heap by est end */
    size_t *nrun;
    uint32_t *hpos;       /* per job: its place in its pool's heap */
    size_t *aux;          /* pool_shadow's heap of heap places */
    uint32_t *qnext, *qprev; /* the queue: a list through the jobs, in order */
    size_t qhead, qtail;
    size_t qcount;        /* jobs queued */
    size_t depth;         /* jobs behind the head tried for backfill, 0: all */
    Ends ends;
    const int32_t *pin;   /* per job: its model, 0 any (NULL: none pinned) */
    /* The queue as lists (fair share or tiers; else the one list above):
     * list (tier x ng + group) of the job's tier (0 without tiers) and
     * group (0 without fair share), walked by (tier, rank, submit, job). */
    const SimFair *fair;  /* NULL: FCFS */
    const int32_t *tier;  /* per job, NULL: none */
    int lists;            /* 1: the queue is in lists */
    size_t ng, nl;        /* groups per tier (1 without fair share), lists */
    size_t *gqhead, *gqtail; /* per list: its FIFO list through qnext/qprev */
    size_t *gcur;         /* per list: the walk's next job */
    size_t *gheap;        /* the walk: lists by (tier, rank, cursor's submit, cursor) */
    size_t ngheap;
    /* per group (fair share): */
    double *done;         /* usage of ended jobs, scaled by pw() */
    double *run_base;     /* sum of units x pw(start) of its running jobs */
    int64_t *run_units;   /* units it has running */
    double *rank;         /* U / S at this event */
    size_t *ended;        /* the jobs ending at one time, to charge in input order */
    int64_t t0;           /* the cluster's first submit */
} Sim;

int64_t sim_runtime_on(const SimJob *j, const SimPool *p)
{
    double ref = j->ref_speed > 0 ? j->ref_speed : 1.0;
    return (int64_t)floor((double)j->runtime * ref / p->speed + 0.5);
}

static int64_t est_on(const SimJob *j, const SimPool *p)
{
    int64_t run = sim_runtime_on(j, p);
    return j->limit > run ? j->limit : run;
}

static void ends_push(Ends *h, int64_t t, size_t j)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 256;
        h->t = xrealloc(h->t, h->cap * sizeof *h->t);
        h->j = xrealloc(h->j, h->cap * sizeof *h->j);
    }
    size_t i = h->n++;
    while (i > 0 && t < h->t[(i - 1) / 2]) {
        h->t[i] = h->t[(i - 1) / 2];
        h->j[i] = h->j[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->t[i] = t;
    h->j[i] = j;
}

static size_t ends_pop(Ends *h)
{
    size_t top = h->j[0];
    int64_t t = h->t[--h->n];
    size_t j = h->j[h->n], i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->t[c + 1] < h->t[c])
            c++;
        if (h->t[c] >= t)
            break;
        h->t[i] = h->t[c];
        h->j[i] = h->j[c];
        i = c;
    }
    h->t[i] = t;
    h->j[i] = j;
    return top;
}

static int in_service(const SimPool *p, int64_t t)
{
    return p->from <= t && t < p->to;
}

/* Job j's pinned model, 0 any. */
static int32_t pin_of(const Sim *s, size_t j)
{
    return s->pin ? s->pin[j] : 0;
}

static int could_hold(const Sim *s, size_t j, const SimPool *p)
{
    const SimJob *jb = &s->jobs[j];
    return jb->units >= 1 && sim_may_use(jb, pin_of(s, j), p) && p->units >= jb->units;
}

/* Pool p's heap of running jobs (by est end): place job j at i, moving
 * it up or down to its place. */
static void run_place(Sim *s, size_t p, size_t i, size_t j)
{
    size_t *h = s->run[p], n = s->nrun[p];
    int64_t e = s->est_end[j];
    while (i > 0 && e < s->est_end[h[(i - 1) / 2]]) {
        h[i] = h[(i - 1) / 2];
        s->hpos[h[i]] = (uint32_t)i;
        i = (i - 1) / 2;
    }
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && s->est_end[h[c + 1]] < s->est_end[h[c]])
            c++;
        if (s->est_end[h[c]] >= e)
            break;
        h[i] = h[c];
        s->hpos[h[i]] = (uint32_t)i;
        i = c;
    }
    h[i] = j;
    s->hpos[j] = (uint32_t)i;
}

/* Usage scale: 2^((t - t0) / half_life). */
static double pw(const Sim *s, int64_t t)
{
    return pow(2.0, (double)(t - s->t0) / s->fair->half_life_s);
}

static void start_job(Sim *s, size_t j, size_t p, int64_t t)
{
    const SimJob *jb = &s->jobs[j];
    s->out->start[j] = t;
    s->out->end[j] = t + sim_runtime_on(jb, &s->pools[p]);
    s->out->pool[j] = (int32_t)p;
    s->est_end[j] = t + est_on(jb, &s->pools[p]);
    s->free_u[p] -= jb->units;
    run_place(s, p, s->nrun[p]++, j);
    ends_push(&s->ends, s->out->end[j], j);
    if (s->fair) {
        s->run_base[jb->group] += (double)jb->units * pw(s, t);
        s->run_units[jb->group] += jb->units;
    }
}

static void end_job(Sim *s, size_t j)
{
    size_t p = (size_t)s->out->pool[j];
    s->free_u[p] += s->jobs[j].units;
    size_t i = s->hpos[j], last = s->run[p][--s->nrun[p]];
    if (last != j)
        run_place(s, p, i, last);
    if (s->fair) { /* its usage, start to end */
        const SimJob *jb = &s->jobs[j];
        double ps = pw(s, s->out->start[j]), u = (double)jb->units;
        s->done[jb->group] += u * (pw(s, s->out->end[j]) - ps);
        s->run_base[jb->group] -= u * ps;
        s->run_units[jb->group] -= jb->units;
    }
}

/* The reservation of the head job: the pool, the shadow time and the
 * units spare then. 0 when no pool in service can hold it. */
typedef struct Resv {
    size_t pool;
    int64_t shadow;
    int64_t extra;
} Resv;

/* Units of pool p free at its running jobs' est ends, taken in est-end
 * order from its heap (a second heap, of heap places, yields them
 * smallest first): the first time at least need are free; -1 when never.
 * *extra: the units beyond need then (every job ending at that time). */
static int64_t pool_shadow(const Sim *s, size_t p, int64_t need, int64_t *extra)
{
    const size_t *h = s->run[p];
    size_t n = s->nrun[p], *a = s->aux, na = 0;
    int64_t avail = s->free_u[p], shadow = -1;
#define AUX_KEY(k) s->est_end[h[a[k]]]
    if (n)
        a[na++] = 0;
    while (na) {
        size_t top = a[0], x = a[--na], i = 0; /* pop the smallest */
        for (;;) {
            size_t c = 2 * i + 1;
            if (c >= na)
                break;
            if (c + 1 < na && AUX_KEY(c + 1) < AUX_KEY(c))
                c++;
            if (AUX_KEY(c) >= s->est_end[h[x]])
                break;
            a[i] = a[c];
            i = c;
        }
        if (na)
            a[i] = x;
        int64_t e = s->est_end[h[top]];
        if (shadow >= 0 && e > shadow)
            break;
        avail += s->jobs[h[top]].units;
        if (shadow < 0 && avail >= need)
            shadow = e;
        for (size_t c = 2 * top + 1; c <= 2 * top + 2 && c < n; c++) { /* push its children */
            size_t k = na++;
            while (k > 0 && s->est_end[h[c]] < AUX_KEY((k - 1) / 2)) {
                a[k] = a[(k - 1) / 2];
                k = (k - 1) / 2;
            }
            a[k] = c;
        }
    }
#undef AUX_KEY
    *extra = avail - need;
    return shadow;
}

static int reserve(const Sim *s, size_t head, int64_t t, Resv *r)
{
    const SimJob *j = &s->jobs[head];
    int found = 0;
    for (size_t k = 0; k < s->ncp; k++) {
        size_t p = s->cp[k];
        const SimPool *pl = &s->pools[p];
        if (!in_service(pl, t) || !could_hold(s, head, pl))
            continue;
        int64_t extra;
        int64_t sh = pool_shadow(s, p, j->units, &extra);
        if (sh < 0 || sh >= pl->to)
            continue;
        if (!found || sh < r->shadow) {
            r->pool = p;
            r->shadow = sh;
            r->extra = extra;
            found = 1;
        }
    }
    return found;
}

/* The pool job j starts on at t, or -1; with r, only where it does not
 * delay the reservation (r->extra shrinks when it uses the spare). */
static long pick_pool(const Sim *s, size_t j, int64_t t, Resv *r)
{
    const SimJob *jb = &s->jobs[j];
    for (size_t k = 0; k < s->ncp; k++) {
        size_t p = s->cp[k];
        const SimPool *pl = &s->pools[p];
        if (!in_service(pl, t) || !sim_may_use(jb, pin_of(s, j), pl) || s->free_u[p] < jb->units)
            continue;
        if (r && p == r->pool && t + est_on(jb, pl) > r->shadow) {
            if (jb->units > r->extra)
                continue;
            r->extra -= jb->units;
        }
        return (long)p;
    }
    return -1;
}

/* The most units free now on one in-service pool of the cluster: a job
 * wanting more cannot start, and with none free nothing can. */
static int32_t most_free(const Sim *s, int64_t t)
{
    int32_t m = 0;
    for (size_t k = 0; k < s->ncp; k++)
        if (in_service(&s->pools[s->cp[k]], t) && s->free_u[s->cp[k]] > m)
            m = s->free_u[s->cp[k]];
    return m;
}

/* Job j's list (s->lists). */
static size_t list_of(const Sim *s, size_t j)
{
    size_t t = s->tier ? (size_t)s->tier[j] : 0;
    return t * s->ng + (s->fair ? (size_t)s->jobs[j].group : 0);
}

static void q_push(Sim *s, size_t j)
{
    s->qcount++;
    if (s->lists) {
        size_t l = list_of(s, j);
        size_t *head = &s->gqhead[l], *tail = &s->gqtail[l];
        s->qnext[j] = (uint32_t)QNIL;
        s->qprev[j] = (uint32_t)*tail;
        if (*tail == QNIL)
            *head = j;
        else
            s->qnext[*tail] = (uint32_t)j;
        *tail = j;
        return;
    }
    s->qnext[j] = (uint32_t)QNIL;
    s->qprev[j] = (uint32_t)s->qtail;
    if (s->qtail == QNIL)
        s->qhead = j;
    else
        s->qnext[s->qtail] = (uint32_t)j;
    s->qtail = j;
}

static void q_unlink(Sim *s, size_t j)
{
    size_t a = s->qprev[j], b = s->qnext[j];
    size_t *head = &s->qhead, *tail = &s->qtail;
    s->qcount--;
    if (s->lists) {
        head = &s->gqhead[list_of(s, j)];
        tail = &s->gqtail[list_of(s, j)];
    }
    if (a == QNIL)
        *head = b;
    else
        s->qnext[a] = (uint32_t)b;
    if (b == QNIL)
        *tail = a;
    else
        s->qprev[b] = (uint32_t)a;
}

/* ---- the walk over the lists: tier, then fair-share rank ---- */

static int walk_less(const Sim *s, size_t g, size_t h)
{
    if (g / s->ng != h / s->ng) /* the tier */
        return g / s->ng < h / s->ng;
    if (s->fair && s->rank[g % s->ng] != s->rank[h % s->ng])
        return s->rank[g % s->ng] < s->rank[h % s->ng];
    size_t a = s->gcur[g], b = s->gcur[h];
    if (s->jobs[a].submit != s->jobs[b].submit)
        return s->jobs[a].submit < s->jobs[b].submit;
    return a < b;
}

static void walk_push(Sim *s, size_t g)
{
    size_t i = s->ngheap++;
    while (i > 0 && walk_less(s, g, s->gheap[(i - 1) / 2])) {
        s->gheap[i] = s->gheap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->gheap[i] = g;
}

/* The next job in the lists' order, QNIL after the last. */
static size_t walk_next(Sim *s)
{
    if (!s->ngheap)
        return QNIL;
    size_t g = s->gheap[0], x = s->gheap[--s->ngheap], i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= s->ngheap)
            break;
        if (c + 1 < s->ngheap && walk_less(s, s->gheap[c + 1], s->gheap[c]))
            c++;
        if (!walk_less(s, s->gheap[c], x))
            break;
        s->gheap[i] = s->gheap[c];
        i = c;
    }
    if (s->ngheap)
        s->gheap[i] = x;
    size_t j = s->gcur[g];
    s->gcur[g] = s->qnext[j];
    if (s->gcur[g] != QNIL)
        walk_push(s, g);
    return j;
}

/* Each group's U / S at t (fair share). */
static void fair_ranks(Sim *s, int64_t t)
{
    const SimFair *f = s->fair;
    int32_t y = fairshare_year_of(t) - f->y0;
    y = y < 0 ? 0 : y >= f->nyears ? f->nyears - 1 : y;
    double now = pw(s, t);
    for (size_t g = 0; g < (size_t)f->ngroups; g++) {
        double used = s->done[g] + (double)s->run_units[g] * now - s->run_base[g];
        double share = f->share[g * (size_t)f->nyears + (size_t)y];
        s->rank[g] = share > 0 ? used / share : used > 0 ? INFINITY : 0.0;
    }
}

/* The walk from the first job of the queued lists. */
static void walk_begin(Sim *s, int64_t t)
{
    if (s->fair)
        fair_ranks(s, t);
    s->ngheap = 0;
    for (size_t l = 0; l < s->nl; l++) {
        if (s->gqhead[l] == QNIL)
            continue;
        s->gcur[l] = s->gqhead[l];
        walk_push(s, l);
    }
}

/* The queue in order: FCFS, the list; fair share or tiers, the walk
 * (next read before a start unlinks a job). */
static size_t order_first(Sim *s, int64_t t)
{
    if (!s->lists)
        return s->qhead;
    walk_begin(s, t);
    return walk_next(s);
}

static size_t order_next(Sim *s, size_t k)
{
    return s->lists ? walk_next(s) : s->qnext[k];
}

static void schedule(Sim *s, int64_t t)
{
    size_t h = order_first(s, t);
    while (h != QNIL) { /* the head starts while it fits */
        long p = pick_pool(s, h, t, NULL);
        if (p < 0)
            break;
        size_t next = order_next(s, h);
        q_unlink(s, h);
        start_job(s, h, (size_t)p, t);
        h = next;
    }
    int32_t room = h != QNIL ? most_free(s, t) : 0;
    if (room <= 0)
        return;
    Resv r; /* the head's reservation, then backfill over the next depth jobs */
    int have = reserve(s, h, t, &r);
    size_t k = order_next(s, h);
    for (size_t tried = 0; k != QNIL && room > 0 && (s->depth == 0 || tried < s->depth); tried++) {
        size_t next = order_next(s, k);
        long p = s->jobs[k].units <= room ? pick_pool(s, k, t, have ? &r : NULL) : -1;
        if (p >= 0) {
            q_unlink(s, k);
            start_job(s, k, (size_t)p, t);
            room = most_free(s, t);
        }
        k = next;
    }
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* End the jobs ending by t (in input order under fair share: their
 * usage sums the same way every time). */
static void end_due(Sim *s, int64_t t)
{
    size_t ne = 0;
    while (s->ends.n && s->ends.t[0] <= t) {
        size_t j = ends_pop(&s->ends);
        if (!s->fair)
            end_job(s, j);
        else
            s->ended[ne++] = j;
    }
    if (ne > 1)
        qsort(s->ended, ne, sizeof *s->ended, cmp_size);
    for (size_t i = 0; i < ne; i++)
        end_job(s, s->ended[i]);
}

static int64_t next_from(const Sim *s, int64_t t)
{
    int64_t best = SIM_NEVER;
    for (size_t k = 0; k < s->ncp; k++) {
        int64_t f = s->pools[s->cp[k]].from;
        if (f > t && f < best)
            best = f;
    }
    return best;
}

static int can_ever(const Sim *s, size_t j)
{
    for (size_t k = 0; k < s->ncp; k++)
        if (could_hold(s, j, &s->pools[s->cp[k]]))
            return 1;
    return 0;
}

/* One cluster: its jobs ord[0..m) in queue order. */
static void run_cluster(Sim *s, const size_t *ord, size_t m)
{
    size_t ns = 0;
    int64_t t = INT64_MIN;
    s->qhead = s->qtail = QNIL;
    s->qcount = 0;
    for (size_t l = 0; l < s->nl; l++)
        s->gqhead[l] = s->gqtail[l] = QNIL;
    if (s->fair) {
        s->t0 = m ? s->jobs[ord[0]].submit : 0;
        for (size_t g = 0; g < (size_t)s->fair->ngroups; g++) {
            s->done[g] = s->run_base[g] = 0;
            s->run_units[g] = 0;
        }
    }
    for (;;) {
        int64_t nt = ns < m ? s->jobs[ord[ns]].submit : SIM_NEVER;
        if (s->ends.n && s->ends.t[0] < nt)
            nt = s->ends.t[0];
        if (s->qcount) {
            int64_t f = next_from(s, t);
            if (f < nt)
                nt = f;
        }
        if (nt == SIM_NEVER)
            break;
        t = nt;
        end_due(s, t);
        for (; ns < m && s->jobs[ord[ns]].submit <= t; ns++) {
            if (can_ever(s, ord[ns]))
                q_push(s, ord[ns]);
            else
                s->out->unplaced++;
        }
        schedule(s, t);
    }
    s->out->unplaced += s->qcount; /* waiting for a pool that never comes */
    s->qhead = s->qtail = QNIL;
}

typedef struct Key {
    int32_t cluster;
    int64_t submit;
    size_t i;
} Key;

static int key_cmp(const void *a, const void *b)
{
    const Key *x = a, *y = b;
    if (x->cluster != y->cluster)
        return x->cluster < y->cluster ? -1 : 1;
    if (x->submit != y->submit)
        return x->submit < y->submit ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

static const SimPool *cmp_pools;

static int pool_cmp(const void *a, const void *b)
{
    const SimPool *x = &cmp_pools[*(const size_t *)a], *y = &cmp_pools[*(const size_t *)b];
    if (x->mem_gib != y->mem_gib)
        return x->mem_gib < y->mem_gib ? -1 : 1;
    if (x->speed != y->speed)
        return x->speed > y->speed ? -1 : 1;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    return (i > j) - (i < j);
}

static void cluster_pools(Sim *s, size_t np, int32_t cluster)
{
    s->ncp = 0;
    for (size_t p = 0; p < np; p++)
        if (s->pools[p].cluster == cluster)
            s->cp[s->ncp++] = p;
    cmp_pools = s->pools;
    qsort(s->cp, s->ncp, sizeof *s->cp, pool_cmp);
}

void sim_run(const SimJob *jobs, size_t n, const SimPool *pools, size_t np, SimOut *out)
{
    sim_run_depth(jobs, n, pools, np, SIM_BF_DEPTH, out);
}

void sim_run_depth(const SimJob *jobs, size_t n, const SimPool *pools, size_t np, size_t depth,
                   SimOut *out)
{
    sim_run_fair(jobs, n, pools, np, depth, NULL, out);
}

void sim_run_fair(const SimJob *jobs, size_t n, const SimPool *pools, size_t np, size_t depth,
                  const SimFair *fair, SimOut *out)
{
    SimHow how = {.depth = depth, .fair = fair};
    sim_run_how(jobs, n, pools, np, &how, out);
}

void sim_run_how(const SimJob *jobs, size_t n, const SimPool *pools, size_t np, const SimHow *how,
                 SimOut *out)
{
    size_t depth = how->depth;
    const SimFair *fair = how->fair;
    memset(out, 0, sizeof *out);
    out->n = n;
    out->start = xmalloc((n ? n : 1) * sizeof *out->start);
    out->end = xmalloc((n ? n : 1) * sizeof *out->end);
    out->pool = xmalloc((n ? n : 1) * sizeof *out->pool);
    Sim s = {.jobs = jobs, .pools = pools, .out = out, .depth = depth, .fair = fair, .pin = how->pin};
    s.tier = how->tier && how->ntiers > 0 ? how->tier : NULL;
    s.lists = fair || s.tier;
    s.ng = fair && fair->ngroups > 0 ? (size_t)fair->ngroups : 1;
    s.nl = s.lists ? s.ng * (s.tier ? (size_t)how->ntiers : 1) : 0;
    if (s.lists) {
        s.gqhead = xmalloc(s.nl * sizeof *s.gqhead);
        s.gqtail = xmalloc(s.nl * sizeof *s.gqtail);
        s.gcur = xmalloc(s.nl * sizeof *s.gcur);
        s.gheap = xmalloc(s.nl * sizeof *s.gheap);
    }
    if (fair) {
        size_t ng = s.ng;
        s.done = xmalloc(ng * sizeof *s.done);
        s.run_base = xmalloc(ng * sizeof *s.run_base);
        s.rank = xmalloc(ng * sizeof *s.rank);
        s.run_units = xmalloc(ng * sizeof *s.run_units);
        s.ended = xmalloc((n ? n : 1) * sizeof *s.ended);
    }
    s.est_end = xmalloc((n ? n : 1) * sizeof *s.est_end);
    s.cp = xmalloc((np ? np : 1) * sizeof *s.cp);
    s.free_u = xmalloc((np ? np : 1) * sizeof *s.free_u);
    s.run = xcalloc(np ? np : 1, sizeof *s.run);
    s.nrun = xcalloc(np ? np : 1, sizeof *s.nrun);
    s.hpos = xmalloc((n ? n : 1) * sizeof *s.hpos);
    s.qnext = xmalloc((n ? n : 1) * sizeof *s.qnext);
    s.qprev = xmalloc((n ? n : 1) * sizeof *s.qprev);
    size_t most = 0;
    for (size_t p = 0; p < np; p++) {
        if (pools[p].units > 0 && (size_t)pools[p].units > most)
            most = (size_t)pools[p].units;
        s.free_u[p] = pools[p].units;
        s.run[p] = xmalloc(((size_t)(pools[p].units > 0 ? pools[p].units : 0) + 1) * sizeof **s.run);
    }
    s.aux = xmalloc((most + 2) * sizeof *s.aux);
    size_t *ord = xmalloc((n ? n : 1) * sizeof *ord);
    int sorted = 1; /* callers often pass jobs in queue order already */
    for (size_t i = 0; i < n; i++) {
        out->start[i] = out->end[i] = SIM_NEVER;
        out->pool[i] = -1;
        ord[i] = i;
        if (i > 0 && sorted)
            sorted = jobs[i - 1].cluster < jobs[i].cluster ||
                     (jobs[i - 1].cluster == jobs[i].cluster && jobs[i - 1].submit <= jobs[i].submit);
    }
    if (!sorted) {
        Key *k = xmalloc((n ? n : 1) * sizeof *k);
        for (size_t i = 0; i < n; i++)
            k[i] = (Key){jobs[i].cluster, jobs[i].submit, i};
        qsort(k, n, sizeof *k, key_cmp);
        for (size_t i = 0; i < n; i++)
            ord[i] = k[i].i;
        free(k);
    }
    for (size_t a = 0; a < n;) {
        size_t b = a;
        int32_t cl = jobs[ord[a]].cluster;
        while (b < n && jobs[ord[b]].cluster == cl)
            b++;
        cluster_pools(&s, np, cl);
        run_cluster(&s, ord + a, b - a);
        a = b;
    }
    free(ord);
    for (size_t p = 0; p < np; p++)
        free(s.run[p]);
    free(s.run);
    free(s.nrun);
    free(s.free_u);
    free(s.cp);
    free(s.qnext);
    free(s.hpos);
    free(s.aux);
    free(s.qprev);
    free(s.est_end);
    free(s.ends.t);
    free(s.ends.j);
    free(s.gqhead);
    free(s.gqtail);
    free(s.gcur);
    free(s.gheap);
    free(s.done);
    free(s.run_base);
    free(s.rank);
    free(s.run_units);
    free(s.ended);
}

void sim_out_free(SimOut *out)
{
    free(out->start);
    free(out->end);
    free(out->pool);
    memset(out, 0, sizeof *out);
}
