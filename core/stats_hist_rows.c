/* Histogram rows (core/stats_hist_rows.c): the buckets of (period, a, b,
 * kind) summed in an Agg keyed (period, a, b, kind << 16 | bucket). */
#include "core/stats_int.h"

void stats_hist_rows_put(Agg *rows, int32_t p, int32_t a, int32_t b, int what,
                         const StatsHistAcc *y)
{
    StatsHistAcc *x = stats_agg_get(rows, p, a, b, (int32_t)what << 16 | (int32_t)y->bucket);
    x->bucket = y->bucket;
    x->count += y->count;
    x->sum += y->sum;
}

void stats_hist_rows_add(Agg *rows, int32_t p, int32_t a, int32_t b, const StatsHist *e)
{
    StatsHistAcc y = {e->bucket, e->count, e->sum};
    stats_hist_rows_put(rows, p, a, b, e->what, &y);
}

size_t stats_hist_rows_run(const Agg *rows, const size_t *order, size_t i, StatsHistAcc **buf,
                           size_t *cap, size_t *n)
{
    const AggKey *k0 = &rows->keys[order[i]];
    *n = 0;
    for (; i < rows->n; i++) {
        const AggKey *k = &rows->keys[order[i]];
        if (k->period != k0->period || k->a != k0->a || k->b != k0->b ||
            (k->c >> 16) != (k0->c >> 16))
            break;
        if (*n == *cap)
            *buf = xrealloc(*buf, (*cap = *cap ? *cap * 2 : 256) * sizeof **buf);
        (*buf)[(*n)++] = *(const StatsHistAcc *)stats_agg_val(rows, order[i]);
    }
    return i;
}

void stats_hist_rows_sum(Agg *rows)
{
    size_t n = rows->n;
    for (size_t i = 0; i < n; i++) {
        AggKey k = rows->keys[i];
        StatsHistAcc x = *(const StatsHistAcc *)stats_agg_val(rows, i);
        stats_hist_rows_put(rows, k.period, -1, -1, k.c >> 16, &x);
        stats_hist_rows_put(rows, k.period, -1, k.b, k.c >> 16, &x);
        stats_hist_rows_put(rows, k.period, k.a, -1, k.c >> 16, &x);
    }
}
