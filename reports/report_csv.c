/* report_csv: `capplan export --csv DIR`: one RFC 4180 file per table,
 * the same figures as the report (and as `capplan project --csv`,
 * `capplan stats --csv`), names pseudonymised with --anonymize. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
        "group",  "domain",          "heads_now", "growth", "growth_measured",
        "pool_gpu_eq", "pool_gpu_eq_measured", "buffer", "buffer_measured"};
    HEADER(out, cols);
    const Plan *p = r->plan;
    const ProjParams *v = r->params, *m = p->measured;
    for (int g = 0; g < p->ngroups; g++) {
        char name[64];
        const char *t[] = {rpt_name(r, "group", p->groups[g], name, sizeof name),
                           p->domains[p->group_domain[g]]};
        cells_text(out, t, 2);
        const double n[] = {projection_heads0(p->model, g), v->growth[g], m->growth[g],
                            v->pool[g], m->pool[g], v->buffer[g], m->buffer[g]};
        cells_num(out, n, sizeof n / sizeof n[0]);
        csvw_end(out);
    }
    return 0;
}

static int csv_students(const Report *r, FILE *out)
{
    static const char *const cols[] = {
        "user",           "group",         "role",        "profile",   "leaves",
        "jobs",           "gpu_hours",     "gpus_p90",    "mem_gib",   "mem_source",
        "dur_mean_h",     "dur_max_h",     "gpu_hours_month", "conc_mean", "conc_peak",
        "burst_frac"};
    static const char *const src[] = {"unknown", "measured", "requested"};
    HEADER(out, cols);
    const Plan *p = r->plan;
    for (int i = 0; i < p->nusers; i++) {
        const PlanUser *u = &p->users[i];
        char un[64], gn[64], prof[16], leaves[16] = "";
        if (u->profile >= 0)
            snprintf(prof, sizeof prof, "%d", u->profile + 1);
        else
            prof[0] = '\0';
        if (u->leaves != PROJ_NEVER)
            rpt_date(u->leaves, leaves, sizeof leaves);
        const char *t[] = {rpt_name(r, "user", u->name, un, sizeof un),
                           rpt_name(r, "group", p->groups[u->group], gn, sizeof gn),
                           u->role ? u->role : "", prof, leaves};
        cells_text(out, t, 5);
        const FeatUser *f = &u->f;
        const double a[] = {f->njobs, f->gpu_hours, f->raw[FEAT_GPUS_P90],
                            f->raw[FEAT_MEM_GIB] < 0 ? NAN : f->raw[FEAT_MEM_GIB]};
        cells_num(out, a, 4);
        csvw_sep(out);
        csvw_text(out, src[f->mem_src >= 0 && f->mem_src < 3 ? f->mem_src : 0]);
        const double b[] = {f->raw[FEAT_DUR_MEAN_H], f->raw[FEAT_DUR_MAX_H],
                            f->raw[FEAT_GPUH_MONTH], f->raw[FEAT_CONC_MEAN],
                            f->raw[FEAT_CONC_PEAK],  f->burst_frac};
        cells_num(out, b, 6);
        csvw_end(out);
    }
    return 0;
}

static int csv_profiles(const Report *r, FILE *out)
{
    static const char *const cols[] = {
        "profile",   "name",       "size",           "gpus_p90",  "mem_gib",
        "dur_mean_h", "dur_max_h", "gpu_hours_month", "conc_mean", "conc_peak",
        "gpus_per_member", "gpus_per_member_measured", "mem_need_gib", "mem_class"};
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
                            projection_mem_of(r->plan->model, r->params, i) < 0 ? NAN : projection_mem_of(r->plan->model, r->params, i)};
        cells_num(out, n, sizeof n / sizeof n[0]);
        csvw_sep(out);
        csvw_text(out, profiles_mem_class_name(profiles_mem_class(projection_mem_of(r->plan->model, r->params, i))));
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

/* ---- from the stats tables, column for column as `capplan stats --csv` ---- */

static void stats_csv(const Report *r, FILE *out, const StatsTable *t)
{
    for (size_t c = 0; t && c < t->ncols; c++) {
        if (c)
            csvw_sep(out);
        csvw_text(out, t->cols[c].key);
    }
    csvw_end(out);
    for (size_t row = 0; t && row < t->nrows; row++) {
        for (size_t c = 0; c < t->ncols; c++) {
            const StatsCol *col = &t->cols[c];
            const StatsCell *cell = &t->cells[row * t->ncols + c];
            if (c)
                csvw_sep(out);
            if (col->type == STATS_COL_TEXT) {
                char buf[64];
                const char *s = cell->text ? cell->text : "";
                int nm = strcmp(col->key, "group") == 0 || strcmp(col->key, "user") == 0;
                csvw_text(out, nm ? rpt_name(r, col->key, s, buf, sizeof buf) : s);
            } else if (col->type == STATS_COL_BOOL && !isnan(cell->num))
                fputs(cell->num != 0 ? "true" : "false", out);
            else
                csvw_num(out, cell->num);
        }
        csvw_end(out);
    }
}

static int csv_usage_month(const Report *r, FILE *out)
{
    stats_csv(r, out, rpt_table(r, RS_UTIL_MONTH, "utilization"));
    return 0;
}

static int csv_usage_group_month(const Report *r, FILE *out)
{
    stats_csv(r, out, rpt_table(r, RS_UTIL_MONTH, "groups"));
    return 0;
}

static int csv_preemption(const Report *r, FILE *out)
{
    stats_csv(r, out, rpt_table(r, RS_PREEMPT_YEAR, "preemption"));
    return 0;
}

static int csv_waits(const Report *r, FILE *out)
{
    stats_csv(r, out, rpt_table(r, RS_WAITS_YEAR, "waits"));
    return 0;
}

static const char *const files[] = {"groups.csv",         "students.csv",
                                    "profiles.csv",       "projection.csv",
                                    "usage_by_month.csv", "usage_by_group_month.csv",
                                    "preemption.csv",     "waits.csv",
                                    NULL};
static const CsvFn writers[] = {csv_groups,      csv_students,          csv_profiles,
                                csv_projection,  csv_usage_month,       csv_usage_group_month,
                                csv_preemption,  csv_waits};

const char *const *report_csv_files(void)
{
    return files;
}

int report_write_csv(const Report *r, const char *dir, CpErr *err)
{
    if (rfile_mkdir(dir, err) < 0)
        return -1;
    for (size_t i = 0; files[i]; i++) {
        size_t n = strlen(dir) + strlen(files[i]) + 2;
        char *path = xmalloc(n);
        snprintf(path, n, "%s/%s", dir, files[i]);
        RFile rf;
        int rc = rfile_open(&rf, path, err);
        free(path);
        if (rc < 0)
            return -1;
        writers[i](r, rf.f);
        if (rfile_commit(&rf, err) < 0)
            return -1;
    }
    return 0;
}
