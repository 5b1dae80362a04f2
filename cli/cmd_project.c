/* capplan project: demand per group and year, capacity and gap; backtest. */
#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/plan_cli.h"
#include "data/plan.h"
#include "data/store.h"
#include "data/store_plan.h"

typedef struct ProjectArgs {
    PlanOpts o;
    const char *scenario;
    const char *backtest;
    int json, csv, bench;
} ProjectArgs;

/* What one projection shows: the plan, the scenario's parameters, the
 * measured ones, the result. */
typedef struct View {
    const Plan *p;
    const char *scenario;
    ProjParams *params;
    ProjResult *r;
    StorePlanParam *edits;
    size_t nedits;
    int skipped;
} View;

static const char *const group_keys[] = {"growth", "share", "burst", "buffer"};

/* ---- JSON ---- */

static cJSON *by_class(const double v[MEMCLASS_COUNT])
{
    cJSON *o = cJSON_CreateObject();
    for (int c = 0; c < MEMCLASS_COUNT; c++)
        cJSON_AddNumberToObject(o, profiles_mem_class_name(c), v[c]);
    return o;
}

static cJSON *param_pair(double value, double measured)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "value", value);
    cJSON_AddNumberToObject(o, "measured", measured);
    cJSON_AddBoolToObject(o, "edited", value != measured);
    return o;
}

static void json_years(cJSON *o, const View *v)
{
    cJSON *a = cJSON_AddArrayToObject(o, "years");
    for (int y = 1; y <= v->r->nyears; y++) {
        int64_t f, t;
        char a1[16], a2[16];
        projection_year_span(v->p->model, y, &f, &t);
        plan_cli_date(f, a1, sizeof a1);
        plan_cli_date(t, a2, sizeof a2);
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "year", y);
        cJSON_AddStringToObject(e, "from", a1);
        cJSON_AddStringToObject(e, "to", a2);
        cJSON_AddItemToArray(a, e);
    }
}

static void json_profiles(cJSON *o, const View *v)
{
    cJSON *a = cJSON_AddArrayToObject(o, "profiles");
    for (int i = 0; i < v->p->fit.k; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "id", i + 1);
        cJSON_AddStringToObject(e, "name", v->p->names[i]);
        cJSON_AddItemToObject(e, "gpus", param_pair(v->params->gpus[i], v->p->measured->gpus[i]));
        cJSON_AddItemToObject(e, "mem_gib", param_pair(v->params->mem[i], v->p->measured->mem[i]));
        cJSON_AddStringToObject(e, "mem_class",
                                profiles_mem_class_name(profiles_mem_class(v->params->mem[i])));
        cJSON_AddItemToArray(a, e);
    }
}

static cJSON *group_year(const View *v, const ProjGroupYear *t, int g, int y)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddNumberToObject(e, "year", y);
    cJSON_AddNumberToObject(e, "stay", t->stay);
    cJSON_AddNumberToObject(e, "arrivals", t->arrivals);
    cJSON_AddNumberToObject(e, "target", t->target);
    cJSON_AddNumberToObject(e, "newcomers", t->newcomers);
    cJSON_AddNumberToObject(e, "heads", t->heads);
    cJSON_AddItemToObject(e, "heads_by_profile", cJSON_CreateDoubleArray(t->heads_p, v->p->fit.k));
    cJSON_AddNumberToObject(e, "base", t->base);
    cJSON_AddNumberToObject(e, "bursts", t->bursts);
    cJSON_AddNumberToObject(e, "pool", t->pool);
    cJSON_AddNumberToObject(e, "buffer", v->params->buffer[g]);
    cJSON_AddNumberToObject(e, "demand", t->demand);
    cJSON_AddItemToObject(e, "demand_by_class", by_class(t->demand_c));
    return e;
}

static void json_groups(cJSON *o, const View *v)
{
    const Plan *p = v->p;
    cJSON *a = cJSON_AddArrayToObject(o, "groups");
    const double *meas[] = {p->measured->growth, p->measured->share, p->measured->burst,
                            p->measured->buffer};
    const double *val[] = {v->params->growth, v->params->share, v->params->burst,
                           v->params->buffer};
    for (int g = 0; g < p->ngroups; g++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", p->groups[g]);
        cJSON_AddStringToObject(e, "domain", p->domains[p->group_domain[g]]);
        cJSON_AddNumberToObject(e, "heads_now", projection_heads0(p->model, g));
        cJSON_AddItemToObject(e, "mix",
                              cJSON_CreateDoubleArray(projection_mix(p->model, g), p->fit.k));
        cJSON *pa = cJSON_AddObjectToObject(e, "params");
        for (int k = 0; k < 4; k++)
            cJSON_AddItemToObject(pa, group_keys[k], param_pair(val[k][g], meas[k][g]));
        /* b_p as this group sees it: its own value (a stated need applied to
         * the group) or the profile's */
        cJSON *bp = cJSON_AddArrayToObject(pa, "gpus");
        for (int q = 0; q < p->fit.k; q++)
            cJSON_AddItemToArray(bp, param_pair(projection_gpus_of(v->params, g, q),
                                                p->measured->gpus[q]));
        cJSON *ys = cJSON_AddArrayToObject(e, "years");
        for (int y = 1; y <= v->r->nyears; y++)
            cJSON_AddItemToArray(ys, group_year(v, &v->r->gy[(size_t)g * v->r->nyears + y - 1],
                                                g, y));
        cJSON_AddItemToArray(a, e);
    }
}

static cJSON *totals(const ProjTotals *t, int y, int with_capacity)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddNumberToObject(e, "year", y);
    cJSON_AddNumberToObject(e, "heads", t->heads);
    cJSON_AddNumberToObject(e, "base", t->base);
    cJSON_AddNumberToObject(e, "pool", t->pool);
    cJSON_AddNumberToObject(e, "demand", t->demand);
    cJSON_AddItemToObject(e, "demand_by_class", by_class(t->demand_c));
    if (with_capacity) {
        cJSON_AddNumberToObject(e, "capacity", t->capacity);
        cJSON_AddNumberToObject(e, "gap", t->gap);
        cJSON_AddItemToObject(e, "capacity_by_class", by_class(t->capacity_c));
        cJSON_AddItemToObject(e, "gap_by_class", by_class(t->gap_c));
    }
    return e;
}

static void json_totals(cJSON *o, const View *v)
{
    cJSON *d = cJSON_AddArrayToObject(o, "domains");
    for (int k = 0; k < v->p->ndomains; k++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", v->p->domains[k]);
        cJSON *ys = cJSON_AddArrayToObject(e, "years");
        for (int y = 1; y <= v->r->nyears; y++)
            cJSON_AddItemToArray(ys, totals(&v->r->dom[(size_t)k * v->r->nyears + y - 1], y, 0));
        cJSON_AddItemToArray(d, e);
    }
    cJSON *t = cJSON_AddArrayToObject(o, "total");
    for (int y = 1; y <= v->r->nyears; y++)
        cJSON_AddItemToArray(t, totals(&v->r->total[y - 1], y, 1));
}

static void json_edits(cJSON *o, const View *v)
{
    cJSON *a = cJSON_AddArrayToObject(o, "edits");
    for (size_t i = 0; i < v->nedits; i++) {
        const StorePlanParam *e = &v->edits[i];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "key", e->key);
        cJSON_AddStringToObject(x, "group", e->group);
        cJSON_AddNumberToObject(x, "value", e->value);
        if (!isnan(e->measured))
            cJSON_AddNumberToObject(x, "measured", e->measured);
        else
            cJSON_AddNullToObject(x, "measured");
        cJSON_AddStringToObject(x, "reason", e->reason ? e->reason : "");
        cJSON_AddStringToObject(x, "who", e->who ? e->who : "");
        cJSON_AddNumberToObject(x, "at", (double)e->at);
        cJSON_AddItemToArray(a, x);
    }
    cJSON_AddNumberToObject(o, "edits_skipped", v->skipped);
}

static void print_json(const View *v, FILE *out)
{
    char t0[16];
    plan_cli_date(v->p->win_end, t0, sizeof t0);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "unit", v->p->cpu ? "cpu" : "gpu");
    cJSON_AddStringToObject(o, "scenario", v->scenario ? v->scenario : "base");
    cJSON_AddStringToObject(o, "t0", t0);
    cJSON_AddNumberToObject(o, "institute_growth", v->p->institute_growth);
    cJSON_AddNumberToObject(o, "institute_buffer", v->p->institute_buffer);
    json_years(o, v);
    json_profiles(o, v);
    json_groups(o, v);
    json_totals(o, v);
    json_edits(o, v);
    cli_json_schema(o, "project");
    cli_print_json(o, out);
    cJSON_Delete(o);
}

/* ---- CSV: one table, a row per group, domain or total and year ---- */

static void csv_row(FILE *out, const char *kind, const char *name, const char *domain, int y,
                    const ProjTotals *t, const ProjGroupYear *g)
{
    plan_cli_csv_cell(out, kind);
    fputc(',', out);
    plan_cli_csv_cell(out, name);
    fputc(',', out);
    plan_cli_csv_cell(out, domain);
    fprintf(out, ",%d", y);
    double heads = g ? g->heads : t->heads, base = g ? g->base : t->base;
    double pool = g ? g->pool : t->pool, demand = g ? g->demand : t->demand;
    const double *dc = g ? g->demand_c : t->demand_c;
    double v[] = {heads, base, pool, demand, dc[0], dc[1], dc[2], dc[3], dc[4]};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        fputc(',', out);
        plan_cli_csv_num(out, v[i]);
    }
    for (int c = 0; c < MEMCLASS_COUNT; c++) {
        fputc(',', out);
        if (!g && strcmp(kind, "total") == 0)
            plan_cli_csv_num(out, t->capacity_c[c]);
    }
    for (int c = 0; c < MEMCLASS_COUNT; c++) {
        fputc(',', out);
        if (!g && strcmp(kind, "total") == 0)
            plan_cli_csv_num(out, t->gap_c[c]);
    }
    fputs("\r\n", out);
}

static void print_csv(const View *v, FILE *out)
{
    const Plan *p = v->p;
    int Y = v->r->nyears;
    fputs("kind,name,domain,year,heads,base,pool,demand,demand_24,demand_48,demand_80,"
          "demand_80plus,demand_unknown,capacity_24,capacity_48,capacity_80,capacity_80plus,"
          "capacity_unknown,gap_24,gap_48,gap_80,gap_80plus,gap_unknown\r\n",
          out);
    for (int g = 0; g < p->ngroups; g++)
        for (int y = 1; y <= Y; y++)
            csv_row(out, "group", p->groups[g], p->domains[p->group_domain[g]], y, NULL,
                    &v->r->gy[(size_t)g * Y + y - 1]);
    for (int d = 0; d < p->ndomains; d++)
        for (int y = 1; y <= Y; y++)
            csv_row(out, "domain", p->domains[d], p->domains[d], y,
                    &v->r->dom[(size_t)d * Y + y - 1], NULL);
    for (int y = 1; y <= Y; y++)
        csv_row(out, "total", "", "", y, &v->r->total[y - 1], NULL);
}

/* ---- text ---- */

static void text_header(const View *v, FILE *out)
{
    const Plan *p = v->p;
    char a[16], b[16];
    plan_cli_date(p->win_end, a, sizeof a);
    fprintf(out, "projection from %s, scenario %s: %ss held on average over each year\n", a,
            v->scenario ? v->scenario : "base", plan_cli_unit(p));
    for (int y = 1; y <= v->r->nyears; y++) {
        int64_t f, t;
        projection_year_span(p->model, y, &f, &t);
        plan_cli_date(f, a, sizeof a);
        plan_cli_date(t, b, sizeof b);
        fprintf(out, "%sy%d = %s..%s", y == 1 ? "  " : ", ", y, a, b);
    }
    fprintf(out, "\n  profiles (%ss per member b_p, memory class):", plan_cli_unit(p));
    for (int i = 0; i < p->fit.k; i++)
        fprintf(out, "%s %d: %.2f, %s", i ? ";" : "", i + 1, v->params->gpus[i],
                profiles_mem_class_name(profiles_mem_class(v->params->mem[i])));
    fprintf(out, "\n\n");
}

static void text_groups(const View *v, FILE *out)
{
    const Plan *p = v->p;
    int Y = v->r->nyears;
    char name[64], dom[64];
    fprintf(out, "%-20s %-12s %3s %6s %8s %7s %7s %8s\n", "group", "domain", "yr", "heads",
            "base", "pool", "buffer", "demand");
    for (int g = 0; g < p->ngroups; g++) {
        cli_sanitize(name, sizeof name, p->groups[g]);
        cli_sanitize(dom, sizeof dom, p->domains[p->group_domain[g]]);
        for (int y = 1; y <= Y; y++) {
            const ProjGroupYear *t = &v->r->gy[(size_t)g * Y + y - 1];
            fprintf(out, "%-20.20s %-12.12s %3d %6.1f %8.2f %7.2f %6.0f%% %8.2f\n",
                    y == 1 ? name : "", y == 1 ? dom : "", y, t->heads, t->base, t->pool,
                    100 * v->params->buffer[g], t->demand);
        }
    }
}

static void text_totals(const View *v, FILE *out)
{
    const Plan *p = v->p;
    int Y = v->r->nyears;
    char dom[64];
    fprintf(out, "\nby domain%*s", 25, "");
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
    fprintf(out, "\nby GPU memory class (GiB)   demand / capacity / gap\n");
    for (int c = 0; c < MEMCLASS_COUNT; c++) {
        fprintf(out, "  %-8s", profiles_mem_class_name(c));
        for (int y = 1; y <= Y; y++) {
            const ProjTotals *t = &v->r->total[y - 1];
            fprintf(out, "  y%d %7.1f / %6.1f / %+7.1f", y, t->demand_c[c], t->capacity_c[c],
                    t->gap_c[c]);
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

static void backtest_json(const PlanBacktest *b, FILE *out)
{
    char cut[16];
    plan_cli_date(b->cut, cut, sizeof cut);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "cut", cut);
    cJSON_AddStringToObject(o, "unit", b->cpu ? "cpu" : "gpu");
    cJSON_AddNumberToObject(o, "scored_months", b->scored_months);
    cJSON_AddNumberToObject(o, "profiles", b->profiles);
    cJSON_AddNumberToObject(o, "users", b->users);
    cJSON *w = cJSON_AddObjectToObject(o, "wape");
    const char *wk[] = {"naive", "base", "demand"};
    const double wv[] = {b->score.wape_naive, b->score.wape_base, b->score.wape_demand};
    for (int i = 0; i < 3; i++) {
        if (wv[i] < 0)
            cJSON_AddNullToObject(w, wk[i]);
        else
            cJSON_AddNumberToObject(w, wk[i], wv[i]);
    }
    cJSON *t = cJSON_AddObjectToObject(o, "total");
    cJSON_AddNumberToObject(t, "actual", b->score.after);
    cJSON_AddNumberToObject(t, "naive", b->score.naive);
    cJSON_AddNumberToObject(t, "base", b->score.base);
    cJSON_AddNumberToObject(t, "demand", b->score.demand);
    cJSON *a = cJSON_AddArrayToObject(o, "groups");
    for (int g = 0; g < b->ngroups; g++) {
        const BtGroup *x = &b->g[g];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", b->groups[g]);
        cJSON_AddNumberToObject(e, "before", x->before);
        cJSON_AddNumberToObject(e, "actual", x->after);
        cJSON_AddNumberToObject(e, "growth", x->growth);
        cJSON_AddNumberToObject(e, "naive", x->naive);
        cJSON_AddNumberToObject(e, "base", x->model_base);
        cJSON_AddNumberToObject(e, "demand", x->model_demand);
        cJSON_AddNumberToObject(e, "err_naive", x->err_naive);
        cJSON_AddNumberToObject(e, "err_base", x->err_base);
        cJSON_AddNumberToObject(e, "err_demand", x->err_demand);
        cJSON_AddItemToArray(a, e);
    }
    cli_json_schema(o, "project-backtest");
    cli_print_json(o, out);
    cJSON_Delete(o);
}

static void backtest_text(const PlanBacktest *b, FILE *out)
{
    char cut[16], name[64];
    const char *u = b->cpu ? "CPU" : "GPU";
    plan_cli_date(b->cut, cut, sizeof cut);
    fprintf(out, "backtest at %s: fitted on the 12 months before (%d users, %d profiles), "
                 "scored on the %.1f months after\n",
            cut, b->users, b->profiles, b->scored_months);
    fprintf(out, "%ss held on average; naive = the group's last 12 months x (1 + growth)\n", u);
    if (b->cpu)
        fprintf(out, "no job in this database holds a GPU: CPU-hours stand in for GPU-hours\n");
    fprintf(out, "\n%-20s %9s %9s %9s %9s %9s\n", "group", "before", "actual", "naive", "model",
            "demand");
    for (int g = 0; g < b->ngroups; g++) {
        const BtGroup *x = &b->g[g];
        cli_sanitize(name, sizeof name, b->groups[g]);
        fprintf(out, "%-20.20s %9.2f %9.2f %9.2f %9.2f %9.2f\n", name, x->before, x->after,
                x->naive, x->model_base, x->model_demand);
    }
    fprintf(out, "%-20s %9s %9.2f %9.2f %9.2f %9.2f\n", "total", "", b->score.after,
            b->score.naive, b->score.base, b->score.demand);
    if (b->score.wape_naive < 0)
        fprintf(out, "\nerror: none to compute (nothing was used after the cut)\n");
    else
        fprintf(out,
                "\nerror (WAPE: sum |projected - actual| / sum actual): naive %.1f %%, model "
                "%.1f %% (base), %.1f %% (demand with pool and buffer: headroom by design)\n",
                100 * b->score.wape_naive, 100 * b->score.wape_base, 100 * b->score.wape_demand);
    fprintf(out, "use is capped by capacity: long waits mark demand that went unmet\n");
}

static int run_backtest(Store *st, const ProjectArgs *a)
{
    PlanOpts o = a->o;
    if (plan_cli_parse_date(a->backtest, &o.cut) < 0)
        return cli_error("--backtest: bad date '%s' (YYYY-MM-DD or YYYY-MM)", a->backtest);
    PlanBacktest b;
    CpErr err;
    if (plan_backtest(st, &o, &b, &err) < 0)
        return cli_error("%s", err.msg);
    if (a->json)
        backtest_json(&b, stdout);
    else
        backtest_text(&b, stdout);
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
        else if (strcmp(argv[i], "--scenario") == 0 && i + 1 < argc)
            a->scenario = argv[++i];
        else if (strcmp(argv[i], "--backtest") == 0 && i + 1 < argc)
            a->backtest = argv[++i];
        else if (strcmp(argv[i], "--years") == 0 && i + 1 < argc) {
            char *end;
            long y = strtol(argv[++i], &end, 10);
            if (*end || y < 1 || y > PROJ_MAX_YEARS) {
                fprintf(stderr, "capplan: project: --years '%s': expected 1..%d\n", argv[i],
                        PROJ_MAX_YEARS);
                return -1;
            }
            a->o.years = (int)y;
        } else
            return -1;
    }
    return a->json && a->csv ? -1 : 0;
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
    View v = {NULL, a->scenario, NULL, NULL, NULL, 0, 0};
    Plan *p = plan_build(st, &a->o, &err);
    int rc = 1;
    if (!p)
        return cli_error("%s", err.msg);
    v.p = p;
    if (!p->reused && p->nusers > 0 && plan_save(st, p, plan_cli_who(), &err) < 0) {
        char msg[CP_ERR_MAX];
        cli_sanitize(msg, sizeof msg, err.msg);
        fprintf(stderr, "capplan: note: profiles not saved: %s\n", msg);
    }
    if (plan_params(st, p, a->scenario, &v.params, &v.skipped, &err) < 0 ||
        (a->scenario && strcmp(a->scenario, "base") != 0 &&
         store_plan_params(st, a->scenario, &v.edits, &v.nedits, &err) < 0)) {
        cli_error("%s", err.msg);
        goto out;
    }
    v.r = projection_result_new(p->model);
    projection_run(p->model, v.params, v.r);
    if (a->json)
        print_json(&v, stdout);
    else if (a->csv)
        print_csv(&v, stdout);
    else
        print_text(&v, stdout);
    if (a->bench)
        bench(&v);
    rc = 0;
out:
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
    if (a.backtest)
        return run_backtest(st, &a);
    if (check_scenario(st, a.scenario))
        return 1;
    return project(st, &a);
}

const CmdEntry cmd_project = {
    "project",
    "capplan project [--scenario S] [--years N] [--json|--csv] | --backtest DATE",
    "\nGPU demand per group and year from the compute profiles (DESIGN.md, Core model):\n"
    "heads by profile (roster end dates, growth r_g, newcomers with the group's mix),\n"
    "base = sum of heads x b_p, pool = ceil(s_g x heads) x h_g, demand = (base + pool) x\n"
    "(1 + buffer), split by GPU memory class (<=24, <=48, <=80, >80 GiB, unknown), summed\n"
    "by domain; capacity from the inventory x relative speed; gap = demand - capacity.\n"
    "Every figure is the mean number of GPUs held over the year. Uses the profiles of\n"
    "the last `capplan profile` run, recomputed when data was imported since.\n\n"
    "options:\n"
    "  --scenario S      apply scenario S's edits (default: base, the measured values)\n"
    "  --years N         horizon in years (default 3)\n"
    "  --json            every term per group and year, parameters measured and edited\n"
    "  --csv             one table: a row per group, domain and total and year\n"
    "  --window, --roles, --min-jobs, --k   as for capplan profile\n"
    "  --backtest DATE   fit on the 12 months before DATE (first of a month), project 12\n"
    "                    months, compare with the use recorded after it, per group and in\n"
    "                    total (WAPE), beside the naive projection (last 12 months x\n"
    "                    (1 + growth)). Without GPUs in the database, CPU-hours stand in.\n"
    "  --bench           time a recompute after one parameter change\n",
    exec_project};
