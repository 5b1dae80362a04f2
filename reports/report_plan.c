/* report_plan: sections 1 (summary), 4 (compute profiles), 5 (projections)
 * and 6 (other institutes), from the plan of data/plan as `capplan
 * project --json` shows it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/memclass_nest.h"
#include "data/plan/meetings.h"
#include "reports/mdw.h"
#include "reports/report_int.h"

#define NB 64 /* a formatted cell */

static const char *unit_gpus(const Report *r)
{
    return r->plan->cpu ? "CPUs" : "GPU-eq";
}

/* ---- 1. summary ---- */

/* The summary chart: past use (each calendar year of the data), the
 * projected need by memory class with its p10-p90 band, and capacity over
 * both, on one scale. */
static int summary_chart(const Report *r, FILE *out, const char *dir, const char *rel,
                         CpErr *err)
{
    static const char *const series[1 + MEMCLASS_COUNT] = {
        "used", "need, up to 24 GiB", "need, up to 48 GiB", "need, up to 80 GiB",
        "need, over 80 GiB", "need, memory unknown"};
    static const char *const colors[1 + MEMCLASS_COUNT] = {"#e6550d", "#c6dbef", "#6baed6",
                                                           "#2171b5", "#08306b", "#a1d99b"};
    const Plan *p = r->plan;
    int Y = r->res->nyears, P = p->nyear_use;
    size_t nx = (size_t)(P + Y), ns = 1 + MEMCLASS_COUNT;
    char (*xl)[24] = xcalloc(nx, sizeof *xl);
    const char **xs = xcalloc(nx, sizeof *xs);
    double *v = xcalloc(ns * nx, sizeof *v), *lo = xcalloc(nx, sizeof *lo);
    double *hi = xcalloc(nx, sizeof *hi), *cap = xcalloc(nx, sizeof *cap);
    for (size_t i = 0; i < ns * nx; i++)
        v[i] = NAN;
    for (int i = 0; i < P; i++) {
        char full[64];
        rpt_year(r, p->year_use[i].year, full, sizeof full);
        snprintf(xl[i], sizeof xl[i], "%.4s%s", full, strchr(full, '(') ? " (partial)" : "");
        v[i] = p->year_use[i].used;
        lo[i] = hi[i] = NAN;
        cap[i] = p->year_use[i].capacity;
    }
    for (int y = 1; y <= Y; y++) {
        const ProjTotals *t = &r->res->total[y - 1];
        size_t i = (size_t)(P + y - 1);
        rpt_proj_year(r, y, RPT_YEAR_AXIS, xl[i], sizeof xl[i]);
        for (int k = 0; k < MEMCLASS_COUNT; k++)
            v[(size_t)(1 + k) * nx + i] = t->demand_c[k];
        lo[i] = t->demand_r.lo;
        hi[i] = t->demand_r.hi;
        cap[i] = t->capacity;
    }
    for (size_t i = 0; i < nx; i++)
        xs[i] = xl[i];
    SvgChart c = {.kind = SVG_STACKED, .title = "Use, need (p10-p90) and capacity by year",
                  .unit = unit_gpus(r), .x = xs, .nx = nx, .series = series, .ns = ns, .v = v,
                  .colors = colors, .band_lo = lo, .band_hi = hi, .band_name = "need p10-p90",
                  .line = cap, .line_name = "capacity"};
    int rc = rpt_chart(out, dir, rel, "summary", "Use, need (p10-p90) and capacity by year", &c,
                       err);
    free(xl), free(xs), free(v), free(lo), free(hi), free(cap);
    return rc;
}

static void summary_table(const Report *r, FILE *out)
{
    static const char *const titles[] = {"Year", "GPU memory class (GiB)", "Need", "Capacity",
                                         "Gap", "Need p10-p90"};
    mdw_head(out, titles, "llrrrr", 6);
    const char *u = unit_gpus(r);
    const ProjCalib *cal = projection_calib(r->plan->model);
    for (int y = 1; y <= r->res->nyears; y++) {
        const ProjTotals *t = &r->res->total[y - 1];
        char yl[64], d[NB], c[NB], g[NB], rg[NB];
        double nest[MEMCLASS_COUNT];
        memclass_nest(t->demand_c, t->capacity_c, nest);
        rpt_proj_year(r, y, RPT_YEAR_CELL, yl, sizeof yl);
        for (int k = 0; k <= MEMCLASS_COUNT; k++) {
            int tot = k == MEMCLASS_COUNT;
            double need = tot ? t->demand : t->demand_c[k];
            mdw_num(d, NB, need, 2, u);
            mdw_num(c, NB, tot ? t->capacity : t->capacity_c[k], 2, u);
            mdw_num(g, NB, tot ? t->gap : nest[k], 2, u);
            plan_range_text(tot ? t->demand_r : projection_range(cal, need, y), u, rg, sizeof rg);
            const char *cells[] = {yl, tot ? "total" : profiles_mem_class_name(k), d, c, g, rg};
            mdw_row(out, cells, 6);
        }
    }
    fputc('\n', out);
    rpt_sim_line(r, out);
}

static void largest_gaps(const Report *r, FILE *out)
{
    int best[3][2], nb = 0;
    double nest[PROJ_MAX_YEARS][MEMCLASS_COUNT];
    for (int y = 1; y <= r->res->nyears; y++)
        memclass_nest(r->res->total[y - 1].demand_c, r->res->total[y - 1].capacity_c, nest[y - 1]);
    for (int i = 0; i < 3; i++) {
        double top = 0;
        int by = -1, bc = -1;
        for (int y = 1; y <= r->res->nyears; y++)
            for (int c = 0; c < MEMCLASS_COUNT; c++) {
                double g = nest[y - 1][c];
                int taken = 0;
                for (int j = 0; j < nb; j++)
                    taken |= best[j][0] == y && best[j][1] == c;
                if (!taken && g > top + 1e-9) {
                    top = g;
                    by = y;
                    bc = c;
                }
            }
        if (by < 0)
            break;
        best[nb][0] = by;
        best[nb++][1] = bc;
    }
    fprintf(out, "### The largest gaps\n\n");
    if (nb == 0) {
        fprintf(out, "Capacity covers the projected demand in every memory class and year.\n\n");
        return;
    }
    static const char *const titles[] = {"Rank", "Year", "GPU memory class (GiB)", "Gap"};
    mdw_head(out, titles, "rllr", 4);
    for (int i = 0; i < nb; i++) {
        char rank[16], yl[64], g[NB];
        snprintf(rank, sizeof rank, "%d", i + 1);
        rpt_proj_year(r, best[i][0], RPT_YEAR_CELL, yl, sizeof yl);
        mdw_num(g, NB, nest[best[i][0] - 1][best[i][1]], 2, unit_gpus(r));
        const char *cells[] = {rank, yl, profiles_mem_class_name(best[i][1]), g};
        mdw_row(out, cells, 4);
    }
    fputc('\n', out);
    if (nb < 3)
        fprintf(out, "No other class and year lacks capacity.\n\n");
}

/* "20.0 %" or "20.0 % (measured 8.0 %)" */
static void param_cell(char *buf, size_t n, double v, double measured, double scale,
                       int decimals, const char *unit)
{
    char a[NB], b[NB];
    mdw_num(a, NB, v * scale, decimals, unit);
    if (v == measured) {
        snprintf(buf, n, "%s", a);
        return;
    }
    mdw_num(b, NB, measured * scale, decimals, unit);
    snprintf(buf, n, "%s (measured %s)", a, b);
}

static void scenario_params(const Report *r, FILE *out)
{
    const Plan *p = r->plan;
    char a[NB], b[NB];
    mdw_num(a, NB, 100 * p->institute_growth, 1, "%");
    mdw_num(b, NB, 100 * p->institute_buffer, 1, "%");
    fprintf(out, "### Scenario and parameters\n\nScenario **");
    mdw_text(out, r->scenario);
    fprintf(out, "**: %zu edited parameters against the measured ones%s. Institute-wide, "
                 "head growth %s a year and buffer %s as measured, intensity %+.1f %% a year, "
                 "members' rates weighted with a half-life of %g months. Per group (head "
                 "growth a year, exploration/HPO pool in %s, buffer):\n\n",
            r->nedits, r->nedits ? " (section 5 lists them with their reasons)" : "", a, b,
            100 * r->params->intensity, r->params->halflife, unit_gpus(r));
    static const char *const titles[] = {"Group", "Domain", "Growth", "Pool", "Buffer"};
    mdw_head(out, titles, "llrrr", 5);
    const ProjParams *v = r->params, *m = p->measured;
    for (int g = 0; g < p->ngroups; g++) {
        char name[64], c1[3 * NB], c2[3 * NB], c4[3 * NB];
        param_cell(c1, sizeof c1, v->growth[g], m->growth[g], 100, 1, "%");
        param_cell(c2, sizeof c2, v->pool[g], m->pool[g], 1, 2, unit_gpus(r));
        param_cell(c4, sizeof c4, v->buffer[g], m->buffer[g], 100, 1, "%");
        const char *cells[] = {rpt_name(r, "group", p->groups[g], name, sizeof name),
                               p->domains[p->group_domain[g]], c1, c2, c4};
        mdw_row(out, cells, 5);
    }
    fputc('\n', out);
}

int rpt_summary(const Report *r, FILE *out, const char *dir, const char *rel, CpErr *err)
{
    const ProjCalib *cal = projection_calib(r->plan->model);
    fprintf(out, "Projected need (model v2: expected use + exploration pool + buffer) against "
                 "capacity (inventory x relative speed, plus planned purchases), per year and "
                 "GPU-memory class; the gap is need minus capacity. A class's gap nests: a job "
                 "runs on any GPU with enough memory, so the room of bigger classes first serves "
                 "the smaller classes' shortfall, and a class is short only when no bigger class "
                 "has room left. ");
    if (r->plan->cpu)
        fprintf(out, "CPUs stand in for GPUs. ");
    else {
        fprintf(out, "All in GPU-eq: GPUs x relative speed, reference model ");
        mdw_text(out, r->plan->ref_model);
        fprintf(out, " = 1.0. ");
    }
    if (cal->ncuts >= PROJ_MIN_CUTS)
        fprintf(out, "Ranges are the p10-p90 of the rolling backtest's actual/forecast over %d "
                     "cuts. ", cal->ncuts);
    else
        fprintf(out, "Ranges: not calibrated (%d backtest cuts, %d needed). ", cal->ncuts,
                PROJ_MIN_CUTS);
    fprintf(out, "Use is capped by capacity: long waits mark demand that went unmet.\n\n");
    if (summary_chart(r, out, dir, rel, err) < 0)
        return -1;
    summary_table(r, out);
    largest_gaps(r, out);
    scenario_params(r, out);
    return 0;
}

/* ---- 4. compute profiles ---- */

static void profile_table(const Report *r, FILE *out)
{
    const Plan *p = r->plan;
    const char *u = unit_gpus(r);
    static const char *const titles[] = {
        "Profile", "Name", "Members", "Width p90", "Peak GPU memory", "Mean run", "Longest run",
        "Use per month", "Mean concurrent", "Peak concurrent", "Per member b_p", "Memory class"};
    mdw_head(out, titles, "rlrrrrrrrrrl", 12);
    for (int i = 0; i < p->fit.k; i++) {
        const Profile *pr = &p->fit.profiles[i];
        const double *c = pr->centroid_raw;
        char id[16], size[16], w[NB], mem[NB], dm[NB], dx[NB], gm[NB], cm[NB], cp[NB], b[3 * NB];
        char gh[16];
        snprintf(id, sizeof id, "%d", i + 1);
        snprintf(size, sizeof size, "%d", pr->size);
        snprintf(gh, sizeof gh, "%s-h", r->plan->cpu ? "CPU" : "GPU");
        mdw_num(w, NB, c[FEAT_GPUS_P90], 2, u);
        mdw_num(mem, NB, c[FEAT_MEM_GIB] < 0 ? NAN : c[FEAT_MEM_GIB], 1, "GiB");
        mdw_num(dm, NB, c[FEAT_DUR_MEAN_H], 1, "h");
        mdw_num(dx, NB, c[FEAT_DUR_MAX_H], 1, "h");
        mdw_num(gm, NB, c[FEAT_GPUH_MONTH], 1, gh);
        mdw_num(cm, NB, c[FEAT_CONC_MEAN], 2, u);
        mdw_num(cp, NB, c[FEAT_CONC_PEAK], 2, u);
        param_cell(b, sizeof b, r->params->gpus[i], p->measured->gpus[i], 1, 2, u);
        const char *cells[] = {id, p->names[i], size, w, mem, dm, dx, gm, cm, cp, b,
                               profiles_mem_class_name(profiles_mem_class(projection_mem_of(r->plan->model, r->params, i)))};
        mdw_row(out, cells, 12);
    }
    fputc('\n', out);
}

static void mix_table(const Report *r, FILE *out)
{
    const Plan *p = r->plan;
    int k = p->fit.k;
    const char **titles = xcalloc((size_t)k + 3, sizeof *titles);
    char (*cells)[NB] = xcalloc((size_t)k + 3, sizeof *cells);
    const char **cp = xcalloc((size_t)k + 3, sizeof *cp);
    char *align = xcalloc((size_t)k + 4, 1);
    char (*tt)[24] = xcalloc((size_t)k + 1, sizeof *tt);
    titles[0] = "Group", titles[1] = "Members now";
    strcpy(align, "lr");
    for (int i = 0; i < k; i++) {
        snprintf(tt[i], sizeof tt[i], "Profile %d", i + 1);
        titles[2 + i] = tt[i];
        align[2 + i] = 'r';
    }
    mdw_head(out, titles, align, (size_t)k + 2);
    for (int g = 0; g < p->ngroups; g++) {
        const double *mix = projection_mix(p->model, g);
        char gname[NB];
        snprintf(cells[0], NB, "%s", rpt_name(r, "group", p->groups[g], gname, sizeof gname));
        snprintf(cells[1], NB, "%.0f", projection_heads0(p->model, g));
        for (int i = 0; i < k; i++)
            mdw_num(cells[2 + i], NB, 100 * mix[i], 0, "%");
        for (int i = 0; i < k + 2; i++)
            cp[i] = cells[i];
        mdw_row(out, cp, (size_t)k + 2);
    }
    fputc('\n', out);
    free(titles), free(cells), free(cp), free(align), free(tt);
}

static const PlanUser *plan_user(const Plan *p, const char *name)
{
    for (int i = 0; i < p->nusers; i++)
        if (p->users[i].name && strcmp(p->users[i].name, name) == 0)
            return &p->users[i];
    return NULL;
}

static void stated_row(const Report *r, FILE *out, const StoreTuiStated *s)
{
    const PlanUser *u = plan_user(r->plan, s->user);
    double meas = u && u->f.njobs ? u->f.raw[FEAT_CONC_MEAN] : NAN;
    double mem = u && u->f.njobs && u->f.raw[FEAT_MEM_GIB] >= 0 ? u->f.raw[FEAT_MEM_GIB] : NAN;
    double ratio = isnan(meas) ? NAN : fmax(s->gpus_fulltime, 0.01) / fmax(meas, 0.01);
    char un[64], gn[64], st[NB], me[NB], ra[NB], sm[NB], mm[NB];
    mdw_num(st, NB, s->gpus_fulltime, 2, unit_gpus(r));
    mdw_num(me, NB, meas, 2, unit_gpus(r));
    mdw_num(ra, NB, ratio, 1, "x");
    mdw_num(sm, NB, s->gpu_mem_class_gib < 0 ? NAN : s->gpu_mem_class_gib, 0, "GiB");
    mdw_num(mm, NB, mem, 1, "GiB");
    /* the rule of `capplan meetings mismatches` and the Group view */
    int gpus_off = meetings_gpus_off(s->gpus_fulltime, isnan(meas) ? -1 : meas);
    int mem_off = meetings_mem_off(s->gpu_mem_class_gib, isnan(mem) ? -1 : mem);
    const char *verdict = isnan(meas)                            ? "no measured use"
                          : gpus_off && s->gpus_fulltime > meas ? "MISMATCH: states more"
                          : gpus_off                             ? "MISMATCH: states less"
                          : mem_off                              ? "MISMATCH: memory class"
                                                                 : "matches";
    const char *cells[] = {rpt_name(r, "user", s->user, un, sizeof un),
                           rpt_name(r, "group", s->group, gn, sizeof gn),
                           s->date, st, me, ra, sm, mm, verdict};
    mdw_row(out, cells, 9);
}

static void stated_table(const Report *r, FILE *out)
{
    fprintf(out, "### Stated against measured\n\nWhat members said in the meetings against "
                 "their mean concurrent %s and peak GPU memory over the planning window. A "
                 "MISMATCH is a difference of more than %.1f %s and more than "
                 "%.0f %% of the measured value, or a stated memory class other than the "
                 "measured peak's (<=24, <=48, <=80, >80 GiB), as `capplan meetings "
                 "mismatches` lists them.\n\n",
            unit_gpus(r), MEET_TOL_ABS, unit_gpus(r), MEET_TOL_REL * 100);
    size_t shown = 0;
    static const char *const titles[] = {"User",     "Group",        "Stated on",
                                         "Stated",   "Measured",     "Stated / measured",
                                         "Stated memory class", "Measured peak memory", "Verdict"};
    for (size_t i = 0; i < r->tui.nstated; i++) {
        if (r->tui.stated[i].gpus_fulltime < 0)
            continue;
        if (shown++ == 0)
            mdw_head(out, titles, "lllrrrrrl", 9);
        stated_row(r, out, &r->tui.stated[i]);
    }
    fputs(shown ? "\n" : "No stated needs recorded (the dashboard's Group view records them).\n\n",
          out);
}

static void notes_list(const Report *r, FILE *out)
{
    fprintf(out, "### Meeting notes\n\n");
    if (r->o.anonymize) {
        fprintf(out, "%zu notes; their text is left out of an anonymised report.\n\n",
                r->tui.nnotes);
        return;
    }
    for (size_t i = 0; i < r->tui.nnotes; i++) {
        const StoreTuiNote *n = &r->tui.notes[i];
        fputs("- **", out);
        mdw_text(out, n->group);
        fprintf(out, "**, %s", n->date);
        if (n->user) {
            fputs(" (", out);
            mdw_text(out, n->user);
            fputc(')', out);
        }
        fputs(": ", out);
        mdw_text(out, n->text);
        fputc('\n', out);
    }
    fputs(r->tui.nnotes ? "\n" : "No notes recorded.\n\n", out);
}

int rpt_profiles(const Report *r, FILE *out, CpErr *err)
{
    (void)err;
    const Plan *p = r->plan;
    char a[16], b[16];
    rpt_date(p->win_start, a, sizeof a);
    rpt_date(p->win_end, b, sizeof b);
    fprintf(out, "%d compute profiles from k-means over %d users' features (%s to %s; jobs of "
                 "5 minutes or more). Centroids in raw units; b_p is the %s per member the "
                 "projection uses (75th percentile of members' mean concurrent use).\n\n",
            p->fit.k, p->fit.n, a, b, unit_gpus(r));
    profile_table(r, out);
    fprintf(out, "### Groups' mixes of profiles\n\n");
    mix_table(r, out);
    stated_table(r, out);
    notes_list(r, out);
    return 0;
}

/* ---- 5. projections ---- */

static void group_terms(const Report *r, FILE *out)
{
    const Plan *p = r->plan;
    const char *u = unit_gpus(r);
    static const char *const titles[] = {"Group", "Domain",    "Year",  "Staying", "Arrivals",
                                         "Newcomers", "Heads", "Expected use", "Range p10-p90",
                                         "Pool",  "Buffer",    "Stated", "Need"};
    mdw_head(out, titles, "lllrrrrrrrrrr", 13);
    for (int g = 0; g < p->ngroups; g++)
        for (int y = 1; y <= r->res->nyears; y++) {
            const ProjGroupYear *t = &r->res->gy[(size_t)g * r->res->nyears + y - 1];
            char name[64], yr[16], c[10][NB];
            snprintf(yr, sizeof yr, "y%d", y);
            mdw_num(c[0], NB, t->stay, 2, "people");
            mdw_num(c[1], NB, t->arrivals, 2, "people");
            mdw_num(c[2], NB, t->newcomers, 2, "people");
            mdw_num(c[3], NB, t->heads, 2, "people");
            mdw_num(c[4], NB, t->base, 2, u);
            plan_range_text(t->base_r, u, c[5], NB);
            mdw_num(c[6], NB, t->pool, 2, u);
            mdw_num(c[7], NB, t->buffer_add, 2, u);
            mdw_num(c[8], NB, t->stated, 2, u);
            mdw_num(c[9], NB, t->demand, 2, u);
            const char *cells[] = {rpt_name(r, "group", p->groups[g], name, sizeof name),
                                   p->domains[p->group_domain[g]], yr, c[0], c[1], c[2], c[3],
                                   c[4], c[5], c[6], c[7], c[8], c[9]};
            mdw_row(out, cells, 13);
        }
    fputc('\n', out);
}

/* Under the group or domain table: when their needs add to more than the
 * institute's, the difference is shared between groups (each group's pool
 * and buffer cover its own bursts; the institute's pool covers bursts that
 * do not all come at once). Nothing when they do not. */
static void shared_line(const Report *r, FILE *out, int domains)
{
    const Plan *p = r->plan;
    int Y = r->res->nyears, n = domains ? p->ndomains : p->ngroups, said = 0;
    for (int y = 1; y <= Y; y++) {
        double sum = 0, inst = r->res->total[y - 1].demand;
        for (int i = 0; i < n; i++)
            sum += domains ? r->res->dom[(size_t)i * Y + y - 1].demand
                           : r->res->gy[(size_t)i * Y + y - 1].demand;
        if (sum <= inst + 0.005)
            continue;
        char a[NB], b[NB], c[NB];
        mdw_num(a, NB, sum, 2, unit_gpus(r));
        mdw_num(b, NB, inst, 2, unit_gpus(r));
        mdw_num(c, NB, sum - inst, 2, unit_gpus(r));
        fprintf(out, "%sy%d: the %s' needs add to %s against the institute's %s: %s shared "
                     "between groups",
                said++ ? "; " : "", y, domains ? "domains" : "groups", a, b, c);
    }
    if (said)
        fprintf(out, " (each group's pool and buffer cover its own bursts; the institute's "
                     "cover bursts that do not all come at once, so its need is less than the "
                     "sum).\n\n");
}

static void domain_terms(const Report *r, FILE *out)
{
    const Plan *p = r->plan;
    const char *u = unit_gpus(r);
    static const char *const titles[] = {"Domain", "Year", "Heads", "Base", "Pool", "Demand"};
    mdw_head(out, titles, "llrrrr", 6);
    for (int d = 0; d < p->ndomains; d++)
        for (int y = 1; y <= r->res->nyears; y++) {
            const ProjTotals *t = &r->res->dom[(size_t)d * r->res->nyears + y - 1];
            char yr[16], c[4][NB];
            snprintf(yr, sizeof yr, "y%d", y);
            mdw_num(c[0], NB, t->heads, 2, "people");
            mdw_num(c[1], NB, t->base, 2, u);
            mdw_num(c[2], NB, t->pool, 2, u);
            mdw_num(c[3], NB, t->demand, 2, u);
            const char *cells[] = {p->domains[d], yr, c[0], c[1], c[2], c[3]};
            mdw_row(out, cells, 6);
        }
    fputc('\n', out);
}

static int domain_chart(const Report *r, FILE *out, const char *dir, const char *rel,
                        CpErr *err)
{
    const Plan *p = r->plan;
    int Y = r->res->nyears;
    char xl[PROJ_MAX_YEARS][24];
    const char *xs[PROJ_MAX_YEARS];
    double *v = xcalloc((size_t)p->ndomains * (size_t)Y + 1, sizeof *v);
    const char **colors = xcalloc((size_t)p->ndomains + 1, sizeof *colors);
    for (int d = 0; d < p->ndomains; d++)
        colors[d] = rpt_domain_colour(r, p->domains[d]);
    for (int y = 0; y < Y; y++) {
        rpt_proj_year(r, y + 1, RPT_YEAR_AXIS, xl[y], sizeof xl[y]);
        xs[y] = xl[y];
        for (int d = 0; d < p->ndomains; d++)
            v[(size_t)d * Y + y] = r->res->dom[(size_t)d * Y + y].demand;
    }
    SvgChart c = {.kind = SVG_STACKED, .title = "Projected need by domain", .unit = unit_gpus(r),
                  .x = xs, .nx = (size_t)Y, .series = (const char *const *)p->domains,
                  .ns = (size_t)p->ndomains, .v = v, .colors = colors};
    int rc = rpt_chart(out, dir, rel, "projection", "Projected need by domain", &c, err);
    free(v);
    free(colors);
    return rc;
}

static void edits_table(const Report *r, FILE *out)
{
    fprintf(out, "### Changes against the base scenario\n\n");
    if (r->nedits == 0) {
        fprintf(out, "Scenario **");
        mdw_text(out, r->scenario);
        fprintf(out, "** changes nothing: every parameter is as measured.\n\n");
        return;
    }
    static const char *const titles[] = {"Parameter", "Group", "Value", "Measured", "Reason",
                                         "Who"};
    mdw_head(out, titles, "llrrll", 6);
    for (size_t i = 0; i < r->nedits; i++) {
        const StorePlanParam *e = &r->edits[i];
        char gn[64], v[NB], m[NB];
        mdw_num(v, NB, e->value, 4, "");
        mdw_num(m, NB, e->measured, 4, "");
        const char *cells[] = {e->key, e->group[0] ? rpt_name(r, "group", e->group, gn, sizeof gn)
                                                   : "all groups",
                               v, m,
                               r->o.anonymize ? "(left out: anonymised)"
                               : e->reason && e->reason[0] ? e->reason
                                                           : "(none given)",
                               r->o.anonymize ? "-" : e->who ? e->who : "-"};
        mdw_row(out, cells, 6);
    }
    fputc('\n', out);
    if (r->skipped)
        fprintf(out, "%d edits no longer apply (their group or profile is gone).\n\n",
                r->skipped);
    static const char *const t2[] = {"Year", "Base demand", "Scenario demand", "Change"};
    mdw_head(out, t2, "lrrr", 4);
    for (int y = 1; y <= r->res->nyears; y++) {
        char yl[64], a[NB], b[NB], c[NB];
        rpt_proj_year(r, y, RPT_YEAR_CELL, yl, sizeof yl);
        mdw_num(a, NB, r->base_res->total[y - 1].demand, 2, unit_gpus(r));
        mdw_num(b, NB, r->res->total[y - 1].demand, 2, unit_gpus(r));
        mdw_num(c, NB, r->res->total[y - 1].demand - r->base_res->total[y - 1].demand, 2,
                unit_gpus(r));
        const char *cells[] = {yl, a, b, c};
        mdw_row(out, cells, 4);
    }
    fputc('\n', out);
}

static void backtest_section(const Report *r, FILE *out)
{
    fprintf(out, "### Backtest\n\n");
    if (!r->bt) {
        fprintf(out, "No backtest: ");
        mdw_text(out, r->bt_why);
        fprintf(out, ".\n\n");
        return;
    }
    const PlanBacktest *b = r->bt;
    char cut[16], w[3][NB], t[4][NB];
    rpt_date(b->cut, cut, sizeof cut);
    const double wv[] = {b->score.wape_naive, b->score.wape_base, b->score.wape_demand};
    for (int i = 0; i < 3; i++)
        mdw_num(w[i], NB, wv[i] < 0 ? NAN : 100 * wv[i], 1, "%");
    const double tv[] = {b->score.after, b->score.naive, b->score.base, b->score.demand};
    for (int i = 0; i < 4; i++)
        mdw_num(t[i], NB, tv[i], 2, unit_gpus(r));
    fprintf(out, "Refit with what was known at %s (%d active users), projected 12 months and "
                 "scored on the %.1f months recorded after it. Error (WAPE: sum of "
                 "|projected - actual| over sum of actual):\n\n",
            cut, b->users, b->scored_months);
    static const char *const titles[] = {"Projection", "Projected total", "Error (WAPE)"};
    mdw_head(out, titles, "lrr", 3);
    const char *rows[][3] = {{"actual use", t[0], "-"},
                             {"naive (last 12 months)", t[1], w[0]},
                             {"model expected use", t[2], w[1]},
                             {"model with buffer", t[3], w[2]}};
    for (int i = 0; i < 4; i++)
        mdw_row(out, rows[i], 3);
    fprintf(out, "\nThe need adds headroom by design (pool and buffer); use is capped by "
                 "capacity, so long waits mark demand that went unmet. `capplan project "
                 "--backtest` runs every monthly cut.\n\n");
}

int rpt_projections(const Report *r, FILE *out, const char *dir, const char *rel, CpErr *err)
{
    fprintf(out, "Every term of the projection (model v2, docs/planning.md): expected use = "
                 "each member's own rate (leavers by their roster end) + newcomers at the measured "
                 "rate and ramp, times the intensity trend; need = expected use + the group's "
                 "exploration/HPO pool (q90 of its burst curve) + the buffer + the members' stated "
                 "needs beyond their expected use (the roster's stated_needs, column Stated); "
                 "%s.\n\n",
            r->plan->cpu ? "CPUs" : "GPU-eq");
    if (r->plan->bt) { /* issue 28: the forecaster that sets the levels, and its record */
        char f[256], c[128];
        plan_forecaster_text(r->plan->bt, f, sizeof f);
        plan_coverage_text(r->plan->bt, c, sizeof c);
        fprintf(out, "The %s; %s (`capplan project --backtest`).\n\n", f, c);
    }
    if (domain_chart(r, out, dir, rel, err) < 0)
        return -1;
    fprintf(out, "### By group\n\n");
    group_terms(r, out);
    shared_line(r, out, 0);
    fprintf(out, "### By domain\n\n");
    domain_terms(r, out);
    shared_line(r, out, 1);
    edits_table(r, out);
    backtest_section(r, out);
    return 0;
}

/* ---- 6. other institutes ---- */

/* Our GPUs (the last year's inventory, as `capplan stats utilization --by
 * year` shows it) and researchers (the roster's, per domain, that year). */
static void our_resources(const Report *r, double *gpus, double *researchers)
{
    const StatsTable *u = rpt_table(r, RS_UTIL_YEAR, "utilization");
    const StatsTable *d = rpt_table(r, RS_DOMAINS_YEAR, "domains");
    const char *last = NULL;
    *gpus = *researchers = NAN;
    for (size_t i = 0; u && i < u->nrows; i++) {
        const StatsCell *c = stats_table_cell(u, i, "cluster");
        if (c && c->text && strcmp(c->text, "all") == 0) {
            *gpus = stats_table_cell(u, i, "gpus")->num;
            last = stats_table_cell(u, i, "period")->text;
        }
    }
    for (size_t i = 0; last && d && i < d->nrows; i++) {
        const StatsCell *pc = stats_table_cell(d, i, "period");
        double n = stats_table_cell(d, i, "researchers")->num;
        if (pc->text && strcmp(pc->text, last) == 0 && !isnan(n))
            *researchers = (isnan(*researchers) ? 0 : *researchers) + n;
    }
}

int rpt_peers(const Report *r, FILE *out, const char *dir, const char *rel, CpErr *err)
{
    if (r->npeers == 0) {
        fprintf(out, "No other institute was given (`capplan import peers FILE.csv` or "
                     "`capplan export report.md --peers FILE.csv`, with columns "
                     "institution,gpus,researchers).\n\n");
        return 0;
    }
    size_t n = r->npeers + 1;
    const char **names = xcalloc(n, sizeof *names);
    double *gpus = xcalloc(n, sizeof *gpus), *res = xcalloc(n, sizeof *res);
    double *per = xcalloc(n, sizeof *per);
    names[0] = "this institute";
    our_resources(r, &gpus[0], &res[0]);
    for (size_t i = 1; i < n; i++) {
        names[i] = r->peers[i - 1].institution;
        gpus[i] = r->peers[i - 1].gpus;
        res[i] = r->peers[i - 1].researchers;
    }
    fprintf(out, "GPUs per researcher side by side (ours: the GPUs in service and the "
                 "researchers on the roster in the latest year of the data).\n\n");
    static const char *const titles[] = {"Institution", "GPUs", "Researchers",
                                         "GPUs per researcher"};
    mdw_head(out, titles, "lrrr", 4);
    for (size_t i = 0; i < n; i++) {
        char a[NB], b[NB], c[NB];
        per[i] = res[i] > 0 ? gpus[i] / res[i] : NAN;
        mdw_num(a, NB, gpus[i], 0, "GPUs");
        mdw_num(b, NB, res[i], 0, "people");
        mdw_num(c, NB, per[i], 3, "GPUs");
        const char *cells[] = {names[i], a, b, c};
        mdw_row(out, cells, 4);
    }
    fputc('\n', out);
    static const char *const series[] = {"GPUs per researcher"};
    SvgChart ch = {.kind = SVG_BARS, .title = "GPUs per researcher",
                   .unit = "GPUs per researcher", .x = names, .nx = n, .series = series, .ns = 1,
                   .v = per};
    int rc = rpt_chart(out, dir, rel, "peers", "GPUs per researcher by institution", &ch, err);
    free(names), free(gpus), free(res), free(per);
    return rc;
}
