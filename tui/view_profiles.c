/* view_profiles: the compute profiles the planner found: centroids in raw
 * units, how many members, their memory need (GiB, as `capplan profile`:
 * the 75th percentile of members' peaks), the GPUs per member the scenario
 * uses; under
 * them a scatter (braille dots) of every clustered user on two features
 * (f and F change them, log scales), the selected profile's members
 * highlighted and listed. e renames the selected profile (saved at once). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/actions.h"
#include "tui/fmt.h"
#include "tui/plan.h"
#include "tui/editform.h"
#include "tui/view.h"

#define LEGEND_W 30

enum { F_NUM, F_NAME, F_USERS, F_WIDTH, F_MEM, F_MEAN, F_MAX, F_GPUH, F_CONC, F_BP, F_COUNT };

static const TuiCol fcols[F_COUNT] = {
    [F_NUM] = {"#", 2, 0, 1, 0},          [F_NAME] = {"Profile", 16, 3, 0, 0},
    [F_USERS] = {"Users", 5, 0, 1, 0},    [F_WIDTH] = {"GPUs/job", 8, 0, 1, 0},
    [F_MEM] = {"Mem GiB", 8, 0, 1, 0},        [F_MEAN] = {"Mean h", 6, 0, 1, 2},
    [F_MAX] = {"Max h", 6, 0, 1, 3},      [F_GPUH] = {"GPU-h/mo", 8, 0, 1, 1},
    [F_CONC] = {"Peak", 5, 0, 1, 4},      [F_BP] = {"GPU-eq/member", 13, 0, 1, 0},
};

static const Plan *plan_of(const TuiState *s)
{
    return tui_plan_plan(s->plan);
}

static int f_nrows(const TuiState *s)
{
    return plan_of(s) ? plan_of(s)->fit.k : 0;
}

static double f_value(const TuiState *s, int row, int col)
{
    const Profile *pr = &plan_of(s)->fit.profiles[row];
    char key[32];
    switch (col) {
    case F_NUM: return row + 1;
    case F_USERS: return pr->size;
    case F_WIDTH: return pr->centroid_raw[FEAT_GPUS_P90];
    case F_MEM: /* as `capplan profile`: members' p75 peak GiB, the class in the name */
        return pr->mem_need >= 0 ? pr->mem_need : NAN;
    case F_MEAN: return pr->centroid_raw[FEAT_DUR_MEAN_H];
    case F_MAX: return pr->centroid_raw[FEAT_DUR_MAX_H];
    case F_GPUH: return pr->centroid_raw[FEAT_GPUH_MONTH];
    case F_CONC: return pr->centroid_raw[FEAT_CONC_PEAK];
    case F_BP:
        snprintf(key, sizeof key, "gpus.%d", row + 1);
        return tui_plan_value(s->plan, key, -1, 0);
    default: return NAN;
    }
}

static void f_cell(const TuiState *s, int row, int col, char *buf, size_t n)
{
    const Profile *pr = &plan_of(s)->fit.profiles[row];
    double v = f_value(s, row, col);
    switch (col) {
    case F_NUM: snprintf(buf, n, "%d", row + 1); break;
    case F_NAME: snprintf(buf, n, "%s", plan_of(s)->names[row]); break;
    case F_USERS: snprintf(buf, n, "%d", pr->size); break;
    case F_MEM:
        fmt_num(v, buf, n);
        if (pr->mem_requested && !isnan(v) && strlen(buf) + 2 < n)
            strcat(buf, "*");
        break;
    case F_WIDTH:
    case F_CONC:
    case F_BP: fmt_gpus(v, buf, n); break;
    default: fmt_num(v, buf, n);
    }
}

static const TuiTable profiles = {fcols, F_COUNT, f_nrows, f_cell, f_value, NULL, -1, 0};

static const TuiTable *prof_table(const TuiState *s)
{
    return plan_of(s) ? &profiles : NULL;
}

/* ---- the scatter ------------------------------------------------------ */

/* Braille dot of (dx 0..1, dy 0..3) in a cell. */
static unsigned dot_bit(int dx, int dy)
{
    static const unsigned bits[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};
    return bits[dx][dy];
}

typedef struct Axis {
    int f;
    double lo, hi;
} Axis;

static double axis_pos(const Axis *a, double raw)
{
    double v = log1p(raw);
    return a->hi > a->lo ? (v - a->lo) / (a->hi - a->lo) : 0.5;
}

static void axis_range(const Plan *p, Axis *a)
{
    a->lo = INFINITY;
    a->hi = -INFINITY;
    for (int i = 0; i < p->nusers; i++) {
        double v = p->users[i].f.raw[a->f];
        if (p->users[i].zrow < 0 || v < 0)
            continue;
        a->lo = fmin(a->lo, log1p(v));
        a->hi = fmax(a->hi, log1p(v));
    }
}

static void render_scatter(const TuiState *s, Canvas *c, int x, int y, int w, int h, int sel)
{
    const Plan *p = plan_of(s);
    Axis ax = {s->feat_x, 0, 0}, ay = {s->feat_y, 0, 0};
    axis_range(p, &ax);
    axis_range(p, &ay);
    unsigned char *bits = calloc((size_t)(w * h), 2);
    if (!bits || w < 2 || h < 2) {
        free(bits);
        return;
    }
    for (int i = 0; i < p->nusers; i++) {
        const PlanUser *u = &p->users[i];
        if (u->zrow < 0 || u->f.raw[ax.f] < 0 || u->f.raw[ay.f] < 0)
            continue;
        int px = (int)lround(axis_pos(&ax, u->f.raw[ax.f]) * (2 * w - 1));
        int py = (int)lround((1 - axis_pos(&ay, u->f.raw[ay.f])) * (4 * h - 1));
        size_t k = (size_t)((py / 4) * w + px / 2) * 2 + (u->profile == sel);
        bits[k] |= (unsigned char)dot_bit(px % 2, py % 4);
    }
    for (int r = 0; r < h; r++)
        for (int col = 0; col < w; col++) {
            size_t k = (size_t)(r * w + col) * 2;
            unsigned b = bits[k] | bits[k + 1];
            if (b)
                canvas_fill(c, x + col, y + r, 1, 0x2800u + b,
                            bits[k + 1] ? CV_ACCENT | CV_BOLD : CV_DIM);
        }
    free(bits);
}

static int cmp_label(const void *a, const void *b)
{
    return strcmp(a, b);
}

static void render_legend(const TuiState *s, Canvas *c, int x, int y, int h, int sel)
{
    const Plan *p = plan_of(s);
    canvas_textf(c, x, y, LEGEND_W, CV_NORMAL, "x: %s (log) f", features_name(s->feat_x));
    canvas_textf(c, x, y + 1, LEGEND_W, CV_NORMAL, "y: %s (log) F", features_name(s->feat_y));
    if (sel < 0)
        return;
    canvas_textf(c, x, y + 2, LEGEND_W, CV_ACCENT | CV_BOLD, "P%d members:", sel + 1);
    /* the planner's order is the real names': hidden, the labels' (#29 item 5) */
    char(*names)[64] = xmalloc((size_t)(p->nusers ? p->nusers : 1) * sizeof *names);
    int k = 0;
    for (int i = 0; i < p->nusers; i++) {
        if (p->users[i].profile != sel)
            continue;
        int mu = tui_model_user_find(s->model, p->users[i].name);
        if (mu >= 0)
            tui_model_user_label(s->model, mu, s->redact, names[k], sizeof names[0]);
        else
            snprintf(names[k], sizeof names[0], "%s", s->redact ? "user ?" : p->users[i].name);
        k++;
    }
    if (s->redact)
        qsort(names, (size_t)k, sizeof *names, cmp_label);
    for (int i = 0, row = y + 3; i < k && row < y + h; i++)
        canvas_text(c, x, row++, LEGEND_W, CV_NORMAL, names[i]);
    free(names);
}

static void render(const TuiState *s, Canvas *c, int y, int h, TuiFrame *f)
{
    const Plan *p = plan_of(s);
    if (!p) {
        canvas_text(c, 1, y + 1, c->w - 2, CV_DIM,
                    s->plan_pending ? "reading the planner..."
                                    : "No compute profiles yet (too few jobs or months): capplan "
                                      "import sacct FILE");
        return;
    }
    canvas_textf(c, 1, y, c->w - 2, CV_NORMAL,
                 "%d profiles of %d users, silhouette %.2f \xc2\xb7 e renames \xc2\xb7 * memory "
                 "requested, not measured", p->fit.k, p->fit.n, p->fit.silhouette);
    int th = p->fit.k + 2 < h / 2 ? p->fit.k + 2 : h / 2;
    table_draw(&profiles, s, &s->cur[TUI_V_PROFILES], c, 0, y + 1, c->w, th, f);
    int sel = table_selected(&s->cur[TUI_V_PROFILES]);
    int sy = y + 1 + th, sh = h - 1 - th;
    render_scatter(s, c, 1, sy, c->w - LEGEND_W - 3, sh, sel);
    render_legend(s, c, c->w - LEGEND_W - 1, sy, sh, sel);
}

/* ---- rename ----------------------------------------------------------- */

static unsigned edit(TuiState *s)
{
    int row = table_selected(&s->cur[TUI_V_PROFILES]);
    if (!plan_of(s) || row < 0)
        return 0;
    char label[64];
    snprintf(label, sizeof label, "new name of profile %d", row + 1);
    actions_prompt_open(s, TUI_P_EDIT, label, plan_of(s)->names[row]);
    s->prompt.row = row;
    s->prompt.col = F_NAME;
    return TUI_REDRAW;
}

static unsigned edit_accept(TuiState *s)
{
    CpErr err = {""};
    if (tui_plan_rename(s, s->prompt.row, s->prompt.text, &err) < 0) {
        tui_status(s, CV_BAD, 0, "refused: %s", err.msg);
        return TUI_REDRAW;
    }
    s->prompt.kind = TUI_P_NONE;
    tui_status(s, CV_GOOD, 0, "profile %d renamed (saved)", s->prompt.row + 1);
    return TUI_SAVE | TUI_RECALC | TUI_REDRAW;
}

/* The rename's form (tui/editform.h). */
static void edit_form(const TuiState *s, TuiEditForm *f)
{
    snprintf(f->field, sizeof f->field, "the name of profile P%d (saved at once)",
             s->prompt.row + 1);
    fmt_copy(f->old, sizeof f->old, plan_of(s)->names[s->prompt.row]);
    fmt_copy(f->now, sizeof f->now, s->prompt.text);
}

const TuiView view_profiles = {
    .name = "Profiles",
    .tab = "Profiles",
    .table = prof_table,
    .render = render,
    .edit = edit,
    .edit_accept = edit_accept,
    .edit_form = edit_form,
};
