#ifndef RADIX_H
#define RADIX_H
/* radix: a stable order of many records by a 64-bit key in linear time
 * (an LSD radix sort), for the replays that walk jobs in start order.
 * Pure computation. */

#include <stddef.h>
#include <stdint.h>

/* The indices 0..n-1 sorted by key[i], equal keys in index order (what a
 * stable sort by key gives). Returns n + 1 slots; caller frees. */
size_t *radix_order(const int64_t *key, size_t n);

#endif
