#ifndef FMT_H
#define FMT_H
/* fmt: numbers as the dashboard shows them: short, right-aligned, with
 * units (12.3k GPU-h, 4.1 %, 2.5 h, 2024-03). Every function writes a
 * NUL-terminated string into buf (n bytes) and returns buf. Unknown values
 * (NaN, or negative where a count cannot be) are shown as "-". Pure. */

#include <stddef.h>
#include <stdint.h>

/* 950, 1.2k, 12k, 3.4M: three significant digits at most. */
char *fmt_num(double v, char *buf, size_t n);
/* A number with a unit: "12k GPU-h" style, unit may be "". */
char *fmt_unit(double v, const char *unit, char *buf, size_t n);
/* A ratio 0..1 as "4.1%" (">999%" beyond). */
char *fmt_pct(double ratio, char *buf, size_t n);
/* Seconds as "45s", "12m", "3.4h", "2.1d". */
char *fmt_secs(double s, char *buf, size_t n);
/* yyyymm as "2024-03". */
char *fmt_month(int64_t yyyymm, char *buf, size_t n);
/* GPUs (fractional) as "0.25", "3.5", "12", "1.2k". */
char *fmt_gpus(double v, char *buf, size_t n);

/* A sparkline of v[0..n) in w block characters (▁..█, UTF-8), each the
 * mean of its share of v, scaled from 0 to the maximum; values < 0 are
 * unknown (a blank). */
char *fmt_spark(const double *v, int n, int w, char *buf, size_t bufn);

/* Copy src into dst (n bytes), cut at a character boundary if too long. */
void fmt_copy(char *dst, size_t n, const char *src);

/* The month yyyymm plus k months (k may be negative). */
int64_t fmt_month_add(int64_t yyyymm, int k);
/* Months from a to b (b - a, both yyyymm). */
int fmt_month_diff(int64_t a, int64_t b);

#endif
