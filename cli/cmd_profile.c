/* capplan profile: per-user features, k-means compute profiles, renames. */
#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli/censored_print.h"
#include "cli/cli.h"
#include "cli/plan_cli.h"
#include "data/plan/plan.h"
#include "data/store/store.h"
#include "data/store/store_plan.h"

typedef struct ProfileArgs {
    PlanOpts o;
    int json, save;
} ProfileArgs;

/* ---- JSON ---- */

static const char *mem_source_name(int s)
{
    return s == FEAT_MEM_MEASURED ? "measured" : s == FEAT_MEM_REQUESTED ? "requested" : "unknown";
}

static cJSON *raw_object(const double raw[FEAT_COUNT])
{
    cJSON *o = cJSON_CreateObject();
    for (int f = 0; f < FEAT_COUNT; f++) {
        if (f == FEAT_MEM_GIB && raw[f] < 0)
            cJSON_AddNullToObject(o, features_name(f));
        else
            cJSON_AddNumberToObject(o, features_name(f), raw[f]);
    }
    return o;
}

static cJSON *z_array(const double *z)
{
    return cJSON_CreateDoubleArray(z, FEAT_COUNT);
}

static void json_header(cJSON *o, const Plan *p)
{
    char a[16], b[16];
    plan_cli_date(p->win_start, a, sizeof a);
    plan_cli_date(p->win_end, b, sizeof b);
    cJSON_AddStringToObject(o, "unit", p->cpu ? "cpu" : "gpu");
    cJSON *w = cJSON_AddObjectToObject(o, "window");
    cJSON_AddNumberToObject(w, "months", p->window_months);
    cJSON_AddStringToObject(w, "start", a);
    cJSON_AddStringToObject(w, "end", b);
    cJSON_AddNumberToObject(o, "jobs", (double)p->summary.jobs_used);
    cJSON_AddNumberToObject(o, "users", p->nusers);
    cJSON_AddNumberToObject(o, "clustered", p->nz);
    cJSON_AddNumberToObject(o, "min_jobs", p->min_jobs);
    if (p->roles)
        cJSON_AddStringToObject(o, "roles", p->roles);
    else
        cJSON_AddNullToObject(o, "roles");
    cJSON_AddNumberToObject(o, "k", p->fit.k);
    cJSON_AddBoolToObject(o, "k_auto", p->fit.k_auto);
    cJSON_AddNumberToObject(o, "silhouette", p->fit.silhouette);
    cJSON_AddNumberToObject(o, "inertia", p->fit.inertia);
    cJSON_AddNumberToObject(o, "seed", (double)PROFILES_SEED);
    cJSON_AddNumberToObject(o, "restarts", PROFILES_RESTARTS);
    cJSON_AddNumberToObject(o, "run_id", (double)p->run_id);
}

static void json_scale(cJSON *o, const Plan *p)
{
    cJSON *f = cJSON_AddArrayToObject(o, "features");
    for (int i = 0; i < FEAT_COUNT; i++)
        cJSON_AddItemToArray(f, cJSON_CreateString(features_name(i)));
    cJSON *s = cJSON_AddObjectToObject(o, "scale");
    cJSON_AddItemToObject(s, "transform", cJSON_CreateString("log1p"));
    cJSON_AddItemToObject(s, "mean", cJSON_CreateDoubleArray(p->scale.mean, FEAT_COUNT));
    cJSON_AddItemToObject(s, "sd", cJSON_CreateDoubleArray(p->scale.sd, FEAT_COUNT));
    cJSON_AddNumberToObject(s, "mem_impute_log1p", p->scale.mem_impute);
    cJSON *sk = cJSON_AddObjectToObject(o, "silhouette_by_k");
    for (int k = PROFILES_KMIN; k <= PROFILES_KMAX && p->fit.k_auto; k++) {
        char key[8];
        snprintf(key, sizeof key, "%d", k);
        if (p->fit.sil_by_k[k] != 0)
            cJSON_AddNumberToObject(sk, key, p->fit.sil_by_k[k]);
    }
}

static void json_profiles(cJSON *o, const Plan *p)
{
    cJSON *a = cJSON_AddArrayToObject(o, "profiles");
    for (int i = 0; i < p->fit.k; i++) {
        const Profile *pr = &p->fit.profiles[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "id", i + 1);
        cJSON_AddStringToObject(e, "name", p->names[i]);
        cJSON_AddStringToObject(e, "generated", pr->name);
        cJSON_AddNumberToObject(e, "size", pr->size);
        cJSON_AddBoolToObject(e, "mem_requested", pr->mem_requested);
        if (pr->mem_need < 0)
            cJSON_AddNullToObject(e, "mem_need_gib");
        else
            cJSON_AddNumberToObject(e, "mem_need_gib", pr->mem_need);
        cJSON_AddItemToObject(e, "centroid", raw_object(pr->centroid_raw));
        cJSON_AddItemToObject(e, "centroid_z", z_array(pr->centroid_z));
        cJSON_AddItemToArray(a, e);
    }
}

static void json_users(cJSON *o, const Plan *p)
{
    cJSON *a = cJSON_AddArrayToObject(o, "user_features");
    for (int i = 0; i < p->nusers; i++) {
        const PlanUser *u = &p->users[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "user", u->name);
        cJSON_AddStringToObject(e, "group", p->groups[u->group]);
        cJSON_AddStringToObject(e, "domain", p->domains[p->group_domain[u->group]]);
        if (u->role)
            cJSON_AddStringToObject(e, "role", u->role);
        else
            cJSON_AddNullToObject(e, "role");
        if (u->profile >= 0)
            cJSON_AddNumberToObject(e, "profile", u->profile + 1);
        else
            cJSON_AddNullToObject(e, "profile");
        cJSON_AddNumberToObject(e, "jobs", u->f.njobs);
        cJSON_AddNumberToObject(e, "gpu_hours", u->f.gpu_hours);
        cJSON_AddNumberToObject(e, "burst_frac", u->f.burst_frac);
        cJSON_AddStringToObject(e, "mem_source", mem_source_name(u->f.mem_src));
        cJSON_AddItemToObject(e, "raw", raw_object(u->f.raw));
        if (u->zrow >= 0)
            cJSON_AddItemToObject(e, "z", z_array(p->z + (size_t)u->zrow * FEAT_COUNT));
        else
            cJSON_AddNullToObject(e, "z");
        cJSON_AddItemToArray(a, e);
    }
}

static int print_json(const Plan *p, const StoreCensored *cz, FILE *out)
{
    cJSON *o = cJSON_CreateObject();
    cli_json_schema(o, "profile");
    json_header(o, p);
    censored_json(o, cz);
    json_scale(o, p);
    json_profiles(o, p);
    json_users(o, p);
    cli_print_json(o, out);
    cJSON_Delete(o);
    return 0;
}

/* ---- text ---- */

static void print_mem(FILE *out, double gib, int requested)
{
    if (gib < 0)
        fprintf(out, " %8s", "?");
    else
        fprintf(out, " %7.0f%s", gib, requested ? "*" : " ");
}

static void print_text(const Plan *p, int k_asked, const StoreCensored *cz, FILE *out)
{
    char a[16], b[16], name[PROFILES_NAME_MAX];
    plan_cli_date(p->win_start, a, sizeof a);
    plan_cli_date(p->win_end, b, sizeof b);
    const char *u = plan_cli_unit(p);
    fprintf(out, "window %s .. %s (%d months), %s jobs of 5 min or more: %lld jobs, %d users",
            a, b, p->window_months, u, (long long)p->summary.jobs_used, p->nusers);
    fprintf(out, ", %d with >= %d jobs clustered\n", p->nz, p->min_jobs);
    censored_text(cz, " in the window", out);
    if (p->cpu)
        fprintf(out, "no job in this database holds a GPU: CPUs stand in for GPUs\n");
    if (p->nusers == 0) {
        fprintf(out, "no job of 5 minutes or more in the window: nothing to profile\n");
        return;
    }
    fprintf(out, "k = %d (%s), silhouette %.3f, inertia %.4g\n", p->fit.k,
            p->fit.k_auto ? "chosen by silhouette over 2..8"
            : k_asked     ? "given"
                          : "too few users to choose",
            p->fit.silhouette, p->fit.inertia);
    fprintf(out, "\n  # %-46s %5s %8s %8s %7s %7s %9s %8s %8s\n", "profile", "users", "p90 width",
            "mem need", "mean h", "max h", "hours/mo", "mean", "peak");
    for (int i = 0; i < p->fit.k; i++) {
        const Profile *pr = &p->fit.profiles[i];
        const double *r = pr->centroid_raw;
        cli_sanitize(name, sizeof name, p->names[i]);
        fprintf(out, "%3d %-46.46s %5d %8.1f", i + 1, name, pr->size, r[FEAT_GPUS_P90]);
        print_mem(out, pr->mem_need, pr->mem_requested);
        fprintf(out, " %7.1f %7.1f %9.1f %8.2f %8.1f\n", r[FEAT_DUR_MEAN_H], r[FEAT_DUR_MAX_H],
                r[FEAT_GPUH_MONTH], r[FEAT_CONC_MEAN], r[FEAT_CONC_PEAK]);
    }
    fprintf(out, "\ncentroids in raw units: %s-hours a month, mean and peak concurrent %ss\n"
                 "mem need: 75th percentile of the members' peak memory, GiB (* mostly the\n"
                 "requested %s model's memory, not measured): the class in the name\n",
            u, u, u);
    if (p->nusers > p->nz)
        fprintf(out, "%d users with fewer than %d jobs take their group's profile mix\n",
                p->nusers - p->nz, p->min_jobs);
}

/* ---- rename ---- */

/* Profile of the saved run named by s: a number 1..k, its generated name
 * or its chosen one. -1 when none. */
static int find_profile(Store *st, const StorePlanProfile *pr, int k, const char *s)
{
    char *end, chosen[PROFILES_NAME_MAX];
    long num = strtol(s, &end, 10);
    if (*s && !*end)
        return num >= 1 && num <= k ? (int)num - 1 : -1;
    for (int i = 0; i < k; i++) {
        if (strcmp(pr[i].generated, s) == 0)
            return i;
        if (store_plan_chosen_name(st, pr[i].generated, chosen, sizeof chosen, NULL) == 0 &&
            strcmp(chosen, s) == 0)
            return i;
    }
    return -1;
}

static int rename_in_run(Store *st, const char *which, const char *name, const char *reason)
{
    StorePlanRun run;
    StorePlanProfile *pr;
    StorePlanMember *m;
    size_t n;
    int found, rc = 1;
    CpErr err;
    if (store_plan_run_latest(st, &run, &pr, &m, &n, &found, &err) < 0) {
        store_plan_run_free(&run, pr, run.k, m, n);
        return cli_error("%s", err.msg);
    }
    if (!found)
        return cli_error("no profiles yet: run `capplan profile` first");
    int idx = find_profile(st, pr, run.k, which);
    char was[256] = "";
    if (idx >= 0 && store_plan_chosen_name(st, pr[idx].generated, was, sizeof was, &err) != 0)
        snprintf(was, sizeof was, "%s", pr[idx].generated); /* not renamed before */
    if (idx < 0)
        cli_error("no profile '%s' (a number 1..%d or a name)", which, run.k);
    else if (store_plan_rename(st, pr[idx].generated, name, plan_cli_who(), reason, &err) < 0)
        cli_error("%s", err.msg);
    else {
        char was_shown[512], name_shown[512]; /* names come from data: no escapes */
        cli_sanitize(was_shown, sizeof was_shown, was);
        cli_sanitize(name_shown, sizeof name_shown, name);
        printf("profile %d (%s) is now named '%s'\n", idx + 1, was_shown, name_shown);
        rc = 0;
    }
    store_plan_run_free(&run, pr, run.k, m, n);
    return rc;
}

static int exec_rename(CliCtx *ctx, int argc, char **argv)
{
    const char *reason = NULL, *pos[2] = {NULL, NULL};
    int npos = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--reason") == 0 && i + 1 < argc)
            reason = argv[++i];
        else if ((argv[i][0] == '-' && argv[i][1]) || npos == 2)
            return cli_usage(&cmd_profile);
        else
            pos[npos++] = argv[i];
    }
    if (npos != 2 || !pos[1][0])
        return cli_usage(&cmd_profile);
    Store *st = cli_store(ctx);
    return st ? rename_in_run(st, pos[0], pos[1], reason) : 1;
}

/* ---- profile ---- */

static int parse_args(int argc, char **argv, ProfileArgs *a)
{
    memset(a, 0, sizeof *a);
    a->save = 1;
    a->o.fresh = 1;
    for (int i = 1; i < argc; i++) {
        int r = plan_cli_option(argc, argv, &i, &a->o);
        if (r < 0)
            return -1;
        if (r == 1)
            continue;
        if (strcmp(argv[i], "--json") == 0)
            a->json = 1;
        else if (strcmp(argv[i], "--no-save") == 0)
            a->save = 0;
        else
            return -1;
    }
    return 0;
}

static int exec_profile(CliCtx *ctx, int argc, char **argv)
{
    if (cli_wants_help(&cmd_profile, argc, argv))
        return 0;
    if (argc >= 2 && strcmp(argv[1], "rename") == 0)
        return exec_rename(ctx, argc, argv);
    ProfileArgs a;
    if (parse_args(argc, argv, &a) < 0)
        return cli_usage(&cmd_profile);
    Store *st = cli_store(ctx);
    if (!st)
        return 1;
    CpErr err;
    a.o.profiles_only = 1; /* the projection is `capplan project`'s */
    Plan *p = plan_build(st, &a.o, &err);
    if (!p)
        return cli_error("%s", err.msg);
    if (a.save && store_read_only(st)) { /* #29: a read-only database is read, not refused */
        cli_error("%s: read-only: the run is shown, not saved", ctx->db_path);
        a.save = 0;
    }
    if (a.save && plan_save(st, p, plan_cli_who(), &err) < 0) {
        plan_free(p);
        return cli_error("%s", err.msg);
    }
    /* the window's runs still going at their file's end (#29) */
    StoreCensored cz;
    StoreCensoredWhere w = {NULL, p->win_start, p->win_end, p->cpu ? 1 : 0};
    if (store_censored(st, &w, &cz, &err) < 0) {
        plan_free(p);
        return cli_error("%s", err.msg);
    }
    if (a.json)
        print_json(p, &cz, stdout);
    else
        print_text(p, a.o.k, &cz, stdout);
    plan_free(p);
    return 0;
}

const CmdEntry cmd_profile = {
    "profile", "capplan profile [--k N|auto] [--window MONTHS] [--json] | rename N NAME",
    "\nPer-user features over the window (default: the 12 months before the latest job;\n"
    "jobs under 5 minutes left out): GPU-hour-weighted p90 of GPUs per job, peak GPU\n"
    "memory (measured, else the requested GPU model's memory from the inventory, marked *),\n"
    "mean and max duration, GPU-hours per month, mean and peak concurrent GPUs. Features\n"
    "are log1p-scaled and standardised; k-means (k-means++, 10 restarts, fixed seed) groups\n"
    "users with enough jobs into compute profiles, k chosen by silhouette over 2..8 unless\n"
    "--k N. The run is saved for `capplan project` (unless --no-save).\n\n"
    "options:\n"
    "  --k N|auto        number of profiles (default auto)\n"
    "  --window MONTHS   months of history (default 12)\n"
    "  --roles R,...     only these roster roles (\"unknown\": users not on the roster)\n"
    "  --min-jobs N      users with fewer jobs are not clustered (default 3): they take\n"
    "                    their group's profile mix\n"
    "  --json            k, silhouette, inertia, scaling, profiles (centroids in raw and\n"
    "                    standardised units), every user's raw and standardised features\n"
    "  --no-save         do not record the run\n\n"
    "capplan profile rename N NAME [--reason TEXT]\n"
    "  give profile N (a number of the latest run, or its name) a name of your own; it\n"
    "  sticks to the generated name, so it survives re-clustering the same data.\n"
    "When no job holds a GPU (pre-GPU traces), CPUs stand in for GPUs. Runs of the window\n"
    "still going when their file was written count up to then: a line (\"censored\" in\n"
    "--json) says how many and up to when.\n",
    exec_profile};
