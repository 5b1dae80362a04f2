#include "core/kmeans.h"
#include "core/rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cp.h"

/* ---- PRNG: splitmix64 to seed, xoshiro256** to draw ---- */

void kmeans_rng_seed(KmRng *r, uint64_t seed)
{
    rng_seed(r->s, seed);
}

uint64_t kmeans_rng_next(KmRng *r)
{
    return rng_next(r->s);
}

double kmeans_rng_double(KmRng *r)
{
    return rng_unit(r->s);
}

/* Uniform integer in [0, n). */
static int rng_below(KmRng *r, int n)
{
    return (int)(kmeans_rng_double(r) * n);
}

/* ---- distances ---- */

static double sqdist(const double *a, const double *b, int d)
{
    double s = 0;
    for (int j = 0; j < d; j++) {
        double t = a[j] - b[j];
        s += t * t;
    }
    return s;
}

/* Index of the nearest centroid (ties: the lowest index); *dist gets the
 * squared distance. */
static int nearest(const double *row, const double *c, int k, int d, double *dist)
{
    int best = 0;
    double bd = sqdist(row, c, d);
    for (int j = 1; j < k; j++) {
        double t = sqdist(row, c + (size_t)j * d, d);
        if (t < bd) {
            bd = t;
            best = j;
        }
    }
    *dist = bd;
    return best;
}

double kmeans_inertia(const double *x, int n, int d, const double *centroids, int k)
{
    double s = 0, dist;
    for (int i = 0; i < n; i++) {
        nearest(x + (size_t)i * d, centroids, k, d, &dist);
        s += dist;
    }
    return s;
}

/* ---- k-means++ seeding (greedy, 2 + ln k candidates per step) ---- */

/* The row whose cumulative weight first exceeds u * total. */
static int sample_weighted(const double *w, int n, double total, double u)
{
    double target = u * total, acc = 0;
    for (int i = 0; i < n; i++) {
        acc += w[i];
        if (acc > target)
            return i;
    }
    for (int i = n - 1; i >= 0; i--) /* rounding: the last row with weight */
        if (w[i] > 0)
            return i;
    return n - 1;
}

/* Potential (sum of min distances) if row cand were added as a centre. */
static double potential_with(const double *x, int n, int d, const double *mind, int cand,
                             double *newd)
{
    const double *c = x + (size_t)cand * d;
    double pot = 0;
    for (int i = 0; i < n; i++) {
        double t = sqdist(x + (size_t)i * d, c, d);
        newd[i] = t < mind[i] ? t : mind[i];
        pot += newd[i];
    }
    return pot;
}

static void seed_plusplus(const double *x, int n, int d, int k, KmRng *rng, double *cent)
{
    double *mind = xmalloc((size_t)n * sizeof *mind);
    double *cand_d = xmalloc((size_t)n * sizeof *cand_d);
    double *best_d = xmalloc((size_t)n * sizeof *best_d);
    int trials = 2 + (int)log((double)k);
    int first = rng_below(rng, n);
    memcpy(cent, x + (size_t)first * d, (size_t)d * sizeof *cent);
    double pot = 0;
    for (int i = 0; i < n; i++) {
        mind[i] = sqdist(x + (size_t)i * d, cent, d);
        pot += mind[i];
    }
    for (int c = 1; c < k; c++) {
        int best = -1;
        double best_pot = 0;
        for (int t = 0; t < trials; t++) {
            int cand = pot > 0 ? sample_weighted(mind, n, pot, kmeans_rng_double(rng))
                               : rng_below(rng, n);
            double p = potential_with(x, n, d, mind, cand, cand_d);
            if (best < 0 || p < best_pot) {
                best = cand;
                best_pot = p;
                memcpy(best_d, cand_d, (size_t)n * sizeof *best_d);
            }
        }
        memcpy(cent + (size_t)c * d, x + (size_t)best * d, (size_t)d * sizeof *cent);
        memcpy(mind, best_d, (size_t)n * sizeof *mind);
        pot = best_pot;
    }
    free(mind);
    free(cand_d);
    free(best_d);
}

/* ---- Lloyd iterations ---- */

typedef struct Work {
    int *labels;
    double *dist;  /* squared distance of each row to its centroid */
    double *sums;  /* k x d */
    int *counts;
} Work;

/* Assign rows to their nearest centroid; returns how many labels changed. */
static int assign(const double *x, int n, int d, const double *cent, int k, Work *w)
{
    int changed = 0;
    for (int i = 0; i < n; i++) {
        int l = nearest(x + (size_t)i * d, cent, k, d, &w->dist[i]);
        if (l != w->labels[i])
            changed++;
        w->labels[i] = l;
    }
    return changed;
}

/* The row farthest from its centroid that is not alone in its cluster. */
static int farthest_row(int n, const Work *w)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (w->counts[w->labels[i]] > 1 && (best < 0 || w->dist[i] > w->dist[best]))
            best = i;
    return best;
}

/* Centroids = means of their rows; an empty cluster takes the row farthest
 * from its centroid (as scikit-learn relocates empty clusters). */
static void update(const double *x, int n, int d, double *cent, int k, Work *w)
{
    memset(w->sums, 0, (size_t)k * d * sizeof *w->sums);
    memset(w->counts, 0, (size_t)k * sizeof *w->counts);
    for (int i = 0; i < n; i++) {
        double *s = w->sums + (size_t)w->labels[i] * d;
        const double *row = x + (size_t)i * d;
        for (int j = 0; j < d; j++)
            s[j] += row[j];
        w->counts[w->labels[i]]++;
    }
    for (int c = 0; c < k; c++) {
        double *cc = cent + (size_t)c * d;
        if (w->counts[c] == 0) {
            int r = farthest_row(n, w);
            if (r < 0)
                continue;
            w->counts[w->labels[r]]--;
            w->labels[r] = c;
            w->counts[c] = 1;
            w->dist[r] = 0;
            memcpy(cc, x + (size_t)r * d, (size_t)d * sizeof *cc);
            continue;
        }
        for (int j = 0; j < d; j++)
            cc[j] = w->sums[(size_t)c * d + j] / w->counts[c];
    }
}

/* One restart: seed, iterate to a fixed point. Returns the inertia. */
static double lloyd(const double *x, int n, int d, int k, int max_iter, KmRng *rng,
                    double *cent, Work *w, int *iters)
{
    seed_plusplus(x, n, d, k, rng, cent);
    for (int i = 0; i < n; i++)
        w->labels[i] = -1;
    int it = 0;
    while (it < max_iter) {
        int changed = assign(x, n, d, cent, k, w);
        it++;
        if (changed == 0)
            break;
        update(x, n, d, cent, k, w);
    }
    *iters = it;
    double s = 0;
    for (int i = 0; i < n; i++)
        s += w->dist[i];
    return s;
}

/* Renumber clusters by decreasing size, ties by first row. */
static void renumber(KmResult *r)
{
    int k = r->k, d = r->d;
    int order[KMEANS_MAX_K], first[KMEANS_MAX_K], map[KMEANS_MAX_K];
    for (int c = 0; c < k; c++) {
        order[c] = c;
        first[c] = r->n;
    }
    for (int i = r->n - 1; i >= 0; i--)
        first[r->labels[i]] = i;
    for (int a = 1; a < k; a++) { /* insertion sort: k is small */
        int v = order[a], b = a - 1;
        while (b >= 0 && (r->sizes[order[b]] < r->sizes[v] ||
                          (r->sizes[order[b]] == r->sizes[v] && first[order[b]] > first[v]))) {
            order[b + 1] = order[b];
            b--;
        }
        order[b + 1] = v;
    }
    double *cent = xmalloc((size_t)k * d * sizeof *cent);
    int sizes[KMEANS_MAX_K];
    for (int c = 0; c < k; c++) {
        map[order[c]] = c;
        memcpy(cent + (size_t)c * d, r->centroids + (size_t)order[c] * d, (size_t)d * sizeof *cent);
        sizes[c] = r->sizes[order[c]];
    }
    memcpy(r->centroids, cent, (size_t)k * d * sizeof *cent);
    memcpy(r->sizes, sizes, (size_t)k * sizeof *sizes);
    for (int i = 0; i < r->n; i++)
        r->labels[i] = map[r->labels[i]];
    free(cent);
}

int kmeans_fit(const double *x, int n, int d, const KmOpts *o, KmResult *out)
{
    memset(out, 0, sizeof *out);
    int k = o->k;
    if (k < 1 || k > KMEANS_MAX_K || n < 1 || k > n || d < 1)
        return -1;
    out->k = k;
    out->n = n;
    out->d = d;
    out->labels = xmalloc((size_t)n * sizeof *out->labels);
    out->centroids = xmalloc((size_t)k * d * sizeof *out->centroids);
    out->sizes = xcalloc((size_t)k, sizeof *out->sizes);
    Work w = {xmalloc((size_t)n * sizeof(int)), xmalloc((size_t)n * sizeof(double)),
              xmalloc((size_t)k * d * sizeof(double)), xmalloc((size_t)k * sizeof(int))};
    double *cent = xmalloc((size_t)k * d * sizeof *cent);
    KmRng rng;
    kmeans_rng_seed(&rng, o->seed);
    int restarts = o->restarts > 0 ? o->restarts : 1;
    int max_iter = o->max_iter > 0 ? o->max_iter : 300;
    for (int r = 0; r < restarts; r++) {
        int iters;
        double in = lloyd(x, n, d, k, max_iter, &rng, cent, &w, &iters);
        if (r == 0 || in < out->inertia) {
            out->inertia = in;
            out->iterations = iters;
            out->best_restart = r;
            memcpy(out->labels, w.labels, (size_t)n * sizeof *out->labels);
            memcpy(out->centroids, cent, (size_t)k * d * sizeof *cent);
        }
    }
    for (int i = 0; i < n; i++)
        out->sizes[out->labels[i]]++;
    renumber(out);
    free(cent);
    free(w.labels);
    free(w.dist);
    free(w.sums);
    free(w.counts);
    return 0;
}

void kmeans_result_done(KmResult *r)
{
    free(r->labels);
    free(r->centroids);
    free(r->sizes);
    memset(r, 0, sizeof *r);
}

/* ---- silhouette ---- */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Sorted sample of m distinct rows out of n (all rows when m >= n). */
static int *sample_rows(int n, int m, uint64_t seed, int *count)
{
    int *idx = xmalloc((size_t)n * sizeof *idx);
    for (int i = 0; i < n; i++)
        idx[i] = i;
    if (m <= 0 || m >= n) {
        *count = n;
        return idx;
    }
    KmRng rng;
    kmeans_rng_seed(&rng, seed);
    for (int i = 0; i < m; i++) { /* partial Fisher-Yates */
        int j = i + rng_below(&rng, n - i);
        int t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
    }
    qsort(idx, (size_t)m, sizeof *idx, cmp_int);
    *count = m;
    return idx;
}

/* Silhouette of row i from its per-cluster distance sums and counts. */
static double row_silhouette(int own, int k, const double *sum, const int *cnt)
{
    if (cnt[own] <= 1)
        return 0;
    double a = sum[own] / (cnt[own] - 1), b = -1;
    for (int c = 0; c < k; c++) {
        if (c == own || cnt[c] == 0)
            continue;
        double t = sum[c] / cnt[c];
        if (b < 0 || t < b)
            b = t;
    }
    if (b < 0)
        return 0;
    double m = a > b ? a : b;
    return m > 0 ? (b - a) / m : 0;
}

void kmeans_silhouette_many(const double *x, int n, int d, const int *const *labelings,
                            const int *ks, int m, int sample, uint64_t seed, double *scores)
{
    int ns;
    int *rows = sample_rows(n, sample, seed, &ns);
    int kmax = 1;
    for (int l = 0; l < m; l++) {
        scores[l] = 0;
        if (ks[l] > kmax)
            kmax = ks[l];
    }
    int *cnt = xcalloc((size_t)m * kmax, sizeof *cnt);
    double *sum = xmalloc((size_t)m * kmax * sizeof *sum);
    for (int a = 0; a < ns; a++)
        for (int l = 0; l < m; l++)
            cnt[(size_t)l * kmax + labelings[l][rows[a]]]++;
    for (int a = 0; a < ns; a++) {
        int i = rows[a];
        memset(sum, 0, (size_t)m * kmax * sizeof *sum);
        for (int b = 0; b < ns; b++) {
            if (b == a)
                continue;
            int j = rows[b];
            double dist = sqrt(sqdist(x + (size_t)i * d, x + (size_t)j * d, d));
            for (int l = 0; l < m; l++)
                sum[(size_t)l * kmax + labelings[l][j]] += dist;
        }
        for (int l = 0; l < m; l++)
            scores[l] += row_silhouette(labelings[l][i], ks[l], sum + (size_t)l * kmax,
                                        cnt + (size_t)l * kmax);
    }
    for (int l = 0; l < m; l++)
        scores[l] = (ks[l] < 2 || ks[l] >= ns) ? 0 : scores[l] / ns;
    free(cnt);
    free(sum);
    free(rows);
}

double kmeans_silhouette(const double *x, int n, int d, const int *labels, int k)
{
    double s;
    kmeans_silhouette_many(x, n, d, &labels, &k, 1, 0, 0, &s);
    return s;
}
