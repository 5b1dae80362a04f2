/* store_plan_scenarios: scenarios, their parameters, the edit log and undo. */
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

/* ---- scenarios ---- */

typedef struct ScenVec {
    StorePlanScenario *s;
    size_t n, cap;
} ScenVec;

static int row_scenario(sqlite3_stmt *s, void *ctx)
{
    ScenVec *v = ctx;
    v->s = sqlrow_grow(v->s, v->n, &v->cap, sizeof *v->s);
    StorePlanScenario *c = &v->s[v->n++];
    c->name = sqlrow_str(s, 0);
    c->base = sqlrow_str(s, 1);
    c->who = sqlrow_str(s, 2);
    c->created_at = sqlite3_column_int64(s, 3);
    c->nparams = sqlite3_column_int(s, 4);
    return 0;
}

int store_plan_scenarios(Store *st, StorePlanScenario **out, size_t *n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    ScenVec v = {NULL, 0, 0};
    if (store_plan_prep(db,
             "SELECT s.name, s.base, s.who, s.created_at, "
             "(SELECT count(*) FROM scenario_params p WHERE p.scenario_id = s.id) "
             "FROM scenarios s ORDER BY s.name",
             &s, "scenarios", err) < 0)
        return -1;
    int rc = store_plan_each_row(db, s, row_scenario, &v, "scenarios", err);
    *out = v.s;
    *n = v.n;
    return rc;
}

void store_plan_scenarios_free(StorePlanScenario *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(s[i].name);
        free(s[i].base);
        free(s[i].who);
    }
    free(s);
}

static int scenario_id(sqlite3 *db, const char *name, int64_t *id, CpErr *err)
{
    sqlite3_stmt *s;
    if (store_plan_prep(db, "SELECT id FROM scenarios WHERE name = ?1", &s, "scenarios", err) < 0)
        return -1;
    sqlite3_bind_text(s, 1, name, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s);
    *id = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sqlrow_err(db, err, "scenarios");
    return 0;
}

int store_plan_scenario_exists(Store *st, const char *name, CpErr *err)
{
    int64_t id;
    if (scenario_id(store_db(st), name, &id, err) < 0)
        return -1;
    return id > 0;
}

static int copy_params(sqlite3 *db, int64_t from, int64_t to, CpErr *err)
{
    sqlite3_stmt *s;
    if (store_plan_prep(db,
             "INSERT INTO scenario_params(scenario_id, key, group_name, value, measured, label, "
             "reason, who, at) SELECT ?2, key, group_name, value, measured, label, reason, who, at "
             "FROM scenario_params WHERE scenario_id = ?1",
             &s, "copy scenario", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, from);
    sqlite3_bind_int64(s, 2, to);
    return store_plan_run_done(db, s, "copy scenario", err);
}

static int insert_scenario(sqlite3 *db, const char *name, const char *base, const char *who,
                           int64_t *id, CpErr *err)
{
    sqlite3_stmt *s;
    if (store_plan_prep(db, "INSERT INTO scenarios(name, base, created_at, who) VALUES(?1,?2,?3,?4)", &s,
             "new scenario", err) < 0)
        return -1;
    sqlite3_bind_text(s, 1, name, -1, SQLITE_TRANSIENT);
    store_plan_bind_text_or_null(s, 2, base);
    sqlite3_bind_int64(s, 3, (int64_t)time(NULL));
    store_plan_bind_text_or_null(s, 4, who);
    if (store_plan_run_done(db, s, "new scenario", err) < 0)
        return -1;
    *id = sqlite3_last_insert_rowid(db);
    return 0;
}

/* A scenario's name: 1 to 63 bytes, no control character, no space at
 * either end, not starting with '-' (it would read as an option). */
static int name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 63 || name[0] == '-' || name[0] == ' ' || name[n - 1] == ' ')
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
            return 0;
    return 1;
}

int store_plan_scenario_new(Store *st, const char *name, const char *base, const char *who,
                            CpErr *err)
{
    sqlite3 *db = store_db(st);
    int64_t id, base_id = 0;
    if (!name_ok(name))
        return cp_err_set(err, "bad scenario name '%s': 1 to 63 characters, no control "
                               "character, not starting with '-' or a space",
                          name);
    if (store_plan_exec(db, "BEGIN IMMEDIATE", err) < 0)
        return -1;
    if (scenario_id(db, name, &id, err) < 0)
        goto fail;
    if (id > 0) {
        cp_err_set(err, "scenario '%s' exists", name);
        goto fail;
    }
    if (base && scenario_id(db, base, &base_id, err) < 0)
        goto fail;
    if (base && base_id == 0) {
        cp_err_set(err, "no scenario '%s'", base);
        goto fail;
    }
    if (insert_scenario(db, name, base, who, &id, err) < 0 ||
        (base_id > 0 && copy_params(db, base_id, id, err) < 0))
        goto fail;
    return store_plan_exec(db, "COMMIT", err);
fail:
    store_plan_exec(db, "ROLLBACK", NULL);
    return -1;
}

static int delete_by_id(sqlite3 *db, const char *sql, int64_t id, CpErr *err)
{
    sqlite3_stmt *s;
    if (store_plan_prep(db, sql, &s, "remove scenario", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, id);
    return store_plan_run_done(db, s, "remove scenario", err);
}

int store_plan_scenario_rm(Store *st, const char *name, CpErr *err)
{
    sqlite3 *db = store_db(st);
    int64_t id;
    if (store_plan_exec(db, "BEGIN IMMEDIATE", err) < 0)
        return -1;
    if (scenario_id(db, name, &id, err) < 0)
        goto fail;
    if (id == 0) {
        cp_err_set(err, "no scenario '%s'", name);
        goto fail;
    }
    if (delete_by_id(db, "DELETE FROM scenario_params WHERE scenario_id = ?1", id, err) < 0 ||
        delete_by_id(db, "DELETE FROM scenario_edits WHERE scenario_id = ?1", id, err) < 0 ||
        delete_by_id(db, "DELETE FROM scenarios WHERE id = ?1", id, err) < 0)
        goto fail;
    return store_plan_exec(db, "COMMIT", err);
fail:
    store_plan_exec(db, "ROLLBACK", NULL);
    return -1;
}

typedef struct ParamVec {
    StorePlanParam *p;
    size_t n, cap;
} ParamVec;

static int row_param(sqlite3_stmt *s, void *ctx)
{
    ParamVec *v = ctx;
    v->p = sqlrow_grow(v->p, v->n, &v->cap, sizeof *v->p);
    StorePlanParam *p = &v->p[v->n++];
    p->key = sqlrow_str(s, 0);
    p->group = sqlrow_str(s, 1);
    p->value = sqlite3_column_double(s, 2);
    p->measured = sqlrow_num(s, 3, NAN);
    p->label = sqlrow_str(s, 4);
    p->reason = sqlrow_str(s, 5);
    p->who = sqlrow_str(s, 6);
    p->at = sqlite3_column_int64(s, 7);
    return 0;
}

int store_plan_params(Store *st, const char *name, StorePlanParam **out, size_t *n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    ParamVec v = {NULL, 0, 0};
    if (store_plan_prep(db,
             "SELECT p.key, p.group_name, p.value, p.measured, p.label, p.reason, p.who, p.at "
             "FROM scenario_params p JOIN scenarios s ON s.id = p.scenario_id "
             "WHERE s.name = ?1 ORDER BY p.key, p.group_name",
             &s, "scenario parameters", err) < 0)
        return -1;
    sqlite3_bind_text(s, 1, name, -1, SQLITE_TRANSIENT);
    int rc = store_plan_each_row(db, s, row_param, &v, "scenario parameters", err);
    *out = v.p;
    *n = v.n;
    return rc;
}

void store_plan_params_free(StorePlanParam *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(p[i].key);
        free(p[i].group);
        free(p[i].label);
        free(p[i].reason);
        free(p[i].who);
    }
    free(p);
}

/* The current row of (key, group) in scenario id: 1 with its value,
 * measured value and label (caller frees *label) when edited, else 0. */
static int current_value(sqlite3 *db, int64_t id, const char *key, const char *group, double *v,
                         double *measured, char **label, CpErr *err)
{
    sqlite3_stmt *s;
    if (store_plan_prep(db,
             "SELECT value, measured, label FROM scenario_params WHERE scenario_id = ?1 AND "
             "key = ?2 AND group_name = ?3",
             &s, "scenario parameters", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, id);
    sqlite3_bind_text(s, 2, key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 3, group, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s), found = rc == SQLITE_ROW;
    if (found) {
        *v = sqlite3_column_double(s, 0);
        *measured = sqlrow_num(s, 1, NAN);
        *label = sqlrow_str(s, 2);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sqlrow_err(db, err, "scenario parameters");
    return found;
}

/* One edit: old and new values (NAN = not edited), measured, label, why. */
typedef struct Edit {
    int64_t scenario;
    const char *key, *group, *label, *reason, *who;
    double old_value, new_value, measured;
} Edit;

static int log_edit(sqlite3 *db, const Edit *e, CpErr *err)
{
    sqlite3_stmt *s;
    if (store_plan_prep(db,
             "INSERT INTO scenario_edits(scenario_id, key, group_name, old_value, new_value, "
             "measured, label, reason, who, at) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
             &s, "scenario history", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, e->scenario);
    sqlite3_bind_text(s, 2, e->key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 3, e->group, -1, SQLITE_TRANSIENT);
    store_plan_bind_real_or_null(s, 4, e->old_value);
    store_plan_bind_real_or_null(s, 5, e->new_value);
    store_plan_bind_real_or_null(s, 6, e->measured);
    store_plan_bind_text_or_null(s, 7, e->label);
    store_plan_bind_text_or_null(s, 8, e->reason);
    store_plan_bind_text_or_null(s, 9, e->who);
    sqlite3_bind_int64(s, 10, (int64_t)time(NULL));
    return store_plan_run_done(db, s, "scenario history", err);
}

/* Write (or with new_value NAN remove) the parameter row of e. */
static int write_param(sqlite3 *db, const Edit *e, CpErr *err)
{
    sqlite3_stmt *s;
    if (isnan(e->new_value)) {
        if (store_plan_prep(db,
                 "DELETE FROM scenario_params WHERE scenario_id = ?1 AND key = ?2 AND "
                 "group_name = ?3",
                 &s, "scenario parameters", err) < 0)
            return -1;
    } else if (store_plan_prep(db,
                    "INSERT INTO scenario_params(scenario_id, key, group_name, value, measured, "
                    "label, reason, who, at) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9) "
                    "ON CONFLICT(scenario_id, key, group_name) DO UPDATE SET value=excluded.value, "
                    "measured=excluded.measured, label=excluded.label, reason=excluded.reason, "
                    "who=excluded.who, at=excluded.at",
                    &s, "scenario parameters", err) < 0) {
        return -1;
    }
    sqlite3_bind_int64(s, 1, e->scenario);
    sqlite3_bind_text(s, 2, e->key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 3, e->group, -1, SQLITE_TRANSIENT);
    if (!isnan(e->new_value)) {
        sqlite3_bind_double(s, 4, e->new_value);
        store_plan_bind_real_or_null(s, 5, e->measured);
        store_plan_bind_text_or_null(s, 6, e->label);
        store_plan_bind_text_or_null(s, 7, e->reason);
        store_plan_bind_text_or_null(s, 8, e->who);
        sqlite3_bind_int64(s, 9, (int64_t)time(NULL));
    }
    return store_plan_run_done(db, s, "scenario parameters", err);
}

/* Apply e (its old value read here) and log it, in one transaction. A
 * drop (new value NAN) logs the dropped row's measured value and label,
 * so that an undo can put the row back. */
static int apply_edit(sqlite3 *db, const char *scenario, Edit *e, CpErr *err)
{
    char *old_label = NULL;
    if (store_plan_exec(db, "BEGIN IMMEDIATE", err) < 0)
        return -1;
    if (scenario_id(db, scenario, &e->scenario, err) < 0)
        goto fail;
    if (e->scenario == 0) {
        cp_err_set(err, "no scenario '%s' (capplan scenario new %s)", scenario, scenario);
        goto fail;
    }
    double old = NAN, old_measured = NAN;
    int had = current_value(db, e->scenario, e->key, e->group, &old, &old_measured, &old_label,
                            err);
    if (had < 0)
        goto fail;
    e->old_value = had ? old : NAN;
    if (isnan(e->new_value)) {
        e->measured = old_measured;
        e->label = old_label;
    }
    if (write_param(db, e, err) < 0 || log_edit(db, e, err) < 0)
        goto fail;
    free(old_label);
    return store_plan_exec(db, "COMMIT", err);
fail:
    free(old_label);
    store_plan_exec(db, "ROLLBACK", NULL);
    return -1;
}

int store_plan_param_set(Store *st, const char *scenario, const char *key, const char *group,
                         double value, double measured, const char *label, const char *reason,
                         const char *who, CpErr *err)
{
    Edit e = {0, key, group ? group : "", label, reason, who, NAN, value, measured};
    return apply_edit(store_db(st), scenario, &e, err);
}

int store_plan_param_unset(Store *st, const char *scenario, const char *key, const char *group,
                           const char *reason, const char *who, CpErr *err)
{
    Edit e = {0, key, group ? group : "", NULL, reason, who, NAN, NAN, NAN};
    return apply_edit(store_db(st), scenario, &e, err);
}

/* The latest edit of scenario id: its id, key, group and old value
 * (strings owned by the caller). */
static int last_edit(sqlite3 *db, int64_t id, int64_t *edit_id, char **key, char **group,
                     double *old_value, CpErr *err)
{
    sqlite3_stmt *s;
    if (store_plan_prep(db,
             "SELECT id, key, group_name, old_value FROM scenario_edits "
             "WHERE scenario_id = ?1 ORDER BY id DESC LIMIT 1",
             &s, "scenario history", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, id);
    int rc = sqlite3_step(s);
    *edit_id = 0;
    if (rc == SQLITE_ROW) {
        *edit_id = sqlite3_column_int64(s, 0);
        *key = sqlrow_str(s, 1);
        *group = sqlrow_str(s, 2);
        *old_value = sqlrow_num(s, 3, NAN);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "scenario history");
}

/* Put (key, group) of scenario id back to old (NAN: not edited). Who, why
 * and the measured value come back from the edit before edit_id of the
 * same parameter; without one (a parameter copied from a base), from the
 * row itself, else from edit_id (a drop logs the dropped row's). */
static const char restore_sql[] =
    "WITH prev AS (SELECT measured, label, reason, who, at FROM scenario_edits "
    "  WHERE scenario_id = ?1 AND key = ?2 AND group_name = ?3 AND id < ?5 "
    "  ORDER BY id DESC LIMIT 1), "
    "cur AS (SELECT measured, label, reason, who, at FROM scenario_params "
    "  WHERE scenario_id = ?1 AND key = ?2 AND group_name = ?3), "
    "this AS (SELECT measured, label, at FROM scenario_edits WHERE id = ?5) "
    "INSERT INTO scenario_params(scenario_id, key, group_name, value, measured, label, reason, "
    "  who, at) VALUES(?1, ?2, ?3, ?4, "
    "  coalesce((SELECT measured FROM prev), (SELECT measured FROM cur), "
    "           (SELECT measured FROM this)), "
    "  coalesce((SELECT label FROM prev), (SELECT label FROM cur), (SELECT label FROM this)), "
    "  CASE WHEN EXISTS(SELECT 1 FROM prev) THEN (SELECT reason FROM prev) "
    "       ELSE (SELECT reason FROM cur) END, "
    "  coalesce((SELECT who FROM prev), (SELECT who FROM cur)), "
    "  coalesce((SELECT at FROM prev), (SELECT at FROM cur), (SELECT at FROM this))) "
    "ON CONFLICT(scenario_id, key, group_name) DO UPDATE SET value = excluded.value, "
    "  measured = excluded.measured, label = excluded.label, reason = excluded.reason, "
    "  who = excluded.who, at = excluded.at";

static int restore_param(sqlite3 *db, int64_t id, int64_t edit_id, const char *key,
                         const char *group, double old, CpErr *err)
{
    sqlite3_stmt *s;
    const char *sql =
        isnan(old)
            ? "DELETE FROM scenario_params WHERE scenario_id = ?1 AND key = ?2 AND group_name = ?3"
            : restore_sql;
    if (store_plan_prep(db, sql, &s, "scenario parameters", err) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, id);
    sqlite3_bind_text(s, 2, key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 3, group, -1, SQLITE_TRANSIENT);
    if (!isnan(old)) {
        sqlite3_bind_double(s, 4, old);
        sqlite3_bind_int64(s, 5, edit_id);
    }
    return store_plan_run_done(db, s, "scenario parameters", err);
}

int store_plan_undo(Store *st, const char *scenario, int *undone, CpErr *err)
{
    sqlite3 *db = store_db(st);
    char *key = NULL, *group = NULL;
    double old = NAN;
    int64_t id, edit_id = 0;
    int rc = -1;
    *undone = 0;
    if (store_plan_exec(db, "BEGIN IMMEDIATE", err) < 0)
        return -1;
    if (scenario_id(db, scenario, &id, err) < 0)
        goto out;
    if (id == 0) {
        cp_err_set(err, "no scenario '%s'", scenario);
        goto out;
    }
    if (last_edit(db, id, &edit_id, &key, &group, &old, err) < 0)
        goto out;
    if (edit_id > 0 &&
        (restore_param(db, id, edit_id, key, group ? group : "", old, err) < 0 ||
         delete_by_id(db, "DELETE FROM scenario_edits WHERE id = ?1", edit_id, err) < 0))
        goto out;
    *undone = edit_id > 0;
    rc = store_plan_exec(db, "COMMIT", err);
out:
    if (rc < 0)
        store_plan_exec(db, "ROLLBACK", NULL);
    free(key);
    free(group);
    return rc;
}
