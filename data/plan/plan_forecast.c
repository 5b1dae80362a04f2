/* plan_forecast: the forecaster and the ranges' past coverage in words, the
 * same line in every output (issue 28; data/plan/plan.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/plan/plan_int.h"

void plan_forecaster_text(const PlanBacktest *b, char *buf, size_t n)
{
    char name[96];
    fc_cand_name(b->choice.cand, name, sizeof name);
    if (b->choice.nrec >= FC_MIN_RECORD)
        snprintf(buf, n, "forecaster: %s, best over %d cuts", name, b->choice.nrec);
    else
        snprintf(buf, n, "forecaster: %s (the default: %d earlier cuts, %d needed to choose)",
                 name, b->choice.nrec, FC_MIN_RECORD);
}

void plan_coverage_text(const PlanBacktest *b, char *buf, size_t n)
{
    int cal = 0, in = 0;
    for (int i = 0; i < b->ncuts; i++)
        if (b->cuts[i].calibrated && !b->cuts[i].apart) {
            cal++;
            in += b->cuts[i].cover_total;
        }
    if (cal == 0)
        snprintf(buf, n, "p10-p90 not yet tested (no past cut had a range)");
    else
        snprintf(buf, n, "p10-p90 held %d of %d past cuts", in, cal);
}

int plan_is_month_start(int64_t t)
{
    return plan_ym_start(plan_month_of(t)) == t;
}

/* The forecaster's levels and ranges into the model. */
static void apply_levels(Plan *p)
{
    const PlanBacktest *b = p->bt;
    if (!b || !b->target || b->ntarget == 0)
        return;
    ProjModel *m = p->model;
    ProjResult *r = projection_result_new(m);
    projection_run(m, p->measured, r);
    int Y = r->nyears;
    double *tg = xcalloc((size_t)p->ngroups + 1, sizeof *tg);
    double rest = b->target[b->ntarget]; /* what the groups here do not take: new groups */
    for (int h = 0; h < b->ntarget; h++) {
        int g = plan_group_index(p, b->target_groups[h]);
        if (g >= 0)
            tg[g] = b->target[h];
    }
    double extra = 0;
    for (int h = 0; h < b->ntarget; h++)
        if (plan_group_index(p, b->target_groups[h]) < 0)
            extra += b->target[h]; /* groups without members now */
    for (int g = 0; g < p->ngroups; g++) {
        double base = r->gy[(size_t)g * Y].base;
        rest -= tg[g];
        if (base > 0)
            projection_set_level(m, g, tg[g] / base);
        int c = fc_size_class(tg[g], b->target[b->ntarget]);
        if (b->choice.range.n && b->choice.range.gn[c])
            projection_set_group_range(m, g, b->choice.range.gq10[c], b->choice.range.gq90[c]);
    }
    rest -= extra;
    double ng = r->total[0].new_groups;
    projection_set_extra(m, extra);
    if (ng > 0)
        projection_set_level(m, -1, rest > 0 ? rest / ng : 0);
    else
        projection_set_extra(m, extra + (rest > 0 ? rest : 0));
    projection_result_free(r);
    free(tg);
}

void plan_forecast_apply(Plan *p)
{
    apply_levels(p);
    projection_cap_pools(p->model, p->measured);
}

int64_t plan_obs_end(int64_t t)
{
    int64_t next = plan_ym_start(plan_ym_add(plan_month_of(t - 1), 1));
    return next - t < 86400 ? next : t;
}
