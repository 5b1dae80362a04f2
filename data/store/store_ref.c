#include "data/store/store_ref.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "core/fieldtext.h"
#include "data/store/store.h"

/* Statements. An upsert is a pair: an INSERT that does nothing on its key's
 * conflict, then (when nothing was inserted) an UPDATE that only touches a
 * row whose values differ; sqlite3_changes() tells the three outcomes
 * apart. Both statements of a pair share their parameter numbers. */
enum {
    Q_PERSON_INS, Q_PERSON_UPD, Q_GROUP_INS, Q_GROUP_UPD, Q_INV_INS, Q_INV_UPD, Q_EVENT_INS,
    Q_PUB_INS, Q_PUB_UPD, Q_METRIC_INS, Q_METRIC_UPD, Q_LINK_RAW, Q_LINK_ID, Q_COUNT
};

/* The jobs a metric describes: ?1 cluster ("" for any), ?2 the key,
 * ?3 GPU memory (GiB or NULL), ?4 utilisation (or NULL). */
#define LINK_SET                                                                              \
    "UPDATE jobs SET gpu_mem_gib=COALESCE(?3, gpu_mem_gib), "                                 \
    "gpu_mem_source=CASE WHEN ?3 IS NULL THEN gpu_mem_source ELSE 2 END, "                    \
    "gpu_util=COALESCE(?4, gpu_util) "                                                        \
    "WHERE cluster_id IN (SELECT id FROM clusters WHERE ?1 = '' OR name = ?1) AND "
#define LINK_CHANGED                                                                          \
    " AND (gpu_mem_gib IS NOT COALESCE(?3, gpu_mem_gib) OR "                                  \
    "(?3 IS NOT NULL AND gpu_mem_source <> 2) OR gpu_util IS NOT COALESCE(?4, gpu_util))"

/* A group's domain: a sure one (?4, the professor's) replaces, a guess
 * from the members only fills a gap. */
#define GROUP_DOMAIN "(CASE WHEN ?4 THEN COALESCE(?2, domain) ELSE COALESCE(domain, ?2) END)"

static const char *const ref_sql[Q_COUNT] = {
    /* start_date NULL (unknown) is a key too: IS, not =, and no UNIQUE to lean on */
    [Q_PERSON_INS] = "INSERT INTO people(user, group_name, role, domain, start_date, end_date, "
                     "supervisor, import_id, name, aliases, planned_end) "
                     "SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11 WHERE NOT EXISTS "
                     "(SELECT 1 FROM people WHERE user=?1 AND group_name=?2 AND start_date IS ?5)",
    [Q_PERSON_UPD] = "UPDATE people SET role=?3, domain=?4, end_date=?6, supervisor=?7, "
                     "import_id=?8, name=?9, aliases=?10, planned_end=?11 WHERE user=?1 AND group_name=?2 AND "
                     "start_date IS ?5 AND (role IS NOT ?3 OR domain IS NOT ?4 OR end_date IS NOT ?6 "
                     "OR supervisor IS NOT ?7 OR name IS NOT ?9 OR aliases IS NOT ?10 "
                     "OR planned_end IS NOT ?11)",
    [Q_GROUP_INS] = "INSERT INTO groups(name, domain, professor) VALUES(?1, ?2, ?3) "
                    "ON CONFLICT(name) DO NOTHING",
    [Q_GROUP_UPD] = "UPDATE groups SET domain=" GROUP_DOMAIN ", "
                    "professor=COALESCE(?3, professor) WHERE name=?1 AND "
                    "(domain IS NOT " GROUP_DOMAIN " OR "
                    "professor IS NOT COALESCE(?3, professor))",
    [Q_INV_INS] = "INSERT INTO inventory(cluster, gpu_model, gpus, gpu_mem_gib, from_date, "
                  "to_date, relative_speed, tdp_w, import_id) "
                  "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
                  "ON CONFLICT(cluster, gpu_model, from_date) DO NOTHING",
    [Q_INV_UPD] = "UPDATE inventory SET gpus=?3, gpu_mem_gib=?4, to_date=?6, "
                  "relative_speed=?7, tdp_w=?8, import_id=?9 "
                  "WHERE cluster=?1 AND gpu_model=?2 AND from_date=?5 AND "
                  "(gpus IS NOT ?3 OR gpu_mem_gib IS NOT ?4 OR to_date IS NOT ?6 OR "
                  "relative_speed IS NOT ?7 OR tdp_w IS NOT ?8)",
    [Q_EVENT_INS] = "INSERT INTO events(date, cluster, label, import_id) "
                    "VALUES(?1, ?2, ?3, ?4) ON CONFLICT(date, cluster, label) DO NOTHING",
    [Q_PUB_INS] = "INSERT INTO pubs(year, group_name, title, domain, authors, import_id) "
                  "VALUES(?1, ?2, ?3, ?4, ?5, ?6) "
                  "ON CONFLICT(year, group_name, title) DO NOTHING",
    [Q_PUB_UPD] = "UPDATE pubs SET domain=?4, authors=?5, import_id=?6 "
                  "WHERE year=?1 AND group_name=?2 AND title=?3 AND "
                  "(domain IS NOT ?4 OR authors IS NOT ?5)",
    [Q_METRIC_INS] = "INSERT INTO gpu_metrics(cluster, job_key, gpu_mem_max_gib, "
                     "gpu_util_mean, samples, import_id) VALUES(?1, ?2, ?3, ?4, ?5, ?6) "
                     "ON CONFLICT(cluster, job_key) DO NOTHING",
    [Q_METRIC_UPD] = "UPDATE gpu_metrics SET gpu_mem_max_gib=?3, gpu_util_mean=?4, "
                     "samples=?5, import_id=?6 WHERE cluster=?1 AND job_key=?2 AND "
                     "(gpu_mem_max_gib IS NOT ?3 OR gpu_util_mean IS NOT ?4 OR "
                     "samples IS NOT ?5)",
    [Q_LINK_RAW] = LINK_SET "job_raw = ?2" LINK_CHANGED,
    [Q_LINK_ID] = LINK_SET "job_id = ?2" LINK_CHANGED,
};

struct StoreRef {
    sqlite3 *db;
    sqlite3_stmt *q[Q_COUNT];
};

static int db_err(StoreRef *r, CpErr *err, const char *what)
{
    return cp_err_set(err, "database: %s: %s", what, sqlite3_errmsg(r->db));
}

StoreRef *store_ref_new(Store *st, CpErr *err)
{
    StoreRef *r = xcalloc(1, sizeof *r);
    r->db = store_db(st);
    for (int i = 0; i < Q_COUNT; i++)
        if (sqlite3_prepare_v2(r->db, ref_sql[i], -1, &r->q[i], NULL) != SQLITE_OK) {
            db_err(r, err, "prepare");
            store_ref_free(r);
            return NULL;
        }
    return r;
}

void store_ref_free(StoreRef *r)
{
    if (!r)
        return;
    for (int i = 0; i < Q_COUNT; i++)
        sqlite3_finalize(r->q[i]);
    free(r);
}

/* Bind text, NULL for a NULL pointer. The text must live until the
 * statement has run (run() clears the bindings afterwards). */
static void bind_text(sqlite3_stmt *s, int i, const char *t)
{
    if (t)
        sqlite3_bind_text(s, i, t, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(s, i);
}

/* Bind a number, NULL when negative (unknown). */
static void bind_num(sqlite3_stmt *s, int i, double v)
{
    if (v < 0)
        sqlite3_bind_null(s, i);
    else
        sqlite3_bind_double(s, i, v);
}

/* Run a bound statement; *changed says whether it wrote a row. */
static int run(StoreRef *r, sqlite3_stmt *s, int *changed, CpErr *err)
{
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (rc != SQLITE_DONE)
        return db_err(r, err, "write");
    *changed = sqlite3_changes(r->db) > 0;
    return 0;
}

/* Run the pair (ins, upd), both bound; upd is -1 for tables whose every
 * column is the key. The bindings of both are cleared afterwards. */
static int upsert(StoreRef *r, int ins, int upd, StoreRefOutcome *out, CpErr *err)
{
    int inserted = 0, updated = 0, rc = run(r, r->q[ins], &inserted, err);
    if (rc == 0 && !inserted && upd >= 0)
        rc = run(r, r->q[upd], &updated, err);
    if (upd >= 0)
        sqlite3_clear_bindings(r->q[upd]);
    *out = inserted ? STORE_REF_ADDED : updated ? STORE_REF_UPDATED : STORE_REF_UNCHANGED;
    return rc;
}

static void bind_person(sqlite3_stmt *s, int64_t import_id, const RefPerson *p)
{
    bind_text(s, 1, p->user);
    bind_text(s, 2, p->group);
    bind_text(s, 3, p->role);
    bind_text(s, 4, p->domain);
    bind_text(s, 5, p->start);
    bind_text(s, 6, p->end);
    bind_text(s, 7, p->supervisor);
    sqlite3_bind_int64(s, 8, import_id);
    bind_text(s, 9, p->name);
    bind_text(s, 10, p->aliases);
    bind_text(s, 11, p->planned_end);
}

int store_ref_person(StoreRef *r, int64_t import_id, const RefPerson *p, StoreRefOutcome *out,
                     CpErr *err)
{
    bind_person(r->q[Q_PERSON_INS], import_id, p);
    bind_person(r->q[Q_PERSON_UPD], import_id, p);
    return upsert(r, Q_PERSON_INS, Q_PERSON_UPD, out, err);
}

static void bind_group(sqlite3_stmt *s, const RefGroup *g)
{
    bind_text(s, 1, g->name);
    bind_text(s, 2, g->domain);
    bind_text(s, 3, g->professor);
    sqlite3_bind_int(s, 4, g->domain_sure);
}

int store_ref_group(StoreRef *r, const RefGroup *g, StoreRefOutcome *out, CpErr *err)
{
    bind_group(r->q[Q_GROUP_INS], g);
    bind_group(r->q[Q_GROUP_UPD], g);
    return upsert(r, Q_GROUP_INS, Q_GROUP_UPD, out, err);
}

static void bind_inventory(sqlite3_stmt *s, int64_t import_id, const RefInventory *v)
{
    bind_text(s, 1, v->cluster);
    bind_text(s, 2, v->gpu_model);
    sqlite3_bind_int64(s, 3, v->gpus);
    sqlite3_bind_double(s, 4, v->gpu_mem_gib);
    bind_text(s, 5, v->from);
    bind_text(s, 6, v->to);
    bind_num(s, 7, v->relative_speed);
    bind_num(s, 8, v->tdp_w);
    sqlite3_bind_int64(s, 9, import_id);
}

int store_ref_inventory(StoreRef *r, int64_t import_id, const RefInventory *v,
                        StoreRefOutcome *out, CpErr *err)
{
    bind_inventory(r->q[Q_INV_INS], import_id, v);
    bind_inventory(r->q[Q_INV_UPD], import_id, v);
    return upsert(r, Q_INV_INS, Q_INV_UPD, out, err);
}

int store_ref_event(StoreRef *r, int64_t import_id, const RefEvent *e, StoreRefOutcome *out,
                    CpErr *err)
{
    sqlite3_stmt *s = r->q[Q_EVENT_INS];
    bind_text(s, 1, e->date);
    bind_text(s, 2, e->cluster);
    bind_text(s, 3, e->label);
    sqlite3_bind_int64(s, 4, import_id);
    return upsert(r, Q_EVENT_INS, -1, out, err);
}

static void bind_pub(sqlite3_stmt *s, int64_t import_id, const RefPub *p)
{
    sqlite3_bind_int64(s, 1, p->year);
    bind_text(s, 2, p->group);
    bind_text(s, 3, p->title);
    bind_text(s, 4, p->domain);
    bind_text(s, 5, p->authors);
    sqlite3_bind_int64(s, 6, import_id);
}

int store_ref_pub(StoreRef *r, int64_t import_id, const RefPub *p, StoreRefOutcome *out,
                  CpErr *err)
{
    bind_pub(r->q[Q_PUB_INS], import_id, p);
    bind_pub(r->q[Q_PUB_UPD], import_id, p);
    return upsert(r, Q_PUB_INS, Q_PUB_UPD, out, err);
}

static void bind_metric(sqlite3_stmt *s, int64_t import_id, const RefMetric *m)
{
    bind_text(s, 1, m->cluster);
    bind_text(s, 2, m->job_key);
    bind_num(s, 3, m->gpu_mem_max_gib);
    bind_num(s, 4, m->gpu_util_mean);
    sqlite3_bind_int64(s, 5, m->samples);
    sqlite3_bind_int64(s, 6, import_id);
}

int store_ref_metric(StoreRef *r, int64_t import_id, const RefMetric *m, StoreRefOutcome *out,
                     CpErr *err)
{
    bind_metric(r->q[Q_METRIC_INS], import_id, m);
    bind_metric(r->q[Q_METRIC_UPD], import_id, m);
    return upsert(r, Q_METRIC_INS, Q_METRIC_UPD, out, err);
}

int store_ref_link_metric(StoreRef *r, const RefMetric *m, int64_t *linked, CpErr *err)
{
    int64_t raw;
    const char *key = m->job_key;
    int numeric = fields_int(key, strlen(key), &raw, NULL) == 0 && raw >= 0;
    sqlite3_stmt *s = r->q[numeric ? Q_LINK_RAW : Q_LINK_ID];
    int changed;
    bind_text(s, 1, m->cluster);
    if (numeric)
        sqlite3_bind_int64(s, 2, raw);
    else
        bind_text(s, 2, key);
    bind_num(s, 3, m->gpu_mem_max_gib);
    bind_num(s, 4, m->gpu_util_mean);
    if (run(r, s, &changed, err) < 0)
        return -1;
    if (linked)
        *linked += sqlite3_changes(r->db);
    return 0;
}
