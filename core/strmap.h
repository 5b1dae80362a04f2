#ifndef STRMAP_H
#define STRMAP_H
/* strmap: a string -> int64 hash map (open addressing, FNV-1a), used to
 * dictionary-code repeated names (users, accounts, partitions) during a
 * bulk load. Keys are copied; the map owns them. Pure: no I/O. */

#include <stddef.h>
#include <stdint.h>

typedef struct StrMap StrMap;

/* Caller frees with strmap_free. */
StrMap *strmap_new(void);
void strmap_free(StrMap *m);

/* 1 and *value set if key (n bytes) is present, else 0. */
int strmap_get(const StrMap *m, const char *key, size_t n, int64_t *value);
/* Insert or overwrite. */
void strmap_put(StrMap *m, const char *key, size_t n, int64_t value);
/* Remove key (n bytes) and free its copy: 1 if it was present, else 0.
 * The table keeps its size (a map whose keys come and go stays as large
 * as the most keys it held at once). */
int strmap_del(StrMap *m, const char *key, size_t n);
size_t strmap_count(const StrMap *m);
void strmap_clear(StrMap *m);

/* A 64-bit hash of a byte slice, chained from h (start with 0): eight bytes
 * at a time, avalanched (not for security). */
uint64_t strmap_hash(uint64_t h, const void *p, size_t n);

#endif
