#ifndef STORE_BIND_H
#define STORE_BIND_H
/* store_bind: private to data/store/store.c. The parameters ?1..?35 of its
 * statements that write a jobs row (JOB_COLS in that order), bound from a
 * record. A JobBind remembers the numbers and NULLs it bound last and
 * skips those that did not change, since SQLite keeps a statement's
 * bindings across sqlite3_reset: in a bulk import most of a row's 35
 * parameters are the previous row's (ids, counts, NULLs), and each bind
 * costs a call into SQLite (issue 14 item 14). Text is bound every time:
 * it points into the caller's record. */

#include <sqlite3.h>
#include <stdint.h>

#include "core/jobrec.h"
#include "data/store/store_feed.h"

#define JOB_BIND_PARAMS 36

typedef struct JobBind {
    sqlite3_stmt *stmt; /* borrowed */
    signed char kind[JOB_BIND_PARAMS + 1]; /* per parameter: what was bound last */
    int64_t bits[JOB_BIND_PARAMS + 1];     /* ... its value (a double's bits) */
} JobBind;

/* The names' ids of a row, in this order (0: no name). */
enum { JOB_BIND_CLUSTER, JOB_BIND_USER, JOB_BIND_ACCOUNT, JOB_BIND_PARTITION, JOB_BIND_QOS,
       JOB_BIND_NIDS };

/* Start binding s (borrowed; s must have no bindings yet, or the ones
 * a JobBind of it made). */
void job_bind_init(JobBind *b, sqlite3_stmt *s);

/* Bind ?1..?35 for record r: ids its names' ids, hash its rec_hash,
 * final its final flag. NULL for what r does not know (the rule
 * KNOWN_COLS in data/store/store.c counts by). */
void job_bind(JobBind *b, int64_t import_id, const CpJobRec *r,
              const int64_t ids[JOB_BIND_NIDS], uint64_t hash, int final);

/* *a: the values job_bind writes for r (id left 0), as the jobs table
 * then holds them (a REAL -0.0 reads back as 0.0). a->gpu_type points
 * into r. */
void job_attempt(const CpJobRec *r, const int64_t ids[JOB_BIND_NIDS], int final,
                 StoreAttempt *a);

#endif
