/* fuzz_pubs: libFuzzer target for `capplan import pubs` (issue 32): the
 * input is written to a file and imported into an in-memory database with
 * a small roster, then the papers are read back and matched
 * (store_research_load). No input may kill the process (btparse aborts on
 * a NUL byte and exits on a usage error: pubs.c refuses such text first);
 * every reject and error is one line under CP_ERR_MAX; a refused file
 * leaves no paper; a second import of the same file adds nothing.
 *
 * The first byte picks the options, the rest is the input:
 *   bit 0  the file is named pubs-lab.bib (else papers.csv: the research
 *          CSV, or BibTeX when it starts with '@')
 *   bit 1  strict
 *   bit 2  --encoding latin1
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/ingest/import.h"
#include "data/ingest/pubs.h"
#include "data/ingest/textenc.h"
#include "data/store/store.h"
#include "data/store/store_research.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__lsan_default_suppressions(void);

/* btparse itself leaks the empty text of a value that is an undefined
 * macro (`title = Q`: 1 byte each, in bt_postprocess_value; the AST is
 * freed whole): not ours to free, so not reported. */
const char *__lsan_default_suppressions(void)
{
    return "leak:bt_postprocess_value\n";
}

static char tmpdir[64];

static const char roster[] = "user,group,role,domain,start,end,name\n"
                             "asilva,lab,phd-student,ML,2020-01-01,,Ana Silva\n"
                             "asilva2,other,phd-student,ML,2020-01-01,,Ana Silva\n"
                             "rvdg,lab,phd-student,ML,2020-01-01,,Rob van der Goot\n";

static void write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL);
    fwrite(p, 1, n, f);
    fclose(f);
}

static void one_line(void *ctx, const char *msg)
{
    (void)ctx;
    FUZZ_CHECK(msg != NULL && strlen(msg) < CP_ERR_MAX && !strchr(msg, '\n'));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (!tmpdir[0]) {
        snprintf(tmpdir, sizeof tmpdir, "/tmp/fuzz_pubs.XXXXXX");
        FUZZ_CHECK(mkdtemp(tmpdir) != NULL);
    }
    uint8_t opt = data[0];
    char path[128], people[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, (opt & 1) ? "pubs-lab.bib" : "papers.csv");
    snprintf(people, sizeof people, "%s/roster.csv", tmpdir);
    write_file(path, data + 1, size - 1);
    write_file(people, roster, sizeof roster - 1);
    CpErr err;
    Store *st = store_open(":memory:", &err);
    FUZZ_CHECK(st != NULL);
    ImportOpts io;
    ImportResult res;
    import_opts_init(&io);
    io.reject = one_line;
    io.strict = (opt & 2) != 0;
    io.encoding = (opt & 4) ? TEXTENC_LATIN1 : TEXTENC_UTF8;
    FUZZ_CHECK(import_csv(st, "roster", people, &io, &res, &err) == 0);
    memset(&res, 0, sizeof res);
    int rc = pubs_import(st, path, &io, &res, &err);
    if (rc < 0) { /* refused: one line, the database as it was */
        one_line(NULL, err.msg);
        FUZZ_CHECK(store_scalar(st, "SELECT count(*) FROM papers") == 0);
    } else {
        ImportResult again;
        memset(&again, 0, sizeof again);
        if (pubs_import(st, path, &io, &again, &err) == 0 && strcmp(res.format, "bibtex") == 0)
            FUZZ_CHECK(again.added == 0);
    }
    ResearchData rd;
    FUZZ_CHECK(store_research_load(st, 0, &rd, &err) == 0);
    FUZZ_CHECK(rd.matched + rd.slots_ambiguous <= rd.slots);
    for (int i = 0; i < rd.npapers; i++)
        for (int a = 0; a < rd.papers[i].nauthors; a++)
            FUZZ_CHECK(rd.papers[i].person[a] >= -1 && rd.papers[i].person[a] < rd.npeople);
    store_research_done(&rd);
    store_close(st);
    unlink(path);
    unlink(people);
    return 0;
}
