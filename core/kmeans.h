#ifndef KMEANS_H
#define KMEANS_H
/* kmeans: Lloyd's k-means over a dense row-major matrix, k-means++ seeding
 * from capplan's own PRNG (splitmix64-seeded xoshiro256**), several
 * restarts keeping the lowest inertia, and the silhouette score used to
 * choose k. Deterministic: the same matrix, k, restarts and seed give the
 * same labels and centroids on every machine (no rand(), no time, no
 * threads, a fixed order of floating-point operations).
 *
 * Pure computation over caller-owned arrays: no I/O, no SQLite, no curses.
 * Distances are squared Euclidean for the fit and inertia (as
 * scikit-learn's KMeans), plain Euclidean for the silhouette (as
 * sklearn.metrics.silhouette_score). */

#include <stddef.h>
#include <stdint.h>

#define KMEANS_MAX_K 64

/* A small deterministic PRNG (xoshiro256**, seeded through splitmix64). */
typedef struct KmRng {
    uint64_t s[4];
} KmRng;

void kmeans_rng_seed(KmRng *r, uint64_t seed);
uint64_t kmeans_rng_next(KmRng *r);
/* Uniform in [0, 1), 53 random bits. */
double kmeans_rng_double(KmRng *r);

typedef struct KmOpts {
    int k;          /* clusters, 1..KMEANS_MAX_K and <= n */
    int restarts;   /* k-means++ seedings tried (>= 1; capplan uses >= 10) */
    int max_iter;   /* Lloyd iterations per restart (0: 300) */
    uint64_t seed;  /* fixed seed: same input, same output */
} KmOpts;

/* The result of a fit. Arrays are owned by the struct: kmeans_result_done. */
typedef struct KmResult {
    int k, n, d;
    int *labels;        /* n: cluster of each row, 0..k-1 */
    double *centroids;  /* k x d, row-major */
    int *sizes;         /* k: rows per cluster */
    double inertia;     /* sum of squared distances to the assigned centroid */
    int iterations;     /* Lloyd iterations of the kept restart */
    int best_restart;   /* which restart was kept (0-based) */
} KmResult;

/* Fit k clusters to x (n rows of d doubles, row-major, borrowed). Clusters
 * are renumbered by decreasing size (ties: smaller first row), so that
 * numbering is stable. Returns 0, or -1 when k, n or d are out of range
 * (k < 1, k > n, d < 1). out is initialised either way and must be
 * released with kmeans_result_done. */
int kmeans_fit(const double *x, int n, int d, const KmOpts *o, KmResult *out);
void kmeans_result_done(KmResult *r);

/* Mean silhouette of labels (n rows of x, k clusters): for each row,
 * (b - a) / max(a, b) with a the mean distance to its own cluster and b
 * the smallest mean distance to another; 0 for a row alone in its
 * cluster. Returns 0 when k < 2 or k >= n (silhouette undefined). */
double kmeans_silhouette(const double *x, int n, int d, const int *labels, int k);

/* Silhouettes of several labelings of the same rows at once (one pass of
 * pairwise distances): labelings[m] holds n labels with ks[m] clusters;
 * scores[m] receives the mean silhouette. When n > sample (sample > 0),
 * the score is computed over a deterministic sample of `sample` rows
 * (drawn with seed), as sklearn's silhouette_score(sample_size=...). */
void kmeans_silhouette_many(const double *x, int n, int d, const int *const *labelings,
                            const int *ks, int m, int sample, uint64_t seed, double *scores);

/* Sum of squared distances of rows to the given centroids' nearest one. */
double kmeans_inertia(const double *x, int n, int d, const double *centroids, int k);

#endif
