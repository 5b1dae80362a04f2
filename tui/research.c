#include "tui/research.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/cp.h"
#include "core/profiles.h"
#include "data/plan/research_run.h"

Research *tui_research_open(Store *st, const Plan *plan)
{
    if (!st)
        return NULL;
    Research *r = xcalloc(1, sizeof *r);
    CpErr err;
    ResearchOpts o;
    research_opts_init(&o);
    o.plan = plan; /* the profiles the Group view shows; NULL: the saved run's */
    if (research_build(st, &o, r, &err) < 0) {
        free(r);
        return NULL;
    }
    r->opts.plan = NULL; /* borrowed for the build only: the plan may go first */
    if (r->data.npapers == 0) {
        research_free(r);
        free(r);
        return NULL;
    }
    return r;
}

void tui_research_close(Research *r)
{
    if (!r)
        return;
    research_free(r);
    free(r);
}

void tui_research_cell(const Research *r, const char *user, char *buf, size_t n)
{
    const ResearchRow *w = r ? research_row(r, user) : NULL;
    if (!w || w->cluster < 0)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "R%d%s", w->cluster + 1, w->ask ? "?" : "");
}

int tui_research_ask(const Research *r, const char *user)
{
    const ResearchRow *w = r ? research_row(r, user) : NULL;
    return w && w->ask;
}

double tui_research_stake(const Research *r, const char *user)
{
    const ResearchRow *w = r ? research_row(r, user) : NULL;
    return w ? w->need.stake : 0;
}

int tui_research_unshown(const Research *r, const char *user)
{
    const ResearchRow *w = r ? research_row(r, user) : NULL;
    return w && w->need.stake > 0 && w->need.rank == 0;
}

void tui_research_why(const Research *r, const char *user, char *buf, size_t n)
{
    const ResearchRow *w = r ? research_row(r, user) : NULL;
    if (!w || !w->ask || w->cluster < 0)
        snprintf(buf, n, "-");
    else if (w->need.below_mem)
        snprintf(buf, n, "R%d %s GB, its line %s GB, +%.2f GPU-eq", w->cluster + 1,
                 profiles_mem_class_name(profiles_mem_class(w->mem_gib)),
                 profiles_mem_class_name(r->need[w->cluster].mem_class), w->need.stake);
    else
        snprintf(buf, n, "R%d %g GPU%s a job, its line %g, +%.2f GPU-eq", w->cluster + 1, w->gpus,
                 w->gpus == 1 ? "" : "s", r->need[w->cluster].gpus, w->need.stake);
}
