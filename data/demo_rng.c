/* demo_rng: the demo's own PRNG (xoshiro256** by Blackman and Vigna,
 * seeded through splitmix64) and the few distributions the generator
 * draws from. Same seed, same numbers, on every run; rand() is never used. */
#include <math.h>

#include "data/demo_model.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void demo_rng_seed(DemoRng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ULL);
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t demo_rng_next(DemoRng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

double demo_rng_unif(DemoRng *r)
{
    return (double)(demo_rng_next(r) >> 11) * 0x1.0p-53;
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
