/* radix: see radix.h. */
#include "core/radix.h"

#include <stdlib.h>
#include <string.h>

#include "core/cp.h"

#define DIGIT_BITS 11
#define NBUCKETS ((size_t)1 << DIGIT_BITS)

/* One record being sorted: the key made unsigned from the least, and its
 * index (when both fit one word, see pack_order). */
typedef struct Rec {
    uint64_t key;
    size_t idx;
} Rec;

/* One stable pass of from into to by the key's digit at shift. */
static void rec_pass(const Rec *from, Rec *to, size_t n, int shift)
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

/* The same over words, by their bits [shift, shift + DIGIT_BITS). */
static void word_pass(const uint64_t *from, uint64_t *to, size_t n, int shift)
{
    size_t *count = xcalloc(NBUCKETS + 1, sizeof *count);
    for (size_t i = 0; i < n; i++)
        count[((from[i] >> shift) & (NBUCKETS - 1)) + 1]++;
    for (size_t b = 1; b <= NBUCKETS; b++)
        count[b] += count[b - 1];
    for (size_t i = 0; i < n; i++)
        to[count[(from[i] >> shift) & (NBUCKETS - 1)]++] = from[i];
    free(count);
}

static int bits_of(uint64_t v)
{
    int b = 0;
    for (; v; v >>= 1)
        b++;
    return b;
}

/* When key - min (< 2^kbits) and the index (< 2^ibits) fit one word
 * together: sort (key - min) << ibits | index by the key's bits. */
static void pack_order(const int64_t *key, size_t n, int64_t min, int ibits, int kbits,
                       size_t *order)
{
    uint64_t *a = xmalloc((n + 1) * sizeof *a), *b = xmalloc((n + 1) * sizeof *b);
    for (size_t i = 0; i < n; i++)
        a[i] = ((uint64_t)key[i] - (uint64_t)min) << ibits | (uint64_t)i;
    for (int shift = ibits; shift < ibits + kbits; shift += DIGIT_BITS) {
        word_pass(a, b, n, shift);
        uint64_t *t = a;
        a = b;
        b = t;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = (size_t)(a[i] & (((uint64_t)1 << ibits) - 1));
    free(a);
    free(b);
}

/* Any keys: records of key and index. */
static void rec_order(const int64_t *key, size_t n, int64_t min, int kbits, size_t *order)
{
    Rec *a = xmalloc((n + 1) * sizeof *a), *b = xmalloc((n + 1) * sizeof *b);
    for (size_t i = 0; i < n; i++)
        a[i] = (Rec){(uint64_t)key[i] - (uint64_t)min, i};
    for (int shift = 0; shift < kbits; shift += DIGIT_BITS) {
        rec_pass(a, b, n, shift);
        Rec *t = a;
        a = b;
        b = t;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = a[i].idx;
    free(a);
    free(b);
}

size_t *radix_order(const int64_t *key, size_t n)
{
    int64_t min = INT64_MAX;
    uint64_t max = 0;
    for (size_t i = 0; i < n; i++)
        min = key[i] < min ? key[i] : min;
    for (size_t i = 0; i < n; i++)
        max = (uint64_t)key[i] - (uint64_t)min > max ? (uint64_t)key[i] - (uint64_t)min : max;
    size_t *order = xmalloc((n + 1) * sizeof *order);
    int ibits = bits_of(n), kbits = bits_of(max);
    if (ibits < 64 && ibits + kbits <= 64)
        pack_order(key, n, min, ibits, kbits, order);
    else
        rec_order(key, n, min, kbits, order);
    return order;
}
