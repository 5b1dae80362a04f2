#include "data/store/store_catalog.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store/sqlrow.h"
#include "data/store/store.h"

static void bind_opt(sqlite3_stmt *q, int i, double v)
{
    if (v < 0)
        sqlite3_bind_null(q, i);
    else
        sqlite3_bind_double(q, i, v);
}

static int put_one(sqlite3_stmt *const q[2], int64_t id, const CatalogGpu *g, ImportResult *res,
                   sqlite3 *db, CpErr *err)
{
    for (int i = 0; i < 2; i++) {
        sqlite3_reset(q[i]);
        sqlite3_bind_text(q[i], 1, g->model, -1, SQLITE_STATIC);
        sqlite3_bind_double(q[i], 2, g->mem_gib);
        sqlite3_bind_double(q[i], 3, g->relative_speed);
        bind_opt(q[i], 4, g->tdp_w);
        bind_opt(q[i], 5, g->price);
        sqlite3_bind_text(q[i], 6, g->currency, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q[i], 7, id);
        if (sqlite3_step(q[i]) != SQLITE_DONE)
            return sqlrow_err(db, err, "gpu_catalog");
        if (sqlite3_changes(db) > 0) {
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

int store_catalog_put(Store *st, const char *path, const CatalogGpu *v, size_t n,
                      ImportResult *res, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *q[2] = {NULL, NULL};
    int rc = -1;
    int64_t id = store_import_begin(st, "catalog", path, "catalog-csv", err);
    if (id < 0)
        return -1;
    if (sqlite3_prepare_v2(db,
                           "INSERT INTO gpu_catalog(model, mem_gib, relative_speed, tdp_w, "
                           "price, currency, import_id) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7) "
                           "ON CONFLICT(model) DO NOTHING",
                           -1, &q[0], NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db,
                           "UPDATE gpu_catalog SET mem_gib=?2, relative_speed=?3, tdp_w=?4, "
                           "price=?5, currency=?6, import_id=?7 WHERE model=?1 AND "
                           "(mem_gib IS NOT ?2 OR relative_speed IS NOT ?3 OR tdp_w IS NOT ?4 "
                           "OR price IS NOT ?5 OR currency IS NOT ?6)",
                           -1, &q[1], NULL) != SQLITE_OK) {
        sqlrow_err(db, err, "gpu_catalog");
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        if (put_one(q, id, &v[i], res, db, err) < 0)
            goto out;
    rc = store_import_end(st, id, res->rows_read, res->added, res->updated, res->rejected, err);
out:
    sqlite3_finalize(q[0]);
    sqlite3_finalize(q[1]);
    return rc;
}

int store_catalog_load(Store *st, CatalogGpu **out, size_t *n, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *q = NULL;
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT model, mem_gib, relative_speed, tdp_w, price, currency "
                           "FROM gpu_catalog ORDER BY model",
                           -1, &q, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "gpu_catalog");
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        *out = sqlrow_grow(*out, *n, &cap, sizeof **out);
        CatalogGpu *g = &(*out)[(*n)++];
        memset(g, 0, sizeof *g);
        g->model = sqlrow_str(q, 0);
        g->mem_gib = sqlrow_num(q, 1, -1);
        g->relative_speed = sqlrow_num(q, 2, -1);
        g->tdp_w = sqlrow_num(q, 3, -1);
        g->price = sqlrow_num(q, 4, -1);
        const unsigned char *c = sqlite3_column_text(q, 5);
        snprintf(g->currency, sizeof g->currency, "%s", c ? (const char *)c : "EUR");
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE) {
        catalog_free(*out, *n);
        *out = NULL;
        *n = 0;
        return sqlrow_err(db, err, "gpu_catalog");
    }
    return 0;
}

void catalog_free(CatalogGpu *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i].model);
    free(v);
}

int catalog_load(Store *st, CatalogGpu **out, size_t *n, CpErr *err)
{
    return store_catalog_load(st, out, n, err);
}
