#include "core/backtest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double backtest_wape(const double *pred, const double *actual, int n)
{
    double err = 0, tot = 0;
    for (int i = 0; i < n; i++) {
        err += fabs(pred[i] - actual[i]);
        tot += actual[i];
    }
    return tot > 0 ? err / tot : -1;
}

void backtest_score(BtGroup *groups, int n, BtScore *out)
{
    memset(out, 0, sizeof *out);
    double e_naive = 0, e_base = 0, e_demand = 0;
    for (int i = 0; i < n; i++) {
        BtGroup *g = &groups[i];
        g->naive = g->before * (1 + g->growth);
        g->err_naive = fabs(g->naive - g->after);
        g->err_base = fabs(g->model_base - g->after);
        g->err_demand = fabs(g->model_demand - g->after);
        out->after += g->after;
        out->naive += g->naive;
        out->base += g->model_base;
        out->demand += g->model_demand;
        e_naive += g->err_naive;
        e_base += g->err_base;
        e_demand += g->err_demand;
    }
    out->wape_naive = out->after > 0 ? e_naive / out->after : -1;
    out->wape_base = out->after > 0 ? e_base / out->after : -1;
    out->wape_demand = out->after > 0 ? e_demand / out->after : -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double backtest_percentile(double *v, int n, double p)
{
    if (n <= 0)
        return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    double r = p / 100 * (n - 1);
    int i = (int)r;
    return i + 1 < n ? v[i] + (r - i) * (v[i + 1] - v[i]) : v[n - 1];
}
