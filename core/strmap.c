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

uint64_t strmap_hash(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    if (h == 0)
        h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 1099511628211ULL;
    }
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

size_t strmap_count(const StrMap *m)
{
    return m->count;
}
