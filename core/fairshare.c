/* fairshare: see fairshare.h. Order: parameters; the two formulas; the
 * calendar; the replay (allocations by group and year, the jobs in start
 * order, the daily series). */
#include "core/fairshare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/civil.h"
#include "core/radix.h"

/* ---- parameters ---- */

void fairshare_params_default(FsParams *p)
{
    p->ceiling = 1.25;
    p->half_life_days = 14.0;
    p->w_fairshare = 1000.0;
    p->w_allocation = 0.0;
}

int fairshare_key_is_policy(const char *key)
{
    return strncmp(key, "policy.", 7) == 0;
}

int fairshare_param_set(FsParams *p, const char *key, double value, CpErr *err)
{
    FsParams tmp;
    if (!p)
        p = &tmp;
    if (!isfinite(value))
        return cp_err_set(err, "%s: value must be a number", key);
    if (strcmp(key, "policy.ceiling") == 0) {
        if (value < 1.0)
            return cp_err_set(err, "%s: the ceiling is a share of the allocation, >= 1 (1.25 "
                              "= 125 %%)", key);
        p->ceiling = value;
    } else if (strcmp(key, "policy.half_life_days") == 0) {
        if (value <= 0)
            return cp_err_set(err, "%s: must be > 0 days", key);
        p->half_life_days = value;
    } else if (strcmp(key, "policy.w_fairshare") == 0 || strcmp(key, "policy.w_allocation") == 0) {
        if (value < 0)
            return cp_err_set(err, "%s: must be >= 0", key);
        *(key[9] == 'f' ? &p->w_fairshare : &p->w_allocation) = value;
    } else {
        return cp_err_set(err, "unknown key '%s' (policy.ceiling, policy.half_life_days, "
                          "policy.w_fairshare, policy.w_allocation)", key);
    }
    return 0;
}

/* ---- formulas ---- */

double fairshare_decay(double age_s, double half_life_s)
{
    return exp2(-age_s / half_life_s);
}

double fairshare_factor(double usage_share, double alloc_share)
{
    if (usage_share <= 0)
        return alloc_share > 0 ? 1.0 : NAN;
    if (alloc_share <= 0)
        return 0.0;
    return exp2(-usage_share / alloc_share);
}

/* ---- calendar (proleptic Gregorian, UTC) ---- */

int64_t fairshare_year_start(int32_t year)
{
    return civil_days(year, 1, 1) * FS_DAY;
}

int32_t fairshare_year_of(int64_t t)
{
    int32_t y = (int32_t)(1970 + civil_floor_div(t, 365 * (int64_t)FS_DAY + FS_DAY / 4));
    while (fairshare_year_start(y) > t)
        y--;
    while (fairshare_year_start(y + 1) <= t)
        y++;
    return y;
}

/* ---- the replay ---- */

/* Allocations as a dense grid: group x year, NaN when none. */
typedef struct AllocGrid {
    int32_t y0, nyears, ngroups;
    double *v;
    double *total; /* per year: the sum of allocations */
} AllocGrid;

static double alloc_of(const AllocGrid *a, int32_t g, int32_t year)
{
    if (year < a->y0 || year >= a->y0 + a->nyears || g < 0 || g >= a->ngroups)
        return NAN;
    return a->v[(size_t)g * (size_t)a->nyears + (size_t)(year - a->y0)];
}

static void alloc_grid(AllocGrid *a, int32_t ngroups, int32_t y0, int32_t y1, const FsAlloc *al,
                       size_t n)
{
    a->y0 = y0;
    a->nyears = y1 - y0 + 1;
    a->ngroups = ngroups;
    size_t cells = (size_t)ngroups * (size_t)a->nyears;
    a->v = xmalloc((cells + 1) * sizeof *a->v);
    a->total = xcalloc((size_t)a->nyears, sizeof *a->total);
    for (size_t i = 0; i < cells; i++)
        a->v[i] = NAN;
    for (size_t i = 0; i < n; i++) {
        if (al[i].group < 0 || al[i].group >= ngroups || al[i].year < y0 || al[i].year > y1)
            continue;
        size_t k = (size_t)al[i].group * (size_t)a->nyears + (size_t)(al[i].year - y0);
        a->v[k] = (isnan(a->v[k]) ? 0 : a->v[k]) + al[i].gpu_hours;
        a->total[al[i].year - y0] += al[i].gpu_hours;
    }
}

/* A group's state as the replay runs. */
typedef struct GroupState {
    int32_t year;
    double used, replay; /* in the year so far */
    double decayed;      /* replayed GPU-hours, decayed to the end of the current day */
    long block;          /* index of this year's FsBlock, -1 none */
} GroupState;

typedef struct Replay {
    const FsParams *p;
    AllocGrid al;
    GroupState *gs;
    FsResult *r;
    size_t capblocks;
    int64_t tend;
    int32_t year;            /* the year of the last job charged, */
    int64_t year_lo, year_hi; /* which spans [year_lo, year_hi) */
} Replay;

/* fairshare_year_of(t), remembered across the jobs of one year. */
static int32_t replay_year(Replay *rp, int64_t t)
{
    if (t < rp->year_lo || t >= rp->year_hi) {
        rp->year = fairshare_year_of(t);
        rp->year_lo = fairshare_year_start(rp->year);
        rp->year_hi = fairshare_year_start(rp->year + 1);
    }
    return rp->year;
}

/* Spread gpus x [from, to) over the days of series. */
static void spread(const FsResult *r, double *series, int64_t from, int64_t to, double gpus)
{
    for (int64_t t = from; t < to;) {
        int64_t d = civil_floor_div(t - r->t0, FS_DAY);
        int64_t dend = r->t0 + (d + 1) * FS_DAY;
        int64_t e = to < dend ? to : dend;
        if (d >= 0 && (size_t)d < r->ndays)
            series[d] += gpus * (double)(e - t) / 3600.0;
        t = e;
    }
}

static void group_roll(Replay *rp, int32_t g, int32_t year)
{
    GroupState *s = &rp->gs[g];
    if (s->year == year)
        return;
    s->year = year;
    s->used = s->replay = 0;
    s->block = -1;
}

static void block_add(Replay *rp, int32_t g, int64_t at)
{
    FsResult *r = rp->r;
    if (r->nblocks == rp->capblocks) {
        rp->capblocks = rp->capblocks ? rp->capblocks * 2 : 16;
        r->blocks = xrealloc(r->blocks, rp->capblocks * sizeof *r->blocks);
    }
    FsBlock *b = &r->blocks[r->nblocks];
    b->group = g;
    b->year = rp->gs[g].year;
    b->at = at;
    b->lost = 0;
    rp->gs[g].block = (long)r->nblocks++;
    if (r->sum[g].first_blocked == INT64_MIN)
        r->sum[g].first_blocked = at;
}

/* Charge one job; returns the GPU-hours it is allowed. */
static double charge(Replay *rp, const FsJob *j, int64_t day_end)
{
    GroupState *s = &rp->gs[j->group];
    double h = j->gpus * j->run_s / 3600.0, allowed = h;
    group_roll(rp, j->group, replay_year(rp, j->start));
    double a = alloc_of(&rp->al, j->group, s->year);
    if (!isnan(a)) {
        double room = rp->p->ceiling * a - s->replay;
        if (room < 0)
            room = 0;
        allowed = h < room ? h : room;
        if (allowed < h && s->block < 0)
            block_add(rp, j->group, j->start + (int64_t)llround(allowed / j->gpus * 3600.0));
        if (allowed < h)
            rp->r->blocks[s->block].lost += h - allowed;
    }
    s->used += h;
    s->replay += allowed;
    s->decayed += allowed * fairshare_decay((double)(day_end - j->start),
                                            rp->p->half_life_days * FS_DAY);
    FsGroupSum *sum = &rp->r->sum[j->group];
    sum->used += h;
    sum->used_allocated += isnan(a) ? 0 : h;
    sum->replayed += allowed;
    sum->lost += h - allowed;
    spread(rp->r, rp->r->machine_used, j->start, j->start + (int64_t)j->run_s, j->gpus);
    spread(rp->r, rp->r->machine_replay, j->start,
           j->start + (int64_t)llround(allowed / j->gpus * 3600.0), j->gpus);
    return allowed;
}

/* The series at the end of day d. */
static void day_close(Replay *rp, size_t d, const double *lost_before)
{
    FsResult *r = rp->r;
    int64_t t = r->t0 + (int64_t)(d + 1) * FS_DAY - 1;
    int32_t year = fairshare_year_of(t);
    double dsum = 0, asum = year >= rp->al.y0 && year < rp->al.y0 + rp->al.nyears
                                ? rp->al.total[year - rp->al.y0]
                                : 0;
    for (int32_t g = 0; g < r->ngroups; g++) {
        group_roll(rp, g, year);
        if (!isnan(alloc_of(&rp->al, g, year)))
            dsum += rp->gs[g].decayed;
    }
    for (int32_t g = 0; g < r->ngroups; g++) {
        size_t k = (size_t)g * r->ndays + d;
        const GroupState *s = &rp->gs[g];
        double a = alloc_of(&rp->al, g, year);
        r->alloc[k] = a;
        r->used_year[k] = s->used;
        r->replay_year[k] = s->replay;
        r->lost_day[k] = r->sum[g].lost - lost_before[g];
        r->blocked[k] = !isnan(a) && s->replay >= rp->p->ceiling * a - 1e-9;
        r->factor[k] = isnan(a) ? NAN
                                : fairshare_factor(dsum > 0 ? s->decayed / dsum : 0,
                                                   asum > 0 ? a / asum : 0);
    }
}

static void result_alloc(FsResult *r, int32_t ngroups, size_t ndays)
{
    size_t cells = (size_t)ngroups * ndays + 1;
    r->ngroups = ngroups;
    r->ndays = ndays;
    r->alloc = xmalloc(cells * sizeof *r->alloc);
    r->used_year = xmalloc(cells * sizeof *r->used_year);
    r->replay_year = xmalloc(cells * sizeof *r->replay_year);
    r->lost_day = xmalloc(cells * sizeof *r->lost_day);
    r->factor = xmalloc(cells * sizeof *r->factor);
    r->blocked = xcalloc(cells, 1);
    r->machine_used = xcalloc(ndays + 1, sizeof *r->machine_used);
    r->machine_replay = xcalloc(ndays + 1, sizeof *r->machine_replay);
    r->sum = xcalloc((size_t)ngroups + 1, sizeof *r->sum);
    for (int32_t g = 0; g < ngroups; g++)
        r->sum[g].first_blocked = INT64_MIN;
}

/* Jobs that hold GPU-hours, sorted by start (equal starts in the order
 * given); sets the time span. */
static const FsJob **sorted_jobs(const FsJob *jobs, size_t njobs, int32_t ngroups, size_t *n,
                                 int64_t *t0, int64_t *tend)
{
    size_t *idx = xmalloc((njobs + 1) * sizeof *idx);
    int64_t *key = xmalloc((njobs + 1) * sizeof *key), end = 0;
    *n = 0;
    for (size_t i = 0; i < njobs; i++)
        if (jobs[i].gpus > 0 && jobs[i].run_s > 0 && jobs[i].group >= 0 &&
            jobs[i].group < ngroups) {
            int64_t e = jobs[i].start + (int64_t)jobs[i].run_s;
            end = *n == 0 || e > end ? e : end;
            idx[*n] = i;
            key[(*n)++] = jobs[i].start;
        }
    size_t *order = radix_order(key, *n);
    const FsJob **v = xmalloc((*n + 1) * sizeof *v);
    for (size_t k = 0; k < *n; k++)
        v[k] = &jobs[idx[order[k]]];
    *t0 = *n ? civil_floor_div(v[0]->start, FS_DAY) * FS_DAY : 0;
    *tend = *n ? end : *t0;
    free(order);
    free(key);
    free(idx);
    return v;
}

static void blocked_days(Replay *rp)
{
    FsResult *r = rp->r;
    for (size_t i = 0; i < r->nblocks; i++) {
        int64_t end = fairshare_year_start(r->blocks[i].year + 1);
        end = end < rp->tend ? end : rp->tend;
        if (end > r->blocks[i].at)
            r->sum[r->blocks[i].group].days_blocked += (double)(end - r->blocks[i].at) / FS_DAY;
    }
}

void fairshare_replay(const FsParams *p, int32_t ngroups, const FsJob *jobs, size_t njobs,
                      const FsAlloc *allocs, size_t nallocs, FsResult *r)
{
    memset(r, 0, sizeof *r);
    size_t n;
    int64_t t0, tend;
    const FsJob **v = sorted_jobs(jobs, njobs, ngroups, &n, &t0, &tend);
    size_t ndays = n ? (size_t)civil_floor_div(tend - t0 + FS_DAY - 1, FS_DAY) : 0;
    result_alloc(r, ngroups, ndays);
    r->t0 = t0;
    Replay rp = {.p = p, .r = r, .tend = tend};
    alloc_grid(&rp.al, ngroups, fairshare_year_of(t0), fairshare_year_of(tend), allocs, nallocs);
    rp.gs = xcalloc((size_t)ngroups + 1, sizeof *rp.gs);
    double *lost_before = xcalloc((size_t)ngroups + 1, sizeof *lost_before);
    double q = fairshare_decay(FS_DAY, p->half_life_days * FS_DAY);
    size_t j = 0;
    for (size_t d = 0; d < ndays; d++) {
        int64_t day_end = t0 + (int64_t)(d + 1) * FS_DAY;
        for (int32_t g = 0; g < ngroups; g++) {
            rp.gs[g].decayed *= d ? q : 1.0;
            lost_before[g] = r->sum[g].lost;
        }
        for (; j < n && v[j]->start < day_end; j++)
            charge(&rp, v[j], day_end);
        day_close(&rp, d, lost_before);
    }
    for (int32_t g = 0; g < ngroups; g++) {
        r->sum[g].factor = ndays ? r->factor[(size_t)g * ndays + ndays - 1] : NAN;
        for (int32_t y = 0; y < rp.al.nyears; y++) {
            double a = alloc_of(&rp.al, g, rp.al.y0 + y);
            r->sum[g].allocated += isnan(a) ? 0 : a;
        }
    }
    blocked_days(&rp);
    free(lost_before);
    free(rp.gs);
    free(rp.al.v);
    free(rp.al.total);
    free(v);
}

void fairshare_result_free(FsResult *r)
{
    free(r->alloc);
    free(r->used_year);
    free(r->replay_year);
    free(r->lost_day);
    free(r->factor);
    free(r->blocked);
    free(r->machine_used);
    free(r->machine_replay);
    free(r->sum);
    free(r->blocks);
    memset(r, 0, sizeof *r);
}
