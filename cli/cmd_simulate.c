/* capplan simulate --replay: the recorded jobs on the recorded fleet (FCFS
 * with EASY backfill, core/sim), simulated waits beside the recorded ones
 * per month, and how much of the recorded waiting passed while capacity
 * the job could use stood idle (data/plan/simulate). Printing only. */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/plan_cli.h"
#include "data/ingest/catalog.h"
#include "data/plan/simulate.h"
#include "cli/simulate_next_print.h"

#define SIM_MAX_TIERS 16 /* partitions named in --tiers */

typedef struct SimArgs {
    int replay, json;
    const char *starts; /* --starts FILE, or NULL */
    const char *scenario;
    double target_h;    /* --target-wait, 0: the last year's p90 */
    int64_t from, to; /* SIM_UNSET: the record's */
    int64_t fleet_at; /* --fleet-at, SIM_UNSET: the recorded fleet */
    size_t bf_depth;  /* --bf-depth as simulate_bf_depth takes it */
    int order;        /* --order: SIMULATE_ORDER_* */
    int placement;    /* --placement: SIMULATE_PLACE_*, -1 the default (--replay) */
    char tierbuf[256];  /* --tiers A,B,C (--replay), split in place */
    const char *tiers[SIM_MAX_TIERS];
    size_t ntiers;
} SimArgs;

#define SIM_UNSET INT64_MIN /* --from or --to not given */

static void month_label(int32_t mo, char *buf, size_t n)
{
    snprintf(buf, n, "%04d-%02d", 1970 + mo / 12, mo % 12 + 1);
}

static const char *unit_name(const SimReplay *r)
{
    for (size_t c = 0; c < r->w.raw.nclusters; c++)
        if (!r->w.cpu[c])
            return "GPUs";
    return "processors";
}

static void print_fleet(const SimReplay *r, FILE *out)
{
    fprintf(out, "Fleet (%s):", unit_name(r));
    for (size_t p = 0; p < r->w.np; p++) {
        const SimPool *pl = &r->w.pools[p];
        char name[128], model[64], from[16] = "", to[16] = "";
        cli_sanitize(name, sizeof name, r->w.raw.clusters[pl->cluster]);
        cli_sanitize(model, sizeof model, r->w.pool_model[p]);
        if (pl->from != INT64_MIN)
            plan_cli_date(pl->from, from, sizeof from);
        if (pl->to != SIM_OPEN)
            plan_cli_date(pl->to - 86400, to, sizeof to);
        fprintf(out, "%s %s %d %s", p ? "," : "", name, pl->units, model);
        if (*from || *to)
            fprintf(out, " (%s..%s)", from, to);
    }
    fprintf(out, "\n");
}

static void print_months(const SimReplay *r, FILE *out)
{
    fprintf(out, "\nWaits by month of submission, simulated | recorded (hours; mean capped at 2 days)\n");
    fprintf(out, "%-8s %7s %6s %6s | %6s %6s | %6s %6s | %5s %5s\n", "month", "jobs", "p50", "p50",
            "p90", "p90", "mean", "mean", "util", "idle");
    for (size_t m = 0; m < r->sum.nmonths; m++) {
        const SimMonth *mo = &r->sum.months[m];
        char lab[16];
        month_label(mo->month, lab, sizeof lab);
        double util = mo->cap_h > 0 ? 100 * mo->busy_h / mo->cap_h : 0;
        fprintf(out, "%-8s %7zu %6.1f %6.1f | %6.1f %6.1f | %6.1f %6.1f | %4.0f%% %4.0f%%\n", lab,
                mo->sim.n, mo->sim.p50_h, mo->rec.p50_h, mo->sim.p90_h, mo->rec.p90_h,
                mo->sim.mean_cap_h, mo->rec.mean_cap_h, util,
                100 * simulate_idle_share(mo->wait_h, mo->idle_wait_h));
    }
    const SimSummary *s = &r->sum;
    fprintf(out, "%-8s %7zu %6.1f %6.1f | %6.1f %6.1f | %6.1f %6.1f |       %4.0f%%\n", "all",
            s->sim.n, s->sim.p50_h, s->rec.p50_h, s->sim.p90_h, s->rec.p90_h, s->sim.mean_cap_h,
            s->rec.mean_cap_h, 100 * simulate_idle_share(s->wait_h, s->idle_wait_h));
}

/* Per group over the window: recorded waiting and its idle share, the
 * SIM_TOP_GROUPS that waited most (all of them in --json). */
#define SIM_TOP_GROUPS 12

static void print_groups(const SimReplay *r, FILE *out)
{
    size_t ng = r->w.raw.ngroups;
    double *w = xcalloc(ng + 1, sizeof *w), *idle = xcalloc(ng + 1, sizeof *idle);
    for (size_t c = 0; c < r->sum.ncells; c++) {
        w[r->sum.cells[c].group] += r->sum.cells[c].wait_h;
        idle[r->sum.cells[c].group] += r->sum.cells[c].idle_wait_h;
    }
    fprintf(out, "\nRecorded waiting by group (the %d that waited most), and the share of it while\n"
                 "%s it could use stood idle, enough to start every waiting job\n",
            SIM_TOP_GROUPS, unit_name(r));
    unsigned char *shown = xcalloc(ng + 1, 1);
    for (int k = 0; k < SIM_TOP_GROUPS; k++) {
        size_t best = ng;
        for (size_t g = 0; g < ng; g++)
            if (!shown[g] && w[g] > 0 && (best == ng || w[g] > w[best]))
                best = g;
        if (best == ng)
            break;
        shown[best] = 1;
        char name[128];
        cli_sanitize(name, sizeof name, *r->w.raw.groups[best] ? r->w.raw.groups[best] : "(none)");
        fprintf(out, "  %-24s %10.0f h  %4.0f%%\n", name, w[best],
                100 * simulate_idle_share(w[best], idle[best]));
    }
    free(shown);
    free(w);
    free(idle);
}

static void print_verdict(const SimReplay *r, FILE *out)
{
    const SimSummary *s = &r->sum;
    double share = simulate_idle_share(s->wait_h, s->idle_wait_h);
    fprintf(out, "\n");
    if (isnan(s->corr))
        fprintf(out, "Monthly correlation of mean waits: n/a (under 4 months)\n");
    else
        fprintf(out, "Monthly correlation of mean waits, simulated vs recorded (first month dropped): %.2f\n",
                s->corr);
    fprintf(out, "%.0f %% of the recorded waiting passed while %s the job could use stood idle,\n"
                 "enough to start every job then waiting.\n",
            100 * share, unit_name(r));
    if (r->policy)
        fprintf(out, "These waits are policy (limits, fair share, holds), not capacity: buying %s "
                     "will not shorten them.\n",
                unit_name(r));
    fprintf(out, "Sensitivity: +10 %% capacity (every pool, rounded up): simulated mean wait %.2f h "
                 "-> %.2f h, p90 %.1f h -> %.1f h.\n",
            s->sim.mean_h, r->plus10.mean_h, s->sim.p90_h, r->plus10.p90_h);
    if (r->out.unplaced)
        fprintf(out, "%zu jobs no pool could hold were left out.\n", r->out.unplaced);
}

static void print_text(const SimReplay *r, FILE *out)
{
    char a[16], b[16];
    plan_cli_date(r->from, a, sizeof a);
    plan_cli_date(r->to - 1, b, sizeof b);
    char depth[48] = "the whole queue";
    if (r->bf_depth)
        snprintf(depth, sizeof depth, "%zu jobs deep", r->bf_depth);
    fprintf(out, "Replay %s .. %s: %zu jobs on the recorded fleet (%s, EASY backfill on the time "
                 "limit, %s; %d days of warm-up before), in %.2f s (the simulation itself %.2f s)\n",
            a, b, r->sum.sim.n, r->fair.on ? "fair-share order" : "FCFS", depth,
            SIMULATE_WARMUP_S / 86400, r->seconds, r->sim_seconds);
    if (r->pinned)
        fprintf(out, "Placement: each job on the GPU model it ran on (%zu jobs pinned; the others: "
                     "any GPU with enough memory)\n",
                r->pinned);
    else if (strcmp(unit_name(r), "GPUs") == 0)
        fprintf(out, "Placement: any GPU of the job's cluster with enough memory\n");
    if (r->ntiers) {
        fprintf(out, "Partition tiers:");
        for (size_t k = 0; k < r->ntiers; k++) {
            char name[64];
            cli_sanitize(name, sizeof name, r->tiers[k]);
            fprintf(out, " %s >", name);
        }
        fprintf(out, " the rest\n");
    }
    print_fleet(r, out);
    print_months(r, out);
    print_groups(r, out);
    print_verdict(r, out);
}

static cJSON *waits_json(const SimWaits *w)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "jobs", (double)w->n);
    cJSON_AddNumberToObject(o, "p50_h", w->p50_h);
    cJSON_AddNumberToObject(o, "p90_h", w->p90_h);
    cJSON_AddNumberToObject(o, "mean_h", w->mean_h);
    cJSON_AddNumberToObject(o, "mean_capped_h", w->mean_cap_h);
    return o;
}

static cJSON *months_json(const SimReplay *r)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t m = 0; m < r->sum.nmonths; m++) {
        const SimMonth *mo = &r->sum.months[m];
        char lab[16];
        month_label(mo->month, lab, sizeof lab);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "month", lab);
        cJSON_AddItemToObject(o, "simulated", waits_json(&mo->sim));
        cJSON_AddItemToObject(o, "recorded", waits_json(&mo->rec));
        cJSON_AddNumberToObject(o, "capacity_h", mo->cap_h);
        cJSON_AddNumberToObject(o, "busy_h", mo->busy_h);
        cJSON_AddNumberToObject(o, "idle_share", simulate_idle_share(mo->wait_h, mo->idle_wait_h));
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static cJSON *cells_json(const SimReplay *r)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < r->sum.ncells; i++) {
        const SimCell *c = &r->sum.cells[i];
        char lab[16];
        month_label(c->month, lab, sizeof lab);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "month", lab);
        cJSON_AddStringToObject(o, "group", r->w.raw.groups[c->group]);
        cJSON_AddStringToObject(o, "mem_class", sim_class_name(c->mclass));
        cJSON_AddItemToObject(o, "simulated", waits_json(&c->sim));
        cJSON_AddNumberToObject(o, "run_h", c->run_h);
        cJSON_AddNumberToObject(o, "queued_h", c->queued_h);
        cJSON_AddNumberToObject(o, "left_queued_h", c->left_h);
        cJSON_AddNumberToObject(o, "recorded_wait_h", c->wait_h);
        cJSON_AddNumberToObject(o, "idle_share", simulate_idle_share(c->wait_h, c->idle_wait_h));
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static int print_json(const SimReplay *r, FILE *out)
{
    cJSON *o = cJSON_CreateObject();
    char a[16], b[16];
    plan_cli_date(r->from, a, sizeof a);
    plan_cli_date(r->to - 1, b, sizeof b);
    cJSON_AddStringToObject(o, "from", a);
    cJSON_AddStringToObject(o, "to", b);
    cJSON_AddStringToObject(o, "units", unit_name(r));
    cJSON_AddNumberToObject(o, "bf_depth", (double)r->bf_depth); /* 0: the whole queue */
    cJSON_AddStringToObject(o, "order", r->fair.on ? "fairshare" : "fcfs");
    cJSON_AddStringToObject(o, "placement", simulate_place_name(r->placement));
    cJSON_AddNumberToObject(o, "pinned_jobs", (double)r->pinned);
    cJSON *tiers = cJSON_AddArrayToObject(o, "tiers"); /* partitions, the highest first */
    for (size_t k = 0; k < r->ntiers; k++)
        cJSON_AddItemToArray(tiers, cJSON_CreateString(r->tiers[k]));
    cJSON_AddItemToObject(o, "simulated", waits_json(&r->sum.sim));
    cJSON_AddItemToObject(o, "recorded", waits_json(&r->sum.rec));
    cJSON_AddItemToObject(o, "plus10_simulated", waits_json(&r->plus10));
    if (isnan(r->sum.corr))
        cJSON_AddNullToObject(o, "monthly_correlation");
    else
        cJSON_AddNumberToObject(o, "monthly_correlation", r->sum.corr);
    cJSON_AddNumberToObject(o, "idle_share", simulate_idle_share(r->sum.wait_h, r->sum.idle_wait_h));
    cJSON_AddBoolToObject(o, "waits_are_policy", r->policy);
    cJSON_AddNumberToObject(o, "unplaced", (double)r->out.unplaced);
    cJSON_AddItemToObject(o, "months", months_json(r));
    cJSON_AddItemToObject(o, "cells", cells_json(r));
    cli_json_schema(o, "simulate");
    int rc = cli_print_json(o, out);
    cJSON_Delete(o);
    return rc;
}

/* "6h", "90m", "2d", "1.5" (hours): hours above 0. */
static int parse_hours(const char *s, double *h)
{
    char *end;
    double v = strtod(s, &end);
    double unit = strcmp(end, "d") == 0 ? 24 : strcmp(end, "m") == 0 ? 1.0 / 60
                  : strcmp(end, "h") == 0 || *end == '\0' ? 1 : -1;
    if (end == s || unit < 0 || !(v > 0) || !isfinite(v))
        return -1;
    *h = v * unit;
    return 0;
}

/* "interactive,gpu,preempt": partition names, the highest tier first. */
static int parse_tiers(const char *s, SimArgs *a)
{
    if (strlen(s) >= sizeof a->tierbuf) {
        cli_error("simulate: --tiers: longer than %zu characters", sizeof a->tierbuf - 1);
        return -1;
    }
    strcpy(a->tierbuf, s);
    a->ntiers = 0;
    for (char *p = a->tierbuf, *next; p; p = next) {
        next = strchr(p, ',');
        if (next)
            *next++ = '\0';
        int dup = 0;
        for (size_t k = 0; k < a->ntiers; k++)
            dup |= strcmp(a->tiers[k], p) == 0;
        if (!*p || dup || a->ntiers == SIM_MAX_TIERS) {
            cli_error("simulate: --tiers: '%s' is not a list of up to %d distinct partitions "
                      "(interactive,gpu,preempt)",
                      s, SIM_MAX_TIERS);
            return -1;
        }
        a->tiers[a->ntiers++] = p;
    }
    return 0;
}

static int parse_args(int argc, char **argv, SimArgs *a)
{
    memset(a, 0, sizeof *a);
    a->from = a->to = a->fleet_at = SIM_UNSET;
    a->order = SIMULATE_ORDER_FCFS;
    a->placement = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--replay") == 0)
            a->replay = 1;
        else if (strcmp(argv[i], "--json") == 0)
            a->json = 1;
        else if (strcmp(argv[i], "--starts") == 0 && i + 1 < argc)
            a->starts = argv[++i];
        else if (strcmp(argv[i], "--scenario") == 0 && i + 1 < argc)
            a->scenario = argv[++i];
        else if (strcmp(argv[i], "--target-wait") == 0 && i + 1 < argc) {
            if (parse_hours(argv[++i], &a->target_h) < 0) {
                cli_error("simulate: --target-wait: '%s' is not a duration (6h, 90m, 2d)", argv[i]);
                return -1;
            }
        }
        else if (strcmp(argv[i], "--order") == 0 && i + 1 < argc) {
            i++;
            if (strcmp(argv[i], "fcfs") == 0)
                a->order = SIMULATE_ORDER_FCFS;
            else if (strcmp(argv[i], "fairshare") == 0)
                a->order = SIMULATE_ORDER_FAIRSHARE;
            else {
                cli_error("simulate: --order: '%s' is not fcfs or fairshare", argv[i]);
                return -1;
            }
        }
        else if (strcmp(argv[i], "--tiers") == 0 && i + 1 < argc) {
            if (parse_tiers(argv[++i], a) < 0)
                return -1;
        }
        else if (strcmp(argv[i], "--placement") == 0 && i + 1 < argc) {
            if ((a->placement = simulate_place_parse(argv[++i])) < 0) {
                cli_error("simulate: --placement: '%s' is not recorded or any", argv[i]);
                return -1;
            }
        }
        else if (strcmp(argv[i], "--bf-depth") == 0 && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end || v < 0 || v > 1000000) {
                cli_error("simulate: --bf-depth: '%s' is not a count of jobs (0: the whole queue)",
                          argv[i]);
                return -1;
            }
            a->bf_depth = v == 0 ? SIMULATE_BF_ALL : (size_t)v;
        }
        else if ((strcmp(argv[i], "--from") == 0 || strcmp(argv[i], "--to") == 0 ||
                  strcmp(argv[i], "--fleet-at") == 0) &&
                 i + 1 < argc) {
            int64_t *t = argv[i][3] == 'l' ? &a->fleet_at : argv[i][2] == 'f' ? &a->from : &a->to;
            if (plan_cli_parse_date(argv[i + 1], t) < 0) {
                cli_error("simulate: %s: not a date (YYYY-MM-DD or YYYY-MM)", argv[i]);
                return -1;
            }
            i++;
        } else
            return -1;
    }
    return 0;
}

/* Each simulated job (warm-up included), in the order read (cluster name,
 * submit, row): "submit start" in epoch seconds, "-" for a job never
 * placed. tests/sim_ref.py compares these start for start. */
static int write_starts(const SimReplay *r, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    for (size_t i = 0; i < r->w.n; i++) {
        if (r->out.start[i] == SIM_NEVER)
            fprintf(f, "%lld -\n", (long long)r->w.jobs[i].submit);
        else
            fprintf(f, "%lld %lld\n", (long long)r->w.jobs[i].submit, (long long)r->out.start[i]);
    }
    int bad = ferror(f);
    return fclose(f) != 0 || bad ? -1 : 0;
}

static int exec_next(CliCtx *ctx, Store *st, const SimArgs *a)
{
    SimNextOpts o = {a->target_h, a->scenario, NULL, 0, 0};
    SimNext nx;
    CpErr err;
    CatalogGpu *cat = NULL;
    if (catalog_effective(st, &cat, &o.ncatalog, &o.builtin_catalog, &err) < 0)
        return cli_error("%s: %s", ctx->db_path, err.msg);
    o.catalog = cat;
    int failed = simulate_next_run(st, &o, a->bf_depth, SIMULATE_MAX_JOBS, a->order, &nx, &err) < 0;
    catalog_free(cat, o.ncatalog);
    if (failed)
        return cli_error("%s: %s", ctx->db_path, err.msg);
    int rc = (a->json ? simnext_json(&nx, stdout) : (simnext_text(&nx, stdout), 0)) < 0 ||
             ferror(stdout);
    return rc ? cli_error("simulate: cannot write the output") : 0;
}

static int exec_simulate(CliCtx *ctx, int argc, char **argv)
{
    if (cli_wants_help(&cmd_simulate, argc, argv))
        return 0;
    SimArgs a;
    if (parse_args(argc, argv, &a) < 0)
        return cli_usage(&cmd_simulate);
    Store *st = cli_store(ctx);
    if (!st)
        return 1;
    if (!a.replay && a.ntiers)
        return cli_error("simulate: --tiers goes with --replay (next year has no tiers)");
    if (!a.replay)
        return exec_next(ctx, st, &a);
    CpErr err;
    int64_t first, end;
    if (simulate_span(st, &first, &end, &err) < 0)
        return cli_error("%s: %s", ctx->db_path, err.msg);
    int64_t from = a.from != SIM_UNSET ? a.from : first;
    int64_t to = a.to != SIM_UNSET ? a.to + 86400 : end; /* --to's day included */
    if (to <= from)
        return cli_error(a.to != SIM_UNSET ? "simulate: --to is before --from"
                                           : "simulate: --from is after the last recorded submit");
    SimReplay r;
    double t0 = simulate_clock();
    int64_t fleet_at = a.fleet_at == SIM_UNSET ? SIM_NEVER : a.fleet_at;
    int placement = a.placement >= 0 ? a.placement : simulate_place_default(fleet_at);
    SimReplayOpts o = {from,     to,     fleet_at, a.bf_depth, a.order, placement, a.scenario,
                       a.tiers, a.ntiers};
    if (simulate_replay_opts(st, &o, &r, &err) < 0)
        return cli_error("%s: %s", ctx->db_path, err.msg);
    r.seconds = simulate_clock() - t0;
    int rc = 0;
    if (r.sum.sim.n == 0)
        rc = cli_error("simulate: no job that ran was submitted in the window");
    else if (a.starts && write_starts(&r, a.starts) < 0)
        rc = cli_error("simulate: %s: cannot write", a.starts);
    else if ((a.json ? print_json(&r, stdout) : (print_text(&r, stdout), 0)) < 0 || ferror(stdout))
        rc = cli_error("simulate: cannot write the output");
    simulate_replay_free(&r);
    return rc;
}

const CmdEntry cmd_simulate = {
    "simulate", "capplan simulate [--replay [--from D] [--to D] [--starts FILE] [--fleet-at D]] [--target-wait 6h] [--scenario S] [--bf-depth N] [--order fcfs|fairshare] [--placement recorded|any] [--tiers P,P] [--json]",
    "\nWithout --replay: next year's queue. Each group's jobs of the last 12 months\n"
    "resampled to the forecaster's expected use (5 replicas, fixed seeds) on today's\n"
    "fleet and on purchases from the catalog (the imported one, else the reference\n"
    "one shipped with capplan): the waits of buying nothing, the cheapest purchase\n"
    "(model, count, quarter) whose p90 wait meets the target, and the capacity curve.\n"
    "GPU jobs but no inventory for their clusters: today's fleet is unknown, so it\n"
    "says so in one line (capplan import inventory FILE adds it) and exits 1.\n"
    "  --target-wait 6h  the p90 wait to meet (default: the last 12 months' recorded)\n"
    "  --scenario S      the forecaster's scenario (default: base)\n"
    "  --bf-depth N      jobs behind the blocked head tried for backfill per event,\n"
    "                    as slurm.conf's bf_max_job_test (default 100; 0: the whole\n"
    "                    queue); with --replay too\n"
    "  --order O         the queue's order: fcfs (the default) or fairshare: groups\n"
    "                    by Slurm's fair-share factor from their allocation and\n"
    "                    their usage decayed with policy.half_life_days, then submit\n"
    "                    time (FCFS where there are no allocations); with --replay too\n"
    "\nWith --replay: the recorded jobs (final attempts that started) on the\n"
    "recorded fleet (the inventory; a cluster it does not name: the most units its\n"
    "jobs held at once), FCFS with EASY backfill on the time limit, one queue per\n"
    "cluster; a job runs on the GPU model it was recorded on (--placement), its\n"
    "runtime scaled by the recorded GPU's speed over the new one's. Prints per month\n"
    "the simulated beside the recorded waits (p50, p90, mean capped at 2 days), per\n"
    "group the share of recorded waiting that passed while capacity the job could\n"
    "use stood idle (50 % or more: the waits are policy, not capacity), and the\n"
    "simulated waits with every pool 10 % larger.\n"
    "  --from D, --to D  the window of submission (default: the whole record)\n"
    "  --json            everything, per month and per (month, group, memory class)\n"
    "  --fleet-at D      on the fleet as it stood on day D, in service throughout (a\n"
    "                    year before a capacity change replayed on the fleet after it)\n"
    "  --placement P     recorded (the default): each job only on the GPU model it ran\n"
    "                    on, as a typed request or a partition per model pins it (a job\n"
    "                    whose model no pool has: any); any: any GPU of its cluster\n"
    "                    with enough memory (the default with --fleet-at, and next\n"
    "                    year's rule)\n"
    "  --tiers P1,P2     partitions' priority tiers, the highest first (slurm.conf's\n"
    "                    PriorityTier, not in sacct): the queue goes by tier, then by\n"
    "                    submit time or fair share; other partitions after them all\n"
    "  --starts FILE     each simulated job's submit and start, one a line, in the\n"
    "                    order read (what tests/sim_ref.py checks start for start)\n"
    "See docs/simulate.md.\n",
    exec_simulate};
