/* capplan status: what the database holds. */
#include <string.h>

#include "cli/cli.h"
#include "cli/status_print.h"
#include "data/store/store.h"

static int exec_status(CliCtx *ctx, int argc, char **argv)
{
    if (cli_wants_help(&cmd_status, argc, argv))
        return 0;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else {
            if (argv[i][0] != '-')
                cli_error("status: takes only --json, got '%s'", argv[i]);
            return cli_usage(&cmd_status);
        }
    }
    Store *st = cli_store(ctx);
    if (!st)
        return 1;
    return status_print(st, json, stdout);
}

const CmdEntry cmd_status = {"status", "capplan status [--json]",
                             "\nCounts of jobs, attempts, users, accounts, groups, clusters,\n"
                             "the date range of submissions and the recent imports.\n",
                             exec_status};
