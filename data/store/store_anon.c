/* store_anon: the site key and the names (see store_anon.h). */
#include "data/store/store_anon.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "data/store/sqlrow.h"
#include "data/store/store.h"

static int read_key(sqlite3 *db, unsigned char *key, CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "SELECT value FROM site_meta WHERE key = 'anon_key'", -1, &s,
                           NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "site key");
    int rc = sqlite3_step(s), found = 0;
    if (rc == SQLITE_ROW && sqlite3_column_bytes(s, 0) == STORE_ANON_KEY_BYTES) {
        memcpy(key, sqlite3_column_blob(s, 0), STORE_ANON_KEY_BYTES);
        found = 1;
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sqlrow_err(db, err, "site key");
    return found;
}

int store_anon_key(Store *st, int create, unsigned char *key, CpErr *err)
{
    sqlite3 *db = store_db(st);
    int found = read_key(db, key, err);
    if (found != 0)
        return found < 0 ? -1 : 0;
    if (!create)
        return cp_err_set(err, "the database has no anonymisation key yet");
    unsigned char fresh[STORE_ANON_KEY_BYTES];
    if (getrandom(fresh, sizeof fresh, 0) != (ssize_t)sizeof fresh)
        return cp_err_set(err, "no random bytes for the anonymisation key: %s", strerror(errno));
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO site_meta(key, value) VALUES('anon_key', ?1)",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "site key");
    sqlite3_bind_blob(s, 1, fresh, sizeof fresh, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return cp_err_set(err, "cannot store the anonymisation key (%s): give --anon-key FILE",
                          sqlite3_errmsg(db));
    /* another process may have stored one first: read back what holds */
    found = read_key(db, key, err);
    return found == 1 ? 0 : -1;
}

int store_anon_key_file(const char *path, unsigned char *key, size_t cap, size_t *len,
                        CpErr *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return cp_err_set(err, "%s: cannot read: %s", path, strerror(errno));
    size_t n = fread(key, 1, cap, f);
    int more = fgetc(f) != EOF;
    fclose(f);
    while (n > 0 && (key[n - 1] == '\n' || key[n - 1] == '\r'))
        n--;
    if (more)
        return cp_err_set(err, "%s: a key file holds at most %zu bytes", path, cap);
    if (n < 16)
        return cp_err_set(err, "%s: a key needs 16 bytes or more (e.g. head -c 32 /dev/urandom)",
                          path);
    *len = n;
    return 0;
}

/* Each statement gives (kind, name); a table missing from an older
 * database is skipped. Lists (attendees, authors) are split in C. */
static const char *const name_sql[] = {
    "SELECT 'user', name FROM users",
    "SELECT 'user', user FROM people",
    "SELECT 'user', supervisor FROM people WHERE supervisor IS NOT NULL",
    "SELECT 'group', name FROM groups",
    "SELECT 'prof', professor FROM groups WHERE professor IS NOT NULL",
    "SELECT 'group', group_name FROM people",
    "SELECT 'group', name FROM accounts",
    "SELECT 'user', user FROM notes WHERE user IS NOT NULL",
    "SELECT 'user', user FROM stated_needs",
    "SELECT 'user', who FROM scenarios WHERE who IS NOT NULL",
    "SELECT 'user', who FROM scenario_params WHERE who IS NOT NULL",
    "SELECT 'user', who FROM scenario_edits WHERE who IS NOT NULL",
    "SELECT 'user', who FROM profile_names WHERE who IS NOT NULL",
    "SELECT 'user', who FROM profile_runs WHERE who IS NOT NULL",
    "SELECT 'user', attendees FROM meetings",
    "SELECT 'person', authors FROM pubs WHERE authors IS NOT NULL",
    "SELECT 'group', group_name FROM pubs",
    "SELECT 'group', group_name FROM allocations",
    /* #29: the roster's full names and aliases (schema v13) */
    "SELECT 'person', name FROM people WHERE name IS NOT NULL",
    "SELECT 'person', aliases FROM people WHERE aliases IS NOT NULL",
};

/* Split a list ("a, b; c and d") into names. */
static void add_list(const char *kind, const char *list,
                     void (*add)(void *ctx, const char *kind, const char *name), void *ctx)
{
    char *copy = xstrdup(list);
    for (char *save = NULL, *t = strtok_r(copy, ",;", &save); t; t = strtok_r(NULL, ",;", &save)) {
        while (*t == ' ')
            t++;
        char *and = strstr(t, " and ");
        if (and) {
            *and = '\0';
            add(ctx, kind, and + 5);
        }
        size_t n = strlen(t);
        while (n && t[n - 1] == ' ')
            t[--n] = '\0';
        if (*t)
            add(ctx, kind, t);
    }
    free(copy);
}

int store_anon_names(Store *st, void (*add)(void *ctx, const char *kind, const char *name),
                     void *ctx, CpErr *err)
{
    sqlite3 *db = store_db(st);
    for (size_t i = 0; i < sizeof name_sql / sizeof name_sql[0]; i++) {
        sqlite3_stmt *s;
        if (sqlite3_prepare_v2(db, name_sql[i], -1, &s, NULL) != SQLITE_OK)
            continue; /* an older schema */
        int rc;
        while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
            const char *kind = (const char *)sqlite3_column_text(s, 0);
            const char *name = (const char *)sqlite3_column_text(s, 1);
            if (!name || !name[0])
                continue;
            if (strpbrk(name, ",;") || strstr(name, " and "))
                add_list(kind, name, add, ctx);
            else
                add(ctx, kind, name);
        }
        sqlite3_finalize(s);
        if (rc != SQLITE_DONE)
            return sqlrow_err(db, err, "names");
    }
    return 0;
}
