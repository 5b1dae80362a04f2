/* capplan export: the report (Markdown with SVG charts, or one HTML
 * file), the workbook and the CSV tables (reports/report), any of them
 * from one gathering of the figures. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "reports/report.h"

#define MAX_OUT 8

typedef struct ExportArgs {
    ReportOpts o;
    const char *out[MAX_OUT]; /* report.md, report.html, budget.xlsx */
    int nout;
    const char *csv;          /* --csv DIR */
} ExportArgs;

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcmp(s + n - k, suffix) == 0;
}

/* What a path asks for: "md", "html", "xlsx", or NULL. */
static const char *kind_of(const char *path)
{
    return ends_with(path, ".md")                                   ? "md"
           : ends_with(path, ".html") || ends_with(path, ".htm")    ? "html"
           : ends_with(path, ".xlsx")                               ? "xlsx"
                                                                    : NULL;
}

/* The options into a; -1 on bad usage, after a line that names it (cli_error
 * returns 1: -cli_error(...) is -1 once said). */
static int parse_args(int argc, char **argv, ExportArgs *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        int more = i + 1 < argc;
        if (strcmp(argv[i], "--anonymize") == 0 || strcmp(argv[i], "--anonymise") == 0)
            a->o.anonymize = 1;
        else if (strcmp(argv[i], "--anon-key") == 0 && more)
            a->o.anon_key_file = argv[++i];
        else if (strcmp(argv[i], "--bom") == 0)
            a->o.bom = 1;
        else if (strcmp(argv[i], "--scenario") == 0 && more)
            a->o.scenario = argv[++i];
        else if (strcmp(argv[i], "--peers") == 0 && more)
            a->o.peers_csv = argv[++i];
        else if (strcmp(argv[i], "--csv") == 0 && more && !a->csv)
            a->csv = argv[++i];
        else if (strcmp(argv[i], "--years") == 0 && more) {
            char *end;
            long y = strtol(argv[++i], &end, 10);
            if (*end || y < 1 || y > 10)
                return -cli_error("export: --years: expected 1..10, got '%s'", argv[i]);
            a->o.years = (int)y;
        } else if (strcmp(argv[i], "--csv") == 0 && a->csv)
            return -cli_error("export: one --csv DIR, got '%s' and another", a->csv);
        else if (argv[i][0] == '-' && argv[i][1] && !more &&
                 (strcmp(argv[i], "--csv") == 0 || strcmp(argv[i], "--anon-key") == 0 ||
                  strcmp(argv[i], "--scenario") == 0 || strcmp(argv[i], "--peers") == 0 ||
                  strcmp(argv[i], "--years") == 0))
            return -cli_error("export: %s needs a value", argv[i]);
        else if (argv[i][0] == '-' && argv[i][1])
            return -cli_error("export: unknown option '%s'", argv[i]);
        else if (!kind_of(argv[i]))
            return -cli_error("export: '%s': expected a file ending .md, .html or .xlsx "
                             "(or --csv DIR)",
                             argv[i]);
        else if (a->nout == MAX_OUT)
            return -cli_error("export: at most %d files at once", MAX_OUT);
        else
            a->out[a->nout++] = argv[i];
    }
    if (a->nout == 0 && !a->csv)
        return -cli_error("export: nothing to write: give report.md, report.html, budget.xlsx "
                         "or --csv DIR");
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int write_one(const Report *r, const char *path, CpErr *err)
{
    const char *k = kind_of(path);
    return strcmp(k, "md") == 0     ? report_write_md(r, path, err)
           : strcmp(k, "html") == 0 ? report_write_html(r, path, err)
                                    : report_write_xlsx(r, path, err);
}

static void done(const char *path, double t)
{
    char shown[512];
    cli_sanitize(shown, sizeof shown, path);
    cli_note("export: %s written in %.2f s", shown, now_s() - t);
}

static int exec_export(CliCtx *ctx, int argc, char **argv)
{
    if (cli_wants_help(&cmd_export, argc, argv))
        return 0;
    ExportArgs a;
    if (parse_args(argc, argv, &a) < 0)
        return cli_usage(&cmd_export);
    a.o.version = CAPPLAN_VERSION;
    a.o.db_path = ctx->db_path;
    a.o.tables_only = 1; /* unless a report is asked for */
    for (int i = 0; i < a.nout; i++)
        if (!kind_of(a.out[i]) || strcmp(kind_of(a.out[i]), "xlsx") != 0)
            a.o.tables_only = 0;
    Store *st = cli_store(ctx);
    if (!st)
        return 1;
    CpErr err;
    double t = now_s();
    Report *r = report_new(st, &a.o, &err);
    if (!r)
        return cli_error("export: %s", err.msg);
    int rc = 0;
    for (int i = 0; i < a.nout && rc == 0; i++)
        if ((rc = write_one(r, a.out[i], &err)) == 0)
            done(a.out[i], t);
    if (rc == 0 && a.csv && (rc = report_write_csv(r, a.csv, &err)) == 0)
        done(a.csv, t);
    report_free(r);
    if (rc < 0)
        return cli_error("export: %s", err.msg);
    return 0;
}

const CmdEntry cmd_export = {
    "export",
    "capplan export [report.md] [report.html] [budget.xlsx] [--csv DIR] [--bom] [--scenario S] "
    "[--anonymize [--anon-key FILE]] [--peers FILE.csv] [--years N]",
    "\nThe planning report, the workbook and the spreadsheet tables, from the same\n"
    "figures as `capplan project --json` and `capplan stats KIND --json`. Name any\n"
    "of them: they are written from one reading of the database.\n"
    "\n"
    "  report.md         Markdown with a title block pandoc reads, tables that fit A4\n"
    "                    portrait (units in the column titles, wide tables split);\n"
    "                    charts as SVG in report_files/ beside it. Sections:\n"
    "                       The decision on one page: use, need, what each option\n"
    "                       does to waiting (capplan simulate), what to buy\n"
    "                     1 Summary: demand, capacity and gap per year and GPU memory\n"
    "                       class, the largest gaps, the scenario's parameters\n"
    "                     2 Research domains: GPU-hours, researchers, publications\n"
    "                     3 Usage: utilisation with events and their impact,\n"
    "                       preemption, waits, requested against used\n"
    "                     4 Compute profiles: stated against measured, meeting notes\n"
    "                     5 Projections by group and by domain: every term, changes\n"
    "                       against base with reasons, backtest\n"
    "                     6 Other institutes: GPUs per researcher\n"
    "                     7 Energy and carbon\n"
    "                     8 Allocation policy: the jobs replayed under the allocations\n"
    "                     9 Who does what research: research clusters beside the\n"
    "                       compute profiles, whom to ask why\n"
    "                    10 Data sources and method: when, capplan version, database,\n"
    "                       every import with its date and rows, the accounting window,\n"
    "                       clusters, reference GPU, the scenario and its edits, the GPU\n"
    "                       catalog\n"
    "                    To print: pandoc report.md -o report.pdf --pdf-engine=weasyprint\n"
    "  report.html       the same report as one file, charts inline (for mail; prints\n"
    "                    on A4 from a browser or weasyprint report.html report.pdf)\n"
    "  budget.xlsx       a sheet per CSV table (numbers as numbers, units in the\n"
    "                    headers, frozen header row, SUM totals) and an about sheet\n"
    "  --csv DIR         groups, students, profiles, projection, usage_by_group,\n"
    "                    usage_by_month, usage_by_group_month, preemption, waits, catalog,\n"
    "                    purchase (.csv),\n"
    "                    and their aggregate \"all\" rows in *_all.csv: RFC 4180, UTF-8,\n"
    "                    CRLF, header row with units in the names (_h, _pct, _gib,\n"
    "                    gpu_hours), one type per column (ranges as _min and _max), ISO\n"
    "                    dates, dot decimals; a text cell starting with = + - @ tab or CR\n"
    "                    is prefixed with ' (a plain number such as -3.5 stays a number).\n"
    "\noptions:\n"
    "  --bom             CSV files start with a UTF-8 byte order mark, for Excel on\n"
    "                    Windows (which otherwise reads them as ANSI: mÃ¼ller)\n"
    "  --scenario S      the scenario's parameters (default: base, as measured)\n"
    "  --anonymize       keyed pseudonyms for user and group names (group-xxxxxx,\n"
    "                    user-xxxxxx) everywhere, and every known name (logins, groups,\n"
    "                    professors, authors) replaced inside free text (scenario names,\n"
    "                    event labels, profile names, reasons); meeting notes' text left\n"
    "                    out. The key is the site's secret, made once and kept in the\n"
    "                    database: the same name gives the same pseudonym in every report,\n"
    "                    and no one without the key can test a name against one\n"
    "                    (edit reasons, imported file names and the database's path\n"
    "                    are left out too)\n"
    "  --anon-key FILE   the key from FILE (16 bytes or more) instead of the database's\n"
    "  --peers FILE.csv  institution,gpus,researchers (else the table `capplan import\n"
    "                    peers` fills)\n"
    "  --years N         projection horizon (default 3)\n"
    "\nEvery file is written to a temporary file, then renamed: a reader never sees half\n"
    "a report.\n",
    exec_export};
