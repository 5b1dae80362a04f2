#ifndef STORE_BLOCKS_INT_H
#define STORE_BLOCKS_INT_H
/* store_blocks_int: what the two files of the job blocks share and nobody
 * else uses: store_blocks.c (packing, keeping them in step, the import's
 * feed) and store_blocks_read.c (reading them back). Not a public interface. */

#include <sqlite3.h>
#include <stdint.h>

#include "core/cp.h"

#define BLOCK_MAGIC 0x31425043u /* "CPB1" in host order */
#define HEADER_BYTES 16         /* magic, records, types, bytes of type names */

/* 1 when the database has the job blocks' tables (job_blocks_state). */
int store_blocks_has_tables(sqlite3 *db);
/* One integer from sql with ?1 = arg (when sql has a parameter); *null when
 * it is NULL or there is no row. 0, or -1 with err. */
int store_blocks_int_of(sqlite3 *db, const char *sql, int64_t arg, int64_t *out, int *null,
                        CpErr *err);

#endif
