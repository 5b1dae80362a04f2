#ifndef REPORT_H
#define REPORT_H
/* report: `capplan export`: the Markdown report for the directors (with
 * its charts as SVG files in a folder beside it) and the CSV tables for the
 * budget spreadsheet.
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
} ReportOpts;

/* The sections, in the report's order. */
enum {
    REPORT_SUMMARY = 1,
    REPORT_DOMAINS,
    REPORT_USAGE,
    REPORT_PROFILES,
    REPORT_PROJECTIONS,
    REPORT_PEERS,
    REPORT_NSECTIONS = REPORT_PEERS
};

/* Gather everything the report and the CSV show. The strings of o are
 * borrowed for the report's life. Caller frees with report_free. NULL with
 * err on a database error, an unknown scenario or a bad peers file. */
Report *report_new(Store *st, const ReportOpts *o, CpErr *err);
void report_free(Report *r);

/* Write the report to path (e.g. "report.md") and its charts into the
 * folder beside it (path less ".md", plus "_files/"), each file
 * atomically. 0, or -1 with err. */
int report_write_md(const Report *r, const char *path, CpErr *err);

/* One section (REPORT_*) as Markdown on out. Charts are written into
 * files_dir when it is not NULL, and linked as files_rel/NAME.svg. For the
 * tests and for report_write_md. 0, or -1 with err (a chart not written). */
int report_section(const Report *r, int section, FILE *out, const char *files_dir,
                   const char *files_rel, CpErr *err);

/* Write the CSV tables into dir (created when absent), each atomically:
 * groups.csv, students.csv, profiles.csv, projection.csv,
 * usage_by_month.csv, usage_by_group_month.csv, preemption.csv, waits.csv.
 * 0, or -1 with err. */
int report_write_csv(const Report *r, const char *dir, CpErr *err);

/* The CSV files report_write_csv writes, NULL-terminated. Static. */
const char *const *report_csv_files(void);

#endif
