#ifndef CIVIL_H
#define CIVIL_H
/* civil: the proleptic Gregorian calendar in UTC, as days since 1970-01-01
 * (Howard Hinnant's days_from_civil and civil_from_days). The one calendar
 * every module counts with. Pure computation. */

#include <stddef.h>
#include <stdint.h>

/* Days since 1970-01-01 of year y, month m (1..12), day d (1..31; a day
 * past the month's end runs into the next). */
int64_t civil_days(int64_t y, int m, int d);
/* The civil date of day z (days since 1970-01-01). */
void civil_from_days(int64_t z, int64_t *y, int *m, int *d);
/* a / b rounded toward minus infinity (b != 0): the day of a negative
 * epoch second, the month of a negative month count. */
int64_t civil_floor_div(int64_t a, int64_t b);

/* Seconds since 1970-01-01 of a proleptic Gregorian civil date (UTC). */
int64_t fields_epoch_of(int y, int mon, int d, int h, int mi, int sec);

/* Split epoch seconds into a UTC civil date. */
void fields_civil_of(int64_t t, int *y, int *mon, int *d, int *h, int *mi, int *sec);

/* "YYYY-MM-DDTHH:MM:SS" (UTC) of t into buf (sz >= 20); returns buf. */
const char *fields_iso(int64_t t, char *buf, size_t sz);

#endif
