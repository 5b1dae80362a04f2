/* undo: this session's edits taken back and made again (undo.h). */
#include "tui/undo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/store/store_meetings.h"
#include "data/store/store_tui.h"
#include "tui/fmt.h"
#include "tui/plan.h"

static void undo_clear(TuiUndo *u)
{
    free(u->text);
    free(u->text_after);
    store_undo_param_clear(&u->pbefore);
    store_undo_param_clear(&u->pafter);
    memset(u, 0, sizeof *u);
}

/* Push u on a list of TUI_UNDO_MAX, dropping the oldest when full. */
static void push(TuiUndo *list, int *n, const TuiUndo *u)
{
    if (*n == TUI_UNDO_MAX) {
        undo_clear(&list[0]);
        memmove(list, list + 1, (TUI_UNDO_MAX - 1) * sizeof *list);
        (*n)--;
    }
    list[(*n)++] = *u;
}

void tui_undo_push(TuiState *s, const TuiUndo *u)
{
    for (int i = 0; i < s->nredo; i++)
        undo_clear(&s->redo[i]);
    s->nredo = 0;
    push(s->undo, &s->nundo, u);
}

void tui_undo_free(TuiState *s)
{
    for (int i = 0; i < s->nundo; i++)
        undo_clear(&s->undo[i]);
    for (int i = 0; i < s->nredo; i++)
        undo_clear(&s->redo[i]);
    s->nundo = s->nredo = 0;
}

/* ---- what an edit was, in words --------------------------------------- */

static void group_words(const TuiState *s, const char *group, char *buf, size_t n)
{
    int g = tui_model_group_find(s->model, group);
    if (g >= 0)
        tui_model_group_label(s->model, g, s->redact, buf, n);
    else
        snprintf(buf, n, "%s", s->redact ? "a group" : group);
}

static void user_words(const TuiState *s, const char *user, char *buf, size_t n)
{
    int u = tui_model_user_find(s->model, user);
    if (u >= 0)
        tui_model_user_label(s->model, u, s->redact, buf, n);
    else
        snprintf(buf, n, "%s", s->redact ? "a member" : user);
}

/* "growth of brennan-lab in plan-2027: 20% -> 8%" (to: the state put). */
static void describe(const TuiState *s, const TuiUndo *u, int redo, char *buf, size_t n)
{
    char g[128], who[128], a[32], b[32];
    switch (u->kind) {
    case TUI_U_PARAM: {
        const StoreUndoParam *from = redo ? &u->pbefore : &u->pafter;
        const StoreUndoParam *to = redo ? &u->pafter : &u->pbefore;
        tui_plan_value_text(u->key, from->had ? from->value : NAN, a, sizeof a);
        if (!from->had)
            snprintf(a, sizeof a, "measured");
        tui_plan_value_text(u->key, to->had ? to->value : NAN, b, sizeof b);
        char words[64];
        tui_plan_key_words(s->plan, u->key, words, sizeof words);
        if (u->gi >= 0 && u->group[0]) {
            group_words(s, u->group, g, sizeof g);
            snprintf(buf, n, "%s of %s in %s: %s -> %s", words, g, u->scenario, a,
                     to->had ? b : "measured");
        } else {
            snprintf(buf, n, "%s in %s: %s -> %s", words, u->scenario, a,
                     to->had ? b : "measured");
        }
        return;
    }
    case TUI_U_STATED:
        user_words(s, u->user, who, sizeof who);
        snprintf(buf, n, "%s's stated need of %s (%g GPUs full-time)", who, u->date,
                 u->after[0]);
        return;
    case TUI_U_NOTE:
        group_words(s, u->group, g, sizeof g);
        snprintf(buf, n, "the note of %s on %s '%.60s'", g, u->date, u->text ? u->text : "");
        return;
    case TUI_U_MEETING:
        group_words(s, u->group, g, sizeof g);
        snprintf(buf, n, "the meeting of %s on %s (%s)", g, u->date, u->status_after);
        return;
    }
    buf[0] = '\0';
}

/* What the edit changed, for "was changed by": "growth of G [in S]". */
static void subject(const TuiState *s, const TuiUndo *u, char *buf, size_t n)
{
    char g[128], who[128];
    switch (u->kind) {
    case TUI_U_PARAM: {
        char words[64];
        tui_plan_key_words(s->plan, u->key, words, sizeof words);
        group_words(s, u->group, g, sizeof g);
        snprintf(buf, n, "%s%s%s%s%s", words, u->gi >= 0 && u->group[0] ? " of " : "",
                 u->gi >= 0 && u->group[0] ? g : "",
                 strcmp(u->scenario, s->scenario) ? " in " : "", /* the shown one goes unsaid */
                 strcmp(u->scenario, s->scenario) ? u->scenario : "");
        return;
    }
    case TUI_U_STATED:
        user_words(s, u->user, who, sizeof who);
        snprintf(buf, n, "%s's stated need of %s", who, u->date);
        return;
    case TUI_U_NOTE:
    case TUI_U_MEETING:
        group_words(s, u->group, g, sizeof g);
        snprintf(buf, n, "the %s of %s on %s", u->kind == TUI_U_NOTE ? "note" : "meeting", g,
                 u->date);
        return;
    }
    buf[0] = '\0';
}

/* ---- doing it --------------------------------------------------------- */

/* 1 when the stored stated need is no longer what the session left there
 * (undo: the edit's values; redo: the values before it), why filled. */
static int stated_changed(TuiState *s, const TuiUndo *u, int redo, char *why, size_t wn,
                          CpErr *err)
{
    int found = 0;
    double g = -1, m = -1;
    if (!s->store)
        return 0;
    if (store_tui_stated_get(s->store, u->user, u->group, u->date, &found, &g, &m, err) < 0)
        return -1;
    int want = !redo || u->had_before;
    double wg = redo ? u->before[0] : u->after[0], wm = redo ? u->before[1] : u->after[1];
    if (found == want && (!found || (g == wg && m == wm)))
        return 0;
    snprintf(why, wn, "by another process");
    return 1;
}

static int stated_put(TuiState *s, const TuiUndo *u, int redo, CpErr *err)
{
    int rc = 0, store = s->store != NULL;
    if (redo) {
        if (store)
            rc = store_tui_stated_set(s->store, u->user, u->group, u->date, u->after[0],
                                      u->after[1], err);
        if (rc == 0)
            tui_model_set_stated(s->model, u->user, u->after[0], u->after[1], u->date);
        return rc;
    }
    if (store && u->had_before)
        rc = store_tui_stated_set(s->store, u->user, u->group, u->date, u->before[0],
                                  u->before[1], err);
    else if (store)
        rc = store_tui_stated_delete(s->store, u->user, u->group, u->date, err);
    if (rc == 0) /* the statement in force before: today's, an earlier one or none */
        tui_model_set_stated(s->model, u->user, u->before[0], u->before[1],
                             u->had_before ? u->date : u->key[0] ? u->key : NULL);
    return rc;
}

static int note_put(TuiState *s, const TuiUndo *u, int redo, CpErr *err)
{
    int rc = 0, g = tui_model_group_find(s->model, u->group);
    if (redo) {
        if (s->store)
            rc = store_tui_note_add(s->store, u->group, NULL, u->date, u->text, err);
        if (rc == 0)
            tui_model_add_note(s->model, g, u->date, u->text);
        return rc;
    }
    if (s->store)
        rc = store_tui_note_delete(s->store, u->group, u->date, u->text, err);
    if (rc == 0)
        tui_model_drop_note(s->model, g, u->date, u->text);
    return rc;
}

/* 1 when the stored meeting is no longer what the session left there. */
static int meeting_changed(TuiState *s, const TuiUndo *u, int redo, char *why, size_t wn,
                           CpErr *err)
{
    StoreMeeting now;
    if (!s->store)
        return 0;
    int k = store_meetings_get(s->store, u->group, u->date, &now, err);
    if (k < 0)
        return -1;
    int want = !redo || u->had_before;
    const char *att = redo ? u->text : u->text_after, *st = redo ? u->key : u->status_after;
    int same = k == want && (!k || (strcmp(now.status, st) == 0 &&
                                    strcmp(now.attendees ? now.attendees : "", att ? att : "") == 0));
    if (k == 1)
        store_meetings_clear(&now);
    if (same)
        return 0;
    snprintf(why, wn, "by another process");
    return 1;
}

static int meeting_put(TuiState *s, TuiUndo *u, int redo, CpErr *err)
{
    int rc = 0, g = tui_model_group_find(s->model, u->group);
    int put = redo || u->had_before;
    char none[1] = "";
    char *att = redo ? u->text_after : u->text, *status = redo ? u->status_after : u->key;
    StoreMeeting m = {u->group, u->date, att ? att : none, status};
    if (s->store && put)
        rc = store_meetings_put(s->store, &m, err);
    else if (s->store)
        rc = store_meetings_delete(s->store, u->group, u->date, err);
    if (rc == 0 && put)
        tui_model_put_meeting(s->model, g, u->date, m.attendees, status);
    else if (rc == 0)
        tui_model_drop_meeting(s->model, g, u->date);
    return rc;
}

/* Undo (redo 0) or redo u: 0 done, 1 left alone (why in why), -1 error. */
static int apply(TuiState *s, TuiUndo *u, int redo, char *why, size_t wn, CpErr *err)
{
    int changed;
    switch (u->kind) {
    case TUI_U_STATED:
        changed = stated_changed(s, u, redo, why, wn, err);
        return changed ? changed : stated_put(s, u, redo, err);
    case TUI_U_NOTE: return note_put(s, u, redo, err);
    case TUI_U_MEETING:
        changed = meeting_changed(s, u, redo, why, wn, err);
        return changed ? changed : meeting_put(s, u, redo, err);
    case TUI_U_PARAM: return s->store ? tui_plan_put(s->plan, u, redo, s->redact, why, wn, err) : 0;
    }
    return 0;
}

static int same_param(const TuiUndo *a, const TuiUndo *b)
{
    return a->kind == TUI_U_PARAM && b->kind == TUI_U_PARAM &&
           strcmp(a->scenario, b->scenario) == 0 && strcmp(a->key, b->key) == 0 &&
           strcmp(a->group, b->group) == 0;
}

/* After a put of u's parameter, every edit of the session on the same
 * parameter expects the history entry it wrote (they form one chain). */
static void follow(TuiState *s, const TuiUndo *u)
{
    for (int i = 0; i < s->nundo; i++)
        if (same_param(&s->undo[i], u))
            s->undo[i].edit = u->edit;
    for (int i = 0; i < s->nredo; i++)
        if (same_param(&s->redo[i], u))
            s->redo[i].edit = u->edit;
}

/* Move the top of from to to, undone (redo 0) or redone. */
static unsigned step(TuiState *s, TuiUndo *from, int *nfrom, TuiUndo *to, int *nto, int redo)
{
    const char *verb = redo ? "redone" : "undone";
    if (*nfrom == 0) {
        tui_status(s, CV_WARN, 0, "nothing to %s in this session%s", redo ? "redo" : "undo",
                   redo ? "" : " (earlier edits stay: 7 lists them)");
        return TUI_REDRAW;
    }
    TuiUndo *u = &from[*nfrom - 1];
    char what[400], why[200] = "";
    describe(s, u, redo, what, sizeof what);
    CpErr err = {""};
    int rc = apply(s, u, redo, why, sizeof why, &err);
    if (rc < 0) {
        tui_status(s, CV_BAD, 0, "not %s: %s", verb, err.msg);
        return TUI_REDRAW;
    }
    if (rc > 0) { /* someone else changed it since: it stays, and so does our entry */
        char subj[300];
        subject(s, u, subj, sizeof subj);
        tui_status(s, CV_WARN, 10000, "not %s: %s was changed %s; it stays", verb, subj, why);
        undo_clear(u);
        (*nfrom)--;
        return TUI_REDRAW;
    }
    if (u->kind == TUI_U_PARAM)
        follow(s, u);
    push(to, nto, u);
    (*nfrom)--;
    memset(&from[*nfrom], 0, sizeof *u);
    tui_status(s, CV_GOOD, 0, "%s and saved: %s%s", verb, what,
               redo ? "" : "; C-r redoes");
    return TUI_SAVE | TUI_RECALC | TUI_REDRAW;
}

unsigned tui_undo(TuiState *s)
{
    return step(s, s->undo, &s->nundo, s->redo, &s->nredo, 0);
}

unsigned tui_redo(TuiState *s)
{
    return step(s, s->redo, &s->nredo, s->undo, &s->nundo, 1);
}
