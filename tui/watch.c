/* watch: another process's changes, noticed and shown (watch.h). */
#include "tui/watch.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "data/store/store_tui_watch.h"
#include "tui/plan.h"

void tui_watch_mark(TuiState *s)
{
    if (!s->store)
        return;
    CpErr err = {""};
    store_tui_data_version(s->store, &s->db_version, &err);
    store_tui_signature(s->store, &s->db_sig, &err);
    s->db_edit = (int64_t)s->db_sig.v[STORE_TUI_SIG_EDITS];
    s->watch_at = tui_now_ms();
}

/* "plan-2027 changed by root at 21:41 UTC: pool of lab-x 30 -> 40". */
static void announce(TuiState *s, int64_t after)
{
    StoreTuiChange ch;
    int found = 0, count = 0;
    CpErr err = {""};
    if (store_tui_change_newest(s->store, after, &ch, &found, &count, &err) < 0 || !found) {
        tui_status(s, CV_WARN, 0, "the database was changed by another process: reloaded");
        store_tui_change_clear(&ch);
        return;
    }
    char when[16] = "", was[32], now[32], words[96], group[140] = "";
    time_t t = (time_t)ch.at;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(when, sizeof when, "%H:%M", &tm);
    const char *key = ch.key ? ch.key : "?";
    if (isnan(ch.old_value))
        snprintf(was, sizeof was, "measured");
    else
        tui_plan_value_text(key, ch.old_value, was, sizeof was);
    if (isnan(ch.new_value))
        snprintf(now, sizeof now, "measured");
    else
        tui_plan_value_text(key, ch.new_value, now, sizeof now);
    tui_plan_key_words(s->plan, key, words, sizeof words);
    if (ch.group && ch.group[0]) {
        char name[128];
        tui_model_group_label(s->model, tui_model_group_find(s->model, ch.group), s->redact, name,
                              sizeof name);
        snprintf(group, sizeof group, " of %s", name);
    }
    char more[64] = "";
    if (count > 1)
        snprintf(more, sizeof more, " (and %d more: capplan scenario diff)", count - 1);
    tui_status(s, CV_WARN, 0, "%s changed by %s at %s UTC: %s%s %s -> %s%s",
               ch.scenario ? ch.scenario : "?",
               s->redact || !ch.who ? "someone else" : ch.who, when, words, group, was, now,
               more);
    store_tui_change_clear(&ch);
}

/* A reload would move the rows an open edit points at (Group, Profiles). */
static int must_wait(const TuiState *s)
{
    return s->prompt.kind != TUI_P_NONE && s->view != TUI_V_PROJECTION;
}

unsigned tui_watch_check(TuiState *s, int force)
{
    if (!s->store || (!force && tui_now_ms() - s->watch_at < TUI_WATCH_MS))
        return 0;
    s->watch_at = tui_now_ms();
    int64_t v = s->db_version;
    CpErr err = {""};
    if (store_tui_data_version(s->store, &v, &err) < 0 || v == s->db_version)
        return 0;
    StoreTuiSig sig;
    store_tui_signature(s->store, &sig, &err);
    int rest = sig.v[STORE_TUI_SIG_REST] != s->db_sig.v[STORE_TUI_SIG_REST];
    int scen = sig.v[STORE_TUI_SIG_EDITS] != s->db_sig.v[STORE_TUI_SIG_EDITS] ||
               sig.v[STORE_TUI_SIG_SCENARIOS] != s->db_sig.v[STORE_TUI_SIG_SCENARIOS];
    if (!rest && !scen) { /* a worker's cache, or nothing the views show */
        s->db_version = v;
        return 0;
    }
    if (rest && must_wait(s))
        return 0; /* checked again once the edit is closed */
    int64_t seen = s->db_edit;
    if (rest) {
        if (tui_state_reload(s, &err) < 0) {
            tui_status(s, CV_BAD, 0, "%s", err.msg);
            return TUI_REDRAW;
        }
    } else {
        tui_plan_reload(s->plan, s->model);
    }
    tui_watch_mark(s);
    if (sig.v[STORE_TUI_SIG_EDITS] != (double)seen)
        announce(s, seen);
    else
        tui_status(s, CV_WARN, 0, "the database was changed by another process: reloaded");
    return TUI_RECALC | TUI_REDRAW;
}

void tui_sync(TuiState *s)
{
    tui_watch_check(s, 1);
}
