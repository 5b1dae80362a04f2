/* store_blocks_read: the job blocks read back (store_blocks_each): each
 * clean block's packed records decoded and handed to the visitor, the rows of
 * blocks marked stale read from the jobs table instead. Writing and keeping
 * them in step: store_blocks.c. */
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


/* ---- reading ---- */

typedef struct Meta {
    int64_t block, n, lo, hi;
    int zoned; /* lo and hi known */
} Meta;

typedef struct Walk {
    sqlite3 *db;
    const StoreBlocksVisit *v;
    int64_t plo, phi; /* the pending range of rowids, plo > phi: none */
    sqlite3_stmt *data, *first, *last;
    StoreBlockRec *recs; /* aligned copy of a block's records */
    size_t cap;
    const char **types;
    int tcap;
    CpErr *err;
} Walk;

/* The first (last) rowid in [lo, hi] by s into *v; 1 found, 0 none, -1
 * (w->err) when SQLite failed. */
static int edge(Walk *w, sqlite3_stmt *s, int64_t lo, int64_t hi, int64_t *v)
{
    sqlite3_bind_int64(s, 1, lo);
    sqlite3_bind_int64(s, 2, hi);
    int rc = sqlite3_step(s), found = rc == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL;
    *v = found ? sqlite3_column_int64(s, 0) : 0;
    sqlite3_reset(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? found : sqlrow_err(w->db, w->err, "job blocks");
}

/* Hand the pending range over, narrowed to the rowids it holds (none: no
 * call). */
static int flush_range(Walk *w)
{
    if (w->plo > w->phi)
        return 0;
    int64_t lo, hi;
    int found = edge(w, w->first, w->plo, w->phi, &lo);
    if (found > 0)
        found = edge(w, w->last, w->plo, w->phi, &hi);
    w->plo = 1;
    w->phi = 0;
    return found <= 0 ? found : w->v->range(w->v->ctx, lo, hi);
}

static int add_range(Walk *w, int64_t lo, int64_t hi)
{
    if (lo > hi)
        return 0;
    if (w->plo <= w->phi && w->phi + 1 == lo) {
        w->phi = hi;
        return 0;
    }
    if (flush_range(w) < 0)
        return -1;
    w->plo = lo;
    w->phi = hi;
    return 0;
}

static uint32_t get_u32(const unsigned char *b)
{
    uint32_t v;
    memcpy(&v, b, sizeof v);
    return v;
}

/* Decode blob b (len bytes) into w->recs and w->types; the record count,
 * or -1 when it is not a block this build wrote. */
static int64_t decode(Walk *w, const unsigned char *b, size_t len, int *ntypes)
{
    if (!b || len < HEADER_BYTES || get_u32(b) != BLOCK_MAGIC)
        return -1;
    size_t n = get_u32(b + 4), nt = get_u32(b + 8), tbytes = get_u32(b + 12);
    size_t tpad = (tbytes + 7) & ~(size_t)7;
    if (len != HEADER_BYTES + tpad + n * sizeof(StoreBlockRec) || nt > 0xffff)
        return -1;
    if ((int)nt + 1 > w->tcap) {
        w->tcap = (int)nt + 1;
        w->types = xrealloc(w->types, (size_t)w->tcap * sizeof *w->types);
    }
    const char *t = (const char *)b + HEADER_BYTES, *end = t + tbytes;
    for (size_t i = 0; i < nt; i++) {
        const char *z = t < end ? memchr(t, 0, (size_t)(end - t)) : NULL;
        if (!z)
            return -1;
        w->types[i] = t;
        t = z + 1;
    }
    if (n > w->cap) {
        w->cap = n;
        free(w->recs);
        w->recs = xmalloc(n * sizeof *w->recs);
    }
    if (n)
        memcpy(w->recs, b + HEADER_BYTES + tpad, n * sizeof *w->recs);
    for (size_t i = 0; i < n; i++)
        if (w->recs[i].type >= nt)
            return -1;
    *ntypes = (int)nt;
    return (int64_t)n;
}

/* Visit block m: its records, else (unreadable) its rowids as a range. */
static int visit_block(Walk *w, const Meta *m, CpErr *err)
{
    int64_t lo = m->block << STORE_BLOCK_SHIFT, hi = lo + (1 << STORE_BLOCK_SHIFT) - 1;
    sqlite3_bind_int64(w->data, 1, m->block);
    int rc = sqlite3_step(w->data), nt = 0;
    int64_t n = -1;
    if (rc == SQLITE_ROW)
        n = decode(w, sqlite3_column_blob(w->data, 0),
                   (size_t)sqlite3_column_bytes(w->data, 0), &nt);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        sqlrow_err(w->db, err, "job blocks");
        sqlite3_reset(w->data);
        return -1;
    }
    /* the type names point into the row: it stays until the visit is done */
    rc = n < 0 ? add_range(w, lo, hi)
         : flush_range(w) < 0
             ? -1
             : w->v->block(w->v->ctx, w->recs, (size_t)n, w->types, nt);
    sqlite3_reset(w->data);
    return rc;
}

/* The clean blocks below tail (not stale), in order. */
static Meta *clean_blocks(sqlite3 *db, int64_t tail, size_t *n, CpErr *err)
{
    sqlite3_stmt *s;
    Meta *m = NULL;
    size_t cap = 0;
    *n = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT block, n, lo, hi FROM job_blocks WHERE block < ?1 AND "
                           "block NOT IN (SELECT block FROM job_blocks_stale) ORDER BY block",
                           -1, &s, NULL) != SQLITE_OK) {
        sqlrow_err(db, err, "job blocks");
        return NULL;
    }
    sqlite3_bind_int64(s, 1, tail);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        m = sqlrow_grow(m, *n, &cap, sizeof *m);
        Meta *x = &m[(*n)++];
        x->block = sqlite3_column_int64(s, 0);
        x->n = sqlite3_column_int64(s, 1);
        x->zoned = sqlite3_column_type(s, 2) != SQLITE_NULL;
        x->lo = sqlite3_column_int64(s, 2);
        x->hi = sqlite3_column_int64(s, 3);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE) {
        free(m);
        sqlrow_err(db, err, "job blocks");
        return NULL;
    }
    return m ? m : xcalloc(1, sizeof *m);
}

/* Block m holds nothing the visitor asked for. */
static int outside(const StoreBlocksVisit *v, const Meta *m)
{
    if (m->n == 0)
        return 1;
    if (v->start_from == INT64_MIN && v->start_before == INT64_MAX)
        return 0;
    return !m->zoned || m->hi < v->start_from || m->lo >= v->start_before;
}

static int walk(Walk *w, const Meta *m, size_t nm, int64_t minid, int64_t maxid, CpErr *err)
{
    int64_t cursor = minid;
    size_t total = 0;
    for (size_t i = 0; i < nm; i++)
        total += outside(w->v, &m[i]) ? 0 : (size_t)m[i].n;
    if (w->v->sized)
        w->v->sized(w->v->ctx, total);
    for (size_t i = 0; i < nm; i++) {
        int64_t lo = m[i].block << STORE_BLOCK_SHIFT;
        if (add_range(w, cursor, lo - 1) < 0)
            return -1;
        cursor = lo + (1 << STORE_BLOCK_SHIFT);
        if (outside(w->v, &m[i])) {
            if (flush_range(w) < 0)
                return -1;
            continue;
        }
        if (visit_block(w, &m[i], err) < 0)
            return -1;
    }
    if (add_range(w, cursor, maxid) < 0)
        return -1;
    return flush_range(w);
}

static int blocks_each(Store *st, const StoreBlocksVisit *v, CpErr *err);

int store_blocks_each(Store *st, const StoreBlocksVisit *v, CpErr *err)
{
    sqlite3 *db = store_db(st);
    if (!sqlite3_get_autocommit(db))
        return blocks_each(st, v, err);
    /* one snapshot for the state, the blocks and the ranges read here */
    if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "job blocks");
    int rc = blocks_each(st, v, err);
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    return rc;
}

static int blocks_each(Store *st, const StoreBlocksVisit *v, CpErr *err)
{
    sqlite3 *db = store_db(st);
    int64_t built = -1, maxid, minid;
    int null, rc = -1;
    if (store_blocks_int_of(db, "SELECT max(id) FROM jobs", 0, &maxid, &null, err) < 0)
        return -1;
    if (null)
        return 0; /* no job */
    if (store_blocks_int_of(db, "SELECT min(id) FROM jobs", 0, &minid, &null, err) < 0)
        return -1;
    if (store_blocks_has_tables(db) &&
        store_blocks_int_of(db, "SELECT built_max FROM job_blocks_state WHERE id = 1", 0, &built, &null,
               err) < 0)
        return -1;
    Walk w = {db, v, 1, 0, NULL, NULL, NULL, NULL, 0, NULL, 0, err};
    if (built < 0) { /* no blocks: the table as one range */
        if (v->sized)
            v->sized(v->ctx, 0);
        return v->range(v->ctx, minid, maxid);
    }
    size_t nm;
    int64_t tail = maxid > built ? (built + 1) >> STORE_BLOCK_SHIFT : INT64_MAX;
    Meta *m = clean_blocks(db, tail, &nm, err);
    if (!m)
        return -1;
    /* each block's pages are read once: a small page cache while they pass
     * keeps the memory at the records' (hint; errors ignored) */
    long long cache = sqlrow_cache_small(db);
    if (sqlite3_prepare_v2(db, "SELECT data FROM job_blocks WHERE block = ?1", -1, &w.data,
                           NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT min(id) FROM jobs WHERE id >= ?1 AND id <= ?2", -1,
                           &w.first, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT max(id) FROM jobs WHERE id >= ?1 AND id <= ?2", -1,
                           &w.last, NULL) != SQLITE_OK)
        sqlrow_err(db, err, "job blocks");
    else
        rc = walk(&w, m, nm, minid, maxid, err);
    sqlite3_finalize(w.data);
    sqlite3_finalize(w.first);
    sqlite3_finalize(w.last);
    sqlrow_cache_restore(db, cache);
    free(m);
    free(w.recs);
    free(w.types);
    return rc;
}
