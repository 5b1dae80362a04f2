/* k-means, silhouette, features and profile naming on small cases worked
 * by hand (the figures in the comments). The comparison with scikit-learn
 * on real data is in tests/e2e/plan_cli.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/features.h"
#include "core/kmeans.h"
#include "core/profiles.h"

/* xoshiro256** seeded by splitmix64(42): the first draws, as an
 * independent python3 implementation of both gives them. */
static void test_rng_reference(void **state)
{
    (void)state;
    KmRng r;
    kmeans_rng_seed(&r, 42);
    assert_true(kmeans_rng_next(&r) == 0x15780b2e0c2ec716ULL);
    assert_true(kmeans_rng_next(&r) == 0x6104d9866d113a7eULL);
    assert_true(kmeans_rng_next(&r) == 0xae17533239e499a1ULL);
    for (int i = 0; i < 1000; i++) {
        double u = kmeans_rng_double(&r);
        assert_true(u >= 0 && u < 1);
    }
}

/* Two blobs of three points: centroids (1/3, 1/3) and (31/3, 31/3); each
 * cluster's squared distances 2/9 + 5/9 + 5/9 = 4/3, inertia 8/3. */
static void test_two_blobs(void **state)
{
    (void)state;
    const double x[] = {0, 0, 0, 1, 1, 0, 10, 10, 10, 11, 11, 10};
    KmOpts o = {2, 10, 0, 7};
    KmResult r;
    assert_int_equal(kmeans_fit(x, 6, 2, &o, &r), 0);
    assert_int_equal(r.k, 2);
    assert_int_equal(r.sizes[0], 3);
    assert_int_equal(r.sizes[1], 3);
    assert_float_equal(r.inertia, 8.0 / 3, 1e-12);
    assert_int_equal(r.labels[0], r.labels[1]);
    assert_int_equal(r.labels[1], r.labels[2]);
    assert_int_not_equal(r.labels[0], r.labels[3]);
    assert_int_equal(r.labels[0], 0); /* ties in size: the cluster of row 0 first */
    assert_float_equal(r.centroids[0], 1.0 / 3, 1e-12);
    assert_float_equal(r.centroids[3], 31.0 / 3, 1e-12);
    assert_float_equal(kmeans_inertia(x, 6, 2, r.centroids, 2), 8.0 / 3, 1e-12);
    kmeans_result_done(&r);
}

static void test_bad_k(void **state)
{
    (void)state;
    const double x[] = {1, 2, 3};
    KmOpts o = {4, 10, 0, 1};
    KmResult r;
    assert_int_equal(kmeans_fit(x, 3, 1, &o, &r), -1);
    kmeans_result_done(&r);
    o.k = 0;
    assert_int_equal(kmeans_fit(x, 3, 1, &o, &r), -1);
    kmeans_result_done(&r);
}

/* Duplicated points, more clusters than distinct values: no cluster is
 * left empty, inertia 0. */
static void test_no_empty_cluster(void **state)
{
    (void)state;
    const double x[] = {0, 0, 0, 5};
    KmOpts o = {3, 10, 0, 3};
    KmResult r;
    assert_int_equal(kmeans_fit(x, 4, 1, &o, &r), 0);
    for (int c = 0; c < 3; c++)
        assert_true(r.sizes[c] >= 1);
    assert_float_equal(r.inertia, 0, 1e-12);
    kmeans_result_done(&r);
}

/* Same input, same seed: same labels and centroids, bit for bit. */
static void test_deterministic(void **state)
{
    (void)state;
    enum { N = 300, D = 3 };
    double *x = malloc(N * D * sizeof *x);
    KmRng g;
    kmeans_rng_seed(&g, 5);
    for (int i = 0; i < N * D; i++)
        x[i] = kmeans_rng_double(&g) * ((i / D) % 3 + 1);
    KmOpts o = {5, 10, 0, 99};
    KmResult a, b;
    kmeans_fit(x, N, D, &o, &a);
    kmeans_fit(x, N, D, &o, &b);
    assert_memory_equal(a.labels, b.labels, N * sizeof(int));
    assert_memory_equal(a.centroids, b.centroids, 5 * D * sizeof(double));
    assert_true(a.inertia == b.inertia);
    /* more restarts never do worse */
    KmOpts o1 = {5, 1, 0, 99};
    KmResult c;
    kmeans_fit(x, N, D, &o1, &c);
    assert_true(a.inertia <= c.inertia);
    kmeans_result_done(&a);
    kmeans_result_done(&b);
    kmeans_result_done(&c);
    free(x);
}

/* 0, 1 | 10, 11: s = (10.5 - 1) / 10.5 for the outer points and
 * (9.5 - 1) / 9.5 for the inner ones; mean 0.899749373... */
static void test_silhouette(void **state)
{
    (void)state;
    const double x[] = {0, 1, 10, 11};
    const int lab[] = {0, 0, 1, 1};
    double want = (9.5 / 10.5 + 8.5 / 9.5) / 2;
    assert_float_equal(kmeans_silhouette(x, 4, 1, lab, 2), want, 1e-12);
    /* a point alone in its cluster scores 0: (0.9 + 8/9 + 0) / 3 */
    const int lab3[] = {0, 0, 1};
    assert_float_equal(kmeans_silhouette(x, 3, 1, lab3, 2), (0.9 + 8.0 / 9) / 3, 1e-12);
    /* several labelings at once agree with one at a time */
    const int *ls[] = {lab, lab};
    const int ks[] = {2, 2};
    double sc[2];
    kmeans_silhouette_many(x, 4, 1, ls, ks, 2, 0, 0, sc);
    assert_float_equal(sc[0], want, 1e-12);
    assert_float_equal(sc[1], want, 1e-12);
}

/* ---- features ---- */

static void test_quantiles(void **state)
{
    (void)state;
    double v[] = {8, 1, 2}, w[] = {80, 10, 10};
    assert_float_equal(features_weighted_quantile(v, w, 3, 0.9), 8, 0); /* cum 10, 20, 100 */
    double v2[] = {4, 1}, w2[] = {5, 95};
    assert_float_equal(features_weighted_quantile(v2, w2, 2, 0.9), 1, 0); /* 95 >= 90 */
    double v3[] = {1, 2}, w3[] = {90, 10};
    assert_float_equal(features_weighted_quantile(v3, w3, 2, 0.9), 1, 0); /* exactly 90 */
    double p[] = {4, 1, 3, 2};
    assert_float_equal(features_percentile(p, 4, 75), 3.25, 1e-12); /* numpy: 3.25 */
    double p1[] = {7};
    assert_float_equal(features_percentile(p1, 1, 75), 7, 0);
    assert_float_equal(features_percentile(p1, 0, 75), 0, 0);
}

/* User 0: J1 [0, 3600) 1 GPU measured 10 GiB; J2 [1800, 9000) 2 GPUs,
 * requested model 40 GiB; J3 [9000, 12600) 4 GPUs, unknown; J4 100 s (left
 * out). GPU-hours 1 + 4 + 4 = 9; p90 of widths weighted 1, 4, 4 (of 9):
 * 8.1 is reached at width 4; mean duration 4/3 h, max 2 h; window 30 days
 * from the first job: 9 / (2592000 / 2629746) GPU-hours a month, mean
 * concurrent 9 / 720; the sweep: 1, 3, 2, then J2 ends as J3 starts: 4,
 * peak 4; burst level 0.0125 + (4 - 0.0125) / 2 = 2.00625: above it 1800 s
 * (3 GPUs) + 3600 s (4 GPUs) of the 2592000 s span. */
static void test_features_by_hand(void **state)
{
    (void)state;
    const FeatJob j[] = {
        {.user = 0, .start = 0, .end = 3600, .gpus = 1,
         .mem_gib = 10, .mem_src = FEAT_MEM_MEASURED},
        {.user = 0, .start = 1800, .end = 9000, .gpus = 2,
         .mem_gib = 40, .mem_src = FEAT_MEM_REQUESTED},
        {.user = 0, .start = 9000, .end = 12600, .gpus = 4,
         .mem_gib = -1, .mem_src = FEAT_MEM_UNKNOWN},
        {.user = 0, .start = 20000, .end = 20100, .gpus = 8,
         .mem_gib = 80, .mem_src = FEAT_MEM_MEASURED},
        {.user = 1, .start = 50 * 86400, .end = 50 * 86400 + 3600, .gpus = 1,
         .mem_gib = -1, .mem_src = 0}, /* outside the window */
    };
    FeatOpts o = {0, 30 * 86400, 300};
    FeatUser u[2];
    FeatSummary s;
    features_compute(j, 5, 2, &o, u, &s);
    assert_int_equal(u[0].njobs, 3);
    assert_int_equal(u[1].njobs, 0);
    assert_int_equal(s.jobs_used, 3);
    assert_int_equal(s.eff_start, 0);
    assert_float_equal(u[0].gpu_hours, 9, 1e-12);
    assert_float_equal(u[0].raw[FEAT_GPUS_P90], 4, 0);
    assert_float_equal(u[0].raw[FEAT_MEM_GIB], 40, 0);
    assert_int_equal(u[0].mem_src, FEAT_MEM_REQUESTED);
    assert_float_equal(u[0].raw[FEAT_DUR_MEAN_H], 4.0 / 3, 1e-12);
    assert_float_equal(u[0].raw[FEAT_DUR_MAX_H], 2, 1e-12);
    assert_float_equal(u[0].raw[FEAT_GPUH_MONTH], 9 / (2592000.0 / 2629746.0), 1e-9);
    assert_float_equal(u[0].raw[FEAT_CONC_MEAN], 9.0 / 720, 1e-12);
    assert_float_equal(u[0].raw[FEAT_CONC_PEAK], 4, 0);
    assert_float_equal(u[0].burst_frac, 5400.0 / 2592000, 1e-12);
    assert_float_equal(u[1].raw[FEAT_MEM_GIB], -1, 0);
}

/* A user who started late is averaged over their own span (at least 30
 * days): 10 GPU-hours from day 50 of a 100-day window: 50 days span. */
static void test_features_span(void **state)
{
    (void)state;
    const FeatJob j[] = {
        {.user = 0, .start = 0, .end = 3600, .gpus = 1, .mem_gib = -1, .mem_src = 0},
        {.user = 1, .start = 50 * 86400, .end = 50 * 86400 + 36000, .gpus = 1,
         .mem_gib = -1, .mem_src = 0},
        {.user = 2, .start = 95 * 86400, .end = 95 * 86400 + 3600, .gpus = 1,
         .mem_gib = -1, .mem_src = 0},
    };
    FeatOpts o = {0, 100 * 86400, 300};
    FeatUser u[3];
    features_compute(j, 3, 3, &o, u, NULL);
    assert_float_equal(u[0].raw[FEAT_CONC_MEAN], 1.0 / 2400, 1e-12);
    assert_float_equal(u[1].raw[FEAT_CONC_MEAN], 10.0 / 1200, 1e-12);
    assert_float_equal(u[2].raw[FEAT_CONC_MEAN], 1.0 / 720, 1e-12); /* 30-day floor */
}

/* log1p then standardise: widths 1, 3, 7 -> ln 2, ln 4, ln 8 -> z =
 * -sqrt(3/2), 0, sqrt(3/2). Memory unknown for user 0 takes the median of
 * log1p(10), log1p(20). */
static void test_standardize(void **state)
{
    (void)state;
    FeatUser u[3];
    memset(u, 0, sizeof u);
    const double widths[] = {1, 3, 7}, mem[] = {-1, 10, 20};
    for (int i = 0; i < 3; i++) {
        for (int f = 0; f < FEAT_COUNT; f++)
            u[i].raw[f] = 1;
        u[i].raw[FEAT_GPUS_P90] = widths[i];
        u[i].raw[FEAT_MEM_GIB] = mem[i];
    }
    int rows[] = {0, 1, 2};
    double z[3 * FEAT_COUNT];
    FeatScale sc;
    features_standardize(u, rows, 3, z, &sc);
    assert_float_equal(z[0 * FEAT_COUNT + FEAT_GPUS_P90], -sqrt(1.5), 1e-12);
    assert_float_equal(z[1 * FEAT_COUNT + FEAT_GPUS_P90], 0, 1e-12);
    assert_float_equal(z[2 * FEAT_COUNT + FEAT_GPUS_P90], sqrt(1.5), 1e-12);
    assert_float_equal(sc.mem_impute, (log(11) + log(21)) / 2, 1e-12);
    assert_int_equal(sc.mem_known, 2);
    assert_float_equal(z[FEAT_DUR_MEAN_H], 0, 0); /* constant feature: 0 */
    double raw[FEAT_COUNT];
    features_unscale(&sc, &z[2 * FEAT_COUNT], raw);
    assert_float_equal(raw[FEAT_GPUS_P90], 7, 1e-9);
    /* memory unknown for everyone: no weight, unknown centroid */
    for (int i = 0; i < 3; i++)
        u[i].raw[FEAT_MEM_GIB] = -1;
    features_standardize(u, rows, 3, z, &sc);
    assert_float_equal(z[FEAT_MEM_GIB], 0, 0);
    features_unscale(&sc, z, raw);
    assert_float_equal(raw[FEAT_MEM_GIB], -1, 0);
}

/* ---- profiles ---- */

static void test_names(void **state)
{
    (void)state;
    char n[PROFILES_NAME_MAX];
    double r[FEAT_COUNT] = {0};
    r[FEAT_GPUS_P90] = 4;
    r[FEAT_MEM_GIB] = 80;
    r[FEAT_DUR_MEAN_H] = 10;
    profiles_name(r, 0, n, sizeof n);
    assert_string_equal(n, "multi-GPU long training, 80 GB class");
    r[FEAT_GPUS_P90] = 1;
    r[FEAT_MEM_GIB] = 20;
    r[FEAT_DUR_MEAN_H] = 0.5;
    profiles_name(r, 0, n, sizeof n);
    assert_string_equal(n, "single-GPU short jobs, 24 GB class");
    r[FEAT_GPUS_P90] = 16;
    r[FEAT_MEM_GIB] = -1;
    r[FEAT_DUR_MEAN_H] = 3;
    profiles_name(r, 0, n, sizeof n);
    assert_string_equal(n, "multi-node medium jobs, memory unknown");
    r[FEAT_GPUS_P90] = 0.43;
    r[FEAT_MEM_GIB] = 81;
    profiles_name(r, 0, n, sizeof n);
    assert_string_equal(n, "fractional-GPU medium jobs, >80 GB class");
    r[FEAT_GPUS_P90] = 1;
    profiles_name(r, 1, n, sizeof n);
    assert_string_equal(n, "serial medium jobs, >80 GB class");
}

static void test_mem_classes(void **state)
{
    (void)state;
    assert_int_equal(profiles_mem_class(24), MEMCLASS_24);
    assert_int_equal(profiles_mem_class(24.01), MEMCLASS_48);
    assert_int_equal(profiles_mem_class(48), MEMCLASS_48);
    assert_int_equal(profiles_mem_class(80), MEMCLASS_80);
    assert_int_equal(profiles_mem_class(80.5), MEMCLASS_GT80);
    assert_int_equal(profiles_mem_class(-1), MEMCLASS_UNKNOWN);
    assert_string_equal(profiles_mem_class_name(MEMCLASS_GT80), "80+");
}

/* Group 0: labelled 0, 0, 1 (and one unlabelled) -> 2/3, 1/3; group 1: 1 ->
 * 0, 1; group 2 has nobody labelled: its domain 0 (groups 0-2: 0, 0, 1, 1)
 * -> 1/2, 1/2; group 4 in no domain, nobody: everyone's 0, 0, 1, 1, 0 ->
 * 3/5, 2/5. */
/* Needs: profile 0 {10, 20} -> 17.5; profile 1 {30, 40, unknown} -> 37.5;
 * profile 2 nobody known -> -1. */
static void test_mem_need(void **state)
{
    (void)state;
    const double mem[] = {10, 20, -1, 30, 40, -1};
    const int labels[] = {0, 0, 1, 1, 1, 2};
    double need[3];
    profiles_mem_need(mem, labels, 6, 3, need);
    assert_float_equal(need[0], 17.5, 1e-12);
    assert_float_equal(need[1], 37.5, 1e-12);
    assert_float_equal(need[2], -1, 0);
}

static void test_mix(void **state)
{
    (void)state;
    const int labels[] = {0, 0, 1, -1, 1, 0};
    const int group[] = {0, 0, 0, 0, 1, 3};
    const int domain[] = {0, 0, 0, 1, -1};
    double mix[5 * 2];
    profiles_mix(labels, group, 6, 5, domain, 2, mix);
    assert_float_equal(mix[0], 2.0 / 3, 1e-12);
    assert_float_equal(mix[1], 1.0 / 3, 1e-12);
    assert_float_equal(mix[2], 0, 0);
    assert_float_equal(mix[3], 1, 0);
    assert_float_equal(mix[4], 0.5, 1e-12);
    assert_float_equal(mix[5], 0.5, 1e-12);
    assert_float_equal(mix[6], 1, 0); /* group 3: its own user */
    assert_float_equal(mix[8], 0.6, 1e-12);
    assert_float_equal(mix[9], 0.4, 1e-12);
}

/* Three tight, distant blobs: the silhouette picks k = 3; names follow
 * the centroids; same input, same fit. */
static void test_fit_auto(void **state)
{
    (void)state;
    enum { N = 15 };
    double z[N * FEAT_COUNT];
    for (int i = 0; i < N; i++)
        for (int f = 0; f < FEAT_COUNT; f++)
            z[i * FEAT_COUNT + f] = (i / 5) * 4.0 + (f == 0 ? 0.01 * (i % 5) : 0) - 4;
    FeatScale sc;
    memset(&sc, 0, sizeof sc);
    for (int f = 0; f < FEAT_COUNT; f++)
        sc.sd[f] = 1;
    sc.mem_known = 1;
    ProfOpts o = {0, 0, 0, 0, 0, 0};
    ProfFit a, b;
    profiles_fit(z, N, NULL, NULL, &sc, &o, &a);
    profiles_fit(z, N, NULL, NULL, &sc, &o, &b);
    assert_int_equal(a.k, 3);
    assert_true(a.k_auto);
    assert_true(a.silhouette > 0.9);
    assert_memory_equal(a.labels, b.labels, N * sizeof(int));
    for (int c = 0; c < 3; c++)
        assert_int_equal(a.profiles[c].size, 5);
    for (int c = 0; c < 3; c++)
        for (int d = c + 1; d < 3; d++)
            assert_string_not_equal(a.profiles[c].name, a.profiles[d].name);
    profiles_fit_done(&a);
    profiles_fit_done(&b);
    /* the memory need (p75 of members' peaks) names the memory class */
    double mem[N];
    for (int i = 0; i < N; i++)
        mem[i] = (i / 5 == 0 ? 20 : i / 5 == 1 ? 40 : 75) + (i % 5 == 4 ? 0.5 : 0);
    profiles_fit(z, N, NULL, mem, &sc, &o, &a);
    for (int c = 0; c < 3; c++) {
        double want = a.labels[0] == c ? 20 : a.labels[5] == c ? 40 : 75;
        assert_float_equal(a.profiles[c].mem_need, want, 1e-12); /* p75 of 4 x v, v + 0.5 */
        assert_non_null(strstr(a.profiles[c].name, want == 20   ? "24 GB class"
                                                    : want == 40 ? "48 GB class"
                                                                 : "80 GB class"));
    }
    profiles_fit_done(&a);
    /* k given; k above n is lowered to n */
    ProfOpts o2 = {40, 0, 0, 0, 0, 0};
    profiles_fit(z, 4, NULL, NULL, &sc, &o2, &a);
    assert_int_equal(a.k, 4);
    profiles_fit_done(&a);
    /* nobody to cluster */
    profiles_fit(z, 0, NULL, NULL, &sc, &o, &a);
    assert_int_equal(a.k, 0);
    profiles_fit_done(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rng_reference),   cmocka_unit_test(test_two_blobs),
        cmocka_unit_test(test_bad_k),           cmocka_unit_test(test_no_empty_cluster),
        cmocka_unit_test(test_deterministic),   cmocka_unit_test(test_silhouette),
        cmocka_unit_test(test_quantiles),       cmocka_unit_test(test_features_by_hand),
        cmocka_unit_test(test_features_span),   cmocka_unit_test(test_standardize),
        cmocka_unit_test(test_names),           cmocka_unit_test(test_mem_classes),
        cmocka_unit_test(test_mix),             cmocka_unit_test(test_fit_auto),
        cmocka_unit_test(test_mem_need),
    };
    return cmocka_run_group_tests_name("kmeans", tests, NULL, NULL);
}
