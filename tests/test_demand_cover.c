/* core/demand's members' rates on a short history (issue 30): a history
 * that lies inside the fit's last month counts that month by the part it
 * covers, as "used now" (DemFit.window_cover) does; a longer one keeps its
 * rates to the bit. Months of 100 s (mb[k] = 100 k), t0 = 2400; the figures
 * worked by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "core/demand.h"

static DemCut months_of_100(void)
{
    static const int64_t leaves[1] = {INT64_MAX};
    static const int onr[1] = {0};
    DemCut c;
    memset(&c, 0, sizeof c);
    for (int k = 0; k <= DEM_HISTORY; k++)
        c.mb[k] = 100 * k;
    c.leaves = leaves;
    c.on_roster = onr;
    return c;
}

/* The rate the fit gives a user with month values v[12..23] whose first
 * month is `first` (every month counted whole): sum w v / sum w, w =
 * 0.5^((24 - m - 0.5) / H), summed in the fit's order. */
static double whole_months_rate(const double *v, int first, int k)
{
    double sw = 0, sv = 0;
    for (int m = first; m < DEM_HISTORY; m++) {
        double w = pow(0.5, ((double)(DEM_HISTORY - m) - 0.5) / dem_halflives[k]);
        sw += w;
        sv += w * v[m];
    }
    return sv / sw;
}

/* One user runs 2 GPU-eq over the last quarter of the last month [2375,
 * 2400), the whole history: month 23 holds 2 x 25 / 100 = 0.5; the history
 * covers 25 of its 100 s, so the rate is 0.5 / 0.25 = 2 at every
 * half-life (before: 0.5, a quarter of what was used); used now = window
 * mean 0.5 / 12 over window_cover 25 / 1200 = 2 as well. */
static void test_one_day_history(void **state)
{
    (void)state;
    const DemJob jobs[] = {{0, 0, 2375, 2375, 2400, 2}};
    DemHist h = {jobs, 1, 1, 1, 2375, NULL, 0, NULL, NULL};
    DemCut c = months_of_100();
    DemFit f;
    demand_fit(&h, &c, 0, &f);
    assert_int_equal(f.nactive, 1);
    for (int k = 0; k < DEM_NHALF; k++)
        assert_float_equal(f.users[0].rate[k], 2, 1e-12);
    assert_float_equal(f.window_cover, 25.0 / 1200, 1e-15);
    assert_float_equal(f.users[0].used / f.window_cover, 2, 1e-12);
    assert_float_equal(f.groups[0].used / f.window_cover, 2, 1e-12);
    demand_fit_done(&f);
}

/* A history from 2250 (half of month 22): month 22 holds 1, month 23 2.
 * Longer than the last month, its first month still counts whole (the
 * backtest's early cuts keep their figures to the bit): rate = the whole
 * months' weighted mean, e.g. 1.6666666666666665 at half-life 1 month
 * (python3: (0.5**1.5 * 1 + 0.5**0.5 * 2) / (0.5**1.5 + 0.5**0.5)). */
static void test_longer_history_as_before(void **state)
{
    (void)state;
    const DemJob jobs[] = {{0, 0, 2250, 2250, 2400, 2}};
    DemHist h = {jobs, 1, 1, 1, 2250, NULL, 0, NULL, NULL};
    DemCut c = months_of_100();
    DemFit f;
    demand_fit(&h, &c, 0, &f);
    double v[DEM_HISTORY] = {0};
    v[22] = 1;
    v[23] = 2;
    for (int k = 0; k < DEM_NHALF; k++) {
        double want = whole_months_rate(v, 22, k);
        assert_memory_equal(&f.users[0].rate[k], &want, sizeof want);
    }
    assert_float_equal(f.users[0].rate[0], 1.6666666666666665, 1e-12);
    demand_fit_done(&f);
}

/* A full history (data from 0): the rates are the whole months' weighted
 * means, to the bit. User 0 runs 1 GPU-eq in [1200, 1900) and 3 in [1900,
 * 2400): months 12..18 hold 1, month 19 holds 3, months 20..23 hold 3. */
static void test_full_history_to_the_bit(void **state)
{
    (void)state;
    const DemJob jobs[] = {{0, 0, 0, 0, 50, 1}, {0, 0, 1200, 1200, 1900, 1},
                           {0, 0, 1900, 1900, 2400, 3}};
    DemHist h = {jobs, 3, 1, 1, 0, NULL, 0, NULL, NULL};
    DemCut c = months_of_100();
    DemFit f;
    demand_fit(&h, &c, 0, &f);
    double v[DEM_HISTORY] = {0};
    for (int m = 12; m < DEM_HISTORY; m++)
        v[m] = m < 19 ? 1 : 3;
    assert_int_equal(f.window_cover, 1);
    for (int k = 0; k < DEM_NHALF; k++) {
        double want = whole_months_rate(v, 12, k);
        assert_memory_equal(&f.users[0].rate[k], &want, sizeof want);
    }
    demand_fit_done(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_day_history),
        cmocka_unit_test(test_longer_history_as_before),
        cmocka_unit_test(test_full_history_to_the_bit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
