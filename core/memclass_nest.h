/* memclass_nest: gaps per GPU memory class that nest (issue 33). A job of
 * a small memory class runs on any GPU with at least its memory, so a
 * class is short only when no bigger class has room left to serve it. */
#ifndef MEMCLASS_NEST_H
#define MEMCLASS_NEST_H

#include "core/profiles.h"

/* gap[k] = need - capacity of class k (positive: short, negative: room)
 * after the room of the bigger classes (24 < 48 < 80 < over 80) served the
 * smaller classes' shortfalls, the biggest short class first and from the
 * nearest bigger class with room (this serves the most need: a smaller
 * class can use every GPU a bigger one can). MEMCLASS_UNKNOWN is not
 * nested: its gap is need - capacity. The classes' gaps sum to the same
 * total as the unnested ones; when gap[k] > 0 no class above k has room. */
void memclass_nest(const double need[MEMCLASS_COUNT], const double cap[MEMCLASS_COUNT],
                   double gap[MEMCLASS_COUNT]);

#endif
