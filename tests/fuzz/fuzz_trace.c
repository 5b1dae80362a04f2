/* fuzz_trace: libFuzzer target for the public-trace readers (data/trace*.c:
 * Philly JSON and CSV, SWF, Helios, PAI, Alibaba pods). The first byte
 * picks the kind (bits 0-1: philly, swf, helios, pai; bit 3 set:
 * alibaba-pod) and strictness (bit 2); the rest is the file. */

#include <stdint.h>
#include <stdio.h>

#include "data/ingest/trace.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const kinds[] = {"philly", "swf", "helios", "pai"};
    if (size < 1)
        return 0;
    char *copy;
    FILE *f = fuzz_open(data + 1, size - 1, &copy);
    CpReadCtx rc;
    FuzzCount count;
    fuzz_ctx_init(&rc, &count, (data[0] >> 2) & 1);
    char format[64];
    CpErr err = {{0}};
    const char *kind = (data[0] >> 3) & 1 ? "alibaba-pod" : kinds[data[0] & 3];
    int r = trace_read(f, kind, &rc, format, sizeof format, &err);
    fuzz_check_err(r, &err);
    FUZZ_CHECK(rc.rows_rejected == count.rejects || rc.strict);
    fuzz_close(f, copy);
    return 0;
}
