/* export_parts: the figures beside a view's table in its export
 * (export_parts.h). */
#include "tui/export_parts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "reports/anon.h"
#include "tui/compare.h"
#include "tui/fmt.h"
#include "tui/plan.h"

/* Titles carry the unit and the years' names, set when a file is written
 * (the dashboard writes one file at a time, from its one thread). */
static char t_year[3][32], t_a[6][96];
static int part_group = -1;

static const char *unit_of(const TuiState *s)
{
    if (s->plan)
        return tui_plan_unit(s->plan);
    return s->model->unit[0] && strncmp(s->model->unit, "CPUs", 4) == 0 ? "CPUs" : "GPU-eq";
}

/* A scenario's name as presentation mode shows it (tui/redact): a name
 * after a group or a person names them. */
static const char *shown(const TuiState *s, const char *name, char *buf, size_t n)
{
    if (!s->redact || !s->scrub)
        return name;
    return anon_scrub_buf(s->scrub, name, buf, n);
}

static void put_num(double v, char *buf, size_t n)
{
    if (isnan(v))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.2f", v);
}

/* ---- Overview: the chart's figures by year ---------------------------- */

enum { Y_YEAR, Y_KIND, Y_USED, Y_CAP, Y_NEED, Y_LO, Y_HI, Y_BASE, Y_COUNT };
static char yt[Y_COUNT][112];
static const TuiCol ycols[Y_COUNT] = {
    [Y_YEAR] = {"Year", 4, 0, 1, 0},         [Y_KIND] = {"Measured or projected", 9, 0, 0, 0},
    [Y_USED] = {yt[Y_USED], 8, 0, 1, 0},     [Y_CAP] = {yt[Y_CAP], 8, 0, 1, 0},
    [Y_NEED] = {yt[Y_NEED], 8, 0, 1, 0},     [Y_LO] = {yt[Y_LO], 8, 0, 1, 0},
    [Y_HI] = {yt[Y_HI], 8, 0, 1, 0},         [Y_BASE] = {yt[Y_BASE], 8, 0, 1, 0},
};

static int y_nrows(const TuiState *s) { return s->model->nyears; }

static double y_value(const TuiState *s, int row, int col)
{
    const TuiYear *y = &s->model->years[row];
    switch (col) {
    case Y_YEAR: return y->year;
    case Y_USED: return y->projected ? NAN : y->used_gpus;
    case Y_CAP: return y->cap_gpus > 0 ? y->cap_gpus : NAN; /* 0: no inventory, not a shortage */
    case Y_NEED: return y->projected ? y->demand : NAN;
    case Y_LO: return y->projected ? y->demand_lo : NAN;
    case Y_HI: return y->projected ? y->demand_hi : NAN;
    case Y_BASE: return y->projected ? y->demand_base : NAN;
    default: return NAN;
    }
}

static void y_cell(const TuiState *s, int row, int col, char *buf, size_t n)
{
    if (col == Y_KIND)
        snprintf(buf, n, "%s", s->model->years[row].projected ? "projected" : "measured");
    else if (col == Y_YEAR)
        snprintf(buf, n, "%d", s->model->years[row].year);
    else
        put_num(y_value(s, row, col), buf, n);
}

static const TuiTable years = {ycols, Y_COUNT, y_nrows, y_cell, y_value, NULL, -1, 0};

static void name_years_cols(const TuiState *s)
{
    const char *u = unit_of(s);
    snprintf(yt[Y_USED], sizeof yt[Y_USED], "Used, mean (%s)", u);
    snprintf(yt[Y_CAP], sizeof yt[Y_CAP], "Capacity, mean (%s)", u);
    char sc[64];
    snprintf(yt[Y_NEED], sizeof yt[Y_NEED], "Need (%s, %.40s)", u,
             shown(s, s->scenario, sc, sizeof sc));
    snprintf(yt[Y_LO], sizeof yt[Y_LO], "Need p10 (%s)", u);
    snprintf(yt[Y_HI], sizeof yt[Y_HI], "Need p90 (%s)", u);
    snprintf(yt[Y_BASE], sizeof yt[Y_BASE], "Need in base (%s)", u);
}

/* ---- Projection: the need by year, in parts, with its range ------------ */

enum { D_WHAT, D_Y1, D_Y2, D_Y3, D_COUNT };
static const TuiCol dcols[D_COUNT] = {
    [D_WHAT] = {"Projected, mean a year", 30, 0, 0, 0},
    [D_Y1] = {t_year[0], 8, 0, 1, 0},
    [D_Y2] = {t_year[1], 8, 0, 1, 0},
    [D_Y3] = {t_year[2], 8, 0, 1, 0},
};

typedef enum {
    R_NEED, R_LO, R_HI, R_BASE, R_HEADS, R_STAYERS, R_LEAVERS, R_NEWCOMERS, R_INTENSITY, R_POOL,
    R_BUFFER, R_GROUP_N,
    R_I_NEED = R_GROUP_N, R_I_LO, R_I_HI, R_I_BASE, R_I_CAP, R_I_GAP, R_I_C0,
    R_ALL = R_I_C0 + TUI_CLASSES
} DRow;

static const char *const dwhat[R_ALL] = {
    "need", "need p10", "need p90", "need in base", "members (people)", "part: stayers",
    "part: leavers", "part: newcomers", "part: intensity", "part: pool share", "part: buffer",
    "need", "need p10", "need p90", "need in base", "capacity", "gap (need - capacity)",
    "<=24 GiB class need", "<=48 GiB class need", "<=80 GiB class need", ">80 GiB class need",
};

/* Rows shown: the group's (when one is planned), then the institute's. */
static int d_first(const TuiState *s)
{
    return tui_plan_group(s->plan, s->model, part_group) >= 0 ? 0 : R_GROUP_N;
}

static int d_nrows(const TuiState *s) { return s->plan ? R_ALL - d_first(s) : 0; }

static double d_value(const TuiState *s, int row, int col)
{
    const ProjResult *r = tui_plan_result(s->plan, 0), *b = tui_plan_result(s->plan, 1);
    int y = col - D_Y1, what = row + d_first(s);
    if (col == D_WHAT || !r || y >= r->nyears)
        return NAN;
    int g = tui_plan_group(s->plan, s->model, part_group);
    const ProjGroupYear *gy = g >= 0 ? &r->gy[g * r->nyears + y] : NULL;
    const ProjTotals *t = &r->total[y];
    switch ((DRow)what) {
    case R_NEED: return gy->demand;
    case R_LO: return gy->demand_r.lo;
    case R_HI: return gy->demand_r.hi;
    case R_BASE: return b->gy[g * b->nyears + y].demand;
    case R_HEADS: return gy->heads;
    case R_STAYERS: return gy->stayers;
    case R_LEAVERS: return gy->leavers;
    case R_NEWCOMERS: return gy->newcomers_use;
    case R_INTENSITY: return gy->intensity;
    case R_POOL: return gy->pool;
    case R_BUFFER: return gy->buffer_add;
    case R_I_NEED: return t->demand;
    case R_I_LO: return t->demand_r.lo;
    case R_I_HI: return t->demand_r.hi;
    case R_I_BASE: return b->total[y].demand;
    case R_I_CAP: return t->capacity > 0 ? t->capacity : NAN; /* no inventory: unknown */
    case R_I_GAP: return t->capacity > 0 ? t->gap : NAN;
    default: return t->demand_c[what - R_I_C0];
    }
}

static void d_cell(const TuiState *s, int row, int col, char *buf, size_t n)
{
    int what = row + d_first(s);
    if (col != D_WHAT) {
        put_num(d_value(s, row, col), buf, n);
        return;
    }
    char name[128] = "institute";
    if (what < R_GROUP_N)
        tui_model_group_label(s->model, part_group, s->redact, name, sizeof name);
    snprintf(buf, n, "%s: %s (%s)", name, dwhat[what], what == R_HEADS ? "people" : unit_of(s));
    if (what == R_HEADS)
        snprintf(buf, n, "%s: members (people)", name);
}

static const TuiTable demand = {dcols, D_COUNT, d_nrows, d_cell, d_value, NULL, -1, 0};

static void name_proj_years(const TuiState *s)
{
    const TuiModel *m = s->model;
    for (int y = 0; y < 3; y++) {
        int i = m->nhist_years + y;
        if (i < m->nyears && m->years[i].projected)
            snprintf(t_year[y], sizeof t_year[y], "%d", m->years[i].year);
        else
            snprintf(t_year[y], sizeof t_year[y], "year %d", y + 1);
    }
}

/* ---- Scenarios: the comparison ---------------------------------------- */

enum { E_PARAM, E_GROUP, E_A, E_B, E_REASON, E_WHO, E_EFFECT, E_COUNT };
static const TuiCol ecols[E_COUNT] = {
    [E_PARAM] = {"Parameter", 10, 0, 0, 0}, [E_GROUP] = {"Group", 8, 0, 0, 0},
    [E_A] = {t_a[0], 8, 0, 1, 0},           [E_B] = {t_a[1], 8, 0, 1, 0},
    [E_REASON] = {"Reason", 10, 0, 0, 0},   [E_WHO] = {"Who, when (UTC)", 10, 0, 0, 0},
    [E_EFFECT] = {t_a[2], 8, 0, 1, 0},
};

static int e_nrows(const TuiState *s) { return s->cmp ? s->cmp->nedits : 0; }

static int is_pct(const char *key)
{
    return strcmp(key, "growth") == 0 || strcmp(key, "intensity") == 0 ||
           strcmp(key, "buffer") == 0;
}

static double e_value(const TuiState *s, int row, int col)
{
    const CmpEdit *e = &s->cmp->edits[row];
    double k = is_pct(e->key) ? 100 : 1; /* percentages as percentages */
    switch (col) {
    case E_A: return e->a * k;
    case E_B: return e->b * k;
    case E_EFFECT: return e->effect;
    default: return NAN;
    }
}

static void e_cell(const TuiState *s, int row, int col, char *buf, size_t n)
{
    const CmpEdit *e = &s->cmp->edits[row];
    char words[64];
    switch (col) {
    case E_PARAM:
        tui_plan_key_words(s->plan, e->key, words, sizeof words);
        snprintf(buf, n, "%s%s", words, is_pct(e->key) ? " (%)" : "");
        break;
    case E_GROUP:
        if (e->group[0])
            tui_model_group_label(s->model, tui_model_group_find(s->model, e->group), s->redact,
                                  buf, n);
        else
            snprintf(buf, n, "every group");
        break;
    case E_REASON: snprintf(buf, n, "%s", e->why && e->why->reason ? e->why->reason : ""); break;
    case E_WHO:
        if (e->why && e->why->who) {
            char when[32] = "";
            time_t t = (time_t)e->why->at;
            struct tm tm;
            gmtime_r(&t, &tm);
            strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
            snprintf(buf, n, "%s, %s", s->redact ? "someone" : e->why->who, when);
        } else
            buf[0] = '\0';
        break;
    default:
        if (col == E_EFFECT)
            snprintf(buf, n, "%+.2f", e_value(s, row, col));
        else
            put_num(e_value(s, row, col), buf, n);
    }
}

static const TuiTable edits = {ecols, E_COUNT, e_nrows, e_cell, e_value, NULL, -1, 0};

enum { N_YEAR, N_A, N_B, N_DIFF, N_COUNT };
static const TuiCol ncols[N_COUNT] = {
    [N_YEAR] = {"Year", 4, 0, 1, 0}, [N_A] = {t_a[3], 8, 0, 1, 0},
    [N_B] = {t_a[4], 8, 0, 1, 0},    [N_DIFF] = {t_a[5], 8, 0, 1, 0},
};

static int n_nrows(const TuiState *s) { return s->cmp ? s->cmp->ny : 0; }

static double n_value(const TuiState *s, int row, int col)
{
    const TuiCompare *c = s->cmp;
    switch (col) {
    case N_YEAR: return c->year[row];
    case N_A: return c->need[0][row];
    case N_B: return c->need[1][row];
    case N_DIFF: return c->need[1][row] - c->need[0][row];
    default: return NAN;
    }
}

static void n_cell(const TuiState *s, int row, int col, char *buf, size_t n)
{
    if (col == N_YEAR)
        snprintf(buf, n, "%d", s->cmp->year[row]);
    else
        put_num(n_value(s, row, col), buf, n);
}

static const TuiTable needs = {ncols, N_COUNT, n_nrows, n_cell, n_value, NULL, -1, 0};

static void name_compare(const TuiState *s)
{
    const char *u = unit_of(s);
    char a[64], b[64];
    snprintf(t_a[0], sizeof t_a[0], "A: %.40s", shown(s, s->cmp->a, a, sizeof a));
    snprintf(t_a[1], sizeof t_a[1], "B: %.40s", shown(s, s->cmp->b, b, sizeof b));
    snprintf(t_a[2], sizeof t_a[2], "Effect on next year's need (%s)", u);
    snprintf(t_a[3], sizeof t_a[3], "Need in A: %.40s (%s)", shown(s, s->cmp->a, a, sizeof a), u);
    snprintf(t_a[4], sizeof t_a[4], "Need in B: %.40s (%s)", shown(s, s->cmp->b, b, sizeof b), u);
    snprintf(t_a[5], sizeof t_a[5], "B - A (%s)", u);
}

/* ---- the parts of a view ---------------------------------------------- */

static int add(const TuiState *s, const TuiTable *t, const char *heading, TuiExportPart *parts,
               TuiCursor *curs, int at, int n)
{
    if (at >= n)
        return at;
    memset(&curs[at], 0, sizeof curs[at]);
    curs[at].sort_col = -1;
    table_prepare(t, s, &curs[at]);
    parts[at] = (TuiExportPart){t, &curs[at], heading};
    return at + 1;
}

int export_parts_add(const TuiState *s, int g, TuiExportPart *parts, TuiCursor *curs, int n)
{
    int k = 0;
    part_group = g;
    if (s->view == TUI_V_OVERVIEW) {
        name_years_cols(s);
        k = add(s, &years, "Capacity and need by year (the chart's figures)", parts, curs, k, n);
    } else if (s->view == TUI_V_PROJECTION && s->plan) {
        name_proj_years(s);
        k = add(s, &demand, "Need by year, in parts, with its p10-p90 range", parts, curs, k, n);
    } else if (s->view == TUI_V_SCENARIOS && s->cmp) {
        name_compare(s);
        k = add(s, &needs, "Need by year in A and B", parts, curs, k, n);
        k = add(s, &edits, "Every parameter that differs, its reason and effect", parts, curs, k,
                n);
    }
    return k;
}
