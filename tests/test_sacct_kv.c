/* sacct_kv: the Key=Value CSV shape of sacct (sonar / NAICNO Jobanalyzer).
 * The real Fox file is read in place from the shared folder; every figure
 * asserted here was computed independently with python3 (csv module,
 * datetime.fromisoformat for the offsets) over the same file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "data/ingest/sacct_kv.h"
#include "data/ingest/tz.h"
#include "tests/lib/testutil.h"

#define FOX "data/sacct-kv-jobanalyzer-fox/slurm-sacct.csv"

/* Read path into s with a context shifted by tz (which must not matter:
 * every time in the file carries its own offset). */
static int read_kv(const char *path, TuSink *s, int64_t tz, int strict, CpErr *err)
{
    CpReadCtx rc;
    tu_read_ctx(&rc, s, path);
    CpTz zone = tz_fixed((int32_t)tz);
    rc.tz = &zone;
    rc.strict = strict;
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    int r = sacct_kv_read(f, &rc, err);
    fclose(f);
    assert_int_equal(rc.rows_read, s->n + s->rejected + (r < 0 ? 1 : 0));
    return r;
}

static int count_steps(const TuSink *s, const char *step)
{
    int n = 0;
    for (int i = 0; i < s->n; i++)
        if (s->jobs[i].has_step && (!step || strcmp(s->jobs[i].step, step) == 0))
            n++;
    return n;
}

static void fox_counts(void **state)
{
    (void)state;
    TuSink s;
    CpErr err = {""};
    assert_int_equal(read_kv(tu_shared(FOX), &s, 0, 0, &err), 0);
    assert_int_equal(s.n, 876);
    assert_int_equal(s.rejected, 0);
    assert_int_equal(s.n - count_steps(&s, NULL), 294);
    assert_int_equal(count_steps(&s, "extern"), 290);
    assert_int_equal(count_steps(&s, "batch"), 287);
    assert_int_equal(count_steps(&s, "0"), 4);
    assert_int_equal(count_steps(&s, "interactive"), 1);
    int gpu_jobs = 0, completed = 0, failed = 0;
    double gpus = 0;
    for (int i = 0; i < s.n; i++) {
        const TuJob *j = &s.jobs[i];
        if (j->has_step)
            continue;
        gpu_jobs += j->rec.gpus > 0;
        gpus += j->rec.gpus;
        completed += j->rec.state == CP_ST_COMPLETED;
        failed += j->rec.state == CP_ST_FAILED;
    }
    assert_int_equal(gpu_jobs, 84);
    assert_true(gpus == 84.0); /* one GPU each: typed and untyped never both */
    assert_int_equal(completed, 235);
    assert_int_equal(failed, 58);
    tu_sink_free(&s);
}

/* gres/gpu:a100=1,gres/gpu=1 counts one GPU; the +02:00 offsets win over
 * the context's zone. */
static void fox_gpu_jobs(void **state)
{
    (void)state;
    TuSink s;
    CpErr err = {""};
    assert_int_equal(read_kv(tu_shared(FOX), &s, 3600, 0, &err), 0);
    const TuJob *j = tu_find(&s, "1639021", 0);
    assert_non_null(j);
    assert_true(j->rec.gpus == 1.0);
    assert_string_equal(j->gpu_type, "a100");
    assert_true(j->rec.submit == 1746187779); /* 2025-05-02T14:09:39+02:00 */
    assert_true(j->rec.start == 1746187792);
    assert_true(j->rec.end == 1746274205);
    assert_true(j->rec.elapsed == 86413);
    assert_true(j->rec.timelimit == 1440 * 60);
    assert_int_equal(j->rec.state, CP_ST_TIMEOUT);
    assert_string_equal(j->user, "x10001");
    assert_string_equal(j->partition, "accel_long");
    assert_true(j->rec.total_cpu_s == 152050.0 + 17229.0); /* UserCPU + SystemCPU */
    assert_true(j->rec.req_mem_mib == 32768.0);

    j = tu_find(&s, "1641625", 0);
    assert_non_null(j);
    assert_true(j->rec.gpus == 1.0);
    assert_string_equal(j->gpu_type, "rtx30");
    assert_true(j->rec.submit == 1746225418);

    j = tu_find(&s, "1642606", 0);
    assert_non_null(j);
    assert_true(j->rec.gpus == 1.0);
    assert_int_equal(j->rec.ncpus, 16);
    assert_int_equal(j->rec.exit_code, 1);
    assert_true(j->rec.total_cpu_s == 4993.0 + 4167.0);

    j = tu_find(&s, "1639738", 0); /* a CPU job */
    assert_non_null(j);
    assert_true(j->rec.gpus == 0.0);
    assert_string_equal(j->gpu_type, "");
    assert_true(j->rec.start == 1746263969);
    tu_sink_free(&s);
}

/* The .batch step right after its job: MaxRSS in K, ExitCode with signal. */
static void fox_step_row(void **state)
{
    (void)state;
    TuSink s;
    CpErr err = {""};
    assert_int_equal(read_kv(tu_shared(FOX), &s, 0, 0, &err), 0);
    assert_string_equal(s.jobs[0].job_id, "1639021");
    assert_false(s.jobs[0].has_step);
    const TuJob *b = &s.jobs[1];
    assert_true(b->has_step);
    assert_string_equal(b->step, "batch");
    assert_string_equal(b->job_id, "1639021");
    assert_true(b->rec.job_raw == 1639021);
    assert_true(b->rec.max_rss_mib == 33549588.0 / 1024.0);
    assert_int_equal(b->rec.exit_code, 0);
    assert_int_equal(b->rec.exit_signal, 15);
    assert_int_equal(b->rec.state, CP_ST_CANCELLED);
    assert_true(b->rec.end == 1746274206);
    assert_string_equal(s.jobs[2].step, "extern");
    tu_sink_free(&s);
}

static const char bad_kv[] =
    "v=0.1.0,JobID=10,JobIDRaw=10,User=u1,State=COMPLETED,Submit=2025-05-02T14:09:39+02:00,"
    "\"AllocTRES=cpu=2,gres/gpu=2,mem=4G,node=1\"\r\n"
    "v=0.1.0,JobID=11,User=u1,Submit=2025-05-02T14:61:39+02:00\r\n"
    "v=0.1.0,JobID=12,User=u1,oops\r\n"
    "\r\n"
    "JobID=13,User=u2,\"JobName=a,b \"\"quoted\"\"\",Submit=2025-05-02T10:00:00\r\n";

/* A bad time and a cell without '=' are rejected with their line, the rest
 * is read; a zone-less time takes the context's offset. */
static void bad_lines(void **state)
{
    (void)state;
    char *path = tu_write_temp(bad_kv, sizeof bad_kv - 1);
    TuSink s;
    CpErr err = {""};
    assert_int_equal(read_kv(path, &s, 7200, 0, &err), 0);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.rejected, 2);
    char want[600];
    snprintf(want, sizeof want, "%s:3: cell 4 is not Key=Value: 'oops'", path);
    assert_string_equal(s.last_reject, want);
    assert_true(s.jobs[0].rec.gpus == 2.0);
    assert_string_equal(s.jobs[1].job_name, "a,b \"quoted\"");
    /* 2025-05-02T10:00:00 at +02:00 is 08:00 UTC */
    assert_true(s.jobs[1].rec.submit == 1746172800);
    tu_sink_free(&s);

    assert_int_equal(read_kv(path, &s, 0, 1, &err), -1);
    assert_int_equal(s.n, 1);
    snprintf(want, sizeof want, "%s:2: field Submit:", path);
    assert_memory_equal(err.msg, want, strlen(want));
    tu_sink_free(&s);
    unlink(path);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fox_counts),
        cmocka_unit_test(fox_gpu_jobs),
        cmocka_unit_test(fox_step_row),
        cmocka_unit_test(bad_lines),
    };
    return cmocka_run_group_tests_name("sacct_kv", tests, NULL, NULL);
}
