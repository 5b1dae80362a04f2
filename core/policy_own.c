/* policy_own: interned names and who ran each job (policy_int.h). */
#include "core/policy_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/cp.h"

/* ---- names ---- */

int32_t names_id(Names *d, const char *name)
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

int32_t names_find(const Names *d, const char *name)
{
    int64_t id;
    return name && strmap_get(d->map, name, strlen(name), &id) ? (int32_t)id : -1;
}

void names_init(Names *d)
{
    memset(d, 0, sizeof *d);
    d->map = strmap_new();
}

void names_done(Names *d)
{
    strmap_free(d->map);
    free(d->v);
}

static const char *const *order_names; /* names_order's comparator only */
static int order_cmp(const void *pa, const void *pb)
{
    return strcmp(order_names[*(const int32_t *)pa], order_names[*(const int32_t *)pb]);
}

int32_t *names_order(const Names *d)
{
    int32_t *o = xmalloc((d->n + 1) * sizeof *o);
    for (size_t i = 0; i < d->n; i++)
        o[i] = (int32_t)i;
    order_names = d->v;
    qsort(o, d->n, sizeof *o, order_cmp);
    return o;
}

/* ---- owners ---- */

static int person_cmp(const void *pa, const void *pb)
{
    const StatsPerson *a = *(const StatsPerson *const *)pa, *b = *(const StatsPerson *const *)pb;
    int c = strcmp(a->user, b->user);
    return c ? c : (a->start > b->start) - (a->start < b->start);
}

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
    return d >= 0 ? d : names_id(&w->domains, POLICY_UNKNOWN_DOMAIN);
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

/* first[u], count[u] of user id u: its lines in the sorted roster
 * (first -1: none). */
static void user_lines(Owners *w, size_t u)
{
    const StatsInput *in = w->in;
    const char *name = in->users.v[u];
    size_t lo = 0, hi = in->npeople;
    w->first[u] = -1;
    w->count[u] = 0;
    if (!name)
        return;
    while (lo < hi) { /* the first line whose user is not below name */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(w->lines[mid]->user, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t j = lo;
    while (j < in->npeople && strcmp(w->lines[j]->user, name) == 0)
        j++;
    if (j > lo) {
        w->first[u] = (int32_t)lo;
        w->count[u] = (int32_t)(j - lo);
    }
}

/* The ids of roster line p (the first time: interned as before). */
static const int32_t *owners_line(Owners *w, const StatsPerson *p)
{
    int32_t *m = w->memo[p - w->in->people];
    if (m[0] < 0) {
        m[0] = names_id(&w->groups, p->group);
        m[1] = p->domain && p->domain[0] ? names_id(&w->domains, p->domain) : gdomain_get(w, m[0]);
    }
    return m;
}

/* The ids of account a (accounts.n: none). */
static const int32_t *owners_account(Owners *w, size_t a)
{
    int32_t *m = w->memo[w->in->npeople + a];
    if (m[0] < 0) {
        const char *acct = a < w->naccounts ? w->in->accounts.v[a] : NULL;
        m[0] = names_id(&w->groups, acct && acct[0] ? acct : POLICY_NONE_GROUP);
        m[1] = gdomain_get(w, m[0]);
    }
    return m;
}

void owners_of(Owners *w, const StatsJob *j, int32_t *group, int32_t *domain)
{
    int64_t t = j->start ? (int64_t)j->start : (int64_t)j->submit;
    const int32_t *m;
    if (j->user >= 0 && (size_t)j->user < w->nusers && w->first[j->user] >= 0) {
        size_t lo = (size_t)w->first[j->user];
        m = owners_line(w, line_at(w->lines, lo, lo + (size_t)w->count[j->user], t));
    } else {
        int acct_ok = j->account >= 0 && (size_t)j->account < w->naccounts;
        m = owners_account(w, acct_ok ? (size_t)j->account : w->naccounts);
    }
    *group = m[0];
    *domain = m[1];
}

void owners_setup(Owners *w, const StatsInput *in)
{
    memset(w, 0, sizeof *w);
    w->in = in;
    names_init(&w->groups);
    names_init(&w->domains);
    for (size_t i = 0; i < in->ngroups; i++)
        if (in->groups[i].domain && in->groups[i].domain[0])
            gdomain_set(w, names_id(&w->groups, in->groups[i].name),
                        names_id(&w->domains, in->groups[i].domain));
    w->lines = xmalloc((in->npeople + 1) * sizeof *w->lines);
    for (size_t i = 0; i < in->npeople; i++)
        w->lines[i] = &in->people[i];
    qsort(w->lines, in->npeople, sizeof *w->lines, person_cmp);
    for (size_t i = 0; i < in->npeople; i++)
        if (w->lines[i]->domain && w->lines[i]->domain[0])
            gdomain_set(w, names_id(&w->groups, w->lines[i]->group),
                        names_id(&w->domains, w->lines[i]->domain));
    size_t nmemo = in->npeople + in->accounts.n + 1;
    w->nusers = in->users.n;
    w->naccounts = in->accounts.n;
    w->first = xmalloc((in->users.n + 1) * sizeof *w->first);
    w->count = xcalloc(in->users.n + 1, sizeof *w->count);
    w->memo = xmalloc(nmemo * sizeof *w->memo);
    memset(w->memo, 0xff, nmemo * sizeof *w->memo);
    for (size_t u = 0; u < in->users.n; u++)
        user_lines(w, u);
}

void owners_grow(Owners *w)
{
    const StatsInput *in = w->in;
    if (in->users.n > w->nusers) {
        w->first = xrealloc(w->first, (in->users.n + 1) * sizeof *w->first);
        w->count = xrealloc(w->count, (in->users.n + 1) * sizeof *w->count);
        for (size_t u = w->nusers; u < in->users.n; u++)
            user_lines(w, u);
        w->nusers = in->users.n;
    }
    if (in->accounts.n > w->naccounts) {
        size_t none = in->npeople + w->naccounts, n = in->npeople + in->accounts.n;
        w->memo = xrealloc(w->memo, (n + 1) * sizeof *w->memo);
        memcpy(w->memo[n], w->memo[none], sizeof *w->memo); /* "none" moves to the end */
        memset(w->memo[none], 0xff, (n - none) * sizeof *w->memo); /* new accounts: unseen */
        w->naccounts = in->accounts.n;
    }
}

void owners_init(Owners *w, const StatsInput *in)
{
    owners_setup(w, in);
    w->group = xmalloc((in->njobs + 1) * sizeof *w->group);
    w->domain = xmalloc((in->njobs + 1) * sizeof *w->domain);
    for (size_t i = 0; i < in->njobs; i++)
        owners_of(w, &in->jobs[i], &w->group[i], &w->domain[i]);
}

void owners_done(Owners *w)
{
    names_done(&w->groups);
    names_done(&w->domains);
    free(w->group);
    free(w->domain);
    free(w->gdomain);
    free(w->memo);
    free(w->first);
    free(w->count);
    free(w->lines);
}
