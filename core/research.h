#ifndef RESEARCH_H
#define RESEARCH_H
/* research: who does what research, from their papers. Clusters people
 * by the TF-IDF of the research terms their papers name (k-means, k by
 * silhouette as the compute profiles), or by communities of the co-author
 * graph (label propagation); names each cluster from its top terms; and
 * compares the research clusters with the compute profiles: contingency
 * table, adjusted Rand index and normalised mutual information (as
 * scikit-learn's adjusted_rand_score and normalized_mutual_info_score with
 * the arithmetic mean), each research cluster's usual profile and the
 * people whose profile is not it.
 *
 * Pure computation over caller-owned arrays: no I/O, no SQLite. */

#include <stdint.h>

#define RESEARCH_TOP 3   /* terms that name a cluster */
#define RESEARCH_KMAX 8  /* k tried by silhouette: 2..RESEARCH_KMAX */

typedef struct ResearchClusters {
    int n, k;
    int *labels;        /* n: cluster of each person, -1 when left out */
    int *sizes;         /* k */
    int *top;           /* k x RESEARCH_TOP term indexes, -1 padding */
    double silhouette;  /* of the kept labelling (0 for communities) */
} ResearchClusters;

/* k-means on the rows of x (n x d, row-major, borrowed): rows of zeros
 * (no research term) are left out with label -1; k 0 chooses k over
 * 2..RESEARCH_KMAX by silhouette (fewer rows: fewer k; under 3 rows one
 * cluster). Deterministic for a seed. out is filled and owns its arrays:
 * research_clusters_done. */
void research_kmeans(const double *x, int n, int d, int k, uint64_t seed,
                     ResearchClusters *out);

/* Communities of the co-author graph by label propagation: ne weighted
 * edges (ea[i], eb[i], ew[i]) between n people; people with active[i] 0
 * get -1, an active person with no edge is a community alone. Visits
 * people in index order, takes the neighbours' label of highest weight
 * (ties: the smallest), until nothing changes (at most 100 rounds);
 * communities numbered by decreasing size. */
void research_coauthor(int n, const int *ea, const int *eb, const double *ew, int ne,
                       const unsigned char *active, ResearchClusters *out);

/* Fill out->top from the mean of x's rows in each cluster (n x d). */
void research_name(ResearchClusters *out, const double *x, int d);

/* Free c's arrays; c is zeroed. */
void research_clusters_done(ResearchClusters *c);

/* Agreement of two labellings of n items (labels >= 0): the adjusted
 * Rand index (1 when both are one cluster or all singletons, as sklearn),
 * and the normalised mutual information with the arithmetic mean (1 when
 * both are one cluster, 0 when the information is 0). */
double research_ari(const int *a, const int *b, int n);
double research_nmi(const int *a, const int *b, int n);

/* Research clusters beside compute profiles. */
typedef struct ResearchCompare {
    int kr, kp;           /* research clusters, compute profiles */
    int *table;           /* kr x kp: people in both */
    int *usual;           /* kr: the most common profile (-1: none) */
    double *usual_share;  /* kr: its share of the cluster's people with a profile */
    unsigned char *firm;  /* kr: 1 when >= 3 of them have a profile and >= half the usual one */
    int both;             /* people with a research cluster and a profile */
    double ari, nmi;      /* over those people */
    unsigned char *ask;   /* n: 1 when the person's profile is not their cluster's usual one */
} ResearchCompare;

/* research[i] in -1..kr-1 and profile[i] in -1..kp-1 for n people (-1:
 * none). A person is asked about when their cluster is firm and their
 * profile is not its usual one. out owns its arrays: research_compare_done. */
void research_compare(const int *research, const int *profile, int n, int kr, int kp,
                      ResearchCompare *out);
/* Free c's arrays; c is zeroed. */
void research_compare_done(ResearchCompare *c);

#endif
