/* capplan research: research clusters from the papers beside the compute
 * profiles from the jobs (issue 18), as text, JSON or CSV. Printing only:
 * the figures come from data/research_run. */
#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/plan_cli.h"
#include "core/profiles.h"
#include "data/plan/plan.h"
#include "data/plan/research_apply.h"
#include "data/plan/research_run.h"

static const char research_usage[] =
    "capplan research [--since YEAR] [--k N] [--by kmeans|coauthors] [--terms FILE] "
    "[--all] [--min-hours H] [--json|--csv] | apply USER|RN [--scenario S] [--reason R]";

static const char research_help[] =
    "\n"
    "Who does what research: the roster's people (professors left out) clustered by\n"
    "the research terms their papers name (imported with `capplan import pubs\n"
    "FILE.bib`), set beside the compute profiles of the latest `capplan profile`.\n"
    "\noptions:\n"
    "  --since YEAR   papers of this year on (default 2019)\n"
    "  --k N          research clusters (default: chosen by silhouette over 2..8)\n"
    "  --by M         kmeans (TF-IDF of the terms, the default) or coauthors\n"
    "                 (communities of the co-author graph)\n"
    "  --terms FILE   more terms: lines `category | label | synonym, synonym`\n"
    "  --all          every person flagged (default: at most 5 a group)\n"
    "  --min-hours H  compare people with H GPU-hours or more (default 100)\n"
    "  --json         every figure, stable keys\n"
    "  --csv          one row per person\n"
    "\napply USER: USER's latest stated full-time GPUs (capplan meetings) become the need\n"
    "of their research cluster's usual compute profile (gpus.N) in every group with\n"
    "students of that cluster, one edit per group with its reason, in scenario S\n"
    "(default 'meetings', created when absent); `capplan scenario undo S` takes one back.\n"
    "\napply RN: research cluster N's budget figure (hidden demand: its people who run\n"
    "below their line's usual class or width, at their peers' use) as a what-if: each\n"
    "group's pool raised by its flagged people's GPU-eq at stake, one edit per group.\n";

/* Research cluster c as "R<n>" (1-based), "-" for none. */
static const char *rname(int c, char *buf, size_t n)
{
    if (c < 0)
        return "-";
    snprintf(buf, n, "R%d", c + 1);
    return buf;
}

static const char *pname(int p, char *buf, size_t n)
{
    if (p < 0)
        return "-";
    snprintf(buf, n, "P%d", p + 1);
    return buf;
}

/* ---- text ---- */

static void text_clusters(const Research *r, FILE *out)
{
    char s[512], b[16];
    fprintf(out, "%-4s %6s %7s  %-40s %s\n", "", "people", "papers", "top terms",
            "usual compute profile (share of its people with one)");
    for (int c = 0; c < r->clusters.k; c++) {
        cli_sanitize(s, sizeof s, r->cluster_name[c]);
        fprintf(out, "%-4s %6d %7d  %-40s ", rname(c, b, sizeof b), r->clusters.sizes[c],
                r->cluster_papers[c], s);
        int u = r->cmp.usual ? r->cmp.usual[c] : -1;
        if (u >= 0) {
            cli_sanitize(s, sizeof s, r->profile_name[u]);
            fprintf(out, "%s %s (%.0f %%)\n", pname(u, b, sizeof b), s, 100 * r->cmp.usual_share[c]);
        } else
            fprintf(out, "-\n");
    }
}

static void text_table(const Research *r, FILE *out)
{
    char b[16];
    fprintf(out, "\nresearch cluster x compute profile (people)\n%-4s", "");
    for (int p = 0; p < r->kp; p++)
        fprintf(out, " %5s", pname(p, b, sizeof b));
    fprintf(out, "\n");
    for (int c = 0; c < r->clusters.k; c++) {
        fprintf(out, "%-4s", rname(c, b, sizeof b));
        for (int p = 0; p < r->kp; p++)
            fprintf(out, " %5d", r->cmp.table[c * r->kp + p]);
        fprintf(out, "\n");
    }
    if (r->cmp.both > 0)
        fprintf(out, "agreement over %d people with both: adjusted Rand index %.3f, "
                     "normalised mutual information %.3f\n",
                r->cmp.both, r->cmp.ari, r->cmp.nmi);
    else
        fprintf(out, "agreement: not compared (no one has both a research cluster and a "
                     "compute profile)\n");
    for (int p = 0; p < r->kp; p++) {
        char s[256];
        cli_sanitize(s, sizeof s, r->profile_name[p]);
        fprintf(out, "  %s %s\n", pname(p, b, sizeof b), s);
    }
}

/* The ranked rows (rank 1..nshown) in order; caller frees. */
static const ResearchRow **ranked(const Research *r)
{
    const ResearchRow **v = xcalloc((size_t)r->nshown + 1, sizeof *v);
    for (int i = 0; i < r->nrows; i++)
        if (r->rows[i].need.rank > 0 && r->rows[i].need.rank <= r->nshown)
            v[r->rows[i].need.rank - 1] = &r->rows[i];
    return v;
}

/* What the person's line implies beyond their jobs, into buf. */
static void why_text(const Research *r, const ResearchRow *w, char *buf, size_t n)
{
    const ResearchNeed *u = &r->need[w->cluster];
    if (w->need.below_mem)
        snprintf(buf, n, "%s GB class, its line %s GB", profiles_mem_class_name(
                 profiles_mem_class(w->mem_gib)), profiles_mem_class_name(u->mem_class));
    else
        snprintf(buf, n, "%g GPU%s a job, its line %g", w->gpus, w->gpus == 1 ? "" : "s", u->gpus);
}

static void text_demand(const Research *r, FILE *out)
{
    char u[128], g[128], b1[16], why[128], line[512];
    fprintf(out, "\nhidden demand: research that implies more than the jobs show "
                 "(GPU-hour weighted; people with %g GPU-h or more)\n", r->opts.min_hours);
    if (!r->have_profiles) {
        fprintf(out, "  not compared: run `capplan profile`\n");
        return;
    }
    int any = 0;
    for (int c = 0; c < r->clusters.k; c++)
        if (research_budget_text(r, c, line, sizeof line)) {
            fprintf(out, "  %s (capplan research apply R%d)\n", line, c + 1);
            any = 1;
        }
    if (!any)
        fprintf(out, "  none: every line's members run at least its usual class and width\n");
    fprintf(out, "\nask why, by GPU-eq at stake (%d of %d flagged shown%s)\n", r->nshown,
            r->nflagged, r->opts.per_group > 0 ? "; at most 5 a group, --all for the rest" : "");
    const ResearchRow **v = ranked(r);
    for (int j = 0; j < r->nshown; j++) {
        const ResearchRow *w = v[j];
        cli_sanitize(u, sizeof u, w->user);
        cli_sanitize(g, sizeof g, w->group);
        why_text(r, w, why, sizeof why);
        fprintf(out, "  %3d %-16s %-20s %-4s +%6.2f GPU-eq  %s; %.0f GPU-h\n", j + 1, u, g,
                rname(w->cluster, b1, sizeof b1), w->need.stake, why, w->gpu_hours);
    }
    free(v);
    if (r->nflagged > r->nshown)
        fprintf(out, "  ... %d more not shown (--all)\n", r->nflagged - r->nshown);
}

static void text_lists(const Research *r, FILE *out)
{
    char u[128], g[128];
    int n = 0;
    text_demand(r, out);
    n = 0;
    for (int i = 0; i < r->nrows; i++)
        n += r->rows[i].papers_no_gpu;
    fprintf(out, "\npapers in %d or later, no GPU jobs in the profile window (%d people)\n",
            r->recent_from, n);
    for (int i = 0; i < r->nrows; i++)
        if (r->rows[i].papers_no_gpu) {
            cli_sanitize(u, sizeof u, r->rows[i].user);
            cli_sanitize(g, sizeof g, r->rows[i].group);
            fprintf(out, "  %-16s %-20s %3d paper%s\n", u, g, r->rows[i].papers,
                    r->rows[i].papers == 1 ? "" : "s");
        }
    n = 0;
    for (int i = 0; i < r->nrows; i++)
        n += r->rows[i].gpu_no_papers;
    fprintf(out, "\nGPU jobs, no papers since %d (%d people)\n", r->opts.since, n);
    for (int i = 0; i < r->nrows; i++)
        if (r->rows[i].gpu_no_papers) {
            cli_sanitize(u, sizeof u, r->rows[i].user);
            cli_sanitize(g, sizeof g, r->rows[i].group);
            fprintf(out, "  %-16s %-20s %10.1f GPU-h\n", u, g, r->rows[i].gpu_hours);
        }
}

static void print_text(const Research *r, FILE *out)
{
    fprintf(out, "papers since %d: %d (%d with a roster author who is not a professor); "
                 "%lld of %lld author slots matched to the roster\n",
            r->opts.since, r->data.npapers, r->npapers_used, (long long)r->data.matched,
            (long long)r->data.slots);
    if (r->opts.method == RESEARCH_COAUTHORS)
        fprintf(out, "research clusters: %d communities of the co-author graph\n\n",
                r->clusters.k);
    else
        fprintf(out, "research clusters: k-means on the TF-IDF of %d terms, k = %d%s "
                     "(silhouette %.3f)\n\n",
                r->nterms, r->clusters.k, r->opts.k ? "" : " by silhouette", r->clusters.silhouette);
    text_clusters(r, out);
    if (!r->have_profiles)
        fprintf(out, "\nnot compared: run `capplan profile`\n");
    else
        text_table(r, out);
    text_lists(r, out);
}

/* ---- JSON ---- */

/* A cluster's usual need and budget figure (issue 32): null where no
 * firm majority holds. */
static void json_need(const ResearchNeed *u, cJSON *e)
{
    cJSON *n = cJSON_AddObjectToObject(e, "usual_need");
    cJSON_AddNumberToObject(n, "members_compared", u->members);
    cJSON_AddNumberToObject(n, "gpu_hours", u->hours);
    if (u->mem_class >= 0)
        cJSON_AddStringToObject(n, "mem_class", profiles_mem_class_name(u->mem_class));
    else
        cJSON_AddNullToObject(n, "mem_class");
    cJSON_AddNumberToObject(n, "mem_class_share", u->mem_share);
    cJSON_AddBoolToObject(n, "multi_gpu", u->multi);
    cJSON_AddNumberToObject(n, "multi_gpu_share", u->multi_share);
    cJSON_AddNumberToObject(n, "gpus_a_job", u->gpus);
    cJSON_AddNumberToObject(n, "gpu_eq_a_member", u->conc);
    cJSON_AddNumberToObject(n, "people_below", u->below);
    cJSON_AddNumberToObject(n, "budget_gpu_eq", u->budget);
}

static void json_clusters(const Research *r, cJSON *o)
{
    cJSON *a = cJSON_AddArrayToObject(o, "clusters");
    for (int c = 0; c < r->clusters.k; c++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "id", c + 1);
        cJSON_AddStringToObject(e, "name", r->cluster_name[c]);
        cJSON_AddNumberToObject(e, "people", r->clusters.sizes[c]);
        cJSON_AddNumberToObject(e, "papers", r->cluster_papers[c]);
        int u = r->cmp.usual ? r->cmp.usual[c] : -1;
        if (u >= 0) {
            cJSON_AddNumberToObject(e, "usual_profile", u + 1);
            cJSON_AddNumberToObject(e, "usual_share", r->cmp.usual_share[c]);
        } else {
            cJSON_AddNullToObject(e, "usual_profile");
            cJSON_AddNullToObject(e, "usual_share");
        }
        json_need(&r->need[c], e);
        cJSON *row = cJSON_AddArrayToObject(e, "profiles");
        for (int p = 0; p < r->kp; p++)
            cJSON_AddItemToArray(row, cJSON_CreateNumber(r->cmp.table[c * r->kp + p]));
        cJSON_AddItemToArray(a, e);
    }
    cJSON *pa = cJSON_AddArrayToObject(o, "profiles");
    for (int p = 0; p < r->kp; p++)
        cJSON_AddItemToArray(pa, cJSON_CreateString(r->profile_name[p]));
}

static void json_people(const Research *r, cJSON *o)
{
    cJSON *a = cJSON_AddArrayToObject(o, "people");
    for (int i = 0; i < r->nrows; i++) {
        const ResearchRow *w = &r->rows[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "user", w->user);
        cJSON_AddStringToObject(e, "group", w->group);
        cJSON_AddStringToObject(e, "role", w->role);
        cJSON_AddNumberToObject(e, "papers", w->papers);
        if (w->cluster >= 0)
            cJSON_AddNumberToObject(e, "cluster", w->cluster + 1);
        else
            cJSON_AddNullToObject(e, "cluster");
        if (w->profile >= 0)
            cJSON_AddNumberToObject(e, "profile", w->profile + 1);
        else
            cJSON_AddNullToObject(e, "profile");
        cJSON_AddNumberToObject(e, "gpu_hours", w->gpu_hours);
        cJSON_AddBoolToObject(e, "ask", w->ask);
        cJSON_AddBoolToObject(e, "off_usual_profile", w->off_usual);
        cJSON_AddNumberToObject(e, "gpu_eq", w->conc);
        cJSON_AddNumberToObject(e, "gpus_a_job", w->gpus);
        if (w->mem_gib >= 0)
            cJSON_AddNumberToObject(e, "mem_gib", w->mem_gib);
        else
            cJSON_AddNullToObject(e, "mem_gib");
        cJSON_AddBoolToObject(e, "below_mem_class", w->need.below_mem);
        cJSON_AddBoolToObject(e, "below_multi_gpu", w->need.below_gpus);
        cJSON_AddNumberToObject(e, "gpu_eq_at_stake", w->need.stake);
        if (w->need.rank > 0)
            cJSON_AddNumberToObject(e, "rank", w->need.rank);
        else
            cJSON_AddNullToObject(e, "rank");
        if (w->last_year)
            cJSON_AddNumberToObject(e, "last_paper_year", w->last_year);
        else
            cJSON_AddNullToObject(e, "last_paper_year");
        cJSON_AddBoolToObject(e, "papers_no_gpu", w->papers_no_gpu);
        cJSON_AddBoolToObject(e, "gpu_no_papers", w->gpu_no_papers);
        cJSON_AddItemToArray(a, e);
    }
}

static void print_json(const Research *r, FILE *out)
{
    cJSON *o = cJSON_CreateObject();
    cli_json_schema(o, "research");
    cJSON_AddNumberToObject(o, "since", r->opts.since);
    cJSON_AddNumberToObject(o, "recent_from", r->recent_from);
    cJSON_AddStringToObject(o, "method", r->opts.method == RESEARCH_COAUTHORS ? "coauthors" : "kmeans");
    cJSON_AddNumberToObject(o, "terms", r->nterms);
    cJSON_AddNumberToObject(o, "papers", r->data.npapers);
    cJSON_AddNumberToObject(o, "papers_used", r->npapers_used);
    cJSON_AddNumberToObject(o, "author_slots", (double)r->data.slots);
    cJSON_AddNumberToObject(o, "author_slots_matched", (double)r->data.matched);
    cJSON_AddNumberToObject(o, "unmatched_authors", r->data.nunmatched);
    cJSON_AddNumberToObject(o, "k", r->clusters.k);
    cJSON_AddNumberToObject(o, "silhouette", r->clusters.silhouette);
    cJSON_AddBoolToObject(o, "have_profiles", r->have_profiles);
    cJSON_AddNumberToObject(o, "compared", r->cmp.both);
    if (r->cmp.both > 0) { /* nothing computed over nobody */
        cJSON_AddNumberToObject(o, "ari", r->cmp.ari);
        cJSON_AddNumberToObject(o, "nmi", r->cmp.nmi);
    } else {
        cJSON_AddNullToObject(o, "ari");
        cJSON_AddNullToObject(o, "nmi");
        cJSON_AddStringToObject(o, "not_compared", r->have_profiles
                                    ? "no one has both a research cluster and a compute profile"
                                    : "not compared: run `capplan profile`");
    }
    cJSON_AddNumberToObject(o, "min_gpu_hours", r->opts.min_hours);
    cJSON_AddNumberToObject(o, "per_group", r->opts.per_group);
    cJSON_AddNumberToObject(o, "flagged", r->nflagged);
    cJSON_AddNumberToObject(o, "shown", r->nshown);
    json_clusters(r, o);
    json_people(r, o);
    char *text = cJSON_Print(o);
    fprintf(out, "%s\n", text);
    free(text);
    cJSON_Delete(o);
}

/* ---- CSV ---- */

static void print_csv(const Research *r, FILE *out)
{
    fprintf(out, "user,group,role,papers,research_cluster,research_cluster_name,"
                 "compute_profile,usual_profile,ask,gpu_hours,gpu_eq_at_stake,rank\r\n");
    for (int i = 0; i < r->nrows; i++) {
        const ResearchRow *w = &r->rows[i];
        plan_cli_csv_cell(out, w->user);
        fputc(',', out);
        plan_cli_csv_cell(out, w->group);
        fputc(',', out);
        plan_cli_csv_cell(out, w->role);
        fprintf(out, ",%d,", w->papers);
        if (w->cluster >= 0) {
            fprintf(out, "%d,", w->cluster + 1);
            plan_cli_csv_cell(out, r->cluster_name[w->cluster]);
        } else
            fputc(',', out);
        fputc(',', out);
        if (w->profile >= 0)
            fprintf(out, "%d", w->profile + 1);
        fputc(',', out);
        if (w->cluster >= 0 && r->cmp.usual[w->cluster] >= 0)
            fprintf(out, "%d", r->cmp.usual[w->cluster] + 1);
        fprintf(out, ",%d,", w->ask);
        plan_cli_csv_num(out, w->gpu_hours);
        fputc(',', out);
        plan_cli_csv_num(out, w->need.stake);
        fputc(',', out);
        if (w->need.rank > 0)
            fprintf(out, "%d", w->need.rank);
        fprintf(out, "\r\n");
    }
}

/* ---- options ---- */

static int parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

/* Options into o; 2 on bad usage. */
static int parse(int argc, char **argv, ResearchOpts *o, int *fmt)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--json") == 0 || strcmp(a, "--csv") == 0) {
            int f = a[2] == 'j' ? 1 : 2;
            if (*fmt && *fmt != f)
                return cli_error("research: --json or --csv, not both") + 1;
            *fmt = f;
        }
        else if (strcmp(a, "--all") == 0)
            o->per_group = 0;
        else if (strcmp(a, "--min-hours") == 0 && more) {
            char *end;
            o->min_hours = strtod(argv[++i], &end);
            if (*end || !(o->min_hours >= 0)) {
                cli_error("research: --min-hours wants GPU-hours, not '%s'", argv[i]);
                return 2;
            }
        }
        else if (strcmp(a, "--since") == 0 && more) {
            if (parse_int(argv[++i], 1900, 2100, &o->since) < 0)
                return cli_error("research: --since: expected a year, got '%s'", argv[i]) + 1;
        } else if (strcmp(a, "--k") == 0 && more) {
            if (parse_int(argv[++i], 1, RESEARCH_KMAX, &o->k) < 0)
                return cli_error("research: --k: expected 1..%d, got '%s'", RESEARCH_KMAX,
                                 argv[i]) + 1;
        } else if (strcmp(a, "--by") == 0 && more) {
            const char *m = argv[++i];
            if (strcmp(m, "kmeans") == 0)
                o->method = RESEARCH_KMEANS;
            else if (strcmp(m, "coauthors") == 0)
                o->method = RESEARCH_COAUTHORS;
            else
                return cli_error("research: --by: expected kmeans or coauthors, got '%s'", m) + 1;
        } else if (strcmp(a, "--terms") == 0 && more)
            o->terms_file = argv[++i];
        else if (!more && (strcmp(a, "--since") == 0 || strcmp(a, "--k") == 0 ||
                           strcmp(a, "--by") == 0 || strcmp(a, "--terms") == 0)) {
            char k[16];
            snprintf(k, sizeof k, "1..%d", RESEARCH_KMAX);
            cli_error("research: %s needs a value (%s)", a,
                      strcmp(a, "--since") == 0 ? "a year"
                      : strcmp(a, "--k") == 0   ? k
                      : strcmp(a, "--by") == 0  ? "kmeans or coauthors"
                                                : "a FILE");
            return 2;
        } else {
            cli_error("research: unknown option '%s'", a);
            return 2;
        }
    }
    return 0;
}

static void print_apply(const ResearchApply *a, const Plan *p, const char *user,
                        const char *scenario)
{
    char u[128], s[256];
    cli_sanitize(u, sizeof u, user);
    cli_sanitize(s, sizeof s, scenario);
    printf("%s%s: %s = %g GPUs full-time (stated by %s, %s) for research cluster R%d's usual "
           "profile P%d (",
           s, a->created ? " (new)" : "", a->key, a->value, u, a->date, a->cluster + 1,
           a->profile + 1);
    char name[256];
    cli_sanitize(name, sizeof name, p->names[a->profile]);
    printf("%s) in %d groups:\n", name, a->ngroups);
    for (int g = 0; g < a->ngroups; g++) {
        cli_sanitize(name, sizeof name, a->groups[g]);
        printf("  %-24s %3d student%s of R%d\n", name, a->students[g],
               a->students[g] == 1 ? "" : "s", a->cluster + 1);
    }
    printf("`capplan scenario undo %s` takes back one edit at a time\n", s);
}

static void print_apply_cluster(const ResearchApply *a, const Research *r, const char *scenario)
{
    char s[256], line[512], name[256];
    cli_sanitize(s, sizeof s, scenario);
    research_budget_text(r, a->cluster, line, sizeof line);
    cli_sanitize(name, sizeof name, line);
    printf("%s%s: %s\npool raised in %d groups:\n", s, a->created ? " (new)" : "", name,
           a->ngroups);
    for (int g = 0; g < a->ngroups; g++) {
        cli_sanitize(name, sizeof name, a->groups[g]);
        printf("  %-24s %3d %s  pool %.2f -> %.2f GPU-eq\n", name, a->students[g],
               a->students[g] == 1 ? "person" : "people", a->measured[g],
               a->measured[g] + a->add[g]);
    }
    printf("`capplan scenario undo %s` takes back one edit at a time\n", s);
}

static int exec_apply(Store *st, int argc, char **argv)
{
    const char *user = NULL, *scenario = "meetings", *reason = NULL;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--scenario") == 0 && i + 1 < argc)
            scenario = argv[++i];
        else if (strcmp(argv[i], "--reason") == 0 && i + 1 < argc)
            reason = argv[++i];
        else if (argv[i][0] != '-' && !user)
            user = argv[i];
        else
            return cli_usage(&cmd_research);
    }
    if (!user)
        return cli_usage(&cmd_research);
    CpErr err;
    Research r;
    if (research_build(st, NULL, &r, &err) < 0)
        return cli_error("%s", err.msg);
    PlanOpts po;
    memset(&po, 0, sizeof po);
    Plan *p = plan_build(st, &po, &err);
    if (!p) {
        research_free(&r);
        return cli_error("%s", err.msg);
    }
    ResearchApply a;
    int cl = (user[0] == 'R' || user[0] == 'r') && user[1] ? atoi(user + 1) : 0;
    int rc;
    if (cl > 0 && strspn(user + 1, "0123456789") == strlen(user + 1)) {
        rc = research_apply_cluster(st, p, &r, cl - 1, scenario, reason, plan_cli_who(), &a,
                                    &err);
        if (rc == 0)
            print_apply_cluster(&a, &r, scenario);
    } else {
        rc = research_apply(st, p, &r, user, scenario, reason, plan_cli_who(), &a, &err);
        if (rc == 0)
            print_apply(&a, p, user, scenario);
    }
    plan_free(p);
    research_free(&r);
    return rc < 0 ? cli_error("%s", err.msg) : 0;
}

static int exec_research(CliCtx *ctx, int argc, char **argv)
{
    if (cli_wants_help(&cmd_research, argc, argv))
        return 0;
    if (argc >= 2 && strcmp(argv[1], "apply") == 0) {
        Store *st = cli_store(ctx);
        return st ? exec_apply(st, argc, argv) : 1;
    }
    ResearchOpts o;
    research_opts_init(&o);
    int fmt = 0;
    if (parse(argc, argv, &o, &fmt) != 0)
        return cli_usage(&cmd_research);
    Store *st = cli_store(ctx);
    if (!st)
        return 1;
    Research r;
    CpErr err;
    if (research_build(st, &o, &r, &err) < 0)
        return cli_error("%s", err.msg);
    if (fmt == 1)
        print_json(&r, stdout);
    else if (fmt == 2)
        print_csv(&r, stdout);
    else
        print_text(&r, stdout);
    research_free(&r);
    return 0;
}

const CmdEntry cmd_research = {"research", research_usage, research_help, exec_research};
