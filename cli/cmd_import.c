/* capplan import KIND ...: files into the database, one transaction each. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "data/import.h"
#include "data/peers.h"
#include "data/pubs.h"
#include "data/store.h"
#include "data/store_policy.h"

static const char import_usage[] =
    "capplan import sacct|trace|roster|inventory|gpu-metrics|events|pubs|peers|allocations|"
    "carbon|sites [options] FILE...";

static const char import_help[] =
    "\n"
    "  sacct FILE...|-     sacct -P text (with header, or --fields), any --delimiter,\n"
    "                      Key=Value CSV, or sacct --json; detected from the content\n"
    "  trace --kind K FILE public traces: philly, swf, helios, pai\n"
    "  roster FILE.csv     user,group,role,domain,start,end[,supervisor]\n"
    "  inventory FILE.csv  cluster,gpu_model,gpus,gpu_mem_gib,from,to[,relative_speed,tdp_w]\n"
    "  gpu-metrics FILE    job_id,gpu_mem_max_gib[,gpu_util_mean][,cluster], or a\n"
    "                      timestamp,value,container_ip series of GPU memory bytes\n"
    "  events FILE.csv     date,cluster,label\n"
    "  pubs FILE           year,group,title,domain[,authors]; or, with the papers'\n"
    "                      text for `capplan research`: a BibTeX file (.bib) or\n"
    "                      year,title,authors[,venue,keywords,abstract]\n"
    "  peers FILE.csv      institution,gpus,researchers (other institutes, for the report;\n"
    "                      one bad row rejects the file)\n"
    "  allocations FILE    group,year,gpu_hours (for stats fairshare)\n"
    "  carbon FILE         datetime,zone,carbon_intensity (gCO2e/kWh, hourly; or an\n"
    "                      Electricity Maps CSV export)\n"
    "  sites FILE          cluster[,pue,carbon_zone,carbon_intensity] (for stats energy;\n"
    "                      defaults PUE 1.2, 480 gCO2e/kWh). These three land whole or\n"
    "                      not at all: the first bad line is reported, nothing is kept\n"
    "\noptions:\n"
    "  --cluster C         cluster name for records that carry none (default 'default')\n"
    "  --strict            one bad line rejects the whole file; the database is unchanged\n"
    "  --fields LIST|xdmod sacct text without header: its field names, comma-separated\n"
    "  --delimiter D       sacct text delimiter (default '|'; multi-byte allowed)\n"
    "  --tz +HH:MM         zone of times that carry none (default UTC)\n"
    "  --kind K            trace kind\n"
    "  --quiet             no per-file summary\n"
    "\nEach file lands whole or, with errors and without --strict, with its good rows;\n"
    "every rejected line is reported as file:line: field X: reason and the exit status\n"
    "is 1. Re-importing a file adds nothing.\n";

static void print_reject(void *ctx, const char *msg)
{
    int64_t *count = ctx;
    if (++*count <= 1000)
        cli_error("%s", msg);
    else if (*count == 1001)
        cli_error("more rejected lines follow; not shown");
}

/* "+02:00", "-0500", "UTC" -> seconds east. */
static int parse_tz(const char *s, int64_t *out)
{
    if (strcmp(s, "UTC") == 0 || strcmp(s, "Z") == 0) {
        *out = 0;
        return 0;
    }
    int sign = s[0] == '-' ? -1 : s[0] == '+' ? 1 : 0;
    if (!sign || strlen(s) < 3)
        return -1;
    char *end;
    long h = strtol(s + 1, &end, 10), m = 0;
    if (end == s + 1 || h > 14)
        return -1;
    if (*end == ':')
        end++;
    if (*end) {
        char *e2;
        m = strtol(end, &e2, 10);
        if (*e2 || m > 59)
            return -1;
    }
    *out = sign * (h * 3600 + m * 60);
    return 0;
}

static int is_csv_kind(const char *k)
{
    static const char *const kinds[] = {"roster", "inventory", "gpu-metrics", "events", "pubs",
                                        "peers"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(k, kinds[i]) == 0)
            return 1;
    return 0;
}

/* allocations, carbon, sites (data/store_policy): all or nothing. */
static int import_policy(Store *st, const char *kind, const char *path, int quiet)
{
    StorePolicyResult res;
    CpErr err;
    if (store_policy_import(st, kind, path, &res, &err) < 0)
        return cli_error("%s", err.msg);
    if (!quiet) {
        char shown[512];
        cli_sanitize(shown, sizeof shown, strcmp(path, "-") == 0 ? "<stdin>" : path);
        printf("%s: %s, %lld rows read, %lld added, %lld updated, %lld unchanged, 0 rejected\n",
               shown, res.format, (long long)res.rows_read, (long long)res.added,
               (long long)res.updated, (long long)res.unchanged);
    }
    return 0;
}

static int import_one(Store *st, const char *kind, const char *path, const ImportOpts *o,
                      int quiet)
{
    if (store_policy_kind(kind))
        return import_policy(st, kind, path, quiet);
    ImportResult res;
    CpErr err;
    int rc;
    if (strcmp(kind, "sacct") == 0)
        rc = import_sacct(st, path, o, &res, &err);
    else if (strcmp(kind, "trace") == 0)
        rc = import_trace(st, path, o, &res, &err);
    else if (strcmp(kind, "peers") == 0)
        rc = peers_import(st, path, &res, &err);
    else if (strcmp(kind, "pubs") == 0)
        rc = pubs_import(st, path, o, &res, &err);
    else
        rc = import_csv(st, kind, path, o, &res, &err);
    if (rc < 0)
        return cli_error("%s", err.msg);
    if (!quiet) {
        char shown[512];
        cli_sanitize(shown, sizeof shown, strcmp(path, "-") == 0 ? "<stdin>" : path);
        printf("%s: %s, %lld rows read, %lld added, %lld updated, %lld unchanged, "
               "%lld rejected\n",
               shown, res.format, (long long)res.rows_read, (long long)res.added,
               (long long)res.updated, (long long)res.unchanged, (long long)res.rejected);
    }
    return res.rejected > 0 ? 1 : 0;
}

static int exec_import(CliCtx *ctx, int argc, char **argv)
{
    if (cli_wants_help(&cmd_import, argc, argv))
        return 0;
    if (argc < 2)
        return cli_usage(&cmd_import);
    const char *kind = argv[1];
    if (strcmp(kind, "sacct") != 0 && strcmp(kind, "trace") != 0 && !is_csv_kind(kind) &&
        !store_policy_kind(kind)) {
        cli_error("import: unknown kind '%s'", kind);
        return cli_usage(&cmd_import);
    }
    ImportOpts o;
    import_opts_init(&o);
    int64_t rejected_shown = 0;
    o.reject = print_reject;
    o.reject_ctx = &rejected_shown;
    int quiet = 0, nfiles = 0;
    char **files = calloc((size_t)argc, sizeof *files);
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--strict") == 0)
            o.strict = 1;
        else if (strcmp(a, "--quiet") == 0)
            quiet = 1;
        else if (strcmp(a, "--cluster") == 0 && more)
            o.cluster = argv[++i];
        else if (strcmp(a, "--fields") == 0 && more)
            o.fields = argv[++i];
        else if (strcmp(a, "--delimiter") == 0 && more)
            o.delimiter = argv[++i];
        else if (strcmp(a, "--kind") == 0 && more)
            o.trace_kind = argv[++i];
        else if (strcmp(a, "--tz") == 0 && more) {
            if (parse_tz(argv[++i], &o.tz_offset_s) < 0) {
                free(files);
                cli_error("import: --tz: expected +HH:MM, got '%s'", argv[i]);
                return 2;
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            free(files);
            cli_error("import: unknown option '%s'", a);
            return cli_usage(&cmd_import);
        } else
            files[nfiles++] = argv[i];
    }
    if (nfiles == 0 || (strcmp(kind, "trace") == 0 && !o.trace_kind)) {
        free(files);
        return cli_usage(&cmd_import);
    }
    o.progress = isatty(STDERR_FILENO);
    Store *st = cli_store(ctx);
    int status = st ? 0 : 1;
    for (int i = 0; st && i < nfiles; i++)
        if (import_one(st, kind, files[i], &o, quiet) != 0)
            status = 1;
    free(files);
    return status;
}

const CmdEntry cmd_import = {"import", import_usage, import_help, exec_import};
