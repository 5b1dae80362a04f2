#include "data/store/store_blocks.h"
#include "data/store/store_blocks_int.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store/sqlrow.h"
#include "data/store/store.h"
#include "data/store/store_feed.h"
#include "data/store/store_schema.h"


_Static_assert(sizeof(StoreBlockRec) == 64, "a packed record is 64 bytes");

/* ---- packing: the aggregate capplan_block_pack ---- */

/* Its arguments, in this order (the migration's SQL and rows_sql below). */
enum { A_ID, A_USER, A_ACCOUNT, A_CLUSTER, A_TYPE, A_START, A_SUBMIT, A_ELIGIBLE, A_RUN,
       A_GPUS, A_NCPUS, A_MEM, A_COUNT };

typedef struct Packer {
    StoreBlockRec *recs;
    int64_t *ids;
    size_t n, cap;
    char **types;
    int ntypes, last_type;
} Packer;

static int packer_type(Packer *p, const char *t)
{
    if (p->last_type >= 0 && strcmp(p->types[p->last_type], t) == 0)
        return p->last_type;
    for (int i = 0; i < p->ntypes; i++)
        if (strcmp(p->types[i], t) == 0)
            return p->last_type = i;
    p->types = xrealloc(p->types, (size_t)(p->ntypes + 1) * sizeof *p->types);
    p->types[p->ntypes] = xstrdup(t);
    return p->last_type = p->ntypes++;
}

/* Add record r of rowid id, GPU type name t, to p. */
static void packer_push(Packer *p, int64_t id, const StoreBlockRec *r, const char *t)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 256;
        p->recs = xrealloc(p->recs, p->cap * sizeof *p->recs);
        p->ids = xrealloc(p->ids, p->cap * sizeof *p->ids);
    }
    p->recs[p->n] = *r;
    p->recs[p->n].type = (uint16_t)packer_type(p, t);
    p->ids[p->n++] = id;
}

/* Add one job's record from its values (A_* order) to p. */
static void packer_add(Packer *p, sqlite3_value **v)
{
    StoreBlockRec r;
    memset(&r, 0, sizeof r);
    r.user = (int32_t)sqlite3_value_int64(v[A_USER]);
    r.account = sqlite3_value_type(v[A_ACCOUNT]) == SQLITE_NULL
                    ? -1
                    : (int32_t)sqlite3_value_int64(v[A_ACCOUNT]);
    r.cluster = (int32_t)sqlite3_value_int64(v[A_CLUSTER]);
    int64_t submit = sqlite3_value_int64(v[A_SUBMIT]);
    if (sqlite3_value_type(v[A_START]) != SQLITE_NULL) {
        r.start = sqlite3_value_int64(v[A_START]);
        r.flags |= STORE_REC_STARTED;
    } else {
        r.start = submit;
    }
    int64_t el = sqlite3_value_int64(v[A_ELIGIBLE]); /* NULL reads 0 */
    r.elig = el != 0 ? el : submit;
    r.run = sqlite3_value_int64(v[A_RUN]);
    r.gpus = sqlite3_value_double(v[A_GPUS]);
    r.ncpus = sqlite3_value_double(v[A_NCPUS]);
    if (sqlite3_value_type(v[A_MEM]) != SQLITE_NULL) {
        r.mem = sqlite3_value_double(v[A_MEM]);
        r.flags |= STORE_REC_MEM;
    }
    const char *t = (const char *)sqlite3_value_text(v[A_TYPE]);
    packer_push(p, sqlite3_value_int64(v[A_ID]), &r, t ? t : "");
}

static void pack_step(sqlite3_context *ctx, int argc, sqlite3_value **v)
{
    Packer **pp = sqlite3_aggregate_context(ctx, sizeof *pp);
    if (!pp) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (!*pp) {
        *pp = xcalloc(1, sizeof **pp);
        (*pp)->last_type = -1;
    }
    if (argc != A_COUNT || (*pp)->ntypes >= 0xffff) {
        sqlite3_result_error(ctx, "capplan_block_pack: bad arguments", -1);
        return;
    }
    packer_add(*pp, v);
}

typedef struct IdRec {
    int64_t id;
    StoreBlockRec r;
} IdRec;

static int cmp_id(const void *a, const void *b)
{
    const IdRec *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

/* Types numbered in the order the sorted records first name them. */
static void packer_renumber(Packer *p)
{
    int *map = xmalloc(((size_t)p->ntypes + 1) * sizeof *map);
    char **named = xmalloc(((size_t)p->ntypes + 1) * sizeof *named);
    int k = 0;
    for (int t = 0; t < p->ntypes; t++)
        map[t] = -1;
    for (size_t i = 0; i < p->n; i++) {
        int t = p->recs[i].type;
        if (map[t] < 0) {
            map[t] = k;
            named[k++] = p->types[t];
        }
        p->recs[i].type = (uint16_t)map[t];
    }
    for (int t = 0; t < p->ntypes; t++)
        if (map[t] < 0)
            free(p->types[t]);
    free(p->types);
    free(map);
    p->types = named;
    p->ntypes = k;
}

/* Records in rowid order, whatever order SQLite fed them in, and their
 * types numbered in that order: a block's bytes depend on its rows only. */
static void packer_sort(Packer *p)
{
    size_t i = 1;
    while (i < p->n && p->ids[i - 1] < p->ids[i])
        i++;
    if (i < p->n) {
        IdRec *t = xmalloc(p->n * sizeof *t);
        for (i = 0; i < p->n; i++)
            t[i] = (IdRec){p->ids[i], p->recs[i]};
        qsort(t, p->n, sizeof *t, cmp_id);
        for (i = 0; i < p->n; i++)
            p->recs[i] = t[i].r;
        free(t);
    }
    packer_renumber(p);
}

static void put_u32(unsigned char *b, uint32_t v)
{
    memcpy(b, &v, sizeof v);
}

/* p's block as a BLOB (*len bytes, caller frees); p is emptied. */
static unsigned char *packer_blob(Packer *p, size_t *len)
{
    packer_sort(p);
    size_t tbytes = 0;
    for (int i = 0; i < p->ntypes; i++)
        tbytes += strlen(p->types[i]) + 1;
    size_t tpad = (tbytes + 7) & ~(size_t)7;
    *len = HEADER_BYTES + tpad + p->n * sizeof *p->recs;
    unsigned char *b = xcalloc(*len, 1);
    put_u32(b, BLOCK_MAGIC);
    put_u32(b + 4, (uint32_t)p->n);
    put_u32(b + 8, (uint32_t)p->ntypes);
    put_u32(b + 12, (uint32_t)tbytes);
    size_t at = HEADER_BYTES;
    for (int i = 0; i < p->ntypes; i++) {
        size_t l = strlen(p->types[i]) + 1;
        memcpy(b + at, p->types[i], l);
        at += l;
        free(p->types[i]);
    }
    if (p->n)
        memcpy(b + HEADER_BYTES + tpad, p->recs, p->n * sizeof *p->recs);
    free(p->types);
    free(p->recs);
    free(p->ids);
    memset(p, 0, sizeof *p);
    p->last_type = -1;
    return b;
}

static void pack_final(sqlite3_context *ctx)
{
    Packer **pp = sqlite3_aggregate_context(ctx, 0);
    Packer empty = {NULL, NULL, 0, 0, NULL, 0, -1}, *p = pp && *pp ? *pp : &empty;
    size_t len;
    unsigned char *b = packer_blob(p, &len);
    sqlite3_result_blob64(ctx, b, len, free);
    if (p != &empty)
        free(p);
    if (pp)
        *pp = NULL;
}

int store_blocks_register(Store *st, CpErr *err)
{
    sqlite3 *db = store_db(st);
    if (sqlite3_create_function(db, "capplan_block_pack", A_COUNT, SQLITE_UTF8, NULL, NULL,
                                pack_step, pack_final) != SQLITE_OK)
        return sqlrow_err(db, err, "register capplan_block_pack");
    return 0;
}

/* ---- keeping the blocks in step ---- */

/* A planning record: what store_plan reads (store_blocks.h). */
#define REC_WHERE                                                                              \
    "final = 1 AND user_id IS NOT NULL AND coalesce(elapsed, end_time - start) IS NOT NULL " \
    "AND (gpus > 0 OR ncpus > 0)"

/* The planning records of rowids [?1, ?2], in capplan_block_pack's
 * argument order (the migration's SQL packs the same columns). */
static const char rows_sql[] =
    "SELECT id, user_id, account_id, cluster_id, gpu_type, start, submit, eligible, "
    "coalesce(elapsed, end_time - start), gpus, " STORE_CPUS_SQL ", "
    "CASE WHEN gpu_mem_source > 0 THEN gpu_mem_gib END FROM jobs "
    "WHERE id >= ?1 AND id <= ?2 AND " REC_WHERE;

/* store_blocks_int.h */
int store_blocks_has_tables(sqlite3 *db)
{
    sqlite3_stmt *s;
    int found = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                           "name = 'job_blocks_state'",
                           -1, &s, NULL) != SQLITE_OK)
        return 0;
    if (sqlite3_step(s) == SQLITE_ROW)
        found = sqlite3_column_int(s, 0) > 0;
    sqlite3_finalize(s);
    return found;
}

int store_blocks_int_of(sqlite3 *db, const char *sql, int64_t arg, int64_t *out, int *null, CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "job blocks");
    if (sqlite3_bind_parameter_count(s) > 0)
        sqlite3_bind_int64(s, 1, arg);
    int rc = sqlite3_step(s);
    *null = rc != SQLITE_ROW || sqlite3_column_type(s, 0) == SQLITE_NULL;
    *out = *null ? 0 : sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "job blocks");
}

typedef struct Sync {
    sqlite3 *db;
    sqlite3_stmt *rows, *put, *next;
    Packer pk;
} Sync;

/* y's statements prepared (also after a failure: sync_done then). 0, or
 * -1 with err. */
static int sync_init(Sync *y, sqlite3 *db, CpErr *err)
{
    memset(y, 0, sizeof *y);
    y->db = db;
    y->pk.last_type = -1;
    if (sqlite3_prepare_v2(db, rows_sql, -1, &y->rows, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db,
                           "INSERT OR REPLACE INTO job_blocks(block, n, lo, hi, data) "
                           "VALUES(?1, ?2, ?3, ?4, ?5)",
                           -1, &y->put, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT min(id) FROM jobs WHERE id > ?1", -1, &y->next, NULL) !=
            SQLITE_OK)
        return sqlrow_err(db, err, "job blocks");
    return 0;
}

static void sync_done(Sync *y)
{
    sqlite3_finalize(y->rows);
    sqlite3_finalize(y->put);
    sqlite3_finalize(y->next);
    free(y->pk.recs);
    free(y->pk.ids);
    for (int i = 0; i < y->pk.ntypes; i++)
        free(y->pk.types[i]);
    free(y->pk.types);
}

/* Write y->pk's n records as block b, their starts first..last (first >
 * last: none started); y->pk is emptied. */
static int put_block(Sync *y, int64_t b, int64_t n, int64_t first, int64_t last, CpErr *err)
{
    size_t len;
    unsigned char *blob = packer_blob(&y->pk, &len);
    sqlite3_bind_int64(y->put, 1, b);
    sqlite3_bind_int64(y->put, 2, n);
    if (first <= last) {
        sqlite3_bind_int64(y->put, 3, first);
        sqlite3_bind_int64(y->put, 4, last);
    }
    sqlite3_bind_blob64(y->put, 5, blob, len, free);
    int rc = sqlite3_step(y->put);
    sqlite3_reset(y->put);
    sqlite3_clear_bindings(y->put);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(y->db, err, "job blocks");
}

/* Pack rowids [lo, hi] into block b (a row even when it holds none). */
static int pack_block(Sync *y, int64_t b, int64_t lo, int64_t hi, CpErr *err)
{
    sqlite3_value *v[A_COUNT];
    int64_t n = 0, first = INT64_MAX, last = INT64_MIN;
    int rc;
    sqlite3_bind_int64(y->rows, 1, lo);
    sqlite3_bind_int64(y->rows, 2, hi);
    while ((rc = sqlite3_step(y->rows)) == SQLITE_ROW && y->pk.ntypes < 0xffff) {
        for (int i = 0; i < A_COUNT; i++)
            v[i] = sqlite3_column_value(y->rows, i);
        if (sqlite3_value_type(v[A_START]) != SQLITE_NULL) {
            int64_t t = sqlite3_value_int64(v[A_START]);
            first = t < first ? t : first;
            last = t > last ? t : last;
        }
        packer_add(&y->pk, v);
        n++;
    }
    sqlite3_reset(y->rows);
    if (rc != SQLITE_DONE)
        return rc == SQLITE_ROW ? cp_err_set(err, "job blocks: too many GPU types in a block")
                                : sqlrow_err(y->db, err, "job blocks");
    return put_block(y, b, n, first, last, err);
}

/* Rebuild block b; *next: the block of the first rowid after it (-1 none). */
static int rebuild(Sync *y, int64_t b, int64_t *next, CpErr *err)
{
    int64_t lo = b << STORE_BLOCK_SHIFT, hi = lo + (1 << STORE_BLOCK_SHIFT) - 1;
    if (pack_block(y, b, lo, hi, err) < 0)
        return -1;
    int rc;
    sqlite3_bind_int64(y->next, 1, hi);
    rc = sqlite3_step(y->next);
    *next = rc == SQLITE_ROW && sqlite3_column_type(y->next, 0) != SQLITE_NULL
                ? sqlite3_column_int64(y->next, 0) >> STORE_BLOCK_SHIFT
                : -1;
    sqlite3_reset(y->next);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : sqlrow_err(y->db, err, "job blocks");
}

/* Run sql with ?1 = tb; 0 or -1 (err). */
static int run_tb(sqlite3 *db, const char *sql, int64_t tb, CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "job blocks");
    sqlite3_bind_int64(s, 1, tb);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "job blocks");
}

/* The stale blocks below the tail rebuilt; those in the tail dropped, then
 * every block from tb on that has rows packed once (a dropped block left
 * without rows stays absent: a gap readers look up in the jobs table). */
static int sync_blocks(Sync *y, int64_t tb, CpErr *err)
{
    sqlite3_stmt *s;
    int64_t next;
    if (run_tb(y->db,
               "DELETE FROM job_blocks WHERE block >= ?1 AND block IN "
               "(SELECT block FROM job_blocks_stale)",
               tb, err) < 0)
        return -1;
    if (sqlite3_prepare_v2(y->db, "SELECT block FROM job_blocks_stale WHERE block < ?1", -1, &s,
                           NULL) != SQLITE_OK)
        return sqlrow_err(y->db, err, "job blocks");
    sqlite3_bind_int64(s, 1, tb);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        if (rebuild(y, sqlite3_column_int64(s, 0), &next, err) < 0)
            break;
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return rc == SQLITE_ROW ? -1 : sqlrow_err(y->db, err, "job blocks");
    for (int64_t b = tb; b >= 0 && b < INT64_MAX; b = next)
        if (rebuild(y, b, &next, err) < 0)
            return -1;
    return 0;
}

int store_blocks_sync(Store *st, CpErr *err)
{
    sqlite3 *db = store_db(st);
    int64_t built, maxid, nstale;
    int null, rc = -1;
    if (!store_blocks_has_tables(db))
        return 0;
    if (store_blocks_int_of(db, "SELECT built_max FROM job_blocks_state WHERE id = 1", 0, &built, &null,
               err) < 0 ||
        store_blocks_int_of(db, "SELECT max(id) FROM jobs", 0, &maxid, &null, err) < 0 ||
        store_blocks_int_of(db, "SELECT count(*) FROM job_blocks_stale", 0, &nstale, &null, err) < 0)
        return -1;
    if (nstale == 0 && maxid <= built)
        return 0; /* the usual case: nothing written since */
    Sync y;
    if (sync_init(&y, db, err) < 0)
        goto out;
    int64_t tb = maxid > built ? (built + 1) >> STORE_BLOCK_SHIFT : INT64_MAX;
    if (sync_blocks(&y, tb, err) < 0)
        goto out;
    char *msg = NULL;
    sqlite3_stmt *s;
    if (sqlite3_exec(db, "DELETE FROM job_blocks_stale", NULL, NULL, &msg) != SQLITE_OK) {
        cp_err_set(err, "database: job blocks: %s", msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        goto out;
    }
    if (sqlite3_prepare_v2(db, "UPDATE job_blocks_state SET built_max = ?1 WHERE id = 1", -1, &s,
                           NULL) != SQLITE_OK) {
        sqlrow_err(db, err, "job blocks");
        goto out;
    }
    sqlite3_bind_int64(s, 1, maxid);
    rc = sqlite3_step(s) == SQLITE_DONE ? 0 : sqlrow_err(db, err, "job blocks");
    sqlite3_finalize(s);
out:
    sync_done(&y);
    return rc;
}

/* ---- packing from the import's own records (data/store/store_feed.h) ---- */

struct StoreBlocksFeed {
    Sync y;
    sqlite3_stmt *unstale;
    int64_t built;        /* built_max when the feed began */
    int64_t block;        /* the block being packed; -1 none */
    int64_t n, first, last; /* its records and their starts */
    int64_t lo_id, hi_id; /* the attempts put; lo_id > hi_id: none */
    int dirty;            /* an attempt of the block changed after its put */
    int lost;             /* the feed lost track: leave every block to the sync */
};

int store_blocks_feed_new(Store *st, StoreBlocksFeed **out, CpErr *err)
{
    sqlite3 *db = store_db(st);
    int64_t built;
    int null;
    *out = NULL;
    if (!store_blocks_has_tables(db))
        return 0;
    if (store_blocks_int_of(db, "SELECT built_max FROM job_blocks_state WHERE id = 1", 0, &built, &null,
               err) < 0)
        return -1;
    StoreBlocksFeed *f = xcalloc(1, sizeof *f);
    int rc = sync_init(&f->y, db, err);
    if (rc == 0 && sqlite3_prepare_v2(db, "DELETE FROM job_blocks_stale WHERE block = ?1", -1,
                                      &f->unstale, NULL) != SQLITE_OK)
        rc = sqlrow_err(db, err, "job blocks");
    if (rc < 0) {
        store_blocks_feed_free(f);
        return -1;
    }
    f->built = null ? -1 : built;
    f->block = -1;
    f->lo_id = 1;
    *out = f;
    return 0;
}

void store_blocks_feed_free(StoreBlocksFeed *f)
{
    if (!f)
        return;
    sync_done(&f->y);
    sqlite3_finalize(f->unstale);
    free(f);
}

/* The planning record of a (store_blocks.h; what rows_sql selects, as
 * packer_add reads it): 1, or 0 when a is not one. */
static int plan_rec(const StoreAttempt *a, StoreBlockRec *r)
{
    int64_t run;
    if (!a->final || a->user_id == 0 || !(a->gpus > 0 || a->ncpus > 0))
        return 0;
    if (a->elapsed != CP_DUR_UNKNOWN)
        run = a->elapsed;
    else if (a->end != CP_TIME_NONE && a->start != CP_TIME_NONE)
        run = a->end - a->start;
    else
        return 0;
    memset(r, 0, sizeof *r);
    r->user = (int32_t)a->user_id;
    r->account = a->account_id == 0 ? -1 : (int32_t)a->account_id;
    r->cluster = (int32_t)a->cluster_id;
    if (a->start != CP_TIME_NONE) {
        r->start = a->start;
        r->flags |= STORE_REC_STARTED;
    } else {
        r->start = a->submit;
    }
    int64_t el = a->eligible == CP_TIME_NONE ? 0 : a->eligible;
    r->elig = el != 0 ? el : a->submit;
    r->run = run;
    r->gpus = a->gpus;
    r->ncpus = a->cpu_milli >= 0 ? a->cpu_milli / 1000.0 : a->ncpus == -1 ? 0.0 : (double)a->ncpus;
    if (a->gpu_mem_source > 0 && a->gpu_mem_gib >= 0) {
        r->mem = a->gpu_mem_gib;
        r->flags |= STORE_REC_MEM;
    }
    return 1;
}

/* Write the block being packed: from the records put, or from the table
 * when it holds rows from before the import; not when one of them changed
 * since (the table's trigger marked it stale: store_blocks_sync rebuilds
 * it). Its stale mark, made by the import's own changes to attempts still
 * held, goes. */
static int feed_block(StoreBlocksFeed *f, CpErr *err)
{
    int64_t b = f->block, lo = b << STORE_BLOCK_SHIFT;
    int rc = 0;
    if (f->dirty) {
        Packer *p = &f->y.pk; /* drop what was packed */
        for (int i = 0; i < p->ntypes; i++)
            free(p->types[i]);
        free(p->types);
        p->types = NULL;
        p->ntypes = 0;
        p->n = 0;
        p->last_type = -1;
    } else if (f->lo_id > lo) { /* nothing was packed for it: see store_blocks_feed_put */
        rc = pack_block(&f->y, b, lo, lo + (1 << STORE_BLOCK_SHIFT) - 1, err);
    } else {
        rc = put_block(&f->y, b, f->n, f->first, f->last, err);
    }
    if (rc == 0 && !f->dirty) {
        sqlite3_bind_int64(f->unstale, 1, b);
        rc = sqlite3_step(f->unstale) == SQLITE_DONE ? 0 : sqlrow_err(f->y.db, err, "job blocks");
        sqlite3_reset(f->unstale);
    }
    f->block = -1;
    f->dirty = 0;
    return rc;
}

int store_blocks_feed_put(StoreBlocksFeed *f, const StoreAttempt *a, CpErr *err)
{
    int64_t b = a->id >> STORE_BLOCK_SHIFT;
    if (f->lost)
        return 0;
    if (b != f->block) {
        if (f->block >= 0 && feed_block(f, err) < 0)
            return -1;
        f->block = b;
        f->n = 0;
        f->first = INT64_MAX;
        f->last = INT64_MIN;
    }
    if (f->lo_id > f->hi_id)
        f->lo_id = a->id;
    f->hi_id = a->id;
    StoreBlockRec r;
    /* the block that holds rows from before the import is packed from the
     * table when it is done */
    if (f->lo_id > (b << STORE_BLOCK_SHIFT) || !plan_rec(a, &r))
        return 0;
    if (f->y.pk.ntypes >= 0xffff)
        return cp_err_set(err, "job blocks: too many GPU types in a block");
    if (a->start != CP_TIME_NONE) {
        f->first = a->start < f->first ? a->start : f->first;
        f->last = a->start > f->last ? a->start : f->last;
    }
    packer_push(&f->y.pk, a->id, &r, a->gpu_type);
    f->n++;
    return 0;
}

void store_blocks_feed_changed(StoreBlocksFeed *f, int64_t id)
{
    if (id == 0)
        f->lost = 1;
    else if (id >> STORE_BLOCK_SHIFT == f->block)
        f->dirty = 1;
}

int store_blocks_feed_done(StoreBlocksFeed *f, CpErr *err)
{
    if (f->lost || f->lo_id > f->hi_id)
        return 0;
    if (f->block >= 0 && feed_block(f, err) < 0)
        return -1;
    int64_t maxid;
    int null;
    if (store_blocks_int_of(f->y.db, "SELECT max(id) FROM jobs", 0, &maxid, &null, err) < 0)
        return -1;
    /* every block from the first rowid after built_max is written: the
     * sync has nothing left but what the triggers mark from now on */
    if (f->built < 0 || f->built + 1 != f->lo_id || null || maxid != f->hi_id)
        return 0;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(f->y.db, "UPDATE job_blocks_state SET built_max = ?1 WHERE id = 1", -1,
                           &s, NULL) != SQLITE_OK)
        return sqlrow_err(f->y.db, err, "job blocks");
    sqlite3_bind_int64(s, 1, f->hi_id);
    int rc = sqlite3_step(s) == SQLITE_DONE ? 0 : sqlrow_err(f->y.db, err, "job blocks");
    sqlite3_finalize(s);
    return rc;
}
