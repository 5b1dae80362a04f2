/* project_explain: `capplan project --explain GROUP` (project_explain.h). */
#include "cli/project_explain.h"

#include "cli/cli.h"

#define NAMES_SHOWN 12

/* Up to NAMES_SHOWN members of group g: present in year 1 (leaving: 0),
 * or leaving during it (leaving: 1). */
static void people(const Plan *p, int g, int leaving, const char *what, FILE *out)
{
    char name[64];
    int n = 0;
    fprintf(out, "    %s:", what);
    for (int i = 0; i < p->nproj_users && n < NAMES_SHOWN; i++) {
        if (projection_user_group(p->model, i) != g)
            continue;
        double pres = projection_user_present(p->model, i, 1);
        if ((!leaving && pres <= 0) || (leaving && pres >= 1))
            continue;
        cli_sanitize(name, sizeof name, p->proj_user_name[i]);
        fprintf(out, " %s", name);
        n++;
    }
    fprintf(out, "%s\n", n ? "" : " none");
}

int project_explain_print(const Plan *p, const ProjParams *params, const ProjResult *r,
                          const char *group, FILE *out)
{
    int g = plan_group_index(p, group);
    if (g < 0)
        return cli_error("project --explain: no group '%s'", group);
    const ProjGroupYear *t = &r->gy[(size_t)g * r->nyears];
    const char *u = p->cpu ? "CPUs" : "GPU-eq";
    char name[64], rg[48];
    cli_sanitize(name, sizeof name, p->groups[g]);
    plan_range_text(t->demand_r, u, rg, sizeof rg);
    fprintf(out, "%s, year 1: need %.2f %s (%s)\n", name, t->demand, u, rg);
    fprintf(out, "  stayers      %+9.2f %s  today's %.0f members at their own rates\n",
            t->stayers, u, projection_heads0(p->model, g));
    people(p, g, 0, "members", out);
    fprintf(out, "  leavers      %+9.2f %s  members whose roster end falls in the year\n",
            t->leavers, u);
    people(p, g, 1, "leaving", out);
    fprintf(out, "  newcomers    %+9.2f %s  %.1f arrivals + %.1f newcomers, first year at the "
                 "measured ramp\n",
            t->newcomers_use, u, t->arrivals, t->newcomers);
    fprintf(out, "  intensity    %+9.2f %s  institute trend %+.1f %%/yr\n", t->intensity, u,
            100 * params->intensity);
    fprintf(out, "  pool share   %+9.2f %s  q90 of the group's exploration/HPO bursts\n",
            t->pool, u);
    fprintf(out, "  buffer share %+9.2f %s  %.0f %% of expected use + pool\n", t->buffer_add, u,
            100 * params->buffer[g]);
    fprintf(out, "  = need       %9.2f %s\n",
            t->stayers + t->leavers + t->newcomers_use + t->intensity + t->pool + t->buffer_add,
            u);
    return 0;
}
