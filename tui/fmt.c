#include "tui/fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

char *fmt_num(double v, char *buf, size_t n)
{
    double a = fabs(v);
    if (isnan(v))
        snprintf(buf, n, "-");
    else if (a < 9.95)
        snprintf(buf, n, a == floor(a) ? "%.0f" : "%.1f", v);
    else if (a < 999.5)
        snprintf(buf, n, "%.0f", v);
    else if (a < 9950)
        snprintf(buf, n, "%.1fk", v / 1e3);
    else if (a < 999500)
        snprintf(buf, n, "%.0fk", v / 1e3);
    else if (a < 9.95e6)
        snprintf(buf, n, "%.1fM", v / 1e6);
    else if (a < 999.5e6)
        snprintf(buf, n, "%.0fM", v / 1e6);
    else
        snprintf(buf, n, "%.1fG", v / 1e9);
    return buf;
}

char *fmt_unit(double v, const char *unit, char *buf, size_t n)
{
    char num[32];
    fmt_num(v, num, sizeof num);
    if (isnan(v) || !unit || !unit[0])
        snprintf(buf, n, "%s", num);
    else
        snprintf(buf, n, "%s %s", num, unit);
    return buf;
}

char *fmt_pct(double ratio, char *buf, size_t n)
{
    double p = ratio * 100;
    if (isnan(ratio))
        snprintf(buf, n, "-");
    else if (p > 999)
        snprintf(buf, n, ">999%%");
    else if (fabs(p) < 9.95)
        snprintf(buf, n, "%.1f%%", p);
    else
        snprintf(buf, n, "%.0f%%", p);
    return buf;
}

char *fmt_secs(double s, char *buf, size_t n)
{
    if (isnan(s) || s < 0)
        snprintf(buf, n, "-");
    else if (s < 59.5)
        snprintf(buf, n, "%.0fs", s);
    else if (s < 3570)
        snprintf(buf, n, "%.0fm", s / 60);
    else if (s < 86400 * 0.995)
        snprintf(buf, n, s < 36000 ? "%.1fh" : "%.0fh", s / 3600);
    else
        snprintf(buf, n, s < 864000 ? "%.1fd" : "%.0fd", s / 86400);
    return buf;
}

char *fmt_month(int64_t yyyymm, char *buf, size_t n)
{
    if (yyyymm <= 0)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%04d-%02d", (int)(yyyymm / 100), (int)(yyyymm % 100));
    return buf;
}

char *fmt_gpus(double v, char *buf, size_t n)
{
    double a = fabs(v);
    if (isnan(v))
        snprintf(buf, n, "-");
    else if (a == 0)
        snprintf(buf, n, "0");
    else if (a < 0.995)
        snprintf(buf, n, "%.2f", v);
    else if (a < 9.95)
        snprintf(buf, n, "%.1f", v);
    else
        fmt_num(v, buf, n);
    return buf;
}

int64_t fmt_month_add(int64_t yyyymm, int k)
{
    int64_t idx = (yyyymm / 100) * 12 + (yyyymm % 100 - 1) + k;
    int64_t y = idx >= 0 ? idx / 12 : (idx - 11) / 12;
    return y * 100 + (idx - y * 12) + 1;
}

int fmt_month_diff(int64_t a, int64_t b)
{
    return (int)(((b / 100) * 12 + b % 100) - ((a / 100) * 12 + a % 100));
}

char *fmt_spark(const double *v, int n, int w, char *buf, size_t bufn)
{
    size_t o = 0;
    int cols = n < w ? n : w;
    double vals[256], max = 0;
    if (cols > 256)
        cols = 256;
    for (int i = 0; i < cols; i++) {
        int a = (int)((int64_t)i * n / cols), b = (int)((int64_t)(i + 1) * n / cols);
        double sum = 0;
        int k = 0;
        for (int j = a; j < (b > a ? b : a + 1); j++)
            if (v[j] >= 0) {
                sum += v[j];
                k++;
            }
        vals[i] = k ? sum / k : -1;
        if (vals[i] > max)
            max = vals[i];
    }
    for (int i = 0; i < cols && o + 4 < bufn; i++) {
        if (vals[i] < 0) {
            buf[o++] = ' ';
            continue;
        }
        int level = max > 0 ? (int)lround(vals[i] / max * 7.0) : 0;
        /* U+2581 + level: E2 96 81.. */
        buf[o++] = (char)0xe2;
        buf[o++] = (char)0x96;
        buf[o++] = (char)(0x81 + level);
    }
    buf[o < bufn ? o : bufn - 1] = '\0';
    return buf;
}

void fmt_copy(char *dst, size_t n, const char *src)
{
    if (n == 0)
        return;
    size_t len = strlen(src);
    if (len >= n) {
        len = n - 1;
        while (len > 0 && ((unsigned char)src[len] & 0xc0u) == 0x80u)
            len--; /* do not split a character */
    }
    memcpy(dst, src, len);
    dst[len] = '\0';
}
