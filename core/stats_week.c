/* The hours of the week (core/stats_week.c): a job's GPU-hours spread over
 * the 168 hours of the week it ran in (the heat map), by a difference
 * array and whole laps, summed once at the end. */
#include "core/civil.h"
#include "core/stats_int.h"

/* Add w per hour over [a, b). */
void stats_week_add(Week *wk, int64_t a, int64_t b, double w)
{
    if (b <= a)
        return;
    int64_t ha = civil_floor_div(a, HOUR), hb = civil_floor_div(b, HOUR);
    int sa = stats_week_slot(a);
    if (ha == hb) {
        wk->slot[sa] += w * (double)(b - a) / HOUR;
        return;
    }
    wk->slot[sa] += w * (double)((ha + 1) * HOUR - a) / HOUR;
    wk->slot[stats_week_slot(b)] += w * (double)(b - hb * HOUR) / HOUR;
    int64_t full = hb - ha - 1; /* whole hours ha + 1 .. hb - 1 */
    wk->laps += w * (double)(full / 168);
    int s = (sa + 1) % 168, rem = (int)(full % 168);
    wk->diff[s] += w;
    if (s + rem <= 168) {
        wk->diff[s + rem] -= w;
    } else {
        wk->diff[168] -= w;
        wk->diff[0] += w;
        wk->diff[s + rem - 168] -= w;
    }
}

void stats_week_finish(const Week *wk, double out[168])
{
    double run = 0;
    for (int s = 0; s < 168; s++) {
        run += wk->diff[s];
        out[s] = wk->slot[s] + run + wk->laps;
    }
}
