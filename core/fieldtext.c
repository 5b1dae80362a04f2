/* fieldtext: see fieldtext.h. */
#include "core/fieldtext.h"

#include <math.h>
#include <string.h>

#include "core/civil.h"
#include "core/jobrec.h"
#include "core/zone.h"

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int slice_eq(const char *s, size_t n, const char *lit)
{
    size_t m = strlen(lit);
    return n == m && memcmp(s, lit, m) == 0;
}

int64_t fieldtext_uint(const char **p, const char *end, int max_digits)
{
    const char *s = *p, *q = s; /* a local cursor: no store through p per digit */
    const char *stop = end - s > max_digits ? s + max_digits : end;
    int64_t v = 0;
    for (; q < stop && is_digit(*q); q++)
        v = v * 10 + (*q - '0');
    *p = q;
    return q > s ? v : -1;
}

int fields_int(const char *s, size_t n, int64_t *out, CpErr *err)
{
    const char *p = s, *end = s + n;
    int neg = 0;
    if (p < end && (*p == '-' || *p == '+')) {
        neg = *p == '-';
        p++;
    }
    if (p == end)
        return cp_err_set(err, "bad integer '%.*s'", (int)n, s);
    int64_t v = 0;
    for (; p < end; p++) {
        if (!is_digit(*p) || v > (INT64_MAX - 9) / 10)
            return cp_err_set(err, "bad integer '%.*s'", (int)(n > 64 ? 64 : n), s);
        v = v * 10 + (*p - '0');
    }
    *out = neg ? -v : v;
    return 0;
}

int fields_double(const char *s, size_t n, double *out, CpErr *err)
{
    if (n > 0 && n <= 15) { /* plain digits, the usual count: exact as an integer */
        int64_t iv = 0;
        size_t i = 0;
        while (i < n && is_digit(s[i]))
            iv = iv * 10 + (s[i++] - '0');
        if (i == n) {
            *out = (double)iv;
            return 0;
        }
    }
    const char *p = s, *end = s + n;
    double sign = 1.0, v = 0.0, scale = 1.0;
    int digits = 0;
    if (p < end && (*p == '-' || *p == '+')) {
        sign = *p == '-' ? -1.0 : 1.0;
        p++;
    }
    for (; p < end && is_digit(*p); p++, digits++)
        v = v * 10.0 + (*p - '0');
    if (p < end && *p == '.') {
        for (p++; p < end && is_digit(*p); p++, digits++) {
            scale /= 10.0;
            v += (*p - '0') * scale;
        }
    }
    if (digits && p < end && (*p == 'e' || *p == 'E')) {
        int64_t ex;
        if (fields_int(p + 1, (size_t)(end - p - 1), &ex, NULL) < 0 || ex > 308 || ex < -308)
            return cp_err_set(err, "bad number '%.*s'", (int)(n > 64 ? 64 : n), s);
        v *= pow(10.0, (double)ex);
        p = end;
    }
    if (!digits || p != end || !isfinite(v))
        return cp_err_set(err, "bad number '%.*s'", (int)(n > 64 ? 64 : n), s);
    *out = sign * v;
    return 0;
}

static int days_in_month(int64_t y, int m)
{
    static const int dm[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
        return 29;
    return dm[m - 1];
}

static int bad_time(CpErr *err, const char *s, size_t n)
{
    return cp_err_set(err, "bad time '%.*s'", (int)(n > 64 ? 64 : n), s);
}

/* Two digits at p, or -1. */
static int two_digits(const char *p)
{
    return is_digit(p[0]) && is_digit(p[1]) ? (p[0] - '0') * 10 + (p[1] - '0') : -1;
}

/* sacct's own shape, "YYYY-MM-DDTHH:MM:SS" (19 bytes, no zone), read
 * without the general parser's loops: 1 with *wall set, 0 when s has
 * another shape or an impossible value (the general parser then says
 * which). Most of an import's time values are this shape. */
static int iso19_wall(const char *s, int64_t *wall)
{
    if (s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':')
        return 0;
    int yh = two_digits(s), yl = two_digits(s + 2), mo = two_digits(s + 5),
        d = two_digits(s + 8), h = two_digits(s + 11), mi = two_digits(s + 14),
        sec = two_digits(s + 17);
    if (yh < 0 || yl < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 ||
        sec < 0 || sec > 60)
        return 0;
    int64_t y = yh * 100 + yl;
    if (d > days_in_month(y, mo))
        return 0;
    *wall = civil_days(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
    return 1;
}

int fields_time(const char *s, size_t n, const CpTz *tz, int64_t *out, CpErr *err)
{
    int64_t wall;
    if (n == 19 && iso19_wall(s, &wall)) {
        *out = tz_wall_to_utc(tz, wall);
        return 0;
    }
    if (n == 0 || slice_eq(s, n, "Unknown") || slice_eq(s, n, "None") ||
        slice_eq(s, n, "N/A")) {
        *out = CP_TIME_NONE;
        return 0;
    }
    const char *p = s, *end = s + n;
    if (n >= 10 && s[4] == '-') {
        int64_t y = fieldtext_uint(&p, end, 4);
        if (y < 0 || p >= end || *p++ != '-')
            return bad_time(err, s, n);
        int64_t mo = fieldtext_uint(&p, end, 2);
        if (mo < 1 || mo > 12 || p >= end || *p++ != '-')
            return bad_time(err, s, n);
        int64_t d = fieldtext_uint(&p, end, 2);
        if (d < 1 || d > days_in_month(y, (int)mo))
            return bad_time(err, s, n);
        int64_t h = 0, mi = 0, sec = 0;
        if (p < end && (*p == 'T' || *p == ' ')) {
            p++;
            h = fieldtext_uint(&p, end, 2);
            if (h < 0 || h > 23 || p >= end || *p++ != ':')
                return bad_time(err, s, n);
            mi = fieldtext_uint(&p, end, 2);
            if (mi < 0 || mi > 59)
                return bad_time(err, s, n);
            if (p < end && *p == ':') {
                p++;
                sec = fieldtext_uint(&p, end, 2);
                if (sec < 0 || sec > 60)
                    return bad_time(err, s, n);
            }
            if (p < end && *p == '.') { /* fractional seconds: dropped */
                p++;
                if (fieldtext_uint(&p, end, 9) < 0)
                    return bad_time(err, s, n);
            }
        }
        int64_t t = civil_days(y, (int)mo, (int)d) * 86400 + h * 3600 + mi * 60 + sec;
        if (p < end && (*p == '+' || *p == '-')) {
            int sign = *p++ == '-' ? -1 : 1;
            int64_t oh = fieldtext_uint(&p, end, 2), om = 0;
            if (oh < 0 || oh > 14)
                return bad_time(err, s, n);
            if (p < end && *p == ':')
                p++;
            if (p < end) {
                om = fieldtext_uint(&p, end, 2);
                if (om < 0 || om > 59)
                    return bad_time(err, s, n);
            }
            t -= sign * (oh * 3600 + om * 60);
        } else if (p < end && *p == 'Z') {
            p++;
        } else {
            t = tz_wall_to_utc(tz, t);
        }
        if (p != end)
            return bad_time(err, s, n);
        *out = t;
        return 0;
    }
    int64_t v;
    if (fields_int(s, n, &v, NULL) == 0 && v >= 0) {
        *out = v;
        return 0;
    }
    return bad_time(err, s, n);
}
