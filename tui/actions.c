/* actions: the key table and the small functions it points at. */
#include "tui/actions.h"
#include "tui/redact.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/features.h"
#include "data/plan/meetings.h"
#include "data/store/store_meetings.h"
#include "data/store/store_tui.h"
#include "tui/export.h"
#include "tui/fmt.h"
#include "tui/help.h"
#include "tui/keys.h"
#include "tui/lineedit.h"
#include "tui/plan.h"
#include "tui/undo.h"
#include "tui/view.h"

typedef unsigned (*TuiAction)(TuiState *s);

typedef struct TuiBinding {
    int key;
    TuiAction fn;
    const char *keys; /* as the help shows them; NULL: listed with another key */
    const char *help;
} TuiBinding;

/* ---- moving ----------------------------------------------------------- */

static const TuiTable *cur_table(const TuiState *s)
{
    const TuiView *v = tui_view(s->view);
    return v->table ? v->table(s) : NULL;
}

/* Move the selection to row (clamped) and keep it on screen. */
static unsigned select_row(TuiState *s, int row)
{
    TuiCursor *c = tui_cursor(s);
    if (c->nidx == 0)
        return 0;
    if (row < 0)
        row = 0;
    if (row >= c->nidx)
        row = c->nidx - 1;
    c->row = row;
    int page = s->frame.table_h > 0 ? s->frame.table_h : 1;
    if (c->row < c->top)
        c->top = c->row;
    if (c->row >= c->top + page)
        c->top = c->row - page + 1;
    return TUI_REDRAW;
}

static int page_rows(const TuiState *s)
{
    return s->frame.table_h > 1 ? s->frame.table_h - 1 : 1;
}

static unsigned act_up(TuiState *s) { return select_row(s, tui_cursor(s)->row - 1); }
static unsigned act_down(TuiState *s) { return select_row(s, tui_cursor(s)->row + 1); }
static unsigned act_pgup(TuiState *s) { return select_row(s, tui_cursor(s)->row - page_rows(s)); }
static unsigned act_pgdn(TuiState *s) { return select_row(s, tui_cursor(s)->row + page_rows(s)); }
static unsigned act_home(TuiState *s) { return select_row(s, 0); }
static unsigned act_end(TuiState *s) { return select_row(s, tui_cursor(s)->nidx - 1); }

/* Move the column cursor by dir over the columns shown. */
static unsigned move_col(TuiState *s, int dir)
{
    const TuiTable *t = cur_table(s);
    if (!t)
        return 0;
    TuiCursor *c = tui_cursor(s);
    for (int k = c->col + dir; k >= 0 && k < t->ncols; k += dir) {
        if (k < TUI_MAX_COLS && s->frame.col_w[k] >= 0) {
            c->col = k;
            return TUI_REDRAW;
        }
    }
    return 0;
}

/* The wheel: three rows a notch. */
static unsigned act_wheel_up(TuiState *s) { return select_row(s, tui_cursor(s)->row - 3); }
static unsigned act_wheel_down(TuiState *s) { return select_row(s, tui_cursor(s)->row + 3); }

static unsigned act_left(TuiState *s) { return move_col(s, -1); }
static unsigned act_right(TuiState *s) { return move_col(s, +1); }

/* ---- views ------------------------------------------------------------ */

unsigned actions_goto(TuiState *s, TuiViewId v)
{
    if (v == s->view)
        return 0;
    if (s->nback == TUI_BACK_MAX) {
        memmove(s->back, s->back + 1, (TUI_BACK_MAX - 1) * sizeof *s->back);
        s->nback--;
    }
    s->back[s->nback++] = s->view;
    s->view = v;
    return TUI_RECALC | TUI_REDRAW;
}

unsigned actions_open_group(TuiState *s, int g)
{
    if (g < 0)
        return 0;
    s->institute = 0;
    if (s->group != g) {
        s->group = g;
        s->member = -1;
        s->cur[TUI_V_GROUP].row = s->cur[TUI_V_GROUP].top = 0;
        s->cur[TUI_V_GROUP].filter[0] = '\0';
    }
    return actions_goto(s, TUI_V_GROUP) | TUI_RECALC | TUI_REDRAW;
}

static unsigned act_view1(TuiState *s) { return actions_goto(s, TUI_V_OVERVIEW); }
static unsigned act_view2(TuiState *s) { return actions_goto(s, TUI_V_GROUPS); }
static unsigned act_view3(TuiState *s) { return actions_goto(s, TUI_V_GROUP); }
static unsigned act_view4(TuiState *s) { return actions_goto(s, TUI_V_PROFILES); }
static unsigned act_view5(TuiState *s) { return actions_goto(s, TUI_V_PROJECTION); }
static unsigned act_view6(TuiState *s) { return actions_goto(s, TUI_V_USAGE); }
static unsigned act_view7(TuiState *s) { return actions_goto(s, TUI_V_SCENARIOS); }

static unsigned act_next_view(TuiState *s)
{
    return actions_goto(s, (TuiViewId)((s->view + 1) % TUI_V_COUNT));
}

static unsigned act_prev_view(TuiState *s)
{
    return actions_goto(s, (TuiViewId)((s->view + TUI_V_COUNT - 1) % TUI_V_COUNT));
}

static unsigned act_enter(TuiState *s)
{
    const TuiView *v = tui_view(s->view);
    return v->enter ? v->enter(s) : 0;
}

/* Esc: the view's own back (a detail), then the filter, then the view
 * before. */
static unsigned act_esc(TuiState *s)
{
    const TuiView *v = tui_view(s->view);
    unsigned f = v->esc ? v->esc(s) : 0;
    if (f)
        return f;
    TuiCursor *c = tui_cursor(s);
    if (c->filter[0]) {
        c->filter[0] = '\0';
        return TUI_RECALC | TUI_REDRAW;
    }
    if (s->nback == 0)
        return 0;
    s->view = s->back[--s->nback];
    return TUI_RECALC | TUI_REDRAW;
}

/* The group after (dir +1) or before (-1) group g in the order of the
 * labels shown, wrapping: in presentation mode [ and ] must not walk the
 * real names' order (#29 item 5). */
static int label_step(const TuiState *s, int g, int dir)
{
    char at[128], l[128], best[128] = "", edge[128] = "";
    int pick = -1, wrap = g;
    tui_model_group_label(s->model, g, 1, at, sizeof at);
    for (int i = 0; i < s->model->ngroups; i++) {
        tui_model_group_label(s->model, i, 1, l, sizeof l);
        int c = strcmp(l, at) * dir;
        if (c > 0 && (pick < 0 || strcmp(l, best) * dir < 0))
            pick = i, snprintf(best, sizeof best, "%s", l);
        if (c < 0 && (wrap == g || strcmp(l, edge) * dir < 0))
            wrap = i, snprintf(edge, sizeof edge, "%s", l);
    }
    return pick >= 0 ? pick : wrap;
}

/* The previous or next group (Group and Projection views; the Projection
 * skips groups the planner does not know). */
static unsigned step_group(TuiState *s, int dir)
{
    int n = s->model->ngroups;
    if ((s->view != TUI_V_GROUP && s->view != TUI_V_PROJECTION && s->view != TUI_V_USAGE) ||
        n == 0)
        return 0;
    int g = s->group < 0 ? 0 : s->group;
    for (int i = 0; i < n; i++) {
        g = s->redact ? label_step(s, g, dir) : (g + dir + n) % n;
        if (s->view != TUI_V_PROJECTION || tui_plan_group(s->plan, s->model, g) >= 0)
            break;
    }
    s->group = g;
    s->member = -1;
    s->institute = 0;
    return TUI_RECALC | TUI_REDRAW;
}

static unsigned act_prev_group(TuiState *s) { return step_group(s, -1); }
static unsigned act_next_group(TuiState *s) { return step_group(s, +1); }

/* i: the Projection's institute page (as Enter on an institute alert), from
 * any view; again on it: back to the group. */
static unsigned act_institute(TuiState *s)
{
    if (s->view == TUI_V_PROJECTION && s->institute) {
        s->institute = 0;
        return TUI_RECALC | TUI_REDRAW;
    }
    s->institute = 1;
    if (s->view == TUI_V_PROJECTION)
        return TUI_RECALC | TUI_REDRAW;
    return actions_goto(s, TUI_V_PROJECTION) | TUI_RECALC | TUI_REDRAW;
}

/* The Profiles scatter's next feature on x (f) or y (F). */
static unsigned act_feat_x(TuiState *s)
{
    if (s->view != TUI_V_PROFILES)
        return 0;
    s->feat_x = (s->feat_x + 1) % FEAT_COUNT;
    return TUI_REDRAW;
}

static unsigned act_feat_y(TuiState *s)
{
    if (s->view != TUI_V_PROFILES)
        return 0;
    s->feat_y = (s->feat_y + 1) % FEAT_COUNT;
    return TUI_REDRAW;
}

static unsigned act_new_scenario(TuiState *s)
{
    if (s->view != TUI_V_SCENARIOS)
        return 0;
    actions_prompt_open(s, TUI_P_SCENARIO, "new scenario, a copy of the shown one:", "");
    return TUI_REDRAW;
}

/* ---- table keys ------------------------------------------------------- */

void actions_prompt_open(TuiState *s, TuiPromptKind kind, const char *label, const char *text)
{
    memset(&s->prompt, 0, sizeof s->prompt);
    s->prompt.kind = kind;
    fmt_copy(s->prompt.label, sizeof s->prompt.label, label);
    lineedit_set(&s->prompt, text);
    s->status_until = 0;
}

static unsigned act_filter(TuiState *s)
{
    if (!cur_table(s))
        return 0;
    actions_prompt_open(s, TUI_P_FILTER, "filter:", tui_cursor(s)->filter);
    return TUI_REDRAW;
}

static unsigned act_sort(TuiState *s)
{
    const TuiTable *t = cur_table(s);
    if (!t)
        return 0;
    TuiCursor *c = tui_cursor(s);
    int shown = c->sort_col >= 0 ? c->sort_col : t->default_sort;
    int desc = c->sort_col >= 0 ? c->sort_desc : t->default_desc;
    c->sort_desc = c->col == shown ? !desc : t->cols[c->col].numeric;
    c->sort_col = c->col;
    tui_status(s, CV_STATUS, 2000, "sorted by %s, %s", t->cols[c->col].title,
               c->sort_desc ? "descending" : "ascending");
    return TUI_RECALC | TUI_REDRAW;
}

static unsigned act_edit(TuiState *s)
{
    const TuiView *v = tui_view(s->view);
    if (!v->edit) {
        tui_status(s, CV_WARN, 0, "nothing to edit in %s", v->name);
        return TUI_REDRAW;
    }
    return v->edit(s);
}

static unsigned act_note(TuiState *s)
{
    if (s->view != TUI_V_GROUP || s->group < 0)
        return 0;
    actions_prompt_open(s, TUI_P_NOTE, "note:", "");
    return TUI_REDRAW;
}

static void today(char *buf, size_t n);

/* m: plan or record a meeting of the Group view's group, typed on its
 * meeting line (an in-place edit: a refused line stays open). */
static unsigned act_meeting(TuiState *s)
{
    if (s->view != TUI_V_GROUP || s->group < 0 || s->member >= 0)
        return 0;
    char text[32];
    today(text, sizeof text);
    fmt_copy(text + strlen(text), sizeof text - strlen(text), " planned ");
    actions_prompt_open(s, TUI_P_EDIT, "meeting: DATE STATUS [ATTENDEES]", text);
    s->prompt.row = s->prompt.col = -1;
    fmt_copy(s->prompt.key, sizeof s->prompt.key, TUI_MEETING_KEY);
    return TUI_REDRAW;
}

static unsigned act_export(TuiState *s) { return export_open(s); }

/* ---- modes ------------------------------------------------------------ */

static unsigned act_redact(TuiState *s)
{
    s->redact = !s->redact;
    tui_redact_free(s); /* built afresh from the model as it is now */
    tui_status(s, CV_STATUS, 3000, s->redact ? "presentation mode: names hidden (a shows them)"
                                             : "names shown");
    return TUI_RECALC | TUI_REDRAW;
}

static unsigned act_reload(TuiState *s)
{
    tui_status(s, CV_STATUS, 2000, "reloaded from the database");
    return TUI_RELOAD | TUI_REDRAW;
}

static unsigned act_redraw(TuiState *s)
{
    (void)s;
    return TUI_REDRAW;
}

static unsigned act_help(TuiState *s)
{
    s->help = 1;
    s->help_top = 0;
    return TUI_REDRAW;
}

static unsigned act_quit(TuiState *s)
{
    (void)s;
    return TUI_QUIT;
}

/* ---- undo ------------------------------------------------------------- */

void actions_push_undo(TuiState *s, const TuiUndo *u)
{
    tui_undo_push(s, u);
}

static unsigned act_undo(TuiState *s) { return tui_undo(s); }
static unsigned act_redo(TuiState *s) { return tui_redo(s); }

/* ---- mouse ------------------------------------------------------------ */

static unsigned act_click(TuiState *s)
{
    const TuiFrame *f = &s->frame;
    int x = s->mouse_x, y = s->mouse_y;
    if (y == 1) {
        for (int v = TUI_V_COUNT - 1; v >= 0; v--)
            if (x >= f->tab_x[v] && x < f->tab_x[TUI_V_COUNT])
                return actions_goto(s, (TuiViewId)v);
        return 0;
    }
    TuiCursor *c = tui_cursor(s);
    if (f->table_h > 0 && y == f->head_y) {
        for (int k = 0; k < TUI_MAX_COLS; k++)
            if (f->col_w[k] > 0 && x >= f->col_x[k] && x < f->col_x[k] + f->col_w[k]) {
                c->col = k;
                return TUI_REDRAW;
            }
    }
    if (f->table_h > 0 && y >= f->table_y && y < f->table_y + f->table_h) {
        int top = c->top;
        if (c->row < top)
            top = c->row;
        if (c->row >= top + f->table_h)
            top = c->row - f->table_h + 1;
        c->top = top < 0 ? 0 : top;
        return select_row(s, c->top + (y - f->table_y));
    }
    return 0;
}

/* ---- the table -------------------------------------------------------- */

static const TuiBinding bindings[] = {
    {'1', act_view1, "1-7", "the views, in the order of the tabs"},
    {'2', act_view2, NULL, NULL},
    {'3', act_view3, NULL, NULL},
    {'4', act_view4, NULL, NULL},
    {'5', act_view5, NULL, NULL},
    {'6', act_view6, NULL, NULL},
    {'7', act_view7, NULL, NULL},
    {TUI_KEY_TAB, act_next_view, "Tab, S-Tab", "next, previous view"},
    {TUI_KEY_BTAB, act_prev_view, NULL, NULL},
    {TUI_KEY_UP, act_up, "Up/k, Down/j", "move the selection"},
    {'k', act_up, NULL, NULL},
    {TUI_KEY_DOWN, act_down, NULL, NULL},
    {'j', act_down, NULL, NULL},
    {TUI_KEY_LEFT, act_left, "Left/h, Right/l", "move the column cursor (the column s sorts by)"},
    {'h', act_left, NULL, NULL},
    {TUI_KEY_RIGHT, act_right, NULL, NULL},
    {'l', act_right, NULL, NULL},
    {TUI_KEY_PGUP, act_pgup, "PgUp, PgDn", "a page up, down"},
    {TUI_KEY_PGDN, act_pgdn, NULL, NULL},
    {TUI_KEY_HOME, act_home, "Home/g, End/G", "first, last row"},
    {'g', act_home, NULL, NULL},
    {TUI_KEY_END, act_end, NULL, NULL},
    {'G', act_end, NULL, NULL},
    {TUI_KEY_ENTER, act_enter, "Enter", "open the selected group, member, scenario; edit"},
    {TUI_KEY_ESC, act_esc, "Esc", "back: close a detail, clear the filter, last view"},
    {'/', act_filter, "/", "filter as you type; Enter keeps it, one match opens"},
    {'s', act_sort, "s", "sort by the column under the cursor; again: reverse"},
    {'e', act_edit, "e", "edit the selected value, saved to the database at once"},
    {'u', act_undo, "u", "undo this session's last edit (saved at once)"},
    {TUI_KEY_CTRL_R, act_redo, "C-r", "redo the last edit undone"},
    {'n', act_note, "n", "Group: add a meeting note"},
    {'m', act_meeting, "m", "Group: plan or record a meeting"},
    {'[', act_prev_group, "[, ]", "Group, Projection, Usage: previous, next group"},
    {']', act_next_group, NULL, NULL},
    {'i', act_institute, "i", "the institute's projection (again: the group's)"},
    {'f', act_feat_x, "f, F", "Profiles: next feature on the scatter's x, y axis"},
    {'F', act_feat_y, NULL, NULL},
    {'N', act_new_scenario, "N", "Scenarios: new scenario, a copy of the shown one"},
    {'c', view_scenarios_pick, "c", "Scenarios: pick two to compare (A, then B)"},
    {'x', act_export, "x", "export the table to NAME.md (Markdown) or NAME.csv"},
    {'a', act_redact, "a", "presentation mode: names of people, groups hidden"},
    {'r', act_reload, "r", "read the database again"},
    {TUI_KEY_CTRL_L, act_redraw, "C-l", "redraw the screen"},
    {'?', act_help, "?, F1", "this help"},
    {TUI_KEY_F1, act_help, NULL, NULL},
    {'q', act_quit, "q, F10", "quit (every edit is already saved)"},
    {TUI_KEY_F10, act_quit, NULL, NULL},
    {TUI_KEY_MOUSE, act_click, "click", "select a row, a column or a view's tab"},
    {TUI_KEY_WHEEL_UP, act_wheel_up, "wheel", "scroll the table"},
    {TUI_KEY_WHEEL_DOWN, act_wheel_down, NULL, NULL},
};

#define NBINDINGS (sizeof bindings / sizeof bindings[0])

unsigned actions_key(TuiState *s, int key)
{
    for (size_t i = 0; i < NBINDINGS; i++)
        if (bindings[i].key == key)
            return bindings[i].fn(s);
    return 0;
}

const TuiHelpLine *tui_help_lines(int *n)
{
    static TuiHelpLine lines[NBINDINGS + 8];
    static int count;
    if (!count) {
        for (size_t i = 0; i < NBINDINGS; i++)
            if (bindings[i].keys)
                lines[count++] = (TuiHelpLine){bindings[i].keys, bindings[i].help};
        lines[count++] = (TuiHelpLine){"in a prompt", "the old value is selected: typing replaces it"};
        lines[count++] = (TuiHelpLine){"", "Left/Right/Home/End move, Backspace/Delete a character,"};
        lines[count++] = (TuiHelpLine){"", "C-w a word, C-u to the start; Enter accepts, Esc cancels"};
        lines[count++] = (TuiHelpLine){"in an edit", "a bad value is refused, the old one stays"};
    }
    *n = count;
    return lines;
}

/* ---- prompts ---------------------------------------------------------- */

static unsigned prompt_changed(TuiState *s)
{
    if (s->prompt.kind != TUI_P_FILTER)
        return TUI_REDRAW;
    fmt_copy(tui_cursor(s)->filter, TUI_FILTER_MAX, s->prompt.text);
    return TUI_RECALC | TUI_REDRAW;
}

static unsigned accept_filter(TuiState *s)
{
    s->prompt.kind = TUI_P_NONE;
    TuiCursor *c = tui_cursor(s);
    if (c->filter[0] && c->nidx == 1 && tui_view(s->view)->enter)
        return tui_view(s->view)->enter(s); /* the one match: open it */
    return TUI_REDRAW;
}

static void today(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%d", &tm);
}

static unsigned accept_note(TuiState *s)
{
    s->prompt.kind = TUI_P_NONE;
    if (!s->prompt.text[0] || s->group < 0)
        return TUI_REDRAW;
    TuiUndo u;
    memset(&u, 0, sizeof u);
    u.kind = TUI_U_NOTE;
    snprintf(u.group, sizeof u.group, "%s", s->model->groups[s->group].name);
    today(u.date, sizeof u.date);
    CpErr err = {""};
    if (s->store && store_tui_note_add(s->store, u.group, NULL, u.date, s->prompt.text, &err) < 0) {
        tui_status(s, CV_BAD, 0, "note not saved: %s", err.msg);
        return TUI_REDRAW;
    }
    u.text = xstrdup(s->prompt.text);
    actions_push_undo(s, &u);
    tui_model_add_note(s->model, s->group, u.date, u.text);
    tui_status(s, CV_GOOD, 0, "note saved");
    return TUI_SAVE | TUI_RECALC | TUI_REDRAW;
}

/* The next word of *p (spaces skipped, the word ended with a NUL). */
static char *next_word(char **p)
{
    char *w = *p;
    while (*w == ' ')
        w++;
    char *e = w;
    while (*e && *e != ' ')
        e++;
    *p = *e ? e + 1 : e;
    *e = '\0';
    return w;
}

/* 1 when login is a known user (the database's users and roster, or the
 * model's without one), 0 not, -1 on a database error. */
static int login_known(TuiState *s, const char *login, CpErr *err)
{
    if (s->store)
        return store_meetings_user_known(s->store, login, err);
    return tui_model_user_find(s->model, login) >= 0;
}

/* Parse and check "DATE STATUS [ATTENDEES]" (buf: a copy, cut in place):
 * m->date, m->status point into buf, m->attendees to att (the logins
 * trimmed, joined by ';'). -1 with why (for the status line). */
static int meeting_parse(TuiState *s, char *buf, char *att, size_t n, StoreMeeting *m, char *why,
                         size_t wn)
{
    char now[16], *p = buf;
    today(now, sizeof now);
    m->date = next_word(&p);
    m->status = next_word(&p);
    m->attendees = att;
    att[0] = '\0';
    const char *field;
    char rule[160];
    if (meetings_check(m->date, m->status, now, &field, rule, sizeof rule) < 0)
        return snprintf(why, wn, "refused: %s%s", strcmp(field, "status") ? "" : "status ",
                        rule), -1;
    for (char *save = NULL, *t = strtok_r(p, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
        char *login = next_word(&t);
        if (!login[0])
            continue;
        while (*t == ' ')
            t++;
        if (*t)
            return snprintf(why, wn, "refused: attendees are logins separated by ';'"), -1;
        CpErr err = {""};
        int k = login_known(s, login, &err);
        if (k < 0)
            return snprintf(why, wn, "refused: %s", err.msg), -1;
        if (k == 0)
            return snprintf(why, wn, "refused: unknown user '%s'", login), -1;
        size_t used = strlen(att);
        if (used + strlen(login) + 2 > n)
            return snprintf(why, wn, "refused: too many attendees"), -1;
        snprintf(att + used, n - used, "%s%s", used ? ";" : "", login);
    }
    return 0;
}

/* Write m (insert, or replace the meeting of its group and date), the
 * meeting it replaces kept in u (had_before, key: status, text:
 * attendees). Without a database (tests) only the model is asked. */
static int meeting_save(TuiState *s, const StoreMeeting *m, TuiUndo *u, CpErr *err)
{
    if (!s->store) {
        int i = tui_model_meeting_find(s->model, s->group, m->date);
        if (i >= 0) {
            u->had_before = 1;
            fmt_copy(u->key, sizeof u->key, s->model->meetings[i].status);
            u->text = xstrdup(s->model->meetings[i].attendees);
        }
        return 0;
    }
    StoreMeeting was;
    int k = store_meetings_ensure(s->store, err) < 0
                ? -1
                : store_meetings_get(s->store, m->group, m->date, &was, err);
    if (k == 1) {
        u->had_before = 1;
        fmt_copy(u->key, sizeof u->key, was.status);
        u->text = xstrdup(was.attendees ? was.attendees : "");
        store_meetings_clear(&was);
    }
    if (k >= 0 && store_meetings_put(s->store, m, err) == 0)
        return 0;
    free(u->text);
    u->text = NULL;
    return -1;
}

/* The meeting line typed after m: checked, saved, the model updated, the
 * meeting before kept for u. A bad line is refused and stays open. */
static unsigned accept_meeting(TuiState *s)
{
    char buf[TUI_PROMPT_MAX], att[TUI_PROMPT_MAX], why[TUI_PROMPT_MAX + 80];
    StoreMeeting m;
    fmt_copy(buf, sizeof buf, s->prompt.text);
    if (s->group < 0 || meeting_parse(s, buf, att, sizeof att, &m, why, sizeof why) < 0) {
        tui_status(s, CV_BAD, 0, "%s", s->group < 0 ? "no group" : why);
        return TUI_REDRAW; /* the prompt stays open, nothing saved */
    }
    TuiUndo u;
    memset(&u, 0, sizeof u);
    u.kind = TUI_U_MEETING;
    m.group = s->model->groups[s->group].name;
    fmt_copy(u.group, sizeof u.group, m.group);
    fmt_copy(u.date, sizeof u.date, m.date);
    CpErr err = {""};
    if (meeting_save(s, &m, &u, &err) < 0) {
        tui_status(s, CV_BAD, 0, "meeting not saved: %s", err.msg);
        return TUI_REDRAW;
    }
    s->prompt.kind = TUI_P_NONE;
    u.text_after = xstrdup(m.attendees);
    fmt_copy(u.status_after, sizeof u.status_after, m.status);
    actions_push_undo(s, &u);
    tui_model_put_meeting(s->model, s->group, m.date, m.attendees, m.status);
    char who[TUI_PROMPT_MAX + 32] = "";
    int n = 0;
    for (const char *a = m.attendees; *a; a++)
        n += a == m.attendees || *a == ';';
    if (n && s->redact)
        snprintf(who, sizeof who, " (%d attendee%s)", n, n == 1 ? "" : "s");
    else if (n)
        snprintf(who, sizeof who, " (%s)", m.attendees);
    tui_status(s, CV_GOOD, 0, "meeting saved: %s %s%s%s%s; u undoes", m.date, m.status, who,
               u.had_before ? ", was " : "", u.had_before ? u.key : "");
    return TUI_SAVE | TUI_RECALC | TUI_REDRAW;
}

static unsigned prompt_accept(TuiState *s)
{
    switch (s->prompt.kind) {
    case TUI_P_FILTER:
        return accept_filter(s);
    case TUI_P_EXPORT:
        return export_accept(s);
    case TUI_P_CONFIRM:
        return export_confirm(s, 'n');
    case TUI_P_NOTE:
        return accept_note(s);
    case TUI_P_EDIT: {
        if (strcmp(s->prompt.key, TUI_MEETING_KEY) == 0)
            return accept_meeting(s);
        const TuiView *v = tui_view(s->view);
        if (v->edit_accept)
            return v->edit_accept(s);
        s->prompt.kind = TUI_P_NONE;
        return TUI_REDRAW;
    }
    case TUI_P_SCENARIO:
        return tui_plan_prompt_accept(s);
    case TUI_P_NONE:
        break;
    }
    return 0;
}

unsigned actions_prompt_key(TuiState *s, int key)
{
    TuiPrompt *p = &s->prompt;
    if (p->kind == TUI_P_CONFIRM)
        return key == TUI_KEY_TIMEOUT || key == TUI_KEY_MOUSE ? 0 : export_confirm(s, key);
    if (key == TUI_KEY_ENTER) {
        unsigned f = prompt_accept(s);
        if (p->kind == TUI_P_EDIT) { /* refused: the text stays to read, selected, so that */
            char keep[TUI_PROMPT_MAX]; /* the next key replaces it, never appends to it */
            fmt_copy(keep, sizeof keep, p->text);
            lineedit_set(p, keep);
        }
        return f;
    }
    if (key == TUI_KEY_ESC) {
        unsigned f = TUI_REDRAW;
        if (p->kind == TUI_P_FILTER && tui_cursor(s)->filter[0]) {
            tui_cursor(s)->filter[0] = '\0';
            f |= TUI_RECALC;
        }
        p->kind = TUI_P_NONE;
        s->status_until = 0;
        return f;
    }
    if (key == TUI_KEY_F10)
        return TUI_QUIT;
    int changed = lineedit_key(p, key);
    if (changed < 0)
        return 0;
    return changed ? prompt_changed(s) : TUI_REDRAW;
}

unsigned actions_help_key(TuiState *s, int key)
{
    /* help_rows and help_page as the overlay was last drawn (help_draw
     * keeps help_top within the last page) */
    int page = s->help_page > 1 ? s->help_page : 1;
    int last = s->help_rows > page ? s->help_rows - page : 0;
    int top = s->help_top;
    if (key == 'j' || key == TUI_KEY_DOWN || key == TUI_KEY_WHEEL_DOWN)
        top++;
    else if (key == 'k' || key == TUI_KEY_UP || key == TUI_KEY_WHEEL_UP)
        top--;
    else if (key == TUI_KEY_PGDN || key == ' ')
        top += page;
    else if (key == TUI_KEY_PGUP)
        top -= page;
    else if (key == TUI_KEY_HOME || key == 'g')
        top = 0;
    else if (key == TUI_KEY_END || key == 'G')
        top = last;
    else if (key == TUI_KEY_F10)
        return TUI_QUIT;
    else if (key == TUI_KEY_MOUSE || key == TUI_KEY_TIMEOUT)
        return 0;
    else {
        s->help = 0; /* any other key closes the help */
        return TUI_REDRAW;
    }
    s->help_top = top > last ? last : top < 0 ? 0 : top;
    return TUI_REDRAW;
}
