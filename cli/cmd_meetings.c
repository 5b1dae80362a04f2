/* capplan meetings: the meeting plan, whom to ask, what they said against
 * what was measured, and a stated need applied to a scenario. */
#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/plan_cli.h"
#include "data/ingest/meetings_csv.h"
#include "data/plan/meetings.h"
#include "data/plan/plan.h"
#include "data/store/store.h"
#include "data/store/store_plan.h"

typedef struct MeetArgs {
    const char *sub, *arg, *scenario, *reason;
    int json, per_group;
} MeetArgs;

/* Today as YYYY-MM-DD (UTC), or $CAPPLAN_TODAY when set (tests). */
static void today(char *buf, size_t n)
{
    const char *env = getenv("CAPPLAN_TODAY");
    if (env && meetings_date_ok(env)) {
        snprintf(buf, n, "%s", env);
        return;
    }
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%d", &tm);
}

static void print_json(cJSON *o)
{
    cli_print_json(o, stdout);
    cJSON_Delete(o);
}

static void num_or_null(cJSON *o, const char *key, double v)
{
    if (isnan(v))
        cJSON_AddNullToObject(o, key);
    else
        cJSON_AddNumberToObject(o, key, v);
}

/* ---- list ---- */

static int has_held(const StoreMeeting *m, size_t n, const char *group)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(m[i].group, group) == 0 && strcmp(m[i].status, "held") == 0)
            return 1;
    return 0;
}

static int meet_list(Store *st, int json)
{
    CpErr err;
    StoreMeeting *m;
    size_t n, ng = 0;
    StorePlanGroup *g = NULL;
    if (store_meetings_list(st, &m, &n, &err) < 0 || store_plan_groups(st, &g, &ng, &err) < 0) {
        store_meetings_free(m, n);
        return cli_error("%s", err.msg);
    }
    cJSON *o = json ? cJSON_CreateObject() : NULL, *a = NULL, *tm = NULL;
    if (json) {
        cli_json_schema(o, "meetings");
        a = cJSON_AddArrayToObject(o, "meetings");
        tm = cJSON_AddArrayToObject(o, "to_meet");
    } else {
        printf("%-10s %-24s %-9s %s\n", "date", "group", "status", "attendees");
    }
    for (size_t i = 0; i < n; i++) {
        if (json) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddStringToObject(e, "group", m[i].group);
            cJSON_AddStringToObject(e, "date", m[i].date);
            cJSON_AddStringToObject(e, "status", m[i].status);
            cJSON_AddStringToObject(e, "attendees", m[i].attendees);
            cJSON_AddItemToArray(a, e);
            continue;
        }
        char gr[128], at[512];
        cli_sanitize(gr, sizeof gr, m[i].group);
        cli_sanitize(at, sizeof at, m[i].attendees);
        printf("%-10s %-24s %-9s %s\n", m[i].date, gr, m[i].status, at);
    }
    int left = 0;
    for (size_t i = 0; i < ng; i++) {
        if (has_held(m, n, g[i].name) || store_meetings_noted(st, g[i].name, &err) == 1)
            continue;
        left++;
        if (json)
            cJSON_AddItemToArray(tm, cJSON_CreateString(g[i].name));
    }
    if (json)
        print_json(o);
    else
        printf("%zu meetings; %d of %zu groups still to meet (no meeting held, no meeting "
               "note)\n", n, left, ng);
    store_meetings_free(m, n);
    store_plan_groups_free(g, ng);
    return 0;
}

/* ---- import, export ---- */

static int meet_import(Store *st, const char *path, int want)
{
    CpErr err;
    char day[16];
    int kind, rows;
    today(day, sizeof day);
    if (meetings_import(st, path, day, &kind, &rows, &err) < 0)
        return cli_error("%s", err.msg);
    (void)want;
    printf("%s: %d %s imported\n", path, rows,
           kind == MEET_CSV_NEEDS ? "stated needs" : "meetings");
    return 0;
}

static int meet_export(Store *st, const char *path, int kind)
{
    CpErr err;
    int rows;
    if (meetings_export(st, path, kind, &rows, &err) < 0)
        return cli_error("%s", err.msg);
    printf("%s: %d %s exported\n", path, rows,
           kind == MEET_CSV_NEEDS ? "stated needs" : "meetings");
    return 0;
}

/* ---- pick ---- */

static void pick_json_one(cJSON *a, const Plan *p, const MeetPick *k)
{
    const PlanUser *u = &p->users[k->user];
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "group", p->groups[k->group]);
    cJSON_AddStringToObject(e, "user", u->name);
    cJSON_AddNumberToObject(e, "profile", k->c.label + 1);
    cJSON_AddStringToObject(e, "profile_name", p->names[k->c.label]);
    cJSON_AddNumberToObject(e, "rank", k->c.rank);
    cJSON_AddNumberToObject(e, "of", k->c.of);
    cJSON_AddNumberToObject(e, "distance", k->c.dist);
    cJSON_AddNumberToObject(e, "jobs", u->f.njobs);
    cJSON_AddNumberToObject(e, "gpu_hours", u->f.gpu_hours);
    if (u->role)
        cJSON_AddStringToObject(e, "role", u->role);
    else
        cJSON_AddNullToObject(e, "role");
    cJSON_AddItemToArray(a, e);
}

static void pick_text_one(const Plan *p, const MeetPick *k, int new_group)
{
    const PlanUser *u = &p->users[k->user];
    char g[128], name[64], prof[128];
    if (new_group) {
        cli_sanitize(g, sizeof g, p->groups[k->group]);
        printf("%s\n", g);
    }
    cli_sanitize(name, sizeof name, u->name);
    cli_sanitize(prof, sizeof prof, p->names[k->c.label]);
    printf("  P%-2d %-16s #%d of %-3d distance %5.2f  %5d jobs %9.0f %s-h  (%s)\n", k->c.label + 1,
           name, k->c.rank, k->c.of, k->c.dist, u->f.njobs, u->f.gpu_hours, plan_cli_unit(p),
           prof);
}

static int meet_pick(Store *st, int per, int json)
{
    CpErr err;
    PlanOpts o;
    memset(&o, 0, sizeof o);
    Plan *p = plan_build(st, &o, &err);
    if (!p)
        return cli_error("%s", err.msg);
    MeetPick *k;
    int n = meetings_pick(p, per, &k);
    if (json) {
        cJSON *o2 = cJSON_CreateObject();
        cli_json_schema(o2, "meetings-pick");
        cJSON_AddNumberToObject(o2, "per_group", per);
        cJSON_AddNumberToObject(o2, "min_jobs", p->min_jobs);
        cJSON *a = cJSON_AddArrayToObject(o2, "picks");
        for (int i = 0; i < n; i++)
            pick_json_one(a, p, &k[i]);
        print_json(o2);
    } else {
        printf("whom to ask: per group, the %d students of each profile nearest its centroid "
               "(standardised features; at least %d jobs)\n", per, p->min_jobs);
        for (int i = 0; i < n; i++)
            pick_text_one(p, &k[i], i == 0 || k[i].group != k[i - 1].group);
        printf("%d students to invite in %d groups\n", n, p->ngroups);
    }
    free(k);
    plan_free(p);
    return 0;
}

/* ---- mismatches ---- */

static void mm_json_one(cJSON *a, const MeetMismatch *x)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "user", x->user);
    cJSON_AddStringToObject(e, "group", x->group);
    cJSON_AddStringToObject(e, "date", x->date);
    if (x->profile >= 0)
        cJSON_AddNumberToObject(e, "profile", x->profile + 1);
    else
        cJSON_AddNullToObject(e, "profile");
    cJSON_AddNumberToObject(e, "jobs", x->njobs);
    num_or_null(e, "stated_gpus", x->stated_gpus);
    num_or_null(e, "measured_gpus", x->measured_gpus);
    cJSON_AddBoolToObject(e, "gpus_off", x->gpus_off);
    num_or_null(e, "stated_mem_gib", x->stated_mem);
    num_or_null(e, "measured_mem_gib", x->measured_mem);
    cJSON_AddBoolToObject(e, "mem_off", x->mem_off);
    num_or_null(e, "stated_hours", x->stated_hours);
    num_or_null(e, "measured_hours", x->measured_hours);
    cJSON_AddItemToArray(a, e);
}

static void mm_text_one(const MeetMismatch *x)
{
    char u[64], g[96], sg[16] = "-", sm[16] = "-", mm[16] = "-";
    cli_sanitize(u, sizeof u, x->user);
    cli_sanitize(g, sizeof g, x->group);
    if (!isnan(x->stated_gpus))
        snprintf(sg, sizeof sg, "%g", x->stated_gpus);
    if (!isnan(x->stated_mem))
        snprintf(sm, sizeof sm, "%g", x->stated_mem);
    if (!isnan(x->measured_mem))
        snprintf(mm, sizeof mm, "%.0f", x->measured_mem);
    printf("%-16s %-14s %-10s %6s %8.2f %-2s %6s %6s %-2s\n", g, u, x->date, sg, x->measured_gpus,
           x->gpus_off ? "!=" : "", sm, mm, x->mem_off ? "!=" : "");
}

/* Per group: stated and measured GPUs summed, mismatches counted. */
static void mm_groups(const MeetMismatch *x, size_t n, cJSON *a)
{
    for (size_t i = 0; i < n;) {
        size_t j = i;
        double s = 0, m = 0;
        int off = 0;
        for (; j < n && strcmp(x[j].group, x[i].group) == 0; j++) {
            s += isnan(x[j].stated_gpus) ? 0 : x[j].stated_gpus;
            m += isnan(x[j].stated_gpus) ? 0 : x[j].measured_gpus;
            off += x[j].gpus_off || x[j].mem_off;
        }
        if (a) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddStringToObject(e, "group", x[i].group);
            cJSON_AddNumberToObject(e, "stated", (double)(j - i));
            cJSON_AddNumberToObject(e, "off", off);
            cJSON_AddNumberToObject(e, "stated_gpus", s);
            cJSON_AddNumberToObject(e, "measured_gpus", m);
            cJSON_AddItemToArray(a, e);
        } else {
            char g[96];
            cli_sanitize(g, sizeof g, x[i].group);
            printf("%-16s %zu stated, %d off: says %g GPUs full-time in all, used %.2f\n", g,
                   j - i, off, s, m);
        }
        i = j;
    }
}

static int meet_mismatches(Store *st, int json)
{
    CpErr err;
    PlanOpts o;
    memset(&o, 0, sizeof o);
    Plan *p = plan_build(st, &o, &err);
    if (!p)
        return cli_error("%s", err.msg);
    MeetMismatch *x;
    size_t n;
    if (meetings_mismatches(st, p, &x, &n, &err) < 0) {
        plan_free(p);
        return cli_error("%s", err.msg);
    }
    int off = 0;
    for (size_t i = 0; i < n; i++)
        off += x[i].gpus_off || x[i].mem_off;
    if (json) {
        cJSON *o2 = cJSON_CreateObject();
        cli_json_schema(o2, "meetings-check");
        cJSON *t = cJSON_AddObjectToObject(o2, "tolerance");
        cJSON_AddNumberToObject(t, "relative", MEET_TOL_REL);
        cJSON_AddNumberToObject(t, "absolute_gpus", MEET_TOL_ABS);
        cJSON_AddNumberToObject(o2, "window_months", p->window_months);
        mm_groups(x, n, cJSON_AddArrayToObject(o2, "groups"));
        cJSON *a = cJSON_AddArrayToObject(o2, "students");
        for (size_t i = 0; i < n; i++)
            mm_json_one(a, &x[i]);
        print_json(o2);
    } else {
        printf("stated vs measured over the last %d months (!=: beyond %.0f %% and %.1f GPU, or "
               "another memory class)\n", p->window_months, MEET_TOL_REL * 100, MEET_TOL_ABS);
        printf("%-16s %-14s %-10s %6s %8s %-2s %6s %6s\n", "group", "user", "date", "says",
               "used", "", "memGB", "used");
        for (size_t i = 0; i < n; i++)
            mm_text_one(&x[i]);
        mm_groups(x, n, NULL);
        printf("%d of %zu stated needs differ from the measured use\n", off, n);
    }
    meetings_mismatches_free(x, n);
    plan_free(p);
    return 0;
}

/* ---- apply ---- */

static int meet_apply(Store *st, const MeetArgs *a)
{
    CpErr err;
    PlanOpts o;
    memset(&o, 0, sizeof o);
    Plan *p = plan_build(st, &o, &err);
    if (!p)
        return cli_error("%s", err.msg);
    MeetApply r;
    int rc = meetings_apply(st, p, a->arg, a->scenario, a->reason, plan_cli_who(), &r, &err);
    if (rc == 0) {
        char prof[128];
        cli_sanitize(prof, sizeof prof, p->names[r.profile]);
        printf("%s%s: %s of %s = %g (measured %.2f): profile P%d (%s), the %d students of "
               "it in %s and the group's newcomers of that profile; other groups keep theirs. "
               "`capplan scenario undo %s` takes it back\n",
               a->scenario, r.created ? " (new)" : "", r.key, r.group, r.value, r.measured,
               r.profile + 1, prof, r.same_profile, r.group, a->scenario);
    }
    plan_free(p);
    return rc < 0 ? cli_error("%s", err.msg) : 0;
}

/* ---- dispatch ---- */

static int parse_args(int argc, char **argv, MeetArgs *a)
{
    memset(a, 0, sizeof *a);
    a->per_group = PICK_DEFAULT;
    a->scenario = "meetings";
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--json") == 0)
            a->json = 1;
        else if (strcmp(s, "--per-group") == 0 && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1 || v > PICK_MAX) {
                cli_error("meetings: --per-group: expected 1..%d, got '%s'", PICK_MAX, argv[i]);
                return -1;
            }
            a->per_group = (int)v;
        } else if (strcmp(s, "--scenario") == 0 && i + 1 < argc)
            a->scenario = argv[++i];
        else if (strcmp(s, "--reason") == 0 && i + 1 < argc)
            a->reason = argv[++i];
        else if (s[0] == '-' && s[1])
            return -1;
        else if (!a->sub)
            a->sub = s;
        else if (!a->arg)
            a->arg = s;
        else {
            cli_error("meetings %s: one argument, got '%s' and '%s'", a->sub, a->arg, s);
            return -1;
        }
    }
    return a->sub ? 0 : -1;
}

static const char meet_subs[] =
    "list, pick, mismatches, import FILE.csv, export FILE.csv, import-needs FILE.csv, "
    "export-needs FILE.csv or apply USER";

/* 1 when sub takes an argument, 0 none, -1 unknown. */
static int sub_arity(const char *sub)
{
    static const char *const one[] = {"import", "import-needs", "export", "export-needs", "apply"};
    static const char *const none[] = {"list", "pick", "mismatches"};
    for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
        if (strcmp(sub, one[i]) == 0)
            return 1;
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        if (strcmp(sub, none[i]) == 0)
            return 0;
    return -1;
}

static int run(Store *st, const MeetArgs *a)
{
    const char *s = a->sub;
    if (strcmp(s, "list") == 0)
        return meet_list(st, a->json);
    if (strcmp(s, "import") == 0 || strcmp(s, "import-needs") == 0)
        return meet_import(st, a->arg, strcmp(s, "import-needs") == 0);
    if (strcmp(s, "export") == 0)
        return meet_export(st, a->arg, MEET_CSV_MEETINGS);
    if (strcmp(s, "export-needs") == 0)
        return meet_export(st, a->arg, MEET_CSV_NEEDS);
    if (strcmp(s, "pick") == 0)
        return meet_pick(st, a->per_group, a->json);
    if (strcmp(s, "mismatches") == 0)
        return meet_mismatches(st, a->json);
    return meet_apply(st, a);
}

static int exec_meetings(CliCtx *ctx, int argc, char **argv)
{
    if (cli_wants_help(&cmd_meetings, argc, argv))
        return 0;
    MeetArgs a;
    if (parse_args(argc, argv, &a) < 0)
        return cli_usage(&cmd_meetings);
    if (sub_arity(a.sub) < 0) {
        cli_error("meetings: unknown subcommand '%s' (%s)", a.sub, meet_subs);
        return cli_usage(&cmd_meetings);
    }
    if (sub_arity(a.sub) == 1 && !a.arg) {
        cli_error("meetings %s: needs %s", a.sub,
                  strcmp(a.sub, "apply") == 0 ? "a USER" : "a FILE.csv");
        return cli_usage(&cmd_meetings);
    }
    if (sub_arity(a.sub) == 0 && a.arg) {
        cli_error("meetings %s: takes no argument, got '%s'", a.sub, a.arg);
        return cli_usage(&cmd_meetings);
    }
    if (a.json && sub_arity(a.sub) != 0) {
        cli_error("meetings %s: no --json output (list, pick and mismatches have one)", a.sub);
        return cli_usage(&cmd_meetings);
    }
    Store *st = cli_store(ctx);
    return st ? run(st, &a) : 1;
}

const CmdEntry cmd_meetings = {
    "meetings",
    "capplan meetings list | pick [--per-group N] | mismatches | import FILE.csv | "
    "export FILE.csv | import-needs FILE.csv | export-needs FILE.csv | "
    "apply USER [--scenario S] [--reason R]   [--json]",
    "\nThe meeting workflow of a planning round: plan the group meetings, pick whom to ask,\n"
    "record what they said, compare it with what they used, apply it to a scenario.\n\n"
    "  list [--json]            the meetings, and the groups still to meet (no meeting\n"
    "                           held, no meeting note)\n"
    "  import FILE.csv          meetings (group,date,attendees,status) or, when the header\n"
    "                           has a user column, stated needs (as import-needs)\n"
    "  export FILE.csv          the meetings as CSV (attendees: logins separated by ';';\n"
    "                           status planned, held or cancelled)\n"
    "  import-needs FILE.csv    stated needs: user,group,date,gpus_fulltime,\n"
    "                           gpu_mem_class_gib,typical_hours,burst_per_month,burst_gpus,\n"
    "                           burst_hours,text (empty: not stated)\n"
    "  export-needs FILE.csv    every stated need, same columns\n"
    "  pick [--per-group N]     per group and profile, the N (1-3, default 2) students\n"
    "                           nearest the profile's centroid, with enough history\n"
    "  mismatches [--json]      each member's latest stated need beside the measured use;\n"
    "                           marked != beyond 50 % and 0.5 GPU, or another memory class\n"
    "  apply USER               set gpus.N (N: USER's profile) to USER's stated GPUs in\n"
    "      --scenario S         scenario S (default 'meetings', created when absent)\n"
    "      --reason R           why (the statement's author and date are added)\n\n"
    "A CSV lands whole or not at all: the first bad field is reported as\n"
    "FILE:LINE: field X: reason, with exit status 1. A planned meeting cannot be dated\n"
    "before today. Undo an apply with `capplan scenario undo S`.\n",
    exec_meetings};
