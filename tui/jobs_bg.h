#ifndef JOBS_BG_H
#define JOBS_BG_H
/* jobs_bg: the Group view's member detail (a member's biggest jobs, which
 * store_tui_user_jobs finds with a scan of the jobs table: half a second
 * at a million jobs) read by a worker thread (tui/bg.h), so that Enter on
 * a member never holds the keys (issue 16). Until the jobs arrive the
 * detail says "reading the jobs..."; they replace s->jobs when they do,
 * if the member shown is still theirs. */

#include "tui/app.h"

/* Read member's jobs (model index) in the background, stopping a read
 * for another member. With no second connection (a database in memory)
 * they are read here and in s at once: returns 1 then, else 0. */
int jobs_bg_start(TuiState *s, int member, int limit);
/* The member whose jobs are being read, -1 none. */
int jobs_bg_member(const TuiState *s);
/* When the read is done: its jobs into s (s->jobs, s->njobs, s->jobs_user)
 * or its error on the status line; TUI_RECALC | TUI_REDRAW. 0 while it
 * runs or when there is none. */
unsigned jobs_bg_poll(TuiState *s);
/* Wait for the read (if any) and take its jobs as jobs_bg_poll does. */
unsigned jobs_bg_wait(TuiState *s);
/* Stop the read and drop what it found. */
void jobs_bg_stop(TuiState *s);

#endif
