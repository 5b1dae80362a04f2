#ifndef EDITFORM_H
#define EDITFORM_H
/* editform: the edit line of its own (issue 30 item 1). An edit (e or
 * Enter on an editable value) opens a small form at the bottom of the view,
 * over the table, never inside a table cell: what is edited and where, the
 * value before, the new value and the reason as typed (in full, wrapped),
 * what saving changes (need before -> after, computed from the typed value
 * without saving), what Enter does on base, and the line being typed. The
 * view fills a TuiEditForm from the state (TuiView.edit_form); this module
 * only lays it out. Pure: no curses, no database. */

#include "tui/app.h"
#include "tui/canvas.h"

typedef struct TuiEditForm {
    char field[200];   /* what is edited, and where ("pool, GPU-eq · lab-x · plan-2027") */
    char old[200];     /* the value before, with where it comes from */
    char now[200];     /* the value as typed, as it will be read ("" nothing typed yet) */
    char why[TUI_PROMPT_MAX + 64]; /* the reason as typed or kept ("" no reason asked) */
    char effect[200];  /* what saving changes ("" nothing to show) */
    char offer[200];   /* what Enter does instead of a plain save (base: a new scenario) */
    int bad;           /* now does not read as a value: Enter refuses */
} TuiEditForm;

/* The rows the form takes for f at width w (at most h): the caller keeps
 * them free of anything it must show. */
int editform_rows(const Canvas *c, const TuiEditForm *f, int w);

/* Draw f and the prompt's line (s->prompt) in the rows just above row
 * bottom (exclusive) of c, across its width, at most h rows. */
void editform_draw(const TuiState *s, const TuiEditForm *f, Canvas *c, int bottom, int h);

/* Fill f for s's open edit from the view's edit_form, or from the prompt's
 * label alone when the view has none. */
void editform_fill(const TuiState *s, TuiEditForm *f);

#endif
