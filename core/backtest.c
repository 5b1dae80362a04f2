#include "core/backtest.h"
#include "core/features.h"

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

/* By selection, not a sort (issue 31: the backtest's ranges took a fifth of
 * an import's planner refresh in qsort): the same order statistics, so the
 * same figure to the bit; v is reordered, not sorted. */
double backtest_percentile(double *v, int n, double p)
{
    if (n <= 0)
        return NAN;
    return features_percentile(v, n, p);
}
