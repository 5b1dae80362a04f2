/* heat_bg: the heat map from the aggregates by a worker (heat_bg.h). */
#include "tui/heat_bg.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "data/store/store_tui.h"
#include "tui/bg.h"

struct HeatBg {
    TuiBg *bg;
    int64_t since;     /* the model's last 12 months (epoch s) */
    char hold[512];    /* CAPPLAN_TEST_USAGE_HOLD, "" none */
    StoreTuiScan scan;
    int rc;            /* 0, or -1 (the figures are then left to usage_bg) */
};

static void read_heat(Store *st, void *arg, const TuiBg *bg)
{
    struct HeatBg *h = arg;
    while (h->hold[0] && !tui_bg_cancelled(bg) && access(h->hold, F_OK) == 0) {
        struct timespec ts = {0, 20 * 1000000L};
        nanosleep(&ts, NULL);
    }
    CpErr err = {""};
    h->rc = tui_bg_cancelled(bg) ? -1 : store_tui_scan(st, h->since, &h->scan, &err);
}

static void heat_free(struct HeatBg *h)
{
    store_tui_scan_free(&h->scan);
    free(h);
}

void heat_bg_start(TuiState *s)
{
    if (!s->store || !s->model || s->model->heat_loaded || s->heat_bg)
        return;
    struct HeatBg *h = xcalloc(1, sizeof *h);
    h->since = tui_model_heat_since(s->model);
    const char *hold = getenv("CAPPLAN_TEST_USAGE_HOLD");
    snprintf(h->hold, sizeof h->hold, "%s", hold ? hold : "");
    s->heat_t0 = tui_now_ms();
    h->bg = tui_bg_start(s->store, read_heat, h);
    if (!h->bg) {
        free(h);
        return;
    }
    s->heat_bg = h;
}

unsigned heat_bg_poll(TuiState *s)
{
    if (!s->heat_bg || !tui_bg_done(s->heat_bg->bg))
        return 0;
    return heat_bg_wait(s);
}

unsigned heat_bg_wait(TuiState *s)
{
    struct HeatBg *h = s->heat_bg;
    if (!h)
        return 0;
    int64_t end = tui_bg_join(h->bg);
    s->heat_bg = NULL;
    unsigned f = 0;
    if (h->rc == 0 && !s->model->heat_loaded) {
        tui_model_set_scan(s->model, &h->scan);
        s->heat_ms = end - s->heat_t0;
        f = TUI_REDRAW;
    }
    heat_free(h);
    return f;
}

void heat_bg_stop(TuiState *s)
{
    struct HeatBg *h = s->heat_bg;
    if (!h)
        return;
    tui_bg_stop(h->bg);
    s->heat_bg = NULL;
    heat_free(h);
}
