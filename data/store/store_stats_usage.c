/* store_stats_usage: the dashboard's Usage view from the aggregates (see
 * store_stats.h). */
#include <stdlib.h>
#include <string.h>

#include "data/store/store_stats_int.h"
#include "data/store/store_tui.h"

/* ---- the dashboard's Usage view (issue 20) ---- */

static void ran_add(StoreTuiEff *e, const StatsCellSum *x)
{
    e->gpu_h += x->ran_gpu_h;
    e->gpu_h_util += x->ran_gpu_h_util;
    e->util_x_h += x->ran_util_x_h;
    e->gpu_h_mem += x->ran_gpu_h_mem;
    e->mem_x_h += x->ran_mem_x_h;
    e->cpu_alloc_h += x->ran_cpu_alloc_h;
    e->cpu_used_h += x->ran_cpu_used_h;
    e->mem_req_h += x->ran_mem_req_h;
    e->mem_used_h += x->ran_mem_used_h;
}

int store_stats_usage_scan(Store *st, int64_t since, StoreTuiScan *out, CpErr *err)
{
    memset(out, 0, sizeof *out);
    StoreStatsData *d = store_stats_load(st, STATS_NEED_CELLS, err);
    if (!d)
        return -1;
    const StatsCells *c = &d->in.cells;
    int32_t m0 = stats_month_of(since);
    int64_t top = 0;
    for (size_t i = 0; i < c->ncells; i++)
        if (c->cells[i].k.month >= m0 && c->cells[i].ran > 0 && c->cells[i].k.user > top)
            top = c->cells[i].k.user;
    out->nby_user = 256;
    while (out->nby_user <= top)
        out->nby_user *= 2;
    out->by_user = xcalloc((size_t)out->nby_user, sizeof *out->by_user);
    out->names = xcalloc((size_t)out->nby_user, sizeof *out->names);
    StoreTuiEff all;
    memset(&all, 0, sizeof all);
    for (size_t i = 0; i < c->ncells; i++) {
        const StatsCellSum *x = &c->cells[i];
        if (x->k.month < m0 || x->ran == 0)
            continue;
        out->attempts += x->ran;
        ran_add(&all, x);
        if (x->k.user > 0)
            ran_add(&out->by_user[x->k.user], x);
    }
    out->gpu_h = all.gpu_h, out->gpu_h_util = all.gpu_h_util, out->util_x_h = all.util_x_h;
    out->gpu_h_mem = all.gpu_h_mem, out->mem_x_h = all.mem_x_h;
    out->cpu_alloc_h = all.cpu_alloc_h, out->cpu_used_h = all.cpu_used_h;
    out->mem_req_h = all.mem_req_h, out->mem_used_h = all.mem_used_h;
    for (size_t i = 0; i < c->nheat; i++)
        if (c->heat[i].k.month >= m0)
            for (int s = 0; s < 168; s++)
                out->heat[s] += c->heat[i].gpu_h[s];
    const StatsNames *u = &d->in.users;
    for (size_t id = 1; id < u->n && (int64_t)id < out->nby_user; id++)
        if (u->v[id])
            out->names[id] = xstrdup(u->v[id]);
    store_stats_free(d);
    return 0;
}
