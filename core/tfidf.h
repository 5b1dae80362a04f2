#ifndef TFIDF_H
#define TFIDF_H
/* tfidf: term counts to TF-IDF weights, as scikit-learn's
 * TfidfTransformer(norm='l2', smooth_idf=True, sublinear_tf=False):
 * idf(t) = ln((1 + n) / (1 + df(t))) + 1, each row tf x idf scaled to unit
 * Euclidean length (a row of zeros stays zero). Pure computation. */

/* tf: n rows of d counts (row-major, borrowed); out: n x d weights
 * (caller-owned, may be tf itself); idf: d values (caller-owned, may be
 * NULL). */
void tfidf_transform(const double *tf, int n, int d, double *out, double *idf);

#endif
