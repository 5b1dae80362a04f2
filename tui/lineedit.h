#ifndef LINEEDIT_H
#define LINEEDIT_H
/* lineedit: the text of an open prompt, edited with readline habits. A
 * prompt opens with its old value selected: a typed character replaces
 * it, Backspace, Delete, C-w and C-u clear it, Left and Home put the
 * cursor before it, Right and End after it. Then Left/Right move by a
 * character, Home/End to the ends, Backspace/Delete remove the character
 * before/under the cursor, C-w the word before it, C-u everything before
 * it. Text is UTF-8; the cursor (TuiPrompt.at, a byte offset) always sits
 * on a character boundary. Pure: no curses, no database. */

#include <stdint.h>

#include "tui/app.h"
#include "tui/canvas.h"

/* Set p's text (cut to fit at a character boundary), selected when not
 * empty, the cursor at its end. */
void lineedit_set(TuiPrompt *p, const char *text);

/* Apply key to p. Returns 1 when the text changed, 0 when only the cursor
 * or the selection moved, -1 when the key is not an editing key. */
int lineedit_key(TuiPrompt *p, int key);

/* Draw p's text in w columns at (x, y) with attr: the selection shown
 * reversed, the cursor as a reversed cell, scrolled so that the cursor is
 * in view. Returns the columns used. */
int lineedit_draw(const TuiPrompt *p, Canvas *c, int x, int y, int w, uint16_t attr);

#endif
