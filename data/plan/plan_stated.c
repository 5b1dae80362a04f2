/* plan_stated: stated needs into the projection (plan_stated.h). */
#include "data/plan/plan_stated.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "data/store/store_meetings.h"

int plan_stated_load(Store *st, const Plan *p, PlanStated **out, int *n, CpErr *err)
{
    *out = NULL;
    *n = 0;
    if (p->cpu || !p->model)
        return 0;
    StoreNeed *v;
    size_t nv;
    if (store_meetings_needs(st, &v, &nv, err) < 0)
        return -1;
    char t0[32];
    fields_iso(p->win_end, t0, sizeof t0); /* "YYYY-MM-DD...": a date before it was known */
    t0[10] = 0;
    PlanStated *s = xcalloc(nv + 1, sizeof *s);
    int k = 0;
    for (size_t i = 0; i < nv; i++) {
        if (strcmp(v[i].date, t0) >= 0 || isnan(v[i].num[NEED_GPUS]))
            continue;
        int g = plan_group_index(p, v[i].group);
        if (g < 0)
            continue;
        /* rows come by group, user, date: a later one of the same (user, group)
         * known at t0 replaces the earlier */
        if (k > 0 && strcmp(s[k - 1].user, v[i].user) == 0 &&
            strcmp(s[k - 1].group, v[i].group) == 0) {
            k--;
            free(s[k].user);
            free(s[k].group);
            free(s[k].date);
        }
        PlanStated *x = &s[k++];
        x->user = xstrdup(v[i].user);
        x->group = xstrdup(v[i].group);
        x->date = xstrdup(v[i].date);
        x->gpus = v[i].num[NEED_GPUS];
        x->group_idx = g;
        x->proj_user = -1;
        for (int u = 0; u < p->nproj_users; u++)
            if (strcmp(p->proj_user_name[u], x->user) == 0 &&
                projection_user_group(p->model, u) == g)
                x->proj_user = u;
    }
    store_meetings_needs_free(v, nv);
    *out = s;
    *n = k;
    return 0;
}

void plan_stated_free(PlanStated *v, int n)
{
    for (int i = 0; i < n; i++) {
        free(v[i].user);
        free(v[i].group);
        free(v[i].date);
    }
    free(v);
}

double plan_stated_part(const Plan *p, const ProjParams *params, const PlanStated *s, int y,
                        double *use, double *pres)
{
    *use = 0;
    *pres = 1;
    if (s->proj_user < 0)
        return s->gpus;
    *use = projection_user_use(p->model, params, s->proj_user, y);
    *pres = projection_user_present(p->model, s->proj_user, y);
    double x = s->gpus * *pres - *use;
    return x > 0 ? x : 0;
}

int plan_stated_apply(Store *st, Plan *p, CpErr *err)
{
    PlanStated *v;
    int n;
    if (plan_stated_load(st, p, &v, &n, err) < 0)
        return -1;
    for (int i = 0; i < n; i++)
        projection_set_stated(p->model, v[i].proj_user, v[i].group_idx, v[i].gpus);
    plan_stated_free(v, n);
    return 0;
}
