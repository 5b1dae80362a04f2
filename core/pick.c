/* pick: the members nearest their profile's centroid (core/pick.h). */
#include "core/pick.h"

#include <math.h>

double pick_distance(const double *a, const double *b, int d)
{
    double s = 0;
    for (int i = 0; i < d; i++)
        s += (a[i] - b[i]) * (a[i] - b[i]);
    return sqrt(s);
}

/* Insert c into best[0..*n) (at most max, nearest first; ties: smaller
 * row). */
static void keep_best(PickChoice *best, int *n, int max, PickChoice c)
{
    int at = *n;
    while (at > 0 && (best[at - 1].dist > c.dist ||
                      (best[at - 1].dist == c.dist && best[at - 1].row > c.row)))
        at--;
    if (at >= max)
        return;
    int last = *n < max ? *n : max - 1;
    for (int i = last; i > at; i--)
        best[i] = best[i - 1];
    best[at] = c;
    if (*n < max)
        (*n)++;
}

/* The per nearest rows of label lab into out; returns how many. */
static int pick_label(const double *z, int d, const int *labels, const double *centroid,
                      int lab, const int *rows, int nrows, int per, PickChoice *out)
{
    int n = 0, of = 0;
    for (int i = 0; i < nrows; i++) {
        int r = rows[i];
        if (labels[r] != lab)
            continue;
        of++;
        PickChoice c = {r, lab, 0, 0, pick_distance(z + (long)r * d, centroid, d)};
        keep_best(out, &n, per, c);
    }
    for (int i = 0; i < n; i++) {
        out[i].rank = i + 1;
        out[i].of = of;
    }
    return n;
}

int pick_nearest(const double *z, int d, const int *labels, const double *centroids, int k,
                 const int *rows, int nrows, int per_profile, PickChoice *out)
{
    int per = per_profile < 1 ? 1 : per_profile > PICK_MAX ? PICK_MAX : per_profile;
    int n = 0;
    for (int lab = 0; lab < k; lab++)
        n += pick_label(z, d, labels, centroids + (long)lab * d, lab, rows, nrows, per, out + n);
    return n;
}
