/* demo_out: the calendar arithmetic of the generator and a buffered
 * writer with hand-rolled number and time formatting: the demo writes a
 * few hundred megabytes of sacct text, and printf per field would be most
 * of the build time. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "data/demo/demo_model.h"
#include "core/civil.h"

#define OUT_CHUNK (1u << 20)

/* Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's
 * days_from_civil); mon may run past 12 or below 1. */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
    y += (m - 1) >= 0 ? (m - 1) / 12 : -((12 - m) / 12);
    m = ((m - 1) % 12 + 12) % 12 + 1;
    return civil_days(y, (int)m, (int)d);
}

static void civil_of_day(int64_t z, int *y, int *m, int *d)
{
    int64_t yy;
    civil_from_days(z, &yy, m, d);
    *y = (int)yy;
}

int64_t demo_date(int y, int mon, int d)
{
    return days_from_civil(y, mon, d) * DEMO_DAY;
}

void demo_ymd(int64_t t, int *y, int *mon, int *d)
{
    civil_of_day(civil_floor_div(t, DEMO_DAY), y, mon, d);
}

int64_t demo_day_of(int64_t t)
{
    return civil_floor_div(t, DEMO_DAY) * DEMO_DAY;
}

static void put2(char *p, int v)
{
    p[0] = (char)('0' + v / 10 % 10);
    p[1] = (char)('0' + v % 10);
}

void demo_fmt_date(int64_t t, char *out)
{
    int y, m, d;
    demo_ymd(t, &y, &m, &d);
    put2(out, y / 100);
    put2(out + 2, y % 100);
    out[4] = '-';
    put2(out + 5, m);
    out[7] = '-';
    put2(out + 8, d);
    out[10] = '\0';
}

/* ---- buffered output ---- */

int demo_out_open(DemoOut *o, const char *path, CpErr *err)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    o->day_cached = INT64_MIN;
    o->f = fopen(path, "wb");
    if (!o->f)
        return cp_err_set(err, "%s: cannot create: %s", path, strerror(errno));
    o->cap = OUT_CHUNK + 4096;
    o->buf = xmalloc(o->cap);
    return 0;
}

static void out_flush(DemoOut *o)
{
    if (o->len && !o->failed && fwrite(o->buf, 1, o->len, o->f) != o->len)
        o->failed = errno ? errno : EIO;
    o->bytes += (int64_t)o->len;
    o->len = 0;
}

int demo_out_close(DemoOut *o, CpErr *err)
{
    if (!o->f)
        return 0;
    out_flush(o);
    if (fclose(o->f) != 0 && !o->failed)
        o->failed = errno ? errno : EIO;
    o->f = NULL;
    free(o->buf);
    o->buf = NULL;
    if (o->failed)
        return cp_err_set(err, "%s: write failed: %s", o->path, strerror(o->failed));
    return 0;
}

/* Room for n more bytes. */
static char *out_room(DemoOut *o, size_t n)
{
    if (o->len + n > o->cap) {
        out_flush(o);
        if (n > o->cap) {
            o->cap = n;
            o->buf = xrealloc(o->buf, o->cap);
        }
    }
    return o->buf + o->len;
}

void demo_out_mem(DemoOut *o, const char *s, size_t n)
{
    memcpy(out_room(o, n), s, n);
    o->len += n;
    if (o->len >= OUT_CHUNK)
        out_flush(o);
}

void demo_out_str(DemoOut *o, const char *s)
{
    demo_out_mem(o, s, strlen(s));
}

void demo_out_ch(DemoOut *o, char c)
{
    *out_room(o, 1) = c;
    o->len++;
}

void demo_out_int(DemoOut *o, int64_t v)
{
    char tmp[24];
    int n = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    char *p = out_room(o, (size_t)n + 1);
    size_t k = 0;
    if (v < 0)
        p[k++] = '-';
    while (n)
        p[k++] = tmp[--n];
    o->len += k;
}

void demo_out_fixed(DemoOut *o, double v, int dec)
{
    static const int scale[] = {1, 10, 100, 1000};
    if (dec < 0)
        dec = 0;
    if (dec > 3)
        dec = 3;
    int neg = v < 0;
    int64_t x = (int64_t)((neg ? -v : v) * scale[dec] + 0.5);
    if (neg && x)
        demo_out_ch(o, '-');
    demo_out_int(o, x / scale[dec]);
    if (dec) {
        char frac[4];
        int64_t f = x % scale[dec];
        for (int i = dec - 1; i >= 0; i--) {
            frac[i] = (char)('0' + f % 10);
            f /= 10;
        }
        demo_out_ch(o, '.');
        demo_out_mem(o, frac, (size_t)dec);
    }
}

void demo_out_date(DemoOut *o, int64_t t)
{
    int64_t day = civil_floor_div(t, DEMO_DAY);
    if (day != o->day_cached) {
        demo_fmt_date(t, o->date_cached);
        o->day_cached = day;
    }
    demo_out_mem(o, o->date_cached, 10);
}

void demo_out_time(DemoOut *o, int64_t t)
{
    demo_out_date(o, t);
    int64_t s = t - civil_floor_div(t, DEMO_DAY) * DEMO_DAY;
    char *p = out_room(o, 9);
    p[0] = 'T';
    put2(p + 1, (int)(s / 3600));
    p[3] = ':';
    put2(p + 4, (int)(s / 60 % 60));
    p[6] = ':';
    put2(p + 7, (int)(s % 60));
    o->len += 9;
}

void demo_out_dur(DemoOut *o, int64_t s)
{
    if (s < 0)
        s = 0;
    if (s >= DEMO_DAY) {
        demo_out_int(o, s / DEMO_DAY);
        demo_out_ch(o, '-');
        s %= DEMO_DAY;
    }
    char *p = out_room(o, 8);
    put2(p, (int)(s / 3600));
    p[2] = ':';
    put2(p + 3, (int)(s / 60 % 60));
    p[5] = ':';
    put2(p + 6, (int)(s % 60));
    o->len += 8;
}

void demo_out_csv(DemoOut *o, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        demo_out_str(o, s);
        return;
    }
    demo_out_ch(o, '"');
    for (; *s; s++) {
        if (*s == '"')
            demo_out_ch(o, '"');
        demo_out_ch(o, *s);
    }
    demo_out_ch(o, '"');
}
