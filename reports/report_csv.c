/* report_csv: the tables of `capplan export --csv DIR` and of the
 * workbook: one RFC 4180 table each, the same figures as the report (and
 * as `capplan project --csv`, `capplan stats --csv`), names pseudonymised
 * with --anonymize. Every column holds one type (a range such as "3-4"
 * becomes a _min and a _max column), shares are percent (_pct), units
 * are in the column names, and aggregate "all" rows go to a file of
 * their own (NAME_all.csv). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "reports/anon_order.h"
#include "reports/csvw.h"
#include "reports/report_int.h"
#include "reports/rfile.h"

typedef int (*CsvFn)(const Report *r, FILE *out);

static void cells_text(FILE *out, const char *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            csvw_sep(out);
        csvw_text(out, v[i]);
    }
}

static void cells_num(FILE *out, const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        csvw_sep(out);
        csvw_num(out, v[i]);
    }
}

static void header(FILE *out, const char *const *cols, size_t n)
{
    cells_text(out, cols, n);
    csvw_end(out);
}

#define HEADER(out, a) header(out, a, sizeof a / sizeof a[0])

/* ---- from the plan ---- */

static int csv_groups(const Report *r, FILE *out)
{
    static const char *const cols[] = {
        "group",          "domain",         "people_now",    "growth_pct",
        "growth_measured_pct", "pool_gpu_eq", "pool_gpu_eq_measured", "buffer_pct",
        "buffer_measured_pct"};
    HEADER(out, cols);
    const Plan *p = r->plan;
    const ProjParams *v = r->params, *m = p->measured;
    for (int g = 0; g < p->ngroups; g++) {
        char name[64];
        const char *t[] = {rpt_name(r, "group", p->groups[g], name, sizeof name),
                           p->domains[p->group_domain[g]]};
        cells_text(out, t, 2);
        const double n[] = {projection_heads0(p->model, g), 100 * v->growth[g],
                            100 * m->growth[g],  v->pool[g],
                            m->pool[g],          100 * v->buffer[g],
                            100 * m->buffer[g]};
        cells_num(out, n, sizeof n / sizeof n[0]);
        csvw_end(out);
    }
    return 0;
}

static int csv_students(const Report *r, FILE *out)
{
    static const char *const cols[] = {
        "user",       "group",      "role",           "profile",  "leaves_on",
        "jobs",       "gpu_hours",  "gpus_p90",       "mem_gib",  "mem_source",
        "dur_mean_h", "dur_max_h",  "gpu_hours_per_month", "conc_mean_gpus", "conc_peak_gpus",
        "burst_pct"};
    static const char *const src[] = {"unknown", "measured", "requested"};
    HEADER(out, cols);
    const Plan *p = r->plan;
    for (int i = 0; i < p->nusers; i++) {
        const PlanUser *u = &p->users[i];
        char un[64], gn[64], leaves[16] = "";
        if (u->leaves != PROJ_NEVER)
            rpt_date(u->leaves, leaves, sizeof leaves);
        const char *t[] = {rpt_name(r, "user", u->name, un, sizeof un),
                           rpt_name(r, "group", p->groups[u->group], gn, sizeof gn),
                           u->role ? u->role : ""};
        cells_text(out, t, 3);
        csvw_sep(out);
        csvw_num(out, u->profile >= 0 ? u->profile + 1 : NAN);
        csvw_sep(out);
        csvw_text(out, leaves);
        const FeatUser *f = &u->f;
        const double a[] = {f->njobs, f->gpu_hours, f->raw[FEAT_GPUS_P90],
                            f->raw[FEAT_MEM_GIB] < 0 ? NAN : f->raw[FEAT_MEM_GIB]};
        cells_num(out, a, 4);
        csvw_sep(out);
        csvw_text(out, src[f->mem_src >= 0 && f->mem_src < 3 ? f->mem_src : 0]);
        const double b[] = {f->raw[FEAT_DUR_MEAN_H], f->raw[FEAT_DUR_MAX_H],
                            f->raw[FEAT_GPUH_MONTH], f->raw[FEAT_CONC_MEAN],
                            f->raw[FEAT_CONC_PEAK],  100 * f->burst_frac};
        cells_num(out, b, 6);
        csvw_end(out);
    }
    return 0;
}

static int csv_profiles(const Report *r, FILE *out)
{
    static const char *const cols[] = {
        "profile",         "name",           "members",
        "gpus_p90",        "mem_gib",        "dur_mean_h",
        "dur_max_h",       "gpu_hours_per_month", "conc_mean_gpus",
        "conc_peak_gpus",  "gpus_per_member", "gpus_per_member_measured",
        "mem_need_gib",    "mem_class_min_gib", "mem_class_max_gib"};
    HEADER(out, cols);
    const Plan *p = r->plan;
    for (int i = 0; i < p->fit.k; i++) {
        const double *c = p->fit.profiles[i].centroid_raw;
        fprintf(out, "%d,", i + 1);
        csvw_text(out, p->names[i]);
        const double n[] = {p->fit.profiles[i].size, c[FEAT_GPUS_P90],
                            c[FEAT_MEM_GIB] < 0 ? NAN : c[FEAT_MEM_GIB], c[FEAT_DUR_MEAN_H],
                            c[FEAT_DUR_MAX_H], c[FEAT_GPUH_MONTH], c[FEAT_CONC_MEAN],
                            c[FEAT_CONC_PEAK], r->params->gpus[i], p->measured->gpus[i],
                            projection_mem_of(r->plan->model, r->params, i) < 0
                                ? NAN
                                : projection_mem_of(r->plan->model, r->params, i)};
        cells_num(out, n, sizeof n / sizeof n[0]);
        static const double lo[] = {0, 24, 48, 80, NAN}, hi[] = {24, 48, 80, NAN, NAN};
        int mc = profiles_mem_class(projection_mem_of(r->plan->model, r->params, i));
        const double range[] = {lo[mc], hi[mc]};
        cells_num(out, range, 2);
        csvw_end(out);
    }
    return 0;
}

static void proj_row(const Report *r, FILE *out, const char *kind, const char *name,
                     const char *domain, int y, const ProjGroupYear *g, const ProjTotals *t)
{
    int64_t f, to;
    char a[16], b[16], yr[16];
    double v[PLAN_CSV_NUMS];
    projection_year_span(r->plan->model, y, &f, &to);
    rpt_date(f, a, sizeof a);
    rpt_date(to, b, sizeof b);
    snprintf(yr, sizeof yr, "%d", y);
    const char *txt[] = {kind, name, domain, yr, a, b};
    cells_text(out, txt, PLAN_CSV_TEXTS);
    plan_csv_values(g, t, !g && strcmp(kind, "total") == 0, v);
    cells_num(out, v, PLAN_CSV_NUMS);
    csvw_end(out);
}

static int csv_projection(const Report *r, FILE *out)
{
    header(out, plan_csv_cols, PLAN_CSV_TEXTS + PLAN_CSV_NUMS);
    const Plan *p = r->plan;
    int Y = r->res->nyears;
    for (int g = 0; g < p->ngroups; g++) {
        char name[64];
        for (int y = 1; y <= Y; y++)
            proj_row(r, out, "group", rpt_name(r, "group", p->groups[g], name, sizeof name),
                     p->domains[p->group_domain[g]], y, &r->res->gy[(size_t)g * Y + y - 1], NULL);
    }
    for (int d = 0; d < p->ndomains; d++)
        for (int y = 1; y <= Y; y++)
            proj_row(r, out, "domain", p->domains[d], p->domains[d], y, NULL,
                     &r->res->dom[(size_t)d * Y + y - 1]);
    for (int y = 1; y <= Y; y++)
        proj_row(r, out, "total", "", "", y, NULL, &r->res->total[y - 1]);
    return 0;
}

static int csv_catalog(const Report *r, FILE *out)
{
    static const char *const cols[] = {"model", "mem_gib", "relative_speed", "tdp_w", "price",
                                       "currency"};
    HEADER(out, cols);
    for (size_t i = 0; i < r->ncatalog; i++) {
        const CatalogGpu *g = &r->catalog[i];
        csvw_text(out, g->model);
        const double n[] = {g->mem_gib, g->relative_speed, g->tdp_w < 0 ? NAN : g->tdp_w,
                            g->price < 0 ? NAN : g->price};
        cells_num(out, n, 4);
        csvw_sep(out);
        csvw_text(out, g->currency);
        csvw_end(out);
    }
    return 0;
}

/* purchase.csv (#33): next year's recommendation as `capplan simulate`
 * finds it, one row per cluster it goes to (a row "none" with 0 GPUs when
 * nothing is bought), the waits without it (buy nothing) and with it. */
static void purchase_cells(FILE *out, const SimNext *nx, const char *model, const char *cluster,
                           int gpus, double cost, double kw)
{
    const SimPurchase *b = &nx->buy;
    const SimFleetWaits *with = b->found ? &b->w : &nx->nothing;
    csvw_text(out, model);
    csvw_sep(out);
    csvw_text(out, cluster);
    char d[16] = "";
    if (b->found) {
        int64_t y;
        int m, dd;
        civil_from_days(b->arrives / 86400, &y, &m, &dd);
        snprintf(d, sizeof d, "%04d-%02d-%02d", (int)y, m, dd);
    }
    const double n[] = {gpus, b->found ? b->quarter : NAN, cost};
    cells_num(out, n, 3);
    csvw_sep(out);
    csvw_text(out, b->found ? b->currency : "");
    csvw_sep(out);
    csvw_text(out, d);
    const double w[] = {kw, nx->nothing.p90.mid, with->p90.mid, with->p90.lo, with->p90.hi,
                        nx->nothing.mean.mid, with->mean.mid, nx->target_h};
    cells_num(out, w, 8);
    csvw_end(out);
}

static int csv_purchase(const Report *r, FILE *out)
{
    static const char *const cols[] = {
        "model", "cluster", "gpus", "quarter", "cost", "currency", "arrives", "power_kw",
        "p90_wait_without_h", "p90_wait_with_h", "p90_wait_with_low_h", "p90_wait_with_high_h",
        "mean_wait_without_h", "mean_wait_with_h", "target_p90_wait_h"};
    HEADER(out, cols);
    const SimNext *nx = r->sim;
    if (!nx)
        return 0;
    const SimPurchase *b = &nx->buy;
    if (!b->found) {
        purchase_cells(out, nx, "none", "", 0, 0, 0);
        return 0;
    }
    for (int k = 0; k < b->nsplit; k++) {
        int n = b->split_count[k];
        purchase_cells(out, nx, b->model, b->split_cluster[k], n, b->price >= 0 ? n * b->price : NAN,
                       b->kw >= 0 ? b->kw * n / b->count : NAN);
    }
    return 0;
}

/* ---- from the stats tables, column for column as `capplan stats --csv` ---- */

/* "3", "3-4" or "9+" into lo and hi (hi NaN for "9+"); 0, else -1. */
static int parse_range(const char *s, double *lo, double *hi)
{
    char *end;
    if (!s || !(*s >= '0' && *s <= '9'))
        return -1;
    *lo = strtod(s, &end);
    if (*end == '\0')
        *hi = *lo;
    else if (*end == '+' && end[1] == '\0')
        *hi = NAN;
    else if (*end == '-' && end[1] >= '0' && end[1] <= '9') {
        *hi = strtod(end + 1, &end);
        if (*end)
            return -1;
    } else
        return -1;
    return 0;
}

static int is_all(const StatsCell *c)
{
    return c->text && strcmp(c->text, "all") == 0;
}

/* 1 when row is an aggregate: a TEXT cell other than the period reads "all". */
static int row_is_all(const StatsTable *t, size_t row)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (t->cols[c].type == STATS_COL_TEXT && strcmp(t->cols[c].key, "period") != 0 &&
            is_all(&t->cells[row * t->ncols + c]))
            return 1;
    return 0;
}

/* 1 when TEXT column c holds counts and ranges ("0", "3-4", "9+"; "all"
 * aside): written as c_min and c_max, "all" as 0 and no maximum. */
static int range_col(const StatsTable *t, size_t c)
{
    if (t->cols[c].type != STATS_COL_TEXT || strcmp(t->cols[c].key, "period") == 0)
        return 0; /* a period "2024-03" is a month, not a range */
    size_t seen = 0;
    for (size_t row = 0; row < t->nrows; row++) {
        const StatsCell *cell = &t->cells[row * t->ncols + c];
        double lo, hi;
        if (is_all(cell))
            continue;
        if (parse_range(cell->text, &lo, &hi) < 0 || hi < lo)
            return 0;
        seen++;
    }
    return seen > 0;
}

static void stats_cell(const Report *r, FILE *out, const StatsCol *col, const StatsCell *cell,
                       int range)
{
    if (range) {
        double lo = 0, hi = NAN; /* "all": from 0, no upper bound */
        if (!is_all(cell))
            parse_range(cell->text, &lo, &hi);
        csvw_num(out, lo);
        csvw_sep(out);
        csvw_num(out, hi);
    } else if (col->type == STATS_COL_TEXT) {
        char buf[64];
        const char *s = cell->text ? cell->text : "";
        int nm = strcmp(col->key, "group") == 0 || strcmp(col->key, "user") == 0;
        csvw_text(out, nm ? rpt_name(r, col->key, s, buf, sizeof buf) : s);
    } else if (col->type == STATS_COL_BOOL && !isnan(cell->num))
        fputs(cell->num != 0 ? "true" : "false", out);
    else
        csvw_num(out, cell->num);
}

/* Table t's rows that are aggregates (all 1) or not (all 0). */
static void stats_csv(const Report *r, FILE *out, const StatsTable *t, int all)
{
    char *range = xcalloc(t ? t->ncols + 1 : 1, 1);
    for (size_t c = 0; t && c < t->ncols; c++) {
        range[c] = (char)range_col(t, c);
        if (c)
            csvw_sep(out);
        if (range[c]) {
            fprintf(out, "%s_min,%s_max", t->cols[c].key, t->cols[c].key);
        } else
            csvw_text(out, t->cols[c].key);
    }
    csvw_end(out);
    for (size_t row = 0; t && row < t->nrows; row++) {
        if (row_is_all(t, row) != all)
            continue;
        for (size_t c = 0; c < t->ncols; c++) {
            if (c)
                csvw_sep(out);
            stats_cell(r, out, &t->cols[c], &t->cells[row * t->ncols + c], range[c]);
        }
        csvw_end(out);
    }
    free(range);
}

/* ---- the tables ---- */

static const struct {
    const char *file;
    CsvFn plan;           /* a table of the plan, or */
    int run;              /* a stats table: run, key, which rows */
    const char *key;
    int all;
    const char *totals[4]; /* columns a workbook sums */
} tables[] = {
    {"groups.csv", csv_groups, 0, NULL, 0, {"people_now"}},
    {"students.csv", csv_students, 0, NULL, 0, {"jobs", "gpu_hours"}},
    {"profiles.csv", csv_profiles, 0, NULL, 0, {"members"}},
    {"projection.csv", csv_projection, 0, NULL, 0, {NULL}},
    {"usage_by_group.csv", NULL, RS_UTIL_ALL, "groups", 0, {"gpu_hours", "share_pct", "jobs"}},
    {"usage_by_month.csv", NULL, RS_UTIL_MONTH, "utilization", 0, {NULL}},
    {"usage_by_month_all.csv", NULL, RS_UTIL_MONTH, "utilization", 1, {NULL}},
    {"usage_by_group_month.csv", NULL, RS_UTIL_MONTH, "groups", 0, {NULL}},
    {"preemption.csv", NULL, RS_PREEMPT_YEAR, "preemption", 0, {NULL}},
    {"preemption_all.csv", NULL, RS_PREEMPT_YEAR, "preemption", 1, {NULL}},
    {"waits.csv", NULL, RS_WAITS_YEAR, "waits", 0, {NULL}},
    {"waits_all.csv", NULL, RS_WAITS_YEAR, "waits", 1, {NULL}},
    {"catalog.csv", csv_catalog, 0, NULL, 0, {NULL}},
    {"purchase.csv", csv_purchase, 0, NULL, 0, {"gpus", "cost", "power_kw"}},
};
#define NTABLES (sizeof tables / sizeof tables[0])

static const char *files[NTABLES + 1];

int rpt_csv_reads_run(int run)
{
    for (size_t i = 0; i < NTABLES; i++)
        if (!tables[i].plan && tables[i].run == run)
            return 1;
    return 0;
}

const char *const *report_csv_files(void)
{
    for (size_t i = 0; i < NTABLES; i++)
        files[i] = tables[i].file;
    return files;
}

const char *rpt_csv_table(const Report *r, size_t i, char **text, size_t *len,
                          const char *const **totals)
{
    if (i >= NTABLES)
        return NULL;
    FILE *f = open_memstream(text, len);
    if (!f)
        abort(); /* out of memory, as xmalloc */
    if (tables[i].plan)
        tables[i].plan(r, f);
    else
        stats_csv(r, f, rpt_table(r, tables[i].run, tables[i].key), tables[i].all);
    fclose(f);
    if (r->o.anonymize) { /* rows by pseudonym, for the CSV files and the workbook (#29) */
        char *sorted = anon_order_csv(*text);
        free(*text);
        *text = sorted;
        *len = strlen(sorted);
    }
    if (totals)
        *totals = tables[i].totals;
    return tables[i].file;
}

int report_write_csv(const Report *r, const char *dir, CpErr *err)
{
    if (rfile_mkdir(dir, err) < 0)
        return -1;
    char *text;
    size_t len;
    const char *name;
    for (size_t i = 0; (name = rpt_csv_table(r, i, &text, &len, NULL)) != NULL; i++) {
        size_t n = strlen(dir) + strlen(name) + 2;
        char *path = xmalloc(n);
        snprintf(path, n, "%s/%s", dir, name);
        RFile rf;
        int rc = rfile_open(&rf, path, err);
        free(path);
        if (rc == 0) {
            if (r->o.bom)
                fputs("\xef\xbb\xbf", rf.f);
            fwrite(text, 1, len, rf.f);
            rc = rfile_commit(&rf, err);
        }
        free(text);
        if (rc < 0)
            return -1;
    }
    return 0;
}
