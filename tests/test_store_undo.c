/* store_undo: the dashboard's conditional put of a scenario parameter,
 * against a real database: a put logs its own history entry with the old
 * and the new value; a put back to the measured value removes the row; a
 * put conditioned on an entry that is no longer the last one writes
 * nothing and names who wrote the last one (or nobody, when the expected
 * entry is gone); a scenario that is not stored is an error. Every figure
 * is read back from the tables with SQL of the test's own. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "data/store/store.h"
#include "data/store/store_plan.h"
#include "data/store/store_undo.h"
#include "tests/lib/testdb.h"

static int scen_setup(void **state)
{
    tu_db_setup(state);
    TuDb *d = *state;
    CpErr err;
    if (store_plan_scenario_new(d->st, "plan", NULL, "ann", &err) < 0)
        fail_msg("scenario: %s", err.msg);
    return 0;
}

/* A put of growth (group g1) to value by who, conditioned on expect. */
static int put(TuDb *d, int had, double value, int64_t expect, const char *who, StoreUndoPut *out,
               CpErr *err)
{
    char why[] = "why", by[16];
    snprintf(by, sizeof by, "%s", who);
    StoreUndoParam to = {0};
    to.had = had;
    to.value = value;
    to.measured = 1.1;
    to.reason = why;
    to.who = by;
    return store_undo_put(d->st, "plan", "growth", "g1", &to, expect, NULL, who, out, err);
}

static void test_put_and_back(void **state)
{
    TuDb *d = *state;
    StoreUndoPut out;
    CpErr err;
    assert_int_equal(put(d, 1, 1.5, -1, "ann", &out, &err), 0);
    assert_int_equal(out.conflict, 0);
    assert_int_equal(out.before.had, 0);
    assert_true(isnan(out.before.measured));
    int64_t first = out.edit;
    assert_int_equal(first, store_scalar(d->st, "SELECT max(id) FROM scenario_edits"));
    store_undo_put_clear(&out);
    assert_float_equal(tu_db_real(d->st, "SELECT value FROM scenario_params WHERE key='growth' "
                                         "AND group_name=?1", "g1", -2),
                       1.5, 1e-12);
    assert_float_equal(tu_db_real(d->st, "SELECT measured FROM scenario_params", NULL, -2), 1.1,
                       1e-12);
    assert_float_equal(tu_db_real(d->st, "SELECT old_value FROM scenario_edits", NULL, -2), -2,
                       0);
    assert_float_equal(tu_db_real(d->st, "SELECT new_value FROM scenario_edits", NULL, -2), 1.5,
                       1e-12);
    /* back to the measured value, on condition that ann's entry is last */
    assert_int_equal(put(d, 0, 0, first, "ann", &out, &err), 0);
    assert_int_equal(out.conflict, 0);
    assert_int_equal(out.before.had, 1);
    assert_float_equal(out.before.value, 1.5, 1e-12);
    assert_string_equal(out.before.who, "ann");
    assert_string_equal(out.before.reason, "why");
    assert_true(out.edit > first);
    store_undo_put_clear(&out);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM scenario_params"), 0);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM scenario_edits"), 2);
    assert_float_equal(tu_db_real(d->st, "SELECT old_value FROM scenario_edits ORDER BY id DESC",
                                  NULL, -2),
                       1.5, 1e-12);
    assert_float_equal(tu_db_real(d->st, "SELECT new_value FROM scenario_edits ORDER BY id DESC",
                                  NULL, -2),
                       -2, 0);
}

static void test_conflict_names_who(void **state)
{
    TuDb *d = *state;
    StoreUndoPut out;
    CpErr err;
    assert_int_equal(put(d, 1, 2.0, -1, "ann", &out, &err), 0);
    int64_t mine = out.edit;
    store_undo_put_clear(&out);
    /* meanwhile, from the command line */
    int64_t before = (int64_t)time(NULL);
    assert_int_equal(store_plan_param_set(d->st, "plan", "growth", "g1", 3.0, 1.1, NULL, "cli",
                                          "bob", &err),
                     0);
    assert_int_equal(put(d, 1, 4.0, mine, "ann", &out, &err), 0);
    assert_int_equal(out.conflict, 1);
    assert_int_equal(out.edit, 0);
    assert_string_equal(out.other_who, "bob");
    assert_true(out.other_at >= before && out.other_at <= (int64_t)time(NULL));
    store_undo_put_clear(&out);
    /* nothing written: bob's value and two entries */
    assert_float_equal(tu_db_real(d->st, "SELECT value FROM scenario_params", NULL, -2), 3.0,
                       1e-12);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM scenario_edits"), 2);
    /* bob's entry undone (capplan scenario undo): the entry expected after
     * it is gone, and nobody is named */
    int undone;
    assert_int_equal(store_plan_undo(d->st, "plan", &undone, &err), 0);
    assert_int_equal(undone, 1);
    assert_int_equal(put(d, 1, 4.0, mine + 1, "ann", &out, &err), 0);
    assert_int_equal(out.conflict, 1);
    assert_null(out.other_who);
    assert_int_equal(out.other_at, 0);
    store_undo_put_clear(&out);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM scenario_edits"), 1);
}

static void test_no_scenario(void **state)
{
    TuDb *d = *state;
    StoreUndoPut out;
    CpErr err;
    StoreUndoParam to = {0};
    to.had = 1;
    to.value = 1;
    to.measured = NAN;
    assert_int_equal(store_undo_put(d->st, "gone", "growth", NULL, &to, -1, "r", "ann", &out, &err),
                     -1);
    assert_string_equal(err.msg, "no scenario 'gone' any more");
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM scenario_edits"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_put_and_back, scen_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_conflict_names_who, scen_setup, tu_db_teardown),
        cmocka_unit_test_setup_teardown(test_no_scenario, scen_setup, tu_db_teardown),
    };
    return cmocka_run_group_tests_name("store_undo", tests, NULL, NULL);
}
