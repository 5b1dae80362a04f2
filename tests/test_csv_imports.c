/* import_csv: roster, inventory, gpu-metrics, events and pubs into a real
 * SQLite database (a mkstemp file per test). Small files are written by the
 * tests; the Alibaba GPU memory time series is read in place from the
 * shared folder. Its figures (44 pods, 45,738 samples, per-pod maxima) were
 * computed independently with python3's csv module over the same file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "data/ingest/import.h"
#include "data/store/store.h"
#include "data/ingest/textenc.h"
#include "tests/lib/testdb.h"
#include "tests/lib/testutil.h"

#define ALIBABA "data/gpu-memory-alibaba-genai-2026/pod_gpu_memory_used_bytes_anon.sample44pods.csv"

/* Import path as kind into d: strict or not, rejected lines counted in d,
 * cluster for the records that name none. */
static int import_file(TuDb *d, const char *kind, const char *path, int strict,
                       const char *cluster, ImportResult *res, CpErr *err)
{
    ImportOpts o;
    tu_db_opts(d, &o, strict);
    o.cluster = cluster;
    return import_csv(d->st, kind, path, &o, res, err);
}

/* Write text to a temporary file, import it, remove it. The file's path
 * is left in name (for the expected messages). */
static int import_text(TuDb *d, const char *kind, const char *text, size_t n, int strict,
                       ImportResult *res, CpErr *err, char name[256])
{
    ImportOpts o;
    tu_db_opts(d, &o, strict);
    return tu_import_text(d->st, kind, text, n, &o, res, err, name, 256);
}

static int64_t scalar(TuDb *d, const char *sql)
{
    return store_scalar(d->st, sql);
}

/* -2 when the value is NULL (not given), -1 when there is no row. */
static double real_of(TuDb *d, const char *sql, const char *arg)
{
    return tu_db_real(d->st, sql, arg, -2);
}

static void text_of(TuDb *d, const char *sql, const char *arg, char *out, size_t n)
{
    sqlite3_stmt *s;
    out[0] = '\0';
    assert_int_equal(sqlite3_prepare_v2(store_db(d->st), sql, -1, &s, NULL), SQLITE_OK);
    if (arg)
        sqlite3_bind_text(s, 1, arg, -1, SQLITE_STATIC);
    if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
        snprintf(out, n, "%s", (const char *)sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
}

#define TEXT(s) s, sizeof s - 1

static const char roster[] =
    "user,group,role,domain,start,end,supervisor\n"
    "alice,vision,professor,computer vision,2015-09-01,,\n"
    "bob,vision,PhD,computer vision,2021-09-01,2025-08-31,alice\n"
    "carol,vision,master,robotics,2024-02-01,2024-12-31,bob\n"
    "dave,nlp,phd,nlp,2022-01-10,,erin\n"
    "erin,nlp,professor,linguistics,2010-01-01,,\n"
    "frank,nlp,postdoc,nlp,2023-03-01,,erin\n";

/* People and the groups they make; a re-import adds nothing. */
static void test_roster(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err = {""};
    char name[256], txt[128];
    assert_int_equal(import_text(d, "roster", TEXT(roster), 0, &r, &err, name), 0);
    assert_string_equal(r.format, "roster-csv");
    assert_int_equal(r.rows_read, 6);
    assert_int_equal(r.added, 6);
    assert_int_equal(r.rejected, 0);
    assert_int_equal(scalar(d, "SELECT count(*) FROM people"), 6);
    assert_int_equal(scalar(d, "SELECT count(*) FROM groups"), 2);
    text_of(d, "SELECT professor FROM groups WHERE name=?1", "vision", txt, sizeof txt);
    assert_string_equal(txt, "alice");
    text_of(d, "SELECT domain FROM groups WHERE name=?1", "vision", txt, sizeof txt);
    assert_string_equal(txt, "computer vision");
    text_of(d, "SELECT domain FROM groups WHERE name=?1", "nlp", txt, sizeof txt);
    assert_string_equal(txt, "linguistics"); /* the professor's, not the most common */
    text_of(d, "SELECT role FROM people WHERE user=?1", "bob", txt, sizeof txt);
    assert_string_equal(txt, "phd");
    assert_int_equal(scalar(d, "SELECT count(*) FROM people WHERE end_date IS NULL"), 4);
    assert_int_equal(scalar(d, "SELECT count(*) FROM imports WHERE kind='roster'"), 1);

    assert_int_equal(import_text(d, "roster", TEXT(roster), 0, &r, &err, name), 0);
    assert_int_equal(r.added, 0);
    assert_int_equal(r.updated, 0);
    assert_int_equal(r.unchanged, 6);
    assert_int_equal(scalar(d, "SELECT count(*) FROM people"), 6);
    assert_int_equal(scalar(d, "SELECT count(*) FROM groups"), 2);
}

/* A changed end date updates the row it belongs to. */
static void test_roster_update(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err = {""};
    char name[256], txt[32];
    static const char later[] = "user,group,role,domain,start,end\n"
                                "dave,nlp,phd,nlp,2022-01-10,2026-06-30\n"
                                "gina,nlp,student,nlp,2025-09-01,\n";
    assert_int_equal(import_text(d, "roster", TEXT(roster), 0, &r, &err, name), 0);
    assert_int_equal(import_text(d, "roster", TEXT(later), 0, &r, &err, name), 0);
    assert_int_equal(r.added, 1);
    assert_int_equal(r.updated, 1);
    text_of(d, "SELECT end_date FROM people WHERE user=?1", "dave", txt, sizeof txt);
    assert_string_equal(txt, "2026-06-30");
    text_of(d, "SELECT professor FROM groups WHERE name=?1", "nlp", txt, sizeof txt);
    assert_string_equal(txt, "erin"); /* kept: this file names no professor */
    text_of(d, "SELECT domain FROM groups WHERE name=?1", "nlp", txt, sizeof txt);
    assert_string_equal(txt, "linguistics");
}

static void test_missing_column(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err = {""};
    char name[256], want[400];
    static const char nogroup[] = "user,role,domain,start,end\nalice,phd,cv,2020-01-01,\n";
    assert_int_equal(import_text(d, "roster", TEXT(nogroup), 0, &r, &err, name), -1);
    snprintf(want, sizeof want, "%s:1: missing column 'group'", name);
    assert_string_equal(err.msg, want);
    assert_int_equal(scalar(d, "SELECT count(*) FROM people"), 0);
    assert_int_equal(scalar(d, "SELECT count(*) FROM imports"), 0);
}

static void test_bad_date(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err = {""};
    char name[256], want[400];
    static const char text[] = "user,group,role,domain,start,end\n"
                               "alice,cv,phd,cv,2020-01-01,\n"
                               "bob,cv,phd,cv,2024-13-01,\n"
                               "carl,cv,phd,cv,2023-02-29,\n"
                               "dora,cv,phd,cv,2024-02-29,2024-01-01\n";
    assert_int_equal(import_text(d, "roster", TEXT(text), 0, &r, &err, name), 0);
    assert_int_equal(r.rows_read, 4);
    assert_int_equal(r.added, 1);
    assert_int_equal(r.rejected, 3);
    assert_int_equal(d->rejected, 3);
    snprintf(want, sizeof want, "%s:5: field end: end 2024-01-01 before start 2024-02-29", name);
    assert_string_equal(d->last_reject, want);
    assert_int_equal(scalar(d, "SELECT count(*) FROM people"), 1);
    assert_int_equal(scalar(d, "SELECT rows_rejected FROM imports"), 3);
    /* strict: the first bad line is the error */
    assert_int_equal(import_text(d, "roster", TEXT(text), 1, &r, &err, name), -1);
    snprintf(want, sizeof want, "%s:3: field start: bad date '2024-13-01' (expected YYYY-MM-DD)",
             name);
    assert_string_equal(err.msg, want);
}

static const char inventory[] = "cluster,gpu_model,gpus,gpu_mem_gib,from,to,relative_speed,tdp_w\n"
                                "fox,a100,32,80,2022-01-01,,1.0,400\n"
                                "fox,rtx30,8,24,2021-06-01,2025-12-31,,\n"
                                "saga,h100,-2,80,2024-01-01,,2.1,700\n"
                                "saga,h100,16,80,2024-01-01,,2.1\n"
                                "saga,h200,8,,2024-01-01,,,\n";

static void test_inventory(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err = {""};
    char name[256], want[400];
    assert_int_equal(import_text(d, "inventory", TEXT(inventory), 0, &r, &err, name), 0);
    assert_string_equal(r.format, "inventory-csv");
    assert_int_equal(r.rows_read, 5);
    assert_int_equal(r.added, 3); /* saga h100 16: a row short by its empty tdp_w (#14) */
    assert_int_equal(r.rejected, 2);
    assert_int_equal(scalar(d, "SELECT sum(gpus) FROM inventory"), 56);
    assert_true(real_of(d, "SELECT tdp_w FROM inventory WHERE gpu_model=?1", "a100") == 400.0);
    assert_true(real_of(d, "SELECT relative_speed FROM inventory WHERE gpu_model=?1", "rtx30") ==
                -2); /* NULL: not given */
    assert_int_equal(d->rejected, 2);
    snprintf(want, sizeof want, "%s:6: field gpu_mem_gib: empty value", name);
    assert_string_equal(d->last_reject, want);
    /* the negative count and the short row, in strict mode */
    assert_int_equal(import_text(d, "inventory", TEXT(inventory), 1, &r, &err, name), -1);
    snprintf(want, sizeof want, "%s:4: field gpus: negative count '-2'", name);
    assert_string_equal(err.msg, want);
    /* a row that drops its trailing empty field is that field empty; a row
     * too long is refused; a '#' line is a comment, skipped and counted */
    static const char long_row[] = "cluster,gpu_model,gpus,gpu_mem_gib,from,to\n"
                                   "# from the purchase spreadsheet\n"
                                   "fox,a100,32,80,2022-01-01,\n"
                                   "fox,v100,4,32,2019-01-01\n"
                                   "fox,p100,4,16,2017-01-01,,x\n";
    assert_int_equal(import_text(d, "inventory", TEXT(long_row), 1, &r, &err, name), -1);
    snprintf(want, sizeof want, "%s:5: expected 6 fields, found 7", name);
    assert_string_equal(err.msg, want);
    assert_int_equal(scalar(d, "SELECT count(*) FROM inventory"), 3);
    size_t without_last = (size_t)(strstr(long_row, "fox,p100") - long_row);
    assert_int_equal(import_text(d, "inventory", long_row, without_last, 1, &r, &err, name), 0);
    assert_int_equal(r.comments, 1);
    assert_int_equal(r.rows_read, 2);
    assert_int_equal(scalar(d, "SELECT count(*) FROM inventory WHERE gpu_model='v100' AND "
                               "to_date IS NULL"),
                     1);
}

/* With --strict one bad line leaves the database exactly as it was. */
static void test_strict_rollback(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err = {""};
    char name[256], want[400];
    static const char mixed[] = "user,group,role,domain,start,end\n"
                                "zoe,vision,phd,cv,2024-01-01,\n"
                                "yann,vision,phd,cv,2024-01-01,\n"
                                ",vision,phd,cv,2024-01-01,\n"
                                "xena,newgroup,phd,cv,2024-01-01,\n";
    assert_int_equal(import_text(d, "roster", TEXT(roster), 0, &r, &err, name), 0);
    int64_t imports = scalar(d, "SELECT count(*) FROM imports");
    assert_int_equal(import_text(d, "roster", TEXT(mixed), 1, &r, &err, name), -1);
    snprintf(want, sizeof want, "%s:4: field user: empty value", name);
    assert_string_equal(err.msg, want);
    assert_int_equal(scalar(d, "SELECT count(*) FROM people"), 6);
    assert_int_equal(scalar(d, "SELECT count(*) FROM groups"), 2);
    assert_int_equal(scalar(d, "SELECT count(*) FROM imports"), imports);
    assert_int_equal(d->rejected, 0); /* strict: the error, not a report */
    /* without strict the good lines land */
    assert_int_equal(import_text(d, "roster", TEXT(mixed), 0, &r, &err, name), 0);
    assert_int_equal(r.added, 3);
    assert_int_equal(r.rejected, 1);
    assert_int_equal(scalar(d, "SELECT count(*) FROM groups"), 3);
    char txt[64];
    text_of(d, "SELECT domain FROM groups WHERE name=?1", "vision", txt, sizeof txt);
    assert_string_equal(txt, "computer vision"); /* students' "cv" does not replace it */
    text_of(d, "SELECT domain FROM groups WHERE name=?1", "newgroup", txt, sizeof txt);
    assert_string_equal(txt, "cv");
}

/* A spreadsheet's export: BOM, CRLF, quoted commas and line breaks, blank
 * and all-empty lines. */
static void test_crlf_bom_quotes(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err = {""};
    char name[256], txt[128], want[400];
    static const char pubs[] = "\xEF\xBB\xBFyear,group,title,domain,authors\r\n"
                               "2024,vision,\"Seeing, fast\",cv,\"alice, bob\"\r\n"
                               "\r\n"
                               ",,,,\r\n"
                               "2025,vision,\"Two\r\nlines\",cv,\r\n"
                               "20x5,nlp,Bad year,nlp,\r\n";
    assert_int_equal(import_text(d, "pubs", TEXT(pubs), 0, &r, &err, name), 0);
    assert_string_equal(r.format, "pubs-csv");
    assert_int_equal(r.rows_read, 3);
    assert_int_equal(r.added, 2);
    assert_int_equal(r.rejected, 1);
    snprintf(want, sizeof want, "%s:7: field year: bad year '20x5'", name);
    assert_string_equal(d->last_reject, want);
    text_of(d, "SELECT authors FROM pubs WHERE year=2024", NULL, txt, sizeof txt);
    assert_string_equal(txt, "alice, bob");
    text_of(d, "SELECT title FROM pubs WHERE year=2025", NULL, txt, sizeof txt);
    assert_string_equal(txt, "Two\r\nlines");
    assert_int_equal(scalar(d, "SELECT count(*) FROM pubs WHERE domain LIKE '%\r%'"), 0);
    assert_int_equal(scalar(d, "SELECT count(*) FROM pubs WHERE authors IS NULL"), 1);
    assert_int_equal(import_text(d, "pubs", TEXT(pubs), 0, &r, &err, name), 0);
    assert_int_equal(r.added, 0);
    assert_int_equal(r.unchanged, 2);
}

static void test_events(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err = {""};
    char name[256], txt[64];
    static const char events[] = "date,cluster,label\n"
                                 "2024-03-01,fox,A100 nodes added\n"
                                 "2024-07-01,,allocation policy changed\n"
                                 "2024-07-01,fox,\n";
    assert_int_equal(import_text(d, "events", TEXT(events), 0, &r, &err, name), 0);
    assert_string_equal(r.format, "events-csv");
    assert_int_equal(r.added, 2);
    assert_int_equal(r.rejected, 1);
    text_of(d, "SELECT cluster FROM events WHERE label LIKE 'allocation%'", NULL, txt,
            sizeof txt);
    assert_string_equal(txt, "");
    assert_int_equal(import_text(d, "events", TEXT(events), 0, &r, &err, name), 0);
    assert_int_equal(r.added, 0);
    assert_int_equal(r.unchanged, 2);
    assert_int_equal(scalar(d, "SELECT count(*) FROM events"), 2);
}

/* Jobs of cluster fox: raw ids 100 and 101, an array task "7_3" (raw 108). */
static void put_jobs(TuDb *d)
{
    CpErr err = {""};
    StoreJobCounts c = {0, 0, 0};
    static const struct { const char *id; int64_t raw; } jobs[] = {
        {"100", 100}, {"101", 101}, {"7_3", 108}};
    assert_int_equal(store_begin(d->st, &err), 0);
    int64_t imp = store_import_begin(d->st, "sacct", "jobs.txt", "test", &err);
    assert_true(imp > 0);
    for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; i++) {
        CpJobRec j;
        jobrec_clear(&j);
        j.cluster = "fox";
        j.job_id = jobs[i].id;
        j.job_raw = jobs[i].raw;
        j.user = "alice";
        j.account = "vision";
        j.partition = "gpu";
        j.state = CP_ST_COMPLETED;
        j.state_raw = "COMPLETED";
        j.submit = 1714550400;
        j.start = 1714550400;
        j.end = 1714554000;
        j.elapsed = 3600;
        j.gpus = 1;
        assert_int_equal(store_job_put(d->st, imp, "", &j, &c, &err), 0);
    }
    assert_int_equal(store_commit(d->st, &err), 0);
    assert_int_equal(c.added, 3);
}

static void test_metrics_per_job(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err = {""};
    char name[256], want[400];
    static const char metrics[] = "job_id,gpu_mem_max_gib,gpu_util_mean,cluster\n"
                                  "100,37.5,81.2,fox\n"
                                  "7_3,12,,fox\n"
                                  "101,20,50,saga\n"
                                  "102,-1,50,fox\n"
                                  "103,,,fox\n";
    put_jobs(d);
    assert_int_equal(import_text(d, "gpu-metrics", TEXT(metrics), 0, &r, &err, name), 0);
    assert_string_equal(r.format, "gpu-metrics-csv");
    assert_int_equal(r.rows_read, 5);
    assert_int_equal(r.added, 3);
    assert_int_equal(r.rejected, 2);
    snprintf(want, sizeof want, "%s:6: field gpu_mem_max_gib: empty value", name);
    assert_string_equal(d->last_reject, want);
    assert_int_equal(scalar(d, "SELECT count(*) FROM gpu_metrics"), 3);
    assert_true(real_of(d, "SELECT gpu_mem_gib FROM jobs WHERE job_id=?1", "100") == 37.5);
    assert_float_equal(real_of(d, "SELECT gpu_util FROM jobs WHERE job_id=?1", "100"), 81.2, 1e-9);
    assert_true(real_of(d, "SELECT gpu_mem_gib FROM jobs WHERE job_id=?1", "7_3") == 12.0);
    assert_true(real_of(d, "SELECT gpu_mem_gib FROM jobs WHERE job_id=?1", "101") == -2);
    assert_int_equal(scalar(d, "SELECT count(*) FROM jobs WHERE gpu_mem_source=2"), 2);
    /* again: nothing added, nothing changed */
    assert_int_equal(import_text(d, "gpu-metrics", TEXT(metrics), 0, &r, &err, name), 0);
    assert_int_equal(r.added, 0);
    assert_int_equal(r.unchanged, 3);
    assert_int_equal(scalar(d, "SELECT count(*) FROM gpu_metrics"), 3);
    /* without a cluster column, --cluster names it; "" matches any */
    static const char bare[] = "job_id,gpu_mem_max_gib\n101,20\n";
    assert_int_equal(import_text(d, "gpu-metrics", TEXT(bare), 0, &r, &err, name), 0);
    assert_true(real_of(d, "SELECT gpu_mem_gib FROM jobs WHERE job_id=?1", "101") == 20.0);
    assert_int_equal(scalar(d, "SELECT count(*) FROM jobs WHERE gpu_mem_source=2"), 3);
}

/* The real Alibaba sample: 45,738 samples of 44 pods, reduced to one row
 * per pod (python3: max bytes / 2**30, samples per container_ip). */
static void test_metrics_series_alibaba(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err = {""};
    const char *path = tu_shared(ALIBABA);
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", path);
    assert_int_equal(import_file(d, "gpu-metrics", copy, 1, "alibaba", &r, &err), 0);
    assert_string_equal(r.format, "gpu-metrics-series-csv");
    assert_int_equal(r.rows_read, 45738);
    assert_int_equal(r.added, 44);
    assert_int_equal(r.rejected, 0);
    assert_int_equal(scalar(d, "SELECT count(*) FROM gpu_metrics WHERE cluster='alibaba'"), 44);
    assert_int_equal(scalar(d, "SELECT sum(samples) FROM gpu_metrics"), 45738);
    assert_int_equal(scalar(d, "SELECT count(*) FROM gpu_metrics WHERE samples=1441"), 24);
    const char *q = "SELECT gpu_mem_max_gib FROM gpu_metrics WHERE job_key=?1";
    assert_float_equal(real_of(d, q, "03dc060838ef05053bdea6d483cde7e5"), 39.643619791666666,
                       1e-9);
    assert_float_equal(real_of(d, q, "d344a049313e96d10493b3ed139612d8"), 46.906494140625, 1e-9);
    assert_float_equal(real_of(d, q, "0e1eea513e63bd1b3648013b6623ff0c"), 46.494384765625, 1e-9);
    assert_float_equal(real_of(d, q, "ad921d60486366258809553a3db49a4a"), 0.0, 1e-12);
    assert_int_equal(scalar(d, "SELECT samples FROM gpu_metrics "
                               "WHERE job_key='0e1eea513e63bd1b3648013b6623ff0c'"),
                     1440);
    assert_int_equal(scalar(d, "SELECT samples FROM gpu_metrics "
                               "WHERE job_key='ad921d60486366258809553a3db49a4a'"),
                     1);
    assert_float_equal(real_of(d, "SELECT sum(gpu_mem_max_gib) FROM gpu_metrics", NULL),
                       1452.6399047851564, 1e-6);
    assert_int_equal(import_file(d, "gpu-metrics", copy, 1, "alibaba", &r, &err), 0);
    assert_int_equal(r.added, 0);
    assert_int_equal(r.unchanged, 44);
    assert_int_equal(scalar(d, "SELECT count(*) FROM gpu_metrics"), 44);
}

/* A stray quote swallows the rest of the file: a clean error, not a
 * buffer the size of the file. */
static void test_record_too_large(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err = {""};
    char name[256], want[400];
    size_t n = (size_t)3 << 20;
    char *text = malloc(n);
    static const char head[] = "date,cluster,label\n2024-01-01,fox,\"open quote\n";
    memcpy(text, head, sizeof head - 1);
    for (size_t i = sizeof head - 1; i < n; i++)
        text[i] = i % 64 == 63 ? '\n' : 'x';
    assert_int_equal(import_text(d, "events", text, n, 0, &r, &err, name), -1);
    snprintf(want, sizeof want, "%s:2: record longer than 1048576 bytes (unterminated quote?)",
             name);
    assert_string_equal(err.msg, want);
    assert_int_equal(scalar(d, "SELECT count(*) FROM events"), 0);
    assert_int_equal(scalar(d, "SELECT count(*) FROM imports"), 0);
    free(text);
    static const char unclosed[] = "date,cluster,label\n2024-01-01,fox,\"open\n";
    assert_int_equal(import_text(d, "events", TEXT(unclosed), 0, &r, &err, name), -1);
    snprintf(want, sizeof want, "%s:2: quoted field not closed at end of file", name);
    assert_string_equal(err.msg, want);
}

static void test_empty_and_unknown(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err = {""};
    char name[256], want[400];
    assert_int_equal(import_text(d, "events", "", 0, 0, &r, &err, name), -1);
    snprintf(want, sizeof want, "%s: empty file (expected a header line)", name);
    assert_string_equal(err.msg, want);
    assert_int_equal(import_file(d, "events", "/nonexistent/e.csv", 0, NULL, &r, &err), -1);
    assert_string_equal(err.msg, "/nonexistent/e.csv: cannot open: No such file or directory");
    assert_int_equal(import_file(d, "bogus", "/dev/null", 0, NULL, &r, &err), -1);
    assert_int_equal(scalar(d, "SELECT count(*) FROM imports"), 0);
}

/* Shape: a roster saved by a spreadsheet in Latin-1 (group
 * "biologie-végétale"): refused with its line and field, nothing stored;
 * with --encoding latin1 converted, and every value stored is UTF-8. */
static void test_latin1_roster(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err = {""};
    char txt[128];
    const char *path = "tests/fixtures/roster_latin1.csv";
    assert_int_equal(import_file(d, "roster", path, 0, NULL, &r, &err), -1);
    assert_string_equal(err.msg, "tests/fixtures/roster_latin1.csv:2: field 2: not UTF-8 (byte "
                                 "0xE9 at column 11): if the file is Latin-1 or Windows-1252, "
                                 "give --encoding latin1 or cp1252");
    assert_int_equal(scalar(d, "SELECT count(*) FROM people"), 0);
    ImportOpts o;
    import_opts_init(&o);
    o.encoding = TEXTENC_LATIN1;
    assert_int_equal(import_csv(d->st, "roster", path, &o, &r, &err), 0);
    assert_int_equal(r.added, 2);
    text_of(d, "SELECT group_name FROM people WHERE user=?1", "ana", txt, sizeof txt);
    assert_string_equal(txt, "biologie-v\xc3\xa9g\xc3\xa9tale");
    assert_int_equal(scalar(d, "SELECT count(*) FROM groups WHERE name='biologie-v\xc3\xa9g\xc3\xa9tale'"), 1);
}

/* Shape: a CSV with a NUL byte inside a cell (a file mangled on the way):
 * refused, not cut short at the NUL. */
static void test_nul_in_cell(void **state)
{
    TuDb *d = *state;
    ImportResult r;
    CpErr err = {""};
    assert_int_equal(import_file(d, "roster", "tests/fixtures/roster_nul.csv", 0, NULL, &r, &err),
                     -1);
    assert_string_equal(err.msg, "tests/fixtures/roster_nul.csv:3: field 2: NUL byte at column 4");
    assert_int_equal(scalar(d, "SELECT count(*) FROM people"), 0);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, tu_db_setup, tu_db_teardown)
    const struct CMUnitTest tests[] = {
        T(test_roster),           T(test_roster_update),    T(test_missing_column),
        T(test_bad_date),         T(test_inventory),        T(test_strict_rollback),
        T(test_crlf_bom_quotes),  T(test_events),           T(test_metrics_per_job),
        T(test_metrics_series_alibaba), T(test_record_too_large), T(test_empty_and_unknown),
        T(test_latin1_roster),    T(test_nul_in_cell),
    };
#undef T
    return cmocka_run_group_tests_name("csv_imports", tests, NULL, NULL);
}
