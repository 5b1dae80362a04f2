/* view_group: one group, as its meeting looks at it: the group's usage over
 * time, preemption and waits, its members with their usage and what they
 * say they need beside what they used (mismatches marked), meeting notes;
 * Enter on a member lists that member's biggest jobs. e edits the member's
 * stated full-time GPUs in place; n adds a note, m plans or records a
 * meeting, typed on the meetings line (actions.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/plan/meetings.h"
#include "data/plan/plan.h"
#include "data/store/store_tui.h"
#include "tui/actions.h"
#include "tui/editform.h"
#include "tui/fmt.h"
#include "tui/lineedit.h"
#include "tui/plan.h"
#include "tui/jobs_bg.h"
#include "tui/research.h"
#include "tui/view.h"

#define JOBS_LIMIT 200
#define JOBS_LIMIT_TEXT "200"

/* ---- members ---------------------------------------------------------- */

enum {
    M_NAME, M_ROLE, M_UNTIL, M_PROFILE, M_GPUH, M_GPUS, M_STATED, M_MATCH, M_PREEMPT, M_WAIT,
    M_JOBS, M_TREND, M_RESEARCH, M_COUNT
};

static const TuiCol mcols[M_COUNT] = {
    [M_NAME] = {"Member", 10, 2, 0, 0},
    [M_ROLE] = {"Role", 8, 1, 0, 4},
    [M_UNTIL] = {"Until", 7, 0, 0, 5},
    [M_PROFILE] = {"Profile", 4, 0, 0, 3},
    [M_GPUH] = {"GPU-h", 6, 0, 1, 0},
    [M_GPUS] = {"GPUs used", 5, 0, 1, 0},
    [M_STATED] = {"Stated", 6, 0, 1, 0},
    [M_MATCH] = {"vs used", 7, 0, 0, 0},
    [M_PREEMPT] = {"Preempt %", 7, 0, 1, 2},
    [M_WAIT] = {"Wait", 5, 0, 1, 3},
    [M_JOBS] = {"Jobs", 5, 0, 1, 6},
    [M_TREND] = {"GPU-h a month, 24 months", 12, 1, 0, 7},
    [M_RESEARCH] = {"Research", 8, 0, 0, 8}, /* R3, R3? to ask why (issue 18) */
};

static const TuiGroup *group_of(const TuiState *s)
{
    return s->group >= 0 && s->group < s->model->ngroups ? &s->model->groups[s->group] : NULL;
}

static const TuiUser *member(const TuiState *s, int row)
{
    return &s->model->users[group_of(s)->members[row]];
}

static int m_nrows(const TuiState *s)
{
    const TuiGroup *g = group_of(s);
    return g ? g->nmembers : 0;
}

/* The planner's user behind u (NULL: no plan, or not in its window). */
static const PlanUser *plan_user(const TuiState *s, const TuiUser *u)
{
    const Plan *p = s->plan ? tui_plan_plan(s->plan) : NULL;
    int i = p ? meetings_plan_user(p, u->name) : -1;
    return i >= 0 ? &p->users[i] : NULL;
}

/* Measured full-time GPUs: the planner's mean concurrent GPUs over its
 * window, as `capplan meetings mismatches` reads them (0: no job in it);
 * the last 12 months' mean when the planner is not loaded. */
static double measured_gpus(const TuiState *s, const TuiUser *u)
{
    const PlanUser *pu = plan_user(s, u);
    return pu ? pu->f.raw[FEAT_CONC_MEAN] : s->plan ? 0 : u->mean_gpus_12m;
}

static double measured_mem(const TuiState *s, const TuiUser *u)
{
    const PlanUser *pu = plan_user(s, u);
    return pu && pu->f.raw[FEAT_MEM_GIB] >= 0 ? pu->f.raw[FEAT_MEM_GIB] : NAN;
}

/* stated / measured, NaN when nothing was stated. */
static double mismatch(const TuiState *s, const TuiUser *u)
{
    if (u->stated_gpus < 0)
        return NAN;
    double m = measured_gpus(s, u);
    return (u->stated_gpus > 0.01 ? u->stated_gpus : 0.01) / (m > 0.01 ? m : 0.01);
}

/* 1: GPUs beyond the tolerance (data/plan/meetings.h); 2: the memory class. */
static int off(const TuiState *s, const TuiUser *u)
{
    if (u->stated_gpus < 0)
        return 0;
    if (meetings_gpus_off(u->stated_gpus, measured_gpus(s, u)))
        return 1;
    return u->stated_mem >= 0 && meetings_mem_off(u->stated_mem, measured_mem(s, u)) ? 2 : 0;
}

static double m_value(const TuiState *s, int row, int col)
{
    const TuiUser *u = member(s, row);
    switch (col) {
    case M_GPUH: return u->gpu_h_12m;
    case M_GPUS: return u->mean_gpus_12m;
    case M_STATED: return u->stated_gpus >= 0 ? u->stated_gpus : NAN;
    case M_PREEMPT: return u->attempts_12m ? (double)u->preempted_12m / u->attempts_12m : NAN;
    case M_WAIT: return u->waited_12m ? u->wait_s_12m / u->waited_12m : NAN;
    case M_JOBS: return (double)u->jobs_12m;
    default: return NAN;
    }
}

static void match_text(const TuiState *s, const TuiUser *u, char *buf, size_t n)
{
    double r = mismatch(s, u);
    int o = off(s, u);
    if (isnan(r))
        snprintf(buf, n, "-");
    else if (o == 2)
        snprintf(buf, n, "\xe2\x89\xa0 mem"); /* ≠ */
    else if (o && !(measured_gpus(s, u) > 0))
        snprintf(buf, n, "\xe2\x89\xa0 none"); /* says some, used none */
    else if (o && r >= 1)
        snprintf(buf, n, "\xe2\x89\xa0 x%.0f", r > 99 ? 99.0 : r);
    else if (o)
        snprintf(buf, n, "\xe2\x89\xa0 /%.0f", 1 / r > 99 ? 99.0 : 1 / r);
    else
        snprintf(buf, n, "ok");
}

static void m_cell(const TuiState *s, int row, int col, char *buf, size_t n)
{
    const TuiUser *u = member(s, row);
    double v = m_value(s, row, col);
    int months = s->model->nmonths < 24 ? s->model->nmonths : 24;
    switch (col) {
    case M_NAME: tui_model_user_label(s->model, group_of(s)->members[row], s->redact, buf, n); break;
    case M_ROLE: snprintf(buf, n, "%s", u->role ? u->role : "-"); break;
    case M_UNTIL: snprintf(buf, n, "%.7s", u->end ? u->end : "-"); break;
    case M_PROFILE:
        if (u->profile >= 0)
            snprintf(buf, n, "P%d", u->profile + 1);
        else
            snprintf(buf, n, "-");
        break;
    case M_GPUH:
    case M_JOBS: fmt_num(v, buf, n); break;
    case M_GPUS:
    case M_STATED: fmt_gpus(v, buf, n); break;
    case M_MATCH: match_text(s, u, buf, n); break;
    case M_PREEMPT: fmt_pct(v, buf, n); break;
    case M_WAIT: fmt_secs(v, buf, n); break;
    case M_TREND:
        fmt_spark(u->gpu_h_month + s->model->nmonths - months, months, 12, buf, n);
        break;
    case M_RESEARCH: tui_research_cell(s->research, u->name, buf, n); break;
    default: buf[0] = '\0';
    }
}

static uint16_t m_attr(const TuiState *s, int row, int col)
{
    const TuiUser *u = member(s, row);
    if (col == M_MATCH && u->stated_gpus >= 0)
        return off(s, u) ? CV_BAD | CV_BOLD : CV_GOOD;
    if (col == M_STATED && u->stated_gpus >= 0)
        return CV_EDITED;
    if (col == M_TREND)
        return CV_ACCENT;
    if (col == M_RESEARCH && tui_research_ask(s->research, u->name))
        return CV_WARN | CV_BOLD;
    return u->active ? CV_NORMAL : CV_DIM;
}

static const TuiTable members = {mcols, M_COUNT, m_nrows, m_cell, m_value, m_attr, M_GPUH, 1};

/* ---- a member's jobs -------------------------------------------------- */

enum { J_ID, J_NAME, J_CLUSTER, J_PART, J_STATE, J_START, J_ELAPSED, J_GPUS, J_GPUH, J_MEM, J_COUNT };

static const TuiCol jcols[J_COUNT] = {
    [J_ID] = {"Job", 8, 0, 0, 0, 1},         [J_NAME] = {"Name", 10, 3, 0, 0},
    [J_CLUSTER] = {"Cluster", 7, 0, 0, 4}, [J_PART] = {"Partition", 9, 0, 0, 5},
    [J_STATE] = {"State", 9, 0, 0, 2, 1},     [J_START] = {"Start", 10, 0, 0, 3},
    [J_ELAPSED] = {"Run time", 5, 0, 1, 0},    [J_GPUS] = {"GPUs", 4, 0, 1, 0},
    [J_GPUH] = {"GPU-h", 6, 0, 1, 0},      [J_MEM] = {"Mem GiB", 7, 0, 1, 1},
};

static int j_nrows(const TuiState *s)
{
    return s->njobs;
}

static double j_value(const TuiState *s, int row, int col)
{
    const StoreTuiJob *j = &s->jobs[row];
    switch (col) {
    case J_START: return (double)j->start;
    case J_ELAPSED: return (double)j->elapsed;
    case J_GPUS: return j->gpus;
    case J_GPUH: return j->gpu_hours;
    case J_MEM: return j->gpu_mem_gib >= 0 ? j->gpu_mem_gib : NAN;
    default: return NAN;
    }
}

static void j_cell(const TuiState *s, int row, int col, char *buf, size_t n)
{
    const StoreTuiJob *j = &s->jobs[row];
    time_t t = (time_t)j->start;
    struct tm tm;
    switch (col) {
    case J_ID: snprintf(buf, n, "%s", j->job_id); break;
    case J_NAME: snprintf(buf, n, "%s", s->redact ? "(hidden)" : j->name ? j->name : "-"); break;
    case J_CLUSTER: snprintf(buf, n, "%s", j->cluster ? j->cluster : "-"); break;
    case J_PART: snprintf(buf, n, "%s", j->partition ? j->partition : "-"); break;
    case J_STATE: snprintf(buf, n, "%s", j->state ? j->state : "-"); break;
    case J_START:
        gmtime_r(&t, &tm);
        strftime(buf, n, "%Y-%m-%d", &tm);
        break;
    case J_ELAPSED: fmt_secs((double)j->elapsed, buf, n); break;
    case J_GPUS: fmt_gpus(j->gpus, buf, n); break;
    case J_GPUH: fmt_num(j->gpu_hours, buf, n); break;
    case J_MEM: fmt_num(j_value(s, row, col), buf, n); break;
    default: buf[0] = '\0';
    }
}

static const TuiTable jobs = {jcols, J_COUNT, j_nrows, j_cell, j_value, NULL, J_GPUH, 1};

static const TuiTable *group_table(const TuiState *s)
{
    if (!group_of(s))
        return NULL;
    return s->member >= 0 ? &jobs : &members;
}

/* ---- loading ---------------------------------------------------------- */

/* The group to show when none was opened: the busiest. */
static int default_group(const TuiState *s)
{
    int sel = table_selected(&s->cur[TUI_V_GROUPS]);
    if (sel >= 0)
        return sel;
    int best = -1;
    for (int g = 0; g < s->model->ngroups; g++)
        if (best < 0 || s->model->groups[g].gpu_h_12m > s->model->groups[best].gpu_h_12m)
            best = g;
    return best;
}

/* The member's biggest jobs: a scan of the jobs table, by a worker
 * (tui/jobs_bg.h) started once the frame is up. */
static unsigned after_paint(TuiState *s)
{
    if (s->member < 0 || s->jobs_user == s->member || jobs_bg_member(s) == s->member)
        return 0;
    store_tui_jobs_free(s->jobs, (size_t)s->njobs);
    s->jobs = NULL;
    s->njobs = 0;
    s->jobs_user = -1;
    s->jobs_cur.row = s->jobs_cur.top = 0;
    s->jobs_cur.filter[0] = '\0';
    if (!s->store) {
        s->jobs_user = s->member;
        return TUI_RECALC | TUI_REDRAW;
    }
    return jobs_bg_start(s, s->member, JOBS_LIMIT) ? TUI_RECALC | TUI_REDRAW : 0;
}

static void prepare(TuiState *s)
{
    if (s->group < 0 || s->group >= s->model->ngroups)
        s->group = default_group(s);
    if (s->member >= 0 && s->jobs_user != s->member) {
        store_tui_jobs_free(s->jobs, (size_t)s->njobs); /* another member's */
        s->jobs = NULL;
        s->njobs = 0;
    }
}

/* ---- rendering -------------------------------------------------------- */

static void render_head(const TuiState *s, const TuiGroup *g, Canvas *c, int y)
{
    const TuiModel *m = s->model;
    char name[128], prof[128], a[32], b[32], d[32], spark[256];
    tui_model_group_label(m, s->group, s->redact, name, sizeof name);
    tui_model_prof_label(m, s->group, s->redact, prof, sizeof prof);
    canvas_textf(c, 1, y, c->w - 2, CV_BOLD, "%s \xc2\xb7 professor %s \xc2\xb7 %s \xc2\xb7 %d "
                 "students, %d active members of %d", name, prof, g->domain ? g->domain : "-",
                 g->nstudents, g->nactive, g->nmembers);
    int months = m->nmonths < 36 ? m->nmonths : 36, sw = c->w > 100 ? 36 : 24;
    int x = 1 + canvas_text(c, 1, y + 1, 14, CV_NORMAL, "GPU-h/month");
    canvas_spark(c, x + 1, y + 1, sw, g->gpu_h_month + m->nmonths - months, months, 0, CV_ACCENT);
    canvas_textf(c, x + sw + 2, y + 1, c->w - x - sw - 3, CV_NORMAL,
                 "last 12 m %s GPU-h, %s of all, trend %s", fmt_num(g->gpu_h_12m, a, sizeof a),
                 fmt_pct(g->share_12m, b, sizeof b),
                 isnan(g->growth) ? "-" : (snprintf(d, sizeof d, "%+.0f%%", g->growth * 100), d));
    x = 1 + canvas_text(c, 1, y + 2, 14, CV_NORMAL, "preempted");
    canvas_spark(c, x + 1, y + 2, sw, g->preempt_month + m->nmonths - months, months, 0, CV_WARN);
    fmt_spark(g->wait_month + m->nmonths - months, months, 12, spark, sizeof spark);
    canvas_textf(c, x + sw + 2, y + 2, c->w - x - sw - 3, CV_NORMAL,
                 "%s of attempts, %s GPU-h lost \xc2\xb7 mean wait %s", fmt_pct(g->preempt_rate, a, sizeof a),
                 fmt_num(g->lost_h_12m, b, sizeof b), fmt_secs(g->mean_wait_s, d, sizeof d));
}

/* The group's profile mix (active members) and its stated needs. */
static void render_mix(const TuiState *s, const TuiGroup *g, Canvas *c, int y)
{
    int count[16] = {0}, stated = 0, nof = 0, known = 0;
    for (int i = 0; i < g->nmembers; i++) {
        const TuiUser *u = &s->model->users[g->members[i]];
        if (u->profile >= 0 && u->profile < 16 && u->active) {
            count[u->profile]++;
            known = 1;
        }
        if (u->stated_gpus >= 0) {
            stated++;
            nof += off(s, u) != 0;
        }
    }
    char buf[256];
    int o = snprintf(buf, sizeof buf, "profiles");
    for (int k = 0; k < 16 && o < (int)sizeof buf; k++)
        if (count[k])
            o += snprintf(buf + o, sizeof buf - (size_t)o, " P%d\xc3\x97%d", k + 1, count[k]);
    if (!known && o < (int)sizeof buf)
        o += snprintf(buf + o, sizeof buf - (size_t)o, " -");
    if (o < (int)sizeof buf)
        snprintf(buf + o, sizeof buf - (size_t)o, " \xc2\xb7 stated needs %d, %d far from "
                 "the measured (\xe2\x89\xa0) \xc2\xb7 e types one, n a note", stated, nof);
    canvas_text(c, 1, y, c->w - 2, nof ? CV_WARN : CV_NORMAL, buf);
}

/* The group's latest notes under the table; returns the rows used. */
static int render_notes(const TuiState *s, Canvas *c, int y_bottom, int max)
{
    const TuiModel *m = s->model;
    int n = 0;
    for (int i = m->nnotes - 1; i >= 0 && n < max; i--) {
        if (m->notes[i].group != s->group)
            continue;
        int y = y_bottom - n;
        if (s->redact)
            canvas_textf(c, 1, y, c->w - 2, CV_DIM, "note %s: (hidden in presentation mode)",
                         m->notes[i].date);
        else
            canvas_textf(c, 1, y, c->w - 2, CV_NORMAL, "note %s: %s", m->notes[i].date,
                         m->notes[i].text);
        n++;
    }
    return n;
}

/* Members whose research line implies more than their jobs show (issue
 * 32), the most GPU-eq at stake first, appended to buf (o bytes used of
 * n); then how many more are flagged and not shown. */
static void research_asks(const TuiState *s, char *buf, int o, size_t n)
{
    const TuiGroup *g = group_of(s);
    if (!g || !s->research)
        return;
    int *who = xcalloc((size_t)g->nmembers + 1, sizeof *who), m = 0, unshown = 0;
    for (int i = 0; i < g->nmembers; i++) {
        const char *name = s->model->users[g->members[i]].name;
        if (tui_research_ask(s->research, name)) {
            int j = m++; /* insertion by stake, descending */
            while (j > 0 && tui_research_stake(s->research, s->model->users[who[j - 1]].name) <
                                tui_research_stake(s->research, name)) {
                who[j] = who[j - 1];
                j--;
            }
            who[j] = g->members[i];
        } else
            unshown += tui_research_unshown(s->research, name);
    }
    for (int i = 0; i < m && o < (int)n; i++) {
        char name[128], why[96];
        tui_model_user_label(s->model, who[i], s->redact, name, sizeof name);
        tui_research_why(s->research, s->model->users[who[i]].name, why, sizeof why);
        o += snprintf(buf + o, n - (size_t)o, "%s %s (%s)",
                      i == 0 ? " \xc2\xb7 ask why, research:" : ",", name, why);
    }
    if (unshown > 0 && o < (int)n)
        snprintf(buf + o, n - (size_t)o, "; %d more not shown (capplan research --all)", unshown);
    free(who);
}

/* Whom to ask in this group: per profile, the students nearest its
 * centroid (data/plan/meetings.h, as `capplan meetings pick`). */
static void render_ask(const TuiState *s, Canvas *c, int y)
{
    const Plan *p = s->plan ? tui_plan_plan(s->plan) : NULL;
    int pg = p ? tui_plan_group(s->plan, s->model, s->group) : -1;
    if (pg < 0) {
        canvas_text(c, 1, y, c->w - 2, CV_DIM, "whom to ask: no compute profiles here yet");
        return;
    }
    int n, o, last = -1;
    const MeetPick *k = tui_plan_picks(s->plan, &n);
    char buf[512], name[128];
    o = snprintf(buf, sizeof buf, "whom to ask (nearest their profile's centroid):");
    for (int i = 0; i < n && o < (int)sizeof buf; i++) {
        if (k[i].group != pg)
            continue;
        int mu = tui_model_user_find(s->model, p->users[k[i].user].name);
        if (mu >= 0)
            tui_model_user_label(s->model, mu, s->redact, name, sizeof name);
        else
            snprintf(name, sizeof name, "%s", s->redact ? "(hidden)" : p->users[k[i].user].name);
        if (k[i].c.label != last)
            o += snprintf(buf + o, sizeof buf - (size_t)o, "%s P%d %s", last >= 0 ? " \xc2\xb7" : "",
                          k[i].c.label + 1, name);
        else
            o += snprintf(buf + o, sizeof buf - (size_t)o, ", %s", name);
        last = k[i].c.label;
    }
    if (last < 0 && o < (int)sizeof buf)
        o += snprintf(buf + o, sizeof buf - (size_t)o, " nobody with enough history");
    research_asks(s, buf, o, sizeof buf);
    canvas_text(c, 1, y, c->w - 2, CV_ACCENT, buf);
}

/* The selected member's stated need beside the measured use. */
static void render_said(const TuiState *s, Canvas *c, int y)
{
    int row = table_selected(&s->cur[TUI_V_GROUP]);
    if (row < 0)
        return;
    const TuiUser *u = member(s, row);
    char name[128], mem[32] = "", used[32] = "";
    tui_model_user_label(s->model, group_of(s)->members[row], s->redact, name, sizeof name);
    if (u->stated_gpus < 0) {
        canvas_textf(c, 1, y, c->w - 2, CV_DIM, "%s: no stated need \xc2\xb7 e on Stated types "
                     "one", name);
        return;
    }
    if (u->stated_mem >= 0)
        snprintf(mem, sizeof mem, ", %g GB", u->stated_mem);
    if (!isnan(measured_mem(s, u)))
        snprintf(used, sizeof used, ", peak %.0f GB", measured_mem(s, u));
    const PlanUser *pu = plan_user(s, u);
    int o = off(s, u);
    canvas_textf(c, 1, y, c->w - 2, o ? CV_BAD : CV_GOOD,
                 "%s says %g GPUs full-time%s (%s); used a mean of %.2f over %d months%s %s%s",
                 name, u->stated_gpus, mem, u->stated_date ? u->stated_date : "-",
                 measured_gpus(s, u), s->plan ? tui_plan_plan(s->plan)->window_months : 12, used,
                 o ? "\xe2\x89\xa0" : "ok",
                 pu && pu->profile >= 0 ? " \xc2\xb7 e on Prof: apply" : "");
}

static int meeting_editing(const TuiState *s)
{
    return s->prompt.kind == TUI_P_EDIT && strcmp(s->prompt.key, TUI_MEETING_KEY) == 0;
}

/* " DATE STATUS (ATTENDEES)" appended to buf at *o; attendees counted, not
 * named, in presentation mode. */
static void meeting_text(const TuiState *s, const char *lead, const TuiMeeting *x, char *buf,
                         size_t n, int *o)
{
    int k = 0;
    for (const char *a = x->attendees; *a; a++)
        k += a == x->attendees || *a == ';';
    char who[160] = "";
    if (k && s->redact)
        snprintf(who, sizeof who, " (%d attendee%s)", k, k == 1 ? "" : "s");
    else if (k)
        snprintf(who, sizeof who, " (%.150s)", x->attendees);
    if (*o < (int)n)
        *o += snprintf(buf + *o, n - (size_t)*o, "%s%s %s%s", lead, x->date, x->status, who);
}

/* The group's meetings: the last held or cancelled one and the next
 * planned one (a planned one already past when none is ahead), or the
 * meeting line being typed after m. */
static void render_meetings(const TuiState *s, Canvas *c, int y)
{
    if (meeting_editing(s)) {
        canvas_fill(c, 1, y, c->w - 2, ' ', CV_EDITED);
        int lw = canvas_text(c, 1, y, c->w - 2, CV_EDITED | CV_BOLD, "meeting: ");
        lineedit_draw(&s->prompt, c, 1 + lw, y, c->w - 2 - lw, CV_EDITED);
        return;
    }
    const TuiModel *m = s->model;
    const TuiMeeting *last = NULL, *next = NULL, *overdue = NULL;
    char now[16], buf[512];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(now, sizeof now, "%Y-%m-%d", &tm);
    for (int i = 0; i < m->nmeetings; i++) {
        const TuiMeeting *x = &m->meetings[i];
        if (x->group != s->group)
            continue;
        if (strcmp(x->status, "planned") != 0) {
            if (!last || strcmp(x->date, last->date) > 0)
                last = x;
        } else if (strcmp(x->date, now) >= 0) {
            if (!next || strcmp(x->date, next->date) < 0)
                next = x;
        } else if (!overdue || strcmp(x->date, overdue->date) > 0) {
            overdue = x;
        }
    }
    int o = snprintf(buf, sizeof buf, "meetings:");
    if (!last && !next && !overdue)
        o += snprintf(buf + o, sizeof buf - (size_t)o, " none yet");
    if (last)
        meeting_text(s, " ", last, buf, sizeof buf, &o);
    if (next || overdue)
        meeting_text(s, next ? (last ? " \xc2\xb7 next " : " next ") : (last ? " \xc2\xb7 " : " "),
                     next ? next : overdue, buf, sizeof buf, &o);
    if (!next && overdue && o < (int)sizeof buf)
        o += snprintf(buf + o, sizeof buf - (size_t)o, ", not recorded");
    if (o < (int)sizeof buf)
        snprintf(buf + o, sizeof buf - (size_t)o, " \xc2\xb7 m plans one");
    canvas_text(c, 1, y, c->w - 2, !next && overdue ? CV_WARN : CV_NORMAL, buf);
}

static void render_member(const TuiState *s, Canvas *c, int y, int h, TuiFrame *f)
{
    const TuiModel *m = s->model;
    const TuiUser *u = &m->users[s->member];
    char name[128], gname[128], a[32];
    tui_model_user_label(m, s->member, s->redact, name, sizeof name);
    tui_model_group_label(m, s->group, s->redact, gname, sizeof gname);
    canvas_textf(c, 1, y, c->w - 2, CV_BOLD, "%s \xc2\xb7 %s \xc2\xb7 %s..%s \xc2\xb7 %s \xc2\xb7 "
                 "%s GPU-h in 12 months", name, u->role ? u->role : "not on the roster",
                 u->start ? u->start : "", u->end ? u->end : "", gname,
                 fmt_num(u->gpu_h_12m, a, sizeof a));
    int months = m->nmonths < 36 ? m->nmonths : 36;
    int x = 1 + canvas_text(c, 1, y + 1, 14, CV_NORMAL, "GPU-h/month");
    canvas_spark(c, x + 1, y + 1, 36, u->gpu_h_month + m->nmonths - months, months, 0, CV_ACCENT);
    canvas_textf(c, x + 39, y + 1, c->w - x - 40, CV_DIM, "%s \xc2\xb7 Esc: back",
                 s->jobs_user != s->member ? "reading the jobs..."
                 : s->njobs >= JOBS_LIMIT ? "the " JOBS_LIMIT_TEXT " biggest jobs first"
                                          : "biggest jobs first");
    table_draw(&jobs, s, &s->jobs_cur, c, 0, y + 2, c->w, h - 2, f);
}

static void render(const TuiState *s, Canvas *c, int y, int h, TuiFrame *f)
{
    const TuiGroup *g = group_of(s);
    if (!g) {
        canvas_text(c, 1, y + 1, c->w - 2, CV_DIM, "no group in the database yet");
        return;
    }
    if (s->member >= 0) {
        render_member(s, c, y, h, f);
        return;
    }
    render_head(s, g, c, y);
    render_mix(s, g, c, y + 3);
    int extra = h > 14 ? 2 : 0;
    int notes = render_notes(s, c, y + h - 1, h > 16 ? 3 : 1);
    int meet = h > 15 || meeting_editing(s); /* shown while typed, whatever the room */
    if (extra) { /* under the table, above the notes */
        render_ask(s, c, y + h - notes - 2);
        render_said(s, c, y + h - notes - 1);
    }
    if (meet)
        render_meetings(s, c, y + h - notes - extra - 1);
    table_draw(&members, s, &s->cur[TUI_V_GROUP], c, 0, y + 4, c->w,
               h - 4 - extra - notes - meet, f);
}

/* ---- keys ------------------------------------------------------------- */

static unsigned enter(TuiState *s)
{
    if (s->member >= 0 || !group_of(s))
        return 0;
    int row = table_selected(&s->cur[TUI_V_GROUP]);
    if (row < 0)
        return 0;
    s->member = group_of(s)->members[row];
    return TUI_RECALC | TUI_REDRAW;
}

static unsigned esc(TuiState *s)
{
    if (s->member < 0)
        return 0;
    s->member = -1;
    return TUI_RECALC | TUI_REDRAW;
}

/* e on the Prof column: apply the member's stated GPUs to their profile
 * (a scenario edit of gpus.N with its reason; u undoes it). */
static unsigned apply_open(TuiState *s, int row)
{
    const TuiUser *u = member(s, row);
    const PlanUser *pu = plan_user(s, u);
    if (u->stated_gpus < 0 || !pu || pu->profile < 0) {
        tui_status(s, CV_WARN, 0, "%s", u->stated_gpus < 0 ? "no stated need to apply: e on "
                   "Stated types one" : "no compute profile for this member");
        return TUI_REDRAW;
    }
    int same = meetings_same_profile(tui_plan_plan(s->plan), group_of(s)->name, pu->profile);
    char label[200];
    snprintf(label, sizeof label, "apply %g GPUs full-time to the %d P%d students, reason",
             u->stated_gpus, same, pu->profile + 1);
    actions_prompt_open(s, TUI_P_EDIT, label, "");
    s->prompt.row = row;
    s->prompt.col = M_PROFILE;
    return TUI_REDRAW;
}

static unsigned apply_accept(TuiState *s)
{
    const TuiUser *u = member(s, s->prompt.row);
    const PlanUser *pu = plan_user(s, u);
    if (!pu || pu->profile < 0 || u->stated_gpus < 0) {
        s->prompt.kind = TUI_P_NONE;
        return TUI_REDRAW;
    }
    const Plan *p = tui_plan_plan(s->plan);
    const char *gname = group_of(s)->name;
    int same = meetings_same_profile(p, gname, pu->profile);
    char key[32], why[600];
    snprintf(key, sizeof key, "gpus.%d", pu->profile + 1);
    meetings_apply_reason(why, sizeof why, s->prompt.text, u->name, gname,
                          u->stated_date ? u->stated_date : "", u->stated_gpus, same, pu->profile);
    CpErr err = {""};
    int g = plan_group_index(p, gname); /* the group's own value for the profile */
    double value = u->stated_gpus, before = tui_plan_value(s->plan, key, g, 0);
    if (strcmp(s->scenario, "base") == 0)
        return tui_plan_offer_scenario(s, key, g, value, why);
    if (tui_plan_set(s, key, g, value, why, &err) < 0) {
        tui_status(s, CV_BAD, 0, "not applied: %s", err.msg);
        return TUI_REDRAW;
    }
    s->prompt.kind = TUI_P_NONE;
    tui_status(s, CV_GOOD, 0, "applied to %s: GPU-eq a member, P%d of %s = %g (was %.2f); u "
               "undoes", s->scenario, pu->profile + 1, gname, value, before);
    return TUI_SAVE | TUI_RECALC | TUI_REDRAW;
}

static unsigned edit(TuiState *s)
{
    int row = table_selected(&s->cur[TUI_V_GROUP]);
    if (s->member >= 0 || row < 0)
        return 0;
    if (s->cur[TUI_V_GROUP].col == M_PROFILE)
        return apply_open(s, row);
    const TuiUser *u = member(s, row);
    char now[32] = "", name[128];
    if (u->stated_gpus >= 0)
        snprintf(now, sizeof now, "%g", u->stated_gpus);
    tui_model_user_label(s->model, group_of(s)->members[row], s->redact, name, sizeof name);
    char label[200];
    snprintf(label, sizeof label, "GPUs %s needs full-time", name);
    actions_prompt_open(s, TUI_P_EDIT, label, now);
    s->prompt.row = row;
    s->prompt.col = M_STATED;
    s->cur[TUI_V_GROUP].col = M_STATED;
    return TUI_REDRAW;
}

/* A number of GPUs: 0 to 10000, nothing else on the line. */
static int parse_gpus(const char *text, double *out)
{
    char *end;
    double v = strtod(text, &end);
    while (*end == ' ')
        end++;
    if (end == text || *end || !(v >= 0) || v > 10000)
        return -1;
    *out = v;
    return 0;
}

static unsigned edit_accept(TuiState *s)
{
    if (s->prompt.col == M_PROFILE)
        return apply_accept(s);
    double v;
    if (parse_gpus(s->prompt.text, &v) < 0) {
        tui_status(s, CV_BAD, 0, "refused: '%s' is not a number of GPUs (0 to 10000)",
                   s->prompt.text);
        return TUI_REDRAW; /* the prompt stays open, the value as it was */
    }
    const TuiUser *u = member(s, s->prompt.row);
    TuiUndo undo;
    memset(&undo, 0, sizeof undo);
    undo.kind = TUI_U_STATED;
    snprintf(undo.user, sizeof undo.user, "%s", u->name);
    snprintf(undo.group, sizeof undo.group, "%s", group_of(s)->name);
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(undo.date, sizeof undo.date, "%Y-%m-%d", &tm);
    undo.had_before = u->stated_date && strcmp(u->stated_date, undo.date) == 0;
    snprintf(undo.key, sizeof undo.key, "%s", u->stated_date ? u->stated_date : "");
    undo.before[0] = u->stated_gpus;
    undo.before[1] = u->stated_mem;
    undo.after[0] = v;
    undo.after[1] = u->stated_mem;
    CpErr err = {""};
    if (s->store &&
        store_tui_stated_set(s->store, undo.user, undo.group, undo.date, v, u->stated_mem, &err) < 0) {
        tui_status(s, CV_BAD, 0, "not saved: %s", err.msg);
        return TUI_REDRAW;
    }
    s->prompt.kind = TUI_P_NONE;
    actions_push_undo(s, &undo);
    tui_status(s, CV_GOOD, 0, "saved: %g GPUs full-time (measured %.2f); u undoes", v,
               measured_gpus(s, u));
    tui_model_set_stated(s->model, undo.user, v, u->stated_mem, undo.date);
    return TUI_SAVE | TUI_RECALC | TUI_REDRAW;
}

/* The open edit's form (tui/editform.h): a stated need, or a stated need
 * applied to the member's profile with the need before -> after. */
static void edit_form(const TuiState *s, TuiEditForm *f)
{
    const TuiUser *u = member(s, s->prompt.row);
    char name[128];
    tui_model_user_label(s->model, group_of(s)->members[s->prompt.row], s->redact, name,
                         sizeof name);
    if (s->prompt.col != M_PROFILE) {
        double v;
        snprintf(f->field, sizeof f->field, "the GPUs %s says they need full-time (saved at once)",
                 name);
        if (u->stated_gpus >= 0)
            snprintf(f->old, sizeof f->old, "%g GPUs, stated %s", u->stated_gpus,
                     u->stated_date ? u->stated_date : "");
        else
            fmt_copy(f->old, sizeof f->old, "none stated");
        if (!s->prompt.text[0])
            f->now[0] = '\0';
        else if (parse_gpus(s->prompt.text, &v) < 0)
            f->bad = 1, snprintf(f->now, sizeof f->now, "'%.60s' is not a number of GPUs "
                                 "(0 to 10000)", s->prompt.text);
        else
            snprintf(f->now, sizeof f->now, "%g GPUs full-time", v);
        snprintf(f->effect, sizeof f->effect, "measured %.2f GPUs full-time (mean in use)",
                 measured_gpus(s, u));
        return;
    }
    const PlanUser *pu = plan_user(s, u);
    if (!pu || pu->profile < 0)
        return;
    char key[32], words[96], was[32];
    snprintf(key, sizeof key, "gpus.%d", pu->profile + 1);
    tui_plan_key_words(s->plan, key, words, sizeof words);
    int g = plan_group_index(tui_plan_plan(s->plan), group_of(s)->name);
    snprintf(f->field, sizeof f->field, "%s \xc2\xb7 %s \xc2\xb7 scenario %s", words,
             group_of(s)->name, s->scenario);
    fmt_gpus(tui_plan_value(s->plan, key, g, 0), was, sizeof was);
    snprintf(f->old, sizeof f->old, "%s GPU-eq a member (scenario %s)", was, s->scenario);
    snprintf(f->now, sizeof f->now, "%g, as %s stated", u->stated_gpus, name);
    snprintf(f->why, sizeof f->why, "%s", s->prompt.text[0] ? s->prompt.text
             : "(optional: the stated need is named in the reason saved)");
    TuiPlanPreview pv;
    if (tui_plan_preview(s->plan, key, g, u->stated_gpus, &pv) == 0)
        snprintf(f->effect, sizeof f->effect, "need next year: group %.2f -> %.2f, institute "
                 "%.2f -> %.2f %s", pv.group_before, pv.group_after, pv.total_before,
                 pv.total_after, tui_plan_unit(s->plan));
    if (strcmp(s->scenario, "base") == 0)
        fmt_copy(f->offer, sizeof f->offer, "base holds the measured values: Enter starts a new "
                 "scenario from base with this value (you name it next; Esc cancels)");
}

const TuiView view_group = {
    .name = "Group",
    .tab = "Group",
    .table = group_table,
    .render = render,
    .prepare = prepare,
    .enter = enter,
    .enter_label = "Jobs",
    .edit = edit,
    .edit_accept = edit_accept,
    .edit_form = edit_form,
    .esc = esc,
    .after_paint = after_paint,
};
