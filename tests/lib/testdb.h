#ifndef TESTDB_H
#define TESTDB_H
/* testdb: the database set-up the unit tests share: a fresh capplan
 * database per cmocka test (or group) in a temporary file, the reject
 * callback that counts an import's rejected lines, and imports of text
 * written to a temporary file. Tests only: on a failure these stop the
 * running test through cmocka (assert_*, fail_msg). */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"
#include "data/ingest/import.h"
#include "data/store/store.h"

typedef struct TuDb {
    char *path;                    /* the database file (owned) */
    Store *st;                     /* open on path (owned) */
    int64_t rejected;              /* lines rejected through tu_db_on_reject */
    char last_reject[CP_ERR_MAX];  /* the last of them, "" before any */
} TuDb;

/* cmocka setup: a new, empty database at a new temporary path; *state
 * receives the TuDb, which tu_db_teardown frees. */
int tu_db_setup(void **state);

/* cmocka teardown of tu_db_setup: closes the store, removes the file with
 * its -wal and -shm files, frees the TuDb. Returns 0. */
int tu_db_teardown(void **state);

/* An ImportOpts.reject callback; ctx is a TuDb *: counts the line in
 * rejected and keeps its message in last_reject. */
void tu_db_on_reject(void *ctx, const char *msg);

/* import_opts_init(o), then strict, and rejected lines reported to d
 * through tu_db_on_reject. */
void tu_db_opts(TuDb *d, ImportOpts *o, int strict);

/* Import path as kind: "sacct" through import_sacct, any other kind
 * (roster, inventory, events, pubs, gpu-metrics, ...) through import_csv.
 * o NULL: import_opts_init's defaults. Returns what the importer returned
 * (0, or -1 with err filled). */
int tu_import_file(Store *st, const char *kind, const char *path, const ImportOpts *o,
                   ImportResult *res, CpErr *err);

/* Write the n bytes of text to a new temporary file, tu_import_file it,
 * remove the file. When name is not NULL it receives the file's path
 * (cap bytes, for the expected messages that name it). Returns what
 * tu_import_file returned. */
int tu_import_text(Store *st, const char *kind, const char *text, size_t n, const ImportOpts *o,
                   ImportResult *res, CpErr *err, char *name, size_t cap);

/* The first column of sql's first row as a double, ?1 bound to arg when
 * arg is not NULL: if_null when the value is NULL, -1 when there is no
 * row. A statement that does not prepare fails the test. */
double tu_db_real(Store *st, const char *sql, const char *arg, double if_null);

#endif
