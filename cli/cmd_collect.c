/* capplan collect: run sacct on this Slurm cluster, import incrementally. */
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "data/ingest/collect.h"
#include "data/ingest/fields.h"
#include "data/store/store.h"

static const char collect_usage[] =
    "capplan collect [--since DATE] [--clusters LIST|all] [--sacct-format text|json]\n"
    "                [--sacct COMMAND] [--quiet]";

static const char collect_help[] =
    "\n"
    "Runs sacct on this machine and imports what it prints, as `capplan import sacct`\n"
    "does, in one transaction:\n"
    "  sacct -a -D -P --format=<capplan's fields, JobName last> --state=<all states>\n"
    "        -S FROM -E TO [-M LIST]         with TZ=UTC\n"
    "once for each calendar month (UTC) from SINCE to now, each month its own\n"
    "transaction, with one progress line a month on a terminal: a collect that is\n"
    "killed keeps the months it finished and the next one continues from there.\n"
    "(the state list with -E now also lists jobs that never started; -D lists every\n"
    "attempt of a requeued job). SINCE is where the earlier collects of the database\n"
    "end, less one day of overlap: jobs still pending or running last time, and records\n"
    "that reached slurmdbd late, are read again and updated in place (a job seen\n"
    "RUNNING, then COMPLETED, is one completed job). The first collect reads all that\n"
    "the accounting holds (since 2000-01-01); a site whose slurmdbd limits the range of\n"
    "a query (MaxQueryTimeRange) gives --since.\n"
    "\noptions:\n"
    "  --since DATE      read from DATE instead: YYYY-MM-DD[THH:MM[:SS]], UTC, not\n"
    "                    before 2000-01-01\n"
    "  --clusters LIST   sacct -M LIST (each list keeps its own window); all: every\n"
    "                    cluster of the slurmdbd, each job under its own cluster\n"
    "  --sacct-format F  text (sacct -P, the default) or json (sacct --json, Slurm\n"
    "                    21.08 and later; 22.05's leaves out jobs that never started\n"
    "                    and non-zero exit codes)\n"
    "  --sacct COMMAND   the sacct to run (default: sacct from PATH); several words\n"
    "                    reach another machine, e.g. 'ssh login1 sacct': the last\n"
    "                    word is sacct, run as WORDS... env TZ=UTC ... sacct ARGS;\n"
    "                    each command keeps its own window (several slurmdbds into\n"
    "                    one database), and asks for all it has not read in one\n"
    "                    sacct (one ssh session) unless slurmdbd says the range is\n"
    "                    too wide (MaxQueryTimeRange): then month by month\n"
    "  --quiet           no summary line, no progress\n"
    "\nWith Slurm's PrivateData=jobs, sacct shows a user who is not root, SlurmUser or\n"
    "an operator only their own jobs: collect then refuses, saying so.\n"
    "\nWhen sacct is missing, slurmdbd is down, or sacct fails or prints an error, one\n"
    "line says so (capplan: collect: sacct: ...), the exit status is 1 and the database\n"
    "is unchanged. The window advances only after an import that rejected no line.\n";

static void print_reject(void *ctx, const char *msg)
{
    int64_t *count = ctx;
    if (++*count <= 1000)
        cli_error("collect: %s", msg);
    else if (*count == 1001)
        cli_error("collect: more rejected lines follow; not shown");
}

/* One line a month on a terminal: "collect: 2024-03 (41/60): 1234 rows". */
static void show_month(void *ctx, int64_t since, int i, int n, const ImportResult *r)
{
    (void)ctx;
    if (n == 1)
        return; /* one window: the import's progress and the summary say it */
    int y, mo, d, h, mi, s;
    fields_civil_of(since, &y, &mo, &d, &h, &mi, &s);
    fprintf(stderr, "collect: %04d-%02d (%d/%d months): %lld rows read, %lld added\n", y, mo, i, n,
            (long long)r->rows_read, (long long)r->added);
}

/* Options into o; 0, or the exit status of a usage error. */
static int parse_args(int argc, char **argv, CollectOpts *o, int *quiet)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--sacct-format") == 0 && more) {
            const char *f = argv[++i];
            if (strcmp(f, "json") != 0 && strcmp(f, "text") != 0) {
                cli_error("collect: --sacct-format: text or json, got '%s'", f);
                return 2;
            }
            o->json = strcmp(f, "json") == 0;
        } else if (strcmp(a, "--quiet") == 0) {
            *quiet = 1;
        } else if (strcmp(a, "--clusters") == 0 && more) {
            o->clusters = argv[++i];
        } else if (strcmp(a, "--sacct") == 0 && more) {
            o->sacct = argv[++i];
        } else if (strcmp(a, "--since") == 0 && more) {
            CpErr err;
            const char *d = argv[++i];
            if (fields_time(d, strlen(d), 0, &o->since, &err) < 0 || o->since == CP_TIME_NONE) {
                cli_error("collect: --since: expected YYYY-MM-DD[THH:MM[:SS]], got '%s'", d);
                return 2;
            }
            if (o->since > (int64_t)time(NULL)) {
                cli_error("collect: --since: %s is in the future", d);
                return 2;
            }
        } else if (!more && (strcmp(a, "--since") == 0 || strcmp(a, "--clusters") == 0 ||
                             strcmp(a, "--sacct") == 0 || strcmp(a, "--sacct-format") == 0)) {
            cli_error("collect: %s needs a value", a);
            return cli_usage(&cmd_collect);
        } else {
            cli_error("collect: unknown option '%s'", a);
            return cli_usage(&cmd_collect);
        }
    }
    return 0;
}

static int exec_collect(CliCtx *ctx, int argc, char **argv)
{
    if (cli_wants_help(&cmd_collect, argc, argv))
        return 0;
    CollectOpts o;
    collect_opts_init(&o);
    int quiet = 0;
    int rc = parse_args(argc, argv, &o, &quiet);
    if (rc != 0)
        return rc;
    int64_t rejected_shown = 0;
    o.reject = print_reject;
    o.reject_ctx = &rejected_shown;
    o.progress = cli_progress() && !quiet;
    if (o.progress) {
        o.window_done = show_month;
        o.window_ctx = NULL;
    }
    Store *st = cli_store(ctx);
    if (!st)
        return 1;
    CollectResult res;
    CpErr err;
    if (collect_run(st, &o, &res, &err) < 0) {
        if (res.done > 0)
            cli_error("collect: %d of %d months collected and kept; the next collect continues "
                      "from there",
                      res.done, res.windows);
        return cli_error("collect: %s", err.msg);
    }
    if (res.warning[0])
        cli_error("collect: sacct: %s", res.warning);
    if (!quiet) {
        char label[300];
        cli_sanitize(label, sizeof label, res.label);
        printf("collect: %s: %s, %lld rows read, %lld added, %lld updated, %lld unchanged, "
               "%lld rejected\n",
               label, res.import.format, (long long)res.import.rows_read,
               (long long)res.import.added, (long long)res.import.updated,
               (long long)res.import.unchanged, (long long)res.import.rejected);
    }
    if (res.import.rejected > 0)
        return cli_error("collect: %lld rejected lines; the window was not advanced",
                         (long long)res.import.rejected);
    return 0;
}

const CmdEntry cmd_collect = {"collect", collect_usage, collect_help, exec_collect};
