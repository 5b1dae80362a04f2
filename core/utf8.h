#ifndef UTF8_H
#define UTF8_H
/* utf8: decoding and encoding UTF-8, and the display width of text as the
 * terminal shows it once sanitised (one home for the dashboard's canvas,
 * tui/canvas, and the command line's text columns, cli/textcol): malformed
 * bytes decode to U+FFFD; C0/C1 controls, DEL, ESC,
 * bidirectional overrides and U+FFFD are shown as '?' (one column);
 * combining and zero-width marks take no column; East Asian wide
 * characters and emoji take two. Pure: no I/O, no allocation. */

#include <stdint.h>

#define UTF8_REPLACEMENT 0xfffdu

/* Decode one code point from *s and advance it. A bad lead or
 * continuation byte yields U+FFFD and advances one byte; a well-formed
 * sequence that is overlong, a surrogate or above U+10FFFF yields one
 * U+FFFD for the whole sequence. *s must not point at the terminating
 * NUL. */
uint32_t utf8_next(const char **s);

/* Append cp (at most U+10FFFF) as UTF-8 to buf (4 bytes room); returns
 * the bytes written. */
int utf8_put(uint32_t cp, char *buf);

/* The code point shown for cp: '?' for controls, escapes, bidi overrides
 * and U+FFFD; cp itself otherwise. */
uint32_t utf8_cp_clean(uint32_t cp);

/* Columns cp takes once sanitised: 0 (dropped), 1 or 2. */
int utf8_cp_width(uint32_t cp);

/* Columns s (NUL-terminated, NULL: none) takes once sanitised. */
int utf8_width(const char *s);

#endif
