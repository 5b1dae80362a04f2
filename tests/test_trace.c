/* Unit tests of data/trace*.c: the public traces read in place from the
 * shared folder ($CAPPLAN_SHARED, else ../shared), with figures computed
 * independently (python3 csv/json and awk over the same files), and small
 * hand-written files for Helios, PAI and bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/strmap.h"
#include "data/ingest/fields.h"
#include "data/ingest/trace.h"
#include "data/ingest/tz.h"
#include "tests/lib/testutil.h"

#define MAX_REJECTS 16
#define YEAR0 1970
#define NYEARS 131
#define MAX_GPUS 256

/* A copy of the fields of one record the tests look at. */
typedef struct Kept {
    char cluster[160], job_id[80], user[80], account[80], state_raw[32], job_name[80];
    char partition[80], qos[32];
    char gpu_type[CP_GPU_TYPE_MAX];
    int64_t job_raw, submit, start, end, elapsed, timelimit;
    CpState state;
    double gpus, req_gpus, req_mem_mib;
    int32_t ncpus, nnodes;
} Kept;

/* The collecting sink: counts and sums over every record. */
typedef struct Coll {
    int64_t jobs;
    StrMap *users, *accounts;
    int64_t cpu_s[NYEARS]; /* elapsed x ncpus by UTC year of submit */
    int64_t jobs_year[NYEARS];
    double gpu_s;          /* elapsed x gpus */
    int64_t gpu_hist[MAX_GPUS + 1];
    int64_t states[CP_ST_COUNT];
    const char *acct_target; /* count the jobs of this account */
    int64_t acct_jobs;
    int64_t start_is_submit, ncpus_unknown, nodes;
    int64_t cpu_frac, cpu_milli_sum; /* records with cpu_milli (#29), its sum */
    int64_t start_unknown, end_unknown, fractional; /* fractional: 0 < gpus < 1 */
    double gpus_sum;
    uint64_t hash;         /* order-sensitive digest of every record */
    Kept first, last;
    char rejects[MAX_REJECTS][CP_ERR_MAX];
    int nrejects;
    int64_t progress_calls, progress_bytes, progress_rows;
} Coll;

static void keep(Kept *k, const CpJobRec *r)
{
    snprintf(k->cluster, sizeof k->cluster, "%s", r->cluster);
    snprintf(k->job_id, sizeof k->job_id, "%s", r->job_id);
    snprintf(k->user, sizeof k->user, "%s", r->user);
    snprintf(k->account, sizeof k->account, "%s", r->account);
    snprintf(k->state_raw, sizeof k->state_raw, "%s", r->state_raw);
    snprintf(k->job_name, sizeof k->job_name, "%s", r->job_name);
    snprintf(k->partition, sizeof k->partition, "%s", r->partition);
    snprintf(k->qos, sizeof k->qos, "%s", r->qos);
    snprintf(k->gpu_type, sizeof k->gpu_type, "%s", r->gpu_type);
    k->job_raw = r->job_raw;
    k->submit = r->submit;
    k->start = r->start;
    k->end = r->end;
    k->elapsed = r->elapsed;
    k->timelimit = r->timelimit;
    k->state = r->state;
    k->gpus = r->gpus;
    k->req_gpus = r->req_gpus;
    k->req_mem_mib = r->req_mem_mib;
    k->ncpus = r->ncpus;
    k->nnodes = r->nnodes;
}

static void digest(Coll *c, const CpJobRec *r)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "%s|%lld|%s|%s|%s|%s|%d|%lld|%lld|%lld|%lld|%.3f|%d|%d",
                     r->cluster, (long long)r->job_raw, r->job_id, r->user, r->account,
                     r->state_raw, (int)r->state, (long long)r->submit, (long long)r->start,
                     (long long)r->end, (long long)r->elapsed, r->gpus, r->nnodes, r->ncpus);
    c->hash = strmap_hash(c->hash, line, (size_t)n);
}

static void tally(Coll *c, const CpJobRec *r)
{
    strmap_put(c->users, r->user, strlen(r->user), 1);
    strmap_put(c->accounts, r->account, strlen(r->account), 1);
    if (c->acct_target && strcmp(r->account, c->acct_target) == 0)
        c->acct_jobs++;
    c->states[r->state]++;
    if (r->gpus >= 0 && r->gpus <= MAX_GPUS && r->gpus == (int)r->gpus)
        c->gpu_hist[(int)r->gpus]++;
    if (r->elapsed >= 0)
        c->gpu_s += (double)r->elapsed * r->gpus;
    if (r->submit != CP_TIME_NONE) {
        int y, mo, d, h, mi, s;
        fields_civil_of(r->submit, &y, &mo, &d, &h, &mi, &s);
        if (y >= YEAR0 && y < YEAR0 + NYEARS) {
            c->jobs_year[y - YEAR0]++;
            if (r->elapsed >= 0 && r->ncpus >= 0)
                c->cpu_s[y - YEAR0] += r->elapsed * r->ncpus;
        }
    }
    c->start_is_submit += r->start != CP_TIME_NONE && r->start == r->submit;
    c->start_unknown += r->start == CP_TIME_NONE;
    c->end_unknown += r->end == CP_TIME_NONE;
    c->fractional += r->gpus > 0 && r->gpus < 1;
    c->gpus_sum += r->gpus;
    c->ncpus_unknown += r->ncpus < 0;
    if (r->cpu_milli >= 0) {
        c->cpu_frac++;
        c->cpu_milli_sum += r->cpu_milli;
        assert_true(r->cpu_milli % 1000 != 0);
        assert_int_equal(r->ncpus, (r->cpu_milli + 999) / 1000);
    }
    c->nodes += r->nnodes > 0 ? r->nnodes : 0;
}

static int coll_job(void *ctx, const CpJobRec *r, CpErr *err)
{
    (void)err;
    Coll *c = ctx;
    assert_non_null(r->cluster);
    assert_true(r->cluster[0] != '\0');
    assert_null(r->step);
    if (c->jobs == 0)
        keep(&c->first, r);
    keep(&c->last, r);
    c->jobs++;
    tally(c, r);
    digest(c, r);
    return 0;
}

static void coll_reject(void *ctx, const char *msg)
{
    Coll *c = ctx;
    if (c->nrejects < MAX_REJECTS)
        snprintf(c->rejects[c->nrejects], CP_ERR_MAX, "%s", msg);
    c->nrejects++;
}

static void coll_progress(void *ctx, int64_t bytes, int64_t rows)
{
    Coll *c = ctx;
    c->progress_calls++;
    c->progress_bytes = bytes;
    c->progress_rows = rows;
}

static Coll *coll_new(void)
{
    Coll *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->users = strmap_new();
    c->accounts = strmap_new();
    return c;
}

static void coll_free(Coll *c)
{
    strmap_free(c->users);
    strmap_free(c->accounts);
    free(c);
}

/* Everything one read returns. */
typedef struct Run {
    int rc;
    CpReadCtx ctx;
    CpTz zone;
    char format[48];
    CpErr err;
} Run;

static void run_file(Run *run, FILE *f, const char *path, const char *kind, Coll *c, int strict,
                     int64_t tz)
{
    memset(run, 0, sizeof *run);
    run->ctx.path = path;
    run->zone = tz_fixed((int32_t)tz);
    run->ctx.tz = &run->zone;
    run->ctx.strict = strict;
    run->ctx.sink.job = coll_job;
    run->ctx.sink.ctx = c;
    run->ctx.reject = coll_reject;
    run->ctx.reject_ctx = c;
    run->ctx.progress = coll_progress;
    run->ctx.progress_ctx = c;
    run->rc = trace_read(f, kind, &run->ctx, run->format, sizeof run->format, &run->err);
}

/* Read a file of the shared data folder. Without the folder the test is
 * skipped, c freed first (skip() does not return). */
static void run_shared(Run *run, const char *rel, const char *kind, Coll *c, int64_t tz)
{
    char path[1024];
    if (!tu_have_shared())
        coll_free(c);
    snprintf(path, sizeof path, "%s", tu_shared("data"));
    snprintf(path + strlen(path), sizeof path - strlen(path), "/%s", rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s (set CAPPLAN_SHARED)", path);
    run_file(run, f, path, kind, c, 0, tz);
    fclose(f);
    if (run->rc != 0)
        fail_msg("%s: %s", path, run->err.msg);
}

/* Read text as if it were the file path. */
static void run_text(Run *run, const char *text, const char *path, const char *kind, Coll *c,
                     int strict)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    fputs(text, f);
    rewind(f);
    run_file(run, f, path, kind, c, strict, 0);
    fclose(f);
}

static int near(double a, double b)
{
    return fabs(a - b) < 1e-6 * (fabs(b) > 1 ? fabs(b) : 1);
}

static int64_t year_of(const Coll *c, const int64_t *by_year, int y)
{
    (void)c;
    return by_year[y - YEAR0];
}

/* ---- SWF ---- */

static void test_swf_osc(void **state)
{
    (void)state;
    Coll *c = coll_new();
    Run run;
    c->acct_target = "19";
    run_shared(&run, "swf-pwa-osc-clust/OSC-Clust-2000-3.1-cln.swf", "swf", c, 0);
    assert_string_equal(run.format, "trace-swf");
    /* python3: 36097 data lines, 253 users (col 12), 90 groups (col 13) */
    assert_int_equal(c->jobs, 36097);
    assert_int_equal(run.ctx.rows_read, 36097);
    assert_int_equal(run.ctx.rows_rejected, 0);
    assert_int_equal(strmap_count(c->users), 253);
    assert_int_equal(strmap_count(c->accounts), 90);
    assert_int_equal(c->acct_jobs, 4743);
    assert_int_equal(c->states[CP_ST_COMPLETED], 36097);
    /* sum(col4 x col5) by UTC year of 946746636 + col2: 108,939.89 and
     * 261,755.55 CPU-hours (SOURCE.md: ~108,940 and ~261,756) */
    assert_int_equal(year_of(c, c->jobs_year, 2000), 19421);
    assert_int_equal(year_of(c, c->jobs_year, 2001), 16676);
    assert_int_equal(year_of(c, c->cpu_s, 2000), 392183614);
    assert_int_equal(year_of(c, c->cpu_s, 2001), 942319988);
    assert_int_equal(c->gpu_s, 0);
    /* "    1        0      0     46   32 ..." */
    assert_string_equal(c->first.cluster, "osc");
    assert_string_equal(c->first.job_id, "1");
    assert_int_equal(c->first.job_raw, 1);
    assert_int_equal(c->first.submit, 946746636);
    assert_int_equal(c->first.start, 946746636);
    assert_int_equal(c->first.end, 946746636 + 46);
    assert_int_equal(c->first.elapsed, 46);
    assert_int_equal(c->first.ncpus, 32);
    assert_string_equal(c->first.user, "1");
    assert_string_equal(c->first.account, "1");
    assert_string_equal(c->first.state_raw, "1");
    assert_int_equal(c->first.timelimit, CP_DUR_UNKNOWN);
    /* progress: every 4096 rows and at the end, with the whole file read */
    assert_int_equal(c->progress_calls, 36097 / 4096 + 1);
    assert_int_equal(c->progress_rows, 36097);
    assert_int_equal(c->progress_bytes, 3321819);
    coll_free(c);
}

static void test_swf_kth(void **state)
{
    (void)state;
    Coll *c = coll_new();
    Run run;
    run_shared(&run, "swf-pwa/KTH-SP2-1996-2.1-cln.swf", "swf", c, 0);
    /* SOURCE.md and python3: 28,476 jobs, 214 users, 252 groups, status
     * 1 = 20,530 and 0 = 7,946; one job with no processor count at all */
    assert_int_equal(c->jobs, 28476);
    assert_int_equal(strmap_count(c->users), 214);
    assert_int_equal(strmap_count(c->accounts), 252);
    assert_int_equal(c->states[CP_ST_COMPLETED], 20530);
    assert_int_equal(c->states[CP_ST_FAILED], 7946);
    assert_int_equal(c->ncpus_unknown, 1);
    assert_int_equal(year_of(c, c->cpu_s, 1996), 547616699);
    assert_int_equal(year_of(c, c->cpu_s, 1997), 1468974821);
    assert_string_equal(c->first.cluster, "swedish royal institute of technology (kth)");
    /* "   15   599850 192180   3477    4  -1 -1  4  53940  -1  1  12  12 ..." */
    assert_int_equal(c->first.job_raw, 15);
    assert_int_equal(c->first.submit, 843480031 + 599850);
    assert_int_equal(c->first.start, 843480031 + 599850 + 192180);
    assert_int_equal(c->first.elapsed, 3477);
    assert_int_equal(c->first.timelimit, 53940);
    assert_int_equal(c->first.ncpus, 4);
    assert_string_equal(c->first.user, "12");
    coll_free(c);
}

static void test_swf_nasa(void **state)
{
    (void)state;
    Coll *c = coll_new();
    Run run;
    run_shared(&run, "swf-pwa/NASA-iPSC-1993-3.1-cln.swf", "swf", c, 0);
    /* 18,239 jobs, 69 users, 2 groups; status and wait all -1 */
    assert_int_equal(c->jobs, 18239);
    assert_int_equal(strmap_count(c->users), 69);
    assert_int_equal(strmap_count(c->accounts), 2);
    assert_int_equal(c->states[CP_ST_OTHER], 18239);
    /* no wait data: the start is unknown (never the submit), the run known */
    assert_int_equal(c->start_is_submit, 0);
    assert_int_equal(c->start_unknown, 18239);
    assert_int_equal(c->end_unknown, 18239);
    assert_int_equal(year_of(c, c->cpu_s, 1993), 473295750);
    assert_int_equal(year_of(c, c->cpu_s, 1994), 942265); /* New Year's Eve, PST */
    assert_string_equal(c->last.cluster, "nasa ames research center");
    assert_int_equal(c->last.job_raw, 42264);
    coll_free(c);
}

/* Shape: an LLNL-style SWF log (a hand-written file): partitions named by
 * "; Partition: N name" and given in field 16, a wait of -1 for a job run
 * interactively, a queue number without a name, and an Installation
 * longer than 64 characters, kept whole. */
static void test_swf_partitions(void **state)
{
    (void)state;
    static const struct {
        const char *id, *partition;
        int64_t start, end, elapsed;
    } want[] = {
        {"1", "pbatch", 1167638400 + 0 + 10, 1167638400 + 10 + 3600, 3600},
        {"2", "pdebug", CP_TIME_NONE, CP_TIME_NONE, 1800},
        {"3", "3", 1167638400 + 120 + 5, 1167638400 + 125 + 600, 600},
        {"4", "1", 1167638400 + 180, 1167638400 + 180 + 60, 60},
    };
    FILE *f = fopen("tests/fixtures/swf_partitions.swf", "rb");
    assert_non_null(f);
    for (size_t i = 0; i < 4; i++) {
        Coll *c = coll_new();
        Run run;
        rewind(f);
        run_file(&run, f, "swf_partitions.swf", "swf", c, 1, 0);
        assert_int_equal(run.rc, 0);
        assert_int_equal(c->jobs, 4);
        coll_free(c);
    }
    /* one job at a time: read the file again and keep job i */
    for (size_t i = 0; i < 4; i++) {
        char text[4096];
        rewind(f);
        size_t n = fread(text, 1, sizeof text - 1, f);
        text[n] = '\0';
        char *data = strstr(text, "\n    1 ");
        assert_non_null(data);
        char *line = data + 1;
        for (size_t k = 0; k < i; k++)
            line = strchr(line, '\n') + 1;
        char *end = strchr(line, '\n');
        char one[4096];
        snprintf(one, sizeof one, "%.*s%.*s\n", (int)(data + 1 - text), text,
                 (int)(end - line), line);
        Coll *c = coll_new();
        Run run;
        run_text(&run, one, "swf_partitions.swf", "swf", c, 1);
        assert_int_equal(run.rc, 0);
        assert_int_equal(c->jobs, 1);
        assert_string_equal(c->first.job_id, want[i].id);
        assert_string_equal(c->first.partition, want[i].partition);
        assert_int_equal(c->first.start, want[i].start);
        assert_int_equal(c->first.end, want[i].end);
        assert_int_equal(c->first.elapsed, want[i].elapsed);
        assert_string_equal(c->first.cluster, "lawrence livermore national laboratory, livermore "
                                              "computing center (llnl), california");
        coll_free(c);
    }
    fclose(f);
}

/* ---- Alibaba GPU sharing ---- */

/* python3 (csv) over openb_pod_list_gpushare40.csv: 8,152 pods; Running
 * 4,957, Failed 2,071, Pending 981 (never scheduled: no start), Succeeded
 * 143; QoS LS 4,152, BE 3,921, Burstable 76, Guaranteed 3; GPUs
 * num_gpu x gpu_milli / 1000 sum to 5,641.25, 4,001 pods below one GPU;
 * GPU-seconds (deletion - scheduled) x GPUs 152,704,808.22. */
static void test_alibaba_pods(void **state)
{
    (void)state;
    Coll *c = coll_new();
    Run run;
    c->acct_target = "BE";
    run_shared(&run, "gpu-trace-alibaba-openb-sample/openb_pod_list_gpushare40.csv", "alibaba-pod",
               c, 0);
    assert_string_equal(run.format, "trace-alibaba-pod");
    assert_int_equal(c->jobs, 8152);
    assert_int_equal(c->states[CP_ST_RUNNING], 4957);
    assert_int_equal(c->states[CP_ST_FAILED], 2071);
    assert_int_equal(c->states[CP_ST_PENDING], 981);
    assert_int_equal(c->states[CP_ST_COMPLETED], 143);
    assert_int_equal(c->start_unknown, 981);
    assert_int_equal(strmap_count(c->accounts), 4);
    assert_int_equal(c->acct_jobs, 3921);
    assert_int_equal(c->fractional, 4001);
    assert_true(near(c->gpus_sum, 5641.25));
    assert_true(near(c->gpu_s, 152704808.22));
    /* openb-pod-0000: 0 GPU, 20 cores, LS, created at 2,759,674 s */
    assert_string_equal(c->first.job_id, "openb-pod-0000");
    assert_int_equal(c->first.job_raw, 0);
    assert_int_equal(c->first.submit, 1672531200 + 2759674);
    assert_int_equal(c->first.start, 1672531200 + 2759676);
    assert_int_equal(c->first.end, 1672531200 + 12902960);
    assert_int_equal(c->first.ncpus, 20);
    /* CPUs exactly (#29): python3 over the file, pods whose cpu_milli % 1000
     * is not 0: 5,488 of 8,152, their cpu_milli summing to 52,114,484 */
    assert_int_equal(c->cpu_frac, 5488);
    assert_int_equal(c->cpu_milli_sum, 52114484);
    assert_true(near(c->first.req_mem_mib, 65536));
    assert_string_equal(c->first.qos, "LS");
    assert_string_equal(c->first.cluster, "alibaba");
    assert_int_equal(c->last.job_raw, 8151);
    coll_free(c);
    /* --trace-start moves second 0 */
    c = coll_new();
    const char *root = getenv("CAPPLAN_SHARED");
    char path[1024];
    snprintf(path, sizeof path, "%s/data/gpu-trace-alibaba-openb-sample/"
             "openb_pod_list_gpushare40.csv", root && root[0] ? root : "../shared");
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    memset(&run, 0, sizeof run);
    run.ctx.path = path;
    run.ctx.time_origin = 1767225600; /* 2026-01-01 */
    run.ctx.sink.job = coll_job;
    run.ctx.sink.ctx = c;
    run.ctx.reject = coll_reject;
    run.ctx.reject_ctx = c;
    assert_int_equal(trace_read(f, "alibaba-pod", &run.ctx, run.format, sizeof run.format,
                                &run.err), 0);
    fclose(f);
    assert_int_equal(c->first.submit, 1767225600 + 2759674);
    coll_free(c);
}

/* jobrec_set_cpus (#29): a fraction kept in thousandths, whole CPUs as
 * before, nonsense unknown. */
static void test_cpus_exact(void **state)
{
    (void)state;
    CpJobRec r;
    jobrec_clear(&r);
    const struct { double in; int32_t ncpus, milli; double exact; } cases[] = {
        {3.152, 4, 3152, 3.152}, {2.0, 2, -1, 2.0}, {0.25, 1, 250, 0.25}, {0.0, 0, -1, 0.0},
        {96.0, 96, -1, 96.0}, {-1.0, -1, -1, -1.0}, {NAN, -1, -1, -1.0}, {1e12, -1, -1, -1.0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        jobrec_set_cpus(&r, cases[i].in);
        assert_int_equal(r.ncpus, cases[i].ncpus);
        assert_int_equal(r.cpu_milli, cases[i].milli);
        assert_true(jobrec_cpus(&r) == cases[i].exact);
    }
}

/* Shape: Alibaba's GPU-disaggregated inference instances
 * (cluster-trace-gpu-v2025 disaggregated_DLRM_trace.csv; a hand-written
 * file): empty times (created before or deleted after the trace), NaN,
 * a half GPU, a negative request refused. */
static void test_alibaba_instances(void **state)
{
    (void)state;
    Coll *c = coll_new();
    Run run;
    FILE *f = fopen("tests/fixtures/alibaba_instances.csv", "rb");
    assert_non_null(f);
    run_file(&run, f, "alibaba_instances.csv", "alibaba-pod", c, 0, 0);
    fclose(f);
    assert_int_equal(run.rc, 0);
    assert_string_equal(run.format, "trace-alibaba-instance");
    assert_int_equal(c->jobs, 5);
    assert_int_equal(c->nrejects, 1);
    assert_non_null(strstr(c->rejects[0], "alibaba_instances.csv:7: field gpu_request: bad number '-1'"));
    assert_int_equal(c->states[CP_ST_RUNNING], 3);   /* instance_0, _1, _4 */
    assert_int_equal(c->states[CP_ST_COMPLETED], 2); /* instance_2, _3 */
    assert_int_equal(c->fractional, 1);
    assert_true(near(c->gpus_sum, 1 + 0.5 + 0 + 2 + 1));
    assert_int_equal(c->end_unknown, 3);
    assert_int_equal(c->start_unknown, 0); /* running at the trace's start */
    assert_int_equal(strmap_count(c->users), 3);
    /* the last: instance_4 of app_2, scheduled at 7,260 s, still running */
    assert_int_equal(c->last.job_raw, 4);
    assert_string_equal(c->last.user, "app_2");
    assert_string_equal(c->last.partition, "HN");
    assert_int_equal(c->last.submit, 1672531200 + 7200);
    assert_int_equal(c->last.start, 1672531200 + 7260);
    assert_int_equal(c->last.end, CP_TIME_NONE);
    assert_int_equal(c->last.ncpus, 8);
    assert_true(near(c->last.req_mem_mib, 60 * 1024.0));
    /* the three still running are censored (#29): held to the end of the
     * file and counted up to its last time, instance_2's deletion at
     * 1,435,760 s: instance_4 ran 1,435,760 - 7,260 s */
    assert_int_equal(run.ctx.rows_censored, 3);
    assert_int_equal(run.ctx.censor_at, 1672531200 + 1435760);
    assert_int_equal(c->last.elapsed, 1435760 - 7260);
    /* so the first handed on is the first that ended, instance_2 */
    assert_int_equal(c->first.job_raw, 2);
    assert_int_equal(c->first.submit, 1672531200 + 1435629);
    coll_free(c);
}

/* The same file cut --as-of a given date: the censored runs count up to
 * it, the ended ones keep their own lengths. */
static void test_alibaba_instances_as_of(void **state)
{
    (void)state;
    Coll *c = coll_new();
    Run run;
    FILE *f = fopen("tests/fixtures/alibaba_instances.csv", "rb");
    assert_non_null(f);
    memset(&run, 0, sizeof run);
    run.ctx.path = "alibaba_instances.csv";
    run.ctx.as_of = 1672531200 + 2 * 86400;
    run.ctx.sink.job = coll_job;
    run.ctx.sink.ctx = c;
    run.ctx.reject = coll_reject;
    run.ctx.reject_ctx = c;
    run.rc = trace_read(f, "alibaba-pod", &run.ctx, run.format, sizeof run.format, &run.err);
    fclose(f);
    assert_int_equal(run.rc, 0);
    assert_int_equal(c->jobs, 5);
    assert_int_equal(run.ctx.rows_censored, 3);
    assert_int_equal(c->last.elapsed, 2 * 86400 - 7260);
    assert_int_equal(c->last.state, CP_ST_RUNNING);
    coll_free(c);
}

/* ---- Philly ---- */

static const int64_t philly_hist[][2] = {{2, 336}, {4, 1053}, {8, 1026}, {12, 1}, {16, 205},
                                         {24, 8},  {32, 33},  {64, 2},   {128, 3}};

static void check_philly_dre(const Coll *c)
{
    /* python3 over the CSV and the JSON alike: 2,667 jobs, 100 users,
     * 10 VCs, Pass 1,497 / Failed 1,170, 4,207 nodes */
    assert_int_equal(c->jobs, 2667);
    assert_int_equal(strmap_count(c->users), 100);
    assert_int_equal(strmap_count(c->accounts), 10);
    assert_int_equal(c->states[CP_ST_COMPLETED], 1497);
    assert_int_equal(c->states[CP_ST_FAILED], 1170);
    assert_int_equal(c->nodes, 4207);
    int64_t total = 0;
    for (size_t i = 0; i < sizeof philly_hist / sizeof philly_hist[0]; i++) {
        assert_int_equal(c->gpu_hist[philly_hist[i][0]], philly_hist[i][1]);
        total += philly_hist[i][1];
    }
    assert_int_equal(total, 2667);
    /* sum(gpu_num x (end - start)) = 1,670,277,534 GPU-seconds */
    assert_int_equal((int64_t)c->gpu_s, 1670277534);
    assert_string_equal(c->first.cluster, "philly");
    assert_string_equal(c->first.job_id, "application_1506638472019_9261");
    assert_int_equal(c->first.job_raw, 1);
    assert_string_equal(c->first.user, "b22530");
    assert_string_equal(c->first.account, "6214e9");
    assert_string_equal(c->first.state_raw, "Failed");
    assert_int_equal(c->first.state, CP_ST_FAILED);
    assert_int_equal(c->first.submit, 1507184326); /* 2017-10-05 06:18:46 UTC */
    assert_int_equal(c->first.start, 1507513785);
    assert_int_equal(c->first.end, 1507528182);
    assert_int_equal(c->first.elapsed, 14397);
    assert_int_equal(c->first.gpus, 4);
    assert_int_equal(c->last.job_raw, 2667);
    assert_string_equal(c->last.job_id, "application_1508364558011_25820");
    assert_int_equal(c->last.state, CP_ST_COMPLETED);
    assert_int_equal(c->last.elapsed, 528732);
}

static uint64_t philly_csv_hash;

static void test_philly_csv(void **state)
{
    (void)state;
    Coll *c = coll_new();
    Run run;
    run_shared(&run, "gpu-trace-philly-dre-sample/philly_jobs.shared.derived.csv", "philly", c,
               0);
    assert_string_equal(run.format, "trace-philly-csv");
    assert_int_equal(run.ctx.rows_read, 2667);
    check_philly_dre(c);
    philly_csv_hash = c->hash;
    coll_free(c);
}

static void test_philly_json(void **state)
{
    (void)state;
    Coll *c = coll_new();
    Run run;
    run_shared(&run, "gpu-trace-philly-dre-sample/sampled_jobs.shared.json", "philly", c, 0);
    assert_string_equal(run.format, "trace-philly-json");
    assert_int_equal(run.ctx.rows_read, 2667);
    assert_int_equal(run.ctx.rows_rejected, 0);
    check_philly_dre(c);
    /* the same records, field for field, as from the flattened CSV */
    assert_true(philly_csv_hash != 0);
    assert_true(c->hash == philly_csv_hash);
    coll_free(c);
}

static void test_philly_tz(void **state)
{
    (void)state;
    Coll *c = coll_new();
    Run run;
    run_shared(&run, "gpu-trace-philly-dre-sample/philly_jobs.shared.derived.csv", "philly", c,
               3600); /* the times are local to UTC+1 */
    assert_int_equal(c->first.submit, 1507184326 - 3600);
    assert_int_equal(c->first.elapsed, 14397);
    coll_free(c);
}

static void test_philly_titansched(void **state)
{
    (void)state;
    Coll *c = coll_new();
    Run run;
    c->acct_target = "6214e9";
    run_shared(&run, "gpu-trace-philly-vc-titansched/philly.head.csv", "philly", c, 0);
    assert_string_equal(run.format, "trace-philly-titansched");
    /* python3: 71,792 rows, 15 VCs, num_gpus histogram as SOURCE.md */
    assert_int_equal(c->jobs, 71792);
    assert_int_equal(strmap_count(c->accounts), 15);
    assert_int_equal(c->acct_jobs, 34843);
    static const int64_t hist[][2] = {{1, 66656}, {2, 1623}, {4, 1763}, {8, 1481}, {12, 7},
                                      {16, 184},  {24, 7},   {32, 62},  {64, 6},   {128, 3}};
    for (size_t i = 0; i < sizeof hist / sizeof hist[0]; i++)
        assert_int_equal(c->gpu_hist[hist[i][0]], hist[i][1]);
    /* sum(duration x num_gpus) = sum(gpu_time) = 3,163,743,544 */
    assert_int_equal((int64_t)c->gpu_s, 3163743544LL);
    assert_int_equal(c->states[CP_ST_OTHER], 71792);
    assert_int_equal(strmap_count(c->users), 1); /* "" only */
    assert_int_equal(c->first.job_raw, 1);
    assert_string_equal(c->first.job_id, "1");
    assert_string_equal(c->first.user, "");
    assert_string_equal(c->first.state_raw, "");
    assert_string_equal(c->first.account, "11cb48");
    assert_int_equal(c->first.submit, 1507532515); /* 2017-10-09 07:01:55 */
    assert_int_equal(c->first.start, 1507532515);
    assert_int_equal(c->first.end, 1507532515 + 66);
    assert_int_equal(c->last.job_raw, 71792);
    assert_int_equal(c->last.submit, 1508290386);
    coll_free(c);
}

/* ---- Helios ---- */

static const char helios_csv[] =
    "job_id,user,vc,jobname,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,"
    "duration,queue\n"
    "1425511,uXBbc,vcJkd,train_a,1,1,1,COMPLETED,2020-06-09 18:41:01,2020-06-09 18:41:01,"
    "2020-06-10 04:55:09,36848,0\n"
    "1425512,uVMrF,vchbv,eval,4,16,1,FAILED,2020-06-09 18:41:27,2020-06-09 18:41:27,"
    "2020-06-09 18:45:36,249,0\n"
    "1425513,uzqls,vcpDC,\"a,b\",1,1,1,CANCELLED,2020-06-09 18:41:28,2020-06-09 18:41:28,"
    "2020-06-17 14:15:21,675233,0\n"
    "1425514,uXBbc,vcJkd,big,16,64,2,TIMEOUT,2020-06-10 00:00:00,2020-06-10 01:00:00,"
    "2020-06-11 01:00:00,86400,3600\n"
    "1425515,uXBbc,vcJkd,x,0,4,1,NODE_FAIL,2020-06-10 00:00:05,,,0,0\n"
    "x1425516,uXBbc,vcJkd,x,0,4,1,COMPLETED,2020-06-10 00:00:05,,,0,0\n";

static void test_helios(void **state)
{
    (void)state;
    Coll *c = coll_new();
    Run run;
    run_text(&run, helios_csv, "cluster_log.csv", "helios", c, 0);
    assert_int_equal(run.rc, 0);
    assert_string_equal(run.format, "trace-helios");
    assert_int_equal(c->jobs, 5);
    assert_int_equal(run.ctx.rows_read, 6);
    assert_int_equal(c->nrejects, 1);
    assert_string_equal(c->rejects[0],
                        "cluster_log.csv:7: field job_id: bad job number 'x1425516'");
    assert_int_equal(strmap_count(c->users), 3);
    assert_int_equal(strmap_count(c->accounts), 3);
    assert_int_equal(c->states[CP_ST_COMPLETED], 1);
    assert_int_equal(c->states[CP_ST_FAILED], 1);
    assert_int_equal(c->states[CP_ST_CANCELLED], 1);
    assert_int_equal(c->states[CP_ST_TIMEOUT], 1);
    assert_int_equal(c->states[CP_ST_NODE_FAIL], 1);
    assert_int_equal((int64_t)c->gpu_s, 2095477); /* 36848 + 4x249 + 675233 + 16x86400 */
    assert_string_equal(c->first.cluster, "helios");
    assert_int_equal(c->first.job_raw, 1425511);
    assert_string_equal(c->first.job_id, "1425511");
    assert_string_equal(c->first.account, "vcJkd");
    assert_string_equal(c->first.job_name, "train_a");
    assert_int_equal(c->first.submit, 1591728061);
    assert_int_equal(c->first.end, 1591764909);
    assert_int_equal(c->first.elapsed, 36848);
    assert_int_equal(c->first.ncpus, 1);
    assert_int_equal(c->last.job_raw, 1425515);
    assert_int_equal(c->last.submit, 1591747205);
    assert_int_equal(c->last.start, CP_TIME_NONE);
    assert_int_equal(c->last.ncpus, 4);
    coll_free(c);
}

static void test_helios_headerless(void **state)
{
    (void)state;
    Coll *c = coll_new();
    Run run;
    /* the README's 12 columns (no jobname), no header */
    run_text(&run,
             "7,uA,vcA,2,8,1,COMPLETED,2020-06-09 18:41:01,2020-06-09 18:41:02,"
             "2020-06-09 18:42:02,60,1\n",
             "venus.csv", "helios", c, 0);
    assert_int_equal(run.rc, 0);
    assert_int_equal(c->jobs, 1);
    assert_int_equal(c->first.job_raw, 7);
    assert_int_equal(c->first.gpus, 2);
    assert_int_equal(c->first.ncpus, 8);
    assert_int_equal(c->first.nnodes, 1);
    assert_int_equal(c->first.elapsed, 60);
    assert_string_equal(c->first.job_name, "");
    coll_free(c);

    c = coll_new(); /* a header in another order, behind a pandas index column */
    run_text(&run,
             ",state,job_id,user,vc,gpu_num,submit_time,start_time,end_time\n"
             "0,COMPLETED,9,uA,vcA,8,2020-06-09 18:41:01,2020-06-09 18:41:02,"
             "2020-06-09 18:42:02\n",
             "saturn.csv", "helios", c, 0);
    assert_int_equal(run.rc, 0);
    assert_int_equal(c->first.job_raw, 9);
    assert_int_equal(c->first.gpus, 8);
    assert_int_equal(c->first.elapsed, 60); /* no duration column: end - start */
    assert_int_equal(c->first.ncpus, -1);
    assert_int_equal(c->first.state, CP_ST_COMPLETED);
    coll_free(c);
}

/* ---- PAI ---- */

static void test_pai_job(void **state)
{
    (void)state;
    Coll *c = coll_new();
    Run run;
    run_text(&run,
             "4b3f04b66a525d2df903eb16,8cb3bec23d14dbde320b6613452e768cbbf35b8bd64ee28fcceb77d3"
             "c47d,58540f191766,Terminated,4550879.0,4551416.0\n"
             "a1,i1,u2,Failed,100.0,200.0\n"
             "a2,i2,u2,Running,300.0,\n"
             "a3,i3,u3,Waiting,400.0,\n",
             "pai_job_table.csv", "pai", c, 0);
    assert_int_equal(run.rc, 0);
    assert_string_equal(run.format, "trace-pai-job");
    assert_int_equal(c->jobs, 4);
    assert_int_equal(c->states[CP_ST_COMPLETED], 1);
    assert_int_equal(c->states[CP_ST_FAILED], 1);
    assert_int_equal(c->states[CP_ST_RUNNING], 1);
    assert_int_equal(c->states[CP_ST_PENDING], 1);
    assert_string_equal(c->first.cluster, "pai");
    assert_int_equal(c->first.job_raw, 1);
    assert_string_equal(c->first.job_id, "4b3f04b66a525d2df903eb16");
    assert_string_equal(c->first.user, "58540f191766");
    assert_string_equal(c->first.account, "");
    assert_string_equal(c->first.state_raw, "Terminated");
    assert_int_equal(c->first.submit, 4550879);
    assert_int_equal(c->first.end, 4551416);
    assert_int_equal(c->last.job_raw, 4);
    assert_int_equal(c->last.end, CP_TIME_NONE);
    coll_free(c);

    c = coll_new(); /* with the published header */
    run_text(&run, "job_name,inst_id,user,status,start_time,end_time\nj,i,u,Failed,5,9\n",
             "pai_job_table.csv", "pai", c, 0);
    assert_int_equal(run.rc, 0);
    assert_string_equal(run.format, "trace-pai-job");
    assert_int_equal(c->jobs, 1);
    assert_int_equal(c->first.submit, 5);
    coll_free(c);
}

static void test_pai_task(void **state)
{
    (void)state;
    Coll *c = coll_new();
    Run run;
    run_text(&run,
             "job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,plan_gpu,"
             "gpu_type\n"
             "4f057009a5d481acec67b088,tensorflow,1.0,Terminated,1739162.0,1739200.0,600.0,"
             "29.296875,50.0,MISC\n"
             "j2,worker,2.0,Terminated,1000.0,4600.0,400.0,10.0,50.0,T4\n"
             "j2,ps,1.0,Terminated,1000.0,4600.0,600.0,20.0,,\n"
             "j3,worker,8.0,Failed,5000.0,5000.5,800.0,30.0,100.0,V100\n",
             "pai_task_table.csv", "pai", c, 0);
    assert_int_equal(run.rc, 0);
    assert_string_equal(run.format, "trace-pai-task");
    assert_int_equal(c->jobs, 4);
    /* GPUs = inst_num x plan_gpu / 100: 0.5, 1, 0, 8; GPU-seconds
     * 0.5 x 38 + 1 x 3600 + 0 + 8 x 1 = 3627 */
    assert_true(near(c->gpu_s, 3627.0));
    assert_true(near(c->first.gpus, 0.5));
    assert_int_equal(c->first.ncpus, 6);
    assert_true(near(c->first.req_mem_mib, 30000.0)); /* 29.296875 GB */
    assert_string_equal(c->first.gpu_type, "MISC");
    assert_string_equal(c->first.job_id, "4f057009a5d481acec67b088");
    assert_string_equal(c->first.job_name, "tensorflow");
    assert_int_equal(c->first.submit, 1739162);
    assert_int_equal(c->first.start, 1739162);
    assert_int_equal(c->first.elapsed, 38);
    assert_int_equal(c->gpu_hist[0], 1);
    assert_int_equal(c->gpu_hist[1], 1);
    assert_int_equal(c->gpu_hist[8], 1);
    assert_int_equal(c->last.job_raw, 4);
    assert_int_equal(c->last.ncpus, 64);
    assert_true(near(c->last.req_mem_mib, 245760.0));
    assert_int_equal(c->last.state, CP_ST_FAILED);
    assert_string_equal(c->last.gpu_type, "V100");
    coll_free(c);

    c = coll_new(); /* the original file has no header */
    run_text(&run, "j9,worker,1.0,Terminated,10.0,20.0,100.0,1.0,25.0,P100\n",
             "pai_task_table.csv", "pai", c, 0);
    assert_int_equal(run.rc, 0);
    assert_string_equal(run.format, "trace-pai-task");
    assert_true(near(c->first.gpus, 0.25));
    coll_free(c);
}

/* ---- bad input ---- */

static const char bad_swf[] =
    "; UnixStartTime: 1000\n"
    "; Installation: Test Site\n"
    "    1        0      0     46   32     -1    -1   32     -1    -1  1   1   1  -1 -1 -1 -1 -1\n"
    "    2      423      0\n"
    "    3      abc      0     46   32     -1    -1   32     -1    -1  1   1   1  -1 -1 -1 -1 -1\n"
    "hello world this is junk\n"
    "    5      500      0     46   32     -1    -1   32     -1    -1  1   1   1  -1 -1 -1 -1 -1 9\n"
    "\n"
    "    6      600      0     10    2     -1    -1    2     -1    -1  5   7   3  -1 -1 -1 -1 -1\n";

static void test_bad_swf(void **state)
{
    (void)state;
    Coll *c = coll_new();
    Run run;
    run_text(&run, bad_swf, "bad.swf", "swf", c, 0);
    assert_int_equal(run.rc, 0);
    assert_int_equal(c->jobs, 2);
    assert_int_equal(run.ctx.rows_read, 6);
    assert_int_equal(run.ctx.rows_rejected, 4);
    assert_int_equal(c->nrejects, 4);
    assert_string_equal(c->rejects[0], "bad.swf:4: expected 18 fields, found 3");
    assert_string_equal(c->rejects[1], "bad.swf:5: field 2 (submit time): bad number 'abc'");
    assert_string_equal(c->rejects[2], "bad.swf:6: expected 18 fields, found 5");
    assert_string_equal(c->rejects[3], "bad.swf:7: more than 18 fields");
    assert_string_equal(c->last.cluster, "test site");
    assert_int_equal(c->last.job_raw, 6);
    assert_int_equal(c->last.state, CP_ST_CANCELLED);
    assert_int_equal(c->last.submit, 1600);
    assert_int_equal(c->last.end, 1610);
    assert_string_equal(c->last.user, "7");
    assert_string_equal(c->last.account, "3");
    coll_free(c);

    c = coll_new(); /* strict: the first bad line stops the read */
    run_text(&run, bad_swf, "bad.swf", "swf", c, 1);
    assert_int_equal(run.rc, -1);
    assert_string_equal(run.err.msg, "bad.swf:4: expected 18 fields, found 3");
    assert_int_equal(c->jobs, 1);
    coll_free(c);

    c = coll_new(); /* times need the header's epoch */
    run_text(&run, "; Computer: x\n 1 0 0 46 32 -1 -1 32 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
             "noepoch.swf", "swf", c, 0);
    assert_int_equal(run.rc, -1);
    assert_string_equal(run.err.msg, "noepoch.swf:2: no '; UnixStartTime:' header before "
                                     "the first job: absolute times unknown");
    coll_free(c);

    c = coll_new(); /* no Installation or Computer: the file's base name */
    run_text(&run, "; UnixStartTime: 0\n 1 0 0 46 32 -1 -1 32 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
             "logs/LANL-CM5-1994.swf", "swf", c, 0);
    assert_int_equal(run.rc, 0);
    assert_string_equal(c->first.cluster, "lanl-cm5-1994");
    coll_free(c);
}

static const char bad_philly_csv[] =
    "job_id,user,vc,gpu_num,node_num,state,submit_time,start_time,end_time,duration,queue\n"
    "application_1_1,u1,vc1,4,1,Pass,2017-10-05 06:18:46,2017-10-06 01:49:45,"
    "2017-10-09 05:49:42,14397,329459\n"
    "application_1_2,u1,vc1,4,1\n"
    "application_1_3,u1,vc1,four,1,Pass,2017-10-05 06:18:46,2017-10-06 01:49:45,"
    "2017-10-09 05:49:42,14397,329459\n"
    "@@@ junk @@@\n"
    "application_1_5,u2,vc1,2,1,Killed,2017-10-05 06:18:46,2017-10-32 01:49:45,"
    "2017-10-09 05:49:42,14397,329459\n"
    "application_1_6,u2,vc2,2,1,Killed,2017-10-05 06:18:46,2017-10-06 01:49:45,"
    "2017-10-09 05:49:42,273237,329459\n";

static void test_bad_csv(void **state)
{
    (void)state;
    Coll *c = coll_new();
    Run run;
    run_text(&run, bad_philly_csv, "bad.csv", "philly", c, 0);
    assert_int_equal(run.rc, 0);
    assert_int_equal(c->jobs, 2);
    assert_int_equal(run.ctx.rows_read, 6);
    assert_int_equal(c->nrejects, 4);
    assert_string_equal(c->rejects[0], "bad.csv:3: expected 11 fields, found 5");
    assert_string_equal(c->rejects[1], "bad.csv:4: field gpu_num: bad number 'four'");
    assert_string_equal(c->rejects[2], "bad.csv:5: expected 11 fields, found 1");
    assert_string_equal(c->rejects[3],
                        "bad.csv:6: field start_time: bad time '2017-10-32 01:49:45'");
    assert_int_equal(c->last.job_raw, 6); /* the data row number, rejected rows counted */
    assert_int_equal(c->last.state, CP_ST_CANCELLED);
    assert_string_equal(c->last.state_raw, "Killed");
    assert_int_equal(c->last.start, 1507254585);
    coll_free(c);

    c = coll_new();
    run_text(&run, bad_philly_csv, "bad.csv", "philly", c, 1);
    assert_int_equal(run.rc, -1);
    assert_string_equal(run.err.msg, "bad.csv:3: expected 11 fields, found 5");
    coll_free(c);

    c = coll_new(); /* a header no reader knows: the file is refused */
    run_text(&run, "hello,world\n1,2\n", "junk.csv", "philly", c, 0);
    assert_int_equal(run.rc, -1);
    assert_string_equal(run.err.msg, "junk.csv:1: not a Philly trace: expected a JSON job list "
                                     "or a CSV header starting 'job_id' or 'timestamp' (first "
                                     "field 'hello', 2 fields)");
    coll_free(c);

    c = coll_new();
    run_text(&run, "job_id,user,vc,state\n1,u,v,COMPLETED\n", "short.csv", "helios", c, 0);
    assert_int_equal(run.rc, -1);
    assert_string_equal(run.err.msg, "short.csv:1: missing column 'gpu_num'");
    coll_free(c);

    c = coll_new();
    run_text(&run, "a,b,c\n", "t.csv", "pai", c, 0);
    assert_int_equal(run.rc, -1);
    assert_string_equal(run.err.msg, "t.csv:1: not a PAI table: expected 6 fields "
                                     "(pai_job_table) or 10 (pai_task_table) (first field "
                                     "'a', 3 fields)");
    coll_free(c);
}

static const char bad_json[] =
    "[\n"
    " {\"status\":\"Pass\",\"vc\":\"v\",\"jobid\":\"a_1\",\"user\":\"u\",\"submitted_time\":"
    "\"2017-10-05 06:18:46\",\"start_time\":\"2017-10-05 06:20:00\",\"end_time\":"
    "\"2017-10-05 07:20:00\",\"detail\":[{\"ip\":\"m1\",\"gpus\":[\"gpu0\",\"gpu1\"]}]},\n"
    " {\"status\":\"Pass\",\"vc\":\"v\",\"jobid\":\"a_2\",\"user\":\"u\",\"submitted_time\":"
    "\"yesterday\"},\n"
    " 42,\n"
    " {\"status\": ,},\n"
    " {\"status\":\"Pass\"},\n"
    " {\"status\":\"Failed\",\"vc\":\"v\",\"jobid\":\"a_6\",\"user\":\"u2\",\"submitted_time\":"
    "\"2017-10-05 06:18:46\",\"start_time\":\"2017-10-05 06:20:00\",\"end_time\":"
    "\"2017-10-05 06:30:00\",\"detail\":[{\"ip\":\"m1\",\"gpus\":[\"gpu0\"]},"
    "{\"ip\":\"m2\",\"gpus\":[\"gpu0\"]}]}\n"
    "]\n";

static void test_bad_json(void **state)
{
    (void)state;
    Coll *c = coll_new();
    Run run;
    run_text(&run, bad_json, "bad.json", "philly", c, 0);
    assert_int_equal(run.rc, 0);
    assert_string_equal(run.format, "trace-philly-json");
    assert_int_equal(c->jobs, 2);
    assert_int_equal(run.ctx.rows_read, 6);
    assert_int_equal(c->nrejects, 4);
    assert_string_equal(c->rejects[0], "bad.json:3: field submitted_time: bad time 'yesterday'");
    assert_string_equal(c->rejects[1], "bad.json:4: not a job object");
    assert_true(strncmp(c->rejects[2], "bad.json:5: ", 12) == 0);
    assert_string_equal(c->rejects[3], "bad.json:6: field jobid: missing");
    assert_int_equal(c->first.gpus, 2);
    assert_int_equal(c->first.elapsed, 3600);
    assert_int_equal(c->last.job_raw, 6);
    assert_int_equal(c->last.gpus, 2);
    assert_int_equal(c->last.nnodes, 2);
    assert_int_equal(c->last.end, 1507185000);
    assert_int_equal(c->last.state, CP_ST_FAILED);
    coll_free(c);

    /* a job list re-saved in Latin-1 (user "jos\xe9"): the element is
     * refused naming the member, never stored as raw bytes */
    c = coll_new();
    run_text(&run,
             "[{\"jobid\":\"a\",\"status\":\"Pass\",\"user\":\"jos\xe9\",\"vc\":\"v\","
             "\"submitted_time\":\"2017-10-03 12:00:00\"}]\n",
             "l1.json", "philly", c, 0);
    assert_int_equal(run.rc, 0);
    assert_int_equal(c->jobs, 0);
    assert_int_equal(c->nrejects, 1);
    assert_string_equal(c->rejects[0], "l1.json:1: field user: not UTF-8 (byte 0xE9 at column "
                                       "4): if the file is Latin-1 or Windows-1252, give "
                                       "--encoding latin1 or cp1252");
    coll_free(c);

    c = coll_new(); /* cut short: the stream itself is broken */
    run_text(&run, "[\n {\"status\":\"Pass\",\n", "cut.json", "philly", c, 0);
    assert_int_equal(run.rc, -1);
    assert_true(strncmp(run.err.msg, "cut.json:", 9) == 0);
    coll_free(c);
}

static void test_empty(void **state)
{
    (void)state;
    static const char *const kinds[] = {"philly", "swf", "helios", "pai"};
    static const char *const texts[] = {"", "\n  \n", "\xEF\xBB\xBF"};
    for (size_t k = 0; k < 4; k++) {
        for (size_t i = 0; i < 3; i++) {
            Coll *c = coll_new();
            Run run;
            char want[128];
            run_text(&run, texts[i], "empty.txt", kinds[k], c, 0);
            snprintf(want, sizeof want, "empty.txt:1: empty file: no %s trace records",
                     kinds[k]);
            assert_int_equal(run.rc, -1);
            assert_string_equal(run.err.msg, want);
            assert_int_equal(c->jobs, 0);
            coll_free(c);
        }
    }
}

static void test_unknown_kind(void **state)
{
    (void)state;
    Coll *c = coll_new();
    Run run;
    run_text(&run, "x\n", "x.csv", "google", c, 0);
    assert_int_equal(run.rc, -1);
    assert_string_equal(run.err.msg,
                        "unknown trace kind 'google' (expected philly, swf, helios, pai or "
                        "alibaba-pod)");
    run_text(&run, "x\n", "x.csv", NULL, c, 0);
    assert_int_equal(run.rc, -1);
    coll_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_swf_osc),
        cmocka_unit_test(test_swf_kth),
        cmocka_unit_test(test_swf_nasa),
        cmocka_unit_test(test_philly_csv),
        cmocka_unit_test(test_philly_json),
        cmocka_unit_test(test_philly_tz),
        cmocka_unit_test(test_philly_titansched),
        cmocka_unit_test(test_helios),
        cmocka_unit_test(test_helios_headerless),
        cmocka_unit_test(test_pai_job),
        cmocka_unit_test(test_pai_task),
        cmocka_unit_test(test_bad_swf),
        cmocka_unit_test(test_bad_csv),
        cmocka_unit_test(test_bad_json),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_unknown_kind),
        cmocka_unit_test(test_swf_partitions),
        cmocka_unit_test(test_alibaba_pods),
        cmocka_unit_test(test_cpus_exact),
        cmocka_unit_test(test_alibaba_instances),
        cmocka_unit_test(test_alibaba_instances_as_of),
    };
    return cmocka_run_group_tests_name("trace", tests, NULL, NULL);
}
