/* view_projection: every parameter of the projection for the shown group
 * (its growth, bursting share, GPUs per burst, buffer), for each profile
 * (GPUs per member, memory) and the planned purchases, the measured value
 * beside the scenario's; Enter or e edits the selected one in place and
 * the demand on the right is recomputed at once, against the base
 * scenario. [ and ] show the previous and next group. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/actions.h"
#include "tui/fmt.h"
#include "tui/institute.h"
#include "tui/plan.h"
#include "tui/view.h"

#define PANEL_W 37 /* the demand panel on the right */

enum { P_PARAM, P_MEASURED, P_VALUE, P_REASON, P_COUNT };

static const TuiCol pcols[P_COUNT] = {
    [P_PARAM] = {"Parameter", 18, 2, 0, 0},
    [P_MEASURED] = {"Measured", 8, 0, 1, 0},
    [P_VALUE] = {"Scenario", 9, 0, 1, 0},
    [P_REASON] = {"Reason", 10, 1, 0, 1},
};

/* The plan group shown: the dashboard's group when planned, else the
 * first planned one. */
static int shown_group(const TuiState *s)
{
    int g = tui_plan_group(s->plan, s->model, s->group);
    return g >= 0 ? g : 0;
}

static int is_pct(const char *key)
{
    return strcmp(key, "growth") == 0 || strcmp(key, "intensity") == 0 ||
           strcmp(key, "buffer") == 0;
}

static void key_of(const TuiState *s, int row, char *key, size_t n)
{
    tui_plan_param_key(s->plan, row, key, n);
}

static void param_label(const TuiState *s, const char *key, char *buf, size_t n)
{
    const Plan *p = tui_plan_plan(s->plan);
    int k;
    char cls[32];
    if (strcmp(key, "growth") == 0)
        snprintf(buf, n, "head-count growth a year");
    else if (strcmp(key, "pool") == 0)
        snprintf(buf, n, "pool GPU-eq");
    else if (strcmp(key, "buffer") == 0)
        snprintf(buf, n, "buffer");
    else if (strcmp(key, "intensity") == 0)
        snprintf(buf, n, "intensity a year (all)");
    else if (strcmp(key, "halflife") == 0)
        snprintf(buf, n, "half-life, months (all)");
    else if (sscanf(key, "gpus.%d", &k) == 1 && k >= 1 && k <= p->fit.k)
        snprintf(buf, n, "GPU-eq/member P%d %s", k, p->names[k - 1]);
    else if (sscanf(key, "mem.%d", &k) == 1 && k >= 1 && k <= p->fit.k)
        snprintf(buf, n, "GiB/GPU P%d %s", k, p->names[k - 1]);
    else if (sscanf(key, "purchase.%31[^.].y%d", cls, &k) == 2)
        snprintf(buf, n, "buy %s GPUs, y%d", cls, k);
    else
        snprintf(buf, n, "%s", key);
}

static void value_text(const char *key, double v, char *buf, size_t n)
{
    if (isnan(v))
        snprintf(buf, n, "-");
    else if (is_pct(key))
        fmt_pct(v, buf, n);
    else if (strncmp(key, "mem.", 4) == 0 && v < 0)
        snprintf(buf, n, "unknown");
    else
        fmt_gpus(v, buf, n);
}

static int p_nrows(const TuiState *s)
{
    return tui_plan_nparams(s->plan);
}

static double p_value(const TuiState *s, int row, int col)
{
    char key[48];
    key_of(s, row, key, sizeof key);
    if (col == P_MEASURED)
        return tui_plan_value(s->plan, key, shown_group(s), 1);
    if (col == P_VALUE)
        return tui_plan_value(s->plan, key, shown_group(s), 0);
    return NAN;
}

static void p_cell(const TuiState *s, int row, int col, char *buf, size_t n)
{
    char key[48], v[32];
    const char *reason = NULL;
    key_of(s, row, key, sizeof key);
    switch (col) {
    case P_PARAM: param_label(s, key, buf, n); break;
    case P_MEASURED: value_text(key, p_value(s, row, col), buf, n); break;
    case P_VALUE:
        value_text(key, p_value(s, row, col), v, sizeof v);
        snprintf(buf, n, "%s%s", v, tui_plan_edited(s->plan, key, shown_group(s), NULL) ? "*" : "");
        break;
    case P_REASON:
        tui_plan_edited(s->plan, key, shown_group(s), &reason);
        snprintf(buf, n, "%s", reason ? reason : "");
        break;
    default: buf[0] = '\0';
    }
}

static uint16_t p_attr(const TuiState *s, int row, int col)
{
    char key[48];
    key_of(s, row, key, sizeof key);
    if (col == P_VALUE && tui_plan_edited(s->plan, key, shown_group(s), NULL))
        return CV_EDITED | CV_BOLD;
    if (col == P_MEASURED)
        return CV_DIM;
    return CV_NORMAL;
}

static const TuiTable params = {pcols, P_COUNT, p_nrows, p_cell, p_value, p_attr, -1, 0};

static const TuiTable *proj_table(const TuiState *s)
{
    return s->plan && !s->institute ? &params : NULL;
}

/* ---- the demand panel ------------------------------------------------- */

static const char *const class_names[2][TUI_CLASSES] = {
    {"\xe2\x89\xa4" "24 GiB", "\xe2\x89\xa4" "48 GiB", "\xe2\x89\xa4" "80 GiB", ">80 GiB"},
    {"<=24 GiB", "<=48 GiB", "<=80 GiB", ">80 GiB"}, /* ASCII: the canvas has no "<=" glyph */
};

/* A label and one figure per projected year. */
static void panel_row(Canvas *c, int x, int y, const char *label, const double *v, int ny,
                      uint16_t attr, int sign)
{
    char buf[32];
    canvas_text(c, x, y, 15, attr, label);
    for (int i = 0; i < ny && i < 3; i++) {
        if (sign && !isnan(v[i]))
            snprintf(buf, sizeof buf, "%+.2f", v[i]);
        else
            fmt_gpus(v[i], buf, sizeof buf);
        canvas_text_right(c, x + 15 + 7 * i, y, 7, attr, buf);
    }
}

static void render_panel(const TuiState *s, Canvas *c, int x, int y, int h)
{
    const ProjResult *r = tui_plan_result(s->plan, 0), *b = tui_plan_result(s->plan, 1);
    int g = shown_group(s), ny = r->nyears < 3 ? r->nyears : 3, row = y;
    enum { NR = 15 };
    double v[3][NR];
    const char *labels[NR] = {"members",     "stayers",   "leavers", "newcomers",
                              "intensity",   "expected use", "  p10", "  p90",
                              "pool",        "buffer",    "need",    "base scenario",
                              "change",      "all: need", "gap"};
    for (int i = 0; i < ny; i++) {
        const ProjGroupYear *gy = &r->gy[g * r->nyears + i], *by = &b->gy[g * b->nyears + i];
        double row_v[NR] = {gy->heads,     gy->stayers,   gy->leavers,   gy->newcomers_use,
                            gy->intensity, gy->base,      gy->base_r.lo, gy->base_r.hi,
                            gy->pool,      gy->buffer_add, gy->demand,   by->demand,
                            gy->demand - by->demand, r->total[i].demand, r->total[i].gap};
        for (int k = 0; k < NR; k++)
            v[i][k] = row_v[k];
    }
    char title[64];
    canvas_text(c, x, row, 15, CV_BOLD, tui_plan_unit(s->plan));
    for (int i = 0; i < ny; i++) {
        snprintf(title, sizeof title, "y%d", i + 1);
        canvas_text_right(c, x + 15 + 7 * i, row, 7, CV_BOLD, title);
    }
    row++;
    if (ny > 0 && isnan(v[0][6]))
        labels[6] = "  p10 not calib.", labels[7] = "  p90 not calib.";
    for (int k = 0; k < NR && row < y + h; k++, row++) {
        double line[3] = {NAN, NAN, NAN};
        for (int i = 0; i < ny; i++)
            line[i] = v[i][k];
        uint16_t a = k == 10 ? CV_EDITED | CV_BOLD : k == 12 && fabs(line[0]) > 0.005 ? CV_EDITED
                   : k == 14 && line[0] > 0 ? CV_BAD : (k == 6 || k == 7) ? CV_DIM : CV_NORMAL;
        panel_row(c, x, row, labels[k], line, ny, a, k == 12 || (k >= 1 && k <= 4));
        if (k == 4 || k == 12)
            row++; /* a gap before expected use, and before the totals */
    }
    for (int cl = 0; cl < TUI_CLASSES && row < y + h; cl++, row++) {
        double line[3] = {NAN, NAN, NAN};
        for (int i = 0; i < ny; i++)
            line[i] = r->gy[g * r->nyears + i].demand_c[cl];
        panel_row(c, x, row, class_names[s->ascii != 0][cl], line, ny, CV_NORMAL, 0);
    }
}

static void render(const TuiState *s, Canvas *c, int y, int h, TuiFrame *f)
{
    if (!s->plan) {
        canvas_text(c, 1, y + 1, c->w - 2, CV_DIM,
                    s->plan_pending ? "reading the planner..."
                                    : "No projection: the database has no jobs to plan from "
                                      "(import accounting data, then capplan profile).");
        return;
    }
    if (s->institute) {
        institute_render(s, c, y, h);
        return;
    }
    const Plan *p = tui_plan_plan(s->plan);
    char name[128];
    int mg = tui_model_group_find(s->model, p->groups[shown_group(s)]);
    tui_model_group_label(s->model, mg, s->redact, name, sizeof name);
    canvas_textf(c, 1, y, c->w - 2, CV_BOLD,
                 "%s \xc2\xb7 scenario %s against base \xc2\xb7 [ ] other group \xc2\xb7 "
                 "Enter: value and why, one line", name, s->scenario);
    int lw = c->w - PANEL_W - 1;
    table_draw(&params, s, &s->cur[TUI_V_PROJECTION], c, 0, y + 1, lw, h - 1, f);
    render_panel(s, c, lw + 1, y + 1, h - 1);
}

/* ---- editing ---------------------------------------------------------- */

static unsigned edit(TuiState *s)
{
    int row = table_selected(&s->cur[TUI_V_PROJECTION]);
    if (!s->plan || row < 0 || s->institute)
        return 0;
    char key[48], label[128], now[32];
    key_of(s, row, key, sizeof key);
    param_label(s, key, label, sizeof label);
    double v = tui_plan_value(s->plan, key, shown_group(s), 0);
    if (is_pct(key))
        snprintf(now, sizeof now, "%.4g", v * 100);
    else
        snprintf(now, sizeof now, "%.4g", v);
    char full[256];
    const char *why = NULL;
    if (tui_plan_edited(s->plan, key, shown_group(s), &why) && why && why[0])
        snprintf(full, sizeof full, "%s%s, then why (none: keep '%.40s')", label,
                 is_pct(key) ? " (%)" : "", why);
    else
        snprintf(full, sizeof full, "%s%s, then why (required)", label, is_pct(key) ? " (%)" : "");
    actions_prompt_open(s, TUI_P_EDIT, full, now);
    s->prompt.row = row;
    s->prompt.col = P_VALUE;
    snprintf(s->prompt.key, sizeof s->prompt.key, "%s", key);
    s->cur[TUI_V_PROJECTION].col = P_VALUE;
    return TUI_REDRAW;
}

/* "20", "20%", "20 % two new students": the number, then the reason. */
static int parse_edit(const char *text, int pct, double *v, const char **reason)
{
    char *end;
    *v = strtod(text, &end);
    if (end == text || !isfinite(*v))
        return -1;
    if (pct && (*end == '%' || (*end == ' ' && end[strspn(end, " ")] == '%')))
        end += strspn(end, " ") + 1; /* the unit */
    if (*end && *end != ' ')
        return -1; /* "2x0": text in the number */
    end += strspn(end, " ");
    *reason = *end ? end : NULL;
    if (pct)
        *v /= 100;
    return 0;
}

static unsigned edit_accept(TuiState *s)
{
    const char *key = s->prompt.key, *reason;
    double v;
    CpErr err = {""};
    if (parse_edit(s->prompt.text, is_pct(key), &v, &reason) < 0) {
        tui_status(s, CV_BAD, 0, "refused: '%s' is not a number%s", s->prompt.text,
                   is_pct(key) ? " (in %)" : "");
        return TUI_REDRAW;
    }
    if (strcmp(key, "growth") == 0 && v < 0) {
        tui_status(s, CV_BAD, 0, "refused: growth cannot be negative");
        return TUI_REDRAW;
    }
    double before = tui_plan_result(s->plan, 0)->gy[shown_group(s) * tui_plan_result(s->plan, 0)->nyears].demand;
    if (tui_plan_set(s, key, shown_group(s), v, reason, &err) < 0) {
        tui_status(s, CV_BAD, 0, "refused: %s", err.msg);
        return TUI_REDRAW;
    }
    s->prompt.kind = TUI_P_NONE;
    const ProjResult *r = tui_plan_result(s->plan, 0);
    tui_status(s, CV_GOOD, 0, "saved to %s: need next year %.2f -> %.2f %s; %s; u undoes",
               s->scenario, before, r->gy[shown_group(s) * r->nyears].demand,
               tui_plan_unit(s->plan), s->edit_note);
    return TUI_SAVE | TUI_RECALC | TUI_REDRAW;
}

static unsigned enter(TuiState *s)
{
    return edit(s);
}

const TuiView view_projection = {
    .name = "Projection",
    .tab = "Projection",
    .table = proj_table,
    .render = render,
    .enter = enter,
    .enter_label = "Edit",
    .edit = edit,
    .edit_accept = edit_accept,
};
