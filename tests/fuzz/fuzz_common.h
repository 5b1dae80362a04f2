#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H
/* fuzz_common: what the reader fuzz targets share: the input as a FILE*
 * (fmemopen over a private copy, so that a reader writing into what it
 * read cannot touch libFuzzer's buffer), a sink that counts and touches
 * every string of each record (so that ASan sees a dangling or unterminated
 * one), and a reject callback that checks its message. Header-only: each
 * target is one translation unit. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobrec.h"
#include "data/ingest/reader.h"

#define FUZZ_CHECK(c)                                                                  \
    do {                                                                               \
        if (!(c)) {                                                                    \
            fprintf(stderr, "fuzz: check failed: %s (%s:%d)\n", #c, __FILE__, __LINE__); \
            abort();                                                                   \
        }                                                                              \
    } while (0)

typedef struct FuzzCount {
    int64_t records, rejects;
    size_t bytes;
} FuzzCount;

static inline size_t fuzz_touch(const char *s)
{
    return s ? strlen(s) : 0;
}

static inline int fuzz_job(void *ctx, const CpJobRec *r, CpErr *err)
{
    FuzzCount *c = ctx;
    (void)err;
    c->records++;
    c->bytes += fuzz_touch(r->cluster) + fuzz_touch(r->job_id) + fuzz_touch(r->step) +
                fuzz_touch(r->user) + fuzz_touch(r->account) + fuzz_touch(r->partition) +
                fuzz_touch(r->qos) + fuzz_touch(r->job_name) + fuzz_touch(r->nodelist) +
                fuzz_touch(r->state_raw);
    FUZZ_CHECK(memchr(r->gpu_type, '\0', sizeof r->gpu_type) != NULL);
    FUZZ_CHECK((int)r->state >= 0 && r->state < CP_ST_COUNT);
    return 0;
}

static inline void fuzz_reject(void *ctx, const char *msg)
{
    FuzzCount *c = ctx;
    c->rejects++;
    FUZZ_CHECK(strlen(msg) < CP_ERR_MAX);
}

static inline void fuzz_ctx_init(CpReadCtx *rc, FuzzCount *count, int strict)
{
    memset(rc, 0, sizeof *rc);
    memset(count, 0, sizeof *count);
    rc->path = "fuzz.in";
    rc->strict = strict;
    rc->sink.job = fuzz_job;
    rc->sink.ctx = count;
    rc->reject = fuzz_reject;
    rc->reject_ctx = count;
}

/* A FILE* reading a private copy of data; *copy is freed by fuzz_close. */
static inline FILE *fuzz_open(const uint8_t *data, size_t size, char **copy)
{
    *copy = malloc(size ? size : 1);
    if (!*copy)
        abort();
    if (size)
        memcpy(*copy, data, size);
    else
        (*copy)[0] = '\0';
    FILE *f = fmemopen(*copy, size ? size : 1, "r");
    if (!f)
        abort();
    if (size == 0)
        fgetc(f); /* an empty input: fmemopen refuses size 0 */
    return f;
}

static inline void fuzz_close(FILE *f, char *copy)
{
    fclose(f);
    free(copy);
}

/* After a reader returned rc: an error must say why. */
static inline void fuzz_check_err(int rc, const CpErr *err)
{
    FUZZ_CHECK(rc == 0 || rc == -1);
    if (rc < 0)
        FUZZ_CHECK(err->msg[0] != '\0' && memchr(err->msg, '\0', sizeof err->msg));
}

#endif
