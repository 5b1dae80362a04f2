/* Unit tests of data/ingest/json_stream.c and data/ingest/sacct_json.c.
 *
 * The real files are read in place from the shared folder ($CAPPLAN_SHARED,
 * else ../shared from the repository root). Every figure asserted here was
 * worked out separately with python3's json module on the same files (job
 * counts, GPUs, states, times, line numbers where elements start), and the
 * sandbox's peak RSS and CPU time were checked against its sacct -P output
 * (sacct_all.psv: MaxRSS of the step rows, TotalCPU of the job row). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/ingest/json_stream.h"
#include "data/ingest/sacct_json.h"
#include "tests/lib/testutil.h"

/* ---- a sink that keeps copies of what it receives ---- */

typedef struct Got {
    char job_id[64], cluster[64], user[64], state_raw[64], gpu_type[CP_GPU_TYPE_MAX];
    CpJobRec rec; /* numbers only: its string pointers died with the call */
} Got;

typedef struct Run {
    Got *jobs;
    int n, cap;
    int rejects;
    char last_reject[CP_ERR_MAX];
    int progress_calls;
    int64_t last_bytes, last_rows;
    CpReadCtx ctx;
    CpErr err;
    char fmt[48];
    int rc;
} Run;

static void copy(char *dst, size_t n, const char *src)
{
    snprintf(dst, n, "%s", src ? src : "");
}

static int collect_job(void *vctx, const CpJobRec *r, CpErr *err)
{
    Run *run = vctx;
    (void)err;
    if (run->n == run->cap) {
        run->cap = run->cap ? run->cap * 2 : 32;
        run->jobs = realloc(run->jobs, (size_t)run->cap * sizeof *run->jobs);
        assert_non_null(run->jobs);
    }
    Got *g = &run->jobs[run->n++];
    copy(g->job_id, sizeof g->job_id, r->job_id);
    copy(g->cluster, sizeof g->cluster, r->cluster);
    copy(g->user, sizeof g->user, r->user);
    copy(g->state_raw, sizeof g->state_raw, r->state_raw);
    copy(g->gpu_type, sizeof g->gpu_type, r->gpu_type);
    g->rec = *r;
    assert_null(r->step); /* steps are folded, never emitted */
    return 0;
}

static void collect_reject(void *vctx, const char *msg)
{
    Run *run = vctx;
    run->rejects++;
    copy(run->last_reject, sizeof run->last_reject, msg);
}

static void collect_progress(void *vctx, int64_t bytes, int64_t rows)
{
    Run *run = vctx;
    assert_true(bytes >= run->last_bytes);
    run->progress_calls++;
    run->last_bytes = bytes;
    run->last_rows = rows;
}

/* Read f with sacct_json_read; name is what messages call the input. */
static void run_stream(Run *run, FILE *f, const char *name, int strict)
{
    memset(run, 0, sizeof *run);
    run->ctx.path = name;
    run->ctx.strict = strict;
    run->ctx.sink.job = collect_job;
    run->ctx.sink.ctx = run;
    run->ctx.reject = collect_reject;
    run->ctx.reject_ctx = run;
    run->ctx.progress = collect_progress;
    run->ctx.progress_ctx = run;
    run->rc = sacct_json_read(f, &run->ctx, run->fmt, sizeof run->fmt, &run->err);
}

static void run_file(Run *run, const char *rel)
{
    const char *path = tu_shared(rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s (set CAPPLAN_SHARED)", path);
    run_stream(run, f, rel, 0);
    fclose(f);
}

/* A temporary file holding n bytes of text, positioned at its start. */
static FILE *temp_with(const char *text, size_t n)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, n, f), n);
    rewind(f);
    return f;
}

static void run_text(Run *run, const char *text, const char *name, int strict)
{
    FILE *f = temp_with(text, strlen(text));
    run_stream(run, f, name, strict);
    fclose(f);
}

static void run_free(Run *run)
{
    free(run->jobs);
    run->jobs = NULL;
}

/* The nth (1-based) record with this displayed job id. */
static const Got *find(const Run *run, const char *id, int nth)
{
    for (int i = 0; i < run->n; i++)
        if (strcmp(run->jobs[i].job_id, id) == 0 && --nth == 0)
            return &run->jobs[i];
    fail_msg("no record %s", id);
    return NULL;
}

static void assert_near(double a, double b)
{
    if (fabs(a - b) > 1e-6)
        fail_msg("%.9f != %.9f", a, b);
}

/* ---- the real files ---- */

static void test_slurm_21_08(void **state)
{
    (void)state;
    Run r;
    run_file(&r, "data/sacct-json-sarc/slurm_21_8_8.json");
    assert_int_equal(r.rc, 0);
    assert_string_equal(r.fmt, "sacct-json 21.08");
    assert_int_equal(r.n, 1);
    assert_int_equal(r.ctx.rows_read, 1);
    const Got *g = &r.jobs[0];
    assert_string_equal(g->job_id, "55978384");
    assert_string_equal(g->cluster, "cedar");
    assert_string_equal(g->user, "purah");
    assert_int_equal(g->rec.job_raw, 55978384);
    assert_int_equal(g->rec.array_job, 0);
    assert_int_equal(g->rec.array_task, -1);
    assert_int_equal(g->rec.state, CP_ST_REQUEUED);
    assert_string_equal(g->state_raw, "REQUEUED");
    assert_near(g->rec.gpus, 1);
    assert_near(g->rec.req_gpus, 1);
    assert_string_equal(g->gpu_type, "");
    assert_int_equal(g->rec.submit, 1673275023);
    assert_int_equal(g->rec.start, 1673275023);
    assert_int_equal(g->rec.end, 1673369386);
    assert_int_equal(g->rec.elapsed, 86301);
    assert_int_equal(g->rec.timelimit, 1440 * 60); /* plain int minutes */
    assert_int_equal(g->rec.ncpus, 4);
    assert_int_equal(g->rec.nnodes, 1);
    assert_near(g->rec.req_mem_mib, 40960);
    assert_int_equal(g->rec.exit_code, 0);
    assert_int_equal(g->rec.exit_signal, 0);
    assert_near(g->rec.total_cpu_s, -1); /* time.total 0 and no steps */
    assert_near(g->rec.max_rss_mib, -1);
    assert_near(g->rec.gpu_mem_gib, -1);
    run_free(&r);
}

static void test_slurm_22_05_array(void **state)
{
    (void)state;
    Run r;
    run_file(&r, "data/sacct-json-sarc/slurm_22_5_9.json");
    assert_int_equal(r.rc, 0);
    assert_string_equal(r.fmt, "sacct-json 22.05");
    assert_int_equal(r.n, 1);
    const Got *g = &r.jobs[0];
    assert_string_equal(g->job_id, "20247445_100");
    assert_int_equal(g->rec.job_raw, 20247445);
    assert_int_equal(g->rec.array_job, 20247445);
    assert_int_equal(g->rec.array_task, 100);
    assert_string_equal(g->cluster, "narval");
    assert_int_equal(g->rec.state, CP_ST_FAILED);
    assert_near(g->rec.gpus, 16);
    assert_near(g->rec.req_gpus, 16);
    assert_int_equal(g->rec.nnodes, 4);
    assert_int_equal(g->rec.ncpus, 96);
    assert_near(g->rec.req_mem_mib, 262144);
    assert_int_equal(g->rec.submit, 1692160813);
    assert_int_equal(g->rec.eligible, 1692160814);
    assert_int_equal(g->rec.elapsed, 124403);
    assert_int_equal(g->rec.timelimit, 2880 * 60);
    run_free(&r);
}

static void test_slurm_23_02_running(void **state)
{
    (void)state;
    Run r;
    run_file(&r, "data/sacct-json-sarc/slurm_23_2_6.json");
    assert_int_equal(r.rc, 0);
    assert_string_equal(r.fmt, "sacct-json 23.02");
    assert_int_equal(r.n, 1);
    const Got *g = &r.jobs[0];
    assert_string_equal(g->job_id, "4");
    assert_string_equal(g->cluster, "mila");
    assert_int_equal(g->rec.state, CP_ST_RUNNING);
    assert_int_equal(g->rec.end, CP_TIME_NONE); /* end: 0 */
    assert_int_equal(g->rec.start, 1613725209);
    /* elapsed 83,853,331 s (970 days) in the file: a running job has run
     * at most its time limit, 5 days (issue 14) */
    assert_int_equal(g->rec.elapsed, 7200 * 60);
    assert_int_equal(g->rec.timelimit, 7200 * 60); /* {set,infinite,number} */
    assert_near(g->rec.gpus, 2); /* the energy TRES's -2 does not count */
    assert_int_equal(g->rec.array_task, -1); /* task_id {set: false} */
    assert_near(g->rec.req_mem_mib, 32768);
    run_free(&r);
}

typedef struct Want {
    const char *id, *state;
    double gpus;
    const char *type;
    int64_t submit, end; /* end 0: unknown */
    int64_t elapsed, limit_min;
} Want;

static const Want mila_0126[] = {
    {"1", "CANCELLED", 1, "a100", 1706197388, 1706227200, 8800, 480},
    {"2", "COMPLETED", 4, "a100", 1706181104, 1706193514, 4516, 120},
    {"3", "FAILED", 1, "a100", 1706197634, 1706205371, 3184, 480},
    {"4", "COMPLETED", 1, "a100", 1706149227, 1706167368, 5986, 720},
    {"5", "COMPLETED", 1, "a100", 1706187620, 1706227200, 853, 720},
    {"6", "COMPLETED", 1, "a100", 1706180181, 1706208885, 1784, 240},
    {"7", "COMPLETED", 0, "", 1706218489, 1706227200, 8025, 1440},
};
static const Want mila_0225[] = {
    {"8", "RUNNING", 1, "a100", 1708755169, 0, 13663, 480},
    {"9", "COMPLETED", 1, "rtx8000", 1708793411, 1708819200, 17433, 1440},
    {"10", "COMPLETED", 0, "", 1708802723, 1708819200, 883, 240},
    {"11", "COMPLETED", 1, "a100", 1708803010, 1708819200, 2396, 240},
    {"12", "PENDING", 1, "rtx8000", 1708759061, 0, 0, 60},
    {"13", "COMPLETED", 2, "rtx8000", 1708778931, 1708794881, 1513, 720},
    {"14", "COMPLETED", 0, "", 1708765245, 1708787880, 11536, 240},
};
static const Want mila_0326[] = {
    {"8", "COMPLETED", 1, "a100", 1708755169, 1708810283, 4746, 480},
    {"12", "RUNNING", 1, "rtx8000", 1708759061, 0, 3600, 60}, /* 2650784 s > limit */
    {"15", "COMPLETED", 1, "a100", 1711333632, 1711398375, 1620, 60},
    {"16", "COMPLETED", 2, "rtx8000", 1711340530, 1711359743, 477, 60},
    {"17", "COMPLETED", 1, "a100", 1711372926, 1711410048, 31118, 720},
    {"18", "RUNNING", 1, "a100", 1711378871, 0, 14400, 240}, /* 24671 s > limit */
    {"19", "PENDING", 2, "a100", 1711355810, 0, 0, 120},
};
static const Want mila_0425[] = {
    {"12", "RUNNING", 1, "rtx8000", 1708759061, 0, 3600, 60}, /* 5242784 s */
    {"18", "RUNNING", 1, "a100", 1711378871, 0, 14400, 240}, /* 2616671 s */
    {"19", "RUNNING", 2, "a100", 1711355810, 0, 7200, 120}, /* 2646798 s */
    {"20", "COMPLETED", 0, "", 1713938568, 1713985776, 2583, 240},
    {"21", "FAILED", 0, "", 1713943942, 1713962889, 10484, 240},
    {"22", "COMPLETED", 1, "a100", 1713972812, 1713987855, 3308, 480},
    {"23", "COMPLETED", 1, "rtx8000", 1713995219, 1714003200, 571, 480},
    {"24", "COMPLETED", 0, "", 1713935784, 1713991658, 5845, 240},
};
static const Want mila_0525[] = {
    {"12", "COMPLETED", 1, "rtx8000", 1708759061, 1708763274, 2858, 60},
    {"18", "COMPLETED", 1, "a100", 1711378871, 1711394594, 8065, 240},
    {"19", "COMPLETED", 2, "a100", 1711355810, 1711361523, 5121, 120},
    {"25", "COMPLETED", 0, "", 1716537912, 1716573148, 6115, 120},
    {"26", "COMPLETED", 0, "", 1716571867, 1716586432, 220, 240},
    {"27", "COMPLETED", 1, "rtx8000", 1716522814, 1716571663, 3831, 120},
    {"28", "COMPLETED", 0, "", 1716536627, 1716585217, 25766, 480},
};

static void check_mila(const char *rel, const Want *w, int n, double total_gpus)
{
    Run r;
    run_file(&r, rel);
    assert_int_equal(r.rc, 0);
    assert_string_equal(r.fmt, "sacct-json 25.05"); /* meta.slurm, after "jobs" */
    assert_int_equal(r.n, n);
    assert_int_equal(r.ctx.rows_read, n);
    assert_int_equal(r.rejects, 0);
    double sum = 0;
    for (int i = 0; i < n; i++) {
        const Got *g = &r.jobs[i];
        assert_string_equal(g->job_id, w[i].id);
        assert_string_equal(g->cluster, "mila");
        assert_string_equal(g->state_raw, w[i].state); /* ["STATE"] */
        assert_string_equal(jobrec_state_name(g->rec.state), w[i].state);
        assert_near(g->rec.gpus, w[i].gpus);
        assert_string_equal(g->gpu_type, w[i].type);
        assert_int_equal(g->rec.submit, w[i].submit);
        assert_int_equal(g->rec.end, w[i].end ? w[i].end : CP_TIME_NONE);
        assert_int_equal(g->rec.elapsed, w[i].elapsed);
        assert_int_equal(g->rec.timelimit, w[i].limit_min * 60);
        assert_int_equal(g->rec.array_job, 0); /* array.job_id == job_id, no task */
        sum += g->rec.gpus;
    }
    assert_near(sum, total_gpus);
    /* one line holds the whole file: the final progress call has its size */
    assert_true(r.progress_calls >= 1);
    assert_int_equal(r.last_rows, n);
    run_free(&r);
}

static void test_mila_25_05(void **state)
{
    (void)state;
    check_mila("data/sacct-json-sarc/mila_1706227200.json", mila_0126, 7, 9);
    check_mila("data/sacct-json-sarc/mila_1708819200.json", mila_0225, 7, 6);
    check_mila("data/sacct-json-sarc/mila_1711411200.json", mila_0326, 7, 9);
    check_mila("data/sacct-json-sarc/mila_1714003200.json", mila_0425, 8, 6);
    check_mila("data/sacct-json-sarc/mila_1716595200.json", mila_0525, 7, 5);
}

static void test_mila_25_05_details(void **state)
{
    (void)state;
    Run r;
    run_file(&r, "data/sacct-json-sarc/mila_1706227200.json");
    const Got *g = find(&r, "1", 1);
    /* exit_code {status [CANCELLED], return_code {set:false}, signal.id {set:false}} */
    assert_int_equal(g->rec.exit_code, -1);
    assert_int_equal(g->rec.exit_signal, -1);
    assert_near(g->rec.total_cpu_s, 8800); /* job time.total, not the sum of 2 steps */
    assert_near(g->rec.req_mem_mib, 8192);
    assert_int_equal(g->rec.ncpus, 4);
    g = find(&r, "3", 1); /* FAILED, return_code {set:true, number:1} */
    assert_int_equal(g->rec.exit_code, 1);
    assert_int_equal(g->rec.exit_signal, 0);
    assert_near(find(&r, "7", 1)->rec.req_gpus, -1); /* no gpu in tres.requested */
    run_free(&r);
    run_file(&r, "data/sacct-json-sarc/mila_1708819200.json");
    g = find(&r, "12", 1); /* PENDING: nothing allocated, GPUs from the request */
    assert_near(g->rec.gpus, 1);
    assert_near(g->rec.req_gpus, 1);
    assert_int_equal(g->rec.start, CP_TIME_NONE);
    assert_near(g->rec.total_cpu_s, -1);
    run_free(&r);
}

static void test_sandbox(void **state)
{
    (void)state;
    Run r;
    run_file(&r, "data/slurm-sandbox/sacct.json");
    assert_int_equal(r.rc, 0);
    assert_string_equal(r.fmt, "sacct-json 22.05");
    assert_int_equal(r.n, 19); /* 18 jobs, job 19 twice */
    assert_int_equal(r.ctx.rows_read, 19);
    assert_int_equal(r.rejects, 0);
    /* both attempts of the requeued job 19, the preempted one first */
    const Got *a = find(&r, "19", 1), *b = find(&r, "19", 2);
    assert_int_equal(a->rec.state, CP_ST_PREEMPTED);
    assert_int_equal(a->rec.submit, 1795329428); /* 2026-11-22T06:37:08 */
    assert_int_equal(a->rec.elapsed, 4);
    assert_int_equal(b->rec.state, CP_ST_COMPLETED);
    assert_int_equal(b->rec.submit, 1795329433); /* 2026-11-22T06:37:13 */
    assert_int_equal(b->rec.eligible, 1795329554);
    assert_int_equal(b->rec.elapsed, 20);
    /* the array: the last task keeps the array's id */
    static const struct { const char *id; int64_t raw; int task; CpState st; } arr[] = {
        {"5_1", 15, 1, CP_ST_COMPLETED}, {"5_2", 16, 2, CP_ST_COMPLETED},
        {"5_3", 17, 3, CP_ST_FAILED},    {"5_4", 5, 4, CP_ST_COMPLETED},
    };
    for (size_t i = 0; i < sizeof arr / sizeof arr[0]; i++) {
        const Got *g = find(&r, arr[i].id, 1);
        assert_int_equal(g->rec.job_raw, arr[i].raw);
        assert_int_equal(g->rec.array_job, 5);
        assert_int_equal(g->rec.array_task, arr[i].task);
        assert_int_equal(g->rec.state, arr[i].st);
    }
    /* GPUs: untyped total, never typed + untyped */
    const Got *g = find(&r, "6", 1); /* --gres=gpu:1: alloc gpu=1 + gpu:a100=1, req gpu=1 */
    assert_near(g->rec.gpus, 1);
    assert_near(g->rec.req_gpus, 1);
    assert_string_equal(g->gpu_type, "a100");
    g = find(&r, "7", 1);
    assert_near(g->rec.gpus, 2);
    assert_string_equal(g->gpu_type, "a100");
    g = find(&r, "8", 1); /* --gpus=2: request untyped, allocation typed */
    assert_near(g->rec.gpus, 2);
    assert_near(g->rec.req_gpus, 2);
    assert_string_equal(g->gpu_type, "a100");
    double sum = 0;
    for (int i = 0; i < r.n; i++)
        sum += r.jobs[i].rec.gpus;
    assert_near(sum, 5);
    /* steps folded: MaxRSS of sacct -P's step rows, in MiB */
    g = find(&r, "9", 1);
    assert_near(g->rec.max_rss_mib, 212172.0 / 1024); /* 9.batch 212172K */
    assert_near(g->rec.req_mem_mib, 1024);
    assert_near(g->rec.total_cpu_s, 0.118008); /* TotalCPU 00:00.118 */
    assert_near(g->rec.gpu_mem_gib, -1);       /* no gres/gpumem: unknown, not 0 */
    g = find(&r, "10", 1);
    assert_int_equal(g->rec.state, CP_ST_FAILED);
    assert_int_equal(g->rec.exit_code, 0); /* SIGNALED, signal_id 9: "0:9" */
    assert_int_equal(g->rec.exit_signal, 9);
    assert_near(g->rec.max_rss_mib, 417112.0 / 1024); /* 10.batch 417112K */
    g = find(&r, "2", 1);
    assert_near(g->rec.max_rss_mib, 11860.0 / 1024); /* 2.batch 11860K */
    assert_near(g->rec.total_cpu_s, 0.027706);      /* TotalCPU 00:00.027 */
    g = find(&r, "14", 1); /* no .batch: extern and .0 only */
    assert_near(g->rec.max_rss_mib, 1664.0 / 1024);
    g = find(&r, "1", 1);
    assert_int_equal(g->rec.state, CP_ST_TIMEOUT);
    assert_int_equal(g->rec.elapsed, 87);
    assert_int_equal(g->rec.timelimit, 60);
    g = find(&r, "11", 1);
    assert_int_equal(g->rec.ncpus, 2);
    assert_near(g->rec.req_mem_mib, 200);
    g = find(&r, "13", 1);
    assert_string_equal(g->state_raw, "CANCELLED"); /* the JSON has no "by UID" */
    assert_string_equal(find(&r, "20", 1)->user, "alice");
    assert_string_equal(find(&r, "20", 1)->cluster, "sandbox");
    /* progress: once at the end at least, with the whole file (416653 bytes) */
    assert_true(r.progress_calls >= 1);
    assert_int_equal(r.last_bytes, 416653);
    assert_int_equal(r.last_rows, 19);
    run_free(&r);
}

static void test_sandbox_cgroup(void **state)
{
    (void)state;
    Run r;
    run_file(&r, "data/slurm-sandbox/cgroup/sacct.json");
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.n, 19);
    const Got *g = find(&r, "10", 1);
    assert_int_equal(g->rec.state, CP_ST_OUT_OF_MEMORY);
    assert_string_equal(g->state_raw, "OUT_OF_MEMORY");
    assert_int_equal(g->rec.exit_code, 0);
    assert_int_equal(g->rec.exit_signal, 125);
    assert_near(g->rec.max_rss_mib, 3608576.0 / (1024 * 1024)); /* 3524K */
    assert_int_equal(find(&r, "19", 1)->rec.submit, 1795329717);
    assert_int_equal(find(&r, "19", 2)->rec.submit, 1795329723);
    assert_int_equal(find(&r, "1", 1)->rec.elapsed, 86);
    run_free(&r);
}

/* ---- bad input: clean errors naming the line ---- */

static void test_truncated(void **state)
{
    (void)state;
    const char *path = tu_shared("data/slurm-sandbox/sacct.json");
    FILE *in = fopen(path, "rb");
    assert_non_null(in);
    char *buf = malloc(100000);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, 100000, in), 100000);
    fclose(in);
    FILE *f = temp_with(buf, 100000);
    free(buf);
    Run r;
    run_stream(&r, f, "cut.json", 0);
    fclose(f);
    assert_int_equal(r.rc, -1);
    /* byte 100000 is on line 4010, inside job 5 (element from line 3809) */
    assert_string_equal(r.err.msg, "cut.json:4010: unexpected end of input inside the value "
                                   "that starts at line 3809");
    assert_int_equal(r.n, 4); /* 19, 1, 2, 3 got through */
    run_free(&r);
}

static void test_binary_junk(void **state)
{
    (void)state;
    static const char elf[] = "\x7f" "ELF\x02\x01\x01\x00\x00\x00\xff\xfe";
    FILE *f = temp_with(elf, sizeof elf - 1);
    Run r;
    run_stream(&r, f, "bin.json", 0);
    fclose(f);
    assert_int_equal(r.rc, -1);
    assert_string_equal(r.err.msg, "bin.json:1: not a JSON object: expected '{', found byte 0x7f");
    assert_int_equal(r.n, 0);
    run_free(&r);

    run_text(&r, "{\"jobs\": [{\"job_id\": 1}]}\n\x01garbage", "tail.json", 0);
    assert_int_equal(r.rc, -1);
    assert_string_equal(r.err.msg, "tail.json:2: junk after the end of the JSON value: byte 0x01");
    assert_int_equal(r.n, 1);
    run_free(&r);

    run_text(&r, "{\"jobs\": [\n{\"job_id\": 1}\n{\"job_id\": 2}]}", "comma.json", 0);
    assert_int_equal(r.rc, -1);
    assert_string_equal(r.err.msg,
                        "comma.json:3: expected ',' or ']' after an array element, found '{'");
    run_free(&r);

    /* junk bytes as an element: that element is rejected, the rest lands */
    run_text(&r, "{\"jobs\": [\n\x01\x02\x03,\n{\"job_id\": 2}]}", "mid.json", 0);
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.rejects, 1);
    assert_string_equal(r.last_reject, "mid.json:2: unexpected byte 0x01 at line 2");
    assert_int_equal(r.n, 1);
    assert_int_equal(r.ctx.rows_read, 2);
    run_free(&r);
}

static void test_empty(void **state)
{
    (void)state;
    Run r;
    run_text(&r, "", "empty.json", 0);
    assert_int_equal(r.rc, -1);
    assert_string_equal(r.err.msg, "empty.json:1: empty input: no JSON value");
    run_free(&r);
    run_text(&r, "\n  \n", "blank.json", 0);
    assert_int_equal(r.rc, -1);
    assert_string_equal(r.err.msg, "blank.json:3: empty input: no JSON value");
    run_free(&r);
    run_text(&r, "{\"meta\": {}, \"errors\": []}", "nojobs.json", 0);
    assert_int_equal(r.rc, -1);
    assert_string_equal(r.err.msg, "nojobs.json:1: no \"jobs\" array in the top-level object");
    run_free(&r);
    run_text(&r, "{\"jobs\": []}", "zero.json", 0);
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.n, 0);
    assert_string_equal(r.fmt, "sacct-json");
    run_free(&r);
    run_text(&r, "[{\"job_id\": 1}]", "list.json", 0);
    assert_int_equal(r.rc, -1);
    assert_string_equal(r.err.msg, "list.json:1: not a JSON object: expected '{', found '['");
    run_free(&r);
}

static void test_non_object_element(void **state)
{
    (void)state;
    static const char text[] = "{\"jobs\": [\n1,\n{\"job_id\": 2, \"cluster\": \"c\"}\n]}";
    Run r;
    run_text(&r, text, "num.json", 0);
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.rejects, 1);
    assert_int_equal(r.ctx.rows_rejected, 1);
    assert_string_equal(r.last_reject, "num.json:2: job element is not a JSON object");
    assert_int_equal(r.n, 1);
    assert_string_equal(r.jobs[0].job_id, "2");
    assert_int_equal(r.ctx.rows_read, 2);
    run_free(&r);
    /* strict: the first rejected line stops the read */
    run_text(&r, text, "num.json", 1);
    assert_int_equal(r.rc, -1);
    assert_string_equal(r.err.msg, "num.json:2: job element is not a JSON object");
    assert_int_equal(r.n, 0);
    run_free(&r);
}

static void test_bad_job_fields(void **state)
{
    (void)state;
    Run r;
    run_text(&r, "{\"jobs\": [\n{\"job_id\": \"19\"},\n{\"job_id\": 20}\n]}", "str.json", 0);
    assert_int_equal(r.rc, 0);
    assert_string_equal(r.last_reject, "str.json:2: field job_id: a string, not a number");
    assert_int_equal(r.n, 1);
    assert_string_equal(r.jobs[0].job_id, "20");
    run_free(&r);
    run_text(&r, "{\"jobs\": [{\"name\": \"x\"}]}", "none.json", 1);
    assert_int_equal(r.rc, -1);
    assert_string_equal(r.err.msg, "none.json:1: field job_id: missing");
    run_free(&r);
    run_text(&r, "{\"jobs\": [{\"job_id\": 2.5}]}", "frac.json", 1);
    assert_string_equal(r.err.msg, "frac.json:1: field job_id: not a positive integer");
    run_free(&r);
    run_text(&r, "{\"jobs\": [\n\n{\"job_id\": 5, \"time\": \"soon\"}]}", "time.json", 1);
    assert_int_equal(r.rc, -1);
    assert_string_equal(r.err.msg, "time.json:3: field time: not an object");
    run_free(&r);
    run_text(&r, "{\"jobs\": [{\"job_id\": 5, \"tres\": {\"allocated\": 3}}]}", "tres.json", 1);
    assert_string_equal(r.err.msg, "tres.json:1: field tres.allocated: not a list");
    run_free(&r);
    run_text(&r, "{\"jobs\": [{\"job_id\": 5, \"state\": {\"current\": [1]}}]}", "st.json", 1);
    assert_string_equal(r.err.msg, "st.json:1: field state.current: a list entry is not a string");
    run_free(&r);
    /* a syntax error inside one element: rejected, the next one lands */
    run_text(&r, "{\"jobs\": [\n{\"job_id\": 1,\n \"x\": tru},\n{\"job_id\": 2}]}", "syn.json",
             0);
    assert_int_equal(r.rc, 0);
    assert_string_equal(r.last_reject, "syn.json:2: bad JSON at line 3 near 'tru}'");
    assert_int_equal(r.n, 1);
    assert_string_equal(r.jobs[0].job_id, "2");
    run_free(&r);
}

static void test_minimal_versions(void **state)
{
    (void)state;
    /* shapes the real files lack: a state list with a flag, an infinite
     * limit, signal.id, a pending array range, step peaks with gpumem, MIG
     * slices, typed and untyped GPU entries that differ */
    static const char text[] =
        "{\"meta\": {\"slurm\": {\"version\": {\"major\": \"24\", \"minor\": \"11\"}}},\n"
        " \"jobs\": [\n"
        "  {\"job_id\": 7, \"array\": {\"job_id\": 7, \"task_id\": {\"set\": false},"
        " \"task\": \"1-3\"},\n"
        "   \"state\": {\"current\": [\"PENDING\", \"REQUEUED\"]},\n"
        "   \"time\": {\"limit\": {\"set\": true, \"infinite\": true, \"number\": 0}},\n"
        "   \"exit_code\": {\"status\": [\"SIGNALED\"], \"return_code\": {\"set\": false},"
        " \"signal\": {\"id\": {\"set\": true, \"number\": 15}}}},\n"
        "  {\"job_id\": 8, \"array\": {\"job_id\": 7, \"task_id\": {\"set\": true, \"number\": 2}},\n"
        "   \"tres\": {\"allocated\": [{\"type\": \"gres\", \"name\": \"gpu:a100_3g.20gb\","
        " \"count\": 7}]},\n"
        "   \"steps\": [{\"tres\": {\"requested\": {\"max\": [\n"
        "     {\"type\": \"gres\", \"name\": \"gpumem\", \"count\": 2147483648},\n"
        "     {\"type\": \"mem\", \"name\": \"\", \"count\": 1048576}]}},\n"
        "     \"time\": {\"total\": {\"seconds\": 3, \"microseconds\": 500000}}},\n"
        "    {\"tres\": {\"requested\": {\"max\": [\n"
        "     {\"type\": \"gres\", \"name\": \"gpumem\", \"count\": 1073741824}]}},\n"
        "     \"time\": {\"total\": {\"seconds\": 1, \"microseconds\": 0}}}]},\n"
        "  {\"job_id\": 9, \"tres\": {\"allocated\": [\n"
        "     {\"type\": \"gres\", \"name\": \"gpu:h100\", \"count\": 1},\n"
        "     {\"type\": \"gres\", \"name\": \"gpu\", \"count\": 1}],\n"
        "   \"requested\": [{\"type\": \"gres\", \"name\": \"gpu:a100_1g.5gb\", \"count\": 2}]}}\n"
        " ]}\n";
    Run r;
    run_text(&r, text, "v24.json", 1);
    assert_int_equal(r.rc, 0);
    assert_string_equal(r.fmt, "sacct-json 24.11");
    assert_int_equal(r.n, 3);
    const Got *g = &r.jobs[0];
    assert_string_equal(g->job_id, "7_[1-3]");
    assert_int_equal(g->rec.array_job, 7);
    assert_int_equal(g->rec.array_task, -1);
    assert_string_equal(g->state_raw, "PENDING,REQUEUED");
    assert_int_equal(g->rec.state, CP_ST_PENDING);
    assert_int_equal(g->rec.timelimit, CP_DUR_UNLIMITED);
    assert_int_equal(g->rec.exit_code, 0);
    assert_int_equal(g->rec.exit_signal, 15);
    g = &r.jobs[1];
    assert_string_equal(g->job_id, "7_2");
    assert_int_equal(g->rec.job_raw, 8);
    assert_near(g->rec.gpus, 3); /* 7 slices of 3/7 of an A100 */
    assert_string_equal(g->gpu_type, "a100_3g.20gb");
    assert_near(g->rec.gpu_mem_gib, 2);
    assert_near(g->rec.max_rss_mib, 1);
    assert_near(g->rec.total_cpu_s, 4.5);
    g = &r.jobs[2]; /* gres/gpu:h100=1,gres/gpu=1: the untyped total, never both */
    assert_near(g->rec.gpus, 1);
    assert_string_equal(g->gpu_type, "h100");
    assert_near(g->rec.req_gpus, 2.0 / 7);
    run_free(&r);
}

/* ---- json_stream on its own ---- */

typedef struct Seen {
    int n, stop_after, bad, members;
    int64_t lines[16];
    int types[16];
    char member_keys[64];
    char last_bad[CP_ERR_MAX];
    int64_t bad_line;
} Seen;

static int seen_each(void *ctx, cJSON *elem, int64_t line, CpErr *err)
{
    Seen *s = ctx;
    (void)err;
    if (s->n < 16) {
        s->lines[s->n] = line;
        s->types[s->n] = elem->type & 0xff;
    }
    s->n++;
    return s->stop_after && s->n == s->stop_after ? 1 : 0;
}

static int seen_member(void *ctx, const char *key, cJSON *value, int64_t line, CpErr *err)
{
    Seen *s = ctx;
    (void)value;
    (void)line;
    (void)err;
    s->members++;
    strncat(s->member_keys, key, sizeof s->member_keys - strlen(s->member_keys) - 2);
    strcat(s->member_keys, ";");
    return 0;
}

static int seen_bad(void *ctx, int64_t line, const char *reason, CpErr *err)
{
    Seen *s = ctx;
    (void)err;
    s->bad++;
    s->bad_line = line;
    copy(s->last_bad, sizeof s->last_bad, reason);
    return 0;
}

static int stream_text(const char *text, size_t n, const char *key, size_t max, Seen *s,
                       int with_bad, CpErr *err)
{
    FILE *f = temp_with(text, n);
    JsonStreamOpts o = {.key = key, .max_elem_bytes = max, .name = "t.json", .each = seen_each,
                        .member = seen_member, .bad = with_bad ? seen_bad : NULL, .ctx = s};
    err->msg[0] = '\0';
    int rc = json_stream_run(f, &o, err);
    fclose(f);
    return rc;
}

static void test_stream_top_array(void **state)
{
    (void)state;
    static const char text[] = "\xEF\xBB\xBF[\n {\"a\": \"]}\\\"[{\", \"b\": [1, {}]},\n\n"
                               " [1, [2, [3]]],\n \"s\\u00e9\",\n 42, true, null\n]\n";
    Seen s = {0};
    CpErr err;
    assert_int_equal(stream_text(text, strlen(text), NULL, 1024, &s, 0, &err), 0);
    assert_int_equal(s.n, 6);
    static const int64_t lines[] = {2, 4, 5, 6, 6, 6};
    static const int types[] = {cJSON_Object, cJSON_Array, cJSON_String,
                                cJSON_Number, cJSON_True,  cJSON_NULL};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(s.lines[i], lines[i]);
        assert_int_equal(s.types[i], types[i]);
    }
    /* the convenience form, and an early stop */
    Seen t = {.stop_after = 2};
    FILE *f = temp_with(text, strlen(text));
    assert_int_equal(json_stream_array(f, NULL, seen_each, &t, 1024, &err), 1);
    fclose(f);
    assert_int_equal(t.n, 2);
    Seen e = {0};
    assert_int_equal(stream_text("[]", 2, NULL, 16, &e, 0, &err), 0);
    assert_int_equal(e.n, 0);
}

static void test_stream_members(void **state)
{
    (void)state;
    static const char text[] = "{\"errors\": [], \"jobs\": [{\"x\": 1}, {\"x\": 2}],\n"
                               " \"meta\": {\"v\": [1, 2]}, \"jobs2\": 3}";
    Seen s = {0};
    CpErr err;
    assert_int_equal(stream_text(text, strlen(text), "jobs", 1024, &s, 0, &err), 0);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.member_keys, "errors;meta;jobs2;");
    Seen t = {0};
    assert_int_equal(stream_text("{\"jobs\": {}}", 12, "jobs", 64, &t, 0, &err), -1);
    assert_string_equal(err.msg, "t.json:1: member \"jobs\" is not an array");
    assert_int_equal(stream_text("{\"jobs\": [],}", 13, "jobs", 64, &t, 0, &err), -1);
    assert_string_equal(err.msg, "t.json:1: expected a member name, found '}'");
    assert_int_equal(stream_text("{\"jobs\" []}", 11, "jobs", 64, &t, 0, &err), -1);
    assert_string_equal(err.msg, "t.json:1: expected ':' after \"jobs\", found '['");
    assert_int_equal(stream_text("{\"meta\": {\"a\": 1]}", 18, "jobs", 64, &t, 0, &err), -1);
    assert_string_equal(err.msg, "t.json:1: ']' does not close '{'");
}

static void test_stream_errors(void **state)
{
    (void)state;
    Seen s = {0};
    CpErr err;
    assert_int_equal(stream_text("[1,]", 4, NULL, 64, &s, 0, &err), -1);
    assert_string_equal(err.msg, "t.json:1: expected a value, found ']'");
    assert_int_equal(stream_text("[\"abc", 5, NULL, 64, &s, 0, &err), -1);
    assert_string_equal(err.msg,
                        "t.json:1: unexpected end of input inside the value that starts at line 1");
    assert_int_equal(stream_text("[1,\n2", 5, NULL, 64, &s, 0, &err), -1);
    assert_string_equal(err.msg, "t.json:2: unexpected end of input");
    assert_int_equal(stream_text("[{\"a\": 1]]", 10, NULL, 64, &s, 0, &err), -1);
    assert_string_equal(err.msg, "t.json:1: ']' does not close '{'");
    assert_int_equal(stream_text("{\"a\": 1}", 8, NULL, 64, &s, 0, &err), -1);
    assert_string_equal(err.msg, "t.json:1: not a JSON array: expected '[', found '{'");
    /* a raw control byte inside a string: bad element */
    assert_int_equal(stream_text("[\"a\x01\"]", 6, NULL, 64, &s, 0, &err), -1);
    assert_string_equal(err.msg, "t.json:1: raw control byte 0x01 inside a string at line 1");
    /* nesting deeper than the scanner's stack */
    char deep[1200];
    memset(deep, '[', 600);
    memset(deep + 600, ']', 600);
    assert_int_equal(stream_text(deep, sizeof deep, NULL, 4096, &s, 0, &err), -1);
    assert_string_equal(err.msg, "t.json:1: nesting deeper than 512 levels");
}

static void test_stream_big_elements(void **state)
{
    (void)state;
    /* an element of 300 000 bytes spans several 64 KiB chunks */
    size_t big = 300000, n = big + 64;
    char *text = malloc(n);
    assert_non_null(text);
    size_t k = (size_t)snprintf(text, n, "[\n\"");
    memset(text + k, 'x', big);
    k += big;
    k += (size_t)snprintf(text + k, n - k, "\",\n{\"a\": 1}\n]");
    Seen s = {0};
    CpErr err;
    assert_int_equal(stream_text(text, k, NULL, big + 2, &s, 0, &err), 0);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.lines[1], 3);
    /* too big without a bad callback: stops, naming the element's line */
    Seen t = {0};
    assert_int_equal(stream_text(text, k, NULL, 1000, &t, 0, &err), -1);
    assert_string_equal(err.msg, "t.json:2: value larger than 1000 bytes");
    assert_int_equal(t.n, 0);
    /* with one: reported, skipped, and the stream goes on in step */
    Seen u = {0};
    assert_int_equal(stream_text(text, k, NULL, 1000, &u, 1, &err), 0);
    assert_int_equal(u.bad, 1);
    assert_int_equal(u.bad_line, 2);
    assert_string_equal(u.last_bad, "value larger than 1000 bytes");
    assert_int_equal(u.n, 1);
    assert_int_equal(u.lines[0], 3);
    free(text);
}

static int count_each(void *ctx, cJSON *elem, int64_t line, CpErr *err)
{
    int64_t *c = ctx;
    (void)err;
    if (c[0] == 999) { /* the 1000th element */
        assert_int_equal(line, 27304);
        assert_string_equal(cJSON_GetObjectItem(elem, "jobid")->valuestring,
                            "application_1506638472019_10483");
    }
    c[0]++;
    c[1] = line;
    return 0;
}

static void test_stream_philly(void **state)
{
    (void)state;
    /* the Philly trace: a 1.4 MB top-level list of 2667 jobs */
    FILE *f = fopen(tu_shared("data/gpu-trace-philly-dre-sample/sampled_jobs.shared.json"), "rb");
    assert_non_null(f);
    int64_t c[2] = {0, 0};
    CpErr err;
    assert_int_equal(json_stream_array(f, NULL, count_each, c, 1 << 20, &err), 0);
    fclose(f);
    assert_int_equal(c[0], 2667);
    assert_int_equal(c[1], 71164); /* where the last element starts */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slurm_21_08),
        cmocka_unit_test(test_slurm_22_05_array),
        cmocka_unit_test(test_slurm_23_02_running),
        cmocka_unit_test(test_mila_25_05),
        cmocka_unit_test(test_mila_25_05_details),
        cmocka_unit_test(test_sandbox),
        cmocka_unit_test(test_sandbox_cgroup),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_binary_junk),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_non_object_element),
        cmocka_unit_test(test_bad_job_fields),
        cmocka_unit_test(test_minimal_versions),
        cmocka_unit_test(test_stream_top_array),
        cmocka_unit_test(test_stream_members),
        cmocka_unit_test(test_stream_errors),
        cmocka_unit_test(test_stream_big_elements),
        cmocka_unit_test(test_stream_philly),
    };
    return cmocka_run_group_tests_name("sacct_json", tests, NULL, NULL);
}
