/* capplan project: demand per group and year, capacity and gap; backtest. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/plan_cli.h"
#include "cli/safeout.h"
#include "cli/project_backtest.h"
#include "cli/project_explain.h"
#include "cli/project_json.h"
#include "cli/simulate_next_print.h"
#include "core/memclass_nest.h"
#include "data/plan/plan.h"
#include "data/store/store.h"
#include "data/store/store_plan.h"

typedef struct ProjectArgs {
    PlanOpts o;
    const char *scenario;
    const char *backtest, *explain, *asof;
    int json, csv, bench, do_backtest;
    int simulate; /* --simulate: end with next year's queue simulated (#33) */
} ProjectArgs;

/* ---- CSV: one table, a row per group, domain or total and year ---- */

/* "forecaster: ...; p10-p90 held N of M past cuts" (issue 28). */
static void forecaster_line(const Plan *p, char *buf, size_t n)
{
    char f[256], c[128];
    if (!p->bt) {
        snprintf(buf, n, "forecaster: none (no backtest)");
        return;
    }
    plan_forecaster_text(p->bt, f, sizeof f);
    plan_coverage_text(p->bt, c, sizeof c);
    snprintf(buf, n, "%s; %s", f, c);
}

static void csv_row(FILE *out, const View *v, const char *kind, const char *name,
                    const char *domain, int y, const ProjTotals *t, const ProjGroupYear *g)
{
    int64_t f, to;
    char a[16], b[16];
    double x[PLAN_CSV_NUMS];
    projection_year_span(v->p->model, y, &f, &to);
    plan_cli_date(f, a, sizeof a);
    plan_cli_date(to, b, sizeof b);
    plan_cli_csv_cell(out, kind);
    fputc(',', out);
    plan_cli_csv_cell(out, name);
    fputc(',', out);
    plan_cli_csv_cell(out, domain);
    fprintf(out, ",%d,%s,%s", y, a, b);
    plan_csv_values(g, t, !g && strcmp(kind, "total") == 0, x);
    for (int i = 0; i < PLAN_CSV_NUMS; i++) {
        fputc(',', out);
        if (!isnan(x[i]))
            plan_cli_csv_num(out, x[i]);
    }
    fputs("\r\n", out);
}

static void print_csv(const View *v, FILE *out)
{
    const Plan *p = v->p;
    int Y = v->r->nyears;
    for (int i = 0; i < PLAN_CSV_TEXTS + PLAN_CSV_NUMS; i++)
        fprintf(out, "%s%s", i ? "," : "", plan_csv_cols[i]);
    fputs("\r\n", out);
    for (int g = 0; g < p->ngroups; g++)
        for (int y = 1; y <= Y; y++)
            csv_row(out, v, "group", p->groups[g], p->domains[p->group_domain[g]], y, NULL,
                    &v->r->gy[(size_t)g * Y + y - 1]);
    for (int d = 0; d < p->ndomains; d++)
        for (int y = 1; y <= Y; y++)
            csv_row(out, v, "domain", p->domains[d], p->domains[d], y,
                    &v->r->dom[(size_t)d * Y + y - 1], NULL);
    char fl[512];
    forecaster_line(p, fl, sizeof fl); /* the total rows name the forecaster (issue 28) */
    for (int y = 1; y <= Y; y++)
        csv_row(out, v, "total", fl, "", y, &v->r->total[y - 1], NULL);
}

/* ---- text ---- */

static void text_header(const View *v, FILE *out)
{
    const Plan *p = v->p;
    char a[16], b[16];
    plan_cli_date(p->win_end, a, sizeof a);
    if (p->cpu)
        fprintf(out, "projection from %s, scenario %s: mean CPUs in use over each year (CPUs "
                     "stand in for GPUs)\n", a, v->scenario ? v->scenario : "base");
    else
        fprintf(out, "projection from %s, scenario %s: GPU-eq = GPUs x relative speed, "
                     "reference model %s = 1.0, mean over each year\n",
                a, v->scenario ? v->scenario : "base", p->ref_model);
    for (int y = 1; y <= v->r->nyears; y++) {
        int64_t f, t;
        projection_year_span(p->model, y, &f, &t);
        plan_cli_date(f, a, sizeof a);
        plan_cli_date(t, b, sizeof b);
        fprintf(out, "%sy%d = %s..%s", y == 1 ? "  " : ", ", y, a, b);
    }
    char fl[512];
    forecaster_line(p, fl, sizeof fl);
    fprintf(out, "\n  %s", fl);
    const ProjCalib *c = projection_calib(p->model);
    if (c->ncuts >= PROJ_MIN_CUTS)
        fprintf(out, "\n  ranges: p10-p90 from %d backtest cuts; half-life %g months; buffer "
                     "%.0f %% (p80 of the backtest's under-forecasts)\n",
                c->ncuts, v->params->halflife, 100 * p->institute_buffer);
    else
        fprintf(out, "\n  ranges: not calibrated (%d backtest cuts, %d needed); half-life %g "
                     "months\n", c->ncuts, PROJ_MIN_CUTS, v->params->halflife);
    int capped;
    double ir = projection_intensity_raw(p->model, &capped);
    fprintf(out, "  intensity %+.1f %%/yr applied (measured %+.1f %%/yr%s)\n",
            100 * v->params->intensity, 100 * ir, capped ? ", capped" : "");
    if (v->r->nyears > PROJ_WARN_YEARS)
        fprintf(out, "warning: %d years: past %d years the ranges are wide and the roster "
                     "rarely says who will be there\n", v->r->nyears, PROJ_WARN_YEARS);
    fputc('\n', out);
}

static void text_groups(const View *v, FILE *out)
{
    const Plan *p = v->p;
    int Y = v->r->nyears;
    char name[64], dom[64], rg[48];
    fprintf(out, "%-20s %-12s %3s %6s %8s %-22s %7s %7s %8s  (%s)\n", "group", "domain", "yr",
            "heads", "expected", "range p10-p90", "pool", "buffer", "need", project_unit_of(p));
    for (int g = 0; g < p->ngroups; g++) {
        int capped;
        cli_sanitize(name, sizeof name, p->groups[g]);
        cli_sanitize(dom, sizeof dom, p->domains[p->group_domain[g]]);
        projection_growth_raw(p->model, g, &capped);
        for (int y = 1; y <= Y; y++) {
            const ProjGroupYear *t = &v->r->gy[(size_t)g * Y + y - 1];
            plan_range_text(t->base_r, NULL, rg, sizeof rg);
            char st[48] = "";
            if (t->stated > 0) /* issue 28: a stated need beyond expected use, in the need */
                snprintf(st, sizeof st, "  stated +%.2f", t->stated);
            fprintf(out, "%-20.20s %-12.12s %3d %6.1f %8.2f %-22s %7.2f %7.2f %8.2f%s%s\n",
                    y == 1 ? name : "", y == 1 ? dom : "", y, t->heads, t->base, rg, t->pool,
                    t->buffer_add, t->demand, y == 1 && capped ? "  growth capped" : "", st);
        }
    }
}

static void text_totals(const View *v, FILE *out)
{
    const Plan *p = v->p;
    int Y = v->r->nyears;
    char dom[64], rg[48];
    fprintf(out, "\nneed by domain (%s)%*s", project_unit_of(p), 14, "");
    for (int y = 1; y <= Y; y++)
        fprintf(out, " %8s%d", "y", y);
    fputc('\n', out);
    for (int d = 0; d < p->ndomains; d++) {
        cli_sanitize(dom, sizeof dom, p->domains[d]);
        fprintf(out, "  %-32.32s", dom);
        for (int y = 1; y <= Y; y++)
            fprintf(out, " %9.2f", v->r->dom[(size_t)d * Y + y - 1].demand);
        fputc('\n', out);
    }
    fprintf(out, "\ninstitute (%s)\n", project_unit_of(p));
    for (int y = 1; y <= Y; y++) {
        const ProjTotals *t = &v->r->total[y - 1];
        plan_range_text(t->base_r, NULL, rg, sizeof rg);
        fprintf(out, "  y%d expected use %.1f (%s), pool %.1f (sum of groups' %.1f, %.1f shared "
                     "between groups), buffer %.1f, need %.1f",
                y, t->base, rg, t->pool, t->pool_sum, t->pool_sum - t->pool, t->buffer_add,
                t->demand);
        plan_range_text(t->demand_r, NULL, rg, sizeof rg);
        fprintf(out, " (%s)\n", rg);
    }
    if (v->nstated > 0 && Y > 0) {
        int ng = 0;
        for (int g = 0; g < p->ngroups; g++)
            ng += v->r->gy[(size_t)g * Y].stated > 0;
        fprintf(out, "  stated needs: %d known at the start (the latest of each member); year 1's "
                     "need holds %.1f %s beyond their expected use, in %d group%s (project "
                     "--explain GROUP names them)\n",
                v->nstated, v->r->total[0].stated, project_unit_of(p), ng, ng == 1 ? "" : "s");
    }
    fprintf(out, "\nby GPU memory class (GiB)   need / capacity / gap (%s; the gap after "
                 "bigger classes' room)\n",
            project_unit_of(p));
    for (int c = 0; c < MEMCLASS_COUNT; c++) {
        fprintf(out, "  %-8s", profiles_mem_class_name(c));
        for (int y = 1; y <= Y; y++) {
            const ProjTotals *t = &v->r->total[y - 1];
            double nest[MEMCLASS_COUNT];
            memclass_nest(t->demand_c, t->capacity_c, nest);
            fprintf(out, "  y%d %7.1f / %6.1f / %+7.1f", y, t->demand_c[c], t->capacity_c[c],
                    nest[c]);
        }
        fputc('\n', out);
    }
    fprintf(out, "  %-8s", "total");
    for (int y = 1; y <= Y; y++) {
        const ProjTotals *t = &v->r->total[y - 1];
        fprintf(out, "  y%d %7.1f / %6.1f / %+7.1f", y, t->demand, t->capacity, t->gap);
    }
    fputc('\n', out);
}

static void text_edits(const View *v, FILE *out)
{
    if (v->nedits == 0)
        return;
    char buf[512];
    fprintf(out, "\nedits (measured value beside each):\n");
    for (size_t i = 0; i < v->nedits; i++) {
        const StorePlanParam *e = &v->edits[i];
        snprintf(buf, sizeof buf, "  %s%s%s = %g", e->key, e->group[0] ? " --group " : "",
                 e->group, e->value);
        char clean[512];
        cli_sanitize(clean, sizeof clean, buf);
        fprintf(out, "%s", clean);
        if (!isnan(e->measured))
            fprintf(out, " (measured %g)", e->measured);
        cli_sanitize(clean, sizeof clean, e->reason ? e->reason : "");
        fprintf(out, "%s%s\n", clean[0] ? ": " : "", clean);
    }
    if (v->skipped)
        fprintf(out, "  (%d edits no longer apply: their group or profile is gone)\n", v->skipped);
}

static void print_text(const View *v, FILE *out)
{
    text_header(v, out);
    text_groups(v, out);
    text_totals(v, out);
    text_edits(v, out);
    if (v->p->cpu)
        fprintf(out, "\nno job in this database holds a GPU: CPUs stand in for GPUs\n");
}

/* ---- backtest ---- */

static int run_backtest(Store *st, const ProjectArgs *a)
{
    PlanOpts o = a->o;
    o.cut = 0;
    if (a->backtest && plan_cli_parse_date(a->backtest, &o.cut) < 0)
        return cli_error("--backtest: bad date '%s' (YYYY-MM-DD or YYYY-MM)", a->backtest);
    PlanBacktest b;
    CpErr err;
    if (plan_backtest(st, &o, &b, &err) < 0)
        return cli_error("%s", err.msg);
    project_backtest_print(&b, a->json, stdout);
    plan_backtest_free(&b);
    return 0;
}

/* ---- timing of a recompute (the dashboard's keystroke) ---- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void bench(const View *v)
{
    const int n = 10000;
    double t = now_s();
    for (int i = 0; i < n; i++) {
        v->params->buffer[0] = 0.1 + (i % 7) * 0.01;
        projection_run(v->p->model, v->params, v->r);
    }
    t = now_s() - t;
    printf("recompute after one parameter change: %.2f us (%d groups, %d profiles, %d years)\n",
           1e6 * t / n, v->p->ngroups, v->p->fit.k, v->r->nyears);
}

/* ---- the command ---- */

static int parse_args(int argc, char **argv, ProjectArgs *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        int r = plan_cli_option(argc, argv, &i, &a->o);
        if (r < 0)
            return -1;
        if (r == 1)
            continue;
        if (strcmp(argv[i], "--json") == 0)
            a->json = 1;
        else if (strcmp(argv[i], "--csv") == 0)
            a->csv = 1;
        else if (strcmp(argv[i], "--bench") == 0)
            a->bench = 1;
        else if (strcmp(argv[i], "--simulate") == 0)
            a->simulate = 1;
        else if (strcmp(argv[i], "--as-of") == 0 && i + 1 < argc)
            a->asof = argv[++i];
        else if (strcmp(argv[i], "--scenario") == 0 && i + 1 < argc)
            a->scenario = argv[++i];
        else if (strcmp(argv[i], "--backtest") == 0) {
            a->do_backtest = 1;
            if (i + 1 < argc && argv[i + 1][0] >= '0' && argv[i + 1][0] <= '9')
                a->backtest = argv[++i];
        } else if (strcmp(argv[i], "--explain") == 0 && i + 1 < argc)
            a->explain = argv[++i];
        else if (strcmp(argv[i], "--years") == 0 && i + 1 < argc) {
            char *end;
            long y = strtol(argv[++i], &end, 10);
            if (*end || y < 1 || y > PROJ_MAX_YEARS) {
                cli_error("project: --years '%s': expected 1..%d", argv[i], PROJ_MAX_YEARS);
                return -1;
            }
            a->o.years = (int)y;
        } else
            return -1;
    }
    if (a->explain && (a->json || a->csv)) {
        cli_error("project: --explain prints text: not with %s", a->json ? "--json" : "--csv");
        return -1;
    }
    if (a->json && a->csv) {
        cli_error("project: --json or --csv, not both");
        return -1;
    }
    if (a->do_backtest && (a->csv || a->explain)) {
        cli_error("project --backtest: text or --json, not %s", a->csv ? "--csv" : "--explain");
        return -1;
    }
    return 0;
}

static int check_scenario(Store *st, const char *name)
{
    CpErr err;
    if (!name || strcmp(name, "base") == 0)
        return 0;
    int e = store_plan_scenario_exists(st, name, &err);
    if (e < 0)
        return cli_error("%s", err.msg);
    if (e == 0)
        return cli_error("no scenario '%s' (capplan scenario list)", name);
    return 0;
}

static int project(Store *st, const ProjectArgs *a)
{
    CpErr err;
    View v = {NULL, a->scenario, NULL, NULL, NULL, 0, 0, NULL, 0};
    Plan *p = plan_build(st, &a->o, &err);
    int rc = 1;
    if (!p)
        return cli_error("%s", err.msg);
    v.p = p;
    if (!a->o.asof && !p->reused && p->nusers > 0 && plan_save(st, p, plan_cli_who(), &err) < 0) {
        cli_note("note: profiles not saved: %s", err.msg);
    }
    if (plan_params(st, p, a->scenario, &v.params, &v.skipped, &err) < 0 ||
        (a->scenario && strcmp(a->scenario, "base") != 0 &&
         store_plan_params(st, a->scenario, &v.edits, &v.nedits, &err) < 0)) {
        cli_error("%s", err.msg);
        goto out;
    }
    if (plan_stated_load(st, p, &v.stated, &v.nstated, &err) < 0) {
        cli_error("%s", err.msg);
        goto out;
    }
    v.r = projection_result_new(p->model);
    projection_run(p->model, v.params, v.r);
    SafeOut so; /* text from data (model, group names) reaches no terminal raw (#29) */
    FILE *out = a->json || a->csv ? stdout : safeout_begin(&so, stdout);
    int bad = 0;
    if (a->explain)
        bad = project_explain_print(p, v.params, v.r, v.stated, v.nstated, a->explain, out) != 0;
    else if (a->json)
        project_print_json(&v, stdout);
    else if (a->csv)
        print_csv(&v, stdout);
    else
        print_text(&v, out);
    if (out != stdout)
        safeout_flush(&so, stdout);
    if (bad)
        goto out;
    if (a->bench)
        bench(&v);
    /* #33: one answer, the simulation's, on request: a saturated queue can take
     * minutes to simulate, and project is what a meeting reruns */
    if (!a->explain && !a->json && !a->csv && !a->o.asof) {
        if (a->simulate)
            simnext_project_line(st, a->scenario, stdout);
        else
            fputs("\nnext year's queue, buy nothing against the recommended purchase: "
                  "capplan simulate (or project --simulate)\n",
                  stdout);
    }
    rc = 0;
out:
    plan_stated_free(v.stated, v.nstated);
    store_plan_params_free(v.edits, v.nedits);
    projection_result_free(v.r);
    projection_params_free(v.params);
    plan_free(p);
    return rc;
}

static int exec_project(CliCtx *ctx, int argc, char **argv)
{
    if (cli_wants_help(&cmd_project, argc, argv))
        return 0;
    ProjectArgs a;
    if (parse_args(argc, argv, &a) < 0)
        return cli_usage(&cmd_project);
    Store *st = cli_store(ctx);
    if (!st)
        return 1;
    if (a.asof) { /* issue 28: what `project` said on that day */
        if (plan_cli_parse_date(a.asof, &a.o.cut) < 0 || !plan_is_month_start(a.o.cut))
            return cli_error("--as-of: bad date '%s' (the first day of a month: YYYY-MM-01 or "
                             "YYYY-MM)", a.asof);
        a.o.asof = 1;
    }
    if (a.do_backtest)
        return run_backtest(st, &a);
    if (check_scenario(st, a.scenario))
        return 1;
    return project(st, &a);
}

const CmdEntry cmd_project = {
    "project",
    "capplan project [--as-of DATE] [--scenario S] [--years N] [--simulate] "
    "[--json|--csv|--explain GROUP] | "
    "--backtest [DATE] [--json]",
    "\nModel v2 (docs/planning.md): per group and year, expected use = each member's own\n"
    "exponentially weighted rate (leavers by the roster), newcomers at the measured rate\n"
    "and ramp, head growth and the institute's intensity trend; need = expected use +\n"
    "the group's exploration/HPO pool (q90 of its burst curve) + the buffer measured by\n"
    "the backtest. All in GPU-eq (GPUs x relative speed, the reference model named), with\n"
    "the p10-p90 range of the rolling backtest (\"not calibrated\" below 3 cuts). Each\n"
    "group's level comes from the forecaster with the best record on this site's own\n"
    "history (naive, last 3 months, smoothing, the model, the model shrunk), named in\n"
    "every output with its ranges' past coverage.\n\n"
    "options:\n"
    "  --as-of DATE      what project said on DATE (the first of a month): only what was\n"
    "                    known then, every choice from earlier cuts (a backtest's cut)\n"
    "  --scenario S      apply scenario S's edits (default: base, the measured values)\n"
    "  --years N         horizon in years (default 3, at most 10; a warning past 5)\n"
    "  --json            every term per group and year, parameters measured and edited\n"
    "  --csv             one table: a row per group, domain and total and year\n"
    "  --explain GROUP   the group's year-1 need in parts: stayers, leavers, newcomers,\n"
    "                    intensity, pool share, buffer share, naming the people\n"
    "  --window, --roles, --min-jobs, --k   as for capplan profile\n"
    "  --backtest [DATE] the rolling backtest: every monthly cut with 6 months before and\n"
    "                    12 after (DATE: that cut alone), each what --as-of said then:\n"
    "                    every forecaster's per-group WAPE, total error, bias, coverage\n"
    "  --simulate        end with next year's queue simulated (as capplan simulate):\n"
    "                    buy nothing's p90 wait and the recommended purchase's\n"
    "  --bench           time a recompute after one parameter change\n",
    exec_project};
