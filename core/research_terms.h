#ifndef RESEARCH_TERMS_H
#define RESEARCH_TERMS_H
/* research_terms: the dictionary of research terms (domains, model
 * families, datasets, methods) that papers' titles, keywords and abstracts
 * are read for. The built-in dictionary is data/terms.txt, compiled in; a
 * site file in the same format adds terms or synonyms. Format: one term a
 * line, `category | label | synonym, synonym`, '#' starts a comment line.
 * Matching is on whole words after folding (lower case, accents to ASCII,
 * punctuation as space), a final plural 's' ignored on words of 4 letters
 * or more.
 *
 * Pure computation: the caller reads any file. */

#include <stddef.h>

#include "core/cp.h"

/* data/terms.txt as compiled in, one string a line, NULL-terminated. */
extern const char *const research_terms_builtin[];

typedef struct Terms Terms;

/* An empty dictionary; caller frees with terms_free (NULL allowed). */
Terms *terms_new(void);
void terms_free(Terms *t);

/* Add the terms of a dictionary text; name is how messages call it. A
 * label already present takes the new synonyms. Returns 0, or -1 with err
 * "name:line: reason" (the lines before it are kept). */
int terms_load(Terms *t, const char *text, const char *name, CpErr *err);

/* Add the built-in dictionary (data/terms.txt). */
void terms_load_builtin(Terms *t);

/* Terms in the dictionary (labels, distinct). */
size_t terms_count(const Terms *t);
/* Label and category of term i (borrowed until terms_free). */
const char *terms_label(const Terms *t, size_t i);
const char *terms_category(const Terms *t, size_t i);

/* Mark in hits (terms_count entries, caller-owned, not cleared) every term
 * that text (UTF-8, NULL allowed) names; returns how many were new. */
int terms_scan(const Terms *t, const char *text, unsigned char *hits);

#endif
