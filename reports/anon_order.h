#ifndef ANON_ORDER_H
#define ANON_ORDER_H
/* anon_order: rows of an anonymised table in the order of their
 * pseudonyms (#29). Tables list groups and people in the alphabetical
 * order of their real names; with pseudonyms in place that order alone
 * gives them back to anyone holding the roster (sort it, match it row by
 * row). So every table of an anonymised Markdown report or CSV file whose
 * rows are named by pseudonyms ("group-k3x9qa", "user-7bq2mz": a column
 * where every cell is one, or "all", "total", "-", empty) has its rows
 * sorted by that column's pseudonym (stable: a group's rows keep their
 * order among themselves); rows named otherwise (the totals) follow.
 * Pure: reads memory, returns new strings the caller frees. */

#include <stddef.h>

/* 1 when the n bytes at s are a pseudonym: a kind ("group", "user",
 * "prof", "person", "account"), '-' and six of reports/anon's letters. */
int anon_is_pseudonym(const char *s, size_t n);

/* The Markdown text md (len bytes) with its pseudonym tables' rows sorted
 * as above; its length into *outlen. */
char *anon_order_md(const char *md, size_t len, size_t *outlen);

/* The CSV text (one record a line, a header first) with its rows sorted
 * as above. */
char *anon_order_csv(const char *text);

#endif
