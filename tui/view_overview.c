/* view_overview: the institute at a glance: capacity against use (and the
 * scenario's demand, when the planner has projected it) per year, GPUs per
 * memory class, utilisation over the last years as a sparkline, and the
 * alerts; Enter on an alert opens its group or the Usage view. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/actions.h"
#include "tui/empty.h"
#include "tui/fmt.h"
#include "tui/view.h"

#define YEARS_SHOWN 7

/* GPU-memory classes (GiB); [1]: ASCII, where the canvas has no "<=" glyph. */
static const char *const class_names[2][TUI_CLASSES] = {
    {"\xe2\x89\xa4" "24", "\xe2\x89\xa4" "48", "\xe2\x89\xa4" "80", ">80"},
    {"<=24", "<=48", "<=80", ">80"},
};

static const char *class_name(const TuiState *s, int k)
{
    return k >= 0 && k < TUI_CLASSES ? class_names[s->ascii != 0][k] : "?";
}

/* ---- alerts table ----------------------------------------------------- */

enum { A_SEV, A_TEXT, A_VALUE, A_COUNT };

static const TuiCol acols[A_COUNT] = {
    [A_SEV] = {"!", 2, 0, 0, 0},
    [A_TEXT] = {"Alert", 30, 1, 0, 0},
    [A_VALUE] = {"Value", 7, 0, 1, 0},
};

static int a_nrows(const TuiState *s)
{
    return s->model->nalerts;
}

static double a_value(const TuiState *s, int row, int col)
{
    const TuiAlert *a = &s->model->alerts[row];
    return col == A_SEV ? a->severity : col == A_VALUE ? a->value : NAN;
}

static void alert_text(const TuiState *s, const TuiAlert *a, char *buf, size_t n)
{
    const TuiModel *m = s->model;
    char g[128], r[16], r2[16];
    tui_model_group_label(m, a->group, s->redact, g, sizeof g);
    const char *cl = a->cluster >= 0 ? m->clusters[a->cluster].name : "-";
    switch (a->kind) {
    case TUI_AL_SATURATED: snprintf(buf, n, "%s is saturated: used over 90%% the last 3 months", cl); break;
    case TUI_AL_IDLE: snprintf(buf, n, "%s is under-used: below 30%% the last 3 months", cl); break;
    case TUI_AL_GROWTH: snprintf(buf, n, "%s grew most: GPU-hours vs the 12 months before", g); break;
    case TUI_AL_PREEMPT: snprintf(buf, n, "%s has many preempted attempts", g); break;
    case TUI_AL_WAIT:
        snprintf(buf, n, "%s waits long: mean %s vs %s for all", g, fmt_secs(a->value, r, sizeof r),
                 fmt_secs(a->ref, r2, sizeof r2));
        break;
    case TUI_AL_SHORT:
        snprintf(buf, n, "%s GiB class short next year, in GPU-eq", class_name(s, a->mem_class));
        break;
    default: snprintf(buf, n, "?");
    }
}

static void a_cell(const TuiState *s, int row, int col, char *buf, size_t n)
{
    const TuiAlert *a = &s->model->alerts[row];
    switch (col) {
    case A_SEV: snprintf(buf, n, "%s", a->severity >= 2 ? "!!" : a->severity ? "!" : "i"); break;
    case A_TEXT: alert_text(s, a, buf, n); break;
    case A_VALUE:
        if (a->kind == TUI_AL_WAIT)
            fmt_secs(a->value, buf, n);
        else if (a->kind == TUI_AL_GROWTH)
            snprintf(buf, n, "%+.0f%%", a->value * 100);
        else if (a->kind == TUI_AL_SHORT)
            fmt_gpus(a->value, buf, n);
        else
            fmt_pct(a->value, buf, n);
        break;
    default: buf[0] = '\0';
    }
}

static uint16_t a_attr(const TuiState *s, int row, int col)
{
    const TuiAlert *a = &s->model->alerts[row];
    if (col == A_SEV || col == A_VALUE)
        return a->severity >= 2 ? CV_BAD | CV_BOLD : a->severity ? CV_WARN : CV_NORMAL;
    return CV_NORMAL;
}

static const TuiTable alerts = {acols, A_COUNT, a_nrows, a_cell, a_value, a_attr, -1, 0};

static const TuiTable *overview_table(const TuiState *s)
{
    (void)s;
    return &alerts;
}

/* ---- capacity, use and demand per year -------------------------------- */

/* The p10-p90 band of a projected year, as the Projection view draws it:
 * \xe2\x96\x93 from p10 to the need, \xe2\x96\x92 from the need to p90. */
static void render_band(const TuiYear *y, double scale, int bw, Canvas *c, int row, int uw)
{
    int lw = (int)lround(fmax(y->demand_lo, 0) / scale * bw),
        hw = (int)lround(fmax(y->demand_hi, 0) / scale * bw);
    lw = lw > bw ? bw : lw;
    hw = hw > bw ? bw : hw;
    if (lw < uw)
        canvas_fill(c, 7 + lw, row, uw - lw, 0x2593, CV_EDITED);
    if (hw > uw)
        canvas_fill(c, 7 + uw, row, hw - uw, 0x2592, CV_DIM);
}

/* One year: capacity as a light bar, use (or demand) as a full one over
 * it, the part beyond capacity in the "bad" colour. */
static void render_year(const TuiModel *m, const TuiYear *y, const char *label, double scale,
                        Canvas *c, int row)
{
    char a[32], b[32], p[32];
    int bw = c->w - 50 < 10 ? 10 : c->w - 50; /* 41 columns of text */
    double use = y->projected ? y->demand : y->used_gpus;
    int cw = (int)lround(y->cap_gpus / scale * bw), uw = (int)lround((use > 0 ? use : 0) / scale * bw);
    uint16_t on = y->projected ? CV_EDITED : CV_ACCENT;
    canvas_text(c, 1, row, 5, y->projected ? CV_EDITED : CV_NORMAL, label);
    canvas_fill(c, 7, row, cw, 0x2591, CV_DIM);
    canvas_bar(c, 7, row, uw < cw || cw == 0 ? uw : cw, 1.0, on);
    if (cw > 0 && uw > cw)
        canvas_bar(c, 7 + cw, row, uw - cw, 1.0, CV_BAD);
    if (y->projected && isfinite(y->demand_lo) && isfinite(y->demand_hi))
        render_band(y, scale, bw, c, row, uw);
    fmt_gpus(use, a, sizeof a);
    fmt_gpus(y->cap_gpus, b, sizeof b);
    const char *u = strncmp(m->unit, "CPUs", 4) == 0 ? "CPUs" : y->eq ? "GPU-eq" : "GPUs";
    if (y->projected && !(y->cap_gpus > 0)) { /* no inventory: capacity unknown, not 0 */
        char range[80] = " (not calibrated)";
        if (isfinite(y->demand_lo) && isfinite(y->demand_hi)) {
            char lo[32], hi[32];
            snprintf(range, sizeof range, " (%s-%s)", fmt_gpus(y->demand_lo, lo, sizeof lo),
                     fmt_gpus(y->demand_hi, hi, sizeof hi));
        }
        canvas_textf(c, 8 + bw, row, c->w - 9 - bw, CV_EDITED, "need %s%s %s, capacity unknown",
                     a, range, u);
    } else if (y->projected && isfinite(y->demand_lo) && isfinite(y->demand_hi)) {
        char lo[32], hi[32];
        fmt_gpus(y->demand_lo, lo, sizeof lo);
        fmt_gpus(y->demand_hi, hi, sizeof hi);
        canvas_textf(c, 8 + bw, row, c->w - 9 - bw, use > y->cap_gpus ? CV_BAD : CV_EDITED,
                     "need %s (%s-%s) of %s %s", a, lo, hi, b, u);
    } else if (y->projected)
        canvas_textf(c, 8 + bw, row, c->w - 9 - bw, use > y->cap_gpus ? CV_BAD : CV_EDITED,
                     "need %s (not calibrated) of %s %s", a, b, u);
    else if (y->cap_gpus > 0)
        canvas_textf(c, 8 + bw, row, c->w - 9 - bw, CV_NORMAL, "used %s of %s %s (%s)", a, b, u,
                     fmt_pct(use / y->cap_gpus, p, sizeof p));
    else
        canvas_textf(c, 8 + bw, row, c->w - 9 - bw, CV_NORMAL, "used %s %s (no inventory)", a, u);
}

static int render_years(const TuiState *s, Canvas *c, int y)
{
    const TuiModel *m = s->model;
    int first = m->nyears > YEARS_SHOWN ? m->nyears - YEARS_SHOWN : 0;
    double scale = 0;
    for (int i = first; i < m->nyears; i++) {
        const TuiYear *yr = &m->years[i];
        double d = yr->projected ? yr->demand : yr->used_gpus;
        scale = fmax(scale, fmax(yr->cap_gpus, isnan(d) ? 0 : d));
        if (yr->projected && isfinite(yr->demand_hi))
            scale = fmax(scale, yr->demand_hi);
    }
    if (scale <= 0)
        scale = 1;
    if (m->unit[0])
        canvas_textf(c, 1, y, c->w - 2, CV_BOLD,
                     "Mean %s a year: capacity \xe2\x96\x91, use \xe2\x96\x88 (projected: need, "
                     "p10-p90 \xe2\x96\x93\xe2\x96\x92)", m->unit);
    else
        canvas_text(c, 1, y, c->w - 2, CV_BOLD,
                    "Mean GPUs a year: capacity \xe2\x96\x91, use \xe2\x96\x88");
    for (int i = first, prev = 0, k = 0; i < m->nyears; i++) {
        /* A projected year whose calendar year was measured already (a
         * short history) is named by its distance, never twice. */
        char label[16];
        const TuiYear *yr = &m->years[i];
        k += yr->projected;
        if (yr->projected && yr->year <= prev)
            snprintf(label, sizeof label, "+%dy", k);
        else
            snprintf(label, sizeof label, "%d", yr->year);
        prev = yr->year > prev ? yr->year : prev;
        render_year(m, yr, label, scale, c, y + 1 + i - first);
    }
    return 1 + m->nyears - first;
}

static void render_classes(const TuiState *s, Canvas *c, int y)
{
    const TuiModel *m = s->model;
    char buf[320], n[32], d[32];
    /* Projected: the projection's capacity next year (GPUs x relative
     * speed) against demand (the alert's gap nests: memclass_nest);
     * else the real GPUs in service now. */
    unsigned miss = tui_missing(s);
    if (miss & (TUI_MISS_GPU | TUI_MISS_INVENTORY)) { /* no class to set need against */
        canvas_text(c, 1, y, c->w - 2, CV_DIM,
                    miss & TUI_MISS_GPU ? "Memory classes: for GPU jobs only (none here)"
                                        : "Memory classes: capacity by class needs an inventory");
        return;
    }
    int projected = !isnan(m->demand_class_next[0]) && !isnan(m->cap_class_next[0]);
    int o = snprintf(buf, sizeof buf, "%s", projected ? "Next year cap/need, GPU-eq:"
                                                       : "GPUs now by memory class:");
    for (int k = 0; k < TUI_CLASSES && o < (int)sizeof buf; k++) {
        double cap = projected ? m->cap_class_next[k] : m->cap_class_now[k];
        if (projected && !(cap >= 0.5) && !(m->demand_class_next[k] >= 0.5))
            continue; /* a class with neither */
        fmt_gpus(cap, n, sizeof n);
        fmt_gpus(m->demand_class_next[k], d, sizeof d);
        if (projected)
            o += snprintf(buf + o, sizeof buf - (size_t)o, " %sG %s/%s", class_name(s, k), n, d);
        else
            o += snprintf(buf + o, sizeof buf - (size_t)o, "  %s GiB %s", class_name(s, k), n);
    }
    canvas_text(c, 1, y, c->w - 2, CV_NORMAL, buf);
}

/* Utilisation of every cluster together per month (or GPU-hours when no
 * inventory is known). */
static void render_util(const TuiState *s, Canvas *c, int y)
{
    const TuiModel *m = s->model;
    double v[TUI_MAX_MONTHS];
    int months = m->nmonths < 36 ? m->nmonths : 36, any_cap = 0;
    double used_last = 0, cap_last = 0;
    for (int i = 0; i < months; i++) {
        int mi = m->nmonths - months + i;
        double used = 0, cap = 0;
        for (int k = 0; k < m->nclusters; k++) {
            used += m->clusters[k].used_h[mi];
            cap += m->clusters[k].cap_h[mi];
        }
        any_cap |= cap > 0;
        v[i] = cap > 0 ? used / cap : used;
        used_last = used;
        cap_last = cap;
    }
    char a[32];
    if (!any_cap && tui_cpu_only(m)) {
        canvas_textf(c, 1, y, c->w - 2, CV_DIM, "GPU-hours, %d months: none (a CPU-only history)",
                     months);
        return;
    }
    int x = 1 + canvas_textf(c, 1, y, 30, CV_BOLD, "%s, %d months",
                             any_cap ? "Utilisation" : "GPU-hours", months);
    canvas_spark(c, x + 1, y, 36, v, months, any_cap ? 1.0 : 0, CV_ACCENT);
    if (any_cap)
        canvas_textf(c, x + 39, y, c->w - x - 40, CV_NORMAL, "%s last month",
                     fmt_pct(cap_last > 0 ? used_last / cap_last : NAN, a, sizeof a));
    else
        canvas_textf(c, x + 39, y, c->w - x - 40, CV_DIM, "no inventory: GPU-hours shown");
}

static int cmp_label(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* Groups with no meeting held yet (capplan meetings; notes count as met). */
static void render_to_meet(const TuiState *s, Canvas *c, int y)
{
    const TuiModel *m = s->model;
    int left = 0, all = 0, o;
    char buf[512];
    for (int g = 0; g < m->ngroups; g++) {
        all += !m->groups[g].pseudo;
        left += !m->groups[g].pseudo && !m->groups[g].met;
    }
    if (!all)
        return;
    o = snprintf(buf, sizeof buf, "to meet: %d of %d groups", left, all);
    /* the model's order is the real names': hidden, the labels' (#29 item 5) */
    char(*names)[128] = xmalloc((size_t)(left ? left : 1) * sizeof *names);
    int k = 0;
    for (int g = 0; g < m->ngroups && k < left; g++)
        if (!m->groups[g].pseudo && !m->groups[g].met)
            tui_model_group_label(m, g, s->redact, names[k++], sizeof names[0]);
    if (s->redact)
        qsort(names, (size_t)k, sizeof *names, cmp_label);
    for (int i = 0; i < k && o < (int)sizeof buf; i++)
        o += snprintf(buf + o, sizeof buf - (size_t)o, "%s%s", i ? ", " : " (", names[i]);
    free(names);
    if (left && o < (int)sizeof buf)
        snprintf(buf + o, sizeof buf - (size_t)o, ")");
    canvas_text(c, 1, y, c->w - 2, left ? CV_NORMAL : CV_GOOD, buf);
}

static void render(const TuiState *s, Canvas *c, int y, int h, TuiFrame *f)
{
    int used = render_years(s, c, y);
    render_classes(s, c, y + used);
    render_util(s, c, y + used + 1);
    render_to_meet(s, c, y + used + 2);
    int ty = y + used + 3;
    const char *hint[4];
    int nh = tui_missing_lines(s, ~0u, hint, 4);
    for (int i = 0; i < nh && ty < y + h - 1; i++)
        canvas_text(c, 1, ty++, c->w - 2, CV_WARN | CV_BOLD, hint[i]);
    if (s->model->nalerts == 0) {
        canvas_text(c, 1, ty, c->w - 2, CV_GOOD, "No alerts.");
        return;
    }
    table_draw(&alerts, s, &s->cur[TUI_V_OVERVIEW], c, 0, ty, c->w, y + h - ty, f);
}

static unsigned enter(TuiState *s)
{
    int row = table_selected(&s->cur[TUI_V_OVERVIEW]);
    if (row < 0)
        return 0;
    const TuiAlert *a = &s->model->alerts[row];
    if (a->group >= 0)
        return actions_open_group(s, a->group);
    if (a->cluster >= 0)
        return actions_goto(s, TUI_V_USAGE);
    s->institute = 1; /* an institute alert: the institute's projection */
    return actions_goto(s, TUI_V_PROJECTION) | TUI_RECALC | TUI_REDRAW;
}

const TuiView view_overview = {
    .name = "Overview",
    .tab = "Overview",
    .table = overview_table,
    .render = render,
    .enter = enter,
    .enter_label = "Open",
};
