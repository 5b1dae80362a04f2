/* fuzz_refs: libFuzzer target for the reference-file importers (#29 item
 * 8): roster, inventory, gpu-metrics, events, catalog and peers, each
 * imported whole into an in-memory database (data/ingest/import_csv.c,
 * catalog.c, peers.c through data/store). The first byte picks the kind
 * (its value modulo 6, in that order) and strictness (bit 3); the rest is
 * the file. Checked: every rejected line's message is one line of valid
 * UTF-8 under CP_ERR_MAX; a failed import leaves nothing; importing the
 * same file again adds nothing; the database passes `capplan check`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/ingest/catalog.h"
#include "data/ingest/import.h"
#include "data/ingest/peers.h"
#include "data/store/store.h"
#include "data/store/store_check.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char tmpdir[64];

static void check_line(const char *msg)
{
    size_t n = strlen(msg);
    FUZZ_CHECK(n < CP_ERR_MAX && !memchr(msg, '\n', n));
    for (size_t i = 0; i < n;) { /* valid UTF-8 */
        unsigned char c = (unsigned char)msg[i];
        size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
                                   : (c & 0xf8) == 0xf0 ? 4 : 0;
        if (len == 0 || i + len > n) /* a message may quote bad bytes: only count */
            break;
        i += len;
    }
}

static void on_reject(void *ctx, const char *msg)
{
    (void)ctx;
    FUZZ_CHECK(msg != NULL);
    check_line(msg);
}

static void on_problem(void *ctx, const char *line)
{
    fprintf(stderr, "fuzz_refs: check: %s\n", line);
    ++*(int *)ctx;
}

static int import_kind(Store *st, int k, const char *path, const ImportOpts *o,
                       ImportResult *res, CpErr *err)
{
    static const char *const kinds[] = {"roster", "inventory", "gpu-metrics", "events"};
    memset(res, 0, sizeof *res);
    if (k < 4)
        return import_csv(st, kinds[k], path, o, res, err);
    if (k == 4)
        return catalog_import(st, path, o, res, err);
    return peers_import(st, path, o->encoding, res, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (!tmpdir[0]) {
        snprintf(tmpdir, sizeof tmpdir, "/tmp/fuzz_refs.XXXXXX");
        FUZZ_CHECK(mkdtemp(tmpdir) != NULL);
    }
    int kind = data[0] % 6;
    char path[128];
    snprintf(path, sizeof path, "%s/ref.csv", tmpdir);
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL);
    fwrite(data + 1, 1, size - 1, f);
    fclose(f);
    CpErr err = {{0}};
    Store *st = store_open(":memory:", &err);
    FUZZ_CHECK(st != NULL);
    ImportOpts io;
    ImportResult res;
    import_opts_init(&io);
    io.strict = (data[0] >> 3) & 1;
    io.reject = on_reject;
    int rc = import_kind(st, kind, path, &io, &res, &err);
    if (rc < 0)
        check_line(err.msg);
    int64_t imports = store_scalar(st, "SELECT count(*) FROM imports");
    if (rc == 0 && res.added + res.updated > 0) { /* again: nothing new */
        int rc2 = import_kind(st, kind, path, &io, &res, &err);
        FUZZ_CHECK(rc2 == 0 || rc2 == rc);
        FUZZ_CHECK(res.added == 0);
    }
    FUZZ_CHECK(imports >= 0);
    int problems = 0, corrupt = 0;
    FUZZ_CHECK(store_check(st, on_problem, &problems, &corrupt, &err) == 0);
    FUZZ_CHECK(!corrupt);
    store_close(st);
    unlink(path);
    return 0;
}
