#include "core/strmap.h"

#include <stdlib.h>
#include <string.h>

#include "core/cp.h"

typedef struct Slot {
    char *key; /* NULL = empty */
    size_t n;
    uint64_t hash;
    int64_t value;
} Slot;

struct StrMap {
    Slot *slots;
    size_t cap; /* power of two */
    size_t count;
};

/* Eight bytes at a time (the import hashes every record and every name it
 * meets): each word is mixed in by a multiply and a shift, the tail and the
 * length last, then a final avalanche (MurmurHash3's fmix64). */
static uint64_t mix_word(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
    return h ^ (h >> 29);
}

uint64_t strmap_hash(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    if (h == 0)
        h = 1469598103934665603ULL;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, sizeof w);
        h = mix_word(h, w);
    }
    uint64_t tail = 0;
    size_t r = n - i; /* 0 to 7 bytes left, as one little-endian word */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (r >= 4) { /* two 4-byte reads that may overlap: the same bytes in the same places */
        uint32_t a, b;
        memcpy(&a, s + i, 4);
        memcpy(&b, s + i + r - 4, 4);
        tail = a | (uint64_t)b << (8 * (r - 4));
    } else if (r > 0) {
        tail = s[i] | (uint64_t)s[i + r / 2] << (8 * (r / 2)) | (uint64_t)s[i + r - 1] << (8 * (r - 1));
    }
#else
    for (size_t k = 0; k < r; k++)
        tail |= (uint64_t)s[i + k] << (8 * k);
#endif
    h = mix_word(h, tail ^ ((uint64_t)n << 56));
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

StrMap *strmap_new(void)
{
    StrMap *m = xcalloc(1, sizeof *m);
    m->cap = 64;
    m->slots = xcalloc(m->cap, sizeof *m->slots);
    return m;
}

void strmap_clear(StrMap *m)
{
    for (size_t i = 0; i < m->cap; i++) {
        free(m->slots[i].key);
        m->slots[i].key = NULL;
    }
    m->count = 0;
}

void strmap_free(StrMap *m)
{
    if (!m)
        return;
    strmap_clear(m);
    free(m->slots);
    free(m);
}

static Slot *find(const StrMap *m, const char *key, size_t n, uint64_t h)
{
    size_t i = (size_t)h & (m->cap - 1);
    for (;;) {
        Slot *s = &m->slots[i];
        if (!s->key || (s->hash == h && s->n == n && memcmp(s->key, key, n) == 0))
            return s;
        i = (i + 1) & (m->cap - 1);
    }
}

static void grow(StrMap *m)
{
    Slot *old = m->slots;
    size_t oldcap = m->cap;
    m->cap *= 2;
    m->slots = xcalloc(m->cap, sizeof *m->slots);
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].key)
            *find(m, old[i].key, old[i].n, old[i].hash) = old[i];
    free(old);
}

int strmap_get(const StrMap *m, const char *key, size_t n, int64_t *value)
{
    const Slot *s = find(m, key, n, strmap_hash(0, key, n));
    if (!s->key)
        return 0;
    *value = s->value;
    return 1;
}

void strmap_put(StrMap *m, const char *key, size_t n, int64_t value)
{
    if ((m->count + 1) * 4 > m->cap * 3)
        grow(m);
    uint64_t h = strmap_hash(0, key, n);
    Slot *s = find(m, key, n, h);
    if (!s->key) {
        s->key = xstrndup(key, n);
        s->n = n;
        s->hash = h;
        m->count++;
    }
    s->value = value;
}

/* Linear probing keeps no tombstones: the slots after the hole that may
 * move into it (their home is not between the hole and them) are shifted
 * back, so that every probe still meets its key before an empty slot. */
int strmap_del(StrMap *m, const char *key, size_t n)
{
    Slot *s = find(m, key, n, strmap_hash(0, key, n));
    if (!s->key)
        return 0;
    free(s->key);
    size_t mask = m->cap - 1, hole = (size_t)(s - m->slots);
    for (size_t j = (hole + 1) & mask; m->slots[j].key; j = (j + 1) & mask) {
        size_t home = (size_t)m->slots[j].hash & mask;
        if (((j - home) & mask) >= ((j - hole) & mask)) {
            m->slots[hole] = m->slots[j];
            hole = j;
        }
    }
    m->slots[hole].key = NULL;
    m->count--;
    return 1;
}

size_t strmap_count(const StrMap *m)
{
    return m->count;
}
