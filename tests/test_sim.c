/* core/sim and core/sim_stats on small fleets worked out by hand: EASY
 * backfill (a short job passes the blocked head, a long one does not, one
 * fits in the spare units), memory classes nest, runtime scales by speed,
 * pools entering and leaving service, the wait statistics (nearest rank),
 * the idle share of recorded waiting and the recorded peak, the fair-share
 * order (usage charged as jobs run, against shares), the placement on
 * the recorded GPU model (core/sim_place.h), partition tiers. The real logs
 * (KTH SP2, OSC-Clust, the demo) are in tests/e2e/simulate_replay.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/sim.h"
#include "core/sim_place.h"
#include "core/sim_resample.h"
#include "core/sim_stats.h"

static SimJob job(int64_t submit, int32_t units, int64_t run, int64_t limit, double mem)
{
    return (SimJob){.submit = submit, .runtime = run, .limit = limit, .rec_start = SIM_NEVER,
                    .ref_speed = 1.0, .mem_gib = mem, .units = units, .rec_pool = -1};
}

static SimPool pool(int32_t units, double mem, double speed, int64_t from, int64_t to)
{
    return (SimPool){.from = from, .to = to, .mem_gib = mem, .speed = speed, .units = units};
}

/* 4 units. A holds 3 until 100; B wants all 4: reservation at 100 with
 * none spare. C (1 unit, ends 52) backfills; D (1 unit, ends 203) would
 * delay B and waits for B's end at 110; E (1 unit) arrives at 120 after. */
static void test_easy(void **state)
{
    (void)state;
    SimJob j[] = {job(0, 3, 100, 100, 0), job(1, 4, 10, 10, 0), job(2, 1, 50, 50, 0),
                  job(3, 1, 200, 200, 0), job(120, 1, 5, 0, 0)};
    SimPool p[] = {pool(4, 1e9, 1, INT64_MIN, SIM_OPEN)};
    SimOut o;
    sim_run(j, 5, p, 1, &o);
    int64_t want[] = {0, 100, 2, 110, 120};
    for (int i = 0; i < 5; i++)
        assert_int_equal(o.start[i], want[i]);
    assert_int_equal(o.end[3], 310);
    assert_int_equal(o.unplaced, 0);
    sim_out_free(&o);
}

/* The spare units of the reservation: 6 units, A holds 4 until 100, B
 * wants 4 (reservation at 100 with 2 spare then; 2 free now). C (2 units,
 * runs 500) fits in the spare and starts; D (1 unit) would take what B
 * needs and waits until B ends. */
static void test_easy_spare(void **state)
{
    (void)state;
    SimJob j[] = {job(0, 4, 100, 100, 0), job(1, 4, 10, 10, 0), job(2, 2, 500, 500, 0),
                  job(3, 1, 500, 500, 0)};
    SimPool p[] = {pool(6, 1e9, 1, INT64_MIN, SIM_OPEN)};
    SimOut o;
    sim_run(j, 4, p, 1, &o);
    assert_int_equal(o.start[1], 100);
    assert_int_equal(o.start[2], 2);
    assert_int_equal(o.start[3], 110); /* after B: 6 - 2 (C) = 4 busy with B until 110 */
    sim_out_free(&o);
}

/* Memory classes nest; the smallest memory that fits first; runtime by speed. */
static void test_memory_speed(void **state)
{
    (void)state;
    SimJob j[] = {job(0, 1, 100, 0, 20), job(0, 1, 100, 0, 20), job(0, 1, 100, 0, 40),
                  job(0, 1, 100, 0, 90)};
    j[1].ref_speed = 2.0; /* recorded on a GPU twice as fast: 200 s on speed 1 */
    SimPool p[] = {pool(1, 80, 2.5, INT64_MIN, SIM_OPEN), pool(1, 24, 1, INT64_MIN, SIM_OPEN)};
    SimOut o;
    sim_run(j, 4, p, 2, &o);
    assert_int_equal(o.pool[0], 1); /* 20 GiB on the 24 GiB GPU */
    assert_int_equal(o.end[0], 100);
    assert_int_equal(o.pool[1], 0); /* the 24 GiB GPU busy: on the 80 GiB one */
    assert_int_equal(o.end[1], 80); /* 100 * 2 / 2.5 */
    assert_int_equal(o.start[2], 80); /* 40 GiB: only the 80 GiB GPU, after job 1 */
    assert_int_equal(o.pool[2], 0);
    assert_int_equal(o.end[2], 120);
    assert_int_equal(o.start[3], SIM_NEVER); /* 90 GiB: no GPU ever holds it */
    assert_int_equal(o.unplaced, 1);
    sim_out_free(&o);
}

/* A pool entering service at 1000 starts the job waiting for it; one that
 * left service takes nothing; clusters queue apart. */
static void test_dates_clusters(void **state)
{
    (void)state;
    SimJob j[] = {job(0, 2, 10, 0, 0), job(5, 1, 10, 0, 0), job(0, 1, 10, 0, 0)};
    j[2].cluster = 1;
    SimPool p[] = {pool(1, 1e9, 1, INT64_MIN, 500), pool(2, 1e9, 1, 1000, SIM_OPEN),
                   pool(1, 1e9, 1, INT64_MIN, SIM_OPEN)};
    p[2].cluster = 1;
    SimOut o;
    sim_run(j, 3, p, 3, &o);
    assert_int_equal(o.start[0], 1000); /* 2 units: only the new pool */
    assert_int_equal(o.start[1], 5);    /* 1 unit: the old pool, still in service */
    assert_int_equal(o.pool[1], 0);
    assert_int_equal(o.start[2], 0);
    assert_int_equal(o.pool[2], 2);
    sim_out_free(&o);
}

static void test_waits(void **state)
{
    (void)state;
    int64_t w[10];
    for (int i = 0; i < 10; i++)
        w[i] = (int64_t)(9 - i) * 3600;
    w[0] = 100 * 3600; /* 100 h, capped at 48 h in the capped mean */
    SimWaits s;
    sim_waits(w, 10, &s);
    assert_int_equal(s.n, 10);
    assert_true(s.p50_h == 4.0); /* nearest rank: the 5th of 0..8, 100 */
    assert_true(s.p90_h == 8.0);
    assert_true(s.mean_h == (36.0 + 100.0) / 10);
    assert_true(s.mean_cap_h == (36.0 + 48.0) / 10);
    assert_int_equal(sim_mem_class(24), 0);
    assert_int_equal(sim_mem_class(24.5), 1);
    assert_int_equal(sim_mem_class(80), 2);
    assert_int_equal(sim_mem_class(141), 3);
    assert_int_equal(sim_month(0), 0);
    assert_int_equal(sim_month(1764547200), (2025 - 1970) * 12 + 11); /* 2025-12-01 */
}

/* The backfill depth (Slurm's bf_max_job_test): 4 units, A holds 3 until
 * 100, B wants 4 (reservation at 100, nothing spare); C1..C3 want 2 each
 * (1 free: none fits); D (1 unit, ends at 15, before the reservation)
 * backfills at 5 when 4 jobs behind the head are tried (or the whole
 * queue), and waits when only 3 are: B runs 100-110, C1 and C2 110-160,
 * then C3 and D at 160. */
static void test_depth(void **state)
{
    (void)state;
    SimJob j[] = {job(0, 3, 100, 100, 0), job(1, 4, 10, 10, 0), job(2, 2, 50, 50, 0),
                  job(3, 2, 50, 50, 0),   job(4, 2, 50, 50, 0), job(5, 1, 10, 10, 0)};
    SimPool p[] = {pool(4, 1e9, 1, INT64_MIN, SIM_OPEN)};
    int64_t deep[] = {0, 100, 110, 110, 160, 5}, shallow[] = {0, 100, 110, 110, 160, 160};
    size_t depths[] = {0, 4, 3, SIM_BF_DEPTH};
    for (int d = 0; d < 4; d++) {
        SimOut o;
        sim_run_depth(j, 6, p, 1, depths[d], &o);
        for (int i = 0; i < 6; i++)
            assert_int_equal(o.start[i], depths[d] == 3 ? shallow[i] : deep[i]);
        sim_out_free(&o);
    }
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Zeros (most waits) and negatives keep the sorted order sim_waits leaves. */
static void test_waits_zeros(void **state)
{
    (void)state;
    int64_t w[] = {5, 0, -3, 0, 2, 0};
    SimWaits s;
    sim_waits(w, 6, &s);
    int64_t want[] = {-3, 0, 0, 0, 2, 5};
    for (int i = 0; i < 6; i++)
        assert_int_equal(w[i], want[i]);
    assert_true(s.p50_h == 0);            /* rank 3 */
    assert_true(s.p90_h == 5.0 / 3600);   /* rank 6 */
    /* past 64 positive values a radix sort: the order qsort gives, up to 2^40 s */
    enum { N = 5000 };
    int64_t *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    uint64_t x = 88172645463325252u;
    for (int i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
        a[i] = i % 7 == 0 ? 0 : i % 97 == 0 ? -(int64_t)(x % 1000) : (int64_t)(x >> (24 + i % 20));
        b[i] = a[i];
    }
    qsort(b, N, sizeof *b, cmp_i64);
    sim_waits(a, N, &s);
    for (int i = 0; i < N; i++)
        assert_true(a[i] == b[i]);
    free(a);
    free(b);
}

/* sim_resample's queue order (the radix sort): cluster, submit, then group,
 * units, runtime, limit, memory, whatever order the jobs come in; the same
 * seed draws the same jobs. 3000 jobs on 3 clusters in 400 distinct
 * seconds (many ties), factors 0.5, 1 and 2.3. */
static void test_resample_order(void **state)
{
    (void)state;
    enum { N = 3000 };
    SimJob *j = malloc(N * sizeof *j);
    uint64_t x = 2463534242u;
    for (int i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        j[i] = job(1000 + (int64_t)(x % 400) * 3600, 1 + (int32_t)(x >> 20) % 3, (int64_t)(x >> 30) % 5,
                   0, (double)((x >> 40) % 2) * 40);
        j[i].cluster = (int32_t)((x >> 50) % 3);
        j[i].group = (int32_t)((x >> 55) % 3);
    }
    double f[] = {0.5, 1.0, 2.3};
    size_t n1, n2;
    int64_t from = 1000, to = 1000 + 400 * 3600;
    SimJob *a = sim_resample(j, N, f, 3, from, to, to - 100 * 3600, 33, &n1);
    SimJob *b = sim_resample(j, N, f, 3, from, to, to - 100 * 3600, 33, &n2);
    assert_true(n1 == n2 && n1 > N);
    assert_memory_equal(a, b, n1 * sizeof *a);
    for (size_t i = 1; i < n1; i++) {
        const SimJob *p = &a[i - 1], *q = &a[i];
        int64_t kp[] = {p->cluster, p->submit, p->group, p->units, p->runtime, p->limit};
        int64_t kq[] = {q->cluster, q->submit, q->group, q->units, q->runtime, q->limit};
        int c = 0;
        for (int k = 0; k < 6 && c == 0; k++)
            c = (kp[k] > kq[k]) - (kp[k] < kq[k]);
        if (c == 0)
            c = (p->mem_gib > q->mem_gib) - (p->mem_gib < q->mem_gib);
        assert_true(c <= 0);
    }
    free(a);
    free(b);
    free(j);
}

/* sim_resample with nothing in its window draws nothing (the queue order
 * of no jobs took its submission span as INT64_MIN - INT64_MAX, a signed
 * overflow the fuzzer found); and submissions spanning 2^63 seconds, more
 * than an int64_t holds (jobs kept at -2^62 for the warm-up and drawn again
 * 2^63 - 1 later), still come out in (cluster, submit) order, on one
 * cluster (64 key bits) and on two (65: the qsort fallback). */
static void test_resample_extremes(void **state)
{
    (void)state;
    SimJob one = job(5000, 1, 10, 0, 0);
    double f[] = {1.0};
    size_t n = 99;
    SimJob *none = sim_resample(&one, 1, f, 1, 0, 1000, 1000, 7, &n);
    assert_true(n == 0);
    free(none);
    const int64_t from = -((int64_t)1 << 62), to = ((int64_t)1 << 62) - 1;
    SimJob two[] = {job(from, 1, 10, 0, 0), job(from + 1, 1, 10, 0, 0)};
    for (int c = 0; c < 2; c++) {
        two[0].cluster = c; /* 1: job 0 on cluster 1, job 1 on cluster 0 */
        SimJob *v = sim_resample(two, 2, f, 1, from, to, from, 7, &n);
        assert_true(n == 4);
        for (size_t i = 1; i < n; i++)
            assert_true(v[i - 1].cluster < v[i].cluster ||
                        (v[i - 1].cluster == v[i].cluster && v[i - 1].submit < v[i].submit));
        assert_true(v[0].submit == (c ? from + 1 : from));
        assert_true(v[n - 1].submit == (c ? from + (to - from) : from + 1 + (to - from)));
        free(v);
    }
}

/* Recorded on 2 units: A runs 0-100; B, submitted at 0, starts at 50:
 * 1 unit idle throughout, but from 10 C waits too (3 units waiting, 1
 * idle: not enough to start every waiting job), so B's idle wait is 0-10;
 * C (2 units) never saw 2 idle before its start at 150: 0 s. */
static void test_idle_peak(void **state)
{
    (void)state;
    SimJob j[] = {job(0, 1, 100, 0, 0), job(0, 1, 100, 0, 0), job(10, 2, 10, 0, 0)};
    j[0].rec_start = 0;
    j[1].rec_start = 50;
    j[2].rec_start = 150;
    SimPool p[] = {pool(2, 1e9, 1, INT64_MIN, SIM_OPEN)};
    double *idle = sim_idle(j, 3, p, 1, NULL);
    assert_true(idle[0] == 0);
    assert_true(idle[1] == 10);
    assert_true(idle[2] == 0);
    free(idle);
    assert_int_equal(sim_peak_units(j, 3, 0), 2);
}

/* Two 1-unit pools of models 1 and 2. A runs on model 1 0-100; B,
 * submitted at 0 and recorded on model 1 too, starts at 100. Unpinned, B
 * could have used the idle model-2 GPU all along: 100 s of its wait were
 * policy. Pinned to model 1 (placement recorded), nothing it may use stood
 * idle: 0 s, the wait was capacity. */
static void test_idle_pinned(void **state)
{
    (void)state;
    SimJob j[] = {job(0, 1, 100, 0, 0), job(0, 1, 50, 0, 0)};
    j[0].rec_start = 0, j[1].rec_start = 100;
    j[0].rec_pool = j[1].rec_pool = 0;
    SimPool p[] = {pool(1, 80, 1, INT64_MIN, SIM_OPEN), pool(1, 80, 1, INT64_MIN, SIM_OPEN)};
    p[0].model = 1, p[1].model = 2;
    double *any = sim_idle(j, 2, p, 2, NULL);
    assert_true(any[1] == 100);
    free(any);
    const int32_t pin[] = {1, 1};
    double *pinned = sim_idle(j, 2, p, 2, pin);
    assert_true(pinned[0] == 0 && pinned[1] == 0);
    free(pinned);
}

/* Fair share on 2 units. A (group 0) runs 0..1000 from t 0, X (group 1)
 * 50..150; B (group 0, submitted 60) and C (group 1, 70) wait, 10 s each.
 * At 150 one unit frees: group 0 has used 150 unit-seconds so far (A still
 * runs: charged as it runs), group 1 100. Equal shares: C first (B at 160);
 * FCFS, or shares 0.8/0.2 (150/0.8 < 100/0.2): B first. fair NULL is FCFS. */
static void fair_case(const double *share, int64_t b_start, int64_t c_start)
{
    SimJob j[] = {job(0, 1, 1000, 0, 0), job(50, 1, 100, 0, 0), job(60, 1, 10, 0, 0),
                  job(70, 1, 10, 0, 0)};
    j[1].group = j[3].group = 1;
    SimPool p[] = {pool(2, 1e9, 1, INT64_MIN, SIM_OPEN)};
    SimFair f = {.ngroups = 2, .y0 = 1970, .nyears = 1, .share = share, .half_life_s = 1e6};
    SimOut o;
    sim_run_fair(j, 4, p, 1, SIM_BF_DEPTH, share ? &f : NULL, &o);
    assert_int_equal(o.start[1], 50);
    assert_int_equal(o.start[2], b_start);
    assert_int_equal(o.start[3], c_start);
    sim_out_free(&o);
}

static void test_fairshare(void **state)
{
    (void)state;
    const double even[] = {0.5, 0.5}, tilted[] = {0.8, 0.2};
    fair_case(even, 160, 150);
    fair_case(tilted, 150, 160);
    fair_case(NULL, 150, 160);
}

/* Placement "recorded": two pools of 2 GPUs, model 1 (80 GiB) and model 2
 * (32 GiB). A (model 1, 2 GPUs, 100 s) fills model 1 at 0; B (model 1,
 * 1 GPU) waits for A's end at 100 although model 2 has room; C (no model)
 * takes model 2 at 2; D (model 3, which no pool has) is never placed.
 * Unpinned, A takes the smaller memory (model 2), B starts at 1 and D
 * at C's end (12). */
static void test_placement(void **state)
{
    (void)state;
    SimJob j[] = {job(0, 2, 100, 100, 10), job(1, 1, 50, 50, 10), job(2, 1, 10, 10, 10),
                  job(3, 1, 10, 10, 10)};
    int32_t pin[] = {1, 1, 0, 3};
    SimPool p[] = {pool(2, 80, 1, INT64_MIN, SIM_OPEN), pool(2, 32, 1, INT64_MIN, SIM_OPEN)};
    p[0].model = 1;
    p[1].model = 2;
    assert_true(sim_may_use(&j[0], pin[0], &p[0]));
    assert_false(sim_may_use(&j[0], pin[0], &p[1]));
    assert_true(sim_may_use(&j[2], pin[2], &p[1]));
    SimOut o;
    SimHow how = {.depth = SIM_BF_DEPTH, .pin = pin};
    sim_run_how(j, 4, p, 2, &how, &o);
    int64_t pinned[] = {0, 100, 2, SIM_NEVER};
    int32_t ppool[] = {0, 0, 1, -1};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(o.start[i], pinned[i]);
        assert_int_equal(o.pool[i], ppool[i]);
    }
    assert_int_equal(o.unplaced, 1);
    sim_out_free(&o);
    sim_run(j, 4, p, 2, &o); /* no pins: sim_run_how with pin NULL */
    int64_t any[] = {0, 1, 2, 12};
    int32_t apool[] = {1, 0, 0, 0};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(o.start[i], any[i]);
        assert_int_equal(o.pool[i], apool[i]);
    }
    assert_int_equal(o.unplaced, 0);
    sim_out_free(&o);
}

/* Tiers: one GPU. A (tier 1) runs 0..100; B (tier 1, submitted at 1) and
 * C (tier 0, at 2) wait. By submit time B starts at 100 and C at 150; with
 * tiers C goes first at 100 and B at 110. */
static void test_tiers(void **state)
{
    (void)state;
    SimJob j[] = {job(0, 1, 100, 100, 0), job(1, 1, 50, 50, 0), job(2, 1, 10, 10, 0)};
    SimPool p[] = {pool(1, 1e9, 1, INT64_MIN, SIM_OPEN)};
    int32_t tier[] = {1, 1, 0};
    SimOut o;
    sim_run(j, 3, p, 1, &o);
    assert_int_equal(o.start[1], 100);
    assert_int_equal(o.start[2], 150);
    sim_out_free(&o);
    SimHow how = {.depth = SIM_BF_DEPTH, .tier = tier, .ntiers = 2};
    sim_run_how(j, 3, p, 1, &how, &o);
    int64_t want[] = {0, 110, 100};
    for (int i = 0; i < 3; i++)
        assert_int_equal(o.start[i], want[i]);
    sim_out_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_easy),         cmocka_unit_test(test_easy_spare),
        cmocka_unit_test(test_memory_speed), cmocka_unit_test(test_dates_clusters),
        cmocka_unit_test(test_waits),        cmocka_unit_test(test_idle_peak),
        cmocka_unit_test(test_idle_pinned),
        cmocka_unit_test(test_depth),        cmocka_unit_test(test_waits_zeros),
        cmocka_unit_test(test_resample_order),
        cmocka_unit_test(test_resample_extremes), cmocka_unit_test(test_fairshare),
        cmocka_unit_test(test_placement),    cmocka_unit_test(test_tiers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
