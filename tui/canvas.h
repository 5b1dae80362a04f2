#ifndef CANVAS_H
#define CANVAS_H
/* canvas: the grid of cells every view renders into, and the widgets drawn
 * on it (text, right-aligned numbers, sparklines, bars, shades). A cell is
 * one Unicode code point and an attribute; term.c is the only module that
 * turns cells into terminal output, and the unit tests read the same cells
 * as text, row by row, without a terminal.
 *
 * Every string written through canvas_text* is sanitised here, the one
 * door from data to screen (core/utf8 decodes and measures it): malformed UTF-8, C0/C1 control characters, DEL,
 * ESC and bidirectional overrides become '?', zero-width marks are dropped,
 * and wide (East Asian) characters take two cells. In ASCII mode (a locale
 * that is not UTF-8) every code point above 127 is replaced by an ASCII
 * look-alike (block characters by density, box lines by - and |, others
 * by '?').
 *
 * Attributes are meanings (CanvasRole) plus three style bits; term.c picks
 * the colours, or none with NO_COLOR. No I/O, no curses. */

#include <stddef.h>
#include <stdint.h>

/* What a cell means; term.c maps each role to a colour pair. */
typedef enum CanvasRole {
    CV_NORMAL = 0,
    CV_TITLE,     /* the top line */
    CV_TAB,       /* an inactive view tab */
    CV_TAB_ON,    /* the current view's tab */
    CV_HEAD,      /* a table header */
    CV_SELECTED,  /* the selected row */
    CV_CURSOR,    /* the cell under the cursor in the selected row / header */
    CV_FKEY,      /* a key in the function bar */
    CV_FLABEL,    /* its label */
    CV_STATUS,    /* the status line */
    CV_GOOD,
    CV_WARN,
    CV_BAD,
    CV_DIM,
    CV_EDITED,    /* a value edited against its measured one */
    CV_ACCENT,    /* sparklines, bars, emphasis */
    CV_EVENT,     /* an event marker */
    CV_ROLE_COUNT
} CanvasRole;

#define CV_ROLE_MASK 0x00ffu
#define CV_BOLD 0x0100u
#define CV_REVERSE 0x0200u
#define CV_UNDERLINE 0x0400u

/* ch == 0 marks the right half of the wide character on its left. */
typedef struct CanvasCell {
    uint32_t ch;
    uint16_t attr;
} CanvasCell;

typedef struct Canvas {
    int w, h;
    int ascii;          /* 1: ASCII look-alikes for every code point above 127 */
    CanvasCell *cells;  /* w x h, row-major */
    /* NULL, or applied to every string canvas_text* draws (presentation
     * mode's name scrubber, tui/redact): returns str or buf (size n)
     * holding what to draw instead. */
    const char *(*filter)(const void *ctx, const char *str, char *buf, size_t n);
    const void *filter_ctx;
} Canvas;

/* A w x h canvas of blanks (w, h >= 1). Caller frees with canvas_free. */
Canvas *canvas_new(int w, int h);
void canvas_free(Canvas *c);
/* New size; content becomes blank. */
void canvas_resize(Canvas *c, int w, int h);
/* Every cell blank with attribute CV_NORMAL. */
void canvas_clear(Canvas *c);
/* The cell at (x, y); NULL outside the grid. */
const CanvasCell *canvas_at(const Canvas *c, int x, int y);

/* ASCII look-alike of cp (cp itself when below 128). */
uint32_t canvas_ascii_of(uint32_t cp);
/* Columns s takes once sanitised, in the canvas' mode. */
int canvas_width(const Canvas *c, const char *s);

/* Write s at (x, y), at most maxw columns, clipped to the grid; text wider
 * than maxw ends with an ellipsis. Returns the columns written. */
int canvas_text(Canvas *c, int x, int y, int maxw, uint16_t attr, const char *s);
/* The same, right-aligned in a field of w columns (blank-padded). */
int canvas_text_right(Canvas *c, int x, int y, int w, uint16_t attr, const char *s);
/* printf into a 512-byte buffer, then canvas_text. */
int canvas_textf(Canvas *c, int x, int y, int maxw, uint16_t attr, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* w cells of code point cp (a narrow one) from (x, y). */
void canvas_fill(Canvas *c, int x, int y, int w, uint32_t cp, uint16_t attr);
/* Set the attribute of w cells, keeping their characters. */
void canvas_paint(Canvas *c, int x, int y, int w, uint16_t attr);

/* Sparkline of v[0..n) in w columns (▁..█), scaled from 0 to the maximum
 * (max_hint when > 0). When n > w, columns show the mean of n/w values;
 * values below 0 are unknown and left blank. */
void canvas_spark(Canvas *c, int x, int y, int w, const double *v, int n, double max_hint,
                  uint16_t attr);
/* A horizontal bar: frac (0..1, clipped) of w columns, in eighths. */
void canvas_bar(Canvas *c, int x, int y, int w, double frac, uint16_t attr);
/* A shade for frac 0..1: ' ', ░, ▒, ▓, █. */
uint32_t canvas_shade(double frac);

/* Row y as UTF-8 without trailing blanks, into buf (n bytes). Returns buf. */
char *canvas_row(const Canvas *c, int y, char *buf, size_t n);

#endif
