/* capplan: a capacity planner for GPU research clusters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "data/store/store.h"

static const CmdEntry *const commands[] = {&cmd_import, &cmd_collect, &cmd_status, &cmd_demo, &cmd_profile,
                                           &cmd_project, &cmd_scenario, &cmd_tui, &cmd_stats, &cmd_meetings,
                                           &cmd_export, &cmd_check, &cmd_complete, &cmd_research, &cmd_simulate};
static const size_t ncommands = sizeof commands / sizeof commands[0];

static void print_help(FILE *out)
{
    fprintf(out, "usage: capplan [--db PATH] [--quiet] COMMAND ...\n\n"
                 "PATH defaults to $CAPPLAN_DB, else ./capplan.db. --quiet: nothing on standard\n"
                 "output, errors only (on stderr, time-stamped when it is not a terminal).\n"
                 "\ncommands:\n");
    for (size_t i = 0; i < ncommands; i++)
        fprintf(out, "  %s\n", commands[i]->usage);
    fprintf(out, "\n`capplan COMMAND --help` for details; `capplan --version`.\n"
                 "Exit status: 0 success, 1 the work failed (bad data, I/O), 2 bad usage,\n"
                 "3 the database stayed locked by another process past $CAPPLAN_LOCK_TIMEOUT\n"
                 "seconds (default %d), 4 the database is corrupt (capplan check).\n",
            STORE_LOCK_TIMEOUT_S);
}

/* Told once when a command waits more than a second for another process's
 * lock on the database (an import writing it). */
static void wait_notice(const char *path)
{
    cli_error("%s: another capplan holds the database (an import?); waiting up to %d s",
              path, store_lock_timeout());
}

/* $CAPPLAN_LOCK_TIMEOUT: seconds to wait for a lock; -1 (the default) when
 * unset or not a whole number. */
static int lock_timeout_env(void)
{
    const char *v = getenv("CAPPLAN_LOCK_TIMEOUT");
    char *end;
    long n = v && *v ? strtol(v, &end, 10) : -1;
    return v && *v && !*end && n >= 0 && n <= 86400 ? (int)n : -1;
}

/* "import, collect, ...": the command names, for a refusal. */
static void command_names(char *buf, size_t sz)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < ncommands && k < sz; i++) {
        int w = snprintf(buf + k, sz - k, "%s%s", i ? ", " : "", commands[i]->name);
        if (w < 0)
            break;
        k += (size_t)w;
    }
}

static int is_reader(const char *cmd)
{
    static const char *const readers[] = {"status", "stats", "export", "check"};
    for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++)
        if (strcmp(cmd, readers[i]) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    CliCtx ctx = {NULL, NULL, 0, 0};
    store_faults_init(wait_notice, lock_timeout_env());
    const char *env = getenv("CAPPLAN_DB");
    ctx.db_path = env && env[0] ? env : "capplan.db";
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--db") == 0 || strncmp(argv[i], "--db=", 5) == 0) {
            /* "--db --quiet" is a forgotten path, not a file named --quiet */
            int next = i + 1 < argc && argv[i + 1][0] != '-';
            const char *v = argv[i][4] == '=' ? argv[i] + 5 : next ? argv[++i] : "";
            if (!v[0]) {
                cli_error("--db needs a path");
                return 2;
            }
            ctx.db_path = v;
        } else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
            /* nothing on stdout; errors and warnings still go to stderr */
            if (!freopen("/dev/null", "w", stdout)) {
                cli_error("--quiet: /dev/null: cannot open");
                return 1;
            }
            cli_set_quiet(1);
        } else if (strcmp(argv[i], "--version") == 0) {
            printf("capplan %s\n", CAPPLAN_VERSION);
            return 0;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            print_help(stdout);
            return 0;
        } else {
            cli_error("unknown option '%s' (before the command: --db PATH, --quiet, "
                      "--version, --help)",
                      argv[i]);
            return 2;
        }
    }
    char names[512];
    command_names(names, sizeof names);
    if (i == argc) {
        cli_error("no command given (commands: %s; capplan --help says more)", names);
        return 2;
    }
    if (strcmp(argv[i], "help") == 0) {
        print_help(stdout);
        return 0;
    }
    for (size_t c = 0; c < ncommands; c++) {
        if (strcmp(argv[i], commands[c]->name) == 0) {
            ctx.may_create = strcmp(argv[i], "import") == 0 || strcmp(argv[i], "collect") == 0 ||
                             strcmp(argv[i], "demo") == 0;
            ctx.read_only = is_reader(argv[i]);
            int rc = commands[c]->exec(&ctx, argc - i, argv + i);
            store_close(ctx.store);
            return cli_exit_code(&ctx, rc);
        }
    }
    cli_error("unknown command '%s' (commands: %s; capplan --help says more)", argv[i], names);
    return 2;
}
