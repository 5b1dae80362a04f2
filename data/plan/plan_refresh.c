/* plan_refresh: after an import, build the plan `capplan project` would
 * build with its default options, so that the planner's cache (plan_cache.c)
 * and the saved profiles are current before anyone plans (issue 14 item 15,
 * issue 20 item 3; docs/plan-speed.md). */
#include <string.h>

#include "data/plan/plan.h"
#include "data/store/store_plan.h"

int plan_cache_refresh(Store *st, int save_profiles, CpErr *err)
{
    char jobs[96];
    int any, clean;
    if (store_plan_has_jobs(st, &any, err) < 0 ||
        (any && store_plan_jobs_state(st, jobs, sizeof jobs, &clean, err) < 0))
        return -1;
    if (!any || !clean) /* nothing to plan, or blocks not synced: nothing may be cached */
        return 0;
    PlanOpts o;
    memset(&o, 0, sizeof o);
    Plan *p = plan_build(st, &o, err); /* a cache hit is the no-op: it reads the entry */
    if (!p)
        return -1;
    int rc = 0;
    if (save_profiles && !p->reused && p->nusers > 0 && plan_save(st, p, plan_who(), err) < 0)
        rc = -1;
    plan_free(p);
    return rc;
}
