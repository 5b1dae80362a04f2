/* fuzz_sacct_text: libFuzzer target for the sacct delimited-text reader
 * (data/ingest/sacct_text.c) with its steps folded (data/ingest/fold.c), as import runs
 * them. The first byte picks the options, the rest is the file:
 *
 *   bits 0-1  delimiter: "|", "^|^" (reportseff), ",", or none given (read
 *             from the header line)
 *   bit 2     fields: from the header line, or Open XDMoD's 26-field list
 *   bit 3     strict
 *   bit 4     no fold: records straight to the counting sink
 */

#include <stdint.h>
#include <stdio.h>

#include "data/ingest/fold.h"
#include "data/ingest/sacct_text.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const delims[] = {"|", "^|^", ",", NULL};
    if (size < 1)
        return 0;
    uint8_t opt = data[0];
    char *copy;
    FILE *f = fuzz_open(data + 1, size - 1, &copy);
    CpReadCtx rc;
    FuzzCount count;
    fuzz_ctx_init(&rc, &count, (opt >> 3) & 1);
    Fold *fold = NULL;
    if (!((opt >> 4) & 1)) {
        fold = fold_new(rc.sink);
        rc.sink = fold_sink(fold);
    }
    char format[64];
    CpErr err = {{0}};
    int r = sacct_text_read(f, &rc, delims[opt & 3], (opt >> 2) & 1 ? "xdmod" : NULL, format,
                            sizeof format, &err);
    fuzz_check_err(r, &err);
    if (r == 0)
        FUZZ_CHECK(memchr(format, '\0', sizeof format) != NULL);
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
