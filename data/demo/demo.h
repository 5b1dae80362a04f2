#ifndef DEMO_H
#define DEMO_H
/* demo: a synthetic research institute, built the way a user builds a real
 * one. It generates five years of a GPU centre (clusters whose inventory
 * changes, research groups whose members arrive and graduate, jobs that
 * follow distinct usage patterns, a queue simulation that makes waits and
 * preemption follow the load), writes them as the real input files a site
 * has (sacct -D -P text with step rows, sacct --json, roster, inventory,
 * events, publications, GPU metrics CSV) into a folder, and imports that
 * folder through import_sacct/import_csv, so the demo exercises the real
 * ingest. Meeting notes and students' stated needs go in through
 * store_demo (there is no CSV import for them yet).
 *
 * Deterministic: the same seed, job count and "today" give the same files
 * and the same database. Every distribution and where its default comes
 * from is documented in demo_model.h and docs/demo.md.
 *
 * No curses, no printing beyond optional progress lines on stderr. */

#include <stdint.h>

#include "core/cp.h"

#define DEMO_DEFAULT_JOBS 300000
#define DEMO_MIN_JOBS 1000
#define DEMO_MAX_JOBS 10000000
#define DEMO_DEFAULT_SEED 1

typedef struct DemoOpts {
    uint64_t seed;       /* PRNG seed (any value) */
    int64_t jobs;        /* about this many jobs, DEMO_MIN_JOBS..DEMO_MAX_JOBS */
    int64_t today;       /* the end of history: a UTC midnight in epoch seconds;
                            0 means the current date */
    const char *db_path; /* database to create, replacing a capplan one */
    const char *dir;     /* folder for the input files; NULL: "<db_path>.demo-input" */
    int progress;        /* one line per stage on stderr */
    int force;           /* replace a capplan database holding other work too */
    /* Told each of the first 5 lines an import rejects (0 unless a bug), the
     * message naming file, line and field; NULL: not told (only counted). */
    void (*reject)(void *ctx, const char *msg);
    void *reject_ctx;
} DemoOpts;

/* What was built. */
typedef struct DemoSummary {
    char dir[1024];               /* where the input files are */
    int64_t today, first_day;     /* the history covers [first_day, today) */
    int64_t jobs, attempts;       /* generated: jobs, and attempts including requeues */
    int64_t preempted;            /* attempts ended by preemption */
    int64_t people, groups, domains, clusters, pubs, events, notes, needs;
    int64_t files;                /* input files written */
    int64_t bytes;                /* their total size */
    int64_t rejected;             /* lines the imports rejected (0 unless a bug) */
    double gen_s, write_s, import_s; /* wall time of each stage */
} DemoSummary;

/* Defaults: seed 1, DEMO_DEFAULT_JOBS, today = current date, db "capplan.db". */
void demo_opts_init(DemoOpts *o);

/* The UTC midnight that starts the day holding epoch second t. */
int64_t demo_day_of(int64_t t);

/* Create the demo database at o->db_path: check that an existing file is a
 * capplan database holding only a previous demo's work (any capplan
 * database with o->force; never anything else), write the inputs into the
 * folder (created, or emptied of a previous demo's files; a non-empty
 * folder that is not a demo folder is refused), import them into
 * "<db>.demo-tmp", then rename that over the database, and fill sum (may
 * be NULL). Returns 0, or -1 with err filled; on failure or a kill the old
 * database is whole (a leftover .demo-tmp is replaced by the next demo). */
int demo_build(const DemoOpts *o, DemoSummary *sum, CpErr *err);

/* Only the generation and the files, no database (for benchmarks and for
 * looking at the inputs): writes into dir, which must be a demo folder or
 * absent or empty. */
int demo_write_inputs(const DemoOpts *o, const char *dir, DemoSummary *sum, CpErr *err);

#endif
