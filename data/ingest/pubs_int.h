#ifndef PUBS_INT_H
#define PUBS_INT_H
/* pubs_int: what data/ingest/pubs.c shares with its two readers, pubs_bib.c and
 * pubs_csv.c, and nothing else. A reader hands each entry to pubs_put
 * and each bad one to pubs_reject (pubs_entry.h); pubs.c owns the
 * transaction. */

#include <stdio.h>

#include "data/ingest/pubs_entry.h" /* PubsCtx, pubs_put, pubs_reject, pubs_year */

/* Text no reader may see (pubs.c): UTF-16/32, a NUL or FF byte, an empty
 * file: -1 with one line in err ("file:line: ..."), else 0. */
int pubs_check_text(const char *b, size_t n, const char *name, CpErr *err);

/* The readers: f to its end. 0, or -1 with err (read error, database
 * error, or a strict reject). */
int pubs_bib_read(FILE *f, PubsCtx *c, CpErr *err);
int pubs_csv_read(FILE *f, PubsCtx *c, CpErr *err);

#endif
