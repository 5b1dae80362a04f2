#ifndef TUI_HELP_H
#define TUI_HELP_H
/* help: what the figures, marks and shades of each view mean, shown at
 * the top of the help overlay (? or F1) above the keys. One meaning per
 * word: "growth" is the projection's head-count growth; the Groups view's
 * usage trend is "GPU-h change". Static text, no state. */

#include "tui/app.h"

/* The lines explaining view v; *n receives their count. Static storage. */
const char *const *tui_help_view(TuiViewId v, int *n);

/* 1 when s shows the Group view's member jobs (Enter on a member). */
int tui_help_member_jobs(const TuiState *s);

/* The lines explaining what s shows: its view's (tui_help_view), or the
 * member jobs' when it shows them; *n receives their count. Static
 * storage. */
const char *const *tui_help_legend(const TuiState *s, int *n);

/* The lines explaining what every view shares (title, status line, tables'
 * marks); *n receives their count. Static storage. */
const char *const *tui_help_common(int *n);

/* Draw the overlay into c (tui/help_draw.c): s->help_rows and s->help_page
 * are set to its lines and the lines a page shows, s->help_top kept within
 * the last page. */
void help_draw(TuiState *s, Canvas *c);

#endif
