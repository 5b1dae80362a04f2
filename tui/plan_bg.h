#ifndef PLAN_BG_H
#define PLAN_BG_H
/* plan_bg: the planner read by a worker thread (tui/bg.h) once the first
 * frame is up: the profiles and the projection from the jobs (plan_build,
 * seconds at a million jobs) and who does what research beside them, on
 * the worker's own connection; the rest (the scenario's parameters, the
 * model's demand figures) in the main thread when the worker is done, a
 * few milliseconds. Meanwhile every view shows what the model has, the
 * title says "reading the planner…", and the planner's keys (an edit, a
 * scenario switch, a new scenario) say it is still being read (issue 16:
 * keys never wait for a scan). */

#include "tui/app.h"

/* Start reading the planner when s->plan_pending (nothing otherwise; with
 * no second connection it is read here and s->plan_pending is 0 after). */
void plan_bg_start(TuiState *s);
/* When the worker is done: the planner into s (s->plan, s->research,
 * plan_pending 0, an error on the status line); TUI_RECALC | TUI_REDRAW.
 * 0 while it runs or when there is none. */
unsigned plan_bg_poll(TuiState *s);
/* Wait for the worker and take its result as plan_bg_poll does. */
unsigned plan_bg_wait(TuiState *s);
/* Stop the worker; s->plan_pending stays as it is. */
void plan_bg_stop(TuiState *s);

#endif
