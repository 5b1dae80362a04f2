/* policy_demand: see policy_demand.h. */
#include "data/plan/policy_demand.h"

#include <string.h>

#include "core/fairshare.h"
#include "core/projection.h"
#include "data/plan/plan.h"

int store_policy_projection(Store *st, const char *scenario, double **gpus, int32_t **years,
                            size_t *n, CpErr *err)
{
    PlanOpts o;
    memset(&o, 0, sizeof o);
    *gpus = NULL;
    *years = NULL;
    *n = 0;
    Plan *p = plan_build(st, &o, err);
    if (!p)
        return -1;
    ProjParams *params = NULL;
    if (plan_params(st, p, scenario, &params, NULL, err) < 0) {
        plan_free(p);
        return -1;
    }
    ProjResult *r = projection_result_new(p->model);
    projection_run(p->model, params, r);
    *n = (size_t)r->nyears;
    *gpus = xmalloc((*n + 1) * sizeof **gpus);
    *years = xmalloc((*n + 1) * sizeof **years);
    for (int y = 1; y <= r->nyears; y++) {
        int64_t from, to;
        projection_year_span(p->model, y, &from, &to);
        (*gpus)[y - 1] = r->total[y - 1].demand;
        (*years)[y - 1] = fairshare_year_of(from);
    }
    projection_result_free(r);
    projection_params_free(params);
    plan_free(p);
    return 0;
}
