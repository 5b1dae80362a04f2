/* reports: the Markdown, CSV and SVG writers (escaping, spreadsheet
 * safety, pseudonyms), and golden sections of a report over a small site
 * built here.
 *
 * The site: cluster c1 with 4 A100 (80 GiB) from 2023-01-01. Roster: ann
 * (lab|a, vision, from 2022-09-01), bob (lab|a), cy (=HYPERLINK("x"), an
 * injection attempt as a group name, physics). Jobs: ann one A100 for 10 h
 * on the 1st of each month of 2023 and 2024; bob two A100 for 5 h on the
 * 10th of each month of 2024; cy one A100 for 20 h on the 20th of every
 * month of 2024. Publications: lab|a 2 in 2024, the other group 1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/cp.h"
#include "data/ingest/import.h"
#include "data/plan/plan.h"
#include "data/store/store.h"
#include "reports/anon.h"
#include "reports/csvw.h"
#include "data/ingest/catalog.h"
#include "reports/mdfit.h"
#include "reports/mdhtml.h"
#include "reports/mdtable.h"
#include "reports/mdw.h"
#include "reports/report.h"
#include "reports/svg.h"
#include "tests/lib/testdb.h"
#include "tests/lib/testutil.h"

/* ---- capturing a writer's output ---- */

typedef struct Cap {
    FILE *f;
    char *buf;
    size_t n;
} Cap;

static void cap_open(Cap *c)
{
    c->buf = NULL;
    c->n = 0;
    c->f = open_memstream(&c->buf, &c->n);
    assert_non_null(c->f);
}

/* The text written; caller frees. */
static char *cap_close(Cap *c)
{
    fclose(c->f);
    return c->buf;
}

static char *csv_of(const char *s)
{
    Cap c;
    cap_open(&c);
    csvw_text(c.f, s);
    return cap_close(&c);
}

static char *num_of(double v)
{
    Cap c;
    cap_open(&c);
    csvw_num(c.f, v);
    return cap_close(&c);
}

#define EXPECT_CSV(in, want)                                                                  \
    do {                                                                                      \
        char *got_ = csv_of(in);                                                              \
        assert_string_equal(got_, want);                                                      \
        free(got_);                                                                           \
    } while (0)

#define EXPECT_NUM(v, want)                                                                   \
    do {                                                                                      \
        char *got_ = num_of(v);                                                               \
        assert_string_equal(got_, want);                                                      \
        free(got_);                                                                           \
    } while (0)

/* ---- CSV ---- */

static void test_csv_neutralised(void **state)
{
    (void)state;
    EXPECT_CSV("=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\"");
    EXPECT_CSV("+cmd", "\"'+cmd\"");
    EXPECT_CSV("@SUM(A1)", "\"'@SUM(A1)\"");
    EXPECT_CSV("-2+3", "\"'-2+3\"");
    EXPECT_CSV("-cmd|' /C calc'!A0", "\"'-cmd|' /C calc'!A0\"");
    EXPECT_CSV("\t=1", "\"'?=1\"");  /* a tab: neutralised, then cleaned */
    EXPECT_CSV("\r=1", "\"'?=1\"");
    /* plain numbers in text cells are numbers, not formulas */
    EXPECT_CSV("-3.5", "-3.5");
    EXPECT_CSV("-12", "-12");
    EXPECT_CSV("42", "42");
    assert_int_equal(csvw_risky("-3.5"), 0);
    assert_int_equal(csvw_risky("-3.5e2"), 1);
    assert_int_equal(csvw_risky("-"), 1);
    assert_int_equal(csvw_risky(""), 0);
    assert_int_equal(csvw_risky("a=b"), 0);
}

static void test_csv_quoting(void **state)
{
    (void)state;
    EXPECT_CSV("plain", "plain");
    EXPECT_CSV("", "");
    EXPECT_CSV("a,b", "\"a,b\"");
    EXPECT_CSV("say \"hi\"", "\"say \"\"hi\"\"\"");
    EXPECT_CSV("two\nlines", "\"two?lines\""); /* no control character reaches the file */
    EXPECT_CSV("caf\xc3\xa9", "caf\xc3\xa9"); /* UTF-8 kept */
    EXPECT_CSV("bad\xff", "bad?");
    EXPECT_CSV("esc\x1b[31m", "esc?[31m");
    EXPECT_NUM(-3.5, "-3.5");
    EXPECT_NUM(1234567.25, "1234567.25");
    EXPECT_NUM(NAN, "");
    EXPECT_NUM(-0.0, "0");
    EXPECT_NUM(0.1 + 0.2, "0.3");
    EXPECT_NUM(2.5e-7, "0.000000250000");
}

/* ---- Markdown, SVG, pseudonyms ---- */

static char *fit(const char *md)
{
    Cap c;
    cap_open(&c);
    mdfit(c.f, md, strlen(md));
    return cap_close(&c);
}

/* Units repeated in every cell move into the title; a column with a bare
 * number, another unit or a text keeps its cells; text outside tables is
 * untouched. */
static void test_mdfit_units(void **state)
{
    (void)state;
    char *got = fit("Text 12 GPUs.\n\n"
                    "| Year | Demand | Share | Mixed | Name | Wait before |\n"
                    "| :--- | ---: | ---: | ---: | :--- | ---: |\n"
                    "| y1 | 12.50 GPUs | 20.0 % (measured 8.0 %) | 3 h | 12 monkeys | no data before |\n"
                    "| y2 | n/a | 5.0 % | 4 | b | 2.5 h |\n"
                    "\nafter\n");
    assert_string_equal(got, "Text 12 GPUs.\n\n"
                             "| Year | Demand (GPUs) | Share (%) | Mixed | Name | Wait before (h) |\n"
                             "| :---- | ------: | -------------------: | -----: | :---------- | ------: |\n"
                             "| y1 | 12.50 | 20.0 (measured 8.0) | 3 h | 12 monkeys | no data before |\n"
                             "| y2 | n/a | 5.0 | 4 | b | 2.5 |\n"
                             "\nafter\n");
    free(got);
    /* a title that names its unit already keeps it once */
    got = fit("| GPU-h before | x |\n| ---: | :--- |\n| 3 GPU-h | a |\n");
    assert_string_equal(got, "| GPU-h before | x |\n| ------: | :--- |\n| 3 | a |\n");
    free(got);
}

/* A table wider than MDFIT_WIDTH is split, each part led by the key
 * columns, each no wider than the limit; escaped pipes stay in their cell. */
static void test_mdfit_split(void **state)
{
    (void)state;
    char md[4096];
    size_t n = 0;
    n += (size_t)snprintf(md + n, sizeof md - n, "| Group | Year |");
    for (int c = 0; c < 12; c++)
        n += (size_t)snprintf(md + n, sizeof md - n, " Column%02d |", c);
    n += (size_t)snprintf(md + n, sizeof md - n, "\n| :--- | :--- |");
    for (int c = 0; c < 12; c++)
        n += (size_t)snprintf(md + n, sizeof md - n, " ---: |");
    n += (size_t)snprintf(md + n, sizeof md - n, "\n| lab\\|a | y1 |");
    for (int c = 0; c < 12; c++)
        n += (size_t)snprintf(md + n, sizeof md - n, " %d.25 people |", 100000 + c);
    snprintf(md + n, sizeof md - n, "\n");
    char *got = fit(md);
    /* widths: Group 5 and Year 4 (+ 3 each: 15), each column 9 ("100000.25") + 3: 8
     * columns in the 105 left of 120, then the other 4 */
    assert_int_equal(MDFIT_WIDTH, 120);
    assert_string_equal(got,
        "| Group | Year | Column00 (people) | Column01 (people) | Column02 (people) | "
        "Column03 (people) | Column04 (people) | Column05 (people) | Column06 (people) | "
        "Column07 (people) |\n"
        "| :----- | :---- | ---------: | ---------: | ---------: | ---------: | ---------: | "
        "---------: | ---------: | ---------: |\n"
        "| lab\\|a | y1 | 100000.25 | 100001.25 | 100002.25 | 100003.25 | 100004.25 | "
        "100005.25 | 100006.25 | 100007.25 |\n"
        "\n"
        "| Group | Year | Column08 (people) | Column09 (people) | Column10 (people) | "
        "Column11 (people) |\n"
        "| :----- | :---- | ---------: | ---------: | ---------: | ---------: |\n"
        "| lab\\|a | y1 | 100008.25 | 100009.25 | 100010.25 | 100011.25 |\n");
    free(got);
}

/* The HTML: escaped text, tables with alignment, title block, strong and
 * code, a list; nothing from the text becomes markup. */
static void test_mdhtml(void **state)
{
    (void)state;
    const char md[] = "---\ntitle: \"GPU <plan>\"\ndate: \"2026-01-02\"\nheader-includes: |\n"
                      "  <style>x</style>\n---\n\n"
                      "## 1. A & B\n\nScenario **b\\*se** `code` <script>\n"
                      "second line\n\n- item \\<b\\>\n\n"
                      "| Name | N (GPUs) |\n| :--- | ---: |\n| a\\|b | 3 |\n";
    Cap c;
    cap_open(&c);
    CpErr err;
    assert_int_equal(mdhtml(c.f, md, strlen(md), ".", &err), 0);
    char *got = cap_close(&c);
    assert_non_null(strstr(got, "<title>GPU &lt;plan&gt;</title>"));
    assert_non_null(strstr(got, "<p class=\"date\">2026-01-02</p>"));
    assert_non_null(strstr(got, "@page { size: A4 portrait;"));
    assert_null(strstr(got, "<style>x</style>"));
    assert_non_null(strstr(got, "<h2>1. A &amp; B</h2>"));
    assert_non_null(strstr(got, "<p>Scenario <strong>b*se</strong> <code>code</code> "
                                "&lt;script&gt;\nsecond line</p>"));
    assert_non_null(strstr(got, "<ul>\n<li>item &lt;b&gt;</li>\n</ul>"));
    assert_non_null(strstr(got, "<tr><th>Name</th><th style=\"text-align:right\">N (GPUs)</th>"));
    assert_non_null(strstr(got, "<tr><td>a|b</td><td style=\"text-align:right\">3</td></tr>"));
    assert_null(strstr(got, "<script>"));
    free(got);
    /* an image that is not there: an error naming it */
    const char img[] = "![chart](nowhere/x.svg)\n";
    cap_open(&c);
    assert_int_equal(mdhtml(c.f, img, strlen(img), "/nonexistent", &err), -1);
    free(cap_close(&c));
    assert_non_null(strstr(err.msg, "/nonexistent/nowhere/x.svg: cannot read"));
}

/* The one table reader: cells trimmed with their escapes, short rows
 * padded and long ones cut to the header's width, the alignment, and the
 * reader left on the first line after the table; a line of pipes without
 * an alignment line under it is no table. */
static void test_mdtable(void **state)
{
    (void)state;
    const char md[] = "| A | B\\|c |  C |\n| :--- | ---: |---:|\n| x |\n| 1 | 2 | 3 | 4 |\nafter\n";
    MdLines l = {md, strlen(md), 0};
    const char *s;
    size_t n;
    MdTable t;
    assert_true(mdlines_next(&l, &s, &n));
    assert_int_equal(mdtable_read(&l, s, n, &t), 1);
    assert_int_equal(t.ncols, 3);
    assert_int_equal(t.nrows, 3);
    assert_string_equal(t.rows[0][1], "B\\|c");
    assert_string_equal(t.rows[0][2], "C");
    assert_int_equal(t.right[0], 0);
    assert_int_equal(t.right[1], 1);
    assert_int_equal(t.right[2], 1);
    assert_string_equal(t.rows[1][0], "x");
    assert_string_equal(t.rows[1][2], "");
    assert_string_equal(t.rows[2][2], "3");
    mdtable_free(&t);
    assert_true(mdlines_next(&l, &s, &n));
    assert_int_equal(n, 5);
    assert_memory_equal(s, "after", 5);
    assert_false(mdlines_next(&l, &s, &n));
    /* no alignment line: not a table, the reader where it was */
    const char text[] = "| a | b |\n| c | d |\n";
    MdLines l2 = {text, strlen(text), 0};
    assert_true(mdlines_next(&l2, &s, &n));
    assert_int_equal(mdtable_read(&l2, s, n, &t), 0);
    assert_int_equal(l2.pos, 10);
    /* the HTML reads it as text */
    Cap c;
    CpErr err;
    cap_open(&c);
    assert_int_equal(mdhtml(c.f, text, strlen(text), ".", &err), 0);
    char *got = cap_close(&c);
    assert_non_null(strstr(got, "<p>| a | b |\n| c | d |</p>"));
    assert_null(strstr(got, "<table>"));
    free(got);
}

static void test_md_escape(void **state)
{
    (void)state;
    Cap c;
    cap_open(&c);
    mdw_text(c.f, "a|b *c* _d_ [e](f) <g> `h` $i$ @j #k x\x07y\xc2\x85z");
    char *got = cap_close(&c);
    assert_string_equal(got, "a\\|b \\*c\\* \\_d\\_ \\[e\\](f) \\<g\\> \\`h\\` \\$i\\$ \\@j \\#k "
                             "x?y??z");
    free(got);
    char buf[64];
    mdw_num(buf, sizeof buf, -0.001, 2, "GPUs");
    assert_string_equal(buf, "0.00 GPUs");
    mdw_num(buf, sizeof buf, NAN, 2, "GPUs");
    assert_string_equal(buf, "n/a");
    mdw_num(buf, sizeof buf, 35.06, 1, "%");
    assert_string_equal(buf, "35.1 %");
    cap_open(&c);
    const char *cells[] = {"x|y", "", "3 h"};
    mdw_row(c.f, cells, 3);
    got = cap_close(&c);
    assert_string_equal(got, "| x\\|y |   | 3 h |\n");
    free(got);
}

static void test_svg_and_anon(void **state)
{
    (void)state;
    Cap c;
    cap_open(&c);
    svg_text(c.f, "<a & \"b\" 'c'>\x01");
    char *got = cap_close(&c);
    assert_string_equal(got, "&lt;a &amp; &quot;b&quot; &apos;c&apos;&gt;?");
    free(got);
    char a[32], b[32], x[32];
    anon_name("group", "chen-lab", a, sizeof a);
    anon_name("group", "chen-lab", b, sizeof b);
    anon_name("group", "chen-lab2", x, sizeof x);
    assert_string_equal(a, b);
    assert_string_not_equal(a, x);
    assert_int_equal(strlen(a), strlen("group-") + 6);
    assert_memory_equal(a, "group-", 6);
    assert_string_equal(anon_maybe(1, "group", "all", x, sizeof x), "all");
    assert_string_equal(anon_maybe(0, "group", "chen-lab", x, sizeof x), "chen-lab");
}

/* ---- the fixture site ---- */

/* Import text as kind into st; any error or rejected line fails the test. */
static void import_kind(Store *st, const char *kind, const char *text)
{
    ImportResult r;
    CpErr err;
    if (tu_import_text(st, kind, text, strlen(text), NULL, &r, &err, NULL, 0) < 0)
        fail_msg("import %s: %s", kind, err.msg);
    assert_int_equal(r.rejected, 0);
}

static void add_job(CpBuf *b, int id, const char *user, const char *acct, int y, int mo, int d,
                    int hours, int gpus)
{
    char line[512];
    int n = snprintf(line, sizeof line,
                     "%d|%s|%s|gpu|COMPLETED|%04d-%02d-%02dT08:00:00|%04d-%02d-%02dT10:00:00|"
                     "%04d-%02d-%02dT%02d:00:00|%d|billing=1,gres/gpu:a100=%d|c1|4\n",
                     id, user, acct, y, mo, d, y, mo, d, y, mo, d, 10 + hours, hours * 3600,
                     gpus);
    cpbuf_append(b, line, (size_t)n);
}

static char *site_jobs(void)
{
    CpBuf b;
    int id = 100;
    cpbuf_init(&b);
    const char *hdr = "JobID|User|Account|Partition|State|Submit|Start|End|ElapsedRaw|AllocTRES|"
                      "Cluster|NCPUS\n";
    cpbuf_append(&b, hdr, strlen(hdr));
    for (int y = 2023; y <= 2024; y++)
        for (int m = 1; m <= 12; m++) {
            add_job(&b, ++id, "ann", "acct-a", y, m, 1, 10, 1);
            if (y == 2024) {
                add_job(&b, ++id, "bob", "acct-a", y, m, 10, 5, 2);
                add_job(&b, ++id, "cy", "acct-c", y, m, 20, 12, 1);
            }
        }
    cpbuf_append(&b, "", 1);
    char *p = tu_write_temp(b.data, strlen(b.data));
    cpbuf_done(&b);
    return p;
}

/* tu_db_setup, then the fixture site above imported into it. */
static int site_setup(void **state)
{
    tu_db_setup(state);
    TuDb *d = *state;
    CpErr err;
    import_kind(d->st, "roster",
                "user,group,role,domain,start,end\n"
                "ann,lab|a,phd,vision,2022-09-01,\n"
                "bob,lab|a,postdoc,vision,2022-09-01,\n"
                "cy,\"=HYPERLINK(\"\"x\"\")\",phd,physics,2022-09-01,\n");
    import_kind(d->st, "inventory",
                "cluster,gpu_model,gpus,gpu_mem_gib,from,to,relative_speed\n"
                "c1,a100,4,80,2023-01-01,,1.0\n");
    import_kind(d->st, "pubs",
                "year,group,title,domain\n"
                "2024,lab|a,Seeing things,vision\n"
                "2024,lab|a,Seeing more,vision\n"
                "2024,\"=HYPERLINK(\"\"x\"\")\",Forces,physics\n");
    char *jobs = site_jobs();
    ImportOpts o;
    ImportResult r;
    import_opts_init(&o);
    assert_int_equal(import_sacct(d->st, jobs, &o, &r, &err), 0);
    assert_int_equal(r.added, 48);
    unlink(jobs);
    free(jobs);
    return 0;
}

/* An import's rejected line, appended to the buffer ctx (1024 bytes). */
static void collect_msg(void *ctx, const char *msg)
{
    char *buf = ctx;
    size_t n = strlen(buf);
    snprintf(buf + n, 1024 - n, "%s\n", msg);
}

static char *section(Store *st, const ReportOpts *o, int s)
{
    CpErr err;
    Report *r = report_new(st, o, &err);
    if (!r)
        fail_msg("report_new: %s", err.msg);
    Cap c;
    cap_open(&c);
    assert_int_equal(report_section(r, s, c.f, NULL, "report_files", &err), 0);
    report_free(r);
    char *got = cap_close(&c);
    if (getenv("REPORTS_DUMP"))
        fprintf(stderr, "----- section %d\n%s-----\n", s, got);
    return got;
}

static const char golden_domains[] =
    "## 2. Research domains\n"
    "\n"
    "Share of the GPU-hours used per research domain, year by year (a domain is the roster's, else its group's):\n"
    "\n"
    "![Share of GPU-hours per domain by year](report_files/domains.svg)\n"
    "\n"
    "### GPU-hours and researchers per domain\n"
    "\n"
    "| period | domain | GPU-h | share | researchers | active users | GPU-h per researcher |\n"
    "| :--- | :--- | ---: | ---: | ---: | ---: | ---: |\n"
    "| 2023 | physics | 0 GPU-h | 0.0 % | 1 | 0 | 0.0 GPU-h |\n"
    "| 2023 | vision | 120 GPU-h | 100.0 % | 2 | 1 | 60.0 GPU-h |\n"
    "| 2024 (partial: to 20 Dec) | physics | 144 GPU-h | 37.5 % | 1 | 1 | 144.0 GPU-h |\n"
    "| 2024 (partial: to 20 Dec) | vision | 240 GPU-h | 62.5 % | 2 | 2 | 120.0 GPU-h |\n"
    "\n"
    "### Publications and GPU-hours per publication\n"
    "\n"
    "| year | domain | publications | GPU-h | GPU-h per publication |\n"
    "| :--- | :--- | ---: | ---: | ---: |\n"
    "| 2024 (partial: to 20 Dec) | physics | 1 | 144 GPU-h | 144 GPU-h |\n"
    "| 2024 (partial: to 20 Dec) | vision | 2 | 240 GPU-h | 120 GPU-h |\n"
    "\n";

static void test_golden_domains(void **state)
{
    TuDb *d = *state;
    ReportOpts o = {.scenario = NULL};
    char *got = section(d->st, &o, REPORT_DOMAINS);
    assert_string_equal(got, golden_domains);
    free(got);
}

static const char golden_peers[] =
    "## 6. Other institutes\n"
    "\n"
    "GPUs per researcher side by side (ours: the GPUs in service and the researchers on the roster in the latest year of the data).\n"
    "\n"
    "| Institution | GPUs | Researchers | GPUs per researcher |\n"
    "| :--- | ---: | ---: | ---: |\n"
    "| this institute | 4 GPUs | 3 people | 1.333 GPUs |\n"
    "| Inst\\|A | 100 GPUs | 50 people | 2.000 GPUs |\n"
    "| Inst, B | 30 GPUs | 60 people | 0.500 GPUs |\n"
    "\n"
    "![GPUs per researcher by institution](report_files/peers.svg)\n"
    "\n";

static void test_golden_peers(void **state)
{
    TuDb *d = *state;
    char *peers = tu_write_temp("institution,gpus,researchers\n"
                                "Inst|A,100,50\n"
                                "\"Inst, B\",30,60\n",
                                59);
    ReportOpts o = {.peers_csv = peers};
    char *got = section(d->st, &o, REPORT_PEERS);
    assert_string_equal(got, golden_peers);
    free(got);
    unlink(peers);
    free(peers);
}

/* With --anonymize no name of a user or group is left in any section. */
static void test_anonymized(void **state)
{
    TuDb *d = *state;
    ReportOpts o = {.anonymize = 1};
    for (int s = REPORT_FIRST; s <= REPORT_NSECTIONS; s++) {
        char *got = section(d->st, &o, s);
        assert_null(strstr(got, "lab\\|a"));
        assert_null(strstr(got, "HYPERLINK"));
        assert_null(strstr(got, "| ann "));
        free(got);
    }
}

/* The first page on the site: 2024's use 384 GPU-h (ann 12 x 10 h, bob
 * 12 x 5 h x 2, cy 12 x 12 h) over 1 Jan 08:00 to 20 Dec 22:00 (354.6
 * days): 0.045 GPU-eq against 4 a100 (speed 1); the backtest's cuts
 * 2023-07..2023-12 (6 months before, the first counted as it begins on its
 * first day; 12 after). The need-based purchase and the per-class gap
 * table are gone (their classes did not nest); no retired model is named. */
static void test_first_page(void **state)
{
    TuDb *d = *state;
    ReportOpts o = {0};
    char *got = section(d->st, &o, REPORT_FIRST);
    const char *want[] = {
        "## The decision on one page\n\n",
        "(the reference model = 1.0, section 1). **Today** (2024, 11.7 months of data): use 0.05 GPU-eq on "
        "average against a capacity of 4.00 GPU-eq.\n",
        "| Year | Need | Need p10-p90 | Need p80 | Capacity | Gap at p80 |\n",
        "### What each option does to waiting\n",
        "The model was refit at 6 monthly cuts of the past",
        "under-forecast by"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(got, want[i]))
            fail_msg("first page lacks '%s' in:\n%s", want[i], got);
    assert_non_null(strstr(got, "| y1 (2024-2025) | "));
    assert_non_null(strstr(got, " | 4.00 GPU-eq | -3."));
    assert_null(strstr(got, "| To 24 GiB"));
    assert_null(strstr(got, "Memory class"));
    free(got);
    /* the page reads the rolling backtest plan_build ran for the ranges: the same cuts,
     * figures and last cut as the backtest run on its own (capplan project --backtest) */
    PlanOpts po = {0};
    CpErr err;
    Plan *p = plan_build(d->st, &po, &err);
    assert_non_null(p);
    PlanBacktest b;
    assert_int_equal(plan_backtest(d->st, &po, &b, &err), 0);
    assert_non_null(p->bt);
    assert_int_equal(b.ncuts, 6); /* 2023-07..2023-12 */
    assert_int_equal(p->bt->ncuts, b.ncuts);
    assert_int_equal(p->bt->cut, b.cut);
    assert_int_equal(p->bt->calib.ncuts, p->bt_cuts);
    for (int i = 0; i < b.ncuts; i++) {
        assert_int_equal(p->bt->cuts[i].cut, b.cuts[i].cut);
        assert_true(p->bt->cuts[i].actual == b.cuts[i].actual);
        assert_true(p->bt->cuts[i].model == b.cuts[i].model);
        assert_true(p->bt->cuts[i].err_model == b.cuts[i].err_model);
    }
    assert_true(p->bt->mae_model == b.mae_model && p->bt->bias_model == b.bias_model);
    plan_backtest_free(&b);
    plan_free(p);
}

/* svg: series colours as given, the band and the capacity line named, event
 * markers in SVG_MARK_COLOUR, which no palette colour is. */
static void test_svg_layers(void **state)
{
    (void)state;
    const char *x[] = {"2024", "y1 2025-26"};
    const char *series[] = {"used", "need"};
    const char *colors[] = {"#e6550d", "#2171b5"};
    const double v[] = {3, NAN, NAN, 5}, lo[] = {NAN, 4}, hi[] = {NAN, 7}, cap[] = {4, 4};
    const SvgMark m[] = {{0.5, 1, "upgrade"}};
    SvgChart ch = {.kind = SVG_STACKED, .title = "t", .unit = "GPU-eq", .x = x, .nx = 2,
                   .series = series, .ns = 2, .v = v, .marks = m, .nmarks = 1, .colors = colors,
                   .band_lo = lo, .band_hi = hi, .band_name = "need p10-p90", .line = cap,
                   .line_name = "capacity"};
    Cap c;
    cap_open(&c);
    svg_write(c.f, &ch);
    char *got = cap_close(&c);
    assert_non_null(strstr(got, "fill=\"#e6550d\" class=\"series\" data-series=\"used\"><title>used: 3<"));
    assert_non_null(strstr(got, "fill=\"#2171b5\" class=\"series\" data-series=\"need\"><title>need: 5<"));
    assert_non_null(strstr(got, "data-series=\"band\""));
    assert_non_null(strstr(got, "stroke=\"#000000\" stroke-width=\"2.5\" class=\"series\" data-series=\"line\""));
    assert_non_null(strstr(got, "stroke=\"" SVG_MARK_COLOUR "\" stroke-dasharray=\"4 3\" class=\"mark\""));
    assert_non_null(strstr(got, ">need p10-p90</text>"));
    assert_non_null(strstr(got, ">capacity</text>"));
    assert_non_null(strstr(got, ">y1 2025-26</text>"));
    for (size_t i = 0; i < SVG_NPALETTE; i++)
        assert_string_not_equal(svg_colour(i), SVG_MARK_COLOUR);
    /* the y axis reaches the band's top (7): ticks to 8 */
    assert_non_null(strstr(got, "text-anchor=\"end\" font-size=\"11\">8</text>"));
    free(got);
}

/* Section 9: when, by what, from where; the window, the cluster, the
 * reference GPU, each import with its rows (the site's, counted by hand). */
static void test_sources(void **state)
{
    TuDb *d = *state;
    ReportOpts o = {.version = "9.9", .db_path = "site.db", .now = 1735776000}; /* 2025-01-02 */
    char *got = section(d->st, &o, REPORT_SOURCES);
    assert_non_null(strstr(got, "## 10. Data sources and method\n\nWritten on 2025-01-02 by "
                                "capplan 9.9 from the database site.db. The accounting covers "
                                "2023-01-01 to 2024-12-20 "));
    assert_non_null(strstr(got, "relative speed 1: a100 (80 GiB)."));
    assert_non_null(strstr(got, "| c1 | 2023-01 | 2024-12 | 4 GPUs |\n"));
    assert_non_null(strstr(got, "Scenario **base**: every parameter as measured."));
    /* and the span of the jobs each import brought, kept at import (issue 14) */
    const char *rows[] = {"| roster | ", "| roster-csv | ", "| 3 | 3 | 0 | 0 |\n",
                          "| inventory-csv | ", "| 1 | 1 | 0 | 0 |\n", "| pubs-csv | ",
                          "| sacct | ", "| 48 | 48 | 0 | 0 |\n", "### Jobs each import brought",
                          " | 2023-01-01 | 2024-12-20 |\n"};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (!strstr(got, rows[i]))
            fail_msg("no '%s' in:\n%s", rows[i], got);
    free(got);
    /* anonymised: neither the database nor the file names */
    o.anonymize = 1;
    got = section(d->st, &o, REPORT_SOURCES);
    assert_null(strstr(got, "site.db"));
    assert_null(strstr(got, ".tmp"));
    assert_non_null(strstr(got, "file names left out"));
    free(got);
}

/* import catalog: bad rows named by line and field, good rows land once;
 * strict rejects the file and leaves the table as it was. */
static void test_catalog(void **state)
{
    TuDb *d = *state;
    const char text[] = "model,mem_gib,relative_speed,tdp_w,price\n"
                        "H100 SXM,80,5,700,30000\n"
                        "L40S,48,2.2,350,9000\n"
                        "B200,192,x,1000,45000\n"
                        "L4,24,0.9,,\n"
                        "L40S,48,2.2,350,9000\n"
                        "A2,0,0.3,60,1000\n";
    char *p = tu_write_temp(text, strlen(text));
    char msgs[1024] = "";
    ImportOpts o;
    import_opts_init(&o);
    o.reject = collect_msg;
    o.reject_ctx = msgs;
    ImportResult r;
    CpErr err;
    assert_int_equal(catalog_import(d->st, p, &o, &r, &err), 0);
    assert_int_equal(r.rows_read, 6);
    assert_int_equal(r.added, 3);
    assert_int_equal(r.rejected, 3);
    char want[1024];
    snprintf(want, sizeof want,
             "%s:4: field relative_speed: bad number 'x'\n"
             "%s:6: field model: model 'L40S' listed twice\n"
             "%s:7: field mem_gib: 0 out of range (above 0, at most 4096)\n",
             p, p, p);
    assert_string_equal(msgs, want);
    /* again: nothing added, nothing changed */
    msgs[0] = '\0';
    assert_int_equal(catalog_import(d->st, p, &o, &r, &err), 0);
    assert_int_equal(r.added + r.updated, 0);
    assert_int_equal(r.unchanged, 3);
    CatalogGpu *v;
    size_t n;
    assert_int_equal(catalog_load(d->st, &v, &n, &err), 0);
    assert_int_equal(n, 3);
    assert_string_equal(v[0].model, "H100 SXM");
    assert_true(v[0].mem_gib == 80 && v[0].relative_speed == 5 && v[0].tdp_w == 700);
    assert_true(v[0].price == 30000 && strcmp(v[0].currency, "EUR") == 0);
    assert_string_equal(v[1].model, "L4");
    assert_true(v[1].tdp_w == -1 && v[1].price == -1);
    catalog_free(v, n);
    /* strict: the first bad row rejects the file; the table keeps its rows */
    const char bad[] = "model,mem_gib,relative_speed,price,currency\nX1,16,1,5,EUR\nX2,16,1,5,eur\n";
    char *p2 = tu_write_temp(bad, strlen(bad));
    o.strict = 1;
    assert_int_equal(catalog_import(d->st, p2, &o, &r, &err), -1);
    snprintf(want, sizeof want, "%s:3: field currency: bad currency 'eur' (three capital letters: EUR)", p2);
    assert_string_equal(err.msg, want);
    assert_int_equal(catalog_load(d->st, &v, &n, &err), 0);
    assert_int_equal(n, 3);
    catalog_free(v, n);
    unlink(p), unlink(p2);
    free(p), free(p2);
}

/* The CSV files: each has its header; the injection group is neutralised. */
static void test_csv_export(void **state)
{
    TuDb *d = *state;
    CpErr err;
    ReportOpts o = {.scenario = NULL};
    Report *r = report_new(d->st, &o, &err);
    assert_non_null(r);
    char *dir = tu_temp_path("-csv");
    assert_int_equal(report_write_csv(r, dir, &err), 0);
    report_free(r);
    const char *const *files = report_csv_files();
    int seen_injection = 0;
    for (size_t i = 0; files[i]; i++) {
        char path[1200], line[4096];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        assert_non_null(fgets(line, sizeof line, f));
        assert_non_null(strstr(line, "\r\n"));
        while (fgets(line, sizeof line, f)) {
            assert_null(strstr(line, ",=HYPERLINK"));
            assert_true(strncmp(line, "=", 1) != 0);
            seen_injection += strstr(line, "\"'=HYPERLINK(\"\"x\"\")\"") != NULL;
        }
        fclose(f);
        unlink(path);
    }
    assert_true(seen_injection > 0);
    rmdir(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest unit[] = {
        cmocka_unit_test(test_csv_neutralised),
        cmocka_unit_test(test_csv_quoting),
        cmocka_unit_test(test_md_escape),
        cmocka_unit_test(test_mdfit_units),
        cmocka_unit_test(test_mdfit_split),
        cmocka_unit_test(test_mdhtml),
        cmocka_unit_test(test_mdtable),
        cmocka_unit_test(test_svg_and_anon),
        cmocka_unit_test(test_svg_layers),
    };
    const struct CMUnitTest site[] = {
        cmocka_unit_test(test_golden_domains),
        cmocka_unit_test(test_golden_peers),
        cmocka_unit_test(test_anonymized),
        cmocka_unit_test(test_csv_export),
        cmocka_unit_test(test_sources),
        cmocka_unit_test(test_first_page),
        cmocka_unit_test(test_catalog),
    };
    int rc = cmocka_run_group_tests_name("reports", unit, NULL, NULL);
    return rc | cmocka_run_group_tests_name("reports_site", site, site_setup, tu_db_teardown);
}
