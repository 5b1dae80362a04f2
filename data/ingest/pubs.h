#ifndef PUBS_H
#define PUBS_H
/* pubs: `capplan import pubs FILE` with the papers' text and authors
 * (issue 18). Reads a BibTeX file (btparse; detected by a .bib name or a
 * first '@', '%' or '---') or the research CSV
 * `year,title,authors[,venue,keywords,abstract]` (authors ';'-separated
 * or joined by " and "), into papers and paper_authors through
 * store_research, one transaction per file: the good entries land and
 * every bad one is reported as `file:line: field F: reason` (with strict,
 * one bad entry rejects the file). The older per-group layout
 * `year,group,title,domain[,authors]` (and standard input) goes on to
 * import_csv as before. Re-importing a file adds nothing. */

#include "data/ingest/import.h"

typedef struct Store Store;

/* Import path into st. Returns 0 (res filled; res->rejected counts the
 * bad entries), or -1 with err when the file could not be read or the
 * database failed, or when strict and an entry was bad. */
int pubs_import(Store *st, const char *path, const ImportOpts *o, ImportResult *res,
                CpErr *err);

#endif
