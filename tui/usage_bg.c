/* usage_bg: the Usage view's figures in a worker thread (usage_bg.h). */
#include "tui/usage_bg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "data/store/store.h"
#include "data/store/store_policy.h"
#include "data/store/store_tui.h"
#include "tui/bg.h"
#include "tui/canvas.h"

struct UsageBg {
    TuiBg *bg;           /* the worker, NULL when computed in place */
    int64_t since;       /* jobs that started from then on (epoch s) */
    char scenario[64];   /* for the policy panel's parameters */
    char hold[512];      /* CAPPLAN_TEST_USAGE_HOLD, "" none */
    int64_t end_ms;      /* tui_now_ms when it finished */
    StoreTuiScan scan;
    int scan_rc;         /* 0, or -1 with scan_err */
    CpErr scan_err;
    StorePolicyPanel policy;
    int policy_rc;       /* 0, or -1 with policy_err (1: not computed) */
    CpErr policy_err;
};

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* The test's hold: wait while its file exists, unless asked to stop. */
static void hold(UsageBg *b, const TuiBg *bg)
{
    while (b->hold[0] && !tui_bg_cancelled(bg) && access(b->hold, F_OK) == 0)
        sleep_ms(20);
}

/* Everything the worker computes, over st (its own connection, or the
 * dashboard's when computed in place; bg NULL then). */
static void compute(Store *st, void *arg, const TuiBg *bg)
{
    UsageBg *b = arg;
    b->policy_rc = 1;
    hold(b, bg);
    if (tui_bg_cancelled(bg)) {
        b->scan_rc = cp_err_set(&b->scan_err, "usage: stopped");
        return;
    }
    b->scan_rc = store_tui_scan(st, b->since, &b->scan, &b->scan_err);
    if (b->scan_rc < 0 || tui_bg_cancelled(bg))
        return;
    b->policy_rc = store_policy_panel(st, b->scenario[0] ? b->scenario : NULL, &b->policy,
                                      &b->policy_err);
}

static void bg_free(UsageBg *b)
{
    store_tui_scan_free(&b->scan);
    free(b);
}

/* The worker's figures into s (main thread, worker joined). */
static void apply(TuiState *s, const UsageBg *b)
{
    s->usage_ms = b->end_ms - s->usage_t0;
    if (b->scan_rc < 0) {
        s->usage_state = TUI_USAGE_FAILED;
        snprintf(s->usage_err, sizeof s->usage_err, "%.*s", (int)sizeof s->usage_err - 1,
                 b->scan_err.msg);
        tui_status(s, CV_BAD, 0, "usage figures: %s", b->scan_err.msg);
        return;
    }
    tui_model_set_scan(s->model, &b->scan);
    s->usage_state = TUI_USAGE_READY;
    if (b->policy_rc == 0) {
        if (!s->policy)
            s->policy = xmalloc(sizeof *s->policy);
        *s->policy = b->policy;
    } else if (b->policy_rc < 0) {
        tui_status(s, CV_BAD, 0, "%s", b->policy_err.msg);
    }
}

void usage_bg_start(TuiState *s)
{
    if (!s->store || s->usage_bg || s->usage_state != TUI_USAGE_NONE)
        return;
    UsageBg *b = xcalloc(1, sizeof *b);
    b->since = tui_model_heat_since(s->model);
    snprintf(b->scenario, sizeof b->scenario, "%s", s->scenario);
    const char *h = getenv("CAPPLAN_TEST_USAGE_HOLD");
    snprintf(b->hold, sizeof b->hold, "%s", h ? h : "");
    s->usage_t0 = tui_now_ms();
    s->usage_err[0] = '\0';
    b->bg = tui_bg_start(s->store, compute, b);
    if (b->bg) {
        s->usage_bg = b;
        s->usage_state = TUI_USAGE_COMPUTING;
        return;
    }
    /* No second connection (a database in memory) or no thread: here,
     * once; keys wait for it this one time. */
    compute(s->store, b, NULL);
    b->end_ms = tui_now_ms();
    apply(s, b);
    bg_free(b);
}

/* Join the finished (or finishing) worker and take its figures. */
static void take(TuiState *s)
{
    UsageBg *b = s->usage_bg;
    b->end_ms = tui_bg_join(b->bg);
    s->usage_bg = NULL;
    apply(s, b);
    bg_free(b);
}

unsigned usage_bg_poll(TuiState *s)
{
    if (!s->usage_bg || !tui_bg_done(s->usage_bg->bg))
        return 0;
    take(s);
    return TUI_REDRAW;
}

void usage_bg_wait(TuiState *s)
{
    if (s->usage_bg)
        take(s);
}

void usage_bg_stop(TuiState *s)
{
    UsageBg *b = s->usage_bg;
    if (!b)
        return;
    tui_bg_stop(b->bg);
    bg_free(b);
    s->usage_bg = NULL;
    s->usage_state = TUI_USAGE_NONE;
}
