#ifndef TUI_REDACT_H
#define TUI_REDACT_H
/* redact: presentation mode's last line of defence. Every string the
 * canvas draws goes through a scrubber (reports/anon) that replaces every
 * name the database knows (logins, groups, accounts, professors, authors,
 * editors) inside free text: a scenario named after a group, a reason
 * naming a student, an event label, a renamed profile, a status line. A
 * name the model has becomes its model label, as the tables show it: the
 * keyed pseudonym of the exports ("group-k3x9qa", reports/anon; the
 * database's key, else a random one for the session), any other
 * "(name)". */

#include <stddef.h>

typedef struct TuiState TuiState;

/* (Re)build s's scrubber from its model and, when it has one, its store. */
void tui_redact_build(TuiState *s);
/* The canvas filter (Canvas.filter) for ctx = the scrubber. */
const char *tui_redact_filter(const void *ctx, const char *str, char *buf, size_t n);
/* Free s's scrubber. */
void tui_redact_free(TuiState *s);

#endif
