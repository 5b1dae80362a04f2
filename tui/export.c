/* export: the x key (export.h). */
#include "tui/export.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "reports/anon.h"
#include "tui/actions.h"
#include "tui/fmt.h"
#include "tui/plan.h"
#include "tui/view.h"

/* The model group the view is about, -1 none: the Group view's, or the
 * Projection's (its group when planned, else the plan's first). */
static int export_group(const TuiState *s)
{
    if (s->view == TUI_V_GROUP)
        return s->group;
    if (s->view != TUI_V_PROJECTION || !s->plan)
        return -1;
    if (tui_plan_group(s->plan, s->model, s->group) >= 0)
        return s->group;
    const Plan *p = tui_plan_plan(s->plan);
    return p && p->ngroups > 0 ? tui_model_group_find(s->model, p->groups[0]) : -1;
}

/* Append word to buf (after a '-'), lower case, anything but letters,
 * digits, '.' and '_' as '_'. */
static void put_word(char *buf, size_t n, const char *word)
{
    size_t at = strlen(buf);
    if (at + 2 >= n || !word[0])
        return;
    buf[at++] = '-';
    for (const char *p = word; *p && at + 1 < n; p++) {
        char ch = *p;
        if (ch >= 'A' && ch <= 'Z')
            ch = (char)(ch - 'A' + 'a');
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' ||
                 ch == '-';
        buf[at++] = ok ? ch : '_';
    }
    buf[at] = '\0';
}

/* The scenario's name as presentation mode shows it: a scenario named
 * after a group or a person names them, so it goes through the scrubber
 * (tui/redact) there. Returns buf (size n) or s->scenario. */
static const char *scenario_shown(const TuiState *s, char *buf, size_t n)
{
    if (!s->redact || !s->scrub)
        return s->scenario;
    return anon_scrub_buf(s->scrub, s->scenario, buf, n);
}

void export_name(const TuiState *s, char *buf, size_t n)
{
    char label[128];
    snprintf(buf, n, "capplan");
    put_word(buf, n, tui_view(s->view)->name);
    int g = export_group(s);
    if (g >= 0 && g < s->model->ngroups)
        put_word(buf, n, tui_model_group_label(s->model, g, s->redact, label, sizeof label));
    if (s->view == TUI_V_GROUP && s->member >= 0 && s->member < s->model->nusers) {
        /* s->member indexes the model's users (view_group.c) */
        put_word(buf, n, tui_model_user_label(s->model, s->member, s->redact, label, sizeof label));
        put_word(buf, n, "jobs");
    }
    put_word(buf, n, scenario_shown(s, label, sizeof label));
    size_t at = strlen(buf);
    snprintf(buf + at, n - at, ".md");
}

unsigned export_open(TuiState *s)
{
    char name[200];
    export_name(s, name, sizeof name);
    actions_prompt_open(s, TUI_P_EXPORT, "export to (.md or .csv):", name);
    return TUI_REDRAW;
}

/* ---- the Projection's demand by year ---------------------------------- */

enum { D_WHAT, D_Y1, D_Y2, D_Y3, D_COUNT };
/* The years' titles are the calendar years of the projection, set when
 * the file is written (name_years). */
static char year_title[3][16] = {"year 1", "year 2", "year 3"};
static const TuiCol dcols[D_COUNT] = {
    [D_WHAT] = {"Projected, mean a year", 30, 0, 0, 0},
    [D_Y1] = {year_title[0], 8, 0, 1, 0},
    [D_Y2] = {year_title[1], 8, 0, 1, 0},
    [D_Y3] = {year_title[2], 8, 0, 1, 0},
};

static void name_years(const TuiModel *m)
{
    for (int y = 0; y < 3; y++) {
        int i = m->nhist_years + y;
        if (i < m->nyears && m->years[i].projected)
            snprintf(year_title[y], sizeof year_title[y], "%d", m->years[i].year);
        else
            snprintf(year_title[y], sizeof year_title[y], "year %d", y + 1);
    }
}

#define D_GROUP_ROWS 3
#define D_ROWS (D_GROUP_ROWS + 4 + TUI_CLASSES)

static const char *const drow_names[D_ROWS] = {
    "group: demand (GPUs)",
    "group: demand in base (GPUs)",
    "group: members (people)",
    "institute: demand (GPUs)",
    "institute: demand in base (GPUs)",
    "institute: capacity (GPUs)",
    "institute: gap (GPUs)",
    "institute: <=24 GiB class demand (GPUs)",
    "institute: <=48 GiB class demand (GPUs)",
    "institute: <=80 GiB class demand (GPUs)",
    "institute: >80 GiB class demand (GPUs)",
};

static int d_nrows(const TuiState *s)
{
    return s->plan ? D_ROWS : 0;
}

static double d_value(const TuiState *s, int row, int col)
{
    const ProjResult *r = tui_plan_result(s->plan, 0), *b = tui_plan_result(s->plan, 1);
    int y = col - D_Y1;
    if (col == D_WHAT || !r || y >= r->nyears)
        return NAN;
    int g = tui_plan_group(s->plan, s->model, export_group(s));
    if (row < D_GROUP_ROWS && g < 0)
        return NAN;
    switch (row) {
    case 0: return r->gy[g * r->nyears + y].demand;
    case 1: return b->gy[g * b->nyears + y].demand;
    case 2: return r->gy[g * r->nyears + y].heads;
    case 3: return r->total[y].demand;
    case 4: return b->total[y].demand;
    case 5: return r->total[y].capacity;
    case 6: return r->total[y].gap;
    default: return r->total[y].demand_c[row - D_GROUP_ROWS - 4];
    }
}

static void d_cell(const TuiState *s, int row, int col, char *buf, size_t n)
{
    if (col == D_WHAT) {
        snprintf(buf, n, "%s", drow_names[row]);
        return;
    }
    double v = d_value(s, row, col);
    if (isnan(v))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.2f", v);
}

static const TuiTable demand_table = {dcols, D_COUNT, d_nrows, d_cell, d_value, NULL, -1, 0};

/* ---- writing ---------------------------------------------------------- */

static int ends_with(const char *s, const char *ext)
{
    size_t n = strlen(s), k = strlen(ext);
    return n > k && strcasecmp(s + n - k, ext) == 0;
}

static unsigned write_file(TuiState *s)
{
    const TuiView *v = tui_view(s->view);
    const TuiTable *t = v->table ? v->table(s) : NULL;
    const char *path = s->prompt.text;
    int csv = ends_with(path, ".csv");
    char title[300], label[128] = "", scen[128];
    int g = export_group(s);
    if (g >= 0 && g < s->model->ngroups)
        tui_model_group_label(s->model, g, s->redact, label, sizeof label);
    snprintf(title, sizeof title, "capplan \xc2\xb7 %s%s%s \xc2\xb7 scenario %s", v->name,
             label[0] ? " \xc2\xb7 " : "", label, scenario_shown(s, scen, sizeof scen));
    TuiExportPart parts[2] = {{t, tui_cursor(s), NULL}, {NULL, NULL, NULL}};
    int nparts = 1;
    TuiCursor all;
    memset(&all, 0, sizeof all);
    all.sort_col = -1;
    if (s->view == TUI_V_PROJECTION && s->plan) {
        name_years(s->model);
        table_prepare(&demand_table, s, &all);
        parts[nparts++] = (TuiExportPart){&demand_table, &all, "Demand by year"};
    }
    CpErr err = {""};
    int rc = table_export_parts(parts, nparts, s, title, path, csv, &err);
    free(all.idx);
    s->prompt.kind = TUI_P_NONE;
    if (rc < 0) {
        tui_status(s, CV_BAD, 0, "export failed: %s", err.msg);
        return TUI_REDRAW;
    }
    tui_status(s, CV_GOOD, 0, "exported %d rows%s to %s (%s)", tui_cursor(s)->nidx,
               nparts > 1 ? " and the demand by year" : "", path, csv ? "CSV" : "Markdown");
    return TUI_REDRAW;
}

unsigned export_accept(TuiState *s)
{
    const TuiView *v = tui_view(s->view);
    const char *path = s->prompt.text;
    if (!v->table || !v->table(s)) {
        s->prompt.kind = TUI_P_NONE;
        tui_status(s, CV_WARN, 0, "%s has no table to export", v->name);
        return TUI_REDRAW;
    }
    if (!ends_with(path, ".md") && !ends_with(path, ".csv")) {
        tui_status(s, CV_BAD, 0, "refused: the name must end in .md (Markdown) or .csv (CSV)");
        return TUI_REDRAW; /* the prompt stays open */
    }
    struct stat st;
    if (stat(path, &st) == 0) {
        s->prompt.kind = TUI_P_CONFIRM;
        fmt_copy(s->prompt.label, sizeof s->prompt.label, "exists, overwrite? y/n:");
        s->prompt.sel = 0;
        return TUI_REDRAW;
    }
    return write_file(s);
}

unsigned export_confirm(TuiState *s, int key)
{
    if (key == 'y' || key == 'Y')
        return write_file(s);
    s->prompt.kind = TUI_P_NONE;
    tui_status(s, CV_WARN, 0, "not exported: %s kept as it was", s->prompt.text);
    return TUI_REDRAW;
}
