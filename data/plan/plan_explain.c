/* plan_explain: a year's need in parts (plan_explain.h). */
#include "data/plan/plan_explain.h"

#include <stdio.h>

#include "core/civil.h"

const char *const plan_explain_part_names[PLAN_X_PARTS] = {
    "stayers", "leavers", "newcomers", "intensity", "pool share", "buffer share", "stated need",
};

static void group_parts(const Plan *p, const ProjParams *params, const ProjResult *r, int g,
                        int y, PlanExplain *ex)
{
    const ProjGroupYear *t = &r->gy[(size_t)g * r->nyears + (y - 1)];
    double v[PLAN_X_PARTS] = {t->stayers,   t->leavers, t->newcomers_use,
                              t->intensity, t->pool,    t->buffer_add, t->stated};
    for (int k = 0; k < PLAN_X_PARTS; k++)
        ex->part[k] = v[k];
    ex->need = t->demand;
    ex->need_r = t->demand_r;
    ex->heads0 = projection_heads0(p->model, g);
    ex->arrivals = t->arrivals;
    ex->newcomers = t->newcomers;
    ex->buffer_rate = params->buffer[g];
}

/* The institute: its groups' stayers, leavers, newcomers (plus new
 * groups) and intensity; its own (shared) pool and buffer. The base may be
 * clamped at 0 per group, so expected use is its parts' sum only when no
 * group's was; the difference, if any, stays in intensity's column being
 * the last part of base. */
static void institute_parts(const Plan *p, const ProjResult *r, int y, PlanExplain *ex)
{
    const ProjTotals *t = &r->total[y - 1];
    double base = 0;
    for (int g = 0; g < r->ngroups; g++) {
        const ProjGroupYear *x = &r->gy[(size_t)g * r->nyears + (y - 1)];
        ex->part[PLAN_X_STAYERS] += x->stayers;
        ex->part[PLAN_X_LEAVERS] += x->leavers;
        ex->part[PLAN_X_NEWCOMERS] += x->newcomers_use;
        ex->heads0 += projection_heads0(p->model, g);
        ex->arrivals += x->arrivals;
        ex->newcomers += x->newcomers;
    }
    ex->new_groups = t->new_groups;
    ex->newcomers += t->new_heads;
    ex->part[PLAN_X_NEWCOMERS] += t->new_groups;
    base = ex->part[PLAN_X_STAYERS] + ex->part[PLAN_X_LEAVERS] + ex->part[PLAN_X_NEWCOMERS];
    ex->part[PLAN_X_INTENSITY] = t->base - base;
    ex->part[PLAN_X_POOL] = t->pool;
    ex->part[PLAN_X_BUFFER] = t->buffer_add;
    ex->part[PLAN_X_STATED] = t->stated;
    ex->pool_shared = t->pool_sum - t->pool;
    ex->need = t->demand;
    ex->need_r = t->demand_r;
    double sb = t->base + t->pool;
    ex->buffer_rate = sb > 0 ? t->buffer_add / sb : p->institute_buffer;
}

int plan_explain(const Plan *p, const ProjParams *params, const ProjResult *r, int g, int y,
                 PlanExplain *ex)
{
    *ex = (PlanExplain){0};
    if (!p->model || g >= r->ngroups || g < -1 || y < 1 || y > r->nyears)
        return -1;
    ex->group = g;
    ex->year = y;
    if (g >= 0)
        group_parts(p, params, r, g, y, ex);
    else
        institute_parts(p, r, y, ex);
    ex->used_now = projection_used_now(p->model, g);
    ex->used_cover = projection_window_cover(p->model);
    ex->heads_t0 = projection_heads_t0(p->model, g);
    ex->maturation = projection_maturation(p->model);
    ex->ramp = projection_ramp(p->model, g);
    ex->intensity_rate = params->intensity;
    return 0;
}

int plan_explain_people(const Plan *p, int g, int y, int leaving, int *idx, int max)
{
    int n = 0;
    for (int i = 0; p->model && i < p->nproj_users; i++) {
        if (g >= 0 && projection_user_group(p->model, i) != g)
            continue;
        if (leaving && (projection_user_leaves(p->model, i) == PROJ_NEVER ||
                        projection_user_present(p->model, i, y) >= 1))
            continue; /* issue 28: those with no known date leave by the churn */
        if (n < max)
            idx[n] = i;
        n++;
    }
    return n;
}

int plan_explain_matured(const Plan *p, int g, int *idx, int max)
{
    int n = 0;
    for (int i = 0; p->model && i < p->nproj_users; i++) {
        if ((g >= 0 && projection_user_group(p->model, i) != g) ||
            !projection_user_matured(p->model, i))
            continue;
        if (n < max)
            idx[n] = i;
        n++;
    }
    return n;
}

void plan_explain_leave_text(const Plan *p, int i, int y, char *buf, size_t n)
{
    int64_t from, to, end = p->model ? projection_user_leaves(p->model, i) : PROJ_NEVER;
    if (n)
        buf[0] = 0;
    if (!p->model || y < 1 || y > projection_nyears(p->model) || n == 0)
        return;
    projection_year_span(p->model, y, &from, &to);
    if (end == PROJ_NEVER || end >= to)
        return;
    int64_t yy;
    int mo, d;
    civil_from_days(civil_floor_div(end, 86400), &yy, &mo, &d);
    int64_t y1;
    projection_year_span(p->model, 1, &y1, &to);
    if (end <= y1)
        snprintf(buf, n, " (left %04lld-%02d-%02d, before year 1)", (long long)yy, mo, d);
    else
        snprintf(buf, n, " (leaves %04lld-%02d-%02d)", (long long)yy, mo, d);
}
