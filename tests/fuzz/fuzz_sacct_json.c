/* fuzz_sacct_json: libFuzzer target for the sacct --json reader
 * (data/ingest/sacct_json.c over data/ingest/json_stream.c and cJSON). The first byte
 * picks the options (bit 0: strict), the rest is the file. */

#include <stdint.h>
#include <stdio.h>

#include "data/ingest/sacct_json.h"
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
    char format[64];
    CpErr err = {{0}};
    int r = sacct_json_read(f, &rc, format, sizeof format, &err);
    fuzz_check_err(r, &err);
    if (r == 0)
        FUZZ_CHECK(memchr(format, '\0', sizeof format) != NULL);
    FUZZ_CHECK(rc.rows_rejected == count.rejects || rc.strict);
    fuzz_close(f, copy);
    return 0;
}
