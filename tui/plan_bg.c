/* plan_bg: the planner read in the background (plan_bg.h). */
#include "tui/plan_bg.h"

#include <stdio.h>
#include <stdlib.h>

#include "data/ingest/catalog.h"
#include "data/plan/plan.h"
#include "data/plan/simulate_next.h"
#include "tui/bg.h"
#include "tui/canvas.h"
#include "tui/plan.h"
#include "tui/research.h"

struct PlanBg {
    TuiBg *bg;
    Plan *plan;          /* NULL with err */
    Research *research;  /* NULL: no papers */
    SimNext *sim;        /* next year simulated, NULL: sim_err */
    CpErr err, sim_err;
};

/* Next year simulated on the base scenario with the effective catalog, as
 * `capplan simulate` and the report's first page (about 0.3 s of CPU on
 * the demo): the institute page's buy-nothing and recommendation lines. */
static SimNext *read_sim(Store *st, CpErr *err)
{
    SimNextOpts so = {0};
    CatalogGpu *cat = NULL;
    SimNext *sim = xcalloc(1, sizeof *sim);
    int failed = catalog_effective(st, &cat, &so.ncatalog, &so.builtin_catalog, err) < 0;
    so.catalog = cat;
    failed = failed || simulate_next(st, &so, sim, err) < 0;
    catalog_free(cat, so.ncatalog);
    if (failed) {
        free(sim);
        return NULL;
    }
    return sim;
}

static void read_plan(Store *st, void *arg, const TuiBg *bg)
{
    struct PlanBg *p = arg;
    p->plan = tui_plan_build(st, &p->err);
    if (p->plan && !tui_bg_cancelled(bg))
        p->research = tui_research_open(st, p->plan);
    if (p->plan && !tui_bg_cancelled(bg))
        p->sim = read_sim(st, &p->sim_err);
}

/* The worker's planner into s (main thread, the worker joined). */
static void apply(TuiState *s, struct PlanBg *p)
{
    s->plan_pending = 0;
    CpErr err = p->err;
    if (p->plan)
        s->plan = tui_plan_from(s->store, s->model, s->scenario, p->plan, &err);
    s->research = p->research;
    free(s->sim);
    s->sim = p->sim;
    snprintf(s->sim_why, sizeof s->sim_why, "%s", p->sim ? "" : p->sim_err.msg);
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
    free(p->sim);
    free(p);
}
