#ifndef PEERS_H
#define PEERS_H
/* peers: other institutes' GPU resources (institution, GPUs, researchers),
 * set beside ours in the report. Read from a CSV file given to the report
 * (--peers FILE.csv) or imported into the peers table (`capplan import
 * peers FILE.csv`); both go through refs (header check, one row into a
 * RefPeer) and csvin (libcsv).
 *
 * A peers file is small and hand-written: one bad row rejects the whole
 * file ("peers.csv:3: field gpus: bad number 'x'"), and the database is
 * then unchanged. All of its SQL is here, with bound parameters. */

#include <stddef.h>

#include "core/cp.h"
#include "data/ingest/import.h"

typedef struct Store Store;

typedef struct Peer {
    char *institution; /* owned */
    double gpus, researchers;
} Peer;

/* Read a peers CSV (path "-": standard input) in text encoding enc (a
 * TextEnc, data/ingest/textenc.h) into *out (n rows, in file order). Caller frees
 * with peers_free. -1 with err on an I/O error, a missing column or a bad
 * row. */
int peers_read_csv(const char *path, int enc, Peer **out, size_t *n, CpErr *err);
void peers_free(Peer *p, size_t n);

/* Import path (text encoding enc, as above) into the peers table in one
 * transaction (an institution already there is replaced), recorded in
 * imports. res counts the rows. */
int peers_import(Store *st, const char *path, int enc, ImportResult *res, CpErr *err);

/* The peers table, by institution (empty when it has no rows). Caller
 * frees with peers_free. */
int peers_load(Store *st, Peer **out, size_t *n, CpErr *err);

#endif
