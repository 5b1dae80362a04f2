/* insert_floor SRC.db DST.db: what SQLite alone spends to store an import's
 * attempts (issue 31 item 3), the floor under capplan's writing thread.
 *
 * SRC.db is a database capplan imported. DST.db (created, must not exist)
 * gets SRC's jobs table with its indexes (no triggers: none fires on an
 * insert), the page size and the bulk load's settings capplan uses
 * (data/store/store.c store_begin_bulk: journal DELETE, an 8 MiB page cache,
 * temp_store MEMORY, one transaction), and every row of SRC's jobs, one
 * prepared INSERT a row with its values bound (every column but the row
 * id, 36 today, read from SRC's schema), as store_job_put does; the
 * row ids are left to SQLite, jobs_key is dropped before and built after, as
 * a first load does (data/store/store_keys.c).
 *
 * Two passes over SRC, each timed in CPU (user + system, getrusage): the
 * SELECT alone, then the SELECT with the inserts, the index and the commit.
 * The second minus the first is SQLite's cost of storing the rows. Prints
 * one line: rows, the two times, the difference. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* SRC's jobs columns but the row id, as "a, b, c" and "?1, ?2, ?3", read
 * from its schema (the table as capplan made it, whatever its version). */
typedef struct Cols {
    char names[4096], params[1024];
    int n;
} Cols;

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static int fail(sqlite3 *db, const char *what)
{
    fprintf(stderr, "insert_floor: %s: %s\n", what, db ? sqlite3_errmsg(db) : "out of memory");
    return 1;
}

static int exec(sqlite3 *db, const char *sql)
{
    return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : fail(db, sql);
}

/* SRC's CREATE statement of name (a table or an index), copied into dst. */
static int copy_schema(sqlite3 *src, sqlite3 *dst, const char *name)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(src, "SELECT sql FROM sqlite_master WHERE name = ?1", -1, &s, NULL) !=
        SQLITE_OK)
        return fail(src, "schema");
    sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
    int rc = 1;
    if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
        rc = exec(dst, (const char *)sqlite3_column_text(s, 0));
    else
        fprintf(stderr, "insert_floor: %s not in the source database\n", name);
    sqlite3_finalize(s);
    return rc;
}

static int read_cols(sqlite3 *src, Cols *c)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(src, "SELECT name FROM pragma_table_info('jobs') WHERE pk = 0 "
                                "ORDER BY cid", -1, &s, NULL) != SQLITE_OK)
        return fail(src, "columns");
    size_t nl = 0, pl = 0;
    c->n = 0;
    c->names[0] = c->params[0] = '\0';
    while (sqlite3_step(s) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(s, 0);
        int a = snprintf(c->names + nl, sizeof c->names - nl, "%s%s", c->n ? ", " : "", name);
        int b = snprintf(c->params + pl, sizeof c->params - pl, "%s?%d", c->n ? ", " : "",
                         c->n + 1);
        if (a < 0 || b < 0 || (size_t)a >= sizeof c->names - nl ||
            (size_t)b >= sizeof c->params - pl) {
            sqlite3_finalize(s);
            fprintf(stderr, "insert_floor: too many columns in jobs\n");
            return 1;
        }
        nl += (size_t)a, pl += (size_t)b, c->n++;
    }
    sqlite3_finalize(s);
    if (c->n == 0) {
        fprintf(stderr, "insert_floor: no jobs table in the source database\n");
        return 1;
    }
    return 0;
}

/* One pass over SRC's jobs; with ins, each row inserted. *rows: rows read. */
static int pass(sqlite3 *src, const Cols *c, sqlite3_stmt *ins, long *rows)
{
    char sql[sizeof c->names + 64];
    snprintf(sql, sizeof sql, "SELECT %s FROM jobs ORDER BY id", c->names);
    sqlite3_stmt *sel;
    if (sqlite3_prepare_v2(src, sql, -1, &sel, NULL) != SQLITE_OK)
        return fail(src, "select");
    *rows = 0;
    int rc;
    while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
        (*rows)++;
        if (!ins)
            continue;
        for (int i = 0; i < c->n; i++)
            sqlite3_bind_value(ins, i + 1, sqlite3_column_value(sel, i));
        if (sqlite3_step(ins) != SQLITE_DONE) {
            sqlite3_finalize(sel);
            return fail(sqlite3_db_handle(ins), "insert");
        }
        sqlite3_reset(ins);
    }
    sqlite3_finalize(sel);
    return rc == SQLITE_DONE ? 0 : fail(src, "select");
}

static int open_dst(const char *path, sqlite3 *src, sqlite3 **dst)
{
    if (access(path, F_OK) == 0) {
        fprintf(stderr, "insert_floor: %s exists\n", path);
        return 1;
    }
    if (sqlite3_open_v2(path, dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                                       SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
        return fail(*dst, path);
    return exec(*dst, "PRAGMA page_size=16384") || exec(*dst, "PRAGMA journal_mode=DELETE") ||
           exec(*dst, "PRAGMA synchronous=NORMAL") || exec(*dst, "PRAGMA cache_size=-8192") ||
           exec(*dst, "PRAGMA temp_store=MEMORY") || copy_schema(src, *dst, "jobs") ||
           copy_schema(src, *dst, "jobs_unfinished");
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: insert_floor SRC.db DST.db\n");
        return 2;
    }
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); /* as store_open */
    sqlite3 *src = NULL, *dst = NULL;
    if (sqlite3_open_v2(argv[1], &src, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) !=
        SQLITE_OK)
        return fail(src, argv[1]);
    Cols cols;
    int rc = read_cols(src, &cols);
    if (rc == 0)
        rc = open_dst(argv[2], src, &dst);
    long rows = 0;
    double t0 = cpu_seconds(), read_only = 0, with_insert = 0;
    if (rc == 0)
        rc = pass(src, &cols, NULL, &rows);
    read_only = cpu_seconds() - t0;
    sqlite3_stmt *ins = NULL;
    char sql[sizeof cols.names + sizeof cols.params + 64];
    snprintf(sql, sizeof sql, "INSERT INTO jobs(%s) VALUES(%s)", cols.names, cols.params);
    if (rc == 0 && sqlite3_prepare_v2(dst, sql, -1, &ins, NULL) != SQLITE_OK)
        rc = fail(dst, "prepare");
    t0 = cpu_seconds();
    if (rc == 0)
        rc = exec(dst, "BEGIN") || pass(src, &cols, ins, &rows) || copy_schema(src, dst, "jobs_key") ||
             exec(dst, "COMMIT");
    with_insert = cpu_seconds() - t0;
    sqlite3_finalize(ins);
    sqlite3_close(dst);
    sqlite3_close(src);
    if (rc == 0)
        printf("insert_floor: %ld rows; read alone %.3f s CPU, read + insert + jobs_key + "
               "commit %.3f s; SQLite's storing %.3f s (%.2f us a row)\n",
               rows, read_only, with_insert, with_insert - read_only,
               (with_insert - read_only) * 1e6 / (double)(rows ? rows : 1));
    return rc;
}
