#ifndef PUBS_INT_H
#define PUBS_INT_H
/* pubs_int: what data/pubs.c shares with its two readers, pubs_bib.c and
 * pubs_csv.c, and nothing else. A reader hands each entry to pubs_put
 * and each bad one to pubs_reject; pubs.c owns the transaction. */

#include <stdio.h>

#include "data/ingest/import.h"
#include "data/ingest/reader.h"
#include "data/store/store_research.h"

typedef struct PubsCtx {
    const char *name;     /* the file as shown in messages */
    StorePubs *sp;
    int64_t import_id;
    ImportResult *res;
    CpReadCtx rc;         /* strictness and the reject callback */
} PubsCtx;

/* Write one entry; counts it added or unchanged. 0, or -1 with err. */
int pubs_put(PubsCtx *c, const PubRec *p, CpErr *err);

/* A bad entry at line: reported (file:line: field F: reason) and counted;
 * -1 with err when strict, else 0. */
int pubs_reject(PubsCtx *c, int64_t line, const char *field, const char *reason, CpErr *err);

/* year as written: 4 digits, 1900..2100, surrounding space allowed.
 * Returns the year or -1. */
int pubs_year(const char *s);

/* Text no reader may see (pubs.c): UTF-16/32, a NUL or FF byte, an empty
 * file: -1 with one line in err ("file:line: ..."), else 0. */
int pubs_check_text(const char *b, size_t n, const char *name, CpErr *err);

/* The readers: f to its end. 0, or -1 with err (read error, database
 * error, or a strict reject). */
int pubs_bib_read(FILE *f, PubsCtx *c, CpErr *err);
int pubs_csv_read(FILE *f, PubsCtx *c, CpErr *err);

#endif
