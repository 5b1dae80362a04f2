/* store_plan_runs: the profile runs (k-means results) written and read back,
 * and the names a planning lead gives to generated profiles. */
#include "data/store/store_plan.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/civil.h"
#include "core/fieldtext.h"
#include "core/strmap.h"
#include "data/store/sqlrow.h"
#include "data/store/store.h"
#include "data/store/store_plan_int.h"

/* ---- profile runs ---- */


static int save_run_row(sqlite3 *db, StorePlanRun *r, CpErr *err)
{
    sqlite3_stmt *s;
    if (store_plan_prep(db,
             "INSERT INTO profile_runs(created_at, who, unit, win_start, win_end, window_months, "
             "roles, min_jobs, k, k_auto, silhouette, inertia, seed, restarts, jobs_used, "
             "last_import) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16)",
             &s, "save profiles", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, r->created_at);
    store_plan_bind_text_or_null(s, 2, r->who);
    sqlite3_bind_text(s, 3, r->cpu ? "cpu" : "gpu", -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 4, r->win_start);
    sqlite3_bind_int64(s, 5, r->win_end);
    sqlite3_bind_int(s, 6, r->window_months);
    store_plan_bind_text_or_null(s, 7, r->roles);
    sqlite3_bind_int(s, 8, r->min_jobs);
    sqlite3_bind_int(s, 9, r->k);
    sqlite3_bind_int(s, 10, r->k_auto);
    sqlite3_bind_double(s, 11, r->silhouette);
    sqlite3_bind_double(s, 12, r->inertia);
    sqlite3_bind_int64(s, 13, (int64_t)r->seed);
    sqlite3_bind_int(s, 14, r->restarts);
    sqlite3_bind_int64(s, 15, r->jobs_used);
    sqlite3_bind_int64(s, 16, r->last_import);
    if (store_plan_run_done(db, s, "save profiles", err) < 0)
        return -1;
    r->id = sqlite3_last_insert_rowid(db);
    return 0;
}

static void bind_raw(sqlite3_stmt *s, int first, const double raw[FEAT_COUNT])
{
    for (int f = 0; f < FEAT_COUNT; f++) {
        if (f == FEAT_MEM_GIB && raw[f] < 0)
            sqlite3_bind_null(s, first + f);
        else
            sqlite3_bind_double(s, first + f, raw[f]);
    }
}

static int save_profiles(sqlite3 *db, int64_t run, const StorePlanProfile *p, int k, CpErr *err)
{
    sqlite3_stmt *s;
    if (store_plan_prep(db,
             "INSERT INTO profiles(run_id, idx, generated, size, mem_requested, gpus_p90, mem_gib, "
             "dur_mean_h, dur_max_h, gpu_hours_month, conc_mean, conc_peak) "
             "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)",
             &s, "save profiles", err) < 0)
        return -1;
    for (int i = 0; i < k; i++) {
        sqlite3_bind_int64(s, 1, run);
        sqlite3_bind_int(s, 2, i);
        sqlite3_bind_text(s, 3, p[i].generated, -1, SQLITE_STATIC);
        sqlite3_bind_int(s, 4, p[i].size);
        sqlite3_bind_int(s, 5, p[i].mem_requested);
        bind_raw(s, 6, p[i].centroid);
        if (sqlite3_step(s) != SQLITE_DONE) {
            sqlite3_finalize(s);
            return sqlrow_err(db, err, "save profiles");
        }
        sqlite3_reset(s);
    }
    sqlite3_finalize(s);
    return 0;
}

static int save_members(sqlite3 *db, int64_t run, const StorePlanMember *m, size_t n, CpErr *err)
{
    sqlite3_stmt *s;
    if (store_plan_prep(db,
             "INSERT INTO profile_members(run_id, user_id, profile, group_name, domain, role, "
             "end_date, njobs, gpu_hours, mem_source, burst_frac, gpus_p90, mem_gib, dur_mean_h, "
             "dur_max_h, gpu_hours_month, conc_mean, conc_peak) "
             "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18)",
             &s, "save profiles", err) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        char date[16] = "";
        if (m[i].end != STORE_PLAN_NO_DATE) {
            int y, mo, d, h, mi, sec;
            fields_civil_of(m[i].end, &y, &mo, &d, &h, &mi, &sec);
            snprintf(date, sizeof date, "%04d-%02d-%02d", y, mo, d);
        }
        sqlite3_bind_int64(s, 1, run);
        sqlite3_bind_int64(s, 2, m[i].user_id);
        sqlite3_bind_int(s, 3, m[i].profile);
        sqlite3_bind_text(s, 4, m[i].group, -1, SQLITE_STATIC);
        store_plan_bind_text_or_null(s, 5, m[i].domain);
        store_plan_bind_text_or_null(s, 6, m[i].role);
        store_plan_bind_text_or_null(s, 7, date[0] ? date : NULL);
        sqlite3_bind_int(s, 8, m[i].njobs);
        sqlite3_bind_double(s, 9, m[i].gpu_hours);
        sqlite3_bind_int(s, 10, m[i].mem_source);
        sqlite3_bind_double(s, 11, m[i].burst_frac);
        bind_raw(s, 12, m[i].raw);
        if (sqlite3_step(s) != SQLITE_DONE) {
            sqlite3_finalize(s);
            return sqlrow_err(db, err, "save profiles");
        }
        sqlite3_reset(s);
    }
    sqlite3_finalize(s);
    return 0;
}

int store_plan_run_save(Store *st, StorePlanRun *run, const StorePlanProfile *profiles, int k,
                        const StorePlanMember *members, size_t n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    if (store_plan_exec(db, "BEGIN IMMEDIATE", err) < 0)
        return -1;
    if (save_run_row(db, run, err) < 0 || save_profiles(db, run->id, profiles, k, err) < 0 ||
        save_members(db, run->id, members, n, err) < 0) {
        store_plan_exec(db, "ROLLBACK", NULL);
        return -1;
    }
    return store_plan_exec(db, "COMMIT", err);
}

static void read_raw(sqlite3_stmt *s, int first, double raw[FEAT_COUNT])
{
    for (int f = 0; f < FEAT_COUNT; f++)
        raw[f] = sqlrow_num(s, first + f, f == FEAT_MEM_GIB ? -1 : 0);
}

static int load_run_row(sqlite3 *db, StorePlanRun *r, int *found, CpErr *err)
{
    sqlite3_stmt *s;
    if (store_plan_prep(db,
             "SELECT id, created_at, who, unit, win_start, win_end, window_months, roles, "
             "min_jobs, k, k_auto, silhouette, inertia, seed, restarts, jobs_used, last_import "
             "FROM profile_runs ORDER BY id DESC LIMIT 1",
             &s, "read profiles", err) < 0)
        return -1;
    int rc = sqlite3_step(s);
    *found = rc == SQLITE_ROW;
    if (*found) {
        r->id = sqlite3_column_int64(s, 0);
        r->created_at = sqlite3_column_int64(s, 1);
        r->who = sqlrow_str(s, 2);
        r->cpu = strcmp((const char *)sqlite3_column_text(s, 3), "cpu") == 0;
        r->win_start = sqlite3_column_int64(s, 4);
        r->win_end = sqlite3_column_int64(s, 5);
        r->window_months = sqlite3_column_int(s, 6);
        r->roles = sqlrow_str(s, 7);
        r->min_jobs = sqlite3_column_int(s, 8);
        r->k = sqlite3_column_int(s, 9);
        r->k_auto = sqlite3_column_int(s, 10);
        r->silhouette = sqlite3_column_double(s, 11);
        r->inertia = sqlite3_column_double(s, 12);
        r->seed = (uint64_t)sqlite3_column_int64(s, 13);
        r->restarts = sqlite3_column_int(s, 14);
        r->jobs_used = sqlite3_column_int64(s, 15);
        r->last_import = sqlite3_column_int64(s, 16);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "read profiles");
}

static int load_profiles(sqlite3 *db, const StorePlanRun *r, StorePlanProfile **out, CpErr *err)
{
    sqlite3_stmt *s;
    *out = xcalloc((size_t)(r->k > 0 ? r->k : 1), sizeof **out);
    if (store_plan_prep(db,
             "SELECT idx, generated, size, mem_requested, gpus_p90, mem_gib, dur_mean_h, "
             "dur_max_h, gpu_hours_month, conc_mean, conc_peak FROM profiles WHERE run_id = ?1",
             &s, "read profiles", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, r->id);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        int i = sqlite3_column_int(s, 0);
        if (i < 0 || i >= r->k || (*out)[i].generated)
            continue;
        StorePlanProfile *p = &(*out)[i];
        p->generated = sqlrow_str(s, 1);
        p->size = sqlite3_column_int(s, 2);
        p->mem_requested = sqlite3_column_int(s, 3);
        read_raw(s, 4, p->centroid);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "read profiles");
}

typedef struct MemberVec {
    StorePlanMember *m;
    size_t n, cap;
} MemberVec;

static int row_member(sqlite3_stmt *s, void *ctx)
{
    MemberVec *v = ctx;
    v->m = sqlrow_grow(v->m, v->n, &v->cap, sizeof *v->m);
    StorePlanMember *m = &v->m[v->n++];
    m->user_id = sqlite3_column_int64(s, 0);
    m->profile = sqlite3_column_int(s, 1);
    m->group = sqlrow_str(s, 2);
    m->domain = sqlrow_str(s, 3);
    m->role = sqlrow_str(s, 4);
    m->end = store_plan_col_date(s, 5);
    m->njobs = sqlite3_column_int(s, 6);
    m->gpu_hours = sqlite3_column_double(s, 7);
    m->mem_source = sqlite3_column_int(s, 8);
    m->burst_frac = sqlite3_column_double(s, 9);
    read_raw(s, 10, m->raw);
    return 0;
}

int store_plan_run_latest(Store *st, StorePlanRun *run, StorePlanProfile **profiles,
                          StorePlanMember **members, size_t *n, int *found, CpErr *err)
{
    sqlite3 *db = store_db(st);
    MemberVec v = {NULL, 0, 0};
    sqlite3_stmt *s;
    memset(run, 0, sizeof *run);
    *profiles = NULL;
    *members = NULL;
    *n = 0;
    *found = 0;
    if (load_run_row(db, run, found, err) < 0)
        return -1;
    if (!*found)
        return 0;
    if (load_profiles(db, run, profiles, err) < 0)
        return -1;
    if (store_plan_prep(db,
             "SELECT user_id, profile, group_name, domain, role, end_date, njobs, gpu_hours, "
             "mem_source, burst_frac, gpus_p90, mem_gib, dur_mean_h, dur_max_h, gpu_hours_month, "
             "conc_mean, conc_peak FROM profile_members WHERE run_id = ?1 ORDER BY user_id",
             &s, "read profiles", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, run->id);
    int rc = store_plan_each_row(db, s, row_member, &v, "read profiles", err);
    *members = v.m;
    *n = v.n;
    return rc;
}

void store_plan_run_free(StorePlanRun *run, StorePlanProfile *profiles, int k,
                         StorePlanMember *members, size_t n)
{
    if (run) {
        free(run->roles);
        free(run->who);
    }
    for (int i = 0; profiles && i < k; i++)
        free(profiles[i].generated);
    free(profiles);
    for (size_t i = 0; i < n; i++) {
        free(members[i].group);
        free(members[i].domain);
        free(members[i].role);
    }
    free(members);
}

int store_plan_rename(Store *st, const char *generated, const char *name, const char *who,
                      const char *reason, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    if (store_plan_prep(db,
             "INSERT INTO profile_names(generated, name, who, reason, at) VALUES(?1,?2,?3,?4,?5) "
             "ON CONFLICT(generated) DO UPDATE SET name=excluded.name, who=excluded.who, "
             "reason=excluded.reason, at=excluded.at",
             &s, "rename profile", err) < 0)
        return -1;
    sqlite3_bind_text(s, 1, generated, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 2, name, -1, SQLITE_TRANSIENT);
    store_plan_bind_text_or_null(s, 3, who);
    store_plan_bind_text_or_null(s, 4, reason);
    sqlite3_bind_int64(s, 5, (int64_t)time(NULL));
    return store_plan_run_done(db, s, "rename profile", err);
}

int store_plan_chosen_name(Store *st, const char *generated, char *out, size_t n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    if (store_plan_prep(db, "SELECT name FROM profile_names WHERE generated = ?1", &s, "profile names",
             err) < 0)
        return -1;
    sqlite3_bind_text(s, 1, generated, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s), found = 0;
    if (rc == SQLITE_ROW) {
        snprintf(out, n, "%s", (const char *)sqlite3_column_text(s, 0));
        found = 1;
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sqlrow_err(db, err, "profile names");
    return found ? 0 : 1;
}
