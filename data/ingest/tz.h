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
#include "core/zone.h" /* CpTz, tz_fixed, tz_done, tz_offset_at, tz_wall_to_utc */

/* Parse spec: "UTC", "Z", "+HH:MM", "-HHMM", "+HH", or an IANA zone name
 * found in the tz database ($TZDIR, else /usr/share/zoneinfo). Fills *out
 * (free with tz_done). -1 with err filled for anything else. Reading a
 * named zone sets and restores the TZ environment variable: call it before
 * any thread starts (the command line does). */
int tz_parse(const char *spec, CpTz *out, CpErr *err);

#endif
