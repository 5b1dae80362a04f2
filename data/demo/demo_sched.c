/* demo_sched: a queue simulation per GPU pool (one GPU model on one
 * cluster), so that start times, waits and preemptions follow the load.
 *
 * The model is a small Slurm: GPUs are one pool per model (node packing
 * is ignored); pending jobs are ordered by partition tier (interactive,
 * gpu, preempt) then submission; each scheduling pass looks at the first
 * 100 pending jobs (Slurm's default_queue_depth); the first job that does
 * not fit may preempt jobs of the preempt partition (newest first), which
 * are requeued (a new attempt of the same job id, submitted at the
 * preemption, eligible two minutes later as Slurm's requeue shows) and are
 * never preempted more than three times; otherwise it reserves the GPUs
 * it needs and later jobs are backfilled only if they end before that
 * reservation or fit beside it (EASY backfill, with the true run times:
 * real Slurm uses the time limits, so real backfill is less efficient).
 * Capacity follows the dated inventory. CPU-only jobs need no GPU and
 * start after a short scheduling delay.
 *
 * Then: sampling (below the default size only the kept submissions are
 * written), Slurm job ids per cluster in submission order (array tasks
 * take consecutive ids, the last task the array's own id, as Slurm shows
 * it), and w->order, the written jobs (those that started) by cluster and
 * submission. */
#include <stdlib.h>
#include <string.h>

#include "data/demo/demo_model.h"

#define QUEUE_DEPTH 100
#define MAX_PREEMPTIONS 3
#define REQUEUE_DELAY 120

typedef struct HeapEnt {
    int64_t t;
    int32_t job;
    int32_t serial;
} HeapEnt;

typedef struct Heap {
    HeapEnt *a;
    size_t n, cap;
} Heap;

static int ent_less(const HeapEnt *x, const HeapEnt *y)
{
    return x->t < y->t || (x->t == y->t && x->job < y->job);
}

static void heap_push(Heap *h, int64_t t, int32_t job, int32_t serial)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 1024;
        h->a = xrealloc(h->a, h->cap * sizeof *h->a);
    }
    size_t i = h->n++;
    HeapEnt e = {t, job, serial};
    while (i > 0 && ent_less(&e, &h->a[(i - 1) / 2])) {
        h->a[i] = h->a[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->a[i] = e;
}

static HeapEnt heap_pop(Heap *h)
{
    HeapEnt top = h->a[0], last = h->a[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && ent_less(&h->a[c + 1], &h->a[c]))
            c++;
        if (!ent_less(&h->a[c], &last))
            break;
        h->a[i] = h->a[c];
        i = c;
    }
    if (h->n)
        h->a[i] = last;
    return top;
}

/* Per-job simulation state (indexed by job) and one pool's state. */
typedef struct Sim {
    DemoWorld *w;
    int32_t *qnext, *qprev;   /* pending FIFO per tier */
    int32_t *pnext, *pprev;   /* running preemptible jobs */
    uint8_t *running, *inplist;
    int32_t *serial;          /* attempts so far, minus one */
    int64_t *cur_submit, *cur_elig;
    int32_t *last_att;
    /* the pool being simulated */
    int pool, step, cap, used;
    int32_t qhead[DEMO_PART_COUNT], qtail[DEMO_PART_COUNT];
    int32_t phead, ptail;
    Heap run, delayed;
    int32_t *aux;             /* shadow-time traversal of run */
    size_t auxcap;
} Sim;

static void list_append(int32_t *head, int32_t *tail, int32_t *next, int32_t *prev, int32_t j)
{
    next[j] = -1;
    prev[j] = *tail;
    if (*tail >= 0)
        next[*tail] = j;
    else
        *head = j;
    *tail = j;
}

static void list_unlink(int32_t *head, int32_t *tail, int32_t *next, int32_t *prev, int32_t j)
{
    if (prev[j] >= 0)
        next[prev[j]] = next[j];
    else
        *head = next[j];
    if (next[j] >= 0)
        prev[next[j]] = prev[j];
    else
        *tail = prev[j];
}

static void enqueue(Sim *s, int32_t j)
{
    int tier = s->w->jobs[j].part;
    list_append(&s->qhead[tier], &s->qtail[tier], s->qnext, s->qprev, j);
}

static void start_job(Sim *s, int32_t j, int64_t t)
{
    DemoJob *job = &s->w->jobs[j];
    list_unlink(&s->qhead[job->part], &s->qtail[job->part], s->qnext, s->qprev, j);
    s->running[j] = 1;
    job->start = t;
    job->end = t + job->dur;
    heap_push(&s->run, job->end, j, s->serial[j]);
    s->used += job->gpus;
    if (job->part == DEMO_PART_PREEMPT && s->serial[j] < MAX_PREEMPTIONS) {
        list_append(&s->phead, &s->ptail, s->pnext, s->pprev, j);
        s->inplist[j] = 1;
    }
}

static void stop_job(Sim *s, int32_t j)
{
    s->running[j] = 0;
    s->used -= s->w->jobs[j].gpus;
    if (s->inplist[j]) {
        list_unlink(&s->phead, &s->ptail, s->pnext, s->pprev, j);
        s->inplist[j] = 0;
    }
}

static int stale(const Sim *s, const HeapEnt *e)
{
    return !s->running[e->job] || s->serial[e->job] != e->serial;
}

static void record_attempt(Sim *s, int32_t j, int64_t t)
{
    DemoWorld *w = s->w;
    if (w->natt == w->capatt) {
        w->capatt = w->capatt ? w->capatt * 2 : 4096;
        w->att = xrealloc(w->att, w->capatt * sizeof *w->att);
    }
    int32_t a = (int32_t)w->natt++;
    DemoAttempt *at = &w->att[a];
    at->submit = s->cur_submit[j];
    at->eligible = s->cur_elig[j];
    at->start = w->jobs[j].start;
    at->end = t;
    at->job = j;
    at->next = -1;
    if (s->last_att[j] >= 0)
        w->att[s->last_att[j]].next = a;
    else
        w->jobs[j].first_att = a;
    s->last_att[j] = a;
}

/* Preempt job j at t: its attempt ends PREEMPTED, and it is requeued. */
static void preempt(Sim *s, int32_t j, int64_t t)
{
    record_attempt(s, j, t);
    stop_job(s, j);
    s->serial[j]++;
    s->cur_submit[j] = t;
    s->cur_elig[j] = t + REQUEUE_DELAY + j % 5;
    s->w->jobs[j].start = DEMO_NEVER;
    heap_push(&s->delayed, s->cur_elig[j], j, s->serial[j]);
}

/* Free need GPUs by preempting preemptible jobs, newest first; 0 (and
 * nothing preempted) when they are not enough. */
static int preempt_for(Sim *s, int64_t t, int need)
{
    int sum = 0;
    for (int32_t k = s->phead; k >= 0; k = s->pnext[k])
        sum += s->w->jobs[k].gpus;
    if (sum < need)
        return 0;
    int freed = 0;
    for (int32_t k = s->ptail; k >= 0 && freed < need;) {
        int32_t prev = s->pprev[k];
        freed += s->w->jobs[k].gpus;
        preempt(s, k, t);
        k = prev;
    }
    return 1;
}

static int aux_less(const Sim *s, int32_t a, int32_t b)
{
    return ent_less(&s->run.a[a], &s->run.a[b]);
}

static void aux_push(Sim *s, size_t *n, int32_t v)
{
    if (*n == s->auxcap) {
        s->auxcap = s->auxcap ? s->auxcap * 2 : 256;
        s->aux = xrealloc(s->aux, s->auxcap * sizeof *s->aux);
    }
    size_t i = (*n)++;
    while (i > 0 && aux_less(s, v, s->aux[(i - 1) / 2])) {
        s->aux[i] = s->aux[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->aux[i] = v;
}

static int32_t aux_pop(Sim *s, size_t *n)
{
    int32_t top = s->aux[0], last = s->aux[--*n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && aux_less(s, s->aux[c + 1], s->aux[c]))
            c++;
        if (!aux_less(s, s->aux[c], last))
            break;
        s->aux[i] = s->aux[c];
        i = c;
    }
    if (*n)
        s->aux[i] = last;
    return top;
}

/* When the blocked job (need GPUs, free now) can start: walk the running
 * jobs in order of their end. extra: GPUs left over at that time. */
static void shadow_of(Sim *s, int64_t t, int need, int free, int64_t *shadow, int *extra)
{
    size_t n = 0;
    int acc = free;
    *shadow = t;
    *extra = -1;
    if (s->run.n)
        aux_push(s, &n, 0);
    while (n) {
        int32_t i = aux_pop(s, &n);
        const HeapEnt *e = &s->run.a[i];
        if (!stale(s, e)) {
            acc += s->w->jobs[e->job].gpus;
            if (acc >= need) {
                *shadow = e->t;
                *extra = acc - need;
                return;
            }
        }
        if ((size_t)(2 * i + 1) < s->run.n)
            aux_push(s, &n, 2 * i + 1);
        if ((size_t)(2 * i + 2) < s->run.n)
            aux_push(s, &n, 2 * i + 2);
    }
}

typedef struct Pass {
    int64_t t, shadow;
    int free, extra, blocked;
} Pass;

/* Try to start pending job j (of tier tier) in this pass. */
static void consider(Sim *s, Pass *p, int32_t j, int tier)
{
    const DemoJob *job = &s->w->jobs[j];
    int g = job->gpus;
    if (g > s->cap)
        return; /* cannot run on what is left: stays pending */
    if (!p->blocked) {
        if (g <= p->free) {
            start_job(s, j, p->t);
            p->free -= g;
        } else if (tier > DEMO_PART_PREEMPT && preempt_for(s, p->t, g - p->free)) {
            start_job(s, j, p->t);
            p->free = s->cap - s->used;
        } else {
            p->blocked = 1;
            shadow_of(s, p->t, g, p->free, &p->shadow, &p->extra);
        }
        return;
    }
    int ends_before = p->t + job->dur <= p->shadow;
    if (g <= p->free && (ends_before || g <= p->extra)) {
        start_job(s, j, p->t);
        p->free -= g;
        if (!ends_before)
            p->extra -= g;
    }
}

static void schedule(Sim *s, int64_t t)
{
    Pass p = {t, 0, s->cap - s->used, 0, 0};
    if (p.free <= 0 && s->phead < 0)
        return;
    int depth = 0;
    for (int tier = DEMO_PART_COUNT - 1; tier >= 0; tier--) {
        for (int32_t j = s->qhead[tier]; j >= 0 && depth < QUEUE_DEPTH; depth++) {
            int32_t next = s->qnext[j];
            consider(s, &p, j, tier);
            if (p.blocked && p.free <= 0)
                return;
            j = next;
        }
    }
}

/* The earliest pending event of the pool; INT64_MAX when none. */
static int64_t next_event(Sim *s, const int32_t *arr, size_t narr, size_t ai)
{
    const DemoPool *pl = &s->w->pools[s->pool];
    int64_t t = INT64_MAX;
    if (ai < narr)
        t = s->w->jobs[arr[ai]].submit;
    if (s->delayed.n && s->delayed.a[0].t < t)
        t = s->delayed.a[0].t;
    while (s->run.n && stale(s, &s->run.a[0]))
        heap_pop(&s->run);
    if (s->run.n && s->run.a[0].t < t)
        t = s->run.a[0].t;
    if (s->step < pl->nsteps && pl->from[s->step] < t)
        t = pl->from[s->step];
    return t;
}

static void process_events(Sim *s, int64_t t, const int32_t *arr, size_t narr, size_t *ai)
{
    const DemoPool *pl = &s->w->pools[s->pool];
    while (s->run.n && s->run.a[0].t <= t) {
        HeapEnt e = heap_pop(&s->run);
        if (!stale(s, &e))
            stop_job(s, e.job);
    }
    while (s->step < pl->nsteps && pl->from[s->step] <= t)
        s->cap = pl->gpus[s->step++];
    while (s->delayed.n && s->delayed.a[0].t <= t)
        enqueue(s, heap_pop(&s->delayed).job);
    while (*ai < narr && s->w->jobs[arr[*ai]].submit <= t)
        enqueue(s, arr[(*ai)++]);
}

static void simulate_pool(Sim *s, int pool, const int32_t *arr, size_t narr)
{
    s->pool = pool;
    s->step = s->cap = s->used = 0;
    for (int k = 0; k < DEMO_PART_COUNT; k++)
        s->qhead[k] = s->qtail[k] = -1;
    s->phead = s->ptail = -1;
    s->run.n = s->delayed.n = 0;
    size_t ai = 0;
    for (;;) {
        int64_t t = next_event(s, arr, narr, ai);
        if (t == INT64_MAX || t >= s->w->today)
            break;
        process_events(s, t, arr, narr, &ai);
        schedule(s, t);
    }
}

/* ---- ordering helpers ---- */

static const DemoJob *sort_jobs;
static const DemoPool *sort_pools;

static int by_pool_submit(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    const DemoJob *jx = &sort_jobs[x], *jy = &sort_jobs[y];
    if (jx->pool != jy->pool)
        return jx->pool < jy->pool ? -1 : 1;
    if (jx->submit != jy->submit)
        return jx->submit < jy->submit ? -1 : 1;
    return x < y ? -1 : x > y;
}

static int by_cluster_submit(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    const DemoJob *jx = &sort_jobs[x], *jy = &sort_jobs[y];
    int cx = sort_pools[jx->pool].cluster, cy = sort_pools[jy->pool].cluster;
    if (cx != cy)
        return cx < cy ? -1 : 1;
    if (jx->submit != jy->submit)
        return jx->submit < jy->submit ? -1 : 1;
    return x < y ? -1 : x > y;
}

static void sim_alloc(Sim *s, DemoWorld *w)
{
    size_t n = w->njobs ? w->njobs : 1;
    memset(s, 0, sizeof *s);
    s->w = w;
    s->qnext = xmalloc(n * sizeof *s->qnext);
    s->qprev = xmalloc(n * sizeof *s->qprev);
    s->pnext = xmalloc(n * sizeof *s->pnext);
    s->pprev = xmalloc(n * sizeof *s->pprev);
    s->running = xcalloc(n, 1);
    s->inplist = xcalloc(n, 1);
    s->serial = xcalloc(n, sizeof *s->serial);
    s->cur_submit = xmalloc(n * sizeof *s->cur_submit);
    s->cur_elig = xmalloc(n * sizeof *s->cur_elig);
    s->last_att = xmalloc(n * sizeof *s->last_att);
    for (size_t j = 0; j < w->njobs; j++) {
        s->cur_submit[j] = s->cur_elig[j] = w->jobs[j].submit;
        s->last_att[j] = -1;
    }
}

static void sim_free(Sim *s)
{
    free(s->qnext);
    free(s->qprev);
    free(s->pnext);
    free(s->pprev);
    free(s->running);
    free(s->inplist);
    free(s->serial);
    free(s->cur_submit);
    free(s->cur_elig);
    free(s->last_att);
    free(s->run.a);
    free(s->delayed.a);
    free(s->aux);
}

/* CPU-only jobs: no GPU to wait for, a scheduling delay of about 20 s. */
static void start_cpu_jobs(DemoWorld *w)
{
    DemoRng r;
    demo_rng_seed(&r, w->o->seed, 7);
    for (size_t j = 0; j < w->njobs; j++) {
        DemoJob *job = &w->jobs[j];
        if (job->gpus)
            continue;
        double d = demo_rng_lognormal(&r, 20, 1.0);
        int64_t st = job->submit + (int64_t)(d > 900 ? 900 : d);
        if (st < w->today) {
            job->start = st;
            job->end = st + job->dur;
        }
    }
}

static void simulate(DemoWorld *w)
{
    size_t n = 0;
    int32_t *idx = xmalloc((w->njobs ? w->njobs : 1) * sizeof *idx);
    for (size_t j = 0; j < w->njobs; j++)
        if (w->jobs[j].gpus)
            idx[n++] = (int32_t)j;
    sort_jobs = w->jobs;
    qsort(idx, n, sizeof *idx, by_pool_submit);
    Sim s;
    sim_alloc(&s, w);
    for (size_t lo = 0; lo < n;) {
        size_t hi = lo;
        int pool = w->jobs[idx[lo]].pool;
        while (hi < n && w->jobs[idx[hi]].pool == pool)
            hi++;
        simulate_pool(&s, pool, idx + lo, hi - lo);
        lo = hi;
    }
    for (size_t j = 0; j < w->njobs; j++) {
        w->jobs[j].nattempts = (uint8_t)(s.serial[j] + 1);
        w->jobs[j].fsubmit = s.cur_submit[j];
        w->jobs[j].feligible = s.cur_elig[j];
    }
    sim_free(&s);
    free(idx);
    start_cpu_jobs(w);
}

/* Slurm ids per cluster, in submission order. */
static void assign_ids(DemoWorld *w)
{
    int64_t next[DEMO_NCLUSTERS];
    for (int c = 0; c < DEMO_NCLUSTERS; c++)
        next[c] = w->clusters[c].id_base;
    int64_t base = 0;
    for (size_t i = 0; i < w->norder; i++) {
        DemoJob *j = &w->jobs[w->order[i]];
        int c = w->pools[j->pool].cluster;
        if (!j->array_n) {
            j->job_raw = next[c]++;
            continue;
        }
        if (j->array_task == 0) {
            base = next[c];
            next[c] += j->array_n;
        }
        j->array_job = base;
        j->job_raw = j->array_task == j->array_n - 1 ? base : base + 1 + j->array_task;
    }
}

/* Jobs still pending today are not in the accounting (sacct -S lists
 * jobs that ran); a requeued job whose last attempt is still pending goes
 * with them, so that every written PREEMPTED attempt has its successor.
 * Ids were assigned before, as Slurm had assigned them. */
static void drop_unstarted(DemoWorld *w)
{
    size_t n = 0;
    for (size_t i = 0; i < w->norder; i++)
        if (w->jobs[w->order[i]].start != DEMO_NEVER)
            w->order[n++] = w->order[i];
    w->norder = n;
}

static void count_preempted(DemoWorld *w)
{
    w->preempted = 0;
    for (size_t i = 0; i < w->norder; i++)
        w->preempted += w->jobs[w->order[i]].nattempts - 1;
}

void demo_schedule(DemoWorld *w)
{
    simulate(w);
    w->order = xmalloc((w->njobs ? w->njobs : 1) * sizeof *w->order);
    w->norder = 0;
    for (size_t j = 0; j < w->njobs; j++)
        if (w->jobs[j].keep)
            w->order[w->norder++] = (int32_t)j;
    sort_jobs = w->jobs;
    sort_pools = w->pools;
    qsort(w->order, w->norder, sizeof *w->order, by_cluster_submit);
    assign_ids(w);
    drop_unstarted(w);
    count_preempted(w);
}
