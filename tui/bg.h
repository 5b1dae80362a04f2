#ifndef TUI_BG_H
#define TUI_BG_H
/* bg: one read of the database in a worker thread, so that no key waits
 * for a scan of the jobs (issue 16). The worker gets a connection of its
 * own (SQLite connections are never shared between threads here), opened
 * by the calling thread before the worker starts and closed by it after
 * the join, so that tui_bg_stop may interrupt the worker's statement
 * while it runs. The worker writes only into its task's own memory (arg),
 * which the calling thread may read once tui_bg_done said so (an atomic
 * flag, then a join). No curses, no model: the callers (tui/usage_bg.c,
 * the Group view's member jobs) put the result into the state. */

#include "tui/app.h"

typedef struct TuiBg TuiBg;

/* What the worker runs: read db (the worker's connection) into arg.
 * cancelled(bg) says whether the caller asked it to stop (it should then
 * return soon; its statement is interrupted as well). */
typedef void (*TuiBgFn)(Store *db, void *arg, const TuiBg *bg);

/* Run fn(db, arg) in a thread over a second connection to st. NULL when
 * none could start (a database in memory has no file to open twice, or
 * no thread): the caller then runs fn itself over st. arg is borrowed
 * until tui_bg_join or tui_bg_stop returns. */
TuiBg *tui_bg_start(Store *st, TuiBgFn fn, void *arg);
/* 1 once fn has returned (tui_bg_join will not wait). */
int tui_bg_done(const TuiBg *b);
/* 1 once tui_bg_stop asked the worker to stop. */
int tui_bg_cancelled(const TuiBg *b);
/* Wait for fn to return, join, close the connection, free b. Returns
 * when fn returned (tui_now_ms). */
int64_t tui_bg_join(TuiBg *b);
/* Ask fn to stop, interrupting its statement until it returns, then as
 * tui_bg_join. */
void tui_bg_stop(TuiBg *b);

#endif
