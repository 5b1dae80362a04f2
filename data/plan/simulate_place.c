/* simulate_place: which jobs stay on the GPU model they were recorded on
 * (simulate.h; the rule itself is core/sim_place.h). */
#include <string.h>

#include "core/sim_place.h"
#include "data/plan/simulate.h"

/* Could some pool of the job's cluster and model ever hold it? */
static int model_holds(const SimWorld *w, const SimJob *j)
{
    for (size_t p = 0; p < w->np; p++) {
        const SimPool *pl = &w->pools[p];
        if (pl->cluster == j->cluster && pl->units >= j->units && sim_may_use(j, pl))
            return 1;
    }
    return 0;
}

size_t simulate_place(SimWorld *w, int placement)
{
    size_t pinned = 0;
    for (size_t i = 0; i < w->n; i++) {
        SimJob *j = &w->jobs[i];
        if (j->model > 0 && (placement != SIMULATE_PLACE_RECORDED || !model_holds(w, j)))
            j->model = 0;
        pinned += j->model > 0;
    }
    return pinned;
}

int simulate_place_parse(const char *s)
{
    return strcmp(s, "any") == 0 ? SIMULATE_PLACE_ANY
           : strcmp(s, "recorded") == 0 ? SIMULATE_PLACE_RECORDED
                                        : -1;
}

const char *simulate_place_name(int placement)
{
    return placement == SIMULATE_PLACE_RECORDED ? "recorded" : "any";
}

int simulate_place_default(int64_t fleet_at)
{
    return fleet_at == SIM_NEVER ? SIMULATE_PLACE_RECORDED : SIMULATE_PLACE_ANY;
}
