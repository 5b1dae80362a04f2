/* capplan complete: the names shell completion offers (contrib/completions). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "data/store/store.h"
#include "data/store/store_plan.h"

static const char complete_usage[] = "capplan complete scenarios|groups|clusters";

static const char complete_help[] =
    "\n"
    "One name a line, for the bash and zsh completion of capplan (scenario, group and\n"
    "cluster names read from the database). Names holding a blank or a control\n"
    "character are left out. Without a database: the usual message, exit 1 (the\n"
    "completion scripts hide it).\n";

/* A name the shell can take as one word. */
static void put_name(const char *s)
{
    for (const char *p = s; *p; p++)
        if ((unsigned char)*p <= ' ' || *p == 0x7f)
            return;
    if (s[0])
        printf("%s\n", s);
}

static int list_scenarios(Store *st, CpErr *err)
{
    StorePlanScenario *s;
    size_t n;
    if (store_plan_scenarios(st, &s, &n, err) < 0)
        return -1;
    put_name("base");
    for (size_t i = 0; i < n; i++)
        put_name(s[i].name);
    store_plan_scenarios_free(s, n);
    return 0;
}

static int list_groups(Store *st, CpErr *err)
{
    StorePlanGroup *g;
    size_t n;
    if (store_plan_groups(st, &g, &n, err) < 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        put_name(g[i].name);
    store_plan_groups_free(g, n);
    return 0;
}

static int list_clusters(Store *st, CpErr *err)
{
    StorePlanGpus *g;
    size_t n;
    if (store_plan_inventory(st, &g, &n, err) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        int seen = 0;
        for (size_t k = 0; k < i && !seen; k++)
            seen = strcmp(g[k].cluster, g[i].cluster) == 0;
        if (!seen)
            put_name(g[i].cluster);
    }
    store_plan_inventory_free(g, n);
    return 0;
}

static int exec_complete(CliCtx *ctx, int argc, char **argv)
{
    if (cli_wants_help(&cmd_complete, argc, argv))
        return 0;
    if (argc != 2)
        return cli_usage(&cmd_complete);
    int (*list)(Store *, CpErr *) = strcmp(argv[1], "scenarios") == 0 ? list_scenarios
                                    : strcmp(argv[1], "groups") == 0  ? list_groups
                                    : strcmp(argv[1], "clusters") == 0 ? list_clusters
                                                                       : NULL;
    if (!list)
        return cli_usage(&cmd_complete);
    Store *st = cli_store(ctx);
    if (!st)
        return 1;
    CpErr err;
    if (list(st, &err) < 0)
        return cli_error("complete: %s", err.msg);
    return 0;
}

const CmdEntry cmd_complete = {"complete", complete_usage, complete_help, exec_complete};
