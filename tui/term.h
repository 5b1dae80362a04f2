#ifndef TERM_H
#define TERM_H
/* term: the terminal, through ncursesw. The only module that includes
 * curses: it sets the locale (UTF-8 when the environment says so), starts
 * and ends curses, turns curses' keys and mouse clicks into tui/keys.h
 * codes, and paints a Canvas cell by cell (curses sends only the cells
 * that changed). Colours are chosen per CanvasRole, or left out when
 * NO_COLOR is set or the terminal has none. */

#include "core/cp.h"
#include "tui/app.h"

/* Start curses on the controlling terminal and fill io. *utf8 says
 * whether the locale is UTF-8 (else the canvas must use ASCII). -1 with
 * err when there is no usable terminal. Caller ends with term_close. */
int term_open(TuiIO *io, int *utf8, CpErr *err);
/* Give the terminal back as it was (idempotent). */
void term_close(void);

#endif
