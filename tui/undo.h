#ifndef TUI_UNDO_H
#define TUI_UNDO_H
/* undo: u takes back and C-r makes again the edits of this dashboard
 * session only (stated needs, notes, meetings, scenario parameters), the
 * last first, each message naming what it undid or redid. An edit made
 * since by another process (capplan scenario set, another dashboard) on
 * the same parameter is never reverted: u says who made it and when, and
 * leaves it (data/store/store_undo.h). Nothing stored before the session is
 * ever undone. A new edit clears what could be redone. */

#include "tui/app.h"

/* Remember an accepted edit (takes ownership of u's strings). */
void tui_undo_push(TuiState *s, const TuiUndo *u);
/* u, C-r: the action (TUI_* flags, a status message either way). */
unsigned tui_undo(TuiState *s);
unsigned tui_redo(TuiState *s);
/* Free both lists (tui_state_done). */
void tui_undo_free(TuiState *s);

#endif
