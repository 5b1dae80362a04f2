/* app: state, the loop, and the frame around every view (view.h). */
#include "tui/app.h"
#include "tui/research.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/features.h"
#include "data/store/store.h"
#include "data/store/store_tui.h"
#include "tui/redact.h"
#include "tui/actions.h"
#include "tui/compare.h"
#include "tui/editform.h"
#include "tui/fmt.h"
#include "tui/help.h"
#include "tui/heat_bg.h"
#include "tui/jobs_bg.h"
#include "tui/keys.h"
#include "tui/lineedit.h"
#include "tui/plan.h"
#include "tui/plan_bg.h"
#include "tui/undo.h"
#include "tui/usage_bg.h"
#include "tui/view.h"
#include "tui/watch.h"

#define STATUS_MS 4000
#define MIN_W 40
#define MIN_H 12

int64_t tui_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void tui_status(TuiState *s, int role, int64_t ms, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->status, sizeof s->status, fmt, ap);
    va_end(ap);
    s->status_role = role;
    s->status_until = tui_now_ms() + (ms > 0 ? ms : STATUS_MS);
}

/* ---- state ------------------------------------------------------------ */

static int64_t this_month(void)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    return (int64_t)(tm.tm_year + 1900) * 100 + tm.tm_mon + 1;
}

static TuiModel *load_model(Store *st, CpErr *err)
{
    StoreTuiSnapshot snap;
    if (store_tui_load(st, &snap, err) < 0) {
        store_tui_snapshot_free(&snap);
        return NULL;
    }
    TuiModel *m = tui_model_build(&snap, this_month());
    store_tui_snapshot_free(&snap);
    return m;
}

int tui_state_init(TuiState *s, Store *st, const char *scenario, CpErr *err)
{
    memset(s, 0, sizeof *s);
    s->store = st;
    snprintf(s->scenario, sizeof s->scenario, "%s", scenario && scenario[0] ? scenario : "base");
    for (int v = 0; v < TUI_V_COUNT; v++)
        s->cur[v].sort_col = -1;
    s->jobs_cur.sort_col = -1;
    s->group = -1;
    s->member = -1;
    s->jobs_user = -1;
    s->feat_x = FEAT_GPUH_MONTH;
    s->feat_y = FEAT_MEM_GIB;
    s->w = 80;
    s->h = 24;
    if (!st)
        return 0;
    CpErr ignored = {""}; /* remembering is a convenience: a read-only database still opens */
    char last[64] = "";
    if ((!scenario || !scenario[0]) && store_tui_last_scenario(st, last, sizeof last, &ignored) == 0 &&
        last[0] && strcmp(last, "base") != 0) {
        snprintf(s->scenario, sizeof s->scenario, "%s", last);
        tui_status(s, CV_STATUS, 6000, "opened on scenario %s, the one shown last (7 lists them)",
                   last);
    } else if (scenario && scenario[0]) {
        store_tui_set_last_scenario(st, scenario, &ignored);
    }
    s->model = load_model(st, err);
    if (!s->model)
        return -1;
    s->plan_pending = 1;
    tui_watch_mark(s);
    return 0;
}

void tui_state_load_plan(TuiState *s)
{
    if (!s->plan_pending || !s->store)
        return;
    s->plan_pending = 0;
    CpErr err = {""};
    s->plan = tui_plan_open(s->store, s->model, s->scenario, &err);
    s->research = tui_research_open(s->store, s->plan ? tui_plan_plan(s->plan) : NULL);
    if (!s->plan && err.msg[0])
        tui_status(s, CV_WARN, 8000, "planner: %s", err.msg);
}

static void free_jobs(TuiState *s)
{
    jobs_bg_stop(s);
    store_tui_jobs_free(s->jobs, (size_t)s->njobs);
    s->jobs = NULL;
    s->njobs = 0;
    s->jobs_user = -1;
}

void tui_state_done(TuiState *s)
{
    plan_bg_stop(s);
    heat_bg_stop(s);
    usage_bg_stop(s);
    free(s->policy);
    for (int v = 0; v < TUI_V_COUNT; v++)
        free(s->cur[v].idx);
    free(s->jobs_cur.idx);
    tui_undo_free(s);
    compare_free(s->cmp);
    free_jobs(s);
    tui_redact_free(s);
    tui_plan_close(s->plan);
    tui_research_close(s->research);
    free(s->sim);
    tui_model_free(s->model);
    memset(s, 0, sizeof *s);
}

int tui_state_reload(TuiState *s, CpErr *err)
{
    if (!s->store)
        return 0;
    char group[256] = "";
    if (s->group >= 0)
        snprintf(group, sizeof group, "%s", s->model->groups[s->group].name);
    TuiModel *m = load_model(s->store, err);
    if (!m)
        return -1;
    heat_bg_stop(s); /* their figures are the old model's */
    usage_bg_stop(s);
    tui_model_free(s->model);
    s->model = m;
    s->usage_state = TUI_USAGE_NONE;
    heat_bg_start(s); /* again, in the background */
    usage_bg_start(s);
    s->group = group[0] ? tui_model_group_find(m, group) : -1;
    s->member = -1;
    free_jobs(s);
    tui_plan_reload(s->plan, s->model);
    return 0;
}

TuiCursor *tui_cursor(TuiState *s)
{
    return s->view == TUI_V_GROUP && s->member >= 0 ? &s->jobs_cur : &s->cur[s->view];
}

const TuiCursor *tui_cursor_const(const TuiState *s)
{
    return s->view == TUI_V_GROUP && s->member >= 0 ? &s->jobs_cur : &s->cur[s->view];
}

void tui_recalc(TuiState *s)
{
    const TuiView *v = tui_view(s->view);
    if (v->prepare)
        v->prepare(s);
    const TuiTable *t = v->table ? v->table(s) : NULL;
    if (t)
        table_prepare(t, s, tui_cursor(s));
}

/* ---- the frame around a view ------------------------------------------ */

static void render_title(const TuiState *s, Canvas *c)
{
    const TuiModel *m = s->model;
    char buf[160], m0[16], m1[16];
    canvas_fill(c, 0, 0, c->w, ' ', CV_TITLE);
    snprintf(buf, sizeof buf, "capplan \xc2\xb7 %s \xc2\xb7 scenario %s", tui_view(s->view)->name,
             s->scenario);
    int used = canvas_text(c, 0, 0, c->w, CV_TITLE | CV_BOLD, buf);
    /* At the right: the planner while a worker reads it, then the months
     * (left out first when the width is short). */
    const char *pending = s->plan_pending && s->store ? "reading the planner\xe2\x80\xa6 " : "";
    snprintf(buf, sizeof buf, "%s%s%s..%s ", pending, s->redact ? "[presentation] " : "",
             fmt_month(m->m0, m0, sizeof m0), fmt_month(m->ref_month, m1, sizeof m1));
    int rw = canvas_width(c, buf);
    if (used + rw + 2 > c->w && pending[0]) {
        snprintf(buf, sizeof buf, "%s", pending);
        rw = canvas_width(c, buf);
    }
    if (used + rw + 2 <= c->w)
        canvas_text(c, c->w - rw, 0, rw, CV_TITLE, buf);
}

static void render_tabs(const TuiState *s, Canvas *c, TuiFrame *f)
{
    int x = 0;
    canvas_fill(c, 0, 1, c->w, ' ', CV_TAB);
    for (int v = 0; v < TUI_V_COUNT; v++) {
        char buf[40];
        snprintf(buf, sizeof buf, "%d %s", v + 1, tui_view((TuiViewId)v)->tab);
        f->tab_x[v] = x;
        int on = (int)s->view == v;
        x += canvas_text(c, x, 1, c->w - x, on ? CV_TAB_ON | CV_BOLD : CV_TAB, buf);
        x += x < c->w ? 1 : 0;
    }
    f->tab_x[TUI_V_COUNT] = x;
}

/* The status line: an open prompt, a message, or what the view shows. */
static void render_status(const TuiState *s, Canvas *c)
{
    int y = c->h - 2;
    canvas_fill(c, 0, y, c->w, ' ', CV_STATUS);
    if (s->store && store_fault() == STORE_FAULT_CORRUPT) { /* loud, and it stays */
        canvas_text(c, 0, y, c->w, CV_BAD | CV_BOLD,
                    "the database is corrupt: figures are missing; quit (exit 4) and run "
                    "capplan check");
        return;
    }
    const TuiPrompt *p = &s->prompt;
    if (p->kind == TUI_P_CONFIRM) {
        canvas_textf(c, 0, y, c->w, CV_WARN | CV_BOLD,
                     "%s exists: overwrite it? y overwrites, n keeps it", p->text);
        return;
    }
    if (p->kind != TUI_P_NONE && p->kind != TUI_P_EDIT) {
        int lw = canvas_text(c, 0, y, c->w, CV_STATUS | CV_BOLD, p->label) + 1;
        if (lw < c->w)
            lineedit_draw(p, c, lw, y, c->w - lw, CV_STATUS | CV_BOLD);
        return;
    }
    if (s->status_until > s->now && s->status[0]) {
        canvas_text(c, 0, y, c->w, (uint16_t)s->status_role | CV_BOLD, s->status);
        return;
    }
    if (p->kind == TUI_P_EDIT) {
        canvas_textf(c, 0, y, c->w, CV_STATUS, "%s: Enter saves, Esc cancels", p->label);
        return;
    }
    const TuiView *v = tui_view(s->view);
    const TuiCursor *cur = tui_cursor_const(s);
    if (v->table && v->table(s)) {
        const TuiTable *t = v->table(s);
        int n = t->nrows(s);
        if (cur->filter[0])
            canvas_textf(c, 0, y, c->w, CV_STATUS, "filter \"%s\": %d of %d rows \xc2\xb7 Esc clears",
                         cur->filter, cur->nidx, n);
        else if (cur->nidx > 0)
            canvas_textf(c, 0, y, c->w, CV_STATUS, "row %d of %d", cur->row + 1, cur->nidx);
    }
}

typedef struct FKey {
    const char *key, *label;
} FKey;

/* The keys that work here, htop style. */
static int fkeys(const TuiState *s, FKey *k)
{
    const TuiView *v = tui_view(s->view);
    int n = 0, table = v->table && v->table(s), detail = s->view == TUI_V_GROUP && s->member >= 0;
    k[n++] = (FKey){"F1", "Help"};
    if (v->enter && table && !detail)
        k[n++] = (FKey){"Enter", v->enter_label ? v->enter_label : "Open"};
    if (s->nback > 0 || detail)
        k[n++] = (FKey){"Esc", "Back"};
    if (table) {
        k[n++] = (FKey){"/", "Filter"};
        k[n++] = (FKey){"s", "Sort"};
    }
    if (v->edit && v->edit_accept && table && !detail)
        k[n++] = (FKey){"e", "Edit"};
    if (s->nundo > 0)
        k[n++] = (FKey){"u", "Undo"};
    if (s->view == TUI_V_GROUP && s->group >= 0 && !detail) {
        k[n++] = (FKey){"n", "Note"};
        k[n++] = (FKey){"m", "Meeting"};
    }
    k[n++] = (FKey){"x", "Export"};
    k[n++] = (FKey){"a", s->redact ? "Names" : "Anon"};
    k[n++] = (FKey){"F10", "Quit"};
    return n;
}

static void render_fbar(const TuiState *s, Canvas *c)
{
    FKey k[16];
    int n = fkeys(s, k), x = 0, y = c->h - 1;
    canvas_fill(c, 0, y, c->w, ' ', CV_FLABEL);
    if (s->prompt.kind != TUI_P_NONE && s->prompt.kind != TUI_P_EDIT &&
        s->status_until > s->now && s->status[0]) { /* the prompt holds the status line */
        canvas_text(c, 0, y, c->w, (uint16_t)s->status_role | CV_BOLD, s->status);
        return;
    }
    /* Help first and Quit last always show: room is kept for Quit. */
    int last = canvas_width(c, k[n - 1].key) + canvas_width(c, k[n - 1].label);
    for (int i = 0; i < n && x < c->w; i++) {
        int kw = canvas_width(c, k[i].key), lw = canvas_width(c, k[i].label);
        if (i != n - 1 && x + kw + lw + 1 + last > c->w)
            continue; /* drop what does not fit before Quit */
        x += canvas_text(c, x, y, c->w - x, CV_FKEY, k[i].key);
        x += canvas_text(c, x, y, c->w - x, CV_FLABEL, k[i].label);
        x += x + 1 < c->w ? 1 : 0;
    }
}

void tui_render(TuiState *s, Canvas *c)
{
    if (c->w != s->w || c->h != s->h)
        canvas_resize(c, s->w, s->h);
    c->ascii = s->ascii;
    if (s->redact && !s->scrub)
        tui_redact_build(s);
    c->filter = s->redact ? tui_redact_filter : NULL;
    c->filter_ctx = s->scrub;
    canvas_clear(c);
    TuiFrame f;
    memset(&f, 0, sizeof f);
    for (int k = 0; k < TUI_MAX_COLS; k++)
        f.col_x[k] = f.col_w[k] = -1;
    if (c->w < MIN_W || c->h < MIN_H) {
        canvas_textf(c, 0, 0, c->w, CV_BAD, "capplan: %dx%d is too small (80x24 or more)", c->w,
                     c->h);
        s->frame = f;
        return;
    }
    render_title(s, c);
    render_tabs(s, c, &f);
    tui_view(s->view)->render(s, c, 2, c->h - 4, &f);
    if (s->prompt.kind == TUI_P_EDIT && strcmp(s->prompt.key, TUI_MEETING_KEY) != 0) {
        TuiEditForm ef;
        editform_fill(s, &ef);
        editform_draw(s, &ef, c, c->h - 2, c->h - 4);
    }
    render_status(s, c);
    render_fbar(s, c);
    if (s->help)
        help_draw(s, c);
    s->frame = f;
}

/* ---- dispatch and the loop -------------------------------------------- */

unsigned tui_dispatch(TuiState *s, int key)
{
    if (key == TUI_KEY_RESIZE)
        return TUI_REDRAW;
    if (s->help)
        return actions_help_key(s, key);
    if (s->prompt.kind != TUI_P_NONE)
        return actions_prompt_key(s, key);
    unsigned f = actions_key(s, key);
    return f ? f : 0;
}

double tui_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void time_frame(TuiTimings *t, double ms, double cpu)
{
    if (!t)
        return;
    if (t->nframes == t->capframes) {
        t->capframes = t->capframes ? t->capframes * 2 : 256;
        t->frame_ms = xrealloc(t->frame_ms, (size_t)t->capframes * sizeof *t->frame_ms);
        t->frame_cpu_ms =
            xrealloc(t->frame_cpu_ms, (size_t)t->capframes * sizeof *t->frame_cpu_ms);
    }
    t->frame_cpu_ms[t->nframes] = cpu;
    t->frame_ms[t->nframes++] = ms;
}

void tui_timings_free(TuiTimings *t)
{
    free(t->frame_ms);
    free(t->frame_cpu_ms);
    t->frame_ms = t->frame_cpu_ms = NULL;
    t->nframes = t->capframes = 0;
}

/* Milliseconds to wait for a key: until the status message expires, at
 * most USAGE_BG_POLL_MS while a worker runs (its result shows without a
 * key); -1: no limit. */
static int key_wait(const TuiState *s)
{
    int64_t left = s->status_until ? s->status_until - tui_now_ms() : -1;
    if (s->status_until && left < 0)
        left = 0;
    if ((s->usage_bg || s->heat_bg || s->jobs_bg || s->plan_bg) &&
        (left < 0 || left > USAGE_BG_POLL_MS))
        left = USAGE_BG_POLL_MS;
    if (s->store && (left < 0 || left > TUI_WATCH_MS)) /* another process's change, seen */
        left = TUI_WATCH_MS;
    return (int)left;
}

static double ms_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Act on flags: reload, recalculate, then render and paint once when
 * anything is dirty. Returns 1 when a frame was painted. */
static int paint_frame(TuiState *s, TuiIO *io, Canvas *c, unsigned flags)
{
    s->now = tui_now_ms();
    if (flags & TUI_RELOAD) {
        CpErr err = {""};
        if (tui_state_reload(s, &err) < 0)
            tui_status(s, CV_BAD, 0, "%s", err.msg);
        flags |= TUI_RECALC;
    }
    if (flags & (TUI_RELOAD | TUI_SAVE))
        tui_watch_mark(s); /* this session's own writes are not another's change */
    if (flags & TUI_RECALC) {
        tui_recalc(s);
        flags |= TUI_REDRAW;
    }
    if (!(flags & TUI_REDRAW))
        return 0;
    s->now = tui_now_ms();
    tui_render(s, c);
    io->paint(io, c);
    return 1;
}

/* The next key, handling what is not for the key table (a status message
 * expiring, a resize). Returns the flags to act on, or sets *stop. */
static unsigned next_key(TuiState *s, TuiIO *io, int *stop, double *key_at)
{
    int key = io->read_key(io, key_wait(s), s);
    *key_at = ms_now();
    if (key == TUI_KEY_EOF) {
        *stop = 1;
        return 0;
    }
    if (key == TUI_KEY_TIMEOUT) {
        if (s->status_until && s->status_until <= tui_now_ms()) {
            s->status_until = 0;
            return TUI_REDRAW;
        }
        return 0;
    }
    if (key == TUI_KEY_RESIZE)
        io->size(io, &s->w, &s->h);
    unsigned f = tui_dispatch(s, key);
    *stop = (f & TUI_QUIT) != 0;
    return f;
}

/* The view's slow loads, once its frame is up; paints again when they
 * brought something. Returns the frames painted. */
static int after_paint(TuiState *s, TuiIO *io, Canvas *c, TuiTimings *t)
{
    const TuiView *v = tui_view(s->view);
    if (!v->after_paint)
        return 0;
    double l0 = ms_now();
    unsigned f = v->after_paint(s);
    if (!f)
        return 0;
    int n = paint_frame(s, io, c, f);
    if (t && ms_now() - l0 > t->lazy_ms)
        t->lazy_ms = ms_now() - l0;
    return n;
}

unsigned tui_pending(const TuiState *s)
{
    unsigned p = 0;
    if (!s->store)
        return 0;
    if (s->plan_pending && (s->view == TUI_V_PROFILES || s->view == TUI_V_PROJECTION ||
                            s->view == TUI_V_GROUP || s->view == TUI_V_SCENARIOS))
        p |= TUI_PENDING_PLAN;
    if (s->view == TUI_V_USAGE && !s->model->heat_loaded)
        p |= TUI_PENDING_USAGE;
    if (s->view == TUI_V_USAGE && s->usage_state != TUI_USAGE_READY &&
        s->usage_state != TUI_USAGE_FAILED)
        p |= TUI_PENDING_POLICY;
    if (s->view == TUI_V_GROUP && s->member >= 0 && s->jobs_user != s->member)
        p |= TUI_PENDING_JOBS;
    return p;
}

/* The first key that brings a view up: how long its frame took (wall
 * and CPU) and what it still waited for. */
static void time_view_switch(TuiTimings *t, const TuiState *s, TuiViewId was, double ms,
                             double cpu)
{
    if (!t || was == s->view || t->view_seen[s->view])
        return;
    t->view_seen[s->view] = 1;
    t->view_ms[s->view] = ms;
    t->view_cpu_ms[s->view] = cpu;
    t->view_pending[s->view] = tui_pending(s);
    if (s->view == TUI_V_USAGE) {
        t->usage_switched = 1;
        t->usage_switch_ms = ms;
    }
}

int tui_run(TuiState *s, TuiIO *io, int max_frames, TuiTimings *t)
{
    io->size(io, &s->w, &s->h);
    Canvas *c = canvas_new(s->w, s->h);
    double t0 = ms_now();
    int frames = paint_frame(s, io, c, TUI_RECALC | TUI_REDRAW), stop = 0;
    double up = ms_now();
    if (t) {
        t->first_frame_ms += up - t0;
        t->first_frame_cpu_ms += tui_cpu_ms();
        t->view_seen[s->view] = 1;
        t->view_ms[s->view] = t->first_frame_ms;
        t->view_cpu_ms[s->view] = t->first_frame_cpu_ms;
        t->view_pending[s->view] = tui_pending(s);
    }
    frames += after_paint(s, io, c, t);
    /* The heat map from the aggregates and the planner by two workers
     * from the first frame (issue 20: the Usage view's heat map waits
     * neither for the planner nor for the energy replay); keys wait for
     * neither. */
    heat_bg_start(s);
    plan_bg_start(s);
    while (!stop && !(max_frames > 0 && frames >= max_frames)) {
        if (io->sync_bg && (s->plan_bg || s->jobs_bg)) {
            unsigned w = plan_bg_wait(s);
            if (w && t)
                t->plan_ms = ms_now() - up;
            double j0 = ms_now();
            unsigned j = jobs_bg_wait(s);
            if (j && t && t->jobs_ms == 0)
                t->jobs_ms = t->jobs_key_ms + (ms_now() - j0);
            frames += paint_frame(s, io, c, w | j);
        }
        /* The energy and fair-share replay once the planner is in: the two
         * biggest readers (about 0.9 and 1.9 GB at 10M jobs) one after the
         * other, never side by side. */
        if (!s->plan_pending)
            usage_bg_start(s);
        double k0;
        TuiViewId was = s->view;
        unsigned f = next_key(s, io, &stop, &k0);
        double c0 = tui_cpu_ms();
        if (stop)
            break;
        unsigned bg = plan_bg_poll(s); /* the workers' results, without a key */
        if (bg && t)
            t->plan_ms = ms_now() - up;
        bg |= heat_bg_poll(s) | usage_bg_poll(s) | jobs_bg_poll(s);
        if (!(f & TUI_SAVE))
            bg |= tui_watch_check(s, 0);
        if (paint_frame(s, io, c, f | bg)) {
            frames++;
            if (f) /* a key's frame, not a worker's result alone */
                time_frame(t, ms_now() - k0, tui_cpu_ms() - c0);
            time_view_switch(t, s, was, ms_now() - k0, tui_cpu_ms() - c0);
            frames += after_paint(s, io, c, t);
            if (t && s->jobs_bg && t->jobs_ms == 0)
                t->jobs_key_ms = ms_now() - k0; /* the member's jobs: key to worker start */
        }
    }
    canvas_free(c);
    return frames;
}

/* ---- the headless key script ------------------------------------------ */

static int script_read(TuiIO *io, int timeout_ms, TuiState *s)
{
    (void)timeout_ms;
    (void)s;
    TuiScript *sc = io->ctx;
    int key = tui_key_parse(&sc->at);
    if (key == TUI_KEY_EOF && sc->cycle && sc->keys[0]) {
        sc->at = sc->keys;
        key = tui_key_parse(&sc->at);
    }
    return key;
}

static void script_paint(TuiIO *io, const Canvas *c)
{
    (void)io;
    (void)c;
}

static void script_size(TuiIO *io, int *w, int *h)
{
    TuiScript *sc = io->ctx;
    *w = sc->w;
    *h = sc->h;
}

void tui_script_io(TuiIO *io, TuiScript *sc, const char *keys, int w, int h, int cycle)
{
    sc->keys = sc->at = keys ? keys : "";
    sc->w = w;
    sc->h = h;
    sc->cycle = cycle;
    io->read_key = script_read;
    io->paint = script_paint;
    io->size = script_size;
    io->ctx = sc;
    io->sync_bg = 1;
}

const TuiView *tui_view(TuiViewId id)
{
    static const TuiView *const views[TUI_V_COUNT] = {
        &view_overview, &view_groups, &view_group,    &view_profiles,
        &view_projection, &view_usage, &view_scenarios};
    return views[id >= 0 && id < TUI_V_COUNT ? id : 0];
}
