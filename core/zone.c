/* zone: see zone.h. */
#include "core/zone.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TZ_WINDOW (14 * 3600)    /* no offset is further than this from UTC */

CpTz tz_fixed(int32_t off_s)
{
    CpTz z;
    memset(&z, 0, sizeof z);
    z.base_s = off_s;
    int32_t a = off_s < 0 ? -off_s : off_s;
    snprintf(z.name, sizeof z.name, "%c%02d:%02d", off_s < 0 ? '-' : '+', a / 3600, a / 60 % 60);
    return z;
}

void tz_done(CpTz *tz)
{
    free(tz->trans);
    tz->trans = NULL;
    tz->n = 0;
}

int32_t tz_offset_at(const CpTz *tz, int64_t t)
{
    if (!tz)
        return 0;
    if (tz->n == 0 || t < tz->trans[0].at)
        return tz->base_s;
    size_t lo = 0, hi = tz->n; /* trans[lo].at <= t < trans[hi].at */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (tz->trans[mid].at <= t)
            lo = mid;
        else
            hi = mid;
    }
    return tz->trans[lo].off_s;
}

int64_t tz_wall_to_utc(const CpTz *tz, int64_t wall)
{
    if (!tz)
        return wall;
    int32_t before = tz_offset_at(tz, wall - TZ_WINDOW);
    int32_t after = tz_offset_at(tz, wall + TZ_WINDOW);
    if (tz_offset_at(tz, wall - before) == before)
        return wall - before; /* also the first of two instants */
    if (tz_offset_at(tz, wall - after) == after)
        return wall - after;
    return wall - before; /* in a skipped hour */
}
