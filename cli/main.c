/* capplan: a capacity planner for GPU research clusters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "data/store.h"

#define CAPPLAN_VERSION "0.1.0"

static const CmdEntry *const commands[] = {&cmd_import, &cmd_collect, &cmd_status, &cmd_demo, &cmd_profile,
                                           &cmd_project, &cmd_scenario, &cmd_tui, &cmd_stats, &cmd_meetings,
                                           &cmd_export, &cmd_research};
static const size_t ncommands = sizeof commands / sizeof commands[0];

static void print_help(FILE *out)
{
    fprintf(out, "usage: capplan [--db PATH] COMMAND ...\n\n"
                 "PATH defaults to $CAPPLAN_DB, else ./capplan.db.\n\ncommands:\n");
    for (size_t i = 0; i < ncommands; i++)
        fprintf(out, "  %s\n", commands[i]->usage);
    fprintf(out, "\n`capplan COMMAND --help` for details; `capplan --version`.\n");
}

int main(int argc, char **argv)
{
    CliCtx ctx = {NULL, NULL, 0};
    const char *env = getenv("CAPPLAN_DB");
    ctx.db_path = env && env[0] ? env : "capplan.db";
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--db") == 0 && i + 1 < argc) {
            ctx.db_path = argv[++i];
        } else if (strncmp(argv[i], "--db=", 5) == 0) {
            ctx.db_path = argv[i] + 5;
        } else if (strcmp(argv[i], "--version") == 0) {
            printf("capplan %s\n", CAPPLAN_VERSION);
            return 0;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            print_help(stdout);
            return 0;
        } else {
            fprintf(stderr, "capplan: unknown option '%s'\n", argv[i]);
            print_help(stderr);
            return 2;
        }
    }
    if (i == argc) {
        print_help(stderr);
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
            int rc = commands[c]->exec(&ctx, argc - i, argv + i);
            store_close(ctx.store);
            return rc;
        }
    }
    fprintf(stderr, "capplan: unknown command '%s'\n", argv[i]);
    print_help(stderr);
    return 2;
}
