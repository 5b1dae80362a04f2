/* plan: the planner behind the Overview, Groups, Profiles, Projection and
 * Scenarios views (plan.h). */
#include "tui/plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/memclass_nest.h"
#include "data/plan/meetings.h"
#include "data/store/store_plan.h"
#include "data/store/store_tui.h"
#include "tui/actions.h"
#include "tui/fmt.h"

#define GROUP_KEYS 5 /* the group keys of model v2, then the institute's */

static const char *const group_keys[GROUP_KEYS] = {"growth", "pool", "buffer", "intensity",
                                                   "halflife"};

struct TuiPlan {
    Store *st;
    TuiModel *model;            /* borrowed */
    Plan *plan;
    ProjParams *params, *base;
    ProjResult *res, *res_base;
    char scenario[64];
    StorePlanParam *edits;      /* the scenario's stored edits */
    size_t nedits;
    StorePlanScenario *scen;    /* every stored scenario */
    size_t nscen;
    MeetPick *picks;            /* whom to ask, all groups: computed once (tui_plan_picks) */
    int npicks;                 /* -1 until computed */
};

/* ---- reading ---------------------------------------------------------- */

static int read_scenarios(TuiPlan *p, CpErr *err)
{
    store_plan_scenarios_free(p->scen, p->nscen);
    p->scen = NULL;
    p->nscen = 0;
    store_plan_params_free(p->edits, p->nedits);
    p->edits = NULL;
    p->nedits = 0;
    if (store_plan_scenarios(p->st, &p->scen, &p->nscen, err) < 0)
        return -1;
    if (strcmp(p->scenario, "base") == 0)
        return 0;
    return store_plan_params(p->st, p->scenario, &p->edits, &p->nedits, err);
}

/* The shown scenario's parameters and the projection, from the database. */
static int read_params(TuiPlan *p, CpErr *err)
{
    ProjParams *params = NULL;
    if (plan_params(p->st, p->plan, p->scenario, &params, NULL, err) < 0)
        return -1;
    projection_params_free(p->params);
    p->params = params;
    projection_run(p->plan->model, p->params, p->res);
    return read_scenarios(p, err);
}

/* ---- filling the model ------------------------------------------------ */

static void fill_groups(TuiPlan *p, TuiModel *m)
{
    int ny = p->res->nyears;
    for (int g = 0; g < m->ngroups; g++) {
        m->groups[g].demand_next = m->groups[g].demand_base = NAN;
        m->groups[g].demand_lo = m->groups[g].demand_hi = NAN;
    }
    for (int g = 0; g < p->plan->ngroups; g++) {
        int mg = tui_model_group_find(m, p->plan->groups[g]);
        if (mg < 0)
            continue;
        m->groups[mg].demand_next = p->res->gy[g * ny].demand;
        m->groups[mg].demand_base = p->res_base->gy[g * ny].demand;
        m->groups[mg].demand_lo = p->res->gy[g * ny].demand_r.lo;
        m->groups[mg].demand_hi = p->res->gy[g * ny].demand_r.hi;
    }
    for (int u = 0; u < m->nusers; u++)
        m->users[u].profile = -1;
    for (int i = 0; i < p->plan->nusers; i++) {
        int mu = tui_model_user_find(m, p->plan->users[i].name);
        if (mu >= 0)
            m->users[mu].profile = p->plan->users[i].profile;
    }
}

/* Calendar year holding most of projected year y. */
static int year_label(const TuiPlan *p, int y)
{
    int64_t from, to;
    projection_year_span(p->plan->model, y, &from, &to);
    return (int)(plan_month_of(from + (to - from) / 2) / 100);
}

/* Past years on the projection's scale: GPU-eq used and capacity. */
static void fill_past(const TuiPlan *p, TuiModel *m)
{
    const Plan *pl = p->plan;
    if (pl->cpu)
        snprintf(m->unit, sizeof m->unit, "CPUs");
    else
        snprintf(m->unit, sizeof m->unit, "GPU-eq (%.30s = 1)", pl->ref_model);
    for (int i = 0; i < m->nhist_years; i++)
        for (int k = 0; k < pl->nyear_use; k++)
            if (pl->year_use[k].year == m->years[i].year) {
                m->years[i].used_gpus = pl->year_use[k].used;
                m->years[i].cap_gpus = pl->year_use[k].capacity;
                m->years[i].eq = 1;
            }
}

static void fill_years(TuiPlan *p, TuiModel *m)
{
    int ny = p->res->nyears;
    fill_past(p, m);
    m->years = xrealloc(m->years, (size_t)(m->nhist_years + ny) * sizeof *m->years);
    m->nyears = m->nhist_years + ny;
    for (int y = 1; y <= ny; y++) {
        TuiYear *x = &m->years[m->nhist_years + y - 1];
        const ProjTotals *t = &p->res->total[y - 1];
        memset(x, 0, sizeof *x);
        x->year = year_label(p, y);
        x->projected = 1;
        x->cap_gpus = t->capacity;
        x->demand = t->demand;
        x->demand_base = p->res_base->total[y - 1].demand;
        x->demand_lo = t->demand_r.lo;
        x->demand_hi = t->demand_r.hi;
        x->eq = 1;
        for (int c = 0; c < TUI_CLASSES; c++) {
            x->demand_class[c] = t->demand_c[c];
            x->cap_class[c] = t->capacity_c[c];
        }
    }
    for (int c = 0; c < TUI_CLASSES; c++)
    {
        m->demand_class_next[c] = ny > 0 ? p->res->total[0].demand_c[c] : NAN;
        m->cap_class_next[c] = ny > 0 ? p->res->total[0].capacity_c[c] : NAN;
    }
}

/* Classes short of capacity next year, as alerts (replacing earlier ones):
 * the gaps nest as the report's and the institute page's (memclass_nest),
 * so no class is short while a bigger class has room that could serve it. */
static void fill_alerts(TuiPlan *p, TuiModel *m)
{
    int k = 0;
    for (int i = 0; i < m->nalerts; i++)
        if (m->alerts[i].kind != TUI_AL_SHORT)
            m->alerts[k++] = m->alerts[i];
    m->nalerts = k;
    if (p->res->nyears < 1)
        return;
    const ProjTotals *t = &p->res->total[0];
    double nest[MEMCLASS_COUNT];
    memclass_nest(t->demand_c, t->capacity_c, nest);
    for (int c = TUI_CLASSES - 1; c >= 0; c--) {
        if (!(nest[c] > 0.5))
            continue;
        m->alerts = xrealloc(m->alerts, (size_t)(m->nalerts + 1) * sizeof *m->alerts);
        memmove(m->alerts + 1, m->alerts, (size_t)m->nalerts * sizeof *m->alerts);
        m->nalerts++;
        m->alerts[0] = (TuiAlert){TUI_AL_SHORT, 2, -1, -1, c, nest[c], t->capacity_c[c]};
    }
}

static void fill_model(TuiPlan *p)
{
    if (!p->model)
        return;
    fill_groups(p, p->model);
    fill_years(p, p->model);
    fill_alerts(p, p->model);
}

/* ---- life cycle ------------------------------------------------------- */

TuiPlan *tui_plan_open(Store *st, TuiModel *m, const char *scenario, CpErr *err)
{
    err->msg[0] = '\0';
    Plan *plan = tui_plan_build(st, err);
    return plan ? tui_plan_from(st, m, scenario, plan, err) : NULL;
}

Plan *tui_plan_build(Store *st, CpErr *err)
{
    PlanOpts o;
    memset(&o, 0, sizeof o);
    return plan_build(st, &o, err);
}

TuiPlan *tui_plan_from(Store *st, TuiModel *m, const char *scenario, Plan *plan, CpErr *err)
{
    err->msg[0] = '\0';
    if (plan->nusers == 0 || plan->ngroups == 0 || !plan->model) {
        plan_free(plan);
        return NULL; /* nothing to plan from: err stays empty */
    }
    TuiPlan *p = xcalloc(1, sizeof *p);
    p->st = st;
    p->model = m;
    p->plan = plan;
    p->npicks = -1;
    snprintf(p->scenario, sizeof p->scenario, "%s", scenario ? scenario : "base");
    p->base = projection_params_copy(plan->measured);
    p->res = projection_result_new(plan->model);
    p->res_base = projection_result_new(plan->model);
    projection_run(plan->model, p->base, p->res_base);
    if (read_params(p, err) < 0) {
        tui_plan_close(p);
        return NULL;
    }
    fill_model(p);
    return p;
}

void tui_plan_close(TuiPlan *p)
{
    if (!p)
        return;
    store_plan_params_free(p->edits, p->nedits);
    store_plan_scenarios_free(p->scen, p->nscen);
    projection_result_free(p->res);
    projection_result_free(p->res_base);
    projection_params_free(p->params);
    projection_params_free(p->base);
    plan_free(p->plan);
    free(p->picks);
    free(p);
}

const MeetPick *tui_plan_picks(TuiPlan *p, int *n)
{
    if (p->npicks < 0) /* the plan does not change while it is open */
        p->npicks = meetings_pick(p->plan, PICK_DEFAULT, &p->picks);
    *n = p->npicks;
    return p->picks;
}

void tui_plan_reload(TuiPlan *p, TuiModel *m)
{
    if (!p)
        return;
    p->model = m;
    CpErr err = {""};
    read_params(p, &err);
    fill_model(p);
}

/* ---- reading for the views -------------------------------------------- */

const Plan *tui_plan_plan(const TuiPlan *p)
{
    return p ? p->plan : NULL;
}

const ProjParams *tui_plan_params(const TuiPlan *p, int base)
{
    return p ? (base ? p->base : p->params) : NULL;
}

const ProjResult *tui_plan_result(const TuiPlan *p, int base)
{
    return p ? (base ? p->res_base : p->res) : NULL;
}

int tui_plan_group(const TuiPlan *p, const TuiModel *m, int mg)
{
    if (!p || mg < 0 || mg >= m->ngroups)
        return -1;
    return plan_group_index(p->plan, m->groups[mg].name);
}

int tui_plan_nparams(const TuiPlan *p)
{
    if (!p)
        return 0;
    return GROUP_KEYS + 2 * p->plan->fit.k +
           projection_nmodels(p->plan->model) * p->res->nyears;
}

void tui_plan_param_key(const TuiPlan *p, int row, char *key, size_t n)
{
    int k = p->plan->fit.k;
    if (row < GROUP_KEYS)
        snprintf(key, n, "%s", group_keys[row]);
    else if (row < GROUP_KEYS + 2 * k)
        snprintf(key, n, "%s.%d", (row - GROUP_KEYS) % 2 ? "mem" : "gpus",
                 (row - GROUP_KEYS) / 2 + 1);
    else {
        int r = row - GROUP_KEYS - 2 * k, ny = p->res->nyears, nm = projection_nmodels(p->plan->model);
        snprintf(key, n, "purchase.%s.y%d",
                 nm > 0 ? projection_model_info(p->plan->model, (r / ny) % nm)->name : "?",
                 r % ny + 1);
    }
}

double tui_plan_value(const TuiPlan *p, const char *key, int g, int base)
{
    double v;
    if (!p || projection_param_get(p->plan->model, base ? p->base : p->params, key,
                                   projection_key_takes_group(key) ? g : -1, &v, NULL) < 0)
        return NAN;
    return v;
}

int tui_plan_edited(const TuiPlan *p, const char *key, int g, const char **reason)
{
    if (!p)
        return 0;
    const char *gname = g >= 0 ? p->plan->groups[g] : "";
    int group_key = projection_key_takes_group(key);
    for (size_t i = 0; i < p->nedits; i++) {
        const StorePlanParam *e = &p->edits[i];
        if (strcmp(e->key, key) != 0)
            continue;
        if (group_key && e->group[0] && strcmp(e->group, gname) != 0)
            continue;
        if (reason)
            *reason = e->reason;
        return 1;
    }
    return 0;
}

/* ---- editing ---------------------------------------------------------- */

/* The scenario exists in the database (made from base when not). */
static int ensure_stored(TuiPlan *p, CpErr *err)
{
    int e = store_plan_scenario_exists(p->st, p->scenario, err);
    if (e < 0)
        return -1;
    if (e == 0 && store_plan_scenario_new(p->st, p->scenario, NULL, plan_who(), err) < 0)
        return -1;
    return 0;
}

void tui_plan_value_text(const char *key, double v, char *buf, size_t n)
{
    int pct = strcmp(key, "growth") == 0 || strcmp(key, "intensity") == 0 ||
              strcmp(key, "buffer") == 0;
    if (isnan(v))
        snprintf(buf, n, "-");
    else if (pct)
        snprintf(buf, n, "%.4g%%", v * 100);
    else
        snprintf(buf, n, "%.4g", v);
}

/* The reason an edit of (key, group) carries: the one typed, else the
 * stored one of the same parameter (kept, *kept set), else none: -1. */
static int edit_reason(const TuiPlan *p, const char *key, int g, const char *typed,
                       const char **reason, int *kept)
{
    *kept = 0;
    if (typed && typed[strspn(typed, " ")]) {
        *reason = typed;
        return 0;
    }
    const char *old = NULL;
    if (tui_plan_edited(p, key, g, &old) && old && old[0]) {
        *reason = old;
        *kept = 1;
        return 0;
    }
    return -1;
}

int tui_plan_set(TuiState *s, const char *key, int g, double value, const char *reason,
                 CpErr *err)
{
    TuiPlan *p = s->plan;
    if (!p)
        return cp_err_set(err, s->plan_pending ? "the planner is still being read: again in a "
                                                 "moment"
                                               : "the planner is not available");
    if (strcmp(p->scenario, "base") == 0)
        return cp_err_set(err, "base holds the measured values: edits go into a scenario");
    int gk = projection_key_takes_group(key), kept;
    ProjParams *tmp = projection_params_copy(p->params);
    int rc = projection_param_set(p->plan->model, tmp, key, gk ? g : -1, value, err);
    projection_params_free(tmp);
    if (rc < 0)
        return -1;
    if (edit_reason(p, key, g, reason, &reason, &kept) < 0)
        return cp_err_set(err, "a reason is required: type the value, a space, then why");
    double measured = tui_plan_value(p, key, gk ? g : -1, 1);
    const char *gname = gk && g >= 0 ? p->plan->groups[g] : "";
    TuiUndo u;
    memset(&u, 0, sizeof u);
    u.kind = TUI_U_PARAM;
    const char *label = plan_key_label(p->plan, key);
    u.pafter.had = 1;
    u.pafter.value = value;
    u.pafter.measured = measured;
    u.pafter.label = label ? xstrdup(label) : NULL;
    u.pafter.reason = xstrdup(reason);
    u.pafter.who = xstrdup(plan_who());
    StoreUndoPut put;
    if (ensure_stored(p, err) < 0 ||
        store_undo_put(p->st, p->scenario, key, gname, &u.pafter, -1, NULL, plan_who(), &put,
                       err) < 0) {
        store_undo_param_clear(&u.pafter);
        return -1;
    }
    u.pafter.at = (int64_t)time(NULL);
    u.pbefore = put.before;
    put.before = (StoreUndoParam){0};
    u.edit = put.edit;
    store_undo_put_clear(&put);
    snprintf(u.scenario, sizeof u.scenario, "%s", p->scenario);
    snprintf(u.key, sizeof u.key, "%s", key);
    snprintf(u.group, sizeof u.group, "%s", gname);
    u.gi = gk ? g : -1;
    snprintf(s->edit_note, sizeof s->edit_note, "%s%.120s%s", kept ? "reason kept: '" : "why: ",
             reason, kept ? "'" : "");
    actions_push_undo(s, &u);
    for (int i = 0; i < s->nundo; i++) /* earlier edits of the same parameter: one chain */
        if (s->undo[i].kind == TUI_U_PARAM && strcmp(s->undo[i].scenario, u.scenario) == 0 &&
            strcmp(s->undo[i].key, u.key) == 0 && strcmp(s->undo[i].group, u.group) == 0)
            s->undo[i].edit = u.edit;
    if (read_params(p, err) < 0)
        return -1;
    fill_model(p);
    return 0;
}

int tui_plan_preview(const TuiPlan *p, const char *key, int g, double value, TuiPlanPreview *out)
{
    if (!p || g < 0 || g >= p->plan->ngroups)
        return -1;
    CpErr err = {""};
    int gk = projection_key_takes_group(key);
    ProjParams *tmp = projection_params_copy(p->params);
    int rc = projection_param_set(p->plan->model, tmp, key, gk ? g : -1, value, &err);
    if (rc == 0) {
        ProjResult *r = projection_result_new(p->plan->model);
        projection_run(p->plan->model, tmp, r);
        int ny = r->nyears;
        out->group_before = p->res->gy[g * ny].demand;
        out->group_after = r->gy[g * ny].demand;
        out->total_before = p->res->total[0].demand;
        out->total_after = r->total[0].demand;
        projection_result_free(r);
    }
    projection_params_free(tmp);
    return rc < 0 ? -1 : 0;
}

void tui_plan_key_words(const TuiPlan *p, const char *key, char *buf, size_t n)
{
    int k, y;
    char cls[32];
    (void)p;
    if (strcmp(key, "halflife") == 0)
        snprintf(buf, n, "half-life");
    else if (sscanf(key, "gpus.%d", &k) == 1)
        snprintf(buf, n, "GPU-eq a member, P%d", k);
    else if (sscanf(key, "mem.%d", &k) == 1)
        snprintf(buf, n, "GiB a GPU, P%d", k);
    else if (sscanf(key, "purchase.%31[^.].y%d", cls, &y) == 2)
        snprintf(buf, n, "%s GPUs bought in year %d", cls, y);
    else
        snprintf(buf, n, "%s", key); /* growth, pool, buffer, intensity: as people say them */
}

unsigned tui_plan_offer_scenario(TuiState *s, const char *key, int g, double value,
                                 const char *reason)
{
    if (!reason || !reason[strspn(reason, " ")]) {
        tui_status(s, CV_BAD, 0, "refused: a reason is required: type the value, a space, then why");
        return TUI_REDRAW;
    }
    char name[64], words[80], v[32];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    snprintf(name, sizeof name, "plan-%d", tm.tm_year + 1900 + 1);
    for (int i = 2; tui_plan_edits(s->plan, name) >= 0 && i < 100; i++)
        snprintf(name, sizeof name, "plan-%d-%d", tm.tm_year + 1900 + 1, i);
    tui_plan_key_words(s->plan, key, words, sizeof words);
    tui_plan_value_text(key, value, v, sizeof v);
    char label[200];
    snprintf(label, sizeof label, "new scenario from base, with %s = %s (Enter makes it):", words,
             v);
    char why[TUI_PROMPT_MAX], k[48]; /* both may point into the prompt opened anew */
    fmt_copy(why, sizeof why, reason + strspn(reason, " "));
    fmt_copy(k, sizeof k, key);
    actions_prompt_open(s, TUI_P_SCENARIO, label, name);
    s->prompt.carry = 1;
    s->prompt.row = g;
    s->prompt.carry_value = value;
    fmt_copy(s->prompt.key, sizeof s->prompt.key, k);
    fmt_copy(s->prompt.carry_reason, sizeof s->prompt.carry_reason, why);
    return TUI_REDRAW;
}

int tui_plan_put(TuiPlan *p, TuiUndo *u, int redo, int redact, char *why, size_t wn, CpErr *err)
{
    if (!p)
        return cp_err_set(err, "the planner is not available");
    StoreUndoPut put;
    const StoreUndoParam *to = redo ? &u->pafter : &u->pbefore;
    char note[300];
    snprintf(note, sizeof note, "%s in the dashboard: %s", redo ? "redone" : "undone",
             to->reason ? to->reason : "back to the measured value");
    if (store_undo_put(p->st, u->scenario, u->key, u->group, to, u->edit, note, plan_who(), &put,
                       err) < 0)
        return -1;
    int conflict = put.conflict;
    if (conflict && put.other_at) {
        char when[32];
        time_t t = (time_t)put.other_at;
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
        snprintf(why, wn, "by %s at %s",
                 redact || !put.other_who ? "someone else" : put.other_who, when);
    } else if (conflict) {
        snprintf(why, wn, "(its history entry is gone)");
    }
    u->edit = conflict ? u->edit : put.edit;
    store_undo_put_clear(&put);
    if (!conflict && strcmp(u->scenario, p->scenario) == 0) {
        if (read_params(p, err) < 0)
            return -1;
        fill_model(p);
    }
    return conflict;
}

int tui_plan_rename(TuiState *s, int k, const char *name, CpErr *err)
{
    TuiPlan *p = s->plan;
    if (!p || k < 0 || k >= p->plan->fit.k)
        return cp_err_set(err, "no such profile");
    if (!name[0] || strlen(name) >= PROFILES_NAME_MAX)
        return cp_err_set(err, "a name of 1 to %d characters", PROFILES_NAME_MAX - 1);
    if (store_plan_rename(p->st, p->plan->fit.profiles[k].name, name, plan_who(), NULL, err) < 0)
        return -1;
    snprintf(p->plan->names[k], PROFILES_NAME_MAX, "%s", name);
    return 0;
}

/* ---- scenarios -------------------------------------------------------- */

int tui_plan_nedits(const TuiPlan *p)
{
    return p ? (int)p->nedits : 0;
}

const StorePlanParam *tui_plan_edit(const TuiPlan *p, int i)
{
    return p && i >= 0 && i < (int)p->nedits ? &p->edits[i] : NULL;
}

double tui_plan_total(const TuiPlan *p, int y, int base)
{
    const ProjResult *r = p ? (base ? p->res_base : p->res) : NULL;
    return r && y >= 1 && y <= r->nyears ? r->total[y - 1].demand : NAN;
}

static const StorePlanScenario *scenario_find(const TuiPlan *p, const char *name)
{
    for (size_t i = 0; p && i < p->nscen; i++)
        if (strcmp(p->scen[i].name, name) == 0)
            return &p->scen[i];
    return NULL;
}

double tui_plan_edits(const TuiPlan *p, const char *name)
{
    const StorePlanScenario *sc = scenario_find(p, name);
    if (sc)
        return sc->nparams;
    return p && strcmp(name, "base") == 0 ? 0 : -1;
}

const char *tui_plan_base_of(const TuiPlan *p, const char *name)
{
    const StorePlanScenario *sc = scenario_find(p, name);
    return sc && sc->base ? sc->base : sc ? "base" : "";
}

unsigned tui_plan_switch(TuiState *s, const char *name)
{
    TuiPlan *p = s->plan;
    if (!p) {
        tui_status(s, CV_WARN, 0, "%s: scenario not switched",
                   s->plan_pending ? "the planner is still being read" : "the planner is not available");
        return TUI_REDRAW;
    }
    char old[64];
    snprintf(old, sizeof old, "%s", p->scenario);
    snprintf(p->scenario, sizeof p->scenario, "%s", name);
    CpErr err = {""};
    if (read_params(p, &err) < 0) {
        snprintf(p->scenario, sizeof p->scenario, "%s", old);
        read_params(p, &err);
        tui_status(s, CV_BAD, 0, "%s", err.msg);
        return TUI_REDRAW;
    }
    snprintf(s->scenario, sizeof s->scenario, "%s", name);
    fill_model(p);
    CpErr ignored = {""};
    store_tui_set_last_scenario(p->st, name, &ignored); /* the next session opens on it */
    tui_status(s, CV_GOOD, 0, "showing scenario %s", name);
    return TUI_RECALC | TUI_REDRAW;
}

unsigned tui_plan_prompt_accept(TuiState *s)
{
    TuiPlan *p = s->plan;
    s->prompt.kind = TUI_P_NONE;
    CpErr err = {""};
    const char *name = s->prompt.text;
    if (!p) {
        tui_status(s, CV_WARN, 0, "%s: no scenario made",
                   s->plan_pending ? "the planner is still being read" : "the planner is not available");
        return TUI_REDRAW;
    }
    if (!name[0] || strcmp(name, "base") == 0 || strlen(name) >= sizeof p->scenario) {
        tui_status(s, CV_BAD, 0, "refused: a scenario needs a new name (not base)");
        return TUI_REDRAW;
    }
    const char *from = strcmp(p->scenario, "base") == 0 ? NULL : p->scenario;
    if (from && ensure_stored(p, &err) < 0) {
        tui_status(s, CV_BAD, 0, "%s", err.msg);
        return TUI_REDRAW;
    }
    if (store_plan_scenario_new(p->st, name, from, plan_who(), &err) < 0) {
        tui_status(s, CV_BAD, 0, "%s", err.msg);
        return TUI_REDRAW;
    }
    char copy[64];
    snprintf(copy, sizeof copy, "%s", name);
    unsigned f = tui_plan_switch(s, copy) | TUI_RELOAD | TUI_SAVE;
    if (!s->prompt.carry || strcmp(s->scenario, copy) != 0)
        return f;
    /* The edit typed on base, carried into the scenario just made. */
    int g = s->prompt.row, ny = p->res->nyears;
    double before = g >= 0 && g < p->plan->ngroups ? p->res->gy[g * ny].demand : NAN;
    if (tui_plan_set(s, s->prompt.key, g, s->prompt.carry_value, s->prompt.carry_reason, &err) < 0) {
        tui_status(s, CV_BAD, 0, "scenario %s made from base; the edit was refused: %s", copy,
                   err.msg);
        return f;
    }
    tui_status(s, CV_GOOD, 0, "new scenario %s: need next year %.2f -> %.2f %s; u undoes; %s",
               copy, before, p->res->gy[g * ny].demand, tui_plan_unit(p), s->edit_note);
    return f;
}

const char *tui_plan_unit(const TuiPlan *p)
{
    return p && p->plan && p->plan->cpu ? "CPUs" : "GPU-eq";
}
