/* project_explain: `capplan project --explain GROUP` (project_explain.h).
 * The figures and the people come from data/plan_explain, as the
 * dashboard's Projection view draws them. */
#include "cli/project_explain.h"

#include "cli/cli.h"
#include "data/plan/plan_explain.h"

#define NAMES_SHOWN 12

/* " name name ... and N more" of n people idx (up to NAMES_SHOWN in idx),
 * each with the date they leave when dated. */
static void names(const Plan *p, const int *idx, int n, int dated, FILE *out)
{
    char name[64], when[48];
    for (int i = 0; i < n && i < NAMES_SHOWN; i++) {
        cli_sanitize(name, sizeof name, p->proj_user_name[idx[i]]);
        plan_explain_leave_text(p, idx[i], 1, when, sizeof when);
        fprintf(out, " %s%s", name, dated ? when : "");
    }
    if (n > NAMES_SHOWN)
        fprintf(out, " and %d more", n - NAMES_SHOWN);
    fprintf(out, "%s\n", n ? "" : " none");
}

/* Group g's people: today's members (leaving: 0), or those leaving
 * before the end of year 1, each with the date (leaving: 1). */
static void people(const Plan *p, int g, int leaving, const char *what, FILE *out)
{
    int idx[NAMES_SHOWN], n = plan_explain_people(p, g, 1, leaving, idx, NAMES_SHOWN);
    fprintf(out, "    %s (%d):", what, n);
    names(p, idx, n, leaving, out);
}

/* The members who arrived in the last months, their rates together x the
 * group's factor (the measured maturation, capped at a member's mean use
 * each); nothing when there is none. */
static void matured(const Plan *p, int g, double factor, FILE *out)
{
    int idx[NAMES_SHOWN], n = plan_explain_matured(p, g, idx, NAMES_SHOWN), k;
    if (n == 0)
        return;
    double f = projection_group_maturation(p->model, g, &k);
    fprintf(out, "    arrived in the last %d months, together x %.2f (the measured maturation "
                 "%.2f%s) (%d):",
            DEM_MATURE_MONTHS, f, factor,
            f < factor ? ", capped: as many members' mean use at most" : "", n);
    names(p, idx, n, 0, out);
}

/* Group g's stated needs (issue 28), each with its part of year 1's need. */
static void stated_lines(const Plan *p, const ProjParams *params, const PlanStated *s, int n,
                         int g, double part, FILE *out)
{
    const char *u = p->cpu ? "CPUs" : "GPU-eq";
    int k = 0;
    for (int i = 0; i < n; i++)
        k += s[i].group_idx == g;
    if (k == 0) {
        fprintf(out, "  stated need  %+9.2f %s  no member's stated need known at the start\n",
                part, u);
        return;
    }
    fprintf(out, "  stated need  %+9.2f %s  what members stated beyond their expected use (no "
                 "buffer; the %.0f x cap does not bound it)\n",
            part, u, PROJ_NEED_CAP);
    for (int i = 0; i < n; i++) {
        if (s[i].group_idx != g)
            continue;
        char name[64];
        double use, pres, x = plan_stated_part(p, params, &s[i], 1, &use, &pres);
        cli_sanitize(name, sizeof name, s[i].user);
        if (s[i].proj_user >= 0)
            fprintf(out, "    %s (%s): %g GPUs full-time x %.2f of the year present, expected "
                         "use %.2f: %+.2f\n",
                    name, s[i].date, s[i].gpus, pres, use, x);
        else
            fprintf(out, "    %s (%s): %g GPUs full-time, no use in the window: %+.2f\n", name,
                    s[i].date, s[i].gpus, x);
    }
}

int project_explain_print(const Plan *p, const ProjParams *params, const ProjResult *r,
                          const PlanStated *stated, int nstated, const char *group, FILE *out)
{
    int g = plan_group_index(p, group);
    PlanExplain x;
    if (g < 0 || plan_explain(p, params, r, g, 1, &x) < 0)
        return cli_error("project --explain: no group '%s'", group);
    const double *v = x.part;
    const char *u = p->cpu ? "CPUs" : "GPU-eq";
    char name[64], rg[48];
    cli_sanitize(name, sizeof name, p->groups[g]);
    plan_range_text(x.need_r, u, rg, sizeof rg);
    fprintf(out, "%s, year 1: need %.2f %s (%s)\n", name, x.need, u, rg);
    if (x.used_cover < 1) /* a history that starts inside the window */
        fprintf(out, "  used now     %9.2f %s  mean over the %.1f days the accounting covers of the "
                "12 months before the projection\n", x.used_now, u, x.used_cover * 365.25);
    else
        fprintf(out, "  used now     %9.2f %s  mean over the 12 months before the projection\n",
                x.used_now, u);
    double lv = projection_level(p->model, g);
    if (p->bt && lv != 1) {
        char fl[256];
        plan_forecaster_text(p->bt, fl, sizeof fl);
        fprintf(out, "  level        x%8.2f     each part below x this: the %s\n", lv, fl);
    }
    fprintf(out, "  stayers      %+9.2f %s  the %.0f members of the last 12 months at their own rates\n",
            v[PLAN_X_STAYERS], u, x.heads0);
    people(p, g, 0, "members", out);
    matured(p, g, x.maturation, out);
    double churn = 0; /* issue 28: the members with no known leave date leave by it */
    for (int i = 0; i < p->nproj_users; i++)
        if (projection_user_group(p->model, i) == g && projection_user_churn(p->model, i) > churn)
            churn = projection_user_churn(p->model, i);
    fprintf(out, "  leavers      %+9.2f %s  members whose known leave date (roster end, else "
                 "planned end) falls before the year's end; the others by the group's churn "
                 "%.0f %%/yr\n",
            v[PLAN_X_LEAVERS], u, 100 * churn);
    people(p, g, 1, "leaving", out);
    fprintf(out, "  newcomers    %+9.2f %s  %.1f arrivals + %.1f newcomers (the %.0f members "
                 "still here at the start, grown), first year at the measured ramp %.2f\n",
            v[PLAN_X_NEWCOMERS], u, x.arrivals, x.newcomers, x.heads_t0, x.ramp);
    fprintf(out, "  intensity    %+9.2f %s  institute trend %+.1f %%/yr\n", v[PLAN_X_INTENSITY],
            u, 100 * x.intensity_rate);
    fprintf(out, "  pool share   %+9.2f %s  q90 of the group's exploration/HPO bursts\n",
            v[PLAN_X_POOL], u);
    const ProjGroupYear *y1 = r->nyears > 0 ? &r->gy[(size_t)g * r->nyears] : NULL;
    if (y1 && y1->pool_cut > 0)
        fprintf(out, "    capped: %.2f %s of measured bursts left out: the need at most %.0f x the "
                     "use of the last 12 months + that of its %.1f named arrivals; pool=VALUE "
                     "states a need beyond\n",
                y1->pool_cut, u, PROJ_NEED_CAP, y1->arrivals);
    fprintf(out, "  buffer share %+9.2f %s  %.0f %% of expected use + pool\n", v[PLAN_X_BUFFER],
            u, 100 * x.buffer_rate);
    stated_lines(p, params, stated, nstated, g, v[PLAN_X_STATED], out);
    double sum = 0;
    for (int k = 0; k < PLAN_X_PARTS; k++)
        sum += v[k];
    fprintf(out, "  = need       %9.2f %s\n", sum, u);
    return 0;
}
