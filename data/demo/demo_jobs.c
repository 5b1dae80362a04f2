/* demo_jobs: what every member submits. For each member and calendar
 * month of their stay, the number of submissions in each pattern is
 * Poisson with a mean set by the pattern, the member's intensity, the
 * season, and where they are in their stay; each submission is one job or
 * an array (HPO bursts, training seeds, CPU arrays) placed in a GPU pool.
 * Durations are log-normal (heavy-tailed) and cut by the time limit, which
 * makes the TIMEOUTs; failures, cancellations and out-of-memory kills are
 * drawn per job. A first pass sums the expected jobs so that the total
 * comes out at the size asked for. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/demo/demo_model.h"

/* Per pattern, in DemoPattern order.
 *
 * Durations: log-normal with the given median and log-sd. Public GPU
 * traces are heavy-tailed: in Microsoft's Philly trace
 * (shared/data/gpu-trace-philly-vc-titansched, 71,792 jobs) 1-GPU jobs have
 * a median of 15 min and a log-sd of 2.0, 8-GPU jobs a median of 6.5 h and
 * a p90 of 95 h; academic training runs are longer than Philly's many
 * debugging jobs, so single-GPU training is given 4 h and multi-GPU 16 h.
 *
 * GPU counts 0/1/2/4/8: chosen so that, summed over the patterns, jobs are
 * mostly 1-GPU as in Philly (1: 66,656  2: 1,623  4: 1,763  8: 1,481, i.e.
 * 93 % single-GPU) while multi-GPU jobs hold most GPU-hours (8-GPU jobs
 * are 48 % of Philly's GPU time).
 *
 * Outcomes: failed/cancelled/out-of-memory shares per pattern, close to
 * the real logs in shared/data (the Fox GPU cluster: 20 % FAILED; XDMoD's
 * log: 5 % CANCELLED, 1 % PREEMPTED); TIMEOUT is not drawn but follows
 * from durations beyond the time limit.
 *
 * Arrays: HPO bursts are always arrays (median 40 tasks, 8 to 300: a
 * sweep of a few dozen trials), 10 % of single-GPU submissions are 2-8
 * seeds, 20 % of CPU submissions are arrays of 2-100 tasks.
 *
 * Submissions per active month (before the global scale that hits the
 * size asked for) only set the patterns' relative frequency. */
typedef struct PatSpec {
    double events;          /* submissions per month at full share */
    double dur_h, dur_sigma;
    int limit_h[3];         /* the time limits users pick */
    double p_fail, p_cancel, p_oom;
    double p_preempt;       /* share sent to the preemptible partition */
    double p_array, arr_median, arr_sigma;
    int arr_min, arr_max;
    double gpu_w[5];        /* weights of 0, 1, 2, 4, 8 GPUs */
} PatSpec;

static const PatSpec pat_specs[DEMO_PAT_COUNT] = {
    /* interactive */
    {10, 1.5, 1.0, {2, 4, 8}, 0.03, 0.30, 0.005, 0, 0, 0, 0, 1, 1, {0, 0.97, 0.03, 0, 0}},
    /* single-gpu */
    {12, 4.0, 1.5, {12, 24, 48}, 0.10, 0.06, 0.01, 0.15, 0.10, 4, 0.3, 2, 8,
     {0, 0.9, 0.1, 0, 0}},
    /* multi-gpu */
    {4.5, 16.0, 1.4, {48, 72, 168}, 0.08, 0.06, 0.01, 0, 0, 0, 0, 1, 1, {0, 0, 0.15, 0.40, 0.45}},
    /* large-memory */
    {6, 10.0, 1.4, {24, 48, 72}, 0.12, 0.06, 0.03, 0, 0, 0, 0, 1, 1, {0, 0.40, 0.30, 0.30, 0}},
    /* hpo-burst */
    {1.2, 0.33, 0.9, {1, 2, 4}, 0.06, 0.08, 0.005, 0.75, 1.0, 40, 0.6, 8, 300, {0, 1, 0, 0, 0}},
    /* cpu-only */
    {5, 2.0, 1.3, {6, 12, 24}, 0.07, 0.04, 0.02, 0.20, 0.20, 10, 0.6, 2, 100, {1, 0, 0, 0, 0}},
};

static const int gpu_counts[5] = {0, 1, 2, 4, 8};

/* Month-of-year activity. ML, vision and language groups follow the
 * conference deadlines (NeurIPS in May, CVPR/ICLR in the autumn); every
 * field slows down in August and at the end of December. */
static const double season_ml[12] = {1.0, 1.05, 1.1, 1.25, 1.35, 0.95,
                                     0.85, 0.7, 1.0, 1.15, 1.25, 0.75};
static const double season_other[12] = {1.0, 1.0, 1.05, 1.05, 1.05, 1.0,
                                        0.85, 0.7, 1.0, 1.05, 1.05, 0.75};

/* Submission hour-of-day weights (UTC = local here): office hours, with
 * evenings for launching long runs. Weekends: 35 % of a weekday. */
static const double hour_w[24] = {0.3, 0.2, 0.15, 0.1, 0.1, 0.1, 0.2, 0.4, 0.8, 1.2, 1.5, 1.5,
                                  1.2, 1.3, 1.5, 1.5, 1.4, 1.2, 1.0, 0.9, 0.9, 0.8, 0.6, 0.4};

#define PREEMPT_MAX_LIMIT (48 * DEMO_HOUR)
#define INTERACTIVE_MAX_LIMIT (8 * DEMO_HOUR)

static double jobs_per_event(const PatSpec *s)
{
    if (s->p_array <= 0)
        return 1.0;
    double mean = s->arr_median * exp(s->arr_sigma * s->arr_sigma / 2);
    return 1.0 + s->p_array * (mean - 1.0);
}

/* Share of a member's submissions in pattern pat, months_in months into
 * their stay: newcomers spend their first three months mostly in notebooks. */
static double pattern_share(const DemoPerson *p, int pat, int months_in)
{
    double s = pat == p->pat ? 1.0 - p->share2 : pat == p->pat2 ? p->share2 : 0.0;
    if (months_in < 3) {
        s *= 0.4;
        if (pat == DEMO_PAT_INTERACTIVE)
            s += 0.6;
    }
    return s;
}

/* Activity multiplier of a member at time t: ramp-up over the first
 * months, half activity in a PhD's last five months (writing). */
static double stay_factor(const DemoPerson *p, int64_t t)
{
    double f = 1.0;
    int64_t in = t - p->start;
    if (in < 60 * DEMO_DAY)
        f = 0.4;
    else if (in < 150 * DEMO_DAY)
        f = 0.75;
    if (p->role == DEMO_ROLE_PHD && p->end != DEMO_NEVER && p->end - t < 150 * DEMO_DAY)
        f *= 0.5;
    return f;
}

typedef struct Segment {
    int64_t lo, hi;  /* [lo, hi), whole days */
    double frac;     /* of the calendar month */
    int months_in;   /* months since the member arrived */
    double season;
} Segment;

/* Month k of the history for member p; 0 when they are not there. */
static int segment(const DemoWorld *w, const DemoPerson *p, int k, Segment *s)
{
    int64_t ms = w->month[k], me = w->month[k + 1];
    s->lo = ms > p->start ? ms : p->start;
    if (s->lo < w->t0)
        s->lo = w->t0;
    s->hi = me < w->today ? me : w->today;
    if (p->end != DEMO_NEVER && p->end < s->hi)
        s->hi = p->end;
    if (s->hi <= s->lo)
        return 0;
    s->frac = (double)(s->hi - s->lo) / (double)(me - ms);
    s->months_in = (int)((s->lo - p->start) / (30 * DEMO_DAY));
    int y, m, d;
    demo_ymd(ms, &y, &m, &d);
    s->season = demo_domains[w->groups[p->group].domain].ml_calendar ? season_ml[m - 1]
                                                                     : season_other[m - 1];
    return 1;
}

/* Mean submissions of member p in pattern pat over segment s. */
static double event_rate(const DemoPerson *p, int pat, const Segment *s)
{
    return pat_specs[pat].events * pattern_share(p, pat, s->months_in) * p->intensity *
           s->frac * s->season * stay_factor(p, s->lo);
}

static double expected_jobs(const DemoWorld *w)
{
    double total = 0;
    for (int i = 0; i < w->npeople; i++) {
        const DemoPerson *p = &w->people[i];
        for (int k = 0; k < w->nmonths; k++) {
            Segment s;
            if (!segment(w, p, k, &s))
                continue;
            for (int pat = 0; pat < DEMO_PAT_COUNT; pat++)
                total += event_rate(p, pat, &s) * jobs_per_event(&pat_specs[pat]);
        }
    }
    return total;
}

/* ---- one submission ---- */

/* 0 = Sunday (t >= 0; 1970-01-01 was a Thursday). */
static int weekday(int64_t t)
{
    return (int)((t / DEMO_DAY + 4) % 7);
}

static int64_t submit_time(DemoRng *r, const Segment *s)
{
    int64_t days = (s->hi - s->lo) / DEMO_DAY, day = 0;
    for (int tries = 0; tries < 8; tries++) {
        day = s->lo + demo_rng_below(r, days) * DEMO_DAY;
        int wd = weekday(day);
        if ((wd != 0 && wd != 6) || demo_rng_bern(r, 0.35))
            break;
    }
    int h = demo_rng_pick(r, hour_w, 24);
    return day + h * DEMO_HOUR + demo_rng_below(r, DEMO_HOUR);
}

static DemoJob *new_job(DemoWorld *w)
{
    if (w->njobs == w->capjobs) {
        w->capjobs = w->capjobs ? w->capjobs * 2 : 65536;
        w->jobs = xrealloc(w->jobs, w->capjobs * sizeof *w->jobs);
    }
    DemoJob *j = &w->jobs[w->njobs++];
    memset(j, 0, sizeof *j);
    j->first_att = -1;
    j->start = DEMO_NEVER;
    return j;
}

/* Every group may use atlas and borealis; cirrus only its allocation holders. */
static int pool_cluster_ok(const DemoGroup *g, int cluster)
{
    return cluster != 2 || g->cirrus;
}

/* GPU-hours submitted so far to each pool in each month, against what the
 * pool can deliver: members look at the queues and go where there is room. */
typedef struct Load {
    double used[DEMO_NPOOLS][DEMO_YEARS * 12 + 2];
    double cap[DEMO_NPOOLS][DEMO_YEARS * 12 + 2];
    double carry[DEMO_NPOOLS][DEMO_YEARS * 12 + 2]; /* backlog from earlier months */
} Load;

static void load_init(const DemoWorld *w, Load *l)
{
    memset(l, 0, sizeof *l);
    for (int k = 0; k < w->nmonths; k++) {
        double hours = (double)(w->month[k + 1] - w->month[k]) / DEMO_HOUR;
        int64_t mid = w->month[k] + 15 * DEMO_DAY;
        for (int p = 0; p < DEMO_NPOOLS; p++)
            l->cap[p][k] = demo_pool_gpus(w, p, mid) * hours;
    }
}

/* At the start of month k: what the pools could not serve before. */
static void load_month(Load *l, int k)
{
    for (int p = 0; p < DEMO_NPOOLS && k > 0; p++) {
        double left = l->carry[p][k - 1] + l->used[p][k - 1] - l->cap[p][k - 1];
        l->carry[p][k] = left > 0 ? left : 0;
    }
}

/* Demand on pool p in month k as a share of what it can deliver. */
static double load_share(const Load *l, int p, int k)
{
    return l->cap[p][k] > 0 ? (l->carry[p][k] + l->used[p][k]) / l->cap[p][k] : 0;
}

/* Room left in pool p in month k, 0.0225..1: a full queue still gets some. */
static double load_room(const Load *l, int p, int k)
{
    double room = 1.0 - load_share(l, p, k);
    room = room < 0.15 ? 0.15 : room;
    return room * room;
}

/* Where a submission runs: pools that exist at t on clusters the group
 * may use, weighted by their size, three times more on the group's home
 * cluster, by the room left in their queue this month, less where the
 * memory does not fit (the work is then squeezed onto the smaller GPU),
 * and the national allocation's holders send their big work there. */
static int pick_pool(const DemoWorld *w, const Load *l, DemoRng *r, const DemoPerson *p, int pat,
                     int gpus, double need, int64_t t)
{
    const DemoGroup *g = &w->groups[p->group];
    int k = demo_month_of(w, t);
    double wt[DEMO_NPOOLS];
    for (int q = 0; q < DEMO_NPOOLS; q++) {
        const DemoPool *pl = &w->pools[q];
        int cap = demo_pool_gpus(w, q, t);
        wt[q] = 0;
        if (cap <= 0 || cap < gpus || !pool_cluster_ok(g, pl->cluster))
            continue;
        wt[q] = cap * (pl->cluster == g->home ? 3.0 : 1.0) * load_room(l, q, k);
        if (need > pl->mem_gib)
            wt[q] *= 0.3;
        if (pl->cluster == 2)
            wt[q] *= pat == DEMO_PAT_MULTI || pat == DEMO_PAT_BIGMEM ? 6.0 : 2.0;
    }
    int q = demo_rng_pick(r, wt, DEMO_NPOOLS);
    return q < 0 ? 0 : q;
}

/* Beyond what a pool can deliver, members give up some of their
 * submissions (they wait, go elsewhere, or do without): the drop rate
 * grows from 0 when the month's demand and the backlog reach 85 % of the
 * month's GPU-hours to 95 % at 105 %. This bounds the queues at days
 * rather than months; the waits, not the missing jobs, are the evidence
 * of unmet demand. */
static int discouraged(const DemoWorld *w, const Load *l, DemoRng *r, int pool, int64_t t)
{
    double over = load_share(l, pool, demo_month_of(w, t)) - 0.85;
    return over > 0 && demo_rng_bern(r, over > 0.2 ? 0.95 : over * 0.95 / 0.2);
}

static int pick_gpus(DemoRng *r, const DemoPerson *p, int pat)
{
    if ((pat == DEMO_PAT_MULTI || pat == DEMO_PAT_BIGMEM) && pat == p->pat &&
        demo_rng_bern(r, 0.8))
        return p->pref_gpus;
    return gpu_counts[demo_rng_pick(r, pat_specs[pat].gpu_w, 5)];
}

static int pick_part(const DemoWorld *w, DemoRng *r, int pat, int pool)
{
    if (!w->clusters[w->pools[pool].cluster].has_interactive)
        return DEMO_PART_GPU;
    if (pat == DEMO_PAT_INTERACTIVE)
        return DEMO_PART_INTERACTIVE;
    return demo_rng_bern(r, pat_specs[pat].p_preempt) ? DEMO_PART_PREEMPT : DEMO_PART_GPU;
}

static int pick_limit(DemoRng *r, const DemoPerson *p, int pat, int part)
{
    int c = demo_rng_bern(r, 0.85) ? p->limit_choice : (int)demo_rng_below(r, 3);
    int64_t lim = (int64_t)pat_specs[pat].limit_h[c] * DEMO_HOUR;
    if (part == DEMO_PART_PREEMPT && lim > PREEMPT_MAX_LIMIT)
        lim = PREEMPT_MAX_LIMIT;
    if (part == DEMO_PART_INTERACTIVE && lim > INTERACTIVE_MAX_LIMIT)
        lim = INTERACTIVE_MAX_LIMIT;
    return (int)lim;
}

static int pick_name(DemoRng *r, const DemoPerson *p, int pat)
{
    if (demo_rng_bern(r, 1.0 / 4000))
        return demo_name_start[DEMO_PAT_COUNT] +
               (int)demo_rng_below(r, demo_njob_names - demo_name_start[DEMO_PAT_COUNT]);
    if (pat == p->pat)
        return p->names[demo_rng_bern(r, 0.5)];
    if (pat == p->pat2)
        return p->names[2];
    return demo_name_start[pat];
}

static int array_size(DemoRng *r, int pat)
{
    const PatSpec *s = &pat_specs[pat];
    if (s->p_array <= 0 || !demo_rng_bern(r, s->p_array))
        return 0;
    int n = (int)lround(demo_rng_lognormal(r, s->arr_median, s->arr_sigma));
    return n < s->arr_min ? s->arr_min : n > s->arr_max ? s->arr_max : n;
}

/* What a submission's tasks share. */
typedef struct Submission {
    int person, pat, pool, part, gpus, limit, name, ncpus, typed, srun, keep;
    int array_n;
    double hold;     /* duration scale of notebooks kept open (idle holders) */
    int64_t submit;
    double need;     /* GPU memory the work wants (GiB) */
    double mem_cap;  /* GPU memory it can have */
} Submission;

/* Memory: the work needs about the member's typical peak; on a GPU too
 * small for it (rarely chosen: see pick_pool) it is squeezed into the
 * memory there is (smaller batches, checkpointing). Requests for more
 * than 48 GiB name the GPU type. */
static void fit_memory(const DemoWorld *w, DemoRng *r, const DemoPerson *p, Submission *s)
{
    const DemoPool *pl = &w->pools[s->pool];
    s->need = p->mem_gib[s->pat != p->pat] * demo_rng_range(r, 0.75, 1.05);
    if (s->pat == DEMO_PAT_CPU)
        s->need = 0;
    if (s->pat == DEMO_PAT_INTERACTIVE && s->need > 12)
        s->need = 12;
    s->mem_cap = pl->mem_gib;
    s->typed = s->need > 48 && pl->mem_gib >= s->need;
}

static void outcome(DemoRng *r, const PatSpec *ps, DemoJob *j, double d)
{
    double u = demo_rng_unif(r);
    j->outcome = DEMO_OUT_COMPLETED;
    if (d > j->limit) {
        j->outcome = DEMO_OUT_TIMEOUT;
        d = j->limit + (double)demo_rng_below(r, 60); /* killed a little late */
    } else if (u < ps->p_fail) {
        static const double code_w[] = {0.6, 0.2, 0.1, 0.1};
        static const uint8_t codes[] = {1, 2, 127, 137};
        j->outcome = DEMO_OUT_FAILED;
        j->exit_code = codes[demo_rng_pick(r, code_w, 4)];
        double f = demo_rng_unif(r);
        d *= f * f; /* most failures come early */
    } else if (u < ps->p_fail + ps->p_cancel) {
        j->outcome = DEMO_OUT_CANCELLED;
        d *= demo_rng_unif(r);
    } else if (u < ps->p_fail + ps->p_cancel + ps->p_oom) {
        j->outcome = DEMO_OUT_OOM;
        d *= demo_rng_unif(r);
    } else if (u < ps->p_fail + ps->p_cancel + ps->p_oom + 0.002) {
        j->outcome = DEMO_OUT_NODE_FAIL;
        d *= demo_rng_unif(r);
    }
    j->dur = d < 5 ? 5 : (int32_t)d;
}

static double clampf(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static void make_task(DemoWorld *w, DemoRng *r, const DemoPerson *p, const Submission *s,
                      int task)
{
    const PatSpec *ps = &pat_specs[s->pat];
    DemoJob *j = new_job(w);
    j->submit = s->submit;
    j->person = s->person;
    j->pattern = (uint8_t)s->pat;
    j->pool = (uint8_t)s->pool;
    j->part = (uint8_t)s->part;
    j->gpus = (uint8_t)s->gpus;
    j->limit = s->limit;
    j->name = (uint16_t)s->name;
    j->ncpus = (uint16_t)s->ncpus;
    j->typed = (uint8_t)s->typed;
    j->srun = (uint8_t)s->srun;
    j->keep = (uint8_t)s->keep;
    j->array_n = (uint16_t)s->array_n;
    j->array_task = (uint16_t)task;
    outcome(r, ps, j,
            demo_rng_lognormal(r, ps->dur_h * DEMO_HOUR * p->dur_scale * s->hold, ps->dur_sigma));
    if (s->gpus > 0) {
        double m = s->need > s->mem_cap ? s->mem_cap * demo_rng_range(r, 0.92, 0.985)
                                        : s->need * demo_rng_range(r, 0.9, 1.0);
        j->gpu_mem = (float)clampf(m, 0.3, s->mem_cap);
        j->gpu_util = (float)clampf(p->util[s->pat != p->pat] * demo_rng_range(r, 0.85, 1.1),
                                    0.5, 100);
    }
    j->cpu_eff = (float)(s->pat == DEMO_PAT_CPU           ? demo_rng_range(r, 0.5, 0.97)
                         : s->pat == DEMO_PAT_INTERACTIVE ? demo_rng_range(r, 0.01, 0.1)
                                                          : demo_rng_range(r, 0.05, 0.35));
    j->mem_req_gib = (float)(s->ncpus * p->mem_per_cpu_gib);
    j->rss_frac = (float)(j->outcome == DEMO_OUT_OOM ? 1.0 : demo_rng_range(r, 0.1, 0.85));
}

static int pick_ncpus(DemoRng *r, const DemoPerson *p, int pat, int gpus)
{
    static const int cpu_only[] = {8, 16, 32, 48};
    if (pat == DEMO_PAT_CPU)
        return cpu_only[demo_rng_below(r, 4)];
    if (pat == DEMO_PAT_INTERACTIVE)
        return p->cpus_per_gpu > 8 ? 8 : p->cpus_per_gpu;
    return gpus * p->cpus_per_gpu;
}

static void submission(DemoWorld *w, Load *l, DemoRng *r, DemoRng *rk, int pi, int pat,
                       int64_t t)
{
    const DemoPerson *p = &w->people[pi];
    Submission s;
    memset(&s, 0, sizeof s);
    s.hold = 1.0;
    s.person = pi;
    s.pat = pat;
    s.submit = t;
    s.keep = demo_rng_bern(rk, w->keep_p);
    s.gpus = pick_gpus(r, p, pat);
    s.pool = pick_pool(w, l, r, p, pat, s.gpus, p->mem_gib[pat != p->pat], t);
    if (s.gpus && discouraged(w, l, r, s.pool, t))
        return;
    fit_memory(w, r, p, &s);
    s.part = pick_part(w, r, pat, s.pool);
    s.limit = pick_limit(r, p, pat, s.part);
    if (p->idle && pat == DEMO_PAT_INTERACTIVE) { /* a notebook kept for a day or two */
        s.hold = 6.0;
        s.part = DEMO_PART_GPU;
        s.limit = (demo_rng_bern(r, 0.5) ? 24 : 48) * DEMO_HOUR;
    }
    s.name = pick_name(r, p, pat);
    const char *nm = demo_job_names[s.name];
    s.srun = pat == DEMO_PAT_INTERACTIVE && (strcmp(nm, "bash") == 0 ||
                                             strcmp(nm, "interactive") == 0);
    s.ncpus = pick_ncpus(r, p, pat, s.gpus);
    s.array_n = array_size(r, pat);
    int n = s.array_n ? s.array_n : 1;
    for (int k = 0; k < n; k++) {
        make_task(w, r, p, &s, k);
        const DemoJob *j = &w->jobs[w->njobs - 1];
        l->used[s.pool][demo_month_of(w, t)] += (double)j->gpus * j->dur / DEMO_HOUR;
    }
}

/* One month of member pi's submissions. */
static void person_month(DemoWorld *w, Load *l, DemoRng *r, DemoRng *rk, int pi, int k)
{
    const DemoPerson *p = &w->people[pi];
    Segment s;
    if (!segment(w, p, k, &s))
        return;
    for (int pat = 0; pat < DEMO_PAT_COUNT; pat++) {
        int n = demo_rng_poisson(r, event_rate(p, pat, &s) * w->rate_mult);
        for (int e = 0; e < n; e++)
            submission(w, l, r, rk, pi, pat, submit_time(r, &s));
    }
}

static void shuffle(DemoRng *r, int *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)demo_rng_below(r, i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* Month by month, members in a shuffled order (so that nobody always
 * finds the queues empty); each member draws from their own streams. */
void demo_jobs_generate(DemoWorld *w)
{
    double expected = expected_jobs(w);
    w->rate_mult = expected > 0 ? w->target_full / expected : 1.0;
    int n = w->npeople;
    DemoRng *r = xmalloc((size_t)(n ? n : 1) * 2 * sizeof *r), order_rng;
    int *order = xmalloc((size_t)(n ? n : 1) * sizeof *order);
    for (int i = 0; i < n; i++) {
        demo_rng_seed(&r[2 * i], w->o->seed, 1000 + (uint64_t)i);
        demo_rng_seed(&r[2 * i + 1], w->o->seed, 1000000 + (uint64_t)i);
        order[i] = i;
    }
    demo_rng_seed(&order_rng, w->o->seed, 3);
    Load *l = xmalloc(sizeof *l);
    load_init(w, l);
    for (int k = 0; k < w->nmonths; k++) {
        load_month(l, k);
        shuffle(&order_rng, order, n);
        for (int i = 0; i < n; i++)
            person_month(w, l, &r[2 * order[i]], &r[2 * order[i] + 1], order[i], k);
    }
    free(l);
    free(order);
    free(r);
}
