#ifndef PROFILES_H
#define PROFILES_H
/* profiles: compute profiles from users' standardised features: k-means
 * with k chosen by the silhouette over 2..8 (or given), each cluster's
 * centroid back in raw units, a generated name read from that centroid
 * ("multi-GPU long training, 80 GB class"), the per-profile figures the
 * projection starts from, and each group's (or domain's) mix of profiles.
 *
 * Pure computation over caller-owned arrays: no I/O, no SQLite, no curses.
 * Renaming is the store's business: it keeps a chosen name keyed by the
 * generated one, so that a rename survives re-clustering the same data. */

#include <stddef.h>
#include <stdint.h>

#include "core/features.h"

#define PROFILES_KMIN 2
#define PROFILES_KMAX 8
#define PROFILES_NAME_MAX 96
#define PROFILES_RESTARTS 10
#define PROFILES_SEED 20240601ULL
#define PROFILES_SIL_SAMPLE 4000 /* silhouette over at most this many users */

/* GPU-memory classes of the projection: <=24, <=48, <=80, >80 GiB, unknown. */
enum { MEMCLASS_24, MEMCLASS_48, MEMCLASS_80, MEMCLASS_GT80, MEMCLASS_UNKNOWN, MEMCLASS_COUNT };

/* Class of a memory figure in GiB (< 0: unknown). */
int profiles_mem_class(double gib);
/* "24", "48", "80", "80+", "unknown". Static storage. */
const char *profiles_mem_class_name(int c);

typedef struct ProfOpts {
    int k;            /* clusters; 0 = choose by silhouette over kmin..kmax */
    int kmin, kmax;   /* 0: PROFILES_KMIN, PROFILES_KMAX */
    int restarts;     /* 0: PROFILES_RESTARTS */
    uint64_t seed;    /* 0: PROFILES_SEED */
    int cpu;          /* CPUs stand in for GPUs: names say so */
} ProfOpts;

typedef struct Profile {
    char name[PROFILES_NAME_MAX]; /* generated from the centroid, unique in the fit */
    int size;
    double centroid_z[FEAT_COUNT];
    double centroid_raw[FEAT_COUNT]; /* back in raw units; memory -1 if unknown */
    int mem_requested;  /* most members' memory is the GPU model's, not measured */
    double mem_need;    /* GiB: 75th percentile of members' known peaks, -1 none; the
                           memory class of the name and of the projection */
} Profile;

typedef struct ProfFit {
    int k, n;          /* profiles, users clustered */
    int k_auto;        /* 1 when k was chosen by the silhouette */
    double silhouette; /* of the kept k (0 when k < 2) */
    double inertia;
    double sil_by_k[PROFILES_KMAX + 1]; /* silhouette tried per k (auto), else 0 */
    int *labels;       /* n: profile of each row (0-based) */
    Profile *profiles; /* k */
} ProfFit;

/* Cluster the n rows of z (n x FEAT_COUNT, borrowed). mem_src[i] is the
 * FEAT_MEM_* of row i (for the "requested" flag) and mem_gib[i] its peak
 * GPU memory (-1 unknown; the memory need); both may be NULL. sc turns
 * centroids back into raw units. n == 0 gives k = 0. k is lowered to n
 * when larger; auto k needs n >= 3 (else k = 1). Caller frees with
 * profiles_fit_done. */
void profiles_fit(const double *z, int n, const int *mem_src, const double *mem_gib,
                  const FeatScale *sc, const ProfOpts *o, ProfFit *out);

/* Memory need of each of k profiles: the 75th percentile (linear, as
 * numpy) of the known (>= 0) mem_gib of its rows (labels[i], -1 none); -1
 * when none is known. need has k slots. */
void profiles_mem_need(const double *mem_gib, const int *labels, int n, int k, double *need);
void profiles_fit_done(ProfFit *f);

/* A profile's name from raw centroid features, e.g.
 * "multi-GPU long training, 80 GB class": width from gpus_p90 (fractional
 * < 0.95 <= single < 1.5 <= multi < 4.5 <= full-node < 8.5 <= multi-node;
 * serial, small parallel, node-wide, wide parallel when cpu), length from
 * dur_mean_h (short jobs < 1 h <= medium jobs < 8 h <= long training),
 * memory class from mem_gib (profiles_fit passes the memory need). */
void profiles_name(const double raw[FEAT_COUNT], int cpu, char *out, size_t n);

/* Mix of profiles per group: mix[g * k + p] = share of group g's labelled
 * users (labels[i] >= 0) in profile p. A group without labelled users
 * takes its domain's mix (domain[g], -1 none), else everyone's mix.
 * group[i] is row i's group (0..ngroups-1); domain has ngroups entries
 * (may be NULL). */
void profiles_mix(const int *labels, const int *group, int n, int ngroups, const int *domain,
                  int k, double *mix);

#endif
