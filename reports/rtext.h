#ifndef RTEXT_H
#define RTEXT_H
/* rtext: text from data made safe for a report: control characters (C0,
 * DEL, C1) and bytes that are not UTF-8 become '?', valid UTF-8 is kept.
 * Shared by the Markdown, CSV and SVG writers, which add their own
 * escaping on top. Pure: writes only to the FILE* or buffer given. */

#include <stddef.h>
#include <stdio.h>

/* Length of the valid, printable UTF-8 sequence at s (1..4), or 0 when the
 * byte at s is a control character or does not start a valid sequence. */
size_t rtext_char(const char *s);

/* Write s to out made safe as above: each valid character (len bytes at c)
 * through put, which adds the writer's escaping; '?' for any other byte. */
void rtext_put(FILE *out, const char *s, void (*put)(FILE *out, const char *c, size_t len));

/* Copy s into dst (size n, n >= 1), made safe as above, cut at a
 * character boundary when too long. */
void rtext_clean(char *dst, size_t n, const char *s);

#endif
