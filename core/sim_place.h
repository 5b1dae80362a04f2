#ifndef SIM_PLACE_H
#define SIM_PLACE_H
/* sim_place: which pools a job may run on (core/sim's placement rule).
 * Pure computation, no I/O.
 *
 * A job may use a pool of its cluster with at least its GPU memory
 * (memory classes nest). A job pinned to a GPU model (model > 0, from
 * SimHow.pin: placement "recorded", the model it ran on, as a typed
 * request gres/gpu:MODEL or a partition per model pins it in Slurm) may
 * use only the pools of that model (SimPool.model equal); model 0 uses
 * any. */

#include "core/sim.h"

static inline int sim_may_use(const SimJob *j, int32_t model, const SimPool *p)
{
    return p->mem_gib >= j->mem_gib && (model == 0 || model == p->model);
}

#endif
