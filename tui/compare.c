/* compare: two scenarios side by side (compare.h). */
#include "tui/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/plan/plan.h"
#include "tui/plan.h"

/* The stored edits of scenario name ("base": none). */
static int read_edits(Store *st, const char *name, StorePlanParam **out, size_t *n, CpErr *err)
{
    *out = NULL;
    *n = 0;
    return strcmp(name, "base") == 0 ? 0 : store_plan_params(st, name, out, n, err);
}

static const StorePlanParam *find(const StorePlanParam *v, size_t n, const char *key,
                                  const char *group)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i].key, key) == 0 && strcmp(v[i].group, group) == 0)
            return &v[i];
    return NULL;
}

/* The measured value of (key, group) in the plan's base parameters. */
static double measured(TuiPlan *tp, const char *key, const char *group)
{
    const Plan *p = tui_plan_plan(tp);
    int g = group[0] ? plan_group_index(p, group) : -1;
    return tui_plan_value(tp, key, g < 0 ? 0 : g, 1);
}

static void add_edit(TuiCompare *c, TuiPlan *tp, const StorePlanParam *ea,
                     const StorePlanParam *eb)
{
    const StorePlanParam *e = eb ? eb : ea;
    CmpEdit x;
    memset(&x, 0, sizeof x);
    x.key = e->key;
    x.group = e->group;
    x.edited_a = ea != NULL;
    x.edited_b = eb != NULL;
    double m = measured(tp, e->key, e->group);
    x.a = ea ? ea->value : m;
    x.b = eb ? eb->value : m;
    if (x.a == x.b)
        return; /* edited alike in both, or to the measured value */
    x.why = e;
    x.why_from_a = eb == NULL;
    c->edits = xrealloc(c->edits, (size_t)(c->nedits + 1) * sizeof *c->edits);
    c->edits[c->nedits++] = x;
}

/* Every parameter on which A and B differ: B's edits, then A's alone. */
static void diff_edits(TuiCompare *c, TuiPlan *tp)
{
    for (size_t i = 0; i < c->npb; i++)
        add_edit(c, tp, find(c->pa, c->npa, c->pb[i].key, c->pb[i].group), &c->pb[i]);
    for (size_t i = 0; i < c->npa; i++)
        if (!find(c->pb, c->npb, c->pa[i].key, c->pa[i].group))
            add_edit(c, tp, &c->pa[i], NULL);
}

static void fill_side(TuiCompare *c, int side, const ProjResult *r)
{
    for (int y = 0; y < c->ny; y++) {
        c->need[side][y] = r->total[y].demand;
        c->capacity[side][y] = r->total[y].capacity;
        for (int k = 0; k < TUI_CLASSES; k++)
            c->need_c[side][y][k] = r->total[y].demand_c[k];
    }
}

/* Each differing parameter's effect alone: A's parameters with it set to
 * B's value, next year's total need against A's. */
static void effects(TuiCompare *c, TuiPlan *tp, const ProjParams *pa, ProjResult *r)
{
    const Plan *p = tui_plan_plan(tp);
    for (int i = 0; i < c->nedits; i++) {
        CmpEdit *x = &c->edits[i];
        ProjParams *one = projection_params_copy(pa);
        CpErr err = {""};
        const char *label = x->why->label;
        x->effect = NAN;
        if (plan_apply(p, one, x->key, x->group, label, x->b, &err) == 1) {
            projection_run(p->model, one, r);
            x->effect = r->nyears > 0 ? r->total[0].demand - c->need[0][0] : NAN;
        }
        projection_params_free(one);
    }
}

TuiCompare *compare_new(Store *st, TuiPlan *tp, const TuiModel *m, const char *a, const char *b,
                        CpErr *err)
{
    const Plan *p = tui_plan_plan(tp);
    if (!p)
        return cp_err_set(err, "the planner is not available"), NULL;
    TuiCompare *c = xcalloc(1, sizeof *c);
    snprintf(c->a, sizeof c->a, "%s", a);
    snprintf(c->b, sizeof c->b, "%s", b);
    ProjParams *pa = NULL, *pb = NULL;
    ProjResult *r = projection_result_new(p->model);
    int ok = plan_params(st, p, a, &pa, NULL, err) == 0 && plan_params(st, p, b, &pb, NULL, err) == 0 &&
             read_edits(st, a, &c->pa, &c->npa, err) == 0 &&
             read_edits(st, b, &c->pb, &c->npb, err) == 0;
    if (ok) {
        c->ny = r->nyears < CMP_YEARS ? r->nyears : CMP_YEARS;
        for (int y = 0; y < c->ny; y++) {
            int i = m->nhist_years + y;
            c->year[y] = i < m->nyears && m->years[i].projected ? m->years[i].year : y + 1;
        }
        projection_run(p->model, pb, r);
        fill_side(c, 1, r);
        projection_run(p->model, pa, r);
        fill_side(c, 0, r);
        diff_edits(c, tp);
        effects(c, tp, pa, r);
    }
    projection_result_free(r);
    projection_params_free(pa);
    projection_params_free(pb);
    if (!ok) {
        compare_free(c);
        return NULL;
    }
    return c;
}

void compare_free(TuiCompare *c)
{
    if (!c)
        return;
    free(c->edits);
    store_plan_params_free(c->pa, c->npa);
    store_plan_params_free(c->pb, c->npb);
    free(c);
}
