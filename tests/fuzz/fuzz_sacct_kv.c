/* fuzz_sacct_kv: libFuzzer target for sonar's Key=Value CSV shape of sacct
 * records (data/ingest/sacct_kv.c over csvin), steps folded as import does. The
 * first byte picks the options (bit 0: strict, bit 1: no fold); the rest
 * is the file. */

#include <stdint.h>
#include <stdio.h>

#include "data/ingest/fold.h"
#include "data/ingest/sacct_kv.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *copy;
    FILE *f = fuzz_open(data + 1, size - 1, &copy);
    CpReadCtx rc;
    FuzzCount count;
    fuzz_ctx_init(&rc, &count, data[0] & 1);
    Fold *fold = NULL;
    if (!(data[0] & 2)) {
        fold = fold_new(rc.sink);
        rc.sink = fold_sink(fold);
    }
    CpErr err = {{0}};
    int r = sacct_kv_read(f, &rc, &err);
    fuzz_check_err(r, &err);
    if (fold) {
        CpErr ferr = {{0}};
        if (r == 0)
            fuzz_check_err(fold_flush(fold, &ferr), &ferr);
        fold_free(fold);
    }
    FUZZ_CHECK(rc.rows_rejected == count.rejects || rc.strict);
    fuzz_close(f, copy);
    return 0;
}
