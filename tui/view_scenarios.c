/* view_scenarios: the scenarios stored in the database ("base", the
 * measured parameters, is always there); Enter switches the dashboard to
 * the selected one, N makes a new one from the current (tui/plan.c); under
 * them, the shown scenario's difference from base: each edit with its
 * measured value and reason, and the effect on next year's demand. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui/plan.h"
#include "tui/view.h"

enum { S_NAME, S_CURRENT, S_BASE, S_EDITS, S_COUNT };

static const TuiCol scols[S_COUNT] = {
    [S_NAME] = {"Scenario", 16, 2, 0, 0},
    [S_CURRENT] = {"Shown", 5, 0, 0, 0},
    [S_BASE] = {"From", 10, 1, 0, 1},
    [S_EDITS] = {"Edits", 5, 0, 1, 0},
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

static void s_cell(const TuiState *s, int row, int col, char *buf, size_t n)
{
    const char *name = name_of(s, row);
    switch (col) {
    case S_NAME: snprintf(buf, n, "%s", name); break;
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

/* One edit of the shown scenario: key, group, value, measured, reason. */
static void render_edit(const TuiState *s, const StorePlanParam *e, Canvas *c, int y)
{
    char group[128] = "", value[32], measured[32];
    if (e->group && e->group[0]) {
        int g = tui_model_group_find(s->model, e->group);
        if (g >= 0)
            tui_model_group_label(s->model, g, s->redact, group, sizeof group);
        else
            snprintf(group, sizeof group, "%s", s->redact ? "?" : e->group);
    }
    snprintf(value, sizeof value, "%g", e->value);
    if (isnan(e->measured))
        snprintf(measured, sizeof measured, "-");
    else
        snprintf(measured, sizeof measured, "%g", e->measured);
    canvas_textf(c, 1, y, c->w - 2, CV_EDITED, "%s%s%s = %s (measured %s)%s%s", e->key,
                 group[0] ? " @ " : "", group, value, measured, e->reason ? ": " : "",
                 e->reason ? e->reason : "");
}

/* What the shown scenario changes against base, and its effect. */
static void render_diff(const TuiState *s, Canvas *c, int y, int h)
{
    int n = tui_plan_nedits(s->plan);
    double a = tui_plan_total(s->plan, 1, 1), b = tui_plan_total(s->plan, 1, 0);
    canvas_textf(c, 1, y, c->w - 2, CV_BOLD,
                 "%s against base: %d edit%s, total demand next year %.1f -> %.1f GPUs (%+.1f)",
                 s->scenario, n, n == 1 ? "" : "s", a, b, b - a);
    for (int i = 0; i < n && i + 1 < h; i++)
        render_edit(s, tui_plan_edit(s->plan, i), c, y + 1 + i);
}

static void render(const TuiState *s, Canvas *c, int y, int h, TuiFrame *f)
{
    canvas_textf(c, 1, y, c->w - 2, CV_NORMAL, "%s",
                 s->plan ? "Enter shows the selected scenario \xc2\xb7 N new scenario from the shown one"
                         : "the planner is not available in this database: scenarios listed only");
    int th = s_nrows(s) + 2 < h / 2 ? s_nrows(s) + 2 : h / 2;
    table_draw(&table, s, &s->cur[TUI_V_SCENARIOS], c, 0, y + 1, c->w, s->plan ? th : h - 1, f);
    if (s->plan)
        render_diff(s, c, y + 2 + th, h - 2 - th);
}

static unsigned enter(TuiState *s)
{
    int row = table_selected(&s->cur[TUI_V_SCENARIOS]);
    if (row < 0)
        return 0;
    return tui_plan_switch(s, name_of(s, row));
}

const TuiView view_scenarios = {
    .name = "Scenarios",
    .tab = "Scenarios",
    .table = scen_table,
    .render = render,
    .enter = enter,
    .enter_label = "Show",
};
