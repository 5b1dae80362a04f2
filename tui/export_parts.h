#ifndef TUI_EXPORT_PARTS_H
#define TUI_EXPORT_PARTS_H
/* export_parts: what an export (x) writes beside the view's table, so that
 * the file holds what the screen showed (issue 30 item 4): the Overview's
 * chart figures by year (used, capacity, need and its p10-p90), the
 * Projection's need by year in parts with its range for the group and the
 * institute, the Scenarios view's comparison (every parameter that differs,
 * its values, reason and effect; the need by year in each). Units in every
 * header (GPU-eq, or CPUs for a CPU-only history). */

#include "tui/app.h"
#include "tui/view.h"

#define EXPORT_PARTS_MAX 3

/* Append the parts s's view adds to an export into parts (n of them at
 * most), their cursors in curs (the caller frees each curs[i].idx). The
 * group part of the Projection is group g's (model index, -1 none).
 * Returns how many were appended. */
int export_parts_add(const TuiState *s, int g, TuiExportPart *parts, TuiCursor *curs, int n);

#endif
