/* core/leavers (issue 28 item 2, what was known when): the leave date a
 * roster line gives at a date (its actual end only once passed, or at the
 * present; else its planned end; else none, the churn applies), a group's
 * churn shrunk toward the institute's, and the expected presence under a
 * yearly churn, worked by hand and by a Riemann sum. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "core/leavers.h"

#define DAY 86400
#define YEAR ((int64_t)(365.2425 * DAY))

static void test_known(void **state)
{
    (void)state;
    const int64_t t0 = 1000 * DAY, N = LEAVE_NONE;
    /* left before the cut: the actual end, whatever was planned */
    assert_true(leave_known(900 * DAY, 1200 * DAY, t0, 0) == 900 * DAY);
    /* a past cut: the actual end after it was not known; the planned one was */
    assert_true(leave_known(1300 * DAY, 1200 * DAY, t0, 0) == 1200 * DAY);
    assert_true(leave_known(1100 * DAY, 1200 * DAY, t0, 0) == 1200 * DAY);
    /* nothing planned: unknown, the churn applies */
    assert_true(leave_known(1300 * DAY, N, t0, 0) == N);
    assert_true(leave_known(N, N, t0, 0) == N);
    /* a planned end already passed while still there says nothing of when */
    assert_true(leave_known(1300 * DAY, 950 * DAY, t0, 0) == N);
    assert_true(leave_known(N, 950 * DAY, t0, 1) == N);
    /* the present: today's roster end is what is known today */
    assert_true(leave_known(1300 * DAY, 1200 * DAY, t0, 1) == 1300 * DAY);
    assert_true(leave_known(N, 1200 * DAY, t0, 1) == 1200 * DAY);
    /* a planned end on the cut's day is still to come */
    assert_true(leave_known(N, t0, t0, 0) == t0);
}

static void test_churn(void **state)
{
    (void)state;
    LeaveCount inst = {100, 20}; /* the institute: 20 % a year */
    /* (3 + 5 x 0.2) / (10 + 5) */
    assert_float_equal(leave_churn((LeaveCount){10, 3}, inst), 4.0 / 15, 1e-15);
    /* a group never measured: the institute's */
    assert_float_equal(leave_churn((LeaveCount){0, 0}, inst), 0.2, 1e-15);
    /* a large group: nearly its own */
    assert_float_equal(leave_churn((LeaveCount){1000, 500}, inst), 501.0 / 1005, 1e-15);
    /* nothing measured anywhere: nobody leaves */
    assert_float_equal(leave_churn((LeaveCount){0, 0}, (LeaveCount){0, 0}), 0, 0);
}

/* The mean of (1 - q)^years since t0 over [a, b), 1 before t0, by a
 * midpoint sum of 100000 steps. */
static double riemann(double q, int64_t t0, int64_t a, int64_t b)
{
    const int n = 100000;
    double s = 0, w = (double)(b - a) / n;
    for (int i = 0; i < n; i++) {
        double t = (double)a + (i + 0.5) * w;
        s += t < (double)t0 ? 1 : pow(1 - q, (t - (double)t0) / (365.2425 * DAY));
    }
    return s / n;
}

static void test_presence(void **state)
{
    (void)state;
    const int64_t t0 = 5000 * DAY;
    /* q = 0.5: year 1's mean of 2^-x is (1 - 1/2) / ln 2, year 2's half of it */
    assert_float_equal(leave_presence(0.5, t0, t0, t0 + YEAR), 0.5 / log(2), 1e-6);
    assert_float_equal(leave_presence(0.5, t0, t0 + YEAR, t0 + 2 * YEAR), 0.25 / log(2), 1e-6);
    /* no churn: always there */
    assert_float_equal(leave_presence(0, t0, t0, t0 + YEAR), 1, 0);
    /* a span beginning before t0, and a part-year, against the sum */
    assert_float_equal(leave_presence(0.3, t0, t0 - YEAR / 2, t0 + YEAR),
                       riemann(0.3, t0, t0 - YEAR / 2, t0 + YEAR), 1e-6);
    assert_float_equal(leave_presence(0.3, t0, t0 + 100 * DAY, t0 + 200 * DAY),
                       riemann(0.3, t0, t0 + 100 * DAY, t0 + 200 * DAY), 1e-6);
    /* all before t0 */
    assert_float_equal(leave_presence(0.3, t0, t0 - YEAR, t0), 1, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known),
        cmocka_unit_test(test_churn),
        cmocka_unit_test(test_presence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
