#ifndef ANON_H
#define ANON_H
/* anon: pseudonyms for --anonymize and the dashboard's presentation mode.
 *
 * A name becomes its kind's prefix and six letters and digits taken from
 * HMAC-SHA-256(site key, kind NUL name) ("group-k3x9qa", "user-7bq2mz").
 * The site key is a secret kept in the database (site_meta "anon_key",
 * created once) or given with --anon-key FILE: the same name gives the same
 * pseudonym in every report of the site, and whoever lacks the key cannot
 * check a guessed name against a pseudonym (an unkeyed hash could be
 * reversed by hashing the name list). HMAC comes from OpenSSL's libcrypto
 * (see README, Safety). The aggregate row "all" is kept as it is.
 *
 * A scrubber (AnonScrub) replaces every known name (logins, groups,
 * professors, authors) inside free text (scenario names, event labels,
 * notes, reasons, profile names) by its pseudonym: a name matches as a
 * whole token (the characters around it are not letters, digits or '_'),
 * ASCII case ignored, the longest name first; names shorter than
 * ANON_MIN_NAME bytes are not looked for in free text. Pure: no I/O. */

#include <stddef.h>
#include <stdint.h>

#define ANON_KEY_BYTES 32
#define ANON_MIN_NAME 3

/* HMAC-SHA-256 of msg under key into out (32 bytes). */
void anon_hmac_sha256(const unsigned char *key, size_t keylen, const unsigned char *msg,
                      size_t msglen, unsigned char out[32]);

/* Set the site key used by anon_name (keylen >= 16; copied). */
void anon_set_key(const unsigned char *key, size_t keylen);
/* 1 once a key is set. */
int anon_has_key(void);

/* The pseudonym of name of this kind into buf (size n >= 24): prefix "-"
 * code. The key must be set. */
void anon_name(const char *prefix, const char *name, char *buf, size_t n);

/* name itself when on is 0 (or name is "all"), else its pseudonym in buf.
 * Returns buf or name (borrowed). */
const char *anon_maybe(int on, const char *prefix, const char *name, char *buf, size_t n);

typedef struct AnonScrub AnonScrub;

/* An empty scrubber. Caller frees with anon_scrub_free. */
AnonScrub *anon_scrub_new(void);
void anon_scrub_free(AnonScrub *a);
/* Replace name (and, for a name of several words, each word that starts
 * with a capital letter: a surname alone) by repl in free text. The first
 * replacement added for a name wins. Both copied. */
void anon_scrub_add(AnonScrub *a, const char *name, const char *repl);
/* Add name with its anon_name pseudonym of kind prefix as replacement. */
void anon_scrub_add_kind(AnonScrub *a, const char *prefix, const char *name);
/* Number of names known. */
size_t anon_scrub_count(const AnonScrub *a);

/* text with every known name replaced, as a new string (caller frees). */
char *anon_scrub_text(const AnonScrub *a, const char *text);
/* The same into buf (size n >= 1), cut at n - 1 bytes. Returns buf. */
char *anon_scrub_buf(const AnonScrub *a, const char *text, char *buf, size_t n);
/* The same over XML text (an SVG): names replaced in character data and
 * inside attribute values, never inside tag or attribute names. New
 * string, caller frees. */
char *anon_scrub_xml(const AnonScrub *a, const char *text);

/* The scrubber every text writer applies to what it writes (mdw_text,
 * svg_text, csvw_text, and rfile_commit over a whole file as a last pass),
 * or NULL (the default): set by report_new with anonymize, cleared by
 * report_free. Borrowed. One export at a time per process. */
void anon_scrub_activate(const AnonScrub *a);
const AnonScrub *anon_scrub_current(void);

#endif
