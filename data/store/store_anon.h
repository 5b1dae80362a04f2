#ifndef STORE_ANON_H
#define STORE_ANON_H
/* store_anon: what anonymisation needs from the database: the site's
 * secret key (site_meta "anon_key", schema v10, created once from the
 * system's random source) and every name a person could be recognised by
 * (logins, groups and accounts, professors, supervisors, authors, editors,
 * meeting attendees), for reports/anon's scrubber. */

#include <stddef.h>

#include "core/cp.h"

typedef struct Store Store;

#define STORE_ANON_KEY_BYTES 32

/* The site key into key (STORE_ANON_KEY_BYTES). When the database has none
 * and create is 1, one is made and stored (needs write access). Returns
 * 0, or -1 with err (no key and create 0, or a read-only database). */
int store_anon_key(Store *st, int create, unsigned char *key, CpErr *err);

/* Read a key file (--anon-key FILE): its bytes (16 to 4096, a trailing
 * newline dropped) into key (size cap), length in *len. 0 or -1 with err. */
int store_anon_key_file(const char *path, unsigned char *key, size_t cap, size_t *len,
                        CpErr *err);

/* Call add(ctx, kind, name) for every name in the database: kind "user"
 * (logins, roster users, supervisors, editors, attendees), "group" (groups
 * and Slurm accounts), "prof" (professors), "person" (authors). Names may
 * repeat. 0, or -1 with err. */
int store_anon_names(Store *st, void (*add)(void *ctx, const char *kind, const char *name),
                     void *ctx, CpErr *err);

#endif
