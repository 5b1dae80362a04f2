/* fuzz_csvin: libFuzzer target for the RFC 4180 CSV reader (data/ingest/csvin.c
 * over libcsv) and its header helpers. The first byte picks the record cap
 * (bit 0: 64 bytes instead of the default, to reach the too-long path);
 * the rest is the file. The callback checks each record's shape and maps
 * the first record as a roster-like header. */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "data/ingest/csvin.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct CsvCount {
    int64_t records, last_line;
} CsvCount;

static int on_record(void *ctx, const CsvinRec *rec, CpErr *err)
{
    static const char *const cols[] = {"user", "group", "role", "start|start_date", "end"};
    CsvCount *c = ctx;
    FUZZ_CHECK(rec->n >= 1);
    FUZZ_CHECK(rec->line >= 1 && rec->line >= c->last_line);
    for (size_t i = 0; i < rec->n; i++)
        FUZZ_CHECK(rec->f[i][rec->len[i]] == '\0');
    if (c->records++ == 0) {
        int idx[5];
        CpErr herr = {{0}};
        if (csvin_columns(rec, "fuzz.csv", cols, 5, 2, idx, &herr) == 0) {
            for (int i = 0; i < 5; i++)
                FUZZ_CHECK(idx[i] >= -1 && idx[i] < (int)rec->n);
        } else {
            FUZZ_CHECK(herr.msg[0] != '\0');
        }
        (void)csvin_has_column(rec, "cluster");
    }
    (void)csvin_rec_empty(rec);
    c->last_line = rec->line;
    (void)err;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *copy;
    FILE *f = fuzz_open(data + 1, size - 1, &copy);
    CsvCount count = {0, 0};
    CpErr err = {{0}};
    int r = csvin_read(f, "fuzz.csv", data[0] & 1 ? 64 : 0, on_record, &count, &err);
    fuzz_check_err(r, &err);
    fuzz_close(f, copy);
    return 0;
}
