/* view_scenarios: the scenarios stored in the database ("base", the
 * measured parameters, is always there); Enter switches the dashboard to
 * the selected one, N makes a new one from the shown one, c picks two to
 * compare (tui/compare.h). Under the list, the two side by side: the need
 * by year and memory class in each, then every parameter on which they
 * differ with its reason, who made the edit and when, and its effect
 * alone on next year's need. Without a pick: base against the shown
 * scenario. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tui/compare.h"
#include "tui/fmt.h"
#include "tui/plan.h"
#include "tui/view.h"

enum { S_NAME, S_CURRENT, S_BASE, S_EDITS, S_COUNT };

static const TuiCol scols[S_COUNT] = {
    [S_NAME] = {"Scenario", 16, 2, 0, 0},
    [S_CURRENT] = {"Shown", 5, 0, 0, 0},
    [S_BASE] = {"Made from", 10, 1, 0, 1},
    [S_EDITS] = {"Edits (count)", 13, 0, 1, 0},
};

/* Row 0 is the measured "base" unless the database stores one. */
static int has_base(const TuiState *s)
{
    for (int i = 0; i < s->model->nscenarios; i++)
        if (strcmp(s->model->scenarios[i], "base") == 0)
            return 1;
    return 0;
}

static int s_nrows(const TuiState *s)
{
    return s->model->nscenarios + !has_base(s);
}

static const char *name_of(const TuiState *s, int row)
{
    int extra = !has_base(s);
    return row < extra ? "base" : s->model->scenarios[row - extra];
}

static double s_value(const TuiState *s, int row, int col)
{
    return col == S_EDITS ? tui_plan_edits(s->plan, name_of(s, row)) : 0;
}

/* "A", "B" or "" for a scenario in the comparison. */
static const char *side_of(const TuiState *s, const char *name)
{
    const TuiCompare *c = s->cmp;
    if (!c)
        return "";
    if (strcmp(name, c->a) == 0)
        return "  A";
    if (strcmp(name, c->b) == 0)
        return "  B";
    return "";
}

static void s_cell(const TuiState *s, int row, int col, char *buf, size_t n)
{
    const char *name = name_of(s, row);
    switch (col) {
    case S_NAME: snprintf(buf, n, "%s%s", name, side_of(s, name)); break;
    case S_CURRENT: snprintf(buf, n, "%s", strcmp(name, s->scenario) == 0 ? "\xe2\x97\x8f" : ""); break;
    case S_BASE: snprintf(buf, n, "%s", tui_plan_base_of(s->plan, name)); break;
    case S_EDITS: {
        double v = s_value(s, row, col);
        if (v < 0)
            snprintf(buf, n, "-");
        else
            snprintf(buf, n, "%.0f", v);
        break;
    }
    default: buf[0] = '\0';
    }
}

static uint16_t s_attr(const TuiState *s, int row, int col)
{
    (void)col;
    return strcmp(name_of(s, row), s->scenario) == 0 ? CV_BOLD : CV_NORMAL;
}

static const TuiTable table = {scols, S_COUNT, s_nrows, s_cell, s_value, s_attr, -1, 0};

static const TuiTable *scen_table(const TuiState *s)
{
    (void)s;
    return &table;
}

/* ---- the comparison --------------------------------------------------- */

static void prepare(TuiState *s)
{
    compare_free(s->cmp);
    s->cmp = NULL;
    if (!s->plan || !s->store)
        return;
    const char *a = s->cmp_a[0] ? s->cmp_a : "base";
    const char *b = s->cmp_b[0] ? s->cmp_b : s->scenario;
    CpErr err = {""};
    s->cmp = compare_new(s->store, s->plan, s->model, a, b, &err);
    if (!s->cmp)
        tui_status(s, CV_BAD, 0, "cannot compare %s with %s: %s", a, b, err.msg);
}

static const char *const class_label[2][TUI_CLASSES] = {
    {"\xe2\x89\xa4" "24 GiB", "\xe2\x89\xa4" "48 GiB", "\xe2\x89\xa4" "80 GiB", ">80 GiB"},
    {"<=24 GiB", "<=48 GiB", "<=80 GiB", ">80 GiB"},
};

#define LABEL_W 16
#define YEAR_W 20

/* "453 -> 470 (+17)" */
static void need_cell(Canvas *c, int x, int y, double a, double b)
{
    char fa[16], fb[16], buf[64];
    fmt_gpus(a, fa, sizeof fa);
    fmt_gpus(b, fb, sizeof fb);
    if (fabs(b - a) < 0.05)
        snprintf(buf, sizeof buf, "%s = %s", fa, fb);
    else
        snprintf(buf, sizeof buf, "%s -> %s (%+.1f)", fa, fb, b - a);
    canvas_text_right(c, x, y, YEAR_W - 1, fabs(b - a) >= 0.05 ? CV_EDITED : CV_NORMAL, buf);
}

/* The need by year, every class then each: rows used. */
static int render_need(const TuiState *s, const TuiCompare *k, Canvas *c, int y, int h)
{
    int ny = k->ny, fit = (c->w - 1 - LABEL_W) / YEAR_W, row = y;
    if (ny > fit)
        ny = fit;
    canvas_fill(c, 0, row, c->w, ' ', CV_HEAD);
    char head[LABEL_W + 8];
    snprintf(head, sizeof head, "Need, %s", tui_plan_unit(s->plan)); /* mean a year */
    canvas_text(c, 1, row, LABEL_W, CV_HEAD | CV_BOLD, head);
    for (int i = 0; i < ny; i++) {
        char t[32];
        snprintf(t, sizeof t, "%d: A -> B", k->year[i]);
        canvas_text_right(c, 1 + LABEL_W + i * YEAR_W, row, YEAR_W - 1, CV_HEAD | CV_BOLD, t);
    }
    row++;
    if (row < y + h) {
        canvas_text(c, 1, row, LABEL_W, CV_BOLD, "every class");
        for (int i = 0; i < ny; i++)
            need_cell(c, 1 + LABEL_W + i * YEAR_W, row, k->need[0][i], k->need[1][i]);
        row++;
    }
    for (int cl = 0; cl < TUI_CLASSES && row < y + h; cl++, row++) {
        canvas_text(c, 1, row, LABEL_W, CV_NORMAL, class_label[s->ascii != 0][cl]);
        for (int i = 0; i < ny; i++)
            need_cell(c, 1 + LABEL_W + i * YEAR_W, row, k->need_c[0][i][cl], k->need_c[1][i][cl]);
    }
    return row - y;
}

static void when_text(int64_t at, char *buf, size_t n)
{
    time_t t = (time_t)at;
    struct tm tm;
    if (at <= 0 || !gmtime_r(&t, &tm)) {
        snprintf(buf, n, "-");
        return;
    }
    strftime(buf, n, "%Y-%m-%d %H:%M", &tm);
}

/* One differing parameter on two rows: key @ group, A's value, B's, its
 * effect; then why, who and when. */
static void render_edit(const TuiState *s, const CmpEdit *e, Canvas *c, int y, int two)
{
    char group[128] = "", va[32], vb[32], eff[32], when[32], who[80];
    if (e->group[0]) {
        int g = tui_model_group_find(s->model, e->group);
        if (g >= 0)
            tui_model_group_label(s->model, g, s->redact, group, sizeof group);
        else
            snprintf(group, sizeof group, "%s", s->redact ? "a group" : e->group);
    }
    tui_plan_value_text(e->key, e->a, va, sizeof va);
    tui_plan_value_text(e->key, e->b, vb, sizeof vb);
    if (isnan(e->effect))
        snprintf(eff, sizeof eff, "-");
    else
        snprintf(eff, sizeof eff, "%+.1f %s", e->effect, tui_plan_unit(s->plan));
    canvas_textf(c, 1, y, c->w - 2, CV_EDITED, "%s%s%s: %s%s -> %s%s \xc2\xb7 next year %s",
                 e->key, group[0] ? " @ " : "", group, va, e->edited_a ? "" : " (measured)", vb,
                 e->edited_b ? "" : " (measured)", eff);
    if (!two)
        return;
    when_text(e->why->at, when, sizeof when);
    snprintf(who, sizeof who, "%s", s->redact ? "(hidden)" : e->why->who ? e->why->who : "-");
    canvas_textf(c, 3, y + 1, c->w - 4, CV_NORMAL, "why%s: %s \xc2\xb7 %s, %s UTC",
                 e->why_from_a ? " (in A)" : "",
                 e->why->reason && e->why->reason[0] ? e->why->reason : "(no reason)", who, when);
}

static void render_compare(const TuiState *s, Canvas *c, int y, int h)
{
    const TuiCompare *k = s->cmp;
    if (!k || h < 3)
        return;
    double d = k->ny > 0 ? k->need[1][0] - k->need[0][0] : NAN;
    canvas_textf(c, 1, y, c->w - 2, CV_BOLD,
                 "A %s against B %s: %d parameter%s, need next year %+.1f %s%s", k->a, k->b,
                 k->nedits, k->nedits == 1 ? " differs" : "s differ", d, tui_plan_unit(s->plan),
                 s->cmp_picking ? " \xc2\xb7 c on a second scenario" : " \xc2\xb7 c picks two");
    int used = render_need(s, k, c, y + 1, h - 1);
    int row = y + 1 + used;
    if (row + 1 >= y + h)
        return;
    canvas_textf(c, 1, row++, c->w - 2, CV_BOLD,
                 "Parameters that differ: A -> B \xc2\xb7 effect alone on next year's need; "
                 "why \xc2\xb7 who, when");
    if (k->nedits == 0 && row < y + h)
        canvas_text(c, 1, row, c->w - 2, CV_DIM, "none: the two hold the same values");
    for (int i = 0; i < k->nedits && row < y + h; i++, row += 2) {
        if (row + 2 > y + h - 1 && i + 1 < k->nedits) {
            canvas_textf(c, 1, row, c->w - 2, CV_DIM, "... %d more (capplan scenario diff %s %s)",
                         k->nedits - i, k->a, k->b);
            break;
        }
        render_edit(s, &k->edits[i], c, row, row + 1 < y + h);
    }
}

static void render(const TuiState *s, Canvas *c, int y, int h, TuiFrame *f)
{
    canvas_textf(c, 1, y, c->w - 2, CV_NORMAL, "%s",
                 s->plan           ? "Enter shows the selected scenario \xc2\xb7 N new from the shown "
                                       "one \xc2\xb7 c picks two to compare"
                 : s->plan_pending ? "reading the planner\xe2\x80\xa6 (scenarios listed meanwhile)"
                                   : "the planner is not available in this database: scenarios "
                                     "listed only");
    int n = s_nrows(s) + 1, th = n < h / 3 ? n : h / 3;
    if (th < 3)
        th = 3;
    table_draw(&table, s, &s->cur[TUI_V_SCENARIOS], c, 0, y + 1, c->w, s->plan ? th : h - 1, f);
    if (s->plan)
        render_compare(s, c, y + 2 + th, h - 2 - th);
}

static unsigned enter(TuiState *s)
{
    int row = table_selected(&s->cur[TUI_V_SCENARIOS]);
    if (row < 0)
        return 0;
    return tui_plan_switch(s, name_of(s, row));
}

/* c: the selected scenario is the first of the two, then the second. */
unsigned view_scenarios_pick(TuiState *s)
{
    int row = table_selected(&s->cur[TUI_V_SCENARIOS]);
    if (s->view != TUI_V_SCENARIOS || row < 0 || !s->plan)
        return 0;
    const char *name = name_of(s, row);
    if (!s->cmp_picking) {
        snprintf(s->cmp_a, sizeof s->cmp_a, "%s", name);
        s->cmp_picking = 1;
        tui_status(s, CV_STATUS, 8000, "A = %s; select the other scenario and press c", name);
        return TUI_RECALC | TUI_REDRAW;
    }
    snprintf(s->cmp_b, sizeof s->cmp_b, "%s", name);
    s->cmp_picking = 0;
    tui_status(s, CV_GOOD, 0, "comparing A %s with B %s", s->cmp_a, name);
    return TUI_RECALC | TUI_REDRAW;
}

static unsigned esc(TuiState *s)
{
    if (!s->cmp_picking)
        return 0;
    s->cmp_picking = 0;
    s->cmp_a[0] = s->cmp_b[0] = '\0';
    tui_status(s, CV_STATUS, 3000, "comparison back to base against the shown scenario");
    return TUI_RECALC | TUI_REDRAW;
}

const TuiView view_scenarios = {
    .name = "Scenarios",
    .tab = "Scenarios",
    .table = scen_table,
    .render = render,
    .prepare = prepare,
    .enter = enter,
    .enter_label = "Show",
    .esc = esc,
};
