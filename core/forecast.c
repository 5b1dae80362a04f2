#include "core/forecast.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backtest.h"
#include "core/cp.h"

struct FcTable {
    FcData d;
    double *cum;   /* G x (T + 1): prefix sums of use x hours */
    double *hcum;  /* T + 1: prefix sums of hours */
    double *f;     /* n x FC_NCAND x (G + 1) */
    int *first;    /* G: first month with use, T none */
};

static const int model_half[DEM_NHALF] = {1, 3, 6, 12};
const int fc_damp_half[FC_NDAMP] = {1, 2, 3, 6};
/* the combination's parts */
static const int comb_parts[3] = {FC_SMOOTH0 + 1, FC_LAST3, FC_MODEL0};

double fc_cand_halflife(int k)
{
    if (k >= FC_SMOOTH0 && k < FC_MODEL0)
        return k - FC_SMOOTH0 + 1;
    if (k >= FC_MODEL0 && k < FC_SHRUNK0)
        return model_half[k - FC_MODEL0];
    if (k >= FC_SHRUNK0 && k < FC_TREND0)
        return model_half[k - FC_SHRUNK0];
    if (k >= FC_TREND0 && k < FC_DAMP0)
        return k - FC_TREND0 + 1;
    if (k >= FC_DAMP0 && k < FC_COMB)
        return fc_damp_half[k - FC_DAMP0];
    if (k >= FC_COMB)
        return model_half[0];
    return 0;
}

void fc_cand_name(int k, char *buf, int n)
{
    if (k == FC_NAIVE)
        snprintf(buf, (size_t)n, "naive (last 12 months)");
    else if (k == FC_LAST3)
        snprintf(buf, (size_t)n, "last 3 months");
    else if (k >= FC_SMOOTH0 && k < FC_MODEL0)
        snprintf(buf, (size_t)n, "smoothing, half-life %d month%s", k - FC_SMOOTH0 + 1,
                 k == FC_SMOOTH0 ? "" : "s");
    else if (k >= FC_MODEL0 && k < FC_SHRUNK0)
        snprintf(buf, (size_t)n, "member-level model, half-life %d month%s",
                 model_half[k - FC_MODEL0], k == FC_MODEL0 ? "" : "s");
    else if (k >= FC_SHRUNK0 && k < FC_TREND0)
        snprintf(buf, (size_t)n, "model shrunk to smoothing, half-life %d month%s",
                 model_half[k - FC_SHRUNK0], k == FC_SHRUNK0 ? "" : "s");
    else if (k >= FC_TREND0 && k < FC_DAMP0)
        snprintf(buf, (size_t)n, "smoothing x institute trend, half-life %d month%s",
                 k - FC_TREND0 + 1, k == FC_TREND0 ? "" : "s");
    else if (k >= FC_DAMP0 && k < FC_COMB)
        snprintf(buf, (size_t)n, "damped trend, half-life %d month%s", fc_damp_half[k - FC_DAMP0],
                 k == FC_DAMP0 ? "" : "s");
    else if (k == FC_COMB)
        snprintf(buf, (size_t)n, "combination by past errors (smoothing 2, last 3, model 1)");
    else if (k == FC_COMBTOP)
        snprintf(buf, (size_t)n, "combination by past errors of the record's 3 best");
    else if (k == FC_PERGROUP)
        snprintf(buf, (size_t)n, "each group its own best candidate over the record");
    else
        snprintf(buf, (size_t)n, "?");
}

void fc_cand_key(int k, char *buf, int n)
{
    if (k == FC_NAIVE)
        snprintf(buf, (size_t)n, "naive");
    else if (k == FC_LAST3)
        snprintf(buf, (size_t)n, "last3");
    else if (k >= FC_SMOOTH0 && k < FC_MODEL0)
        snprintf(buf, (size_t)n, "smooth%d", k - FC_SMOOTH0 + 1);
    else if (k >= FC_MODEL0 && k < FC_SHRUNK0)
        snprintf(buf, (size_t)n, "model%d", model_half[k - FC_MODEL0]);
    else if (k >= FC_SHRUNK0 && k < FC_TREND0)
        snprintf(buf, (size_t)n, "shrunk%d", model_half[k - FC_SHRUNK0]);
    else if (k >= FC_TREND0 && k < FC_DAMP0)
        snprintf(buf, (size_t)n, "trend%d", k - FC_TREND0 + 1);
    else if (k >= FC_DAMP0 && k < FC_COMB)
        snprintf(buf, (size_t)n, "damped%d", fc_damp_half[k - FC_DAMP0]);
    else if (k == FC_COMB)
        snprintf(buf, (size_t)n, "comb");
    else if (k == FC_COMBTOP)
        snprintf(buf, (size_t)n, "combtop");
    else if (k == FC_PERGROUP)
        snprintf(buf, (size_t)n, "pergroup");
    else
        snprintf(buf, (size_t)n, "?");
}

int fc_cand_by_key(const char *key)
{
    char b[32];
    for (int k = 0; k < FC_NCAND; k++) {
        fc_cand_key(k, b, sizeof b);
        if (strcmp(b, key) == 0)
            return k;
    }
    return -1;
}

int fc_cand_uses_model(int k)
{
    return (k >= FC_MODEL0 && k < FC_TREND0) || k >= FC_COMB;
}

static double mean_of(const FcTable *t, int g, int a, int b);

/* The institute's trend at L (see forecast.h). */
static double trend(const FcTable *t, int L)
{
    if (L < 12)
        return 0;
    double a = 0, b = 0;
    for (int g = 0; g < t->d.G; g++) {
        a += mean_of(t, g, L - 6, L);
        b += mean_of(t, g, L - 12, L - 6);
    }
    if (a <= 0 || b <= 0)
        return 0;
    double r = 0.5 * (pow(a / b, 1.5) - 1);
    return r > 0.5 ? 0.5 : r < -0.5 ? -0.5 : r;
}

/* ---- forecasts ---- */

/* Mean of group g's months [a, b). */
static double mean_of(const FcTable *t, int g, int a, int b)
{
    if (a < 0)
        a = 0;
    if (b > t->d.T)
        b = t->d.T;
    if (b <= a)
        return 0;
    const double *c = t->cum + (size_t)g * (t->d.T + 1);
    double h = t->hcum[b] - t->hcum[a];
    return h > 0 ? (c[b] - c[a]) / h : 0;
}

static double smooth(const FcTable *t, int g, int L, int h)
{
    const double *u = t->d.use + (size_t)g * t->d.T;
    double s = 0, w = 0;
    for (int a = 0; a < 36 && L - 1 - a >= 0; a++) {
        double hr = t->d.hours ? t->d.hours[L - 1 - a] : 1; /* a partial month weighs less */
        double wa = pow(0.5, (double)a / h) * hr;
        s += wa * u[L - 1 - a];
        w += wa;
    }
    return w > 0 ? s / w : 0;
}

/* New groups at the recent rate (see forecast.h). */
static double new_groups(const FcTable *t, int L)
{
    int W = L - FC_NEW_MONTHS < FC_NEW_MONTHS ? L - FC_NEW_MONTHS : FC_NEW_MONTHS;
    if (W < 3) /* a group is new only after 6 months of data that did not see it; and
                  fewer than 3 months of arrivals say little */
        return 0;
    double s = 0;
    for (int g = 0; g < t->d.G; g++)
        if (t->first[g] >= L - W && t->first[g] < L)
            s += mean_of(t, g, L - W, L);
    return s * 12.0 / W;
}

/* Group g's damped-trend forecast at L, half-life h (see forecast.h): the
 * last 36 months, a partial month moving the level by its share of a full
 * one. */
static double damped(const FcTable *t, int g, int L, int h)
{
    const double *u = t->d.use + (size_t)g * t->d.T;
    int a = L - 36 > 0 ? L - 36 : 0;
    double hmax = 0;
    for (int m = a; m < L; m++)
        if (!t->d.hours || t->d.hours[m] > hmax)
            hmax = t->d.hours ? t->d.hours[m] : 1;
    if (L <= a || hmax <= 0)
        return 0;
    double al = 1 - pow(0.5, 1.0 / h), lv = u[a], tr = 0;
    for (int m = a + 1; m < L; m++) {
        double share = t->d.hours ? t->d.hours[m] / hmax : 1;
        double am = 1 - pow(1 - al, share), bm = 1 - pow(1 - FC_DAMP_BETA, share);
        double prev = lv;
        lv = am * u[m] + (1 - am) * (lv + FC_DAMP_PHI * tr);
        tr = bm * (lv - prev) + (1 - bm) * FC_DAMP_PHI * tr;
    }
    double d = 0, p = 1;
    for (int i = 1; i <= 12; i++) {
        p *= FC_DAMP_PHI;
        d += p;
    }
    double v = lv + tr * d / 12;
    return v > 0 ? v : 0;
}

/* The record's origins at L (fc_choose's): in the record, and scored on 12
 * months when FC_MIN_RECORD of them are. */
static int record_full(const FcTable *t, int L);
static int in_record(const FcTable *t, int o, int L);

static int score(const FcTable *t, int o, int k, int ng, int L, double *wape, double *err,
                 double *act, double *fct);

/* The 3 candidates before the combinations with the best mean per-group
 * WAPE over the record at L into parts; 0 when the record is too short. */
static int top3(const FcTable *t, int L, int *parts)
{
    int full = record_full(t, L), np = 0;
    double best[3] = {INFINITY, INFINITY, INFINITY};
    for (int k = 0; k < FC_COMB; k++) {
        if (fc_cand_uses_model(k) && !t->d.model)
            continue;
        double sw = 0, w, e;
        int n = 0;
        for (int o = 0; o < t->d.n; o++)
            if (in_record(t, o, L) && !(full && t->d.om[o] + 12 > L) &&
                score(t, o, k, FC_NG_RECENT, L, &w, &e, NULL, NULL)) {
                sw += w;
                n++;
            }
        if (n < FC_MIN_RECORD)
            continue;
        sw /= n;
        for (int i = 0; i < 3; i++)
            if (sw < best[i]) { /* insert at i */
                for (int j = 2; j > i; j--) {
                    best[j] = best[j - 1];
                    parts[j] = parts[j - 1];
                }
                best[i] = sw;
                parts[i] = k;
                np += np < 3;
                break;
            }
    }
    return np == 3;
}

/* Candidates ks[0..nk)'s summed |error| per group over the record at L
 * (fc_choose's origins) into e[nk x G] (zeroed by the caller); returns the
 * record's origins. */
static int record_errors(const FcTable *t, int L, const int *ks, int nk, double *e)
{
    int G = t->d.G, full = record_full(t, L), n = 0;
    for (int o = 0; o < t->d.n; o++) {
        if (!in_record(t, o, L) || (full && t->d.om[o] + 12 > L))
            continue;
        int a = t->d.om[o], b = a + 12 < L ? a + 12 : L;
        n++;
        for (int g = 0; g < G; g++) {
            double x = mean_of(t, g, a, b);
            for (int j = 0; j < nk; j++)
                e[(size_t)j * G + g] += fabs(fc_table_at(t, o, ks[j])[g] - x);
        }
    }
    return n;
}

/* The combination at L into out[G] (groups only; see forecast.h); top: of
 * the record's 3 best. */
static void combine(const FcTable *t, int L, const double *model, int top, double *out)
{
    int G = t->d.G, np = (int)(sizeof comb_parts / sizeof comb_parts[0]);
    int parts[3];
    memcpy(parts, comb_parts, sizeof parts);
    if (top && !top3(t, L, parts))
        memcpy(parts, comb_parts, sizeof parts);
    double *f = xcalloc((size_t)np * (G + 1), sizeof *f);
    double *e = xcalloc((size_t)np * G + 1, sizeof *e);
    for (int j = 0; j < np; j++)
        fc_forecast(t, parts[j], L, model, f + (size_t)j * (G + 1));
    int n = record_errors(t, L, parts, np, e);
    for (int g = 0; g < G; g++) {
        double sw = 0, sv = 0;
        int eq = n < FC_MIN_RECORD; /* equal weights: no record, or a part without error */
        for (int j = 0; j < np; j++)
            eq |= e[(size_t)j * G + g] <= 0;
        for (int j = 0; j < np; j++) {
            double w = eq ? 1 : n / e[(size_t)j * G + g]; /* 1 / mean |error| */
            sw += w;
            sv += w * f[(size_t)j * (G + 1) + g];
        }
        out[g] = sw > 0 ? sv / sw : 0;
    }
    free(f);
    free(e);
}

/* Each group its own best candidate at L into out[G] (see forecast.h). */
static void per_group(const FcTable *t, int L, const double *model, double *out)
{
    int G = t->d.G, ks[FC_COMB];
    for (int k = 0; k < FC_COMB; k++)
        ks[k] = k;
    double *e = xcalloc((size_t)FC_COMB * G + 1, sizeof *e);
    int n = record_errors(t, L, ks, FC_COMB, e);
    double *f = xcalloc((size_t)G + 1, sizeof *f);
    fc_forecast(t, FC_DEFAULT, L, model, out);
    for (int g = 0; n >= FC_MIN_RECORD && g < G; g++) {
        int best = FC_DEFAULT;
        for (int k = 0; k < FC_COMB; k++)
            if (e[(size_t)k * G + g] < e[(size_t)best * G + g] - 1e-12)
                best = k;
        fc_forecast(t, best, L, model, f);
        out[g] = f[g];
    }
    free(f);
    free(e);
}

void fc_forecast(const FcTable *t, int k, int L, const double *model, double *out)
{
    int G = t->d.G;
    double tot = 0, tot_s = 0; /* the candidate's groups; the shrunk's smoothing part */
    if (fc_cand_uses_model(k) && !model) {
        memset(out, 0, ((size_t)G + 1) * sizeof *out);
        return;
    }
    int mh = k >= FC_SHRUNK0 ? k - FC_SHRUNK0 : k - FC_MODEL0;
    const double *mf = k >= FC_MODEL0 && k < FC_TREND0 ? model + (size_t)mh * (G + 1) : NULL;
    double tr = k >= FC_TREND0 && k < FC_DAMP0 ? 1 + trend(t, L) : 1;
    if (k == FC_PERGROUP)
        per_group(t, L, model, out);
    else if (k >= FC_COMB)
        combine(t, L, model, k == FC_COMBTOP, out);
    for (int g = 0; g < G; g++) {
        double v;
        if (k == FC_NAIVE)
            v = mean_of(t, g, L - 12, L);
        else if (k == FC_LAST3)
            v = mean_of(t, g, L - 3, L);
        else if (k < FC_MODEL0)
            v = smooth(t, g, L, k - FC_SMOOTH0 + 1);
        else if (k < FC_SHRUNK0)
            v = mf[g];
        else if (k < FC_TREND0) {
            double s = smooth(t, g, L, model_half[mh]);
            tot_s += s;
            v = 0.5 * mf[g] + 0.5 * s;
        } else if (k < FC_DAMP0)
            v = tr * smooth(t, g, L, k - FC_TREND0 + 1);
        else if (k < FC_COMB)
            v = damped(t, g, L, fc_damp_half[k - FC_DAMP0]);
        else
            v = out[g]; /* the combination's, above */
        double cap = FC_LEVEL_CAP * mean_of(t, g, L - 12, L);
        if (k > FC_LAST3 && cap > 0 && v > cap) /* a group's history bounds its level (the
                                                   baselines stay what they are) */
            v = cap;
        out[g] = v;
        tot += v;
    }
    double ng = new_groups(t, L);
    double mcut = 0; /* the model's groups' use the cap left out, out of its total too */
    for (int g = 0; mf && g < G; g++) {
        double c = FC_LEVEL_CAP * mean_of(t, g, L - 12, L);
        mcut += c > 0 && mf[g] > c ? mf[g] - c : 0;
    }
    if (k >= FC_MODEL0 && k < FC_SHRUNK0)
        out[G] = mf[G] - mcut;
    else if (k >= FC_SHRUNK0 && k < FC_TREND0)
        out[G] = 0.5 * (mf[G] - mcut) + 0.5 * (tot_s + ng); /* never below its groups' sum */
    else
        out[G] = tot + ng;
}

FcTable *fc_table_new(const FcData *d)
{
    FcTable *t = xcalloc(1, sizeof *t);
    t->d = *d;
    int G = d->G, T = d->T;
    t->cum = xcalloc((size_t)G * (T + 1) + 1, sizeof *t->cum);
    t->hcum = xcalloc((size_t)T + 2, sizeof *t->hcum);
    for (int m = 0; m < T; m++)
        t->hcum[m + 1] = t->hcum[m] + (d->hours ? d->hours[m] : 1);
    t->first = xcalloc((size_t)G + 1, sizeof *t->first);
    for (int g = 0; g < G; g++) {
        double *c = t->cum + (size_t)g * (T + 1);
        t->first[g] = T;
        for (int m = 0; m < T; m++) {
            double u = d->use[(size_t)g * T + m];
            c[m + 1] = c[m] + u * (d->hours ? d->hours[m] : 1);
            if (u > 0 && t->first[g] == T)
                t->first[g] = m;
        }
    }
    t->f = xcalloc((size_t)d->n * FC_NCAND * (G + 1) + 1, sizeof *t->f);
    for (int o = 0; o < d->n; o++)
        for (int k = 0; k < FC_NCAND; k++)
            fc_forecast(t, k, d->om[o],
                        d->model ? d->model + (size_t)o * DEM_NHALF * (G + 1) : NULL,
                        t->f + ((size_t)o * FC_NCAND + k) * (G + 1));
    return t;
}

void fc_table_free(FcTable *t)
{
    if (!t)
        return;
    free(t->cum);
    free(t->hcum);
    free(t->f);
    free(t->first);
    free(t);
}

/* ---- scoring ---- */

double fc_mean(const FcTable *t, int g, int a, int b)
{
    return mean_of(t, g, a, b);
}

const double *fc_table_at(const FcTable *t, int o, int k)
{
    return t->f + ((size_t)o * FC_NCAND + k) * (t->d.G + 1);
}

/* The model's new groups at half-life 6 months from the model's forecast
 * mf (G + 1 values). */
static double model_new(const double *mf, int G)
{
    double s = 0;
    for (int g = 0; g < G; g++)
        s += mf[g];
    return mf[G] - s > 0 ? mf[G] - s : 0;
}

/* Candidate k's total at origin o with new groups ng (FC_NG_*). */
static double total_of(const FcTable *t, int o, int k, int ng)
{
    const double *f = fc_table_at(t, o, k);
    int G = t->d.G;
    if (ng == FC_NG_RECENT || fc_cand_uses_model(k) || !t->d.model)
        return f[G];
    double s = 0;
    for (int g = 0; g < G; g++)
        s += f[g];
    return s + model_new(t->d.model + ((size_t)o * DEM_NHALF + 2) * (G + 1), G);
}

double fc_total_with(const FcTable *t, const double *f, const double *model, int ng)
{
    int G = t->d.G;
    if (ng == FC_NG_RECENT || !model)
        return f[G];
    double s = 0;
    for (int g = 0; g < G; g++)
        s += f[g];
    return s + model_new(model + (size_t)2 * (G + 1), G);
}

/* Origin o scored up to month L: per-group WAPE, total error, the
 * scored months (0: none). */
static int score(const FcTable *t, int o, int k, int ng, int L, double *wape, double *err,
                 double *act, double *fct)
{
    int a = t->d.om[o], b = a + 12 < L ? a + 12 : L;
    if (b > t->d.T)
        b = t->d.T;
    if (b <= a)
        return 0;
    const double *f = fc_table_at(t, o, k);
    double e = 0, s = 0;
    for (int g = 0; g < t->d.G; g++) {
        double x = mean_of(t, g, a, b);
        e += fabs(f[g] - x);
        s += x;
    }
    double tot = total_of(t, o, k, ng);
    *wape = s > 0 ? e / s : 0;
    *err = s > 0 ? (tot - s) / s : 0;
    if (act)
        *act = s;
    if (fct)
        *fct = tot;
    return s > 0 ? b - a : 0;
}

/* Origins in the record at month L. */
static int in_record(const FcTable *t, int o, int L)
{
    return t->d.om[o] + FC_MIN_SCORED <= L && !(t->d.apart && t->d.apart[o]);
}

static int record_full(const FcTable *t, int L)
{
    int nfull = 0;
    for (int o = 0; o < t->d.n; o++)
        nfull += in_record(t, o, L) && t->d.om[o] + 12 <= L;
    return nfull >= FC_MIN_RECORD;
}

int fc_size_class(double f, double tot)
{
    double s = tot > 0 ? f / tot : 0;
    return s < 0.02 ? 0 : s < 0.10 ? 1 : 2;
}

/* The p10-p90 of errors v (log actual / forecast): centred on the forecast,
 * +-the 80th percentile of |v| (the range always holds its own point; the
 * p10 and p90 of v themselves held the demo's total at 8 of 17 cuts taken
 * from earlier cuts, the errors' sign turning between years; +-|v|80 held
 * 15 of 17, docs/planning.md "Ranges"). Reorders v. */
static void quantiles(double *v, int n, double *q10, double *q90)
{
    for (int i = 0; i < n; i++)
        v[i] = fabs(v[i]);
    double h = n ? backtest_percentile(v, n, 80) : NAN;
    *q10 = -h;
    *q90 = h;
}

void fc_ranges(const FcTable *t, int k, int newg, int L, FcRange *out)
{
    int G = t->d.G;
    memset(out, 0, sizeof *out);
    out->full = record_full(t, L);
    double *lt = xcalloc((size_t)t->d.n + 1, sizeof *lt);
    double *l2 = xcalloc((size_t)t->d.n + 1, sizeof *l2);
    int n2 = 0;
    double *lg[FC_NSIZE];
    for (int c = 0; c < FC_NSIZE; c++)
        lg[c] = xcalloc((size_t)t->d.n * G + 1, sizeof *lg[c]);
    int nt = 0, ng[FC_NSIZE] = {0};
    for (int o = 0; o < t->d.n; o++) {
        if (!in_record(t, o, L) || (out->full && t->d.om[o] + 12 > L))
            continue;
        int a = t->d.om[o], b = a + 12 < L ? a + 12 : L;
        const double *f = fc_table_at(t, o, k);
        double s = 0;
        for (int g = 0; g < G; g++) {
            double x = mean_of(t, g, a, b);
            s += x;
            if (f[g] > 0) {
                int c = fc_size_class(f[g], f[G]);
                lg[c][ng[c]++] = log((x > 0.02 * f[g] ? x : 0.02 * f[g]) / f[g]);
            }
        }
        double tot = total_of(t, o, k, newg);
        if (s > 0 && tot > 0)
            lt[nt++] = log(s / tot) * 12.0 / (b - a); /* a year drifts further */
        double s2 = 0; /* year 2: the same forecast against the next 12 months */
        for (int g = 0; a + 24 <= L && g < G; g++)
            s2 += mean_of(t, g, a + 12, a + 24);
        if (a + 24 <= L && s2 > 0 && tot > 0)
            l2[n2++] = log(s2 / tot);
    }
    out->n = nt >= FC_MIN_RECORD ? nt : 0;
    /* year 2 widens by the ratio of the errors' p10-p90 spreads (their own
     * quantiles, not +-|error|: a year of capacity growth in year 2 would
     * otherwise open year 2's range as far downward as upward) */
    double w1 = nt ? backtest_percentile(lt, nt, 90) - backtest_percentile(lt, nt, 10) : 0;
    double w2 = n2 ? backtest_percentile(l2, n2, 90) - backtest_percentile(l2, n2, 10) : 0;
    quantiles(lt, nt, &out->q10, &out->q90);
    if (out->n && n2 >= FC_MIN_YEAR2) {
        out->n2 = n2;
        quantiles(l2, n2, &out->q10_2, &out->q90_2);
        double w = w1 > 0 ? w2 / w1 : 0;
        out->widen2 = w1 > 0 ? (w > 1 ? w : 1) : 0; /* never narrower than year 1 */
    }
    free(l2);
    int all = 0;
    for (int c = 0; c < FC_NSIZE; c++)
        all += ng[c];
    double *pool = xcalloc((size_t)all + 1, sizeof *pool);
    int np = 0;
    for (int c = 0; c < FC_NSIZE; c++)
        for (int i = 0; i < ng[c]; i++)
            pool[np++] = lg[c][i];
    double p10, p90;
    quantiles(pool, np, &p10, &p90);
    for (int c = 0; c < FC_NSIZE; c++) {
        if (ng[c] >= 10) /* enough of its own size: its own spread */
            quantiles(lg[c], ng[c], &out->gq10[c], &out->gq90[c]);
        else {
            out->gq10[c] = p10;
            out->gq90[c] = p90;
        }
        out->gn[c] = out->n ? (ng[c] >= 10 ? ng[c] : np) : 0;
        free(lg[c]);
    }
    free(pool);
    free(lt);
}

void fc_range_of(const FcRange *r, double f, double tot, int group, double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (!r || r->n == 0)
        return;
    double q10 = r->q10, q90 = r->q90;
    if (group >= 0) {
        int c = fc_size_class(f, tot);
        if (r->gn[c] == 0)
            return;
        q10 = r->gq10[c];
        q90 = r->gq90[c];
    }
    *lo = f * exp(q10);
    *hi = f * exp(q90);
}

void fc_choose(const FcTable *t, int L, FcChoice *out)
{
    memset(out, 0, sizeof *out);
    out->cand = t->d.model ? FC_DEFAULT : FC_DEFAULT_NOMODEL;
    out->ng = t->d.model ? FC_NG_DEFAULT : FC_NG_RECENT;
    double bw = INFINITY, bm = INFINITY;
    int full = record_full(t, L); /* scored on 12 months, when there are enough */
    for (int k = 0; k < FC_NCHOOSE; k++) {
        if (fc_cand_uses_model(k) && !t->d.model)
            continue;
        double sw = 0, sm = 0;
        int n = 0;
        for (int o = 0; o < t->d.n; o++) {
            double w, e;
            if (!in_record(t, o, L) || (full && t->d.om[o] + 12 > L) ||
                !score(t, o, k, FC_NG_RECENT, L, &w, &e, NULL, NULL))
                continue;
            sw += w;
            sm += fabs(e);
            n++;
        }
        if (n < FC_MIN_RECORD)
            continue;
        sw /= n;
        sm /= n;
        if (sw < bw - 1e-12 || (fabs(sw - bw) <= 1e-12 && sm < bm)) {
            bw = sw;
            bm = sm;
            out->cand = k;
            out->nrec = n;
            out->wape = sw;
            out->mae = sm;
        }
    }
    if (out->nrec >= FC_MIN_RECORD && t->d.model && !fc_cand_uses_model(out->cand)) {
        double m[2] = {0, 0}; /* the new groups: the recent rate's or the model's */
        int n = 0;
        for (int o = 0; o < t->d.n; o++) {
            double w, e0, e1;
            if (!in_record(t, o, L) || (full && t->d.om[o] + 12 > L) ||
                !score(t, o, out->cand, FC_NG_RECENT, L, &w, &e0, NULL, NULL))
                continue;
            score(t, o, out->cand, FC_NG_MODEL, L, &w, &e1, NULL, NULL);
            m[0] += fabs(e0);
            m[1] += fabs(e1);
            n++;
        }
        out->ng = n && m[1] < m[0] ? FC_NG_MODEL : FC_NG_RECENT;
        if (n)
            out->mae = m[out->ng] / n;
    }
    fc_ranges(t, out->cand, out->ng, L, &out->range);
}

/* Candidate k at origin o scored on 12 months, with ranges r. */
static void cover(const FcTable *t, int o, int k, int ng, const FcRange *r, int *cal,
                  int *tot_in, double *grp)
{
    int G = t->d.G, a = t->d.om[o];
    const double *f = fc_table_at(t, o, k);
    double s = 0, in = 0, lo, hi;
    *cal = r->n > 0;
    *tot_in = 0;
    *grp = 0;
    if (!*cal)
        return;
    for (int g = 0; g < G; g++) {
        double x = mean_of(t, g, a, a + 12);
        s += x;
        fc_range_of(r, f[g], f[G], g, &lo, &hi);
        if (f[g] > 0 && x >= lo && x <= hi)
            in += x;
    }
    *grp = s > 0 ? in / s : 0;
    double tot = total_of(t, o, k, ng);
    fc_range_of(r, tot, tot, -1, &lo, &hi);
    *tot_in = s >= lo && s <= hi;
}

int fc_backtest(const FcTable *t, int T_end, FcCut *cuts, FcRec *rec)
{
    int nc = 0;
    memset(rec, 0, (FC_NCAND + 1) * sizeof *rec);
    for (int o = 0; o < t->d.n; o++) {
        if (t->d.one >= 0 ? o != t->d.one
                          : t->d.om[o] + 12 > T_end || t->d.om[o] < t->d.first_cut)
            continue;
        FcCut *c = &cuts[nc++];
        memset(c, 0, sizeof *c);
        c->o = o;
        c->apart = t->d.apart && t->d.apart[o];
        fc_choose(t, t->d.om[o], &c->choice);
        score(t, o, c->choice.cand, c->choice.ng, T_end, &c->wape, &c->err, &c->actual, &c->forecast);
        cover(t, o, c->choice.cand, c->choice.ng, &c->choice.range, &c->calibrated,
              &c->cover_total, &c->cover_groups);
        if (c->apart)
            continue;
        for (int k = 0; k <= FC_NCAND; k++) {
            int kk = k < FC_NCAND ? k : c->choice.cand;
            if (fc_cand_uses_model(kk) && !t->d.model)
                continue;
            FcRec *r = &rec[k];
            double w, e, g;
            int cal, in;
            if (!score(t, o, kk, FC_NG_RECENT, T_end, &w, &e, NULL, NULL))
                continue;
            if (k < FC_NCAND) {
                c->cand_wape[k] = w;
                c->cand_err[k] = e;
            }
            r->n++;
            r->wape += w;
            r->mae += fabs(e);
            r->bias += e;
            if (k < FC_NCAND) {
                FcRange rg;
                fc_ranges(t, kk, FC_NG_RECENT, t->d.om[o], &rg);
                cover(t, o, kk, FC_NG_RECENT, &rg, &cal, &in, &g);
            } else {
                cal = c->calibrated;
                in = c->cover_total;
                g = c->cover_groups;
            }
            if (cal) {
                r->ncal++;
                r->cover += in;
                r->cover_groups += g;
            }
        }
    }
    for (int k = 0; k <= FC_NCAND; k++) {
        FcRec *r = &rec[k];
        if (r->n) {
            r->wape /= r->n;
            r->mae /= r->n;
            r->bias /= r->n;
        }
        if (r->ncal)
            r->cover_groups /= r->ncal;
    }
    return nc;
}
