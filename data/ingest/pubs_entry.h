#ifndef PUBS_ENTRY_H
#define PUBS_ENTRY_H
/* pubs_entry: what the two publication readers (pubs_bib.c, pubs_csv.c) do
 * with each entry they read: write it to the store (pubs_put) or report it
 * (pubs_reject), within the import that data/ingest/pubs.c opened. */

#include <stdint.h>

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

#endif
