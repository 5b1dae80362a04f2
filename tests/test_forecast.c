/* core/forecast (issue 28): the forecasters' levels worked by hand, the
 * choice at a month reads nothing at or after it (changing every later
 * month changes no choice, range or forecast made before them), the
 * backtest's per-candidate records are the means of its cuts, and the new
 * groups' term. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/backtest.h"
#include "core/forecast.h"
#include "core/projection.h"

#define G 3
#define T 40

/* Group 0 flat at 2, group 1 growing 0.1 a month from 1, group 2 on and
 * off (4 in even months, 0 in odd ones). */
static void series(double *use)
{
    for (int m = 0; m < T; m++) {
        use[0 * T + m] = 2;
        use[1 * T + m] = 1 + 0.1 * m;
        use[2 * T + m] = m % 2 ? 0 : 4;
    }
}

static FcTable *table(double *use, int *om, int *n)
{
    *n = 0;
    for (int m = 3; m < T; m++)
        om[(*n)++] = m;
    FcData d = {G, T, use, *n, om, NULL, NULL, 6, NULL, -1};
    return fc_table_new(&d);
}

static void test_levels(void **state)
{
    (void)state;
    double use[G * T], out[G + 1];
    int om[T], n;
    series(use);
    FcTable *t = table(use, om, &n);
    fc_forecast(t, FC_NAIVE, 20, NULL, out);
    assert_float_equal(out[0], 2, 1e-12);
    assert_float_equal(out[1], 1 + 0.1 * 13.5, 1e-12); /* months 8..19: mean 13.5 */
    assert_float_equal(out[2], 2, 1e-12);
    fc_forecast(t, FC_LAST3, 20, NULL, out);
    assert_float_equal(out[1], 1 + 0.1 * 18, 1e-12); /* months 17..19 */
    assert_float_equal(out[2], 4.0 / 3, 1e-12);       /* 18 on, 17 and 19 off */
    /* smoothing, half-life 1: weights 1, 1/2, 1/4, ... over the last 36 months
     * that exist (20): month 19 (off) weighs most */
    fc_forecast(t, FC_SMOOTH0, 20, NULL, out);
    double s = 0, w = 0;
    for (int a = 0; a < 20; a++) {
        s += pow(0.5, a) * ((19 - a) % 2 ? 0 : 4);
        w += pow(0.5, a);
    }
    assert_float_equal(out[2], s / w, 1e-12);
    assert_true(out[2] < 2);
    /* no group is new after month 0: the total is the groups' sum */
    assert_float_equal(out[3], out[0] + out[1] + out[2], 1e-12);
    /* model candidates need the model */
    fc_forecast(t, FC_MODEL0, 20, NULL, out);
    assert_float_equal(out[3], 0, 0);
    char k[32];
    fc_cand_key(FC_SMOOTH0 + 1, k, sizeof k);
    assert_string_equal(k, "smooth2");
    assert_int_equal(fc_cand_by_key("shrunk3"), FC_SHRUNK0 + 1);
    assert_int_equal(fc_cand_by_key("bogus"), -1);
    fc_table_free(t);
}

/* Changing every month from L on changes nothing chosen at L. */
static void test_no_look_ahead(void **state)
{
    (void)state;
    double a[G * T], b[G * T];
    int om[T], n;
    series(a);
    memcpy(b, a, sizeof a);
    const int L = 30;
    for (int g = 0; g < G; g++)
        for (int m = L; m < T; m++)
            b[g * T + m] = 50 + g * 7 + m; /* a different future */
    FcTable *ta = table(a, om, &n), *tb = table(b, om, &n);
    for (int l = 4; l <= L; l++) {
        FcChoice x, y;
        fc_choose(ta, l, &x);
        fc_choose(tb, l, &y);
        assert_memory_equal(&x, &y, sizeof x);
        double fx[G + 1], fy[G + 1];
        fc_forecast(ta, x.cand, l, NULL, fx);
        fc_forecast(tb, y.cand, l, NULL, fy);
        assert_memory_equal(fx, fy, sizeof fx);
    }
    /* and the future is what the backtest scores */
    FcChoice x, y;
    fc_choose(ta, T, &x);
    fc_choose(tb, T, &y);
    assert_true(x.nrec >= FC_MIN_RECORD);
    assert_true(x.wape != y.wape);
    fc_table_free(ta);
    fc_table_free(tb);
}

/* The damped trend (fc4): flat series stay flat; on group 1's line (1 +
 * 0.1 m) Holt's level and trend, worked here from the standard recursion
 * (alpha = 1 - 0.5^(1/h), beta 0.2, phi 0.8, the last 36 months), give the
 * mean of the next 12 months; it is above the last 12 months' mean. */
static void test_damped(void **state)
{
    (void)state;
    double use[G * T], out[G + 1];
    int om[T], n;
    series(use);
    FcTable *t = table(use, om, &n);
    const int L = 38, h = 2;
    fc_forecast(t, FC_DAMP0 + 1, L, NULL, out); /* h = 2 */
    assert_int_equal(fc_damp_half[1], h);
    assert_float_equal(out[0], 2, 1e-12);
    double al = 1 - pow(0.5, 1.0 / h), lv = 1 + 0.1 * (L - 36), tr = 0;
    for (int m = L - 35; m < L; m++) {
        double prev = lv;
        lv = al * (1 + 0.1 * m) + (1 - al) * (lv + 0.8 * tr);
        tr = 0.2 * (lv - prev) + (1 - 0.2) * 0.8 * tr;
    }
    double d = 0;
    for (int i = 1; i <= 12; i++)
        d += pow(0.8, i);
    assert_float_equal(out[1], lv + tr * d / 12, 1e-12);
    assert_true(out[1] > fc_mean(t, 1, L - 12, L));
    char k[32];
    fc_cand_key(FC_DAMP0 + 3, k, sizeof k);
    assert_string_equal(k, "damped6");
    assert_int_equal(fc_cand_by_key("combtop"), FC_COMBTOP);
    assert_float_equal(fc_cand_halflife(FC_DAMP0 + 3), 6, 0);
    fc_table_free(t);
}

/* The combination (fc4): with the model off by 0.05 a group from each
 * origin's next 12 months, its weight per group is 1 / its mean |error|
 * over the record (the origins scored on 12 months before L), as are
 * smoothing 2's and last 3 months'; what the months from L on hold
 * changes nothing at L. */
static void test_combination(void **state)
{
    (void)state;
    double a[G * T], b[G * T], out[G + 1], oa[G + 1], ob[G + 1];
    int om[T], n = 0;
    series(a);
    memcpy(b, a, sizeof a);
    const int L = 30;
    for (int g = 0; g < G; g++)
        for (int m = L; m < T; m++)
            b[g * T + m] = 50 + g * 7 + m;
    for (int m = 3; m < T; m++)
        om[n++] = m;
    static double model[T * DEM_NHALF * (G + 1)];
    FcData d = {G, T, a, n, om, model, NULL, 6, NULL, -1};
    FcTable *t = fc_table_new(&d); /* the model's forecasts filled below (borrowed) */
    for (int o = 0; o < n; o++)
        for (int g = 0; g < G; g++) {
            double *f = model + ((size_t)o * DEM_NHALF) * (G + 1);
            f[g] = fc_mean(t, g, om[o], om[o] + 12) + 0.05;
        }
    fc_table_free(t);
    t = fc_table_new(&d);
    const double *mL = model + ((size_t)(L - 3) * DEM_NHALF) * (G + 1);
    fc_forecast(t, FC_COMB, L, mL, out);
    const int parts[3] = {FC_SMOOTH0 + 1, FC_LAST3, FC_MODEL0};
    for (int g = 0; g < G; g++) {
        double sw = 0, sv = 0, fp[G + 1];
        for (int j = 0; j < 3; j++) {
            double e = 0;
            int k = 0;
            for (int o = 0; o < n; o++) {
                if (om[o] + 12 > L) /* the record: 12 months scored before L */
                    continue;
                e += fabs(fc_table_at(t, o, parts[j])[g] - fc_mean(t, g, om[o], om[o] + 12));
                k++;
            }
            fc_forecast(t, parts[j], L, mL, fp);
            sw += k / e;
            sv += k / e * fp[g];
        }
        assert_float_equal(out[g], sv / sw, 1e-9);
    }
    /* the model's weight dominates where the others miss: group 2 (on and off) */
    double fm[G + 1];
    fc_forecast(t, FC_MODEL0, L, mL, fm);
    assert_true(fabs(out[2] - fm[2]) < 0.1);
    /* each group its own best: the candidate with its least error over the record */
    double pg[G + 1], fk[G + 1];
    fc_forecast(t, FC_PERGROUP, L, mL, pg);
    for (int g = 0; g < G; g++) {
        int best = FC_DEFAULT;
        double be = INFINITY;
        for (int k = 0; k < FC_COMB; k++) {
            double e = 0;
            for (int o = 0; o < n; o++)
                if (om[o] + 12 <= L)
                    e += fabs(fc_table_at(t, o, k)[g] - fc_mean(t, g, om[o], om[o] + 12));
            if (e < be - 1e-12 || (k == FC_DEFAULT && e <= be + 1e-12)) {
                be = e;
                best = k;
            }
        }
        fc_forecast(t, best, L, mL, fk);
        assert_float_equal(pg[g], fk[g], 1e-12);
    }
    fc_forecast(t, FC_COMBTOP, L, mL, oa);
    FcData db = d;
    db.use = b;
    FcTable *tb = fc_table_new(&db);
    fc_forecast(tb, FC_COMBTOP, L, mL, ob);
    assert_memory_equal(oa, ob, sizeof oa);
    fc_forecast(tb, FC_COMB, L, mL, ob);
    assert_memory_equal(out, ob, sizeof out);
    fc_table_free(tb);
    fc_table_free(t);
}

/* The backtest's record of a candidate is the mean of its cuts'. */
static void test_backtest_record(void **state)
{
    (void)state;
    double use[G * T];
    int om[T], n;
    series(use);
    FcTable *t = table(use, om, &n);
    FcCut cuts[T];
    FcRec rec[FC_NCAND + 1];
    int nc = fc_backtest(t, T, cuts, rec);
    /* origins from month 6 (first_cut) with 12 months after, to 40: 6..28 */
    assert_int_equal(nc, 23);
    double w = 0;
    for (int i = 0; i < nc; i++)
        w += cuts[i].cand_wape[FC_NAIVE];
    assert_float_equal(rec[FC_NAIVE].wape, w / nc, 1e-12);
    assert_int_equal(rec[FC_NAIVE].n, nc);
    assert_int_equal(rec[FC_MODEL0].n, 0); /* no model given */
    /* the chosen forecaster's record: what was chosen at each cut */
    w = 0;
    for (int i = 0; i < nc; i++)
        w += cuts[i].wape;
    assert_float_equal(rec[FC_NCAND].wape, w / nc, 1e-12);
    /* a range needs 3 earlier errors: the first cut has none */
    assert_int_equal(cuts[0].calibrated, 0);
    assert_true(cuts[nc - 1].calibrated);
    fc_table_free(t);
}

/* A group first seen after the data's first 6 months counts as new: its
 * mean over the last W months x 12 / W joins the total. */
static void test_new_groups(void **state)
{
    (void)state;
    double use[G * T];
    int om[T], n;
    memset(use, 0, sizeof use);
    for (int m = 0; m < T; m++)
        use[0 * T + m] = 1;
    for (int m = 16; m < T; m++)
        use[2 * T + m] = 3; /* group 2 from month 16 */
    FcTable *t = table(use, om, &n);
    double out[G + 1];
    fc_forecast(t, FC_NAIVE, 20, NULL, out);
    /* W = 6: group 2's mean over months 14..19 = 3 x 4 / 6 = 2, x 12 / 6 = 4 */
    assert_float_equal(out[2], 3 * 4 / 12.0, 1e-12);
    assert_float_equal(out[3], out[0] + out[2] + 4, 1e-12);
    fc_table_free(t);
}

/* Year 2's range (issue 28): naive at origins 12..59 of a 60-month series
 * (group 0 flat at 2, group 1 1 + 0.1 m, group 2 4 and 0 by turns), read at
 * L = 60. Naive's total at m is 5 + 0.1 (m - 6.5), year 1's actual
 * 5 + 0.1 (m + 5.5), year 2's 5 + 0.1 (m + 17.5): year 1 from origins 12..48
 * (12 months scored), year 2 from 12..36 (24 scored). */
#define T2 60
static void test_year2_range(void **state)
{
    (void)state;
    double use[G * T2], l1[T2], l2[T2];
    int om[T2], n = 0, n1 = 0, n2 = 0;
    for (int m = 0; m < T2; m++) {
        use[0 * T2 + m] = 2;
        use[1 * T2 + m] = 1 + 0.1 * m;
        use[2 * T2 + m] = m % 2 ? 0 : 4;
    }
    for (int m = 12; m < T2; m++)
        om[n++] = m;
    FcData d = {G, T2, use, n, om, NULL, NULL, 6, NULL, -1};
    FcTable *t = fc_table_new(&d);
    for (int m = 12; m + 12 <= T2; m++)
        l1[n1++] = log((5 + 0.1 * (m + 5.5)) / (5 + 0.1 * (m - 6.5)));
    for (int m = 12; m + 24 <= T2; m++)
        l2[n2++] = log((5 + 0.1 * (m + 17.5)) / (5 + 0.1 * (m - 6.5)));
    FcRange r;
    fc_ranges(t, FC_NAIVE, FC_NG_RECENT, T2, &r);
    assert_int_equal(r.n, 37);
    assert_int_equal(r.n2, 25);
    /* +-the 80th percentile of |log error| (every error is positive here);
     * year 2 wider by the ratio of the errors' own p10-p90 spreads */
    double s1 = backtest_percentile(l1, n1, 90) - backtest_percentile(l1, n1, 10);
    double s2 = backtest_percentile(l2, n2, 90) - backtest_percentile(l2, n2, 10);
    double p90 = backtest_percentile(l1, n1, 80), p10 = -p90;
    double q90 = backtest_percentile(l2, n2, 80), q10 = -q90;
    assert_float_equal(r.q10, p10, 1e-12);
    assert_float_equal(r.q90, p90, 1e-12);
    assert_float_equal(r.q10_2, q10, 1e-12);
    assert_float_equal(r.q90_2, q90, 1e-12);
    assert_true(s2 / s1 > 1);
    assert_float_equal(r.widen2, s2 / s1, 1e-12);
    /* read at 47: 12 origins (12..23) with 24 months scored, the fewest measured */
    fc_ranges(t, FC_NAIVE, FC_NG_RECENT, 47, &r);
    assert_int_equal(r.n2, 12);
    /* read at 46: 11, not measured */
    fc_ranges(t, FC_NAIVE, FC_NG_RECENT, 46, &r);
    assert_int_equal(r.n2, 0);
    assert_float_equal(r.widen2, 0, 0);
    fc_table_free(t);
    /* the projection's ranges: year 2 x widen2, year 3 x widen2 sqrt(3/2); else sqrt y */
    ProjCalib c = {5, log(0.8), log(1.5), 0, 0, 1.7};
    ProjRange y2 = projection_range(&c, 10, 2), y3 = projection_range(&c, 10, 3);
    assert_float_equal(y2.lo, 10 * pow(0.8, 1.7), 1e-12);
    assert_float_equal(y2.hi, 10 * pow(1.5, 1.7), 1e-12);
    assert_float_equal(y3.hi, 10 * pow(1.5, 1.7 * sqrt(1.5)), 1e-12);
    assert_float_equal(projection_range(&c, 10, 1).hi, 15, 1e-12);
    c.widen2 = 0;
    assert_float_equal(projection_range(&c, 10, 2).hi, 10 * pow(1.5, sqrt(2)), 1e-12);
}

/* Issue 28: no group above FC_LEVEL_CAP x its last 12 months but by the
 * baselines; the model's total loses what its groups lose; an origin scored
 * on fewer than 12 months counts its error x 12 / months in the range. */
static void test_level_cap(void **state)
{
    (void)state;
    double use[G * T], out[G + 1], model[DEM_NHALF * (G + 1)];
    int om[T], n;
    series(use);
    for (int m = 0; m < T; m++)
        use[0 * T + m] = m == 19 ? 30 : 1; /* group 0: 1, 30 in month 19 */
    FcTable *t = table(use, om, &n);
    fc_forecast(t, FC_LAST3, 20, NULL, out);
    double cap = 3 * (11 * 1 + 30) / 12.0; /* months 8..19 */
    assert_float_equal(out[0], 32 / 3.0, 1e-12); /* a baseline: not capped */
    assert_true(out[0] > cap);
    fc_forecast(t, FC_SMOOTH0, 20, NULL, out);
    assert_float_equal(out[0], cap, 1e-12);
    for (int h = 0; h < DEM_NHALF; h++) {
        model[h * (G + 1) + 0] = 20;
        model[h * (G + 1) + 1] = 1;
        model[h * (G + 1) + 2] = 1;
        model[h * (G + 1) + G] = 25; /* 3 of new groups */
    }
    fc_forecast(t, FC_MODEL0, 20, model, out);
    assert_float_equal(out[0], cap, 1e-12);
    assert_float_equal(out[G], 25 - (20 - cap), 1e-12);
    fc_table_free(t);
    /* naive's range on a series doubling at month 6: read at 10, origins 3
     * and 4 scored on 7 and 6 months; at 11, origins 3..5 */
    double u2[G * T];
    memset(u2, 0, sizeof u2);
    for (int m = 0; m < T; m++)
        u2[m] = m < 6 ? 1 : 2;
    t = table(u2, om, &n);
    FcRange r;
    fc_ranges(t, FC_NAIVE, FC_NG_RECENT, 10, &r);
    assert_int_equal(r.n, 0); /* 2 origins: fewer than FC_MIN_RECORD */
    fc_ranges(t, FC_NAIVE, FC_NG_RECENT, 11, &r);
    assert_int_equal(r.n, 3);
    /* origins 3, 4, 5 scored on months [o, 11): 1 until month 5, 2 from 6;
     * naive's total = the mean of months 0..o-1 = 1 (the new-groups term is 0
     * with fewer than 9 months) */
    double e[3];
    for (int o = 3; o <= 5; o++)
        e[o - 3] = log(((6 - o) * 1.0 + 5 * 2.0) / (11 - o)) * 12.0 / (11 - o);
    assert_float_equal(r.q90, backtest_percentile(e, 3, 80), 1e-12);
    assert_float_equal(r.q10, -r.q90, 1e-12);
    fc_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels),
        cmocka_unit_test(test_no_look_ahead),
        cmocka_unit_test(test_backtest_record),
        cmocka_unit_test(test_new_groups),
        cmocka_unit_test(test_year2_range),
        cmocka_unit_test(test_level_cap),
        cmocka_unit_test(test_damped),
        cmocka_unit_test(test_combination),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
