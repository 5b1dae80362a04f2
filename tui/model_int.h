#ifndef TUI_MODEL_INT_H
#define TUI_MODEL_INT_H
/* model_int: what tui/model.c (the build) asks of its sibling files.
 * Internal to tui/model*.c. */

#include "tui/model.h"

/* Fill m->alerts / m->nalerts (owned by m, freed by tui_model_free) from
 * the built model, most severe first. Called once per build. */
void tui_model_build_alerts(TuiModel *m);

#endif
