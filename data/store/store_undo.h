#ifndef STORE_UNDO_H
#define STORE_UNDO_H
/* store_undo: the dashboard's session undo and redo of scenario edits,
 * built on one primitive: put a parameter of a scenario into a given state
 * (edited with a value, or back to the measured one) in one transaction,
 * on condition that its last history entry is the one the session wrote.
 * Every put, undo and redo included, appends its own entry to the
 * scenario's history (scenario_edits) and never deletes one, so an edit
 * made meanwhile by another process (capplan scenario set, another
 * dashboard) is neither reverted nor erased: the put refuses and names who
 * made it and when.
 *
 * Bound parameters only; strings are copied out of SQLite and owned by
 * the caller's struct (store_undo_param_clear). Time is epoch seconds. */

#include <stdint.h>

#include "core/cp.h"

typedef struct Store Store;

/* A parameter of a scenario as stored in scenario_params. */
typedef struct StoreUndoParam {
    int had;                    /* 0: not edited (the measured value applies) */
    double value, measured;     /* measured NAN when unknown */
    char *label, *reason, *who; /* owned, may be NULL */
    int64_t at;
} StoreUndoParam;

/* Free p's strings and zero it. */
void store_undo_param_clear(StoreUndoParam *p);
/* A deep copy of src into dst (dst's old content is not freed). */
void store_undo_param_copy(StoreUndoParam *dst, const StoreUndoParam *src);

/* What a put did. */
typedef struct StoreUndoPut {
    int conflict;           /* 1: the last entry was not the expected one; nothing written */
    int64_t edit;           /* the history entry written (0 on conflict) */
    StoreUndoParam before;  /* the parameter before the put (caller clears) */
    char *other_who;        /* on conflict: who wrote the last entry (owned, may be NULL) */
    int64_t other_at;       /* and when (0: the entry expected is gone) */
} StoreUndoPut;

/* Free out's strings and zero it. */
void store_undo_put_clear(StoreUndoPut *out);

/* Put (key, group; group "" for every group) of scenario into state to
 * (to->had 0: back to the measured value; to->who and to->at are stored
 * as given, at 0 meaning now), logging a history entry with log_reason
 * (NULL: to->reason) by who. expect: the id of the parameter's last history
 * entry that the caller wrote, or -1 for no condition; when the last
 * entry is another, out->conflict is set and nothing is written. -1 with
 * err on a database error or when the scenario is not stored. */
int store_undo_put(Store *st, const char *scenario, const char *key, const char *group,
                   const StoreUndoParam *to, int64_t expect, const char *log_reason,
                   const char *who, StoreUndoPut *out, CpErr *err);

#endif
