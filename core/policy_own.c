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

/* first[u], count[u]: user id u's lines in the sorted roster. */
static void user_lines(Owners *w)
{
    const StatsInput *in = w->in;
    StrMap *m = strmap_new();
    for (size_t i = 0; i < in->npeople; i++)
        if (i == 0 || strcmp(w->lines[i]->user, w->lines[i - 1]->user) != 0)
            strmap_put(m, w->lines[i]->user, strlen(w->lines[i]->user), (int64_t)i);
    for (size_t u = 0; u < in->users.n; u++) {
        int64_t i;
        const char *name = in->users.v[u];
        w->first[u] = -1;
        if (!name || !strmap_get(m, name, strlen(name), &i))
            continue;
        size_t j = (size_t)i;
        while (j < in->npeople && strcmp(w->lines[j]->user, name) == 0)
            j++;
        w->first[u] = (int32_t)i;
        w->count[u] = (int32_t)(j - (size_t)i);
    }
    strmap_free(m);
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
        const char *acct = a < w->in->accounts.n ? w->in->accounts.v[a] : NULL;
        m[0] = names_id(&w->groups, acct && acct[0] ? acct : POLICY_NONE_GROUP);
        m[1] = gdomain_get(w, m[0]);
    }
    return m;
}

void owners_of(Owners *w, const StatsJob *j, int32_t *group, int32_t *domain)
{
    const StatsInput *in = w->in;
    int64_t t = j->start ? (int64_t)j->start : (int64_t)j->submit;
    const int32_t *m;
    if (j->user >= 0 && (size_t)j->user < in->users.n && w->first[j->user] >= 0) {
        size_t lo = (size_t)w->first[j->user];
        m = owners_line(w, line_at(w->lines, lo, lo + (size_t)w->count[j->user], t));
    } else {
        int acct_ok = j->account >= 0 && (size_t)j->account < in->accounts.n;
        m = owners_account(w, acct_ok ? (size_t)j->account : in->accounts.n);
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
    w->first = xmalloc((in->users.n + 1) * sizeof *w->first);
    w->count = xcalloc(in->users.n + 1, sizeof *w->count);
    w->memo = xmalloc(nmemo * sizeof *w->memo);
    memset(w->memo, 0xff, nmemo * sizeof *w->memo);
    user_lines(w);
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
