/* radix: see radix.h. */
#include "core/radix.h"

#include <stdlib.h>
#include <string.h>

#include "core/cp.h"

#define DIGIT_BITS 11
#define NBUCKETS (1u << DIGIT_BITS)

/* One record being sorted: the key made unsigned from the least, and its
 * index. */
typedef struct Rec {
    uint64_t key;
    size_t idx;
} Rec;

/* One stable pass of from into to by the key's digit at shift. */
static void radix_pass(const Rec *from, Rec *to, size_t n, int shift)
{
    size_t *count = xcalloc(NBUCKETS + 1, sizeof *count);
    for (size_t i = 0; i < n; i++)
        count[((from[i].key >> shift) & (NBUCKETS - 1)) + 1]++;
    for (size_t b = 1; b <= NBUCKETS; b++)
        count[b] += count[b - 1];
    for (size_t i = 0; i < n; i++)
        to[count[(from[i].key >> shift) & (NBUCKETS - 1)]++] = from[i];
    free(count);
}

size_t *radix_order(const int64_t *key, size_t n)
{
    Rec *a = xmalloc((n + 1) * sizeof *a), *b = xmalloc((n + 1) * sizeof *b);
    int64_t min = INT64_MAX;
    uint64_t max = 0;
    for (size_t i = 0; i < n; i++)
        min = key[i] < min ? key[i] : min;
    for (size_t i = 0; i < n; i++) {
        a[i] = (Rec){(uint64_t)key[i] - (uint64_t)min, i};
        max = a[i].key > max ? a[i].key : max;
    }
    for (int shift = 0; shift < 64 && (max >> shift) != 0; shift += DIGIT_BITS) {
        radix_pass(a, b, n, shift);
        Rec *t = a;
        a = b;
        b = t;
    }
    size_t *order = xmalloc((n + 1) * sizeof *order);
    for (size_t i = 0; i < n; i++)
        order[i] = a[i].idx;
    free(a);
    free(b);
    return order;
}
