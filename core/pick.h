#ifndef PICK_H
#define PICK_H
/* pick: whom to ask in a group's meeting. Among a set of candidate rows
 * (a group's students with enough history), for each compute profile
 * present, the per_profile rows nearest their profile's centroid in the
 * standardised feature space (plain Euclidean distance): the most typical
 * members of each kind of use, who can speak for the others.
 *
 * Pure computation over caller-owned arrays: no I/O, no SQLite, no curses.
 * Deterministic: ties in distance go to the smaller row index. */

#define PICK_DEFAULT 2
#define PICK_MAX 3

/* One chosen row. */
typedef struct PickChoice {
    int row;      /* row of z (as given in rows[]) */
    int label;    /* its profile, 0..k-1 */
    int rank;     /* 1 = nearest of its profile in this set */
    int of;       /* candidates of that profile in this set */
    double dist;  /* Euclidean distance to the centroid of its profile */
} PickChoice;

/* Euclidean distance between two d-vectors. */
double pick_distance(const double *a, const double *b, int d);

/* Choose among rows[0..nrows) (indices into z, n x d row-major, and into
 * labels; a row whose label is outside 0..k-1 is skipped) the per_profile
 * (clamped to 1..PICK_MAX) rows nearest centroids[label] (k x d) for each
 * label present. out must have room for k x PICK_MAX choices; they are
 * written by label, then nearest first. Returns the number written. All
 * arrays are borrowed. */
int pick_nearest(const double *z, int d, const int *labels, const double *centroids, int k,
                 const int *rows, int nrows, int per_profile, PickChoice *out);

#endif
