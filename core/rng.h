#ifndef RNG_H
#define RNG_H
/* rng: xoshiro256** (Blackman and Vigna), seeded through splitmix64: the
 * one pseudo-random generator of capplan (k-means seeding, the demo
 * institute). The same seed gives the same numbers on every machine;
 * rand() is never used. Pure computation on a caller-owned state. */

#include <stdint.h>

/* Fill the four state words from seed (splitmix64 over it). */
void rng_seed(uint64_t s[4], uint64_t seed);
/* The next 64 random bits; advances s. */
uint64_t rng_next(uint64_t s[4]);
/* A double uniform in [0, 1) from the next 53 bits. */
double rng_unit(uint64_t s[4]);

#endif
