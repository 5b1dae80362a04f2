#include "data/ingest/peers.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/ingest/csvin.h"
#include "data/ingest/refs.h"
#include "data/store/store.h"

typedef struct PeersRead {
    const char *name; /* as shown in messages */
    RefsHeader hdr;
    int have_header;
    Peer *v;
    size_t n, cap;
} PeersRead;

static int on_record(void *ctx, const CsvinRec *rec, CpErr *err)
{
    PeersRead *pr = ctx;
    if (!pr->have_header) {
        pr->have_header = 1;
        return refs_header("peers", rec, pr->name, &pr->hdr, err);
    }
    if (csvin_rec_empty(rec))
        return 0;
    if (rec->n != pr->hdr.nfields)
        return cp_err_set(err, "%s:%lld: expected %zu fields, found %zu", pr->name,
                          (long long)rec->line, pr->hdr.nfields, rec->n);
    RefPeer p;
    const char *bad = "?";
    if (refs_peer(&pr->hdr, rec, &p, &bad, err) < 0) {
        char why[CP_ERR_MAX];
        snprintf(why, sizeof why, "%s", err->msg);
        return cp_err_set(err, "%s:%lld: field %s: %s", pr->name, (long long)rec->line, bad, why);
    }
    if (pr->n == pr->cap) {
        pr->cap = pr->cap ? 2 * pr->cap : 16;
        pr->v = xrealloc(pr->v, pr->cap * sizeof *pr->v);
    }
    pr->v[pr->n].institution = xstrdup(p.institution);
    pr->v[pr->n].gpus = p.gpus;
    pr->v[pr->n].researchers = p.researchers;
    pr->n++;
    return 0;
}

int peers_read_csv(const char *path, int enc, Peer **out, size_t *n, CpErr *err)
{
    int is_stdin = strcmp(path, "-") == 0;
    PeersRead pr = {is_stdin ? "<stdin>" : path, {0}, 0, NULL, 0, 0};
    *out = NULL;
    *n = 0;
    int rc = csvin_read_path(path, enc, on_record, &pr, err);
    if (rc == 0 && !pr.have_header)
        rc = cp_err_set(err, "%s: empty file (expected a header line)", pr.name);
    if (rc < 0) {
        peers_free(pr.v, pr.n);
        return -1;
    }
    *out = pr.v;
    *n = pr.n;
    return 0;
}

void peers_free(Peer *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(p[i].institution);
    free(p);
}

static int db_error(Store *st, CpErr *err)
{
    return cp_err_set(err, "database: %s", sqlite3_errmsg(store_db(st)));
}

/* Insert or replace one row; *added 1 when the institution was new. */
static int put_peer(Store *st, sqlite3_stmt *ins, sqlite3_stmt *upd, int64_t import_id,
                    const Peer *p, ImportResult *res, CpErr *err)
{
    sqlite3_stmt *q[2] = {ins, upd};
    for (int i = 0; i < 2; i++) {
        sqlite3_reset(q[i]);
        sqlite3_bind_text(q[i], 1, p->institution, -1, SQLITE_STATIC);
        sqlite3_bind_double(q[i], 2, p->gpus);
        sqlite3_bind_double(q[i], 3, p->researchers);
        sqlite3_bind_int64(q[i], 4, import_id);
        if (sqlite3_step(q[i]) != SQLITE_DONE)
            return db_error(st, err);
        if (sqlite3_changes(store_db(st)) > 0) {
            if (i == 0)
                res->added++;
            else
                res->updated++;
            return 0;
        }
    }
    res->unchanged++;
    return 0;
}

static int write_peers(Store *st, const char *path, const Peer *v, size_t n, ImportResult *res,
                       CpErr *err)
{
    sqlite3_stmt *ins = NULL, *upd = NULL;
    int rc = -1;
    int64_t id = store_import_begin(st, "peers", path, "peers-csv", err);
    if (id < 0)
        return -1;
    if (sqlite3_prepare_v2(store_db(st),
                           "INSERT INTO peers(institution, gpus, researchers, import_id) "
                           "VALUES(?1, ?2, ?3, ?4) ON CONFLICT(institution) DO NOTHING",
                           -1, &ins, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(store_db(st),
                           "UPDATE peers SET gpus=?2, researchers=?3, import_id=?4 "
                           "WHERE institution=?1 AND (gpus IS NOT ?2 OR researchers IS NOT ?3)",
                           -1, &upd, NULL) != SQLITE_OK) {
        db_error(st, err);
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        if (put_peer(st, ins, upd, id, &v[i], res, err) < 0)
            goto out;
    rc = store_import_end(st, id, res->rows_read, res->added, res->updated, 0, err);
out:
    sqlite3_finalize(ins);
    sqlite3_finalize(upd);
    return rc;
}

int peers_import(Store *st, const char *path, int enc, ImportResult *res, CpErr *err)
{
    Peer *v;
    size_t n;
    memset(res, 0, sizeof *res);
    snprintf(res->format, sizeof res->format, "peers-csv");
    if (peers_read_csv(path, enc, &v, &n, err) < 0)
        return -1;
    res->rows_read = (int64_t)n;
    int rc = store_begin(st, err);
    if (rc == 0 && write_peers(st, path, v, n, res, err) < 0) {
        store_rollback(st);
        rc = -1;
    } else if (rc == 0 && store_commit(st, err) < 0) {
        store_rollback(st);
        rc = -1;
    }
    peers_free(v, n);
    return rc;
}

int peers_load(Store *st, Peer **out, size_t *n, CpErr *err)
{
    sqlite3_stmt *q = NULL;
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(store_db(st),
                           "SELECT institution, gpus, researchers FROM peers ORDER BY institution",
                           -1, &q, NULL) != SQLITE_OK)
        return db_error(st, err);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            *out = xrealloc(*out, cap * sizeof **out);
        }
        const unsigned char *s = sqlite3_column_text(q, 0);
        (*out)[*n].institution = xstrdup(s ? (const char *)s : "");
        (*out)[*n].gpus = sqlite3_column_double(q, 1);
        (*out)[*n].researchers = sqlite3_column_double(q, 2);
        ++*n;
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE) {
        peers_free(*out, *n);
        *out = NULL;
        *n = 0;
        return db_error(st, err);
    }
    return 0;
}
