/* sim_stats: waits per month, group and memory class (see sim_stats.h). */
#include "core/sim_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/cp.h"

int sim_mem_class(double mem_gib)
{
    return mem_gib <= 24 ? 0 : mem_gib <= 48 ? 1 : mem_gib <= 80 ? 2 : 3;
}

const char *sim_class_name(int c)
{
    static const char *const names[SIM_NCLASS] = {"<=24 GiB", "<=48 GiB", "<=80 GiB", ">80 GiB"};
    return c >= 0 && c < SIM_NCLASS ? names[c] : "?";
}

int32_t sim_month(int64_t t)
{
    int64_t y;
    int m, d;
    civil_from_days(civil_floor_div(t, 86400), &y, &m, &d);
    return (int32_t)((y - 1970) * 12 + m - 1);
}

static int64_t month_start(int32_t mo)
{
    int64_t y = 1970 + civil_floor_div(mo, 12);
    int m = (int)(mo - (y - 1970) * 12) + 1;
    return civil_days(y, m, 1) * 86400;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static double rank_h(const int64_t *v, size_t n, double q)
{
    size_t r = (size_t)ceil(q * (double)n);
    return (double)v[r ? r - 1 : 0] / 3600.0;
}

/* v[0..n), every value positive, sorted: LSD radix by bytes over the bytes
 * the largest value uses (waits of a year: 3 passes), not n log n. */
static void sort_positive(int64_t *v, size_t n)
{
    if (n < 64) {
        qsort(v, n, sizeof *v, cmp_i64);
        return;
    }
    int64_t mx = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i] > mx)
            mx = v[i];
    int64_t *tmp = xmalloc(n * sizeof *tmp), *src = v, *dst = tmp;
    for (int shift = 0; shift < 64 && (mx >> shift) != 0; shift += 8) {
        size_t cnt[257] = {0};
        for (size_t i = 0; i < n; i++)
            cnt[((src[i] >> shift) & 255) + 1]++;
        for (int k = 0; k < 256; k++)
            cnt[k + 1] += cnt[k];
        for (size_t i = 0; i < n; i++)
            dst[cnt[(src[i] >> shift) & 255]++] = src[i];
        int64_t *x = src;
        src = dst;
        dst = x;
    }
    if (src != v)
        memcpy(v, src, n * sizeof *v);
    free(tmp);
}

void sim_waits(int64_t *wait_s, size_t n, SimWaits *w)
{
    memset(w, 0, sizeof *w);
    w->n = n;
    if (n == 0)
        return;
    /* most waits are often 0: only the others are sorted, then the zeros go
     * between the negatives (none in practice) and the positives */
    size_t m = 0, neg = 0;
    for (size_t i = 0; i < n; i++)
        if (wait_s[i] != 0)
            wait_s[m++] = wait_s[i];
    for (size_t i = 0; i < m; i++) /* the negatives first */
        if (wait_s[i] < 0) {
            int64_t x = wait_s[i];
            wait_s[i] = wait_s[neg];
            wait_s[neg++] = x;
        }
    qsort(wait_s, neg, sizeof *wait_s, cmp_i64);
    sort_positive(wait_s + neg, m - neg);
    memmove(wait_s + neg + (n - m), wait_s + neg, (m - neg) * sizeof *wait_s);
    for (size_t i = neg; i < neg + (n - m); i++)
        wait_s[i] = 0;
    w->p50_h = rank_h(wait_s, n, 0.5);
    w->p90_h = rank_h(wait_s, n, 0.9);
    double s = 0, c = 0;
    for (size_t i = 0; i < n; i++) {
        s += (double)wait_s[i];
        c += (double)(wait_s[i] < SIM_WAIT_CAP_S ? wait_s[i] : SIM_WAIT_CAP_S);
    }
    w->mean_h = s / (double)n / 3600.0;
    w->mean_cap_h = c / (double)n / 3600.0;
}

static double overlap(int64_t a, int64_t b, int64_t lo, int64_t hi)
{
    int64_t x = a > lo ? a : lo, y = b < hi ? b : hi;
    return y > x ? (double)(y - x) : 0.0;
}

/* Capacity and busy unit-hours of each month of the window. */
static void month_hours(const SimJob *jobs, size_t n, const SimOut *out, const SimPool *pools,
                        size_t np, SimSummary *sum)
{
    for (size_t m = 0; m < sum->nmonths; m++) {
        SimMonth *mo = &sum->months[m];
        int64_t lo = month_start(mo->month), hi = month_start(mo->month + 1);
        for (size_t p = 0; p < np; p++)
            mo->cap_h += overlap(pools[p].from, pools[p].to, lo, hi) * pools[p].units / 3600.0;
    }
    int32_t m0 = sum->months[0].month;
    for (size_t i = 0; i < n; i++) {
        if (out->start[i] == SIM_NEVER)
            continue;
        int32_t a = sim_month(out->start[i]), b = sim_month(out->end[i]);
        for (int32_t mo = a; mo <= b; mo++) {
            if (mo < m0 || mo >= m0 + (int32_t)sum->nmonths)
                continue;
            sum->months[mo - m0].busy_h += overlap(out->start[i], out->end[i], month_start(mo),
                                                   month_start(mo + 1)) *
                                           jobs[i].units / 3600.0;
        }
    }
}

/* A job's cell key and index, sorted to bring each cell's jobs together. */
typedef struct Idx {
    int32_t month, group, mclass;
    size_t i;
} Idx;

static int idx_cmp(const void *a, const void *b)
{
    const Idx *x = a, *y = b;
    if (x->month != y->month)
        return x->month < y->month ? -1 : 1;
    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    if (x->mclass != y->mclass)
        return x->mclass < y->mclass ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

static int same_cell(const Idx *x, const Idx *y)
{
    return x->month == y->month && x->group == y->group && x->mclass == y->mclass;
}

static void fill_cell(const SimJob *jobs, const SimOut *out, const double *idle_s, int64_t to,
                      const Idx *ix, size_t m, int64_t *buf, SimCell *c)
{
    memset(c, 0, sizeof *c);
    c->month = ix[0].month;
    c->group = ix[0].group;
    c->mclass = ix[0].mclass;
    size_t nw = 0;
    for (size_t k = 0; k < m; k++) {
        size_t i = ix[k].i;
        const SimJob *j = &jobs[i];
        int64_t st = out->start[i];
        double u = j->units;
        if (st != SIM_NEVER) {
            buf[nw++] = st - j->submit;
            c->run_h += u * (double)(out->end[i] - st) / 3600.0;
            c->queued_h += u * (double)(st - j->submit) / 3600.0;
        }
        if (st == SIM_NEVER || st >= to)
            c->left_h += u * (double)j->runtime / 3600.0;
        if (j->rec_start != SIM_NEVER && j->rec_start > j->submit) {
            c->wait_h += (double)(j->rec_start - j->submit) / 3600.0;
            if (idle_s)
                c->idle_wait_h += idle_s[i] / 3600.0;
        }
    }
    sim_waits(buf, nw, &c->sim);
}

static void build_cells(const SimJob *jobs, size_t n, const SimOut *out, const double *idle_s,
                        int64_t from, int64_t to, SimSummary *sum)
{
    Idx *ix = xmalloc((n ? n : 1) * sizeof *ix);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (jobs[i].submit >= from && jobs[i].submit < to)
            ix[m++] = (Idx){sim_month(jobs[i].submit), jobs[i].group,
                            sim_mem_class(jobs[i].mem_gib), i};
    qsort(ix, m, sizeof *ix, idx_cmp);
    size_t ncells = 0; /* a few hundred (month x group x class), not one a job */
    for (size_t a = 0; a < m; a++)
        ncells += a == 0 || !same_cell(&ix[a], &ix[a - 1]);
    int64_t *buf = xmalloc((m ? m : 1) * sizeof *buf);
    sum->cells = xmalloc((ncells ? ncells : 1) * sizeof *sum->cells);
    for (size_t a = 0; a < m;) {
        size_t b = a;
        while (b < m && same_cell(&ix[b], &ix[a]))
            b++;
        fill_cell(jobs, out, idle_s, to, ix + a, b - a, buf, &sum->cells[sum->ncells++]);
        a = b;
    }
    free(buf);
    free(ix);
}

/* Simulated and recorded waits of the jobs submitted in [lo, hi) with both. */
static void waits_between(const SimJob *jobs, size_t n, const SimOut *out, int64_t lo,
                          int64_t hi, int64_t *a, int64_t *b, SimWaits *sim, SimWaits *rec)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (jobs[i].submit >= lo && jobs[i].submit < hi && out->start[i] != SIM_NEVER &&
            jobs[i].rec_start != SIM_NEVER) {
            a[k] = out->start[i] - jobs[i].submit;
            b[k++] = jobs[i].rec_start - jobs[i].submit;
        }
    sim_waits(a, k, sim);
    sim_waits(b, k, rec);
}

static double pearson(const SimMonth *m, size_t n)
{
    if (n < 4)
        return NAN;
    double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
    size_t k = 0;
    for (size_t i = 1; i < n; i++) {
        if (m[i].sim.n == 0)
            continue;
        double x = m[i].sim.mean_cap_h, y = m[i].rec.mean_cap_h;
        sx += x, sy += y, sxx += x * x, syy += y * y, sxy += x * y, k++;
    }
    if (k < 3)
        return NAN;
    double cov = sxy - sx * sy / (double)k, vx = sxx - sx * sx / (double)k,
           vy = syy - sy * sy / (double)k;
    return vx > 0 && vy > 0 ? cov / sqrt(vx * vy) : NAN;
}

void sim_summarise(const SimJob *jobs, size_t n, const SimOut *out, const SimPool *pools,
                   size_t np, const double *idle_s, int64_t from, int64_t to, SimSummary *sum)
{
    memset(sum, 0, sizeof *sum);
    int32_t m0 = sim_month(from), m1 = sim_month(to - 1);
    sum->nmonths = (size_t)(m1 - m0 + 1);
    sum->months = xcalloc(sum->nmonths, sizeof *sum->months);
    int64_t *a = xmalloc((n ? n : 1) * sizeof *a), *b = xmalloc((n ? n : 1) * sizeof *b);
    for (size_t m = 0; m < sum->nmonths; m++) {
        SimMonth *mo = &sum->months[m];
        mo->month = m0 + (int32_t)m;
        int64_t lo = month_start(mo->month), hi = month_start(mo->month + 1);
        waits_between(jobs, n, out, lo > from ? lo : from, hi < to ? hi : to, a, b, &mo->sim,
                      &mo->rec);
    }
    waits_between(jobs, n, out, from, to, a, b, &sum->sim, &sum->rec);
    free(a);
    free(b);
    month_hours(jobs, n, out, pools, np, sum);
    build_cells(jobs, n, out, idle_s, from, to, sum);
    for (size_t c = 0; c < sum->ncells; c++) {
        SimMonth *mo = &sum->months[sum->cells[c].month - m0];
        mo->wait_h += sum->cells[c].wait_h;
        mo->idle_wait_h += sum->cells[c].idle_wait_h;
        sum->wait_h += sum->cells[c].wait_h;
        sum->idle_wait_h += sum->cells[c].idle_wait_h;
    }
    sum->corr = pearson(sum->months, sum->nmonths);
}

void sim_summary_free(SimSummary *sum)
{
    free(sum->months);
    free(sum->cells);
    memset(sum, 0, sizeof *sum);
}
