#ifndef TZ_H
#define TZ_H
/* tz: the zone of times written without one (import --tz). A zone is a
 * fixed offset ("+02:00", "UTC") or an IANA name ("Europe/Paris",
 * "America/New_York") with its daylight-saving rules, read once from the
 * system's tz database through the C library (localtime_r) into a table
 * of transitions; after that, every conversion is a pure lookup, safe from
 * any thread. Covers 1970 to 2100; before and after, the nearest offset.
 *
 * Wall-clock times that a daylight-saving change makes ambiguous (the hour
 * repeated in autumn) are read as the first of the two instants (still on
 * summer time); times that do not exist (the hour skipped in spring) are
 * read with the offset in force before the change (02:30 -> 03:30 summer
 * time), as mktime does for a time with tm_isdst = 0. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"

/* One change: from the UTC instant at on, the offset is off_s seconds east. */
typedef struct TzTrans {
    int64_t at;
    int32_t off_s;
} TzTrans;

typedef struct CpTz {
    char name[64];    /* as given: "Europe/Paris", "+02:00" */
    int32_t base_s;   /* offset before the first transition (the fixed one) */
    size_t n;         /* transitions; 0 for a fixed offset */
    TzTrans *trans;   /* owned, sorted by at; freed by tz_done */
} CpTz;

/* A fixed offset of off_s seconds east of UTC (no allocation, no tz_done
 * needed). */
CpTz tz_fixed(int32_t off_s);

/* Parse spec: "UTC", "Z", "+HH:MM", "-HHMM", "+HH", or an IANA zone name
 * found in the tz database ($TZDIR, else /usr/share/zoneinfo). Fills *out
 * (free with tz_done). -1 with err filled for anything else. Reading a
 * named zone sets and restores the TZ environment variable: call it before
 * any thread starts (the command line does). */
int tz_parse(const char *spec, CpTz *out, CpErr *err);

/* Free what tz_parse allocated; tz stays a valid UTC zone. */
void tz_done(CpTz *tz);

/* Offset east of UTC in force at the UTC instant t. */
int32_t tz_offset_at(const CpTz *tz, int64_t t);

/* The UTC instant of the wall-clock time wall (its civil fields counted as
 * if they were UTC) in zone tz; NULL is UTC. See the header comment for
 * ambiguous and skipped times. */
int64_t tz_wall_to_utc(const CpTz *tz, int64_t wall);

#endif
