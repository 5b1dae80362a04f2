#ifndef ZONE_H
#define ZONE_H
/* zone: a time zone as a table of transitions, and the pure lookups over
 * it: the offset in force at an instant, the UTC instant of a wall-clock
 * time. Filled by tz_parse (data/ingest/tz.h, which reads the system's tz
 * database); after that every conversion is a pure lookup, safe from any
 * thread. Wall-clock times that a daylight-saving change makes ambiguous
 * are read as the first of the two instants; skipped ones with the offset
 * in force before the change (see data/ingest/tz.h). */

#include <stddef.h>
#include <stdint.h>

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

/* Free what tz_parse allocated; tz stays a valid UTC zone. */
void tz_done(CpTz *tz);

/* Offset east of UTC in force at the UTC instant t. */
int32_t tz_offset_at(const CpTz *tz, int64_t t);

/* The UTC instant of the wall-clock time wall (its civil fields counted as
 * if they were UTC) in zone tz; NULL is UTC. See the header comment for
 * ambiguous and skipped times. */
int64_t tz_wall_to_utc(const CpTz *tz, int64_t wall);

#endif
