#include "core/demand.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cp.h"
#include "core/features.h"

const double dem_halflives[DEM_NHALF] = {1, 3, 6, 12};

int demand_half_index(double h)
{
    for (int i = 0; i < DEM_NHALF; i++)
        if (h == dem_halflives[i])
            return i;
    return -1;
}

#define W0 (DEM_HISTORY - DEM_WINDOW) /* first month of the window */
#define NSLOT 4                       /* groups remembered per user */
#define NEW_PRIOR 3.0                 /* members of prior weight toward the institute's mean */
#define RAMP_DEFAULT 0.5              /* newcomers' first year / mean, when unmeasured */

/* Per user while fitting: use per month, and where the window's use went. */
typedef struct Acc {
    double month[DEM_HISTORY];
    int slot_g[NSLOT];
    double slot_h[NSLOT];
    int last_before; /* group of the latest use before the window, -1 */
} Acc;

size_t demand_nspans(size_t njobs)
{
    return (njobs + DEM_SPAN - 1) / DEM_SPAN;
}

void demand_spans(const DemHist *h, int64_t *end, int64_t *start)
{
    size_t ns = demand_nspans(h->njobs);
    int64_t hi = INT64_MIN, lo = INT64_MAX;
    for (size_t k = 0; k < ns; k++) {
        for (size_t i = k * DEM_SPAN; i < h->njobs && i < (k + 1) * DEM_SPAN; i++) {
            const DemJob *j = &h->jobs[i];
            int64_t e = j->elig + (j->end - j->start);
            if (j->end > hi)
                hi = j->end;
            if (e > hi)
                hi = e;
        }
        end[k] = hi;
    }
    for (size_t k = ns; k-- > 0;) {
        for (size_t i = k * DEM_SPAN; i < h->njobs && i < (k + 1) * DEM_SPAN; i++)
            if (h->jobs[i].start < lo)
                lo = h->jobs[i].start;
        start[k] = lo;
    }
}

/* The jobs [*lo, *hi) that may run in [a, b) (every job without spans):
 * before *lo every job ended by a, from *hi on every job starts at b or
 * later. */
static void span(const DemHist *h, int64_t a, int64_t b, size_t *lo, size_t *hi)
{
    *lo = 0;
    *hi = h->njobs;
    if (!h->span_end || !h->span_start)
        return;
    size_t ns = demand_nspans(h->njobs), l = 0, r = ns;
    while (l < r) { /* first span whose prefix holds an end after a */
        size_t mid = (l + r) / 2;
        if (h->span_end[mid] > a)
            r = mid;
        else
            l = mid + 1;
    }
    *lo = l * DEM_SPAN < h->njobs ? l * DEM_SPAN : h->njobs;
    l = 0;
    r = ns;
    while (l < r) { /* first span from which every start is b or later */
        size_t mid = (l + r) / 2;
        if (h->span_start[mid] >= b)
            r = mid;
        else
            l = mid + 1;
    }
    *hi = l * DEM_SPAN < h->njobs ? l * DEM_SPAN : h->njobs;
    if (*hi < *lo)
        *hi = *lo;
}

/* Month of t in c (0..DEM_HISTORY-1), by bisection; t in [mb[0], mb[N]). */
static int month_of(const DemCut *c, int64_t t)
{
    int lo = 0, hi = DEM_HISTORY - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (c->mb[mid] <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static void slot_add(Acc *a, int g, double h)
{
    for (int i = 0; i < NSLOT; i++) {
        if (a->slot_g[i] == g || a->slot_g[i] < 0) {
            a->slot_g[i] = g;
            a->slot_h[i] += h;
            return;
        }
    }
}

/* Mean relative speed of a GPU of the fleet over [a, b) (time-weighted;
 * a == b: the rows in service at a); 0 when none is. */
static double fleet_speed(const DemHist *h, int64_t a, int64_t b)
{
    double eq = 0, n = 0;
    for (int i = 0; i < h->nfleet; i++) {
        const DemGpus *r = &h->fleet[i];
        int64_t lo = a > r->from ? a : r->from, hi = b < r->to ? b : r->to;
        double w = b > a ? (hi > lo ? (double)(hi - lo) : 0) : (r->from <= a && a < r->to);
        eq += w * r->gpus * (r->speed > 0 ? r->speed : 1);
        n += w * r->gpus;
    }
    return n > 0 ? eq / n : 0;
}

/* Each month's re-pricing at the fleet of t0: F(t0) / F(month), 1 where
 * either is unknown. */
static void fleet_ratios(const DemHist *h, const DemCut *c, double *rp, DemFit *f)
{
    int64_t t0 = c->mb[DEM_HISTORY];
    f->fleet_now = fleet_speed(h, t0, t0);
    f->fleet_window = fleet_speed(h, c->mb[W0], t0);
    for (int m = 0; m < DEM_HISTORY; m++) {
        double fm = fleet_speed(h, c->mb[m], c->mb[m + 1]);
        rp[m] = f->fleet_now > 0 && fm > 0 ? f->fleet_now / fm : 1;
    }
}

/* Spread the known part of job j over the months of c, re-priced (rp). */
static void place_job(const DemCut *c, const DemJob *j, const double *rp, Acc *a)
{
    int64_t t0 = c->mb[DEM_HISTORY];
    int64_t s = j->start > c->mb[0] ? j->start : c->mb[0], e = j->end < t0 ? j->end : t0;
    if (e <= s)
        return;
    for (int m = month_of(c, s); m < DEM_HISTORY && s < e; m++) {
        int64_t stop = e < c->mb[m + 1] ? e : c->mb[m + 1];
        double len = (double)(c->mb[m + 1] - c->mb[m]);
        double v = j->eq * rp[m] * (double)(stop - s) / len;
        a->month[m] += v;
        if (m >= W0)
            slot_add(a, j->group, v);
        else
            a->last_before = j->group;
        s = stop;
    }
}

static int dominant(const Acc *a)
{
    int best = -1;
    double bh = -1;
    for (int i = 0; i < NSLOT && a->slot_g[i] >= 0; i++)
        if (a->slot_h[i] > bh) {
            bh = a->slot_h[i];
            best = a->slot_g[i];
        }
    return best;
}

/* The months' weights 0.5^(age / H), age in months from each month's
 * middle to t0, per half-life: computed once per fit, not per user (issue
 * 31: pow was a tenth of an import's planner refresh). */
static void rate_weights(double w[DEM_NHALF][DEM_HISTORY])
{
    for (int k = 0; k < DEM_NHALF; k++)
        for (int m = 0; m < DEM_HISTORY; m++)
            w[k][m] = pow(0.5, ((double)(DEM_HISTORY - m) - 0.5) / dem_halflives[k]);
}

/* The share of the fit's last month the history covers: the part after
 * data_start when the whole history lies in that month (issue 30: one day
 * of jobs counts its month by the day it covers, not as a month of use, so
 * that next year's rates agree with "used now", DemFit.window_cover), else
 * 1. A history that starts earlier keeps its rates, and the backtest's
 * cuts theirs, to the bit; its partial first month still counts whole. */
static double last_cover(const DemHist *h, const DemCut *c)
{
    int64_t a = c->mb[DEM_HISTORY - 1], b = c->mb[DEM_HISTORY];
    return h->data_start <= a || h->data_start >= b ? 1
                                                   : (double)(b - h->data_start) / (double)(b - a);
}

/* The user's own rates: months from their first use in the window,
 * weighted by wt (rate_weights); the last month by the share of it the
 * history covers (cover, last_cover). */
static void own_rates(const Acc *a, int first, const double wt[DEM_NHALF][DEM_HISTORY],
                      double cover, DemUser *u)
{
    for (int k = 0; k < DEM_NHALF; k++) {
        double sw = 0, sv = 0;
        for (int m = first > W0 ? first : W0; m < DEM_HISTORY; m++) {
            double w = wt[k][m];
            sw += m == DEM_HISTORY - 1 ? w * cover : w;
            sv += w * a->month[m];
        }
        u->rate[k] = sw > 0 ? sv / sw : 0;
    }
}

static double window_sum(const Acc *a, int from, int to)
{
    double s = 0;
    for (int m = from; m < to; m++)
        s += a->month[m];
    return s;
}

/* 1 when the user's first use in the history is in month fm and the month
 * before it holds data (an arrival, not the history's start). */
static int arrived(const DemHist *h, const DemCut *c, int fm)
{
    return fm >= 1 && fm < DEM_HISTORY && h->data_start <= c->mb[fm - 1];
}

/* Users active in the window, and the heads and use of each group; into
 * mat: the arrivals with DEM_MATURE_AFTER months after their first
 * DEM_MATURE_MONTHS, their mean use in those first months (mat[0]) and
 * after them (mat[1]), and how many (mat[2]). */
static void fit_users(const DemHist *h, const DemCut *c, Acc *acc, DemFit *f, double *mat)
{
    f->users = xcalloc((size_t)h->nusers + 1, sizeof *f->users);
    const int k0 = DEM_MATURE_MONTHS;
    double wt[DEM_NHALF][DEM_HISTORY], cover = last_cover(h, c);
    rate_weights(wt);
    for (int i = 0; i < h->nusers; i++) {
        const Acc *a = &acc[i];
        double now = window_sum(a, W0, DEM_HISTORY), before = window_sum(a, 0, W0);
        int fm = 0;
        while (fm < DEM_HISTORY && !(a->month[fm] > 0))
            fm++;
        if (arrived(h, c, fm) && fm + k0 + DEM_MATURE_AFTER <= DEM_HISTORY) {
            mat[0] += window_sum(a, fm, fm + k0) / k0;
            mat[1] += window_sum(a, fm + k0, DEM_HISTORY) / (DEM_HISTORY - fm - k0);
            mat[2] += 1;
        }
        int g = now > 0 ? dominant(a) : a->last_before;
        if (before > 0 && g >= 0)
            f->groups[g].heads_before += 1;
        if (!(now > 0) || g < 0)
            continue;
        DemUser *u = &f->users[f->nactive++];
        u->user = i;
        u->group = g;
        u->used = now / DEM_WINDOW;
        u->first_month = 0;
        while (u->first_month < DEM_HISTORY - 1 && !(a->month[u->first_month] > 0))
            u->first_month++;
        u->newcomer = f->complete ? u->first_month >= W0
                                  : f->khalf > 0 && u->first_month >= DEM_HISTORY - f->khalf;
        own_rates(a, u->first_month, (const double (*)[DEM_HISTORY])wt, cover, u);
        f->groups[g].heads += 1;
        if (f->khalf > 0) {
            f->groups[g].heads_h1 +=
                window_sum(a, DEM_HISTORY - 2 * f->khalf, DEM_HISTORY - f->khalf) > 0;
            f->groups[g].heads_h2 += window_sum(a, DEM_HISTORY - f->khalf, DEM_HISTORY) > 0;
        }
    }
}

/* Job j's use in the window and the year before (by job group): as used
 * into the groups, re-priced (rp, by the month each part starts) into rw[g]
 * (window) and rb[g] (the year before). */
static void group_use(const DemCut *c, const double *rp, DemFit *f, double *rw, double *rb,
                      const DemJob *j)
{
    int64_t w0 = c->mb[W0], t0 = c->mb[DEM_HISTORY];
    double yw = (double)(t0 - w0), yb = (double)(w0 - c->mb[0]);
    if (j->group < 0 || j->group >= f->ngroups || j->end <= c->mb[0] || j->start >= t0)
        return;
    int64_t s = j->start, e = j->end < t0 ? j->end : t0;
    int64_t a = s > w0 ? s : w0, b = e;
    if (b > a) {
        double v = j->eq * (double)(b - a) / yw;
        f->groups[j->group].used += v;
        rw[j->group] += v * rp[month_of(c, a)];
    }
    a = s > c->mb[0] ? s : c->mb[0];
    b = e < w0 ? e : w0;
    if (b > a) {
        double v = j->eq * (double)(b - a) / yb;
        f->groups[j->group].used_before += v;
        rb[j->group] += v * rp[month_of(c, a)];
    }
}

static double clampd(double v, double cap, int *capped)
{
    if (v > cap || v < -cap) {
        *capped = 1;
        return v > cap ? cap : -cap;
    }
    return v;
}

/* Head growth (complete windows only: a year against the year before,
 * else the institute's last k months against the k before; a group's
 * shrunk toward 0 and capped), the intensity trend, newcomers' rate and
 * ramp. */
static void fit_trends(DemFit *f, const double *rw, const double *rb)
{
    double hn = 0, hb = 0, un = 0, ub = 0, sum_rate = 0, new_sum = 0, h1 = 0, h2 = 0;
    int nnew = 0;
    for (int g = 0; g < f->ngroups; g++) {
        hn += f->groups[g].heads;
        hb += f->groups[g].heads_before;
        h1 += f->groups[g].heads_h1;
        h2 += f->groups[g].heads_h2;
        un += rw[g];
        ub += rb[g];
    }
    for (int i = 0; i < f->nactive; i++) {
        sum_rate += f->users[i].used;
        if (f->users[i].newcomer) {
            int months = DEM_HISTORY - f->users[i].first_month;
            new_sum += f->users[i].used * DEM_WINDOW / (months > 0 ? months : 1);
            nnew++;
        }
    }
    double mean_all = f->nactive > 0 ? sum_rate / f->nactive : 0;
    f->ramp = nnew >= 3 && mean_all > 0 ? new_sum / nnew / mean_all : RAMP_DEFAULT;
    f->newrate = f->ramp * mean_all;
    f->growth = f->complete && hb > 0 ? hn / hb - 1 : 0;
    if (!f->complete && f->khalf > 0 && h1 > 0)
        f->growth = pow(h2 / h1, 12.0 / f->khalf) - 1; /* two complete spans, a rate a year */
    int cap = 0;
    f->growth = clampd(f->growth, DEM_GROWTH_CAP, &cap);
    f->intensity_raw = f->complete && hb > 0 && hn > 0 && ub > 0 ? (un / hn) / (ub / hb) - 1 : 0;
    f->intensity = clampd(DEM_INTENSITY_DAMP * f->intensity_raw, DEM_INTENSITY_CAP,
                          &f->intensity_capped) +
                   0.0; /* no -0 */
    for (int g = 0; g < f->ngroups; g++) {
        DemGroup *d = &f->groups[g];
        d->growth_raw = f->complete && d->heads_before > 0 ? d->heads / d->heads_before - 1 : NAN;
        if (!f->complete && f->khalf > 0 && d->heads_h1 > 0)
            d->growth_raw = pow(d->heads_h2 / d->heads_h1, 12.0 / f->khalf) - 1;
        double w = f->complete ? d->heads_before : d->heads_h1;
        /* shrunk toward 0: the institute's growth beyond its groups' goes to
         * groups that do not exist yet (ProjTotals.new_groups) */
        double r = isnan(d->growth_raw) ? 0 : w * d->growth_raw / (w + DEM_GROWTH_SHRINK);
        d->growth = clampd(r, DEM_GROWTH_CAP, &d->growth_capped);
        if (!f->complete) /* a short span says little of one group: institute only */
            d->growth = 0;
        double gm = d->heads > 0 ? rw[g] / d->heads : mean_all;
        double shrunk = (d->heads * gm + NEW_PRIOR * mean_all) / (d->heads + NEW_PRIOR);
        d->ramp = f->ramp;
        d->newrate = f->ramp * shrunk;
    }
}

/* Add eq from real hour x (may be fractional) on, to a difference array. */
static void diff_add(double *d, int nh, double x, double eq)
{
    if (x < 0)
        x = 0;
    if (x >= nh)
        return;
    int i = (int)x;
    double fr = x - i;
    d[i] += eq * (1 - fr);
    d[i + 1] += eq * fr;
}

/* Hourly curves of each group over the window, jobs at their eligible
 * time; a group's burst curve is the part above its mean (its pool: the
 * q90). The institute's pool is the q90 of the sum of the groups' signed
 * deviations from their means, i.e. of its own curve minus its mean: a
 * group below its mean leaves room for another's burst. Fed job by job
 * (pool_job: cur, ngroups x stride, allocated by the first job that adds to
 * it), then pools_finish. */
typedef struct Pools {
    int nh;          /* hours of the window (< 1 or no group: no pools) */
    size_t stride;   /* nh + 2 */
    double *cur;     /* per group, a difference array, then the curve */
} Pools;

static void pools_init(const DemCut *c, const DemFit *f, Pools *pl)
{
    pl->nh = (int)((c->mb[DEM_HISTORY] - c->mb[W0]) / 3600);
    if (f->ngroups == 0)
        pl->nh = 0;
    pl->stride = pl->nh > 0 ? (size_t)pl->nh + 2 : 0;
    pl->cur = NULL;
}

static void pool_job(const DemCut *c, const double *rp, const DemFit *f, Pools *pl,
                     const DemJob *j)
{
    int64_t w0 = c->mb[W0], t0 = c->mb[DEM_HISTORY];
    int64_t run = j->end - j->start, s = j->elig, e = j->elig + run;
    if (pl->nh < 1 || j->group < 0 || j->group >= f->ngroups || e <= w0 || s >= t0 ||
        j->start >= t0)
        return;
    if (!pl->cur)
        pl->cur = xcalloc(pl->stride * (size_t)f->ngroups, sizeof *pl->cur);
    double *d = pl->cur + (size_t)j->group * pl->stride;
    double eq = j->eq * rp[month_of(c, j->start > w0 ? j->start : w0)];
    diff_add(d, pl->nh, (double)(s - w0) / 3600.0, eq);
    diff_add(d, pl->nh, (double)((e < t0 ? e : t0) - w0) / 3600.0, -eq);
}

static void pools_finish(DemFit *f, Pools *pl)
{
    int nh = pl->nh;
    if (nh < 1)
        return;
    if (!pl->cur) /* no job: flat curves */
        pl->cur = xcalloc(pl->stride * (size_t)f->ngroups, sizeof *pl->cur);
    double *sum = xcalloc(pl->stride, sizeof *sum);
    for (int g = 0; g < f->ngroups; g++) {
        double *d = pl->cur + (size_t)g * pl->stride, run = 0, mean = 0;
        for (int k = 0; k < nh; k++) {
            run += d[k];
            d[k] = run > 0 ? run : 0;
            mean += d[k];
        }
        mean /= nh;
        double bm = 0;
        for (int k = 0; k < nh; k++) {
            sum[k] += d[k] - mean; /* signed: a group below its mean leaves room */
            d[k] = d[k] > mean ? d[k] - mean : 0;
            bm += d[k];
        }
        f->groups[g].burst_mean = bm / nh;
        f->groups[g].pool = features_percentile(d, nh, DEM_POOL_Q);
        f->pool_sum += f->groups[g].pool;
    }
    f->pool_inst = features_percentile(sum, nh, DEM_POOL_Q);
    if (!(f->pool_inst > 0))
        f->pool_inst = 0;
    free(pl->cur);
    pl->cur = NULL;
    free(sum);
}

/* Maturation: the arrivals' use after their first DEM_MATURE_MONTHS
 * against their use in them (ratio of the sums of their means; 1 with
 * fewer than DEM_MATURE_MIN arrivals to measure it on). It applies to a
 * group's recent arrivals (the last DEM_MATURE_MONTHS months) together,
 * never to one person's burst alone (issue 28): their rates are multiplied
 * by the maturation, capped so that together they use at most what as many
 * of the group's other members use on average (the institute's members
 * without any), and never by less than 1. */
static void mature(const DemHist *h, const DemCut *c, const double *mat, DemFit *f)
{
    f->maturation = mat[2] >= DEM_MATURE_MIN && mat[0] > 0 ? mat[1] / mat[0] : 1;
    int G = f->ngroups;
    double *own = xcalloc(4 * (size_t)G + 1, sizeof *own), *oth = own + G, *nown = oth + G,
           *noth = nown + G, all = 0, nall = 0;
    for (int i = 0; i < f->nactive; i++) {
        DemUser *u = &f->users[i];
        int g = u->group;
        u->matured = arrived(h, c, u->first_month) &&
                     u->first_month >= DEM_HISTORY - DEM_MATURE_MONTHS;
        if (g < 0 || g >= G)
            continue;
        if (u->matured) {
            own[g] += u->used;
            nown[g]++;
        } else {
            oth[g] += u->used;
            noth[g]++;
            all += u->used;
            nall++;
        }
    }
    for (int g = 0; g < G; g++) {
        DemGroup *d = &f->groups[g];
        double member = noth[g] > 0 ? oth[g] / noth[g] : nall > 0 ? all / nall : 0;
        double cap = nown[g] * member, k = f->maturation;
        if (own[g] * k > cap)
            k = own[g] > 0 ? cap / own[g] : 1;
        d->mature_factor = k > 1 ? k : 1;
        d->mature_n = (int)nown[g];
    }
    for (int i = 0; i < f->nactive; i++) {
        DemUser *u = &f->users[i];
        if (!u->matured || u->group < 0 || u->group >= G)
            continue;
        for (int k = 0; k < DEM_NHALF; k++)
            u->rate[k] *= f->groups[u->group].mature_factor;
    }
    free(own);
}

/* A fit fed with the jobs in order (demand.h). */
struct DemFeed {
    DemCut c;
    int pools, nusers;
    double rp[DEM_HISTORY];
    DemFit f;
    Acc *acc;
    double *rw, *rb;
    Pools pl;
};

DemFeed *demand_feed_new(const DemHist *h, const DemCut *c, int pools)
{
    DemFeed *d = xcalloc(1, sizeof *d);
    d->c = *c;
    d->pools = pools;
    d->nusers = h->nusers;
    d->f.ngroups = h->ngroups;
    d->f.groups = xcalloc((size_t)h->ngroups + 1, sizeof *d->f.groups);
    fleet_ratios(h, c, d->rp, &d->f);
    d->acc = xcalloc((size_t)h->nusers + 1, sizeof *d->acc);
    for (int i = 0; i < h->nusers; i++) {
        d->acc[i].last_before = -1;
        for (int k = 0; k < NSLOT; k++)
            d->acc[i].slot_g[k] = -1;
    }
    d->rw = xcalloc(2 * (size_t)h->ngroups + 1, sizeof *d->rw);
    d->rb = d->rw + h->ngroups;
    pools_init(c, &d->f, &d->pl);
    if (!pools)
        d->pl.nh = 0;
    return d;
}

void demand_feed_bytes(const DemHist *h, int pools, size_t *per_user, size_t *curves)
{
    *per_user = (size_t)h->nusers * sizeof(Acc);
    /* a window of 12 months is at most 366 days of hours, and 2 more */
    *curves = pools ? ((size_t)366 * 24 + 2) * sizeof(double) * (size_t)h->ngroups : 0;
}

void demand_feed(DemFeed *d, const DemJob *jobs, size_t n)
{
    const DemCut *c = &d->c;
    for (size_t i = 0; i < n; i++) {
        const DemJob *j = &jobs[i];
        if (j->user >= 0 && j->user < d->nusers && j->end > c->mb[0] &&
            j->start < c->mb[DEM_HISTORY])
            place_job(c, j, d->rp, &d->acc[j->user]);
        group_use(c, d->rp, &d->f, d->rw, d->rb, j);
        pool_job(c, d->rp, &d->f, &d->pl, j);
    }
}

void demand_feed_end(DemFeed *d, const DemHist *h, DemFit *out)
{
    const DemCut *c = &d->c;
    DemFit *f = &d->f;
    f->complete = h->data_start <= c->mb[0];
    f->window_complete = h->data_start <= c->mb[W0];
    f->window_cover = f->window_complete || h->data_start >= c->mb[DEM_HISTORY]
                          ? 1
                          : (double)(c->mb[DEM_HISTORY] - h->data_start) /
                                (double)(c->mb[DEM_HISTORY] - c->mb[W0]);
    int avail = 0; /* whole months of data in the window */
    for (int m = W0; m < DEM_HISTORY; m++)
        avail += c->mb[m] >= h->data_start;
    f->khalf = f->complete ? 0 : avail / 2 > 6 ? 6 : avail / 2 >= 3 ? avail / 2 : 0;
    double mat[3] = {0, 0, 0};
    fit_users(h, c, d->acc, f, mat);
    mature(h, c, mat, f);
    fit_trends(f, d->rw, d->rb);
    if (d->pools)
        pools_finish(f, &d->pl);
    *out = *f;
    free(d->acc);
    free(d->rw);
    free(d->pl.cur);
    free(d);
}

void demand_fit(const DemHist *h, const DemCut *c, int pools, DemFit *out)
{
    DemFeed *d = demand_feed_new(h, c, pools);
    size_t lo, hi;
    span(h, c->mb[0], c->mb[DEM_HISTORY], &lo, &hi);
    demand_feed(d, h->jobs + lo, hi - lo);
    demand_feed_end(d, h, out);
}

void demand_fit_widen(DemFit *f, int ngroups)
{
    if (ngroups <= f->ngroups)
        return;
    double sum_rate = 0, all = 0, nall = 0; /* as fit_trends and mature sum them */
    for (int i = 0; i < f->nactive; i++)
        sum_rate += f->users[i].used;
    for (int i = 0; i < f->nactive; i++) {
        const DemUser *u = &f->users[i];
        if (u->group < 0 || u->group >= f->ngroups || u->matured)
            continue;
        all += u->used;
        nall++;
    }
    double mean_all = f->nactive > 0 ? sum_rate / f->nactive : 0;
    double member = nall > 0 ? all / nall : 0, k = f->maturation;
    if (0 * k > 0 * member) /* mature(): own[g] x k against nown[g] x member, both 0 */
        k = 1;
    f->groups = xrealloc(f->groups, (size_t)ngroups * sizeof *f->groups);
    for (int g = f->ngroups; g < ngroups; g++) {
        DemGroup *d = &f->groups[g];
        memset(d, 0, sizeof *d);
        d->growth_raw = NAN;
        int cap = 0;
        d->growth = clampd(0, DEM_GROWTH_CAP, &cap);
        d->growth_capped = cap;
        double heads = 0, gm = mean_all;
        double shrunk = (heads * gm + NEW_PRIOR * mean_all) / (heads + NEW_PRIOR);
        d->ramp = f->ramp;
        d->newrate = f->ramp * shrunk;
        d->mature_factor = k > 1 ? k : 1;
    }
    f->ngroups = ngroups;
}

void demand_fit_done(DemFit *f)
{
    free(f->users);
    free(f->groups);
    memset(f, 0, sizeof *f);
}

void demand_actual_add(const DemJob *jobs, size_t n, int ngroups, int64_t from, int64_t to,
                       double *actual)
{
    if (to <= from)
        return;
    double len = (double)(to - from);
    for (size_t i = 0; i < n; i++) {
        const DemJob *j = &jobs[i];
        int64_t a = j->start > from ? j->start : from, b = j->end < to ? j->end : to;
        if (b > a && j->group >= 0 && j->group < ngroups)
            actual[j->group] += j->eq * (double)(b - a) / len;
    }
}

void demand_actual(const DemHist *h, int64_t from, int64_t to, double *actual)
{
    memset(actual, 0, (size_t)h->ngroups * sizeof *actual);
    size_t lo, hi;
    span(h, from, to, &lo, &hi);
    demand_actual_add(h->jobs + lo, hi - lo, h->ngroups, from, to, actual);
}
