#ifndef NAMES_H
#define NAMES_H
/* names: people's names as BibTeX and rosters write them, made comparable.
 * names_text turns LaTeX-marked text ({\"o}, \'{a}, \ss, braces, ~) into
 * plain UTF-8; names_key turns a name into the key two spellings of one
 * person share (accents folded to ASCII, lower case, "Last, First" and
 * "First Last" alike, hyphens and dots as spaces). A NamesIndex holds the
 * roster's names and aliases and matches an author to one person: the
 * whole name first, then given name + surname (middle initials and
 * particles left out), then first initial + last surname word when the
 * author's given name is initials ("I. Mensah-Foss", "van der Goot, R.");
 * a key two people share matches no one (names_index_candidates lists
 * them).
 *
 * Pure computation: no I/O. */

#include <stddef.h>

/* LaTeX-marked text as plain UTF-8: accent commands to precomposed
 * letters, \ss \o \l \aa \ae \oe \i to their letters, other commands
 * (\emph, \textbf) dropped with their argument's braces kept out, braces
 * and $ dropped, ~ and runs of white space as one space, trimmed. Caller
 * frees. */
char *names_text(const char *s);

/* The matching key of a name (LaTeX or UTF-8): names_text, then
 * "von Last, Jr, First" -> "First von Last", letters of U+00C0..U+024F
 * folded to ASCII (ø -> o, ß -> ss), lower case, every ASCII character
 * that is not a letter or digit a space, "jr"/"sr" tokens dropped, spaces
 * collapsed. Caller frees. */
char *names_key(const char *name);

/* UTF-8 text (no LaTeX) as lower-case ASCII words separated by single
 * spaces: letters of U+00C0..U+024F folded, every other ASCII character
 * that is not a letter or digit a space, other code points kept. Caller
 * frees. */
char *names_fold(const char *s);

typedef struct NamesIndex NamesIndex;

/* An empty index; caller frees with names_index_free (NULL allowed). */
NamesIndex *names_index_new(void);
void names_index_free(NamesIndex *ix);

/* Add a roster name (or alias) of person id (>= 0). A nickname in
 * parentheses ("Soh-Eun (Ryan) Shim") also counts as a given name. */
void names_index_add(NamesIndex *ix, const char *name, int id);

/* The person an author's name (as written) belongs to, or -1 (no one, or
 * several people share the key). */
int names_index_match(const NamesIndex *ix, const char *author);

/* Every person the author's name (as written) may be, by the same rules:
 * their count (0: no one; over 1: people who share the name), the first
 * cap of them into out in the order they were added. */
int names_index_candidates(const NamesIndex *ix, const char *author, int *out, int cap);

#endif
