#ifndef TUI_EXPORT_H
#define TUI_EXPORT_H
/* export: x writes the table shown to a file named by view, group and
 * scenario (capplan-group-alvarez-lab-plan-2027.md; pseudonyms in
 * presentation mode), in the format its extension says (.md Markdown,
 * .csv CSV; any other is refused), never over an existing file without a
 * y to the question. The Projection's file holds the demand by year too,
 * for the group shown and the institute. */

#include "tui/app.h"

/* x: open the prompt with the proposed name (selected). */
unsigned export_open(TuiState *s);
/* Enter in the export prompt; y or n in the overwrite question. */
unsigned export_accept(TuiState *s);
unsigned export_confirm(TuiState *s, int key);

/* The proposed file name for what s shows (ext "md"), into buf. */
void export_name(const TuiState *s, char *buf, size_t n);

#endif
