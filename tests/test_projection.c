/* Model v2's every term on small cases worked by hand (the figures in the
 * comments), the fit of core/demand on a tiny history, the parameter keys
 * (model v1's refused with the new key named), and the backtest's errors.
 * (The time of a recompute after one edit is make bench's: capplan
 * project --bench.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/backtest.h"
#include "core/demand.h"
#include "core/projection.h"

/* Years are 1000 s long: year 1 = [0, 1000), year 2 = [1000, 2000).
 * Group 0: A (own rate 2 at every half-life, 40 GiB, stays), B (rate 1,
 * 20 GiB, leaves at 500). Group 1: no member, one roster arrival at 0.
 * Measured: growth 0, newcomers' rate 0.5 at ramp 0.5 (full rate 1), pool
 * 3 for group 0 and 0 for group 1; the institute's pool 2; buffer 10 %.
 * Inventory: 8 GPUs of 80 GiB (model H100, speed 5). */
static const ProjUser users[] = {
    {0, -1, {2, 2, 2, 2}, 40, PROJ_NEVER, 0, 0},
    {0, -1, {1, 1, 1, 1}, 20, 500, 0, 0},
};
static const ProjArrival arrivals[] = {{1, 0, PROJ_NEVER}};
static const ProjGpus gpus[] = {{8, 80, 5, 0, PROJ_NEVER, 0}};
static const ProjModelInfo models[] = {{"H100", 5, 80}};
static const int64_t year_start[] = {0, 1000, 2000};
static const int group_domain[] = {0, 0};

static double inst_pool = 2; /* the institute's measured pool the models get */

/* A cut whose month k starts at 100 k (the tests' short months), with the
 * members' roster ends and roster flags given (borrowed). */
static DemCut cut_months_of_100(const int64_t *leaves, const int *on_roster)
{
    DemCut c;
    memset(&c, 0, sizeof c);
    for (int k = 0; k <= DEM_HISTORY; k++)
        c.mb[k] = 100 * k;
    c.leaves = leaves;
    c.on_roster = on_roster;
    return c;
}

static ProjModel *model_of(int ncuts, const ProjUser *us)
{
    static DemGroup groups[2];
    static DemFit fit;
    groups[0] = (DemGroup){2, 0, 0, 0, 3, 0, 0, NAN, 0, 0.5, 0.5, 0, 3, 1, 0, 0};
    groups[1] = (DemGroup){0, 0, 0, 0, 0, 0, 0, NAN, 0, 0.5, 0.5, 0, 0, 1, 0, 0};
    memset(&fit, 0, sizeof fit);
    fit.groups = groups;
    fit.ngroups = 2;
    fit.pool_inst = inst_pool;
    ProjCalib c = {ncuts, log(0.8), log(1.5), 0.1, 2, 0};
    ProjInput in = {2, 0, 1, 2, group_domain, us, 2, arrivals, 1, gpus, 1, models, 1, &fit,
                    c, 0, year_start};
    return projection_prepare(&in);
}

static ProjModel *model(int ncuts)
{
    return model_of(ncuts, users);
}

/* Group 0, year 1: present 1 + 0.5 = 1.5, target 2 so 0.5 newcomer;
 * stayers 3, leavers -0.5, newcomers 0.5 x 1 x 0.5 = 0.25: expected 2.75;
 * pool 3 x 2/2 = 3; buffer (2.75 + 3) x 0.1 = 0.575; need 6.325. Year 2:
 * present 1, newcomers 1 (0.5 of them new: 0.5 x 1 + 0.5 x 0.5 = 0.75),
 * leavers -1: expected 2.75 again. Group 1 (no member): newcomers only,
 * the arrival at the ramp: 1 x 1 x 0.5 = 0.5, year 2 at full rate 1. */
static void test_terms(void **state)
{
    (void)state;
    ProjModel *m = model(0);
    ProjParams *p = projection_params_new(m);
    ProjResult *r = projection_result_new(m);
    projection_run(m, p, r);
    const ProjGroupYear *a = &r->gy[0], *b = &r->gy[1], *g1 = &r->gy[2];
    assert_float_equal(a->stay, 1.5, 1e-12);
    assert_float_equal(a->newcomers, 0.5, 1e-12);
    assert_float_equal(a->stayers, 3, 1e-12);
    assert_float_equal(a->leavers, -0.5, 1e-12);
    assert_float_equal(a->newcomers_use, 0.25, 1e-12);
    assert_float_equal(a->base, 2.75, 1e-12);
    assert_float_equal(a->pool, 3, 1e-12);
    assert_float_equal(a->buffer_add, 0.575, 1e-12);
    assert_float_equal(a->demand, 6.325, 1e-12);
    /* the parts sum to the need */
    assert_float_equal(a->stayers + a->leavers + a->newcomers_use + a->intensity + a->pool +
                           a->buffer_add,
                       a->demand, 1e-12);
    assert_float_equal(b->newcomers_use, 0.75, 1e-12);
    assert_float_equal(b->base, 2.75, 1e-12);
    assert_float_equal(g1->base, 0.5, 1e-12);
    assert_float_equal(r->gy[3].base, 1, 1e-12);
    /* by memory class: A's 2 of 2.5 present use in <=48, B's 0.5 in <=24 */
    assert_float_equal(a->demand_c[MEMCLASS_48], 6.325 * 2 / 2.5, 1e-12);
    assert_float_equal(a->demand_c[MEMCLASS_24], 6.325 * 0.5 / 2.5, 1e-12);
    /* institute: expected 3.25; pool 2 x heads 3 / 2 today = 3, at most the
     * groups' sum 3; buffer (3.25 + 3) x 0.1 */
    assert_float_equal(r->total[0].base, 3.25, 1e-12);
    assert_float_equal(r->total[0].pool, 3, 1e-12);
    assert_float_equal(r->total[0].pool_sum, 3, 1e-12);
    assert_float_equal(r->total[0].demand, 3.25 + 3 + 0.625, 1e-12);
    /* capacity 8 x 5 = 40 GPU-eq of 80 GiB */
    assert_float_equal(r->total[0].capacity_c[MEMCLASS_80], 40, 1e-12);
    assert_true(isnan(a->base_r.lo)); /* not calibrated */
    projection_result_free(r);
    projection_params_free(p);
    projection_model_free(m);
}

/* Stated needs (issue 28): A (rate 2, there all year) states 5 GPUs: 5 - 2
 * = 3 beyond; B (rate 1, half of year 1 present: use 0.5) states 1.2: 1.2 x
 * 0.5 - 0.5 = 0.1; someone of group 1 with no use states 0.7: all of it.
 * Group 0's year 1: stated 3.1, need 6.325 + 3.1 (no buffer on it); year 2
 * (B gone): 3. The institute's need adds 3.1 + 0.7. Stating less than one
 * uses adds nothing. */
static void test_stated(void **state)
{
    (void)state;
    ProjModel *m = model(0);
    ProjParams *p = projection_params_new(m);
    ProjResult *r = projection_result_new(m);
    projection_run(m, p, r);
    double g1_need = r->gy[2].demand, inst = r->total[0].demand;
    projection_set_stated(m, 0, 0, 5);
    projection_set_stated(m, 1, 0, 1.2);
    projection_set_stated(m, -1, 1, 0.7);
    projection_set_stated(m, -1, 1, NAN); /* nothing */
    projection_run(m, p, r);
    assert_float_equal(r->gy[0].stated, 3.1, 1e-12);
    assert_float_equal(r->gy[0].demand, 6.325 + 3.1, 1e-12);
    assert_float_equal(r->gy[0].stayers + r->gy[0].leavers + r->gy[0].newcomers_use +
                           r->gy[0].intensity + r->gy[0].pool + r->gy[0].buffer_add +
                           r->gy[0].stated,
                       r->gy[0].demand, 1e-12);
    assert_float_equal(r->gy[1].stated, 3, 1e-12);
    assert_float_equal(r->gy[2].stated, 0.7, 1e-12);
    assert_float_equal(r->gy[2].demand, g1_need + 0.7, 1e-12);
    assert_float_equal(r->total[0].stated, 3.8, 1e-12);
    assert_float_equal(r->total[0].demand, inst + 3.8, 1e-12);
    assert_float_equal(projection_stated_of(m, 0), 5, 1e-12);
    assert_true(isnan(projection_stated_of(m, 5)));
    projection_set_stated(m, 0, 0, 1.5); /* below A's use of 2 */
    projection_run(m, p, r);
    assert_float_equal(r->gy[0].stated, 0.1, 1e-12);
    projection_result_free(r);
    projection_params_free(p);
    projection_model_free(m);
}

/* A flat institute (its measured pool 0): a scenario raising group 0's
 * pool from 3 to 5 adds 2 to the institute's in full, x heads 3 / 2 today
 * = 3 (below the groups' sum, 5); cutting it to 1 frees its share: 0. */
static void test_pool_added(void **state)
{
    (void)state;
    inst_pool = 0;
    ProjModel *m = model(0);
    inst_pool = 2;
    ProjParams *p = projection_params_new(m);
    ProjResult *r = projection_result_new(m);
    CpErr err;
    assert_int_equal(projection_param_set(m, p, "pool", 0, 5, &err), 0);
    projection_run(m, p, r);
    assert_float_equal(r->total[0].pool_sum, 5, 1e-12);
    assert_float_equal(r->total[0].pool, 3, 1e-12);
    assert_int_equal(projection_param_set(m, p, "pool", 0, 1, &err), 0);
    projection_run(m, p, r);
    assert_float_equal(r->total[0].pool, 0, 0);
    projection_result_free(r);
    projection_params_free(p);
    projection_model_free(m);
}

/* B left before t0 (at -100): a member of the window, not one of the heads
 * kept: group 0 keeps 1 head (A), so no newcomer replaces B; stayers 3,
 * leavers -1 (B all year), expected 2 (when every member of the window was
 * kept: 1 newcomer at 1 x ramp 0.5, 2.5). */
static void test_heads_t0(void **state)
{
    (void)state;
    const ProjUser us[] = {{0, -1, {2, 2, 2, 2}, 40, PROJ_NEVER, 0, 0},
                           {0, -1, {1, 1, 1, 1}, 20, -100, 0, 0}};
    ProjModel *m = model_of(0, us);
    ProjParams *p = projection_params_new(m);
    ProjResult *r = projection_result_new(m);
    projection_run(m, p, r);
    assert_float_equal(projection_heads0(m, 0), 2, 0);
    assert_float_equal(projection_heads_t0(m, 0), 1, 0);
    assert_float_equal(r->gy[0].stay, 1, 1e-12);
    assert_float_equal(r->gy[0].newcomers, 0, 0);
    assert_float_equal(r->gy[0].leavers, -1, 1e-12);
    assert_float_equal(r->gy[0].base, 2, 1e-12);
    projection_result_free(r);
    projection_params_free(p);
    projection_model_free(m);
}

/* Ranges: 2.75 x 0.8 = 2.2 to 2.75 x 1.5 = 4.125 in year 1; x sqrt(2) in
 * the exponent in year 2. */
static void test_ranges(void **state)
{
    (void)state;
    ProjModel *m = model(5);
    ProjParams *p = projection_params_new(m);
    ProjResult *r = projection_result_new(m);
    projection_run(m, p, r);
    assert_float_equal(r->gy[0].base_r.lo, 2.2, 1e-12);
    assert_float_equal(r->gy[0].base_r.hi, 4.125, 1e-12);
    assert_float_equal(r->gy[1].base_r.lo, 2.75 * exp(log(0.8) * sqrt(2)), 1e-12);
    projection_result_free(r);
    projection_params_free(p);
    projection_model_free(m);
}

static void test_keys(void **state)
{
    (void)state;
    ProjModel *m = model(0);
    ProjParams *p = projection_params_new(m);
    ProjResult *r = projection_result_new(m);
    CpErr err;
    assert_int_equal(projection_param_set(m, p, "share", 0, 0.5, &err), -1);
    assert_non_null(strstr(err.msg, "pool="));
    assert_int_equal(projection_param_set(m, p, "purchase.80.y1", -1, 4, &err), -1);
    assert_non_null(strstr(err.msg, "purchase.MODEL.yK"));
    assert_int_equal(projection_param_set(m, p, "purchase.A100.y1", -1, 4, &err), -1);
    assert_non_null(strstr(err.msg, "H100"));
    assert_int_equal(projection_param_set(m, p, "purchase.h100.y2", -1, 2, &err), 0);
    assert_int_equal(projection_param_set(m, p, "halflife", -1, 4, &err), -1);
    assert_int_equal(projection_param_set(m, p, "intensity", 0, 0.1, &err), -1);
    assert_int_equal(projection_param_set(m, p, "pool", 0, 1, &err), 0);
    projection_run(m, p, r);
    assert_float_equal(r->total[0].capacity_c[MEMCLASS_80], 40, 1e-12);
    assert_float_equal(r->total[1].capacity_c[MEMCLASS_80], 50, 1e-12); /* + 2 x 5 */
    assert_float_equal(r->gy[0].pool, 1, 1e-12);
    /* institute pool scales with the groups' edited pools: 2 x 1/3 x 3/2 */
    assert_float_equal(r->total[0].pool, 1, 1e-12);
    assert_int_equal(projection_param_set(m, p, "intensity", -1, 0.1, &err), 0);
    projection_run(m, p, r);
    assert_float_equal(r->gy[0].intensity, 2.75 * 0.1, 1e-12);
    /* growth 50 %, damped: 2 x 1.5 = 3 heads in year 1, x 1.25 = 3.75 in year 2 */
    assert_int_equal(projection_param_set(m, p, "growth", 0, 0.5, &err), 0);
    projection_run(m, p, r);
    assert_float_equal(r->gy[0].heads, 3, 1e-12);
    assert_float_equal(r->gy[1].heads, 3.75, 1e-12);
    projection_result_free(r);
    projection_params_free(p);
    projection_model_free(m);
}

/* A tiny history: months of 100 s (mb[k] = 100 k), t0 = 2400. User 0 in
 * group 0 runs 2 GPU-eq all of the last 12 months: rate 2 at every
 * half-life; user 1 (group 1) 1 GPU-eq only in the window's last month:
 * own rate from its first month = 1; both newcomers (no use the year
 * before, which the history covers). Actual after t0 of group 0: half of
 * [2400, 2600) at 2 = 1. */
static void test_fit(void **state)
{
    (void)state;
    const DemJob jobs[] = {{0, 0, 1200, 1200, 2500, 2}, {1, 1, 2300, 2300, 2400, 1}};
    DemHist h = {jobs, 2, 2, 2, 0, NULL, 0, NULL, NULL};
    int64_t leaves[2] = {INT64_MAX, INT64_MAX};
    int onr[2] = {0, 0};
    DemCut c = cut_months_of_100(leaves, onr);
    DemFit f;
    demand_fit(&h, &c, 0, &f);
    assert_int_equal(f.nactive, 2);
    for (int k = 0; k < DEM_NHALF; k++) {
        assert_float_equal(f.users[0].rate[k], 2, 1e-12);
        assert_float_equal(f.users[1].rate[k], 1, 1e-12);
    }
    assert_float_equal(f.groups[0].used, 2, 1e-12);
    assert_float_equal(f.groups[1].used, 1.0 / 12, 1e-12);
    assert_true(f.users[0].newcomer && f.users[1].newcomer);
    demand_fit_done(&f);
    double act[2];
    demand_actual(&h, 2400, 2600, act);
    assert_float_equal(act[0], 1, 1e-12);
    assert_float_equal(act[1], 0, 0);
}

/* The fleet re-prices past use: 1 GPU of speed 1 until 2200, then 1 of
 * speed 3 (F = 1, then 3; F(t0 = 2400) = 3). User 0's 2 GPU-eq in months
 * 12..21 count 6 at t0's fleet, in months 22..23 2: window mean (10 x 6 +
 * 2 x 2) / 12; the group's use as used stays 2; the window's F is (10 x 1
 * + 2 x 3) / 12. */
static void test_fit_fleet(void **state)
{
    (void)state;
    const DemJob jobs[] = {{0, 0, 1200, 1200, 2500, 2}, {1, 1, 2300, 2300, 2400, 1}};
    const DemGpus fleet[] = {{0, 2200, 1, 1}, {2200, INT64_MAX, 1, 3}};
    DemHist h = {jobs, 2, 2, 2, 0, fleet, 2, NULL, NULL};
    int64_t leaves[2] = {INT64_MAX, INT64_MAX};
    int onr[2] = {0, 0};
    DemCut c = cut_months_of_100(leaves, onr);
    DemFit f;
    demand_fit(&h, &c, 0, &f);
    assert_float_equal(f.fleet_now, 3, 1e-12);
    assert_float_equal(f.fleet_window, 16.0 / 12, 1e-12);
    assert_float_equal(f.users[0].used, 64.0 / 12, 1e-12);
    /* half-life 1 month: weights 0.5^(age in months from each month's middle) */
    double sw = 0, sv = 0;
    for (int m = 12; m < 24; m++) {
        double w = pow(0.5, 24 - m - 0.5);
        sw += w;
        sv += w * (m < 22 ? 6 : 2);
    }
    assert_float_equal(f.users[0].rate[0], sv / sw, 1e-12);
    assert_float_equal(f.users[0].rate[0], 2.999267399267399, 1e-9); /* python3 */
    assert_float_equal(f.users[1].rate[0], 1, 1e-12); /* month 23: F = 3 then and now */
    assert_float_equal(f.groups[0].used, 2, 1e-12);
    demand_fit_done(&f);
}

/* Maturation (months of 100 s, data from 0): users 0..9 arrive in month 2
 * (month 1 holds data, no use) at 1 GPU-eq for their first 3 months, then
 * 4: measured maturation 4 / 1; user 10 arrives in month 22 (in the last 3
 * months) at 1: rate 1 x 4 at every half-life; users 0..9 keep theirs. */
static void test_maturation(void **state)
{
    (void)state;
    DemJob jobs[21];
    for (int i = 0; i < 10; i++) {
        jobs[2 * i] = (DemJob){i, 0, 200, 200, 500, 1};
        jobs[2 * i + 1] = (DemJob){i, 0, 500, 500, 2400, 4};
    }
    jobs[20] = (DemJob){10, 0, 2200, 2200, 2400, 1};
    DemHist h = {jobs, 21, 11, 1, 0, NULL, 0, NULL, NULL};
    int64_t leaves[11];
    int onr[11] = {0};
    for (int i = 0; i < 11; i++)
        leaves[i] = INT64_MAX;
    DemCut c = cut_months_of_100(leaves, onr);
    DemFit f;
    demand_fit(&h, &c, 0, &f);
    assert_float_equal(f.maturation, 4, 1e-12);
    assert_int_equal(f.nactive, 11);
    for (int i = 0; i < 11; i++) {
        const DemUser *u = &f.users[i];
        assert_int_equal(u->matured, u->user == 10);
        for (int k = 0; k < DEM_NHALF; k++)
            assert_float_equal(u->rate[k], 4, 1e-12);
    }
    demand_fit_done(&f);
}

/* Two groups bursting in turn (months of 10 hours; window = 120 hours):
 * group 0 holds 2 GPU-eq over the window's first 60 hours, group 1 over
 * the last 60. Each group's burst curve is 1 half the time: pool 1 each,
 * 2 summed; the institute's curve is flat at 2: its pool is 0 (the groups
 * share one burst's room). */
static void test_pool_shared(void **state)
{
    (void)state;
    const int64_t hm = 36000, w0 = 12 * hm;
    const DemJob jobs[] = {{0, 0, w0, w0, w0 + 60 * 3600, 2},
                           {1, 1, w0 + 60 * 3600, w0 + 60 * 3600, 24 * hm, 2}};
    DemHist h = {jobs, 2, 2, 2, 0, NULL, 0, NULL, NULL};
    int64_t leaves[2] = {INT64_MAX, INT64_MAX};
    int onr[2] = {0, 0};
    DemCut c;
    for (int k = 0; k <= DEM_HISTORY; k++)
        c.mb[k] = hm * k;
    c.leaves = leaves;
    c.on_roster = onr;
    DemFit f;
    demand_fit(&h, &c, 1, &f);
    assert_float_equal(f.groups[0].pool, 1, 1e-12);
    assert_float_equal(f.groups[1].pool, 1, 1e-12);
    assert_float_equal(f.pool_sum, 2, 1e-12);
    assert_float_equal(f.pool_inst, 0, 1e-12);
    demand_fit_done(&f);
}

/* Group 1: naive 10 x 1.1 = 11 against 12 (error 1); group 2 new (naive
 * 0 against 5); group 3 stopped (naive 4 against 0): WAPE naive = 10/17.
 * Model 12, 3, 1: errors 0, 2, 1: 3/17. */
static void test_backtest(void **state)
{
    (void)state;
    BtGroup g[3] = {
        {10, 12, 0.1, 12, 14, 0, 0, 0, 0},
        {0, 5, 0, 3, 3.5, 0, 0, 0, 0},
        {4, 0, 0, 1, 1.2, 0, 0, 0, 0},
    };
    BtScore s;
    backtest_score(g, 3, &s);
    assert_float_equal(g[0].naive, 11, 1e-12);
    assert_float_equal(s.wape_naive, 10.0 / 17, 1e-12);
    assert_float_equal(s.wape_base, 3.0 / 17, 1e-12);
    double v[] = {4, 1, 3, 2};
    assert_float_equal(backtest_percentile(v, 4, 50), 2.5, 1e-12);
    assert_float_equal(backtest_percentile(v, 4, 80), 3.4, 1e-12);
    /* by selection (issue 31): a sorted copy's interpolation, to the bit,
     * with ties, at every percentile the planner asks and the ends */
    double w[97], sorted[97];
    for (int i = 0; i < 97; i++)
        w[i] = (double)((i * 37) % 41) / 7.0; /* 41 values, 56 of them repeated */
    memcpy(sorted, w, sizeof w);
    for (int i = 1; i < 97; i++) /* insertion sort: the reference */
        for (int k = i; k > 0 && sorted[k - 1] > sorted[k]; k--) {
            double t = sorted[k];
            sorted[k] = sorted[k - 1];
            sorted[k - 1] = t;
        }
    const double ps[] = {0, 10, 50, 80, 90, 95, 100};
    for (size_t q = 0; q < sizeof ps / sizeof ps[0]; q++) {
        double r = ps[q] / 100 * 96, want;
        int i = (int)r;
        want = i + 1 < 97 ? sorted[i] + (r - i) * (sorted[i + 1] - sorted[i]) : sorted[96];
        assert_true(backtest_percentile(w, 97, ps[q]) == want);
    }
}

/* Spans (DemHist.span_end, span_start): a fit and the use of a period read
 * through them are a full pass's to the bit. 3 x 4096 + 100 jobs in rowid
 * order over 48 months of 10 hours (starts every 14 s, runs 0-2.3 h, 10
 * users in 3 groups, eligible up to 1 h before), with rows out of order: job
 * 5 runs from month 0 to month 30, job 9000 starts in month 1, job 12000 is
 * eligible 20 months before its start. The cut at month 36 (history from
 * month 12): the first and last spans hold nothing of it. */
static void test_spans(void **state)
{
    (void)state;
    const int64_t hm = 36000;
    enum { N = 3 * DEM_SPAN + 100 };
    DemJob *jobs = calloc(N, sizeof *jobs);
    for (int i = 0; i < N; i++) {
        int64_t st = (int64_t)i * (48 * hm) / N;
        jobs[i] = (DemJob){i % 10, (i % 10) % 3, st - (i % 7) * 600, st, st + (i % 23) * 360,
                           1 + (i % 4) * 0.5};
    }
    jobs[5].end = 30 * hm;
    jobs[9000].elig = jobs[9000].start = hm + 50;
    jobs[9000].end = hm + 5000;
    jobs[12000].elig = jobs[12000].start - 20 * hm;
    int64_t sp[2 * 4];
    assert_int_equal(demand_nspans(N), 4);
    DemHist full = {jobs, N, 10, 3, 0, NULL, 0, NULL, NULL}, part = full;
    demand_spans(&full, sp, sp + 4);
    assert_int_equal(sp[0], 30 * hm);     /* job 5 */
    assert_int_equal(sp[4 + 1], hm + 50); /* job 9000 is in span 2 */
    assert_int_equal(sp[4 + 3], jobs[3 * DEM_SPAN].start);
    part.span_end = sp;
    part.span_start = sp + 4;
    int64_t leaves[10];
    int onr[10] = {0};
    for (int i = 0; i < 10; i++)
        leaves[i] = INT64_MAX;
    DemCut c;
    memset(&c, 0, sizeof c);
    for (int k = 0; k <= DEM_HISTORY; k++)
        c.mb[k] = hm * (k + 12);
    c.leaves = leaves;
    c.on_roster = onr;
    DemFit a, b;
    demand_fit(&full, &c, 1, &a);
    demand_fit(&part, &c, 1, &b);
    assert_int_equal(a.nactive, 10);
    assert_true(a.pool_inst > 0);
    assert_int_equal(b.nactive, a.nactive);
    assert_memory_equal(a.users, b.users, (size_t)a.nactive * sizeof *a.users);
    assert_memory_equal(a.groups, b.groups, 3 * sizeof *a.groups);
    double sa[] = {a.growth, a.intensity_raw, a.newrate, a.ramp, a.pool_inst, a.pool_sum,
                   a.maturation};
    double sb[] = {b.growth, b.intensity_raw, b.newrate, b.ramp, b.pool_inst, b.pool_sum,
                   b.maturation};
    assert_memory_equal(sa, sb, sizeof sa);
    demand_fit_done(&a);
    demand_fit_done(&b);
    const int64_t periods[][2] = {{0, hm}, {2 * hm, 14 * hm}, {29 * hm, 31 * hm}, {40 * hm, 60 * hm}};
    for (int k = 0; k < 4; k++) {
        double x[3], y[3];
        demand_actual(&full, periods[k][0], periods[k][1], x);
        demand_actual(&part, periods[k][0], periods[k][1], y);
        assert_true(x[0] > 0);
        assert_memory_equal(x, y, sizeof x);
    }
    free(jobs);
}

/* demand_fit_widen (issue 31): a fit over 3 groups and 10 users, widened
 * to 5 groups, is to the bit the fit over a history that also holds groups
 * 3 and 4 and users 10 and 11, whose jobs all start at or after the cut
 * (what a kept backtest cut sees when an import brings new accounts): at a
 * cut with a complete year before the window and at one without, pools on. */
static void test_widen(void **state)
{
    (void)state;
    const int64_t hm = 36000;
    enum { N = 2000, NEW = 40 };
    DemJob *jobs = calloc(N + NEW, sizeof *jobs);
    for (int i = 0; i < N; i++) {
        int64_t st = (int64_t)i * (40 * hm) / N;
        jobs[i] = (DemJob){i % 10, (i % 10) % 3, st - (i % 7) * 600, st, st + (i % 23) * 360,
                           1 + (i % 4) * 0.5};
    }
    int64_t leaves[12];
    int onr[12] = {0};
    for (int i = 0; i < 12; i++)
        leaves[i] = INT64_MAX;
    const int first[2] = {12, -6}; /* the cut's first month: complete, not */
    for (int k = 0; k < 2; k++) {
        DemCut c;
        memset(&c, 0, sizeof c);
        for (int m = 0; m <= DEM_HISTORY; m++)
            c.mb[m] = hm * (m + first[k]);
        c.leaves = leaves;
        c.on_roster = onr;
        int64_t t0 = c.mb[DEM_HISTORY];
        for (int i = 0; i < NEW; i++) /* new groups' jobs, from the cut on */
            jobs[N + i] = (DemJob){10 + i % 2, 3 + i % 2, t0 - 3600, t0 + i * 900,
                                   t0 + i * 900 + 7200, 2};
        DemHist wide = {jobs, N + NEW, 12, 5, 0, NULL, 0, NULL, NULL};
        DemHist old = {jobs, N, 10, 3, 0, NULL, 0, NULL, NULL};
        DemFit a, b;
        demand_fit(&wide, &c, 1, &a);
        demand_fit(&old, &c, 1, &b);
        demand_fit_widen(&b, 5);
        assert_int_equal(a.complete, k == 0);
        assert_true(a.nactive > 0 && a.pool_inst > 0);
        assert_int_equal(b.ngroups, 5);
        assert_int_equal(b.nactive, a.nactive);
        assert_memory_equal(a.users, b.users, (size_t)a.nactive * sizeof *a.users);
        assert_memory_equal(a.groups, b.groups, 5 * sizeof *a.groups);
        assert_true(a.groups[4].newrate > 0);
        DemFit x = a, y = b;
        x.users = y.users = NULL;
        x.groups = y.groups = NULL;
        assert_memory_equal(&x, &y, sizeof x);
        demand_fit_done(&a);
        demand_fit_done(&b);
    }
    free(jobs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_terms), cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_keys),  cmocka_unit_test(test_fit),
        cmocka_unit_test(test_fit_fleet), cmocka_unit_test(test_pool_shared),
        cmocka_unit_test(test_heads_t0), cmocka_unit_test(test_maturation),
        cmocka_unit_test(test_pool_added), cmocka_unit_test(test_stated),
        cmocka_unit_test(test_backtest), cmocka_unit_test(test_spans),
        cmocka_unit_test(test_widen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
