/* stats_pubs: `capplan stats pubs`. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/stats_int.h"

/* ---- publications ---- */

typedef struct PubAcc {
    int64_t pubs;
    double gpu_h;
} PubAcc;

static const StatsCol pub_group_cols[] = {
    {"year", "year", "", STATS_COL_TEXT, 0},
    {"group", "group", "", STATS_COL_TEXT, 0},
    {"domain", "domain", "", STATS_COL_TEXT, 0},
    {"pubs", "publications", "", STATS_COL_INT, 0},
    {"gpu_hours", "GPU-h", "GPU-h", STATS_COL_REAL, 0},
    {"gpu_hours_per_pub", "GPU-h per publication", "GPU-h", STATS_COL_REAL, 0},
};

static const StatsCol pub_dom_cols[] = {
    {"year", "year", "", STATS_COL_TEXT, 0},
    {"domain", "domain", "", STATS_COL_TEXT, 0},
    {"pubs", "publications", "", STATS_COL_INT, 0},
    {"gpu_hours", "GPU-h", "GPU-h", STATS_COL_REAL, 0},
    {"gpu_hours_per_pub", "GPU-h per publication", "GPU-h", STATS_COL_REAL, 0},
};

static void pub_emit(const Ctx *c, StatsTable *t, const Agg *a, const Dict *names,
                     const int32_t *dom_of, int32_t y0, int32_t y1)
{
    size_t *order = stats_agg_order(a, names->rank, NULL, NULL);
    for (size_t i = 0; i < a->n; i++) {
        const AggKey *k = &a->keys[order[i]];
        const PubAcc *x = stats_agg_val(a, order[i]);
        if (k->period < y0 || k->period > y1)
            continue;
        StatsCell *row = stats_table_add_row(t);
        char year[16];
        snprintf(year, sizeof year, "%04d", k->period);
        stats_cell_set_text(t, &row[0], year);
        stats_cell_set_text(t, &row[1], names->name[k->a]);
        size_t n = 2;
        if (dom_of)
            stats_cell_set_text(t, &row[n++], c->ro.domains.name[dom_of[k->a]]);
        row[n].num = (double)x->pubs;
        row[n + 1].num = x->gpu_h;
        row[n + 2].num = stats_ratio(x->gpu_h, (double)x->pubs);
    }
    free(order);
}

void stats_kind_pubs(const Ctx *c, StatsReport *r)
{
    const StatsInput *in = c->in;
    const Roster *ro = &c->ro;
    Agg byg, byd;
    stats_agg_init(&byg, sizeof(PubAcc));
    stats_agg_init(&byd, sizeof(PubAcc));
    int32_t y0 = INT32_MAX, y1 = INT32_MIN;
    for (size_t i = 0; i < in->npubs; i++) {
        const StatsPub *p = &in->pubs[i];
        int32_t g = stats_dict_find(&ro->groups, p->group);
        if (c->group >= 0 && g != c->group)
            continue;
        int32_t d = p->domain && p->domain[0] ? stats_dict_find(&ro->domains, p->domain) : -1;
        if (d < 0)
            d = g >= 0 ? stats_group_domain(ro, g) : stats_dict_find(&ro->domains, UNKNOWN_DOMAIN);
        if (g >= 0)
            ((PubAcc *)stats_agg_get(&byg, p->year, g, 0, 0))->pubs++;
        ((PubAcc *)stats_agg_get(&byd, p->year, d, 0, 0))->pubs++;
        y0 = p->year < y0 ? p->year : y0;
        y1 = p->year > y1 ? p->year : y1;
    }
    for (size_t i = 0; i < in->nusage; i++) {
        const StatsUsage *u = &in->usage[i];
        int32_t g, d;
        if (!stats_usage_kept(c, u, &g, &d))
            continue;
        ((PubAcc *)stats_agg_get(&byg, u->month / 100, g, 0, 0))->gpu_h += u->gpu_hours;
        ((PubAcc *)stats_agg_get(&byd, u->month / 100, d, 0, 0))->gpu_h += u->gpu_hours;
    }
    int32_t *dom_of = xmalloc((ro->groups.n + 1) * sizeof *dom_of);
    for (size_t g = 0; g < ro->groups.n; g++)
        dom_of[g] = stats_group_domain(ro, (int32_t)g);
    StatsTable *tg = stats_report_add_table(r, "groups", "Publications and GPU-hours per group and year",
                                  pub_group_cols, NCOLS(pub_group_cols));
    StatsTable *td = stats_report_add_table(r, "domains", "Publications and GPU-hours per domain and year",
                                  pub_dom_cols, NCOLS(pub_dom_cols));
    pub_emit(c, tg, &byg, &ro->groups, dom_of, y0, y1);
    pub_emit(c, td, &byd, &ro->domains, NULL, y0, y1);
    free(dom_of);
    stats_agg_done(&byg);
    stats_agg_done(&byd);
}
