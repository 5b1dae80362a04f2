/* data/tz: --tz zones, fixed offsets and IANA names from the system's tz
 * database, across daylight-saving changes. Every expected instant was
 * computed with python3's zoneinfo (datetime.fromisoformat(s).replace(
 * tzinfo=ZoneInfo(z), fold=0).timestamp()), which reads the same database. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "data/ingest/fields.h"
#include "data/ingest/sacct_text.h"
#include "data/ingest/tz.h"
#include "tests/lib/testutil.h"

/* The UTC instant of the zone-less time s in zone z. */
static int64_t at(const CpTz *z, const char *s)
{
    int64_t t;
    CpErr err;
    assert_int_equal(fields_time(s, strlen(s), z, &t, &err), 0);
    return t;
}

static void test_paris_dst(void **state)
{
    (void)state;
    CpTz z;
    CpErr err;
    assert_int_equal(tz_parse("Europe/Paris", &z, &err), 0);
    assert_true(z.n > 100); /* two changes a year since 1976 */
    assert_int_equal(at(&z, "2024-03-31T01:30:00"), 1711845000); /* CET */
    assert_int_equal(at(&z, "2024-03-31T03:30:00"), 1711848600); /* CEST */
    assert_int_equal(at(&z, "2024-03-31T02:30:00"), 1711848600); /* skipped: as 03:30 */
    assert_int_equal(at(&z, "2024-10-27T01:30:00"), 1729985400);
    assert_int_equal(at(&z, "2024-10-27T02:30:00"), 1729989000); /* twice: the first */
    assert_int_equal(at(&z, "2024-10-27T03:30:00"), 1729996200);
    assert_int_equal(at(&z, "1975-07-01T12:00:00"), 173444400);  /* no DST before 1976 */
    assert_int_equal(at(&z, "2099-07-01T12:00:00"), 4086583200);
    /* the exact changes: 2024-03-31T01:00Z and 2024-10-27T01:00Z */
    assert_int_equal(tz_offset_at(&z, 1711846799), 3600);
    assert_int_equal(tz_offset_at(&z, 1711846800), 7200);
    assert_int_equal(tz_offset_at(&z, 1729990799), 7200);
    assert_int_equal(tz_offset_at(&z, 1729990800), 3600);
    /* an explicit offset still wins */
    assert_int_equal(at(&z, "2024-07-01T12:00:00Z"), 1719835200);
    tz_done(&z);
}

static void test_new_york_dst(void **state)
{
    (void)state;
    CpTz z;
    CpErr err;
    assert_int_equal(tz_parse("America/New_York", &z, &err), 0);
    assert_int_equal(at(&z, "2024-03-10T01:59:59"), 1710053999);
    assert_int_equal(at(&z, "2024-03-10T03:00:00"), 1710054000);
    assert_int_equal(at(&z, "2024-11-03T01:30:00"), 1730611800);
    assert_int_equal(at(&z, "2024-07-01T12:00:00"), 1719849600);
    assert_int_equal(at(&z, "2024-01-15T12:00:00"), 1705338000);
    tz_done(&z);
    assert_int_equal(tz_parse("Asia/Kolkata", &z, &err), 0);
    assert_int_equal(at(&z, "2024-01-15T12:00:00"), 1705300200);
    tz_done(&z);
}

/* TZ is set while the zone is read, and put back. */
static void test_environment_restored(void **state)
{
    (void)state;
    CpTz z;
    CpErr err;
    setenv("TZ", "Asia/Tokyo", 1);
    assert_int_equal(tz_parse("Europe/Paris", &z, &err), 0);
    assert_string_equal(getenv("TZ"), "Asia/Tokyo");
    tz_done(&z);
    unsetenv("TZ");
    assert_int_equal(tz_parse("America/New_York", &z, &err), 0);
    assert_null(getenv("TZ"));
    tz_done(&z);
}

static void test_fixed_and_bad(void **state)
{
    (void)state;
    CpTz z;
    CpErr err;
    assert_int_equal(tz_parse("+05:30", &z, &err), 0);
    assert_int_equal(at(&z, "2024-01-15T12:00:00"), 1705300200);
    assert_string_equal(z.name, "+05:30");
    assert_int_equal(tz_parse("-0500", &z, &err), 0);
    assert_int_equal(at(&z, "2024-07-01T12:00:00"), 1719853200);
    assert_int_equal(tz_parse("UTC", &z, &err), 0);
    assert_int_equal(at(&z, "2024-07-01T12:00:00"), 1719835200);
    assert_int_equal(at(NULL, "2024-07-01T12:00:00"), 1719835200);
    static const char *const bad[] = {"Mars/Base", "../../etc/passwd", "/etc/localtime", "",
                                      "+25:00", "+05:75", "Europe/Paris;rm"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(tz_parse(bad[i], &z, &err), -1);
        assert_non_null(strstr(err.msg, "unknown time zone"));
    }
}

/* Shape: sacct -P run on a cluster in Paris (no SLURM_TIME_FORMAT=%s, no
 * TZ=UTC): a job that ran from 01:30 to 03:30 local on the night clocks
 * went back ran 3 hours, and one over the spring change 1 hour. */
static void test_sacct_across_dst(void **state)
{
    (void)state;
    const char text[] = "JobID|Start|End\n"
                        "1|2024-10-27T01:30:00|2024-10-27T03:30:00\n"
                        "2|2024-03-31T01:30:00|2024-03-31T03:30:00\n";
    char *path = tu_write_temp(text, strlen(text));
    TuSink s;
    CpReadCtx rc;
    CpTz z;
    CpErr err;
    assert_int_equal(tz_parse("Europe/Paris", &z, &err), 0);
    tu_read_ctx(&rc, &s, path);
    rc.tz = &z;
    FILE *f = fopen(path, "rb");
    char fmt[64];
    assert_int_equal(sacct_text_read(f, &rc, NULL, NULL, fmt, sizeof fmt, &err), 0);
    fclose(f);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.jobs[0].rec.end - s.jobs[0].rec.start, 3 * 3600);
    assert_int_equal(s.jobs[1].rec.end - s.jobs[1].rec.start, 3600);
    tu_sink_free(&s);
    tz_done(&z);
    unlink(path);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paris_dst),
        cmocka_unit_test(test_new_york_dst),
        cmocka_unit_test(test_environment_restored),
        cmocka_unit_test(test_fixed_and_bad),
        cmocka_unit_test(test_sacct_across_dst),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
