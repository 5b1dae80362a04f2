/* simulate_fair: the fair-share order's inputs from the store's
 * allocations (#33; the rule is in simulate.h). */
#include "data/plan/simulate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/fairshare.h"
#include "core/policy.h"
#include "data/store/store_policy.h"

/* The GPU-hours (or processor-hours) the pools give in calendar year y. */
static double year_capacity(const SimWorld *w, int32_t y)
{
    int64_t a = fairshare_year_start(y), b = fairshare_year_start(y + 1);
    double h = 0;
    for (size_t p = 0; p < w->np; p++) {
        int64_t f = w->pools[p].from > a ? w->pools[p].from : a;
        int64_t t = w->pools[p].to < b ? w->pools[p].to : b;
        if (t > f)
            h += (double)w->pools[p].units * (double)(t - f) / 3600.0;
    }
    return h;
}

/* The shares of year y into sh[g * ny + k]. */
static void year_shares(const SimWorld *w, const PolicyAlloc *al, size_t na, int32_t y,
                        size_t k, size_t ny, double *sh)
{
    size_t ng = w->raw.ngroups;
    double sum = 0, cap = year_capacity(w, y);
    unsigned char *has = xcalloc(ng + 1, 1);
    for (size_t i = 0; i < na; i++) {
        if (al[i].year != y)
            continue;
        sum += al[i].gpu_hours;
        long g = store_sim_find(w->raw.groups, ng, al[i].group);
        if (g >= 0) {
            sh[(size_t)g * ny + k] += al[i].gpu_hours;
            has[g] = 1;
        }
    }
    if (cap <= 0)
        cap = sum;
    size_t nun = 0;
    for (size_t g = 0; g < ng; g++)
        nun += !has[g];
    double rest = cap > sum ? (cap - sum) / cap : 0;
    for (size_t g = 0; g < ng; g++)
        sh[g * ny + k] = has[g] ? (cap > 0 ? sh[g * ny + k] / cap : 0) : rest / (double)nun;
    free(has);
}

int simulate_fair_load(Store *st, const char *scenario, const SimWorld *w, SimFairSpec *f,
                       CpErr *err)
{
    memset(f, 0, sizeof *f);
    StorePolicyData *d = store_policy_load(st, scenario, err);
    if (!d)
        return -1;
    PolicyInput in;
    memset(&in, 0, sizeof in);
    store_policy_input(d, NULL, &in);
    int32_t y0 = INT32_MAX, y1 = INT32_MIN;
    for (size_t i = 0; i < in.nallocs; i++) {
        y0 = in.allocs[i].year < y0 ? in.allocs[i].year : y0;
        y1 = in.allocs[i].year > y1 ? in.allocs[i].year : y1;
    }
    if (in.nallocs && w->raw.ngroups) {
        size_t ny = (size_t)(y1 - y0 + 1), ng = w->raw.ngroups;
        f->share = xcalloc(ng * ny, sizeof *f->share);
        for (size_t k = 0; k < ny; k++)
            year_shares(w, in.allocs, in.nallocs, y0 + (int32_t)k, k, ny, f->share);
        f->fair = (SimFair){.ngroups = (int32_t)ng, .y0 = y0, .nyears = (int32_t)ny,
                            .share = f->share,
                            .half_life_s = in.params.half_life_days * 86400.0};
        f->on = 1;
    }
    store_policy_free(d);
    return 0;
}

const SimFair *simulate_fair_of(const SimFairSpec *f)
{
    return f->on ? &f->fair : NULL;
}

void simulate_fair_free(SimFairSpec *f)
{
    free(f->share);
    memset(f, 0, sizeof *f);
}
