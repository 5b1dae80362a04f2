/* project_backtest: `capplan project --backtest` printed (project_backtest.h). */
#include "cli/project_backtest.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/plan_cli.h"

static void backtest_json(const PlanBacktest *b, FILE *out)
{
    char d1[16], d2[16];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "unit", b->cpu ? "CPUs" : "GPU-eq");
    cJSON_AddStringToObject(o, "reference_model", b->ref_model);
    cJSON *cs = cJSON_AddArrayToObject(o, "cuts");
    for (int i = 0; i < b->ncuts; i++) {
        const PlanBtCut *k = &b->cuts[i];
        cJSON *e = cJSON_CreateObject();
        plan_cli_date(k->cut, d1, sizeof d1);
        plan_cli_date(k->until, d2, sizeof d2);
        cJSON_AddStringToObject(e, "cut", d1);
        cJSON_AddStringToObject(e, "until", d2);
        cJSON_AddNumberToObject(e, "halflife", k->halflife);
        cJSON_AddNumberToObject(e, "wape_model", k->wape_model);
        cJSON_AddNumberToObject(e, "wape_naive", k->wape_naive);
        cJSON_AddNumberToObject(e, "actual", k->actual);
        cJSON_AddNumberToObject(e, "model", k->model);
        cJSON_AddNumberToObject(e, "naive", k->naive);
        cJSON_AddNumberToObject(e, "err_model", k->err_model);
        cJSON_AddNumberToObject(e, "err_naive", k->err_naive);
        char key[32], name[96];
        fc_cand_key(k->cand, key, sizeof key);
        fc_cand_name(k->cand, name, sizeof name);
        cJSON_AddStringToObject(e, "forecaster", key);
        cJSON_AddStringToObject(e, "forecaster_name", name);
        cJSON_AddNumberToObject(e, "record_cuts", k->nrec);
        cJSON_AddBoolToObject(e, "set_apart", k->apart);
        cJSON *bw = cJSON_AddObjectToObject(e, "wape_by_forecaster");
        cJSON *be = cJSON_AddObjectToObject(e, "total_error_by_forecaster");
        for (int c = 0; c < FC_NCAND; c++) {
            char ck[32];
            if (k->cand_wape[c] == 0 && k->cand_err[c] == 0)
                continue;
            fc_cand_key(c, ck, sizeof ck);
            cJSON_AddNumberToObject(bw, ck, k->cand_wape[c]);
            cJSON_AddNumberToObject(be, ck, k->cand_err[c]);
        }
        if (k->calibrated) {
            cJSON *rg = cJSON_AddObjectToObject(e, "range");
            cJSON_AddNumberToObject(rg, "p10", k->lo);
            cJSON_AddNumberToObject(rg, "p90", k->hi);
            cJSON_AddBoolToObject(e, "covered", k->cover_total);
            cJSON_AddNumberToObject(e, "groups_covered", k->cover_groups);
        } else
            cJSON_AddNullToObject(e, "range");
        cJSON *gm = cJSON_AddObjectToObject(e, "groups"); /* groups with a forecast or use */
        for (int g = 0; g < b->ngroups; g++) {
            size_t at = (size_t)i * b->ngroups + g;
            if (b->cut_model[at] == 0 && b->cut_actual[at] == 0 && b->cut_naive[at] == 0)
                continue;
            cJSON *x = cJSON_AddObjectToObject(gm, b->groups[g]);
            cJSON_AddNumberToObject(x, "model", b->cut_model[at]);
            cJSON_AddNumberToObject(x, "naive", b->cut_naive[at]);
            cJSON_AddNumberToObject(x, "actual", b->cut_actual[at]);
        }
        cJSON_AddItemToArray(cs, e);
    }
    cJSON *fa = cJSON_AddArrayToObject(o, "forecasters"); /* issue 28 */
    for (int k = 0; k <= FC_NCAND; k++) {
        const FcRec *r = &b->rec[k];
        char key[32], name[96];
        if (r->n == 0)
            continue;
        cJSON *e = cJSON_CreateObject();
        if (k < FC_NCAND) {
            fc_cand_key(k, key, sizeof key);
            fc_cand_name(k, name, sizeof name);
        } else {
            snprintf(key, sizeof key, "chosen");
            snprintf(name, sizeof name, "chosen at each cut (what users got)");
        }
        cJSON_AddStringToObject(e, "key", key);
        cJSON_AddStringToObject(e, "name", name);
        cJSON_AddNumberToObject(e, "cuts", r->n);
        cJSON_AddNumberToObject(e, "wape", r->wape);
        cJSON_AddNumberToObject(e, "abs_total_error", r->mae);
        cJSON_AddNumberToObject(e, "bias", r->bias);
        cJSON_AddNumberToObject(e, "covered_cuts", r->cover);
        cJSON_AddNumberToObject(e, "calibrated_cuts", r->ncal);
        cJSON_AddNumberToObject(e, "groups_covered", r->cover_groups);
        cJSON_AddItemToArray(fa, e);
    }
    char fl[256], key[32];
    cJSON *ch = cJSON_AddObjectToObject(o, "forecaster"); /* what `project` uses now */
    fc_cand_key(b->choice.cand, key, sizeof key);
    cJSON_AddStringToObject(ch, "key", key);
    cJSON_AddNumberToObject(ch, "cuts", b->choice.nrec);
    cJSON_AddStringToObject(ch, "new_groups", b->choice.ng == FC_NG_MODEL ? "model" : "recent");
    plan_forecaster_text(b, fl, sizeof fl);
    cJSON_AddStringToObject(ch, "text", fl);
    plan_coverage_text(b, fl, sizeof fl);
    cJSON_AddStringToObject(o, "coverage", fl);
    cJSON_AddNumberToObject(o, "set_apart", b->napart);
    cJSON *m = cJSON_AddObjectToObject(o, "mean");
    cJSON_AddNumberToObject(m, "wape_model", b->mean_wape_model);
    cJSON_AddNumberToObject(m, "wape_naive", b->mean_wape_naive);
    cJSON_AddNumberToObject(m, "abs_err_model", b->mae_model);
    cJSON_AddNumberToObject(m, "abs_err_naive", b->mae_naive);
    cJSON_AddNumberToObject(m, "bias_model", b->bias_model);
    cJSON_AddNumberToObject(m, "bias_naive", b->bias_naive);
    cJSON *r = cJSON_AddObjectToObject(o, "ratio_actual_forecast");
    cJSON_AddNumberToObject(r, "p10", isfinite(b->ratio_p10) ? b->ratio_p10 : 0);
    cJSON_AddNumberToObject(r, "p50", isfinite(b->ratio_p50) ? b->ratio_p50 : 0);
    cJSON_AddNumberToObject(r, "p90", isfinite(b->ratio_p90) ? b->ratio_p90 : 0);
    cJSON_AddNumberToObject(o, "buffer", b->calib.buffer);
    cJSON_AddNumberToObject(o, "halflife", dem_halflives[b->calib.half]);
    cJSON_AddItemToObject(o, "wape_by_halflife",
                          cJSON_CreateDoubleArray(b->wape_by_half, DEM_NHALF));
    if (b->ncuts > 0) {
        plan_cli_date(b->cut, d1, sizeof d1);
        cJSON_AddStringToObject(o, "cut", d1);
        cJSON_AddNumberToObject(o, "scored_months", b->scored_months);
        cJSON_AddNumberToObject(o, "users", b->users);
        cJSON *w = cJSON_AddObjectToObject(o, "wape");
        cJSON_AddNumberToObject(w, "naive", b->score.wape_naive < 0 ? 0 : b->score.wape_naive);
        cJSON_AddNumberToObject(w, "base", b->score.wape_base < 0 ? 0 : b->score.wape_base);
        cJSON_AddNumberToObject(w, "demand", b->score.wape_demand < 0 ? 0 : b->score.wape_demand);
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
            cJSON_AddNumberToObject(e, "naive", x->before);
            cJSON_AddNumberToObject(e, "actual", x->after);
            cJSON_AddNumberToObject(e, "model", x->model_base);
            cJSON_AddItemToArray(a, e);
        }
    }
    cli_json_schema(o, "project-backtest");
    cli_print_json(o, out);
    cJSON_Delete(o);
}

static void backtest_text(const PlanBacktest *b, FILE *out)
{
    char d1[16], d2[16], key[32], name[96];
    const char *u = b->cpu ? "CPUs" : "GPU-eq";
    fprintf(out, "rolling backtest: %d cuts, each what `project --as-of CUT` said (only what was "
                 "known then, every choice from earlier cuts), scored on the 12 months after; "
                 "mean %s (%s)\n",
            b->ncuts, u, b->cpu ? "CPUs stand in for GPUs" : b->ref_model);
    if (b->cpu)
        fprintf(out, "no job in this database holds a GPU: CPU-hours stand in for GPU-hours\n");
    fprintf(out, "naive = each group's last 12 months; every forecaster but the model adds new "
                 "groups at the recent rate to its total\n\n");
    fprintf(out, "%-10s %-10s %-9s %4s %10s %10s %9s %9s %9s %8s %8s %13s %5s %6s\n", "cut",
            "until", "forecast", "rec", "WAPE fcst", "WAPE naive", "actual", "forecast", "naive",
            "err fc", "err nv", "p10-p90", "held", "groups");
    for (int i = 0; i < b->ncuts; i++) {
        const PlanBtCut *k = &b->cuts[i];
        char rg[32] = "-";
        plan_cli_date(k->cut, d1, sizeof d1);
        plan_cli_date(k->until, d2, sizeof d2);
        fc_cand_key(k->cand, key, sizeof key);
        if (k->calibrated)
            snprintf(rg, sizeof rg, "%.2f-%.2f", k->lo, k->hi);
        fprintf(out, "%-10s %-10s %-9s %4d %9.1f%% %9.1f%% %9.2f %9.2f %9.2f %+7.1f%% %+7.1f%% "
                     "%13s %5s %5.0f%%%s\n",
                d1, d2, key, k->nrec, 100 * k->wape_model, 100 * k->wape_naive, k->actual,
                k->model, k->naive, 100 * k->err_model, 100 * k->err_naive, rg,
                !k->calibrated ? "-" : k->cover_total ? "yes" : "no",
                k->calibrated ? 100 * k->cover_groups : 0,
                k->apart ? "  set apart: capacity changed > 25 % in the year after" : "");
    }
    if (b->ncuts == 0) {
        fprintf(out, "no cut: the data needs 6 months before a cut and 12 after it\n");
        return;
    }
    if (b->napart)
        fprintf(out, "\n%d cut(s) set apart (capacity changed by more than 25 %% in the year "
                     "after): not in the means, the choices or the ranges\n", b->napart);
    fprintf(out, "\nforecasters over the same cuts (WAPE: sum |forecast - actual| / sum actual "
                 "over the groups; total error: (forecast - actual) / actual of the institute; "
                 "coverage: the p10-p90 from earlier cuts held the actual)\n");
    fprintf(out, "%-46s %5s %10s %10s %8s %14s %8s\n", "forecaster", "cuts", "WAPE", "|total err|",
            "bias", "total held", "groups");
    for (int k = 0; k <= FC_NCAND; k++) {
        const FcRec *r = &b->rec[k];
        if (r->n == 0)
            continue;
        char held[32] = "-";
        if (k < FC_NCAND)
            fc_cand_name(k, name, sizeof name);
        else
            snprintf(name, sizeof name, "chosen at each cut (what users got)");
        if (r->ncal)
            snprintf(held, sizeof held, "%d of %d", r->cover, r->ncal);
        fprintf(out, "%-46s %5d %9.1f%% %10.1f%% %+7.1f%% %14s %7.0f%%\n", name, r->n,
                100 * r->wape, 100 * r->mae, 100 * r->bias, held, r->ncal ? 100 * r->cover_groups : 0);
    }
    char fl[256];
    plan_forecaster_text(b, fl, sizeof fl);
    fprintf(out, "\nnow (what `project` uses): %s\n", fl);
    plan_coverage_text(b, fl, sizeof fl);
    fprintf(out, "%s\n", fl);
    fprintf(out, "actual / forecast of the total: p10 %.2f, p50 %.2f, p90 %.2f; buffer %.0f %%\n",
            b->ratio_p10, b->ratio_p50, b->ratio_p90, 100 * b->calib.buffer);
    fprintf(out, "use is capped by capacity: long waits mark demand that went unmet\n");
}

void project_backtest_print(const PlanBacktest *b, int json, FILE *out)
{
    if (json)
        backtest_json(b, out);
    else
        backtest_text(b, out);
}
