/* Issue 15: the keyed pseudonyms (HMAC-SHA-256 against RFC 4231's test
 * vectors), the name scrubber, CSV neutralising after spaces, an export
 * written through rfile leaving nothing behind, the store's name caches
 * read again under the write lock, and capplan check's comparisons. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "core/cp.h"
#include "core/jobrec.h"
#include "data/store/store.h"
#include "data/store/store_check.h"
#include "reports/anon.h"
#include "reports/csvw.h"
#include "reports/rfile.h"
#include "tests/lib/testutil.h"
#include "tui/canvas.h"
#include "tui/redact.h"

static void hex(const unsigned char *p, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", p[i]);
}

static void unhex(const char *s, unsigned char *out, size_t *n)
{
    *n = 0;
    for (; s[0] && s[1]; s += 2) {
        unsigned v;
        sscanf(s, "%2x", &v);
        out[(*n)++] = (unsigned char)v;
    }
}

/* RFC 4231 section 4: test cases 1-4, 6, 7 (5 is truncated output). */
static void test_hmac_rfc4231(void **state)
{
    (void)state;
    static const struct {
        const char *key_hex, *data, *data_hex, *mac;
    } v[] = {
        {"0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "Hi There", NULL,
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
        {"4a656665", "what do ya want for nothing?", NULL,
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
        {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", NULL,
         "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
         "dddddddddddddddd",
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
        {"0102030405060708090a0b0c0d0e0f10111213141516171819", NULL,
         "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"
         "cdcdcdcdcdcdcdcd",
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"},
        {NULL, /* 131 bytes 0xaa */
         "Test Using Larger Than Block-Size Key - Hash Key First", NULL,
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
        {NULL, /* 131 bytes 0xaa */
         "This is a test using a larger than block-size key and a larger than block-size data. "
         "The key needs to be hashed before being used by the HMAC algorithm.",
         NULL, "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        unsigned char key[256], data[256], mac[32];
        size_t klen, dlen;
        char got[65];
        if (v[i].key_hex) {
            unhex(v[i].key_hex, key, &klen);
        } else {
            klen = 131;
            memset(key, 0xaa, klen);
        }
        if (v[i].data) {
            dlen = strlen(v[i].data);
            memcpy(data, v[i].data, dlen);
        } else {
            unhex(v[i].data_hex, data, &dlen);
        }
        anon_hmac_sha256(key, klen, data, dlen, mac);
        hex(mac, 32, got);
        assert_string_equal(got, v[i].mac);
    }
}

/* The pseudonym is the HMAC of "kind NUL name" under the site key, its
 * first 30 bits in base 32 (checked here by hand from the HMAC). */
static void test_pseudonym_keyed(void **state)
{
    (void)state;
    const unsigned char k1[16] = "0123456789abcdef", k2[16] = "0123456789abcdeX";
    char a[32], b[32], c[32];
    anon_set_key(k1, sizeof k1);
    anon_name("group", "chen-lab", a, sizeof a);
    anon_name("group", "chen-lab", b, sizeof b);
    assert_string_equal(a, b);
    unsigned char mac[32];
    anon_hmac_sha256(k1, sizeof k1, (const unsigned char *)"group\0chen-lab", 14, mac);
    uint64_t h = 0;
    for (int i = 0; i < 8; i++)
        h = h << 8 | mac[i];
    char want[16] = "group-";
    for (int i = 0; i < 6; i++, h >>= 5)
        want[6 + i] = "abcdefghijkmnpqrstuvwxyz23456789"[h & 31];
    want[12] = '\0';
    assert_string_equal(a, want);
    anon_name("user", "chen-lab", c, sizeof c); /* the kind is keyed too */
    assert_string_not_equal(c + 5, a + 6);
    anon_set_key(k2, sizeof k2);
    anon_name("group", "chen-lab", c, sizeof c);
    assert_string_not_equal(a, c);
    assert_string_equal(anon_maybe(1, "group", "all", c, sizeof c), "all");
}

static void test_scrub(void **state)
{
    (void)state;
    AnonScrub *a = anon_scrub_new();
    anon_scrub_add(a, "itanaka", "user 001");
    anon_scrub_add(a, "tanaka-lab", "group 01");
    anon_scrub_add(a, "Ines Tanaka", "prof. 01");
    anon_scrub_add(a, "jo", "user 002");      /* too short to look for */
    anon_scrub_add(a, "itanaka", "user 999"); /* the first one wins */
    char *t = anon_scrub_text(a, "itanaka group got 8 new GPUs; ITANAKA's tanaka-lab, "
                                 "Tanaka agrees (Ines Tanaka), itanaka2 and xitanaka stay, jo");
    assert_string_equal(t, "user 001 group got 8 new GPUs; user 001's group 01, "
                           "prof. 01 agrees (prof. 01), itanaka2 and xitanaka stay, jo");
    free(t);
    char buf[12];
    assert_string_equal(anon_scrub_buf(a, "by itanaka today", buf, sizeof buf), "by user 001");
    t = anon_scrub_xml(a, "<text x=\"1\" class=\"itanaka\">itanaka &amp; tanaka-lab</text>"
                          "<itanaka/>");
    assert_string_equal(t, "<text x=\"1\" class=\"user 001\">user 001 &amp; group 01</text>"
                           "<itanaka/>");
    free(t);
    anon_scrub_free(a);
}

static void test_csv_leading_space(void **state)
{
    (void)state;
    assert_true(csvw_risky(" =1+1"));
    assert_true(csvw_risky("  @SUM(A1)"));
    assert_true(csvw_risky("\n=1"));
    assert_false(csvw_risky(" -3.5"));
    assert_false(csvw_risky("  "));
    assert_false(csvw_risky("a =1"));
}

/* An rfile never shows its temporary file under a name before the commit
 * (O_TMPFILE): a kill leaves nothing; commit and abort behave. */
static void test_rfile_unnamed(void **state)
{
    (void)state;
    char *dir = tu_temp_path("-rf");
    assert_int_equal(rfile_mkdir(dir, NULL), 0);
    char path[1100];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    RFile rf;
    CpErr err;
    assert_int_equal(rfile_open(&rf, path, &err), 0);
    fputs("a,b\r\n", rf.f);
    DIR *d = opendir(dir);
    int entries = 0;
    for (struct dirent *e; (e = readdir(d));)
        entries += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(entries, 0);
    assert_int_equal(rfile_commit(&rf, &err), 0);
    FILE *f = fopen(path, "rb");
    char line[16] = "";
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_string_equal(line, "a,b\r\n");
    assert_int_equal(rfile_open(&rf, path, &err), 0);
    rfile_abort(&rf);
    d = opendir(dir);
    entries = 0;
    for (struct dirent *e; (e = readdir(d));)
        entries += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(entries, 1);
    unlink(path);
    rmdir(dir);
    free(dir);
}

static void collect_line(void *ctx, const char *line)
{
    char *buf = ctx;
    strncat(buf, line, 2047 - strlen(buf));
    strncat(buf, "\n", 2047 - strlen(buf));
}

/* capplan check: a database whose usage_month or job_counts was tampered
 * with is found out, with the figures (1 job each, 1 GPU x 1 h). */
static void test_check_counts(void **state)
{
    (void)state;
    char *path = tu_temp_path(".db");
    CpErr err;
    Store *st = store_open(path, &err);
    assert_non_null(st);
    sqlite3 *db = store_db(st);
    assert_int_equal(sqlite3_exec(db,
                                  "INSERT INTO clusters(id, name) VALUES(1, 'c');"
                                  "INSERT INTO jobs(cluster_id, job_raw, submit, job_id, name, "
                                  "state, start, end_time, elapsed, gpus, ncpus, rec_hash, "
                                  "import_id, final) VALUES(1, 1, 1700000000, '1', 'j', 0, "
                                  "1700000000, 1700003600, 3600, 1, 2, 0, 0, 1);"
                                  "INSERT INTO usage_month(month, cluster_id, account_id, user_id, "
                                  "partition_id, jobs, attempts, gpu_jobs, gpu_hours, cpu_hours, "
                                  "wait_s, waited, preempted, gpu_hours_lost) "
                                  "VALUES(202311, 1, 0, 0, 0, 1, 1, 1, 1.0, 2.0, 0, 1, 0, 0);"
                                  "INSERT OR REPLACE INTO acct_window(id, lo, hi) "
                                  "VALUES(1, 1700000000, 1700003600);"
                                  "INSERT INTO job_counts(cluster_id, jobs, attempts, "
                                  "first_submit, last_submit) "
                                  "VALUES(1, 1, 1, 1700000000, 1700000000);",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    char out[2048] = "";
    int corrupt = 1;
    assert_int_equal(store_check(st, collect_line, out, &corrupt, &err), 0);
    assert_int_equal(corrupt, 0);
    assert_string_equal(out, "");
    assert_int_equal(sqlite3_exec(db,
                                  "UPDATE usage_month SET jobs = 2, gpu_hours = 1.5;"
                                  "UPDATE job_counts SET attempts = 3",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    assert_int_equal(store_check(st, collect_line, out, &corrupt, &err), 3);
    assert_string_equal(out, "usage_month: jobs 2, the jobs table gives 1\n"
                             "usage_month: GPU-hours 1.5, the jobs table gives 1\n"
                             "job_counts: attempts 3, the jobs table gives 1\n");
    store_close(st);
    tu_remove_db(path);
    free(path);
}

/* Names another connection added after this one read its caches are
 * read again once the write lock is taken (two imports at once). */
static void test_caches_under_lock(void **state)
{
    (void)state;
    char *path = tu_temp_path(".db");
    CpErr err;
    Store *a = store_open(path, &err), *b = store_open(path, &err);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(store_begin(a, &err), 0);
    assert_int_equal(sqlite3_exec(store_db(a), "INSERT INTO clusters(name) VALUES('c')", NULL,
                                  NULL, NULL),
                     SQLITE_OK);
    assert_int_equal(store_commit(a, &err), 0);
    assert_int_equal(store_begin(b, &err), 0);
    CpJobRec r;
    jobrec_clear(&r);
    r.cluster = "c";
    r.job_id = "7";
    r.job_raw = 7;
    StoreJobCounts n = {0, 0, 0};
    assert_int_equal(store_job_put(b, 1, "c", &r, &n, &err), 0);
    assert_int_equal(store_commit(b, &err), 0);
    assert_int_equal(store_scalar(b, "SELECT count(*) FROM clusters"), 1);
    assert_int_equal(store_scalar(b, "SELECT cluster_id FROM jobs"), 1);
    store_close(a);
    store_close(b);
    tu_remove_db(path);
    free(path);
}

/* The canvas draws every string through its filter: with presentation
 * mode's scrubber, a status line naming a group shows its label, a name cut
 * by the column's width is replaced before it is cut. */
static void test_canvas_filter(void **state)
{
    (void)state;
    AnonScrub *a = anon_scrub_new();
    anon_scrub_add(a, "brennan-lab", "group 01");
    anon_scrub_add(a, "mdas", "user 007");
    Canvas *c = canvas_new(40, 2);
    c->filter = tui_redact_filter;
    c->filter_ctx = a;
    canvas_text(c, 0, 0, 40, 0, "saved gpus.3 of brennan-lab");
    canvas_text_right(c, 0, 1, 32, 0, "professor agrees, mdas too");
    char row[256];
    assert_string_equal(canvas_row(c, 0, row, sizeof row), "saved gpus.3 of group 01");
    assert_string_equal(canvas_row(c, 1, row, sizeof row), "  professor agrees, user 007 too");
    canvas_clear(c);
    canvas_text(c, 0, 0, 12, 0, "by brennan-lab"); /* 14 columns: cut after it is replaced */
    assert_string_equal(canvas_row(c, 0, row, sizeof row), "by group 01");
    c->filter = NULL;
    canvas_clear(c);
    canvas_text(c, 0, 0, 40, 0, "saved gpus.3 of brennan-lab");
    assert_string_equal(canvas_row(c, 0, row, sizeof row), "saved gpus.3 of brennan-lab");
    canvas_free(c);
    anon_scrub_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hmac_rfc4231),     cmocka_unit_test(test_pseudonym_keyed),
        cmocka_unit_test(test_scrub),            cmocka_unit_test(test_csv_leading_space),
        cmocka_unit_test(test_rfile_unnamed),    cmocka_unit_test(test_check_counts),
        cmocka_unit_test(test_caches_under_lock), cmocka_unit_test(test_canvas_filter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
