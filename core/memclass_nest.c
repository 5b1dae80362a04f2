/* memclass_nest: see core/memclass_nest.h. */
#include "core/memclass_nest.h"

void memclass_nest(const double need[MEMCLASS_COUNT], const double cap[MEMCLASS_COUNT],
                   double gap[MEMCLASS_COUNT])
{
    double room[MEMCLASS_COUNT];
    for (int k = 0; k < MEMCLASS_COUNT; k++)
        room[k] = cap[k] - need[k];
    /* the biggest short class first: it has the fewest classes to draw on */
    for (int k = MEMCLASS_GT80 - 1; k >= MEMCLASS_24; k--)
        for (int j = k + 1; j <= MEMCLASS_GT80 && room[k] < 0; j++)
            if (room[j] > 0) {
                double take = -room[k] < room[j] ? -room[k] : room[j];
                room[k] += take;
                room[j] -= take;
            }
    for (int k = 0; k < MEMCLASS_COUNT; k++)
        gap[k] = 0.0 - room[k]; /* +0, not -0, when nothing is left */
}
