/* test_tui_render: the dashboard without a terminal. A small institute is
 * built as a store_tui snapshot in memory (two groups from a dated roster,
 * a user the roster does not know, a user name carrying an escape
 * sequence, one cluster with an inventory and an event); the model is
 * checked, then each view is rendered into a canvas and its rows compared,
 * and keys are dispatched through the key table as a person would press
 * them: sort, filter, drill-down and back, help, presentation mode, resize,
 * ASCII, export, a refused edit, a meeting planned, refused, undone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/stats.h"
#include "data/demo/demo.h"
#include "data/ingest/fields.h"
#include "data/plan/plan_explain.h"
#include "data/store/store.h"
#include "data/store/store_policy.h"
#include "data/store/store_tui.h"
#include "tui/app.h"
#include "tui/canvas.h"
#include "tui/fmt.h"
#include "tui/keys.h"
#include "tui/lineedit.h"
#include "tui/model.h"
#include "tui/plan.h"
#include "tui/heat_bg.h"
#include "tui/help.h"
#include "tui/jobs_bg.h"
#include "tui/plan_bg.h"
#include "tui/usage_bg.h"
#include "tui/view.h"

#define MONTHS 24 /* 2023-01 .. 2024-12 */
#define ROW_MAX 2048

/* ---- the fixture ------------------------------------------------------ */

static char *users[] = {NULL, "ann", "bob", "eve\x1b[31mred", "zed", "palpha"};
static char *accounts[] = {NULL, "acct-a"};
static char *clusters[] = {NULL, "atlas"};

static StoreTuiPerson people[] = {
    {"ann", "alpha-lab", "phd-student", "Physics", "2022-09-01", "2026-08-31", NULL},
    {"palpha", "alpha-lab", "professor", "Physics", "2015-01-01", NULL, NULL},
    {"bob", "beta-lab", "msc-student", "Biology", "2023-09-01", "2024-08-31", NULL},
    {"eve\x1b[31mred", "beta-lab", "phd-student", "Biology", "2023-01-01", NULL, NULL},
};

static StoreTuiGroup groups[] = {
    {"=sum(A1)", NULL, NULL},
    {"alpha-lab", "Physics", "Prof Alpha"},
    {"beta-lab", "Biology", "Prof Beta"},
};

static StoreTuiInventory inventory[] = {
    {"atlas", "a100", "2022-01-01", NULL, 8, 80, 1},
};

static StoreTuiEvent events[] = {{"2024-06-15", "atlas", "upgrade to 8 GPUs"}};

/* beta-lab met in 2024 and meets again in 2099; a group nobody knows. */
static StoreTuiMeeting meetings[] = {
    {"beta-lab", "2024-10-12", "bob;eve\x1b[31mred", "held"},
    {"beta-lab", "2099-12-03", "bob", "planned"},
    {"nobody-lab", "2024-01-01", "", "held"},
};

static StoreTuiUsage user_usage[4 * MONTHS];
static StoreTuiUsage cluster_usage[MONTHS];

static int64_t month_at(int i)
{
    return fmt_month_add(202301, i);
}

/* ann: 50 GPU-h a month in 2023, 100 in 2024; eve: 10 a month, one
 * preempted attempt in 5; bob: 20 a month while on the roster; zed (not on
 * the roster): 5 a month. */
static void fill_usage(void)
{
    int n = 0;
    for (int i = 0; i < MONTHS; i++) {
        int64_t mo = month_at(i);
        double ann = mo >= 202401 ? 100 : 50, bob = mo >= 202309 && mo <= 202408 ? 20 : 0;
        int64_t bj = bob > 0 ? 4 : 0;
        StoreTuiUsage rows[4] = {
            {mo, 0, 1, 1, 10, 10, 10, 0, 10, ann, 0, 3600 * 10, 0},
            {mo, 0, 2, 1, bj, bj, bj, 0, bj, bob, 0, 600.0 * (double)bj, 0},
            {mo, 0, 3, 1, 5, 5, 5, 1, 5, 10, 0, 7200 * 5, 2},
            {mo, 0, 4, 1, 1, 1, 1, 0, 1, 5, 0, 60, 0},
        };
        double sum = 0;
        for (int k = 0; k < 4; k++) {
            user_usage[n++] = rows[k];
            sum += rows[k].gpu_hours;
        }
        cluster_usage[i] = (StoreTuiUsage){mo, 1, 0, 0, 20, 20, 20, 1, 20, sum, 0, 1000, 2};
    }
}

static StoreTuiSnapshot snapshot(void)
{
    fill_usage();
    StoreTuiSnapshot s;
    memset(&s, 0, sizeof s);
    s.users = (StoreTuiNames){users, 6};
    s.accounts = (StoreTuiNames){accounts, 2};
    s.clusters = (StoreTuiNames){clusters, 2};
    s.user_usage = user_usage;
    s.nuser_usage = 4 * MONTHS;
    s.cluster_usage = cluster_usage;
    s.ncluster_usage = MONTHS;
    s.people = people;
    s.npeople = sizeof people / sizeof people[0];
    s.groups = groups;
    s.ngroups = sizeof groups / sizeof groups[0];
    s.inventory = inventory;
    s.ninventory = 1;
    s.events = events;
    s.nevents = 1;
    s.meetings = meetings;
    s.nmeetings = sizeof meetings / sizeof meetings[0];
    return s;
}

typedef struct Fix {
    TuiState s;
    Canvas *c;
    char row[ROW_MAX];
} Fix;

static int setup(void **state)
{
    Fix *f = calloc(1, sizeof *f);
    CpErr err = {""};
    assert_int_equal(tui_state_init(&f->s, NULL, NULL, &err), 0);
    StoreTuiSnapshot snap = snapshot();
    f->s.model = tui_model_build(&snap, 202412);
    f->c = canvas_new(80, 24);
    *state = f;
    return 0;
}

/* The accounting covers 2023-01-10 .. 2024-12-16 00:00: partial first and
 * last months (as store_tui_load reads it from core/stats). */
static int setup_partial(void **state)
{
    Fix *f = calloc(1, sizeof *f);
    CpErr err = {""};
    assert_int_equal(tui_state_init(&f->s, NULL, NULL, &err), 0);
    StoreTuiSnapshot snap = snapshot();
    snap.acct_from = stats_month_start(202301) + 9 * 86400;
    snap.acct_to = stats_month_start(202412) + 15 * 86400;
    f->s.model = tui_model_build(&snap, 202412);
    f->c = canvas_new(80, 24);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fix *f = *state;
    canvas_free(f->c);
    tui_state_done(&f->s);
    free(f);
    return 0;
}

/* The screen on stderr when TUI_DUMP is set (to see what a test saw). */
static void dump(Fix *f)
{
    if (!getenv("TUI_DUMP"))
        return;
    for (int y = 0; y < f->c->h; y++)
        fprintf(stderr, "%2d|%s\n", y, canvas_row(f->c, y, f->row, sizeof f->row));
}

/* Render the current view at w x h. */
static void render(Fix *f, int w, int h)
{
    f->s.w = w;
    f->s.h = h;
    tui_recalc(&f->s);
    tui_render(&f->s, f->c);
    dump(f);
}

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static const char *row(Fix *f, int y)
{
    return canvas_row(f->c, y, f->row, sizeof f->row);
}

/* The first row containing text, -1 when none. */
static int find_row(Fix *f, const char *text)
{
    for (int y = 0; y < f->c->h; y++)
        if (strstr(row(f, y), text))
            return y;
    return -1;
}

/* Press keys (a tui_key_parse script) and render after each, like the loop. */
static void press(Fix *f, const char *keys)
{
    const char *at = keys;
    for (int k; (k = tui_key_parse(&at)) != TUI_KEY_EOF;) {
        unsigned fl = tui_dispatch(&f->s, k);
        if (fl & (TUI_RECALC | TUI_RELOAD))
            tui_recalc(&f->s);
        tui_render(&f->s, f->c);
    }
    dump(f);
}


/* ---- the Projection view on a small demo (issue 16 item 7) ------------ */

/* A 20000-job demo in a temporary database, the dashboard on it with the
 * planner read, rendered at w x h. */
typedef struct ProjFix {
    char dir[64], db[96];
    Store *st;
    TuiState s;
    Canvas *c;
    char row[ROW_MAX];
} ProjFix;

static ProjFix *proj_open(void)
{
    ProjFix *f = calloc(1, sizeof *f);
    CpErr err = {""};
    snprintf(f->dir, sizeof f->dir, "/tmp/capplan-test-proj-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->db, sizeof f->db, "%s/demo.db", f->dir);
    DemoOpts o;
    demo_opts_init(&o);
    o.seed = 7;
    o.jobs = 20000;
    o.today = fields_epoch_of(2026, 11, 25, 0, 0, 0);
    o.db_path = f->db;
    assert_int_equal(demo_build(&o, NULL, &err), 0);
    f->st = store_open(f->db, &err);
    assert_non_null(f->st);
    assert_int_equal(tui_state_init(&f->s, f->st, "base", &err), 0);
    tui_state_load_plan(&f->s);
    assert_non_null(f->s.plan);
    f->s.view = TUI_V_PROJECTION;
    f->c = canvas_new(80, 24);
    return f;
}

static void proj_close(ProjFix *f)
{
    canvas_free(f->c);
    tui_state_done(&f->s);
    store_close(f->st);
    unlink(f->db);
    rmdir(f->dir);
    free(f);
}

static void proj_render(ProjFix *f, int w, int h)
{
    f->s.w = w;
    f->s.h = h;
    canvas_resize(f->c, w, h);
    tui_recalc(&f->s);
    tui_render(&f->s, f->c);
    if (getenv("TUI_DUMP"))
        for (int y = 0; y < h; y++)
            fprintf(stderr, "%2d|%s\n", y, canvas_row(f->c, y, f->row, sizeof f->row));
}

static int proj_find(ProjFix *f, const char *text)
{
    for (int y = 0; y < f->c->h; y++)
        if (strstr(canvas_row(f->c, y, f->row, sizeof f->row), text))
            return y;
    return -1;
}

/* The three figures ending the first row at or after from holding label
 * (the parts' table is the right-most on the screen). */
static int proj_figures(ProjFix *f, int from, const char *label, double v[3])
{
    for (int y = from; y < f->c->h; y++) {
        const char *r = canvas_row(f->c, y, f->row, sizeof f->row);
        if (!strstr(r, label))
            continue;
        const char *end = r + strlen(r), *tok[3];
        for (int k = 2; k >= 0; k--) {
            while (end > r && end[-1] == ' ')
                end--;
            while (end > r && end[-1] != ' ')
                end--;
            tok[k] = end;
        }
        for (int k = 0; k < 3; k++)
            v[k] = strtod(tok[k], NULL);
        return y;
    }
    return -1;
}

static void test_projection_view(void **state)
{
    (void)state;
    ProjFix *f = proj_open();
    const Plan *p = tui_plan_plan(f->s.plan);
    const ProjResult *r = tui_plan_result(f->s.plan, 0);
    int g = tui_plan_group(f->s.plan, f->s.model, f->s.group);
    g = g < 0 ? 0 : g;
    proj_render(f, 80, 24);
    /* calendar years, not y1-y3; the reference model named; [ ] as keys */
    assert_true(proj_find(f, "Mean GPU-eq a year, v100 = 1.0") > 0);
    assert_true(proj_find(f, "keys [ and ]: other group") > 0);
    assert_int_equal(proj_find(f, "[ ]"), -1);
    assert_int_equal(proj_find(f, " y1 "), -1);
    int hy = proj_find(f, "GPU-eq     ");
    assert_true(hy > 0);
    assert_non_null(strstr(canvas_row(f->c, hy, f->row, sizeof f->row), "2027   2028   2029"));
    /* each part as the projection has it, the parts summing to the need */
    static const char *const labels[] = {"  stayers ",    "  leavers ",    "  new, ramp ",
                                         "  intensity +", "  pool share ", "  buffer ",
                                         "  = need "};
    double sum[3] = {0, 0, 0}, v[3];
    for (int k = 0; k < 7; k++) {
        assert_true(proj_figures(f, hy, labels[k], v) > 0);
        for (int i = 0; i < 3; i++) {
            const ProjGroupYear *t = &r->gy[(size_t)g * r->nyears + i];
            double want[] = {t->stayers,   t->leavers,    t->newcomers_use, t->intensity,
                             t->pool,      t->buffer_add, t->demand};
            assert_float_equal(v[i], want[k], 0.006);
            if (k < 6)
                sum[i] += v[i];
        }
    }
    for (int i = 0; i < 3; i++)
        assert_float_equal(sum[i], r->gy[(size_t)g * r->nyears + i].demand, 0.04);
    /* 80 columns: no Reason column, the selected row's reason below */
    assert_int_equal(proj_find(f, " Reason "), -1);
    assert_true(proj_find(f, " why (head-count growth a year): measured, not edited") > 0);
    /* ASCII: nothing above 127 */
    f->s.ascii = 1;
    proj_render(f, 80, 24);
    for (int y = 0; y < 24; y++)
        for (const char *c = canvas_row(f->c, y, f->row, sizeof f->row); *c; c++)
            assert_true((unsigned char)*c < 128);
    f->s.ascii = 0;
    /* 200x60: the institute's table, after the group's, with its own header */
    proj_render(f, 200, 60);
    int gi = proj_find(f, "Need in parts"), ii = proj_find(f, "Institute: need next year");
    assert_true(gi > 0 && ii > gi);
    assert_true(proj_find(f, " Reason ") > 0);
    assert_true(proj_figures(f, ii, "  = need ", v) > 0);
    for (int i = 0; i < 3; i++)
        assert_float_equal(v[i], r->total[i].demand, r->total[i].demand < 99.995 ? 0.006 : 0.06);
    /* presentation mode: neither the group nor its members named */
    f->s.redact = 1;
    proj_render(f, 200, 60);
    assert_int_equal(proj_find(f, p->groups[g]), -1);
    int idx[4], n = plan_explain_people(p, g, 1, 0, idx, 4);
    for (int i = 0; i < n && i < 4; i++) {
        char w[80];
        snprintf(w, sizeof w, " %s ", p->proj_user_name[idx[i]]);
        assert_int_equal(proj_find(f, w), -1);
    }
    assert_true(proj_find(f, "members (") > 0 && proj_find(f, ": user-") > 0);
    proj_close(f);
}

/* ---- model ------------------------------------------------------------ */

static void test_model_groups(void **state)
{
    Fix *f = *state;
    const TuiModel *m = f->s.model;
    assert_int_equal(m->nmonths, MONTHS);
    assert_int_equal(m->ref_month, 202412);
    assert_int_equal(m->roster, 1);
    assert_int_equal(m->ngroups, 4); /* =sum(A1), alpha, beta, (not in roster) */
    int a = tui_model_group_find(m, "alpha-lab"), b = tui_model_group_find(m, "beta-lab");
    int p = tui_model_group_find(m, "(not in roster)");
    assert_true(a >= 0 && b >= 0 && p == 3);
    assert_true(m->groups[p].pseudo);
    assert_float_equal(m->groups[a].gpu_h_12m, 1200, 1e-9);
    assert_float_equal(m->groups[a].gpu_h_prev12m, 600, 1e-9);
    assert_float_equal(m->groups[a].growth, 1.0, 1e-9);
    /* beta: eve 120 + bob's 8 months of 2024 (160) */
    assert_float_equal(m->groups[b].gpu_h_12m, 280, 1e-9);
    assert_float_equal(m->groups[p].gpu_h_12m, 60, 1e-9);
    assert_float_equal(m->groups[a].share_12m, 1200.0 / 1540, 1e-9);
    assert_float_equal(m->groups[b].preempt_rate, 12.0 / (12 * 5 + 8 * 4), 1e-9);
    assert_string_equal(m->groups[a].professor, "Prof Alpha");
    assert_int_equal(m->groups[a].nstudents, 1);
    assert_int_equal(m->groups[b].nstudents, 1); /* bob left in 2024-08 */
    assert_int_equal(m->groups[b].nmembers, 2);
}

static void test_model_clusters(void **state)
{
    Fix *f = *state;
    const TuiModel *m = f->s.model;
    assert_int_equal(m->nclusters, 1);
    const TuiCluster *c = &m->clusters[0];
    int dec = tui_model_month_index(m, 202412);
    assert_float_equal(c->cap_h[dec], 8 * 31 * 24, 1e-6);
    assert_float_equal(c->hours[dec], 31 * 24, 1e-9); /* no window: whole months */
    assert_float_equal(c->util[dec], (100 + 10 + 5) / (8.0 * 31 * 24), 1e-9);
    assert_float_equal(c->gpus_now, 8, 1e-9);
    assert_float_equal(m->cap_class_now[2], 8, 1e-9); /* 80 GiB class */
    assert_int_equal(m->nevents, 1);
    assert_int_equal(m->events[0].month, 202406);
    int growth = 0;
    for (int i = 0; i < m->nalerts; i++)
        growth |= m->alerts[i].kind == TUI_AL_GROWTH &&
                  m->alerts[i].group == tui_model_group_find(m, "alpha-lab");
    assert_true(growth);
}

/* Capacity pro rata inside the accounting window, as `capplan stats
 * utilization` counts it: a partial month keeps its GPUs and its share. */
static void test_model_partial_month(void **state)
{
    Fix *f = *state;
    const TuiModel *m = f->s.model;
    const TuiCluster *c = &m->clusters[0];
    int dec = tui_model_month_index(m, 202412), jan = tui_model_month_index(m, 202301);
    assert_float_equal(c->hours[dec], 15 * 24, 1e-9);
    assert_float_equal(c->cap_h[dec], 8 * 15 * 24, 1e-6);
    assert_float_equal(c->util[dec], 115 / (8.0 * 15 * 24), 1e-9);
    assert_float_equal(c->hours[jan], 22 * 24, 1e-9);
    assert_float_equal(c->cap_h[jan], 8 * 22 * 24, 1e-6);
    const TuiYear *y = &m->years[m->nhist_years - 1];
    assert_int_equal(y->year, 2024);
    assert_float_equal(y->hours, (366 - 16) * 24, 1e-9);
    assert_float_equal(y->cap_gpus, 8, 1e-9);
    assert_float_equal(y->used_gpus, (8 * 135 + 4 * 115) / ((366 - 16) * 24.0), 1e-9);
    render(f, 80, 24);
    assert_true(find_row(f, "used 0.18 of 8.0 GPUs (2.3%)") > 0);
    assert_true(find_row(f, "4.0% last month") > 0);
    press(f, "6");
    render(f, 100, 30);
    int r = find_row(f, "2024-12 atlas");
    assert_true(r > 0);
    assert_non_null(strstr(row(f, r), " 115   8.0    4.0% ")); /* GPUs over the 15 days covered */
}

/* Projected: the per-class line shows the projection's capacity and need
 * (GPU-eq) so that need - capacity is the alert's gap; ASCII writes "<=". */
static void test_overview_classes(void **state)
{
    Fix *f = *state;
    TuiModel *m = f->s.model;
    double cap[TUI_CLASSES] = {40, 68.8, 200, 0}, dem[TUI_CLASSES] = {22, 129, 301, 0};
    for (int k = 0; k < TUI_CLASSES; k++)
        m->cap_class_next[k] = cap[k], m->demand_class_next[k] = dem[k];
    m->alerts = realloc(m->alerts, (size_t)(m->nalerts + 1) * sizeof *m->alerts);
    memmove(m->alerts + 1, m->alerts, (size_t)m->nalerts * sizeof *m->alerts);
    m->nalerts++;
    m->alerts[0] = (TuiAlert){TUI_AL_SHORT, 2, -1, -1, 1, 129 - 68.8, 68.8};
    render(f, 80, 24);
    int y = find_row(f, "Next year cap/need, GPU-eq:");
    assert_true(y > 0);
    assert_non_null(strstr(row(f, y), "\xe2\x89\xa4" "48G 69/129"));
    assert_null(strstr(row(f, y), ">80G")); /* neither capacity nor demand */
    assert_true(find_row(f, "48 GiB class short next year, in GPU-eq") > 0);
    f->s.ascii = 1;
    render(f, 80, 24);
    y = find_row(f, "Next year cap/need");
    assert_non_null(strstr(row(f, y), " <=24G 40/22 <=48G 69/129 <=80G 200/301"));
    y = find_row(f, "<=48 GiB class short next year, in GPU-eq");
    assert_true(y > 0);
    assert_non_null(strstr(row(f, y), " 60"));
    for (int yy = 0; yy < f->c->h; yy++)
        for (int x = 0; x < f->c->w; x++)
            assert_true(canvas_at(f->c, x, yy)->ch < 0x80);
}

/* ---- canvas ----------------------------------------------------------- */

static void test_canvas_sanitises(void **state)
{
    (void)state;
    Canvas *c = canvas_new(40, 3);
    char buf[256];
    canvas_text(c, 0, 0, 40, CV_NORMAL, "a\x1b[2Jb\x07\x9b\xc2\x9b" "c\xe2\x80\xae" "d\xff");
    assert_string_equal(canvas_row(c, 0, buf, sizeof buf), "a?[2Jb???c?d?");
    canvas_text(c, 0, 1, 6, CV_NORMAL, "\xe4\xb8\xad\xe6\x96\x87" "abcdef"); /* wide characters */
    assert_string_equal(canvas_row(c, 1, buf, sizeof buf), "\xe4\xb8\xad\xe6\x96\x87" "a\xe2\x80\xa6");
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++) {
            uint32_t ch = canvas_at(c, x, y)->ch;
            assert_true(ch == 0 || ch >= 0x20);
            assert_false(ch >= 0x7f && ch < 0xa0);
        }
    canvas_free(c);
}

static void test_canvas_widgets(void **state)
{
    (void)state;
    Canvas *c = canvas_new(20, 3);
    char buf[256];
    double v[] = {0, 1, 2, 3, 4, 5, 6, 7};
    canvas_spark(c, 0, 0, 8, v, 8, 0, CV_ACCENT);
    assert_string_equal(canvas_row(c, 0, buf, sizeof buf),
                        "\xe2\x96\x81\xe2\x96\x82\xe2\x96\x83\xe2\x96\x84\xe2\x96\x85\xe2\x96\x86"
                        "\xe2\x96\x87\xe2\x96\x88");
    canvas_bar(c, 0, 1, 4, 0.5, CV_ACCENT);
    assert_string_equal(canvas_row(c, 1, buf, sizeof buf), "\xe2\x96\x88\xe2\x96\x88");
    canvas_text_right(c, 0, 2, 8, CV_NORMAL, "12k");
    assert_string_equal(canvas_row(c, 2, buf, sizeof buf), "     12k");
    c->ascii = 1;
    canvas_clear(c);
    canvas_spark(c, 0, 0, 8, v, 8, 0, CV_ACCENT);
    assert_string_equal(canvas_row(c, 0, buf, sizeof buf), "_.-=+*##");
    canvas_free(c);
}

static void test_keys_parse(void **state)
{
    (void)state;
    const char *s = "a<Enter><esc><F10><lt>\xc3\xa9<Nope>";
    assert_int_equal(tui_key_parse(&s), 'a');
    assert_int_equal(tui_key_parse(&s), TUI_KEY_ENTER);
    assert_int_equal(tui_key_parse(&s), TUI_KEY_ESC);
    assert_int_equal(tui_key_parse(&s), TUI_KEY_F10);
    assert_int_equal(tui_key_parse(&s), '<');
    assert_int_equal(tui_key_parse(&s), 0xe9);
    assert_int_equal(tui_key_parse(&s), TUI_KEY_EOF);
}

/* ---- views ------------------------------------------------------------ */

static void test_overview(void **state)
{
    Fix *f = *state;
    render(f, 80, 24);
    assert_true(starts(row(f, 0), "capplan \xc2\xb7 Overview \xc2\xb7 scenario base"));
    assert_true(strstr(row(f, 0), "2023-01..2024-12") != NULL);
    assert_string_equal(row(f, 1), "1 Overview 2 Groups 3 Group 4 Profiles 5 Projection 6 Usage "
                                   "7 Scenarios");
    int y = find_row(f, " 2024 ");
    assert_true(y > 0);
    assert_non_null(strstr(row(f, y), "used 0.18 of 8.0 GPUs (2.2%)"));
    assert_true(find_row(f, "alpha-lab grew most") > 0);
    assert_true(find_row(f, "atlas is under-used") > 0);
    assert_true(starts(row(f, 23), "F1Help"));
    assert_non_null(strstr(row(f, 23), "F10Quit"));
}

/* A projected year from the planner: need with its p10-p90 range and
 * capacity, in the planner's unit named in the heading (one scale with
 * the past years it converted); "not calibrated" without a range. */
static void test_overview_need_range(void **state)
{
    Fix *f = *state;
    TuiModel *m = f->s.model;
    snprintf(m->unit, sizeof m->unit, "GPU-eq (v100 = 1)");
    m->years = realloc(m->years, (size_t)(m->nyears + 2) * sizeof *m->years);
    TuiYear *y = &m->years[m->nyears];
    memset(y, 0, 2 * sizeof *y);
    y[0] = (TuiYear){.year = 2025, .cap_gpus = 309, .demand = 131, .demand_lo = 112,
                     .demand_hi = 158, .projected = 1, .eq = 1};
    y[1] = (TuiYear){.year = 2026, .cap_gpus = 309, .demand = 140, .demand_lo = NAN,
                     .demand_hi = NAN, .projected = 1, .eq = 1};
    m->nyears += 2;
    render(f, 100, 30);
    assert_true(find_row(f, "Mean GPU-eq (v100 = 1) a year: capacity") > 0);
    assert_true(find_row(f, "need 131 (112-158) of 309 GPU-eq") > 0);
    assert_true(find_row(f, "need 140 (not calibrated) of 309 GPU-eq") > 0);
}

/* The Groups view: each group's need next year with its p10-p90 range when
 * wide enough, "n/cal" without a range; the unit in the heading. */
static void test_groups_need_range(void **state)
{
    Fix *f = *state;
    TuiModel *m = f->s.model;
    snprintf(m->unit, sizeof m->unit, "GPU-eq (v100 = 1)");
    int a = tui_model_group_find(m, "alpha-lab"), b = tui_model_group_find(m, "beta-lab");
    assert_true(a >= 0 && b >= 0);
    m->groups[a].demand_next = m->groups[a].demand_base = 5;
    m->groups[a].demand_lo = 4, m->groups[a].demand_hi = 7.5;
    m->groups[b].demand_next = m->groups[b].demand_base = 2;
    press(f, "2");
    render(f, 160, 24);
    assert_non_null(strstr(row(f, 2), "need next year in GPU-eq (v100 = 1)"));
    assert_non_null(strstr(row(f, 3), "   Need p10-p90 "));
    int ra = find_row(f, "alpha-lab"), rb = find_row(f, "beta-lab");
    assert_true(ra > 0 && rb > 0);
    assert_non_null(strstr(row(f, ra), " 5.0 "));
    assert_non_null(strstr(row(f, ra), "4.0-7.5"));
    assert_non_null(strstr(row(f, rb), "n/cal"));
}

static void test_groups_sorted(void **state)
{
    Fix *f = *state;
    press(f, "2");
    render(f, 80, 24);
    assert_true(starts(row(f, 0), "capplan \xc2\xb7 Groups \xc2\xb7 scenario base"));
    int h = 3;
    assert_true(starts(row(f, h), "Group "));
    assert_non_null(strstr(row(f, h), " Professor "));
    assert_non_null(strstr(row(f, h), "GPU-h\xe2\x96\xbc")); /* sorted by GPU-hours, down */
    assert_true(starts(row(f, 4), "alpha-lab"));
    assert_non_null(strstr(row(f, 4), "1.2k"));
    assert_true(starts(row(f, 5), "beta-lab"));
    assert_true(starts(row(f, 6), "(not in r"));
    /* column cursor to Professor, s: ascending by professor ("-" first) */
    press(f, "ls");
    assert_non_null(strstr(row(f, h), "Professor\xe2\x96\xb2"));
    assert_true(starts(row(f, 6), "alpha-lab"));
    assert_true(starts(row(f, 7), "beta-lab"));
    press(f, "s"); /* again: descending */
    assert_true(starts(row(f, 4), "beta-lab"));
}

static void test_filter_drill_back(void **state)
{
    Fix *f = *state;
    press(f, "2/bet");
    render(f, 80, 24);
    assert_true(starts(row(f, 4), "beta-lab"));
    assert_int_equal(f->s.cur[TUI_V_GROUPS].nidx, 1);
    assert_string_equal(row(f, 22), "filter: bet"); /* the cursor: a reversed blank after it */
    press(f, "<Enter>"); /* one match: opened */
    assert_true(starts(row(f, 0), "capplan \xc2\xb7 Group \xc2\xb7 scenario base"));
    assert_non_null(strstr(row(f, 2), "beta-lab \xc2\xb7 professor Prof Beta \xc2\xb7 Biology"));
    int y = find_row(f, "Member");
    assert_true(y > 0);
    assert_true(find_row(f, "bob") > y);
    press(f, "<Esc>");
    assert_true(starts(row(f, 0), "capplan \xc2\xb7 Groups"));
    assert_non_null(strstr(row(f, 22), "filter \"bet\": 1 of 4 rows"));
    press(f, "<Esc>"); /* clears the filter */
    assert_int_equal(f->s.cur[TUI_V_GROUPS].nidx, 4);
}

static void test_hostile_name(void **state)
{
    Fix *f = *state;
    press(f, "2/beta<Enter>");
    render(f, 100, 30);
    int y = find_row(f, "eve?[31mred");
    assert_true(y > 0);
    for (int yy = 0; yy < f->c->h; yy++)
        for (int x = 0; x < f->c->w; x++) {
            uint32_t ch = canvas_at(f->c, x, yy)->ch;
            assert_true(ch == 0 || (ch >= 0x20 && ch != 0x7f && !(ch >= 0x80 && ch < 0xa0)));
        }
    /* the member's detail: jobs (none without a database), Esc back */
    press(f, "/eve<Enter><Enter>");
    assert_non_null(strstr(row(f, 2), "eve?[31mred \xc2\xb7 phd-student"));
    press(f, "<Esc>");
    assert_true(find_row(f, "Member") > 0);
}

static void test_presentation(void **state)
{
    Fix *f = *state;
    press(f, "2a");
    render(f, 80, 24);
    assert_true(find_row(f, "alpha-lab") < 0);
    assert_true(find_row(f, "Prof Alpha") < 0);
    assert_true(find_row(f, "group-") > 0);
    assert_non_null(strstr(row(f, 0), "[presentation]"));
    press(f, "<Enter>");
    assert_true(find_row(f, "ann") < 0);
    assert_true(find_row(f, "user-") > 0);
    press(f, "a");
    assert_true(find_row(f, "ann") > 0);
}

static void test_help_lists_every_key(void **state)
{
    Fix *f = *state;
    press(f, "?");
    render(f, 80, 24);
    assert_true(find_row(f, "capplan help") >= 0);
    assert_true(find_row(f, "In Overview:") >= 0);
    assert_true(find_row(f, "Bars: mean GPU-eq a year") >= 0);
    int n;
    const TuiHelpLine *lines = tui_help_lines(&n);
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 200 && find_row(f, lines[i].help) < 0; k++)
            press(f, "j"); /* scrolls until the last page shows */
        assert_true(find_row(f, lines[i].help) >= 0);
    }
    press(f, "<Esc>");
    assert_false(f->s.help);
    press(f, "<F1>");
    assert_true(f->s.help);
}

/* Every column of every view's table (the Group view's member jobs too) is
 * explained in that view's help as "Title:" (issue 30 item 5); the member
 * jobs' in their own legend, not the members'. */
static int help_names_columns(Fix *f, TuiViewId v)
{
    const TuiTable *t = tui_view(v)->table(&f->s);
    if (!t)
        return 0;
    int nv;
    const char *const *legend = tui_help_legend(&f->s, &nv);
    assert_int_equal(f->s.view, v);
    for (int k = 0; k < t->ncols; k++) {
        char want[96];
        snprintf(want, sizeof want, "%s:", t->cols[k].title);
        int found = 0;
        for (int i = 0; i < nv && !found; i++)
            found = strstr(legend[i], want) != NULL;
        if (!found)
            fail_msg("%s view: the help does not explain the column '%s'", tui_view(v)->name,
                     t->cols[k].title);
    }
    return 1;
}

static void test_help_names_every_column(void **state)
{
    Fix *f = *state;
    int tables = 0;
    f->s.group = 0;
    for (int v = 0; v < TUI_V_COUNT; v++) {
        f->s.view = (TuiViewId)v;
        tui_recalc(&f->s);
        tables += help_names_columns(f, (TuiViewId)v);
    }
    f->s.view = TUI_V_GROUP;
    f->s.member = 0; /* the member's jobs: their own legend */
    assert_true(tui_help_member_jobs(&f->s));
    tables += help_names_columns(f, TUI_V_GROUP);
    int nj, ng;
    const char *const *jl = tui_help_legend(&f->s, &nj), *const *gl = tui_help_view(TUI_V_GROUP, &ng);
    assert_ptr_not_equal(jl, gl);
    f->s.member = -1;
    assert_true(tables >= 6); /* the fixture has no planner: no Projection parameters */
}

static void test_resize(void **state)
{
    Fix *f = *state;
    press(f, "2");
    render(f, 80, 24);
    assert_non_null(strstr(row(f, 23), "F10Quit"));
    render(f, 132, 40);
    assert_int_equal(f->c->w, 132);
    assert_non_null(strstr(row(f, 39), "F10Quit"));
    assert_non_null(strstr(row(f, 3), "vs base")); /* every column fits */
    render(f, 30, 8);
    assert_non_null(strstr(row(f, 0), "too small"));
}

static void test_usage_ascii(void **state)
{
    Fix *f = *state;
    press(f, "6");
    render(f, 100, 30);
    assert_true(starts(row(f, 0), "capplan \xc2\xb7 Usage \xc2\xb7 scenario base"));
    int y = find_row(f, "events");
    assert_true(y > 0);
    assert_non_null(strstr(row(f, y), "\xe2\x96\xb2")); /* ▲ under 2024-06 */
    assert_true(find_row(f, "upgrade to 8 GPUs") > 0);
    assert_true(find_row(f, "GPUs in use by hour") >= 0);
    f->s.ascii = 1;
    render(f, 100, 30);
    for (int yy = 0; yy < f->c->h; yy++)
        for (int x = 0; x < f->c->w; x++)
            assert_true(canvas_at(f->c, x, yy)->ch < 0x80);
    assert_non_null(strstr(row(f, 0), "capplan . Usage . scenario base"));
}

static char *read_all(const char *path)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    static char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    buf[n] = '\0';
    fclose(fp);
    return buf;
}

static void test_export(void **state)
{
    Fix *f = *state;
    char md[64], csv[64];
    snprintf(md, sizeof md, "/tmp/capplan-tui-%d.md", (int)getpid());
    snprintf(csv, sizeof csv, "/tmp/capplan-tui-%d.csv", (int)getpid());
    char keys[256];
    snprintf(keys, sizeof keys, "2x<C-u>%s<Enter>", md);
    press(f, keys);
    assert_non_null(strstr(row(f, 22), "exported 4 rows"));
    const char *text = read_all(md);
    assert_non_null(strstr(text, "# capplan \xc2\xb7 Groups \xc2\xb7 scenario base"));
    assert_non_null(strstr(text, "| alpha-lab | Prof Alpha | Physics |"));
    snprintf(keys, sizeof keys, "x<C-u>%s<Enter>", csv);
    press(f, keys);
    text = read_all(csv);
    /* units in every header, shares in percent (issue 30 item 4) */
    assert_true(starts(text, "Group,Professor,Domain,Students (people),\"GPU-hours, last 12 "
                             "months\",\"Share of GPU-hours, 12 months (%)\","));
    assert_non_null(strstr(text, "\r\nalpha-lab,Prof Alpha,Physics,1,1200,"));
    assert_non_null(strstr(text, "\"'=sum(A1)\""));
    unlink(md);
    unlink(csv);
}

static void test_edit_refused(void **state)
{
    Fix *f = *state;
    press(f, "2<Enter>e<C-u>abc<Enter>");
    assert_int_equal(f->s.prompt.kind, TUI_P_EDIT); /* still open, value as it was */
    assert_non_null(strstr(row(f, 22), "refused: 'abc' is not a number of GPUs"));
    press(f, "<C-u>-1<Enter>");
    assert_int_equal(f->s.prompt.kind, TUI_P_EDIT);
    press(f, "<C-u>2<Enter>");
    assert_int_equal(f->s.prompt.kind, TUI_P_NONE);
    assert_int_equal(f->s.nundo, 1);
    const TuiUser *ann = &f->s.model->users[tui_model_user_find(f->s.model, "ann")];
    assert_float_equal(ann->stated_gpus, 2, 0);
    assert_true(find_row(f, "2.0 \xe2\x89\xa0 x15") > 0); /* 2 stated, 0.14 measured */
    press(f, "nneeds 80 GB<Enter>");
    assert_true(find_row(f, "needs 80 GB") > 0);
    press(f, "u");
    assert_true(starts(row(f, 22), "undone and saved: the note of alpha-lab on "));
    assert_non_null(strstr(row(f, 22), " 'needs 80 GB'; C-r redoes"));
    assert_int_equal(find_row(f, "needs 80 GB"), 22); /* only the message names it */
    press(f, "u");
    assert_int_equal(f->s.nundo, 0);
    assert_true(ann->stated_gpus < 0);
    assert_true(starts(row(f, 22), "undone and saved: ann's stated need of "));
    press(f, "u");
    assert_true(starts(row(f, 22), "nothing to undo in this session"));
    press(f, "<C-r>"); /* the stated need again, then the note */
    assert_float_equal(ann->stated_gpus, 2, 0);
    assert_true(starts(row(f, 22), "redone and saved: ann's stated need of "));
    press(f, "<C-r>");
    assert_true(find_row(f, "needs 80 GB") > 0 && find_row(f, "needs 80 GB") < 22);
    press(f, "<C-r>");
    assert_true(starts(row(f, 22), "nothing to redo in this session"));
}

/* The Group view's meetings line: the last held one and the next planned
 * one; attendees counted, not named, in presentation mode. */
static void test_meetings_line(void **state)
{
    Fix *f = *state;
    const TuiModel *m = f->s.model;
    int a = tui_model_group_find(m, "alpha-lab"), b = tui_model_group_find(m, "beta-lab");
    assert_int_equal(m->nmeetings, 2); /* nobody-lab's is not the model's */
    assert_false(m->groups[a].met);
    assert_true(m->groups[b].met);
    press(f, "2/beta<Enter>");
    render(f, 100, 30);
    int y = find_row(f, " meetings: ");
    assert_true(y > 0); /* the escape sequence in a name arrives defused */
    assert_string_equal(row(f, y), " meetings: 2024-10-12 held (bob;eve?[31mred) \xc2\xb7 next "
                                   "2099-12-03 planned (bob) \xc2\xb7 m plans one");
    assert_true(y < find_row(f, "whom to ask")); /* under the table, above the others */
    render(f, 80, 24);
    assert_true(starts(row(f, find_row(f, " meetings: ")), " meetings: 2024-10-12 held (bob;eve"));
    press(f, "a");
    render(f, 100, 30);
    y = find_row(f, " meetings: ");
    assert_string_equal(row(f, y), " meetings: 2024-10-12 held (2 attendees) \xc2\xb7 next 2099-12-03 "
                                   "planned (1 attendee) \xc2\xb7 m plans one");
    assert_true(find_row(f, "bob") < 0);
    press(f, "a2/<C-u>alpha<Enter>");
    render(f, 80, 24);
    assert_true(find_row(f, " meetings: none yet \xc2\xb7 m plans one") > 0);
}

/* m: a meeting typed on the meetings line; bad lines refused in place,
 * nothing saved; held marks the group met; u takes each back. */
static void test_meeting_edit(void **state)
{
    Fix *f = *state;
    TuiModel *m = f->s.model;
    int b = tui_model_group_find(m, "alpha-lab");
    press(f, "2/alpha<Enter>m");
    assert_int_equal(f->s.prompt.kind, TUI_P_EDIT);
    int y = find_row(f, " meeting: ");
    assert_true(y > 0);
    assert_non_null(strstr(row(f, y), " planned"));
    assert_true(f->s.prompt.sel); /* the proposed line is selected: typing replaces it */
    assert_non_null(strstr(row(f, 22), "meeting: DATE STATUS [ATTENDEES]: Enter saves"));
    static const char *const bad[][2] = {
        {"2024-02-30 held ann", "refused: '2024-02-30' is not a date (YYYY-MM-DD)"},
        {"2099-01-05 maybe ann", "refused: status 'maybe' is not planned, held or cancelled"},
        {"2020-01-01 planned ann", "refused: 2020-01-01 is in the past for a planned meeting"},
        {"2099-01-05 planned bob;nosuch", "refused: unknown user 'nosuch'"},
        {"2099-01-05 planned bob ann", "refused: attendees are logins separated by ';'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char keys[128];
        snprintf(keys, sizeof keys, "<C-u>%s<Enter>", bad[i][0]);
        press(f, keys);
        assert_int_equal(f->s.prompt.kind, TUI_P_EDIT); /* still open */
        assert_true(starts(row(f, 22), bad[i][1]));
        assert_int_equal(m->nmeetings, 2);
        assert_int_equal(f->s.nundo, 0);
    }
    press(f, "<C-u>2099-01-05 planned bob; ann <Enter>");
    assert_int_equal(f->s.prompt.kind, TUI_P_NONE);
    assert_true(starts(row(f, 22), "meeting saved: 2099-01-05 planned (bob;ann); u undoes"));
    assert_true(find_row(f, " meetings: next 2099-01-05 planned (bob;ann) \xc2\xb7 m plans one") > 0);
    assert_false(m->groups[b].met);
    press(f, "m<C-u>2024-11-20 held bob<Enter>");
    assert_true(m->groups[b].met);
    assert_true(find_row(f, " meetings: 2024-11-20 held (bob) \xc2\xb7 next 2099-01-05") > 0);
    press(f, "u");
    assert_false(m->groups[b].met);
    assert_true(find_row(f, " meetings: 2024-11-20") < 0);
    assert_true(starts(row(f, 22), "undone and saved: the meeting of alpha-lab on 2024-11-20 (held)"));
    /* the same date again: replaced, and u brings the one before back */
    press(f, "m<C-u>2099-01-05 cancelled<Enter>");
    assert_true(starts(row(f, 22), "meeting saved: 2099-01-05 cancelled, was planned; u undoes"));
    assert_true(find_row(f, " meetings: 2099-01-05 cancelled \xc2\xb7 m plans one") > 0);
    assert_int_equal(m->nmeetings, 3);
    press(f, "u");
    assert_true(find_row(f, " meetings: next 2099-01-05 planned (bob;ann)") > 0);
    press(f, "u");
    assert_int_equal(m->nmeetings, 2);
    assert_true(find_row(f, " meetings: none yet") > 0);
    assert_int_equal(f->s.nundo, 0);
    press(f, "m<Esc>");
    assert_int_equal(f->s.prompt.kind, TUI_P_NONE);
    assert_int_equal(m->nmeetings, 2);
}

static void test_mouse(void **state)
{
    Fix *f = *state;
    render(f, 80, 24);
    f->s.mouse_x = f->s.frame.tab_x[TUI_V_GROUPS] + 1;
    f->s.mouse_y = 1;
    press(f, "<Mouse>");
    assert_int_equal(f->s.view, TUI_V_GROUPS);
    f->s.mouse_x = 2;
    f->s.mouse_y = f->s.frame.table_y + 2;
    press(f, "<Mouse>");
    assert_int_equal(f->s.cur[TUI_V_GROUPS].row, 2);
    assert_non_null(strstr(row(f, 22), "row 3 of 4"));
    f->s.mouse_x = f->s.frame.col_x[5] + 1; /* the Share column's header */
    f->s.mouse_y = f->s.frame.head_y;
    press(f, "<Mouse>s");
    assert_int_equal(f->s.cur[TUI_V_GROUPS].sort_col, 5);
    assert_non_null(strstr(row(f, 3), "Share"));
    assert_non_null(strstr(row(f, 3), "\xe2\x96\xbc"));
}

/* The wheel moves the selection three rows a notch. */
static void test_wheel(void **state)
{
    Fix *f = *state;
    press(f, "2");
    assert_int_equal(f->s.cur[TUI_V_GROUPS].row, 0);
    press(f, "<WheelDown>");
    assert_int_equal(f->s.cur[TUI_V_GROUPS].row, 3);
    press(f, "<WheelUp><WheelUp>");
    assert_int_equal(f->s.cur[TUI_V_GROUPS].row, 0);
}

/* A prompt's text, edited as readline would: the old value selected
 * first, then a cursor. */
static void test_lineedit(void **state)
{
    (void)state;
    static const struct {
        const char *start, *keys, *want;
    } cases[] = {
        {"6.4", "8 x", "8 x"},              /* typing replaces the selection */
        {"6.4", "<BS>", ""},
        {"6.4", "<Home>1", "16.4"},
        {"6.4", "<End>1", "6.41"},
        {"6.4", "<Left>1", "16.4"},          /* Left collapses to the start */
        {"6.4", "<End><Left><BS>", "64"},
        {"6.4", "<Home><Del>", ".4"},
        {"two wrong words", "<End><C-w>", "two wrong "},
        {"two wrong words", "<End><C-w><C-w>", "two "},
        {"two wrong words", "<End><Left><Left><C-u>", "ds"},
        {"d\xc3\xa9j\xc3\xa0", "<End><Left><BS>", "d\xc3\xa9\xc3\xa0"}, /* UTF-8 whole */
        {"", "abc<Left><Left>X", "aXbc"},
        {"abc", "<Right><Right><Del>", "abc"}, /* Delete at the end: nothing */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TuiPrompt p;
        memset(&p, 0, sizeof p);
        lineedit_set(&p, cases[i].start);
        const char *at = cases[i].keys;
        for (int k; (k = tui_key_parse(&at)) != TUI_KEY_EOF;)
            lineedit_key(&p, k);
        assert_string_equal(p.text, cases[i].want);
    }
}

/* At 80 columns the function bar always ends in F10 Quit. */
static void test_fbar_80(void **state)
{
    Fix *f = *state;
    press(f, "2/alpha<Enter>");
    render(f, 80, 24);
    assert_true(starts(row(f, 23), "F1Help "));
    const char *r = row(f, 23);
    size_t n = strlen(r);
    assert_true(n >= 7 && strcmp(r + n - 7, "F10Quit") == 0);
}

static void test_headless_loop(void **state)
{
    Fix *f = *state;
    TuiIO io;
    TuiScript sc;
    TuiTimings t;
    memset(&t, 0, sizeof t);
    tui_script_io(&io, &sc, "1234567<Tab>jjkk<PgDn><Home>2s/a<Enter><Esc>?<Esc>q", 80, 24, 0);
    assert_true(tui_run(&f->s, &io, 0, &t) > 10);
    assert_true(t.nframes > 10);
    tui_timings_free(&t);
    memset(&t, 0, sizeof t);
    tui_script_io(&io, &sc, "1234567", 100, 30, 1);
    assert_true(tui_run(&f->s, &io, 50, &t) >= 50);
    tui_timings_free(&t);
}

/* The heat map and requested against used from the aggregates, by a
 * worker of their own (issue 20): the same figures as store_tui_scan in
 * place; shown while the energy panel is still computed, which then says
 * so; a second start does nothing once they are in; stopping it while it
 * runs leaves nothing behind. */
static void test_heat_background(void **state)
{
    (void)state;
    ProjFix *f = proj_open();
    f->s.view = TUI_V_USAGE;
    assert_int_equal(f->s.model->heat_loaded, 0);
    heat_bg_start(&f->s);
    assert_non_null(f->s.heat_bg); /* a file: a thread */
    heat_bg_start(&f->s);          /* once */
    assert_int_equal(heat_bg_wait(&f->s), TUI_REDRAW);
    assert_null(f->s.heat_bg);
    assert_int_equal(f->s.model->heat_loaded, 1);
    assert_true(f->s.heat_ms >= 0);
    assert_int_equal(heat_bg_poll(&f->s), 0);
    TuiModel *m = f->s.model;
    double heat[168], util = m->gpu_util, cpu = m->cpu_eff;
    memcpy(heat, m->heat, sizeof heat);
    StoreTuiScan scan;
    CpErr err = {""};
    assert_int_equal(store_tui_scan(f->st, tui_model_heat_since(m), &scan, &err), 0);
    m->heat_loaded = 0;
    tui_model_set_scan(m, &scan);
    store_tui_scan_free(&scan);
    assert_memory_equal(heat, m->heat, sizeof heat);
    assert_true(m->gpu_util == util && m->cpu_eff == cpu);
    /* The energy panel still being computed: the heat map shows, the
     * panel says it is coming, and tui_pending tells them apart. */
    f->s.usage_state = TUI_USAGE_COMPUTING;
    proj_render(f, 100, 30);
    assert_true(proj_find(f, "GPUs, 12 months") >= 0);
    assert_int_equal(proj_find(f, "computing usage"), -1);
    assert_true(proj_find(f, "energy, fair-share: computing") >= 0);
    assert_int_equal(tui_pending(&f->s), TUI_PENDING_POLICY);
    f->s.usage_state = TUI_USAGE_NONE;
    heat_bg_start(&f->s); /* the model has them: nothing to read */
    assert_null(f->s.heat_bg);
    m->heat_loaded = 0;
    assert_int_equal(tui_pending(&f->s), TUI_PENDING_USAGE | TUI_PENDING_POLICY);
    heat_bg_start(&f->s);
    heat_bg_stop(&f->s);
    assert_null(f->s.heat_bg);
    assert_int_equal(m->heat_loaded, 0); /* stopped: its figures dropped */
    proj_close(f);
}

/* The Usage view's figures from a worker thread (issue 16): while it runs
 * the view says so and keys work; its figures are those of the same calls
 * made in place (store_tui_scan, store_policy_panel); stopping it at once
 * or while it runs leaves nothing behind (ASan, TSan). */
static void test_usage_background(void **state)
{
    (void)state;
    ProjFix *f = proj_open();
    f->s.view = TUI_V_USAGE;
    usage_bg_start(&f->s);
    assert_int_equal(f->s.usage_state, TUI_USAGE_COMPUTING); /* a file: a thread */
    assert_non_null(f->s.usage_bg);
    usage_bg_start(&f->s); /* once */
    proj_render(f, 100, 30);
    assert_true(proj_find(f, "computing usage\xe2\x80\xa6") >= 0 || f->s.usage_bg == NULL);
    assert_int_equal(tui_dispatch(&f->s, '1') & TUI_RECALC, TUI_RECALC); /* keys work */
    assert_int_equal(f->s.view, TUI_V_OVERVIEW);
    f->s.view = TUI_V_USAGE;
    usage_bg_wait(&f->s);
    assert_null(f->s.usage_bg);
    assert_int_equal(f->s.usage_state, TUI_USAGE_READY);
    assert_int_equal(f->s.model->heat_loaded, 1);
    assert_int_equal(usage_bg_poll(&f->s), 0); /* nothing more to take */
    /* The same figures as the calls in place. */
    StoreTuiScan scan;
    CpErr err = {""};
    assert_int_equal(store_tui_scan(f->st, tui_model_heat_since(f->s.model), &scan, &err), 0);
    TuiModel *m = f->s.model;
    double heat[168];
    memcpy(heat, m->heat, sizeof heat);
    m->heat_loaded = 0;
    tui_model_set_scan(m, &scan);
    assert_memory_equal(heat, m->heat, sizeof heat);
    assert_true(scan.attempts > 1000);
    store_tui_scan_free(&scan);
    StorePolicyPanel panel;
    assert_int_equal(store_policy_panel(f->st, "base", &panel, &err), 0);
    assert_non_null(f->s.policy);
    assert_int_equal(f->s.policy->nyears, panel.nyears);
    for (int i = 0; i < panel.nyears; i++)
        assert_true(f->s.policy->kwh[i] == panel.kwh[i] && f->s.policy->kg[i] == panel.kg[i]);
    proj_render(f, 100, 30);
    assert_int_equal(proj_find(f, "computing usage"), -1);
    assert_true(proj_find(f, "GPUs, 12 months") >= 0);
    /* Stopped at once, and again while it runs: no thread, no leak. */
    f->s.usage_state = TUI_USAGE_NONE;
    usage_bg_start(&f->s);
    usage_bg_stop(&f->s);
    assert_null(f->s.usage_bg);
    assert_int_equal(f->s.usage_state, TUI_USAGE_NONE);
    usage_bg_start(&f->s);
    struct timespec ts = {0, 30 * 1000000L};
    nanosleep(&ts, NULL);
    usage_bg_stop(&f->s);
    assert_null(f->s.usage_bg);
    /* A member's jobs (a scan) are read in the background too: the same
     * rows as the call in place; a second read stops the first. */
    int u = 0;
    for (int i = 1; i < f->s.model->nusers; i++)
        if (f->s.model->users[i].gpu_h > f->s.model->users[u].gpu_h)
            u = i;
    assert_int_equal(jobs_bg_start(&f->s, u, 50), 0);
    assert_int_equal(jobs_bg_member(&f->s), u);
    assert_int_equal(jobs_bg_start(&f->s, u, 50), 0); /* stops the first */
    assert_int_equal(jobs_bg_wait(&f->s), TUI_RECALC | TUI_REDRAW);
    assert_int_equal(jobs_bg_member(&f->s), -1);
    assert_int_equal(f->s.jobs_user, u);
    StoreTuiJob *jobs;
    size_t nj;
    assert_int_equal(store_tui_user_jobs(f->st, f->s.model->users[u].name, 0, 50, &jobs, &nj, &err), 0);
    assert_int_equal((size_t)f->s.njobs, nj);
    assert_true(nj > 10); /* the busiest user: rows to compare */
    for (size_t i = 0; i < nj; i++)
        assert_string_equal(f->s.jobs[i].job_id, jobs[i].job_id);
    store_tui_jobs_free(jobs, nj);
    assert_int_equal(jobs_bg_start(&f->s, u, 50), 0);
    jobs_bg_stop(&f->s);
    assert_int_equal(jobs_bg_member(&f->s), -1);
    assert_int_equal(jobs_bg_start(&f->s, u, 50), 0); /* left running: tui_state_done stops it */
    /* A reload starts it again for the new model; quitting stops it. */
    assert_int_equal(tui_state_reload(&f->s, &err), 0);
    assert_true(f->s.usage_state == TUI_USAGE_COMPUTING || f->s.usage_state == TUI_USAGE_READY);
    /* The planner read by a worker: the same need per group as read in
     * place; the title says it is being read until it is in; stopped
     * while it runs, nothing is left. */
    TuiState s2;
    assert_int_equal(tui_state_init(&s2, f->st, "base", &err), 0);
    assert_int_equal(s2.plan_pending, 1);
    plan_bg_start(&s2);
    assert_non_null(s2.plan_bg);
    s2.w = 100;
    s2.h = 30;
    canvas_resize(f->c, 100, 30);
    tui_render(&s2, f->c);
    assert_non_null(strstr(canvas_row(f->c, 0, f->row, sizeof f->row), "reading the planner"));
    assert_int_equal(tui_dispatch(&s2, '2') & TUI_RECALC, TUI_RECALC); /* keys work */
    assert_int_equal(plan_bg_wait(&s2), TUI_RECALC | TUI_REDRAW);
    assert_non_null(s2.plan);
    assert_int_equal(s2.plan_pending, 0);
    assert_int_equal(s2.model->ngroups, f->s.model->ngroups);
    int compared = 0;
    for (int g = 0; g < s2.model->ngroups; g++) {
        double a = s2.model->groups[g].demand_next, b = f->s.model->groups[g].demand_next;
        assert_true((isnan(a) && isnan(b)) || a == b);
        compared += !isnan(a);
    }
    assert_true(compared > 5);
    tui_render(&s2, f->c);
    assert_null(strstr(canvas_row(f->c, 0, f->row, sizeof f->row), "reading the planner"));
    tui_state_done(&s2);
    assert_int_equal(tui_state_init(&s2, f->st, "base", &err), 0);
    plan_bg_start(&s2);
    plan_bg_stop(&s2);
    assert_null(s2.plan_bg);
    assert_null(s2.plan);
    tui_state_done(&s2);
    proj_close(f); /* tui_state_done stops the worker */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_model_groups, setup, teardown),
        cmocka_unit_test_setup_teardown(test_model_clusters, setup, teardown),
        cmocka_unit_test_setup_teardown(test_model_partial_month, setup_partial, teardown),
        cmocka_unit_test_setup_teardown(test_overview_classes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_overview_need_range, setup, teardown),
        cmocka_unit_test_setup_teardown(test_groups_need_range, setup, teardown),
        cmocka_unit_test(test_canvas_sanitises),
        cmocka_unit_test(test_canvas_widgets),
        cmocka_unit_test(test_keys_parse),
        cmocka_unit_test_setup_teardown(test_overview, setup, teardown),
        cmocka_unit_test_setup_teardown(test_groups_sorted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_filter_drill_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hostile_name, setup, teardown),
        cmocka_unit_test_setup_teardown(test_presentation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_help_lists_every_key, setup, teardown),
        cmocka_unit_test_setup_teardown(test_help_names_every_column, setup, teardown),
        cmocka_unit_test_setup_teardown(test_resize, setup, teardown),
        cmocka_unit_test_setup_teardown(test_usage_ascii, setup, teardown),
        cmocka_unit_test_setup_teardown(test_export, setup, teardown),
        cmocka_unit_test_setup_teardown(test_edit_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_meetings_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_meeting_edit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mouse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wheel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lineedit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fbar_80, setup, teardown),
        cmocka_unit_test_setup_teardown(test_headless_loop, setup, teardown),
        cmocka_unit_test(test_projection_view),
        cmocka_unit_test(test_usage_background),
        cmocka_unit_test(test_heat_background),
    };
    return cmocka_run_group_tests_name("tui_render", tests, NULL, NULL);
}
