#ifndef SIM_RESAMPLE_H
#define SIM_RESAMPLE_H
/* sim_resample: next year's jobs drawn from the last year's, each group's
 * scaled to its expected use. Pure computation (core/rng, fixed seeds). */

#include <stddef.h>
#include <stdint.h>

#include "core/sim.h"

#define SIM_JITTER_S (7 * 86400 / 2) /* copies move up to 3.5 days either way */

/* From jobs[0..n): those submitted in [from, to) (the last year), moved
 * by to - from (the next year), group g's scaled by factor[g] (g <
 * ngroups; others 1): a factor below 1 keeps each job with that
 * probability; above 1 keeps every job, adds floor(factor - 1) copies and
 * one more with the fraction's probability, each copy's submit moved by a
 * uniform jitter of up to SIM_JITTER_S either way and wrapped into the
 * next year. Jobs submitted in [warm_from, to) are kept too, unmoved (the
 * queue the next year starts with). Recorded starts are dropped. Returns
 * the new array (caller frees), *nout its length. */
SimJob *sim_resample(const SimJob *jobs, size_t n, const double *factor, size_t ngroups,
                     int64_t from, int64_t to, int64_t warm_from, uint64_t seed, size_t *nout);

#endif
