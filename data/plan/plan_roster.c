/* plan_roster: who belongs to which group as a plan is built (see
 * plan_int.h): each user's roster line at a date, the role filter, the
 * group of a user or of a job's account, and the history's group index of
 * a job. Read by plan_build.c, plan_hist.c, plan_stream.c, plan_scen.c. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "core/strmap.h"
#include "data/plan/plan_int.h"

/* The roster line of each user: in force at t, else the latest started
 * by t, else the earliest to come. people are ordered by user, start. */
void plan_ctx_roster(PlanCtx *c, int64_t t)
{
    const StorePlanPerson *pp = c->people;
    size_t i = 0, n = c->npeople;
    strmap_clear(c->roster);
    while (i < n) {
        size_t j = i, pick = i;
        int rank = 0; /* 3 in force, 2 started and ended, 1 to come */
        for (; j < n && strcmp(pp[j].user, pp[i].user) == 0; j++) {
            int started = pp[j].start == STORE_PLAN_NO_DATE || pp[j].start <= t;
            int r = !started ? 1 : (pp[j].end == STORE_PLAN_NO_DATE || pp[j].end > t) ? 3 : 2;
            if (r > rank || (r == rank && r >= 2)) {
                rank = r;
                pick = j;
            }
        }
        strmap_put(c->roster, pp[i].user, strlen(pp[i].user), (int64_t)pick);
        i = j;
    }
}

const StorePlanPerson *plan_roster_of(const PlanCtx *c, const char *user)
{
    int64_t i;
    if (!user || !strmap_get(c->roster, user, strlen(user), &i))
        return NULL;
    return &c->people[i];
}

int plan_role_kept(const char *filter, const char *role)
{
    if (!filter)
        return 1;
    const char *want = role ? role : "unknown";
    size_t wl = strlen(want);
    for (const char *p = filter; *p;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        while (n > 0 && isspace((unsigned char)*p))
            p++, n--;
        while (n > 0 && isspace((unsigned char)p[n - 1]))
            n--;
        if (n == wl && strncasecmp(p, want, n) == 0)
            return 1;
        if (!comma)
            break;
        p = comma + 1;
    }
    return 0;
}

const char *plan_name_of(const StorePlanNames *nm, int64_t id)
{
    return id >= 0 && id < nm->n ? nm->names[id] : NULL;
}

const char *plan_group_of(const PlanCtx *c, int64_t user_id, int64_t account_id)
{
    const StorePlanPerson *pp = plan_roster_of(c, plan_name_of(&c->users, user_id));
    if (pp)
        return pp->group;
    const char *a = plan_name_of(&c->accounts, account_id);
    return a && a[0] ? a : "(no account)";
}

static int hist_group(PlanCtx *c, const char *name)
{
    int64_t g;
    if (strmap_get(c->hgidx, name, strlen(name), &g))
        return (int)g;
    c->hgroups = xrealloc(c->hgroups, (size_t)(c->hist.ngroups + 1) * sizeof *c->hgroups);
    c->hgroups[c->hist.ngroups] = xstrdup(name);
    strmap_put(c->hgidx, name, strlen(name), c->hist.ngroups);
    return c->hist.ngroups++;
}

/* The hist group of a job of (user, account): the roster's or the
 * account's, remembered per user for their last account (ucache: users.n
 * pairs, account -2 none) so that a million jobs cost a few lookups. */
int plan_job_group(PlanCtx *c, int64_t (*ucache)[2], int64_t user, int64_t account)
{
    if (user < 0 || user >= c->users.n)
        return hist_group(c, plan_group_of(c, user, account));
    if (ucache[user][0] != account) {
        ucache[user][0] = account;
        ucache[user][1] = hist_group(c, plan_group_of(c, user, account));
    }
    return (int)ucache[user][1];
}
