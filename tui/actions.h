#ifndef ACTIONS_H
#define ACTIONS_H
/* actions: the key table (nnn's bindings[], htop's Action_setBindings):
 * each key maps to a small action function on TuiState returning TUI_*
 * flags; a prompt (filter, export, note, in-place edit) takes the keys
 * while it is open, the help overlay when it is shown. Actions never draw
 * and never call curses; the edits they accept are written to the
 * database before they return. */

#include "tui/app.h"

/* Run the action bound to key; 0 when the key is not bound here. */
unsigned actions_key(TuiState *s, int key);
/* Keys while s->prompt is open. */
unsigned actions_prompt_key(TuiState *s, int key);
/* Keys while the help overlay is shown. */
unsigned actions_help_key(TuiState *s, int key);

/* Switch to view v, remembering the current one for Esc. */
unsigned actions_goto(TuiState *s, TuiViewId v);
/* Open the Group view on group g (model index). */
unsigned actions_open_group(TuiState *s, int g);
/* Open a prompt of kind with label and initial text. */
void actions_prompt_open(TuiState *s, TuiPromptKind kind, const char *label, const char *text);
/* Remember an accepted edit for u (takes ownership of u->text). */
void actions_push_undo(TuiState *s, const TuiUndo *u);

#endif
