#include "core/tfidf.h"

#include <math.h>
#include <stdlib.h>

#include "core/cp.h"

void tfidf_transform(const double *tf, int n, int d, double *out, double *idf)
{
    double *w = xmalloc((size_t)(d > 0 ? d : 1) * sizeof *w);
    for (int j = 0; j < d; j++) {
        int df = 0;
        for (int i = 0; i < n; i++)
            df += tf[(size_t)i * (size_t)d + (size_t)j] > 0;
        w[j] = log((1.0 + n) / (1.0 + df)) + 1.0;
        if (idf)
            idf[j] = w[j];
    }
    for (int i = 0; i < n; i++) {
        const double *row = tf + (size_t)i * (size_t)d;
        double *o = out + (size_t)i * (size_t)d, ss = 0;
        for (int j = 0; j < d; j++) {
            o[j] = row[j] * w[j];
            ss += o[j] * o[j];
        }
        double norm = sqrt(ss);
        if (norm > 0)
            for (int j = 0; j < d; j++)
                o[j] /= norm;
    }
    free(w);
}
