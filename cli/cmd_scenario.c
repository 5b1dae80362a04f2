/* capplan scenario: named sets of edited projection parameters. */
#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/plan_cli.h"
#include "cli/textcol.h"
#include "data/plan/plan.h"
#include "data/store/store.h"
#include "data/store/store_plan.h"

/* ---- list, new, rm, undo ---- */

static int scen_list(Store *st, int json)
{
    StorePlanScenario *s;
    size_t n;
    CpErr err;
    if (store_plan_scenarios(st, &s, &n, &err) < 0)
        return cli_error("%s", err.msg);
    cJSON *o = json ? cJSON_CreateObject() : NULL, *a = NULL;
    if (json) {
        cli_json_schema(o, "scenario-list");
        a = cJSON_AddArrayToObject(o, "scenarios");
    } else {
        printf("%-24s %-16s %6s  %-10s %s\n", "scenario", "from", "edits", "created", "by");
    }
    for (size_t i = 0; i < n; i++) {
        char date[16], name[64], base[64], who[64];
        plan_cli_date(s[i].created_at, date, sizeof date);
        if (json) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddStringToObject(e, "name", s[i].name);
            cJSON_AddStringToObject(e, "from", s[i].base ? s[i].base : "base");
            cJSON_AddNumberToObject(e, "edits", s[i].nparams);
            cJSON_AddStringToObject(e, "created", date);
            cJSON_AddStringToObject(e, "who", s[i].who ? s[i].who : "");
            cJSON_AddItemToArray(a, e);
            continue;
        }
        cli_sanitize(name, sizeof name, s[i].name);
        cli_sanitize(base, sizeof base, s[i].base ? s[i].base : "base");
        cli_sanitize(who, sizeof who, s[i].who ? s[i].who : "");
        printf("%-24s %-16s %6d  %-10s %s\n", name, base, s[i].nparams, date, who);
    }
    if (json) {
        cli_print_json(o, stdout);
        cJSON_Delete(o);
    } else if (n == 0) {
        printf("(no scenario yet: capplan scenario new NAME; \"base\" is the measured values)\n");
    }
    store_plan_scenarios_free(s, n);
    return 0;
}

static int scen_new(Store *st, const char *name, const char *from)
{
    CpErr err;
    if (strcmp(name, "base") == 0)
        return cli_error("'base' is the measured values and cannot be created");
    if (from && strcmp(from, "base") == 0)
        from = NULL;
    if (store_plan_scenario_new(st, name, from, plan_cli_who(), &err) < 0)
        return cli_error("%s", err.msg);
    printf("scenario %s created%s%s\n", name, from ? " from " : "", from ? from : "");
    return 0;
}

static int scen_rm(Store *st, const char *name)
{
    CpErr err;
    if (store_plan_scenario_rm(st, name, &err) < 0)
        return cli_error("%s", err.msg);
    printf("scenario %s removed\n", name);
    return 0;
}

static int scen_undo(Store *st, const char *name)
{
    CpErr err;
    int undone;
    if (store_plan_undo(st, name, &undone, &err) < 0)
        return cli_error("%s", err.msg);
    printf(undone ? "last edit of %s undone\n" : "nothing to undo in %s\n", name);
    return 0;
}

/* ---- set ---- */

typedef struct SetArgs {
    const char *scenario, *reason, *group;
    char **pairs;
    int npairs;
} SetArgs;

/* The measured value of key for group (NAN when it depends on the group:
 * a group key for every group). */
static double measured_of(const Plan *p, const char *key, const char *group)
{
    double v;
    int g = group && group[0] ? plan_group_index(p, group) : -1;
    if (projection_key_is_group(key) && g < 0)
        return NAN;
    if (projection_param_get(p->model, p->measured, key, g, &v, NULL) < 0)
        return NAN;
    return v;
}

/* One KEY=VALUE checked against the plan without saving: its key into
 * key, its value into *v (*measured set for 'measured'). Returns 0, or 1
 * after its one-line error. */
static int check_one(const Plan *p, const SetArgs *a, const char *pair, char key[64], double *v,
                     int *measured)
{
    CpErr err;
    const char *eq = strchr(pair, '=');
    if (!eq || eq == pair)
        return cli_error("'%s': expected KEY=VALUE", pair);
    snprintf(key, 64, "%.*s", (int)(eq - pair), pair);
    const char *val = eq + 1;
    *measured = strcmp(val, "measured") == 0;
    if (*measured)
        return 0;
    char *end;
    *v = strtod(val, &end);
    if (!*val || *end)
        return cli_error("%s: bad value '%s' (a number, or 'measured')", key, val);
    ProjParams *tmp = projection_params_copy(p->measured);
    int rc = plan_apply(p, tmp, key, a->group ? a->group : "", NULL, *v, &err);
    projection_params_free(tmp);
    if (rc < 0)
        return cli_error("%s", err.msg);
    if (rc == 0) /* plan_apply found nothing it applies to */
        return cli_error("%s: no such parameter in the plan (profiles 1..%d: capplan profile)",
                         key, p->fit.k);
    return 0;
}

static int save_one(Store *st, const Plan *p, const SetArgs *a, const char *key, double v,
                    int measured)
{
    CpErr err;
    const char *of = a->group ? " of " : "", *g = a->group ? a->group : "";
    if (measured) {
        if (store_plan_param_unset(st, a->scenario, key, a->group, a->reason, plan_cli_who(),
                                   &err) < 0)
            return cli_error("%s", err.msg);
        printf("%s%s%s back to the measured value\n", key, of, g);
        return 0;
    }
    double m = measured_of(p, key, a->group);
    if (store_plan_param_set(st, a->scenario, key, a->group, v, m, plan_key_label(p, key),
                             a->reason, plan_cli_who(), &err) < 0)
        return cli_error("%s", err.msg);
    printf("%s%s%s = %g", key, of, g, v);
    if (!isnan(m))
        printf(" (measured %g)", m);
    printf("\n");
    return 0;
}

/* All or nothing (#29): every pair is checked before any is saved; one
 * bad pair (each is named) saves none. */
static int scen_set(Store *st, const SetArgs *a)
{
    CpErr err;
    int e = store_plan_scenario_exists(st, a->scenario, &err);
    if (e <= 0)
        return e < 0 ? cli_error("%s", err.msg)
                     : cli_error("no scenario '%s' (capplan scenario new %s)", a->scenario,
                                 a->scenario);
    PlanOpts o;
    memset(&o, 0, sizeof o);
    Plan *p = plan_build(st, &o, &err);
    if (!p)
        return cli_error("%s", err.msg);
    int rc = 0, bad = 0;
    char (*keys)[64] = xcalloc((size_t)a->npairs + 1, sizeof *keys);
    double *vals = xcalloc((size_t)a->npairs + 1, sizeof *vals);
    int *meas = xcalloc((size_t)a->npairs + 1, sizeof *meas);
    if (a->group && plan_group_index(p, a->group) < 0)
        rc = cli_error("no group '%s' in the plan", a->group);
    for (int i = 0; i < a->npairs && rc == 0; i++)
        bad += check_one(p, a, a->pairs[i], keys[i], &vals[i], &meas[i]) != 0;
    if (rc == 0 && bad)
        rc = cli_error("scenario %s: nothing saved: %d of %d value%s refused (above)", a->scenario,
                       bad, a->npairs, a->npairs == 1 ? "" : "s");
    for (int i = 0; i < a->npairs && rc == 0; i++)
        rc = save_one(st, p, a, keys[i], vals[i], meas[i]);
    free(keys);
    free(vals);
    free(meas);
    plan_free(p);
    return rc;
}

/* ---- diff ---- */

/* One changed parameter between A and B. */
typedef struct Change {
    char *key, *group, *label, *reason, *who; /* owned */
    int in_a, in_b;
    double a, b;                 /* edited values (when in_a / in_b) */
    double effect[PROJ_MAX_YEARS]; /* demand change when only this moves from A to B */
} Change;

/* Put (key, group) in params back to the measured value. */
static void reset_param(const Plan *p, ProjParams *params, const char *key, const char *group)
{
    int g = group[0] ? plan_group_index(p, group) : -1;
    if (projection_key_is_group(key)) {
        for (int i = 0; i < p->ngroups; i++) {
            if (g >= 0 && i != g)
                continue;
            double v;
            projection_param_get(p->model, p->measured, key, i, &v, NULL);
            projection_param_set(p->model, params, key, i, v, NULL);
        }
        return;
    }
    int pg = projection_key_takes_group(key) ? g : -1; /* gpus.N of one group */
    double v;
    if (projection_param_get(p->model, p->measured, key, pg, &v, NULL) == 0)
        projection_param_set(p->model, params, key, pg, v, NULL);
}

static void demand_of(const Plan *p, const ProjParams *params, ProjResult *r, double *out)
{
    projection_run(p->model, params, r);
    for (int y = 0; y < r->nyears; y++)
        out[y] = r->total[y].demand;
}

/* The union of A's and B's edits, in key order. */
static Change *changes_of(const StorePlanParam *pa, size_t na, const StorePlanParam *pb,
                          size_t nb, int *n)
{
    Change *c = xcalloc(na + nb + 1, sizeof *c);
    size_t i = 0, j = 0;
    *n = 0;
    while (i < na || j < nb) {
        int cmp = i >= na ? 1 : j >= nb ? -1 : strcmp(pa[i].key, pb[j].key);
        if (cmp == 0)
            cmp = strcmp(pa[i].group, pb[j].group);
        Change *x = &c[(*n)++];
        const StorePlanParam *src = cmp <= 0 ? &pa[i] : &pb[j];
        const StorePlanParam *why = cmp >= 0 ? &pb[j] : &pa[i]; /* B's reason when B edits */
        x->in_a = cmp <= 0;
        x->in_b = cmp >= 0;
        x->a = x->in_a ? pa[i].value : 0;
        x->b = x->in_b ? pb[j].value : 0;
        i += x->in_a;
        j += x->in_b;
        if (x->in_a && x->in_b && x->a == x->b) {
            (*n)--;
            continue;
        }
        x->key = xstrdup(src->key);
        x->group = xstrdup(src->group);
        x->label = why->label ? xstrdup(why->label) : NULL;
        x->reason = why->reason ? xstrdup(why->reason) : NULL;
        x->who = why->who ? xstrdup(why->who) : NULL;
    }
    return c;
}

typedef struct Diff {
    const char *a, *b;
    Change *c;
    int n;
    double da[PROJ_MAX_YEARS], db[PROJ_MAX_YEARS];
    int years;
} Diff;

static int diff_compute(Store *st, const Plan *p, Diff *d, CpErr *err)
{
    StorePlanParam *pa = NULL, *pb = NULL;
    size_t na = 0, nb = 0;
    ProjParams *A = NULL, *B = NULL;
    int rc = -1;
    if ((strcmp(d->a, "base") != 0 && store_plan_params(st, d->a, &pa, &na, err) < 0) ||
        (strcmp(d->b, "base") != 0 && store_plan_params(st, d->b, &pb, &nb, err) < 0) ||
        plan_params(st, p, d->a, &A, NULL, err) < 0 || plan_params(st, p, d->b, &B, NULL, err) < 0)
        goto out;
    ProjResult *r = projection_result_new(p->model);
    d->years = r->nyears;
    demand_of(p, A, r, d->da);
    demand_of(p, B, r, d->db);
    d->c = changes_of(pa, na, pb, nb, &d->n);
    for (int i = 0; i < d->n; i++) {
        Change *x = &d->c[i];
        ProjParams *t = projection_params_copy(A);
        if (x->in_b)
            plan_apply(p, t, x->key, x->group, x->label, x->b, NULL);
        else
            reset_param(p, t, x->key, x->group);
        double v[PROJ_MAX_YEARS];
        demand_of(p, t, r, v);
        for (int y = 0; y < d->years; y++)
            x->effect[y] = v[y] - d->da[y];
        projection_params_free(t);
    }
    projection_result_free(r);
    rc = 0;
out:
    store_plan_params_free(pa, na);
    store_plan_params_free(pb, nb);
    projection_params_free(A);
    projection_params_free(B);
    return rc;
}

static void diff_free(Diff *d)
{
    for (int i = 0; i < d->n; i++) {
        free(d->c[i].key);
        free(d->c[i].group);
        free(d->c[i].label);
        free(d->c[i].reason);
        free(d->c[i].who);
    }
    free(d->c);
}

static double measured_for(const Plan *p, const Change *x)
{
    return measured_of(p, x->key, x->group);
}

static void diff_json(const Plan *p, const Diff *d)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "a", d->a);
    cJSON_AddStringToObject(o, "b", d->b);
    cJSON_AddItemToObject(o, "demand_a", cJSON_CreateDoubleArray(d->da, d->years));
    cJSON_AddItemToObject(o, "demand_b", cJSON_CreateDoubleArray(d->db, d->years));
    cJSON *a = cJSON_AddArrayToObject(o, "changes");
    for (int i = 0; i < d->n; i++) {
        const Change *x = &d->c[i];
        cJSON *e = cJSON_CreateObject();
        double m = measured_for(p, x);
        cJSON_AddStringToObject(e, "key", x->key);
        cJSON_AddStringToObject(e, "group", x->group);
        if (x->label)
            cJSON_AddStringToObject(e, "profile", x->label);
        if (isnan(m))
            cJSON_AddNullToObject(e, "measured");
        else
            cJSON_AddNumberToObject(e, "measured", m);
        if (x->in_a)
            cJSON_AddNumberToObject(e, "value_a", x->a);
        else
            cJSON_AddNullToObject(e, "value_a");
        if (x->in_b)
            cJSON_AddNumberToObject(e, "value_b", x->b);
        else
            cJSON_AddNullToObject(e, "value_b");
        cJSON_AddStringToObject(e, "reason", x->reason ? x->reason : "");
        cJSON_AddStringToObject(e, "who", x->who ? x->who : "");
        cJSON_AddItemToObject(e, "effect", cJSON_CreateDoubleArray(x->effect, d->years));
        cJSON_AddItemToArray(a, e);
    }
    cli_json_schema(o, "scenario-diff");
    cli_print_json(o, stdout);
    cJSON_Delete(o);
}

static void value_text(char *buf, size_t n, int edited, double v, double measured)
{
    if (edited)
        snprintf(buf, n, "%g", v);
    else if (isnan(measured))
        snprintf(buf, n, "measured");
    else
        snprintf(buf, n, "%g (measured)", measured);
}

enum { DIFF_CELL = 512 };

/* The text table's row of change x: cells written into cell (4 or 5 of
 * DIFF_CELL bytes), pointed to by text, with the reason (borrowed from x)
 * last. */
static void diff_row(const Plan *p, const Diff *d, const Change *x, char (*cell)[DIFF_CELL],
                    const char **text)
{
    double m = measured_for(p, x);
    int k = 0;
    snprintf(cell[k++], DIFF_CELL, "%s%s%s", x->key, x->group[0] ? " @" : "", x->group);
    value_text(cell[k++], DIFF_CELL, x->in_a, x->a, m);
    value_text(cell[k++], DIFF_CELL, x->in_b, x->b, m);
    snprintf(cell[k++], DIFF_CELL, "%+.2f", x->effect[0]);
    if (d->years > 1)
        snprintf(cell[k++], DIFF_CELL, "%+.2f", x->effect[d->years - 1]);
    for (int c = 0; c < k; c++)
        text[c] = cell[c];
    text[k] = x->reason ? x->reason : "";
}

/* Every change as a table whose columns fit their content: the parameter,
 * its value in A and in B, its effect in the first year and (when the
 * projection has more) the last, the reason. */
static void diff_table(const Plan *p, const Diff *d)
{
    const char *unit = p->cpu ? "CPUs" : "GPU-eq";
    char e1[48], elast[48];
    snprintf(e1, sizeof e1, "effect y1 (%s)", unit);
    snprintf(elast, sizeof elast, "effect y%d (%s)", d->years, unit);
    TextCol cols[6] = {{"parameter", 0}, {d->a, 0}, {d->b, 0}, {e1, 1}, {elast, 1}, {"reason", 0}};
    int ncols = d->years > 1 ? 6 : 5;
    if (ncols == 5)
        cols[4] = cols[5];
    char(*cell)[DIFF_CELL] = xcalloc((size_t)d->n * 5, sizeof *cell);
    const char **text = xcalloc((size_t)d->n * (size_t)ncols, sizeof *text);
    for (int i = 0; i < d->n; i++)
        diff_row(p, d, &d->c[i], cell + (size_t)i * 5, text + (size_t)i * (size_t)ncols);
    textcol_table(stdout, cols, ncols, text, d->n);
    free(text);
    free(cell);
}

static void diff_text(const Plan *p, const Diff *d)
{
    int Y = d->years;
    const char *unit = p->cpu ? "CPUs" : "GPU-eq";
    printf("%s -> %s: total need (%s)", d->a, d->b, unit);
    for (int y = 0; y < Y; y++)
        printf("  y%d %.1f -> %.1f (%+.1f)", y + 1, d->da[y], d->db[y], d->db[y] - d->da[y]);
    printf("\n");
    if (d->n == 0) {
        printf("no parameter differs\n");
        return;
    }
    printf("\n");
    diff_table(p, d);
    printf("\n(effect: change in total need, %s, when only that parameter moves from %s to "
           "%s;\n a purchase changes capacity, not need)\n",
           unit, d->a, d->b);
}

static int scen_diff(Store *st, const char *a, const char *b, int json)
{
    CpErr err;
    const char *names[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        int e = strcmp(names[i], "base") == 0 ? 1 : store_plan_scenario_exists(st, names[i], &err);
        if (e < 0)
            return cli_error("%s", err.msg);
        if (e == 0)
            return cli_error("no scenario '%s'", names[i]);
    }
    PlanOpts o;
    memset(&o, 0, sizeof o);
    Plan *p = plan_build(st, &o, &err);
    if (!p)
        return cli_error("%s", err.msg);
    Diff d;
    memset(&d, 0, sizeof d);
    d.a = a;
    d.b = b;
    int rc = 0;
    if (diff_compute(st, p, &d, &err) < 0)
        rc = cli_error("%s", err.msg);
    else if (json)
        diff_json(p, &d);
    else
        diff_text(p, &d);
    diff_free(&d);
    plan_free(p);
    return rc;
}

/* ---- dispatch ---- */

static int exec_set(CliCtx *ctx, int argc, char **argv)
{
    SetArgs a = {NULL, NULL, NULL, NULL, 0};
    char **pairs = xcalloc((size_t)argc, sizeof *pairs);
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--reason") == 0 && i + 1 < argc)
            a.reason = argv[++i];
        else if (strcmp(argv[i], "--group") == 0 && i + 1 < argc)
            a.group = argv[++i];
        else if (!a.scenario)
            a.scenario = argv[i];
        else
            pairs[a.npairs++] = argv[i];
    }
    a.pairs = pairs;
    int rc;
    if (!a.scenario || a.npairs == 0)
        rc = cli_usage(&cmd_scenario);
    else if (strcmp(a.scenario, "base") == 0)
        rc = cli_error("'base' is the measured values: create a scenario to edit");
    else {
        Store *st = cli_store(ctx);
        rc = st ? scen_set(st, &a) : 1;
    }
    free(pairs);
    return rc;
}

static int exec_scenario(CliCtx *ctx, int argc, char **argv)
{
    if (cli_wants_help(&cmd_scenario, argc, argv))
        return 0;
    if (argc < 2)
        return cli_usage(&cmd_scenario);
    const char *sub = argv[1];
    if (strcmp(sub, "set") == 0)
        return exec_set(ctx, argc, argv);
    static const char *const subs[] = {"list", "new", "diff", "rm", "undo"};
    size_t known = 0;
    while (known < sizeof subs / sizeof subs[0] && strcmp(sub, subs[known]) != 0)
        known++;
    if (known == sizeof subs / sizeof subs[0] && sub[0] != '-') {
        cli_error("scenario: unknown subcommand '%s' (list, new, set, diff, rm or undo)", sub);
        return cli_usage(&cmd_scenario);
    }
    int json = argc > 2 && strcmp(argv[argc - 1], "--json") == 0;
    int n = argc - json;
    if (json && strcmp(sub, "list") != 0 && strcmp(sub, "diff") != 0) {
        cli_error("scenario %s: no --json output (list and diff have one)", sub);
        return cli_usage(&cmd_scenario);
    }
    const char *from = NULL;
    if (strcmp(sub, "new") == 0 && n == 5 && strcmp(argv[3], "--from") == 0)
        from = argv[4];
    else if (strcmp(sub, "list") == 0 ? n != 2
             : strcmp(sub, "new") == 0 || strcmp(sub, "rm") == 0 || strcmp(sub, "undo") == 0
                 ? n != 3
             : strcmp(sub, "diff") == 0 ? n != 4
                                        : 1)
        return cli_usage(&cmd_scenario);
    Store *st = cli_store(ctx);
    if (!st)
        return 1;
    if (strcmp(sub, "list") == 0)
        return scen_list(st, json);
    if (strcmp(sub, "new") == 0)
        return scen_new(st, argv[2], from);
    if (strcmp(sub, "rm") == 0)
        return scen_rm(st, argv[2]);
    if (strcmp(sub, "undo") == 0)
        return scen_undo(st, argv[2]);
    return scen_diff(st, argv[2], argv[3], json);
}

const CmdEntry cmd_scenario = {
    "scenario",
    "capplan scenario list | new S [--from BASE] | set S KEY=VALUE... [--reason TEXT] "
    "[--group G] | diff A B | rm S | undo S",
    "\nScenarios are named sets of edits to the projection's parameters, kept in the\n"
    "database with who made each edit, why and when, and the measured value beside it.\n"
    "\"base\" is the measured values (no edits).\n\n"
    "  list [--json]           the scenarios and how many edits each holds\n"
    "  new S [--from BASE]     a new scenario, empty or a copy of BASE's edits\n"
    "  set S KEY=VALUE...      edit parameters; VALUE 'measured' drops the edit\n"
    "      --group G           group parameters for group G only (default: every group)\n"
    "      --reason TEXT       why (shown by diff and in the report)\n"
    "  diff A B [--json]       every parameter that differs, its reason, and its effect on\n"
    "                          total need (only that parameter moved from A to B)\n"
    "  rm S                    remove S and its history\n"
    "  undo S                  take back S's latest edit\n\n"
    "keys:\n"
    "  growth    r_g, the group's head growth a year (0.08 = 8 %)\n"
    "  pool      the group's exploration/HPO pool, GPU-eq\n"
    "  buffer    on top of expected use + pool (0.1 = 10 %)\n"
    "  intensity the institute's use per member trend a year (0.05 = 5 %)\n"
    "  halflife  months of the members' own rates' weighting: 1, 3, 6 or 12\n"
    "  gpus.N    GPU-eq per member of profile N (replaces their own rates)\n"
    "  mem.N     GPU memory (GiB) of profile N's members: sets their memory class\n"
    "  purchase.MODEL.yK   N GPUs of an inventory model (e.g. purchase.H100.y1=16)\n"
    "            bought for year K and after\n"
    "model v1's keys share, burst and purchase.CLASS.yK are refused, naming the new key\n",
    exec_scenario};
