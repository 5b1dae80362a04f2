/* energy: see energy.h. Order: the TDP table; the formulas; the hourly
 * series (a dense grid with prefix sums, so that the integral over any
 * span costs two look-ups); temporal shifting. */
#include "core/energy.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cp.h"
#include "core/radix.h"

#define HOUR 3600

/* ---- TDP by GPU model ----
 * Maximum board power from the vendors' data sheets:
 *  NVIDIA H100 (SXM5 700 W, PCIe 350 W, NVL 400 W): "NVIDIA H100 Tensor Core GPU
 *    Datasheet", nvidia.com/en-us/data-center/h100/; H200 SXM 700 W (H200 datasheet).
 *  NVIDIA A100 (SXM4 400 W; PCIe 40 GB 250 W, 80 GB 300 W): "NVIDIA A100 Tensor Core
 *    GPU Datasheet" (nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf).
 *  NVIDIA V100 (SXM2 300 W, PCIe 250 W), V100S PCIe 250 W: "NVIDIA Tesla V100 GPU
 *    Accelerator Datasheet" (tesla-v100-datasheet-letter-fnl-web.pdf).
 *  L40S 350 W, L40 300 W, L4 72 W: NVIDIA L40S / L40 / L4 product briefs.
 *  A40 300 W, A30 165 W, A10 150 W, A16 250 W: NVIDIA A40 / A30 / A10 / A16 datasheets.
 *  Quadro RTX 6000 and RTX 8000 295 W: Quadro RTX 6000/8000 datasheets;
 *    RTX A6000 300 W, RTX 6000 Ada 300 W, RTX A5000 230 W, RTX A4000 140 W.
 *  T4 70 W: "NVIDIA T4 Tensor Core GPU Datasheet". P100 250 W (PCIe) / 300 W (SXM2),
 *    P40 250 W, K80 300 W: Tesla P100 / P40 / K80 datasheets.
 *  GeForce (board power, nvidia.com specs): GTX 1080 Ti 250 W, RTX 2080 Ti 250 W,
 *    TITAN RTX 280 W, TITAN X 250 W, RTX 3090 350 W, RTX 4090 450 W.
 *  AMD Instinct MI100 300 W, MI210 300 W, MI250X 560 W, MI300X 750 W (amd.com specs).
 * Order matters: a name is matched by the first entry all of whose parts
 * it contains (so "a100" with "pcie" and "80" before "a100" alone). */
typedef struct TdpRow {
    const char *part[3]; /* every part must appear; NULL ends */
    double w;
} TdpRow;

static const TdpRow tdp_table[] = {
    {{"h100", "pcie", NULL}, 350}, {{"h100", "nvl", NULL}, 400}, {{"h100", NULL, NULL}, 700},
    {{"h200", NULL, NULL}, 700},   {{"gh200", NULL, NULL}, 700},
    {{"a100", "pcie", "80"}, 300}, {{"a100", "pcie", NULL}, 250}, {{"a100", NULL, NULL}, 400},
    {{"v100s", NULL, NULL}, 250},  {{"v100", "pcie", NULL}, 250}, {{"v100", NULL, NULL}, 300},
    {{"l40s", NULL, NULL}, 350},   {{"l40", NULL, NULL}, 300},    {{"a6000", NULL, NULL}, 300},
    {{"6000ada", NULL, NULL}, 300}, {{"rtx6000", NULL, NULL}, 295}, {{"rtx8000", NULL, NULL}, 295},
    {{"a5000", NULL, NULL}, 230},  {{"a4000", NULL, NULL}, 140},  {{"a40", NULL, NULL}, 300},
    {{"a30", NULL, NULL}, 165},    {{"a16", NULL, NULL}, 250},    {{"a10", NULL, NULL}, 150},
    {{"p100", "sxm", NULL}, 300},  {{"p100", NULL, NULL}, 250},   {{"p40", NULL, NULL}, 250},
    {{"k80", NULL, NULL}, 300},    {{"titanrtx", NULL, NULL}, 280}, {{"titan", NULL, NULL}, 250},
    {{"1080", NULL, NULL}, 250},   {{"2080", NULL, NULL}, 250},   {{"3090", NULL, NULL}, 350},
    {{"4090", NULL, NULL}, 450},   {{"mi300", NULL, NULL}, 750},  {{"mi250", NULL, NULL}, 560},
    {{"mi210", NULL, NULL}, 300},  {{"mi100", NULL, NULL}, 300},  {{"l4", NULL, NULL}, 72},
    {{"t4", NULL, NULL}, 70},
};

/* Lowercase letters and digits of s, at most n - 1. */
static void squash(const char *s, char *out, size_t n)
{
    size_t o = 0;
    for (; *s && o + 1 < n; s++)
        if (isalnum((unsigned char)*s))
            out[o++] = (char)tolower((unsigned char)*s);
    out[o] = '\0';
}

static int row_matches(const TdpRow *r, const char *name)
{
    for (int i = 0; i < 3 && r->part[i]; i++)
        if (!strstr(name, r->part[i]))
            return 0;
    return 1;
}

double energy_tdp_default(const char *gpu_model)
{
    char name[128];
    if (!gpu_model)
        return NAN;
    squash(gpu_model, name, sizeof name);
    for (size_t i = 0; i < sizeof tdp_table / sizeof tdp_table[0]; i++)
        if (row_matches(&tdp_table[i], name))
            return tdp_table[i].w;
    return NAN;
}

/* ---- formulas ---- */

double energy_kwh(double gpus, double hours, double tdp_w, double util_pct, double pue)
{
    double u = isnan(util_pct) || util_pct < 0 ? 1.0 : util_pct / 100.0;
    return gpus * hours * tdp_w * u * pue / 1000.0;
}

double energy_carbon_kg(double kwh, double g_per_kwh)
{
    return kwh * g_per_kwh / 1000.0;
}

/* ---- hourly series ---- */

static int64_t hour_floor(int64_t t)
{
    int64_t q = t / HOUR;
    return (t % HOUR != 0 && t < 0 ? q - 1 : q) * HOUR;
}

void energy_series_build(EnergySeries *s, const int64_t *hour, const double *g, size_t n,
                         double fallback)
{
    memset(s, 0, sizeof *s);
    s->fill = fallback;
    if (n == 0) {
        s->cum = xcalloc(1, sizeof *s->cum);
        return;
    }
    int64_t lo = hour_floor(hour[0]), hi = lo;
    for (size_t i = 0; i < n; i++) {
        int64_t h = hour_floor(hour[i]);
        lo = h < lo ? h : lo;
        hi = h > hi ? h : hi;
    }
    s->t0 = lo;
    s->n = (size_t)((hi - lo) / HOUR) + 1;
    s->v = xcalloc(s->n, sizeof *s->v);
    int *count = xcalloc(s->n, sizeof *count);
    double total = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = (size_t)((hour_floor(hour[i]) - lo) / HOUR);
        s->v[k] += g[i];
        count[k]++;
        total += g[i];
    }
    s->fill = total / (double)n;
    s->cum = xmalloc((s->n + 1) * sizeof *s->cum);
    s->cum[0] = 0;
    for (size_t k = 0; k < s->n; k++) {
        s->given += count[k] > 0;
        s->v[k] = count[k] ? s->v[k] / count[k] : s->fill;
        s->cum[k + 1] = s->cum[k] + s->v[k];
    }
    free(count);
}

void energy_series_free(EnergySeries *s)
{
    free(s->v);
    free(s->cum);
    memset(s, 0, sizeof *s);
}

/* The integral from t0 to t (negative before t0). */
static double series_at(const EnergySeries *s, int64_t t)
{
    int64_t end = s->t0 + (int64_t)s->n * HOUR;
    if (t <= s->t0)
        return (double)(t - s->t0) / HOUR * s->fill;
    if (t >= end)
        return s->cum[s->n] + (double)(t - end) / HOUR * s->fill;
    size_t i = (size_t)((t - s->t0) / HOUR);
    double frac = (double)(t - s->t0 - (int64_t)i * HOUR) / HOUR;
    return s->cum[i] + frac * s->v[i];
}

double energy_series_integral(const EnergySeries *s, int64_t from, int64_t to)
{
    return series_at(s, to) - series_at(s, from);
}

double energy_series_mean(const EnergySeries *s, int64_t from, int64_t to)
{
    if (to <= from)
        return energy_series_integral(s, from, from + 1) * HOUR;
    return energy_series_integral(s, from, to) * HOUR / (double)(to - from);
}

/* ---- temporal shifting ---- */

typedef struct Shift {
    const EnergyShiftGrid *g;
    double *used; /* nclusters x nhours: GPUs busy (GPU-hours in the hour) */
} Shift;

/* Add w x the job's GPUs to every hour of [from, from + run) on its cluster. */
static void occupy(Shift *sh, const EnergyShiftJob *j, int64_t from, double w)
{
    const EnergyShiftGrid *g = sh->g;
    for (int64_t t = from, to = from + j->run_s; t < to;) {
        int64_t h = (t - g->t0) / HOUR, hend = g->t0 + (h + 1) * HOUR;
        int64_t e = to < hend ? to : hend;
        if (t >= g->t0 && (size_t)h < g->nhours)
            sh->used[(size_t)j->cluster * g->nhours + (size_t)h] +=
                w * j->gpus * (double)(e - t) / HOUR;
        t = e;
    }
}

/* 1 when the job fits the free GPUs starting at from. */
static int fits(const Shift *sh, const EnergyShiftJob *j, int64_t from)
{
    const EnergyShiftGrid *g = sh->g;
    if (!g->cap)
        return 1;
    for (int64_t t = from, to = from + j->run_s; t < to;) {
        int64_t h = (t - g->t0) / HOUR, hend = g->t0 + (h + 1) * HOUR;
        int64_t e = to < hend ? to : hend;
        if (t >= g->t0 && (size_t)h < g->nhours) {
            size_t k = (size_t)j->cluster * g->nhours + (size_t)h;
            double need = j->gpus * (double)(e - t) / HOUR;
            if (g->cap[k] >= 0 && sh->used[k] + need > g->cap[k] + 1e-9)
                return 0;
        }
        t = e;
    }
    return 1;
}

/* integral[k] = energy_series_integral(s, from, from + run) with from =
 * start + k hours, k = 0..delay_h: the same sums, with the hour index and
 * its fraction (equal for every k) found once while both ends are on the
 * grid. */
static void shift_integrals(const EnergySeries *s, int64_t start, int64_t run, int delay_h,
                            double *integral)
{
    int64_t end = s->t0 + (int64_t)s->n * HOUR, a = start, b = start + run;
    int k = 0;
    for (; k <= delay_h && (a <= s->t0 || a >= end || b <= s->t0 || b >= end); k++) {
        integral[k] = energy_series_integral(s, a, b);
        a += HOUR;
        b += HOUR;
    }
    if (k > delay_h)
        return;
    size_t ia = (size_t)((a - s->t0) / HOUR), ib = (size_t)((b - s->t0) / HOUR);
    double fa = (double)(a - s->t0 - (int64_t)ia * HOUR) / HOUR;
    double fb = (double)(b - s->t0 - (int64_t)ib * HOUR) / HOUR;
    for (; k <= delay_h && ib < s->n; k++, ia++, ib++)
        integral[k] = (s->cum[ib] + fb * s->v[ib]) - (s->cum[ia] + fa * s->v[ia]);
    for (; k <= delay_h; k++)
        integral[k] = energy_series_integral(s, start + (int64_t)k * HOUR,
                                             start + (int64_t)k * HOUR + run);
}

/* A start k hours late and its integral. */
typedef struct Cand {
    double integral;
    int k;
} Cand;

/* The starts k = 1..delay_h whose integral (v[k]) is less than starting on
 * time's, in c by integral, the earliest of equals first (an insertion
 * sort: a few per job). Returns how many. */
static int better_starts(const double *v, int delay_h, Cand *c)
{
    int n = 0;
    for (int k = 1; k <= delay_h; k++) {
        if (!(v[k] < v[0]))
            continue;
        int i = n++;
        for (; i > 0 && v[k] < c[i - 1].integral; i--)
            c[i] = c[i - 1];
        c[i] = (Cand){v[k], k};
    }
    return n;
}

/* The best start of job j: the start within the delay whose integral is
 * least, the earliest of equals, among those where it fits (starting on
 * time always does); moves it in sh->used. v and c: scratch of
 * delay_h + 1. */
static int64_t best_start(Shift *sh, const EnergyShiftJob *j, const EnergySeries *s, int delay_h,
                          double *v, Cand *c)
{
    shift_integrals(s, j->start, j->run_s, delay_h, v);
    int n = better_starts(v, delay_h, c);
    occupy(sh, j, j->start, -1.0);
    int64_t best = j->start;
    for (int i = 0; i < n; i++)
        if (fits(sh, j, j->start + (int64_t)c[i].k * HOUR)) {
            best = j->start + (int64_t)c[i].k * HOUR;
            break;
        }
    occupy(sh, j, best, 1.0);
    return best;
}

/* kg of job j if it started at from. */
static double job_kg(const EnergyShiftJob *j, const EnergySeries *s, int64_t from)
{
    return energy_carbon_kg(j->kwh, energy_series_mean(s, from, from + j->run_s));
}

/* The intensity of job j's cluster, NULL when it has none. */
static const EnergySeries *job_series(const EnergyShiftGrid *g, const EnergyShiftJob *j)
{
    return j->cluster >= 0 && j->cluster < g->nclusters ? g->series[j->cluster] : NULL;
}

/* Every job in place (in sh->used, and its out as if it stayed); returns
 * the indices of those a shift may move in start order, equal starts in
 * index order, and their count in *nmove. Caller frees. */
static size_t *shift_place(Shift *sh, const EnergyShiftJob *jobs, size_t n, int delay_h,
                           EnergyShiftOut *out, size_t *nmove)
{
    size_t *idx = xmalloc((n + 1) * sizeof *idx), m = 0;
    int64_t *key = xmalloc((n + 1) * sizeof *key);
    for (size_t i = 0; i < n; i++) {
        const EnergyShiftJob *j = &jobs[i];
        const EnergySeries *s = job_series(sh->g, j);
        if (j->cluster >= 0 && j->cluster < sh->g->nclusters)
            occupy(sh, j, j->start, 1.0);
        out[i].new_start = j->start;
        out[i].kg_before = out[i].kg_after = s ? job_kg(j, s, j->start) : 0;
        if (s && j->movable && j->run_s > 0 && j->kwh > 0 && delay_h > 0) {
            idx[m] = i;
            key[m++] = j->start;
        }
    }
    size_t *order = radix_order(key, m);
    for (size_t k = 0; k < m; k++)
        order[k] = idx[order[k]];
    free(key);
    free(idx);
    *nmove = m;
    return order;
}

double energy_shift(const EnergyShiftGrid *g, const EnergyShiftJob *jobs, size_t n, int delay_h,
                    EnergyShiftOut *out)
{
    Shift sh = {g, xcalloc((size_t)g->nclusters * g->nhours + 1, sizeof(double))};
    size_t ncand = (size_t)(delay_h > 0 ? delay_h : 0) + 1, nmove;
    double *v = xmalloc(ncand * sizeof *v);
    Cand *cand = xmalloc(ncand * sizeof *cand);
    size_t *order = shift_place(&sh, jobs, n, delay_h, out, &nmove);
    double saved = 0;
    for (size_t k = 0; k < nmove; k++) {
        const EnergyShiftJob *j = &jobs[order[k]];
        EnergyShiftOut *o = &out[order[k]];
        const EnergySeries *s = job_series(g, j);
        o->new_start = best_start(&sh, j, s, delay_h, v, cand);
        o->kg_after = job_kg(j, s, o->new_start);
        saved += o->kg_before - o->kg_after;
    }
    free(v);
    free(cand);
    free(order);
    free(sh.used);
    return saved;
}
