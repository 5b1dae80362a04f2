#include "core/features.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cp.h"

#define MIN_SPAN_S (30 * 86400)
#define BURST_LEVEL 0.5 /* a burst: above mean + 0.5 x (peak - mean) */

static const char *const feat_names[FEAT_COUNT] = {
    "gpus_p90", "mem_gib", "dur_mean_h", "dur_max_h", "gpu_hours_month", "conc_mean",
    "conc_peak",
};

const char *features_name(int f)
{
    return f >= 0 && f < FEAT_COUNT ? feat_names[f] : "?";
}

/* ---- quantiles ---- */

typedef struct VW {
    double v, w;
} VW;

static int cmp_vw(const void *a, const void *b)
{
    const VW *x = a, *y = b;
    return (x->v > y->v) - (x->v < y->v);
}

double features_weighted_quantile(double *v, double *w, int n, double q)
{
    VW *p = xmalloc((size_t)n * sizeof *p);
    double total = 0;
    for (int i = 0; i < n; i++) {
        p[i].v = v[i];
        p[i].w = w[i];
    }
    qsort(p, (size_t)n, sizeof *p, cmp_vw);
    for (int i = 0; i < n; i++) {
        v[i] = p[i].v;
        w[i] = p[i].w;
        total += w[i];
    }
    free(p);
    double target = q * total * (1 - 1e-12), acc = 0;
    for (int i = 0; i < n; i++) {
        acc += w[i];
        if (acc >= target && (i + 1 == n || v[i + 1] != v[i]))
            return v[i];
    }
    return v[n - 1];
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Put the k-th smallest of v[0..n) at v[k], smaller ones before it and
 * larger or equal ones after (a quickselect with a three-way partition:
 * curves hold long runs of equal values); sorts outright when the
 * partitions keep coming out lopsided. */
static void select_kth(double *v, int n, int k)
{
    int lo = 0, hi = n - 1, budget = 64;
    while (hi > lo) {
        if (--budget == 0) {
            qsort(v + lo, (size_t)(hi - lo + 1), sizeof *v, cmp_double);
            return;
        }
        double a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi];
        double pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
        int lt = lo, i = lo, gt = hi;
        while (i <= gt) {
            double x = v[i];
            if (x < pivot) {
                v[i++] = v[lt];
                v[lt++] = x;
            } else if (x > pivot) {
                v[i] = v[gt];
                v[gt--] = x;
            } else {
                i++;
            }
        }
        if (k < lt)
            hi = lt - 1;
        else if (k > gt)
            lo = gt + 1;
        else
            return;
    }
}

double features_percentile(double *v, int n, double q)
{
    if (n <= 0)
        return 0;
    double pos = q / 100.0 * (n - 1);
    int lo = (int)floor(pos);
    if (lo >= n - 1) {
        select_kth(v, n, n - 1);
        return v[n - 1];
    }
    select_kth(v, n, lo);
    double next = v[lo + 1]; /* the next order statistic: the least after lo */
    for (int i = lo + 2; i < n; i++)
        if (v[i] < next)
            next = v[i];
    double frac = pos - lo;
    return v[lo] + (next - v[lo]) * frac;
}

/* ---- the sweep ---- */

typedef struct Ev {
    int64_t t;
    double g; /* GPUs starting (in starts) or ending (in ends) */
} Ev;

static void insertion_sort(Ev *a, int m)
{
    for (int i = 1; i < m; i++) {
        Ev v = a[i];
        int j = i - 1;
        while (j >= 0 && a[j].t > v.t) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

/* Sort by t, stable: an LSD radix sort on t - min in 11-bit digits (jobs
 * of one user span a few years of seconds: 3 passes at most), insertion
 * sort for short arrays; nothing to do when already in order (the jobs
 * table is mostly in submission order). tmp holds m elements. */
static void sort_events(Ev *a, int m, Ev *tmp)
{
    int sorted = 1;
    int64_t lo = m > 0 ? a[0].t : 0, hi = lo;
    for (int i = 1; i < m; i++) {
        sorted &= a[i - 1].t <= a[i].t;
        lo = a[i].t < lo ? a[i].t : lo;
        hi = a[i].t > hi ? a[i].t : hi;
    }
    if (sorted)
        return;
    if (m < 64) {
        insertion_sort(a, m);
        return;
    }
    uint64_t range = (uint64_t)(hi - lo);
    Ev *src = a, *dst = tmp;
    for (int shift = 0; shift < 64 && (range >> shift) > 0; shift += 11) {
        size_t count[2049] = {0};
        for (int i = 0; i < m; i++)
            count[(((uint64_t)(src[i].t - lo) >> shift) & 2047) + 1]++;
        for (int d = 0; d < 2048; d++)
            count[d + 1] += count[d];
        for (int i = 0; i < m; i++)
            dst[count[((uint64_t)(src[i].t - lo) >> shift) & 2047]++] = src[i];
        Ev *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, (size_t)m * sizeof *a);
}

/* Walk starts and ends (each sorted by time) in time order, ends first at
 * equal times: back-to-back jobs do not overlap. Returns the peak; with
 * level >= 0, *above gets the seconds spent above level. */
static double sweep(const Ev *st, const Ev *en, int m, double level, double *above)
{
    double c = 0, peak = 0, over = 0;
    int i = 0, j = 0;
    int64_t prev = 0;
    while (i < m || j < m) {
        int take_end = j < m && (i >= m || en[j].t <= st[i].t);
        int64_t t = take_end ? en[j].t : st[i].t;
        if ((i > 0 || j > 0) && c > level + 1e-9)
            over += (double)(t - prev);
        c += take_end ? -en[j++].g : st[i++].g;
        if (c > peak)
            peak = c;
        prev = t;
    }
    if (above)
        *above = over;
    return peak;
}

/* ---- one user ---- */

typedef struct Scratch {
    Ev *st, *en, *tmp;
    double *v, *w;
} Scratch;

/* GPU-hour-weighted p90 of widths: few distinct widths in practice, so the
 * weights are summed per width before sorting them. */
static double width_p90(Scratch *s, int m)
{
    int k = 0;
    for (int i = 0; i < m; i++) {
        int j = 0;
        while (j < k && s->v[j] != s->v[i])
            j++;
        if (j == k) {
            s->v[k] = s->v[i];
            s->w[k++] = s->w[i];
        } else {
            s->w[j] += s->w[i];
        }
        if (k > 64) /* many widths: sort them all */
            return -1;
    }
    return features_weighted_quantile(s->v, s->w, k, 0.9);
}

static void user_memory(const FeatJob *jobs, const size_t *idx, int m, FeatUser *u)
{
    u->raw[FEAT_MEM_GIB] = -1;
    u->mem_src = FEAT_MEM_UNKNOWN;
    for (int i = 0; i < m; i++) {
        const FeatJob *j = &jobs[idx[i]];
        if (j->mem_gib < 0 || j->mem_src == FEAT_MEM_UNKNOWN)
            continue;
        double cur = u->raw[FEAT_MEM_GIB];
        if (j->mem_gib > cur || (j->mem_gib == cur && j->mem_src == FEAT_MEM_MEASURED)) {
            u->raw[FEAT_MEM_GIB] = j->mem_gib;
            u->mem_src = j->mem_src;
        }
    }
}

/* Fill the scratch arrays from the user's jobs; returns GPU-hours. */
static double user_gather(const FeatJob *jobs, const size_t *idx, int m, Scratch *s,
                          double *hours_sum, double *hours_max, int64_t *first)
{
    double gpuh = 0;
    *hours_sum = 0;
    *hours_max = 0;
    *first = INT64_MAX;
    for (int i = 0; i < m; i++) {
        const FeatJob *j = &jobs[idx[i]];
        double h = (double)(j->end - j->start) / 3600.0;
        *hours_sum += h;
        if (h > *hours_max)
            *hours_max = h;
        gpuh += j->gpus * h;
        if (j->start < *first)
            *first = j->start;
        s->v[i] = j->gpus;
        s->w[i] = j->gpus * h;
        s->st[i] = (Ev){j->start, j->gpus};
        s->en[i] = (Ev){j->end, j->gpus};
    }
    return gpuh;
}

static void user_features(const FeatJob *jobs, const size_t *idx, int m, const FeatOpts *o,
                          int64_t eff_start, Scratch *s, FeatUser *u)
{
    double hours_sum, hours_max;
    int64_t first;
    double gpuh = user_gather(jobs, idx, m, s, &hours_sum, &hours_max, &first);
    double eff_s = (double)(o->win_end - eff_start);
    double span_s = (double)(o->win_end - (first > eff_start ? first : eff_start));
    double min_span = eff_s < MIN_SPAN_S ? eff_s : MIN_SPAN_S;
    if (span_s < min_span)
        span_s = min_span;
    if (span_s < 1)
        span_s = 1;
    u->njobs = m;
    u->gpu_hours = gpuh;
    u->span_h = span_s / 3600.0;
    double p90 = width_p90(s, m);
    if (p90 < 0) { /* many distinct widths: refill and sort them all */
        for (int i = 0; i < m; i++) {
            s->v[i] = jobs[idx[i]].gpus;
            s->w[i] = jobs[idx[i]].gpus * (double)(jobs[idx[i]].end - jobs[idx[i]].start) / 3600.0;
        }
        p90 = features_weighted_quantile(s->v, s->w, m, 0.9);
    }
    u->raw[FEAT_GPUS_P90] = p90;
    user_memory(jobs, idx, m, u);
    u->raw[FEAT_DUR_MEAN_H] = hours_sum / m;
    u->raw[FEAT_DUR_MAX_H] = hours_max;
    u->raw[FEAT_GPUH_MONTH] = gpuh / ((eff_s > 1 ? eff_s : 1) / FEAT_MONTH_S);
    u->raw[FEAT_CONC_MEAN] = gpuh / u->span_h;
    sort_events(s->st, m, s->tmp);
    sort_events(s->en, m, s->tmp);
    double mean = u->raw[FEAT_CONC_MEAN], above = 0;
    double peak = sweep(s->st, s->en, m, -1, NULL);
    u->raw[FEAT_CONC_PEAK] = peak;
    if (peak > mean)
        sweep(s->st, s->en, m, mean + BURST_LEVEL * (peak - mean), &above);
    u->burst_frac = above / span_s > 1 ? 1 : above / span_s;
}

static int job_counts(const FeatJob *j, const FeatOpts *o, int lo, int hi)
{
    return j->user >= lo && j->user < hi && j->start >= o->win_start &&
           j->start < o->win_end && j->end - j->start >= o->min_run_s && j->gpus > 0;
}

/* The counted jobs of users [lo, hi) grouped by user (a counting sort):
 * user lo + u's jobs are idx[start[u] .. start[u + 1]), in the order given;
 * also the effective window start, the jobs counted and the most jobs of
 * one user. */
typedef struct Groups {
    size_t *idx, *start;
    int64_t eff_start;
    size_t used, maxm;
} Groups;

static void group_jobs(const FeatJob *jobs, size_t n, int lo, int hi, const FeatOpts *o,
                       Groups *g)
{
    size_t nu = (size_t)(hi - lo);
    g->start = xcalloc(nu + 1, sizeof *g->start);
    g->eff_start = o->win_end;
    g->used = g->maxm = 0;
    for (size_t i = 0; i < n; i++) {
        if (!job_counts(&jobs[i], o, lo, hi))
            continue;
        g->start[jobs[i].user - lo + 1]++;
        g->used++;
        if (jobs[i].start < g->eff_start)
            g->eff_start = jobs[i].start;
    }
    if (g->eff_start < o->win_start)
        g->eff_start = o->win_start;
    for (size_t u = 0; u < nu; u++) {
        if (g->start[u + 1] > g->maxm)
            g->maxm = g->start[u + 1];
        g->start[u + 1] += g->start[u];
    }
    g->idx = xmalloc((g->used ? g->used : 1) * sizeof *g->idx);
    size_t *fill = xmalloc((nu + 1) * sizeof *fill);
    memcpy(fill, g->start, (nu + 1) * sizeof *fill);
    for (size_t i = 0; i < n; i++)
        if (job_counts(&jobs[i], o, lo, hi))
            g->idx[fill[jobs[i].user - lo]++] = i;
    free(fill);
}

/* Features of users [lo, hi) into out[lo .. hi), with the effective window
 * start eff_start (INT64_MIN: the one these jobs give). */
static void compute_users(const FeatJob *jobs, size_t n, int lo, int hi, const FeatOpts *o,
                          int64_t eff_start, FeatUser *out, FeatSummary *sum)
{
    Groups g;
    group_jobs(jobs, n, lo, hi, o, &g);
    if (eff_start != INT64_MIN)
        g.eff_start = eff_start;
    size_t m1 = g.maxm + 1;
    Scratch s = {xmalloc(m1 * sizeof(Ev)), xmalloc(m1 * sizeof(Ev)), xmalloc(m1 * sizeof(Ev)),
                 xmalloc(m1 * sizeof(double)), xmalloc(m1 * sizeof(double))};
    int with_jobs = 0;
    for (int u = lo; u < hi; u++) {
        memset(&out[u], 0, sizeof out[u]);
        out[u].raw[FEAT_MEM_GIB] = -1;
        int m = (int)(g.start[u - lo + 1] - g.start[u - lo]);
        if (m == 0)
            continue;
        user_features(jobs, g.idx + g.start[u - lo], m, o, g.eff_start, &s, &out[u]);
        with_jobs++;
    }
    if (sum) {
        sum->jobs_used = (int64_t)g.used;
        sum->eff_start = g.eff_start;
        sum->months = (double)(o->win_end - g.eff_start) / FEAT_MONTH_S;
        sum->users_with_jobs = with_jobs;
    }
    free(s.st);
    free(s.en);
    free(s.tmp);
    free(s.v);
    free(s.w);
    free(g.idx);
    free(g.start);
}

void features_compute(const FeatJob *jobs, size_t n, int nusers, const FeatOpts *o,
                      FeatUser *out, FeatSummary *sum)
{
    compute_users(jobs, n, 0, nusers, o, INT64_MIN, out, sum);
}

void features_compute_users(const FeatJob *jobs, size_t n, int lo, int hi, const FeatOpts *o,
                            int64_t eff_start, FeatUser *out, FeatSummary *sum)
{
    compute_users(jobs, n, lo, hi, o, eff_start, out, sum);
}

int64_t features_eff_start(int64_t first_counted, const FeatOpts *o)
{
    int64_t e = first_counted < o->win_end ? first_counted : o->win_end;
    return e < o->win_start ? o->win_start : e;
}

/* ---- scaling ---- */

static double median_log_mem(const FeatUser *users, const int *rows, int n, int *known)
{
    double *v = xmalloc(((size_t)n + 1) * sizeof *v);
    int m = 0;
    for (int i = 0; i < n; i++) {
        double g = users[rows[i]].raw[FEAT_MEM_GIB];
        if (g >= 0)
            v[m++] = log1p(g);
    }
    double med = features_percentile(v, m, 50);
    free(v);
    *known = m;
    return med;
}

void features_standardize(const FeatUser *users, const int *rows, int n, double *z,
                          FeatScale *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->mem_impute = median_log_mem(users, rows, n, &sc->mem_known);
    for (int f = 0; f < FEAT_COUNT; f++) {
        double s = 0, ss = 0;
        for (int i = 0; i < n; i++) {
            double r = users[rows[i]].raw[f];
            double v = (f == FEAT_MEM_GIB && r < 0) ? sc->mem_impute : log1p(r);
            z[(size_t)i * FEAT_COUNT + f] = v;
            s += v;
        }
        double mean = n > 0 ? s / n : 0;
        for (int i = 0; i < n; i++) {
            double t = z[(size_t)i * FEAT_COUNT + f] - mean;
            ss += t * t;
        }
        double sd = n > 0 ? sqrt(ss / n) : 0;
        if (f == FEAT_MEM_GIB && sc->mem_known == 0)
            sd = 0;
        if (sd < 1e-12)
            sd = 0;
        sc->mean[f] = mean;
        sc->sd[f] = sd;
        for (int i = 0; i < n; i++) {
            double *zz = &z[(size_t)i * FEAT_COUNT + f];
            *zz = sd > 0 ? (*zz - mean) / sd : 0;
        }
    }
}

void features_unscale(const FeatScale *sc, const double *z, double *raw)
{
    for (int f = 0; f < FEAT_COUNT; f++)
        raw[f] = expm1(z[f] * sc->sd[f] + sc->mean[f]);
    if (sc->mem_known == 0)
        raw[FEAT_MEM_GIB] = -1;
}
