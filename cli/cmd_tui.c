/* capplan tui: the meeting dashboard, in the terminal or headless. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "data/store/store.h"
#include "data/store/store_tui.h"
#include "tui/app.h"
#include "tui/heat_bg.h"
#include "tui/term.h"
#include "tui/usage_bg.h"
#include "tui/view.h"

typedef struct TuiOpts {
    const char *scenario;
    const char *keys;   /* --bench-keys */
    int iterations;     /* --iterations */
    int w, h;           /* --size */
    int dump;           /* --dump: print the last frame */
    int ascii;          /* --ascii */
} TuiOpts;

static int parse_size(const char *s, int *w, int *h)
{
    char x;
    return sscanf(s, "%d%c%d", w, &x, h) == 3 && (x == 'x' || x == 'X') && *w >= 20 &&
                   *w <= 1000 && *h >= 5 && *h <= 500
               ? 0
               : -1;
}

static int parse_opts(int argc, char **argv, TuiOpts *o)
{
    memset(o, 0, sizeof *o);
    o->w = 100;
    o->h = 30;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--scenario") == 0 && v) {
            o->scenario = v;
            i++;
        } else if (strcmp(a, "--bench-keys") == 0 && v) {
            o->keys = v;
            i++;
        } else if (strcmp(a, "--iterations") == 0 && v) {
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > 10000000) {
                cli_error("tui: --iterations: expected 1..10000000, got '%s'", v);
                return -1;
            }
            o->iterations = (int)n;
            i++;
        } else if (strcmp(a, "--size") == 0 && v) {
            if (parse_size(v, &o->w, &o->h) < 0) {
                cli_error("tui: --size: expected WxH, 20x5 to 1000x500 (e.g. 120x40), got '%s'",
                          v);
                return -1;
            }
            i++;
        } else if (strcmp(a, "--dump") == 0) {
            o->dump = 1;
        } else if (strcmp(a, "--ascii") == 0) {
            o->ascii = 1;
        } else {
            return -1;
        }
    }
    return 0;
}

static double elapsed_ms(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) * 1e3 + (double)(t.tv_nsec - t0->tv_nsec) / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Each view's first display (the first frame's view included), and what
 * its frame still showed as coming from a worker. */
static void print_views(const TuiTimings *t)
{
    for (int v = 0; v < TUI_V_COUNT; v++) {
        if (!t->view_seen[v])
            continue;
        unsigned p = t->view_pending[v];
        printf("view %d %s: first display %.1f ms (CPU %.1f ms)%s%s%s%s%s\n", v + 1,
               tui_view((TuiViewId)v)->name, t->view_ms[v], t->view_cpu_ms[v],
               p ? ", still coming:" : "", p & TUI_PENDING_PLAN ? " the planner" : "",
               p & TUI_PENDING_USAGE ? " the heat map" : "",
               p & TUI_PENDING_POLICY ? " the energy panel" : "",
               p & TUI_PENDING_JOBS ? " the member's jobs" : "");
    }
}

static void print_timings(const TuiOpts *o, TuiTimings *t, int frames)
{
    printf("capplan tui: headless %dx%d, %d frames\n", o->w, o->h, frames);
    printf("load %.1f ms, first frame %.1f ms after start (CPU %.1f ms), planner %.1f ms after "
           "it\n",
           t->load_ms, t->first_frame_ms, t->first_frame_cpu_ms, t->plan_ms);
    if (t->lazy_ms > 0)
        printf("slowest load after a frame: %.1f ms\n", t->lazy_ms);
    if (t->usage_switched)
        printf("usage: first switch to the Usage view %.1f ms (key to frame)\n",
               t->usage_switch_ms);
    print_views(t);
    if (t->jobs_ms > 0)
        printf("member detail: the member's biggest jobs %.1f ms after the key (a worker)\n",
               t->jobs_ms);
    if (t->nframes == 0)
        return;
    double sum = 0;
    for (int i = 0; i < t->nframes; i++)
        sum += t->frame_ms[i];
    qsort(t->frame_ms, (size_t)t->nframes, sizeof *t->frame_ms, cmp_double);
    qsort(t->frame_cpu_ms, (size_t)t->nframes, sizeof *t->frame_cpu_ms, cmp_double);
    int p95 = (int)ceil(0.95 * t->nframes) - 1, p99 = (int)ceil(0.99 * t->nframes) - 1;
    p95 = p95 < 0 ? 0 : p95;
    p99 = p99 < 0 ? 0 : p99;
    printf("redraw after a key: median %.2f ms, mean %.2f ms, p95 %.2f ms, p99 %.2f ms, "
           "max %.2f ms (wall)\n",
           t->frame_ms[t->nframes / 2], sum / t->nframes, t->frame_ms[p95], t->frame_ms[p99],
           t->frame_ms[t->nframes - 1]);
    printf("redraw after a key, CPU time: median %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms\n",
           t->frame_cpu_ms[t->nframes / 2], t->frame_cpu_ms[p95], t->frame_cpu_ms[p99],
           t->frame_cpu_ms[t->nframes - 1]);
}

/* The last frame as text, one line per row. */
static void dump_frame(TuiState *s)
{
    Canvas *c = canvas_new(s->w, s->h);
    s->now = tui_now_ms();
    tui_render(s, c);
    char row[4096];
    for (int y = 0; y < c->h; y++)
        printf("%s\n", canvas_row(c, y, row, sizeof row));
    canvas_free(c);
}

static int run_headless(TuiState *s, const TuiOpts *o, TuiTimings *t)
{
    TuiIO io;
    TuiScript sc;
    /* --iterations without keys walks every view and moves around. */
    const char *keys = o->keys ? o->keys : "1j2jjs<Right>s<Enter>j<Enter><Esc>3456<Down>7";
    tui_script_io(&io, &sc, keys, o->w, o->h, o->iterations > 0);
    s->ascii = o->ascii;
    int frames = tui_run(s, &io, o->iterations, t);
    int waited = s->usage_state == TUI_USAGE_COMPUTING, heat_waited = s->heat_bg != NULL;
    heat_bg_wait(s);
    usage_bg_wait(s); /* the last frame with the Usage figures, and their time */
    print_timings(o, t, frames);
    if (s->heat_ms > 0)
        printf("usage: heat map and requested vs used (the aggregates) in %lld ms after the "
               "first frame%s\n",
               (long long)s->heat_ms, heat_waited ? " (still reading when the keys ended)" : "");
    if (s->usage_state == TUI_USAGE_READY || s->usage_state == TUI_USAGE_FAILED)
        printf("usage: figures computed in the background in %lld ms%s\n",
               (long long)s->usage_ms, waited ? " (still computing when the keys ended)" : "");
    if (o->dump)
        dump_frame(s);
    return 0;
}

static int run_terminal(TuiState *s, const TuiOpts *o)
{
    TuiIO io;
    int utf8 = 0;
    CpErr err = {""};
    if (term_open(&io, &utf8, &err) < 0)
        return cli_error("%s", err.msg);
    s->ascii = o->ascii || !utf8;
    store_wait_notice(NULL); /* a line on stderr would land inside the screen */
    tui_run(s, &io, 0, NULL);
    term_close();
    return 0;
}

/* The database copied into a new temporary file (path: its mkstemp
 * template, filled in), opened; NULL after an error message. */
static Store *open_copy(Store *st, char *path)
{
    int fd = mkstemp(path);
    if (fd < 0) {
        cli_error("tui: cannot make a temporary copy: %s", strerror(errno));
        return NULL;
    }
    close(fd);
    CpErr err = {""};
    Store *copy = NULL;
    if (store_tui_copy(st, path, &err) == 0)
        copy = store_open(path, &err);
    if (!copy) {
        unlink(path);
        cli_error("tui: a copy of the database: %s", err.msg);
    }
    return copy;
}

static void close_copy(Store *copy, const char *path)
{
    store_close(copy);
    char side[64];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

static int exec_tui(CliCtx *ctx, int argc, char **argv)
{
    if (cli_wants_help(&cmd_tui, argc, argv))
        return 0;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    TuiOpts o;
    if (parse_opts(argc, argv, &o) < 0)
        return cli_usage(&cmd_tui);
    Store *st = cli_store(ctx);
    if (!st)
        return 1;
    int headless = o.keys || o.iterations > 0;
    char copy[] = "/tmp/capplan-tui-XXXXXX";
    if (headless) { /* a script's edits go to a copy, never to the database */
        st = open_copy(st, copy);
        if (!st)
            return 1;
        printf("capplan tui: working on a copy of the database (made in %.0f ms), "
               "edits are not kept\n", elapsed_ms(&t0));
        clock_gettime(CLOCK_MONOTONIC, &t0);
    }
    TuiState s;
    TuiTimings t;
    memset(&t, 0, sizeof t);
    t.first_frame_cpu_ms = -tui_cpu_ms(); /* tui_run adds the CPU time at the first paint */
    CpErr err = {""};
    if (tui_state_init(&s, st, o.scenario, &err) < 0) {
        tui_state_done(&s);
        if (headless)
            close_copy(st, copy);
        return cli_error("%s", err.msg);
    }
    if (store_fault() == STORE_FAULT_CORRUPT) { /* never a dashboard over missing pages */
        tui_state_done(&s);
        if (headless)
            close_copy(st, copy);
        cli_error("%s: SQLite reports the database corrupt; not shown (`capplan check` says "
                  "where)",
                  ctx->db_path);
        return CLI_EXIT_CORRUPT;
    }
    t.load_ms = elapsed_ms(&t0);
    t.first_frame_ms = t.load_ms;
    int rc = headless ? run_headless(&s, &o, &t) : run_terminal(&s, &o);
    tui_timings_free(&t);
    tui_state_done(&s);
    if (headless)
        close_copy(st, copy);
    return rc;
}

const CmdEntry cmd_tui = {
    "tui", "capplan tui [--scenario S] [--bench-keys KEYS | --iterations N] [--size WxH] [--dump]",
    "\nThe meeting dashboard: 1 Overview, 2 Groups, 3 Group, 4 Profiles, 5 Projection,\n"
    "6 Usage, 7 Scenarios; ? lists every key. Edits are saved to the scenario at once.\n\n"
    "  --scenario S       open scenario S (default: base)\n"
    "  --bench-keys KEYS  headless: replay KEYS (e.g. \"2s/ab<Enter><Esc>q\") without a\n"
    "                     terminal, on a copy of the database (its edits are not\n"
    "                     kept), and print per-frame timings\n"
    "  --iterations N     headless: N frames, cycling through KEYS (or every view)\n"
    "  --size WxH         the headless screen (default 100x30)\n"
    "  --dump             headless: print the last frame as text\n"
    "  --ascii            ASCII drawing even in a UTF-8 locale\n",
    exec_tui};
