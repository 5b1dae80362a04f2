#ifndef SQLROW_H
#define SQLROW_H
/* sqlrow: the few helpers every data/store_*.c module reads SQLite rows
 * and binds their parameters with, written once. */

#include <sqlite3.h>
#include <stddef.h>

#include "core/cp.h"

/* err = "database: WHAT: sqlite's message"; returns -1. */
int sqlrow_err(sqlite3 *db, CpErr *err, const char *what);
/* Column i as a new string (caller frees), NULL when NULL. */
char *sqlrow_str(sqlite3_stmt *s, int i);
/* Column i as a number, unknown when NULL. */
double sqlrow_num(sqlite3_stmt *s, int i, double unknown);
/* Bind t to parameter i of s (SQLite copies it), NULL when t is NULL. */
void sqlrow_bind_str(sqlite3_stmt *s, int i, const char *t);
/* Bind v to parameter i of s, NULL when v is NAN (unknown). */
void sqlrow_bind_num(sqlite3_stmt *s, int i, double v);
/* p with room for element n of size sz (*cap elements allocated, doubled
 * from 64 as needed); the caller owns the array. */
void *sqlrow_grow(void *p, size_t n, size_t *cap, size_t sz);
/* Before a scan that reads each page once: the page cache (and so an ORDER
 * BY's in-memory sorter) held to 2 MiB, so memory stays at the rows the
 * caller keeps. Returns what to give sqlrow_cache_restore (a hint: errors
 * are ignored). */
long long sqlrow_cache_small(sqlite3 *db);
/* The page cache as it was before sqlrow_cache_small returned old. */
void sqlrow_cache_restore(sqlite3 *db, long long old);

#endif
