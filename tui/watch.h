#ifndef TUI_WATCH_H
#define TUI_WATCH_H
/* watch: the dashboard is never stale (issue 30 item 3). Every
 * TUI_WATCH_MS the loop asks whether another process committed (PRAGMA
 * data_version, data/store/store_tui_watch.h); when what the views show
 * changed, it reloads the part that did (the scenario's parameters alone,
 * or the whole model) and says so on the status line: "plan-2027 changed
 * by root at 21:41 UTC: pool of lab-x 30 -> 40". This session's own
 * writes are marked as seen (tui_watch_mark), so they are never announced.
 * A reload that would move rows under an open edit of the Group or
 * Profiles view waits until the edit is closed. */

#include "tui/app.h"

#define TUI_WATCH_MS 400

/* Remember the database as it is now (at start, after a reload, after
 * this session's own writes). */
void tui_watch_mark(TuiState *s);

/* Check when TUI_WATCH_MS passed since the last check (force: now); on
 * another process's change, reload and set the status. TUI_* flags. */
unsigned tui_watch_check(TuiState *s, int force);

/* Before a save computes its "before" figures: the database's state now. */
void tui_sync(TuiState *s);

#endif
