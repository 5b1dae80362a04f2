/* stats: see stats.h. The file runs in this order: calendar and
 * quantiles; result tables; a small hash aggregator; the roster (who is
 * in which group and domain, when); the context shared by every kind
 * (filters, periods, capacity); then one section per kind. */
#include "core/stats.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"
#include "core/civil.h"

#define HOUR 3600
#define DAY 86400
#define WEEK (7 * DAY)

/* ---- calendar ---- */

int64_t stats_month_start(int32_t yyyymm)
{
    return civil_days(yyyymm / 100, yyyymm % 100, 1) * DAY;
}

int32_t stats_month_of(int64_t t)
{
    int64_t y;
    int m, d;
    civil_from_days(civil_floor_div(t, DAY), &y, &m, &d);
    return (int32_t)(y * 100 + m);
}

static int32_t month_add(int32_t yyyymm, int k)
{
    int32_t idx = (yyyymm / 100) * 12 + (yyyymm % 100 - 1) + k;
    return (idx / 12) * 100 + idx % 12 + 1;
}

/* Slot of the week (0 = Monday 00:00 UTC .. 167) of an epoch second. */
static int week_slot(int64_t t)
{
    int64_t day = civil_floor_div(t, DAY);
    int dow = (int)((day % 7 + 7 + 3) % 7); /* 1970-01-01 was a Thursday */
    return dow * 24 + (int)((t - day * DAY) / HOUR);
}

/* ---- quantiles ---- */

static void swap_d(double *a, double *b)
{
    double t = *a;
    *a = *b;
    *b = t;
}

/* Put the k-th smallest of v[0..n) at v[k], no larger ones before it
 * and no smaller ones after (Numerical Recipes' select, 0-based). */
static void select_kth(double *v, size_t n, size_t k)
{
    size_t l = 0, ir = n - 1;
    for (;;) {
        if (ir <= l + 1) {
            if (ir == l + 1 && v[ir] < v[l])
                swap_d(&v[l], &v[ir]);
            return;
        }
        size_t mid = l + (ir - l) / 2;
        swap_d(&v[mid], &v[l + 1]);
        if (v[l] > v[ir])
            swap_d(&v[l], &v[ir]);
        if (v[l + 1] > v[ir])
            swap_d(&v[l + 1], &v[ir]);
        if (v[l] > v[l + 1])
            swap_d(&v[l], &v[l + 1]);
        size_t i = l + 1, j = ir;
        double a = v[l + 1];
        for (;;) {
            do
                i++;
            while (v[i] < a);
            do
                j--;
            while (v[j] > a);
            if (j < i)
                break;
            swap_d(&v[i], &v[j]);
        }
        v[l + 1] = v[j];
        v[j] = a;
        if (j >= k)
            ir = j - 1;
        if (j <= k)
            l = i;
    }
}

/* Quantiles ps[0..k) (ascending, 0..1) of v[0..n) into out, each
 * selected among the values above the previous one. Reorders v. */
static void quantiles(double *v, size_t n, const double *ps, size_t k, double *out)
{
    size_t base = 0; /* v[0..base) are <= every value after them */
    for (size_t q = 0; q < k; q++) {
        if (n == 0) {
            out[q] = NAN;
            continue;
        }
        double h = (double)(n - 1) * ps[q];
        size_t lo = (size_t)h;
        if (lo > n - 1)
            lo = n - 1;
        if (lo >= base) {
            select_kth(v + base, n - base, lo - base);
            base = lo + 1;
        }
        if (lo + 1 >= n || h == (double)lo) {
            out[q] = v[lo];
            continue;
        }
        double next = v[lo + 1];
        for (size_t i = lo + 2; i < n; i++)
            next = v[i] < next ? v[i] : next;
        out[q] = v[lo] + (h - (double)lo) * (next - v[lo]);
    }
}

double stats_quantile(double *v, size_t n, double p)
{
    double out;
    quantiles(v, n, &p, 1, &out);
    return out;
}

/* A growable array of doubles. */
typedef struct DVec {
    double *v;
    size_t n, cap;
} DVec;

static void dvec_push(DVec *d, double x)
{
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 16;
        d->v = xrealloc(d->v, d->cap * sizeof *d->v);
    }
    d->v[d->n++] = x;
}

/* ---- result tables ---- */

#define MAX_TABLES 8 /* tables of one report: allocated at once, so pointers stay */

StatsTable *stats_report_add_table(StatsReport *r, const char *key, const char *title,
                                   const StatsCol *cols, size_t ncols)
{
    assert(r->ntables < MAX_TABLES);
    if (!r->tables)
        r->tables = xcalloc(MAX_TABLES, sizeof *r->tables);
    StatsTable *t = &r->tables[r->ntables++];
    memset(t, 0, sizeof *t);
    t->key = key;
    t->title = title;
    t->cols = cols;
    t->ncols = ncols;
    return t;
}

StatsCell *stats_table_add_row(StatsTable *t)
{
    if (t->nrows == t->caprows) {
        t->caprows = t->caprows ? t->caprows * 2 : 16;
        t->cells = xrealloc(t->cells, t->caprows * t->ncols * sizeof *t->cells);
    }
    StatsCell *row = &t->cells[t->nrows++ * t->ncols];
    for (size_t i = 0; i < t->ncols; i++) {
        row[i].num = NAN;
        row[i].text = NULL;
    }
    return row;
}

void stats_cell_set_text(StatsTable *t, StatsCell *c, const char *s)
{
    if (t->nstrs == t->capstrs) {
        t->capstrs = t->capstrs ? t->capstrs * 2 : 16;
        t->strs = xrealloc(t->strs, t->capstrs * sizeof *t->strs);
    }
    char *copy = xstrdup(s ? s : "");
    t->strs[t->nstrs++] = copy;
    c->text = copy;
}

/* a / b, NaN when b is not positive. */
static double ratio(double a, double b)
{
    return b > 0 ? a / b : NAN;
}

void stats_report_free(StatsReport *r)
{
    for (size_t i = 0; i < r->ntables; i++) {
        StatsTable *t = &r->tables[i];
        for (size_t s = 0; s < t->nstrs; s++)
            free(t->strs[s]);
        free(t->strs);
        free(t->cells);
    }
    free(r->tables);
    memset(r, 0, sizeof *r);
}

const StatsTable *stats_report_table(const StatsReport *r, const char *key)
{
    for (size_t i = 0; i < r->ntables; i++)
        if (strcmp(r->tables[i].key, key) == 0)
            return &r->tables[i];
    return NULL;
}

static long col_index(const StatsTable *t, const char *key)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(t->cols[c].key, key) == 0)
            return (long)c;
    return -1;
}

const StatsCell *stats_table_cell(const StatsTable *t, size_t row, const char *col)
{
    long c = col_index(t, col);
    if (c < 0 || row >= t->nrows)
        return NULL;
    return &t->cells[row * t->ncols + (size_t)c];
}

long stats_table_find(const StatsTable *t, const char *const *keys, const char *const *values,
                      size_t n)
{
    for (size_t r = 0; r < t->nrows; r++) {
        size_t k = 0;
        for (; k < n; k++) {
            const StatsCell *c = stats_table_cell(t, r, keys[k]);
            if (!c || !c->text || strcmp(c->text, values[k]) != 0)
                break;
        }
        if (k == n)
            return (long)r;
    }
    return -1;
}

/* ---- a hash aggregator over small integer tuples ---- */

typedef struct AggKey {
    int32_t period, a, b, c;
} AggKey;

/* Values of valsz bytes (zeroed when new), found by key. */
typedef struct Agg {
    AggKey *keys;
    char *vals;
    size_t valsz, n, cap;
    uint32_t *slots; /* index + 1, 0 empty */
    size_t nslots;
    long last; /* index of the last key found */
} Agg;

static void agg_init(Agg *g, size_t valsz)
{
    memset(g, 0, sizeof *g);
    g->valsz = valsz;
    g->last = -1;
}

static void agg_done(Agg *g)
{
    free(g->keys);
    free(g->vals);
    free(g->slots);
    memset(g, 0, sizeof *g);
}

static uint64_t agg_hash(const AggKey *k)
{
    uint64_t h = (uint64_t)(uint32_t)k->period * 0x9E3779B97F4A7C15ULL;
    h ^= ((uint64_t)(uint32_t)k->a + 0x632BE59BD9B4E019ULL) * 0xBF58476D1CE4E5B9ULL;
    h ^= ((uint64_t)(uint32_t)k->b + 0x85EBCA77C2B2AE63ULL) * 0x94D049BB133111EBULL;
    h ^= ((uint64_t)(uint32_t)k->c + 0x27D4EB2F165667C5ULL) * 0xD6E8FEB86659FD93ULL;
    return h ^ (h >> 31);
}

static int key_eq(const AggKey *x, const AggKey *y)
{
    return x->period == y->period && x->a == y->a && x->b == y->b && x->c == y->c;
}

static void agg_rehash(Agg *g)
{
    g->nslots = g->nslots ? g->nslots * 2 : 256;
    free(g->slots);
    g->slots = xcalloc(g->nslots, sizeof *g->slots);
    for (size_t i = 0; i < g->n; i++) {
        size_t s = (size_t)agg_hash(&g->keys[i]) & (g->nslots - 1);
        while (g->slots[s])
            s = (s + 1) & (g->nslots - 1);
        g->slots[s] = (uint32_t)(i + 1);
    }
}

static void *agg_get(Agg *g, int32_t period, int32_t a, int32_t b, int32_t c)
{
    AggKey k = {period, a, b, c};
    if (g->last >= 0 && key_eq(&g->keys[g->last], &k))
        return g->vals + (size_t)g->last * g->valsz;
    if (2 * (g->n + 1) > g->nslots)
        agg_rehash(g);
    size_t s = (size_t)agg_hash(&k) & (g->nslots - 1);
    while (g->slots[s]) {
        size_t i = g->slots[s] - 1;
        if (key_eq(&g->keys[i], &k)) {
            g->last = (long)i;
            return g->vals + i * g->valsz;
        }
        s = (s + 1) & (g->nslots - 1);
    }
    if (g->n == g->cap) {
        g->cap = g->cap ? g->cap * 2 : 64;
        g->keys = xrealloc(g->keys, g->cap * sizeof *g->keys);
        g->vals = xrealloc(g->vals, g->cap * g->valsz);
    }
    g->keys[g->n] = k;
    memset(g->vals + g->n * g->valsz, 0, g->valsz);
    g->slots[s] = (uint32_t)(g->n + 1);
    g->last = (long)g->n;
    return g->vals + g->n++ * g->valsz;
}

/* The value of key, or NULL when absent (never creates one). */
static void *agg_find(const Agg *g, int32_t period, int32_t a, int32_t b, int32_t c)
{
    AggKey k = {period, a, b, c};
    if (g->nslots == 0)
        return NULL;
    size_t s = (size_t)agg_hash(&k) & (g->nslots - 1);
    while (g->slots[s]) {
        size_t i = g->slots[s] - 1;
        if (key_eq(&g->keys[i], &k))
            return g->vals + i * g->valsz;
        s = (s + 1) & (g->nslots - 1);
    }
    return NULL;
}

static void *agg_val(const Agg *g, size_t i)
{
    return g->vals + i * g->valsz;
}

/* Sort order of an aggregator's keys: each dimension through a rank
 * table (rank[id] by name; -1 "all" first), the period as is. */
typedef struct RankKey {
    int64_t k[4];
    size_t idx;
} RankKey;

static int rank_cmp(const void *pa, const void *pb)
{
    const RankKey *a = pa, *b = pb;
    for (int i = 0; i < 4; i++)
        if (a->k[i] != b->k[i])
            return a->k[i] < b->k[i] ? -1 : 1;
    return 0;
}

static int64_t rank_of(const int32_t *rank, int32_t id)
{
    return id < 0 ? -1 : rank ? rank[id] : id;
}

/* Indices of g's keys in order; caller frees. */
static size_t *agg_order(const Agg *g, const int32_t *ra, const int32_t *rb, const int32_t *rc)
{
    RankKey *rk = xmalloc((g->n + 1) * sizeof *rk);
    for (size_t i = 0; i < g->n; i++) {
        const AggKey *k = &g->keys[i];
        rk[i].k[0] = k->period;
        rk[i].k[1] = rank_of(ra, k->a);
        rk[i].k[2] = rank_of(rb, k->b);
        rk[i].k[3] = rank_of(rc, k->c);
        rk[i].idx = i;
    }
    qsort(rk, g->n, sizeof *rk, rank_cmp);
    size_t *order = xmalloc((g->n + 1) * sizeof *order);
    for (size_t i = 0; i < g->n; i++)
        order[i] = rk[i].idx;
    free(rk);
    return order;
}

/* ---- interned names (groups, domains) ---- */

typedef struct Dict {
    StrMap *map;
    const char **name; /* borrowed from the input, or "" literals */
    size_t n, cap;
    int32_t *rank; /* by name, filled by dict_rank */
} Dict;

static int32_t dict_id(Dict *d, const char *name)
{
    int64_t id;
    size_t len = strlen(name);
    if (strmap_get(d->map, name, len, &id))
        return (int32_t)id;
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 32;
        d->name = xrealloc(d->name, d->cap * sizeof *d->name);
    }
    d->name[d->n] = name;
    strmap_put(d->map, name, len, (int64_t)d->n);
    return (int32_t)d->n++;
}

static int32_t dict_find(const Dict *d, const char *name)
{
    int64_t id;
    return strmap_get(d->map, name, strlen(name), &id) ? (int32_t)id : -1;
}

typedef struct NameId {
    const char *name;
    int32_t id;
} NameId;

static int name_cmp(const void *pa, const void *pb)
{
    const NameId *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->id > b->id) - (a->id < b->id);
}

/* rank[id] = position of name id in byte order ("" and NULL first). */
static int32_t *names_rank(const char *const *names, size_t n)
{
    NameId *tmp = xmalloc((n + 1) * sizeof *tmp);
    int32_t *rank = xmalloc((n + 1) * sizeof *rank);
    for (size_t i = 0; i < n; i++) {
        tmp[i].name = names[i] ? names[i] : "";
        tmp[i].id = (int32_t)i;
    }
    qsort(tmp, n, sizeof *tmp, name_cmp);
    for (size_t i = 0; i < n; i++)
        rank[tmp[i].id] = (int32_t)i;
    if (n == 0)
        rank[0] = 0;
    free(tmp);
    return rank;
}

static void dict_rank(Dict *d)
{
    free(d->rank);
    d->rank = names_rank(d->name, d->n);
}

static void dict_init(Dict *d)
{
    memset(d, 0, sizeof *d);
    d->map = strmap_new();
}

static void dict_done(Dict *d)
{
    strmap_free(d->map);
    free(d->name);
    free(d->rank);
}

/* ---- the roster: who is in which group and domain, when ---- */

#define UNKNOWN_DOMAIN "(unknown)"

typedef struct Roster {
    Dict groups, domains;
    const StatsPerson **lines; /* people sorted by user, then start */
    int32_t *line_group, *line_domain;
    size_t nlines;
    int32_t *ufirst, *ucount; /* per user id: the user's lines */
    size_t nusers;
    int32_t *acct_group; /* per account id: the group of users the roster does not know */
    size_t naccounts;
    int32_t *group_domain;  /* per group id */
    int32_t unknown_domain; /* the id of UNKNOWN_DOMAIN */
    size_t ngroup_domain;
} Roster;

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

static int32_t group_domain(const Roster *r, int32_t g)
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
    dict_init(&r->groups);
    dict_init(&r->domains);
    r->unknown_domain = dict_id(&r->domains, UNKNOWN_DOMAIN);
    for (size_t i = 0; i < in->ngroups; i++) {
        int32_t g = dict_id(&r->groups, in->groups[i].name);
        if (in->groups[i].domain && in->groups[i].domain[0])
            group_domain_set(r, g, dict_id(&r->domains, in->groups[i].domain), 1);
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
        r->line_group[i] = dict_id(&r->groups, p->group);
        r->line_domain[i] = p->domain && p->domain[0] ? dict_id(&r->domains, p->domain) : -1;
        if (r->line_domain[i] >= 0)
            group_domain_set(r, r->line_group[i], r->line_domain[i], 0);
    }
    for (size_t i = 0; i < r->nlines; i++)
        if (r->line_domain[i] < 0)
            r->line_domain[i] = group_domain(r, r->line_group[i]);
    roster_index_users(r, &in->users);
    r->naccounts = in->accounts.n ? in->accounts.n : 1;
    r->acct_group = xmalloc(r->naccounts * sizeof *r->acct_group);
    for (size_t a = 0; a < r->naccounts; a++) {
        const char *name = a < in->accounts.n ? in->accounts.v[a] : NULL;
        r->acct_group[a] = dict_id(&r->groups, name && name[0] ? name : "(none)");
    }
    dict_rank(&r->groups);
    dict_rank(&r->domains);
}

static void roster_done(Roster *r)
{
    dict_done(&r->groups);
    dict_done(&r->domains);
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
    *domain = group_domain(r, *group);
}

/* ---- what every kind shares: filters, periods, capacity ---- */

typedef struct Ctx {
    const StatsInput *in;
    const StatsOpts *o;
    Roster ro;
    int32_t cluster; /* the --cluster id; 0 none; -1 a cluster with no jobs */
    int32_t group;   /* the --group id, -1 none */
    int64_t w0, w1;  /* the window the accounting covers */
    int32_t *cluster_rank, *part_rank, *user_rank;
    /* per job attempt, computed once: month (yyyymm) of its anchor (0
     * unknown), group, and whether it passes the filters */
    int32_t *jmonth, *jgroup;
    unsigned char *jkept;
} Ctx;

static int str_eq(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

static int32_t names_find(const StatsNames *n, const char *name)
{
    for (size_t i = 0; i < n->n; i++)
        if (str_eq(n->v[i], name))
            return (int32_t)i;
    return -1;
}

static const char *name_or(const StatsNames *n, int32_t id, const char *none)
{
    return id > 0 && (size_t)id < n->n && n->v[id] && n->v[id][0] ? n->v[id] : none;
}

/* A job's times as epoch seconds, STATS_TIME_NONE when unknown. */
static int64_t jsub(const StatsJob *j)
{
    return j->submit ? (int64_t)j->submit : STATS_TIME_NONE;
}

static int64_t jstart(const StatsJob *j)
{
    return j->start ? (int64_t)j->start : STATS_TIME_NONE;
}

/* id when names know it, else 0 (unknown): safe to index rank tables. */
static int32_t name_id(const StatsNames *n, int32_t id)
{
    return id > 0 && (size_t)id < n->n ? id : 0;
}

static int64_t job_anchor(const StatsJob *j)
{
    return jstart(j) != STATS_TIME_NONE ? jstart(j) : jsub(j);
}

/* End of the run, or STATS_TIME_NONE when it did not run. */
static int64_t job_end(const StatsJob *j)
{
    if (jstart(j) == STATS_TIME_NONE || j->elapsed < 0)
        return STATS_TIME_NONE;
    return jstart(j) + j->elapsed;
}

/* The window: first submission to the last time recorded (the jobs'),
 * else the months usage covers. */
void stats_window(const StatsInput *in, int64_t *from, int64_t *to)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        int64_t a = jsub(j) != STATS_TIME_NONE ? jsub(j) : jstart(j);
        int64_t e = job_end(j);
        int64_t b = e != STATS_TIME_NONE ? e : job_anchor(j);
        if (a != STATS_TIME_NONE && a > 0 && a < lo)
            lo = a;
        if (b != STATS_TIME_NONE && b > hi)
            hi = b;
    }
    for (size_t i = 0; i < in->nusage && in->njobs == 0; i++) {
        int32_t m = in->usage[i].month;
        if (stats_month_start(m) < lo)
            lo = stats_month_start(m);
        if (stats_month_start(month_add(m, 1)) > hi)
            hi = stats_month_start(month_add(m, 1));
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
    mc->to = stats_month_start(month_add(mc->m, 1));
    return mc->m;
}

static int cluster_kept(const Ctx *c, int32_t cluster)
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
        int64_t t = job_anchor(j);
        c->jmonth[i] = t == STATS_TIME_NONE ? 0 : month_cached(&mc, t);
        int32_t domain;
        roster_who(&c->ro, j->user, j->account, t, &c->jgroup[i], &domain);
        c->jkept[i] = (unsigned char)(t != STATS_TIME_NONE && cluster_kept(c, j->cluster) &&
                                      (c->group < 0 || c->jgroup[i] == c->group));
    }
}

static int inventory_has(const StatsInput *in, const char *cluster)
{
    for (size_t i = 0; i < in->ninventory; i++)
        if (str_eq(in->inventory[i].cluster, cluster))
            return 1;
    return 0;
}

static int ctx_init(Ctx *c, const StatsInput *in, const StatsOpts *o, CpErr *err)
{
    memset(c, 0, sizeof *c);
    c->in = in;
    c->o = o;
    c->group = -1;
    roster_init(&c->ro, in);
    ctx_window(c);
    c->cluster_rank = names_rank(in->clusters.v, in->clusters.n);
    c->part_rank = names_rank(in->partitions.v, in->partitions.n);
    c->user_rank = names_rank(in->users.v, in->users.n);
    if (o->cluster) {
        c->cluster = names_find(&in->clusters, o->cluster);
        if (c->cluster <= 0 && !inventory_has(in, o->cluster))
            return cp_err_set(err, "no cluster named '%s' in the accounting or the inventory",
                              o->cluster);
        if (c->cluster <= 0)
            c->cluster = -1;
    }
    if (o->group) {
        c->group = dict_find(&c->ro.groups, o->group);
        if (c->group < 0)
            return cp_err_set(err, "no group named '%s' in the roster or the accounts", o->group);
    }
    ctx_jobs(c);
    return 0;
}

static void ctx_done(Ctx *c)
{
    roster_done(&c->ro);
    free(c->cluster_rank);
    free(c->part_rank);
    free(c->user_rank);
    free(c->jmonth);
    free(c->jgroup);
    free(c->jkept);
}

static int cluster_name_kept(const Ctx *c, const char *name)
{
    return c->o->cluster == NULL || str_eq(name, c->o->cluster);
}

/* Attempt i passes the filters. */
static int job_kept(const Ctx *c, size_t i)
{
    return c->jkept[i];
}

/* The period of attempt i (its anchor's). */
static int32_t job_period(const Ctx *c, size_t i);

static int64_t month_mid(int32_t yyyymm)
{
    return stats_month_start(yyyymm) + 14 * DAY;
}

static int usage_kept(const Ctx *c, const StatsUsage *u, int32_t *group, int32_t *domain)
{
    if (!cluster_kept(c, u->cluster))
        return 0;
    roster_who(&c->ro, u->user, u->account, month_mid(u->month), group, domain);
    return c->group < 0 || *group == c->group;
}

/* Periods: a month (yyyymm), a year (yyyy) or 0 for everything. */
static int32_t period_of_month(const Ctx *c, int32_t yyyymm)
{
    return c->o->by == STATS_BY_MONTH ? yyyymm : c->o->by == STATS_BY_YEAR ? yyyymm / 100 : 0;
}

static int32_t period_of(const Ctx *c, int64_t t)
{
    return period_of_month(c, stats_month_of(t));
}

static int32_t job_period(const Ctx *c, size_t i)
{
    return period_of_month(c, c->jmonth[i]);
}

static void period_bounds(const Ctx *c, int32_t p, int64_t *from, int64_t *to)
{
    if (c->o->by == STATS_BY_MONTH) {
        *from = stats_month_start(p);
        *to = stats_month_start(month_add(p, 1));
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

static void put_period(const Ctx *c, StatsTable *t, StatsCell *cell, int32_t p)
{
    char buf[16];
    period_label(c, p, buf, sizeof buf);
    stats_cell_set_text(t, cell, buf);
}

double stats_capacity_hours(const StatsGpus *inv, size_t n, const char *cluster, int64_t from,
                            int64_t to)
{
    double h = 0;
    for (size_t i = 0; i < n; i++) {
        const StatsGpus *g = &inv[i];
        if (cluster && !str_eq(g->cluster, cluster))
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
static double ctx_capacity(const Ctx *c, const char *cluster, int64_t from, int64_t to)
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
static const char *const gpu_class_name[] = {"0", "<1", "1", "2", "3-4", "5-8", ">8"};
enum { NGPU_CLASS = 7 };

static int32_t gpu_class(float g)
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

/* Seconds the attempt waited, or -1 when it has no wait to count: it
 * never started, its times are unknown or out of order, or it was
 * cancelled before it started (sacct then gives Start = End). */
static double job_wait(const StatsJob *j)
{
    if (jstart(j) == STATS_TIME_NONE || jsub(j) == STATS_TIME_NONE || jstart(j) < jsub(j))
        return -1;
    if (j->state == STATS_ST_CANCELLED && j->elapsed <= 0)
        return -1;
    return (double)(jstart(j) - jsub(j));
}

/* The 168 hours of the week, filled from intervals in O(1) each: partial
 * hours go straight to their slot, whole hours through a cyclic
 * difference array and a count of whole weeks; read after week_finish. */
typedef struct Week {
    double slot[168], diff[169], laps;
} Week;

/* Add w per hour over [a, b). */
static void week_add(Week *wk, int64_t a, int64_t b, double w)
{
    if (b <= a)
        return;
    int64_t ha = civil_floor_div(a, HOUR), hb = civil_floor_div(b, HOUR);
    int sa = week_slot(a);
    if (ha == hb) {
        wk->slot[sa] += w * (double)(b - a) / HOUR;
        return;
    }
    wk->slot[sa] += w * (double)((ha + 1) * HOUR - a) / HOUR;
    wk->slot[week_slot(b)] += w * (double)(b - hb * HOUR) / HOUR;
    int64_t full = hb - ha - 1; /* whole hours ha + 1 .. hb - 1 */
    wk->laps += w * (double)(full / 168);
    int s = (sa + 1) % 168, rem = (int)(full % 168);
    wk->diff[s] += w;
    if (s + rem <= 168) {
        wk->diff[s + rem] -= w;
    } else {
        wk->diff[168] -= w;
        wk->diff[0] += w;
        wk->diff[s + rem - 168] -= w;
    }
}

static void week_finish(const Week *wk, double out[168])
{
    double run = 0;
    for (int s = 0; s < 168; s++) {
        run += wk->diff[s];
        out[s] = wk->slot[s] + run + wk->laps;
    }
}

static void hour_of_week(const Ctx *c, int64_t from, int64_t to, double used[168], double cap[168])
{
    const StatsInput *in = c->in;
    Week wu, wc;
    memset(&wu, 0, sizeof wu);
    memset(&wc, 0, sizeof wc);
    for (size_t i = 0; i < in->ninventory; i++) {
        const StatsGpus *g = &in->inventory[i];
        if (!cluster_name_kept(c, g->cluster))
            continue;
        int64_t a = g->from == STATS_TIME_NONE || g->from < from ? from : g->from;
        int64_t b = g->to == STATS_TIME_NONE || g->to > to ? to : g->to;
        week_add(&wc, a, b, g->gpus);
    }
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        int64_t end = job_end(j);
        if (j->gpus <= 0 || end == STATS_TIME_NONE || !job_kept(c, i))
            continue;
        week_add(&wu, jstart(j) < from ? from : jstart(j), end > to ? to : end, j->gpus);
    }
    week_finish(&wu, used);
    week_finish(&wc, cap);
}

void stats_hour_of_week(const StatsInput *in, const StatsOpts *o, int64_t from, int64_t to,
                        double used[168], double cap[168])
{
    Ctx c;
    if (ctx_init(&c, in, o, NULL) < 0) {
        memset(used, 0, 168 * sizeof *used);
        memset(cap, 0, 168 * sizeof *cap);
    } else {
        hour_of_week(&c, from, to, used, cap);
    }
    ctx_done(&c);
}

static const char *const day_name[7] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};

/* clang-format off */
static const StatsCol heat_util_cols[] = {
    {"day", "day", "", STATS_COL_TEXT, 0},
    {"h00", "00", "%", STATS_COL_REAL, 0},
    {"h01", "01", "%", STATS_COL_REAL, 0},
    {"h02", "02", "%", STATS_COL_REAL, 0},
    {"h03", "03", "%", STATS_COL_REAL, 0},
    {"h04", "04", "%", STATS_COL_REAL, 0},
    {"h05", "05", "%", STATS_COL_REAL, 0},
    {"h06", "06", "%", STATS_COL_REAL, 0},
    {"h07", "07", "%", STATS_COL_REAL, 0},
    {"h08", "08", "%", STATS_COL_REAL, 0},
    {"h09", "09", "%", STATS_COL_REAL, 0},
    {"h10", "10", "%", STATS_COL_REAL, 0},
    {"h11", "11", "%", STATS_COL_REAL, 0},
    {"h12", "12", "%", STATS_COL_REAL, 0},
    {"h13", "13", "%", STATS_COL_REAL, 0},
    {"h14", "14", "%", STATS_COL_REAL, 0},
    {"h15", "15", "%", STATS_COL_REAL, 0},
    {"h16", "16", "%", STATS_COL_REAL, 0},
    {"h17", "17", "%", STATS_COL_REAL, 0},
    {"h18", "18", "%", STATS_COL_REAL, 0},
    {"h19", "19", "%", STATS_COL_REAL, 0},
    {"h20", "20", "%", STATS_COL_REAL, 0},
    {"h21", "21", "%", STATS_COL_REAL, 0},
    {"h22", "22", "%", STATS_COL_REAL, 0},
    {"h23", "23", "%", STATS_COL_REAL, 0},
};

static const StatsCol heat_gpus_cols[] = {
    {"day", "day", "", STATS_COL_TEXT, 0},
    {"h00", "00", "GPUs", STATS_COL_REAL, 1},
    {"h01", "01", "GPUs", STATS_COL_REAL, 1},
    {"h02", "02", "GPUs", STATS_COL_REAL, 1},
    {"h03", "03", "GPUs", STATS_COL_REAL, 1},
    {"h04", "04", "GPUs", STATS_COL_REAL, 1},
    {"h05", "05", "GPUs", STATS_COL_REAL, 1},
    {"h06", "06", "GPUs", STATS_COL_REAL, 1},
    {"h07", "07", "GPUs", STATS_COL_REAL, 1},
    {"h08", "08", "GPUs", STATS_COL_REAL, 1},
    {"h09", "09", "GPUs", STATS_COL_REAL, 1},
    {"h10", "10", "GPUs", STATS_COL_REAL, 1},
    {"h11", "11", "GPUs", STATS_COL_REAL, 1},
    {"h12", "12", "GPUs", STATS_COL_REAL, 1},
    {"h13", "13", "GPUs", STATS_COL_REAL, 1},
    {"h14", "14", "GPUs", STATS_COL_REAL, 1},
    {"h15", "15", "GPUs", STATS_COL_REAL, 1},
    {"h16", "16", "GPUs", STATS_COL_REAL, 1},
    {"h17", "17", "GPUs", STATS_COL_REAL, 1},
    {"h18", "18", "GPUs", STATS_COL_REAL, 1},
    {"h19", "19", "GPUs", STATS_COL_REAL, 1},
    {"h20", "20", "GPUs", STATS_COL_REAL, 1},
    {"h21", "21", "GPUs", STATS_COL_REAL, 1},
    {"h22", "22", "GPUs", STATS_COL_REAL, 1},
    {"h23", "23", "GPUs", STATS_COL_REAL, 1},
};
/* clang-format on */

static void heat_tables(const Ctx *c, StatsReport *r)
{
    double used[168], cap[168], hours[168];
    Week wh;
    memset(&wh, 0, sizeof wh);
    hour_of_week(c, c->w0, c->w1, used, cap);
    week_add(&wh, c->w0, c->w1, 1.0);
    week_finish(&wh, hours);
    StatsTable *tu = stats_report_add_table(r, "hour_of_week", "Utilisation by hour of the week (UTC)",
                                  heat_util_cols, sizeof heat_util_cols / sizeof *heat_util_cols);
    StatsTable *tg =
        stats_report_add_table(r, "hour_of_week_gpus", "Mean GPUs in use by hour of the week (UTC)",
                     heat_gpus_cols, sizeof heat_gpus_cols / sizeof *heat_gpus_cols);
    for (int d = 0; d < 7; d++) {
        StatsCell *ru = stats_table_add_row(tu);
        stats_cell_set_text(tu, &ru[0], day_name[d]);
        StatsCell *rg = stats_table_add_row(tg);
        stats_cell_set_text(tg, &rg[0], day_name[d]);
        for (int h = 0; h < 24; h++) {
            ru[1 + h].num = 100 * ratio(used[d * 24 + h], cap[d * 24 + h]);
            rg[1 + h].num = ratio(used[d * 24 + h], hours[d * 24 + h]);
        }
    }
}

/* ---- utilization ---- */

/* Every period from the window's first to its last. Caller frees. */
static int32_t *periods_list(const Ctx *c, size_t *n)
{
    *n = 0;
    if (c->w1 <= c->w0)
        return NULL;
    int32_t first = period_of(c, c->w0), last = period_of(c, c->w1 - 1);
    size_t cap = 16;
    int32_t *v = xmalloc(cap * sizeof *v);
    for (int32_t p = first;;) {
        if (*n == cap)
            v = xrealloc(v, (cap *= 2) * sizeof *v);
        v[(*n)++] = p;
        if (p >= last || c->o->by == STATS_BY_ALL)
            break;
        p = c->o->by == STATS_BY_MONTH ? month_add(p, 1) : p + 1;
    }
    return v;
}

typedef struct UtilAcc {
    double gpu_h, cpu_h, wait_s;
    int64_t jobs, waited;
} UtilAcc;

static const StatsCol util_cols[] = {
    {"period", "period", "", STATS_COL_TEXT, 0},
    {"cluster", "cluster", "", STATS_COL_TEXT, 0},
    {"gpus", "GPUs", "", STATS_COL_REAL, 1},
    {"capacity_gpu_hours", "capacity GPU-h", "GPU-h", STATS_COL_REAL, 0},
    {"gpu_hours", "used GPU-h", "GPU-h", STATS_COL_REAL, 0},
    {"util_pct", "util", "%", STATS_COL_REAL, 1},
    {"jobs", "jobs", "", STATS_COL_INT, 0},
    {"cpu_hours", "CPU-h", "CPU-h", STATS_COL_REAL, 0},
    {"wait_mean_h", "wait mean", "h", STATS_COL_REAL, 2},
};

static const StatsCol share_cols[] = {
    {"period", "period", "", STATS_COL_TEXT, 0},
    {"group", "group", "", STATS_COL_TEXT, 0},
    {"gpu_hours", "GPU-h", "GPU-h", STATS_COL_REAL, 0},
    {"share_pct", "share", "%", STATS_COL_REAL, 1},
    {"capacity_pct", "of capacity", "%", STATS_COL_REAL, 1},
    {"cpu_hours", "CPU-h", "CPU-h", STATS_COL_REAL, 0},
    {"jobs", "jobs", "", STATS_COL_INT, 0},
};

static const StatsCol event_cols[] = {
    {"date", "date", "", STATS_COL_TEXT, 0},
    {"cluster", "cluster", "", STATS_COL_TEXT, 0},
    {"label", "event", "", STATS_COL_TEXT, 0},
    {"util_before_pct", "util before", "%", STATS_COL_REAL, 1},
    {"util_after_pct", "util after", "%", STATS_COL_REAL, 1},
    {"util_change_pts", "change pts", "", STATS_COL_REAL, 1},
    {"wait_before_h", "wait before", "h", STATS_COL_REAL, 2},
    {"wait_after_h", "wait after", "h", STATS_COL_REAL, 2},
    {"wait_change_h", "change", "h", STATS_COL_REAL, 2},
    {"wait_p50_before_h", "p50 before", "h", STATS_COL_REAL, 2},
    {"wait_p50_after_h", "p50 after", "h", STATS_COL_REAL, 2},
    {"gpu_hours_before", "GPU-h before", "GPU-h", STATS_COL_REAL, 0},
    {"gpu_hours_after", "GPU-h after", "GPU-h", STATS_COL_REAL, 0},
};

#define NCOLS(a) (sizeof(a) / sizeof *(a))

/* Cluster names of usage and inventory, in one dictionary; map[id] is
 * the dictionary id of database cluster id. */
typedef struct ClusterSet {
    Dict d;
    int32_t *map;
} ClusterSet;

static void clusters_init(ClusterSet *cs, const Ctx *c)
{
    const StatsInput *in = c->in;
    dict_init(&cs->d);
    cs->map = xmalloc((in->clusters.n + 1) * sizeof *cs->map);
    for (size_t i = 0; i < in->clusters.n + 1; i++)
        cs->map[i] = -1;
    for (size_t i = 0; i < in->nusage; i++) {
        int32_t id = in->usage[i].cluster;
        if (cluster_kept(c, id) && id >= 0 && (size_t)id < in->clusters.n && cs->map[id] < 0)
            cs->map[id] = dict_id(&cs->d, name_or(&in->clusters, id, "(none)"));
    }
    for (size_t i = 0; i < in->njobs; i++) {
        int32_t id = in->jobs[i].cluster;
        if (cluster_kept(c, id) && id >= 0 && (size_t)id < in->clusters.n && cs->map[id] < 0)
            cs->map[id] = dict_id(&cs->d, name_or(&in->clusters, id, "(none)"));
    }
    for (size_t i = 0; i < in->ninventory; i++)
        if (cluster_name_kept(c, in->inventory[i].cluster))
            dict_id(&cs->d, in->inventory[i].cluster);
    dict_rank(&cs->d);
}

static void clusters_done(ClusterSet *cs)
{
    dict_done(&cs->d);
    free(cs->map);
}

static int32_t cs_id(const ClusterSet *cs, const StatsNames *names, int32_t id)
{
    return id >= 0 && (size_t)id < names->n + 1 ? cs->map[id] : -1;
}

/* usage and waits per (period, cluster of cs) and per (period, -1). */
static void util_collect(const Ctx *c, const ClusterSet *cs, Agg *a)
{
    const StatsInput *in = c->in;
    for (size_t i = 0; i < in->nusage; i++) {
        const StatsUsage *u = &in->usage[i];
        int32_t g, d, k = cs_id(cs, &in->clusters, u->cluster);
        if (k < 0 || !usage_kept(c, u, &g, &d))
            continue;
        UtilAcc *x = agg_get(a, period_of_month(c, u->month), k, 0, 0);
        x->gpu_h += u->gpu_hours;
        x->cpu_h += u->cpu_hours;
        x->jobs += u->jobs;
        if (in->njobs == 0) {
            x->wait_s += u->wait_s;
            x->waited += u->waited;
        }
    }
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        int32_t k = cs_id(cs, &in->clusters, j->cluster);
        double w = job_wait(j);
        if (w < 0 || k < 0 || !job_kept(c, i))
            continue;
        UtilAcc *x = agg_get(a, job_period(c, i), k, 0, 0);
        x->wait_s += w;
        x->waited++;
    }
    size_t n = a->n; /* the clusters' cells, summed into (period, -1) */
    for (size_t i = 0; i < n; i++) {
        AggKey k = a->keys[i];
        if (k.a < 0)
            continue;
        UtilAcc *all = agg_get(a, k.period, -1, 0, 0), *x = agg_val(a, i);
        all->gpu_h += x->gpu_h;
        all->cpu_h += x->cpu_h;
        all->jobs += x->jobs;
        all->wait_s += x->wait_s;
        all->waited += x->waited;
    }
}

/* cap < 0: the inventory says nothing of the cluster. */
static void util_row(const Ctx *c, StatsTable *t, int32_t p, const char *cluster, const UtilAcc *x,
                     double cap)
{
    int64_t from, to;
    period_bounds(c, p, &from, &to);
    from = from < c->w0 ? c->w0 : from;
    to = to > c->w1 ? c->w1 : to;
    StatsCell *row = stats_table_add_row(t);
    put_period(c, t, &row[0], p);
    stats_cell_set_text(t, &row[1], cluster);
    row[2].num = to > from && cap >= 0 ? cap * HOUR / (double)(to - from) : NAN;
    row[3].num = cap >= 0 ? cap : NAN;
    row[4].num = x ? x->gpu_h : 0;
    row[5].num = 100 * ratio(x ? x->gpu_h : 0, cap);
    row[6].num = x ? (double)x->jobs : 0;
    row[7].num = x ? x->cpu_h : 0;
    row[8].num = x ? ratio(x->wait_s, (double)x->waited) / HOUR : NAN;
}

static void util_table(const Ctx *c, StatsReport *r, const ClusterSet *cs, const Agg *a)
{
    StatsTable *t = stats_report_add_table(r, "utilization", "GPU utilisation per period and cluster",
                                 util_cols, NCOLS(util_cols));
    size_t np, nc = cs->d.n;
    int32_t *per = periods_list(c, &np);
    int32_t *order = xmalloc((nc + 1) * sizeof *order);
    for (size_t i = 0; i < nc; i++)
        order[cs->d.rank[i]] = (int32_t)i;
    for (size_t i = 0; i < np; i++) {
        int64_t from, to;
        period_bounds(c, per[i], &from, &to);
        double cap_all = 0;
        int known_all = 0;
        for (size_t k = 0; k < nc; k++) {
            cap_all += ctx_capacity(c, cs->d.name[k], from, to);
            known_all |= inventory_has(c->in, cs->d.name[k]);
        }
        util_row(c, t, per[i], "all", agg_find(a, per[i], -1, 0, 0), known_all ? cap_all : -1);
        for (size_t k = 0; k < nc; k++) {
            const char *name = cs->d.name[order[k]];
            double cap = ctx_capacity(c, name, from, to);
            const UtilAcc *x = agg_find(a, per[i], order[k], 0, 0);
            if (cap > 0 || x)
                util_row(c, t, per[i], name, x, inventory_has(c->in, name) ? cap : -1);
        }
    }
    free(order);
    free(per);
}

typedef struct ShareAcc {
    double gpu_h, cpu_h;
    int64_t jobs;
} ShareAcc;

static void share_table(const Ctx *c, StatsReport *r)
{
    const StatsInput *in = c->in;
    Agg g, tot;
    agg_init(&g, sizeof(ShareAcc));
    agg_init(&tot, sizeof(ShareAcc));
    for (size_t i = 0; i < in->nusage; i++) {
        const StatsUsage *u = &in->usage[i];
        int32_t grp, d;
        if (!cluster_kept(c, u->cluster))
            continue;
        int kept = usage_kept(c, u, &grp, &d);
        int32_t p = period_of_month(c, u->month);
        ShareAcc *t = agg_get(&tot, p, 0, 0, 0);
        t->gpu_h += u->gpu_hours;
        if (!kept)
            continue;
        ShareAcc *x = agg_get(&g, p, grp, 0, 0);
        x->gpu_h += u->gpu_hours;
        x->cpu_h += u->cpu_hours;
        x->jobs += u->jobs;
    }
    StatsTable *t = stats_report_add_table(r, "groups", "Each group's share of the GPU-hours", share_cols,
                                 NCOLS(share_cols));
    size_t *order = agg_order(&g, c->ro.groups.rank, NULL, NULL);
    for (size_t i = 0; i < g.n; i++) {
        const AggKey *k = &g.keys[order[i]];
        const ShareAcc *x = agg_val(&g, order[i]);
        if (x->gpu_h == 0 && x->cpu_h == 0 && x->jobs == 0)
            continue;
        int64_t from, to;
        period_bounds(c, k->period, &from, &to);
        StatsCell *row = stats_table_add_row(t);
        put_period(c, t, &row[0], k->period);
        stats_cell_set_text(t, &row[1], c->ro.groups.name[k->a]);
        row[2].num = x->gpu_h;
        const ShareAcc *all = agg_find(&tot, k->period, 0, 0, 0);
        row[3].num = 100 * ratio(x->gpu_h, all ? all->gpu_h : 0);
        row[4].num = 100 * ratio(x->gpu_h, ctx_capacity(c, NULL, from, to));
        row[5].num = x->cpu_h;
        row[6].num = (double)x->jobs;
    }
    free(order);
    agg_done(&g);
    agg_done(&tot);
}

/* One event's windows: months [m0, m1) before and after. */
typedef struct EventWin {
    int32_t b0, b1, a0, a1;
    const char *cluster; /* NULL: every cluster kept */
    int32_t cluster_id;  /* its id; -1 every cluster, 0 one with no jobs */
    double used[2], wait_s[2];
    int64_t waited[2];
    DVec waits[2];
} EventWin;

static int month_in(int32_t m, int32_t from, int32_t to)
{
    return m >= from && m < to;
}

static void event_window(const Ctx *c, const StatsEvent *e, EventWin *w)
{
    memset(w, 0, sizeof *w);
    int32_t m = stats_month_of(e->at);
    int32_t a0 = e->at == stats_month_start(m) ? m : month_add(m, 1);
    w->b0 = month_add(m, -STATS_EVENT_MONTHS);
    w->b1 = m;
    w->a0 = a0;
    w->a1 = month_add(a0, STATS_EVENT_MONTHS);
    w->cluster = e->cluster && e->cluster[0] ? e->cluster : NULL;
    w->cluster_id = w->cluster ? names_find(&c->in->clusters, w->cluster) : -1;
    w->cluster_id = w->cluster && w->cluster_id < 0 ? 0 : w->cluster_id;
}

/* Which side of w (0 before, 1 after) month m of cluster falls in, or -1. */
static int event_side(const EventWin *w, int32_t m, int32_t cluster)
{
    if (w->cluster_id >= 0 && (cluster != w->cluster_id || cluster == 0))
        return -1;
    return month_in(m, w->b0, w->b1) ? 0 : month_in(m, w->a0, w->a1) ? 1 : -1;
}

static void events_collect(const Ctx *c, EventWin *w, size_t nw)
{
    const StatsInput *in = c->in;
    for (size_t i = 0; i < in->nusage; i++) {
        const StatsUsage *u = &in->usage[i];
        int32_t g, d;
        if (!usage_kept(c, u, &g, &d))
            continue;
        for (size_t e = 0; e < nw; e++) {
            int s = event_side(&w[e], u->month, u->cluster);
            if (s < 0)
                continue;
            w[e].used[s] += u->gpu_hours;
            if (in->njobs == 0) {
                w[e].wait_s[s] += u->wait_s;
                w[e].waited[s] += u->waited;
            }
        }
    }
    for (size_t i = 0; i < in->njobs && nw > 0; i++) {
        const StatsJob *j = &in->jobs[i];
        double wt = job_wait(j);
        if (wt < 0 || !job_kept(c, i))
            continue;
        int32_t m = c->jmonth[i];
        for (size_t e = 0; e < nw; e++) {
            int s = event_side(&w[e], m, j->cluster);
            if (s < 0)
                continue;
            w[e].wait_s[s] += wt;
            w[e].waited[s]++;
            dvec_push(&w[e].waits[s], wt);
        }
    }
}

static void events_table(const Ctx *c, StatsReport *r)
{
    const StatsInput *in = c->in;
    EventWin *w = xcalloc(in->nevents + 1, sizeof *w);
    size_t *idx = xcalloc(in->nevents + 1, sizeof *idx), nw = 0;
    for (size_t i = 0; i < in->nevents; i++) {
        const StatsEvent *e = &in->events[i];
        if (e->at == STATS_TIME_NONE ||
            (e->cluster && e->cluster[0] && !cluster_name_kept(c, e->cluster)))
            continue;
        event_window(c, e, &w[nw]);
        idx[nw++] = i;
    }
    events_collect(c, w, nw);
    StatsTable *t =
        stats_report_add_table(r, "events", "Utilisation and waits three months before and after each event",
                     event_cols, NCOLS(event_cols));
    t->note = "whole months; the event's own month is left out unless the event falls on its "
              "first day; waits are means and medians of the attempts that started";
    for (size_t k = 0; k < nw; k++) {
        const StatsEvent *e = &in->events[idx[k]];
        EventWin *x = &w[k];
        double cap[2] = {
            ctx_capacity(c, x->cluster, stats_month_start(x->b0), stats_month_start(x->b1)),
            ctx_capacity(c, x->cluster, stats_month_start(x->a0), stats_month_start(x->a1))};
        StatsCell *row = stats_table_add_row(t);
        stats_cell_set_text(t, &row[0], e->date);
        stats_cell_set_text(t, &row[1], x->cluster ? x->cluster : c->o->cluster ? c->o->cluster : "all");
        stats_cell_set_text(t, &row[2], e->label);
        for (int s = 0; s < 2; s++) {
            row[3 + s].num = 100 * ratio(x->used[s], cap[s]);
            row[6 + s].num = ratio(x->wait_s[s], (double)x->waited[s]) / HOUR;
            row[9 + s].num = stats_quantile(x->waits[s].v, x->waits[s].n, 0.5) / HOUR;
            row[11 + s].num = x->used[s];
            free(x->waits[s].v);
        }
        row[5].num = row[4].num - row[3].num;
        row[8].num = row[7].num - row[6].num;
    }
    free(w);
    free(idx);
}

static void kind_utilization(const Ctx *c, StatsReport *r)
{
    ClusterSet cs;
    Agg a;
    clusters_init(&cs, c);
    agg_init(&a, sizeof(UtilAcc));
    util_collect(c, &cs, &a);
    util_table(c, r, &cs, &a);
    share_table(c, r);
    events_table(c, r);
    heat_tables(c, r);
    agg_done(&a);
    clusters_done(&cs);
}

/* ---- preemption ---- */

typedef struct PreAcc {
    int64_t jobs, attempts, pre_attempts, pre_jobs, completed, pre_completed;
    double gpu_h, gpu_lost, cpu_h, cpu_lost;
    DVec runs; /* run time of each preempted attempt, s */
} PreAcc;

static const StatsCol pre_cols[] = {
    {"period", "period", "", STATS_COL_TEXT, 0},
    {"group", "group", "", STATS_COL_TEXT, 0},
    {"partition", "partition", "", STATS_COL_TEXT, 0},
    {"preemptible", "preemptible", "", STATS_COL_BOOL, 0},
    {"jobs", "jobs", "", STATS_COL_INT, 0},
    {"attempts", "attempts", "", STATS_COL_INT, 0},
    {"preempted_attempts", "preempted", "", STATS_COL_INT, 0},
    {"preempted_jobs", "jobs hit", "", STATS_COL_INT, 0},
    {"preempted_jobs_pct", "hit", "%", STATS_COL_REAL, 1},
    {"completed_pct", "completed", "%", STATS_COL_REAL, 1},
    {"preempted_completed_pct", "hit, completed", "%", STATS_COL_REAL, 1},
    {"gpu_hours", "GPU-h", "GPU-h", STATS_COL_REAL, 1},
    {"gpu_hours_lost", "GPU-h lost", "GPU-h", STATS_COL_REAL, 1},
    {"lost_pct", "lost", "%", STATS_COL_REAL, 1},
    {"cpu_hours", "CPU-h", "CPU-h", STATS_COL_REAL, 1},
    {"cpu_hours_lost", "CPU-h lost", "CPU-h", STATS_COL_REAL, 1},
    {"run_before_preempt_p50_h", "run p50", "h", STATS_COL_REAL, 2},
};

static const char pre_note[] =
    "preempted: attempts ended by preemption; jobs hit: jobs preempted at least once; "
    "lost: the runs of preempted attempts; run p50: median run before a preemption";

static int name_has(const char *name, const char *part)
{
    return name && strstr(name, part) != NULL;
}

/* preemptible[id]: the partition saw a preemption, or its name says so. */
static unsigned char *preemptible_partitions(const StatsInput *in)
{
    unsigned char *p = xcalloc(in->partitions.n + 1, 1);
    for (size_t i = 0; i < in->partitions.n; i++) {
        const char *n = in->partitions.v[i];
        p[i] = name_has(n, "preempt") || name_has(n, "scaveng") || name_has(n, "spot");
    }
    for (size_t i = 0; i < in->njobs; i++) {
        int32_t id = in->jobs[i].partition;
        if (in->jobs[i].state == STATS_ST_PREEMPTED && id >= 0 && (size_t)id < in->partitions.n)
            p[id] = 1;
    }
    return p;
}

static void pre_add(PreAcc *x, const StatsJob *j)
{
    double h = j->elapsed > 0 && jstart(j) != STATS_TIME_NONE ? (double)j->elapsed / HOUR : 0;
    double cpus = j->ncpus > 0 ? j->ncpus : 0;
    int pre = j->state == STATS_ST_PREEMPTED;
    x->attempts++;
    x->gpu_h += j->gpus * h;
    x->cpu_h += cpus * h;
    if (pre) {
        x->pre_attempts++;
        x->gpu_lost += j->gpus * h;
        x->cpu_lost += cpus * h;
        if (j->elapsed >= 0 && jstart(j) != STATS_TIME_NONE)
            dvec_push(&x->runs, (double)j->elapsed);
    }
    if (j->flags & STATS_JOB_FINAL) {
        int was = (j->flags & STATS_JOB_WAS_PREEMPTED) || pre;
        int done = j->state == STATS_ST_COMPLETED;
        x->jobs++;
        x->completed += done;
        x->pre_jobs += was;
        x->pre_completed += was && done;
    }
}

static void pre_row(const Ctx *c, StatsTable *t, const AggKey *k, PreAcc *x,
                    const unsigned char *preemptible)
{
    const StatsInput *in = c->in;
    StatsCell *row = stats_table_add_row(t);
    put_period(c, t, &row[0], k->period);
    stats_cell_set_text(t, &row[1], k->a < 0 ? "all" : c->ro.groups.name[k->a]);
    stats_cell_set_text(t, &row[2], k->b < 0 ? "all" : name_or(&in->partitions, k->b, "(none)"));
    if (k->b >= 0)
        row[3].num = (size_t)k->b < in->partitions.n && preemptible[k->b];
    row[4].num = (double)x->jobs;
    row[5].num = (double)x->attempts;
    row[6].num = (double)x->pre_attempts;
    row[7].num = (double)x->pre_jobs;
    row[8].num = 100 * ratio((double)x->pre_jobs, (double)x->jobs);
    row[9].num = 100 * ratio((double)x->completed, (double)x->jobs);
    row[10].num = 100 * ratio((double)x->pre_completed, (double)x->pre_jobs);
    row[11].num = x->gpu_h;
    row[12].num = x->gpu_lost;
    row[13].num = 100 * ratio(x->gpu_lost, x->gpu_h);
    row[14].num = x->cpu_h;
    row[15].num = x->cpu_lost;
    row[16].num = stats_quantile(x->runs.v, x->runs.n, 0.5) / HOUR;
}

static void pre_merge(PreAcc *x, const PreAcc *y)
{
    x->jobs += y->jobs;
    x->attempts += y->attempts;
    x->pre_attempts += y->pre_attempts;
    x->pre_jobs += y->pre_jobs;
    x->completed += y->completed;
    x->pre_completed += y->pre_completed;
    x->gpu_h += y->gpu_h;
    x->gpu_lost += y->gpu_lost;
    x->cpu_h += y->cpu_h;
    x->cpu_lost += y->cpu_lost;
    for (size_t i = 0; i < y->runs.n; i++)
        dvec_push(&x->runs, y->runs.v[i]);
}

/* Cells per (period, group, partition), then the rows: each cell, and its
 * sums over groups ("all"), partitions ("all") and both. */
static void kind_preemption(const Ctx *c, StatsReport *r)
{
    const StatsInput *in = c->in;
    unsigned char *pp = preemptible_partitions(in);
    Agg cells, rows;
    agg_init(&cells, sizeof(PreAcc));
    agg_init(&rows, sizeof(PreAcc));
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        if (job_kept(c, i))
            pre_add(agg_get(&cells, job_period(c, i), c->jgroup[i],
                            name_id(&in->partitions, j->partition), 0),
                    j);
    }
    for (size_t i = 0; i < cells.n; i++) {
        const AggKey *k = &cells.keys[i];
        PreAcc *x = agg_val(&cells, i);
        pre_merge(agg_get(&rows, k->period, -1, -1, 0), x);
        pre_merge(agg_get(&rows, k->period, -1, k->b, 0), x);
        pre_merge(agg_get(&rows, k->period, k->a, -1, 0), x);
        pre_merge(agg_get(&rows, k->period, k->a, k->b, 0), x);
        free(x->runs.v);
    }
    agg_done(&cells);
    StatsTable *t = stats_report_add_table(r, "preemption", "Preemption per group and partition", pre_cols,
                                 NCOLS(pre_cols));
    t->note = pre_note;
    size_t *order = agg_order(&rows, c->ro.groups.rank, c->part_rank, NULL);
    for (size_t i = 0; i < rows.n; i++) {
        PreAcc *x = agg_val(&rows, order[i]);
        /* with --group, the rows of every group are the group's own: once */
        if (!(c->o->group && rows.keys[order[i]].a < 0))
            pre_row(c, t, &rows.keys[order[i]], x, pp);
        free(x->runs.v);
    }
    free(order);
    agg_done(&rows);
    free(pp);
}

/* ---- waits ---- */

/* Waits and times to solution are whole seconds: each cell of the table
 * keeps them as a sorted array of 32-bit integers (radix-sorted once), and
 * a row that sums several cells (a partition, a GPU count, a period) finds
 * its quantiles over the union of their sorted arrays by bisection on the
 * value, without copying them. */
typedef struct UVec {
    uint32_t *v;
    size_t n, cap;
    double sum;
} UVec;

static void uvec_push(UVec *u, double x)
{
    if (u->n == u->cap) {
        u->cap = u->cap ? u->cap * 2 : 16;
        u->v = xrealloc(u->v, u->cap * sizeof *u->v);
    }
    u->v[u->n++] = x >= 4294967295.0 ? UINT32_MAX : (uint32_t)x;
    u->sum += x;
}

/* LSD radix sort, three passes of 11 bits. */
static void radix_sort(uint32_t *v, size_t n)
{
    if (n < 2)
        return;
    uint32_t *tmp = xmalloc(n * sizeof *tmp), *src = v, *dst = tmp;
    for (int shift = 0; shift < 33; shift += 11) {
        size_t count[2049] = {0};
        for (size_t i = 0; i < n; i++)
            count[((src[i] >> shift) & 2047) + 1]++;
        for (int b = 0; b < 2048; b++)
            count[b + 1] += count[b];
        for (size_t i = 0; i < n; i++)
            dst[count[(src[i] >> shift) & 2047]++] = src[i];
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != v)
        memcpy(v, src, n * sizeof *v);
    free(tmp);
}

/* Values <= x in sorted v. */
static size_t count_le(const UVec *u, uint32_t x)
{
    size_t lo = 0, hi = u->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (u->v[mid] <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The k-th smallest (0-based) of the union of sorted sets. */
static uint32_t union_kth(const UVec *const *sets, size_t nsets, size_t k)
{
    if (nsets == 1)
        return sets[0]->v[k];
    uint32_t lo = 0, hi = UINT32_MAX;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        size_t c = 0;
        for (size_t i = 0; i < nsets; i++)
            c += count_le(sets[i], mid);
        if (c > k)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Quantiles ps[0..k) of the union (numpy's linear interpolation), and
 * the count and mean. */
static size_t union_quantiles(const UVec *const *sets, size_t nsets, const double *ps, size_t k,
                              double *out, double *mean)
{
    size_t n = 0;
    double sum = 0;
    for (size_t i = 0; i < nsets; i++) {
        n += sets[i]->n;
        sum += sets[i]->sum;
    }
    *mean = n ? sum / (double)n : NAN;
    for (size_t q = 0; q < k; q++) {
        if (n == 0) {
            out[q] = NAN;
            continue;
        }
        double h = (double)(n - 1) * ps[q];
        size_t lo = (size_t)h;
        double a = union_kth(sets, nsets, lo);
        double b = lo + 1 < n && h > (double)lo ? union_kth(sets, nsets, lo + 1) : a;
        out[q] = a + (h - (double)lo) * (b - a);
    }
    return n;
}

typedef struct WaitAcc {
    UVec waits, tts; /* s, sorted once collected */
} WaitAcc;

static const StatsCol wait_cols[] = {
    {"period", "period", "", STATS_COL_TEXT, 0},
    {"partition", "partition", "", STATS_COL_TEXT, 0},
    {"gpus", "GPUs", "", STATS_COL_TEXT, 0},
    {"attempts", "attempts", "", STATS_COL_INT, 0},
    {"wait_p50_h", "wait p50", "h", STATS_COL_REAL, 2},
    {"wait_p90_h", "p90", "h", STATS_COL_REAL, 2},
    {"wait_p99_h", "p99", "h", STATS_COL_REAL, 2},
    {"wait_mean_h", "mean", "h", STATS_COL_REAL, 2},
    {"jobs_completed", "completed jobs", "", STATS_COL_INT, 0},
    {"tts_p50_h", "time to solution p50", "h", STATS_COL_REAL, 2},
    {"tts_p90_h", "p90", "h", STATS_COL_REAL, 2},
};

/* Time from the job's first submission to the end of its final run, for
 * a completed final attempt; -1 otherwise. */
static double job_tts(const StatsJob *j)
{
    int64_t end = job_end(j);
    if (!(j->flags & STATS_JOB_FINAL) || j->state != STATS_ST_COMPLETED || end == STATS_TIME_NONE ||
        jsub(j) == STATS_TIME_NONE)
        return -1;
    int64_t first = jsub(j) - (j->first_ago > 0 ? j->first_ago : 0);
    return end >= first ? (double)(end - first) : -1;
}

/* One row over the cells in cells[0..n). */
static void wait_row(const Ctx *c, StatsTable *t, int32_t p, const char *part, const char *gpus,
                     const WaitAcc *const *cells, size_t n)
{
    static const double ps[3] = {0.5, 0.9, 0.99};
    const UVec *w[64], *tt[64];
    double q[3], mean, tmean;
    assert(n <= 64);
    for (size_t i = 0; i < n; i++) {
        w[i] = &cells[i]->waits;
        tt[i] = &cells[i]->tts;
    }
    StatsCell *row = stats_table_add_row(t);
    size_t nw = union_quantiles(w, n, ps, 3, q, &mean);
    put_period(c, t, &row[0], p);
    stats_cell_set_text(t, &row[1], part);
    stats_cell_set_text(t, &row[2], gpus);
    row[3].num = (double)nw;
    for (int k = 0; k < 3; k++)
        row[4 + k].num = q[k] / HOUR;
    row[7].num = mean / HOUR;
    row[8].num = (double)union_quantiles(tt, n, ps, 2, q, &tmean);
    row[9].num = q[0] / HOUR;
    row[10].num = q[1] / HOUR;
}

/* A row over several cells, many at a time (a union of up to 64 sets is
 * searched directly; more are merged first). */
static void wait_row_many(const Ctx *c, StatsTable *t, int32_t p, const char *part,
                          const char *gpus, const WaitAcc *const *cells, size_t n)
{
    if (n == 0)
        return;
    if (n <= 64) {
        wait_row(c, t, p, part, gpus, cells, n);
        return;
    }
    WaitAcc merged;
    memset(&merged, 0, sizeof merged);
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < cells[i]->waits.n; k++)
            uvec_push(&merged.waits, cells[i]->waits.v[k]);
        for (size_t k = 0; k < cells[i]->tts.n; k++)
            uvec_push(&merged.tts, cells[i]->tts.v[k]);
    }
    radix_sort(merged.waits.v, merged.waits.n);
    radix_sort(merged.tts.v, merged.tts.n);
    const WaitAcc *one = &merged;
    wait_row(c, t, p, part, gpus, &one, 1);
    free(merged.waits.v);
    free(merged.tts.v);
}

/* The rows of one period: cells [lo, hi) of order, sorted by partition
 * then GPU class. */
static void wait_period(const Ctx *c, StatsTable *t, const Agg *g, const size_t *order, size_t lo,
                        size_t hi)
{
    const StatsInput *in = c->in;
    int32_t p = g->keys[order[lo]].period;
    size_t n = hi - lo, ncls[NGPU_CLASS] = {0};
    const WaitAcc **all = xmalloc((n + 1) * sizeof *all);
    const WaitAcc **cls = xmalloc((n * NGPU_CLASS + 1) * sizeof *cls);
    for (size_t i = lo; i < hi; i++) {
        int32_t gc = g->keys[order[i]].b;
        all[i - lo] = agg_val(g, order[i]);
        cls[gc * n + ncls[gc]++] = all[i - lo];
    }
    wait_row_many(c, t, p, "all", "all", all, n);
    for (int gc = 0; gc < NGPU_CLASS; gc++)
        wait_row_many(c, t, p, "all", gpu_class_name[gc], cls + gc * n, ncls[gc]);
    for (size_t i = 0; i < n;) {
        int32_t part = g->keys[order[lo + i]].a;
        const char *pname = name_or(&in->partitions, part, "(none)");
        size_t j = i;
        while (j < n && g->keys[order[lo + j]].a == part)
            j++;
        wait_row_many(c, t, p, pname, "all", all + i, j - i);
        for (; i < j; i++)
            wait_row(c, t, p, pname, gpu_class_name[g->keys[order[lo + i]].b], all + i, 1);
    }
    free(all);
    free(cls);
}

static void kind_waits(const Ctx *c, StatsReport *r)
{
    const StatsInput *in = c->in;
    Agg g;
    agg_init(&g, sizeof(WaitAcc));
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        double w = job_wait(j), tts = job_tts(j);
        if ((w < 0 && tts < 0) || !job_kept(c, i))
            continue;
        int32_t part = name_id(&in->partitions, j->partition);
        WaitAcc *x = agg_get(&g, job_period(c, i), part, gpu_class(j->gpus), 0);
        if (w >= 0)
            uvec_push(&x->waits, w);
        if (tts >= 0)
            uvec_push(&x->tts, tts);
    }
    for (size_t i = 0; i < g.n; i++) {
        WaitAcc *x = agg_val(&g, i);
        radix_sort(x->waits.v, x->waits.n);
        radix_sort(x->tts.v, x->tts.n);
    }
    StatsTable *t = stats_report_add_table(r, "waits",
                                 "Waits (submit to start, per attempt) and time to solution "
                                 "(first submit to end, per completed job)",
                                 wait_cols, NCOLS(wait_cols));
    size_t *order = agg_order(&g, c->part_rank, NULL, NULL);
    for (size_t lo = 0; lo < g.n;) {
        size_t hi = lo;
        while (hi < g.n && g.keys[order[hi]].period == g.keys[order[lo]].period)
            hi++;
        wait_period(c, t, &g, order, lo, hi);
        lo = hi;
    }
    for (size_t i = 0; i < g.n; i++) {
        WaitAcc *x = agg_val(&g, i);
        free(x->waits.v);
        free(x->tts.v);
    }
    free(order);
    agg_done(&g);
}

/* ---- efficiency: requested against used, hogging ---- */

/* GPU memory of each GPU type and cluster, from the inventory. */
typedef struct GpuMem {
    double *type_mem;    /* per gpu_type id, GiB; -1 unknown */
    unsigned char *mig;  /* per gpu_type id: a MIG slice */
    double *cluster_mem; /* per cluster id: the memory all its GPUs have, else -1 */
    double *sizes;       /* distinct sizes in the inventory, ascending */
    size_t nsizes;
} GpuMem;

static int ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        int x = *a >= 'A' && *a <= 'Z' ? *a + 32 : *a, y = *b >= 'A' && *b <= 'Z' ? *b + 32 : *b;
        if (x != y)
            return 0;
    }
    return *a == *b;
}

/* "a100_3g.20gb" -> 20 (and *mig = 1); -1 when the name gives no size. */
static double mem_from_name(const char *name, int *mig)
{
    double gib = -1;
    *mig = 0;
    for (const char *p = name; *p; p++) {
        if (p[0] >= '0' && p[0] <= '9' && p[1] == 'g' && p[2] == '.')
            *mig = 1;
        if ((p[0] == 'g' || p[0] == 'G') && (p[1] == 'b' || p[1] == 'B') && p > name &&
            p[-1] >= '0' && p[-1] <= '9') {
            const char *q = p;
            while (q > name && q[-1] >= '0' && q[-1] <= '9')
                q--;
            gib = strtod(q, NULL);
        }
    }
    return gib;
}

static int dbl_cmp(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

static void gpumem_init(GpuMem *m, const StatsInput *in)
{
    memset(m, 0, sizeof *m);
    m->type_mem = xmalloc((in->gpu_types.n + 1) * sizeof *m->type_mem);
    m->mig = xcalloc(in->gpu_types.n + 1, 1);
    for (size_t t = 0; t < in->gpu_types.n + 1; t++) {
        const char *name = t < in->gpu_types.n ? in->gpu_types.v[t] : NULL;
        int mig = 0;
        m->type_mem[t] = -1;
        if (!name || !name[0])
            continue;
        for (size_t i = 0; i < in->ninventory && m->type_mem[t] < 0; i++)
            if (ieq(in->inventory[i].gpu_model, name))
                m->type_mem[t] = in->inventory[i].gpu_mem_gib;
        double named = mem_from_name(name, &mig);
        m->mig[t] = (unsigned char)mig;
        if (m->type_mem[t] < 0 || mig)
            m->type_mem[t] = named;
    }
    m->cluster_mem = xmalloc((in->clusters.n + 1) * sizeof *m->cluster_mem);
    for (size_t c = 0; c < in->clusters.n + 1; c++) {
        m->cluster_mem[c] = -1;
        for (size_t i = 0; c < in->clusters.n && i < in->ninventory; i++) {
            const StatsGpus *g = &in->inventory[i];
            if (!str_eq(g->cluster, in->clusters.v[c]))
                continue;
            if (m->cluster_mem[c] < 0)
                m->cluster_mem[c] = g->gpu_mem_gib;
            else if (m->cluster_mem[c] != g->gpu_mem_gib) {
                m->cluster_mem[c] = -1;
                break;
            }
        }
    }
    m->sizes = xmalloc((in->ninventory + 1) * sizeof *m->sizes);
    for (size_t i = 0; i < in->ninventory; i++)
        m->sizes[m->nsizes++] = in->inventory[i].gpu_mem_gib;
    qsort(m->sizes, m->nsizes, sizeof *m->sizes, dbl_cmp);
}

static void gpumem_done(GpuMem *m)
{
    free(m->type_mem);
    free(m->mig);
    free(m->cluster_mem);
    free(m->sizes);
}

/* Memory of the GPUs a job held, -1 unknown. */
static double job_gpu_mem(const GpuMem *m, const StatsInput *in, const StatsJob *j)
{
    if (j->gpu_type > 0 && (size_t)j->gpu_type < in->gpu_types.n && m->type_mem[j->gpu_type] > 0)
        return m->type_mem[j->gpu_type];
    return (size_t)j->cluster < in->clusters.n ? m->cluster_mem[j->cluster] : -1;
}

/* 1 when the job's measured peak fits a GPU of the inventory smaller than
 * the one it held. */
static int fits_smaller(const GpuMem *m, double held, double peak)
{
    for (size_t i = 0; i < m->nsizes; i++)
        if (peak <= STATS_MEM_HEADROOM * m->sizes[i])
            return m->sizes[i] < held;
    return 0;
}

/* 1 when a one-GPU job (not already on a slice) would fit a MIG slice. */
static int fits_mig(const GpuMem *m, const StatsJob *j, double peak)
{
    if (j->gpus < 0.99f || j->gpus > 1.01f || m->mig[j->gpu_type])
        return 0;
    return peak <= STATS_MEM_HEADROOM * STATS_MIG_MEM_GIB &&
           (j->gpu_util < 0 || j->gpu_util <= STATS_MIG_UTIL);
}

/* Time grid of whole hours [h0, h0 + nh): a value per hour, built from
 * intervals in O(1) each (partial hours direct, whole hours through a
 * difference array), read after grid_finish. */
typedef struct Grid {
    int64_t h0;
    size_t nh;
} Grid;

typedef struct Series {
    double *v, *diff;
} Series;

static void series_alloc(Series *s, const Grid *g)
{
    s->v = xcalloc(g->nh + 1, sizeof *s->v);
    s->diff = xcalloc(g->nh + 2, sizeof *s->diff);
}

static void series_add(Series *s, const Grid *g, int64_t a, int64_t b, double w)
{
    int64_t lo = g->h0 * HOUR, hi = (g->h0 + (int64_t)g->nh) * HOUR;
    a = a < lo ? lo : a;
    b = b > hi ? hi : b;
    if (b <= a)
        return;
    int64_t ha = civil_floor_div(a, HOUR) - g->h0, hb = civil_floor_div(b, HOUR) - g->h0;
    if (ha == hb) {
        s->v[ha] += w * (double)(b - a) / HOUR;
        return;
    }
    s->v[ha] += w * (double)((ha + 1 + g->h0) * HOUR - a) / HOUR;
    s->v[hb] += w * (double)(b - (hb + g->h0) * HOUR) / HOUR;
    s->diff[ha + 1] += w;
    s->diff[hb] -= w;
}

static void series_finish(Series *s, const Grid *g)
{
    double run = 0;
    for (size_t h = 0; h < g->nh; h++) {
        run += s->diff[h];
        s->v[h] += run;
    }
    free(s->diff);
    s->diff = NULL;
}

static void series_free(Series *s)
{
    free(s->v);
    free(s->diff);
}

/* Hogging: per cluster, GPU-hours running, pending without a GPU type
 * (waiting for any GPU) and provided; per (cluster, GPU type) pending. */
typedef struct Hog {
    Grid g;
    size_t nclusters;
    Series *run, *cap, *pend_any;
    Agg pend;    /* (cluster, gpu_type) -> Series */
    double *hog; /* per job: GPU-hours held idle while others waited */
} Hog;

static int hog_job(const StatsJob *j)
{
    return j->gpus > 0;
}

static void hog_grid(Hog *h, const Ctx *c)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < c->in->njobs; i++) {
        const StatsJob *j = &c->in->jobs[i];
        int64_t end = job_end(j);
        if (!hog_job(j) || !cluster_kept(c, j->cluster) || end == STATS_TIME_NONE)
            continue;
        int64_t a = jsub(j) != STATS_TIME_NONE ? jsub(j) : jstart(j);
        lo = a < lo ? a : lo;
        hi = end > hi ? end : hi;
    }
    const int64_t max_hours = 24 * 366 * 30;
    if (hi <= lo) {
        h->g.h0 = 0;
        h->g.nh = 0;
        return;
    }
    int64_t h0 = civil_floor_div(lo, HOUR), h1 = civil_floor_div(hi, HOUR) + 1;
    if (h1 - h0 > max_hours)
        h0 = h1 - max_hours;
    h->g.h0 = h0;
    h->g.nh = (size_t)(h1 - h0);
}

static Series *pend_series(Hog *h, int32_t cluster, int32_t type)
{
    size_t before = h->pend.n;
    Series *s = agg_get(&h->pend, cluster, type, 0, 0);
    if (h->pend.n > before)
        series_alloc(s, &h->g);
    return s;
}

static void hog_build(Hog *h, const Ctx *c)
{
    const StatsInput *in = c->in;
    h->nclusters = in->clusters.n + 1;
    h->run = xcalloc(h->nclusters, sizeof *h->run);
    h->cap = xcalloc(h->nclusters, sizeof *h->cap);
    h->pend_any = xcalloc(h->nclusters, sizeof *h->pend_any);
    agg_init(&h->pend, sizeof(Series));
    for (size_t k = 0; k < h->nclusters; k++) {
        series_alloc(&h->run[k], &h->g);
        series_alloc(&h->cap[k], &h->g);
        series_alloc(&h->pend_any[k], &h->g);
    }
    for (size_t i = 0; i < in->ninventory; i++) {
        const StatsGpus *v = &in->inventory[i];
        int32_t k = names_find(&in->clusters, v->cluster);
        if (k > 0)
            series_add(&h->cap[k], &h->g, v->from == STATS_TIME_NONE ? INT64_MIN / 2 : v->from,
                       v->to == STATS_TIME_NONE ? INT64_MAX / 2 : v->to, v->gpus);
    }
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        if (!hog_job(j) || (size_t)j->cluster >= h->nclusters || !cluster_kept(c, j->cluster))
            continue;
        int64_t end = job_end(j);
        if (end != STATS_TIME_NONE)
            series_add(&h->run[j->cluster], &h->g, jstart(j), end, j->gpus);
        if (jstart(j) != STATS_TIME_NONE && jsub(j) != STATS_TIME_NONE && jstart(j) > jsub(j)) {
            Series *p = j->gpu_type > 0 ? pend_series(h, j->cluster, j->gpu_type)
                                        : &h->pend_any[j->cluster];
            series_add(p, &h->g, jsub(j), jstart(j), j->gpus);
        }
    }
    for (size_t k = 0; k < h->nclusters; k++) {
        series_finish(&h->run[k], &h->g);
        series_finish(&h->cap[k], &h->g);
        series_finish(&h->pend_any[k], &h->g);
    }
    for (size_t i = 0; i < h->pend.n; i++)
        series_finish(agg_val(&h->pend, i), &h->g);
}

/* GPU-hours job j held idle in hours where others of its class waited
 * on a busy cluster. */
static double hog_hours(const Hog *h, const StatsJob *j)
{
    int64_t a = jstart(j), b = job_end(j);
    const Series *typed =
        j->gpu_type > 0 ? agg_find(&h->pend, j->cluster, j->gpu_type, 0, 0) : NULL;
    const Series *any = &h->pend_any[j->cluster];
    const Series *run = &h->run[j->cluster], *cap = &h->cap[j->cluster];
    int64_t lo = h->g.h0 * HOUR, hi = (h->g.h0 + (int64_t)h->g.nh) * HOUR;
    a = a < lo ? lo : a;
    b = b > hi ? hi : b;
    double sum = 0;
    while (a < b) {
        int64_t next = (civil_floor_div(a, HOUR) + 1) * HOUR;
        next = next > b ? b : next;
        size_t k = (size_t)(civil_floor_div(a, HOUR) - h->g.h0);
        double waiting = any->v[k] + (typed ? typed->v[k] : 0);
        int busy = cap->v[k] > 0 ? run->v[k] >= STATS_BUSY_UTIL * cap->v[k] : 1;
        if (waiting >= STATS_WAITING_GPU_H && busy)
            sum += j->gpus * (double)(next - a) / HOUR;
        a = next;
    }
    return sum;
}

static int job_idle(const StatsJob *j)
{
    return j->gpus > 0 && j->gpu_util >= 0 && j->gpu_util < STATS_IDLE_UTIL &&
           job_end(j) != STATS_TIME_NONE && j->elapsed > 0;
}

static void hog_init(Hog *h, const Ctx *c)
{
    memset(h, 0, sizeof *h);
    h->hog = xcalloc(c->in->njobs + 1, sizeof *h->hog);
    hog_grid(h, c);
    hog_build(h, c);
    for (size_t i = 0; i < c->in->njobs; i++) {
        const StatsJob *j = &c->in->jobs[i];
        if (job_idle(j) && (size_t)j->cluster < h->nclusters && cluster_kept(c, j->cluster))
            h->hog[i] = hog_hours(h, j);
    }
}

static void hog_done(Hog *h)
{
    for (size_t k = 0; k < h->nclusters; k++) {
        series_free(&h->run[k]);
        series_free(&h->cap[k]);
        series_free(&h->pend_any[k]);
    }
    for (size_t i = 0; i < h->pend.n; i++)
        series_free(agg_val(&h->pend, i));
    agg_done(&h->pend);
    free(h->run);
    free(h->cap);
    free(h->pend_any);
    free(h->hog);
}

typedef struct EffAcc {
    int64_t attempts, smaller_jobs, mig_jobs;
    double gpu_h, gh_util, util_x_gh, gh_mem, mem_x_gh, cpu_alloc_h, cpu_used_h;
    double mem_req_h, mem_used_h, lim_h, lim_used_h, idle_gh, hog_gh, smaller_gh, mig_gh;
} EffAcc;

static void eff_add(EffAcc *x, const GpuMem *m, const StatsInput *in, const StatsJob *j, double hog)
{
    double h = j->elapsed > 0 && jstart(j) != STATS_TIME_NONE ? (double)j->elapsed / HOUR : 0;
    double gh = j->gpus * h;
    x->attempts++;
    x->gpu_h += gh;
    x->hog_gh += hog;
    if (j->gpu_util >= 0 && gh > 0) {
        x->gh_util += gh;
        x->util_x_gh += j->gpu_util * gh;
        x->idle_gh += j->gpu_util < STATS_IDLE_UTIL ? gh : 0;
    }
    double held = job_gpu_mem(m, in, j);
    if ((j->flags & STATS_JOB_MEM_MEASURED) && j->gpu_mem_gib >= 0 && gh > 0 && held > 0) {
        x->gh_mem += gh;
        x->mem_x_gh += (j->gpu_mem_gib / held) * gh;
        if (fits_smaller(m, held, j->gpu_mem_gib)) {
            x->smaller_jobs++;
            x->smaller_gh += gh;
        }
        if (fits_mig(m, j, j->gpu_mem_gib)) {
            x->mig_jobs++;
            x->mig_gh += gh;
        }
    }
    if (j->total_cpu_s >= 0 && j->ncpus > 0 && h > 0) {
        x->cpu_alloc_h += j->ncpus * h;
        x->cpu_used_h += j->total_cpu_s / HOUR;
    }
    if (j->max_rss_mib >= 0 && j->req_mem_mib > 0 && h > 0) {
        x->mem_req_h += j->req_mem_mib * h;
        x->mem_used_h += j->max_rss_mib * h;
    }
    if (j->timelimit > 0 && h > 0) {
        x->lim_h += (double)j->timelimit / HOUR;
        x->lim_used_h += h;
    }
}

static const StatsCol eff_cols[] = {
    {"period", "period", "", STATS_COL_TEXT, 0},
    {"group", "group", "", STATS_COL_TEXT, 0},
    {"user", "user", "", STATS_COL_TEXT, 0},
    {"attempts", "attempts", "", STATS_COL_INT, 0},
    {"gpu_hours", "GPU-h", "GPU-h", STATS_COL_REAL, 1},
    {"gpu_util_pct", "GPU util", "%", STATS_COL_REAL, 1},
    {"util_measured_pct", "measured", "%", STATS_COL_REAL, 0},
    {"gpu_mem_pct", "GPU mem", "%", STATS_COL_REAL, 1},
    {"mem_measured_pct", "measured", "%", STATS_COL_REAL, 0},
    {"cpu_eff_pct", "CPU eff", "%", STATS_COL_REAL, 1},
    {"mem_eff_pct", "mem eff", "%", STATS_COL_REAL, 1},
    {"time_used_pct", "time/limit", "%", STATS_COL_REAL, 1},
};

static const StatsCol waste_cols[] = {
    {"period", "period", "", STATS_COL_TEXT, 0},
    {"group", "group", "", STATS_COL_TEXT, 0},
    {"user", "user", "", STATS_COL_TEXT, 0},
    {"gpu_hours", "GPU-h", "GPU-h", STATS_COL_REAL, 1},
    {"idle_gpu_hours", "idle GPU-h", "GPU-h", STATS_COL_REAL, 1},
    {"idle_pct", "idle", "%", STATS_COL_REAL, 1},
    {"hog_gpu_hours", "hogged GPU-h", "GPU-h", STATS_COL_REAL, 1},
    {"hog_pct", "hogged", "%", STATS_COL_REAL, 1},
    {"smaller_gpu_jobs", "fit smaller GPU", "", STATS_COL_INT, 0},
    {"smaller_gpu_hours", "GPU-h", "GPU-h", STATS_COL_REAL, 1},
    {"mig_jobs", "fit MIG slice", "", STATS_COL_INT, 0},
    {"mig_gpu_hours", "GPU-h", "GPU-h", STATS_COL_REAL, 1},
};

static const StatsCol hog_cols[] = {
    {"job", "job", "", STATS_COL_TEXT, 0},
    {"cluster", "cluster", "", STATS_COL_TEXT, 0},
    {"user", "user", "", STATS_COL_TEXT, 0},
    {"group", "group", "", STATS_COL_TEXT, 0},
    {"start", "start", "", STATS_COL_TEXT, 0},
    {"gpus", "GPUs", "", STATS_COL_REAL, 1},
    {"gpu_util_pct", "GPU util", "%", STATS_COL_REAL, 1},
    {"hours", "ran", "h", STATS_COL_REAL, 1},
    {"hog_gpu_hours", "hogged GPU-h", "GPU-h", STATS_COL_REAL, 1},
};

static void eff_rows(const Ctx *c, StatsTable *te, StatsTable *tw, const AggKey *k, const EffAcc *x)
{
    const char *group = c->ro.groups.name[k->a];
    const char *user = k->b < 0 ? "all" : name_or(&c->in->users, k->b, "(none)");
    StatsCell *e = stats_table_add_row(te);
    put_period(c, te, &e[0], k->period);
    stats_cell_set_text(te, &e[1], group);
    stats_cell_set_text(te, &e[2], user);
    e[3].num = (double)x->attempts;
    e[4].num = x->gpu_h;
    e[5].num = ratio(x->util_x_gh, x->gh_util);
    e[6].num = 100 * ratio(x->gh_util, x->gpu_h);
    e[7].num = 100 * ratio(x->mem_x_gh, x->gh_mem);
    e[8].num = 100 * ratio(x->gh_mem, x->gpu_h);
    e[9].num = 100 * ratio(x->cpu_used_h, x->cpu_alloc_h);
    e[10].num = 100 * ratio(x->mem_used_h, x->mem_req_h);
    e[11].num = 100 * ratio(x->lim_used_h, x->lim_h);
    StatsCell *w = stats_table_add_row(tw);
    put_period(c, tw, &w[0], k->period);
    stats_cell_set_text(tw, &w[1], group);
    stats_cell_set_text(tw, &w[2], user);
    w[3].num = x->gpu_h;
    w[4].num = x->gh_util > 0 ? x->idle_gh : NAN;
    w[5].num = 100 * ratio(x->idle_gh, x->gh_util);
    w[6].num = x->gh_util > 0 ? x->hog_gh : NAN;
    w[7].num = 100 * ratio(x->hog_gh, x->gh_util);
    w[8].num = (double)x->smaller_jobs;
    w[9].num = x->smaller_gh;
    w[10].num = (double)x->mig_jobs;
    w[11].num = x->mig_gh;
}

typedef struct HogRank {
    double hog;
    size_t idx;
} HogRank;

static int hog_cmp(const void *pa, const void *pb)
{
    const HogRank *a = pa, *b = pb;
    if (a->hog != b->hog)
        return a->hog < b->hog ? 1 : -1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

enum { TOP_HOGS = 10 };

static void top_hogs(const Ctx *c, StatsReport *r, const Hog *h)
{
    const StatsInput *in = c->in;
    HogRank *v = xmalloc((in->njobs + 1) * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; i < in->njobs; i++) {
        if (h->hog[i] > 0 && job_kept(c, i)) {
            v[n].hog = h->hog[i];
            v[n++].idx = i;
        }
    }
    qsort(v, n, sizeof *v, hog_cmp);
    StatsTable *t =
        stats_report_add_table(r, "top_hogs", "Attempts that held the most GPUs idle while others waited",
                     hog_cols, NCOLS(hog_cols));
    for (size_t i = 0; i < n && i < TOP_HOGS; i++) {
        const StatsJob *j = &in->jobs[v[i].idx];
        int32_t g = c->jgroup[v[i].idx];
        char date[32];
        int64_t y;
        int mo, dd;
        civil_from_days(civil_floor_div(jstart(j), DAY), &y, &mo, &dd);
        snprintf(date, sizeof date, "%04lld-%02d-%02d", (long long)y, mo, dd);
        StatsCell *row = stats_table_add_row(t);
        char id[24];
        snprintf(id, sizeof id, "%lu", (unsigned long)j->job_raw);
        stats_cell_set_text(t, &row[0], id);
        stats_cell_set_text(t, &row[1], name_or(&in->clusters, j->cluster, "(none)"));
        stats_cell_set_text(t, &row[2], name_or(&in->users, j->user, "(none)"));
        stats_cell_set_text(t, &row[3], c->ro.groups.name[g]);
        stats_cell_set_text(t, &row[4], date);
        row[5].num = j->gpus;
        row[6].num = j->gpu_util;
        row[7].num = (double)j->elapsed / HOUR;
        row[8].num = v[i].hog;
    }
    free(v);
}

static void kind_efficiency(const Ctx *c, StatsReport *r)
{
    const StatsInput *in = c->in;
    GpuMem m;
    Hog h;
    Agg g;
    gpumem_init(&m, in);
    hog_init(&h, c);
    agg_init(&g, sizeof(EffAcc));
    int per_user = c->group >= 0;
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        if (!job_kept(c, i))
            continue;
        int32_t p = job_period(c, i), grp = c->jgroup[i];
        eff_add(agg_get(&g, p, grp, -1, 0), &m, in, j, h.hog[i]);
        if (per_user)
            eff_add(agg_get(&g, p, grp, name_id(&in->users, j->user), 0), &m, in, j, h.hog[i]);
    }
    StatsTable *te = stats_report_add_table(r, "efficiency", "Requested against used, per group (and user)",
                                  eff_cols, NCOLS(eff_cols));
    StatsTable *tw = stats_report_add_table(r, "waste", "GPUs idle, hogged, or bigger than needed",
                                  waste_cols, NCOLS(waste_cols));
    te->note = "GPU util and GPU mem over the GPU-hours measured (measured: their share); CPU eff "
               "= CPU time / (run time x CPUs); mem eff = peak RSS / requested; time/limit = run "
               "time / time limit";
    tw->note = "idle: utilisation under 10 %; hogged: idle while jobs of the same GPU type waited "
               "on a cluster at least 80 % busy; fit: peak memory within 90 % of a smaller GPU of "
               "the inventory, or of a 20 GB MIG slice (one GPU, under 40 % busy)";
    size_t *order = agg_order(&g, c->ro.groups.rank, c->user_rank, NULL);
    for (size_t i = 0; i < g.n; i++)
        eff_rows(c, te, tw, &g.keys[order[i]], agg_val(&g, order[i]));
    free(order);
    top_hogs(c, r, &h);
    agg_done(&g);
    hog_done(&h);
    gpumem_done(&m);
}

/* ---- domains ---- */

typedef struct DomAcc {
    double gpu_h, cpu_h;
    int64_t researchers, active;
} DomAcc;

static const StatsCol dom_cols[] = {
    {"period", "period", "", STATS_COL_TEXT, 0},
    {"domain", "domain", "", STATS_COL_TEXT, 0},
    {"gpu_hours", "GPU-h", "GPU-h", STATS_COL_REAL, 0},
    {"share_pct", "share", "%", STATS_COL_REAL, 1},
    {"cpu_hours", "CPU-h", "CPU-h", STATS_COL_REAL, 0},
    {"researchers", "researchers", "", STATS_COL_INT, 0},
    {"active_users", "active users", "", STATS_COL_INT, 0},
    {"gpu_hours_per_researcher", "GPU-h per researcher", "GPU-h", STATS_COL_REAL, 1},
};

/* Researchers on the roster in each period, per domain: every line that
 * overlaps the period counts its user once in its domain. */
static void dom_researchers(const Ctx *c, Agg *dom, const int32_t *per, size_t np)
{
    const Roster *ro = &c->ro;
    Agg seen;
    agg_init(&seen, 1);
    int32_t user = -1;
    for (size_t i = 0; i < ro->nlines; i++) {
        const StatsPerson *pl = ro->lines[i];
        if (i == 0 || strcmp(pl->user, ro->lines[i - 1]->user) != 0)
            user++;
        if (c->group >= 0 && ro->line_group[i] != c->group)
            continue;
        for (size_t k = 0; k < np; k++) {
            int64_t from, to;
            period_bounds(c, per[k], &from, &to);
            if ((pl->start != STATS_TIME_NONE && pl->start >= to) ||
                (pl->end != STATS_TIME_NONE && pl->end <= from))
                continue;
            size_t before = seen.n;
            agg_get(&seen, per[k], ro->line_domain[i], user, 0);
            if (seen.n > before)
                ((DomAcc *)agg_get(dom, per[k], ro->line_domain[i], 0, 0))->researchers++;
        }
    }
    agg_done(&seen);
}

static void kind_domains(const Ctx *c, StatsReport *r)
{
    const StatsInput *in = c->in;
    Agg dom, tot, active;
    agg_init(&dom, sizeof(DomAcc));
    agg_init(&tot, sizeof(DomAcc));
    agg_init(&active, 1);
    for (size_t i = 0; i < in->nusage; i++) {
        const StatsUsage *u = &in->usage[i];
        int32_t g, d;
        if (!usage_kept(c, u, &g, &d))
            continue;
        int32_t p = period_of_month(c, u->month);
        DomAcc *x = agg_get(&dom, p, d, 0, 0);
        x->gpu_h += u->gpu_hours;
        x->cpu_h += u->cpu_hours;
        ((DomAcc *)agg_get(&tot, p, 0, 0, 0))->gpu_h += u->gpu_hours;
        size_t before = active.n;
        if (u->jobs > 0 || u->gpu_hours > 0 || u->cpu_hours > 0)
            agg_get(&active, p, d, u->user, 0);
        if (active.n > before)
            ((DomAcc *)agg_get(&dom, p, d, 0, 0))->active++;
    }
    size_t np;
    int32_t *per = periods_list(c, &np);
    dom_researchers(c, &dom, per, np);
    free(per);
    StatsTable *t = stats_report_add_table(r, "domains", "GPU-hours and researchers per research domain",
                                 dom_cols, NCOLS(dom_cols));
    size_t *order = agg_order(&dom, c->ro.domains.rank, NULL, NULL);
    for (size_t i = 0; i < dom.n; i++) {
        const AggKey *k = &dom.keys[order[i]];
        const DomAcc *x = agg_val(&dom, order[i]);
        const DomAcc *all = agg_find(&tot, k->period, 0, 0, 0);
        StatsCell *row = stats_table_add_row(t);
        put_period(c, t, &row[0], k->period);
        stats_cell_set_text(t, &row[1], c->ro.domains.name[k->a]);
        row[2].num = x->gpu_h;
        row[3].num = 100 * ratio(x->gpu_h, all ? all->gpu_h : 0);
        row[4].num = x->cpu_h;
        row[5].num = (double)x->researchers;
        row[6].num = (double)x->active;
        row[7].num = ratio(x->gpu_h, (double)x->researchers);
    }
    free(order);
    agg_done(&dom);
    agg_done(&tot);
    agg_done(&active);
}

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
    size_t *order = agg_order(a, names->rank, NULL, NULL);
    for (size_t i = 0; i < a->n; i++) {
        const AggKey *k = &a->keys[order[i]];
        const PubAcc *x = agg_val(a, order[i]);
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
        row[n + 2].num = ratio(x->gpu_h, (double)x->pubs);
    }
    free(order);
}

static void kind_pubs(const Ctx *c, StatsReport *r)
{
    const StatsInput *in = c->in;
    const Roster *ro = &c->ro;
    Agg byg, byd;
    agg_init(&byg, sizeof(PubAcc));
    agg_init(&byd, sizeof(PubAcc));
    int32_t y0 = INT32_MAX, y1 = INT32_MIN;
    for (size_t i = 0; i < in->npubs; i++) {
        const StatsPub *p = &in->pubs[i];
        int32_t g = dict_find(&ro->groups, p->group);
        if (c->group >= 0 && g != c->group)
            continue;
        int32_t d = p->domain && p->domain[0] ? dict_find(&ro->domains, p->domain) : -1;
        if (d < 0)
            d = g >= 0 ? group_domain(ro, g) : dict_find(&ro->domains, UNKNOWN_DOMAIN);
        if (g >= 0)
            ((PubAcc *)agg_get(&byg, p->year, g, 0, 0))->pubs++;
        ((PubAcc *)agg_get(&byd, p->year, d, 0, 0))->pubs++;
        y0 = p->year < y0 ? p->year : y0;
        y1 = p->year > y1 ? p->year : y1;
    }
    for (size_t i = 0; i < in->nusage; i++) {
        const StatsUsage *u = &in->usage[i];
        int32_t g, d;
        if (!usage_kept(c, u, &g, &d))
            continue;
        ((PubAcc *)agg_get(&byg, u->month / 100, g, 0, 0))->gpu_h += u->gpu_hours;
        ((PubAcc *)agg_get(&byd, u->month / 100, d, 0, 0))->gpu_h += u->gpu_hours;
    }
    int32_t *dom_of = xmalloc((ro->groups.n + 1) * sizeof *dom_of);
    for (size_t g = 0; g < ro->groups.n; g++)
        dom_of[g] = group_domain(ro, (int32_t)g);
    StatsTable *tg = stats_report_add_table(r, "groups", "Publications and GPU-hours per group and year",
                                  pub_group_cols, NCOLS(pub_group_cols));
    StatsTable *td = stats_report_add_table(r, "domains", "Publications and GPU-hours per domain and year",
                                  pub_dom_cols, NCOLS(pub_dom_cols));
    pub_emit(c, tg, &byg, &ro->groups, dom_of, y0, y1);
    pub_emit(c, td, &byd, &ro->domains, NULL, y0, y1);
    free(dom_of);
    agg_done(&byg);
    agg_done(&byd);
}

/* ---- the kinds ---- */

static const struct {
    const char *name;
    unsigned needs;
    StatsBy by;
    void (*run)(const Ctx *c, StatsReport *r);
} kinds[STATS_KIND_COUNT] = {
    [STATS_UTILIZATION] = {"utilization",
                           STATS_NEED_USAGE | STATS_NEED_JOBS | STATS_NEED_ROSTER |
                               STATS_NEED_INVENTORY | STATS_NEED_EVENTS,
                           STATS_BY_MONTH, kind_utilization},
    [STATS_PREEMPTION] = {"preemption", STATS_NEED_JOBS | STATS_NEED_ROSTER, STATS_BY_YEAR,
                          kind_preemption},
    [STATS_WAITS] = {"waits", STATS_NEED_JOBS | STATS_NEED_ROSTER, STATS_BY_YEAR, kind_waits},
    [STATS_EFFICIENCY] = {"efficiency", STATS_NEED_JOBS | STATS_NEED_ROSTER | STATS_NEED_INVENTORY,
                          STATS_BY_YEAR, kind_efficiency},
    [STATS_DOMAINS] = {"domains", STATS_NEED_USAGE | STATS_NEED_ROSTER, STATS_BY_YEAR,
                       kind_domains},
    [STATS_PUBS] = {"pubs", STATS_NEED_USAGE | STATS_NEED_ROSTER | STATS_NEED_PUBS, STATS_BY_YEAR,
                    kind_pubs},
};

int stats_kind_parse(const char *name, StatsKind *out)
{
    if (strcmp(name, "utilisation") == 0)
        name = "utilization";
    for (int k = 0; k < STATS_KIND_COUNT; k++) {
        if (strcmp(name, kinds[k].name) == 0) {
            *out = (StatsKind)k;
            return 0;
        }
    }
    return -1;
}

const char *stats_kind_name(StatsKind k)
{
    return k < STATS_KIND_COUNT ? kinds[k].name : "?";
}

unsigned stats_kind_needs(StatsKind k)
{
    return k < STATS_KIND_COUNT ? kinds[k].needs : 0;
}

StatsBy stats_kind_default_by(StatsKind k)
{
    return k < STATS_KIND_COUNT ? kinds[k].by : STATS_BY_YEAR;
}

int stats_run(const StatsInput *in, const StatsOpts *o, StatsReport *out, CpErr *err)
{
    memset(out, 0, sizeof *out);
    out->kind = o->kind;
    out->by = o->by;
    if (o->kind >= STATS_KIND_COUNT)
        return cp_err_set(err, "unknown kind of statistics");
    Ctx c;
    int rc = ctx_init(&c, in, o, err);
    if (rc == 0)
        kinds[o->kind].run(&c, out);
    ctx_done(&c);
    return rc;
}
