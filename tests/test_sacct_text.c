/* sacct's text shapes, read from the real files in ../shared/data, steps
 * folded. Expected figures were computed independently with python3 over
 * the same files (see the comment above each test). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "data/ingest/fold.h"
#include "data/ingest/sacct_text.h"
#include "data/ingest/textenc.h"
#include "tests/lib/testutil.h"

static int64_t last_comments; /* comment lines the last read skipped */

/* Read path (in encoding enc) through sacct_text_read and fold into s.
 * Returns the reader's rc. */
static int read_file_enc(const char *path, TextEnc enc, const char *delim, const char *fields,
                         TuSink *s, int strict, CpErr *err)
{
    CpReadCtx rc;
    tu_read_ctx(&rc, s, path);
    rc.strict = strict;
    Fold *fold = fold_new(rc.sink);
    rc.sink = fold_sink(fold);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    FILE *in = enc == TEXTENC_UTF8 ? f : textenc_open(f, enc);
    assert_non_null(in);
    char fmt[64];
    int r = sacct_text_read(in, &rc, delim, fields, fmt, sizeof fmt, err);
    if (r == 0)
        r = fold_flush(fold, err);
    if (in != f)
        fclose(in);
    fclose(f);
    fold_free(fold);
    last_comments = rc.rows_comment;
    return r;
}

static int read_file(const char *path, const char *delim, const char *fields, TuSink *s,
                     int strict, CpErr *err)
{
    return read_file_enc(path, TEXTENC_UTF8, delim, fields, s, strict, err);
}

static int read_text(const char *text, const char *delim, const char *fields, TuSink *s,
                     int strict, CpErr *err)
{
    char *p = tu_write_temp(text, strlen(text));
    int r = read_file(p, delim, fields, s, strict, err);
    unlink(p);
    free(p);
    return r;
}

/* python3: 60 lines, 19 job rows (job 19 twice with -D), 18 distinct ids;
 * GPUs 6:1 7:2 8:2 (a100); MaxRSS of 9.batch 212172K, 10.batch 417112K in this -D capture. */
static void test_sandbox_duplicates(void **state)
{
    (void)state;
    TuSink s;
    CpErr err;
    assert_int_equal(read_file(tu_shared("data/slurm-sandbox/sacct_wide_D.psv"), NULL, NULL, &s,
                               1, &err),
                     0);
    assert_int_equal(s.n, 19);
    const TuJob *a = tu_find(&s, "19", 1), *b = tu_find(&s, "19", 2);
    assert_non_null(a);
    assert_non_null(b);
    assert_true(a != b);
    assert_int_equal(a->rec.state, CP_ST_PREEMPTED);
    assert_int_equal(b->rec.state, CP_ST_COMPLETED);
    assert_true(b->rec.submit > a->rec.submit);
    assert_int_equal(b->rec.elapsed, 20);
    const TuJob *j6 = tu_find(&s, "6", 1), *j7 = tu_find(&s, "7", 1), *j8 = tu_find(&s, "8", 1);
    assert_float_equal(j6->rec.gpus, 1, 1e-9);
    assert_float_equal(j7->rec.gpus, 2, 1e-9);
    assert_float_equal(j8->rec.gpus, 2, 1e-9);
    assert_string_equal(j7->gpu_type, "a100");
    assert_float_equal(j8->rec.req_gpus, 2, 1e-9);
    assert_float_equal(tu_find(&s, "9", 1)->rec.max_rss_mib, 212172 / 1024.0, 1e-9);
    assert_float_equal(tu_find(&s, "10", 1)->rec.max_rss_mib, 417112 / 1024.0, 1e-9);
    const TuJob *t3 = tu_find(&s, "5_3", 1);
    assert_non_null(t3);
    assert_int_equal(t3->rec.job_raw, 17);
    assert_int_equal(t3->rec.array_job, 5);
    assert_int_equal(t3->rec.array_task, 3);
    assert_int_equal(t3->rec.state, CP_ST_FAILED);
    assert_int_equal(t3->rec.exit_code, 2);
    const TuJob *c13 = tu_find(&s, "13", 1);
    assert_string_equal(c13->state_raw, "CANCELLED by 1001");
    assert_int_equal(c13->rec.state, CP_ST_CANCELLED);
    assert_string_equal(c13->cluster, "sandbox");
    assert_int_equal(tu_find(&s, "1", 1)->rec.timelimit, 60);
    tu_sink_free(&s);
}

/* python3: 8,659 lines, one job each; states COMPLETED 8105, CANCELLED 468,
 * PREEMPTED 70, TIMEOUT 9, FAILED 7; 18 users. The header and no-header
 * (--fields xdmod) versions must give the same records. */
static void test_xdmod_with_and_without_header(void **state)
{
    (void)state;
    TuSink h, x;
    CpErr err;
    assert_int_equal(read_file(tu_shared("data/sacct-pipe-xdmod/pozidriv.head.with-header.psv"),
                               NULL, NULL, &h, 1, &err),
                     0);
    assert_int_equal(read_file(tu_shared("data/sacct-pipe-xdmod/pozidriv.head.log"), NULL,
                               "xdmod", &x, 1, &err),
                     0);
    assert_int_equal(h.n, 8659);
    assert_int_equal(x.n, 8659);
    int counts[CP_ST_COUNT] = {0};
    for (int i = 0; i < x.n; i++) {
        counts[x.jobs[i].rec.state]++;
        assert_int_equal(x.jobs[i].rec.submit, h.jobs[i].rec.submit);
        assert_int_equal(x.jobs[i].rec.elapsed, h.jobs[i].rec.elapsed);
        assert_string_equal(x.jobs[i].user, h.jobs[i].user);
    }
    assert_int_equal(counts[CP_ST_COMPLETED], 8105);
    assert_int_equal(counts[CP_ST_CANCELLED], 468);
    assert_int_equal(counts[CP_ST_PREEMPTED], 70);
    assert_int_equal(counts[CP_ST_TIMEOUT], 9);
    assert_int_equal(counts[CP_ST_FAILED], 7);
    /* first line: 7-20:39:39, 12 CPUs, 48000Mn on 1 node, Timelimit 125-00:00:00 */
    assert_int_equal(x.jobs[0].rec.elapsed, 7 * 86400 + 20 * 3600 + 39 * 60 + 39);
    assert_int_equal(x.jobs[0].rec.ncpus, 12);
    assert_float_equal(x.jobs[0].rec.req_mem_mib, 48000, 1e-9);
    assert_int_equal(x.jobs[0].rec.timelimit, 125 * 86400);
    tu_sink_free(&h);
    tu_sink_free(&x);
}

/* The small XDMoD edge-case files. */
static void test_xdmod_edge_files(void **state)
{
    (void)state;
    TuSink s;
    CpErr err;
    assert_int_equal(read_file(tu_shared("data/sacct-pipe-xdmod/accounting-logs.log"), NULL,
                               "xdmod", &s, 1, &err),
                     0);
    assert_int_equal(s.n, 4);
    const TuJob *g = tu_find(&s, "5692623", 1);
    assert_float_equal(g->rec.gpus, 2, 1e-9); /* gres/gpu=2 in AllocTRES, NNodes 0 */
    assert_int_equal(g->rec.eligible, CP_TIME_NONE);
    assert_float_equal(g->rec.req_mem_mib, -1, 1e-9); /* 0n: all the node's, unknown */
    assert_string_equal(tu_find(&s, "4107166", 1)->state_raw, "CANCELLED by 102216");
    /* 3000Mc with 256 CPUs */
    assert_float_equal(tu_find(&s, "4103947", 1)->rec.req_mem_mib, 3000.0 * 256, 1e-9);
    tu_sink_free(&s);

    assert_int_equal(read_file(tu_shared("data/sacct-pipe-xdmod/accounting-logs-with-job-arrays.log"),
                               NULL, "xdmod", &s, 1, &err),
                     0);
    assert_int_equal(s.n, 6);
    assert_int_equal(s.jobs[0].rec.array_task, 100);
    assert_int_equal(s.jobs[1].rec.array_task, -1);
    assert_int_equal(s.jobs[1].rec.array_job, 4103947);
    assert_string_equal(s.jobs[5].job_id, "4103947_[9-11,13,16-20]");
    tu_sink_free(&s);

    /* unknown states are kept, not rejected */
    assert_int_equal(read_file(tu_shared("data/sacct-pipe-xdmod/unknown-job-state.log"), NULL,
                               "xdmod", &s, 1, &err),
                     0);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.jobs[0].rec.state, CP_ST_OTHER);
    assert_string_equal(s.jobs[0].state_raw, "FOO");
    assert_int_equal(s.jobs[1].rec.start, CP_TIME_NONE);
    tu_sink_free(&s);

    assert_int_equal(read_file(tu_shared("data/sacct-pipe-xdmod/non-ended-job-state.log"), NULL,
                               "xdmod", &s, 1, &err),
                     0);
    assert_int_equal(s.jobs[0].rec.state, CP_ST_RUNNING);
    assert_int_equal(s.jobs[1].rec.state, CP_ST_PENDING);
    tu_sink_free(&s);

    assert_int_equal(read_file(tu_shared("data/sacct-pipe-xdmod/utf8-multibyte-chars.log"), NULL,
                               "xdmod", &s, 1, &err),
                     0);
    assert_string_equal(s.jobs[0].job_name, "a\xc3\xa0"
                                            "b");
    tu_sink_free(&s);
}

/* The hand-written GRES forms, in their own 26-field order (ReqGRES, no QOS).
 * Expected GPUs: the count in each ReqGRES string (python3 over column 21). */
static void test_gres_edge_cases(void **state)
{
    (void)state;
    static const char order[] =
        "JobID,JobIDRaw,Cluster,Partition,Account,Group,GID,User,UID,Submit,Eligible,Start,End,"
        "Elapsed,ExitCode,State,NNodes,NCPUS,ReqCPUS,ReqMem,ReqGRES,ReqTRES,AllocTRES,"
        "Timelimit,NodeList,JobName";
    static const double want[] = {0, 1, 2, 16, 20, 128, 0, 1, 2, 32, 4, 4,
                                  4, 0, 0, 2, 2, 2,  2,  2, 2, 2, 2, 2};
    TuSink s;
    CpErr err;
    assert_int_equal(read_file(tu_shared("data/sacct-pipe-xdmod/accounting-logs-with-gpu-gres.log"),
                               NULL, order, &s, 1, &err),
                     0);
    /* all 24 rows share JobID 1: each is a record of its own */
    assert_int_equal(s.n, 24);
    for (int i = 0; i < 24; i++) {
        assert_float_equal(s.jobs[i].rec.gpus, want[i], 1e-9);
        assert_float_equal(s.jobs[i].rec.req_gpus, want[i], 1e-9);
    }
    tu_sink_free(&s);
}

/* The Fox cluster's records re-laid as a pipe file: 876 rows fold into 294
 * jobs (python3: rows whose JobID has no '.'). Offsets in times honoured. */
static void test_fox_pipe(void **state)
{
    (void)state;
    TuSink s;
    CpErr err;
    assert_int_equal(read_file(tu_shared("data/sacct-kv-jobanalyzer-fox/fox-sacct.derived.psv"),
                               NULL, NULL, &s, 1, &err),
                     0);
    assert_int_equal(s.n, 294);
    const TuJob *j = tu_find(&s, "1639021", 1);
    assert_non_null(j);
    assert_int_equal(j->rec.state, CP_ST_TIMEOUT);
    assert_float_equal(j->rec.gpus, 1, 1e-9); /* gres/gpu:a100=1,gres/gpu=1: once */
    /* Start=2025-05-02T14:09:52+02:00 -> 12:09:52 UTC */
    assert_int_equal(j->rec.start, 1746187792);
    assert_float_equal(j->rec.max_rss_mib, 33549588 / 1024.0, 1e-9); /* from .batch */
    tu_sink_free(&s);
}

static void test_other_delimiters(void **state)
{
    (void)state;
    static const char *const delims[] = {"^|^", "\xe2\x98\x83" /* snowman */, ";"};
    for (size_t d = 0; d < 3; d++) {
        const char *dl = delims[d];
        char text[1024];
        snprintf(text, sizeof text,
                 "JobID%sUser%sAccount%sState%sAllocTRES%sElapsed%sJobName\n"
                 "42%salice%slab-a%sCOMPLETED%sgres/gpu=4%s01:00:00%sname with %s inside\n",
                 dl, dl, dl, dl, dl, dl, dl, dl, dl, dl, dl, dl, dl);
        TuSink s;
        CpErr err;
        assert_int_equal(read_text(text, dl, NULL, &s, 1, &err), 0);
        assert_int_equal(s.n, 1);
        assert_float_equal(s.jobs[0].rec.gpus, 4, 1e-9);
        char want[128];
        snprintf(want, sizeof want, "name with %s inside", dl);
        assert_string_equal(s.jobs[0].job_name, want);
        tu_sink_free(&s);
    }
}

static void test_parsable_trailing_and_crlf(void **state)
{
    (void)state;
    TuSink s;
    CpErr err;
    assert_int_equal(read_text("JobID|User|State|Elapsed|\r\n1|bob|COMPLETED|00:10:00|\r\n"
                               "2|ann|FAILED|00:00:05|\r\n",
                               NULL, NULL, &s, 1, &err),
                     0);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.jobs[1].state_raw, "FAILED");
    assert_int_equal(s.jobs[0].rec.elapsed, 600);
    tu_sink_free(&s);
    /* a job name holding the delimiter, JobName last */
    assert_int_equal(read_text("JobID|User|JobName\n7|bob|a|b|c\n", NULL, NULL, &s, 1, &err), 0);
    assert_string_equal(s.jobs[0].job_name, "a|b|c");
    tu_sink_free(&s);
}

/* Each bad line: one message naming file, line and field; the rest lands. */
static void expect_reject(const char *text, const char *fragment)
{
    TuSink s;
    CpErr err;
    assert_int_equal(read_text(text, NULL, NULL, &s, 0, &err), 0);
    assert_int_equal(s.rejected, 1);
    assert_int_equal(s.n, 1); /* the good line */
    if (!strstr(s.last_reject, fragment))
        fail_msg("reject '%s' lacks '%s'", s.last_reject, fragment);
    tu_sink_free(&s);
    /* strict: the first bad line stops the file */
    assert_int_equal(read_text(text, NULL, NULL, &s, 1, &err), -1);
    if (!strstr(err.msg, fragment))
        fail_msg("strict error '%s' lacks '%s'", err.msg, fragment);
    tu_sink_free(&s);
}

#define HDR "JobID|User|Submit|Elapsed|ReqMem|AllocTRES|State\n"
#define GOOD "1|bob|2024-01-01T00:00:00|01:00:00|4G|gres/gpu=1|COMPLETED\n"

static void test_bad_lines(void **state)
{
    (void)state;
    expect_reject(HDR GOOD "2|bob|2024-01-01T00:00:00|01:00:00|4G|gres/gpu=1|COMPLETED|x\n",
                  ":3: expected 7 fields, found 8");
    expect_reject(HDR GOOD "2|bob|2024-01-01T00:00:00|01:00:00|4G|gres/gpu=1|COMPLETED|x|y\n",
                  ":3: expected 7 fields, found 9");
    expect_reject(HDR GOOD "2|bob|2024-01-32T00:00:00|01:00:00|4G|gres/gpu=1|COMPLETED\n",
                  ":3: field Submit: bad time '2024-01-32T00:00:00'");
    expect_reject(HDR GOOD "2|bob|2024-01-01T00:00:00|1-2x:00|4G|gres/gpu=1|COMPLETED\n",
                  ":3: field Elapsed: bad duration '1-2x:00'");
    expect_reject(HDR GOOD "2|bob|2024-01-01T00:00:00|01:00:00|4Q|gres/gpu=1|COMPLETED\n",
                  ":3: field ReqMem: bad memory '4Q'");
    expect_reject(HDR GOOD "2|bob|2024-01-01T00:00:00|01:00:00|4G|gres/gpu=x|COMPLETED\n",
                  ":3: field AllocTRES: bad TRES count 'gres/gpu=x'");
    expect_reject(HDR GOOD "\x01\x02\xff\xfe|junk\n",
                  ":3: field JobID: not UTF-8 (byte 0xFF at column 3)");
    expect_reject(HDR GOOD "zz|bob|2024-01-01T00:00:00|01:00:00|4G|gres/gpu=1|COMPLETED\n",
                  ":3: field JobID: bad job id 'zz'");
}

static void test_unknown_state_kept(void **state)
{
    (void)state;
    TuSink s;
    CpErr err;
    assert_int_equal(read_text(HDR "1|bob|2024-01-01T00:00:00|01:00:00|4G||WEIRD_NEW\n", NULL,
                               NULL, &s, 1, &err),
                     0);
    assert_int_equal(s.n, 1);
    assert_int_equal(s.jobs[0].rec.state, CP_ST_OTHER);
    assert_string_equal(s.jobs[0].state_raw, "WEIRD_NEW");
    tu_sink_free(&s);
}

static void test_empty_header_only_junk(void **state)
{
    (void)state;
    TuSink s;
    CpErr err;
    assert_int_equal(read_text("", NULL, NULL, &s, 0, &err), -1);
    assert_string_equal(err.msg, "empty file");
    tu_sink_free(&s);
    assert_int_equal(read_text(HDR, NULL, NULL, &s, 0, &err), 0);
    assert_int_equal(s.n, 0);
    tu_sink_free(&s);
    assert_int_equal(read_text("\x7f" "ELF\x02\x01\x01\x00\x00garbage\n", NULL, NULL, &s, 0, &err),
                     -1);
    assert_non_null(strstr(err.msg, "not a sacct header"));
    tu_sink_free(&s);
}

static void test_ten_megabyte_line(void **state)
{
    (void)state;
    size_t big = 10u << 20;
    size_t n = strlen(HDR) + strlen(GOOD) + big + 1 + strlen(GOOD);
    char *text = malloc(n + 1);
    size_t o = 0;
    memcpy(text + o, HDR, strlen(HDR)), o += strlen(HDR);
    memcpy(text + o, GOOD, strlen(GOOD)), o += strlen(GOOD);
    memset(text + o, 'x', big), o += big;
    text[o++] = '\n';
    memcpy(text + o, GOOD, strlen(GOOD)), o += strlen(GOOD);
    text[o] = '\0';
    TuSink s;
    CpErr err;
    char *p = tu_write_temp(text, o);
    free(text);
    assert_int_equal(read_file(p, NULL, NULL, &s, 0, &err), 0);
    unlink(p);
    free(p);
    assert_int_equal(s.rejected, 1);
    assert_non_null(strstr(s.last_reject, ":3: line longer than 1 MiB"));
    assert_int_equal(s.n, 2);
    tu_sink_free(&s);
}

static void test_control_characters_kept_raw(void **state)
{
    (void)state;
    TuSink s;
    CpErr err;
    /* stored as written; sanitised where shown (cli_sanitize, the TUI) */
    assert_int_equal(read_text("JobID|JobName\n1|evil\x1b[2Jname\n", NULL, NULL, &s, 1, &err), 0);
    assert_string_equal(s.jobs[0].job_name, "evil\x1b[2Jname");
    tu_sink_free(&s);
}

/* Shape: a site's `sacct --parsable --delimiter=☃` (U+2603 after every
 * field, header included), reportseff's `--delimiter=^|^` without the
 * trailing one, and a tab-separated export: the delimiter is read from the
 * header line, no --delimiter needed. Same 3 jobs (101 with its .batch
 * step folded), 2 + 1 + 0 GPUs, 4 rows each. */
static void test_delimiter_from_header(void **state)
{
    (void)state;
    static const char *const files[] = {"tests/fixtures/sacct_snowman.txt",
                                        "tests/fixtures/sacct_reportseff.txt",
                                        "tests/fixtures/sacct_tab.txt"};
    for (size_t i = 0; i < 3; i++) {
        TuSink s;
        CpErr err;
        assert_int_equal(read_file(files[i], NULL, NULL, &s, 1, &err), 0);
        assert_int_equal(s.n, 3);
        assert_int_equal(s.rejected, 0);
        const TuJob *a = tu_find(&s, "101", 0), *b = tu_find(&s, "102", 0),
                    *c = tu_find(&s, "103", 0);
        assert_non_null(a);
        assert_non_null(b);
        assert_non_null(c);
        assert_string_equal(a->job_name, "train-v2");
        assert_float_equal(a->rec.gpus, 2, 1e-9);
        assert_float_equal(b->rec.gpus, 1, 1e-9);
        assert_string_equal(b->gpu_type, "a100");
        assert_float_equal(c->rec.gpus, 0, 1e-9);
        assert_string_equal(c->state_raw, "CANCELLED by 1001");
        assert_int_equal(a->rec.end - a->rec.start, 7200);
        tu_sink_free(&s);
    }
    /* --delimiter still wins; an empty one is refused */
    TuSink s;
    CpErr err;
    assert_int_equal(read_file("tests/fixtures/sacct_snowman.txt", "\xe2\x98\x83", NULL, &s, 1,
                               &err),
                     0);
    assert_int_equal(s.n, 3);
    tu_sink_free(&s);
    assert_int_equal(read_file("tests/fixtures/sacct_snowman.txt", "", NULL, &s, 1, &err), -1);
    assert_string_equal(err.msg, "the delimiter cannot be empty");
    tu_sink_free(&s);
}

/* Shape: an export whose rows drop their trailing empty fields (NodeList,
 * Comment): 4 of 5 rows are short, which are those fields empty; the 5th
 * is one field too long and is refused. */
static void test_ragged_rows(void **state)
{
    (void)state;
    TuSink s;
    CpErr err;
    assert_int_equal(read_file("tests/fixtures/sacct_ragged.psv", NULL, NULL, &s, 0, &err), 0);
    assert_int_equal(s.n, 4);
    assert_int_equal(s.rejected, 1);
    assert_non_null(strstr(s.last_reject, "sacct_ragged.psv:6: expected 10 fields, found 11"));
    assert_float_equal(tu_find(&s, "202", 0)->rec.gpus, 4, 1e-9);
    assert_int_equal(tu_find(&s, "203", 0)->rec.state, CP_ST_PENDING);
    assert_float_equal(tu_find(&s, "203", 0)->rec.gpus, 0, 1e-9);
    assert_int_equal(tu_find(&s, "204", 0)->rec.end - tu_find(&s, "204", 0)->rec.start, 10800);
    tu_sink_free(&s);
    /* strict: the long row stops the file */
    assert_int_equal(read_file("tests/fixtures/sacct_ragged.psv", NULL, NULL, &s, 1, &err), -1);
    assert_non_null(strstr(err.msg, ":6: expected 10 fields, found 11"));
    tu_sink_free(&s);
}

/* text with every '@' replaced by cell (a string without '@'); caller frees. */
static char *with_cell(const char *text, const char *cell)
{
    size_t n = strlen(text), c = strlen(cell), k = 0;
    char *out = malloc(n * c + n + 1);
    assert_non_null(out);
    for (const char *p = text; *p; p++)
        if (*p == '@') {
            memcpy(out + k, cell, c);
            k += c;
        } else {
            out[k++] = *p;
        }
    out[k] = '\0';
    return out;
}

/* Read text twice: its '@' cells as "x" (plain ASCII: the usual lines take
 * the one-pass split into the row) and as "é" (not ASCII: every line takes
 * the general path); both give the same records and the same rejections
 * (issue 31 item 3). */
static void expect_same_split(const char *text, int want_n, int want_rejected)
{
    TuSink a, b;
    CpErr err;
    char *ta = with_cell(text, "x"), *tb = with_cell(text, "\xc3\xa9");
    assert_int_equal(read_text(ta, NULL, NULL, &a, 0, &err), 0);
    assert_int_equal(read_text(tb, NULL, NULL, &b, 0, &err), 0);
    assert_int_equal(a.n, want_n);
    assert_int_equal(b.n, want_n);
    assert_int_equal(a.rejected, want_rejected);
    assert_int_equal(b.rejected, want_rejected);
    assert_string_equal(a.last_reject + strcspn(a.last_reject, ":"),
                        b.last_reject + strcspn(b.last_reject, ":")); /* temp file names differ */
    for (int i = 0; i < a.n; i++) {
        assert_string_equal(a.jobs[i].job_id, b.jobs[i].job_id);
        assert_string_equal(a.jobs[i].user, b.jobs[i].user);
        assert_string_equal(a.jobs[i].state_raw, b.jobs[i].state_raw);
        assert_string_equal(a.jobs[i].job_name, b.jobs[i].job_name);
        assert_int_equal(a.jobs[i].rec.elapsed, b.jobs[i].rec.elapsed);
        assert_int_equal(a.jobs[i].rec.ncpus, b.jobs[i].rec.ncpus);
    }
    tu_sink_free(&a);
    tu_sink_free(&b);
    free(ta);
    free(tb);
}

static void test_fast_split_same(void **state)
{
    (void)state;
    /* JobName not last: empty fields, a row without its trailing empty fields,
     * a trailing delimiter the header lacks, one field too many, a bad value */
    expect_same_split("JobID|Comment|User|State|Elapsed|JobName|NCPUS\n"
                      "1|@|bob|COMPLETED|00:10:00|a|4\n"
                      "2|@|||||\n"
                      "3|@|ann|FAILED\n"
                      "4|@|cid|COMPLETED|00:00:07|b|2|\n"
                      "5|@|dan|COMPLETED|00:00:07|b|2|9\n"
                      "6|@|eve|COMPLETED|1-2x:00|c|1\n"
                      "7|@|fay|TIMEOUT|00:01:00|||\n",
                      5, 2);
    /* JobName last keeps the delimiters of the rest of the line */
    expect_same_split("JobID|Comment|User|JobName\n"
                      "1|@|bob|a|b|c\n"
                      "2|@|ann|\n"
                      "3|@|cid\n",
                      3, 0);
    /* a line over 8 KiB takes the general path either way */
    char *big = malloc(10000);
    assert_non_null(big);
    int k = snprintf(big, 10000, "JobID|Comment|User|JobName|State\n1|@|bob|");
    memset(big + k, 'n', 9000);
    snprintf(big + k + 9000, 10000 - (size_t)k - 9000, "|COMPLETED\n2|@|ann|m|FAILED\n");
    expect_same_split(big, 2, 0);
    free(big);
}

/* Shape: a cron export with '#' lines before the header, and an older line
 * of job 301 commented out after it: skipped and counted (4), neither
 * imported nor rejected; 301 stays COMPLETED. */
static void test_comment_lines(void **state)
{
    (void)state;
    TuSink s;
    CpErr err;
    assert_int_equal(read_file("tests/fixtures/sacct_comments.psv", NULL, NULL, &s, 1, &err), 0);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.rejected, 0);
    assert_int_equal(last_comments, 4);
    assert_int_equal(tu_find(&s, "301", 0)->rec.state, CP_ST_COMPLETED);
    assert_null(tu_find(&s, "301", 2));
    assert_null(tu_find(&s, "#301", 0));
    tu_sink_free(&s);
}

/* Shape: sacct run under a Latin-1 locale (JobName "données", account
 * "biologie-végétale"): refused with line, field and byte; converted with
 * --encoding latin1 (0x80 a C1 control) or cp1252 (0x80 the euro sign). */
static void test_latin1(void **state)
{
    (void)state;
    TuSink s;
    CpErr err;
    const char *path = "tests/fixtures/sacct_latin1.psv";
    assert_int_equal(read_file(path, NULL, NULL, &s, 0, &err), 0);
    assert_int_equal(s.n, 1);
    assert_int_equal(s.rejected, 2);
    assert_non_null(strstr(s.last_reject, "sacct_latin1.psv:3: field Account: not UTF-8 (byte "
                                          "0xE9 at column 11)"));
    tu_sink_free(&s);
    assert_int_equal(read_file(path, NULL, NULL, &s, 1, &err), -1);
    assert_non_null(strstr(err.msg, "sacct_latin1.psv:2: field JobName: not UTF-8 (byte 0xE9 "
                                    "at column 5): if the file is Latin-1 or Windows-1252, give "
                                    "--encoding latin1 or cp1252"));
    tu_sink_free(&s);
    assert_int_equal(read_file_enc(path, TEXTENC_LATIN1, NULL, NULL, &s, 1, &err), 0);
    assert_int_equal(s.n, 3);
    assert_string_equal(tu_find(&s, "401", 0)->job_name, "donn\xc3\xa9" "es");
    assert_string_equal(tu_find(&s, "402", 0)->account, "biologie-v\xc3\xa9g\xc3\xa9tale");
    assert_string_equal(tu_find(&s, "402", 0)->job_name, "r\xc3\xa9sum\xc3\xa9 \xc2\x80 co\xc3\xbbt");
    tu_sink_free(&s);
    assert_int_equal(read_file_enc(path, TEXTENC_CP1252, NULL, NULL, &s, 1, &err), 0);
    assert_string_equal(tu_find(&s, "402", 0)->job_name,
                        "r\xc3\xa9sum\xc3\xa9 \xe2\x82\xac co\xc3\xbbt");
    tu_sink_free(&s);
}

/* Shape: Princeton jobstats' AdminComment (JS1: + base64 of gzipped JSON,
 * written by its slurmctld epilog). python3 (gzip, base64, json) over the
 * fixture: 501 max GPU memory 41875931136 B = 39 GiB, mean utilisation
 * (65.7 + 64.5 + 72.9 + 67.5) / 4 = 67.65 %; 502 83314868224 B =
 * 77.593017578 GiB, 98.6 %; 503 CPU only, 504 JS1:Short, 505 JS1:None and
 * 507 another comment: unknown; 506 TRESUsageInMax wins (10 GiB, 50 %);
 * 508 not base64: refused. */
static void test_jobstats_admincomment(void **state)
{
    (void)state;
    TuSink s;
    CpErr err;
    assert_int_equal(read_file("tests/fixtures/sacct_jobstats.psv", NULL, NULL, &s, 0, &err), 0);
    assert_int_equal(s.n, 7);
    assert_int_equal(s.rejected, 1);
    assert_non_null(strstr(s.last_reject,
                           ":10: field AdminComment: bad jobstats summary: not base64"));
    const TuJob *j = tu_find(&s, "501", 0);
    assert_float_equal(j->rec.gpu_mem_gib, 39.0, 1e-9);
    assert_float_equal(j->rec.gpu_util, 67.65, 1e-9);
    j = tu_find(&s, "502", 0);
    assert_float_equal(j->rec.gpu_mem_gib, 77.593017578, 1e-9);
    assert_float_equal(j->rec.gpu_util, 98.6, 1e-9);
    static const char *const unknown[] = {"503", "504", "505", "507"};
    for (size_t i = 0; i < 4; i++) {
        j = tu_find(&s, unknown[i], 0);
        assert_non_null(j);
        assert_true(j->rec.gpu_mem_gib < 0);
        assert_true(j->rec.gpu_util < 0);
    }
    j = tu_find(&s, "506", 0);
    assert_float_equal(j->rec.gpu_mem_gib, 10.0, 1e-9);
    assert_float_equal(j->rec.gpu_util, 50.0, 1e-9);
    tu_sink_free(&s);
}

/* Issue 14: a step's job is found among the 64 job rows before it. Job 1,
 * then `gap` other jobs, then 1.batch with a peak RSS (a file cut and
 * concatenated, or sorted by something else than the job id). Returns the
 * steps counted as orphans; *rss the peak RSS job 1 got. */
static int64_t step_after_gap(int gap, double *rss)
{
    CpBuf b;
    cpbuf_init(&b);
    char line[160];
    static const char head[] = "JobID|JobIDRaw|State|MaxRSS\n1|1|COMPLETED|\n";
    static const char step[] = "1.batch|1.batch|COMPLETED|5000M\n";
    cpbuf_append(&b, head, sizeof head - 1);
    for (int i = 0; i < gap; i++) {
        int n = snprintf(line, sizeof line, "%d|%d|COMPLETED|\n", 100 + i, 100 + i);
        cpbuf_append(&b, line, (size_t)n);
    }
    cpbuf_append(&b, step, sizeof step - 1);
    char *p = tu_write_temp(b.data, b.len);
    cpbuf_done(&b);
    TuSink s = {0};
    CpReadCtx rc;
    tu_read_ctx(&rc, &s, p);
    Fold *fold = fold_new(rc.sink);
    rc.sink = fold_sink(fold);
    FILE *f = fopen(p, "rb");
    char fmt[64];
    CpErr err;
    assert_int_equal(sacct_text_read(f, &rc, NULL, NULL, fmt, sizeof fmt, &err), 0);
    assert_int_equal(fold_flush(fold, &err), 0);
    fclose(f);
    unlink(p);
    free(p);
    int64_t orphans = fold_orphans(fold);
    assert_int_equal(s.n, gap + 1); /* every job, in file order */
    assert_string_equal(s.jobs[0].job_id, "1");
    *rss = s.jobs[0].rec.max_rss_mib;
    fold_free(fold);
    tu_sink_free(&s);
    return orphans;
}

static void test_step_reach(void **state)
{
    (void)state;
    double rss;
    assert_int_equal(step_after_gap(0, &rss), 0);
    assert_float_equal(rss, 5000, 1e-9);
    assert_int_equal(step_after_gap(63, &rss), 0); /* job 1 is the 64th row back */
    assert_float_equal(rss, 5000, 1e-9);
    assert_int_equal(step_after_gap(64, &rss), 1); /* out of reach: counted */
    assert_float_equal(rss, -1, 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sandbox_duplicates),
        cmocka_unit_test(test_xdmod_with_and_without_header),
        cmocka_unit_test(test_xdmod_edge_files),
        cmocka_unit_test(test_gres_edge_cases),
        cmocka_unit_test(test_fox_pipe),
        cmocka_unit_test(test_other_delimiters),
        cmocka_unit_test(test_parsable_trailing_and_crlf),
        cmocka_unit_test(test_bad_lines),
        cmocka_unit_test(test_unknown_state_kept),
        cmocka_unit_test(test_empty_header_only_junk),
        cmocka_unit_test(test_ten_megabyte_line),
        cmocka_unit_test(test_control_characters_kept_raw),
        cmocka_unit_test(test_delimiter_from_header),
        cmocka_unit_test(test_ragged_rows),
        cmocka_unit_test(test_fast_split_same),
        cmocka_unit_test(test_comment_lines),
        cmocka_unit_test(test_latin1),
        cmocka_unit_test(test_jobstats_admincomment),
        cmocka_unit_test(test_step_reach),
    };
    return cmocka_run_group_tests_name("sacct_text", tests, NULL, NULL);
}
