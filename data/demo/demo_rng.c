/* demo_rng: the demo's own PRNG (xoshiro256** by Blackman and Vigna,
 * seeded through splitmix64) and the few distributions the generator
 * draws from. Same seed, same numbers, on every run; rand() is never used. */
#include <math.h>

#include "core/rng.h"
#include "data/demo/demo_model.h"

void demo_rng_seed(DemoRng *r, uint64_t seed, uint64_t stream)
{
    rng_seed(r->s, seed ^ (stream * 0xd1b54a32d192ed03ULL));
}

uint64_t demo_rng_next(DemoRng *r)
{
    return rng_next(r->s);
}

double demo_rng_unif(DemoRng *r)
{
    return rng_unit(r->s);
}

double demo_rng_range(DemoRng *r, double lo, double hi)
{
    return lo + (hi - lo) * demo_rng_unif(r);
}

int64_t demo_rng_below(DemoRng *r, int64_t n)
{
    return (int64_t)(demo_rng_unif(r) * (double)n);
}

int demo_rng_bern(DemoRng *r, double p)
{
    return demo_rng_unif(r) < p;
}

/* Box-Muller, one value per call (no cached twin: simpler streams). */
double demo_rng_normal(DemoRng *r)
{
    double u = 1.0 - demo_rng_unif(r); /* (0, 1] */
    double v = demo_rng_unif(r);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

double demo_rng_lognormal(DemoRng *r, double median, double sigma)
{
    return median * exp(sigma * demo_rng_normal(r));
}

/* Knuth's product method for small means, a rounded normal above 40. */
int demo_rng_poisson(DemoRng *r, double lambda)
{
    if (lambda <= 0)
        return 0;
    if (lambda > 40) {
        double x = lambda + sqrt(lambda) * demo_rng_normal(r) + 0.5;
        return x < 0 ? 0 : (int)x;
    }
    double limit = exp(-lambda), p = demo_rng_unif(r);
    int k = 0;
    while (p > limit) {
        p *= demo_rng_unif(r);
        k++;
    }
    return k;
}

int demo_rng_pick(DemoRng *r, const double *w, int n)
{
    double total = 0;
    for (int i = 0; i < n; i++)
        total += w[i];
    if (total <= 0)
        return -1;
    double x = demo_rng_unif(r) * total;
    for (int i = 0; i < n; i++) {
        if (x < w[i])
            return i;
        x -= w[i];
    }
    for (int i = n - 1; i >= 0; i--) /* rounding at the top end */
        if (w[i] > 0)
            return i;
    return -1;
}
