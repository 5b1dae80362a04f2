#ifndef REPORT_H
#define REPORT_H
/* report: `capplan export`: the Markdown report for the directors (with
 * its charts as SVG files in a folder beside it), the same report as one
 * self-contained HTML file (charts inline), and the tables for the budget
 * office as CSV files and as an Excel workbook.
 *
 * Every figure comes from the functions the command line and the dashboard
 * use: the planning model of data/plan (profiles, projection, scenario,
 * backtest) and the usage analytics of core/stats over data/store_stats,
 * so that the report, `capplan project --json`, `capplan stats --json` and
 * the dashboard never disagree. This module gathers them once
 * (report_new), then only formats: it computes no figure of its own beyond
 * sorting, picking rows and dividing two printed figures (GPUs per
 * researcher, stated over measured).
 *
 * Files are written atomically (a temporary file renamed over the target).
 * With anonymize, user and group names are replaced by keyed pseudonyms
 * (reports/anon) in every table, chart and CSV, every known name inside
 * free text (scenario names, event labels, profile names, reasons) is
 * replaced too, and the meeting notes' text is left out. */

#include <stdint.h>
#include <stdio.h>

#include "core/cp.h"

typedef struct Store Store;
typedef struct Report Report;

typedef struct ReportOpts {
    const char *scenario;  /* NULL or "base": the measured parameters */
    int anonymize;
    const char *peers_csv; /* NULL: the peers table (capplan import peers) */
    int years;             /* projection horizon; 0: the plan's default */
    const char *anon_key_file; /* with anonymize: NULL the database's site key (made once) */
    const char *version;   /* capplan's version, for the provenance; NULL: unknown */
    const char *db_path;   /* the database, for the provenance; NULL: not shown */
    int64_t now;           /* when the report is written (epoch s); 0: now */
    int bom;               /* CSV files start with a UTF-8 byte order mark */
    int tables_only;       /* only the CSV tables and the workbook will be written: the
                              figures only the report shows (the stats runs no table
                              reads, the policy replay, the research clusters) are not
                              gathered */
} ReportOpts;

/* The sections, in the report's order; REPORT_FIRST is the first page
 * before them (a heading without a number). */
enum {
    REPORT_FIRST = 0,
    REPORT_SUMMARY = 1,
    REPORT_DOMAINS,
    REPORT_USAGE,
    REPORT_PROFILES,
    REPORT_PROJECTIONS,
    REPORT_PEERS,
    REPORT_ENERGY,
    REPORT_POLICY,
    REPORT_RESEARCH,
    REPORT_SOURCES,
    REPORT_NSECTIONS = REPORT_SOURCES
};

/* The title of section s (REPORT_*, REPORT_FIRST too), NULL when there is
 * none. Static. */
const char *report_section_title(int s);

/* Gather everything the report and the CSV show. The strings of o are
 * borrowed for the report's life. Caller frees with report_free. NULL with
 * err on a database error, an unknown scenario or a bad peers file. */
Report *report_new(Store *st, const ReportOpts *o, CpErr *err);
void report_free(Report *r);

/* Write the report to path (e.g. "report.md") and its charts into the
 * folder beside it (path less ".md", plus "_files/"), each file
 * atomically. The Markdown opens with a YAML title block (title,
 * subtitle, date, and the print style sheet for pandoc's HTML and PDF);
 * its tables fit A4 portrait (reports/mdfit). 0, or -1 with err. */
int report_write_md(const Report *r, const char *path, CpErr *err);

/* The same report as one HTML file at path (reports/mdhtml), its charts
 * inline as SVG: nothing else to send. Atomic; the charts pass through a
 * temporary folder beside path, removed after. 0, or -1 with err. */
int report_write_html(const Report *r, const char *path, CpErr *err);

/* One section (REPORT_*; REPORT_FIRST: the first page) as Markdown on out. Charts are written into
 * files_dir when it is not NULL, and linked as files_rel/NAME.svg. For the
 * tests and for report_write_md. 0, or -1 with err (a chart not written). */
int report_section(const Report *r, int section, FILE *out, const char *files_dir,
                   const char *files_rel, CpErr *err);

/* Write the CSV tables (report_csv_files) into dir (created when absent),
 * each atomically, with a byte order mark when o.bom. 0, or -1 with err. */
int report_write_csv(const Report *r, const char *dir, CpErr *err);

/* The workbook at path (atomically): a sheet per CSV table with the same
 * columns, numbers as numbers with formats, frozen header rows, totals as
 * SUM formulas under the columns a budget office adds up, and a first
 * sheet saying what the workbook holds and where it comes from. 0, or -1
 * with err. */
int report_write_xlsx(const Report *r, const char *path, CpErr *err);

/* The CSV files report_write_csv writes, NULL-terminated. Static. */
const char *const *report_csv_files(void);

#endif
