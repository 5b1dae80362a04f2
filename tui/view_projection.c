/* view_projection: the shown group's projection: a chart of what it uses
 * now and needs each projected year (calendar years named) on one GPU-eq
 * scale with the p10-p90 band; every parameter (head-count growth, pool,
 * buffer, per profile GPU-eq per member and memory, purchases), the
 * measured value beside the scenario's, Enter or e editing the selected
 * one in place; the need in parts (data/plan_explain, the same figures as
 * `capplan project --explain`) with the people they come from, then the
 * institute's in a table of its own when there is room. The institute's
 * page (an institute alert) charts past years' use and capacity beside
 * the projected need. Keys [ and ] show the previous and next group. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/plan/plan_explain.h"
#include "tui/actions.h"
#include "tui/editform.h"
#include "tui/empty.h"
#include "tui/fmt.h"
#include "tui/institute.h"
#include "tui/plan.h"
#include "tui/view.h"
#include "tui/watch.h"

#define PANEL_W 37 /* the demand panel on the right */

enum { P_PARAM, P_MEASURED, P_VALUE, P_REASON, P_COUNT };

static const TuiCol pcols[P_COUNT] = {
    [P_PARAM] = {"Parameter", 18, 2, 0, 0},
    [P_MEASURED] = {"Measured", 8, 0, 1, 0, 0, "Measured (in % for growth, buffer, intensity)", 0},
    [P_VALUE] = {"Scenario", 9, 0, 1, 0, 0, "Scenario (in % for growth, buffer, intensity)", 0},
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

/* The calendar year of projected year y (1-based), as the Overview names
 * it, else "year N". */
static void year_name(const TuiState *s, int y, char *buf, size_t n)
{
    const TuiModel *m = s->model;
    int i = m->nhist_years + y - 1;
    /* a projected year whose calendar year was measured already (a short
     * history) is named by its distance, as the Overview names it: never
     * the same year twice on the institute's chart */
    if (i >= 0 && i < m->nyears && m->years[i].projected && m->nhist_years > 0 &&
        m->years[i].year <= m->years[m->nhist_years - 1].year)
        snprintf(buf, n, "+%dy", y);
    else if (i >= 0 && i < m->nyears && m->years[i].projected)
        snprintf(buf, n, "%d", m->years[i].year);
    else
        snprintf(buf, n, "year %d", y);
}

static void param_label(const TuiState *s, const char *key, char *buf, size_t n)
{
    const Plan *p = tui_plan_plan(s->plan);
    int k;
    char cls[32], yn[24];
    if (strcmp(key, "growth") == 0)
        snprintf(buf, n, "head-count growth a year");
    else if (strcmp(key, "pool") == 0)
        snprintf(buf, n, "pool %s", tui_plan_unit(s->plan));
    else if (strcmp(key, "buffer") == 0)
        snprintf(buf, n, "buffer");
    else if (strcmp(key, "intensity") == 0)
        snprintf(buf, n, "intensity a year (all)");
    else if (strcmp(key, "halflife") == 0)
        snprintf(buf, n, "half-life, months (all)");
    else if (sscanf(key, "gpus.%d", &k) == 1 && k >= 1 && k <= p->fit.k)
        snprintf(buf, n, "%s/member P%d %s", tui_plan_unit(s->plan), k, p->names[k - 1]);
    else if (sscanf(key, "mem.%d", &k) == 1 && k >= 1 && k <= p->fit.k)
        snprintf(buf, n, "GiB/GPU P%d %s", k, p->names[k - 1]);
    else if (sscanf(key, "purchase.%31[^.].y%d", cls, &k) == 2)
        year_name(s, k, yn, sizeof yn), snprintf(buf, n, "buy %s GPUs from %s", cls, yn);
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

/* A parameter's value in the planner's units (growth 0.2). */
static double raw_value(const TuiState *s, int row, int col)
{
    char key[48];
    key_of(s, row, key, sizeof key);
    if (col == P_MEASURED)
        return tui_plan_value(s->plan, key, shown_group(s), 1);
    if (col == P_VALUE)
        return tui_plan_value(s->plan, key, shown_group(s), 0);
    return NAN;
}

/* As shown: percentages in percent (20), for sorting and the CSV. */
static double p_value(const TuiState *s, int row, int col)
{
    char key[48];
    key_of(s, row, key, sizeof key);
    return raw_value(s, row, col) * (is_pct(key) ? 100 : 1);
}

static void p_cell(const TuiState *s, int row, int col, char *buf, size_t n)
{
    char key[48], v[32];
    const char *reason = NULL;
    key_of(s, row, key, sizeof key);
    switch (col) {
    case P_PARAM: param_label(s, key, buf, n); break;
    case P_MEASURED: value_text(key, raw_value(s, row, col), buf, n); break;
    case P_VALUE:
        value_text(key, raw_value(s, row, col), v, sizeof v);
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

/* ---- the chart: used (past) and need (future) on one scale --------- */

#define CHART_TEXT 34 /* the figures right of the bars */
#define PARTS_ROWS 12 /* used now, header, seven parts, need, p10, p90 */

/* One row of the chart: a year, what was used or is needed, its p10-p90,
 * the capacity (NAN: none drawn). */
typedef struct Bar {
    char label[24];
    double v, lo, hi, cap;
    int projected, now;
} Bar;

static int nyears_shown(const ProjResult *r)
{
    return r->nyears < 3 ? r->nyears : 3;
}

static int bar_col(double v, double scale, int bw)
{
    int x = (int)lround((v > 0 ? v : 0) / scale * bw);
    return x > bw ? bw : x;
}

/* █ up to p10, ▓ from p10 to the figure, ▒ from it to p90, │ capacity. */
static void chart_row(const TuiState *s, Canvas *c, int x, int y, int w, const Bar *b,
                      double scale)
{
    int bw = w - 7 - CHART_TEXT;
    if (bw < 8)
        bw = 8;
    uint16_t on = b->projected ? CV_EDITED : CV_ACCENT;
    canvas_text(c, x + 1, y, 5, b->projected ? CV_EDITED | CV_BOLD : CV_NORMAL, b->label);
    int vx = bar_col(b->v, scale, bw);
    if (!isnan(b->lo) && !isnan(b->hi)) {
        int lx = bar_col(b->lo, scale, bw), hx = bar_col(b->hi, scale, bw);
        canvas_fill(c, x + 7 + vx, y, hx - vx, 0x2592, CV_DIM);
        canvas_bar(c, x + 7, y, lx < vx ? lx : vx, 1.0, on);
        if (lx < vx)
            canvas_fill(c, x + 7 + lx, y, vx - lx, 0x2593, on);
    } else
        canvas_bar(c, x + 7, y, vx, 1.0, on);
    if (!isnan(b->cap) && b->cap > 0) {
        int cx = bar_col(b->cap, scale, bw);
        canvas_fill(c, x + 7 + (cx < bw ? cx : bw - 1), y, 1, 0x2502,
                    b->v > b->cap ? CV_BAD | CV_BOLD : CV_GOOD | CV_BOLD);
    }
    char a[32], lo[32], hi[32], cp[32];
    const char *u = tui_plan_unit(s->plan);
    fmt_gpus(b->v, a, sizeof a);
    fmt_gpus(b->cap, cp, sizeof cp);
    int tx = x + 8 + bw, tw = w - 8 - bw;
    uint16_t ta = b->projected && !isnan(b->cap) && b->v > b->cap ? CV_BAD : CV_NORMAL;
    if (b->projected && !isnan(b->lo)) {
        fmt_gpus(b->lo, lo, sizeof lo);
        fmt_gpus(b->hi, hi, sizeof hi);
        if (isnan(b->cap))
            canvas_textf(c, tx, y, tw, ta, "need %s (%s-%s) %s", a, lo, hi, u);
        else
            canvas_textf(c, tx, y, tw, ta, "need %s (%s-%s) of %s %s", a, lo, hi, cp, u);
    } else if (b->projected)
        canvas_textf(c, tx, y, tw, ta, "need %s (not calibrated) %s", a, u);
    else if (b->now)
        canvas_textf(c, tx, y, tw, CV_NORMAL, "used now %s %s", a, u);
    else if (!isnan(b->cap) && b->cap > 0)
        canvas_textf(c, tx, y, tw, CV_NORMAL, "used %s of %s %s", a, cp, u);
    else
        canvas_textf(c, tx, y, tw, CV_NORMAL, "used %s %s", a, u);
}

static void chart(const TuiState *s, Canvas *c, int x, int y, int w, const Bar *b, int n)
{
    const Plan *p = tui_plan_plan(s->plan);
    double scale = 0;
    int cap = 0;
    for (int i = 0; i < n; i++) {
        scale = fmax(scale, isnan(b[i].v) ? 0 : b[i].v);
        scale = fmax(scale, isnan(b[i].hi) ? 0 : b[i].hi);
        scale = fmax(scale, isnan(b[i].cap) ? 0 : b[i].cap);
        cap |= !isnan(b[i].cap);
    }
    if (scale <= 0)
        scale = 1;
    const char *legend = cap ? ": \xe2\x96\x88 used, need \xe2\x96\x93\xe2\x96\x92 p10-p90 "
                               "\xe2\x94\x82 capacity"
                             : ": \xe2\x96\x88 used, need \xe2\x96\x93\xe2\x96\x92 p10-p90";
    if (p->cpu)
        canvas_textf(c, x + 1, y, w - 2, CV_BOLD, "Mean CPUs a year%s", legend);
    else if (w >= 70)
        canvas_textf(c, x + 1, y, w - 2, CV_BOLD, "Mean GPU-eq a year, %s = 1.0%s", p->ref_model,
                     legend);
    else
        canvas_textf(c, x + 1, y, w - 2, CV_BOLD, "GPU-eq, %s = 1%s", p->ref_model, legend);
    for (int i = 0; i < n; i++)
        chart_row(s, c, x, y + 1 + i, w, &b[i], scale);
}

/* The group's chart: used now, then the need of each projected year. */
static int group_bars(const TuiState *s, int g, Bar *b)
{
    const ProjResult *r = tui_plan_result(s->plan, 0);
    const Plan *p = tui_plan_plan(s->plan);
    int n = 0;
    b[n++] = (Bar){"now", projection_used_now(p->model, g), NAN, NAN, NAN, 0, 1};
    for (int y = 1; y <= nyears_shown(r); y++, n++) {
        const ProjGroupYear *t = &r->gy[(size_t)g * r->nyears + y - 1];
        b[n] = (Bar){"", t->demand, t->demand_r.lo, t->demand_r.hi, NAN, 1, 0};
        year_name(s, y, b[n].label, sizeof b[n].label);
    }
    return n;
}

/* The institute's chart: its last `past` calendar years (used and
 * capacity, as the Overview draws them), then the projected years. */
static int institute_bars(const TuiState *s, int past, Bar *b)
{
    const TuiModel *m = s->model;
    const ProjResult *r = tui_plan_result(s->plan, 0);
    int n = 0, first = m->nhist_years - past;
    for (int i = first < 0 ? 0 : first; i < m->nhist_years; i++, n++) {
        /* no inventory: no capacity line (never a capacity of 0) */
        double cap = m->years[i].cap_gpus > 0 ? m->years[i].cap_gpus : NAN;
        b[n] = (Bar){"", m->years[i].used_gpus, NAN, NAN, cap, 0, 0};
        snprintf(b[n].label, sizeof b[n].label, "%d", m->years[i].year);
    }
    for (int y = 1; y <= nyears_shown(r); y++, n++) {
        const ProjTotals *t = &r->total[y - 1];
        b[n] = (Bar){"", t->demand, t->demand_r.lo, t->demand_r.hi,
                     t->capacity > 0 ? t->capacity : NAN, 1, 0};
        year_name(s, y, b[n].label, sizeof b[n].label);
    }
    return n;
}

/* ---- the need in parts (data/plan_explain: as project --explain) ------ */

static int cmp_label(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* Up to a line of the people of group g (-1: all): today's members, or
 * those leaving before year 1 ends with the date, as the tables name them
 * (pseudonyms in presentation mode, then in the pseudonyms' order: the
 * planner's is the real names', #29 item 5). */
static int people_lines(const TuiState *s, Canvas *c, int x, int y, int w, int g, int leaving,
                        int lines)
{
    const Plan *p = tui_plan_plan(s->plan);
    enum { MAXP = 96, NAME = 96 };
    int n = plan_explain_people(p, g, 1, leaving, NULL, 0), o, at = 0;
    /* hidden names: every one, sorted, then cut (the first MAXP of the
     * planner's order would be the alphabetically first real names) */
    int k = s->redact ? n : n < MAXP ? n : MAXP;
    int *idx = xmalloc((size_t)(k ? k : 1) * sizeof *idx);
    char(*names)[NAME] = xmalloc((size_t)(k ? k : 1) * sizeof *names);
    plan_explain_people(p, g, 1, leaving, idx, k);
    char buf[512];
    for (int i = 0; i < k; i++) {
        char *name = names[i];
        int u = tui_model_user_find(s->model, p->proj_user_name[idx[i]]);
        if (u >= 0 || s->redact)
            tui_model_user_label(s->model, u, s->redact, name, NAME);
        else
            snprintf(name, NAME, "%s", p->proj_user_name[idx[i]]);
        if (leaving) { /* with the date: " (leaves 2027-03-31)" */
            char when[48];
            plan_explain_leave_text(p, idx[i], 1, when, sizeof when);
            snprintf(name + strlen(name), NAME - strlen(name), "%s", when);
        }
    }
    if (s->redact)
        qsort(names, (size_t)k, sizeof *names, cmp_label);
    o = snprintf(buf, sizeof buf, "  %s (%d):", leaving ? "leaving" : "members", n);
    if (n == 0)
        snprintf(buf + o, sizeof buf - (size_t)o, " none");
    for (int i = 0; i < k; i++) {
        if (canvas_width(c, buf) + 1 + canvas_width(c, names[i]) > w - 2 && at + 1 < lines) {
            canvas_text(c, x + 1, y + at++, w - 2, CV_DIM, buf);
            o = snprintf(buf, sizeof buf, "   ");
        }
        if (o < (int)sizeof buf)
            o += snprintf(buf + o, sizeof buf - (size_t)o, " %s", names[i]);
    }
    canvas_text(c, x + 1, y + at++, w - 2, CV_DIM, buf);
    free(idx);
    free(names);
    return at;
}

/* A figure of the parts: 2 decimals below 100, 1 below 1000, else none;
 * signed for the parts; "n/c" not calibrated. */
static void part_text(double v, int sign, char *buf, size_t n)
{
    double a = fabs(v);
    int d = a < 99.995 ? 2 : a < 999.95 ? 1 : 0;
    if (isnan(v))
        snprintf(buf, n, "n/c");
    else if (sign)
        snprintf(buf, n, "%+.*f", d, a < 0.005 ? 0.0 : v);
    else
        snprintf(buf, n, "%.*f", d, v);
}

/* One table of the need in parts for g (-1: the institute) and each
 * shown year, with the people when names is set; returns the rows drawn. */
static int render_parts(const TuiState *s, Canvas *c, int x, int y, int w, int h, int g,
                        const char *who, int names)
{
    const Plan *p = tui_plan_plan(s->plan);
    const ProjResult *r = tui_plan_result(s->plan, 0);
    const ProjParams *pp = tui_plan_params(s->plan, 0);
    PlanExplain ex[3];
    int ny = nyears_shown(r), YEAR_W = w >= 50 ? 9 : 7, lw = w - 1 - YEAR_W * ny, row = y;
    for (int i = 0; i < ny; i++)
        plan_explain(p, pp, r, g, i + 1, &ex[i]);
    if (h < 3 || ny == 0)
        return 0;
    char a[32], b[32], yn[24];
    const char *u = tui_plan_unit(s->plan);
    fmt_gpus(ex[0].need, a, sizeof a);
    fmt_gpus(ex[0].used_now, b, sizeof b);
    char head[256];
    snprintf(head, sizeof head, "%s: need next year %s %s, used now %s %s", who, a, u, b, u);
    if (canvas_width(c, head) > w - 2)
        snprintf(head, sizeof head, "need %s, used now %s %s", a, b, u);
    canvas_text(c, x + 1, row++, w - 2, CV_BOLD, head);
    canvas_fill(c, x, row, w, ' ', CV_HEAD);
    canvas_textf(c, x + 1, row, lw - 1, CV_HEAD, lw >= 24 ? "Need in parts, %s" : "%s", u);
    for (int i = 0; i < ny; i++) {
        year_name(s, i + 1, yn, sizeof yn);
        canvas_text_right(c, x + lw + YEAR_W * i, row, YEAR_W, CV_HEAD | CV_BOLD, yn);
    }
    row++;
    int room = h - PARTS_ROWS; /* lines left for the people */
    for (int k = 0; k <= PLAN_X_PARTS + 2 && row < y + h; k++, row++) {
        char label[64];
        uint16_t at = k == PLAN_X_PARTS ? CV_EDITED | CV_BOLD : k > PLAN_X_PARTS ? CV_DIM
                                                                                  : CV_NORMAL;
        int wide = lw >= 24;
        if (k == PLAN_X_NEWCOMERS)
            snprintf(label, sizeof label, wide ? "newcomers, ramp %.2f" : "new, ramp %.2f",
                     ex[0].ramp);
        else if (k == PLAN_X_INTENSITY)
            snprintf(label, sizeof label, wide ? "intensity %+.0f%%/yr" : "intensity %+.0f%%",
                     100 * ex[0].intensity_rate);
        else if (k == PLAN_X_BUFFER)
            snprintf(label, sizeof label, wide ? "buffer share %.0f%%" : "buffer %.0f%%",
                     100 * ex[0].buffer_rate);
        else if (k < PLAN_X_PARTS)
            snprintf(label, sizeof label, "%s", plan_explain_part_names[k]);
        else
            snprintf(label, sizeof label, "%s", k == PLAN_X_PARTS ? "= need"
                                                 : k == PLAN_X_PARTS + 1 ? "  need p10"
                                                                         : "  need p90");
        canvas_text(c, x + 1, row, lw - 1, at, label);
        for (int i = 0; i < ny; i++) {
            double v = k < PLAN_X_PARTS ? ex[i].part[k] : k == PLAN_X_PARTS ? ex[i].need
                     : k == PLAN_X_PARTS + 1 ? ex[i].need_r.lo : ex[i].need_r.hi;
            part_text(v, k < PLAN_X_PARTS, a, sizeof a);
            canvas_text_right(c, x + lw + YEAR_W * i, row, YEAR_W, at, a);
        }
        if (names && room > 0 && (k == PLAN_X_STAYERS || k == PLAN_X_LEAVERS) &&
            row + 1 < y + h) {
            int lines = k == PLAN_X_STAYERS ? (room + 1) / 2 : room;
            if (lines > 3)
                lines = 3;
            int used = people_lines(s, c, x, row + 1, w, g, k == PLAN_X_LEAVERS, lines);
            row += used;
            room -= used;
        }
    }
    return row - y;
}

/* The parameter under the cursor's reason, for when the Reason column is
 * folded away on a narrow screen. */
static void reason_line(const TuiState *s, Canvas *c, int x, int y, int w)
{
    int sel = table_selected(&s->cur[TUI_V_PROJECTION]);
    char key[48], label[128];
    const char *why = NULL;
    if (sel < 0)
        return;
    key_of(s, sel, key, sizeof key);
    param_label(s, key, label, sizeof label);
    tui_plan_edited(s->plan, key, shown_group(s), &why);
    canvas_textf(c, x + 1, y, w - 2, CV_DIM, "why (%s): %s", label,
                 why && why[0] ? why : "measured, not edited");
}

/* The institute: its chart, its need in parts (beside the chart from 100
 * columns, below it otherwise), then need, capacity and gap by memory
 * class (tui/institute) where there is room. */
static void render_institute(const TuiState *s, Canvas *c, int y, int h)
{
    const ProjResult *r = tui_plan_result(s->plan, 0);
    Bar b[16];
    int side = c->w >= 100, pw = side ? (c->w >= 120 ? 46 : 40) : c->w, cw = side ? c->w - pw - 1 : c->w;
    int past = side ? 4 : h - 5 - PARTS_ROWS - nyears_shown(r);
    past = past < 1 ? 1 : past > 4 ? 4 : past;
    canvas_textf(c, 1, y, c->w - 2, CV_BOLD,
                 "Institute \xc2\xb7 scenario %s \xc2\xb7 keys [ and ]: back to a group",
                 s->scenario);
    int at = y + 1 + institute_sim_lines(s, c, y + 1, 2);
    int n = institute_bars(s, past, b);
    chart(s, c, 0, at, cw, b, n);
    if (side) {
        int used = render_parts(s, c, cw + 1, at, pw, y + h - at, -1, "Institute", 0);
        at += (n + 1 > used ? n + 1 : used) + 1;
    } else {
        at += n + 1;
        at += render_parts(s, c, 0, at, pw, y + h - at, -1, "Institute", c->h >= 40) + 1;
    }
    const Plan *p = tui_plan_plan(s->plan);
    if (p->bt && y + h - at >= 10) { /* issue 28: the forecaster and its past coverage */
        char fl[256], cv[128];
        plan_forecaster_text(p->bt, fl, sizeof fl);
        plan_coverage_text(p->bt, cv, sizeof cv);
        canvas_textf(c, 1, at++, c->w - 2, CV_DIM, "%s; %s", fl, cv);
    }
    if (at < y + h && (tui_missing(s) & TUI_MISS_INVENTORY)) /* no capacity of 0 by class */
        canvas_text(c, 1, at, c->w - 2, CV_DIM,
                    "By memory class: capacity needs an inventory (capplan import inventory FILE)");
    else if (y + h - at >= 9)
        institute_render(s, c, at, y + h - at);
    else if (at < y + h)
        canvas_text(c, 1, at, c->w - 2, CV_DIM,
                    "By memory class: on a taller terminal, or in the export (x)");
}

static void render(const TuiState *s, Canvas *c, int y, int h, TuiFrame *f)
{
    if (!s->plan) {
        if (s->plan_pending) {
            canvas_text(c, 1, y + 1, c->w - 2, CV_DIM, "reading the planner...");
            return;
        }
        const char *hint[4];
        int nh = tui_missing_lines(s, ~0u, hint, 4);
        for (int i = 0; i < nh && i + 1 < h; i++)
            canvas_text(c, 1, y + 1 + i, c->w - 2, CV_WARN | CV_BOLD, hint[i]);
        return;
    }
    if (s->institute) {
        render_institute(s, c, y, h);
        return;
    }
    const Plan *p = tui_plan_plan(s->plan);
    char name[128];
    Bar b[8];
    int g = shown_group(s), mg = tui_model_group_find(s->model, p->groups[g]);
    tui_model_group_label(s->model, mg, s->redact, name, sizeof name);
    canvas_textf(c, 1, y, c->w - 2, CV_BOLD,
                 "%s \xc2\xb7 scenario %s against base \xc2\xb7 keys [ and ]: other group "
                 "\xc2\xb7 Enter: value and why", name, s->scenario);
    int n = group_bars(s, g, b), at = y + 1;
    chart(s, c, 0, at, c->w, b, n);
    at += n + 1;
    int pw = c->w >= 160 ? c->w / 2 - 20 : PANEL_W, lw = c->w - pw - 1, left = y + h - at;
    table_draw(&params, s, &s->cur[TUI_V_PROJECTION], c, 0, at, lw, left - 1, f);
    reason_line(s, c, 0, y + h - 1, c->w);
    int used = render_parts(s, c, lw + 1, at, pw, left - 1, g, name, 1);
    if (left - used - 1 >= PARTS_ROWS)
        render_parts(s, c, lw + 1, at + used + 1, pw, left - used - 1, -1, "Institute",
                     c->h >= 40);
}

/* ---- editing ---------------------------------------------------------- */

/* "pool, GPU-eq · lab-x · scenario plan-2027": the parameter as people say
 * it, whose it is, where the edit goes. */
static void edit_field(const TuiState *s, const char *key, char *buf, size_t n)
{
    char label[96], name[64];
    param_label(s, key, label, sizeof label);
    const Plan *p = tui_plan_plan(s->plan);
    int g = shown_group(s);
    if (projection_key_takes_group(key))
        tui_model_group_label(s->model, tui_model_group_find(s->model, p->groups[g]), s->redact,
                              name, sizeof name);
    else
        fmt_copy(name, sizeof name, "every group");
    snprintf(buf, n, "%.80s%s \xc2\xb7 %.60s \xc2\xb7 scenario %.32s", label,
             is_pct(key) ? " (%)" : "", name, s->scenario);
}

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
    char full[320];
    const char *why = NULL;
    if (strcmp(s->scenario, "base") == 0)
        snprintf(full, sizeof full, "%s%s, then why (required; into a new scenario)", label,
                 is_pct(key) ? " (%)" : "");
    else if (tui_plan_edited(s->plan, key, shown_group(s), &why) && why && why[0])
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

/* The form of the open edit (tui/editform.h): the value before, the typed
 * value and reason as they will be read, the need before -> after. */
static void edit_form(const TuiState *s, TuiEditForm *f)
{
    const char *key = s->prompt.key, *reason = NULL, *stored = NULL;
    int g = shown_group(s), base = strcmp(s->scenario, "base") == 0;
    char was[48];
    edit_field(s, key, f->field, sizeof f->field);
    int edited = tui_plan_edited(s->plan, key, g, &stored);
    value_text(key, tui_plan_value(s->plan, key, g, 0), was, sizeof was);
    snprintf(f->old, sizeof f->old, "%s (%s%s)", was, edited ? "edited in " : "measured",
             edited ? s->scenario : "");
    double v;
    const char *t = s->prompt.text + strspn(s->prompt.text, " ");
    if (!t[0]) {
        f->now[0] = '\0';
    } else if (parse_edit(t, is_pct(key), &v, &reason) < 0) {
        snprintf(f->now, sizeof f->now, "'%.60s' does not read as a number%s", t,
                 is_pct(key) ? " (in %)" : "");
        f->bad = 1;
    } else {
        value_text(key, v, f->now, sizeof f->now);
        TuiPlanPreview pv;
        if (tui_plan_preview(s->plan, key, g, v, &pv) == 0)
            snprintf(f->effect, sizeof f->effect,
                     "need next year: group %.2f -> %.2f, institute %.2f -> %.2f %s",
                     pv.group_before, pv.group_after, pv.total_before, pv.total_after,
                     tui_plan_unit(s->plan));
    }
    if (reason)
        fmt_copy(f->why, sizeof f->why, reason);
    else if (edited && stored && stored[0] && !base)
        snprintf(f->why, sizeof f->why, "(none typed: keeps '%s')", stored);
    else
        fmt_copy(f->why, sizeof f->why, "(required: type it after the value, a space between)");
    if (base)
        fmt_copy(f->offer, sizeof f->offer,
                 "base holds the measured values: Enter starts a new scenario from base with "
                 "this value and reason (you name it next; Esc cancels)");
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
    if (strcmp(s->scenario, "base") == 0)
        return tui_plan_offer_scenario(s, key, shown_group(s), v, reason);
    tui_sync(s); /* "before" as the database holds it now */
    int g = shown_group(s);
    const ProjResult *r = tui_plan_result(s->plan, 0);
    double before = r->gy[g * r->nyears].demand;
    if (tui_plan_set(s, key, g, v, reason, &err) < 0) {
        tui_status(s, CV_BAD, 0, "refused: %s", err.msg);
        return TUI_REDRAW;
    }
    s->prompt.kind = TUI_P_NONE;
    r = tui_plan_result(s->plan, 0);
    tui_status(s, CV_GOOD, 0, "saved to %s: need next year %.2f -> %.2f %s; %s; u undoes",
               s->scenario, before, r->gy[g * r->nyears].demand, tui_plan_unit(s->plan),
               s->edit_note);
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
    .edit_form = edit_form,
};
