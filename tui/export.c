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
#include "tui/export_parts.h"
#include "tui/fmt.h"
#include "tui/plan.h"
#include "tui/view.h"

/* The model group the view is about, -1 none: the Group view's, or the
 * Projection's (its group when planned, else the plan's first). */
static int export_group(const TuiState *s)
{
    if (s->view == TUI_V_GROUP)
        return s->group;
    if (s->view == TUI_V_USAGE) { /* the group the Usage view follows (view_usage.c) */
        if (s->group >= 0 && s->group < s->model->ngroups)
            return s->group;
        int row = s->cur[TUI_V_GROUPS].nidx > 0 ? table_selected(&s->cur[TUI_V_GROUPS]) : -1;
        return row >= 0 && row < s->model->ngroups ? row : -1;
    }
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
    TuiExportPart parts[1 + EXPORT_PARTS_MAX] = {{t, tui_cursor(s), NULL}};
    TuiCursor curs[EXPORT_PARTS_MAX];
    int nparts = 1 + export_parts_add(s, g, parts + 1, curs, EXPORT_PARTS_MAX);
    CpErr err = {""};
    int rc = table_export_parts(parts, nparts, s, title, path, csv, &err);
    for (int i = 1; i < nparts; i++)
        free(curs[i - 1].idx);
    s->prompt.kind = TUI_P_NONE;
    if (rc < 0) {
        tui_status(s, CV_BAD, 0, "export failed: %s", err.msg);
        return TUI_REDRAW;
    }
    tui_status(s, CV_GOOD, 0, "exported %d rows%s to %s (%s)", tui_cursor(s)->nidx,
               nparts > 1 ? " and the figures beside them" : "", path, csv ? "CSV" : "Markdown");
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
