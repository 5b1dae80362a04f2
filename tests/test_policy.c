/* core/fairshare and core/energy on worked examples computed by hand: the
 * decay and the fair-share factor, the 125 % block and the hours lost, the
 * energy formula (TDP and measured utilisation), carbon from a constant
 * and from an hourly series across an hour boundary, and temporal
 * shifting on a tiny cluster. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/energy.h"
#include "core/fairshare.h"
#include "core/policy.h"
#include "core/radix.h"

#define DAY 86400
#define H 3600
/* 2024-03-01 00:00:00 UTC */
#define T0 ((int64_t)1709251200)

/* 100 GPU-hours consumed 14 days ago weigh 50, 28 days ago 25. */
static void test_decay(void **state)
{
    (void)state;
    double hl = 14.0 * DAY;
    assert_float_equal(100 * fairshare_decay(0, hl), 100, 1e-12);
    assert_float_equal(100 * fairshare_decay(14.0 * DAY, hl), 50, 1e-12);
    assert_float_equal(100 * fairshare_decay(28.0 * DAY, hl), 25, 1e-12);
    assert_float_equal(100 * fairshare_decay(7.0 * DAY, hl), 100 / sqrt(2.0), 1e-9);
    /* Slurm's factor: used exactly its share -> 0.5; nothing -> 1. */
    assert_float_equal(fairshare_factor(0.25, 0.25), 0.5, 1e-12);
    assert_float_equal(fairshare_factor(0, 0.25), 1.0, 1e-12);
    assert_float_equal(fairshare_factor(0.5, 0.25), 0.25, 1e-12);
    assert_float_equal(fairshare_factor(0.1, 0), 0, 1e-12);
}

/* Two groups with equal allocations (S = 1/2 each). A uses 100 GPU-h on
 * day 0, B 100 GPU-h on day 14. At the end of day 14 (15 days after A's
 * job, 1 day after B's), A's usage weighs 100 x 2^(-15/14), B's
 * 100 x 2^(-1/14): A's is half of B's, so U_A = 1/3, U_B = 2/3, and
 * F_A = 2^(-(1/3)/(1/2)) = 2^(-2/3) = 0.62996, F_B = 2^(-4/3) = 0.39685. */
static void test_factor_replay(void **state)
{
    (void)state;
    FsParams p;
    fairshare_params_default(&p);
    FsJob jobs[] = {{0, T0, 100, H}, {1, T0 + 14 * DAY, 100, H}};
    FsAlloc al[] = {{0, 2024, 1000}, {1, 2024, 1000}};
    FsResult r;
    fairshare_replay(&p, 2, jobs, 2, al, 2, &r);
    assert_int_equal(r.t0, T0);
    assert_int_equal(r.ndays, 15);
    assert_float_equal(r.factor[0 * r.ndays + 14], pow(2, -2.0 / 3), 1e-9);
    assert_float_equal(r.factor[1 * r.ndays + 14], pow(2, -4.0 / 3), 1e-9);
    /* Day 0: only A has used anything: U_A = 1, F_A = 2^-2; B untouched, 1. */
    assert_float_equal(r.factor[0], 0.25, 1e-9);
    assert_float_equal(r.factor[r.ndays], 1.0, 1e-9);
    assert_int_equal(r.nblocks, 0);
    assert_float_equal(r.sum[0].replayed, 100, 1e-9);
    fairshare_result_free(&r);
}

/* A 1000 h allocation: 14 jobs of 100 GPU-h (1 GPU x 100 h, one every 5
 * days). After 12 jobs the group has used 1200 h; the 13th passes the
 * 1250 h ceiling after 50 h: blocked at its start + 50 h, 50 h lost; the
 * 14th is lost whole: 150 h lost, 1250 h replayed of 1400. */
static void test_block_125(void **state)
{
    (void)state;
    FsParams p;
    fairshare_params_default(&p);
    FsJob jobs[14];
    for (int i = 0; i < 14; i++)
        jobs[i] = (FsJob){0, T0 + (int64_t)i * 5 * DAY, 1, 100.0 * H};
    FsAlloc al[] = {{0, 2024, 1000}};
    FsResult r;
    fairshare_replay(&p, 1, jobs, 14, al, 1, &r);
    assert_int_equal(r.nblocks, 1);
    assert_int_equal(r.blocks[0].at, T0 + 12 * 5 * DAY + 50 * H);
    assert_int_equal(r.blocks[0].year, 2024);
    assert_float_equal(r.blocks[0].lost, 150, 1e-9);
    assert_float_equal(r.sum[0].used, 1400, 1e-9);
    assert_float_equal(r.sum[0].replayed, 1250, 1e-9);
    assert_float_equal(r.sum[0].lost, 150, 1e-9);
    assert_int_equal(r.sum[0].first_blocked, T0 + 12 * 5 * DAY + 50 * H);
    /* Blocked from then to the last job's end (13 x 5 days + 100 h). */
    double end = (double)(13 * 5 * DAY + 100 * H);
    assert_float_equal(r.sum[0].days_blocked, (end - (12 * 5 * DAY + 50 * H)) / DAY, 1e-9);
    /* The day of the block: blocked at its end, 50 h lost that day. */
    size_t d = 60;
    assert_int_equal(r.blocked[d - 1], 0);
    assert_int_equal(r.blocked[d + 2], 1);
    assert_float_equal(r.lost_day[d], 50, 1e-9);
    assert_float_equal(r.replay_year[r.ndays - 1], 1250, 1e-9);
    fairshare_result_free(&r);

    /* policy.ceiling = 1: the 11th job (at 1000 h) is lost whole. */
    CpErr err;
    assert_int_equal(fairshare_param_set(&p, "policy.ceiling", 1.0, &err), 0);
    fairshare_replay(&p, 1, jobs, 14, al, 1, &r);
    assert_int_equal(r.blocks[0].at, T0 + 10 * 5 * DAY);
    assert_float_equal(r.sum[0].lost, 400, 1e-9);
    fairshare_result_free(&r);
    assert_int_equal(fairshare_param_set(&p, "policy.ceiling", 0.5, &err), -1);
    assert_int_equal(fairshare_param_set(&p, "policy.nope", 1, &err), -1);
    assert_int_equal(policy_param_set(NULL, "energy.shift_delay_h", 12, &err), 0);
    assert_int_equal(policy_param_set(NULL, "energy.shift_delay_h", -1, &err), -1);
}

/* 2 A100 (400 W) for 3 h at PUE 1.2: 2 x 3 x 400 x 1.2 / 1000 = 2.88 kWh
 * at TDP; measured at 50 % utilisation, half that. */
static void test_energy_formula(void **state)
{
    (void)state;
    assert_float_equal(energy_tdp_default("a100"), 400, 0);
    assert_float_equal(energy_kwh(2, 3, energy_tdp_default("a100"), -1, 1.2), 2.88, 1e-12);
    assert_float_equal(energy_kwh(2, 3, 400, NAN, 1.2), 2.88, 1e-12);
    assert_float_equal(energy_kwh(2, 3, 400, 50, 1.2), 1.44, 1e-12);
    assert_float_equal(energy_kwh(1, 10, 700, 100, 1.0), 7.0, 1e-12);
    assert_float_equal(energy_tdp_default("A100-PCIE-40GB"), 250, 0);
    assert_float_equal(energy_tdp_default("a100_pcie_80gb"), 300, 0);
    assert_float_equal(energy_tdp_default("a100_3g.20gb"), 400, 0);
    assert_float_equal(energy_tdp_default("H100"), 700, 0);
    assert_float_equal(energy_tdp_default("h100_pcie"), 350, 0);
    assert_float_equal(energy_tdp_default("v100"), 300, 0);
    assert_float_equal(energy_tdp_default("l40s"), 350, 0);
    assert_float_equal(energy_tdp_default("a40"), 300, 0);
    assert_float_equal(energy_tdp_default("Quadro RTX 8000"), 295, 0);
    assert_float_equal(energy_tdp_default("rtx6000"), 295, 0);
    assert_float_equal(energy_tdp_default("t4"), 70, 0);
    assert_true(isnan(energy_tdp_default("abacus")));
    /* Carbon at a constant 50 gCO2e/kWh: 2.88 x 50 / 1000 = 0.144 kg. */
    assert_float_equal(energy_carbon_kg(2.88, 50), 0.144, 1e-12);
}

/* Hours 00:00 at 100 and 01:00 at 200 g/kWh: a run from 00:30 to 01:30
 * sees 150 on average; 1 GPU at 300 W for 1 h, PUE 1: 0.3 kWh, 45 g. A
 * hole (hour 02:00 missing between 01:00 and 03:00) takes the mean of the
 * given hours; outside the series, the same. */
static void test_carbon_series(void **state)
{
    (void)state;
    int64_t h[] = {T0 + H, T0};
    double g[] = {200, 100};
    EnergySeries s;
    energy_series_build(&s, h, g, 2, 480);
    assert_float_equal(energy_series_mean(&s, T0 + H / 2, T0 + H + H / 2), 150, 1e-9);
    double kwh = energy_kwh(1, 1, 300, -1, 1.0);
    assert_float_equal(energy_carbon_kg(kwh, energy_series_mean(&s, T0 + H / 2, T0 + 3 * H / 2)),
                       0.045, 1e-12);
    assert_float_equal(energy_series_mean(&s, T0, T0 + 15 * 60), 100, 1e-9);
    assert_float_equal(energy_series_mean(&s, T0 - 2 * H, T0 - H), 150, 1e-9); /* fill */
    energy_series_free(&s);

    int64_t h2[] = {T0, T0 + 3 * H};
    double g2[] = {100, 300};
    energy_series_build(&s, h2, g2, 2, 480);
    assert_int_equal(s.n, 4);
    assert_int_equal(s.given, 2);
    assert_float_equal(energy_series_mean(&s, T0 + H, T0 + 3 * H), 200, 1e-9);
    assert_float_equal(energy_series_mean(&s, T0, T0 + 4 * H), (100 + 200 + 200 + 300) / 4.0,
                       1e-9);
    energy_series_free(&s);
    /* No series: the constant. */
    energy_series_build(&s, NULL, NULL, 0, 56);
    assert_float_equal(energy_series_mean(&s, T0, T0 + 7 * H), 56, 1e-9);
    energy_series_free(&s);
}

/* One cluster of 1 GPU; 30 hours at 500 g/kWh but hour 2 at 100 and hour
 * 3 at 300. A movable 1-GPU 1-hour run at hour 0 (1 kWh: 0.5 kg) moves to
 * hour 2 (0.1 kg): 0.4 kg saved. When a fixed run holds the GPU in hour 2,
 * it goes to hour 3 instead (0.3 kg): 0.2 kg saved. Not movable: stays. */
static void test_shift(void **state)
{
    (void)state;
    int64_t hours[30];
    double g[30];
    for (int i = 0; i < 30; i++) {
        hours[i] = T0 + (int64_t)i * H;
        g[i] = i == 2 ? 100 : i == 3 ? 300 : 500;
    }
    EnergySeries s;
    energy_series_build(&s, hours, g, 30, 480);
    const EnergySeries *series[] = {&s};
    double cap[40];
    for (int i = 0; i < 40; i++)
        cap[i] = 1;
    EnergyShiftGrid grid = {1, T0, 40, cap, series};
    EnergyShiftJob a = {0, T0, H, 1, 1.0, 1};
    EnergyShiftOut out[2];
    double saved = energy_shift(&grid, &a, 1, 24, out);
    assert_float_equal(saved, 0.4, 1e-9);
    assert_int_equal(out[0].new_start, T0 + 2 * H);
    assert_float_equal(out[0].kg_before, 0.5, 1e-9);
    assert_float_equal(out[0].kg_after, 0.1, 1e-9);

    EnergyShiftJob two[] = {{0, T0, H, 1, 1.0, 1}, {0, T0 + 2 * H, H, 1, 1.0, 0}};
    saved = energy_shift(&grid, two, 2, 24, out);
    assert_int_equal(out[0].new_start, T0 + 3 * H);
    assert_float_equal(saved, 0.2, 1e-9);
    assert_int_equal(out[1].new_start, T0 + 2 * H);

    /* A delay of 1 h: only hours 0 and 1, both 500: stays. */
    saved = energy_shift(&grid, &a, 1, 1, out);
    assert_float_equal(saved, 0, 1e-12);
    assert_int_equal(out[0].new_start, T0);
    energy_series_free(&s);
}

/* The same 30 hours. Hours 2 and 5 both at 100: a run at hour 0 takes
 * the earlier. A run at hour 28 (500, then 500 at 29) goes to hour 30, past
 * the series, at its fill: the mean of the 30 values, (28 x 500 + 100 +
 * 300) / 30 = 480, so 0.48 kg for 0.5. A run starting half past hour 1
 * spans half of 1 and half of 2 (300 g/kWh on average); one hour later,
 * half of 2 and half of 3 (200): it moves there, 0.1 kg saved. */
static void test_shift_order(void **state)
{
    (void)state;
    int64_t hours[30];
    double g[30];
    for (int i = 0; i < 30; i++) {
        hours[i] = T0 + (int64_t)i * H;
        g[i] = i == 2 || i == 5 ? 100 : 500;
    }
    EnergySeries s;
    energy_series_build(&s, hours, g, 30, 480);
    const EnergySeries *series[] = {&s};
    EnergyShiftGrid grid = {1, T0, 60, NULL, series};
    EnergyShiftJob a = {0, T0, H, 1, 1.0, 1};
    EnergyShiftOut out[1];
    energy_shift(&grid, &a, 1, 24, out);
    assert_int_equal(out[0].new_start, T0 + 2 * H);
    energy_series_free(&s);

    g[5] = 500;
    g[3] = 300;
    energy_series_build(&s, hours, g, 30, 480);
    assert_float_equal(s.fill, 480, 1e-9);
    EnergyShiftJob late = {0, T0 + 28 * H, H, 1, 1.0, 1};
    double saved = energy_shift(&grid, &late, 1, 24, out);
    assert_int_equal(out[0].new_start, T0 + 30 * H);
    assert_float_equal(out[0].kg_before, 0.5, 1e-9);
    assert_float_equal(out[0].kg_after, 0.48, 1e-9);
    assert_float_equal(saved, 0.02, 1e-9);

    EnergyShiftJob half = {0, T0 + 3 * H / 2, H, 1, 1.0, 1};
    saved = energy_shift(&grid, &half, 1, 24, out);
    assert_int_equal(out[0].new_start, T0 + 5 * H / 2);
    assert_float_equal(out[0].kg_before, 0.3, 1e-9);
    assert_float_equal(out[0].kg_after, 0.2, 1e-9);
    assert_float_equal(saved, 0.1, 1e-9);
    energy_series_free(&s);
}

/* Keys 5, -3, 5, 0, -3, 2^40, 5: -3 (1, 4), 0 (3), 5 (0, 2, 6), 2^40 (5). */
static void test_radix(void **state)
{
    (void)state;
    const int64_t key[] = {5, -3, 5, 0, -3, (int64_t)1 << 40, 5};
    const size_t want[] = {1, 4, 3, 0, 2, 6, 5};
    size_t *o = radix_order(key, 7);
    for (size_t i = 0; i < 7; i++)
        assert_int_equal(o[i], want[i]);
    free(o);
    const int64_t extremes[] = {INT64_MAX, INT64_MIN, 0};
    o = radix_order(extremes, 3);
    assert_int_equal(o[0], 1);
    assert_int_equal(o[1], 2);
    assert_int_equal(o[2], 0);
    free(o);
    o = radix_order(NULL, 0);
    assert_non_null(o);
    free(o);
}

static void test_calendar(void **state)
{
    (void)state;
    assert_int_equal(fairshare_year_of(T0), 2024);
    assert_int_equal(fairshare_year_start(2024), 1704067200);
    assert_int_equal(fairshare_year_of(1704067200 - 1), 2023);
    assert_int_equal(fairshare_year_of(1704067200), 2024);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decay),         cmocka_unit_test(test_factor_replay),
        cmocka_unit_test(test_block_125),     cmocka_unit_test(test_energy_formula),
        cmocka_unit_test(test_carbon_series), cmocka_unit_test(test_shift),
        cmocka_unit_test(test_calendar),
        cmocka_unit_test(test_shift_order),   cmocka_unit_test(test_radix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
