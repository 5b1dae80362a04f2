/* policy: see policy.h. Order: result tables; filters and periods; the
 * fair-share replay's tables. Who ran each job: core/policy_own.c; sites
 * and TDPs: core/policy_site.c; the runs' aggregate: core/policy_cells.c;
 * energy and carbon's tables: core/policy_energy.c. */
#include "core/policy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/energy.h"
#include "core/policy_int.h"


void policy_input_init(PolicyInput *in)
{
    memset(in, 0, sizeof *in);
    fairshare_params_default(&in->params);
    in->shift_delay_h = ENERGY_SHIFT_DELAY_H;
}

int policy_key_known(const char *key)
{
    return fairshare_key_is_policy(key) || strcmp(key, "energy.shift_delay_h") == 0;
}

int policy_param_set(PolicyInput *in, const char *key, double value, CpErr *err)
{
    if (fairshare_key_is_policy(key))
        return fairshare_param_set(in ? &in->params : NULL, key, value, err);
    if (strcmp(key, "energy.shift_delay_h") != 0)
        return cp_err_set(err, "unknown key '%s'", key);
    if (!(value >= 0 && value <= 168) || value != floor(value))
        return cp_err_set(err, "%s: whole hours, 0 to 168", key);
    if (in)
        in->shift_delay_h = (int)value;
    return 0;
}

/* ---- result tables (owned as stats_report_free expects) ---- */

/* tbl_new: a table of the report with its note (the builders are
 * core/stats's, so that stats_report_free frees both alike). */
StatsTable *pol_table(StatsReport *r, const char *key, const char *title, const char *note,
                           const StatsCol *cols, size_t ncols)
{
    StatsTable *t = stats_report_add_table(r, key, title, cols, ncols);
    t->note = note;
    return t;
}

double pol_ratio(double a, double b)
{
    return b > 0 ? a / b : NAN;
}

/* ---- shared: filters, periods ---- */

const char *pol_name_of(const StatsNames *n, int32_t id)
{
    return id >= 0 && (size_t)id < n->n && n->v[id] ? n->v[id] : "";
}

/* A job that ran on GPUs. */
int pol_job_ran(const StatsJob *j)
{
    return j->start > 0 && j->elapsed > 0 && j->gpus > 0;
}

static int cluster_ok(const StatsInput *in, const StatsOpts *o, const StatsJob *j)
{
    return !o->cluster || strcmp(pol_name_of(&in->clusters, j->cluster), o->cluster) == 0;
}

/* -1 with err when --group or --cluster names nothing known. */
int pol_check_filters(const StatsInput *in, const StatsOpts *o, const Names *groups, CpErr *err)
{
    if (o->group && names_find(groups, o->group) < 0)
        return cp_err_set(err, "no group '%s'", o->group);
    if (o->cluster) {
        for (size_t i = 0; i < in->clusters.n; i++)
            if (in->clusters.v[i] && strcmp(in->clusters.v[i], o->cluster) == 0)
                return 0;
        return cp_err_set(err, "no cluster '%s'", o->cluster);
    }
    return 0;
}

static void civil(int64_t t, int *y, int *m, int *d, int *hh, int *mm)
{
    int64_t days = civil_floor_div(t, 86400), s = t - days * 86400, yy;
    civil_from_days(days, &yy, m, d);
    *y = (int)yy;
    *hh = (int)(s / 3600);
    *mm = (int)(s % 3600 / 60);
}

/* The period key of t: yyyymm, yyyy or 0. */
int32_t pol_period_of(StatsBy by, int64_t t)
{
    int y, m, d, hh, mm;
    civil(t, &y, &m, &d, &hh, &mm);
    return by == STATS_BY_MONTH ? y * 100 + m : by == STATS_BY_YEAR ? y : 0;
}

void pol_period_label(StatsBy by, int32_t p, char *buf, size_t n)
{
    if (by == STATS_BY_MONTH)
        snprintf(buf, n, "%04d-%02d", (int)(p / 100), (int)(p % 100));
    else if (by == STATS_BY_YEAR)
        snprintf(buf, n, "%04d", (int)p);
    else
        snprintf(buf, n, "all");
}

void pol_put_period(StatsTable *t, StatsCell *c, StatsBy by, int32_t p)
{
    char buf[32];
    pol_period_label(by, p, buf, sizeof buf);
    stats_cell_set_text(t, c, buf);
}

static void put_time(StatsTable *t, StatsCell *c, int64_t at)
{
    char buf[64];
    int y, m, d, hh, mm;
    civil(at, &y, &m, &d, &hh, &mm);
    snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d", y, m, d, hh, mm);
    stats_cell_set_text(t, c, buf);
}

/* ---- fair share ---- */

static const StatsCol fs_group_cols[] = {
    {"group", "group", "", STATS_COL_TEXT, 0},
    {"allocated_h", "allocated", "h", STATS_COL_REAL, 0},
    {"used_h", "used, all years", "h", STATS_COL_REAL, 0},
    {"used_pct", "used/alloc, allocated years", "%", STATS_COL_REAL, 1},
    {"replayed_h", "replayed", "h", STATS_COL_REAL, 0},
    {"lost_h", "lost", "h", STATS_COL_REAL, 0},
    {"first_blocked", "first blocked", "", STATS_COL_TEXT, 0},
    {"days_blocked", "days blocked", "", STATS_COL_REAL, 1},
    {"factor", "fair-share", "", STATS_COL_REAL, 3},
    {"priority", "priority", "", STATS_COL_REAL, 0},
};
static const StatsCol fs_series_cols[] = {
    {"period", "period", "", STATS_COL_TEXT, 0},
    {"group", "group", "", STATS_COL_TEXT, 0},
    {"allocated_h", "allocated", "h", STATS_COL_REAL, 0},
    {"used_year_h", "used in year", "h", STATS_COL_REAL, 0},
    {"replayed_year_h", "replayed in year", "h", STATS_COL_REAL, 0},
    {"used_pct", "used/alloc", "%", STATS_COL_REAL, 1},
    {"factor", "fair-share", "", STATS_COL_REAL, 3},
    {"blocked", "blocked", "", STATS_COL_BOOL, 0},
    {"lost_h", "lost", "h", STATS_COL_REAL, 0},
};
static const StatsCol fs_block_cols[] = {
    {"group", "group", "", STATS_COL_TEXT, 0},
    {"year", "year", "", STATS_COL_TEXT, 0},
    {"blocked_at", "blocked at (UTC)", "", STATS_COL_TEXT, 0},
    {"allocated_h", "allocated", "h", STATS_COL_REAL, 0},
    {"lost_h", "lost", "h", STATS_COL_REAL, 0},
};
static const StatsCol fs_machine_cols[] = {
    {"period", "period", "", STATS_COL_TEXT, 0},
    {"capacity_h", "capacity", "h", STATS_COL_REAL, 0},
    {"used_h", "used", "h", STATS_COL_REAL, 0},
    {"replayed_h", "replayed", "h", STATS_COL_REAL, 0},
    {"unused_h", "unused (replay)", "h", STATS_COL_REAL, 0},
    {"unused_pct", "unused", "%", STATS_COL_REAL, 1},
};

static const char fs_note[] =
    "replay of the real jobs under the allocations: a group may use up to the ceiling of its "
    "yearly allocation and is blocked beyond; fair-share = 2^(-U/S), U its usage decayed with "
    "the half-life over all allocated groups', S its share of the allocations; groups without "
    "an allocation are not regulated";
static const char fs_machine_note[] =
    "capacity from the inventory; unused = capacity - replayed use (pro rata per day)";

/* The FsJobs of the kept jobs. */
static FsJob *fs_jobs(const StatsInput *in, const StatsOpts *o, const Owners *w, size_t *n)
{
    FsJob *v = xmalloc((in->njobs + 1) * sizeof *v);
    *n = 0;
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        if (!pol_job_ran(j) || !cluster_ok(in, o, j))
            continue;
        v[*n].group = w->group[i];
        v[*n].start = j->start;
        v[*n].gpus = j->gpus;
        v[(*n)++].run_s = j->elapsed;
    }
    return v;
}

static void fs_groups_table(const PolicyInput *pi, const StatsOpts *o, const Owners *w,
                            const FsResult *r, StatsReport *rep)
{
    StatsTable *t = pol_table(rep, "groups", "Allocation policy replay, per group", fs_note,
                            fs_group_cols, sizeof fs_group_cols / sizeof fs_group_cols[0]);
    int32_t *order = names_order(&w->groups);
    for (int32_t i = 0; i < r->ngroups; i++) {
        int32_t g = order[i];
        const FsGroupSum *s = &r->sum[g];
        if ((o->group && strcmp(o->group, w->groups.v[g]) != 0) ||
            (s->used <= 0 && s->allocated <= 0))
            continue;
        StatsCell *c = stats_table_add_row(t);
        stats_cell_set_text(t, &c[0], w->groups.v[g]);
        c[1].num = s->allocated > 0 ? s->allocated : NAN;
        c[2].num = s->used;
        c[3].num = 100.0 * pol_ratio(s->used_allocated, s->allocated);
        c[4].num = s->replayed;
        c[5].num = s->lost;
        if (s->first_blocked != INT64_MIN) /* else unknown: "-", an empty CSV cell */
            put_time(t, &c[6], s->first_blocked);
        c[7].num = s->days_blocked;
        c[8].num = s->factor;
        c[9].num = pi->params.w_fairshare * s->factor;
        if (pi->params.w_allocation > 0 && r->ndays) {
            size_t k = (size_t)g * r->ndays + r->ndays - 1;
            double left = 1.0 - pol_ratio(r->replay_year[k], r->alloc[k]);
            c[9].num += pi->params.w_allocation * (left > 0 ? left : 0);
        }
    }
    free(order);
}

/* The days [d0, d1) of each period, walked in order. */
static size_t fs_period_end(const FsResult *r, StatsBy by, size_t d0, int32_t *p)
{
    *p = pol_period_of(by, r->t0 + (int64_t)d0 * FS_DAY);
    size_t d = d0 + 1;
    while (d < r->ndays && pol_period_of(by, r->t0 + (int64_t)d * FS_DAY) == *p)
        d++;
    return d;
}

static void fs_series_row(StatsTable *t, const FsResult *r, const Owners *w, StatsBy by, int32_t p,
                          int32_t g, size_t d0, size_t d1)
{
    size_t k = (size_t)g * r->ndays + d1 - 1;
    double lost = 0;
    for (size_t d = d0; d < d1; d++)
        lost += r->lost_day[(size_t)g * r->ndays + d];
    StatsCell *c = stats_table_add_row(t);
    pol_put_period(t, &c[0], by, p);
    stats_cell_set_text(t, &c[1], w->groups.v[g]);
    c[2].num = r->alloc[k];
    c[3].num = r->used_year[k];
    c[4].num = r->replay_year[k];
    c[5].num = 100.0 * pol_ratio(r->used_year[k], r->alloc[k]);
    c[6].num = r->factor[k];
    c[7].num = isnan(r->alloc[k]) ? NAN : r->blocked[k];
    c[8].num = lost;
}

static void fs_series_tables(const PolicyInput *pi, const StatsOpts *o, const Owners *w,
                             const FsResult *r, StatsReport *rep)
{
    StatsTable *t = pol_table(rep, "series", "Allocation policy replay over time", NULL,
                            fs_series_cols, sizeof fs_series_cols / sizeof fs_series_cols[0]);
    StatsTable *m = pol_table(rep, "machine", "GPU-hours left unused under the replay",
                            fs_machine_note, fs_machine_cols,
                            sizeof fs_machine_cols / sizeof fs_machine_cols[0]);
    const StatsInput *in = pi->stats;
    int32_t *order = names_order(&w->groups);
    for (size_t d0 = 0, d1; d0 < r->ndays; d0 = d1) {
        int32_t p;
        d1 = fs_period_end(r, o->by, d0, &p);
        for (int32_t i = 0; i < r->ngroups; i++) {
            int32_t g = order[i];
            if ((!o->group || strcmp(o->group, w->groups.v[g]) == 0) && r->sum[g].allocated > 0)
                fs_series_row(t, r, w, o->by, p, g, d0, d1);
        }
        double used = 0, replay = 0;
        for (size_t d = d0; d < d1; d++) {
            used += r->machine_used[d];
            replay += r->machine_replay[d];
        }
        double cap = stats_capacity_hours(in->inventory, in->ninventory, o->cluster,
                                          r->t0 + (int64_t)d0 * FS_DAY,
                                          r->t0 + (int64_t)d1 * FS_DAY);
        StatsCell *c = stats_table_add_row(m);
        pol_put_period(m, &c[0], o->by, p);
        c[1].num = in->ninventory ? cap : NAN;
        c[2].num = used;
        c[3].num = replay;
        c[4].num = in->ninventory ? cap - replay : NAN;
        c[5].num = 100.0 * pol_ratio(c[4].num, cap);
    }
    free(order);
}

static void fs_blocks_table(const StatsOpts *o, const Owners *w, const FsResult *r,
                            const FsAlloc *al, size_t nal, StatsReport *rep)
{
    StatsTable *t = pol_table(rep, "blocks", "When groups would have been blocked", NULL,
                            fs_block_cols, sizeof fs_block_cols / sizeof fs_block_cols[0]);
    for (size_t i = 0; i < r->nblocks; i++) {
        const FsBlock *b = &r->blocks[i];
        if (o->group && strcmp(o->group, w->groups.v[b->group]) != 0)
            continue;
        StatsCell *c = stats_table_add_row(t);
        char year[16];
        snprintf(year, sizeof year, "%d", (int)b->year);
        stats_cell_set_text(t, &c[0], w->groups.v[b->group]);
        stats_cell_set_text(t, &c[1], year);
        put_time(t, &c[2], b->at);
        for (size_t k = 0; k < nal; k++)
            if (al[k].group == b->group && al[k].year == b->year)
                c[3].num = (isnan(c[3].num) ? 0 : c[3].num) + al[k].gpu_hours;
        c[4].num = b->lost;
    }
}

int policy_fairshare(const PolicyInput *pi, const StatsOpts *o, StatsReport *out, CpErr *err)
{
    memset(out, 0, sizeof *out);
    out->kind = STATS_KIND_COUNT;
    out->by = o->by;
    if (pi->nallocs == 0)
        return cp_err_set(err, "no allocations: capplan import allocations FILE.csv "
                               "(group,year,gpu_hours)");
    Owners w;
    owners_init(&w, pi->stats);
    FsAlloc *al = xmalloc((pi->nallocs + 1) * sizeof *al);
    for (size_t i = 0; i < pi->nallocs; i++) {
        al[i].group = names_id(&w.groups, pi->allocs[i].group);
        al[i].year = pi->allocs[i].year;
        al[i].gpu_hours = pi->allocs[i].gpu_hours;
    }
    int rc = pol_check_filters(pi->stats, o, &w.groups, err);
    if (rc == 0) {
        size_t nj;
        FsJob *jobs = fs_jobs(pi->stats, o, &w, &nj);
        FsResult r;
        fairshare_replay(&pi->params, (int32_t)w.groups.n, jobs, nj, al, pi->nallocs, &r);
        fs_groups_table(pi, o, &w, &r, out);
        fs_series_tables(pi, o, &w, &r, out);
        fs_blocks_table(o, &w, &r, al, pi->nallocs, out);
        fairshare_result_free(&r);
        free(jobs);
    }
    free(al);
    owners_done(&w);
    return rc;
}

