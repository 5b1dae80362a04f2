/* plan_bg: the planner read in the background (plan_bg.h). */
#include "tui/plan_bg.h"

#include <stdlib.h>

#include "data/plan/plan.h"
#include "tui/bg.h"
#include "tui/canvas.h"
#include "tui/plan.h"
#include "tui/research.h"

struct PlanBg {
    TuiBg *bg;
    Plan *plan;          /* NULL with err */
    Research *research;  /* NULL: no papers */
    CpErr err;
};

static void read_plan(Store *st, void *arg, const TuiBg *bg)
{
    struct PlanBg *p = arg;
    p->plan = tui_plan_build(st, &p->err);
    if (p->plan && !tui_bg_cancelled(bg))
        p->research = tui_research_open(st, p->plan);
}

/* The worker's planner into s (main thread, the worker joined). */
static void apply(TuiState *s, struct PlanBg *p)
{
    s->plan_pending = 0;
    CpErr err = p->err;
    if (p->plan)
        s->plan = tui_plan_from(s->store, s->model, s->scenario, p->plan, &err);
    s->research = p->research;
    if (!s->plan && err.msg[0])
        tui_status(s, CV_WARN, 8000, "planner: %s", err.msg);
    free(p);
}

void plan_bg_start(TuiState *s)
{
    if (!s->plan_pending || !s->store || s->plan_bg)
        return;
    struct PlanBg *p = xcalloc(1, sizeof *p);
    p->bg = tui_bg_start(s->store, read_plan, p);
    if (p->bg) {
        s->plan_bg = p;
        return;
    }
    free(p);
    tui_state_load_plan(s); /* no second connection: here */
}

unsigned plan_bg_poll(TuiState *s)
{
    if (!s->plan_bg || !tui_bg_done(s->plan_bg->bg))
        return 0;
    return plan_bg_wait(s);
}

unsigned plan_bg_wait(TuiState *s)
{
    struct PlanBg *p = s->plan_bg;
    if (!p)
        return 0;
    tui_bg_join(p->bg);
    s->plan_bg = NULL;
    apply(s, p);
    return TUI_RECALC | TUI_REDRAW;
}

void plan_bg_stop(TuiState *s)
{
    struct PlanBg *p = s->plan_bg;
    if (!p)
        return;
    tui_bg_stop(p->bg);
    s->plan_bg = NULL;
    plan_free(p->plan);
    tui_research_close(p->research);
    free(p);
}
