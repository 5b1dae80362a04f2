/* capplan stats KIND: usage analytics (core/stats) over what the database
 * holds (data/store_stats), printed as text tables, JSON or CSV. */
#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/censored_print.h"
#include "cli/cli.h"
#include "core/stats.h"
#include "core/policy.h"
#include "data/plan/policy_demand.h"
#include "data/store/store_policy.h"
#include "data/store/store_stats.h"

typedef enum Format { FMT_TEXT, FMT_JSON, FMT_CSV } Format;

typedef struct StatsArgs {
    StatsOpts o;
    int by_given;
    Format fmt;
    const char *table; /* --table: print only this one */
    int policy;           /* issue 9's kinds: 1 fairshare, 2 energy (core/policy) */
    const char *scenario; /* --scenario: their policy.* parameters */
} StatsArgs;

static const char *kind_name(const StatsArgs *a)
{
    return a->policy == 1 ? "fairshare" : a->policy == 2 ? "energy" : stats_kind_name(a->o.kind);
}

#define TEXT_CELL_MAX 40 /* display columns of a text cell in a table */

/* ---- arguments ---- */

/* The value of option name at argv[*i] ("--name V" or "--name=V"), or
 * NULL when argv[*i] is not that option. *bad set when the value is
 * missing. */
static const char *opt_value(int argc, char **argv, int *i, const char *name, int *bad)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *bad = 1;
        return NULL;
    }
    return argv[++*i];
}

static int parse_by(const char *v, StatsBy *by)
{
    if (strcmp(v, "month") == 0)
        *by = STATS_BY_MONTH;
    else if (strcmp(v, "year") == 0)
        *by = STATS_BY_YEAR;
    else if (strcmp(v, "all") == 0)
        *by = STATS_BY_ALL;
    else
        return -1;
    return 0;
}

/* One option at argv[*i]: 0 taken, -1 bad usage. */
static int parse_opt(int argc, char **argv, int *i, StatsArgs *a)
{
    int bad = 0;
    const char *v;
    if (strcmp(argv[*i], "--json") == 0 || strcmp(argv[*i], "--csv") == 0) {
        Format f = argv[*i][2] == 'j' ? FMT_JSON : FMT_CSV;
        if (a->fmt != FMT_TEXT && a->fmt != f) {
            cli_error("stats: --json or --csv, not both");
            return -1;
        }
        a->fmt = f;
    } else if ((v = opt_value(argc, argv, i, "--by", &bad))) {
        if (parse_by(v, &a->o.by) < 0) {
            cli_error("stats: --by takes month, year or all, not '%s'", v);
            return -1;
        }
        a->by_given = 1;
    } else if ((v = opt_value(argc, argv, i, "--group", &bad))) {
        a->o.group = v;
    } else if ((v = opt_value(argc, argv, i, "--cluster", &bad))) {
        a->o.cluster = v;
    } else if ((v = opt_value(argc, argv, i, "--table", &bad))) {
        a->table = v;
    } else if ((v = opt_value(argc, argv, i, "--scenario", &bad))) {
        a->scenario = v;
    } else {
        return -1;
    }
    return bad ? -1 : 0;
}

static int parse_args(int argc, char **argv, StatsArgs *a)
{
    int have_kind = 0;
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1]) {
            if (parse_opt(argc, argv, &i, a) < 0)
                return -1;
        } else if (!have_kind && (strcmp(argv[i], "fairshare") == 0 ||
                                  strcmp(argv[i], "energy") == 0)) {
            a->policy = argv[i][0] == 'f' ? 1 : 2;
            have_kind = 1;
        } else if (!have_kind) {
            if (stats_kind_parse(argv[i], &a->o.kind) < 0) {
                cli_error("stats: unknown kind '%s' (utilization, preemption, waits, efficiency, "
                          "domains, pubs, fairshare or energy)",
                          argv[i]);
                return -1;
            }
            have_kind = 1;
        } else {
            return -1;
        }
    }
    if (!have_kind)
        return -1;
    if (!a->by_given)
        a->o.by = a->policy ? STATS_BY_MONTH : stats_kind_default_by(a->o.kind);
    return 0;
}

/* ---- text ---- */

/* Display columns of UTF-8 text (code points; no wide characters). */
static size_t text_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xc0) != 0x80;
    return w;
}

/* Copy s into buf, sanitised and cut to max display columns ("..." ends a
 * cut), never splitting a UTF-8 sequence. */
static void text_fit(char *buf, size_t n, const char *s, size_t max)
{
    char clean[512];
    cli_sanitize(clean, sizeof clean, s);
    int cut = text_width(clean) > max;
    size_t cols = 0, i = 0, room = n - (cut ? 4 : 1);
    while (clean[i] && cols < (cut ? max - 3 : max)) {
        size_t len = 1;
        while (((unsigned char)clean[i + len] & 0xc0) == 0x80)
            len++;
        if (i + len > room)
            break;
        i += len;
        cols++;
    }
    memcpy(buf, clean, i);
    memcpy(buf + i, cut ? "..." : "", cut ? 4 : 1);
}

/* Digits of v with thousands separators, decimals after the point. */
static void fmt_number(char *buf, size_t n, double v, int decimals)
{
    char raw[64];
    snprintf(raw, sizeof raw, "%.*f", decimals, v);
    const char *dot = strchr(raw, '.');
    size_t intlen = dot ? (size_t)(dot - raw) : strlen(raw);
    size_t start = raw[0] == '-' ? 1 : 0, o = 0;
    for (size_t i = 0; i < strlen(raw) && o + 2 < n; i++) {
        if (i >= start && i < intlen && i > start && (intlen - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = raw[i];
    }
    buf[o] = '\0';
}

/* A cell as the text table shows it. */
static void cell_string(const StatsCol *col, const StatsCell *c, char *buf, size_t n)
{
    if (col->type == STATS_COL_TEXT) {
        text_fit(buf, n, c->text ? c->text : "", TEXT_CELL_MAX);
        return;
    }
    if (isnan(c->num)) {
        snprintf(buf, n, "-");
        return;
    }
    if (col->type == STATS_COL_BOOL) {
        snprintf(buf, n, "%s", c->num != 0 ? "yes" : "no");
        return;
    }
    char num[64];
    fmt_number(num, sizeof num, c->num, col->type == STATS_COL_INT ? 0 : col->decimals);
    if (strcmp(col->unit, "%") == 0)
        snprintf(buf, n, "%s%%", num);
    else if (strcmp(col->unit, "h") == 0 || strcmp(col->unit, "GiB") == 0)
        snprintf(buf, n, "%s %s", num, col->unit);
    else
        snprintf(buf, n, "%s", num);
}

static void print_text_table(const StatsTable *t, FILE *out)
{
    size_t *w = xcalloc(t->ncols, sizeof *w);
    char buf[256];
    for (size_t c = 0; c < t->ncols; c++)
        w[c] = text_width(t->cols[c].title);
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t c = 0; c < t->ncols; c++) {
            cell_string(&t->cols[c], &t->cells[r * t->ncols + c], buf, sizeof buf);
            size_t cw = text_width(buf);
            w[c] = cw > w[c] ? cw : w[c];
        }
    fprintf(out, "%s\n", t->title);
    if (t->note)
        fprintf(out, "(%s)\n", t->note);
    for (size_t c = 0; c < t->ncols; c++) {
        int left = t->cols[c].type == STATS_COL_TEXT;
        size_t pad = w[c] - text_width(t->cols[c].title);
        fprintf(out, "%s%*s%s%*s", c ? "  " : "", left ? 0 : (int)pad, "", t->cols[c].title,
                left ? (int)pad : 0, "");
    }
    fputc('\n', out);
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            int left = t->cols[c].type == STATS_COL_TEXT;
            cell_string(&t->cols[c], &t->cells[r * t->ncols + c], buf, sizeof buf);
            size_t pad = w[c] - text_width(buf);
            fprintf(out, "%s%*s%s%*s", c ? "  " : "", left ? 0 : (int)pad, "", buf,
                    left && c + 1 < t->ncols ? (int)pad : 0, "");
        }
        fputc('\n', out);
    }
    if (t->nrows == 0)
        fprintf(out, "(no data)\n");
    free(w);
}

/* ---- JSON ---- */

static cJSON *json_cell(const StatsCol *col, const StatsCell *c)
{
    if (col->type == STATS_COL_TEXT)
        return cJSON_CreateString(c->text ? c->text : "");
    if (isnan(c->num))
        return cJSON_CreateNull();
    if (col->type == STATS_COL_BOOL)
        return cJSON_CreateBool(c->num != 0);
    return cJSON_CreateNumber(c->num);
}

static int print_json(const StatsReport *rep, const StatsArgs *a, const char *table,
                      const StoreCensored *cz, FILE *out)
{
    static const char *const by_name[] = {"month", "year", "all"};
    cJSON *o = cJSON_CreateObject();
    cli_json_schema(o, "stats");
    cJSON_AddStringToObject(o, "kind", kind_name(a));
    cJSON_AddStringToObject(o, "by", by_name[rep->by]);
    if (a->o.group)
        cJSON_AddStringToObject(o, "group", a->o.group);
    else
        cJSON_AddNullToObject(o, "group");
    if (a->o.cluster)
        cJSON_AddStringToObject(o, "cluster", a->o.cluster);
    else
        cJSON_AddNullToObject(o, "cluster");
    censored_json(o, cz);
    cJSON *tables = cJSON_AddObjectToObject(o, "tables");
    for (size_t i = 0; i < rep->ntables; i++) {
        const StatsTable *t = &rep->tables[i];
        if (table && strcmp(table, t->key) != 0)
            continue;
        cJSON *rows = cJSON_AddArrayToObject(tables, t->key);
        for (size_t r = 0; r < t->nrows; r++) {
            cJSON *row = cJSON_CreateObject();
            for (size_t c = 0; c < t->ncols; c++)
                cJSON_AddItemToObject(row, t->cols[c].key,
                                      json_cell(&t->cols[c], &t->cells[r * t->ncols + c]));
            cJSON_AddItemToArray(rows, row);
        }
    }
    int rc = cli_print_json(o, out) == 0 ? 0 : cli_error("stats: cannot write JSON");
    cJSON_Delete(o);
    return rc;
}

/* ---- CSV (RFC 4180, CRLF; text that a spreadsheet would read as a
 * formula is neutralised with a leading apostrophe, as OWASP advises) ---- */

static void csv_text(const char *raw, FILE *out)
{
    char s[512];
    cli_sanitize(s, sizeof s, raw); /* no control character from data, even in CSV */
    int formula =
        s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r';
    int quote = formula || strpbrk(s, ",\"\r\n") != NULL;
    if (quote)
        fputc('"', out);
    if (formula)
        fputc('\'', out);
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    if (quote)
        fputc('"', out);
}

static void csv_cell(const StatsCol *col, const StatsCell *c, FILE *out)
{
    if (col->type == STATS_COL_TEXT)
        csv_text(c->text ? c->text : "", out);
    else if (isnan(c->num))
        return;
    else if (col->type == STATS_COL_BOOL)
        fputs(c->num != 0 ? "true" : "false", out);
    else if (col->type == STATS_COL_INT)
        fprintf(out, "%.0f", c->num);
    else
        fprintf(out, "%.10g", c->num);
}

static void print_csv(const StatsTable *t, FILE *out)
{
    for (size_t c = 0; c < t->ncols; c++) {
        if (c)
            fputc(',', out);
        csv_text(t->cols[c].key, out);
    }
    fputs("\r\n", out);
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            if (c)
                fputc(',', out);
            csv_cell(&t->cols[c], &t->cells[r * t->ncols + c], out);
        }
        fputs("\r\n", out);
    }
}

/* ---- the command ---- */

static int print_report(const StatsReport *rep, const StatsArgs *a, const StoreCensored *cz)
{
    if (a->table && !stats_report_table(rep, a->table)) {
        char names[512];
        size_t k = 0;
        names[0] = '\0';
        for (size_t i = 0; i < rep->ntables && k < sizeof names; i++) {
            int w = snprintf(names + k, sizeof names - k, " %s", rep->tables[i].key);
            if (w < 0)
                break;
            k += (size_t)w;
        }
        cli_error("stats %s: no table '%s'; tables:%s", kind_name(a), a->table, names);
        return 2;
    }
    if (a->fmt == FMT_JSON)
        return print_json(rep, a, a->table, cz, stdout);
    if (a->fmt == FMT_CSV) {
        print_csv(a->table ? stats_report_table(rep, a->table) : &rep->tables[0], stdout);
        return 0;
    }
    for (size_t i = 0, shown = 0; i < rep->ntables; i++) {
        if (a->table && strcmp(a->table, rep->tables[i].key) != 0)
            continue;
        if (shown++)
            fputc('\n', stdout);
        print_text_table(&rep->tables[i], stdout);
    }
    if (cz->runs > 0) {
        fputc('\n', stdout);
        censored_text(cz, a->o.group ? " (of every group)" : "", stdout);
    }
    return 0;
}

/* The runs behind the figures still going at their file's end (#29). */
static int censored_of(Store *st, const StatsArgs *a, StoreCensored *cz)
{
    CpErr err;
    StoreCensoredWhere w = {a->o.cluster, 0, 0, -1};
    if (store_censored(st, &w, cz, &err) < 0)
        return cli_error("stats %s: %s", kind_name(a), err.msg);
    return 0;
}

/* fairshare and energy: what data/store_policy loads (the runs'
 * aggregate, the attempts only where still read), the tables from
 * core/policy. */
static int exec_policy(Store *st, const StatsArgs *a)
{
    CpErr err;
    StoreCensored cz;
    if (censored_of(st, a, &cz) != 0)
        return 1;
    PolicyInput in;
    StorePolicyOpen *po = store_policy_open(
        st, a->scenario, a->policy == 1 ? STORE_POLICY_FAIRSHARE : STORE_POLICY_ENERGY, NULL, &in,
        &err);
    if (!po)
        return cli_error("stats %s: %s", kind_name(a), err.msg);
    double *pg = NULL;
    int32_t *py = NULL;
    if (a->policy == 2 && a->scenario &&
        store_policy_projection(st, a->scenario, &pg, &py, &in.nproj, &err) < 0) {
        store_policy_close(po);
        return cli_error("stats energy: %s", err.msg);
    }
    in.proj_gpus = pg;
    in.proj_year = py;
    in.scenario = a->scenario;
    StatsReport rep;
    int rc = a->policy == 1 ? policy_fairshare(&in, &a->o, &rep, &err)
                            : policy_energy(&in, &a->o, &rep, &err);
    rc = rc < 0 ? cli_error("stats %s: %s", kind_name(a), err.msg) : print_report(&rep, a, &cz);
    stats_report_free(&rep);
    free(pg);
    free(py);
    store_policy_close(po);
    if (rc == 0 && fflush(stdout) != 0)
        rc = cli_error("stats: cannot write the output");
    return rc;
}

static int exec_stats(CliCtx *ctx, int argc, char **argv)
{
    StatsArgs a;
    if (cli_wants_help(&cmd_stats, argc, argv))
        return 0;
    if (parse_args(argc, argv, &a) < 0)
        return cli_usage(&cmd_stats);
    Store *st = cli_store(ctx);
    if (!st)
        return 1;
    if (a.policy)
        return exec_policy(st, &a);
    CpErr err;
    StoreCensored cz;
    if (censored_of(st, &a, &cz) != 0)
        return 1;
    StoreStatsData *d = store_stats_load(st, stats_opts_needs(&a.o), &err);
    if (!d)
        return cli_error("%s", err.msg);
    StatsReport rep;
    int rc = stats_run(store_stats_input(d), &a.o, &rep, &err);
    if (rc < 0)
        rc = cli_error("stats: %s", err.msg);
    else
        rc = print_report(&rep, &a, &cz);
    stats_report_free(&rep);
    store_stats_free(d);
    if (rc == 0 && fflush(stdout) != 0)
        rc = cli_error("stats: cannot write the output");
    return rc;
}

const CmdEntry cmd_stats = {
    "stats",
    "capplan stats utilization|preemption|waits|efficiency|domains|pubs|fairshare|energy "
    "[--by month|year|all] [--group G] [--cluster C] [--table T] [--scenario S] [--json|--csv]",
    "\nUsage analytics over the imported accounting, roster and reference data.\n"
    "\n"
    "  utilization  GPU-hours used against GPU-hours available from the dated inventory,\n"
    "               per period and cluster (capacity pro rata as GPUs arrive and leave,\n"
    "               counted inside the window the accounting covers); tables utilization,\n"
    "               groups (each group's share), events (utilisation and waits in the three\n"
    "               whole months before and after each event: the event's month is left\n"
    "               out unless the event falls on its first day), hour_of_week and\n"
    "               hour_of_week_gpus (the heat map, UTC).\n"
    "  preemption   per group and partition (and \"all\" of either): jobs and attempts\n"
    "               preempted, GPU- and CPU-hours lost (the runs of preempted attempts),\n"
    "               the share of jobs that completed (of all, and of those preempted), the\n"
    "               median run before a preemption. A partition is preemptible when it saw\n"
    "               a preemption or its name says preempt, scavenger or spot.\n"
    "  waits        p50/p90/p99 of submit-to-start per attempt, per period, partition and\n"
    "               GPU count; time to solution (first submission to the end of the final\n"
    "               run) of completed jobs. Jobs cancelled before they started are no wait.\n"
    "  efficiency   requested against used per group (and per user with --group): GPU\n"
    "               utilisation and peak GPU memory where measured, CPU time / (run time x\n"
    "               CPUs), peak RSS / requested memory, run time / time limit (run-time\n"
    "               weighted); waste: GPU-hours idle (utilisation under 10 %), hogged (idle\n"
    "               while jobs of the same GPU type waited on a cluster at least 80 % busy in\n"
    "               that hour), jobs whose peak memory fits a smaller GPU of the inventory or\n"
    "               a 20 GB MIG slice (one GPU, under 40 % busy); top_hogs.\n"
    "  domains      GPU-hours and their share per research domain, researchers on the\n"
    "               roster and active users per domain.\n"
    "  pubs         publications and GPU-hours per publication, per group and per domain,\n"
    "               per year.\n"
    "  fairshare    replay of the jobs under the imported allocations (capplan import\n"
    "               allocations), IDRIS Jean Zay style: a group may use up to 125 % of its\n"
    "               yearly allocation and is blocked beyond; fair-share factor 2^(-U/S) with\n"
    "               usage decayed over a 14-day half-life. Tables groups, series, machine\n"
    "               (GPU-hours left unused), blocks. Parameters per scenario (--scenario S):\n"
    "               policy.ceiling, policy.half_life_days, policy.w_fairshare,\n"
    "               policy.w_allocation.\n"
    "  energy       kWh = GPUs x hours x TDP x utilisation (measured, else 1) x PUE / 1000,\n"
    "               carbon from the cluster's intensity or hourly series (capplan import\n"
    "               sites, capplan import carbon; defaults PUE 1.2, 480 gCO2e/kWh). Tables\n"
    "               energy (per period), groups, domains, clusters (the assumptions),\n"
    "               shifting (carbon saved moving preemptible runs to the cleanest start\n"
    "               within energy.shift_delay_h, 24 h, under the inventory's capacity).\n"
    "\n"
    "Groups come from the roster (the line in force at the time; for utilization,\n"
    "preemption and waits, at the middle of the month); users the roster does\n"
    "not know are counted under their account. --by defaults to month for utilization,\n"
    "year otherwise (pubs are always per year); `all` gives one period. --group and\n"
    "--cluster keep that group's or cluster's usage (capacity is the cluster's). Text\n"
    "tables by default; --json gives every table with stable keys (numbers as numbers,\n"
    "null when unknown); --csv prints one table (the first, or --table T) as RFC 4180.\n"
    "utilization, preemption, waits and efficiency read monthly aggregates the import\n"
    "keeps (wait quantiles within 1/64: docs/scale.md); with --group, the group's\n"
    "attempts. A database the import did not keep them for is read once.\n"
    "Runs still going when their file was written count up to then: the text's last\n"
    "line and \"censored\" in --json say how many and up to when.\n",
    exec_stats};
