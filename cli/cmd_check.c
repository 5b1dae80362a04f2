/* capplan check: is the database whole, and do the tables kept at import
 * agree with the jobs (data/store_check)? */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "data/store/store.h"
#include "data/store/store_check.h"

static void print_problem(void *ctx, const char *line)
{
    char clean[1024];
    cli_sanitize(clean, sizeof clean, line);
    fprintf(ctx, "%s\n", clean);
}

static int exec_check(CliCtx *ctx, int argc, char **argv)
{
    if (cli_wants_help(&cmd_check, argc, argv))
        return 0;
    int quick = argc == 2 && strcmp(argv[1], "--quick") == 0;
    if (argc > 1 + quick)
        return cli_usage(&cmd_check);
    Store *st = cli_store(ctx);
    if (!st)
        return 1;
    CpErr err;
    int corrupt = 0;
    int n = store_check_with(st, quick, print_problem, stdout, &corrupt, &err);
    if (n < 0)
        return cli_error("%s: %s", ctx->db_path, err.msg);
    if (corrupt) {
        cli_error("%s: the database is corrupt (SQLite's integrity check above); restore a "
                  "backup or re-import the accounting into a new file",
                  ctx->db_path);
        return CLI_EXIT_CORRUPT;
    }
    if (n > 0)
        return cli_error("%s: %d problem%s found (above); re-importing the accounting into a "
                         "new file rebuilds these tables",
                         ctx->db_path, n, n == 1 ? "" : "s");
    printf("%s: ok (integrity, usage per month, job counts and the accounting window agree with the jobs)\n",
           ctx->db_path);
    return 0;
}

const CmdEntry cmd_check = {
    "check", "capplan check [--quick]",
    "\nCheck the database: SQLite's integrity check (--quick: its quick check, no\n"
    "index cross-check, for a nightly run on millions of jobs), then the tables kept up to\n"
    "date at import (usage per month: jobs, attempts, GPU jobs, preempted, GPU-hours,\n"
    "CPU-hours; the accounting window) against the jobs table.\n"
    "Exit status: 0 all well, 1 a table disagrees (each problem on a line),\n"
    "4 the file is corrupt.\n",
    exec_check};
