/* The meeting workflow: picking the students nearest their profile's
 * centroid on a fixture worked out by hand, the mismatch tolerance, a
 * meetings CSV that lands whole or not at all, and a stated need applied to
 * a scenario then undone on a small demo database.
 *
 * The picking fixture (d = 2, z rows):
 *   0 (0.1, 0)   label 0     centroid 0 at (0, 0)
 *   1 (1, 1)     label 0     centroid 1 at (5, 5)
 *   2 (-0.5, 0)  label 0
 *   3 (5, 6)     label 1
 *   4 (5, 5.2)   label 1
 *   5 (0, 0)     label 0     (not a candidate: not in rows[])
 *   6 (9, 9)     label 1
 * Candidates rows {0,1,2,3,4,6}: profile 0 by distance 0.1 (row 0), 0.5
 * (row 2), 1.414 (row 1); profile 1: 0.2 (row 4), 1 (row 3), 5.657 (row 6). */
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

#include "core/pick.h"
#include "data/demo/demo.h"
#include "data/ingest/fields.h"
#include "data/ingest/meetings_csv.h"
#include "data/plan/meetings.h"
#include "data/plan/plan.h"
#include "data/store/store.h"
#include "data/store/store_plan.h"
#include "tests/lib/testutil.h"

static const double fz[] = {0.1, 0, 1, 1, -0.5, 0, 5, 6, 5, 5.2, 0, 0, 9, 9};
static const int flabels[] = {0, 0, 0, 1, 1, 0, 1};
static const double fcent[] = {0, 0, 5, 5};
static const int frows[] = {0, 1, 2, 3, 4, 6};

static void test_pick_fixture(void **state)
{
    (void)state;
    PickChoice c[2 * PICK_MAX];
    int n = pick_nearest(fz, 2, flabels, fcent, 2, frows, 6, 2, c);
    assert_int_equal(n, 4);
    assert_int_equal(c[0].row, 0);
    assert_int_equal(c[1].row, 2);
    assert_int_equal(c[2].row, 4);
    assert_int_equal(c[3].row, 3);
    assert_int_equal(c[0].label, 0);
    assert_int_equal(c[2].label, 1);
    assert_int_equal(c[1].rank, 2);
    assert_int_equal(c[0].of, 3);
    assert_true(fabs(c[0].dist - 0.1) < 1e-12);
    assert_true(fabs(c[1].dist - 0.5) < 1e-12);
    assert_true(fabs(c[2].dist - 0.2) < 1e-12);
    assert_true(fabs(c[3].dist - 1.0) < 1e-12);
    /* three per profile (and more asked: clamped to PICK_MAX) */
    n = pick_nearest(fz, 2, flabels, fcent, 2, frows, 6, 9, c);
    assert_int_equal(n, 6);
    assert_int_equal(c[2].row, 1);
    assert_int_equal(c[5].row, 6);
    assert_true(fabs(c[5].dist - sqrt(32)) < 1e-12);
    /* a profile absent from the set gives nothing; ties go to the smaller row */
    static const int only0[] = {1, 0};
    static const double tie_z[] = {1, 0, -1, 0};
    static const int tie_l[] = {0, 0};
    n = pick_nearest(tie_z, 2, tie_l, fcent, 2, only0, 2, 1, c);
    assert_int_equal(n, 1);
    assert_int_equal(c[0].row, 0);
    n = pick_nearest(fz, 2, flabels, fcent, 2, frows, 0, 2, c);
    assert_int_equal(n, 0);
}

static void test_tolerance(void **state)
{
    (void)state;
    assert_true(meetings_gpus_off(4, 0.6));     /* says 4, used 0.6 */
    assert_false(meetings_gpus_off(0.1, 0.0));  /* within 0.5 GPU */
    assert_false(meetings_gpus_off(2, 1.4));    /* 0.6 GPU but 43 % */
    assert_true(meetings_gpus_off(2, 1.2));     /* 0.8 GPU and 67 % */
    assert_true(meetings_gpus_off(0.5, 1.2));   /* less than used */
    assert_false(meetings_gpus_off(12, 11.2));  /* 0.8 GPU, 7 % */
    assert_true(meetings_gpus_off(0.6, 0));     /* nothing used */
    assert_false(meetings_gpus_off(NAN, 3));
    assert_false(meetings_gpus_off(-1, 3));
    assert_true(meetings_mem_off(80, 46));
    assert_false(meetings_mem_off(80, 57));
    assert_false(meetings_mem_off(24, 24));
    assert_true(meetings_mem_off(24, 24.5));
    assert_false(meetings_mem_off(48, NAN));
    assert_true(meetings_date_ok("2024-02-29"));
    assert_false(meetings_date_ok("2023-02-29"));
    assert_false(meetings_date_ok("2024-13-01"));
    assert_false(meetings_date_ok("2024-1-01"));
}

/* A demo database, small. */
static Store *demo_db(char **path)
{
    *path = tu_temp_path(".db");
    DemoOpts o;
    demo_opts_init(&o);
    o.seed = 7;
    o.jobs = 20000;
    o.today = fields_epoch_of(2026, 11, 25, 0, 0, 0); /* the dates below */
    o.db_path = *path;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s.in", *path);
    o.dir = dir;
    DemoSummary sum;
    CpErr err = {""};
    if (demo_build(&o, &sum, &err) < 0)
        fail_msg("demo: %s", err.msg);
    Store *st = store_open(*path, &err);
    assert_non_null(st);
    return st;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int count_meetings(Store *st)
{
    StoreMeeting *m;
    size_t n;
    CpErr err;
    assert_int_equal(store_meetings_list(st, &m, &n, &err), 0);
    store_meetings_free(m, n);
    return (int)n;
}

static void test_import_whole_or_nothing(void **state)
{
    (void)state;
    char *db;
    Store *st = demo_db(&db);
    char *csv = tu_temp_path(".csv");
    CpErr err = {""};
    int kind, rows;
    write_file(csv, "group,date,attendees,status\n"
                    "tanaka-lab,2099-01-10,cwang;lduarte,planned\n"
                    "okafor-lab,2026-11-06,olaurent,held\n");
    assert_int_equal(meetings_import(st, csv, "2026-11-25", &kind, &rows, &err), 0);
    assert_int_equal(kind, MEET_CSV_MEETINGS);
    assert_int_equal(rows, 2);
    write_file(csv, "group,date,attendees,status\n"
                    "haddad-lab,2099-02-01,,planned\n"
                    "nobody-lab,2099-02-02,,planned\n");
    assert_int_equal(meetings_import(st, csv, "2026-11-25", &kind, &rows, &err), -1);
    char want[1200];
    snprintf(want, sizeof want, "%s:3: field group: unknown group 'nobody-lab'", csv);
    assert_string_equal(err.msg, want);
    assert_int_equal(count_meetings(st), 2); /* haddad-lab's line did not land */
    write_file(csv, "group,date,attendees,status\nhaddad-lab,2020-02-01,,planned\n");
    assert_int_equal(meetings_import(st, csv, "2026-11-25", &kind, &rows, &err), -1);
    assert_non_null(strstr(err.msg, ":2: field date: 2020-02-01 is in the past"));
    write_file(csv, "user,group,date,gpus_fulltime\ncwang,tanaka-lab,2026-11-20,-2\n");
    assert_int_equal(meetings_import(st, csv, "2026-11-25", &kind, &rows, &err), -1);
    assert_non_null(strstr(err.msg, ":2: field gpus_fulltime: negative GPU count '-2'"));
    /* one meeting read back and deleted (the dashboard's undo) */
    StoreMeeting m;
    assert_int_equal(store_meetings_get(st, "tanaka-lab", "2099-01-10", &m, &err), 1);
    assert_string_equal(m.attendees, "cwang;lduarte");
    assert_string_equal(m.status, "planned");
    store_meetings_clear(&m);
    assert_int_equal(store_meetings_delete(st, "tanaka-lab", "2099-01-10", &err), 0);
    assert_int_equal(store_meetings_get(st, "tanaka-lab", "2099-01-10", &m, &err), 0);
    assert_null(m.status);
    assert_int_equal(count_meetings(st), 1);
    assert_int_equal(store_meetings_delete(st, "tanaka-lab", "2099-01-10", &err), 0); /* none */
    assert_int_equal(count_meetings(st), 1);
    unlink(csv);
    free(csv);
    store_close(st);
    unlink(db);
    free(db);
}

/* Propagation: cwang (tanaka-lab) says 2 GPUs full-time; applied, the
 * projection's per-student GPUs of cwang's profile become 2 in the
 * scenario for tanaka-lab (its students of that profile and its newcomers
 * who take it), other groups keep the measured value, and undo puts it
 * back. */
static void test_apply_undo(void **state)
{
    (void)state;
    char *db;
    Store *st = demo_db(&db);
    CpErr err = {""};
    PlanOpts o;
    memset(&o, 0, sizeof o);
    Plan *p = plan_build(st, &o, &err);
    assert_non_null(p);
    int u = meetings_plan_user(p, "cwang");
    assert_true(u >= 0);
    int prof = p->users[u].profile;
    assert_true(prof >= 0);
    double measured = p->measured->gpus[prof];
    assert_true(fabs(measured - 2.0) > 0.1);
    MeetApply r;
    assert_int_equal(meetings_apply(st, p, "cwang", "plan-2027", "professor agrees", "test", &r,
                                    &err), 0);
    assert_int_equal(r.created, 1);
    assert_int_equal(r.profile, prof);
    assert_true(r.same_profile >= 1);
    assert_string_equal(r.group, "tanaka-lab");
    ProjParams *pp;
    assert_int_equal(plan_params(st, p, "plan-2027", &pp, NULL, &err), 0);
    int g = plan_group_index(p, "tanaka-lab"), other = g == 0 ? 1 : 0;
    assert_true(fabs(projection_gpus_of(pp, g, prof) - 2.0) < 1e-12);
    assert_true(projection_gpus_of(pp, other, prof) == measured);
    assert_true(pp->gpus[prof] == measured);
    ProjResult *res = projection_result_new(p->model), *base = projection_result_new(p->model);
    projection_run(p->model, pp, res);
    projection_run(p->model, p->measured, base);
    assert_true(res->gy[(size_t)g * res->nyears].base != base->gy[(size_t)g * base->nyears].base);
    assert_true(res->gy[(size_t)other * res->nyears].base ==
                base->gy[(size_t)other * base->nyears].base);
    projection_params_free(pp);
    StorePlanParam *sp;
    size_t n;
    assert_int_equal(store_plan_params(st, "plan-2027", &sp, &n, &err), 0);
    assert_int_equal((int)n, 1);
    assert_non_null(strstr(sp[0].reason, "professor agrees; stated by cwang (tanaka-lab"));
    store_plan_params_free(sp, n);
    int undone = 0;
    assert_int_equal(store_plan_undo(st, "plan-2027", &undone, &err), 0);
    assert_int_equal(undone, 1);
    assert_int_equal(plan_params(st, p, "plan-2027", &pp, NULL, &err), 0);
    assert_true(projection_gpus_of(pp, g, prof) == measured);
    projection_run(p->model, pp, res);
    assert_true(res->gy[(size_t)g * res->nyears].base == base->gy[(size_t)g * base->nyears].base);
    projection_params_free(pp);
    projection_result_free(res);
    projection_result_free(base);
    /* no stated need: refused */
    assert_int_equal(meetings_apply(st, p, "ktanaka", "plan-2027", NULL, "test", &r, &err), -1);
    plan_free(p);
    store_close(st);
    unlink(db);
    free(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pick_fixture),
        cmocka_unit_test(test_tolerance),
        cmocka_unit_test(test_import_whole_or_nothing),
        cmocka_unit_test(test_apply_undo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
