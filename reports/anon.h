#ifndef ANON_H
#define ANON_H
/* anon: stable pseudonyms for --anonymize. A name becomes its kind's
 * prefix and six letters and digits taken from a 64-bit FNV-1a hash of the
 * name ("group-k3x9qa", "user-7bq2mz"): the same name gives the same
 * pseudonym in every report and CSV, of any database, so that exports can
 * be compared; different names collide with a chance of about n^2 / 2^31.
 * A hash is not encryption: whoever can guess a name can check it. The
 * aggregate row "all" is kept as it is. Pure. */

#include <stddef.h>

/* The pseudonym of name into buf (size n >= 24): prefix "-" code. */
void anon_name(const char *prefix, const char *name, char *buf, size_t n);

/* name itself when on is 0 (or name is "all"), else its pseudonym in buf.
 * Returns buf or name (borrowed). */
const char *anon_maybe(int on, const char *prefix, const char *name, char *buf, size_t n);

#endif
