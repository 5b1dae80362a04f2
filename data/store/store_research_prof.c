/* store_research_prof: the compute side of `capplan research` (issue 18):
 * the latest `capplan profile` run's profile names and each member's
 * profile, GPU-hours and usual need (issue 32: GPU-eq a member, GPUs a
 * job, peak memory), and a user's latest stated full-time GPUs. Declared
 * in store_research.h; bound parameters only. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store/sqlrow.h"
#include "data/store/store.h"
#include "data/store/store_research.h"

static int load_profile_names(sqlite3 *db, int64_t run, RsProfiles *p, CpErr *err)
{
    sqlite3_stmt *s;
    size_t cap = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT coalesce(n.name, p.generated) FROM profiles p "
                           "LEFT JOIN profile_names n ON n.generated = p.generated "
                           "WHERE p.run_id = ?1 ORDER BY p.idx",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "profiles");
    sqlite3_bind_int64(s, 1, run);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        p->name = sqlrow_grow(p->name, (size_t)p->k, &cap, sizeof *p->name);
        p->name[p->k++] = sqlrow_str(s, 0);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "profiles");
}

static int load_members(sqlite3 *db, int64_t run, RsProfiles *p, CpErr *err)
{
    sqlite3_stmt *s;
    size_t cap = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT u.name, m.profile, m.gpu_hours, coalesce(m.conc_mean, 0), "
                           "coalesce(m.gpus_p90, 0), coalesce(m.mem_gib, -1) FROM profile_members m "
                           "JOIN users u ON u.id = m.user_id WHERE m.run_id = ?1 ORDER BY u.name",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "profile members");
    sqlite3_bind_int64(s, 1, run);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        p->members = sqlrow_grow(p->members, (size_t)p->nmembers, &cap, sizeof *p->members);
        RsMember *m = &p->members[p->nmembers++];
        m->user = sqlrow_str(s, 0);
        m->profile = sqlite3_column_int(s, 1);
        m->gpu_hours = sqlite3_column_double(s, 2);
        m->conc_mean = sqlite3_column_double(s, 3);
        m->gpus_p90 = sqlite3_column_double(s, 4);
        m->mem_gib = sqlite3_column_double(s, 5);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "profile members");
}

int store_research_profiles(Store *st, RsProfiles *out, CpErr *err)
{
    sqlite3 *db = store_db(st);
    memset(out, 0, sizeof *out);
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "SELECT max(id) FROM profile_runs", -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "profile runs");
    int64_t run = -1;
    if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL)
        run = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    if (run < 0)
        return 0;
    out->found = 1;
    if (load_profile_names(db, run, out, err) < 0 || load_members(db, run, out, err) < 0) {
        store_research_profiles_done(out);
        return -1;
    }
    return 0;
}

void store_research_profiles_done(RsProfiles *p)
{
    for (int i = 0; i < p->k; i++)
        free(p->name[i]);
    for (int i = 0; i < p->nmembers; i++)
        free(p->members[i].user);
    free(p->name);
    free(p->members);
    memset(p, 0, sizeof *p);
}

int store_research_stated(Store *st, const char *user, double *gpus, char *date, size_t ndate,
                          char *group, size_t ngroup, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db,
                           "SELECT gpus_fulltime, date, group_name FROM stated_needs "
                           "WHERE user = ?1 AND gpus_fulltime IS NOT NULL "
                           "ORDER BY date DESC, id DESC LIMIT 1",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "stated needs");
    sqlite3_bind_text(s, 1, user, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s), found = 0;
    if (rc == SQLITE_ROW) {
        *gpus = sqlite3_column_double(s, 0);
        snprintf(date, ndate, "%s", (const char *)sqlite3_column_text(s, 1));
        snprintf(group, ngroup, "%s", (const char *)sqlite3_column_text(s, 2));
        found = 1;
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sqlrow_err(db, err, "stated needs");
    return found;
}
