/* store_stats_extend: the import extends the cache and the aggregates
 * (issue 20): store_stats_mark before it (store_stats_feed.c, with the
 * feed it starts), the attempts read back from the jobs table after it
 * (see store_stats.h and store_stats_int.h). */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "data/store/sqlrow.h"
#include "data/store/store.h"
#include "data/store/store_stats_int.h"

/* Run sql (one parameter: ?1 = since) row by row. */
static int each_since(sqlite3 *db, const char *sql, int64_t since,
                      void (*row)(sqlite3_stmt *s, void *ctx), void *ctx, CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "extend the statistics cache");
    sqlite3_bind_int64(s, 1, since);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        row(s, ctx);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "extend the statistics cache");
}

/* When *cells holds more than AGG_FLUSH cells and buckets, its months are
 * merged into those stored now and it starts again empty (an import of
 * years of jobs keeps its memory; the months it wrote are merged again if
 * later attempts fall in them). 0, or -1 with err; *cells NULL when the
 * stored months were dropped (see extend_cells). */
#define AGG_FLUSH 400000
size_t store_stats_agg_flush = AGG_FLUSH; /* store_stats_merge_every */

void store_stats_merge_every(size_t n)
{
    store_stats_agg_flush = n > 0 ? n : AGG_FLUSH;
}

static int cells_flush(sqlite3 *db, StatsCellsBuild **cells, CpErr *err)
{
    if (!*cells || stats_cells_build_size(*cells) < store_stats_agg_flush)
        return 0;
    int rc = extend_cells(db, *cells, 0, err);
    stats_cells_build_free(*cells);
    *cells = rc == 0 ? stats_cells_build_new(0) : NULL;
    return rc < 0 ? -1 : 0;
}

/* The attempts with id > since, linked among themselves, appended as the
 * cache's parts after part (ins NULL: not) and added to cells (NULL:
 * not); *n their number. A job's earlier attempts come before its final
 * one in id order unless the import said otherwise (store_late_attempts:
 * then sc->earlier was filled beforehand). */
static int append_jobs(sqlite3 *db, Scan *sc, int64_t since, int64_t part, sqlite3_stmt *ins,
                       const char *fp, StatsCellsBuild **cells, size_t *n, CpErr *err)
{
    sqlite3_stmt *s;
    *n = 0;
    if (sqlite3_prepare_v2(db, JOB_SQL " WHERE id > ?1 ORDER BY id", -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "extend the statistics cache");
    sqlite3_bind_int64(s, 1, since);
    StatsJob *buf = xmalloc(EXTEND_CHUNK * sizeof *buf);
    size_t k = 0;
    int rc, bad = 0;
    for (;;) {
        rc = sqlite3_step(s);
        if (rc == SQLITE_ROW) {
            memset(&buf[k], 0, sizeof buf[k]);
            job_fill(sc, s, &buf[k]);
            if (buf[k].flags & STATS_JOB_FINAL)
                link_one(sc, &buf[k]);
            else
                scan_earlier(sc, &buf[k]);
            if (*cells)
                stats_cells_build_job(*cells, &buf[k]);
            if (sc->eff)
                eff_job(sc, s, &buf[k]);
            k++;
        }
        if (k == EXTEND_CHUNK || (rc != SQLITE_ROW && k > 0)) {
            if (ins)
                bad |= put_part(ins, ++part, fp, buf, k * sizeof *buf) < 0;
            *n += k;
            k = 0;
            if (cells_flush(db, cells, err) < 0) {
                bad = 1;
                break;
            }
        }
        if (rc != SQLITE_ROW || bad)
            break;
    }
    free(buf);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE && !bad ? 0 : sqlrow_err(db, err, "extend the statistics cache");
}

/* The usage rows as parts -1, -2, ... (replacing those there). */
int store_stats_write_usage(sqlite3 *db, StoreStatsData *d, sqlite3_stmt *ins, const char *fp,
                       CpErr *err)
{
    if (store_stats_exec(db, "DELETE FROM stats_cache WHERE part < 0") < 0 || store_stats_load_usage(db, d, err) < 0)
        return sqlrow_err(db, err, "extend the statistics cache");
    for (size_t i = 0, part = 1; i < d->in.nusage; i += CACHE_CHUNK, part++) {
        size_t n = d->in.nusage - i < CACHE_CHUNK ? d->in.nusage - i : CACHE_CHUNK;
        if (put_part(ins, -(int64_t)part, fp, d->usage + i, n * sizeof *d->usage) < 0)
            return sqlrow_err(db, err, "extend the statistics cache");
    }
    return 0;
}

/* The months cells touched, merged with those stored, written back (with
 * the aggregates' new fingerprint when final). 0; 1 when a stored month
 * did not parse (then every month is dropped: the next load rebuilds
 * them); -1 with err on a database error. */
int extend_cells(sqlite3 *db, StatsCellsBuild *cells, int final, CpErr *err)
{
    char afp[256];
    sqlite3_stmt *sel;
    if (final && agg_fingerprint(db, afp, sizeof afp, err) < 0)
        return -1;
    if (sqlite3_prepare_v2(db, "SELECT data FROM stats_agg WHERE month = ?1", -1, &sel, NULL) !=
        SQLITE_OK)
        return sqlrow_err(db, err, "extend the statistics' aggregates");
    int32_t *months;
    size_t n = stats_cells_build_months(cells, &months);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = agg_merge_month(sel, cells, months[i]);
    free(months);
    sqlite3_finalize(sel);
    if (rc < 0) /* a month that does not parse */
        return store_stats_exec(db, "DELETE FROM stats_agg WHERE month >= 0") < 0
                   ? sqlrow_err(db, err, "extend the statistics' aggregates")
                   : 1;
    return agg_write(db, cells, final ? afp : NULL) < 0
               ? sqlrow_err(db, err, "extend the statistics' aggregates")
               : 0;
}

int store_stats_extend_back(Store *st, const StoreStatsMark *m, StoreStatsData *d, Scan *sc,
                  sqlite3_stmt *ins, StatsCellsBuild **cells, CpErr *err)
{
    sqlite3 *db = store_db(st);
    size_t old_jobs = 0, old_usage = 0;
    int64_t part = 0;
    if (ins && m->since_id > 0) {
        if (!cache_header(db, d, m->fp, &old_jobs, &old_usage)) {
            ins = NULL; /* gone meanwhile: the next load rebuilds it */
        } else {
            part = store_scalar(st, "SELECT coalesce(max(part), 0) FROM stats_cache");
            if (part < 0)
                return sqlrow_err(db, err, "extend the statistics cache");
        }
    } else if (ins && store_stats_exec(db, "DELETE FROM stats_cache") < 0) {
        return sqlrow_err(db, err, "extend the statistics cache");
    }
    if (*cells && m->since_id == 0 && store_stats_exec(db, "DELETE FROM stats_agg") < 0)
        return sqlrow_err(db, err, "extend the statistics' aggregates");
    if (!ins && !*cells && !sc->eff)
        return 0;
    for (size_t i = 1; i < d->nnames[N_GPU_TYPES]; i++)
        strmap_put(sc->types, d->names[N_GPU_TYPES][i], strlen(d->names[N_GPU_TYPES][i]),
                   (int64_t)i);
    char fp[160];
    size_t added;
    if (store_stats_fingerprint(db, fp, sizeof fp, err) < 0 ||
        (store_late_attempts(st) &&
         each_since(db,
                    "SELECT cluster_id, job_raw, submit, state FROM jobs WHERE id > ?1 AND final = 0",
                    m->since_id, earlier_row, sc, err) < 0) ||
        append_jobs(db, sc, m->since_id, part, ins, fp, cells, &added, err) < 0 ||
        (*cells && extend_cells(db, *cells, 1, err) < 0))
        return -1;
    if (!ins)
        return 0;
    if (store_stats_write_usage(db, d, ins, fp, err) < 0)
        return -1;
    d->in.njobs = old_jobs + added;
    CpBuf h;
    cpbuf_init(&h);
    header_blob(d, &h);
    int rc = put_part(ins, 0, fp, h.data, h.len);
    cpbuf_done(&h);
    return rc == 0 ? 0 : sqlrow_err(db, err, "extend the statistics cache");
}

/* The import's efficiency aggregates, started when m says the stored set
 * describes the jobs: the inventory and cluster names into e->names (owned,
 * with e->b: eff_end frees them), the stored type names (or none: an empty
 * database) into e->b. 0 (e->b NULL: not kept), or -1 with err. */
int eff_begin(sqlite3 *db, const StoreStatsMark *m, EffFeed *e, CpErr *err)
{
    NamesCtx nc = {NULL, N_CLUSTERS};
    memset(e, 0, sizeof *e);
    if (!m->eff_usable)
        return 0;
    e->db = db;
    e->names = nc.d = xcalloc(1, sizeof *e->names);
    if (store_stats_load_refs(db, e->names, STATS_NEED_INVENTORY, err) < 0 ||
        store_stats_each_row(db, "SELECT id, name FROM clusters", store_stats_name_row, &nc, "read names", err) < 0)
        return -1;
    e->b = stats_eff_build_new(e->names->inventory, e->names->in.ninventory, STATS_EFF_IDLE_KEEP);
    if (m->since_id == 0 ? store_eff_clear(db) < 0 : store_eff_types(db, e->b) < 0) {
        stats_eff_build_free(e->b); /* gone meanwhile: the next load rebuilds it */
        e->b = NULL;
    }
    return 0;
}

void eff_end(EffFeed *e)
{
    stats_eff_build_free(e->b);
    store_stats_free(e->names);
    memset(e, 0, sizeof *e);
}

/* The import's new attempts (in sc->eff) merged with the stored months
 * and written, with the fingerprint of the jobs as the import leaves
 * them; when an hour's hogging condition changed under stored idle
 * attempts (or a stored month does not parse), the stored set is
 * forgotten instead: the next load rebuilds it. */
int eff_finish(sqlite3 *db, const StoreStatsMark *m, Scan *sc, CpErr *err)
{
    StatsEffBuild *b = sc->eff->b;
    char afp[256], efp[512];
    int rc = store_eff_old_curves(db, b);
    if (rc == 0 && stats_eff_build_finish(b))
        rc = 1;
    if (rc == 0 && stats_eff_build_second_pass(b) &&
        each_since(db, EFF_IDLE_SQL " AND id > ?1", m->since_id, eff_hog_row, sc, err) < 0)
        return -1;
    if (rc == 0)
        rc = store_eff_old_months(db, b);
    if (rc == 1)
        return store_eff_drop(db) < 0 ? sqlrow_err(db, err, "extend the efficiency aggregates") : 0;
    if (rc < 0 || agg_fingerprint(db, afp, sizeof afp, err) < 0 ||
        store_eff_fingerprint(db, afp, efp, sizeof efp) < 0 || store_eff_write(db, b, efp) < 0)
        return sqlrow_err(db, err, "extend the efficiency aggregates");
    return 0;
}

