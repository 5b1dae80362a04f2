/* store_stats_eff: see store_stats_eff.h. */
#include "data/store/store_stats_eff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"

#define EFF_LAYOUT 1
#define EFF_HEADER (-1)
#define EFF_CURVES 10000000 /* curve rows: -(EFF_CURVES + yyyymm) */
#define EFF_ROWS "month < 0"

static int exec(sqlite3 *db, const char *sql)
{
    return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

int store_eff_fingerprint(sqlite3 *db, const char *afp, char *buf, size_t n)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db,
                           "SELECT cluster, gpu_model, gpus, gpu_mem_gib, from_date, to_date "
                           "FROM inventory ORDER BY 1, 2, 3, 4, 5, 6",
                           -1, &s, NULL) != SQLITE_OK)
        return -1;
    uint64_t h = 1469598103934665603u;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        for (int i = 0; i < 6; i++) {
            const unsigned char *t = sqlite3_column_text(s, i);
            size_t len = t ? (size_t)sqlite3_column_bytes(s, i) : 0;
            h = strmap_hash(h, t ? (const void *)t : "\1", t ? len : 1);
            h = strmap_hash(h, "\0", 1);
        }
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return -1;
    snprintf(buf, n, "eff %d %zu %zu %d inv %016llx | %s", EFF_LAYOUT, sizeof(StatsEffSum),
             sizeof(StatsHogTop), STATS_HOG_KEEP, (unsigned long long)h, afp);
    return 0;
}

/* The stored header's bytes (a copy the caller frees), or NULL. */
static char *header(sqlite3 *db, size_t *n)
{
    sqlite3_stmt *s;
    char *out = NULL;
    if (sqlite3_prepare_v2(db, "SELECT data FROM stats_agg WHERE month = ?1", -1, &s, NULL) !=
        SQLITE_OK)
        return NULL;
    sqlite3_bind_int(s, 1, EFF_HEADER);
    if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_type(s, 0) == SQLITE_BLOB) {
        *n = (size_t)sqlite3_column_bytes(s, 0);
        out = xmalloc(*n + 1);
        memcpy(out, sqlite3_column_blob(s, 0), *n);
        out[*n] = '\0';
    }
    sqlite3_finalize(s);
    return out;
}

int store_eff_current(sqlite3 *db, const char *efp)
{
    size_t n;
    char *h = header(db, &n);
    int ok = h && strlen(h) < n && strcmp(h, efp) == 0;
    free(h);
    return ok;
}

int store_eff_types(sqlite3 *db, StatsEffBuild *b)
{
    size_t n;
    char *h = header(db, &n);
    size_t fp = h ? strlen(h) : 0;
    int rc = h && fp < n ? stats_eff_build_types(b, h + fp + 1, n - fp - 1) : -1;
    free(h);
    return rc;
}

int store_eff_read(sqlite3 *db, StatsEffBuf *buf)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db,
                           "SELECT data FROM stats_agg WHERE month < -1 AND month > -10000000 "
                           "ORDER BY month DESC",
                           -1, &s, NULL) != SQLITE_OK)
        return -1;
    int rc = 0;
    while (rc == 0 && sqlite3_step(s) == SQLITE_ROW)
        rc = stats_eff_buf_add(buf, sqlite3_column_blob(s, 0), (size_t)sqlite3_column_bytes(s, 0));
    sqlite3_finalize(s);
    return rc;
}

/* Each stored row of key(months[i]) passed to add: 0, 1 when one does not
 * parse, -1 on a database error. */
static int each_stored(sqlite3 *db, const int32_t *months, size_t n, int curves,
                       int (*add)(StatsEffBuild *, const void *, size_t), StatsEffBuild *b)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "SELECT data FROM stats_agg WHERE month = ?1", -1, &s, NULL) !=
        SQLITE_OK)
        return -1;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        sqlite3_bind_int(s, 1, -(months[i] + (curves ? EFF_CURVES : 0)));
        int step = sqlite3_step(s);
        if (step == SQLITE_ROW)
            rc = add(b, sqlite3_column_blob(s, 0), (size_t)sqlite3_column_bytes(s, 0)) < 0 ? 1 : 0;
        else if (step != SQLITE_DONE)
            rc = -1;
        sqlite3_reset(s);
    }
    sqlite3_finalize(s);
    return rc;
}

int store_eff_old_curves(sqlite3 *db, StatsEffBuild *b)
{
    int32_t *months;
    size_t n = stats_eff_build_curve_months(b, &months);
    int rc = each_stored(db, months, n, 1, stats_eff_build_old_curves, b);
    free(months);
    return rc;
}

int store_eff_old_months(sqlite3 *db, StatsEffBuild *b)
{
    int32_t *months;
    size_t n = stats_eff_build_months(b, &months);
    int rc = each_stored(db, months, n, 0, stats_eff_build_month, b);
    free(months);
    return rc;
}

static int put(sqlite3_stmt *ins, int32_t key, const CpBuf *blob)
{
    sqlite3_bind_int(ins, 1, key);
    sqlite3_bind_blob64(ins, 2, blob->data, blob->len, SQLITE_STATIC);
    int rc = sqlite3_step(ins) == SQLITE_DONE ? 0 : -1;
    sqlite3_reset(ins);
    return rc;
}

int store_eff_write(sqlite3 *db, const StatsEffBuild *b, const char *efp)
{
    sqlite3_stmt *ins;
    if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO stats_agg(month, data) VALUES(?1, ?2)", -1,
                           &ins, NULL) != SQLITE_OK)
        return -1;
    CpBuf blob;
    cpbuf_init(&blob);
    int32_t *months;
    size_t n = stats_eff_build_months(b, &months);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        cpbuf_clear(&blob);
        stats_eff_month_blob(b, months[i], &blob);
        rc = put(ins, -months[i], &blob);
    }
    free(months);
    n = stats_eff_build_curve_months(b, &months);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        cpbuf_clear(&blob);
        stats_eff_curve_blob(b, months[i], &blob);
        rc = put(ins, -(EFF_CURVES + months[i]), &blob);
    }
    free(months);
    if (rc == 0) {
        cpbuf_clear(&blob);
        cpbuf_append(&blob, efp, strlen(efp) + 1);
        stats_eff_types_blob(b, &blob);
        rc = put(ins, EFF_HEADER, &blob);
    }
    cpbuf_done(&blob);
    sqlite3_finalize(ins);
    return rc;
}

int store_eff_drop(sqlite3 *db)
{
    return exec(db, "DELETE FROM stats_agg WHERE month = -1");
}

int store_eff_clear(sqlite3 *db)
{
    return exec(db, "DELETE FROM stats_agg WHERE " EFF_ROWS);
}
