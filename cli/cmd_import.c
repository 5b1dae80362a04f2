/* capplan import KIND ...: files into the database, one transaction each. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "data/ingest/catalog.h"
#include "data/ingest/fields.h"
#include "data/ingest/import.h"
#include "data/ingest/peers.h"
#include "data/plan/plan.h"
#include "data/ingest/pubs.h"
#include "data/store/store.h"
#include "data/store/store_plan.h"
#include "data/ingest/policy_csv.h"
#include "data/store/store_policy.h"
#include "data/ingest/textenc.h"
#include "data/ingest/trace.h"
#include "data/ingest/tz.h"

static const char import_usage[] =
    "capplan import sacct|trace|roster|inventory|gpu-metrics|events|pubs|peers|catalog|"
    "allocations|carbon|sites [options] FILE...";

static const char import_help[] =
    "\n"
    "  sacct FILE...|-     sacct -P text (with header, or --fields), any --delimiter,\n"
    "                      Key=Value CSV, or sacct --json; detected from the content\n"
    "  trace --kind K FILE public traces: philly, swf, helios, pai, alibaba-pod (GPU-\n"
    "                      sharing pods or inference instances; its node list lands\n"
    "                      as inventory)\n"
    "  roster FILE.csv     user,group,role,domain,start,end[,supervisor][,planned_end]\n"
    "  inventory FILE.csv  cluster,gpu_model,gpus,gpu_mem_gib,from,to[,relative_speed,tdp_w]\n"
    "  gpu-metrics FILE    job_id,gpu_mem_max_gib[,gpu_util_mean][,cluster], or a\n"
    "                      timestamp,value,container_ip series of GPU memory bytes\n"
    "  events FILE.csv     date,cluster,label\n"
    "  pubs FILE           year,group,title,domain[,authors]; or, with the papers'\n"
    "                      text for `capplan research`: a BibTeX file (.bib) or\n"
    "                      year,title,authors[,venue,keywords,abstract]\n"
    "  peers FILE.csv      institution,gpus,researchers (other institutes, for the report;\n"
    "                      one bad row rejects the file)\n"
    "  catalog FILE.csv    model,mem_gib,relative_speed[,tdp_w][,price][,currency]: GPUs\n"
    "                      one could buy (speed against the inventory's reference GPU;\n"
    "                      price of one GPU, currency EUR unless given)\n"
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
    "  --delimiter D       sacct text delimiter (default: read from the header line,\n"
    "                      '|' without one; multi-byte allowed, never empty)\n"
    "  --tz ZONE           zone of times that carry none: +HH:MM, or an IANA name such\n"
    "                      as Europe/Paris, daylight saving included (default UTC)\n"
    "  --encoding E        the files' text encoding: utf-8 (default; other bytes are\n"
    "                      refused with their line), latin1 or cp1252 (converted;\n"
    "                      every kind, BibTeX papers included)\n"
    "  --kind K            trace kind\n"
    "  --trace-start DATE  alibaba-pod: the date of second 0 (default 2023-01-01)\n"
    "  --as-of DATE        traces: when the file was cut; a run still going (no end)\n"
    "                      counts up to it, censored (default: the file's last time)\n"
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

static int is_csv_kind(const char *k)
{
    static const char *const kinds[] = {"roster", "inventory", "gpu-metrics", "events", "pubs",
                                        "peers", "catalog"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(k, kinds[i]) == 0)
            return 1;
    return 0;
}

/* allocations, carbon, sites (data/store_policy): all or nothing. */
static int import_policy(Store *st, const char *kind, const char *path, int enc, int quiet)
{
    StorePolicyResult res;
    CpErr err;
    if (store_policy_import(st, kind, path, enc, &res, &err) < 0)
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

/* Kinds whose rows enter the planner's cache key (plan_cache.c): the jobs,
 * their names, the roster, the inventory. */
static int is_plan_kind(const char *k)
{
    return strcmp(k, "sacct") == 0 || strcmp(k, "trace") == 0 || strcmp(k, "roster") == 0 ||
           strcmp(k, "inventory") == 0 || strcmp(k, "gpu-metrics") == 0;
}

/* Import one file; *changed is set when it added or updated a row, and
 * *added grows by the rows it added. */
static int import_one(Store *st, const char *kind, const char *path, const ImportOpts *o,
                      int quiet, int *changed, int64_t *added)
{
    if (store_policy_kind(kind))
        return import_policy(st, kind, path, o->encoding, quiet);
    ImportResult res;
    CpErr err;
    int rc;
    if (strcmp(kind, "sacct") == 0)
        rc = import_sacct(st, path, o, &res, &err);
    else if (strcmp(kind, "trace") == 0)
        rc = import_trace(st, path, o, &res, &err);
    else if (strcmp(kind, "peers") == 0)
        rc = peers_import(st, path, o->encoding, &res, &err);
    else if (strcmp(kind, "catalog") == 0)
        rc = catalog_import(st, path, o, &res, &err);
    else if (strcmp(kind, "pubs") == 0)
        rc = pubs_import(st, path, o, &res, &err);
    else
        rc = import_csv(st, kind, path, o, &res, &err);
    if (rc < 0)
        return cli_error("%s", err.msg);
    if (res.added > 0 || res.updated > 0)
        *changed = 1;
    *added += res.added;
    char shown[512];
    cli_sanitize(shown, sizeof shown, strcmp(path, "-") == 0 ? "<stdin>" : path);
    if (!quiet) {
        printf("%s: %s, %lld rows read, %lld added, %lld updated, %lld unchanged, "
               "%lld rejected\n",
               shown, res.format, (long long)res.rows_read, (long long)res.added,
               (long long)res.updated, (long long)res.unchanged, (long long)res.rejected);
        if (res.comments > 0)
            printf("%s: %lld comment lines skipped\n", shown, (long long)res.comments);
        if (res.cpu_nodes > 0)
            printf("%s: %lld CPU-only nodes (no GPU, no model) counted apart: not GPU "
                   "inventory\n", shown, (long long)res.cpu_nodes);
        if (res.censored > 0) {
            char at[32];
            printf("%s: %lld runs still going at the file's end: counted up to %s, censored\n",
                   shown, (long long)res.censored, fields_iso(res.censor_at, at, sizeof at));
        }
        if (res.mem_conflicts > 0)
            printf("%s: %lld jobs: ReqMem disagreed with ReqTRES (or was Slurm's 2^31 per-CPU "
                   "artefact): ReqTRES's memory kept\n",
                   shown, (long long)res.mem_conflicts);
    }
    if (res.orphan_steps > 0)
        cli_note("%s: %lld steps without their job row in reach: not counted", shown,
                 (long long)res.orphan_steps);
    return res.rejected > 0 ? 1 : 0;
}

/* Leave the planner's cache current for the next project, scenario, export
 * or dashboard (once per command; a line on a terminal while it works,
 * erased after). It never fails the import: a database
 * that cannot be written now (locked, read-only) or too little history to
 * plan leaves the cache as it was, and the next build computes it. */
static void refresh_plan(Store *st, int progress)
{
    CpErr err;
    if (progress)
        fprintf(stderr, "\r  updating the planner's cache   ");
    store_release_memory(st);
    (void)plan_cache_refresh(st, 1, &err);
    if (progress)
        fprintf(stderr, "\r%*s\r", 40, "");
}

/* A first load of LAZY_FIRST_LOAD to LAZY_LAST_LOAD jobs into a database
 * without any leaves the planner's cache to the first reader (issue 31
 * item 3): its refresh would build every backtest cut from nothing, as that
 * reader does (0.3 s of CPU at 200k site-shape jobs, a quarter of their
 * import; 0.6 s at 1M), and a first load is often followed by the roster and
 * inventory imports, each of which keys every cut anew. Smaller loads plan
 * at once (cheap); larger ones too: their build would make the first
 * `project` take seconds (3.6 s of CPU at 10M), a small share of their
 * import's minute. */
#define LAZY_FIRST_LOAD 100000
#define LAZY_LAST_LOAD 1500000

/* The refresh an import command owes the planner. None when nothing the
 * plan reads changed. Once someone planned (the caches hold an entry) every
 * import keeps them current, reusing the cuts before its jobs (the nightly
 * import). Before that, a first load plans at once unless its size is in
 * the lazy range above; imports after a lazy first load leave the whole
 * build to the first reader (`project`, the dashboard, `export`). */
static int wants_refresh(const char *kind, int changed, int had_jobs, int planned,
                         int64_t added)
{
    if (!changed || !is_plan_kind(kind))
        return 0;
    if (planned)
        return 1;
    return !had_jobs && (added < LAZY_FIRST_LOAD || added > LAZY_LAST_LOAD);
}

/* What the command line says, beside the ImportOpts. */
typedef struct ImportArgs {
    ImportOpts o;
    CpTz tz;
    char **files;
    int nfiles, quiet;
} ImportArgs;

/* An option that takes a value: 0 when used, 2 (bad usage, said) when its
 * value is bad, -1 when a is no such option. */
static int value_option(ImportArgs *ia, const char *a, const char *v)
{
    CpErr err;
    if (strcmp(a, "--cluster") == 0)
        ia->o.cluster = v;
    else if (strcmp(a, "--fields") == 0)
        ia->o.fields = v;
    else if (strcmp(a, "--kind") == 0)
        ia->o.trace_kind = v;
    else if (strcmp(a, "--trace-start") == 0) {
        int64_t t;
        if (fields_time(v, strlen(v), NULL, &t, &err) < 0 || t == CP_TIME_NONE || t <= 0)
            return cli_error("import: --trace-start: expected a date such as 2025-01-01, got "
                             "'%s'", v), 2;
        ia->o.trace_start = t;
    } else if (strcmp(a, "--as-of") == 0) {
        int64_t t;
        if (fields_time(v, strlen(v), NULL, &t, &err) < 0 || t == CP_TIME_NONE || t <= 0)
            return cli_error("import: --as-of: expected a date such as 2025-01-01, got '%s'", v),
                   2;
        ia->o.as_of = t;
    }
    else if (strcmp(a, "--delimiter") == 0) {
        if (!v[0])
            return cli_error("import: --delimiter: the delimiter cannot be empty"), 2;
        ia->o.delimiter = v;
    } else if (strcmp(a, "--encoding") == 0) {
        TextEnc enc;
        if (textenc_parse(v, &enc, &err) < 0)
            return cli_error("import: --encoding: %s", err.msg), 2;
        ia->o.encoding = (int)enc;
    } else if (strcmp(a, "--tz") == 0) {
        tz_done(&ia->tz);
        if (tz_parse(v, &ia->tz, &err) < 0)
            return cli_error("import: --tz: %s", err.msg), 2;
        ia->o.tz = &ia->tz;
    } else
        return -1;
    return 0;
}

/* Fill ia from argv[2..]; 0, or the exit status of a usage error. */
static int parse_args(ImportArgs *ia, int argc, char **argv)
{
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--strict") == 0) {
            ia->o.strict = 1;
            continue;
        }
        if (strcmp(a, "--quiet") == 0) {
            ia->quiet = 1;
            continue;
        }
        if (i + 1 < argc) {
            int rc = value_option(ia, a, argv[i + 1]);
            if (rc >= 0) {
                i++;
                if (rc > 0)
                    return rc;
                continue;
            }
        }
        if (a[0] == '-' && a[1] != '\0') {
            cli_error("import: unknown option '%s'", a);
            return cli_usage(&cmd_import);
        }
        ia->files[ia->nfiles++] = argv[i];
    }
    return 0;
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
    ImportArgs ia;
    memset(&ia, 0, sizeof ia);
    import_opts_init(&ia.o);
    ia.tz = tz_fixed(0);
    int64_t rejected_shown = 0;
    ia.o.reject = print_reject;
    ia.o.reject_ctx = &rejected_shown;
    ia.files = calloc((size_t)argc, sizeof *ia.files);
    int status = parse_args(&ia, argc, argv);
    if (status == 0 && ia.nfiles > 0 && strcmp(kind, "trace") == 0 && !ia.o.trace_kind) {
        const char *k = trace_guess_file(ia.files[0]); /* a hint, not a choice (#29) */
        char shown[512];
        cli_sanitize(shown, sizeof shown, ia.files[0]);
        if (k)
            cli_error("import trace: --kind is required; %s looks like a trace of kind %s: capplan "
                      "import trace --kind %s FILE", shown, k, k);
        else
            cli_error("import trace: --kind is required: philly, swf, helios, pai or "
                      "alibaba-pod");
        status = 2;
    }
    if (status == 0 && ia.nfiles == 0)
        status = cli_usage(&cmd_import);
    if (status == 0) {
        ia.o.progress = cli_progress();
        Store *st = cli_store(ctx);
        status = st ? 0 : 1;
        int changed = 0, had_jobs = 1, planned = 1;
        int64_t added = 0;
        CpErr err;
        if (st && (store_plan_has_jobs(st, &had_jobs, &err) < 0 ||
                   store_plan_cached(st, &planned, &err) < 0))
            planned = 1; /* cannot tell: refresh as always */
        for (int i = 0; st && i < ia.nfiles; i++)
            if (import_one(st, kind, ia.files[i], &ia.o, ia.quiet, &changed, &added) != 0)
                status = 1;
        if (st && wants_refresh(kind, changed, had_jobs, planned, added))
            refresh_plan(st, ia.o.progress);
    }
    free(ia.files);
    tz_done(&ia.tz);
    return status;
}

const CmdEntry cmd_import = {"import", import_usage, import_help, exec_import};
