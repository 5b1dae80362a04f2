/* Planning against a real SQLite database: the one-pass job read (GPU
 * memory measured, from the inventory, from a MIG name), groups from the
 * roster or the account, saved profile runs and their reuse, renames,
 * scenarios (edits with who/why/when, copies, undo, removal), a
 * scenario's edits applied to the projection, and a backtest whose
 * figures are worked out below from the jobs written.
 *
 * The site: cluster c1 (8 A100 80 GiB; 4 L40S 48 GiB until mid-2021).
 * ann (roster: lab-a, phd, physics, until 2022-06-30): 2020, on the 1st of
 * each month at 10:00, one A100 for 10 h (job 1 measured at 33 GiB by a
 * monitor, job 2 on a MIG slice a100_3g.20gb); 2021, on the 1st and 15th,
 * one A100 for 10 h. bob (no roster line, account lab-b): 2020, on the 5th,
 * two untyped GPUs for 2.5 h; 2021, March 5th to 7th, the same. carl joins
 * lab-a on 2022-09-01 (roster only). */
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
#include <sqlite3.h>

#include "data/ingest/fields.h"
#include "data/ingest/import.h"
#include "data/plan/plan.h"
#include "data/plan/plan_int.h"
#include "data/store/store.h"
#include "data/store/store_plan.h"
#include "data/store/store_schema.h"
#include "tests/lib/testutil.h"

typedef struct Db {
    char *path;
    Store *st;
} Db;

static void add_job(CpBuf *b, int *id, const char *user, const char *acct, int y, int mo, int d,
                    double hours, const char *tres)
{
    char line[512], start[64], end[64];
    int64_t t0 = fields_epoch_of(y, mo, d, 10, 0, 0), t1 = t0 + (int64_t)(hours * 3600);
    int yy, mm, dd, h, mi, s;
    fields_civil_of(t1, &yy, &mm, &dd, &h, &mi, &s);
    snprintf(start, sizeof start, "%04d-%02d-%02dT10:00:00", y, mo, d);
    snprintf(end, sizeof end, "%04d-%02d-%02dT%02d:%02d:%02d", yy, mm, dd, h, mi, s);
    int n = snprintf(line, sizeof line, "%d|%s|%s|gpu|COMPLETED|%s|%s|%s|%lld|%s|c1|4\n", ++*id,
                     user, acct, start, start, end, (long long)(t1 - t0), tres);
    cpbuf_append(b, line, (size_t)n);
}

static char *site_jobs(void)
{
    CpBuf b;
    int id = 0;
    cpbuf_init(&b);
    const char *hdr = "JobID|User|Account|Partition|State|Submit|Start|End|ElapsedRaw|AllocTRES|"
                      "Cluster|NCPUS\n";
    cpbuf_append(&b, hdr, strlen(hdr));
    for (int m = 1; m <= 12; m++) {
        add_job(&b, &id, "ann", "lab-a", 2020, m, 1, 10,
                m == 2 ? "cpu=4,gres/gpu:a100_3g.20gb=1" : "cpu=4,gres/gpu:a100=1,gres/gpu=1");
        add_job(&b, &id, "bob", "lab-b", 2020, m, 5, 2.5, "cpu=4,gres/gpu=2");
    }
    for (int m = 1; m <= 12; m++) {
        add_job(&b, &id, "ann", "lab-a", 2021, m, 1, 10, "cpu=4,gres/gpu:a100=1,gres/gpu=1");
        add_job(&b, &id, "ann", "lab-a", 2021, m, 15, 10, "cpu=4,gres/gpu:a100=1,gres/gpu=1");
    }
    for (int d = 5; d <= 7; d++)
        add_job(&b, &id, "bob", "lab-b", 2021, 3, d, 2.5, "cpu=4,gres/gpu=2");
    char *path = tu_write_temp(b.data, b.len);
    cpbuf_done(&b);
    return path;
}

static void import_kind(Store *st, const char *kind, const char *text)
{
    char *p = tu_write_temp(text, strlen(text));
    ImportOpts o;
    ImportResult r;
    CpErr err;
    import_opts_init(&o);
    int rc = strcmp(kind, "sacct") == 0 ? import_sacct(st, p, &o, &r, &err)
                                        : import_csv(st, kind, p, &o, &r, &err);
    if (rc < 0)
        fail_msg("import %s: %s", kind, err.msg);
    unlink(p);
    free(p);
}

static int db_setup(void **state)
{
    Db *d = calloc(1, sizeof *d);
    CpErr err;
    d->path = tu_temp_path(".db");
    d->st = store_open(d->path, &err);
    assert_non_null(d->st);
    import_kind(d->st, "roster",
                "user,group,role,domain,start,end\n"
                "ann,lab-a,phd,physics,2019-09-01,2022-06-30\n"
                "carl,lab-a,phd,physics,2022-09-01,\n");
    import_kind(d->st, "inventory",
                "cluster,gpu_model,gpus,gpu_mem_gib,from,to,relative_speed\n"
                "c1,a100,8,80,2019-01-01,,1.0\n"
                "c1,l40s,4,48,2019-01-01,2021-06-30,0.8\n");
    char *jobs = site_jobs();
    ImportOpts o;
    ImportResult r;
    import_opts_init(&o);
    assert_int_equal(import_sacct(d->st, jobs, &o, &r, &err), 0);
    assert_int_equal(r.added, 51);
    unlink(jobs);
    free(jobs);
    import_kind(d->st, "gpu-metrics", "job_id,gpu_mem_max_gib,cluster\n1,33,c1\n");
    *state = d;
    return 0;
}

static int db_teardown(void **state)
{
    Db *d = *state;
    store_close(d->st);
    tu_remove_db(d->path);
    free(d->path);
    free(d);
    return 0;
}

static int64_t at(int y, int mo, int d)
{
    return fields_epoch_of(y, mo, d, 0, 0, 0);
}

/* ---- reading ---- */

static void test_jobs_memory(void **state)
{
    Db *d = *state;
    FeatJob *j;
    size_t n;
    int64_t last;
    CpErr err;
    assert_int_equal(
        store_plan_jobs(d->st, at(2020, 1, 1), at(2021, 1, 1), 300, 0, &j, &n, &last, &err), 0);
    assert_int_equal(n, 24);
    assert_int_equal(last, fields_epoch_of(2020, 12, 5, 10, 0, 0));
    int seen = 0;
    for (size_t i = 0; i < n; i++) {
        if (j[i].start == fields_epoch_of(2020, 1, 1, 10, 0, 0)) { /* job 1: measured */
            assert_float_equal(j[i].mem_gib, 33, 0);
            assert_int_equal(j[i].mem_src, FEAT_MEM_MEASURED);
            seen++;
        } else if (j[i].start == fields_epoch_of(2020, 2, 1, 10, 0, 0)) { /* MIG 3g.20gb */
            assert_float_equal(j[i].mem_gib, 20, 0);
            assert_int_equal(j[i].mem_src, FEAT_MEM_REQUESTED);
            assert_float_equal(j[i].gpus, 3.0 / 7, 1e-12);
            seen++;
        } else if (j[i].start == fields_epoch_of(2020, 3, 1, 10, 0, 0)) { /* a100 -> 80 */
            assert_float_equal(j[i].mem_gib, 80, 0);
            assert_int_equal(j[i].mem_src, FEAT_MEM_REQUESTED);
            seen++;
        } else if (j[i].start == fields_epoch_of(2020, 3, 5, 10, 0, 0)) { /* untyped, 2 sizes */
            assert_float_equal(j[i].mem_gib, -1, 0);
            assert_int_equal(j[i].end - j[i].start, 9000);
            seen++;
        }
    }
    assert_int_equal(seen, 4);
    free(j);
    int cpu;
    assert_int_equal(store_plan_cpu_only(d->st, &cpu, &err), 0);
    assert_int_equal(cpu, 0);
}

/* The window: 12 months before the latest start (2021-12-15 10:00): ann
 * (24 jobs) and bob (3 jobs); ann's group from the roster, bob's from his
 * account; carl arrives later. */
static void test_plan_groups(void **state)
{
    Db *d = *state;
    PlanOpts o;
    CpErr err;
    memset(&o, 0, sizeof o);
    o.fresh = 1;
    Plan *p = plan_build(d->st, &o, &err);
    assert_non_null(p);
    assert_int_equal(p->win_end, fields_epoch_of(2021, 12, 15, 10, 0, 1));
    assert_int_equal(p->win_start, fields_epoch_of(2020, 12, 15, 10, 0, 1));
    assert_int_equal(p->nusers, 2);
    assert_int_equal(p->summary.jobs_used, 27);
    for (int i = 0; i < p->nusers; i++) {
        const PlanUser *u = &p->users[i];
        if (strcmp(u->name, "ann") == 0) {
            assert_string_equal(p->groups[u->group], "lab-a");
            assert_string_equal(p->domains[p->group_domain[u->group]], "physics");
            assert_string_equal(u->role, "phd");
            assert_int_equal(u->leaves, at(2022, 6, 30));
            assert_int_equal(u->f.njobs, 24);
            assert_float_equal(u->f.gpu_hours, 240, 1e-9);
            assert_float_equal(u->f.raw[FEAT_MEM_GIB], 80, 0);
        } else {
            assert_string_equal(u->name, "bob");
            assert_string_equal(p->groups[u->group], "lab-b");
            assert_string_equal(p->domains[p->group_domain[u->group]], "unknown");
            assert_null(u->role);
            assert_float_equal(u->f.gpu_hours, 15, 1e-9);
        }
    }
    /* roles: only phd students */
    plan_free(p);
    o.roles = "phd";
    p = plan_build(d->st, &o, &err);
    assert_non_null(p);
    assert_int_equal(p->nusers, 1);
    assert_string_equal(p->users[0].name, "ann");
    plan_free(p);
}

/* A saved run is reused while nothing is imported; a rename sticks to the
 * generated name. */
static void test_save_reuse_rename(void **state)
{
    Db *d = *state;
    PlanOpts o;
    CpErr err;
    memset(&o, 0, sizeof o);
    o.fresh = 1;
    o.min_jobs = 1;
    o.k = 2;
    Plan *p = plan_build(d->st, &o, &err);
    assert_non_null(p);
    assert_int_equal(p->fit.k, 2);
    assert_int_equal(plan_save(d->st, p, "tester", &err), 0);
    char generated[PROFILES_NAME_MAX];
    snprintf(generated, sizeof generated, "%s", p->fit.profiles[0].name);
    double inertia = p->fit.inertia;
    plan_free(p);
    assert_int_equal(store_plan_rename(d->st, generated, "our big jobs", "tester", "meeting", &err),
                     0);
    o.fresh = 0;
    p = plan_build(d->st, &o, &err);
    assert_non_null(p);
    assert_true(p->reused);
    assert_true(p->fit.inertia == inertia);
    assert_string_equal(p->names[0], "our big jobs");
    assert_int_equal(plan_profile_index(p, "our big jobs"), 0);
    assert_int_equal(plan_profile_index(p, "2"), 1);
    assert_int_equal(plan_profile_index(p, "3"), -1);
    plan_free(p);
    /* options left at their defaults follow the saved run's */
    PlanOpts d0;
    memset(&d0, 0, sizeof d0);
    p = plan_build(d->st, &d0, &err);
    assert_non_null(p);
    assert_true(p->reused);
    assert_int_equal(p->fit.k, 2);
    assert_int_equal(p->min_jobs, 1);
    plan_free(p);
    /* other options: not reused */
    o.k = 0;
    p = plan_build(d->st, &o, &err);
    assert_non_null(p);
    assert_false(p->reused);
    plan_free(p);
}

/* ---- scenarios ---- */

static void test_scenarios(void **state)
{
    Db *d = *state;
    CpErr err;
    assert_int_equal(store_plan_scenario_new(d->st, "plan-2027", NULL, "tester", &err), 0);
    assert_int_equal(store_plan_scenario_new(d->st, "plan-2027", NULL, "tester", &err), -1);
    assert_non_null(strstr(err.msg, "exists"));
    assert_int_equal(store_plan_scenario_new(d->st, "x", "nope", "tester", &err), -1);
    assert_int_equal(store_plan_param_set(d->st, "plan-2027", "growth", "lab-a", 0.2, 0.08, NULL,
                                          "two more students", "tester", &err),
                     0);
    assert_int_equal(store_plan_param_set(d->st, "plan-2027", "buffer", "", 0.3, NAN, NULL, NULL,
                                          "tester", &err),
                     0);
    assert_int_equal(store_plan_param_set(d->st, "plan-2027", "growth", "lab-a", 0.25, 0.08,
                                          NULL, "three", "tester", &err),
                     0);
    assert_int_equal(store_plan_param_set(d->st, "nope", "growth", "", 0.25, 0, NULL, NULL, NULL,
                                          &err),
                     -1);
    StorePlanParam *pp;
    size_t n;
    assert_int_equal(store_plan_params(d->st, "plan-2027", &pp, &n, &err), 0);
    assert_int_equal(n, 2);
    assert_string_equal(pp[0].key, "buffer");
    assert_string_equal(pp[0].group, "");
    assert_true(isnan(pp[0].measured));
    assert_string_equal(pp[1].key, "growth");
    assert_string_equal(pp[1].group, "lab-a");
    assert_float_equal(pp[1].value, 0.25, 0);
    assert_float_equal(pp[1].measured, 0.08, 0);
    assert_string_equal(pp[1].reason, "three");
    assert_string_equal(pp[1].who, "tester");
    assert_true(pp[1].at > 0);
    store_plan_params_free(pp, n);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM scenario_edits"), 3);
    /* undo: growth back to 0.2 with its first reason */
    int undone;
    assert_int_equal(store_plan_undo(d->st, "plan-2027", &undone, &err), 0);
    assert_true(undone);
    assert_int_equal(store_plan_params(d->st, "plan-2027", &pp, &n, &err), 0);
    assert_float_equal(pp[1].value, 0.2, 0);
    assert_string_equal(pp[1].reason, "two more students");
    store_plan_params_free(pp, n);
    /* an edit without a reason, then one with: undo gives back the first
     * with no reason, not the undone edit's */
    assert_int_equal(store_plan_param_set(d->st, "plan-2027", "share", "lab-a", 0.3, 0.1, NULL,
                                          NULL, "tester", &err),
                     0);
    assert_int_equal(store_plan_param_set(d->st, "plan-2027", "share", "lab-a", 0.25, 0.1, NULL,
                                          "three PhD students", "tester", &err),
                     0);
    assert_int_equal(store_plan_undo(d->st, "plan-2027", &undone, &err), 0);
    assert_int_equal(store_plan_params(d->st, "plan-2027", &pp, &n, &err), 0);
    assert_int_equal(n, 3);
    assert_string_equal(pp[2].key, "share");
    assert_float_equal(pp[2].value, 0.3, 0);
    assert_null(pp[2].reason);
    store_plan_params_free(pp, n);
    assert_int_equal(store_plan_undo(d->st, "plan-2027", &undone, &err), 0);
    assert_true(undone);
    /* a name that is not one */
    assert_int_equal(store_plan_scenario_new(d->st, "", NULL, "tester", &err), -1);
    assert_int_equal(store_plan_scenario_new(d->st, "-x", NULL, "tester", &err), -1);
    assert_int_equal(store_plan_scenario_new(d->st, "a\033[2Jb", NULL, "tester", &err), -1);
    /* a copy, then drop an edit of the copy */
    assert_int_equal(store_plan_scenario_new(d->st, "copy", "plan-2027", "tester", &err), 0);
    assert_int_equal(store_plan_param_unset(d->st, "copy", "buffer", "", "no", "tester", &err), 0);
    assert_int_equal(store_plan_params(d->st, "copy", &pp, &n, &err), 0);
    assert_int_equal(n, 1);
    store_plan_params_free(pp, n);
    assert_int_equal(store_plan_undo(d->st, "copy", &undone, &err), 0); /* the drop undone */
    assert_int_equal(store_plan_params(d->st, "copy", &pp, &n, &err), 0);
    assert_int_equal(n, 2);
    store_plan_params_free(pp, n);
    assert_int_equal(store_plan_undo(d->st, "copy", &undone, &err), 0);
    assert_false(undone); /* copied edits have no history in the copy */
    StorePlanScenario *sc;
    assert_int_equal(store_plan_scenarios(d->st, &sc, &n, &err), 0);
    assert_int_equal(n, 2);
    assert_string_equal(sc[0].name, "copy");
    assert_string_equal(sc[0].base, "plan-2027");
    assert_int_equal(sc[1].nparams, 2);
    store_plan_scenarios_free(sc, n);
    assert_int_equal(store_plan_scenario_rm(d->st, "copy", &err), 0);
    assert_int_equal(store_plan_scenario_rm(d->st, "copy", &err), -1);
    assert_int_equal(store_plan_scenario_exists(d->st, "copy", &err), 0);
    assert_int_equal(store_plan_scenario_exists(d->st, "plan-2027", &err), 1);
}

/* A scenario's edits reach the projection: every group's buffer 0.3,
 * lab-a's growth 0.2 (a group edit after the all-groups one). */
static void test_params_applied(void **state)
{
    Db *d = *state;
    CpErr err;
    store_plan_scenario_new(d->st, "s", NULL, "tester", &err);
    assert_int_equal(store_plan_param_set(d->st, "s", "buffer", "", 0.3, NAN, NULL, NULL, "t",
                                          &err),
                     0);
    assert_int_equal(store_plan_param_set(d->st, "s", "growth", "lab-a", 0.2, 0, NULL, NULL, "t",
                                          &err),
                     0);
    assert_int_equal(store_plan_param_set(d->st, "s", "growth", "gone-group", 0.2, 0, NULL, NULL,
                                          "t", &err),
                     0);
    PlanOpts o;
    memset(&o, 0, sizeof o);
    Plan *p = plan_build(d->st, &o, &err);
    assert_non_null(p);
    ProjParams *pr;
    int skipped;
    assert_int_equal(plan_params(d->st, p, "s", &pr, &skipped, &err), 0);
    assert_int_equal(skipped, 1);
    int a = plan_group_index(p, "lab-a"), b = plan_group_index(p, "lab-b");
    assert_true(a >= 0 && b >= 0);
    assert_float_equal(pr->buffer[a], 0.3, 0);
    assert_float_equal(pr->buffer[b], 0.3, 0);
    assert_float_equal(pr->growth[a], 0.2, 0);
    assert_float_equal(pr->growth[b], p->measured->growth[b], 0);
    /* carl arrives on 2022-09-01: in year 1 (from 2021-12-15) he is not
     * there; lab-a's heads in year 1 = 1 x 1.2 */
    ProjResult *r = projection_result_new(p->model);
    projection_run(p->model, pr, r);
    assert_float_equal(r->gy[(size_t)a * r->nyears].heads, 1.2, 1e-9);
    assert_true(r->gy[(size_t)a * r->nyears + 1].arrivals > 0);
    projection_result_free(r);
    projection_params_free(pr);
    assert_int_equal(plan_params(d->st, p, "base", &pr, &skipped, &err), 0);
    assert_float_equal(pr->buffer[a], p->measured->buffer[a], 0);
    projection_params_free(pr);
    plan_free(p);
}

/* ---- backtest at 2021-01-01 ---- */

/* Before (2020, 8784 h): ann 11 x 10 + 3/7 x 10 GPU-h (the MIG slice), bob
 * 12 x 2 x 2.5 = 60; after, to
 * the end of the data (2021-12-15 20:00, 8372 h): ann 240, bob 15. No
 * growth can be measured (nothing before 2020): naive = before. */
static void test_backtest(void **state)
{
    Db *d = *state;
    PlanOpts o;
    PlanBacktest b;
    CpErr err;
    memset(&o, 0, sizeof o);
    o.cut = at(2021, 1, 1);
    assert_int_equal(plan_backtest(d->st, &o, &b, &err), 0);
    assert_int_equal(b.ngroups, 2);
    assert_int_equal(b.scored_until, fields_epoch_of(2021, 12, 15, 20, 0, 0));
    double ba = (110 + 30.0 / 7) / 8784, bb = 60.0 / 8784, aa = 240.0 / 8372, ab = 15.0 / 8372;
    for (int g = 0; g < 2; g++) {
        const BtGroup *x = &b.g[g];
        int is_a = strcmp(b.groups[g], "lab-a") == 0;
        assert_float_equal(x->before, is_a ? ba : bb, 1e-12);
        assert_float_equal(x->after, is_a ? aa : ab, 1e-12);
        assert_float_equal(x->naive, x->before, 0);
        assert_true(x->model_base > 0);
    }
    assert_float_equal(b.score.wape_naive, (fabs(aa - ba) + fabs(ab - bb)) / (aa + ab), 1e-12);
    assert_int_equal(b.users, 2);
    plan_backtest_free(&b);
    o.cut = at(2021, 1, 2);
    assert_int_equal(plan_backtest(d->st, &o, &b, &err), -1);
    assert_non_null(strstr(err.msg, "first day of a month"));
}

/* ---- model v2: past years in GPU-eq ---- */

/* 2020 (data from ann's first job, 2020-01-01 10:00, 8774 h): ann 11 x 10
 * GPU-h + 3/7 x 10 (the MIG slice), bob 12 x 2 x 2.5, all at speed 1 (the
 * A100; the MIG and untyped jobs take the cluster's most common model,
 * A100: 16 guessed); capacity 8
 * A100 x 1.0 + 4 L40S x 0.8. 2021 to the data's end (2021-12-15 20:00, 8372
 * h): ann 24 x 10, bob 3 x 5; the L40S until 2021-06-30 (4320 h). */
static void test_year_use(void **state)
{
    Db *d = *state;
    PlanOpts o;
    CpErr err;
    memset(&o, 0, sizeof o);
    Plan *p = plan_build(d->st, &o, &err);
    assert_non_null(p);
    assert_string_equal(p->ref_model, "a100");
    assert_int_equal(p->unflagged_speed, 16);
    assert_int_equal(p->nyear_use, 2);
    assert_int_equal(p->year_use[0].year, 2020);
    assert_float_equal(p->year_use[0].used, (110 + 30.0 / 7 + 60) / 8774, 1e-12);
    assert_float_equal(p->year_use[0].capacity, 8 + 4 * 0.8, 1e-12);
    assert_int_equal(p->year_use[1].year, 2021);
    assert_float_equal(p->year_use[1].used, 255.0 / 8372, 1e-12);
    assert_float_equal(p->year_use[1].capacity, 8 + 4 * 0.8 * 4320 / 8372, 1e-12);
    plan_free(p);
}

/* ---- a database of the previous release with model v1 keys ---- */

/* The index in store_migrations of issue 13's migration (model v2's keys):
 * later issues append theirs after it. */
#define MODEL_V2_MIGRATION 13

/* The previous release's schema is every migration before issue 13's; a
 * scenario holds share, burst and
 * purchases of classes 80 (the inventory has H100 x 8 and A100 x 16 of 80
 * GiB: A100 is the most common) and 24 (no model of that class). Opened by
 * this release: purchase.80.y1 becomes purchase.A100.y1 (the reason notes
 * the old key), the other three are dropped and recorded as edits. */
static void test_migrate_v1_keys(void **state)
{
    (void)state;
    char *path = tu_temp_path(".db");
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    for (int v = 0; v < MODEL_V2_MIGRATION; v++)
        assert_int_equal(sqlite3_exec(db, store_migrations[v], NULL, NULL, NULL), SQLITE_OK);
    char pragma[64];
    snprintf(pragma, sizeof pragma, "PRAGMA user_version=%d;", MODEL_V2_MIGRATION);
    assert_int_equal(sqlite3_exec(db, pragma, NULL, NULL, NULL), SQLITE_OK);
    const char *old =
        "INSERT INTO inventory(cluster, gpu_model, gpus, gpu_mem_gib, from_date, relative_speed)"
        " VALUES ('c', 'H100', 8, 80, '2024-01-01', 5), ('c', 'A100', 16, 80, '2023-01-01', 2.5);"
        "INSERT INTO scenarios(id, name, created_at) VALUES (1, 'plan', 0);"
        "INSERT INTO scenario_params(scenario_id, key, group_name, value, reason, at) VALUES"
        " (1, 'share', 'lab-a', 0.3, NULL, 0), (1, 'burst', '', 2, NULL, 0),"
        " (1, 'purchase.80.y1', '', 4, 'grant', 0), (1, 'purchase.24.y2', '', 9, NULL, 0),"
        " (1, 'growth', 'lab-a', 0.1, NULL, 0);";
    assert_int_equal(sqlite3_exec(db, old, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    CpErr err;
    Store *st = store_open(path, &err);
    assert_non_null(st);
    assert_int_equal(store_scalar(st, "PRAGMA user_version"), store_nmigrations);
    StorePlanParam *pp;
    size_t n;
    assert_int_equal(store_plan_params(st, "plan", &pp, &n, &err), 0);
    assert_int_equal(n, 2);
    assert_string_equal(pp[0].key, "growth");
    assert_string_equal(pp[1].key, "purchase.A100.y1");
    assert_float_equal(pp[1].value, 4, 0);
    assert_string_equal(pp[1].reason, "grant (model v2: was purchase.80.y1)");
    store_plan_params_free(pp, n);
    assert_int_equal(store_scalar(st, "SELECT count(*) FROM scenario_edits WHERE new_value IS "
                                      "NULL AND reason LIKE 'model v2%'"),
                     3);
    store_close(st);
    tu_remove_db(path);
    free(path);
}

/* ---- the planner's cache (data/plan/plan_cache.c) ---- */

static void same_bt(const PlanBacktest *a, const PlanBacktest *b)
{
    assert_int_equal(a->ncuts, b->ncuts);
    assert_int_equal(a->ngroups, b->ngroups);
    assert_memory_equal(a->cuts, b->cuts, (size_t)a->ncuts * sizeof *a->cuts);
    assert_memory_equal(&a->calib, &b->calib, sizeof a->calib);
    assert_memory_equal(a->wape_by_half, b->wape_by_half, sizeof a->wape_by_half);
    double fa[] = {a->mean_wape_model, a->mean_wape_naive, a->mae_model, a->mae_naive,
                   a->bias_model, a->ratio_p10, a->ratio_p50, a->ratio_p90, a->scored_months};
    double fb[] = {b->mean_wape_model, b->mean_wape_naive, b->mae_model, b->mae_naive,
                   b->bias_model, b->ratio_p10, b->ratio_p50, b->ratio_p90, b->scored_months};
    assert_memory_equal(fa, fb, sizeof fa);
    assert_int_equal(a->cut, b->cut);
    assert_int_equal(a->users, b->users);
    for (int g = 0; g < a->ngroups; g++)
        assert_string_equal(a->groups[g], b->groups[g]);
    size_t nc = (size_t)a->ncuts * (size_t)a->ngroups;
    if (a->ngroups) {
        assert_memory_equal(a->g, b->g, (size_t)a->ngroups * sizeof *a->g);
        assert_memory_equal(a->cut_model, b->cut_model, nc * sizeof(double));
        assert_memory_equal(a->cut_actual, b->cut_actual, nc * sizeof(double));
        assert_memory_equal(a->cut_naive, b->cut_naive, nc * sizeof(double));
    }
}

/* Two plans give the same figures to the bit: groups, past years, the
 * backtest, the model's members and every term of the projection. */
static void same_plan(const Plan *a, const Plan *b)
{
    assert_int_equal(a->ngroups, b->ngroups);
    for (int g = 0; g < a->ngroups; g++)
        assert_string_equal(a->groups[g], b->groups[g]);
    assert_int_equal(a->unflagged_speed, b->unflagged_speed);
    assert_int_equal(a->nyear_use, b->nyear_use);
    assert_memory_equal(a->year_use, b->year_use, (size_t)a->nyear_use * sizeof *a->year_use);
    assert_int_equal(a->bt_cuts, b->bt_cuts);
    same_bt(a->bt, b->bt);
    assert_int_equal(a->nproj_users, b->nproj_users);
    for (int i = 0; i < a->nproj_users; i++)
        assert_string_equal(a->proj_user_name[i], b->proj_user_name[i]);
    assert_memory_equal(&a->institute_growth, &b->institute_growth, sizeof(double));
    ProjResult *ra = projection_result_new(a->model), *rb = projection_result_new(b->model);
    projection_run(a->model, a->measured, ra);
    projection_run(b->model, b->measured, rb);
    assert_int_equal(ra->ngroups, rb->ngroups);
    assert_int_equal(ra->nyears, rb->nyears);
    assert_memory_equal(ra->gy, rb->gy, (size_t)ra->ngroups * ra->nyears * sizeof *ra->gy);
    assert_memory_equal(ra->total, rb->total, (size_t)ra->nyears * sizeof *ra->total);
    assert_memory_equal(ra->dom, rb->dom, (size_t)ra->ndomains * ra->nyears * sizeof *ra->dom);
    projection_result_free(ra);
    projection_result_free(rb);
}

static void exec_sql(Store *st, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(store_db(st), sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s: %s", sql, msg ? msg : "?");
}

static Plan *build(Db *d)
{
    PlanOpts o;
    CpErr err;
    memset(&o, 0, sizeof o);
    Plan *p = plan_build(d->st, &o, &err);
    if (!p)
        fail_msg("plan_build: %s", err.msg);
    return p;
}

/* A plan built with the caches emptied first. */
static Plan *build_fresh(Db *d)
{
    exec_sql(d->st, "DELETE FROM plan_cache; DELETE FROM plan_cut_cache");
    return build(d);
}

/* Overwrite the unflagged-speed count (bytes 20..27: after the magic and
 * the history's bounds) of every cached entry, to tell a cached build from a
 * computed one. */
static void tamper(Db *d, int64_t v)
{
    sqlite3 *db = store_db(d->st);
    sqlite3_stmt *s, *u;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT rowid, data FROM plan_cache", -1, &s, NULL),
                     SQLITE_OK);
    assert_int_equal(
        sqlite3_prepare_v2(db, "UPDATE plan_cache SET data = ?2 WHERE rowid = ?1", -1, &u, NULL),
        SQLITE_OK);
    int n = 0;
    while (sqlite3_step(s) == SQLITE_ROW) {
        int len = sqlite3_column_bytes(s, 1);
        assert_true(len > 28);
        unsigned char *b = malloc((size_t)len);
        memcpy(b, sqlite3_column_blob(s, 1), (size_t)len);
        memcpy(b + 20, &v, sizeof v);
        sqlite3_bind_int64(u, 1, sqlite3_column_int64(s, 0));
        sqlite3_bind_blob(u, 2, b, len, SQLITE_TRANSIENT);
        assert_int_equal(sqlite3_step(u), SQLITE_DONE);
        sqlite3_reset(u);
        free(b);
        n++;
    }
    sqlite3_finalize(s);
    sqlite3_finalize(u);
    assert_true(n > 0);
}

/* The first build computes and keeps its history's results; the next reads
 * them (a tampered entry shows it) and gives the same figures as a fresh
 * build. An import of jobs, a job changed behind capplan's back, a roster
 * and an inventory line each make the next build compute again, and what it
 * computes is a fresh build's. */
static void test_plan_cache(void **state)
{
    Db *d = *state;
    CpErr err;
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM plan_cache"), 0);
    Plan *a = build(d);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM plan_cache"), 1);
    assert_int_equal(a->unflagged_speed, 16); /* test_year_use's figure */
    assert_true(a->bt->ncuts >= 3);
    Plan *b = build(d);
    same_plan(a, b);
    plan_free(b);
    tamper(d, 99);
    b = build(d);
    assert_int_equal(b->unflagged_speed, 99); /* read from the cache */
    plan_free(b);
    b = build_fresh(d);
    same_plan(a, b);
    plan_free(b);

    /* the backtest alone (roster as of today): its own entry */
    PlanOpts o;
    PlanBacktest x, y;
    memset(&o, 0, sizeof o);
    assert_int_equal(plan_backtest(d->st, &o, &x, &err), 0);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM plan_cache"), 2);
    assert_int_equal(plan_backtest(d->st, &o, &y, &err), 0);
    same_bt(&x, &y);
    plan_backtest_free(&y);
    same_bt(a->bt, &x); /* the same roster lines at both times here */
    plan_backtest_free(&x);

    /* a job changed behind capplan's back: its block stale, nothing read
     * from the cache (the tampered entry would show) until the next sync,
     * which moves the jobs' generation on */
    tamper(d, 99);
    exec_sql(d->st, "UPDATE jobs SET gpus = 2 WHERE id = (SELECT min(id) FROM jobs WHERE gpus = 1)");
    b = build(d);
    assert_int_equal(b->unflagged_speed, 16);
    plan_free(b);
    assert_int_equal(store_flush(d->st, &err), 0);
    b = build(d);
    assert_int_equal(b->unflagged_speed, 16);
    Plan *c = build_fresh(d);
    same_plan(b, c);
    assert_true(b->year_use[0].used > a->year_use[0].used); /* ann's first job: a second GPU */
    plan_free(b);
    plan_free(c);

    /* an import of jobs */
    char line[] = "JobID|User|Account|Partition|State|Submit|Start|End|ElapsedRaw|AllocTRES|"
                  "Cluster|NCPUS\n"
                  "900|bob|lab-b|gpu|COMPLETED|2021-12-10T10:00:00|2021-12-10T10:00:00|"
                  "2021-12-11T10:00:00|86400|cpu=4,gres/gpu=4|c1|4\n";
    b = build(d);
    tamper(d, 99);
    import_kind(d->st, "sacct", line);
    c = build(d);
    assert_int_equal(c->unflagged_speed, 17); /* the new job's model guessed too */
    assert_true(c->year_use[1].used > b->year_use[1].used);
    plan_free(b);
    b = build_fresh(d);
    same_plan(b, c);
    plan_free(b);
    plan_free(c);

    /* the roster and the inventory */
    const char *const edits[][2] = {
        {"roster", "user,group,role,domain,start,end\nbob,lab-a,postdoc,physics,2019-01-01,\n"},
        {"inventory", "cluster,gpu_model,gpus,gpu_mem_gib,from,to,relative_speed\n"
                      "c1,h100,4,80,2021-03-01,,3.0\n"}};
    for (int e = 0; e < 2; e++) {
        b = build(d);
        tamper(d, 99);
        import_kind(d->st, edits[e][0], edits[e][1]);
        c = build(d);
        assert_int_not_equal(c->unflagged_speed, 99);
        if (e == 0)
            assert_int_equal(plan_group_index(c, "lab-b"), -1); /* bob now in lab-a */
        else
            assert_true(c->year_use[1].capacity != b->year_use[1].capacity);
        plan_free(b);
        b = build_fresh(d);
        same_plan(b, c);
        plan_free(b);
        plan_free(c);
    }
    assert_true(store_scalar(d->st, "SELECT count(*) FROM plan_cache") <= STORE_PLAN_CACHE_KEEP);
    plan_free(a);
}

/* Issue 31 item 2: with a budget of hourly curves that one fit passes,
 * every fit is fed in a pass of its own (the sums with the first): the same
 * plan to the bit as one pass. */
static void test_pools_batched(void **state)
{
    Db *d = *state;
    Plan *a = build_fresh(d);
    plan_pools_budget(1);
    Plan *b = build_fresh(d);
    plan_pools_budget(0);
    assert_true(a->bt->ncuts >= 3);
    same_plan(a, b);
    plan_free(a);
    plan_free(b);
}

/* plan_cache_refresh (what `capplan import` runs after its last file, and
 * the demo without saving profiles): on a database without jobs it does
 * nothing; after an import it writes the entry and the profiles the next
 * build reads (the build writes nothing: the
 * entry's rowid and the count of runs stay, and a tampered entry shows it was
 * read), with a fresh build's figures; run again it only reads. */
static void test_plan_cache_refresh(void **state)
{
    Db *d = *state;
    CpErr err;
    char *path = tu_temp_path(".db");
    Store *e = store_open(path, &err);
    assert_non_null(e);
    import_kind(e, "roster", "user,group,role,domain,start,end\nann,lab-a,phd,physics,2019-09-01,\n");
    assert_int_equal(plan_cache_refresh(e, 1, &err), 0);
    assert_int_equal(store_scalar(e, "SELECT count(*) FROM plan_cache"), 0);
    assert_int_equal(store_scalar(e, "SELECT count(*) FROM profile_runs"), 0);
    store_close(e);
    unlink(path);
    free(path);

    /* db_setup imported through the library: nothing planned yet */
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM plan_cache"), 0);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM profile_runs"), 0);
    assert_int_equal(plan_cache_refresh(d->st, 0, &err), 0); /* the demo's: no run saved */
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM plan_cache"), 1);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM profile_runs"), 0);
    int64_t rowid = store_scalar(d->st, "SELECT rowid FROM plan_cache");
    assert_int_equal(plan_cache_refresh(d->st, 1, &err), 0); /* the import's: the run too */
    assert_int_equal(store_scalar(d->st, "SELECT rowid FROM plan_cache"), rowid);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM profile_runs"), 1);
    Plan *a = build(d);
    assert_int_equal(a->reused, 1);
    assert_int_equal(a->unflagged_speed, 16);
    assert_int_equal(store_scalar(d->st, "SELECT rowid FROM plan_cache"), rowid);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM profile_runs"), 1);
    tamper(d, 99);
    assert_int_equal(plan_cache_refresh(d->st, 1, &err), 0); /* current: read only */
    Plan *b = build(d);
    assert_int_equal(b->unflagged_speed, 99);
    plan_free(b);
    assert_int_equal(store_scalar(d->st, "SELECT rowid FROM plan_cache"), rowid);
    assert_int_equal(store_scalar(d->st, "SELECT count(*) FROM profile_runs"), 1);
    b = build_fresh(d);
    same_plan(a, b);
    plan_free(b);
    plan_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jobs_memory),
        cmocka_unit_test(test_plan_groups),
        cmocka_unit_test(test_save_reuse_rename),
        cmocka_unit_test(test_scenarios),
        cmocka_unit_test(test_params_applied),
        cmocka_unit_test(test_backtest),
        cmocka_unit_test(test_year_use),
        cmocka_unit_test(test_migrate_v1_keys),
        cmocka_unit_test_setup_teardown(test_plan_cache, db_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_plan_cache_refresh, db_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_pools_batched, db_setup, db_teardown),
    };
    return cmocka_run_group_tests_name("plan_db", tests, db_setup, db_teardown);
}
