/* institute: the institute's projection by memory class (institute.h). */
#include "tui/institute.h"

#include <math.h>
#include <stdio.h>

#include "data/plan/simulate_next.h"
#include "core/memclass_nest.h"
#include "tui/fmt.h"
#include "tui/plan.h"

#define LABEL_W 15
#define CELL_W 9

static const char *const class_label[2][TUI_CLASSES] = {
    {"\xe2\x89\xa4" "24 GiB class", "\xe2\x89\xa4" "48 GiB class", "\xe2\x89\xa4" "80 GiB class",
     ">80 GiB class"},
    {"<=24 GiB class", "<=48 GiB class", "<=80 GiB class", ">80 GiB class"},
};

/* The calendar year of projected year y (0-based), or its number. */
static void year_name(const TuiModel *m, int y, char *buf, size_t n)
{
    int i = m->nhist_years + y;
    if (i < m->nyears && m->years[i].projected)
        snprintf(buf, n, "%d", m->years[i].year);
    else
        snprintf(buf, n, "year %d", y + 1);
}

static void cell(Canvas *c, int x, int y, double v, uint16_t a)
{
    char buf[32];
    fmt_gpus(v, buf, sizeof buf);
    canvas_text_right(c, x, y, CELL_W, a, buf);
}

/* One row: a label, then need, capacity and gap per year (gap NULL: need -
 * capacity). */
static void row(Canvas *c, int y, const char *label, const double *need, const double *cap,
                const double *gaps, int ny, uint16_t a)
{
    canvas_text(c, 1, y, LABEL_W, a, label);
    for (int i = 0; i < ny; i++) {
        int x = 1 + LABEL_W + i * (3 * CELL_W + 1);
        double gap = gaps ? gaps[i] : need[i] - cap[i];
        cell(c, x, y, need[i], a);
        cell(c, x + CELL_W, y, cap[i], a);
        cell(c, x + 2 * CELL_W, y, gap, gap > 0.5 ? CV_BAD | CV_BOLD : a);
    }
}

int institute_sim_lines(const TuiState *s, Canvas *c, int y, int h)
{
    const SimNext *nx = s->sim;
    int w = c->w - 2;
    if (h < 1)
        return 0;
    if (!nx) { /* why, on two rows where one is too narrow (the command it names last) */
        char line[sizeof s->sim_why + 32];
        int n = snprintf(line, sizeof line, "Next year not simulated: %s",
                         s->sim_why[0] ? s->sim_why : "capplan simulate");
        int cut = n > w && h >= 2 ? w : n;
        while (cut < n && cut > 0 && line[cut] != ' ')
            cut--;
        if (cut <= 0 || cut >= n) {
            canvas_text(c, 1, y, w, CV_DIM, line);
            return 1;
        }
        line[cut] = '\0';
        canvas_text(c, 1, y, w, CV_DIM, line);
        canvas_text(c, 1, y + 1, w, CV_DIM, line + cut + 1);
        return 2;
    }
    canvas_textf(c, 1, y, w, CV_BOLD,
                 "Next year simulated: buy nothing, p90 wait %.1f h (%.1f-%.1f); target %.1f h",
                 nx->nothing.p90.mid, nx->nothing.p90.lo, nx->nothing.p90.hi, nx->target_h);
    if (h < 2)
        return 1;
    const SimPurchase *b = &nx->buy;
    if (nx->cpu)
        canvas_text(c, 1, y + 1, w, CV_NORMAL, "No GPU job: nothing from the GPU catalog");
    else if (nx->policy)
        canvas_textf(c, 1, y + 1, w, CV_WARN,
                     "No purchase: waits are policy (%.0f %% passed with GPUs idle)",
                     100 * nx->idle_share);
    else if (nx->meets_nothing)
        canvas_text(c, 1, y + 1, w, CV_NORMAL, "Recommendation: buy nothing (meets the target)");
    else if (!b->found)
        canvas_textf(c, 1, y + 1, w, CV_WARN, "No purchase of up to %d GPUs meets the target",
                     SIMULATE_MAX_GPUS);
    else
        canvas_textf(c, 1, y + 1, w, CV_BOLD,
                     "Recommendation: buy %d %s (quarter %d): p90 wait %.1f h (%.1f-%.1f)",
                     b->count, b->model, b->quarter, b->w.p90.mid, b->w.p90.lo, b->w.p90.hi);
    return 2;
}

void institute_render(const TuiState *s, Canvas *c, int y, int h)
{
    const ProjResult *r = tui_plan_result(s->plan, 0), *b = tui_plan_result(s->plan, 1);
    if (!r || h < 4)
        return;
    int ny = r->nyears < 3 ? r->nyears : 3, fit = (c->w - 1 - LABEL_W) / (3 * CELL_W + 1);
    if (ny > fit) /* whole years only: a narrow screen shows the nearest */
        ny = fit;
    canvas_textf(c, 1, y, c->w - 2, CV_BOLD,
                 "By memory class, scenario %s against base, mean %s a year", s->scenario,
                 tui_plan_unit(s->plan));
    int hy = y + 2;
    canvas_fill(c, 0, hy, c->w, ' ', CV_HEAD);
    canvas_fill(c, 0, hy + 1, c->w, ' ', CV_HEAD);
    canvas_text(c, 1, hy + 1, LABEL_W, CV_HEAD, "Memory class");
    for (int i = 0; i < ny; i++) {
        char yn[16];
        int x = 1 + LABEL_W + i * (3 * CELL_W + 1);
        year_name(s->model, i, yn, sizeof yn);
        canvas_text_right(c, x, hy, 3 * CELL_W, CV_HEAD | CV_BOLD, yn);
        canvas_text_right(c, x, hy + 1, CELL_W, CV_HEAD, "need");
        canvas_text_right(c, x + CELL_W, hy + 1, CELL_W, CV_HEAD, "capacity");
        canvas_text_right(c, x + 2 * CELL_W, hy + 1, CELL_W, CV_HEAD, "gap");
    }
    int at = hy + 2;
    double need[3], cap[3], gap[3], nest[3][MEMCLASS_COUNT];
    for (int i = 0; i < ny; i++) /* classes nest: a small job runs on a bigger GPU */
        memclass_nest(r->total[i].demand_c, r->total[i].capacity_c, nest[i]);
    for (int k = 0; k < TUI_CLASSES && at < y + h; k++, at++) {
        for (int i = 0; i < ny; i++) {
            need[i] = r->total[i].demand_c[k];
            cap[i] = r->total[i].capacity_c[k];
            gap[i] = nest[i][k];
        }
        row(c, at, class_label[s->ascii != 0][k], need, cap, gap, ny, CV_NORMAL);
    }
    for (int i = 0; i < ny; i++) {
        need[i] = r->total[i].demand;
        cap[i] = r->total[i].capacity;
    }
    if (at < y + h)
        row(c, at++, "all classes", need, cap, NULL, ny, CV_BOLD);
    for (int i = 0; i < ny; i++)
        need[i] = b->total[i].demand;
    if (at < y + h)
        row(c, at++, "all, base scen.", need, cap, NULL, ny, CV_DIM);
    if (at + 1 < y + h)
        canvas_text(c, 1, at + 1, c->w - 2, CV_DIM,
                    "need: the projected demand; capacity: GPUs in service x relative speed; "
                    "gap: need - capacity, after bigger classes' room (red: short)");
}
