#ifndef POLICY_DEMAND_H
#define POLICY_DEMAND_H
/* policy_demand: the projected demand that the allocation-policy replay
 * (core/policy, `capplan stats policy`) sets beside the allocations: the
 * planner (data/plan/plan.h) run on the store for one scenario. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"

typedef struct Store Store;

/* The projected demand of scenario ("base" or NULL: the measured
 * parameters): total GPUs per projection year (*gpus) and the calendar
 * year each starts in (*years), *n years, through data/plan and
 * core/projection. Caller frees both arrays. 0, or -1 with err (no
 * profiles, no such scenario). */
int store_policy_projection(Store *st, const char *scenario, double **gpus, int32_t **years,
                            size_t *n, CpErr *err);

#endif
