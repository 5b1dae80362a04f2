/* fuzz_fields: libFuzzer target for data/ingest/fields.c, every parser family in
 * one binary. The first byte picks the parser (and, for some, an option);
 * the rest is the value, handed over as an exact-size heap slice without a
 * terminating NUL, so that reading past the slice trips ASan.
 *
 *   byte0 % 10: 0 tres, 1 time, 2 duration, 3 mem, 4 jobid, 5 gres,
 *               6 state + exit code, 7 int + double, 8 gpu entry ("gpu:" + rest),
 *               9 civil date round trip (8 bytes of epoch seconds)
 *
 * Besides memory safety it checks what fields.h promises: -1 comes with a
 * reason, results stay in their documented ranges, a step suffix points
 * inside the slice, epoch <-> civil round-trips. */

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "data/ingest/fields.h"
#include "data/ingest/tz.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_result(int rc, const CpErr *err)
{
    FUZZ_CHECK(rc == 0 || rc == -1);
    if (rc < 0)
        FUZZ_CHECK(err->msg[0] != '\0' && memchr(err->msg, '\0', sizeof err->msg) != NULL);
}

static void check_type(const char type[CP_GPU_TYPE_MAX])
{
    FUZZ_CHECK(memchr(type, '\0', CP_GPU_TYPE_MAX) != NULL);
}

static void fuzz_tres(const char *s, size_t n)
{
    CpTres t;
    CpErr err = {{0}};
    int rc = fields_tres(s, n, &t, &err);
    check_result(rc, &err);
    if (rc == 0) {
        check_type(t.gpu_type);
        FUZZ_CHECK(!(t.gpus < 0) || t.gpus == -1);
    }
}

static void roundtrip(int64_t t)
{
    int y, mon, d, h, mi, sec;
    fields_civil_of(t, &y, &mon, &d, &h, &mi, &sec);
    FUZZ_CHECK(mon >= 1 && mon <= 12 && d >= 1 && d <= 31);
    FUZZ_CHECK(h >= 0 && h < 24 && mi >= 0 && mi < 60 && sec >= 0 && sec < 60);
    FUZZ_CHECK(fields_epoch_of(y, mon, d, h, mi, sec) == t);
}

/* Keeps the round trip within years a civil date can hold in an int. */
#define ROUNDTRIP_MAX ((int64_t)1 << 45)

static void fuzz_time(const char *s, size_t n, uint8_t opt)
{
    int64_t t = 0;
    CpErr err = {{0}};
    CpTz tz = tz_fixed(((int32_t)opt - 128) * 900); /* -32 h .. +31.75 h */
    int rc = fields_time(s, n, &tz, &t, &err);
    check_result(rc, &err);
    if (rc == 0 && t != CP_TIME_NONE && t > -ROUNDTRIP_MAX && t < ROUNDTRIP_MAX)
        roundtrip(t);
}

static void fuzz_duration(const char *s, size_t n)
{
    int64_t d = 0;
    CpErr err = {{0}};
    int rc = fields_duration(s, n, &d, &err);
    check_result(rc, &err);
    if (rc == 0)
        FUZZ_CHECK(d >= 0 || d == CP_DUR_UNKNOWN || d == CP_DUR_UNLIMITED);
}

static void fuzz_mem(const char *s, size_t n, uint8_t opt)
{
    double mib = 0;
    CpErr err = {{0}};
    int32_t ncpus = (opt & 0x0f) - 2, nnodes = ((opt >> 4) & 0x07) - 2;
    int rc = fields_mem(s, n, opt >> 7, ncpus, nnodes, &mib, &err);
    check_result(rc, &err);
    if (rc == 0)
        FUZZ_CHECK(!isnan(mib));
}

static void fuzz_jobid(const char *s, size_t n)
{
    int64_t id = 0, array_job = 0;
    int32_t task = 0;
    const char *step = NULL;
    size_t step_len = 0;
    CpErr err = {{0}};
    int rc = fields_jobid(s, n, &id, &array_job, &task, &step, &step_len, &err);
    check_result(rc, &err);
    if (rc == 0 && step)
        FUZZ_CHECK(step >= s && step + step_len <= s + n);
}

static void fuzz_gres(const char *s, size_t n)
{
    double gpus = 0;
    char type[CP_GPU_TYPE_MAX];
    CpErr err = {{0}};
    memset(type, 'x', sizeof type);
    type[0] = '\0';
    int rc = fields_gres(s, n, &gpus, type, &err);
    check_result(rc, &err);
    if (rc == 0)
        check_type(type);
}

static void fuzz_state_exit(const char *s, size_t n)
{
    CpState st = fields_state(s, n);
    FUZZ_CHECK((int)st >= 0 && st < CP_ST_COUNT);
    FUZZ_CHECK(jobrec_state_name(st) != NULL);
    int code = 0, sig = 0;
    CpErr err = {{0}};
    check_result(fields_exit(s, n, &code, &sig, &err), &err);
}

static void fuzz_numbers(const char *s, size_t n)
{
    int64_t i = 0;
    double d = 0;
    CpErr err = {{0}};
    check_result(fields_int(s, n, &i, &err), &err);
    CpErr err2 = {{0}};
    check_result(fields_double(s, n, &d, &err2), &err2);
}

/* Its callers only pass "gpu" or "gpu:TYPE" (TYPE not empty): so does this. */
static void fuzz_gpu_entry(const char *s, size_t n, uint8_t opt)
{
    double untyped = 0, typed = 0;
    char type[CP_GPU_TYPE_MAX] = "";
    size_t m = n ? n + 4 : 3;
    char *name = malloc(m);
    if (!name)
        abort();
    memcpy(name, "gpu:", n ? 4 : 3);
    if (n)
        memcpy(name + 4, s, n);
    fields_gpu_entry(name, m, (double)opt / 4.0, &untyped, &typed, type);
    check_type(type);
    free(name);
}

static void fuzz_civil(const uint8_t *p, size_t n)
{
    int64_t t = 0;
    memcpy(&t, p, n < sizeof t ? n : sizeof t);
    roundtrip(t % ROUNDTRIP_MAX);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t which = data[0] % 10, opt = size > 1 ? data[1] : 0;
    size_t n = size - 1;
    char *s = malloc(n ? n : 1); /* exact size: no NUL after the slice */
    if (!s)
        abort();
    memcpy(s, data + 1, n);
    switch (which) {
    case 0: fuzz_tres(s, n); break;
    case 1: fuzz_time(s, n, opt); break;
    case 2: fuzz_duration(s, n); break;
    case 3: fuzz_mem(s, n, opt); break;
    case 4: fuzz_jobid(s, n); break;
    case 5: fuzz_gres(s, n); break;
    case 6: fuzz_state_exit(s, n); break;
    case 7: fuzz_numbers(s, n); break;
    case 8: fuzz_gpu_entry(s, n, opt); break;
    default: fuzz_civil(data + 1, n); break;
    }
    free(s);
    return 0;
}
