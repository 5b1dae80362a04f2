/* stats_ctx: what every kind shares: the roster (who is in which group and
 * domain, when), the filters, periods, the window and capacity (see
 * stats_int.h). */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/stats_int.h"

/* ---- the roster: who is in which group and domain, when ---- */



static int line_cmp(const void *pa, const void *pb)
{
    const StatsPerson *a = *(const StatsPerson *const *)pa, *b = *(const StatsPerson *const *)pb;
    int c = strcmp(a->user, b->user);
    if (c)
        return c;
    return (a->start > b->start) - (a->start < b->start);
}

static void group_domain_set(Roster *r, int32_t g, int32_t d, int force)
{
    if ((size_t)g >= r->ngroup_domain) {
        size_t n = (size_t)g + 32;
        r->group_domain = xrealloc(r->group_domain, n * sizeof *r->group_domain);
        for (size_t i = r->ngroup_domain; i < n; i++)
            r->group_domain[i] = -1;
        r->ngroup_domain = n;
    }
    if (force || r->group_domain[g] < 0)
        r->group_domain[g] = d;
}

int32_t stats_group_domain(const Roster *r, int32_t g)
{
    int32_t d = (size_t)g < r->ngroup_domain ? r->group_domain[g] : -1;
    return d >= 0 ? d : r->unknown_domain;
}

/* Users' lines, indexed by user id through the users' names. */
static void roster_index_users(Roster *r, const StatsNames *users)
{
    StrMap *first = strmap_new();
    for (size_t i = 0; i < r->nlines; i++)
        if (i == 0 || strcmp(r->lines[i]->user, r->lines[i - 1]->user) != 0)
            strmap_put(first, r->lines[i]->user, strlen(r->lines[i]->user), (int64_t)i);
    r->nusers = users->n;
    r->ufirst = xcalloc(users->n + 1, sizeof *r->ufirst);
    r->ucount = xcalloc(users->n + 1, sizeof *r->ucount);
    for (size_t u = 0; u < users->n; u++) {
        int64_t i;
        const char *name = users->v[u];
        if (!name || !strmap_get(first, name, strlen(name), &i))
            continue;
        r->ufirst[u] = (int32_t)i;
        size_t j = (size_t)i;
        while (j < r->nlines && strcmp(r->lines[j]->user, name) == 0)
            j++;
        r->ucount[u] = (int32_t)(j - (size_t)i);
    }
    strmap_free(first);
}

static void roster_init(Roster *r, const StatsInput *in)
{
    memset(r, 0, sizeof *r);
    stats_dict_init(&r->groups);
    stats_dict_init(&r->domains);
    r->unknown_domain = stats_dict_id(&r->domains, UNKNOWN_DOMAIN);
    for (size_t i = 0; i < in->ngroups; i++) {
        int32_t g = stats_dict_id(&r->groups, in->groups[i].name);
        if (in->groups[i].domain && in->groups[i].domain[0])
            group_domain_set(r, g, stats_dict_id(&r->domains, in->groups[i].domain), 1);
    }
    r->nlines = in->npeople;
    r->lines = xmalloc((r->nlines + 1) * sizeof *r->lines);
    for (size_t i = 0; i < r->nlines; i++)
        r->lines[i] = &in->people[i];
    qsort(r->lines, r->nlines, sizeof *r->lines, line_cmp);
    r->line_group = xmalloc((r->nlines + 1) * sizeof *r->line_group);
    r->line_domain = xmalloc((r->nlines + 1) * sizeof *r->line_domain);
    for (size_t i = 0; i < r->nlines; i++) {
        const StatsPerson *p = r->lines[i];
        r->line_group[i] = stats_dict_id(&r->groups, p->group);
        r->line_domain[i] = p->domain && p->domain[0] ? stats_dict_id(&r->domains, p->domain) : -1;
        if (r->line_domain[i] >= 0)
            group_domain_set(r, r->line_group[i], r->line_domain[i], 0);
    }
    for (size_t i = 0; i < r->nlines; i++)
        if (r->line_domain[i] < 0)
            r->line_domain[i] = stats_group_domain(r, r->line_group[i]);
    roster_index_users(r, &in->users);
    r->naccounts = in->accounts.n ? in->accounts.n : 1;
    r->acct_group = xmalloc(r->naccounts * sizeof *r->acct_group);
    for (size_t a = 0; a < r->naccounts; a++) {
        const char *name = a < in->accounts.n ? in->accounts.v[a] : NULL;
        r->acct_group[a] = stats_dict_id(&r->groups, name && name[0] ? name : "(none)");
    }
    stats_dict_rank(&r->groups);
    stats_dict_rank(&r->domains);
}

static void roster_done(Roster *r)
{
    stats_dict_done(&r->groups);
    stats_dict_done(&r->domains);
    free(r->lines);
    free(r->line_group);
    free(r->line_domain);
    free(r->ufirst);
    free(r->ucount);
    free(r->acct_group);
    free(r->group_domain);
}

/* The roster line of user at t: in force, else the latest started,
 * else the earliest to come; -1 when the roster does not know the user. */
static long roster_line(const Roster *r, int32_t user, int64_t t)
{
    if (user <= 0 || (size_t)user >= r->nusers || r->ucount[user] == 0)
        return -1;
    long first = r->ufirst[user], n = r->ucount[user], best = first;
    if (n == 1)
        return first;
    int rank = 0;
    for (long j = first; j < first + n; j++) {
        const StatsPerson *p = r->lines[j];
        int started = p->start == STATS_TIME_NONE || p->start <= t;
        int k = !started ? 1 : (p->end == STATS_TIME_NONE || p->end > t) ? 3 : 2;
        if (k > rank || (k == rank && k >= 2)) {
            rank = k;
            best = j;
        }
    }
    return best;
}

/* Group and domain of a user (with their account) at t. */
static void roster_who(const Roster *r, int32_t user, int32_t account, int64_t t, int32_t *group,
                       int32_t *domain)
{
    long line = roster_line(r, user, t);
    if (line >= 0) {
        *group = r->line_group[line];
        *domain = r->line_domain[line];
        return;
    }
    *group = r->acct_group[account > 0 && (size_t)account < r->naccounts ? account : 0];
    *domain = stats_group_domain(r, *group);
}

/* ---- what every kind shares: filters, periods, capacity ---- */


int stats_str_eq(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

int32_t stats_names_find(const StatsNames *n, const char *name)
{
    for (size_t i = 0; i < n->n; i++)
        if (stats_str_eq(n->v[i], name))
            return (int32_t)i;
    return -1;
}

const char *stats_name_or(const StatsNames *n, int32_t id, const char *none)
{
    return id > 0 && (size_t)id < n->n && n->v[id] && n->v[id][0] ? n->v[id] : none;
}

/* A job's times as epoch seconds, STATS_TIME_NONE when unknown. */
int64_t stats_jsub(const StatsJob *j)
{
    return j->submit ? (int64_t)j->submit : STATS_TIME_NONE;
}

int64_t stats_jstart(const StatsJob *j)
{
    return j->start ? (int64_t)j->start : STATS_TIME_NONE;
}

/* id when names know it, else 0 (unknown): safe to index rank tables. */
int32_t stats_name_id(const StatsNames *n, int32_t id)
{
    return id > 0 && (size_t)id < n->n ? id : 0;
}

int64_t stats_job_anchor(const StatsJob *j)
{
    return stats_jstart(j) != STATS_TIME_NONE ? stats_jstart(j) : stats_jsub(j);
}

/* End of the run, or STATS_TIME_NONE when it did not run. */
int64_t stats_job_end(const StatsJob *j)
{
    if (stats_jstart(j) == STATS_TIME_NONE || j->elapsed < 0)
        return STATS_TIME_NONE;
    return stats_jstart(j) + j->elapsed;
}

/* The window: first submission to the last time recorded (the jobs'),
 * else the months usage covers. */
void stats_window(const StatsInput *in, int64_t *from, int64_t *to)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        int64_t a = stats_jsub(j) != STATS_TIME_NONE ? stats_jsub(j) : stats_jstart(j);
        int64_t e = stats_job_end(j);
        int64_t b = e != STATS_TIME_NONE ? e : stats_job_anchor(j);
        if (a != STATS_TIME_NONE && a > 0 && a < lo)
            lo = a;
        if (b != STATS_TIME_NONE && b > hi)
            hi = b;
    }
    if (in->njobs == 0 && in->has_cells) {
        *from = in->win_from;
        *to = in->win_to < in->win_from ? in->win_from : in->win_to;
        return;
    }
    for (size_t i = 0; i < in->nusage && in->njobs == 0; i++) {
        int32_t m = in->usage[i].month;
        if (stats_month_start(m) < lo)
            lo = stats_month_start(m);
        if (stats_month_start(stats_month_add(m, 1)) > hi)
            hi = stats_month_start(stats_month_add(m, 1));
    }
    *from = lo == INT64_MAX ? 0 : lo;
    *to = hi == INT64_MIN || hi < *from ? *from : hi;
}

static void ctx_window(Ctx *c)
{
    stats_window(c->in, &c->w0, &c->w1);
}

/* yyyymm of t, remembering the last month's bounds (jobs come roughly
 * in time order, so most calls cost two comparisons). */
typedef struct MonthCache {
    int64_t from, to;
    int32_t m;
} MonthCache;

static int32_t month_cached(MonthCache *mc, int64_t t)
{
    if (t >= mc->from && t < mc->to)
        return mc->m;
    mc->m = stats_month_of(t);
    mc->from = stats_month_start(mc->m);
    mc->to = stats_month_start(stats_month_add(mc->m, 1));
    return mc->m;
}

int stats_cluster_kept(const Ctx *c, int32_t cluster)
{
    return c->o->cluster == NULL || cluster == c->cluster;
}

/* Each attempt's month, group and whether the filters keep it (an
 * attempt with no time at all is kept by none: usage_month skips it too). */
static void ctx_jobs(Ctx *c)
{
    const StatsInput *in = c->in;
    size_t n = in->njobs;
    MonthCache mc = {1, 0, 0};
    c->jmonth = xmalloc((n + 1) * sizeof *c->jmonth);
    c->jgroup = xmalloc((n + 1) * sizeof *c->jgroup);
    c->jkept = xmalloc(n + 1);
    for (size_t i = 0; i < n; i++) {
        const StatsJob *j = &in->jobs[i];
        int64_t t = stats_job_anchor(j);
        c->jmonth[i] = t == STATS_TIME_NONE ? 0 : month_cached(&mc, t);
        int32_t domain;
        roster_who(&c->ro, j->user, j->account, t, &c->jgroup[i], &domain);
        c->jkept[i] = (unsigned char)(t != STATS_TIME_NONE && stats_cluster_kept(c, j->cluster) &&
                                      (c->group < 0 || c->jgroup[i] == c->group));
    }
}

static int64_t month_mid(int32_t yyyymm);

/* Group of a key's user (with its account) at the middle of its month;
 * -1 for a key that sums every user. */
static int32_t key_group(const Ctx *c, const StatsCellKey *k)
{
    int32_t g, d;
    if (k->user < 0)
        return -1;
    roster_who(&c->ro, k->user, k->account, month_mid(k->month), &g, &d);
    return g;
}

int32_t stats_month_group(const Ctx *c, int32_t user, int32_t account, int32_t month)
{
    int32_t g, d;
    roster_who(&c->ro, user, account, month_mid(month), &g, &d);
    return g;
}

static int key_kept(const Ctx *c, const StatsCellKey *k, int32_t group)
{
    return stats_cluster_kept(c, k->cluster) && (c->group < 0 || (group >= 0 && group == c->group));
}

/* The aggregates, for a kind that reads them: the input's, else made
 * from its jobs (per user: with --group, always from the jobs, so that
 * the group applies to every figure); each cell's group and whether the
 * filters keep it. */
static void ctx_cells(Ctx *c)
{
    const StatsInput *in = c->in;
    int wanted = (stats_kind_needs(c->o->kind) & STATS_NEED_CELLS) != 0;
    if (wanted && in->njobs > 0 && (!in->has_cells || c->o->group)) {
        StatsCellsBuild *b = stats_cells_build_new(1);
        for (size_t i = 0; i < in->njobs; i++)
            stats_cells_build_job(b, &in->jobs[i]);
        stats_cells_buf_from(&c->own, b);
        stats_cells_build_free(b);
        c->cl = c->own.c;
        c->has_cells = 1;
    } else if (wanted && in->has_cells) {
        c->cl = in->cells;
        c->has_cells = 1;
    }
    const StatsCells *cl = &c->cl;
    c->cgroup = xmalloc((cl->ncells + 1) * sizeof *c->cgroup);
    c->ckept = xmalloc(cl->ncells + 1);
    for (size_t i = 0; i < cl->ncells; i++) {
        c->cgroup[i] = key_group(c, &cl->cells[i].k);
        c->ckept[i] = (unsigned char)key_kept(c, &cl->cells[i].k, c->cgroup[i]);
    }
    c->hkept = xmalloc(cl->nhkeys + 1);
    c->hgroup = xmalloc((cl->nhkeys + 1) * sizeof *c->hgroup);
    for (size_t i = 0; i < cl->nhkeys; i++) {
        c->hgroup[i] = key_group(c, &cl->hkeys[i]);
        c->hkept[i] = (unsigned char)key_kept(c, &cl->hkeys[i], c->hgroup[i]);
    }
    c->heat_kept = xmalloc(cl->nheat + 1);
    for (size_t i = 0; i < cl->nheat; i++)
        c->heat_kept[i] = (unsigned char)key_kept(c, &cl->heat[i].k, key_group(c, &cl->heat[i].k));
}

int stats_inventory_has(const StatsInput *in, const char *cluster)
{
    for (size_t i = 0; i < in->ninventory; i++)
        if (stats_str_eq(in->inventory[i].cluster, cluster))
            return 1;
    return 0;
}

int stats_ctx_init(Ctx *c, const StatsInput *in, const StatsOpts *o, CpErr *err)
{
    memset(c, 0, sizeof *c);
    c->in = in;
    c->o = o;
    c->group = -1;
    roster_init(&c->ro, in);
    ctx_window(c);
    c->cluster_rank = stats_names_rank(in->clusters.v, in->clusters.n);
    c->part_rank = stats_names_rank(in->partitions.v, in->partitions.n);
    c->user_rank = stats_names_rank(in->users.v, in->users.n);
    if (o->cluster) {
        c->cluster = stats_names_find(&in->clusters, o->cluster);
        if (c->cluster <= 0 && !stats_inventory_has(in, o->cluster))
            return cp_err_set(err, "no cluster named '%s' in the accounting or the inventory",
                              o->cluster);
        if (c->cluster <= 0)
            c->cluster = -1;
    }
    if (o->group) {
        c->group = stats_dict_find(&c->ro.groups, o->group);
        if (c->group < 0)
            return cp_err_set(err, "no group named '%s' in the roster or the accounts", o->group);
    }
    ctx_jobs(c);
    ctx_cells(c);
    return 0;
}

void stats_ctx_done(Ctx *c)
{
    roster_done(&c->ro);
    free(c->cluster_rank);
    free(c->part_rank);
    free(c->user_rank);
    free(c->jmonth);
    free(c->jgroup);
    free(c->jkept);
    free(c->cgroup);
    free(c->ckept);
    free(c->hkept);
    free(c->hgroup);
    free(c->heat_kept);
    stats_cells_buf_done(&c->own);
}

int stats_cluster_name_kept(const Ctx *c, const char *name)
{
    return c->o->cluster == NULL || stats_str_eq(name, c->o->cluster);
}

/* Attempt i passes the filters. */
int stats_job_kept(const Ctx *c, size_t i)
{
    return c->jkept[i];
}

static int64_t month_mid(int32_t yyyymm)
{
    return stats_month_start(yyyymm) + 14 * DAY;
}

int stats_usage_kept(const Ctx *c, const StatsUsage *u, int32_t *group, int32_t *domain)
{
    if (!stats_cluster_kept(c, u->cluster))
        return 0;
    roster_who(&c->ro, u->user, u->account, month_mid(u->month), group, domain);
    return c->group < 0 || *group == c->group;
}

/* Periods: a month (yyyymm), a year (yyyy) or 0 for everything. */
int32_t stats_period_of_month(const Ctx *c, int32_t yyyymm)
{
    return c->o->by == STATS_BY_MONTH ? yyyymm : c->o->by == STATS_BY_YEAR ? yyyymm / 100 : 0;
}

int32_t stats_period_of(const Ctx *c, int64_t t)
{
    return stats_period_of_month(c, stats_month_of(t));
}

int32_t stats_job_period(const Ctx *c, size_t i)
{
    return stats_period_of_month(c, c->jmonth[i]);
}

void stats_period_bounds(const Ctx *c, int32_t p, int64_t *from, int64_t *to)
{
    if (c->o->by == STATS_BY_MONTH) {
        *from = stats_month_start(p);
        *to = stats_month_start(stats_month_add(p, 1));
    } else if (c->o->by == STATS_BY_YEAR) {
        *from = civil_days(p, 1, 1) * DAY;
        *to = civil_days(p + 1, 1, 1) * DAY;
    } else {
        *from = c->w0;
        *to = c->w1;
    }
}

static void period_label(const Ctx *c, int32_t p, char *buf, size_t n)
{
    if (c->o->by == STATS_BY_MONTH)
        snprintf(buf, n, "%04d-%02d", p / 100, p % 100);
    else if (c->o->by == STATS_BY_YEAR)
        snprintf(buf, n, "%04d", p);
    else
        snprintf(buf, n, "all");
}

void stats_put_period(const Ctx *c, StatsTable *t, StatsCell *cell, int32_t p)
{
    char buf[16];
    period_label(c, p, buf, sizeof buf);
    stats_cell_set_text(t, cell, buf);
}

/* Every period from the window's first to its last. Caller frees. */
int32_t *stats_periods_list(const Ctx *c, size_t *n)
{
    *n = 0;
    if (c->w1 <= c->w0)
        return NULL;
    int32_t first = stats_period_of(c, c->w0), last = stats_period_of(c, c->w1 - 1);
    size_t cap = 16;
    int32_t *v = xmalloc(cap * sizeof *v);
    for (int32_t p = first;;) {
        if (*n == cap)
            v = xrealloc(v, (cap *= 2) * sizeof *v);
        v[(*n)++] = p;
        if (p >= last || c->o->by == STATS_BY_ALL)
            break;
        p = c->o->by == STATS_BY_MONTH ? stats_month_add(p, 1) : p + 1;
    }
    return v;
}

double stats_capacity_hours(const StatsGpus *inv, size_t n, const char *cluster, int64_t from,
                            int64_t to)
{
    double h = 0;
    for (size_t i = 0; i < n; i++) {
        const StatsGpus *g = &inv[i];
        if (cluster && !stats_str_eq(g->cluster, cluster))
            continue;
        int64_t a = g->from == STATS_TIME_NONE || g->from < from ? from : g->from;
        int64_t b = g->to == STATS_TIME_NONE || g->to > to ? to : g->to;
        if (b > a)
            h += g->gpus * (double)(b - a) / HOUR;
    }
    return h;
}

/* Capacity of cluster (NULL: the --cluster one, else all) over [from,
 * to) inside the window. */
double stats_ctx_capacity(const Ctx *c, const char *cluster, int64_t from, int64_t to)
{
    if (from < c->w0)
        from = c->w0;
    if (to > c->w1)
        to = c->w1;
    if (to <= from)
        return 0;
    if (!cluster)
        cluster = c->o->cluster;
    return stats_capacity_hours(c->in->inventory, c->in->ninventory, cluster, from, to);
}

/* GPUs of a job's count, in classes: 0, <1 (a MIG slice), 1, 2, 3-4,
 * 5-8, >8. */
const char *const stats_gpu_class_name[] = {"0", "<1", "1", "2", "3-4", "5-8", ">8"};

int32_t stats_gpu_class(float g)
{
    if (g <= 0)
        return 0;
    if (g < 1)
        return 1;
    if (g <= 1)
        return 2;
    if (g <= 2)
        return 3;
    if (g <= 4)
        return 4;
    return g <= 8 ? 5 : 6;
}

/* ---- waits and the hour of the week, shared by several kinds ---- */

/* Time from the job's first submission to the end of its final run, for
 * a completed final attempt; -1 otherwise. */
double stats_job_tts(const StatsJob *j)
{
    int64_t end = stats_job_end(j);
    if (!(j->flags & STATS_JOB_FINAL) || j->state != STATS_ST_COMPLETED || end == STATS_TIME_NONE ||
        stats_jsub(j) == STATS_TIME_NONE)
        return -1;
    int64_t first = stats_jsub(j) - (j->first_ago > 0 ? j->first_ago : 0);
    return end >= first ? (double)(end - first) : -1;
}

/* Seconds the attempt waited, or -1 when it has no wait to count: it
 * never started, its times are unknown or out of order, or it was
 * cancelled before it started (sacct then gives Start = End). */
double stats_job_wait(const StatsJob *j)
{
    if (stats_jstart(j) == STATS_TIME_NONE || stats_jsub(j) == STATS_TIME_NONE || stats_jstart(j) < stats_jsub(j))
        return -1;
    if (j->state == STATS_ST_CANCELLED && j->elapsed <= 0)
        return -1;
    return (double)(stats_jstart(j) - stats_jsub(j));
}
