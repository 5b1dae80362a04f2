/* civil: days since 1970-01-01 and back (see civil.h). */
#include "core/civil.h"

#include <stdio.h>

int64_t civil_days(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

int64_t civil_floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

int64_t fields_epoch_of(int y, int mon, int d, int h, int mi, int sec)
{
    return civil_days(y, mon, d) * 86400 + h * 3600 + mi * 60 + sec;
}

void fields_civil_of(int64_t t, int *y, int *mon, int *d, int *h, int *mi, int *sec)
{
    int64_t days = civil_floor_div(t, 86400), yy;
    int64_t rem = t - days * 86400;
    civil_from_days(days, &yy, mon, d);
    *y = (int)yy;
    *h = (int)(rem / 3600);
    *mi = (int)(rem % 3600 / 60);
    *sec = (int)(rem % 60);
}

const char *fields_iso(int64_t t, char *buf, size_t sz)
{
    int y, mo, d, h, mi, s;
    fields_civil_of(t, &y, &mo, &d, &h, &mi, &s);
    snprintf(buf, sz, "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, d, h, mi, s);
    return buf;
}
