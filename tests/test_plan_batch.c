/* The planner's features a batch of users at a time (data/plan/plan_build.c,
 * issue 20 item 3, issue 14 item 15): when the window's jobs exceed the
 * jobs budget, a counting pass and one pass per batch of users give the
 * plan that one pass over every job gives, byte for byte: every user's
 * features (FeatUser compared with memcmp), the summary, the scaling and
 * the profile fit.
 *
 * Two databases:
 *   - generated: 6,000 jobs of 60 users (u00..u59) over 2 years, from a
 *     fixed LCG (1 to 8 GPUs, some on a MIG slice, two measured, runs of 1
 *     min to 40 h, overlapping; users 40..59 with few jobs); an inventory
 *     gives the requested memory. The window counts 5,987 jobs of 60 users;
 *   - real: the KTH SP2 SWF log of the Parallel Workloads Archive
 *     (data/swf-pwa; CPUs stand in for GPUs): the window counts 16,398 jobs
 *     of 173 users.
 * Each budget is tried on the job blocks, then with the blocks deleted
 * (the jobs table read instead: the rowid ranges' path).
 * The counts, users and earliest start are checked against SQL over the
 * jobs table; a mutation of the batched effective start (+1 s) fails both
 * comparisons. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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
#include "tests/lib/testdb.h"
#include "tests/lib/testutil.h"

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xffffff;
}

static char *generated_jobs(void)
{
    CpBuf b;
    uint32_t seed = 7;
    cpbuf_init(&b);
    const char *hdr = "JobID|User|Account|Partition|State|Submit|Start|End|ElapsedRaw|AllocTRES|"
                      "Cluster|NCPUS\n";
    cpbuf_append(&b, hdr, strlen(hdr));
    int64_t t0 = fields_epoch_of(2022, 1, 1, 0, 0, 0);
    for (int id = 1; id <= 6000; id++) {
        int user = (int)(lcg(&seed) % 60);
        if (user >= 40 && lcg(&seed) % 4 != 0) /* the last users: fewer jobs */
            user = (int)(lcg(&seed) % 40);
        int64_t start = t0 + (int64_t)(lcg(&seed) % (730u * 86400u));
        int64_t run = 60 + (int64_t)(lcg(&seed) % (40u * 3600u));
        int gpus = 1 + (int)(lcg(&seed) % 8);
        const char *type = lcg(&seed) % 7 == 0 ? "a100_3g.20gb" : "a100";
        char tres[96], s1[32], s2[32], line[512];
        snprintf(tres, sizeof tres, "cpu=4,gres/gpu:%s=%d,gres/gpu=%d", type, gpus, gpus);
        int y, mo, d, h, mi, se;
        fields_civil_of(start, &y, &mo, &d, &h, &mi, &se);
        snprintf(s1, sizeof s1, "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, d, h, mi, se);
        fields_civil_of(start + run, &y, &mo, &d, &h, &mi, &se);
        snprintf(s2, sizeof s2, "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, d, h, mi, se);
        int n = snprintf(line, sizeof line, "%d|u%02d|lab-%c|gpu|COMPLETED|%s|%s|%s|%lld|%s|c1|4\n",
                         id, user, 'a' + user % 5, s1, s1, s2, (long long)run, tres);
        cpbuf_append(&b, line, (size_t)n);
    }
    char *path = tu_write_temp(b.data, b.len);
    cpbuf_done(&b);
    return path;
}

static void import_text(Store *st, const char *kind, const char *text)
{
    ImportResult r;
    CpErr err;
    if (tu_import_text(st, kind, text, strlen(text), NULL, &r, &err, NULL, 0) < 0)
        fail_msg("import %s: %s", kind, err.msg);
}

static int generated_setup(void **state)
{
    CpErr err;
    tu_db_setup(state);
    TuDb *d = *state;
    import_text(d->st, "inventory",
                "cluster,gpu_model,gpus,gpu_mem_gib,from,to,relative_speed\n"
                "c1,a100,64,80,2021-01-01,,1.0\n");
    char *jobs = generated_jobs();
    ImportOpts o;
    ImportResult r;
    import_opts_init(&o);
    assert_int_equal(import_sacct(d->st, jobs, &o, &r, &err), 0);
    assert_int_equal(r.added, 6000);
    unlink(jobs);
    free(jobs);
    import_text(d->st, "gpu-metrics", "job_id,gpu_mem_max_gib,cluster\n3,33,c1\n10,71.5,c1\n");
    return 0;
}

static int kth_setup(void **state)
{
    CpErr err;
    ImportOpts o;
    ImportResult r;
    *state = NULL;
    if (!tu_have_shared()) /* the test skips, saying why */
        return 0;
    tu_db_setup(state);
    TuDb *d = *state;
    import_opts_init(&o);
    o.trace_kind = "swf";
    if (import_trace(d->st, tu_shared("data/swf-pwa/KTH-SP2-1996-2.1-cln.swf"), &o, &r, &err) <
        0)
        fail_msg("import: %s", err.msg);
    return 0;
}

/* tu_db_teardown, unless the set-up skipped (no shared data). */
static int db_teardown(void **state)
{
    return *state ? tu_db_teardown(state) : 0;
}

/* ---- the comparison ---- */

static Plan *build(Store *st, size_t budget)
{
    PlanOpts o;
    CpErr err;
    memset(&o, 0, sizeof o);
    o.fresh = 1;
    o.profiles_only = 1;
    plan_jobs_budget(budget);
    Plan *p = plan_build(st, &o, &err);
    plan_jobs_budget(0);
    if (!p)
        fail_msg("plan_build: %s", err.msg);
    return p;
}

static void assert_same_plan(const Plan *a, const Plan *b)
{
    assert_int_equal(a->win_start, b->win_start);
    assert_int_equal(a->win_end, b->win_end);
    assert_int_equal(a->summary.jobs_used, b->summary.jobs_used);
    assert_int_equal(a->summary.eff_start, b->summary.eff_start);
    assert_memory_equal(&a->summary.months, &b->summary.months, sizeof a->summary.months);
    assert_int_equal(a->summary.users_with_jobs, b->summary.users_with_jobs);
    assert_int_equal(a->nusers, b->nusers);
    for (int i = 0; i < a->nusers; i++) {
        assert_int_equal(a->users[i].user_id, b->users[i].user_id);
        assert_memory_equal(&a->users[i].f, &b->users[i].f, sizeof a->users[i].f);
        assert_int_equal(a->users[i].profile, b->users[i].profile);
        assert_int_equal(a->users[i].zrow, b->users[i].zrow);
    }
    assert_int_equal(a->nz, b->nz);
    assert_memory_equal(&a->scale, &b->scale, sizeof a->scale);
    assert_memory_equal(a->z, b->z, (size_t)a->nz * FEAT_COUNT * sizeof *a->z);
    assert_int_equal(a->fit.k, b->fit.k);
    assert_memory_equal(&a->fit.silhouette, &b->fit.silhouette, sizeof a->fit.silhouette);
    assert_memory_equal(&a->fit.inertia, &b->fit.inertia, sizeof a->fit.inertia);
    assert_memory_equal(a->fit.labels, b->fit.labels, (size_t)a->nz * sizeof *a->fit.labels);
    assert_memory_equal(a->fit.profiles, b->fit.profiles,
                        (size_t)a->fit.k * sizeof *a->fit.profiles);
}

/* The counted jobs and the earliest counted start, from the jobs table
 * with SQL (the filters of DESIGN.md's features; data/store/store_plan.h). */
static void sql_counts(Store *st, const Plan *p, int64_t *jobs, int64_t *first, int64_t *users)
{
    sqlite3 *db;
    sqlite3_stmt *s;
    const char *path = sqlite3_db_filename(store_db(st), "main");
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT count(*), min(start), count(DISTINCT user_id) FROM jobs WHERE final = 1 "
             "AND user_id IS NOT NULL AND %s > 0 AND start >= ?1 AND start < ?2 AND "
             "coalesce(elapsed, end_time - start) >= 300",
             p->cpu ? "ncpus" : "gpus");
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
    sqlite3_bind_int64(s, 1, p->win_start);
    sqlite3_bind_int64(s, 2, p->win_end);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    *jobs = sqlite3_column_int64(s, 0);
    *first = sqlite3_column_int64(s, 1);
    *users = sqlite3_column_int64(s, 2);
    sqlite3_finalize(s);
    sqlite3_close(db);
}

/* One pass, then budgets that split the users into a few batches, into
 * many, and into one user a batch (1 job: every user alone). */
static void same_in_batches(Store *st)
{
    Plan *one = build(st, (size_t)1 << 30);
    int64_t jobs, first, users;
    sql_counts(st, one, &jobs, &first, &users);
    assert_true(jobs > 5000 && users >= 60);
    assert_int_equal(one->summary.jobs_used, jobs);
    assert_int_equal(one->summary.eff_start, first);
    assert_int_equal(one->summary.users_with_jobs, users);
    const size_t budgets[] = {(size_t)jobs - 1, (size_t)jobs / 3, 97, 1};
    for (int blocks = 1; blocks >= 0; blocks--) {
        for (size_t i = 0; i < sizeof budgets / sizeof *budgets; i++) {
            Plan *b = build(st, budgets[i]);
            assert_same_plan(one, b);
            plan_free(b);
        }
        /* then without the job blocks: every job read from the jobs table */
        assert_int_equal(sqlite3_exec(store_db(st), "DELETE FROM job_blocks", NULL, NULL, NULL),
                         SQLITE_OK);
    }
    Plan *b = build(st, (size_t)1 << 30);
    assert_same_plan(one, b);
    plan_free(b);
    plan_free(one);
}

static void test_generated_batches(void **state)
{
    TuDb *d = *state;
    same_in_batches(d->st);
}

static void test_kth_batches(void **state)
{
    TuDb *d = *state;
    if (!d)
        tu_shared("data/swf-pwa/KTH-SP2-1996-2.1-cln.swf");
    same_in_batches(d->st);
}

/* The read itself: past the budget nothing is kept (overflow), the counts
 * and the earliest start still come whole; a user range keeps that range's
 * jobs alone, in the order of the full read. */
static void test_read_budget(void **state)
{
    TuDb *d = *state;
    CpErr err;
    Plan *p = build(d->st, 0);
    int64_t from = p->win_start - 86400 * 40, before = INT64_MAX;
    FeatJob *all;
    size_t nall;
    int64_t last;
    assert_int_equal(store_plan_jobs(d->st, from, before, 300, 0, &all, &nall, &last, &err), 0);
    int64_t counts[64] = {0}, want[64] = {0}, first = INT64_MAX;
    for (size_t i = 0; i < nall; i++) {
        assert_true(all[i].user >= 0 && all[i].user < 64);
        want[all[i].user]++;
        if (all[i].start >= p->win_start && all[i].start < p->win_end && all[i].start < first)
            first = all[i].start;
    }
    StorePlanJobsReq q = {.from = from, .before = before, .min_run = 300, .user_lo = INT32_MIN,
                          .user_hi = INT32_MAX, .budget = nall - 1, .counts = counts,
                          .nusers = 64, .first_from = p->win_start, .first_before = p->win_end};
    StorePlanJobsOut o;
    assert_int_equal(store_plan_jobs_read(d->st, &q, &o, &err), 0);
    assert_int_equal(o.overflow, 1);
    assert_null(o.jobs);
    assert_int_equal(o.last_start, last);
    assert_int_equal(o.first, first);
    assert_memory_equal(counts, want, sizeof counts);
    int64_t first_sql, jobs_sql, users_sql;
    sql_counts(d->st, p, &jobs_sql, &first_sql, &users_sql);
    assert_int_equal(o.first, first_sql);
    FeatJob *buf = malloc(nall * sizeof *buf);
    StorePlanJobsReq r = {.from = from, .before = before, .min_run = 300, .user_lo = 10,
                          .user_hi = 20, .budget = nall, .buf = buf, .nusers = 64,
                          .first_from = INT64_MAX, .first_before = INT64_MAX};
    assert_int_equal(store_plan_jobs_read(d->st, &r, &o, &err), 0);
    assert_ptr_equal(o.jobs, buf);
    assert_int_equal(o.overflow, 0);
    size_t k = 0;
    for (size_t i = 0; i < nall; i++)
        if (all[i].user >= 10 && all[i].user < 20) {
            assert_true(k < o.n);
            assert_memory_equal(&o.jobs[k], &all[i], sizeof all[i]);
            k++;
        }
    assert_int_equal(k, o.n);
    assert_true(k > 50);
    free(buf);
    free(all);
    plan_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_generated_batches, generated_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_read_budget, generated_setup, db_teardown),
        cmocka_unit_test_setup_teardown(test_kth_batches, kth_setup, db_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
