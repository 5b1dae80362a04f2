#ifndef TUI_INSTITUTE_H
#define TUI_INSTITUTE_H
/* institute: the Projection view for the whole institute, opened by
 * Enter on an institute alert ("<=48 GiB class short next year"): per
 * memory class and projected year, the need, the capacity (GPUs x
 * relative speed, as the projection counts it) and the gap, in the shown
 * scenario, with the base scenario's total need beside it. [ and ] go
 * back to the groups. Draws into the canvas only. */

#include "tui/app.h"

/* Draw the institute projection in rows [y, y + h) of c. */
void institute_render(const TuiState *s, Canvas *c, int y, int h);

#endif
