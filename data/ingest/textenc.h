#ifndef TEXTENC_H
#define TEXTENC_H
/* textenc: text encodings of the files sites export. capplan stores and
 * prints UTF-8 only: a reader checks every text value with textenc_utf8_bad
 * and refuses a line that is not UTF-8, naming it; a file known to be in
 * Latin-1 (ISO 8859-1) or Windows-1252 is read through textenc_open, which
 * converts it to UTF-8 as it streams (import --encoding latin1|cp1252).
 * No allocation beyond the stream's own state; no SQLite, no curses. */

#include <stddef.h>
#include <stdio.h>

#include "core/cp.h"

typedef enum TextEnc { TEXTENC_UTF8 = 0, TEXTENC_LATIN1, TEXTENC_CP1252 } TextEnc;

/* "utf-8"/"utf8", "latin1"/"latin-1"/"iso-8859-1", "cp1252"/"windows-1252"
 * (case-insensitive) into *out. -1 with err filled for any other name. */
int textenc_parse(const char *name, TextEnc *out, CpErr *err);

/* Offset of the first byte of s[0..n) that does not belong to well-formed
 * UTF-8 (overlong forms, surrogates and code points above U+10FFFF
 * included), or n when all of it is UTF-8. A NUL byte counts as bad: no
 * text value holds one. */
size_t textenc_utf8_bad(const char *s, size_t n);

/* Fill err with "not UTF-8 (byte 0xE9 at column 7): if the file is Latin-1 or
 * Windows-1252, give --encoding latin1|cp1252", or "NUL byte at column 7",
 * for the bad byte s[off] (column 1-based). Returns -1. */
int textenc_bad_reason(const char *s, size_t off, CpErr *err);

/* A stream that yields f converted from enc to UTF-8 (for TEXTENC_UTF8 the
 * bytes pass unchanged). The caller closes it with fclose, which does not
 * close f. NULL on error (errno set). */
FILE *textenc_open(FILE *f, TextEnc enc);

#endif
