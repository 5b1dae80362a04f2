#ifndef HEAT_BG_H
#define HEAT_BG_H
/* heat_bg: the Usage view's heat map and requested against used, read
 * from the statistics' aggregates (store_tui_scan over whole months: no
 * scan of the jobs) by a worker thread of their own, started with the
 * first frame (issue 20 item 5). tui/usage_bg's worker computes them too,
 * then the energy and fair-share panel, a replay of every job (seconds at
 * ten million jobs): this worker lets the heat map show without waiting
 * for that replay or for the planner. Whichever finishes first fills the
 * model (tui_model_set_scan: the same figures); the other's copy is
 * dropped. CAPPLAN_TEST_USAGE_HOLD holds this worker as it holds
 * usage_bg's. */

#include "tui/app.h"

/* Start the read when s has a store, a model without its heat map and no
 * read running. Without a second connection (a database in memory) it
 * does nothing: tui/usage_bg computes the figures in place then. */
void heat_bg_start(TuiState *s);
/* When the read is done: its figures into s->model (if it has none yet),
 * TUI_REDRAW; 0 while it runs or when there is none. */
unsigned heat_bg_poll(TuiState *s);
/* Wait for the read (if any) and take its figures as heat_bg_poll does. */
unsigned heat_bg_wait(TuiState *s);
/* Stop the read and drop what it found. */
void heat_bg_stop(TuiState *s);

#endif
