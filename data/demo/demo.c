/* demo: the stages of `capplan demo` in order (see demo.h): check what
 * would be replaced, prepare the input folder, generate the institute and
 * its accounting, write the files, then import them through the same
 * import_csv/import_sacct a user runs, and add the meeting notes.
 *
 * Files only ever deleted: the database (when it is a capplan database or
 * empty) with its -wal and -shm, and in a folder marked as a demo folder
 * (.capplan-demo) the files a demo writes. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "data/demo/demo.h"
#include "data/demo/demo_model.h"
#include "data/plan/plan.h"
#include "data/ingest/pubs.h"
#include "data/ingest/import.h"
#include "data/store/store.h"
#include "data/ingest/policy_csv.h"
#include "data/store/store_policy.h"
#include "data/ingest/textenc.h"

#define DEMO_MARKER ".capplan-demo"

void demo_opts_init(DemoOpts *o)
{
    memset(o, 0, sizeof *o);
    o->seed = DEMO_DEFAULT_SEED;
    o->jobs = DEMO_DEFAULT_JOBS;
    o->db_path = "capplan.db";
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void progress(const DemoOpts *o, const char *what, const char *arg)
{
    if (o->progress)
        fprintf(stderr, "capplan demo: %s%s\n", what, arg);
}

/* ---- what may be deleted ---- */

static int path_exists(const char *path, struct stat *sb)
{
    return stat(path, sb) == 0;
}

/* 0 when path may be replaced: absent, empty, or a capplan database that
 * holds only a demo's work (any capplan database with force). */
static int check_db(const char *path, int force, CpErr *err)
{
    struct stat sb;
    if (!path_exists(path, &sb))
        return errno == ENOENT ? 0 : cp_err_set(err, "%s: %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return cp_err_set(err, "%s: not a regular file; not replaced", path);
    if (sb.st_size == 0)
        return 0;
    int is = store_demo_is_capplan(path, err);
    if (is < 0)
        return -1;
    if (!is)
        return cp_err_set(err, "%s: not a capplan database; not replaced (use --db PATH)", path);
    if (force)
        return 0;
    is = store_demo_own_work(path, err);
    return is == 1 ? 0 : -1;
}

static int remove_file(const char *path, CpErr *err)
{
    if (unlink(path) == 0 || errno == ENOENT)
        return 0;
    return cp_err_set(err, "%s: cannot delete: %s", path, strerror(errno));
}

static int remove_db(const char *path, CpErr *err)
{
    static const char *const sides[] = {"-wal", "-shm", "-journal"};
    char side[1100];
    if (remove_file(path, err) < 0)
        return -1;
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
        snprintf(side, sizeof side, "%s%s", path, sides[i]);
        if (remove_file(side, err) < 0)
            return -1;
    }
    return 0;
}

/* Fold the old database's WAL into it, so that nothing of it is lost and
 * no stale -wal is left beside the new file; refuse while another process
 * (a dashboard) has it open. */
static int settle_old(const char *path, CpErr *err)
{
    char wal[1100];
    struct stat sb;
    snprintf(wal, sizeof wal, "%s-wal", path);
    if (!path_exists(path, &sb))
        return 0;
    if (path_exists(wal, &sb)) {
        Store *st = store_open(path, err);
        if (!st)
            return -1;
        store_close(st); /* the last connection checkpoints and removes the WAL */
    }
    if (path_exists(wal, &sb))
        return cp_err_set(err, "%s is open in another program (a dashboard?); close it and "
                               "run the demo again",
                          path);
    char shm[1100];
    snprintf(shm, sizeof shm, "%s-shm", path);
    return remove_file(shm, err);
}

/* A file the demo writes (and may therefore delete). */
static int demo_file_name(const char *n)
{
    static const char *const fixed[] = {"roster.csv", "inventory.csv", "events.csv",
                                        "pubs.csv", "gpu-metrics.csv", "notes.csv",
                                        "stated_needs.csv", "allocations.csv", "carbon.csv"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (strcmp(n, fixed[i]) == 0)
            return 1;
    size_t len = strlen(n);
    if (strncmp(n, "pubs-", 5) == 0) /* demo_bib.c */
        return len > 4 && (strcmp(n + len - 4, ".bib") == 0 || strcmp(n + len - 4, ".csv") == 0);
    return strncmp(n, "sacct-", 6) == 0 &&
           ((len > 4 && strcmp(n + len - 4, ".txt") == 0) ||
            (len > 5 && strcmp(n + len - 5, ".json") == 0));
}

/* Delete a previous demo's files from dir; refuse a non-empty folder
 * that is not marked as a demo folder. */
static int clean_dir(const char *dir, CpErr *err)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s", dir, DEMO_MARKER);
    struct stat sb;
    int marked = path_exists(path, &sb);
    DIR *d = opendir(dir);
    if (!d)
        return cp_err_set(err, "%s: cannot open folder: %s", dir, strerror(errno));
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            strcmp(e->d_name, DEMO_MARKER) == 0)
            continue;
        if (!marked) {
            rc = cp_err_set(err, "%s: folder is not empty and not a demo folder; choose "
                                 "another --dir", dir);
            break;
        }
        if (demo_file_name(e->d_name)) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            rc = remove_file(path, err);
        }
    }
    closedir(d);
    return rc;
}

static int prepare_dir(const char *dir, CpErr *err)
{
    struct stat sb;
    if (!path_exists(dir, &sb)) {
        if (mkdir(dir, 0777) != 0)
            return cp_err_set(err, "%s: cannot create folder: %s", dir, strerror(errno));
    } else if (!S_ISDIR(sb.st_mode)) {
        return cp_err_set(err, "%s: not a folder", dir);
    } else if (clean_dir(dir, err) < 0) {
        return -1;
    }
    char marker[1100];
    snprintf(marker, sizeof marker, "%s/%s", dir, DEMO_MARKER);
    FILE *f = fopen(marker, "w");
    if (!f)
        return cp_err_set(err, "%s: cannot write: %s", marker, strerror(errno));
    fputs("Input files written by `capplan demo`; the next demo replaces them.\n", f);
    return fclose(f) == 0 ? 0 : cp_err_set(err, "%s: cannot write", marker);
}

/* ---- generation ---- */

static int check_opts(const DemoOpts *o, CpErr *err)
{
    if (o->jobs < DEMO_MIN_JOBS || o->jobs > DEMO_MAX_JOBS)
        return cp_err_set(err, "--jobs: %lld is outside %d..%d", (long long)o->jobs,
                          DEMO_MIN_JOBS, DEMO_MAX_JOBS);
    if (o->today != demo_day_of(o->today))
        return cp_err_set(err, "today must be a UTC midnight");
    if (o->today < demo_date(1990, 1, 1) || o->today > demo_date(2200, 1, 1))
        return cp_err_set(err, "today is out of range");
    return 0;
}

static void generate(DemoWorld *w, const DemoOpts *o)
{
    demo_world_init(w, o);
    demo_institute(w);
    demo_jobs_generate(w);
    demo_schedule(w);
    demo_extras(w);
}

static int64_t distinct_users(const DemoWorld *w)
{
    int64_t n = 0;
    for (int i = 0; i < w->npeople; i++) {
        int seen = 0;
        for (int k = 0; k < i && !seen; k++)
            seen = strcmp(w->people[k].user, w->people[i].user) == 0;
        n += !seen;
    }
    return n;
}

static void summarise(const DemoWorld *w, const DemoFiles *f, DemoSummary *s)
{
    s->today = w->today;
    s->first_day = w->t0;
    for (size_t i = 0; i < w->norder; i++)
        s->attempts += w->jobs[w->order[i]].nattempts;
    s->jobs = (int64_t)w->norder;
    s->preempted = w->preempted;
    s->people = distinct_users(w);
    s->groups = w->ngroups;
    s->domains = DEMO_NDOMAINS;
    s->clusters = DEMO_NCLUSTERS;
    s->pubs = w->npubs;
    s->events = w->nevents;
    s->notes = w->nnotes;
    s->needs = w->nneeds;
    s->files = f->n;
    s->bytes = f->bytes;
}

static int write_all(const DemoWorld *w, const char *dir, DemoFiles *f, CpErr *err)
{
    if (demo_write_csv(w, dir, f, err) < 0 || demo_write_sacct(w, dir, f, err) < 0 ||
        demo_write_metrics(w, dir, f, err) < 0 || demo_write_policy(w, dir, f, err) < 0 ||
        demo_write_bib(w, dir, f, err) < 0)
        return -1;
    return 0;
}

/* Generate and write; fills s (times, counts). w is the caller's, to free. */
static int build_inputs(const DemoOpts *o, const char *dir, DemoWorld *w, DemoFiles *f,
                        DemoSummary *s, CpErr *err)
{
    if (check_opts(o, err) < 0 || prepare_dir(dir, err) < 0)
        return -1;
    progress(o, "generating five years of the institute", "");
    double t0 = now_s();
    generate(w, o);
    double t1 = now_s();
    progress(o, "writing the input files into ", dir);
    if (write_all(w, dir, f, err) < 0)
        return -1;
    s->gen_s = t1 - t0;
    s->write_s = now_s() - t1;
    summarise(w, f, s);
    snprintf(s->dir, sizeof s->dir, "%s", dir);
    return 0;
}

/* ---- import ---- */

typedef struct Rejects {
    int64_t n;
    const DemoOpts *o; /* its reject callback, told of the first 5 */
} Rejects;

static void on_reject(void *ctx, const char *msg)
{
    Rejects *r = ctx;
    if (r->n++ < 5 && r->o->reject)
        r->o->reject(r->o->reject_ctx, msg);
}

static int import_one(Store *st, const char *kind, const char *path, Rejects *rej, CpErr *err)
{
    ImportOpts io;
    ImportResult res;
    import_opts_init(&io);
    io.reject = on_reject;
    io.reject_ctx = rej;
    memset(&res, 0, sizeof res);
    if (strcmp(kind, "sacct") == 0)
        return import_sacct(st, path, &io, &res, err);
    if (store_policy_kind(kind)) {
        StorePolicyResult pr;
        return store_policy_import(st, kind, path, TEXTENC_UTF8, &pr, err);
    }
    if (strcmp(kind, "pubs") == 0)
        return pubs_import(st, path, &io, &res, err);
    return import_csv(st, kind, path, &io, &res, err);
}

static int import_all(const DemoOpts *o, const DemoWorld *w, const DemoFiles *f,
                      DemoSummary *s, CpErr *err)
{
    Store *st = store_open(o->db_path, err);
    if (!st)
        return -1;
    Rejects rej = {0, o};
    int rc = 0;
    for (int i = 0; i < f->n && rc == 0; i++) {
        progress(o, "importing ", f->path[i]);
        rc = import_one(st, f->kind[i], f->path[i], &rej, err);
    }
    if (rc == 0)
        rc = store_demo_meetings(st, w, err);
    if (rc == 0)
        rc = store_demo_mark(st, err);
    if (rc == 0) { /* the planner's cache, as after `capplan import` (never fails the
                      demo); no profile run saved: the demo keeps none (issue 16) */
        CpErr perr;
        (void)plan_cache_refresh(st, 0, &perr);
    }
    store_close(st);
    s->rejected = rej.n;
    return rc;
}

static void default_dir(const DemoOpts *o, char *out, size_t cap)
{
    if (o->dir)
        snprintf(out, cap, "%s", o->dir);
    else
        snprintf(out, cap, "%s.demo-input", o->db_path);
}

static DemoOpts resolved(const DemoOpts *o)
{
    DemoOpts r = *o;
    if (!r.today)
        r.today = demo_day_of((int64_t)time(NULL));
    return r;
}

/* Build into "<db>.demo-tmp" (a leftover of a killed demo is replaced),
 * then rename it over the database: a kill at any point leaves the old
 * database whole, or the new one whole. */
int demo_build(const DemoOpts *opts, DemoSummary *sum, CpErr *err)
{
    DemoOpts o = resolved(opts);
    DemoSummary local;
    DemoSummary *s = sum ? sum : &local;
    memset(s, 0, sizeof *s);
    char dir[1024], tmp[1100];
    default_dir(&o, dir, sizeof dir);
    snprintf(tmp, sizeof tmp, "%s.demo-tmp", o.db_path);
    if (check_opts(&o, err) < 0 || check_db(o.db_path, o.force, err) < 0)
        return -1;
    DemoWorld w;
    DemoFiles f;
    memset(&w, 0, sizeof w);
    memset(&f, 0, sizeof f);
    int rc = build_inputs(&o, dir, &w, &f, s, err);
    if (rc == 0)
        rc = remove_db(tmp, err);
    if (rc == 0) {
        double t = now_s();
        DemoOpts into = o;
        into.db_path = tmp;
        rc = import_all(&into, &w, &f, s, err);
        s->import_s = now_s() - t;
    }
    if (rc == 0)
        rc = settle_old(o.db_path, err);
    if (rc == 0 && rename(tmp, o.db_path) != 0)
        rc = cp_err_set(err, "%s: cannot replace: %s", o.db_path, strerror(errno));
    if (rc < 0)
        remove_db(tmp, NULL);
    demo_files_done(&f);
    demo_world_done(&w);
    return rc;
}

int demo_write_inputs(const DemoOpts *opts, const char *dir, DemoSummary *sum, CpErr *err)
{
    DemoOpts o = resolved(opts);
    DemoSummary local;
    DemoSummary *s = sum ? sum : &local;
    memset(s, 0, sizeof *s);
    DemoWorld w;
    DemoFiles f;
    memset(&w, 0, sizeof w);
    memset(&f, 0, sizeof f);
    int rc = build_inputs(&o, dir, &w, &f, s, err);
    demo_files_done(&f);
    demo_world_done(&w);
    return rc;
}
