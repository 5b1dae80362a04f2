/* stats_heat: the hour-of-week heat map (utilisation's last two tables,
 * and stats_hour_of_week for the dashboard). */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/stats_int.h"

/* GPU-hours used and provided per hour of the week over [from, to): the
 * used from the attempts when the input has them, else from the heat-map
 * aggregates of the months that [from, to) overlaps (whole runs). */
static void hour_of_week(const Ctx *c, int64_t from, int64_t to, double used[168], double cap[168])
{
    const StatsInput *in = c->in;
    Week wu, wc;
    memset(&wu, 0, sizeof wu);
    memset(&wc, 0, sizeof wc);
    for (size_t i = 0; i < in->ninventory; i++) {
        const StatsGpus *g = &in->inventory[i];
        if (!stats_cluster_name_kept(c, g->cluster))
            continue;
        int64_t a = g->from == STATS_TIME_NONE || g->from < from ? from : g->from;
        int64_t b = g->to == STATS_TIME_NONE || g->to > to ? to : g->to;
        stats_week_add(&wc, a, b, g->gpus);
    }
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        int64_t end = stats_job_end(j);
        if (j->gpus <= 0 || end == STATS_TIME_NONE || !stats_job_kept(c, i))
            continue;
        stats_week_add(&wu, stats_jstart(j) < from ? from : stats_jstart(j), end > to ? to : end, j->gpus);
    }
    stats_week_finish(&wu, used);
    stats_week_finish(&wc, cap);
    if (in->njobs > 0 || to <= from)
        return;
    int32_t m0 = stats_month_of(from), m1 = stats_month_of(to - 1);
    for (size_t i = 0; i < c->cl.nheat; i++) {
        const StatsHeat *h = &c->cl.heat[i];
        if (!c->heat_kept[i] || h->k.month < m0 || h->k.month > m1)
            continue;
        for (int s = 0; s < 168; s++)
            used[s] += h->gpu_h[s];
    }
}

void stats_hour_of_week(const StatsInput *in, const StatsOpts *o, int64_t from, int64_t to,
                        double used[168], double cap[168])
{
    Ctx c;
    if (stats_ctx_init(&c, in, o, NULL) < 0) {
        memset(used, 0, 168 * sizeof *used);
        memset(cap, 0, 168 * sizeof *cap);
    } else {
        hour_of_week(&c, from, to, used, cap);
    }
    stats_ctx_done(&c);
}

static const char *const day_name[7] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};

/* clang-format off */
static const StatsCol heat_util_cols[] = {
    {"day", "day", "", STATS_COL_TEXT, 0},
    {"h00", "00", "%", STATS_COL_REAL, 0},
    {"h01", "01", "%", STATS_COL_REAL, 0},
    {"h02", "02", "%", STATS_COL_REAL, 0},
    {"h03", "03", "%", STATS_COL_REAL, 0},
    {"h04", "04", "%", STATS_COL_REAL, 0},
    {"h05", "05", "%", STATS_COL_REAL, 0},
    {"h06", "06", "%", STATS_COL_REAL, 0},
    {"h07", "07", "%", STATS_COL_REAL, 0},
    {"h08", "08", "%", STATS_COL_REAL, 0},
    {"h09", "09", "%", STATS_COL_REAL, 0},
    {"h10", "10", "%", STATS_COL_REAL, 0},
    {"h11", "11", "%", STATS_COL_REAL, 0},
    {"h12", "12", "%", STATS_COL_REAL, 0},
    {"h13", "13", "%", STATS_COL_REAL, 0},
    {"h14", "14", "%", STATS_COL_REAL, 0},
    {"h15", "15", "%", STATS_COL_REAL, 0},
    {"h16", "16", "%", STATS_COL_REAL, 0},
    {"h17", "17", "%", STATS_COL_REAL, 0},
    {"h18", "18", "%", STATS_COL_REAL, 0},
    {"h19", "19", "%", STATS_COL_REAL, 0},
    {"h20", "20", "%", STATS_COL_REAL, 0},
    {"h21", "21", "%", STATS_COL_REAL, 0},
    {"h22", "22", "%", STATS_COL_REAL, 0},
    {"h23", "23", "%", STATS_COL_REAL, 0},
};

static const StatsCol heat_gpus_cols[] = {
    {"day", "day", "", STATS_COL_TEXT, 0},
    {"h00", "00", "GPUs", STATS_COL_REAL, 1},
    {"h01", "01", "GPUs", STATS_COL_REAL, 1},
    {"h02", "02", "GPUs", STATS_COL_REAL, 1},
    {"h03", "03", "GPUs", STATS_COL_REAL, 1},
    {"h04", "04", "GPUs", STATS_COL_REAL, 1},
    {"h05", "05", "GPUs", STATS_COL_REAL, 1},
    {"h06", "06", "GPUs", STATS_COL_REAL, 1},
    {"h07", "07", "GPUs", STATS_COL_REAL, 1},
    {"h08", "08", "GPUs", STATS_COL_REAL, 1},
    {"h09", "09", "GPUs", STATS_COL_REAL, 1},
    {"h10", "10", "GPUs", STATS_COL_REAL, 1},
    {"h11", "11", "GPUs", STATS_COL_REAL, 1},
    {"h12", "12", "GPUs", STATS_COL_REAL, 1},
    {"h13", "13", "GPUs", STATS_COL_REAL, 1},
    {"h14", "14", "GPUs", STATS_COL_REAL, 1},
    {"h15", "15", "GPUs", STATS_COL_REAL, 1},
    {"h16", "16", "GPUs", STATS_COL_REAL, 1},
    {"h17", "17", "GPUs", STATS_COL_REAL, 1},
    {"h18", "18", "GPUs", STATS_COL_REAL, 1},
    {"h19", "19", "GPUs", STATS_COL_REAL, 1},
    {"h20", "20", "GPUs", STATS_COL_REAL, 1},
    {"h21", "21", "GPUs", STATS_COL_REAL, 1},
    {"h22", "22", "GPUs", STATS_COL_REAL, 1},
    {"h23", "23", "GPUs", STATS_COL_REAL, 1},
};
/* clang-format on */

void stats_heat_tables(const Ctx *c, StatsReport *r)
{
    double used[168], cap[168], hours[168];
    Week wh;
    memset(&wh, 0, sizeof wh);
    hour_of_week(c, c->w0, c->w1, used, cap);
    stats_week_add(&wh, c->w0, c->w1, 1.0);
    stats_week_finish(&wh, hours);
    StatsTable *tu = stats_report_add_table(r, "hour_of_week", "Utilisation by hour of the week (UTC)",
                                  heat_util_cols, sizeof heat_util_cols / sizeof *heat_util_cols);
    StatsTable *tg =
        stats_report_add_table(r, "hour_of_week_gpus", "Mean GPUs in use by hour of the week (UTC)",
                     heat_gpus_cols, sizeof heat_gpus_cols / sizeof *heat_gpus_cols);
    for (int d = 0; d < 7; d++) {
        StatsCell *ru = stats_table_add_row(tu);
        stats_cell_set_text(tu, &ru[0], day_name[d]);
        StatsCell *rg = stats_table_add_row(tg);
        stats_cell_set_text(tg, &rg[0], day_name[d]);
        for (int h = 0; h < 24; h++) {
            ru[1 + h].num = 100 * stats_ratio(used[d * 24 + h], cap[d * 24 + h]);
            rg[1 + h].num = stats_ratio(used[d * 24 + h], hours[d * 24 + h]);
        }
    }
}
