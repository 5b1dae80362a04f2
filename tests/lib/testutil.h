#ifndef TESTUTIL_H
#define TESTUTIL_H
/* testutil: what the unit tests share: where ../shared is, temporary files
 * and databases, a sink that keeps every record it receives. */

#include <stdint.h>
#include <stdio.h>

#include "core/jobrec.h"
#include "data/ingest/reader.h"

/* 1 when the shared data folder ($CAPPLAN_SHARED/data, else
 * ../shared/data) exists. */
int tu_have_shared(void);

/* Path of a file under the shared data folder ($CAPPLAN_SHARED, else
 * ../shared). Static buffer, overwritten by the next call. Inside a cmocka
 * test only: when the folder does not exist (a clone without ../shared),
 * prints one "SKIP: needs REL: ..." line and skips the running test
 * (cmocka's skip(), which does not return). A folder that exists but lacks
 * the file is no skip: the test fails on it. */
const char *tu_shared(const char *rel);

/* A new temporary path (the file does not exist). Caller frees. */
char *tu_temp_path(const char *suffix);

/* Remove the database at path and its -wal and -shm files. */
void tu_remove_db(const char *path);

/* Write text to a new temporary file; caller frees the returned path and
 * unlinks the file. */
char *tu_write_temp(const char *text, size_t n);

/* One record, as far as tests look at it: copies of the strings. */
typedef struct TuJob {
    char cluster[64], job_id[64], user[64], account[64], partition[64], state_raw[64];
    char job_name[128], gpu_type[CP_GPU_TYPE_MAX];
    int has_step;
    char step[32];
    CpJobRec rec; /* numbers only: its string pointers are not valid */
} TuJob;

typedef struct TuSink {
    TuJob *jobs;
    int n, cap;
    int64_t rejected;
    char last_reject[CP_ERR_MAX];
} TuSink;

CpJobSink tu_sink(TuSink *s);
void tu_sink_free(TuSink *s);
/* The first record whose job_id equals id (and, if nth > 0, the nth such). */
const TuJob *tu_find(const TuSink *s, const char *id, int nth);
/* A read context over s (rejects recorded in s). */
void tu_read_ctx(CpReadCtx *rc, TuSink *s, const char *path);

#endif
