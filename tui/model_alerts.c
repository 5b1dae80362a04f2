/* model_alerts: the dashboard model's alerts, most severe first, computed
 * once the model is built: clusters saturated (> 90 % over the last three
 * months) or idle (< 30 %); groups of at least 2 % of the use growing
 * over 50 % a year, preempted over 10 % of their attempts, or waiting over
 * an hour and twice the institute's mean. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tui/model_int.h"

static void alert_add(TuiModel *m, TuiAlertKind kind, int severity, int g, int c, double value,
                      double ref)
{
    m->alerts = xrealloc(m->alerts, (size_t)(m->nalerts + 1) * sizeof *m->alerts);
    TuiAlert *a = &m->alerts[m->nalerts++];
    a->kind = kind;
    a->severity = severity;
    a->group = g;
    a->cluster = c;
    a->mem_class = -1;
    a->value = value;
    a->ref = ref;
}

static void cluster_alerts(TuiModel *m)
{
    for (int c = 0; c < m->nclusters; c++) {
        const TuiCluster *x = &m->clusters[c];
        double used = 0, cap = 0;
        for (int mi = m->nmonths - 3; mi < m->nmonths; mi++) {
            if (mi < 0)
                continue;
            used += x->used_h[mi];
            cap += x->cap_h[mi];
        }
        if (cap <= 0)
            continue;
        if (used / cap > 0.9)
            alert_add(m, TUI_AL_SATURATED, 2, -1, c, used / cap, 0.9);
        else if (used / cap < 0.3)
            alert_add(m, TUI_AL_IDLE, 1, -1, c, used / cap, 0.3);
    }
}

static void group_alerts(TuiModel *m)
{
    double wait_all = 0, waited_all = 0;
    for (int g = 0; g < m->ngroups; g++) {
        wait_all += m->groups[g].wait_s_12m;
        waited_all += (double)m->groups[g].waited_12m;
    }
    double mean_wait = waited_all > 0 ? wait_all / waited_all : NAN;
    for (int g = 0; g < m->ngroups; g++) {
        const TuiGroup *x = &m->groups[g];
        int big = x->share_12m >= 0.02;
        if (big && x->growth > 0.5)
            alert_add(m, TUI_AL_GROWTH, x->growth > 1 ? 2 : 1, g, -1, x->growth, 0.5);
        if (x->attempts_12m >= 20 && x->preempt_rate > 0.1)
            alert_add(m, TUI_AL_PREEMPT, x->preempt_rate > 0.25 ? 2 : 1, g, -1, x->preempt_rate,
                      0.1);
        if (x->waited_12m >= 20 && x->mean_wait_s > 3600 && x->mean_wait_s > 2 * mean_wait)
            alert_add(m, TUI_AL_WAIT, 1, g, -1, x->mean_wait_s, mean_wait);
    }
}

static int cmp_alert(const void *a, const void *b)
{
    const TuiAlert *x = a, *y = b;
    if (x->severity != y->severity)
        return y->severity - x->severity;
    if (x->kind != y->kind)
        return (int)x->kind - (int)y->kind;
    return (y->value > x->value) - (y->value < x->value);
}

void tui_model_build_alerts(TuiModel *m)
{
    cluster_alerts(m);
    group_alerts(m);
    if (m->nalerts > 1)
        qsort(m->alerts, (size_t)m->nalerts, sizeof *m->alerts, cmp_alert);
}
