/* report_usage: sections 2 (research domains) and 3 (usage), from the
 * tables of core/stats as `capplan stats` prints them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/mdw.h"
#include "reports/report_int.h"

#define COLS(a) a, sizeof a / sizeof a[0]

static int chart_pivot(FILE *out, const char *dir, const char *rel, const char *name,
                       const char *alt, SvgKind kind, const char *unit, const RPivot *p,
                       const SvgMark *marks, size_t nmarks, const char *const *colors,
                       CpErr *err)
{
    SvgChart c = {.kind = kind, .title = alt, .unit = unit, .x = (const char *const *)p->x,
                  .nx = p->nx, .series = (const char *const *)p->s, .ns = p->ns, .v = p->v,
                  .marks = marks, .nmarks = nmarks, .colors = colors};
    return rpt_chart(out, dir, rel, name, alt, &c, err);
}

/* Year labels of a chart: "2021 (partial)" for a year the accounting
 * covers only in part, as the tables say it. */
static void mark_partial(const Report *r, RPivot *p)
{
    for (size_t i = 0; i < p->nx; i++) {
        char full[64];
        if (strlen(p->x[i]) != 4 || strspn(p->x[i], "0123456789") != 4)
            continue;
        rpt_year(r, atoi(p->x[i]), full, sizeof full);
        if (strchr(full, '(')) {
            free(p->x[i]);
            p->x[i] = xmalloc(16);
            snprintf(p->x[i], 16, "%.4s (partial)", full);
        }
    }
}

int rpt_domains(const Report *r, FILE *out, const char *dir, const char *rel, CpErr *err)
{
    const StatsTable *dom = rpt_table(r, RS_DOMAINS_YEAR, "domains");
    const StatsTable *pubs = rpt_table(r, RS_PUBS_YEAR, "domains");
    RPivot p;
    rpt_pivot(r, dom, "period", "domain", "share_pct", NULL, 0, &p);
    mark_partial(r, &p);
    fprintf(out, "Share of the GPU-hours used per research domain, year by year (a "
                 "domain is the roster's, else its group's):\n\n");
    const char **colors = xcalloc(p.ns + 1, sizeof *colors);
    for (size_t i = 0; i < p.ns; i++)
        colors[i] = rpt_domain_colour(r, p.s[i]);
    int rc = chart_pivot(out, dir, rel, "domains", "Share of GPU-hours per domain by year",
                         SVG_STACKED, "% of GPU-hours", &p, NULL, 0, colors, err);
    free(colors);
    rpt_pivot_free(&p);
    if (rc < 0)
        return -1;
    static const char *const dcols[] = {"period",      "domain",       "gpu_hours",
                                        "share_pct",   "researchers",  "active_users",
                                        "gpu_hours_per_researcher"};
    fprintf(out, "### GPU-hours and researchers per domain\n\n");
    rpt_stats_md(r, out, dom, COLS(dcols), NULL, 0);
    static const char *const pcols[] = {"year", "domain", "pubs", "gpu_hours",
                                        "gpu_hours_per_pub"};
    fprintf(out, "### Publications and GPU-hours per publication\n\n");
    rpt_stats_md(r, out, pubs, COLS(pcols), NULL, 0);
    return 0;
}

/* Events as chart markers: the month of each event's date on the x axis
 * of monthly periods ("YYYY-MM"). */
static size_t event_marks(const StatsTable *ev, const RPivot *p, SvgMark *m, size_t max)
{
    size_t n = 0;
    for (size_t row = 0; ev && row < ev->nrows && n < max; row++) {
        const StatsCell *d = stats_table_cell(ev, row, "date");
        const StatsCell *l = stats_table_cell(ev, row, "label");
        if (!d || !d->text || strlen(d->text) < 7)
            continue;
        for (size_t i = 0; i < p->nx; i++)
            if (strncmp(p->x[i], d->text, 7) == 0) {
                double day = atof(d->text + 8);
                m[n].x = (double)i - 0.5 + (day - 1) / 31.0;
                m[n].num = (int)row + 1;
                m[n++].label = l && l->text ? l->text : "";
                break;
            }
    }
    return n;
}

static int usage_chart(const Report *r, FILE *out, const char *dir, const char *rel, CpErr *err)
{
    RPivot p;
    SvgMark marks[16];
    rpt_pivot(r, rpt_table(r, RS_UTIL_MONTH, "utilization"), "period", "cluster", "util_pct",
              NULL, 0, &p);
    size_t nm = event_marks(rpt_table(r, RS_UTIL_YEAR, "events"), &p, marks, 16);
    int rc = chart_pivot(out, dir, rel, "utilization", "GPU utilisation per cluster by month",
                         SVG_LINES, "% of GPU-hours available", &p, marks, nm, NULL, err);
    rpt_pivot_free(&p);
    return rc;
}

static void usage_tables(const Report *r, FILE *out)
{
    static const char *const ucols[] = {"period",    "cluster", "gpus",  "capacity_gpu_hours",
                                        "gpu_hours", "util_pct", "jobs", "wait_mean_h"};
    fprintf(out, "### Utilisation and usage per cluster, by year\n\n");
    rpt_stats_md(r, out, rpt_table(r, RS_UTIL_YEAR, "utilization"), COLS(ucols), NULL, 0);
    static const char *const ecols[] = {"date",           "cluster",         "label",
                                        "util_before_pct", "util_after_pct", "util_change_pts",
                                        "wait_before_h",  "wait_after_h",    "gpu_hours_before",
                                        "gpu_hours_after"};
    fprintf(out, "### Events and their measured impact\n\n"
                 "Utilisation and mean wait in the three whole months before and after each "
                 "event (numbered in this table's order on the chart).\n\n");
    rpt_stats_md(r, out, rpt_table(r, RS_UTIL_YEAR, "events"), COLS(ecols), NULL, 0);
    static const char *const gcols[] = {"group", "gpu_hours", "share_pct", "capacity_pct",
                                        "jobs"};
    fprintf(out, "### Usage by group (whole period)\n\n");
    rpt_stats_md(r, out, rpt_table(r, RS_UTIL_ALL, "groups"), COLS(gcols), NULL, 0);
}

static void preemption_tables(const Report *r, FILE *out)
{
    const StatsTable *t = rpt_table(r, RS_PREEMPT_ALL, "preemption");
    static const char *const gcols[] = {"group",          "jobs",         "preempted_jobs",
                                        "preempted_jobs_pct", "completed_pct", "gpu_hours_lost",
                                        "lost_pct"};
    const RFilter per_group[] = {{"partition", "all", 1}};
    fprintf(out, "### Preemption per group (whole period)\n\n");
    rpt_stats_md(r, out, t, COLS(gcols), per_group, 1);
    static const char *const pcols[] = {"partition",     "jobs",
                                        "preempted_jobs", "completed_pct",
                                        "preempted_completed_pct", "gpu_hours_lost", "lost_pct"};
    const RFilter preemptible[] = {{"group", "all", 1}, {"partition", "all", 0}};
    fprintf(out, "### Partitions: how many jobs finished anyway\n\n"
                 "Completed: share of the partition's jobs that completed; preempted, completed: "
                 "share of its preempted jobs that completed after being requeued.\n\n");
    rpt_stats_md(r, out, t, COLS(pcols), preemptible, 2);
}

static void wait_tables(const Report *r, FILE *out)
{
    static const char *const wcols[] = {"period",     "attempts",   "wait_p50_h", "wait_p90_h",
                                        "wait_p99_h", "wait_mean_h", "tts_p50_h"};
    const RFilter all[] = {{"partition", "all", 1}, {"gpus", "all", 1}};
    fprintf(out, "### Waits, by year\n\n");
    rpt_stats_md(r, out, rpt_table(r, RS_WAITS_YEAR, "waits"), COLS(wcols), all, 2);
}

static void efficiency_tables(const Report *r, FILE *out)
{
    static const char *const ecols[] = {"group",       "gpu_hours",  "gpu_util_pct",
                                        "gpu_mem_pct", "cpu_eff_pct", "mem_eff_pct",
                                        "time_used_pct"};
    const RFilter groups[] = {{"user", "all", 1}};
    fprintf(out, "### Requested against used (whole period)\n\n"
                 "GPU utilisation and GPU memory where measured, CPU time over run time x CPUs, "
                 "peak memory over requested, run time over the time limit.\n\n");
    rpt_stats_md(r, out, rpt_table(r, RS_EFF_ALL, "efficiency"), COLS(ecols), groups, 1);
    static const char *const wcols[] = {"group",       "gpu_hours",         "idle_gpu_hours",
                                        "idle_pct",    "hog_gpu_hours",     "smaller_gpu_jobs",
                                        "mig_jobs"};
    fprintf(out, "### GPUs held idle and jobs that would fit a smaller GPU\n\n");
    rpt_stats_md(r, out, rpt_table(r, RS_EFF_ALL, "waste"), COLS(wcols), groups, 1);
}

int rpt_usage(const Report *r, FILE *out, const char *dir, const char *rel, CpErr *err)
{
    fprintf(out, "Utilisation is GPU-hours used over GPU-hours available from the dated "
                 "inventory; events are marked with their number.\n\n");
    if (usage_chart(r, out, dir, rel, err) < 0)
        return -1;
    usage_tables(r, out);
    preemption_tables(r, out);
    wait_tables(r, out);
    efficiency_tables(r, out);
    return 0;
}
