#ifndef STORE_TUI_WATCH_H
#define STORE_TUI_WATCH_H
/* store_tui_watch: what lets the dashboard notice another process's change
 * (issue 30 item 3). PRAGMA data_version moves when another connection
 * commits (a cheap check, run every half second); a signature of what the
 * dashboard shows (the scenario tables, stated needs, notes, meetings,
 * imports, roster and inventory) then says whether anything it shows
 * changed, and which part: a cache written by a worker's own connection
 * moves data_version but not the signature. The newest scenario edits
 * after a known one name what changed, by whom, when. Bound parameters
 * only; tables a database does not have read as empty. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"

typedef struct Store Store;

/* PRAGMA data_version of st's connection into *out. */
int store_tui_data_version(Store *st, int64_t *out, CpErr *err);

enum { STORE_TUI_SIG_EDITS, STORE_TUI_SIG_SCENARIOS, STORE_TUI_SIG_REST, STORE_TUI_SIG_N };

/* What the dashboard shows, summed up: [EDITS] the newest scenario edit's
 * id, [SCENARIOS] the scenarios and their parameters, [REST] stated needs,
 * notes, meetings, imports, roster, groups, inventory and events. */
typedef struct StoreTuiSig {
    double v[STORE_TUI_SIG_N];
} StoreTuiSig;

int store_tui_signature(Store *st, StoreTuiSig *out, CpErr *err);

/* The newest scenario edit with an id above after: *found 0 when none;
 * *count how many there are. Strings owned by out (store_tui_change_clear). */
typedef struct StoreTuiChange {
    char *scenario, *key, *group, *label, *who, *reason;
    double old_value, new_value;   /* NaN: none (measured) */
    int64_t at;                    /* epoch seconds */
    int64_t id;
} StoreTuiChange;

int store_tui_change_newest(Store *st, int64_t after, StoreTuiChange *out, int *found, int *count,
                            CpErr *err);
void store_tui_change_clear(StoreTuiChange *c);

#endif
