/* stats: see stats.h. The kinds, their registry and stats_run, and the
 * calendar; each kind lives in its own file (stats_util.c, stats_preempt.c,
 * stats_waits.c, stats_eff.c, stats_domains.c, stats_pubs.c, with
 * stats_events.c and stats_heat.c for utilisation's event and heat-map
 * tables) over the shared context of stats_ctx.c and the helpers of
 * stats_agg.c and stats_table.c (all declared in stats_int.h). */
#include "core/stats.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/stats_int.h"

/* ---- calendar ---- */

int64_t stats_month_start(int32_t yyyymm)
{
    return civil_days(yyyymm / 100, yyyymm % 100, 1) * DAY;
}

int32_t stats_month_of(int64_t t)
{
    int64_t y;
    int m, d;
    civil_from_days(civil_floor_div(t, DAY), &y, &m, &d);
    return (int32_t)(y * 100 + m);
}

int32_t stats_month_add(int32_t yyyymm, int k)
{
    int32_t idx = (yyyymm / 100) * 12 + (yyyymm % 100 - 1) + k;
    return (idx / 12) * 100 + idx % 12 + 1;
}

/* Slot of the week (0 = Monday 00:00 UTC .. 167) of an epoch second. */
int stats_week_slot(int64_t t)
{
    int64_t day = civil_floor_div(t, DAY);
    int dow = (int)((day % 7 + 7 + 3) % 7); /* 1970-01-01 was a Thursday */
    return dow * 24 + (int)((t - day * DAY) / HOUR);
}
/* ---- the kinds ---- */

static const struct {
    const char *name;
    unsigned needs;
    StatsBy by;
    void (*run)(const Ctx *c, StatsReport *r);
} kinds[STATS_KIND_COUNT] = {
    [STATS_UTILIZATION] = {"utilization",
                           STATS_NEED_USAGE | STATS_NEED_CELLS | STATS_NEED_ROSTER |
                               STATS_NEED_INVENTORY | STATS_NEED_EVENTS,
                           STATS_BY_MONTH, stats_kind_utilization},
    [STATS_PREEMPTION] = {"preemption", STATS_NEED_CELLS | STATS_NEED_ROSTER, STATS_BY_YEAR,
                          stats_kind_preemption},
    [STATS_WAITS] = {"waits", STATS_NEED_CELLS | STATS_NEED_ROSTER, STATS_BY_YEAR, stats_kind_waits},
    [STATS_EFFICIENCY] = {"efficiency", STATS_NEED_EFF | STATS_NEED_ROSTER,
                          STATS_BY_YEAR, stats_kind_efficiency},
    [STATS_DOMAINS] = {"domains", STATS_NEED_USAGE | STATS_NEED_ROSTER, STATS_BY_YEAR,
                       stats_kind_domains},
    [STATS_PUBS] = {"pubs", STATS_NEED_USAGE | STATS_NEED_ROSTER | STATS_NEED_PUBS, STATS_BY_YEAR,
                    stats_kind_pubs},
};

int stats_kind_parse(const char *name, StatsKind *out)
{
    if (strcmp(name, "utilisation") == 0)
        name = "utilization";
    for (int k = 0; k < STATS_KIND_COUNT; k++) {
        if (strcmp(name, kinds[k].name) == 0) {
            *out = (StatsKind)k;
            return 0;
        }
    }
    return -1;
}

const char *stats_kind_name(StatsKind k)
{
    return k < STATS_KIND_COUNT ? kinds[k].name : "?";
}

unsigned stats_kind_needs(StatsKind k)
{
    return k < STATS_KIND_COUNT ? kinds[k].needs : 0;
}

unsigned stats_opts_needs(const StatsOpts *o)
{
    unsigned n = stats_kind_needs(o->kind);
    /* the stored histograms and heat map sum every user: a group's own
     * are made from its attempts */
    return o->group && (n & (STATS_NEED_CELLS | STATS_NEED_EFF)) ? n | STATS_NEED_JOBS : n;
}

StatsBy stats_kind_default_by(StatsKind k)
{
    return k < STATS_KIND_COUNT ? kinds[k].by : STATS_BY_YEAR;
}

int stats_run(const StatsInput *in, const StatsOpts *o, StatsReport *out, CpErr *err)
{
    memset(out, 0, sizeof *out);
    out->kind = o->kind;
    out->by = o->by;
    if (o->kind >= STATS_KIND_COUNT)
        return cp_err_set(err, "unknown kind of statistics");
    Ctx c;
    int rc = stats_ctx_init(&c, in, o, err);
    if (rc == 0)
        kinds[o->kind].run(&c, out);
    stats_ctx_done(&c);
    return rc;
}
