#include "tui/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "core/strmap.h"
#include "tui/fmt.h"
#include "core/civil.h"
#include "reports/anon.h"
#include "tui/model_int.h"

#define NO_DATE INT64_MIN

/* ---- dates ------------------------------------------------------------ */

/* "YYYY-MM-DD..." as epoch seconds, NO_DATE when absent or malformed. */
static int64_t date_epoch(const char *s)
{
    int y, m, d;
    if (!s || sscanf(s, "%4d-%2d-%2d", &y, &m, &d) != 3 || m < 1 || m > 12 || d < 1 || d > 31)
        return NO_DATE;
    return civil_days(y, m, d) * 86400;
}

/* yyyymm of "YYYY-MM-DD", 0 when malformed. */
static int64_t date_month(const char *s)
{
    int y, m;
    if (!s || sscanf(s, "%4d-%2d", &y, &m) != 2 || m < 1 || m > 12)
        return 0;
    return (int64_t)y * 100 + m;
}

static int64_t month_epoch(int64_t yyyymm)
{
    return civil_days(yyyymm / 100, (int)(yyyymm % 100), 1) * 86400;
}

static double month_hours(int64_t yyyymm)
{
    return (double)(month_epoch(fmt_month_add(yyyymm, 1)) - month_epoch(yyyymm)) / 3600.0;
}

int tui_model_month_index(const TuiModel *m, int64_t yyyymm)
{
    int i = fmt_month_diff(m->m0, yyyymm);
    return i >= 0 && i < m->nmonths ? i : -1;
}

int64_t tui_model_heat_since(const TuiModel *m)
{
    return month_epoch(fmt_month_add(m->ref_month, -11));
}

/* ---- small helpers ---------------------------------------------------- */

static char *dup_or_null(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

static double *months_new(const TuiModel *m, double fill)
{
    double *v = xmalloc((size_t)m->nmonths * sizeof *v);
    for (int i = 0; i < m->nmonths; i++)
        v[i] = fill;
    return v;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_student(const char *role)
{
    return role && (strstr(role, "student") || strstr(role, "phd") || strstr(role, "msc") ||
                    strstr(role, "master"));
}

/* Sorted unique copy of names[0..n) (NULLs skipped); returns the count. */
static int unique_names(char **names, int n, char ***out)
{
    char **v = xmalloc((size_t)(n ? n : 1) * sizeof *v);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (names[i])
            v[k++] = names[i];
    qsort(v, (size_t)k, sizeof *v, cmp_str);
    int u = 0;
    for (int i = 0; i < k; i++)
        if (u == 0 || strcmp(v[u - 1], v[i]) != 0)
            v[u++] = v[i];
    *out = v;
    return u;
}

static int find_sorted(char *const *v, int n, const char *name)
{
    const char *key = name;
    char *const *hit = bsearch(&key, v, (size_t)n, sizeof *v, cmp_str);
    return hit ? (int)(hit - v) : -1;
}

/* ---- building context ------------------------------------------------- */

/* One roster row of a user, placed in the model's groups. */
typedef struct Stint {
    int64_t start, end;  /* yyyymm; start 0 = always, end 0 = open */
    int group;
    const StoreTuiPerson *p;
} Stint;

typedef struct Build {
    const StoreTuiSnapshot *s;
    TuiModel *m;
    StrMap *user_ix;      /* name -> user index */
    int *uid_user;        /* snapshot user id -> user index */
    int *acct_group;      /* snapshot account id -> group (fallback) */
    Stint *stints;        /* per user, contiguous: stint_off[u] .. stint_off[u+1] */
    int *stint_off;
    double *wait_sum, *waited, *attempts, *preempted; /* ngroups x nmonths */
    int64_t *pairs;       /* (group << 32 | user) seen in usage or roster */
    size_t npairs, cappairs;
    StatsGpus *inv;       /* the inventory as core/stats reads it (names borrowed) */
    size_t ninv;
} Build;

static void add_pair(Build *b, int g, int u)
{
    if (b->npairs == b->cappairs) {
        b->cappairs = b->cappairs ? b->cappairs * 2 : 256;
        b->pairs = xrealloc(b->pairs, b->cappairs * sizeof *b->pairs);
    }
    b->pairs[b->npairs++] = ((int64_t)g << 32) | (int64_t)(uint32_t)u;
}

static void month_axis(Build *b, int64_t fallback)
{
    TuiModel *m = b->m;
    int64_t lo = 0, hi = 0;
    for (size_t i = 0; i < b->s->nuser_usage; i++) {
        int64_t mo = b->s->user_usage[i].month;
        if (mo <= 0)
            continue;
        if (!lo || mo < lo)
            lo = mo;
        if (mo > hi)
            hi = mo;
    }
    if (!hi) {
        hi = fallback;
        lo = fmt_month_add(hi, -11);
    }
    if (fmt_month_diff(lo, hi) >= TUI_MAX_MONTHS)
        lo = fmt_month_add(hi, -(TUI_MAX_MONTHS - 1));
    m->m0 = lo;
    m->ref_month = hi;
    m->nmonths = fmt_month_diff(lo, hi) + 1;
}

static int user_index(Build *b, const char *name)
{
    int64_t v;
    return strmap_get(b->user_ix, name, strlen(name), &v) ? (int)v : -1;
}

/* Users: every name of the users table and of the roster, sorted. */
static void build_users(Build *b)
{
    const StoreTuiSnapshot *s = b->s;
    int n = (int)s->users.n + (int)s->npeople;
    char **all = xmalloc((size_t)(n ? n : 1) * sizeof *all);
    int k = 0;
    for (int64_t i = 0; i < s->users.n; i++)
        all[k++] = s->users.names[i];
    for (size_t i = 0; i < s->npeople; i++)
        all[k++] = s->people[i].user;
    char **names;
    int nu = unique_names(all, k, &names);
    free(all);
    TuiModel *m = b->m;
    m->users = xcalloc((size_t)(nu ? nu : 1), sizeof *m->users);
    m->nusers = nu;
    for (int u = 0; u < nu; u++) {
        TuiUser *x = &m->users[u];
        x->name = xstrdup(names[u]);
        x->group = -1;
        x->gpu_h_month = months_new(m, 0);
        x->stated_gpus = x->stated_mem = -1;
        x->profile = -1;
        strmap_put(b->user_ix, x->name, strlen(x->name), u);
    }
    free(names);
    b->uid_user = xmalloc((size_t)(s->users.n + 1) * sizeof *b->uid_user);
    for (int64_t i = 0; i < s->users.n; i++)
        b->uid_user[i] = s->users.names[i] ? user_index(b, s->users.names[i]) : -1;
}

static void group_init(TuiModel *m, TuiGroup *g, const char *name)
{
    g->name = xstrdup(name);
    g->gpu_h_month = months_new(m, 0);
    g->wait_month = months_new(m, -1);
    g->preempt_month = months_new(m, -1);
    g->demand_next = g->demand_base = NAN;
    g->demand_lo = g->demand_hi = NAN;
}

/* Groups from the roster (and the groups table), or from the accounts. */
static void build_groups(Build *b)
{
    const StoreTuiSnapshot *s = b->s;
    TuiModel *m = b->m;
    m->roster = s->npeople > 0;
    int n = m->roster ? (int)(s->ngroups + s->npeople) : (int)s->accounts.n;
    char **all = xmalloc((size_t)(n ? n : 1) * sizeof *all);
    int k = 0;
    if (m->roster) {
        for (size_t i = 0; i < s->ngroups; i++)
            all[k++] = s->groups[i].name;
        for (size_t i = 0; i < s->npeople; i++)
            all[k++] = s->people[i].group;
    } else {
        for (int64_t i = 0; i < s->accounts.n; i++)
            all[k++] = s->accounts.names[i];
    }
    char **names;
    int ng = unique_names(all, k, &names);
    free(all);
    m->groups = xcalloc((size_t)ng + 1, sizeof *m->groups); /* room for the pseudo group */
    m->ngroups = ng;
    for (int g = 0; g < ng; g++)
        group_init(m, &m->groups[g], names[g]);
    for (size_t i = 0; i < s->ngroups; i++) {
        int g = find_sorted(names, ng, s->groups[i].name);
        if (g >= 0) {
            m->groups[g].professor = dup_or_null(s->groups[i].professor);
            m->groups[g].domain = dup_or_null(s->groups[i].domain);
        }
    }
    b->acct_group = xmalloc((size_t)(s->accounts.n + 1) * sizeof *b->acct_group);
    for (int64_t i = 0; i < s->accounts.n; i++)
        b->acct_group[i] = !m->roster && s->accounts.names[i]
                               ? find_sorted(names, ng, s->accounts.names[i])
                               : -1;
    free(names);
}

/* The roster rows of each user, in start order (people come sorted by
 * group, user, start; a stable pass per user keeps it simple). */
static void build_stints(Build *b)
{
    const StoreTuiSnapshot *s = b->s;
    TuiModel *m = b->m;
    b->stint_off = xcalloc((size_t)m->nusers + 1, sizeof *b->stint_off);
    for (size_t i = 0; i < s->npeople; i++)
        b->stint_off[user_index(b, s->people[i].user) + 1]++;
    for (int u = 0; u < m->nusers; u++)
        b->stint_off[u + 1] += b->stint_off[u];
    b->stints = xmalloc((s->npeople ? s->npeople : 1) * sizeof *b->stints);
    int *fill = xcalloc((size_t)m->nusers, sizeof *fill);
    for (size_t i = 0; i < s->npeople; i++) {
        const StoreTuiPerson *p = &s->people[i];
        int u = user_index(b, p->user);
        Stint *t = &b->stints[b->stint_off[u] + fill[u]++];
        t->start = date_month(p->start);
        t->end = date_month(p->end);
        t->group = tui_model_group_find(m, p->group);
        t->p = p;
        add_pair(b, t->group, u);
        if (p->domain && t->group >= 0 && !m->groups[t->group].domain)
            m->groups[t->group].domain = xstrdup(p->domain);
    }
    free(fill);
}

/* The roster row placing user u in month mo: the latest that started by
 * then, else the earliest. NULL when the user is not on the roster. */
static const Stint *stint_at(const Build *b, int u, int64_t mo)
{
    const Stint *best = NULL, *first = NULL;
    for (int i = b->stint_off[u]; i < b->stint_off[u + 1]; i++) {
        const Stint *t = &b->stints[i];
        if (!first || t->start < first->start)
            first = t;
        if (t->start <= mo && (!best || t->start >= best->start))
            best = t;
    }
    return best ? best : first;
}

/* The pseudo group for usage the roster does not place, made on demand. */
static int pseudo_group(TuiModel *m)
{
    if (m->ngroups > 0 && m->groups[m->ngroups - 1].pseudo)
        return m->ngroups - 1;
    TuiGroup *g = &m->groups[m->ngroups];
    group_init(m, g, "(not in roster)");
    g->pseudo = 1;
    return m->ngroups++;
}

static int group_of_usage(Build *b, int u, const StoreTuiUsage *r)
{
    if (!b->m->roster)
        return r->account_id >= 0 && r->account_id < b->s->accounts.n
                   ? b->acct_group[r->account_id]
                   : -1;
    const Stint *t = u >= 0 ? stint_at(b, u, r->month) : NULL;
    return t && t->group >= 0 ? t->group : pseudo_group(b->m);
}

/* Window of the last 12 months (1), the 12 before (2), else 0. */
static int window_of(const TuiModel *m, int mi)
{
    int back = m->nmonths - 1 - mi;
    return back < 12 ? 1 : back < 24 ? 2 : 0;
}

static void add_user_usage(TuiUser *x, const StoreTuiUsage *r, int mi, int win)
{
    x->gpu_h += r->gpu_hours;
    x->gpu_h_month[mi] += r->gpu_hours;
    if (win != 1)
        return;
    x->gpu_h_12m += r->gpu_hours;
    x->cpu_h_12m += r->cpu_hours;
    x->lost_h_12m += r->gpu_hours_lost;
    x->wait_s_12m += r->wait_s;
    x->jobs_12m += r->jobs;
    x->attempts_12m += r->attempts;
    x->preempted_12m += r->preempted;
    x->waited_12m += r->waited;
}

static void add_group_usage(Build *b, int g, const StoreTuiUsage *r, int mi, int win)
{
    TuiGroup *x = &b->m->groups[g];
    size_t k = (size_t)g * (size_t)b->m->nmonths + (size_t)mi;
    x->gpu_h += r->gpu_hours;
    x->gpu_h_month[mi] += r->gpu_hours;
    b->wait_sum[k] += r->wait_s;
    b->waited[k] += (double)r->waited;
    b->attempts[k] += (double)r->attempts;
    b->preempted[k] += (double)r->preempted;
    if (win == 2)
        x->gpu_h_prev12m += r->gpu_hours;
    if (win != 1)
        return;
    x->gpu_h_12m += r->gpu_hours;
    x->lost_h_12m += r->gpu_hours_lost;
    x->wait_s_12m += r->wait_s;
    x->jobs_12m += r->jobs;
    x->attempts_12m += r->attempts;
    x->preempted_12m += r->preempted;
    x->waited_12m += r->waited;
}

static void aggregate_usage(Build *b)
{
    TuiModel *m = b->m;
    size_t cells = (size_t)(m->ngroups + 1) * (size_t)m->nmonths;
    b->wait_sum = xcalloc(cells, sizeof(double));
    b->waited = xcalloc(cells, sizeof(double));
    b->attempts = xcalloc(cells, sizeof(double));
    b->preempted = xcalloc(cells, sizeof(double));
    for (size_t i = 0; i < b->s->nuser_usage; i++) {
        const StoreTuiUsage *r = &b->s->user_usage[i];
        int mi = tui_model_month_index(m, r->month);
        if (mi < 0)
            continue;
        int u = r->user_id >= 0 && r->user_id < b->s->users.n ? b->uid_user[r->user_id] : -1;
        int g = group_of_usage(b, u, r);
        int win = window_of(m, mi);
        if (u >= 0)
            add_user_usage(&m->users[u], r, mi, win);
        if (g >= 0) {
            add_group_usage(b, g, r, mi, win);
            if (u >= 0 && (!m->roster || m->groups[g].pseudo))
                add_pair(b, g, u);
        }
    }
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Members of each group from the (group, user) pairs seen. */
static void build_members(Build *b)
{
    TuiModel *m = b->m;
    if (b->npairs > 1)
        qsort(b->pairs, b->npairs, sizeof *b->pairs, cmp_i64);
    for (size_t i = 0; i < b->npairs; i++) {
        if (i > 0 && b->pairs[i] == b->pairs[i - 1])
            continue;
        int g = (int)(b->pairs[i] >> 32), u = (int)(uint32_t)b->pairs[i];
        if (g < 0 || g >= m->ngroups)
            continue;
        TuiGroup *x = &m->groups[g];
        x->members = xrealloc(x->members, (size_t)(x->nmembers + 1) * sizeof *x->members);
        x->members[x->nmembers++] = u;
    }
}

/* Each user's current group, role and dates; active and student counts. */
static void place_users(Build *b)
{
    TuiModel *m = b->m;
    for (int u = 0; u < m->nusers; u++) {
        TuiUser *x = &m->users[u];
        const Stint *t = m->roster ? stint_at(b, u, m->ref_month) : NULL;
        if (t) {
            x->group = t->group;
            x->role = dup_or_null(t->p->role);
            x->start = dup_or_null(t->p->start);
            x->end = dup_or_null(t->p->end);
            x->active = t->start <= m->ref_month && (!t->end || t->end >= m->ref_month);
        } else {
            x->active = x->jobs_12m > 0;
        }
        x->mean_gpus_12m = x->gpu_h_12m / (365.0 * 24);
    }
    for (int g = 0; g < m->ngroups; g++) {
        TuiGroup *x = &m->groups[g];
        for (int i = 0; i < x->nmembers; i++) {
            TuiUser *y = &m->users[x->members[i]];
            if (y->group < 0 && (!m->roster || x->pseudo) && y->jobs_12m > 0)
                y->group = g; /* accounts: the first account used */
            if (y->group == g && y->active) {
                x->nactive++;
                x->nstudents += is_student(y->role);
            }
        }
    }
}

static void group_ratios(Build *b)
{
    TuiModel *m = b->m;
    m->total_gpu_h_12m = 0;
    for (int g = 0; g < m->ngroups; g++)
        m->total_gpu_h_12m += m->groups[g].gpu_h_12m;
    for (int g = 0; g < m->ngroups; g++) {
        TuiGroup *x = &m->groups[g];
        x->share_12m = m->total_gpu_h_12m > 0 ? x->gpu_h_12m / m->total_gpu_h_12m : NAN;
        x->preempt_rate = x->attempts_12m > 0 ? (double)x->preempted_12m / x->attempts_12m : NAN;
        x->mean_wait_s = x->waited_12m > 0 ? x->wait_s_12m / x->waited_12m : NAN;
        x->growth = x->gpu_h_prev12m > 0 ? x->gpu_h_12m / x->gpu_h_prev12m - 1 : NAN;
        for (int i = 0; i < m->nmonths; i++) {
            size_t k = (size_t)g * (size_t)m->nmonths + (size_t)i;
            x->wait_month[i] = b->waited[k] > 0 ? b->wait_sum[k] / b->waited[k] : -1;
            x->preempt_month[i] = b->attempts[k] > 0 ? b->preempted[k] / b->attempts[k] : -1;
        }
    }
}

/* ---- clusters, capacity, years ---------------------------------------- */

static int mem_class(double gib)
{
    return gib <= 24 ? 0 : gib <= 48 ? 1 : gib <= 80 ? 2 : 3;
}

/* The inventory as store_stats reads it for `capplan stats`: in service
 * [from, to + 1 day) (`to` is the last day in service). */
static void build_inventory(Build *b)
{
    const StoreTuiSnapshot *s = b->s;
    b->inv = xcalloc(s->ninventory ? s->ninventory : 1, sizeof *b->inv);
    b->ninv = s->ninventory;
    for (size_t i = 0; i < s->ninventory; i++) {
        const StoreTuiInventory *v = &s->inventory[i];
        int64_t from = date_epoch(v->from), to = date_epoch(v->to);
        b->inv[i] = (StatsGpus){v->cluster, v->gpu_model, (double)v->gpus, v->gpu_mem_gib,
                                from == NO_DATE ? STATS_TIME_NONE : from,
                                to == NO_DATE ? STATS_TIME_NONE : to + 86400};
    }
}

/* The accounting window: the snapshot's, else the model's whole months. */
static void acct_window(Build *b)
{
    TuiModel *m = b->m;
    m->acct_from = b->s->acct_from;
    m->acct_to = b->s->acct_to;
    if (m->acct_to <= m->acct_from) {
        m->acct_from = month_epoch(m->m0);
        m->acct_to = month_epoch(fmt_month_add(m->ref_month, 1));
    }
}

/* [from, to) clipped to the accounting window into [*a, *z); the hours
 * covered (0: none). */
static double covered(const TuiModel *m, int64_t from, int64_t to, int64_t *a, int64_t *z)
{
    *a = from > m->acct_from ? from : m->acct_from;
    *z = to < m->acct_to ? to : m->acct_to;
    return *z > *a ? (double)(*z - *a) / 3600.0 : 0;
}

static void build_clusters(Build *b)
{
    const StoreTuiSnapshot *s = b->s;
    TuiModel *m = b->m;
    int n = (int)s->clusters.n + (int)s->ninventory;
    char **all = xmalloc((size_t)(n ? n : 1) * sizeof *all);
    int k = 0;
    for (int64_t i = 0; i < s->clusters.n; i++)
        all[k++] = s->clusters.names[i];
    for (size_t i = 0; i < s->ninventory; i++)
        all[k++] = s->inventory[i].cluster;
    char **names;
    int nc = unique_names(all, k, &names);
    free(all);
    m->clusters = xcalloc((size_t)(nc ? nc : 1), sizeof *m->clusters);
    m->nclusters = nc;
    for (int c = 0; c < nc; c++) {
        TuiCluster *x = &m->clusters[c];
        x->name = xstrdup(names[c]);
        x->used_h = months_new(m, 0);
        x->cap_h = months_new(m, 0);
        x->hours = months_new(m, 0);
        x->util = months_new(m, -1);
        x->wait_month = months_new(m, -1);
        x->jobs_month = xcalloc((size_t)m->nmonths, sizeof *x->jobs_month);
    }
    free(names);
}

static int cluster_find(const TuiModel *m, const char *name)
{
    for (int c = 0; c < m->nclusters; c++)
        if (strcmp(m->clusters[c].name, name) == 0)
            return c;
    return -1;
}

static void cluster_usage(Build *b)
{
    TuiModel *m = b->m;
    double *waited = xcalloc((size_t)(m->nclusters + 1) * (size_t)m->nmonths, sizeof *waited);
    double *wsum = xcalloc((size_t)(m->nclusters + 1) * (size_t)m->nmonths, sizeof *wsum);
    for (size_t i = 0; i < b->s->ncluster_usage; i++) {
        const StoreTuiUsage *r = &b->s->cluster_usage[i];
        int mi = tui_model_month_index(m, r->month);
        const char *name = r->cluster_id >= 0 && r->cluster_id < b->s->clusters.n
                               ? b->s->clusters.names[r->cluster_id]
                               : NULL;
        int c = name ? cluster_find(m, name) : -1;
        if (mi < 0 || c < 0)
            continue;
        m->clusters[c].used_h[mi] += r->gpu_hours;
        m->clusters[c].jobs_month[mi] += r->jobs;
        waited[(size_t)c * (size_t)m->nmonths + (size_t)mi] += (double)r->waited;
        wsum[(size_t)c * (size_t)m->nmonths + (size_t)mi] += r->wait_s;
    }
    for (int c = 0; c < m->nclusters; c++)
        for (int i = 0; i < m->nmonths; i++) {
            size_t k = (size_t)c * (size_t)m->nmonths + (size_t)i;
            m->clusters[c].wait_month[i] = waited[k] > 0 ? wsum[k] / waited[k] : -1;
        }
    free(waited);
    free(wsum);
}

static void cluster_capacity(Build *b)
{
    TuiModel *m = b->m;
    int64_t ref_mid = month_epoch(m->ref_month) + 14 * 86400, a, z;
    for (size_t i = 0; i < b->ninv; i++) {
        const StatsGpus *v = &b->inv[i];
        int c = cluster_find(m, v->cluster);
        if (c < 0)
            continue;
        m->clusters[c].has_inventory = 1;
        if ((v->from == STATS_TIME_NONE || v->from <= ref_mid) &&
            (v->to == STATS_TIME_NONE || v->to > ref_mid)) {
            m->clusters[c].gpus_now += v->gpus;
            m->cap_class_now[mem_class(v->gpu_mem_gib)] += v->gpus;
        }
    }
    for (int c = 0; c < m->nclusters; c++) {
        TuiCluster *x = &m->clusters[c];
        for (int mi = 0; mi < m->nmonths; mi++) {
            int64_t mo = fmt_month_add(m->m0, mi);
            x->hours[mi] = covered(m, month_epoch(mo), month_epoch(fmt_month_add(mo, 1)), &a, &z);
            if (x->has_inventory && x->hours[mi] > 0)
                x->cap_h[mi] = stats_capacity_hours(b->inv, b->ninv, x->name, a, z);
            x->util[mi] = x->cap_h[mi] > 0 ? x->used_h[mi] / x->cap_h[mi] : -1;
        }
    }
}

/* A year's mean GPUs in service and in use over the hours the accounting
 * covers (as `capplan stats utilization --by year`), and per memory class. */
static void year_figures(Build *b, TuiYear *y)
{
    TuiModel *m = b->m;
    int64_t a, z;
    double used = 0;
    y->hours = covered(m, civil_days(y->year, 1, 1) * 86400, civil_days(y->year + 1, 1, 1) * 86400,
                       &a, &z);
    for (int mi = 0; mi < m->nmonths; mi++) {
        if (fmt_month_add(m->m0, mi) / 100 != y->year)
            continue;
        y->months++;
        for (int c = 0; c < m->nclusters; c++)
            used += m->clusters[c].used_h[mi];
    }
    if (y->hours <= 0)
        return;
    y->used_gpus = used / y->hours;
    y->cap_gpus = stats_capacity_hours(b->inv, b->ninv, NULL, a, z) / y->hours;
    for (size_t i = 0; i < b->ninv; i++)
        y->cap_class[mem_class(b->inv[i].gpu_mem_gib)] +=
            stats_capacity_hours(&b->inv[i], 1, NULL, a, z) / y->hours;
}

static void build_years(Build *b)
{
    TuiModel *m = b->m;
    int y0 = (int)(m->m0 / 100), y1 = (int)(m->ref_month / 100);
    m->nyears = m->nhist_years = y1 - y0 + 1;
    m->years = xcalloc((size_t)m->nyears, sizeof *m->years);
    for (int i = 0; i < m->nyears; i++) {
        TuiYear *y = &m->years[i];
        y->year = y0 + i;
        for (int c = 0; c < TUI_CLASSES; c++)
            y->demand_class[c] = NAN;
        y->demand = y->demand_base = NAN;
        y->demand_lo = y->demand_hi = NAN;
        year_figures(b, y);
    }
}

/* ---- events, notes, stated needs, scenarios --------------------------- */

static void build_events(Build *b)
{
    TuiModel *m = b->m;
    m->nevents = (int)b->s->nevents;
    m->events = xcalloc((size_t)(m->nevents ? m->nevents : 1), sizeof *m->events);
    for (int i = 0; i < m->nevents; i++) {
        const StoreTuiEvent *e = &b->s->events[i];
        m->events[i].month = date_month(e->date);
        m->events[i].date = xstrdup(e->date);
        m->events[i].cluster = xstrdup(e->cluster);
        m->events[i].label = xstrdup(e->label);
    }
}

static void build_meetings(Build *b)
{
    TuiModel *m = b->m;
    const StoreTuiSnapshot *s = b->s;
    m->nnotes = (int)s->nnotes;
    m->notes = xcalloc((size_t)(m->nnotes ? m->nnotes : 1), sizeof *m->notes);
    for (int i = 0; i < m->nnotes; i++) {
        m->notes[i].group = tui_model_group_find(m, s->notes[i].group);
        m->notes[i].user = dup_or_null(s->notes[i].user);
        m->notes[i].date = xstrdup(s->notes[i].date);
        m->notes[i].text = xstrdup(s->notes[i].text);
    }
    for (size_t i = 0; i < s->nstated; i++) {
        int u = user_index(b, s->stated[i].user);
        if (u < 0)
            continue;
        TuiUser *x = &m->users[u];
        if (x->stated_date && strcmp(x->stated_date, s->stated[i].date) > 0)
            continue;
        free(x->stated_date);
        x->stated_date = xstrdup(s->stated[i].date);
        x->stated_gpus = s->stated[i].gpus_fulltime;
        x->stated_mem = s->stated[i].gpu_mem_class_gib;
    }
    for (int i = 0; i < m->nnotes; i++) /* a meeting note: the group was met */
        if (m->notes[i].group >= 0)
            m->groups[m->notes[i].group].met = 1;
    for (size_t i = 0; i < s->nmet_groups; i++) {
        int g = tui_model_group_find(m, s->met_groups[i]);
        if (g >= 0)
            m->groups[g].met = 1;
    }
    m->meetings = xcalloc(s->nmeetings ? s->nmeetings : 1, sizeof *m->meetings);
    for (size_t i = 0; i < s->nmeetings; i++) {
        int g = tui_model_group_find(m, s->meetings[i].group);
        if (g < 0)
            continue;
        TuiMeeting *x = &m->meetings[m->nmeetings++];
        x->group = g;
        x->date = xstrdup(s->meetings[i].date);
        x->attendees = xstrdup(s->meetings[i].attendees);
        x->status = xstrdup(s->meetings[i].status);
        if (strcmp(x->status, "held") == 0)
            m->groups[g].met = 1;
    }
    m->nscenarios = (int)s->nscenarios;
    m->scenarios = xcalloc((size_t)(m->nscenarios ? m->nscenarios : 1), sizeof *m->scenarios);
    for (int i = 0; i < m->nscenarios; i++)
        m->scenarios[i] = xstrdup(s->scenarios[i]);
}

/* ---- entry points ----------------------------------------------------- */

static void build_done(Build *b)
{
    strmap_free(b->user_ix);
    free(b->uid_user);
    free(b->acct_group);
    free(b->stints);
    free(b->stint_off);
    free(b->wait_sum);
    free(b->waited);
    free(b->attempts);
    free(b->preempted);
    free(b->pairs);
    free(b->inv);
}

TuiModel *tui_model_build(const StoreTuiSnapshot *s, int64_t fallback_month)
{
    TuiModel *m = xcalloc(1, sizeof *m);
    Build b;
    memset(&b, 0, sizeof b);
    b.s = s;
    b.m = m;
    b.user_ix = strmap_new();
    m->gpu_util = m->gpu_util_known = m->gpu_mem = m->cpu_eff = m->mem_eff = NAN;
    for (int k = 0; k < TUI_CLASSES; k++)
        m->demand_class_next[k] = m->cap_class_next[k] = NAN;
    month_axis(&b, fallback_month);
    build_users(&b);
    build_groups(&b);
    build_stints(&b);
    aggregate_usage(&b);
    build_members(&b);
    place_users(&b);
    group_ratios(&b);
    build_inventory(&b);
    acct_window(&b);
    build_clusters(&b);
    cluster_usage(&b);
    cluster_capacity(&b);
    build_years(&b);
    build_events(&b);
    build_meetings(&b);
    tui_model_build_alerts(m);
    build_done(&b);
    return m;
}

static double ratio(double a, double b)
{
    return b > 0 ? a / b : NAN;
}

void tui_model_set_scan(TuiModel *m, const StoreTuiScan *scan)
{
    double weeks = 0;
    for (int i = 0; i < 12; i++)
        weeks += month_hours(fmt_month_add(m->ref_month, -i)) / 168.0;
    for (int i = 0; i < 168; i++)
        m->heat[i] = weeks > 0 ? scan->heat[i] / weeks : 0;
    m->heat_weeks = (int)lround(weeks);
    m->gpu_util = ratio(scan->util_x_h, scan->gpu_h_util);
    m->gpu_util_known = ratio(scan->gpu_h_util, scan->gpu_h);
    m->gpu_mem = ratio(scan->mem_x_h, scan->gpu_h_mem);
    m->cpu_eff = ratio(scan->cpu_used_h, scan->cpu_alloc_h);
    m->mem_eff = ratio(scan->mem_used_h, scan->mem_req_h);
    for (int64_t id = 0; scan->names && id < scan->nby_user; id++) {
        int u = scan->names[id] ? tui_model_user_find(m, scan->names[id]) : -1;
        if (u >= 0)
            m->users[u].eff = scan->by_user[id];
    }
    m->heat_loaded = 1;
}

void tui_model_free(TuiModel *m)
{
    if (!m)
        return;
    for (int u = 0; u < m->nusers; u++) {
        TuiUser *x = &m->users[u];
        free(x->name), free(x->role), free(x->start), free(x->end);
        free(x->gpu_h_month), free(x->stated_date);
    }
    free(m->users);
    for (int g = 0; g < m->ngroups; g++) {
        TuiGroup *x = &m->groups[g];
        free(x->name), free(x->professor), free(x->domain), free(x->members);
        free(x->gpu_h_month), free(x->wait_month), free(x->preempt_month);
    }
    free(m->groups);
    for (int c = 0; c < m->nclusters; c++) {
        TuiCluster *x = &m->clusters[c];
        free(x->name), free(x->used_h), free(x->cap_h), free(x->hours), free(x->util);
        free(x->wait_month), free(x->jobs_month);
    }
    free(m->clusters);
    for (int i = 0; i < m->nevents; i++)
        free(m->events[i].date), free(m->events[i].cluster), free(m->events[i].label);
    free(m->events);
    for (int i = 0; i < m->nnotes; i++)
        free(m->notes[i].user), free(m->notes[i].date), free(m->notes[i].text);
    free(m->notes);
    for (int i = 0; i < m->nmeetings; i++)
        free(m->meetings[i].date), free(m->meetings[i].attendees), free(m->meetings[i].status);
    free(m->meetings);
    for (int i = 0; i < m->nscenarios; i++)
        free(m->scenarios[i]);
    free(m->scenarios);
    free(m->years);
    free(m->alerts);
    free(m);
}
