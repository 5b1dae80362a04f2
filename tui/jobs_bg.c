/* jobs_bg: a member's biggest jobs read in the background (jobs_bg.h). */
#include "tui/jobs_bg.h"

#include <stdio.h>
#include <stdlib.h>

#include "data/store/store_tui.h"
#include "tui/bg.h"
#include "tui/canvas.h"

struct JobsBg {
    TuiBg *bg;
    int member;       /* model index of the user */
    char user[256];   /* their login, copied: the model may be rebuilt meanwhile */
    int limit;
    StoreTuiJob *jobs;
    size_t n;
    int rc;           /* 0, or -1 with err */
    CpErr err;
};

static void read_jobs(Store *st, void *arg, const TuiBg *bg)
{
    (void)bg;
    struct JobsBg *j = arg;
    j->rc = store_tui_user_jobs(st, j->user, 0, j->limit, &j->jobs, &j->n, &j->err);
}

static void task_free(struct JobsBg *j)
{
    store_tui_jobs_free(j->jobs, j->n);
    free(j);
}

/* The task's jobs into s (it is done). */
static void apply(TuiState *s, struct JobsBg *j)
{
    store_tui_jobs_free(s->jobs, (size_t)s->njobs);
    s->jobs = NULL;
    s->njobs = 0;
    s->jobs_user = j->member;
    if (j->rc < 0) {
        tui_status(s, CV_BAD, 0, "%s", j->err.msg);
    } else {
        s->jobs = j->jobs;
        s->njobs = (int)j->n;
        j->jobs = NULL;
        j->n = 0;
    }
    task_free(j);
}

int jobs_bg_start(TuiState *s, int member, int limit)
{
    jobs_bg_stop(s);
    struct JobsBg *j = xcalloc(1, sizeof *j);
    j->member = member;
    j->limit = limit;
    snprintf(j->user, sizeof j->user, "%s", s->model->users[member].name);
    j->bg = tui_bg_start(s->store, read_jobs, j);
    if (j->bg) {
        s->jobs_bg = j;
        return 0;
    }
    read_jobs(s->store, j, NULL);
    apply(s, j);
    return 1;
}

int jobs_bg_member(const TuiState *s)
{
    return s->jobs_bg ? s->jobs_bg->member : -1;
}

unsigned jobs_bg_poll(TuiState *s)
{
    struct JobsBg *j = s->jobs_bg;
    if (!j || !tui_bg_done(j->bg))
        return 0;
    return jobs_bg_wait(s);
}

unsigned jobs_bg_wait(TuiState *s)
{
    struct JobsBg *j = s->jobs_bg;
    if (!j)
        return 0;
    tui_bg_join(j->bg);
    s->jobs_bg = NULL;
    apply(s, j);
    return TUI_RECALC | TUI_REDRAW;
}

void jobs_bg_stop(TuiState *s)
{
    struct JobsBg *j = s->jobs_bg;
    if (!j)
        return;
    tui_bg_stop(j->bg);
    s->jobs_bg = NULL;
    task_free(j);
}
