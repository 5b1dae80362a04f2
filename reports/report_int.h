#ifndef REPORT_INT_H
#define REPORT_INT_H
/* report_int: what the report's files share (not for other modules): the
 * gathered data, and helpers to print stats tables, names and charts. */

#include <stdio.h>

#include "core/stats.h"
#include "data/ingest/peers.h"
#include "data/store/store_catalog.h"
#include "data/plan/plan.h"
#include "data/plan/simulate_next.h"
#include "data/store/store_sources.h"
#include "data/store/store_plan.h"
#include "data/store/store_tui.h"
#include "reports/report.h"
#include "reports/svg.h"

/* The stats runs the report shows. */
enum {
    RS_UTIL_YEAR,   /* utilization --by year: per cluster, groups, events */
    RS_UTIL_MONTH,  /* utilization --by month: the chart, the CSV */
    RS_UTIL_ALL,    /* utilization --by all: share per group */
    RS_PREEMPT_ALL, /* preemption --by all */
    RS_PREEMPT_YEAR,
    RS_WAITS_YEAR,
    RS_EFF_ALL,     /* efficiency --by all */
    RS_DOMAINS_YEAR,
    RS_PUBS_YEAR,
    RS_COUNT
};

/* What the first page says of the rolling backtest over every cut (the
 * one behind the p10-p90 ranges). */
typedef struct RBtSummary {
    int ncuts;                /* cuts scored on the institute total; 0: none */
    double q80;               /* 80th percentile of log(actual / forecast), NAN below
                                 PROJ_MIN_CUTS */
    double mae, bias;         /* mean |error| and mean error of the total forecast */
} RBtSummary;

struct Report {
    ReportOpts o;
    const char *scenario;     /* "base" or o.scenario */
    Plan *plan;
    ProjParams *params, *base_params;
    ProjResult *res, *base_res;
    StorePlanParam *edits;
    size_t nedits;
    int skipped;
    const PlanBacktest *bt;   /* section 5's cut: the plan's rolling backtest when its
                                 last cut is that one, else &own_bt; NULL: none (bt_why) */
    PlanBacktest own_bt;      /* that cut run alone, when needed */
    RBtSummary bts;           /* the rolling backtest over every cut (the first page) */
    char bt_why[CP_ERR_MAX];  /* why there is no backtest */
    void *stats_data;         /* StoreStatsData of the runs that read no attempt */
    unsigned stats_needs;     /* what stats_data holds (STATS_NEED_* bits) */
    void *jobs_data;          /* ... of those that read them (efficiency), NULL none */
    unsigned jobs_needs;      /* what jobs_data holds */
    StatsReport stats[RS_COUNT];
    StoreTuiSnapshot tui;     /* notes and stated needs, as the dashboard reads them */
    Peer *peers;
    size_t npeers;
    void *policy;             /* reports/report_policy.c's figures (RPolicy) */
    struct AnonScrub *scrub;  /* with anonymize: every name, active while r lives */
    StoreSource *sources;     /* every import, for the provenance */
    size_t nsources;
    CatalogGpu *catalog;      /* GPUs one could buy (capplan import catalog) */
    size_t ncatalog;
    struct SimNext *sim;      /* next year simulated (data/plan/simulate_next), NULL: sim_why */
    char sim_why[CP_ERR_MAX];
    int64_t now;              /* when the report is written */
    void *research;           /* reports/report_research.c's figures (Research) */
};

/* Column filter of a stats table: rows whose TEXT column col equals value
 * (eq 1) or differs from it (eq 0). */
typedef struct RFilter {
    const char *col, *value;
    int eq;
} RFilter;

/* Print the columns cols of t as a Markdown table (titles with units,
 * numbers with the column's decimals and unit), rows passing every
 * filter; "group" and "user" columns go through rpt_name. Prints
 * "(no data)" as a line when no row passes. */
void rpt_stats_md(const Report *r, FILE *out, const StatsTable *t, const char *const *cols,
                  size_t ncols, const RFilter *f, size_t nf);
/* 1 when row passes the filters. */
int rpt_row_passes(const StatsTable *t, size_t row, const RFilter *f, size_t nf);

/* A group or user name as the report shows it (pseudonym with
 * anonymize). kind "group" or "user". Borrowed until the next call with
 * the same buf. */
const char *rpt_name(const Report *r, const char *kind, const char *name, char *buf, size_t n);

/* A stats table of a run, NULL when absent. */
const StatsTable *rpt_table(const Report *r, int run, const char *key);

/* Write chart c into dir/name.svg (atomically) when dir is not NULL and
 * link it as ![alt](rel/name.svg) on out. */
int rpt_chart(FILE *out, const char *dir, const char *rel, const char *name, const char *alt,
              const SvgChart *c, CpErr *err);

/* The colour of a research domain in every chart: the projection's
 * domains in their order, then the usage's others as the domains table
 * first lists them (svg_colour). Static. */
const char *rpt_domain_colour(const Report *r, const char *domain);

/* A pivot of a stats table for a chart: x labels and series names in the
 * order they first appear, v[s * nx + i] the value (NaN when absent).
 * Owned: rpt_pivot_free. Names of series in column "group"/"user" go
 * through rpt_name. */
typedef struct RPivot {
    char **x, **s;
    size_t nx, ns;
    double *v;
} RPivot;

void rpt_pivot(const Report *r, const StatsTable *t, const char *xcol, const char *scol,
               const char *vcol, const RFilter *f, size_t nf, RPivot *out);
void rpt_pivot_free(RPivot *p);

/* "YYYY-MM-DD" of t. */
void rpt_date(int64_t t, char *buf, size_t n);

/* Projected year y (1-based) with its span: in a table, "y1 (2026-11-25 to
 * 2027-11-24)" (RPT_YEAR_CELL); in a sentence, "y1 (2026-2027)"
 * (RPT_YEAR_SHORT); on a chart's axis, "y1 2026-27" (RPT_YEAR_AXIS). */
enum { RPT_YEAR_CELL, RPT_YEAR_SHORT, RPT_YEAR_AXIS };
void rpt_proj_year(const Report *r, int y, int form, char *buf, size_t n);

/* A calendar year as a table shows it: "2021", or "2021 (partial: from 25
 * Nov)" when the accounting window covers only part of it. */
void rpt_year(const Report *r, int64_t year, char *buf, size_t n);

/* Sections. */
int rpt_summary(const Report *r, FILE *out, const char *dir, const char *rel, CpErr *err);
int rpt_domains(const Report *r, FILE *out, const char *dir, const char *rel, CpErr *err);
int rpt_usage(const Report *r, FILE *out, const char *dir, const char *rel, CpErr *err);
int rpt_profiles(const Report *r, FILE *out, CpErr *err);
int rpt_projections(const Report *r, FILE *out, const char *dir, const char *rel, CpErr *err);
int rpt_peers(const Report *r, FILE *out, const char *dir, const char *rel, CpErr *err);
/* Energy and carbon, and the allocation policy (reports/report_policy.c):
 * gather into r->policy (0, or -1 with err), free it, and print the
 * bodies of the two sections. */
int rpt_policy_gather(Report *r, Store *st, CpErr *err);
void rpt_policy_free(Report *r);
int rpt_energy(const Report *r, FILE *out, CpErr *err);
int rpt_allocation(const Report *r, FILE *out, CpErr *err);
/* 1 when a CSV table (and so the workbook) reads stats run run (RS_*). */
int rpt_csv_reads_run(int run);

/* The CSV table i (0, 1, ... in report_csv_files' order) as text into a
 * new buffer (*text, *len; caller frees); *totals (when not NULL) the
 * columns a workbook totals, NULL-terminated (static). Returns the file's
 * name, or NULL past the last table (nothing allocated). */
const char *rpt_csv_table(const Report *r, size_t i, char **text, size_t *len,
                          const char *const **totals);

/* The first page (reports/report_decide.c): today's use and capacity, the
 * need per year with its range, the gap per memory class, the purchase
 * that covers the p80 need, and how sure it is. Its heading is
 * RPT_FIRST_TITLE. */
#define RPT_FIRST_TITLE "The decision on one page"
int rpt_first_page(const Report *r, FILE *out, const char *dir, const char *rel, CpErr *err);
/* One paragraph: next year's p90 wait with buying nothing and with the
 * recommendation, the target and the verdict, as the first page has them
 * (section 1 repeats it: one answer). */
void rpt_sim_line(const Report *r, FILE *out);

/* Where the figures come from (reports/report_sources.c). */
int rpt_sources(const Report *r, FILE *out, CpErr *err);

/* Who does what research (reports/report_research.c, issue 18): gather
 * the figures, free them, and write the section numbered section. */
int rpt_research_gather(Report *r, Store *st, CpErr *err);
void rpt_research_free(Report *r);
int rpt_research(const Report *r, FILE *out, CpErr *err);

#endif
