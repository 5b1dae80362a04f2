/* view_groups: every research group in one sortable, filterable table:
 * professor, domain, students, GPU-hours and share of the last 12 months,
 * preemption, waits, growth, and the scenario's demand next year beside
 * the base scenario's. Enter opens the group. */
#include <math.h>
#include <stdio.h>

#include "tui/actions.h"
#include "tui/empty.h"
#include "tui/fmt.h"
#include "tui/view.h"

enum {
    C_GROUP, C_PROF, C_DOMAIN, C_STUDENTS, C_GPUH, C_SHARE, C_PREEMPT, C_WAIT, C_GROWTH,
    C_DEMAND, C_RANGE, C_DELTA, C_COUNT
};

static const TuiCol cols[C_COUNT] = {
    [C_GROUP] = {"Group", 11, 3, 0, 0},
    [C_PROF] = {"Professor", 10, 2, 0, 3},
    [C_DOMAIN] = {"Domain", 8, 1, 0, 5},
    [C_STUDENTS] = {"Stud.", 5, 0, 1, 0, 0, "Students (people)", 0},
    [C_GPUH] = {"GPU-h", 7, 0, 1, 0, 0, "GPU-hours, last 12 months", 0},
    [C_SHARE] = {"Share %", 8, 0, 1, 0, 0, "Share of GPU-hours, 12 months (%)", 100},
    [C_PREEMPT] = {"Preempt %", 10, 0, 1, 0, 0, "Preempted attempts (%)", 100},
    [C_WAIT] = {"Wait", 5, 0, 1, 2, 0, "Mean wait (hours)", 1.0 / 3600},
    /* GPU-h trend: not the projection's growth */
    [C_GROWTH] = {"Trend %", 7, 0, 1, 4, 0, "GPU-hours trend a year (%)", 100},
    [C_DEMAND] = {"Need", 6, 0, 1, 1, 0, "Need next year (GPU-eq)", 0},
    [C_RANGE] = {"p10-p90", 11, 0, 0, 6, 0, "Need next year p10-p90 (GPU-eq)", 0},
    [C_DELTA] = {"vs base", 7, 0, 1, 1, 0, "Need vs base (GPU-eq)", 0},
};

static int nrows(const TuiState *s)
{
    return s->model->ngroups;
}

static double value(const TuiState *s, int row, int col)
{
    const TuiGroup *g = &s->model->groups[row];
    switch (col) {
    case C_STUDENTS: return s->model->roster ? g->nstudents : g->nactive;
    case C_GPUH: return g->gpu_h_12m;
    case C_SHARE: return g->share_12m;
    case C_PREEMPT: return g->preempt_rate;
    case C_WAIT: return g->mean_wait_s;
    case C_GROWTH: return g->growth;
    case C_DEMAND: return g->demand_next;
    case C_RANGE: return g->demand_hi;
    case C_DELTA: return g->demand_next - g->demand_base;
    default: return NAN;
    }
}

static void cell(const TuiState *s, int row, int col, char *buf, size_t n)
{
    const TuiModel *m = s->model;
    const TuiGroup *g = &m->groups[row];
    double v = value(s, row, col);
    switch (col) {
    case C_GROUP: tui_model_group_label(m, row, s->redact, buf, n); break;
    case C_PROF: tui_model_prof_label(m, row, s->redact, buf, n); break;
    case C_DOMAIN: snprintf(buf, n, "%s", g->domain ? g->domain : "-"); break;
    case C_STUDENTS: snprintf(buf, n, "%.0f", v); break;
    case C_GPUH: fmt_num(v, buf, n); break;
    case C_SHARE:
    case C_PREEMPT: fmt_pct(v, buf, n); break;
    case C_WAIT: fmt_secs(v, buf, n); break;
    case C_GROWTH:
        if (isnan(v))
            snprintf(buf, n, "-");
        else
            snprintf(buf, n, "%+.0f%%", v * 100);
        break;
    case C_DEMAND: fmt_gpus(v, buf, n); break;
    case C_RANGE:
        if (isfinite(g->demand_lo) && isfinite(g->demand_hi)) {
            char lo[16], hi[16];
            fmt_gpus(g->demand_lo, lo, sizeof lo);
            fmt_gpus(g->demand_hi, hi, sizeof hi);
            snprintf(buf, n, "%s-%s", lo, hi);
        } else
            snprintf(buf, n, "%s", isnan(g->demand_next) ? "-" : "n/cal");
        break;
    case C_DELTA:
        if (isnan(v))
            snprintf(buf, n, "-");
        else
            snprintf(buf, n, "%+.1f", v);
        break;
    default: buf[0] = '\0';
    }
}

static uint16_t attr(const TuiState *s, int row, int col)
{
    const TuiGroup *g = &s->model->groups[row];
    if (col == C_PREEMPT && g->preempt_rate > 0.1)
        return g->preempt_rate > 0.25 ? CV_BAD : CV_WARN;
    if (col == C_GROWTH && g->growth > 0.5)
        return CV_WARN;
    if (col == C_DELTA && g->demand_next - g->demand_base > 0.05)
        return CV_EDITED;
    if (g->pseudo || (g->gpu_h_12m <= 0 && g->nactive == 0))
        return CV_DIM;
    return CV_NORMAL;
}

static const TuiTable table = {cols, C_COUNT, nrows, cell, value, attr, C_GPUH, 1};

static const TuiTable *groups_table(const TuiState *s)
{
    (void)s;
    return &table;
}

static void render(const TuiState *s, Canvas *c, int y, int h, TuiFrame *f)
{
    const TuiModel *m = s->model;
    char total[32], month[16];
    canvas_textf(c, 1, y, c->w - 2, CV_NORMAL,
                 "%d groups (%s) \xc2\xb7 last 12 months to %s: %s GPU-h%s%s", m->ngroups,
                 m->roster ? "from the roster" : "accounts, no roster",
                 fmt_month(m->ref_month, month, sizeof month),
                 fmt_num(m->total_gpu_h_12m, total, sizeof total),
                 m->unit[0] ? " \xc2\xb7 need next year in " : "", m->unit);
    const char *hint[2];
    int nh = tui_missing_lines(s, TUI_MISS_ROSTER | TUI_MISS_GPU, hint, 2);
    for (int i = 0; i < nh; i++)
        canvas_text(c, 1, y + 1 + i, c->w - 2, CV_WARN, hint[i]);
    table_draw(&table, s, &s->cur[TUI_V_GROUPS], c, 0, y + 1 + nh, c->w, h - 1 - nh, f);
}

static unsigned enter(TuiState *s)
{
    return actions_open_group(s, table_selected(&s->cur[TUI_V_GROUPS]));
}

const TuiView view_groups = {
    .name = "Groups",
    .tab = "Groups",
    .table = groups_table,
    .render = render,
    .enter = enter,
    .enter_label = "Open",
};
