/* report_research: the report's "Who does what research" section (issue
 * 18): research clusters from the papers beside the compute profiles of
 * section 4, saved or not (data/research_run: the same figures as
 * `capplan research` once they are saved), whom to ask
 * why, and who publishes without GPU jobs or the reverse. Names go
 * through rpt_name, so --anonymize hides them. */

#include <stdlib.h>
#include <string.h>

#include "core/profiles.h"
#include "data/plan/research_run.h"
#include "reports/mdw.h"
#include "reports/report_int.h"

#define LIST_MAX 30 /* people listed per list; the rest counted */

int rpt_research_gather(Report *r, Store *st, CpErr *err)
{
    Research *rs = xcalloc(1, sizeof *rs);
    ResearchOpts o;
    research_opts_init(&o);
    o.plan = r->plan; /* section 4's profiles, saved or not */
    if (research_build(st, &o, rs, err) < 0) {
        free(rs);
        return -1;
    }
    r->research = rs;
    return 0;
}

void rpt_research_free(Report *r)
{
    if (!r->research)
        return;
    research_free(r->research);
    free(r->research);
    r->research = NULL;
}

static void cluster_table(const Research *rs, FILE *out)
{
    static const char *const t[] = {"research cluster", "top terms", "people", "papers",
                                    "usual compute profile", "its share"};
    mdw_head(out, t, "llrrlr", 6);
    for (int c = 0; c < rs->clusters.k; c++) {
        char id[16], ppl[32], pap[32], share[32], prof[256];
        snprintf(id, sizeof id, "R%d", c + 1);
        mdw_num(ppl, sizeof ppl, rs->clusters.sizes[c], 0, "");
        mdw_num(pap, sizeof pap, rs->cluster_papers[c], 0, "");
        int u = rs->cmp.usual[c];
        if (u >= 0) {
            snprintf(prof, sizeof prof, "P%d %s", u + 1, rs->profile_name[u]);
            mdw_num(share, sizeof share, 100 * rs->cmp.usual_share[c], 0, "%");
        } else {
            snprintf(prof, sizeof prof, "-");
            snprintf(share, sizeof share, "-");
        }
        const char *cells[6] = {id, rs->cluster_name[c], ppl, pap, prof, share};
        mdw_row(out, cells, 6);
    }
    fputc('\n', out);
}

static void contingency(const Research *rs, FILE *out)
{
    int n = rs->kp + 1;
    const char **t = xcalloc((size_t)n, sizeof *t);
    char (*names)[16] = xcalloc((size_t)n, sizeof *names);
    char *align = xcalloc((size_t)n + 1, 1);
    t[0] = "people";
    align[0] = 'l';
    for (int p = 0; p < rs->kp; p++) {
        snprintf(names[p + 1], sizeof names[p + 1], "P%d", p + 1);
        t[p + 1] = names[p + 1];
        align[p + 1] = 'r';
    }
    mdw_head(out, t, align, (size_t)n);
    for (int c = 0; c < rs->clusters.k; c++) {
        snprintf(names[0], sizeof names[0], "R%d", c + 1);
        t[0] = names[0];
        char (*cell)[16] = xcalloc((size_t)n, sizeof *cell);
        for (int p = 0; p < rs->kp; p++) {
            mdw_num(cell[p + 1], sizeof cell[p + 1], rs->cmp.table[c * rs->kp + p], 0, "");
            t[p + 1] = cell[p + 1];
        }
        mdw_row(out, t, (size_t)n);
        free(cell);
    }
    if (rs->cmp.both > 0)
        fprintf(out, "\nAgreement over the %d people with both: adjusted Rand index %.3f, "
                     "normalised mutual information %.3f (1 = the same grouping, 0 = "
                     "unrelated).\n\n",
                rs->cmp.both, rs->cmp.ari, rs->cmp.nmi);
    else
        fprintf(out, "\nAgreement: not compared (no one has both a research cluster and a "
                     "compute profile).\n\n");
    for (int p = 0; p < rs->kp; p++) {
        fprintf(out, "- P%d: ", p + 1);
        mdw_text(out, rs->profile_name[p]);
        fputc('\n', out);
    }
    fputc('\n', out);
    free(t);
    free(names);
    free(align);
}

/* which: 1 papers without GPU jobs, 2 GPU jobs without papers. */
static int listed(const ResearchRow *w, int which)
{
    return which == 1 ? w->papers_no_gpu : w->gpu_no_papers;
}

static void people_list(const Report *r, const Research *rs, FILE *out, int which)
{
    static const char *const t[] = {"user", "group", "research cluster", "papers",
                                    "compute profile", "usual profile", "GPU-hours (profile window)"};
    int n = 0;
    for (int i = 0; i < rs->nrows; i++)
        n += listed(&rs->rows[i], which);
    if (n == 0) {
        fprintf(out, "(nobody)\n\n");
        return;
    }
    mdw_head(out, t, "lllrllr", 7);
    int shown = 0;
    for (int i = 0; i < rs->nrows && shown < LIST_MAX; i++) {
        const ResearchRow *w = &rs->rows[i];
        if (!listed(w, which))
            continue;
        char ub[128], gb[128], rc[16] = "-", pp[32], pr[16] = "-", us[16] = "-", gh[32];
        const char *u = rpt_name(r, "user", w->user, ub, sizeof ub);
        const char *g = rpt_name(r, "group", w->group, gb, sizeof gb);
        if (w->cluster >= 0)
            snprintf(rc, sizeof rc, "R%d", w->cluster + 1);
        if (w->profile >= 0)
            snprintf(pr, sizeof pr, "P%d", w->profile + 1);
        if (w->cluster >= 0 && rs->cmp.usual[w->cluster] >= 0)
            snprintf(us, sizeof us, "P%d", rs->cmp.usual[w->cluster] + 1);
        mdw_num(pp, sizeof pp, w->papers, 0, "");
        mdw_num(gh, sizeof gh, w->gpu_hours, 0, "GPU-h");
        const char *cells[7] = {u, g, rc, pp, pr, us, gh};
        mdw_row(out, cells, 7);
        shown++;
    }
    if (n > shown)
        fprintf(out, "\n... and %d more (`capplan research --csv` lists everyone).\n", n - shown);
    fputc('\n', out);
}

/* The ranked list of hidden demand (issue 32): by GPU-eq at stake, at
 * most RESEARCH_PER_GROUP a group; how many are not shown. */
static void ask_list(const Report *r, const Research *rs, FILE *out)
{
    static const char *const t[] = {"rank", "user", "group", "research cluster",
                                    "its jobs", "its line", "GPU-eq at stake",
                                    "GPU-hours (profile window)"};
    if (rs->nflagged == 0) {
        fprintf(out, "(nobody: every line's members with %g GPU-hours or more run at least its "
                     "usual memory class and width)\n\n", rs->opts.min_hours);
        return;
    }
    mdw_head(out, t, "rlllllrr", 8);
    for (int k = 1; k <= rs->nshown; k++)
        for (int i = 0; i < rs->nrows; i++) {
            const ResearchRow *w = &rs->rows[i];
            if (w->need.rank != k)
                continue;
            const ResearchNeed *u = &rs->need[w->cluster];
            char ub[128], gb[128], rk[16], rc[16], mine[48], line[48], st[32], gh[32];
            const char *un = rpt_name(r, "user", w->user, ub, sizeof ub);
            const char *g = rpt_name(r, "group", w->group, gb, sizeof gb);
            snprintf(rk, sizeof rk, "%d", k);
            snprintf(rc, sizeof rc, "R%d", w->cluster + 1);
            if (w->need.below_mem) {
                snprintf(mine, sizeof mine, "%s GB class",
                         profiles_mem_class_name(profiles_mem_class(w->mem_gib)));
                snprintf(line, sizeof line, "%s GB class", profiles_mem_class_name(u->mem_class));
            } else {
                snprintf(mine, sizeof mine, "%g GPU%s a job", w->gpus, w->gpus == 1 ? "" : "s");
                snprintf(line, sizeof line, "%g GPUs a job", u->gpus);
            }
            mdw_num(st, sizeof st, w->need.stake, 2, "GPU-eq");
            mdw_num(gh, sizeof gh, w->gpu_hours, 0, "GPU-h");
            const char *cells[8] = {rk, un, g, rc, mine, line, st, gh};
            mdw_row(out, cells, 8);
        }
    fprintf(out, "\n%d flagged, %d shown", rs->nflagged, rs->nshown);
    if (rs->nflagged > rs->nshown)
        fprintf(out, ", %d not shown (at most %d a group: `capplan research --all`)",
                rs->nflagged - rs->nshown, rs->opts.per_group);
    fprintf(out, "; people under %g GPU-hours are not compared.\n\n", rs->opts.min_hours);
}

/* The section's last word: each cluster's budget figure, a what-if one
 * key away. */
static void budget(const Research *rs, FILE *out)
{
    fprintf(out, "### Hidden demand: the budget figure\n\n");
    if (!rs->have_profiles) {
        fprintf(out, "Not compared: run `capplan profile`.\n\n");
        return;
    }
    int any = 0;
    char line[512];
    for (int c = 0; c < rs->clusters.k; c++)
        if (research_budget_text(rs, c, line, sizeof line)) {
            fprintf(out, "- %s (a what-if: `capplan research apply R%d --scenario NAME`; not "
                         "in the plan until applied)\n", line, c + 1);
            any = 1;
        }
    fprintf(out, any ? "\n" : "No research line implies more than its members' jobs show.\n\n");
}

int rpt_research(const Report *r, FILE *out, CpErr *err)
{
    (void)err;
    const Research *rs = r->research;
    if (!rs || rs->data.npapers == 0) {
        fprintf(out, "No papers with their text imported (`capplan import pubs FILE.bib`).\n\n");
        return 0;
    }
    fprintf(out,
            "%d papers since %d, %d of them with a roster author who is not a professor; "
            "%lld of %lld author slots matched to the roster (%d authors matched no one). "
            "People clustered by the research terms their papers name (TF-IDF of %d terms, "
            "k-means, k = %d by silhouette %.3f), beside the compute profiles of their jobs.\n\n",
            rs->data.npapers, rs->opts.since, rs->npapers_used, (long long)rs->data.matched,
            (long long)rs->data.slots, rs->data.nunmatched, rs->nterms, rs->clusters.k,
            rs->clusters.silhouette);
    cluster_table(rs, out);
    if (!rs->have_profiles)
        fprintf(out, "No compute profiles yet (`capplan profile`): nothing to compare.\n\n");
    else
        contingency(rs, out);
    fprintf(out, "### Ask why: research that implies more than the jobs show, by GPU-eq at "
                 "stake\n\n");
    if (rs->have_profiles)
        ask_list(r, rs, out);
    else
        fprintf(out, "Not compared: run `capplan profile`.\n\n");
    fprintf(out, "### Papers in %d or later, no GPU jobs in the profile window\n\n",
            rs->recent_from);
    people_list(r, rs, out, 1);
    fprintf(out, "### GPU jobs, no papers since %d\n\n", rs->opts.since);
    people_list(r, rs, out, 2);
    budget(rs, out);
    return 0;
}
