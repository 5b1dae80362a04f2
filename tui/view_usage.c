/* view_usage: what the clusters did: utilisation per cluster per month as
 * sparklines with the events marked under them (▲), a table of every
 * cluster and month (GPU-hours, GPUs in service, utilisation, jobs, mean
 * wait, events), the hour-of-week heat map of GPUs in use over the last 12
 * months and requested against used resources. The heat map and the
 * efficiency figures scan the jobs table, and the energy and
 * allocation-policy panel (issue 9: energy and carbon of the last two
 * years, the fair-share state of the groups when allocations are
 * imported, data/store_policy) reads them through the statistics loader:
 * all three come from tui/usage_bg's worker thread, started when the
 * dashboard opens; until they arrive the view says "computing usage..."
 * and redraws itself when they do (issue 16). The heat map and requested
 * against used, read from the statistics' aggregates, come sooner from
 * tui/heat_bg's worker (issue 20): the energy panel then says it is still
 * computing. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "data/store/store_policy.h"
#include "data/store/store_tui.h"
#include "tui/empty.h"
#include "tui/fmt.h"
#include "tui/usage_bg.h"
#include "tui/view.h"

#define HEAT_W 31    /* "Mon " + 24 hours + margins */
#define MAX_SPARKS 5 /* cluster sparklines shown */

enum { U_MONTH, U_CLUSTER, U_GPUH, U_GPUS, U_UTIL, U_JOBS, U_WAIT, U_EVENT, U_COUNT };

static const TuiCol ucols[U_COUNT] = {
    [U_MONTH] = {"Month", 7, 0, 0, 0},   [U_CLUSTER] = {"Cluster", 7, 1, 0, 0},
    [U_GPUH] = {"GPU-h", 6, 0, 1, 0},    [U_GPUS] = {"GPUs", 5, 0, 1, 2},
    [U_UTIL] = {"Util %", 6, 0, 1, 0},     [U_JOBS] = {"Jobs", 5, 0, 1, 3},
    [U_WAIT] = {"Wait", 5, 0, 1, 1},     [U_EVENT] = {"Event", 8, 2, 0, 4},
};

/* Row r: the most recent month first, clusters by name within a month. */
static void row_pos(const TuiState *s, int r, int *mi, int *c)
{
    int nc = s->model->nclusters > 0 ? s->model->nclusters : 1;
    *mi = s->model->nmonths - 1 - r / nc;
    *c = r % nc;
}

static int u_nrows(const TuiState *s)
{
    return s->model->nclusters * s->model->nmonths;
}

static double u_value(const TuiState *s, int r, int col)
{
    int mi, c;
    row_pos(s, r, &mi, &c);
    const TuiCluster *x = &s->model->clusters[c];
    switch (col) {
    case U_MONTH: return (double)fmt_month_add(s->model->m0, mi);
    case U_GPUH: return x->used_h[mi];
    case U_GPUS: /* over the hours the accounting covers, as `capplan stats` */
        return x->has_inventory && x->hours[mi] > 0 ? x->cap_h[mi] / x->hours[mi] : NAN;
    case U_UTIL: return x->util[mi] >= 0 ? x->util[mi] : NAN;
    case U_JOBS: return (double)x->jobs_month[mi];
    case U_WAIT: return x->wait_month[mi] >= 0 ? x->wait_month[mi] : NAN;
    default: return NAN;
    }
}

/* Why a month's utilisation is above 100 % (o: bytes written; 0 when it
 * is not): the jobs held more GPU-hours than the inventory's GPUs give, so
 * on average more GPUs were in use than the inventory lists for the
 * cluster (the data's, not a formula's: issue 30). */
static size_t over_text(const TuiCluster *x, int mi, char *buf, size_t n)
{
    char a[32], b[32];
    if (!x->has_inventory || x->hours[mi] <= 0 || !(x->util[mi] > 1.0))
        return 0;
    int k = snprintf(buf, n, "over 100%%: jobs held %s GPUs, inventory lists %s",
                     fmt_gpus(x->used_h[mi] / x->hours[mi], a, sizeof a),
                     fmt_gpus(x->cap_h[mi] / x->hours[mi], b, sizeof b));
    return k < 0 ? 0 : (size_t)k < n ? (size_t)k : n - 1;
}

/* Why a row is over 100 %, then the labels of the events of cluster c in
 * month index mi, "; "-joined. */
static void events_text(const TuiModel *m, int c, int mi, char *buf, size_t n)
{
    int64_t mo = fmt_month_add(m->m0, mi);
    buf[0] = '\0';
    size_t o = over_text(&m->clusters[c], mi, buf, n);
    for (int i = 0; i < m->nevents && o + 1 < n; i++) {
        const TuiEvent *e = &m->events[i];
        if (e->month != mo || (e->cluster[0] && strcmp(e->cluster, m->clusters[c].name) != 0))
            continue;
        int k = snprintf(buf + o, n - o, "%s%s", o ? "; " : "", e->label);
        o += k > 0 ? (size_t)k : 0;
    }
}

static void u_cell(const TuiState *s, int r, int col, char *buf, size_t n)
{
    int mi, c;
    row_pos(s, r, &mi, &c);
    double v = u_value(s, r, col);
    switch (col) {
    case U_MONTH: fmt_month(fmt_month_add(s->model->m0, mi), buf, n); break;
    case U_CLUSTER: snprintf(buf, n, "%s", s->model->clusters[c].name); break;
    case U_GPUH:
    case U_JOBS: fmt_num(v, buf, n); break;
    case U_GPUS: fmt_gpus(v, buf, n); break;
    case U_UTIL: fmt_pct(v, buf, n); break;
    case U_WAIT: fmt_secs(v, buf, n); break;
    case U_EVENT: events_text(s->model, c, mi, buf, n); break;
    default: buf[0] = '\0';
    }
}

static uint16_t u_attr(const TuiState *s, int r, int col)
{
    double v = u_value(s, r, U_UTIL);
    if (col == U_UTIL && v > 0.9)
        return CV_BAD;
    if (col == U_UTIL && v < 0.3)
        return CV_WARN;
    if (col == U_EVENT) { /* red: over 100 % (over_text says why) */
        int mi, c;
        row_pos(s, r, &mi, &c);
        return v > 1.0 && s->model->clusters[c].has_inventory ? CV_BAD : CV_EVENT;
    }
    return CV_NORMAL;
}

static const TuiTable usage = {ucols, U_COUNT, u_nrows, u_cell, u_value, u_attr, -1, 0};

static const TuiTable *usage_table(const TuiState *s)
{
    (void)s;
    return &usage;
}

/* ---- loading ---------------------------------------------------------- */

/* The figures from the jobs come from tui/usage_bg's worker, started when
 * the dashboard opens; if it was stopped (a reload), start it again. */
static unsigned after_paint(TuiState *s)
{
    if (!s->store || s->usage_state != TUI_USAGE_NONE)
        return 0;
    usage_bg_start(s);
    return s->usage_state == TUI_USAGE_COMPUTING ? 0 : TUI_REDRAW;
}

/* ---- the selected group ----------------------------------------------- */

/* The group the view follows: the Group view's, else the one selected in
 * Groups; -1: the institute only. */
static int usage_group(const TuiState *s)
{
    if (s->group >= 0 && s->group < s->model->ngroups)
        return s->group;
    const TuiCursor *c = &s->cur[TUI_V_GROUPS];
    int row = c->nidx > 0 ? table_selected(c) : -1;
    return row >= 0 && row < s->model->ngroups ? row : -1;
}

static double ratio_or_nan(double a, double b)
{
    return b > 0 ? a / b : NAN;
}

/* Requested vs used of group g's members (g < 0: none). */
static StoreTuiEff group_eff(const TuiModel *m, int g)
{
    StoreTuiEff e;
    memset(&e, 0, sizeof e);
    for (int i = 0; g >= 0 && i < m->groups[g].nmembers; i++) {
        const StoreTuiEff *u = &m->users[m->groups[g].members[i]].eff;
        e.gpu_h += u->gpu_h, e.gpu_h_util += u->gpu_h_util, e.util_x_h += u->util_x_h;
        e.cpu_alloc_h += u->cpu_alloc_h, e.cpu_used_h += u->cpu_used_h;
        e.mem_req_h += u->mem_req_h, e.mem_used_h += u->mem_used_h;
    }
    return e;
}

/* Every group's preempted share of attempts and mean wait, 12 months. */
static void institute_rates(const TuiModel *m, double *preempt, double *wait)
{
    double pa = 0, pn = 0, ws = 0, wn = 0;
    for (int g = 0; g < m->ngroups; g++) {
        pa += (double)m->groups[g].preempted_12m;
        pn += (double)m->groups[g].attempts_12m;
        ws += m->groups[g].wait_s_12m;
        wn += (double)m->groups[g].waited_12m;
    }
    *preempt = ratio_or_nan(pa, pn);
    *wait = ratio_or_nan(ws, wn);
}

/* The group's line and its three sparklines (share of GPU-hours,
 * preempted share, mean wait) over the months of the clusters' above,
 * each with its 12-month figure and every group's beside it (5.7%/3.9%);
 * rows used. */
static int render_group(const TuiState *s, Canvas *c, int y, int w, int g, int months)
{
    const TuiModel *m = s->model;
    const TuiGroup *x = &m->groups[g];
    char name[128], a[32], b[32];
    double ip, iw;
    institute_rates(m, &ip, &iw);
    tui_model_group_label(m, g, s->redact, name, sizeof name);
    canvas_textf(c, 1, y, w - 1, CV_BOLD,
                 "%s, 12 months: group/all \xc2\xb7 keys [ and ]: other group", name);
    int gm = months, first = m->nmonths - gm, x0 = 11;
    double v[3][TUI_MAX_MONTHS];
    for (int i = 0; i < gm; i++) {
        double all = 0;
        for (int k = 0; k < m->nclusters; k++)
            all += m->clusters[k].used_h[first + i];
        v[0][i] = all > 0 ? x->gpu_h_month[first + i] / all : NAN;
        v[1][i] = x->preempt_month[first + i] >= 0 ? x->preempt_month[first + i] : NAN;
        v[2][i] = x->wait_month[first + i] >= 0 ? x->wait_month[first + i] : NAN;
    }
    static const char *const labels[3] = {"GPU-h %", "preempt %", "wait"};
    for (int r = 0; r < 3; r++) {
        char txt[80];
        if (r == 0)
            snprintf(txt, sizeof txt, "%s", fmt_pct(x->share_12m, a, sizeof a));
        else if (r == 1)
            snprintf(txt, sizeof txt, "%s/%s", fmt_pct(x->preempt_rate, a, sizeof a),
                     fmt_pct(ip, b, sizeof b));
        else
            snprintf(txt, sizeof txt, "%s/%s", fmt_secs(x->mean_wait_s, a, sizeof a),
                     fmt_secs(iw, b, sizeof b));
        canvas_text(c, 1, y + 1 + r, 10, CV_NORMAL, labels[r]);
        canvas_spark(c, x0, y + 1 + r, gm, v[r], gm, 0, CV_EDITED);
        canvas_text(c, x0 + gm + 1, y + 1 + r, w - x0 - gm - 2, CV_NORMAL, txt);
    }
    return 4;
}

/* ---- drawing ---------------------------------------------------------- */

/* Sparklines per cluster over the last months, and the events under them. */
static int render_sparks(const TuiState *s, Canvas *c, int y, int w)
{
    const TuiModel *m = s->model;
    int sw = w - 22, months = m->nmonths < sw ? m->nmonths : sw;
    char a[32], m0[16];
    if (sw < 8)
        return 0;
    canvas_textf(c, 1, y, w - 1, CV_BOLD, "Utilisation per month from %s, \xe2\x96\xb2 events",
                 fmt_month(fmt_month_add(m->m0, m->nmonths - months), m0, sizeof m0));
    int rows = 0;
    for (int k = 0; k < m->nclusters && rows < MAX_SPARKS; k++, rows++) {
        const TuiCluster *x = &m->clusters[k];
        const double *v = x->has_inventory ? x->util : x->used_h;
        canvas_text(c, 1, y + 1 + rows, 9, CV_NORMAL, x->name);
        canvas_spark(c, 11, y + 1 + rows, months, v + m->nmonths - months, months,
                     x->has_inventory ? 1.0 : 0, CV_ACCENT);
        double last = x->has_inventory ? x->util[m->nmonths - 1] : -1;
        if (last >= 0)
            canvas_text(c, 12 + months, y + 1 + rows, w - 13 - months, CV_NORMAL,
                        fmt_pct(last, a, sizeof a));
        else
            canvas_text(c, 12 + months, y + 1 + rows, w - 13 - months, CV_DIM, "GPU-h");
    }
    canvas_text(c, 1, y + 1 + rows, 9, CV_DIM, "events");
    for (int i = 0; i < m->nevents; i++) {
        int mi = tui_model_month_index(m, m->events[i].month) - (m->nmonths - months);
        if (mi >= 0 && mi < months)
            canvas_fill(c, 11 + mi, y + 1 + rows, 1, 0x25b2, CV_EVENT | CV_BOLD);
    }
    int g = usage_group(s);
    if (g >= 0)
        return rows + 2 + render_group(s, c, y + 2 + rows, w, g, months);
    return rows + 2;
}

/* In place of the heat map while the worker computes it (or why not). */
static void render_pending(const TuiState *s, Canvas *c, int x, int y, int h)
{
    static const char *const computing[] = {
        "computing usage\xe2\x80\xa6", "the heat map, requested vs used",
        "and energy read the jobs in", "the background: keys work."};
    if (!s->store) {
        canvas_text(c, x, y, HEAT_W - 1, CV_DIM, "not loaded");
        return;
    }
    if (s->usage_state == TUI_USAGE_FAILED) {
        canvas_text(c, x, y, HEAT_W - 1, CV_BAD, "usage figures not available:");
        canvas_text(c, x, y + 1, HEAT_W - 1, CV_BAD, s->usage_err);
        return;
    }
    for (int i = 0; i < 4 && i < h; i++)
        canvas_text(c, x, y + i, HEAT_W - 1, i ? CV_DIM : CV_WARN | CV_BOLD, computing[i]);
}

/* The hour-of-week heat map (rows Monday..Sunday, columns UTC hours). */
static void render_heat(const TuiState *s, Canvas *c, int x, int y, int h)
{
    static const char *const days[7] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    const TuiModel *m = s->model;
    canvas_text(c, x, y, HEAT_W - 1, CV_BOLD, "GPUs in use by hour (UTC)");
    if (!m->heat_loaded) {
        render_pending(s, c, x, y + 1, h - 1);
        return;
    }
    double max = 0;
    for (int i = 0; i < 168; i++)
        max = fmax(max, m->heat[i]);
    for (int d = 0; d < 7 && d + 1 < h; d++) {
        canvas_text(c, x, y + 1 + d, 4, CV_NORMAL, days[d]);
        for (int hr = 0; hr < 24; hr++)
            canvas_fill(c, x + 4 + hr, y + 1 + d, 1,
                        canvas_shade(max > 0 ? m->heat[d * 24 + hr] / max : 0), CV_ACCENT);
    }
    char a[32];
    if (h > 8)
        canvas_text(c, x + 4, y + 8, 25, CV_DIM, "0     6     12    18   ");
    if (h > 9 && tui_cpu_only(m))
        canvas_text(c, x, y + 9, HEAT_W - 1, CV_DIM, "CPU-only: no GPU in use");
    else if (h > 9 && !(max >= 0.005))
        canvas_text(c, x, y + 9, HEAT_W - 1, CV_DIM, "no GPU in use in 12 months");
    else if (h > 9)
        canvas_textf(c, x, y + 9, HEAT_W - 1, CV_NORMAL, "\xe2\x96\x88 = %s GPUs, 12 months",
                     fmt_gpus(max, a, sizeof a));
}

/* Requested vs used, 12 months: the selected group beside the institute. */
static void render_eff(const TuiState *s, Canvas *c, int x, int y, int h)
{
    const TuiModel *m = s->model;
    char a[32], b[32];
    if (h < 5 || !m->heat_loaded)
        return;
    int g = usage_group(s);
    StoreTuiEff e = group_eff(m, g);
    canvas_text(c, x, y, HEAT_W - 1, CV_BOLD, "Requested vs used, 12 mo");
    if (g >= 0)
        canvas_textf(c, x, y + 1, HEAT_W - 1, CV_DIM, "%-13s %8s %7s", "", "group", "all");
    const char *labels[3] = {"GPU util", "CPU time used", "memory used"};
    double gv[3] = {ratio_or_nan(e.util_x_h, e.gpu_h_util) / 100.0,
                    ratio_or_nan(e.cpu_used_h, e.cpu_alloc_h),
                    ratio_or_nan(e.mem_used_h, e.mem_req_h)};
    double iv[3] = {m->gpu_util / 100.0, m->cpu_eff, m->mem_eff};
    for (int r = 0; r < 3; r++) {
        fmt_pct(iv[r], b, sizeof b);
        if (g >= 0)
            canvas_textf(c, x, y + 2 + r, HEAT_W - 1, CV_NORMAL, "%-13s %8s %7s", labels[r],
                         fmt_pct(gv[r], a, sizeof a), b);
        else
            canvas_textf(c, x, y + 1 + r, HEAT_W - 1, CV_NORMAL, "%-14s %7s", labels[r], b);
    }
}

/* Energy and carbon per year; the fair-share state of allocated groups. */
static void render_policy(const TuiState *s, Canvas *c, int x, int y, int h)
{
    const StorePolicyPanel *p = s->policy;
    char a[32], b[32];
    if (h >= 1 && !p && s->model->heat_loaded && s->usage_state == TUI_USAGE_COMPUTING)
        canvas_text(c, x, y, HEAT_W - 1, CV_DIM, "energy, fair-share: computing\xe2\x80\xa6");
    if (h < 2 || !p || p->nyears == 0)
        return;
    canvas_textf(c, x, y, HEAT_W - 1, CV_BOLD, "Energy (util %s measured)",
                 fmt_pct(p->measured_pct / 100.0, a, sizeof a));
    int row = 1;
    for (int i = 0; i < p->nyears && row < h; i++, row++)
        canvas_textf(c, x, y + row, HEAT_W - 1, CV_NORMAL, "%d %s MWh %s t CO2e", p->year[i],
                     fmt_num(p->kwh[i] / 1000.0, a, sizeof a), fmt_num(p->kg[i] / 1000.0, b, sizeof b));
    if (!p->has_allocations || row + 1 >= h)
        return;
    canvas_text(c, x, y + row++, HEAT_W - 1, CV_BOLD, "Fair-share  used/alloc");
    for (int i = 0; i < p->ngroups && row < h; i++, row++) {
        double f = p->group[i].factor;
        canvas_textf(c, x, y + row, HEAT_W - 1, p->group[i].blocked ? CV_BAD : CV_NORMAL,
                     "%-12.12s %s %s%s", p->group[i].name,
                     isnan(f) ? "  - " : (snprintf(a, sizeof a, "%.2f", f), a),
                     fmt_pct(p->group[i].used_pct / 100.0, b, sizeof b),
                     p->group[i].blocked ? " blk" : "");
    }
}

static void render(const TuiState *s, Canvas *c, int y, int h, TuiFrame *f)
{
    int side = c->w >= 80 ? HEAT_W : 0;
    int lw = c->w - side;
    if (s->model->nclusters == 0) {
        canvas_text(c, 1, y + 1, c->w - 2, CV_DIM, "no usage in the database yet");
        return;
    }
    int used = render_sparks(s, c, y, lw);
    /* the selected month over 100 %: why, on a line of its own under the
     * table (the Event column says it too where there is room for it) */
    const TuiCursor *cur = &s->cur[TUI_V_USAGE];
    int sel = cur->nidx > 0 ? table_selected(cur) : -1, mi = 0, k = 0;
    char why[160], mo[16];
    why[0] = '\0';
    if (sel >= 0 && sel < u_nrows(s) && h - used > 4) {
        row_pos(s, sel, &mi, &k);
        over_text(&s->model->clusters[k], mi, why, sizeof why);
    }
    char head[224];
    snprintf(head, sizeof head, "%s %s %s", s->model->clusters[k].name,
             fmt_month(fmt_month_add(s->model->m0, mi), mo, sizeof mo), why);
    /* one line where it fits, else two: "over 100%:" ends the first */
    int two = why[0] && canvas_width(c, head) + 2 > lw, lines = why[0] ? 1 + two : 0;
    table_draw(&usage, s, cur, c, 0, y + used, lw, h - used - lines, f);
    if (two) {
        const char *rest = strstr(head, ": ");
        int cut = rest ? (int)(rest - head) + 1 : (int)strlen(head);
        canvas_textf(c, 1, y + h - 2, lw - 2, CV_BAD, "%.*s", cut, head);
        canvas_text(c, 1, y + h - 1, lw - 2, CV_BAD, rest ? rest + 2 : "");
    } else if (lines) {
        canvas_text(c, 1, y + h - 1, lw - 2, CV_BAD, head);
    }
    if (side) {
        render_heat(s, c, lw + 1, y, h);
        render_eff(s, c, lw + 1, y + 11, h - 11);
        render_policy(s, c, lw + 1, y + 17, h - 17);
    }
}

const TuiView view_usage = {
    .name = "Usage",
    .tab = "Usage",
    .table = usage_table,
    .render = render,
    .after_paint = after_paint,
};
