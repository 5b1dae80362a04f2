/* policy: see policy.h. Order: result tables; names (groups, domains) and
 * who ran each job; periods; the fair-share replay's tables; energy and
 * carbon's tables. */
#include "core/policy.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/energy.h"
#include "core/strmap.h"

#define HOUR 3600
#define NONE_GROUP "(none)"
#define UNKNOWN_DOMAIN "(unknown)"

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
static StatsTable *tbl_new(StatsReport *r, const char *key, const char *title, const char *note,
                           const StatsCol *cols, size_t ncols)
{
    StatsTable *t = stats_report_add_table(r, key, title, cols, ncols);
    t->note = note;
    return t;
}

static double ratio(double a, double b)
{
    return b > 0 ? a / b : NAN;
}

/* ---- names and owners ---- */

/* Interned names: index by name. */
typedef struct Names {
    StrMap *map;
    const char **v;
    size_t n, cap;
} Names;

static int32_t names_id(Names *d, const char *name)
{
    int64_t id;
    if (strmap_get(d->map, name, strlen(name), &id))
        return (int32_t)id;
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 32;
        d->v = xrealloc(d->v, d->cap * sizeof *d->v);
    }
    d->v[d->n] = name;
    strmap_put(d->map, name, strlen(name), (int64_t)d->n);
    return (int32_t)d->n++;
}

static int32_t names_find(const Names *d, const char *name)
{
    int64_t id;
    return name && strmap_get(d->map, name, strlen(name), &id) ? (int32_t)id : -1;
}

static void names_init(Names *d)
{
    memset(d, 0, sizeof *d);
    d->map = strmap_new();
}

static void names_done(Names *d)
{
    strmap_free(d->map);
    free(d->v);
}

static const char *const *order_names; /* names_order's comparator only */
static int order_cmp(const void *pa, const void *pb)
{
    return strcmp(order_names[*(const int32_t *)pa], order_names[*(const int32_t *)pb]);
}

/* Indices of d's names in byte order. Caller frees. */
static int32_t *names_order(const Names *d)
{
    int32_t *o = xmalloc((d->n + 1) * sizeof *o);
    for (size_t i = 0; i < d->n; i++)
        o[i] = (int32_t)i;
    order_names = d->v;
    qsort(o, d->n, sizeof *o, order_cmp);
    return o;
}

static int person_cmp(const void *pa, const void *pb)
{
    const StatsPerson *a = *(const StatsPerson *const *)pa, *b = *(const StatsPerson *const *)pb;
    int c = strcmp(a->user, b->user);
    return c ? c : (a->start > b->start) - (a->start < b->start);
}

/* Who ran each job: group and domain ids (into groups, domains). */
typedef struct Owners {
    Names groups, domains;
    int32_t *group, *domain; /* per job */
    int32_t *gdomain;        /* per group id: its domain, -1 unknown (sized cap) */
    size_t ngdomain;
} Owners;

static void gdomain_set(Owners *w, int32_t g, int32_t d)
{
    if ((size_t)g >= w->ngdomain) {
        size_t n = (size_t)g + 64;
        w->gdomain = xrealloc(w->gdomain, n * sizeof *w->gdomain);
        for (size_t i = w->ngdomain; i < n; i++)
            w->gdomain[i] = -1;
        w->ngdomain = n;
    }
    if (w->gdomain[g] < 0)
        w->gdomain[g] = d;
}

static int32_t gdomain_get(Owners *w, int32_t g)
{
    int32_t d = (size_t)g < w->ngdomain ? w->gdomain[g] : -1;
    return d >= 0 ? d : names_id(&w->domains, UNKNOWN_DOMAIN);
}

/* The roster line of lines[lo..hi) (one user's, by start) in force at t. */
static const StatsPerson *line_at(const StatsPerson *const *lines, size_t lo, size_t hi, int64_t t)
{
    const StatsPerson *before = NULL;
    for (size_t i = lo; i < hi; i++) {
        const StatsPerson *p = lines[i];
        int started = p->start == STATS_TIME_NONE || p->start <= t;
        if (started && (p->end == STATS_TIME_NONE || t < p->end))
            return p;
        if (started)
            before = p;
    }
    return before ? before : lines[lo];
}

/* first[u], count[u]: user id u's lines in the sorted roster. */
static void user_lines(const StatsInput *in, const StatsPerson **lines, int32_t *first,
                       int32_t *count)
{
    StrMap *m = strmap_new();
    for (size_t i = 0; i < in->npeople; i++)
        if (i == 0 || strcmp(lines[i]->user, lines[i - 1]->user) != 0)
            strmap_put(m, lines[i]->user, strlen(lines[i]->user), (int64_t)i);
    for (size_t u = 0; u < in->users.n; u++) {
        int64_t i;
        const char *name = in->users.v[u];
        first[u] = -1;
        if (!name || !strmap_get(m, name, strlen(name), &i))
            continue;
        size_t j = (size_t)i;
        while (j < in->npeople && strcmp(lines[j]->user, name) == 0)
            j++;
        first[u] = (int32_t)i;
        count[u] = (int32_t)(j - (size_t)i);
    }
    strmap_free(m);
}

/* What owners_job reads, and its memo: (group, domain) ids per roster
 * line (npeople), then per account id and one for no account; -1 until
 * first seen. */
typedef struct OwnerCtx {
    const StatsInput *in;
    const StatsPerson **lines;
    int32_t *first, *count;
    int32_t (*memo)[2];
} OwnerCtx;

/* The ids of roster line p (the first time: interned as before). */
static const int32_t *owners_line(Owners *w, OwnerCtx *c, const StatsPerson *p)
{
    int32_t *m = c->memo[p - c->in->people];
    if (m[0] < 0) {
        m[0] = names_id(&w->groups, p->group);
        m[1] = p->domain && p->domain[0] ? names_id(&w->domains, p->domain) : gdomain_get(w, m[0]);
    }
    return m;
}

/* The ids of account a (accounts.n: none). */
static const int32_t *owners_account(Owners *w, OwnerCtx *c, size_t a)
{
    int32_t *m = c->memo[c->in->npeople + a];
    if (m[0] < 0) {
        const char *acct = a < c->in->accounts.n ? c->in->accounts.v[a] : NULL;
        m[0] = names_id(&w->groups, acct && acct[0] ? acct : NONE_GROUP);
        m[1] = gdomain_get(w, m[0]);
    }
    return m;
}

static void owners_job(Owners *w, OwnerCtx *c, size_t i)
{
    const StatsInput *in = c->in;
    const StatsJob *j = &in->jobs[i];
    int64_t t = j->start ? (int64_t)j->start : (int64_t)j->submit;
    const int32_t *m;
    if (j->user >= 0 && (size_t)j->user < in->users.n && c->first[j->user] >= 0) {
        size_t lo = (size_t)c->first[j->user];
        m = owners_line(w, c, line_at(c->lines, lo, lo + (size_t)c->count[j->user], t));
    } else {
        int acct_ok = j->account >= 0 && (size_t)j->account < in->accounts.n;
        m = owners_account(w, c, acct_ok ? (size_t)j->account : in->accounts.n);
    }
    w->group[i] = m[0];
    w->domain[i] = m[1];
}

static void owners_init(Owners *w, const StatsInput *in)
{
    memset(w, 0, sizeof *w);
    names_init(&w->groups);
    names_init(&w->domains);
    for (size_t i = 0; i < in->ngroups; i++)
        if (in->groups[i].domain && in->groups[i].domain[0])
            gdomain_set(w, names_id(&w->groups, in->groups[i].name),
                        names_id(&w->domains, in->groups[i].domain));
    const StatsPerson **lines = xmalloc((in->npeople + 1) * sizeof *lines);
    for (size_t i = 0; i < in->npeople; i++)
        lines[i] = &in->people[i];
    qsort(lines, in->npeople, sizeof *lines, person_cmp);
    for (size_t i = 0; i < in->npeople; i++)
        if (lines[i]->domain && lines[i]->domain[0])
            gdomain_set(w, names_id(&w->groups, lines[i]->group),
                        names_id(&w->domains, lines[i]->domain));
    size_t nmemo = in->npeople + in->accounts.n + 1;
    OwnerCtx c = {in, lines, xmalloc((in->users.n + 1) * sizeof *c.first),
                  xcalloc(in->users.n + 1, sizeof *c.count), xmalloc(nmemo * sizeof *c.memo)};
    memset(c.memo, 0xff, nmemo * sizeof *c.memo);
    user_lines(in, lines, c.first, c.count);
    w->group = xmalloc((in->njobs + 1) * sizeof *w->group);
    w->domain = xmalloc((in->njobs + 1) * sizeof *w->domain);
    for (size_t i = 0; i < in->njobs; i++)
        owners_job(w, &c, i);
    free(c.memo);
    free(c.first);
    free(c.count);
    free(lines);
}

static void owners_done(Owners *w)
{
    names_done(&w->groups);
    names_done(&w->domains);
    free(w->group);
    free(w->domain);
    free(w->gdomain);
}

/* ---- shared: filters, periods ---- */

static const char *name_of(const StatsNames *n, int32_t id)
{
    return id >= 0 && (size_t)id < n->n && n->v[id] ? n->v[id] : "";
}

/* A job that ran on GPUs. */
static int job_ran(const StatsJob *j)
{
    return j->start > 0 && j->elapsed > 0 && j->gpus > 0;
}

static int cluster_ok(const StatsInput *in, const StatsOpts *o, const StatsJob *j)
{
    return !o->cluster || strcmp(name_of(&in->clusters, j->cluster), o->cluster) == 0;
}

/* -1 with err when --group or --cluster names nothing known. */
static int check_filters(const StatsInput *in, const StatsOpts *o, const Owners *w, CpErr *err)
{
    if (o->group && names_find(&w->groups, o->group) < 0)
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
static int32_t period_of(StatsBy by, int64_t t)
{
    int y, m, d, hh, mm;
    civil(t, &y, &m, &d, &hh, &mm);
    return by == STATS_BY_MONTH ? y * 100 + m : by == STATS_BY_YEAR ? y : 0;
}

static void period_label(StatsBy by, int32_t p, char *buf, size_t n)
{
    if (by == STATS_BY_MONTH)
        snprintf(buf, n, "%04d-%02d", (int)(p / 100), (int)(p % 100));
    else if (by == STATS_BY_YEAR)
        snprintf(buf, n, "%04d", (int)p);
    else
        snprintf(buf, n, "all");
}

static void put_period(StatsTable *t, StatsCell *c, StatsBy by, int32_t p)
{
    char buf[32];
    period_label(by, p, buf, sizeof buf);
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
        if (!job_ran(j) || !cluster_ok(in, o, j))
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
    StatsTable *t = tbl_new(rep, "groups", "Allocation policy replay, per group", fs_note,
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
        c[3].num = 100.0 * ratio(s->used_allocated, s->allocated);
        c[4].num = s->replayed;
        c[5].num = s->lost;
        if (s->first_blocked != INT64_MIN) /* else unknown: "-", an empty CSV cell */
            put_time(t, &c[6], s->first_blocked);
        c[7].num = s->days_blocked;
        c[8].num = s->factor;
        c[9].num = pi->params.w_fairshare * s->factor;
        if (pi->params.w_allocation > 0 && r->ndays) {
            size_t k = (size_t)g * r->ndays + r->ndays - 1;
            double left = 1.0 - ratio(r->replay_year[k], r->alloc[k]);
            c[9].num += pi->params.w_allocation * (left > 0 ? left : 0);
        }
    }
    free(order);
}

/* The days [d0, d1) of each period, walked in order. */
static size_t fs_period_end(const FsResult *r, StatsBy by, size_t d0, int32_t *p)
{
    *p = period_of(by, r->t0 + (int64_t)d0 * FS_DAY);
    size_t d = d0 + 1;
    while (d < r->ndays && period_of(by, r->t0 + (int64_t)d * FS_DAY) == *p)
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
    put_period(t, &c[0], by, p);
    stats_cell_set_text(t, &c[1], w->groups.v[g]);
    c[2].num = r->alloc[k];
    c[3].num = r->used_year[k];
    c[4].num = r->replay_year[k];
    c[5].num = 100.0 * ratio(r->used_year[k], r->alloc[k]);
    c[6].num = r->factor[k];
    c[7].num = isnan(r->alloc[k]) ? NAN : r->blocked[k];
    c[8].num = lost;
}

static void fs_series_tables(const PolicyInput *pi, const StatsOpts *o, const Owners *w,
                             const FsResult *r, StatsReport *rep)
{
    StatsTable *t = tbl_new(rep, "series", "Allocation policy replay over time", NULL,
                            fs_series_cols, sizeof fs_series_cols / sizeof fs_series_cols[0]);
    StatsTable *m = tbl_new(rep, "machine", "GPU-hours left unused under the replay",
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
        put_period(m, &c[0], o->by, p);
        c[1].num = in->ninventory ? cap : NAN;
        c[2].num = used;
        c[3].num = replay;
        c[4].num = in->ninventory ? cap - replay : NAN;
        c[5].num = 100.0 * ratio(c[4].num, cap);
    }
    free(order);
}

static void fs_blocks_table(const StatsOpts *o, const Owners *w, const FsResult *r,
                            const FsAlloc *al, size_t nal, StatsReport *rep)
{
    StatsTable *t = tbl_new(rep, "blocks", "When groups would have been blocked", NULL,
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
    int rc = check_filters(pi->stats, o, &w, err);
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

/* ---- energy and carbon ---- */

/* Per cluster: PUE, intensity series (a constant is a series of no hours)
 * and where they came from. */
typedef struct Site {
    double pue;
    const char *pue_src, *ci_src, *zone;
    EnergySeries series;
} Site;

/* Per (cluster, GPU type): TDP and where it came from. */
typedef struct Tdp {
    double w;
    const char *src;
} Tdp;

typedef struct Energy {
    const PolicyInput *pi;
    const StatsOpts *o;
    Owners w;
    Site *site;    /* per cluster id */
    Tdp *tdp;      /* cluster x type */
    size_t ntypes;
    double *kwh;   /* per job; NaN when not counted */
    double *kg;    /* per job */
    unsigned char *kept;
} Energy;

static const PolicySite *site_of(const PolicyInput *pi, const char *cluster)
{
    for (size_t i = 0; i < pi->nsites; i++)
        if (strcmp(pi->sites[i].cluster, cluster) == 0)
            return &pi->sites[i];
    return NULL;
}

/* The only zone of the series, or NULL when there are none or several. */
static const char *only_zone(const PolicyInput *pi)
{
    for (size_t i = 1; i < pi->ncarbon; i++)
        if (strcmp(pi->carbon[i].zone, pi->carbon[0].zone) != 0)
            return NULL;
    return pi->ncarbon ? pi->carbon[0].zone : NULL;
}

static void zone_series(const PolicyInput *pi, const char *zone, EnergySeries *s)
{
    int64_t *h = xmalloc((pi->ncarbon + 1) * sizeof *h);
    double *g = xmalloc((pi->ncarbon + 1) * sizeof *g);
    size_t n = 0;
    for (size_t i = 0; i < pi->ncarbon; i++)
        if (strcmp(pi->carbon[i].zone, zone) == 0) {
            h[n] = pi->carbon[i].hour;
            g[n++] = pi->carbon[i].g_per_kwh;
        }
    energy_series_build(s, h, g, n, ENERGY_INTENSITY_DEFAULT);
    free(h);
    free(g);
}

static void site_init(Site *s, const PolicyInput *pi, const char *cluster)
{
    const PolicySite *ps = site_of(pi, cluster);
    memset(s, 0, sizeof *s);
    s->pue = ps && !isnan(ps->pue) ? ps->pue : ENERGY_PUE_DEFAULT;
    s->pue_src = ps && !isnan(ps->pue) ? "site" : "default";
    s->zone = ps && ps->zone && ps->zone[0] ? ps->zone : ps ? NULL : only_zone(pi);
    if (s->zone) {
        zone_series(pi, s->zone, &s->series);
        if (s->series.given) {
            s->ci_src = ps ? "hourly series" : "hourly series (the only zone)";
            return;
        }
        energy_series_free(&s->series);
        s->zone = NULL;
    }
    double ci = ps && !isnan(ps->intensity) ? ps->intensity : ENERGY_INTENSITY_DEFAULT;
    s->ci_src = ps && !isnan(ps->intensity) ? "site" : "default";
    energy_series_build(&s->series, NULL, NULL, 0, ci);
}

/* 1 when an inventory model and a Slurm GPU type name the same GPU. */
static int model_match(const char *model, const char *type)
{
    char a[96], b[96];
    size_t o = 0, p = 0;
    for (const char *s = model; *s && o + 1 < sizeof a; s++)
        if ((*s >= '0' && *s <= '9') || ((*s | 32) >= 'a' && (*s | 32) <= 'z'))
            a[o++] = (char)(*s | ((*s >= 'A' && *s <= 'Z') ? 32 : 0));
    for (const char *s = type; *s && p + 1 < sizeof b; s++)
        if ((*s >= '0' && *s <= '9') || ((*s | 32) >= 'a' && (*s | 32) <= 'z'))
            b[p++] = (char)(*s | ((*s >= 'A' && *s <= 'Z') ? 32 : 0));
    a[o] = b[p] = '\0';
    return o && p && (strstr(a, b) || strstr(b, a));
}

/* TDP of one inventory model: its tdp_w, else the spec sheet's. */
static Tdp model_tdp(const PolicyInput *pi, const char *cluster, const char *model)
{
    for (size_t i = 0; i < pi->ntdp; i++)
        if (strcmp(pi->tdp[i].cluster, cluster) == 0 && model_match(pi->tdp[i].gpu_model, model))
            return (Tdp){pi->tdp[i].tdp_w, "inventory"};
    double w = energy_tdp_default(model);
    return isnan(w) ? (Tdp){ENERGY_TDP_FALLBACK, "assumed"} : (Tdp){w, "spec sheet"};
}

/* An untyped job: the GPU-weighted mean TDP of its cluster's inventory. */
static Tdp cluster_tdp(const PolicyInput *pi, const char *cluster)
{
    const StatsInput *in = pi->stats;
    double sum = 0, n = 0;
    const char *src = "spec sheet";
    for (size_t i = 0; i < in->ninventory; i++) {
        if (strcmp(in->inventory[i].cluster, cluster) != 0)
            continue;
        Tdp t = model_tdp(pi, cluster, in->inventory[i].gpu_model);
        sum += t.w * in->inventory[i].gpus;
        n += in->inventory[i].gpus;
        src = strcmp(t.src, "spec sheet") == 0 ? src : t.src;
    }
    return n > 0 ? (Tdp){sum / n, src} : (Tdp){ENERGY_TDP_FALLBACK, "assumed"};
}

static void tdp_init(Energy *e)
{
    const StatsInput *in = e->pi->stats;
    e->ntypes = in->gpu_types.n ? in->gpu_types.n : 1;
    e->tdp = xmalloc((in->clusters.n + 1) * e->ntypes * sizeof *e->tdp);
    for (size_t c = 0; c < in->clusters.n; c++) {
        const char *cl = name_of(&in->clusters, (int32_t)c);
        for (size_t t = 0; t < e->ntypes; t++) {
            const char *ty = t < in->gpu_types.n ? in->gpu_types.v[t] : NULL;
            e->tdp[c * e->ntypes + t] =
                ty && ty[0] ? model_tdp(e->pi, cl, ty) : cluster_tdp(e->pi, cl);
        }
    }
}

static const Tdp *job_tdp(const Energy *e, const StatsJob *j)
{
    size_t t = j->gpu_type < e->ntypes ? j->gpu_type : 0;
    return &e->tdp[(size_t)j->cluster * e->ntypes + t];
}

static void energy_jobs(Energy *e)
{
    const StatsInput *in = e->pi->stats;
    e->kwh = xmalloc((in->njobs + 1) * sizeof *e->kwh);
    e->kg = xmalloc((in->njobs + 1) * sizeof *e->kg);
    e->kept = xcalloc(in->njobs + 1, 1);
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        e->kwh[i] = e->kg[i] = NAN;
        if (!job_ran(j) || (size_t)j->cluster >= in->clusters.n)
            continue;
        e->kept[i] = cluster_ok(in, e->o, j) &&
                     (!e->o->group || strcmp(e->w.groups.v[e->w.group[i]], e->o->group) == 0);
        const Site *s = &e->site[j->cluster];
        e->kwh[i] = energy_kwh(j->gpus, j->elapsed / 3600.0, job_tdp(e, j)->w, j->gpu_util,
                               s->pue);
        e->kg[i] = energy_carbon_kg(
            e->kwh[i], energy_series_mean(&s->series, j->start, (int64_t)j->start + j->elapsed));
    }
}

static int energy_init(Energy *e, const PolicyInput *pi, const StatsOpts *o, CpErr *err)
{
    const StatsInput *in = pi->stats;
    memset(e, 0, sizeof *e);
    e->pi = pi;
    e->o = o;
    owners_init(&e->w, in);
    if (check_filters(in, o, &e->w, err) < 0) {
        owners_done(&e->w);
        return -1;
    }
    e->site = xcalloc(in->clusters.n + 1, sizeof *e->site);
    for (size_t c = 0; c < in->clusters.n; c++)
        site_init(&e->site[c], pi, name_of(&in->clusters, (int32_t)c));
    tdp_init(e);
    energy_jobs(e);
    return 0;
}

static void energy_done(Energy *e)
{
    for (size_t c = 0; c < e->pi->stats->clusters.n; c++)
        energy_series_free(&e->site[c].series);
    free(e->site);
    free(e->tdp);
    free(e->kwh);
    free(e->kg);
    free(e->kept);
    owners_done(&e->w);
}

/* Sums of one row. */
typedef struct ESum {
    double jobs, gpu_h, kwh, kwh_meas, gpu_h_meas, kg;
} ESum;

static void esum_add(ESum *s, const StatsJob *j, double kwh, double kg)
{
    double h = j->gpus * j->elapsed / 3600.0;
    s->jobs += 1;
    s->gpu_h += h;
    s->kwh += kwh;
    s->kg += kg;
    if (j->gpu_util >= 0) {
        s->gpu_h_meas += h;
        s->kwh_meas += kwh;
    }
}

/* The columns after the first, shared by the period, group and domain
 * tables. */
#define EN_SUM_COLS                                                                              \
    {"attempts", "runs", "", STATS_COL_INT, 0}, {"gpu_hours", "GPU-hours", "h", STATS_COL_REAL, 0}, \
        {"kwh", "energy kWh", "", STATS_COL_REAL, 1},                                            \
        {"measured_pct", "util measured", "%", STATS_COL_REAL, 1},                               \
        {"kwh_at_tdp", "kWh at TDP", "", STATS_COL_REAL, 1},                                     \
        {"kg_co2e", "kg CO2e", "", STATS_COL_REAL, 1}, {"g_per_kwh", "gCO2e/kWh", "", STATS_COL_REAL, 0}
static const StatsCol en_period_cols[] = {{"period", "period", "", STATS_COL_TEXT, 0}, EN_SUM_COLS};
static const StatsCol en_group_cols[] = {{"group", "group", "", STATS_COL_TEXT, 0}, EN_SUM_COLS};
static const StatsCol en_domain_cols[] = {{"domain", "domain", "", STATS_COL_TEXT, 0}, EN_SUM_COLS};
#define EN_NCOLS (sizeof en_period_cols / sizeof en_period_cols[0])

static const char en_note[] =
    "energy = GPUs x hours x TDP x utilisation x PUE / 1000, with the measured mean GPU "
    "utilisation where known (util measured: the share of GPU-hours), else the GPU at its TDP "
    "(kWh at TDP: the energy of those runs); carbon = energy x the cluster's intensity over "
    "the hours each run spans; a run counts in the period of its start";

/* kWh of j at TDP (its utilisation unmeasured): the kwh column's complement. */
static void esum_row(StatsTable *t, const char *key, const ESum *s)
{
    StatsCell *c = stats_table_add_row(t);
    stats_cell_set_text(t, &c[0], key);
    c[1].num = s->jobs;
    c[2].num = s->gpu_h;
    c[3].num = s->kwh;
    c[4].num = 100.0 * ratio(s->gpu_h_meas, s->gpu_h);
    c[5].num = s->kwh - s->kwh_meas;
    c[6].num = s->kg;
    c[7].num = 1000.0 * ratio(s->kg, s->kwh);
}

/* Sums by key (key[i] < nkeys per job, -1 skipped). */
static ESum *esum_by(const Energy *e, const int32_t *key, size_t nkeys)
{
    const StatsInput *in = e->pi->stats;
    ESum *s = xcalloc(nkeys + 1, sizeof *s);
    for (size_t i = 0; i < in->njobs; i++)
        if (e->kept[i] && key[i] >= 0)
            esum_add(&s[key[i]], &in->jobs[i], e->kwh[i], e->kg[i]);
    return s;
}

typedef struct NameIdx {
    const char *name;
    int32_t idx;
} NameIdx;

static int name_idx_cmp(const void *pa, const void *pb)
{
    return strcmp(((const NameIdx *)pa)->name, ((const NameIdx *)pb)->name);
}

static void esum_table(StatsTable *t, const ESum *s, const char *const *names, size_t n)
{
    NameIdx *order = xmalloc((n + 1) * sizeof *order);
    for (size_t i = 0; i < n; i++)
        order[i] = (NameIdx){names[i], (int32_t)i};
    qsort(order, n, sizeof *order, name_idx_cmp);
    for (size_t i = 0; i < n; i++)
        if (s[order[i].idx].jobs > 0)
            esum_row(t, order[i].name, &s[order[i].idx]);
    free(order);
}

/* The index of key in the sorted v[0..n), or where it would go. */
static size_t key_pos(const int32_t *v, size_t n, int32_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* per[i]: the period of job i's start (-1 when not kept); returns the
 * distinct periods, sorted, in *uniq (caller frees), per[i] becoming the
 * index into them. */
static size_t en_periods(const Energy *e, int32_t *per, int32_t **uniq)
{
    const StatsInput *in = e->pi->stats;
    size_t k = 0, cap = 16;
    int32_t *u = xmalloc(cap * sizeof *u);
    int64_t day = INT64_MIN;
    int32_t p = 0;
    for (size_t i = 0; i < in->njobs; i++) {
        if (e->kept[i] && civil_floor_div(in->jobs[i].start, 86400) != day) {
            day = civil_floor_div(in->jobs[i].start, 86400);
            p = period_of(e->o->by, in->jobs[i].start);
        }
        per[i] = e->kept[i] ? p : -1;
        size_t at = per[i] >= 0 ? key_pos(u, k, per[i]) : k;
        if (per[i] < 0 || (at < k && u[at] == per[i]))
            continue;
        if (k == cap)
            u = xrealloc(u, (cap *= 2) * sizeof *u);
        memmove(u + at + 1, u + at, (k - at) * sizeof *u);
        u[at] = per[i];
        k++;
    }
    for (size_t i = 0; i < in->njobs; i++)
        if (per[i] >= 0)
            per[i] = (int32_t)key_pos(u, k, per[i]);
    *uniq = u;
    return k;
}

static void en_period_table(const Energy *e, StatsReport *rep)
{
    const StatsInput *in = e->pi->stats;
    StatsTable *t = tbl_new(rep, "energy", "Energy and carbon per period", en_note,
                            en_period_cols, EN_NCOLS);
    int32_t *per = xmalloc((in->njobs + 1) * sizeof *per), *uniq;
    size_t k = en_periods(e, per, &uniq);
    ESum *s = esum_by(e, per, k);
    for (size_t i = 0; i < k; i++) {
        char buf[32];
        period_label(e->o->by, uniq[i], buf, sizeof buf);
        esum_row(t, buf, &s[i]);
    }
    ESum all = {0};
    for (size_t i = 0; i < k; i++) {
        all.jobs += s[i].jobs;
        all.gpu_h += s[i].gpu_h;
        all.kwh += s[i].kwh;
        all.kwh_meas += s[i].kwh_meas;
        all.gpu_h_meas += s[i].gpu_h_meas;
        all.kg += s[i].kg;
    }
    if (k > 1 || e->o->by != STATS_BY_ALL)
        esum_row(t, "total", &all);
    free(s);
    free(uniq);
    free(per);
}

static void en_owner_tables(const Energy *e, StatsReport *rep)
{
    const StatsInput *in = e->pi->stats;
    ESum *g = xcalloc(e->w.groups.n + 1, sizeof *g), *d = xcalloc(e->w.domains.n + 1, sizeof *d);
    for (size_t i = 0; i < in->njobs; i++)
        if (e->kept[i]) {
            esum_add(&g[e->w.group[i]], &in->jobs[i], e->kwh[i], e->kg[i]);
            esum_add(&d[e->w.domain[i]], &in->jobs[i], e->kwh[i], e->kg[i]);
        }
    StatsTable *t = tbl_new(rep, "groups", "Energy and carbon per group", NULL, en_group_cols,
                            EN_NCOLS);
    esum_table(t, g, e->w.groups.v, e->w.groups.n);
    t = tbl_new(rep, "domains", "Energy and carbon per research domain", NULL, en_domain_cols,
                EN_NCOLS);
    esum_table(t, d, e->w.domains.v, e->w.domains.n);
    free(g);
    free(d);
}

static const StatsCol en_cluster_cols[] = {
    {"cluster", "cluster", "", STATS_COL_TEXT, 0},
    {"pue", "PUE", "", STATS_COL_REAL, 2},
    {"pue_source", "PUE from", "", STATS_COL_TEXT, 0},
    {"g_per_kwh", "gCO2e/kWh", "", STATS_COL_REAL, 0},
    {"intensity_source", "intensity from", "", STATS_COL_TEXT, 0},
    {"zone", "zone", "", STATS_COL_TEXT, 0},
    {"tdp_w", "TDP W", "", STATS_COL_REAL, 0},
    {"tdp_source", "TDP from", "", STATS_COL_TEXT, 0},
    {"kwh", "energy kWh", "", STATS_COL_REAL, 1},
    {"kg_co2e", "kg CO2e", "", STATS_COL_REAL, 1},
};
static const char en_cluster_note[] =
    "defaults: PUE 1.2; intensity 480 gCO2e/kWh (world average 2023, Ember); TDP from the "
    "vendors' spec sheets where the inventory has no tdp_w; TDP W: GPU-hour-weighted mean";

/* Per cluster: energy, carbon, TDP x GPU-hours, GPU-hours, and where the
 * TDPs came from (NULL: no run; "mixed"). */
typedef struct CSum {
    double kwh, kg, wh, h;
    const char *src;
} CSum;

static CSum *csum_by_cluster(const Energy *e)
{
    const StatsInput *in = e->pi->stats;
    CSum *sum = xcalloc(in->clusters.n + 1, sizeof *sum);
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        if (!e->kept[i] || (size_t)j->cluster >= in->clusters.n)
            continue;
        CSum *s = &sum[j->cluster];
        const Tdp *tdp = job_tdp(e, j);
        double gh = j->gpus * j->elapsed / 3600.0;
        s->kwh += e->kwh[i];
        s->kg += e->kg[i];
        s->wh += tdp->w * gh;
        s->h += gh;
        s->src = !s->src || strcmp(s->src, tdp->src) == 0 ? tdp->src : "mixed";
    }
    return sum;
}

static void en_cluster_table(const Energy *e, StatsReport *rep)
{
    const StatsInput *in = e->pi->stats;
    StatsTable *t = tbl_new(rep, "clusters", "Energy and carbon per cluster: assumptions",
                            en_cluster_note, en_cluster_cols,
                            sizeof en_cluster_cols / sizeof en_cluster_cols[0]);
    CSum *sum = csum_by_cluster(e);
    for (size_t c = 0; c < in->clusters.n; c++) {
        const char *name = name_of(&in->clusters, (int32_t)c);
        if (!name[0] || (e->o->cluster && strcmp(e->o->cluster, name) != 0))
            continue;
        const CSum *cs = &sum[c];
        const Site *s = &e->site[c];
        StatsCell *r = stats_table_add_row(t);
        stats_cell_set_text(t, &r[0], name);
        r[1].num = s->pue;
        stats_cell_set_text(t, &r[2], s->pue_src);
        r[3].num = cs->h > 0 ? 1000.0 * ratio(cs->kg, cs->kwh) : s->series.fill;
        stats_cell_set_text(t, &r[4], s->ci_src);
        stats_cell_set_text(t, &r[5], s->zone ? s->zone : "");
        r[6].num = ratio(cs->wh, cs->h);
        stats_cell_set_text(t, &r[7], cs->src ? cs->src : "");
        r[8].num = cs->kwh;
        r[9].num = cs->kg;
    }
    free(sum);
}

/* ---- temporal shifting ---- */

/* preemptible[id]: the partition saw a preemption or its name says so (as
 * `stats preemption` decides). */
static unsigned char *preemptible(const StatsInput *in)
{
    unsigned char *p = xcalloc(in->partitions.n + 1, 1);
    for (size_t i = 0; i < in->partitions.n; i++) {
        const char *n = in->partitions.v[i];
        p[i] = n && (strstr(n, "preempt") || strstr(n, "scaveng") || strstr(n, "spot"));
    }
    for (size_t i = 0; i < in->njobs; i++)
        if (in->jobs[i].state == STATS_ST_PREEMPTED && (size_t)in->jobs[i].partition < in->partitions.n)
            p[in->jobs[i].partition] = 1;
    return p;
}

/* GPUs in service per cluster and hour from t0 (NULL: no inventory). */
static double *capacity_grid(const StatsInput *in, int64_t t0, size_t nhours)
{
    if (!in->ninventory)
        return NULL;
    double *cap = xmalloc((in->clusters.n * nhours + 1) * sizeof *cap);
    for (size_t c = 0; c < in->clusters.n; c++) {
        const char *name = name_of(&in->clusters, (int32_t)c);
        int known = 0;
        for (size_t k = 0; k < in->ninventory; k++)
            known |= strcmp(in->inventory[k].cluster, name) == 0;
        for (size_t h = 0; h < nhours; h++) {
            int64_t a = t0 + (int64_t)h * HOUR;
            cap[c * nhours + h] =
                known ? stats_capacity_hours(in->inventory, in->ninventory, name, a, a + HOUR)
                      : -1;
        }
    }
    return cap;
}

static const StatsCol en_shift_cols[] = {
    {"cluster", "cluster", "", STATS_COL_TEXT, 0},
    {"movable", "preemptible runs", "", STATS_COL_INT, 0},
    {"moved", "moved", "", STATS_COL_INT, 0},
    {"kg_before", "kg CO2e", "", STATS_COL_REAL, 1},
    {"kg_after", "kg shifted", "", STATS_COL_REAL, 1},
    {"kg_saved", "kg saved", "", STATS_COL_REAL, 1},
    {"saved_pct", "saved", "%", STATS_COL_REAL, 1},
    {"delay_h", "delay h", "", STATS_COL_INT, 0},
    {"capacity", "capacity", "", STATS_COL_TEXT, 0},
};
static const char en_shift_note[] =
    "runs on preemptible partitions moved, in start order, to the start within the delay "
    "(whole hours) where their carbon is least, if they fit the GPUs the other runs leave "
    "free in every hour; only clusters with an hourly series can save anything";

/* The shift's jobs (every run: the others fill the capacity). */
static EnergyShiftJob *shift_jobs(const Energy *e, const unsigned char *pre, int64_t *t0,
                                  int64_t *t1)
{
    const StatsInput *in = e->pi->stats;
    EnergyShiftJob *v = xcalloc(in->njobs + 1, sizeof *v);
    *t0 = INT64_MAX;
    *t1 = INT64_MIN;
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        v[i].cluster = -1;
        if (isnan(e->kwh[i]))
            continue;
        v[i].cluster = j->cluster;
        v[i].start = j->start;
        v[i].run_s = j->elapsed;
        v[i].gpus = j->gpus;
        v[i].kwh = e->kwh[i];
        v[i].movable = e->kept[i] && pre[j->partition];
        *t0 = v[i].start < *t0 ? v[i].start : *t0;
        *t1 = v[i].start + v[i].run_s > *t1 ? v[i].start + v[i].run_s : *t1;
    }
    return v;
}

/* Per cluster (and nclusters: all): movable runs, moved, kg before, after. */
typedef struct ShiftSum {
    double n, moved, before, after;
} ShiftSum;

static void shift_sum_add(ShiftSum *s, const EnergyShiftJob *v, const EnergyShiftOut *out)
{
    s->n++;
    s->moved += out->new_start != v->start;
    s->before += out->kg_before;
    s->after += out->kg_after;
}

static void shift_rows(const Energy *e, StatsTable *t, const EnergyShiftJob *v,
                       const EnergyShiftOut *out, int capped)
{
    const StatsInput *in = e->pi->stats;
    size_t nc = in->clusters.n;
    ShiftSum *sum = xcalloc(nc + 1, sizeof *sum);
    for (size_t i = 0; i < in->njobs; i++)
        if (v[i].movable) {
            if ((size_t)v[i].cluster < nc)
                shift_sum_add(&sum[v[i].cluster], &v[i], &out[i]);
            shift_sum_add(&sum[nc], &v[i], &out[i]);
        }
    for (size_t c = 0; c <= nc; c++) {
        int all = c == nc;
        const char *name = all ? "all" : name_of(&in->clusters, (int32_t)c);
        if (!name[0] || (!all && e->o->cluster && strcmp(e->o->cluster, name) != 0))
            continue;
        const ShiftSum *s = &sum[c];
        StatsCell *r = stats_table_add_row(t);
        stats_cell_set_text(t, &r[0], name);
        r[1].num = s->n;
        r[2].num = s->moved;
        r[3].num = s->before;
        r[4].num = s->after;
        r[5].num = s->before - s->after;
        r[6].num = 100.0 * ratio(s->before - s->after, s->before);
        r[7].num = e->pi->shift_delay_h;
        stats_cell_set_text(t, &r[8], capped ? "inventory" : "unconstrained (no inventory)");
    }
    free(sum);
}

static void en_shift_table(const Energy *e, StatsReport *rep)
{
    const StatsInput *in = e->pi->stats;
    StatsTable *t = tbl_new(rep, "shifting", "Temporal shifting of preemptible runs",
                            en_shift_note, en_shift_cols,
                            sizeof en_shift_cols / sizeof en_shift_cols[0]);
    unsigned char *pre = preemptible(in);
    int64_t t0, t1;
    EnergyShiftJob *v = shift_jobs(e, pre, &t0, &t1);
    EnergyShiftOut *out = xcalloc(in->njobs + 1, sizeof *out);
    const EnergySeries **series = xmalloc((in->clusters.n + 1) * sizeof *series);
    for (size_t c = 0; c < in->clusters.n; c++)
        series[c] = &e->site[c].series;
    EnergyShiftGrid g = {(int32_t)in->clusters.n, 0, 0, NULL, series};
    double *cap = NULL;
    if (t1 > t0) {
        g.t0 = t0 - ((t0 % HOUR) + HOUR) % HOUR;
        g.nhours = (size_t)((t1 - g.t0) / HOUR) + (size_t)e->pi->shift_delay_h + 2;
        cap = capacity_grid(in, g.t0, g.nhours);
        g.cap = cap;
        energy_shift(&g, v, in->njobs, e->pi->shift_delay_h, out);
    }
    shift_rows(e, t, v, out, g.cap != NULL);
    free(cap);
    free(series);
    free(out);
    free(v);
    free(pre);
}

/* ---- the projected demand ---- */

static const StatsCol en_proj_cols[] = {
    {"year", "year", "", STATS_COL_TEXT, 0},
    {"gpus", "GPUs", "", STATS_COL_REAL, 1},
    {"util_pct", "util", "%", STATS_COL_REAL, 1},
    {"tdp_w", "TDP W", "", STATS_COL_REAL, 0},
    {"pue", "PUE", "", STATS_COL_REAL, 2},
    {"mwh", "energy MWh", "", STATS_COL_REAL, 1},
    {"g_per_kwh", "gCO2e/kWh", "", STATS_COL_REAL, 0},
    {"t_co2e", "t CO2e", "", STATS_COL_REAL, 1},
};
static const char en_proj_note[] =
    "projected demand: GPUs x 8760 h x the measured mean GPU utilisation (runs where "
    "measured, GPU-hour weighted) x the measured mean TDP x PUE, at the measured mean "
    "intensity (all GPU-hour weighted over the runs above)";

static void en_proj_table(const Energy *e, StatsReport *rep)
{
    const PolicyInput *pi = e->pi;
    const StatsInput *in = pi->stats;
    double h = 0, hu = 0, u = 0, wh = 0, pue = 0, kwh = 0, kg = 0;
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        if (!e->kept[i])
            continue;
        double gh = j->gpus * j->elapsed / 3600.0;
        h += gh;
        wh += job_tdp(e, j)->w * gh;
        pue += e->site[j->cluster].pue * gh;
        kwh += e->kwh[i];
        kg += e->kg[i];
        if (j->gpu_util >= 0) {
            hu += gh;
            u += j->gpu_util * gh;
        }
    }
    StatsTable *t = tbl_new(rep, "projection", "Energy and carbon of the projected demand",
                            en_proj_note, en_proj_cols,
                            sizeof en_proj_cols / sizeof en_proj_cols[0]);
    double util = hu > 0 ? u / hu : 100.0, tdp = h > 0 ? wh / h : ENERGY_TDP_FALLBACK;
    double p = h > 0 ? pue / h : ENERGY_PUE_DEFAULT;
    double ci = kwh > 0 ? 1000.0 * kg / kwh : ENERGY_INTENSITY_DEFAULT;
    for (size_t y = 0; y < pi->nproj; y++) {
        StatsCell *c = stats_table_add_row(t);
        char year[16];
        snprintf(year, sizeof year, "%d", (int)pi->proj_year[y]);
        stats_cell_set_text(t, &c[0], year);
        c[1].num = pi->proj_gpus[y];
        c[2].num = util;
        c[3].num = tdp;
        c[4].num = p;
        c[5].num = energy_kwh(pi->proj_gpus[y], 8760.0, tdp, util, p) / 1000.0;
        c[6].num = ci;
        c[7].num = energy_carbon_kg(c[5].num * 1000.0, ci) / 1000.0;
    }
}

int policy_energy(const PolicyInput *pi, const StatsOpts *o, StatsReport *out, CpErr *err)
{
    memset(out, 0, sizeof *out);
    out->kind = STATS_KIND_COUNT;
    out->by = o->by;
    Energy e;
    if (energy_init(&e, pi, o, err) < 0)
        return -1;
    en_period_table(&e, out);
    en_owner_tables(&e, out);
    en_cluster_table(&e, out);
    en_shift_table(&e, out);
    if (pi->nproj)
        en_proj_table(&e, out);
    energy_done(&e);
    return 0;
}
