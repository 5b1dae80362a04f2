#include "data/ingest/tz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/civil.h"

#define TZ_FIRST 0               /* 1970-01-01 */
#define TZ_LAST 4102444800LL     /* 2100-01-01 */

/* "+02:00", "-0500", "+05", "UTC", "Z". 0 and *off set, -1 otherwise. */
static int parse_offset(const char *s, int32_t *off)
{
    if (strcmp(s, "UTC") == 0 || strcmp(s, "Z") == 0) {
        *off = 0;
        return 0;
    }
    int sign = s[0] == '-' ? -1 : s[0] == '+' ? 1 : 0;
    if (!sign || !(s[1] >= '0' && s[1] <= '9') || !(s[2] >= '0' && s[2] <= '9'))
        return -1;
    int h = (s[1] - '0') * 10 + (s[2] - '0'), m = 0;
    const char *p = s + 3;
    if (*p == ':')
        p++;
    if (*p) {
        if (!(p[0] >= '0' && p[0] <= '9') || !(p[1] >= '0' && p[1] <= '9') || p[2])
            return -1;
        m = (p[0] - '0') * 10 + (p[1] - '0');
    }
    if (h > 14 || m > 59)
        return -1;
    *off = sign * (h * 3600 + m * 60);
    return 0;
}

/* A name the tz database can hold: letters, digits, '_', '-', '+', '/';
 * no leading '/', no "..". */
static int name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= 64 || s[0] == '/' || strstr(s, ".."))
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '+' || c == '/'))
            return 0;
    }
    return 1;
}

static int zone_file_exists(const char *name)
{
    const char *dir = getenv("TZDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir && dir[0] ? dir : "/usr/share/zoneinfo", name);
    return access(path, R_OK) == 0;
}

/* Offset at t under the current TZ. */
static int32_t local_offset(int64_t t)
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (!localtime_r(&tt, &tm))
        return 0;
    int64_t wall = fields_epoch_of(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                                   tm.tm_min, tm.tm_sec);
    return (int32_t)(wall - t);
}

static void add_trans(CpTz *z, size_t *cap, int64_t at, int32_t off)
{
    if (z->n == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        z->trans = xrealloc(z->trans, *cap * sizeof *z->trans);
    }
    z->trans[z->n].at = at;
    z->trans[z->n].off_s = off;
    z->n++;
}

/* Walk 1970..2100 a day at a time under the current TZ; where the offset
 * changes, find the exact second by bisection. */
static void build_table(CpTz *z)
{
    size_t cap = 0;
    int64_t t = TZ_FIRST;
    int32_t off = local_offset(t);
    z->base_s = off;
    while (t < TZ_LAST) {
        int64_t next = t + 86400;
        int32_t o2 = local_offset(next);
        if (o2 != off) {
            int64_t lo = t, hi = next; /* offset(lo) == off, offset(hi) == o2 */
            while (hi - lo > 1) {
                int64_t mid = lo + (hi - lo) / 2;
                if (local_offset(mid) == off)
                    lo = mid;
                else
                    hi = mid;
            }
            add_trans(z, &cap, hi, o2);
            off = o2;
        }
        t = next;
    }
}

static int load_named(const char *name, CpTz *z, CpErr *err)
{
    if (!name_ok(name) || !zone_file_exists(name))
        return cp_err_set(err, "unknown time zone '%.64s': give an IANA name such as "
                               "Europe/Paris, or an offset such as +02:00", name);
    const char *old = getenv("TZ");
    char *saved = old ? xstrdup(old) : NULL;
    setenv("TZ", name, 1);
    tzset();
    build_table(z);
    if (saved) {
        setenv("TZ", saved, 1);
        free(saved);
    } else {
        unsetenv("TZ");
    }
    tzset();
    return 0;
}

int tz_parse(const char *spec, CpTz *out, CpErr *err)
{
    int32_t off;
    if (parse_offset(spec, &off) == 0) {
        *out = tz_fixed(off);
        return 0;
    }
    CpTz z;
    memset(&z, 0, sizeof z);
    if (load_named(spec, &z, err) < 0)
        return -1;
    snprintf(z.name, sizeof z.name, "%s", spec);
    *out = z;
    return 0;
}
