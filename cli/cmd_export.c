/* capplan export: the report (Markdown with SVG charts) and the CSV tables
 * (reports/report). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "reports/report.h"

typedef struct ExportArgs {
    ReportOpts o;
    const char *report; /* report.md */
    const char *csv;    /* --csv DIR */
} ExportArgs;

static int parse_args(int argc, char **argv, ExportArgs *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        int more = i + 1 < argc;
        if (strcmp(argv[i], "--anonymize") == 0 || strcmp(argv[i], "--anonymise") == 0)
            a->o.anonymize = 1;
        else if (strcmp(argv[i], "--anon-key") == 0 && more)
            a->o.anon_key_file = argv[++i];
        else if (strcmp(argv[i], "--scenario") == 0 && more)
            a->o.scenario = argv[++i];
        else if (strcmp(argv[i], "--peers") == 0 && more)
            a->o.peers_csv = argv[++i];
        else if (strcmp(argv[i], "--csv") == 0 && more)
            a->csv = argv[++i];
        else if (strcmp(argv[i], "--years") == 0 && more) {
            char *end;
            long y = strtol(argv[++i], &end, 10);
            if (*end || y < 1 || y > 10)
                return -1;
            a->o.years = (int)y;
        } else if (argv[i][0] == '-' && argv[i][1])
            return -1;
        else if (!a->report)
            a->report = argv[i];
        else
            return -1;
    }
    return (a->report != NULL) == (a->csv != NULL) ? -1 : 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int exec_export(CliCtx *ctx, int argc, char **argv)
{
    if (cli_wants_help(&cmd_export, argc, argv))
        return 0;
    ExportArgs a;
    if (parse_args(argc, argv, &a) < 0)
        return cli_usage(&cmd_export);
    Store *st = cli_store(ctx);
    if (!st)
        return 1;
    CpErr err;
    double t = now_s();
    Report *r = report_new(st, &a.o, &err);
    if (!r)
        return cli_error("export: %s", err.msg);
    int rc = a.report ? report_write_md(r, a.report, &err) : report_write_csv(r, a.csv, &err);
    report_free(r);
    if (rc < 0)
        return cli_error("export: %s", err.msg);
    char shown[512];
    cli_sanitize(shown, sizeof shown, a.report ? a.report : a.csv);
    fprintf(stderr, "capplan export: %s written in %.2f s\n", shown, now_s() - t);
    return 0;
}

const CmdEntry cmd_export = {
    "export",
    "capplan export report.md | --csv DIR [--scenario S] [--anonymize [--anon-key FILE]] "
    "[--peers FILE.csv] [--years N]",
    "\nThe planning report and the spreadsheet tables, from the same figures as\n"
    "`capplan project --json` and `capplan stats KIND --json`.\n"
    "\n"
    "  report.md         Markdown: 1 summary (demand, capacity and gap per year and GPU\n"
    "                    memory class, the three largest gaps, the scenario's parameters),\n"
    "                    2 research domains, 3 usage (utilisation with events and their\n"
    "                    impact, preemption, waits, requested vs used), 4 compute profiles\n"
    "                    (stated vs measured, notes), 5 projections by group and domain\n"
    "                    (every term, changes against base with reasons, backtest), 6 other\n"
    "                    institutes. Charts as SVG in report_files/ beside it.\n"
    "  --csv DIR         groups, students, profiles, projection, usage_by_month,\n"
    "                    usage_by_group_month, preemption, waits (.csv): RFC 4180, UTF-8,\n"
    "                    CRLF, header row, ISO dates, dot decimals; a text cell starting\n"
    "                    (after spaces) with = + - @ tab CR or LF is prefixed with ' (a\n"
    "                    plain number such as -3.5 stays a number).\n"
    "\noptions:\n"
    "  --scenario S      the scenario's parameters (default: base, as measured)\n"
    "  --anonymize       keyed pseudonyms for user and group names (group-xxxxxx,\n"
    "                    user-xxxxxx) everywhere, and every known name (logins, groups,\n"
    "                    professors, authors) replaced inside free text (scenario names,\n"
    "                    event labels, profile names, reasons); meeting notes' text left\n"
    "                    out. The key is the site's secret, made once and kept in the\n"
    "                    database: the same name gives the same pseudonym in every report,\n"
    "                    and no one without the key can test a name against one\n"
    "  --anon-key FILE   the key from FILE (16 bytes or more) instead of the database's\n"
    "  --peers FILE.csv  institution,gpus,researchers (else the table `capplan import\n"
    "                    peers` fills)\n"
    "  --years N         projection horizon (default 3)\n"
    "\nEvery file is written to a temporary file, then renamed: a reader never sees half\n"
    "a report.\n",
    exec_export};
