/* capplan demo: build the synthetic institute of data/demo/demo.h into the
 * database, then show it: the dashboard when standard input and output are
 * a terminal (what `make demo` does), else what `capplan status` prints
 * (--no-tui: only the summary). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/status_print.h"
#include "data/demo/demo.h"
#include "data/ingest/fields.h"

/* A whole non-negative decimal number. */
static int parse_count(const char *s, int64_t *out)
{
    char *end;
    if (!s || !*s || *s == '-')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || v > (unsigned long long)INT64_MAX)
        return -1;
    *out = (int64_t)v;
    return 0;
}

/* "YYYY-MM-DD", a real calendar day, as its UTC midnight. */
static int parse_day(const char *s, int64_t *out)
{
    int y, m, d, y2, m2, d2, h, mi, sec;
    char tail;
    if (!s || strlen(s) != 10 || sscanf(s, "%4d-%2d-%2d%c", &y, &m, &d, &tail) != 3)
        return -1;
    *out = fields_epoch_of(y, m, d, 0, 0, 0);
    fields_civil_of(*out, &y2, &m2, &d2, &h, &mi, &sec);
    return y == y2 && m == m2 && d == d2 ? 0 : -1;
}

typedef struct DemoArgs {
    DemoOpts o;
    int no_tui;
} DemoArgs;

/* 0, or 2 after printing the usage error. */
_Static_assert(DEMO_MIN_JOBS == 1000 && DEMO_MAX_JOBS == 10000000,
               "demo --jobs: the range in the messages and --help");

static int parse_args(int argc, char **argv, DemoArgs *a)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        int64_t n;
        if (strcmp(arg, "--no-tui") == 0) {
            a->no_tui = 1;
            continue;
        }
        if (strcmp(arg, "--force") == 0) {
            a->o.force = 1;
            continue;
        }
        if (strcmp(arg, "--seed") == 0 && parse_count(val, &n) == 0)
            a->o.seed = (uint64_t)n;
        else if (strcmp(arg, "--jobs") == 0 && parse_count(val, &n) == 0 &&
                 n >= DEMO_MIN_JOBS && n <= DEMO_MAX_JOBS)
            a->o.jobs = n;
        else if (strcmp(arg, "--today") == 0 && parse_day(val, &n) == 0)
            a->o.today = n;
        else if (strcmp(arg, "--dir") == 0 && val && *val)
            a->o.dir = val;
        else {
            static const char *const allowed[][2] = {
                {"--seed", "a whole number"},
                {"--jobs", "a whole number from 1000 to 10000000"},
                {"--today", "a day, YYYY-MM-DD"},
                {"--dir", "a folder"}};
            for (size_t k = 0; k < sizeof allowed / sizeof allowed[0]; k++)
                if (strcmp(arg, allowed[k][0]) == 0) {
                    if (val)
                        cli_error("demo: %s: expected %s, got '%s'", arg, allowed[k][1], val);
                    else
                        cli_error("demo: %s needs a value: %s", arg, allowed[k][1]);
                }
            return cli_usage(&cmd_demo);
        }
        i++;
    }
    return 0;
}

static void print_summary(const char *db, const DemoSummary *s)
{
    char from[16], to[16];
    int y, m, d, h, mi, sec;
    fields_civil_of(s->first_day, &y, &m, &d, &h, &mi, &sec);
    snprintf(from, sizeof from, "%04d-%02d-%02d", y, m, d);
    fields_civil_of(s->today, &y, &m, &d, &h, &mi, &sec);
    snprintf(to, sizeof to, "%04d-%02d-%02d", y, m, d);
    printf("capplan demo: %s built in %.1f s (generate %.2f s, write %.2f s, import %.2f s)\n",
           db, s->gen_s + s->write_s + s->import_s, s->gen_s, s->write_s, s->import_s);
    printf("  %lld jobs, %lld attempts (%lld preempted), %s to %s\n", (long long)s->jobs,
           (long long)s->attempts, (long long)s->preempted, from, to);
    printf("  %lld people in %lld groups, %lld domains, %lld clusters, %lld events, "
           "%lld publications, %lld notes, %lld stated needs\n",
           (long long)s->people, (long long)s->groups, (long long)s->domains,
           (long long)s->clusters, (long long)s->events, (long long)s->pubs,
           (long long)s->notes, (long long)s->needs);
    printf("  input files: %s/ (%lld files, %.0f MB)\n", s->dir, (long long)s->files,
           (double)s->bytes / 1e6);
    if (s->rejected)
        printf("  warning: %lld input lines were rejected by the import\n",
               (long long)s->rejected);
}

/* An input line the demo's import rejected (a bug in the generator): said
 * as an error line, time-stamped off a terminal. */
static void say_rejected(void *ctx, const char *msg)
{
    (void)ctx;
    cli_error("demo: rejected: %s", msg);
}

static int exec_demo(CliCtx *ctx, int argc, char **argv)
{
    if (cli_wants_help(&cmd_demo, argc, argv))
        return 0;
    DemoArgs a;
    memset(&a, 0, sizeof a);
    demo_opts_init(&a.o);
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc;
    a.o.db_path = ctx->db_path;
    a.o.progress = cli_progress();
    a.o.reject = say_rejected;
    DemoSummary s;
    CpErr err;
    if (demo_build(&a.o, &s, &err) < 0)
        return cli_error("demo: %s", err.msg);
    print_summary(ctx->db_path, &s);
    if (a.no_tui)
        return 0;
    if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
        char *tui_argv[] = {(char *)"tui", NULL};
        return cmd_tui.exec(ctx, 1, tui_argv);
    }
    Store *st = cli_store(ctx);
    if (!st)
        return 1;
    printf("\n");
    return status_print(st, 0, stdout);
}

const CmdEntry cmd_demo = {
    "demo",
    "capplan demo [--seed N] [--jobs N] [--today YYYY-MM-DD] [--dir DIR] [--no-tui] [--force]",
    "\nBuild a realistic synthetic research institute into the database and show it:\n"
    "five years up to today of three GPU clusters, 25 research groups in 6 domains,\n"
    "their roster, jobs, publications\n"
    "and meeting notes. The input files (sacct text and JSON, roster, inventory,\n"
    "events, publications, GPU metrics) are written into a folder and imported through\n"
    "the same paths as `capplan import`. Then it opens the dashboard on it.\n\n"
    "  --seed N      another institute (default 1); the same seed gives the same database\n"
    "  --jobs N      about N jobs, 1000 to 10000000 (default 300000)\n"
    "  --today DATE  end the history on DATE instead of the current date\n"
    "  --dir DIR     folder for the input files (default: DB.demo-input)\n"
    "  --no-tui      stop after building (without a terminal, the demo prints what\n"
    "                `capplan status` prints instead of opening the dashboard)\n"
    "  --force       replace a capplan database that holds more than a previous\n"
    "                demo's work (imports, notes, scenario edits, meetings...)\n\n"
    "The demo is built into DB.demo-tmp and renamed over DB when complete: a killed\n"
    "demo leaves the old database whole. A file that is not a capplan database is\n"
    "never replaced.\n",
    exec_demo};
