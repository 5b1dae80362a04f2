#include "core/research.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cp.h"
#include "core/kmeans.h"

#define RESTARTS 8
#define SIL_SAMPLE 2000

static void clusters_init(ResearchClusters *c, int n)
{
    memset(c, 0, sizeof *c);
    c->n = n;
    c->labels = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *c->labels);
    for (int i = 0; i < n; i++)
        c->labels[i] = -1;
}

void research_clusters_done(ResearchClusters *c)
{
    free(c->labels);
    free(c->sizes);
    free(c->top);
    memset(c, 0, sizeof *c);
}

static int nonzero(const double *row, int d)
{
    for (int j = 0; j < d; j++)
        if (row[j] != 0)
            return 1;
    return 0;
}

/* Fit k clusters; labels into lab (m rows). */
static void fit(const double *x, int m, int d, int k, uint64_t seed, int *lab)
{
    KmOpts o = {k, RESTARTS, 0, seed};
    KmResult r;
    kmeans_fit(x, m, d, &o, &r);
    memcpy(lab, r.labels, (size_t)m * sizeof *lab);
    kmeans_result_done(&r);
}

/* The k of best silhouette over 2..kmax; its labels into best. */
static int choose_k(const double *x, int m, int d, int kmax, uint64_t seed, int *best,
                    double *sil)
{
    int nk = kmax - 1;
    int *labs = xmalloc((size_t)nk * (size_t)m * sizeof *labs);
    const int **ptr = xmalloc((size_t)nk * sizeof *ptr);
    int *ks = xmalloc((size_t)nk * sizeof *ks);
    double *score = xmalloc((size_t)nk * sizeof *score);
    for (int i = 0; i < nk; i++) {
        ks[i] = i + 2;
        fit(x, m, d, ks[i], seed, labs + (size_t)i * (size_t)m);
        ptr[i] = labs + (size_t)i * (size_t)m;
    }
    kmeans_silhouette_many(x, m, d, ptr, ks, nk, SIL_SAMPLE, seed, score);
    int bi = 0;
    for (int i = 1; i < nk; i++)
        if (score[i] > score[bi] + 1e-12)
            bi = i;
    memcpy(best, ptr[bi], (size_t)m * sizeof *best);
    *sil = score[bi];
    int k = ks[bi];
    free(labs);
    free(ptr);
    free(ks);
    free(score);
    return k;
}

static void count_sizes(ResearchClusters *c)
{
    c->sizes = xcalloc((size_t)(c->k > 0 ? c->k : 1), sizeof *c->sizes);
    for (int i = 0; i < c->n; i++)
        if (c->labels[i] >= 0)
            c->sizes[c->labels[i]]++;
}

/* The columns of x (n x d) that hold a non-zero value: distances over
 * them alone are the same, and k-means is as many times faster as terms
 * go unused. Returns how many; cols receives their indexes. */
static int used_columns(const double *x, int n, int d, int *cols)
{
    int m = 0;
    for (int j = 0; j < d; j++) {
        int any = 0;
        for (int i = 0; i < n && !any; i++)
            any = x[(size_t)i * (size_t)d + (size_t)j] != 0;
        if (any)
            cols[m++] = j;
    }
    return m;
}

void research_kmeans(const double *x, int n, int d, int k, uint64_t seed, ResearchClusters *out)
{
    clusters_init(out, n);
    int *rows = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *rows), m = 0;
    int *cols = xmalloc((size_t)(d > 0 ? d : 1) * sizeof *cols);
    for (int i = 0; i < n; i++)
        if (nonzero(x + (size_t)i * (size_t)d, d))
            rows[m++] = i;
    int dd = used_columns(x, n, d, cols);
    double *y = xmalloc((size_t)(m > 0 ? m : 1) * (size_t)(dd > 0 ? dd : 1) * sizeof *y);
    for (int r = 0; r < m; r++)
        for (int j = 0; j < dd; j++)
            y[(size_t)r * (size_t)dd + (size_t)j] = x[(size_t)rows[r] * (size_t)d + (size_t)cols[j]];
    int *lab = xcalloc((size_t)(m > 0 ? m : 1), sizeof *lab);
    if (k > m)
        k = m;
    int kmax = m - 1 < RESEARCH_KMAX ? m - 1 : RESEARCH_KMAX;
    if (m == 0)
        k = 0;
    else if (k >= 1)
        fit(y, m, dd, k, seed, lab);
    else if (kmax >= 2)
        k = choose_k(y, m, dd, kmax, seed, lab, &out->silhouette);
    else
        k = 1;
    if (k >= 2 && out->silhouette == 0)
        out->silhouette = kmeans_silhouette(y, m, dd, lab, k);
    out->k = k;
    for (int r = 0; r < m; r++)
        out->labels[rows[r]] = lab[r];
    count_sizes(out);
    free(rows);
    free(cols);
    free(y);
    free(lab);
}

/* ---- co-author communities ---- */

typedef struct Adj {
    int *start; /* n + 1 */
    int *to;
    double *w;
} Adj;

static void adj_build(Adj *a, int n, const int *ea, const int *eb, const double *ew, int ne)
{
    a->start = xcalloc((size_t)n + 1, sizeof *a->start);
    a->to = xmalloc((size_t)(2 * ne + 1) * sizeof *a->to);
    a->w = xmalloc((size_t)(2 * ne + 1) * sizeof *a->w);
    for (int e = 0; e < ne; e++) {
        a->start[ea[e] + 1]++;
        a->start[eb[e] + 1]++;
    }
    for (int i = 0; i < n; i++)
        a->start[i + 1] += a->start[i];
    int *fill = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *fill);
    memcpy(fill, a->start, (size_t)n * sizeof *fill);
    for (int e = 0; e < ne; e++) {
        a->to[fill[ea[e]]] = eb[e];
        a->w[fill[ea[e]]++] = ew[e];
        a->to[fill[eb[e]]] = ea[e];
        a->w[fill[eb[e]]++] = ew[e];
    }
    free(fill);
}

static void adj_done(Adj *a)
{
    free(a->start);
    free(a->to);
    free(a->w);
}

/* The neighbours' label of highest total weight (ties: smallest). */
static int best_label(const Adj *a, int i, const int *lab, const unsigned char *active,
                      double *acc)
{
    int best = lab[i];
    double bw = 0;
    for (int e = a->start[i]; e < a->start[i + 1]; e++)
        if (active[a->to[e]])
            acc[lab[a->to[e]]] += a->w[e];
    for (int e = a->start[i]; e < a->start[i + 1]; e++) {
        if (!active[a->to[e]])
            continue;
        int l = lab[a->to[e]];
        if (acc[l] > bw || (acc[l] == bw && l < best)) {
            bw = acc[l];
            best = l;
        }
    }
    for (int e = a->start[i]; e < a->start[i + 1]; e++)
        if (active[a->to[e]])
            acc[lab[a->to[e]]] = 0;
    return bw > 0 ? best : lab[i];
}

/* Renumber labels 0.. by decreasing size (ties: first person). */
static int renumber(int *lab, int n)
{
    int *size = xcalloc((size_t)n + 1, sizeof *size), *order = xmalloc(((size_t)n + 1) * sizeof *order);
    int *map = xmalloc(((size_t)n + 1) * sizeof *map), k = 0;
    for (int i = 0; i < n; i++)
        if (lab[i] >= 0)
            size[lab[i]]++;
    for (int i = 0; i < n; i++)
        if (lab[i] >= 0 && size[lab[i]] > 0 && lab[i] == i)
            order[k++] = i;
    for (int a = 1; a < k; a++) /* insertion sort: stable by first person */
        for (int b = a; b > 0 && size[order[b]] > size[order[b - 1]]; b--) {
            int t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    for (int c = 0; c < k; c++)
        map[order[c]] = c;
    for (int i = 0; i < n; i++)
        if (lab[i] >= 0)
            lab[i] = map[lab[i]];
    free(size);
    free(order);
    free(map);
    return k;
}

void research_coauthor(int n, const int *ea, const int *eb, const double *ew, int ne,
                       const unsigned char *active, ResearchClusters *out)
{
    clusters_init(out, n);
    Adj a;
    adj_build(&a, n, ea, eb, ew, ne);
    int *lab = out->labels;
    double *acc = xcalloc((size_t)n + 1, sizeof *acc);
    for (int i = 0; i < n; i++)
        lab[i] = i;
    for (int round = 0, changed = 1; changed && round < 100; round++) {
        changed = 0;
        for (int i = 0; i < n; i++) {
            if (!active[i])
                continue;
            int l = best_label(&a, i, lab, active, acc);
            changed |= l != lab[i];
            lab[i] = l;
        }
    }
    for (int i = 0; i < n; i++)
        if (!active[i])
            lab[i] = -1;
    /* A label is a person's index: make each community's label one of its
     * own members so renumber can find it. */
    int *rep = xmalloc(((size_t)n + 1) * sizeof *rep);
    for (int i = 0; i < n; i++)
        rep[i] = -1;
    for (int i = 0; i < n; i++)
        if (lab[i] >= 0 && rep[lab[i]] < 0)
            rep[lab[i]] = i;
    for (int i = 0; i < n; i++)
        if (lab[i] >= 0)
            lab[i] = rep[lab[i]];
    out->k = renumber(lab, n);
    count_sizes(out);
    free(rep);
    free(acc);
    adj_done(&a);
}

void research_name(ResearchClusters *c, const double *x, int d)
{
    int k = c->k > 0 ? c->k : 1;
    double *mean = xcalloc((size_t)k * (size_t)(d > 0 ? d : 1), sizeof *mean);
    free(c->top);
    c->top = xmalloc((size_t)k * RESEARCH_TOP * sizeof *c->top);
    for (int i = 0; i < c->n; i++)
        if (c->labels[i] >= 0)
            for (int j = 0; j < d; j++)
                mean[(size_t)c->labels[i] * (size_t)d + (size_t)j] += x[(size_t)i * (size_t)d + (size_t)j];
    for (int q = 0; q < k; q++) {
        double *m = mean + (size_t)q * (size_t)d;
        for (int t = 0; t < RESEARCH_TOP; t++) {
            int bj = -1;
            for (int j = 0; j < d; j++)
                if (m[j] > 0 && (bj < 0 || m[j] > m[bj]))
                    bj = j;
            c->top[q * RESEARCH_TOP + t] = bj;
            if (bj >= 0)
                m[bj] = 0;
        }
    }
    free(mean);
}

/* ---- agreement ---- */

static int max_label(const int *a, int n)
{
    int m = -1;
    for (int i = 0; i < n; i++)
        if (a[i] > m)
            m = a[i];
    return m;
}

/* Contingency of a and b: ka x kb counts (caller frees). */
static double *contingency(const int *a, const int *b, int n, int *ka, int *kb)
{
    *ka = max_label(a, n) + 1;
    *kb = max_label(b, n) + 1;
    double *t = xcalloc((size_t)(*ka > 0 ? *ka : 1) * (size_t)(*kb > 0 ? *kb : 1), sizeof *t);
    for (int i = 0; i < n; i++)
        t[(size_t)a[i] * (size_t)*kb + (size_t)b[i]] += 1;
    return t;
}

static double comb2(double x)
{
    return x * (x - 1) / 2;
}

double research_ari(const int *a, const int *b, int n)
{
    int ka, kb;
    if (n < 2)
        return 1.0;
    double *t = contingency(a, b, n, &ka, &kb), sij = 0, sa = 0, sb = 0;
    for (int i = 0; i < ka; i++) {
        double row = 0;
        for (int j = 0; j < kb; j++) {
            row += t[(size_t)i * (size_t)kb + (size_t)j];
            sij += comb2(t[(size_t)i * (size_t)kb + (size_t)j]);
        }
        sa += comb2(row);
    }
    for (int j = 0; j < kb; j++) {
        double col = 0;
        for (int i = 0; i < ka; i++)
            col += t[(size_t)i * (size_t)kb + (size_t)j];
        sb += comb2(col);
    }
    free(t);
    double expected = sa * sb / comb2(n), maxi = (sa + sb) / 2;
    if (maxi == expected)
        return 1.0;
    return (sij - expected) / (maxi - expected);
}

static double entropy(const double *counts, int k, int n)
{
    double h = 0;
    for (int i = 0; i < k; i++)
        if (counts[i] > 0)
            h -= counts[i] / n * log(counts[i] / n);
    return h;
}

double research_nmi(const int *a, const int *b, int n)
{
    int ka, kb;
    if (n == 0)
        return 1.0;
    double *t = contingency(a, b, n, &ka, &kb);
    double *ra = xcalloc((size_t)ka, sizeof *ra), *cb = xcalloc((size_t)kb, sizeof *cb);
    int nka = 0, nkb = 0;
    for (int i = 0; i < ka; i++)
        for (int j = 0; j < kb; j++) {
            ra[i] += t[(size_t)i * (size_t)kb + (size_t)j];
            cb[j] += t[(size_t)i * (size_t)kb + (size_t)j];
        }
    for (int i = 0; i < ka; i++)
        nka += ra[i] > 0;
    for (int j = 0; j < kb; j++)
        nkb += cb[j] > 0;
    double mi = 0;
    for (int i = 0; i < ka; i++)
        for (int j = 0; j < kb; j++) {
            double c = t[(size_t)i * (size_t)kb + (size_t)j];
            if (c > 0)
                mi += c / n * log(c * n / (ra[i] * cb[j]));
        }
    double ha = entropy(ra, ka, n), hb = entropy(cb, kb, n);
    free(t);
    free(ra);
    free(cb);
    if (nka == 1 && nkb == 1)
        return 1.0;
    double norm = (ha + hb) / 2;
    return mi <= 0 ? 0.0 : mi / (norm > 1e-15 ? norm : 1e-15);
}

/* ---- research clusters beside compute profiles ---- */

static void usual_profiles(ResearchCompare *c)
{
    for (int r = 0; r < c->kr; r++) {
        int best = -1, total = 0;
        for (int p = 0; p < c->kp; p++) {
            int v = c->table[r * c->kp + p];
            total += v;
            if (v > 0 && (best < 0 || v > c->table[r * c->kp + best]))
                best = p;
        }
        c->usual[r] = best;
        c->usual_share[r] = total > 0 && best >= 0 ? (double)c->table[r * c->kp + best] / total : 0;
        c->firm[r] = total >= 3 && c->usual_share[r] >= 0.5;
    }
}

void research_compare(const int *research, const int *profile, int n, int kr, int kp,
                      ResearchCompare *out)
{
    memset(out, 0, sizeof *out);
    out->kr = kr;
    out->kp = kp;
    out->table = xcalloc((size_t)(kr > 0 ? kr : 1) * (size_t)(kp > 0 ? kp : 1), sizeof *out->table);
    out->usual = xcalloc((size_t)(kr > 0 ? kr : 1), sizeof *out->usual);
    out->usual_share = xcalloc((size_t)(kr > 0 ? kr : 1), sizeof *out->usual_share);
    out->firm = xcalloc((size_t)(kr > 0 ? kr : 1), 1);
    out->ask = xcalloc((size_t)(n > 0 ? n : 1), 1);
    int *a = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *a), *b = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *b);
    for (int i = 0; i < n; i++)
        if (research[i] >= 0 && profile[i] >= 0) {
            out->table[research[i] * kp + profile[i]]++;
            a[out->both] = research[i];
            b[out->both++] = profile[i];
        }
    out->ari = research_ari(a, b, out->both);
    out->nmi = research_nmi(a, b, out->both);
    usual_profiles(out);
    for (int i = 0; i < n; i++) {
        int r = research[i];
        out->ask[i] = r >= 0 && profile[i] >= 0 && out->firm[r] &&
                      profile[i] != out->usual[r];
    }
    free(a);
    free(b);
}

void research_compare_done(ResearchCompare *c)
{
    free(c->table);
    free(c->usual);
    free(c->usual_share);
    free(c->ask);
    free(c->firm);
    memset(c, 0, sizeof *c);
}
