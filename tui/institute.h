#ifndef TUI_INSTITUTE_H
#define TUI_INSTITUTE_H
/* institute: the Projection view for the whole institute, opened by
 * Enter on an institute alert ("<=48 GiB class short next year"): per
 * memory class and projected year, the need, the capacity (GPUs x
 * relative speed, as the projection counts it) and the gap, in the shown
 * scenario, with the base scenario's total need beside it. [ and ] go
 * back to the groups. Draws into the canvas only. */

#include "tui/app.h"

/* Next year simulated (s->sim, base scenario, as `capplan simulate` and
 * the report's first page): buy nothing's p90 wait with its range and the
 * target, then the recommendation, in two rows from y (fewer when h is).
 * Returns the rows drawn. */
int institute_sim_lines(const TuiState *s, Canvas *c, int y, int h);

/* Draw the institute projection in rows [y, y + h) of c. */
void institute_render(const TuiState *s, Canvas *c, int y, int h);

#endif
