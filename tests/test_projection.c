/* The projection's every term and the backtest's errors on small cases
 * worked by hand (the figures in the comments) and the parameter keys.
 * (The time of a recompute after one edit is make bench's: capplan project
 * --bench.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "core/backtest.h"
#include "core/projection.h"

/* Years are 1000 s long here: year 1 = [0, 1000), year 2 = [1000, 2000).
 * Group 0 (growth 10 %, buffer 20 %): A profile 1 (mean 1, peak 3, burst
 * share 0.2, 40 GiB), B profile 1 (3, 5, 0.4, 70 GiB, leaves at 500), C
 * profile 2 (0.5, 1.5, 0, 20 GiB). Group 1 (no growth, no buffer): D with
 * too little history (2, 2, 0, memory unknown), and someone arriving at
 * 1000. Inventory: 8 GPUs of 80 GiB at speed 1.5 throughout, 4 of 24 GiB
 * until 1500. */
static const ProjUser users[] = {
    {0, 0, 1, 3, 0.2, 40, PROJ_NEVER},
    {0, 0, 3, 5, 0.4, 70, 500},
    {0, 1, 0.5, 1.5, 0, 20, PROJ_NEVER},
    {1, -1, 2, 2, 0, -1, PROJ_NEVER},
};
static const ProjArrival arrivals[] = {{1, 1000, PROJ_NEVER}};
static const ProjGpus gpus[] = {{8, 80, 1.5, 0, PROJ_NEVER}, {4, 24, -1, 0, 1500}};
static const int group_domain[] = {0, 0};
static const double growth[] = {0.1, 0};
static const double buffer[] = {0.2, 0};
static const int64_t year_start[] = {0, 1000, 2000};

static ProjModel *hand_model(void)
{
    ProjInput in = {2, 2, 1, 2, group_domain, users, 4, arrivals, 1, gpus, 2, growth, buffer,
                    0, year_start};
    return projection_prepare(&in);
}

/* Measured: b_1 = p75 of {1, 3} = 1 + 0.75 x 2 = 2.5, b_2 = 0.5; m_1 = p75
 * of {40, 70} = 62.5 (80 class), m_2 = 20; mixes: group 0 labels 1, 1, 2 ->
 * 2/3, 1/3; group 1 has none: its domain's (the same) 2/3, 1/3. s_0 = mean
 * of 0.2, 0.4, 0 = 0.2; h_0 = median of 2, 2, 1 = 2; s_1 = 0, h_1 = 0. */
static void test_measured(void **state)
{
    (void)state;
    ProjModel *m = hand_model();
    ProjParams *p = projection_params_new(m);
    assert_float_equal(p->gpus[0], 2.5, 1e-12);
    assert_float_equal(p->gpus[1], 0.5, 1e-12);
    assert_float_equal(p->mem[0], 62.5, 1e-12);
    assert_float_equal(p->mem[1], 20, 1e-12);
    assert_float_equal(p->share[0], 0.2, 1e-12);
    assert_float_equal(p->burst[0], 2, 1e-12);
    assert_float_equal(p->share[1], 0, 1e-12);
    assert_float_equal(p->burst[1], 0, 1e-12);
    assert_float_equal(p->growth[0], 0.1, 0);
    assert_float_equal(p->buffer[0], 0.2, 0);
    assert_float_equal(projection_heads0(m, 0), 3, 0);
    assert_float_equal(projection_heads0(m, 1), 1, 0);
    assert_float_equal(projection_mix(m, 1)[0], 2.0 / 3, 1e-12);
    projection_params_free(p);
    projection_model_free(m);
}

/* Group 0, year 1: stay 1 (A) + 0.5 (B) in profile 1, 1 (C) in profile 2;
 * target 3 x 1.1 = 3.3, newcomers 0.8 with the mix: N = 1.5 + 0.8 x 2/3,
 * 1 + 0.8 / 3; base = 2.0333 x 2.5 + 1.2667 x 0.5 = 5.716667; bursts
 * ceil(0.2 x 3.3) = 1, pool 2; demand (5.716667 + 2) x 1.2 = 9.26; the
 * pool split like the base: 80 class (5.083333 + 2 x 5.083333 / 5.716667)
 * x 1.2 = 8.234111.
 * Year 2: stay 1 + 0 and 1, target 3.63, newcomers 1.63: base 2.086667 x
 * 2.5 + 1.543333 x 0.5 = 5.988333; demand (5.988333 + 2) x 1.2 = 9.586.
 * Group 1: D counts 2/3, 1/3: base 2/3 x 2.5 + 1/3 x 0.5 = 1.833333;
 * year 2 adds the arrival: 4/3, 2/3 -> 3.666667; no newcomer (target 1). */
static void test_terms(void **state)
{
    (void)state;
    ProjModel *m = hand_model();
    ProjParams *p = projection_params_new(m);
    ProjResult *r = projection_result_new(m);
    projection_run(m, p, r);
    const ProjGroupYear *g0y1 = &r->gy[0], *g0y2 = &r->gy[1];
    const ProjGroupYear *g1y1 = &r->gy[2], *g1y2 = &r->gy[3];
    assert_float_equal(g0y1->stay, 2.5, 1e-12);
    assert_float_equal(g0y1->target, 3.3, 1e-12);
    assert_float_equal(g0y1->newcomers, 0.8, 1e-12);
    assert_float_equal(g0y1->heads_p[0], 1.5 + 0.8 * 2 / 3, 1e-12);
    assert_float_equal(g0y1->heads_p[1], 1 + 0.8 / 3, 1e-12);
    assert_float_equal(g0y1->heads, 3.3, 1e-12);
    assert_float_equal(g0y1->base, 5.716666666666667, 1e-9);
    assert_float_equal(g0y1->bursts, 1, 0);
    assert_float_equal(g0y1->pool, 2, 1e-12);
    assert_float_equal(g0y1->demand, 9.26, 1e-9);
    assert_float_equal(g0y1->demand_c[MEMCLASS_80], 8.234110787172, 1e-9);
    assert_float_equal(g0y1->demand_c[MEMCLASS_24], 1.025889212828, 1e-9);
    assert_float_equal(g0y2->stay, 2, 1e-12);
    assert_float_equal(g0y2->target, 3.63, 1e-12);
    assert_float_equal(g0y2->newcomers, 1.63, 1e-12);
    assert_float_equal(g0y2->base, 5.988333333333333, 1e-9);
    assert_float_equal(g0y2->demand, 9.586, 1e-9);
    assert_float_equal(g1y1->base, 1.833333333333333, 1e-9);
    assert_float_equal(g1y1->pool, 0, 0);
    assert_float_equal(g1y1->demand, 1.833333333333333, 1e-9);
    assert_float_equal(g1y2->arrivals, 1, 1e-12);
    assert_float_equal(g1y2->newcomers, 0, 0);
    assert_float_equal(g1y2->heads, 2, 1e-12);
    assert_float_equal(g1y2->demand, 3.666666666666667, 1e-9);
    /* totals, the domain, capacity (8 x 1.5 = 12 of 80; 4, then half a
     * year of 4 = 2, of 24) and gaps */
    assert_float_equal(r->total[0].demand, 9.26 + 1.833333333333333, 1e-9);
    assert_float_equal(r->dom[0].demand, r->total[0].demand, 1e-12);
    assert_float_equal(r->total[0].capacity_c[MEMCLASS_80], 12, 1e-12);
    assert_float_equal(r->total[0].capacity_c[MEMCLASS_24], 4, 1e-12);
    assert_float_equal(r->total[1].capacity_c[MEMCLASS_24], 2, 1e-12);
    assert_float_equal(r->total[0].demand_c[MEMCLASS_80], 8.234110787172 + 5.0 / 3, 1e-9);
    assert_float_equal(r->total[0].gap_c[MEMCLASS_80], 8.234110787172 + 5.0 / 3 - 12, 1e-9);
    assert_float_equal(r->total[0].gap, r->total[0].demand - 16, 1e-9);
    projection_result_free(r);
    projection_params_free(p);
    projection_model_free(m);
}

/* Edits: growth 0 for group 0 -> target 3, newcomers 0.5 in year 1;
 * a purchase of 3 GPUs of 24 GiB in year 2; b_1 = 4; profile 1 moved to
 * the >80 class. */
static void test_edits(void **state)
{
    (void)state;
    ProjModel *m = hand_model();
    ProjParams *p = projection_params_new(m);
    ProjResult *r = projection_result_new(m);
    CpErr err;
    assert_int_equal(projection_param_set(m, p, "growth", 0, 0, &err), 0);
    assert_int_equal(projection_param_set(m, p, "purchase.24.y2", -1, 3, &err), 0);
    projection_run(m, p, r);
    assert_float_equal(r->gy[0].newcomers, 0.5, 1e-12);
    assert_float_equal(r->gy[2].target, 1, 1e-12); /* group 1 untouched */
    assert_float_equal(r->total[0].capacity_c[MEMCLASS_24], 4, 1e-12);
    assert_float_equal(r->total[1].capacity_c[MEMCLASS_24], 5, 1e-12);
    assert_int_equal(projection_param_set(m, p, "gpus.1", -1, 4, &err), 0);
    assert_int_equal(projection_param_set(m, p, "mem.1", -1, 141, &err), 0);
    projection_run(m, p, r);
    double n1 = r->gy[0].heads_p[0];
    assert_float_equal(r->gy[0].base, n1 * 4 + r->gy[0].heads_p[1] * 0.5, 1e-9);
    assert_true(r->total[0].demand_c[MEMCLASS_GT80] > 0);
    assert_float_equal(r->total[0].demand_c[MEMCLASS_80], 0, 0);
    double v;
    assert_int_equal(projection_param_get(m, p, "gpus.1", -1, &v, &err), 0);
    assert_float_equal(v, 4, 0);
    assert_int_equal(projection_param_get(m, p, "growth", 1, &v, &err), 0);
    assert_float_equal(v, 0, 0);
    /* every group at once */
    assert_int_equal(projection_param_set(m, p, "buffer", -1, 0.5, &err), 0);
    assert_float_equal(p->buffer[0], 0.5, 0);
    assert_float_equal(p->buffer[1], 0.5, 0);
    projection_params_reset(m, p);
    assert_float_equal(p->buffer[0], 0.2, 0);
    assert_float_equal(p->purchase[MEMCLASS_24][1], 0, 0);
    projection_result_free(r);
    projection_params_free(p);
    projection_model_free(m);
}

/* A stated need applied to one group: group 0's own b_1 = 3 changes its
 * base by heads_1 x (3 - 1) and leaves group 1 alone; a later edit of
 * b_1 for everyone does not reach group 0's own value; reset drops it. */
static void test_group_gpus(void **state)
{
    (void)state;
    ProjModel *m = hand_model();
    ProjParams *p = projection_params_new(m);
    ProjResult *r0 = projection_result_new(m), *r = projection_result_new(m);
    CpErr err;
    projection_run(m, p, r0);
    assert_int_equal(projection_param_set(m, p, "gpus.1", 0, 3, &err), 0);
    projection_run(m, p, r);
    double h1 = r->gy[0].heads_p[0];
    assert_float_equal(r->gy[0].base, r0->gy[0].base + h1 * (3 - p->gpus[0]), 1e-9);
    int ny = r->nyears;
    assert_float_equal(r->gy[ny].base, r0->gy[ny].base, 1e-12); /* group 1 */
    double v;
    assert_int_equal(projection_param_get(m, p, "gpus.1", 0, &v, &err), 0);
    assert_float_equal(v, 3, 0);
    assert_int_equal(projection_param_get(m, p, "gpus.1", 1, &v, &err), 0);
    assert_float_equal(v, p->gpus[0], 0);
    assert_int_equal(projection_param_set(m, p, "gpus.1", -1, 7, &err), 0);
    assert_float_equal(projection_gpus_of(p, 0, 0), 3, 0);
    assert_float_equal(projection_gpus_of(p, 1, 0), 7, 0);
    ProjParams *c = projection_params_copy(p);
    assert_float_equal(projection_gpus_of(c, 0, 0), 3, 0);
    projection_params_reset(m, p);
    assert_float_equal(projection_gpus_of(p, 0, 0), p->gpus[0], 0);
    projection_params_free(c);
    projection_result_free(r);
    projection_result_free(r0);
    projection_params_free(p);
    projection_model_free(m);
}

static void test_bad_keys(void **state)
{
    (void)state;
    ProjModel *m = hand_model();
    ProjParams *p = projection_params_new(m);
    CpErr err;
    assert_int_equal(projection_param_set(m, p, "gpus.3", -1, 1, &err), -1);
    assert_non_null(strstr(err.msg, "no profile"));
    assert_int_equal(projection_param_set(m, p, "gpus.0", -1, 1, &err), -1);
    assert_int_equal(projection_param_set(m, p, "gpus.x", -1, 1, &err), -1);
    assert_int_equal(projection_param_set(m, p, "share", 0, 1.5, &err), -1);
    assert_int_equal(projection_param_set(m, p, "growth", 0, -1, &err), -1);
    assert_int_equal(projection_param_set(m, p, "growth", 0, -0.5, &err), 0);
    assert_int_equal(projection_param_set(m, p, "buffer", 0, -0.1, &err), -1);
    assert_int_equal(projection_param_set(m, p, "growth", 5, 0.1, &err), -1);
    assert_int_equal(projection_param_set(m, p, "mem.1", 0, 1, &err), -1); /* no group */
    assert_int_equal(projection_param_set(m, p, "gpus.1", 2, 1, &err), -1); /* no group 2 */
    assert_int_equal(projection_param_set(m, p, "mem.1", -1, -1, &err), 0); /* unknown */
    assert_int_equal(projection_param_set(m, p, "mem.1", -1, -2, &err), -1);
    assert_int_equal(projection_param_set(m, p, "purchase.80+.y1", -1, 2, &err), 0);
    assert_int_equal(projection_param_set(m, p, "purchase.90.y1", -1, 2, &err), -1);
    assert_int_equal(projection_param_set(m, p, "purchase.80.y3", -1, 2, &err), -1);
    assert_int_equal(projection_param_set(m, p, "frobnicate", -1, 2, &err), -1);
    assert_int_equal(projection_param_set(m, p, "burst", -1, NAN, &err), -1);
    assert_true(projection_key_is_group("share"));
    assert_false(projection_key_is_group("gpus.1"));
    assert_true(projection_key_takes_group("gpus.1"));
    assert_false(projection_key_takes_group("mem.1"));
    projection_params_free(p);
    projection_model_free(m);
}

/* ceil(s x N) must not round 0.3 x 10 = 3.0000000000000004 up to 4. */
static void test_pool_ceiling(void **state)
{
    (void)state;
    ProjUser u[10];
    for (int i = 0; i < 10; i++)
        u[i] = (ProjUser){0, 0, 1, 2, 0.3, 10, PROJ_NEVER};
    const int gd[] = {0};
    const double gr[] = {0}, bu[] = {0};
    ProjInput in = {1, 1, 1, 2, gd, u, 10, NULL, 0, NULL, 0, gr, bu, 0, year_start};
    ProjModel *m = projection_prepare(&in);
    ProjParams *p = projection_params_new(m);
    ProjResult *r = projection_result_new(m);
    projection_run(m, p, r);
    assert_float_equal(r->gy[0].bursts, 3, 0);
    assert_float_equal(r->gy[0].pool, 3, 1e-12); /* h = median(2 - 1) = 1 */
    assert_float_equal(r->gy[0].base, 10, 1e-12);
    projection_result_free(r);
    projection_params_free(p);
    projection_model_free(m);
}

static void test_measure_helpers(void **state)
{
    (void)state;
    assert_float_equal(projection_measure_growth(12, 10, 3, 0.5), 0.2, 1e-12);
    assert_float_equal(projection_measure_growth(12, 2, 3, 0.5), 0.5, 0); /* too few before */
    /* months 0, 0 (before the group began), 10, 10, 10, 30: mean 15, p90
     * of {10, 10, 10, 30} = 10 + 0.7 x 20 = 24: buffer 24 / 15 - 1 = 0.6 */
    const double months[] = {0, 0, 10, 10, 10, 30};
    assert_float_equal(projection_measure_buffer(months, 6, 0.1), 0.6, 1e-12);
    const double two[] = {0, 5, 5};
    assert_float_equal(projection_measure_buffer(two, 3, 0.1), 0.1, 0);
    const double spiky[] = {1, 1, 1, 1, 1, 1, 1, 1, 50, 100}; /* p90 55, mean 15.8 */
    assert_float_equal(projection_measure_buffer(spiky, 10, 0.1), 1, 0); /* capped */
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
    assert_float_equal(s.after, 17, 0);
    assert_float_equal(s.wape_naive, 10.0 / 17, 1e-12);
    assert_float_equal(s.wape_base, 3.0 / 17, 1e-12);
    assert_float_equal(s.wape_demand, (2 + 1.5 + 1.2) / 17, 1e-12);
    const double pred[] = {1, 2}, act[] = {0, 0};
    assert_float_equal(backtest_wape(pred, act, 2), -1, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_measured),      cmocka_unit_test(test_terms),
        cmocka_unit_test(test_edits),         cmocka_unit_test(test_group_gpus),
        cmocka_unit_test(test_bad_keys),
        cmocka_unit_test(test_pool_ceiling),  cmocka_unit_test(test_measure_helpers),
        cmocka_unit_test(test_backtest),      
    };
    return cmocka_run_group_tests_name("projection", tests, NULL, NULL);
}
