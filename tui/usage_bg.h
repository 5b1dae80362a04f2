#ifndef USAGE_BG_H
#define USAGE_BG_H
/* usage_bg: the Usage view's figures that come from the jobs themselves
 * (the hour-of-week heat map and requested against used, a scan of the
 * last 12 months of jobs; the energy and fair-share panel, through the
 * statistics loader) computed by a worker thread on a database connection
 * of its own, so that no key ever waits for them (issue 16).
 *
 * tui_run starts the worker once the planner is in (tui/plan_bg.h: on two
 * cores the two would only slow each other), the view itself when it is
 * shown first; until its result is taken the view says "computing
 * usage..." and every other view works. The loop polls (usage_bg_poll)
 * each time round and every USAGE_BG_POLL_MS while a worker runs, so the
 * result shows without a key. Stopping (quit, a reload) interrupts the worker's statement and
 * joins it: nothing of it outlives the state. The worker (tui/bg.h)
 * touches nothing but its own connection and its own result, which the
 * main thread reads only after the worker said it is done (an atomic flag,
 * then a join); the model is changed only by the main thread.
 *
 * A database without a file (in memory) cannot be opened twice: the
 * figures are then computed in place by usage_bg_start.
 *
 * For tests (tests/e2e/tui_usage_bg.sh): while the file named by
 * CAPPLAN_TEST_USAGE_HOLD exists, the worker waits before it starts, so
 * that a test can see the "computing" state for as long as it needs. */

#include "tui/app.h"

#define USAGE_BG_POLL_MS 50

/* Start computing s's Usage figures (nothing when s has no store, or they
 * are being computed or were taken). s->usage_state becomes
 * TUI_USAGE_COMPUTING, or READY / FAILED when computed in place. */
void usage_bg_start(TuiState *s);

/* When the worker is done: join it, put its figures into s->model and
 * s->policy (or its error on the status line) and return TUI_REDRAW;
 * 0 while it runs or when there is none. */
unsigned usage_bg_poll(TuiState *s);

/* Block until the worker is done and take its figures (usage_bg_poll);
 * for the headless mode's last frame. */
void usage_bg_wait(TuiState *s);

/* Stop the worker (interrupt its statement, join it, drop its figures);
 * s->usage_state back to TUI_USAGE_NONE when it was computing. */
void usage_bg_stop(TuiState *s);

#endif
