#include "core/profiles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cp.h"
#include "core/kmeans.h"

int profiles_mem_class(double gib)
{
    if (gib < 0)
        return MEMCLASS_UNKNOWN;
    if (gib <= 24)
        return MEMCLASS_24;
    if (gib <= 48)
        return MEMCLASS_48;
    if (gib <= 80)
        return MEMCLASS_80;
    return MEMCLASS_GT80;
}

const char *profiles_mem_class_name(int c)
{
    static const char *const names[MEMCLASS_COUNT] = {"24", "48", "80", "80+", "unknown"};
    return c >= 0 && c < MEMCLASS_COUNT ? names[c] : "?";
}

/* ---- names ---- */

static const char *width_word(double gpus, int cpu)
{
    if (cpu)
        return gpus < 1.5 ? "serial" : gpus < 4.5 ? "small parallel" : gpus < 8.5 ? "node-wide"
                                                                                 : "wide parallel";
    if (gpus < 0.95)
        return "fractional-GPU";
    if (gpus < 1.5)
        return "single-GPU";
    if (gpus < 4.5)
        return "multi-GPU";
    if (gpus < 8.5)
        return "full-node";
    return "multi-node";
}

static const char *length_word(double hours)
{
    if (hours < 1)
        return "short jobs";
    if (hours < 8)
        return "medium jobs";
    return "long training";
}

static const char *memory_words(double gib)
{
    switch (profiles_mem_class(gib)) {
    case MEMCLASS_24:
        return "24 GB class";
    case MEMCLASS_48:
        return "48 GB class";
    case MEMCLASS_80:
        return "80 GB class";
    case MEMCLASS_GT80:
        return ">80 GB class";
    default:
        return "memory unknown";
    }
}

void profiles_name(const double raw[FEAT_COUNT], int cpu, char *out, size_t n)
{
    snprintf(out, n, "%s %s, %s", width_word(raw[FEAT_GPUS_P90], cpu),
             length_word(raw[FEAT_DUR_MEAN_H]),
             memory_words(raw[FEAT_MEM_GIB]));
}

/* Profiles sharing a name are told apart by how much they use (mean
 * concurrent GPUs): light, moderate, heavy; a number if still needed. */
static void distinguish(Profile *p, int k)
{
    int done[KMEANS_MAX_K] = {0};
    for (int a = 0; a < k; a++) {
        if (done[a])
            continue;
        int same[KMEANS_MAX_K], m = 0;
        for (int b = a; b < k; b++)
            if (!done[b] && strcmp(p[a].name, p[b].name) == 0)
                same[m++] = b;
        for (int i = 0; i < m; i++)
            done[same[i]] = 1;
        if (m < 2)
            continue;
        for (int i = 1; i < m; i++) { /* order by use, ties by index */
            int v = same[i], j = i - 1;
            double use = p[v].centroid_raw[FEAT_CONC_MEAN];
            while (j >= 0 && p[same[j]].centroid_raw[FEAT_CONC_MEAN] > use) {
                same[j + 1] = same[j];
                j--;
            }
            same[j + 1] = v;
        }
        for (int r = 0; r < m; r++) {
            char tail[32];
            const char *w = r == 0 ? "light" : r == m - 1 ? "heavy" : "moderate";
            if (m > 3 && r > 0 && r < m - 1)
                snprintf(tail, sizeof tail, ", %s use #%d", w, r);
            else
                snprintf(tail, sizeof tail, ", %s use", w);
            Profile *q = &p[same[r]];
            size_t len = strlen(q->name);
            snprintf(q->name + len, sizeof q->name - len, "%s", tail);
        }
    }
}

/* ---- fitting ---- */

void profiles_mem_need(const double *mem_gib, const int *labels, int n, int k, double *need)
{
    double *v = xmalloc(((size_t)n + 1) * sizeof *v);
    for (int c = 0; c < k; c++) {
        int m = 0;
        for (int i = 0; mem_gib && i < n; i++)
            if (labels[i] == c && mem_gib[i] >= 0)
                v[m++] = mem_gib[i];
        need[c] = m > 0 ? features_percentile(v, m, 75) : -1;
    }
    free(v);
}

static void fill_profiles(const double *z, int n, const int *labels, const int *mem_src,
                          const double *mem_gib, const FeatScale *sc, int cpu, ProfFit *f)
{
    f->profiles = xcalloc((size_t)(f->k > 0 ? f->k : 1), sizeof *f->profiles);
    int *requested = xcalloc((size_t)(f->k > 0 ? f->k : 1), sizeof *requested);
    for (int i = 0; i < n; i++) {
        Profile *p = &f->profiles[labels[i]];
        p->size++;
        for (int j = 0; j < FEAT_COUNT; j++)
            p->centroid_z[j] += z[(size_t)i * FEAT_COUNT + j];
        if (mem_src && mem_src[i] == FEAT_MEM_REQUESTED)
            requested[labels[i]]++;
    }
    double need[KMEANS_MAX_K];
    profiles_mem_need(mem_gib, labels, n, f->k, need);
    for (int c = 0; c < f->k; c++) {
        Profile *p = &f->profiles[c];
        for (int j = 0; j < FEAT_COUNT && p->size > 0; j++)
            p->centroid_z[j] /= p->size;
        features_unscale(sc, p->centroid_z, p->centroid_raw);
        p->mem_requested = 2 * requested[c] > p->size;
        p->mem_need = need[c];
        double named[FEAT_COUNT];
        memcpy(named, p->centroid_raw, sizeof named);
        named[FEAT_MEM_GIB] = need[c];
        profiles_name(named, cpu, p->name, sizeof p->name);
    }
    distinguish(f->profiles, f->k);
    free(requested);
}

/* Fit each k of kmin..kmax, keep the best silhouette (ties: smaller k). */
static void fit_auto(const double *z, int n, const ProfOpts *o, KmOpts *ko, KmResult *best,
                     ProfFit *f)
{
    int kmin = o->kmin > 0 ? o->kmin : PROFILES_KMIN;
    int kmax = o->kmax > 0 ? o->kmax : PROFILES_KMAX;
    if (kmax > n - 1)
        kmax = n - 1;
    if (kmax > PROFILES_KMAX)
        kmax = PROFILES_KMAX;
    KmResult fits[PROFILES_KMAX + 1];
    const int *labs[PROFILES_KMAX + 1];
    int ks[PROFILES_KMAX + 1], m = 0;
    for (int k = kmin; k <= kmax; k++, m++) {
        ko->k = k;
        kmeans_fit(z, n, FEAT_COUNT, ko, &fits[m]);
        labs[m] = fits[m].labels;
        ks[m] = k;
    }
    double sil[PROFILES_KMAX + 1];
    kmeans_silhouette_many(z, n, FEAT_COUNT, labs, ks, m, PROFILES_SIL_SAMPLE, ko->seed, sil);
    int keep = 0;
    for (int i = 0; i < m; i++) {
        f->sil_by_k[ks[i]] = sil[i];
        if (sil[i] > sil[keep] + 1e-12)
            keep = i;
    }
    for (int i = 0; i < m; i++) {
        if (i == keep)
            *best = fits[i];
        else
            kmeans_result_done(&fits[i]);
    }
    f->silhouette = sil[keep];
}

void profiles_fit(const double *z, int n, const int *mem_src, const double *mem_gib,
                  const FeatScale *sc, const ProfOpts *o, ProfFit *out)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    out->labels = xcalloc((size_t)(n > 0 ? n : 1), sizeof *out->labels);
    if (n == 0) {
        out->profiles = xcalloc(1, sizeof *out->profiles);
        return;
    }
    KmOpts ko = {0, o->restarts > 0 ? o->restarts : PROFILES_RESTARTS, 0,
                 o->seed ? o->seed : PROFILES_SEED};
    KmResult r;
    int k = o->k;
    if (k <= 0 && n >= 3) {
        out->k_auto = 1;
        fit_auto(z, n, o, &ko, &r, out);
    } else {
        if (k <= 0)
            k = 1;
        ko.k = k > n ? n : k;
        if (ko.k > KMEANS_MAX_K)
            ko.k = KMEANS_MAX_K;
        kmeans_fit(z, n, FEAT_COUNT, &ko, &r);
        out->silhouette = kmeans_silhouette(z, n, FEAT_COUNT, r.labels, r.k);
    }
    out->k = r.k;
    out->inertia = r.inertia;
    memcpy(out->labels, r.labels, (size_t)n * sizeof *out->labels);
    fill_profiles(z, n, out->labels, mem_src, mem_gib, sc, o->cpu, out);
    kmeans_result_done(&r);
}

void profiles_fit_done(ProfFit *f)
{
    free(f->labels);
    free(f->profiles);
    memset(f, 0, sizeof *f);
}

/* ---- mixes ---- */

static void normalise(double *row, int k)
{
    double s = 0;
    for (int p = 0; p < k; p++)
        s += row[p];
    for (int p = 0; p < k && s > 0; p++)
        row[p] /= s;
}

void profiles_mix(const int *labels, const int *group, int n, int ngroups, const int *domain,
                  int k, double *mix)
{
    if (k <= 0)
        return;
    int ndom = 0;
    for (int g = 0; domain && g < ngroups; g++)
        if (domain[g] + 1 > ndom)
            ndom = domain[g] + 1;
    double *dmix = xcalloc((size_t)(ndom + 1) * k, sizeof *dmix);
    double *all = xcalloc((size_t)k, sizeof *all);
    memset(mix, 0, (size_t)ngroups * k * sizeof *mix);
    for (int i = 0; i < n; i++) {
        if (labels[i] < 0 || group[i] < 0 || group[i] >= ngroups)
            continue;
        mix[(size_t)group[i] * k + labels[i]] += 1;
        all[labels[i]] += 1;
        if (domain && domain[group[i]] >= 0)
            dmix[(size_t)domain[group[i]] * k + labels[i]] += 1;
    }
    normalise(all, k);
    for (int d = 0; d < ndom; d++)
        normalise(dmix + (size_t)d * k, k);
    for (int g = 0; g < ngroups; g++) {
        double *row = mix + (size_t)g * k, s = 0;
        for (int p = 0; p < k; p++)
            s += row[p];
        if (s > 0) {
            normalise(row, k);
            continue;
        }
        const double *from = all;
        if (domain && domain[g] >= 0) {
            const double *dm = dmix + (size_t)domain[g] * k;
            double ds = 0;
            for (int p = 0; p < k; p++)
                ds += dm[p];
            if (ds > 0)
                from = dm;
        }
        memcpy(row, from, (size_t)k * sizeof *row);
    }
    free(dmix);
    free(all);
}
