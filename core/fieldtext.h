#ifndef FIELDTEXT_H
#define FIELDTEXT_H
/* fieldtext: the plain values every field notation is made of, read from
 * a (pointer, length) slice of text: ISO 8601 times, integers, decimals.
 * Pure functions; no I/O, no allocation. Each returns 0 on success and -1
 * on a malformed value, with err holding the reason (without file or
 * line: the caller adds them). The Slurm notations built on them
 * (durations, memory, TRES, job ids) are data/ingest/fields.h. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"

typedef struct CpTz CpTz; /* core/zone.h */

/* "2024-01-23T16:58:36" (UTC, or local time of zone tz: see core/zone.h; NULL is
 * UTC), "2025-05-02T14:09:52+02:00" (the offset wins), "2017-10-03
 * 12:00:00", epoch seconds, and "Unknown"/"None"/"" -> CP_TIME_NONE. */
int fields_time(const char *s, size_t n, const CpTz *tz, int64_t *out, CpErr *err);

/* Plain integers and decimals, whole slice, no junk. */
int fields_int(const char *s, size_t n, int64_t *out, CpErr *err);
int fields_double(const char *s, size_t n, double *out, CpErr *err);

/* Reads up to max_digits decimal digits at *p (end: one past the text),
 * moving *p past them; the value, or -1 when there is no digit. */
int64_t fieldtext_uint(const char **p, const char *end, int max_digits);

#endif
