/* simulate_place: which jobs stay on the GPU model they were recorded on
 * (simulate.h; the rule itself is core/sim_place.h). */
#include <stdlib.h>
#include <string.h>

#include "core/sim_place.h"
#include "data/plan/simulate.h"

/* Could some pool of the job's cluster and of model ever hold it? */
static int model_holds(const SimWorld *w, const SimJob *j, int32_t model)
{
    for (size_t p = 0; p < w->np; p++) {
        const SimPool *pl = &w->pools[p];
        if (pl->cluster == j->cluster && pl->units >= j->units && sim_may_use(j, model, pl))
            return 1;
    }
    return 0;
}

size_t simulate_place(SimWorld *w, int placement)
{
    size_t pinned = 0;
    for (size_t i = 0; w->pin && i < w->n; i++) {
        if (w->pin[i] > 0 && (placement != SIMULATE_PLACE_RECORDED ||
                              !model_holds(w, &w->jobs[i], w->pin[i])))
            w->pin[i] = 0;
        pinned += w->pin[i] > 0;
    }
    if (!pinned) {
        free(w->pin);
        w->pin = NULL;
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
