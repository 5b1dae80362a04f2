/* Unit tests of data/ingest/fields.c: every notation of DESIGN.md's ingest rules,
 * with values worked out by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "data/ingest/fields.h"
#include "data/ingest/tz.h"

static int64_t tm(const char *s)
{
    int64_t t = 0;
    CpErr err;
    assert_int_equal(fields_time(s, strlen(s), 0, &t, &err), 0);
    return t;
}

static void test_times(void **state)
{
    (void)state;
    /* 2024-01-23T16:58:36 UTC: date -u -d '2024-01-23 16:58:36' +%s */
    assert_int_equal(tm("2024-01-23T16:58:36"), 1706029116);
    assert_int_equal(tm("1970-01-01T00:00:00"), 0);
    assert_int_equal(tm("2000-02-29T12:00:00"), 951825600);
    /* an offset wins over the default zone */
    assert_int_equal(tm("2025-05-02T14:09:52+02:00"), tm("2025-05-02T12:09:52"));
    assert_int_equal(tm("2017-10-03 12:00:00"), tm("2017-10-03T12:00:00"));
    assert_int_equal(tm("Unknown"), CP_TIME_NONE);
    assert_int_equal(tm("None"), CP_TIME_NONE);
    assert_int_equal(tm(""), CP_TIME_NONE);
    assert_int_equal(tm("1795329428"), 1795329428);
    int64_t t;
    CpErr err;
    assert_int_equal(fields_time("2024-13-01T00:00:00", 19, 0, &t, &err), -1);
    assert_string_equal(err.msg, "bad time '2024-13-01T00:00:00'");
    assert_int_equal(fields_time("2023-02-29T00:00:00", 19, 0, &t, &err), -1);
    assert_int_equal(fields_time("2024-01-23T16:58:36x", 20, 0, &t, &err), -1);
    assert_int_equal(fields_time("yesterday", 9, 0, &t, &err), -1);
    /* sacct's 19-byte shape has its own reader: the same limits */
    assert_int_equal(tm("2016-12-31T23:59:60"), tm("2017-01-01T00:00:00"));
    assert_int_equal(fields_time("2024-01-23T24:00:00", 19, 0, &t, &err), -1);
    assert_int_equal(fields_time("2024-01-23T16:60:00", 19, 0, &t, &err), -1);
    assert_int_equal(fields_time("2024-04-31T00:00:00", 19, 0, &t, &err), -1);
    assert_int_equal(fields_time("2024-01-2xT16:58:36", 19, 0, &t, &err), -1);
    assert_string_equal(err.msg, "bad time '2024-01-2xT16:58:36'");
    /* a zone-less time read in UTC+01:00 is one hour earlier in UTC */
    CpTz plus1 = tz_fixed(3600);
    assert_int_equal(fields_time("2024-01-23T16:58:36", 19, &plus1, &t, &err), 0);
    assert_int_equal(t, 1706029116 - 3600);
}

static void test_civil_round_trip(void **state)
{
    (void)state;
    int y, mo, d, h, mi, s;
    for (int64_t t = -86400 * 400; t < 4102444800; t += 86400 * 37 + 3671) {
        fields_civil_of(t, &y, &mo, &d, &h, &mi, &s);
        assert_int_equal(fields_epoch_of(y, mo, d, h, mi, s), t);
    }
}

static int64_t dur(const char *s)
{
    int64_t v = 0;
    CpErr err;
    assert_int_equal(fields_duration(s, strlen(s), &v, &err), 0);
    return v;
}

static void test_durations(void **state)
{
    (void)state;
    assert_int_equal(dur("05:30"), 330);
    assert_int_equal(dur("01:02:03"), 3723);
    assert_int_equal(dur("7-20:39:39"), 7 * 86400 + 20 * 3600 + 39 * 60 + 39);
    assert_int_equal(dur("125-00:00:00"), 125 * 86400);
    assert_int_equal(dur("00:00.005"), 0);
    assert_int_equal(dur("00:46.033"), 46);
    assert_int_equal(dur("1-18:14:10"), 86400 + 18 * 3600 + 14 * 60 + 10);
    assert_int_equal(dur("2-12"), 2 * 86400 + 12 * 3600);
    assert_int_equal(dur("UNLIMITED"), CP_DUR_UNLIMITED);
    assert_int_equal(dur("Partition_Limit"), CP_DUR_UNLIMITED);
    assert_int_equal(dur(""), CP_DUR_UNKNOWN);
    assert_int_equal(dur("86413"), 86413);
    int64_t v;
    CpErr err;
    assert_int_equal(fields_duration("1-2x:00", 7, &v, &err), -1);
    assert_string_equal(err.msg, "bad duration '1-2x:00'");
    assert_int_equal(fields_duration("10:61", 5, &v, &err), -1);
    assert_int_equal(fields_duration("1-25:00:00", 10, &v, &err), -1);
    assert_int_equal(fields_duration("1:", 2, &v, &err), -1);
}

static double mem(const char *s, int32_t ncpus, int32_t nnodes)
{
    double v = 0;
    CpErr err;
    assert_int_equal(fields_mem(s, strlen(s), 0, ncpus, nnodes, &v, &err), 0);
    return v;
}

static void test_memory(void **state)
{
    (void)state;
    assert_float_equal(mem("4000M", 1, 1), 4000, 1e-9);
    assert_float_equal(mem("4G", 1, 1), 4096, 1e-9);
    assert_float_equal(mem("16Gn", 8, 2), 2 * 16384, 1e-9);
    assert_float_equal(mem("2Gc", 8, 2), 8 * 2048, 1e-9);
    assert_float_equal(mem("4000Mc", 4, 1), 16000, 1e-9);
    assert_float_equal(mem("0n", 1, 0), -1, 1e-9); /* all the node's: unknown */
    assert_float_equal(mem("0c", 4, 1), -1, 1e-9);
    assert_float_equal(mem("0", 4, 1), 0, 1e-9);
    assert_float_equal(mem("62.50G", 1, 1), 64000, 1e-9);
    assert_float_equal(mem("33549588K", 1, 1), 33549588 / 1024.0, 1e-9);
    assert_float_equal(mem("", 1, 1), -1, 1e-9);
    double v;
    CpErr err;
    /* --noconvert: a plain number is bytes */
    assert_int_equal(fields_mem("1073741824", 10, 1, 0, 0, &v, &err), 0);
    assert_float_equal(v, 1024, 1e-9);
    assert_int_equal(fields_mem("12Q", 3, 0, 1, 1, &v, &err), -1);
    assert_string_equal(err.msg, "bad memory '12Q'");
    assert_int_equal(fields_mem("G", 1, 0, 1, 1, &v, &err), -1);
}

static CpTres tres(const char *s)
{
    CpTres t;
    CpErr err;
    assert_int_equal(fields_tres(s, strlen(s), &t, &err), 0);
    return t;
}

static void test_tres_gpus(void **state)
{
    (void)state;
    assert_float_equal(tres("billing=1,cpu=1,mem=100M,node=1").gpus, -1, 1e-9);
    assert_float_equal(tres("gres/gpu=4").gpus, 4, 1e-9);
    CpTres t = tres("gres/gpu:a100=4");
    assert_float_equal(t.gpus, 4, 1e-9);
    assert_string_equal(t.gpu_type, "a100");
    /* both at once: the untyped total, never the sum */
    t = tres("billing=1,cpu=1,gres/gpu:a100=1,gres/gpu=1,mem=100M,node=1");
    assert_float_equal(t.gpus, 1, 1e-9);
    assert_string_equal(t.gpu_type, "a100");
    assert_float_equal(t.mem_mib, 100, 1e-9);
    assert_float_equal(t.cpus, 1, 1e-9);
    assert_float_equal(tres("gres/gpu:h100=1,gres/gpu=1").gpus, 1, 1e-9);
    /* typed entries only: their sum */
    assert_float_equal(tres("gres/gpu:a100=2,gres/gpu:v100=2").gpus, 4, 1e-9);
    /* MIG slices: 3g of an A100 is 3/7 of a GPU */
    assert_float_equal(tres("gres/gpu:a100_3g.20gb=1").gpus, 3.0 / 7.0, 1e-9);
    assert_float_equal(tres("gres/gpu:a100_1g.5gb=2").gpus, 2.0 / 7.0, 1e-9);
    /* GPU memory used: with units, or raw bytes (--noconvert) */
    assert_float_equal(tres("cpu=00:00:00,gres/gpumem=20G,mem=4288K").gpu_mem_gib, 20, 1e-9);
    assert_float_equal(tres("gres/gpumem=21474836480").gpu_mem_gib, 20, 1e-9);
    assert_float_equal(tres("gres/gpuutil=87").gpu_util, 87, 1e-9);
    assert_float_equal(tres("").gpus, -1, 1e-9);
    CpErr err;
    assert_int_equal(fields_tres("gres/gpu=x", 10, &t, &err), -1);
    assert_int_equal(fields_tres("billing", 7, &t, &err), -1);
    assert_string_equal(err.msg, "bad TRES 'billing'");
    assert_int_equal(fields_tres("gres/gpu=-1", 11, &t, &err), -1);
    /* the memo answers as fields_tres does, for a list seen before too;
     * a bad list is refused every time */
    FieldsTresMemo *m = calloc(1, sizeof *m);
    assert_non_null(m);
    const char *l = "billing=32,cpu=16,gres/gpu:a100=1,gres/gpu=1,mem=125G,node=1";
    for (int i = 0; i < 2; i++) {
        assert_int_equal(fields_tres_memo(m, l, strlen(l), &t, &err), 0);
        assert_float_equal(t.gpus, 1, 1e-9);
        assert_string_equal(t.gpu_type, "a100");
        assert_float_equal(t.mem_mib, 125 * 1024, 1e-9);
        assert_float_equal(t.cpus, 16, 1e-9);
        assert_int_equal(fields_tres_memo(m, "gres/gpu=4", 10, &t, &err), 0);
        assert_float_equal(t.gpus, 4, 1e-9);
        assert_float_equal(t.cpus, -1, 1e-9);
        assert_int_equal(fields_tres_memo(m, "billing", 7, &t, &err), -1);
        assert_string_equal(err.msg, "bad TRES 'billing'");
    }
    free(m);
}

static double gres(const char *s, char type[CP_GPU_TYPE_MAX])
{
    double g;
    CpErr err;
    assert_int_equal(fields_gres(s, strlen(s), &g, type, &err), 0);
    return g;
}

static void test_gres(void **state)
{
    (void)state;
    char type[CP_GPU_TYPE_MAX];
    /* the forms of XDMoD's accounting-logs-with-gpu-gres.log */
    assert_float_equal(gres("gpu:2", type), 2, 1e-9);
    assert_float_equal(gres("gpu:V100:32", type), 32, 1e-9);
    assert_string_equal(type, "V100");
    assert_float_equal(gres("gpu:4,hbm:0", type), 4, 1e-9);
    assert_float_equal(gres("hbm:0,gpu:4,bandwidth:4G", type), 4, 1e-9);
    assert_float_equal(gres("gpu:P100:2(IDX:1,3)", type), 2, 1e-9);
    assert_string_equal(type, "P100");
    assert_float_equal(gres("gpu:0(IDX:N/A)", type), 0, 1e-9);
    assert_float_equal(gres("hbm:0", type), -1, 1e-9);
}

static void test_states(void **state)
{
    (void)state;
    assert_int_equal(fields_state("CANCELLED by 1234", 17), CP_ST_CANCELLED);
    assert_int_equal(fields_state("COMPLETED", 9), CP_ST_COMPLETED);
    assert_int_equal(fields_state("OUT_OF_MEMORY", 13), CP_ST_OUT_OF_MEMORY);
    assert_int_equal(fields_state("PREEMPTED", 9), CP_ST_PREEMPTED);
    assert_int_equal(fields_state("FOO", 3), CP_ST_OTHER);
    assert_int_equal(fields_state("", 0), CP_ST_OTHER);
    assert_string_equal(jobrec_state_name(CP_ST_NODE_FAIL), "NODE_FAIL");
}

static void test_job_ids(void **state)
{
    (void)state;
    int64_t id, parent;
    int32_t task;
    const char *step;
    size_t sl;
    CpErr err;
    assert_int_equal(fields_jobid("19", 2, &id, &parent, &task, &step, &sl, &err), 0);
    assert_int_equal(id, 19);
    assert_null(step);
    assert_int_equal(fields_jobid("5_3.batch", 9, &id, &parent, &task, &step, &sl, &err), 0);
    assert_int_equal(parent, 5);
    assert_int_equal(task, 3);
    assert_int_equal(sl, 5);
    assert_memory_equal(step, "batch", 5);
    assert_int_equal(fields_jobid("4103947_[91,100-102]", 20, &id, &parent, &task, &step, &sl,
                                  &err),
                     0);
    assert_int_equal(parent, 4103947);
    assert_int_equal(task, -1);
    assert_int_equal(fields_jobid("123+1.0", 7, &id, &parent, &task, &step, &sl, &err), 0);
    assert_int_equal(id, 123);
    assert_int_equal(fields_jobid("abc", 3, &id, &parent, &task, &step, &sl, &err), -1);
    assert_int_equal(fields_jobid("12.", 3, &id, &parent, &task, &step, &sl, &err), -1);
    assert_int_equal(fields_jobid("5_[1-3", 6, &id, &parent, &task, &step, &sl, &err), -1);
}

static void test_exit_codes(void **state)
{
    (void)state;
    int c, s;
    CpErr err;
    assert_int_equal(fields_exit("0:15", 4, &c, &s, &err), 0);
    assert_int_equal(c, 0);
    assert_int_equal(s, 15);
    assert_int_equal(fields_exit("", 0, &c, &s, &err), 0);
    assert_int_equal(c, -1);
    assert_int_equal(fields_exit("1:x", 3, &c, &s, &err), -1);
}

/* A finished job of 2 h on 2 GPUs, every value plausible (issue 14). */
static CpJobRec plain_job(void)
{
    CpJobRec r;
    jobrec_clear(&r);
    r.state = CP_ST_COMPLETED;
    r.submit = r.start = 1709280000; /* 2024-03-01T08:00:00 */
    r.end = r.start + 7200;
    r.elapsed = 7200;
    r.timelimit = 86400;
    r.gpus = 2;
    r.req_mem_mib = 16384;
    return r;
}

static CpRecMember refused(CpJobRec r, const char *why)
{
    CpRecMember m;
    CpErr err;
    assert_int_equal(jobrec_check(&r, &m, &err), -1);
    assert_string_equal(err.msg, why);
    return m;
}

static void test_jobrec_check(void **state)
{
    (void)state;
    CpRecMember m;
    CpErr err;
    CpJobRec r = plain_job();
    r.gpus = CP_MAX_GPUS;             /* 4096: the bound itself is allowed */
    r.req_mem_mib = CP_MAX_MEM_MIB;   /* 1 PiB */
    r.timelimit = CP_MAX_DURATION_S;  /* 10 years */
    r.end = r.start;                  /* cancelled at its start */
    assert_int_equal(jobrec_check(&r, &m, &err), 0);
    r = plain_job();
    r.gpus = 4097;
    assert_int_equal(refused(r, "GPU count 4097 above 4096 per job"), CP_M_GPUS);
    r = plain_job();
    r.req_gpus = 1e308;
    assert_int_equal(refused(r, "GPU count 1e+308 above 4096 per job"), CP_M_REQ_GPUS);
    r = plain_job();
    r.gpus = (double)INFINITY;
    assert_int_equal(refused(r, "GPU count is not a finite number"), CP_M_GPUS);
    r = plain_job();
    r.max_rss_mib = (double)NAN;
    assert_int_equal(refused(r, "memory (MiB) is not a finite number"), CP_M_MAX_RSS);
    r = plain_job();
    r.req_mem_mib = CP_MAX_MEM_MIB * 2;
    assert_int_equal(refused(r, "memory (MiB) 2.14748e+09 above 1 PiB"), CP_M_REQ_MEM);
    r = plain_job();
    r.elapsed = CP_MAX_DURATION_S + 1;
    r.end = CP_TIME_NONE;
    assert_int_equal(refused(r, "duration 315576001 s above 10 years"), CP_M_ELAPSED);
    r = plain_job();
    r.end = r.start - 1;
    assert_int_equal(refused(r, "end 2024-03-01T07:59:59 before start 2024-03-01T08:00:00"),
                     CP_M_END);
    /* 309 nines overflow a double: not a number at all (308 still parse) */
    char nines[312];
    double d;
    memset(nines, '9', 309);
    assert_int_equal(fields_double(nines, 309, &d, &err), -1);
    assert_int_equal(fields_double(nines, 308, &d, &err), 0);
    assert_true(isfinite(d) && d > 9.9e307);
    /* times before 2000-01-01 are unknown: end 13798 (seen in a real file) */
    r = plain_job();
    r.end = 13798;
    r.eligible = CP_EPOCH_FLOOR - 1;
    assert_int_equal(jobrec_check(&r, &m, &err), 0);
    assert_int_equal(r.end, CP_TIME_NONE);
    assert_int_equal(r.eligible, CP_TIME_NONE);
    assert_int_equal(r.submit, 1709280000);
    /* a running job has run at most its limit, even with 56 years of elapsed */
    r = plain_job();
    r.state = CP_ST_RUNNING;
    r.end = CP_TIME_NONE;
    r.elapsed = 1766000000;
    assert_int_equal(jobrec_check(&r, &m, &err), 0);
    assert_int_equal(r.elapsed, 86400);
    /* a finished one keeps what it says (a TIMEOUT overruns its limit) */
    r = plain_job();
    r.state = CP_ST_TIMEOUT;
    r.elapsed = 86400 + 120;
    r.end = r.start + r.elapsed;
    assert_int_equal(jobrec_check(&r, &m, &err), 0);
    assert_int_equal(r.elapsed, 86520);
    /* a running job with no limit (UNLIMITED) keeps its elapsed */
    r = plain_job();
    r.state = CP_ST_RUNNING;
    r.end = CP_TIME_NONE;
    r.timelimit = CP_DUR_UNLIMITED;
    r.elapsed = 10 * 86400;
    assert_int_equal(jobrec_check(&r, &m, &err), 0);
    assert_int_equal(r.elapsed, 864000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_times),      cmocka_unit_test(test_civil_round_trip),
        cmocka_unit_test(test_jobrec_check),
        cmocka_unit_test(test_durations),  cmocka_unit_test(test_memory),
        cmocka_unit_test(test_tres_gpus),  cmocka_unit_test(test_gres),
        cmocka_unit_test(test_states),     cmocka_unit_test(test_job_ids),
        cmocka_unit_test(test_exit_codes),
    };
    return cmocka_run_group_tests_name("fields", tests, NULL, NULL);
}
