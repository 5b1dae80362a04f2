/* report: gathering the figures, shared helpers, and the report file. */
#include "reports/report.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/backtest.h"
#include "core/stats.h"
#include "data/store/store_stats.h"
#include "data/store/store_sources.h"
#include "data/ingest/catalog.h"
#include "data/ingest/textenc.h"
#include "reports/anon.h"
#include "reports/anon_order.h"
#include "data/store/store_anon.h"
#include "reports/mdfit.h"
#include "reports/mdhtml.h"
#include "reports/mdw.h"
#include "reports/report_int.h"
#include "reports/rfile.h"
#include "core/civil.h"

static const struct {
    StatsKind kind;
    StatsBy by;
} runs[RS_COUNT] = {
    [RS_UTIL_YEAR] = {STATS_UTILIZATION, STATS_BY_YEAR},
    [RS_UTIL_MONTH] = {STATS_UTILIZATION, STATS_BY_MONTH},
    [RS_UTIL_ALL] = {STATS_UTILIZATION, STATS_BY_ALL},
    [RS_PREEMPT_ALL] = {STATS_PREEMPTION, STATS_BY_ALL},
    [RS_PREEMPT_YEAR] = {STATS_PREEMPTION, STATS_BY_YEAR},
    [RS_WAITS_YEAR] = {STATS_WAITS, STATS_BY_YEAR},
    [RS_EFF_ALL] = {STATS_EFFICIENCY, STATS_BY_ALL},
    [RS_DOMAINS_YEAR] = {STATS_DOMAINS, STATS_BY_YEAR},
    [RS_PUBS_YEAR] = {STATS_PUBS, STATS_BY_YEAR},
};

/* ---- gathering ---- */

static int gather_plan(Report *r, Store *st, CpErr *err)
{
    PlanOpts o;
    memset(&o, 0, sizeof o);
    o.years = r->o.years;
    r->plan = plan_build(st, &o, err);
    if (!r->plan)
        return -1;
    const char *sc = r->o.scenario && strcmp(r->o.scenario, "base") != 0 ? r->o.scenario : NULL;
    if (sc) {
        int e = store_plan_scenario_exists(st, sc, err);
        if (e < 0)
            return -1;
        if (e == 0)
            return cp_err_set(err, "no scenario '%s' (capplan scenario list)", sc);
    }
    if (plan_params(st, r->plan, sc, &r->params, &r->skipped, err) < 0 ||
        plan_params(st, r->plan, NULL, &r->base_params, NULL, err) < 0 ||
        (sc && store_plan_params(st, sc, &r->edits, &r->nedits, err) < 0))
        return -1;
    r->res = projection_result_new(r->plan->model);
    r->base_res = projection_result_new(r->plan->model);
    projection_run(r->plan->model, r->params, r->res);
    projection_run(r->plan->model, r->base_params, r->base_res);
    return 0;
}

/* The first page's figures of a rolling backtest over every cut: the
 * 80th percentile of log(actual / forecast) over the cuts the ranges use
 * (both totals above 0), the mean |error| and the bias. */
static void bt_summarise(const PlanBacktest *b, RBtSummary *s)
{
    double *lr = xcalloc((size_t)b->ncuts + 1, sizeof *lr);
    int n = 0;
    for (int i = 0; i < b->ncuts; i++)
        if (b->cuts[i].model > 0 && b->cuts[i].actual > 0)
            lr[n++] = log(b->cuts[i].actual / b->cuts[i].model);
    s->ncuts = n;
    s->q80 = n >= PROJ_MIN_CUTS ? backtest_percentile(lr, n, 80) : NAN;
    s->mae = b->mae_model;
    s->bias = b->bias_model;
    free(lr);
}

/* The backtest cut: the first of the month 12 months before the plan's
 * t0, as `capplan project --backtest` would take it. The plan's rolling
 * backtest over every cut (plan_build ran it for the ranges) gives the
 * first page's summary and, when its last cut is that one, the detail;
 * else that cut alone is run. */
static void gather_backtest(Report *r, Store *st)
{
    PlanOpts o;
    CpErr e;
    memset(&o, 0, sizeof o);
    r->bts.q80 = NAN;
    if (r->plan->nusers == 0) {
        snprintf(r->bt_why, sizeof r->bt_why, "no job to fit on");
        return;
    }
    const PlanBacktest *all = r->plan->bt;
    if (all)
        bt_summarise(all, &r->bts);
    o.cut = stats_month_start(stats_month_of(plan_add_months(r->plan->win_end, -12)));
    const PlanBacktest *b = all && all->ncuts > 0 && all->cut == o.cut ? all : &r->own_bt;
    if (b == &r->own_bt && plan_backtest(st, &o, &r->own_bt, &e) < 0) {
        snprintf(r->bt_why, sizeof r->bt_why, "%s", e.msg);
        return;
    }
    if (b->users == 0) {
        char c[16];
        rpt_date(o.cut, c, sizeof c);
        snprintf(r->bt_why, sizeof r->bt_why, "no job in the 12 months before %s to fit on", c);
        return;
    }
    r->bt = b;
}

/* 1 when the export reads stats run i (tables only: when a table does). */
static int run_wanted(const Report *r, int i)
{
    return !r->o.tables_only || rpt_csv_reads_run(i);
}

/* The stats runs, from two loads when some read the attempts: the others
 * then read the stored aggregates (with the attempts loaded, core/stats
 * would make the aggregates again from them). */
static int gather_stats(Report *r, Store *st, CpErr *err)
{
    unsigned agg = 0, jobs = 0;
    for (int i = 0; i < RS_COUNT; i++)
        if (run_wanted(r, i)) {
            unsigned n = stats_kind_needs(runs[i].kind);
            *(n & STATS_NEED_JOBS ? &jobs : &agg) |= n;
        }
    if ((agg && !(r->stats_data = store_stats_load(st, agg, err))) ||
        (jobs && !(r->jobs_data = store_stats_load(st, jobs, err))))
        return -1;
    r->stats_needs = r->stats_data ? agg : 0;
    r->jobs_needs = r->jobs_data ? jobs : 0;
    for (int i = 0; i < RS_COUNT; i++) {
        StatsOpts so = {runs[i].kind, runs[i].by, NULL, NULL};
        const StoreStatsData *d =
            stats_kind_needs(runs[i].kind) & STATS_NEED_JOBS ? r->jobs_data : r->stats_data;
        if (run_wanted(r, i) && stats_run(store_stats_input(d), &so, &r->stats[i], err) < 0)
            return -1;
    }
    return 0;
}

static void add_name(void *ctx, const char *kind, const char *name)
{
    anon_scrub_add_kind(ctx, kind, name);
}

/* --anonymize: the site key (--anon-key FILE, else the database's, made
 * once), and every name of the database into the scrubber the writers
 * apply (reports/anon). */
static int anon_setup(Report *r, Store *st, CpErr *err)
{
    unsigned char key[4096];
    size_t len = STORE_ANON_KEY_BYTES;
    if (r->o.anon_key_file
            ? store_anon_key_file(r->o.anon_key_file, key, sizeof key, &len, err) < 0
            : store_anon_key(st, 1, key, err) < 0)
        return -1;
    anon_set_key(key, len);
    r->scrub = anon_scrub_new();
    if (store_anon_names(st, add_name, r->scrub, err) < 0)
        return -1;
    anon_scrub_activate(r->scrub);
    return 0;
}

/* Next year simulated, for the decision page and purchase.csv (#33): one
 * answer for every output. A failure leaves r->sim NULL and says why. */
static void gather_sim(Report *r, Store *st)
{
    SimNextOpts so = {0, r->o.scenario, NULL, 0, 0};
    CpErr e;
    CatalogGpu *cat = NULL;
    r->sim = xcalloc(1, sizeof *r->sim);
    int failed = catalog_effective(st, &cat, &so.ncatalog, &so.builtin_catalog, &e) < 0;
    so.catalog = cat;
    failed = failed || simulate_next(st, &so, r->sim, &e) < 0;
    catalog_free(cat, so.ncatalog);
    if (failed) {
        snprintf(r->sim_why, sizeof r->sim_why, "%s", e.msg);
        free(r->sim);
        r->sim = NULL;
    }
}

Report *report_new(Store *st, const ReportOpts *o, CpErr *err)
{
    Report *r = xcalloc(1, sizeof *r);
    r->o = *o;
    if (o->anonymize && anon_setup(r, st, err) < 0)
        goto fail;
    r->scenario = o->scenario && strcmp(o->scenario, "base") != 0 ? o->scenario : "base";
    r->now = o->now ? o->now : (int64_t)time(NULL);
    if (gather_plan(r, st, err) < 0 || gather_stats(r, st, err) < 0 ||
        store_tui_load(st, &r->tui, err) < 0 ||
        store_sources(st, &r->sources, &r->nsources, err) < 0 ||
        catalog_load(st, &r->catalog, &r->ncatalog, err) < 0)
        goto fail;
    if (o->peers_csv ? peers_read_csv(o->peers_csv, TEXTENC_UTF8, &r->peers, &r->npeers, err) < 0
                     : peers_load(st, &r->peers, &r->npeers, err) < 0)
        goto fail;
    gather_backtest(r, st);
    gather_sim(r, st);
    if (!o->tables_only &&
        (rpt_policy_gather(r, st, err) < 0 || rpt_research_gather(r, st, err) < 0))
        goto fail;
    return r;
fail:
    report_free(r);
    return NULL;
}

void report_free(Report *r)
{
    if (!r)
        return;
    if (r->scrub) {
        anon_scrub_activate(NULL);
        anon_scrub_free(r->scrub);
    }
    rpt_policy_free(r);
    store_sources_free(r->sources, r->nsources);
    catalog_free(r->catalog, r->ncatalog);
    free(r->sim);
    rpt_research_free(r);
    for (int i = 0; i < RS_COUNT; i++)
        if (r->stats_data || r->jobs_data)
            stats_report_free(&r->stats[i]);
    store_stats_free(r->stats_data);
    store_stats_free(r->jobs_data);
    store_tui_snapshot_free(&r->tui);
    peers_free(r->peers, r->npeers);
    plan_backtest_free(&r->own_bt);
    store_plan_params_free(r->edits, r->nedits);
    projection_result_free(r->res);
    projection_result_free(r->base_res);
    projection_params_free(r->params);
    projection_params_free(r->base_params);
    plan_free(r->plan);
    free(r);
}

/* ---- helpers ---- */

const char *rpt_name(const Report *r, const char *kind, const char *name, char *buf, size_t n)
{
    return anon_maybe(r->o.anonymize, kind, name ? name : "", buf, n);
}

const StatsTable *rpt_table(const Report *r, int run, const char *key)
{
    return stats_report_table(&r->stats[run], key);
}

void rpt_date(int64_t t, char *buf, size_t n)
{
    int64_t y;
    int m, d;
    civil_from_days(civil_floor_div(t, 86400), &y, &m, &d);
    snprintf(buf, n, "%04lld-%02d-%02d", (long long)y, m, d);
}

void rpt_proj_year(const Report *r, int y, int form, char *buf, size_t n)
{
    int64_t f, t;
    char a[16], b[16];
    projection_year_span(r->plan->model, y, &f, &t);
    rpt_date(f, a, sizeof a);
    rpt_date(t, b, sizeof b);
    if (form == RPT_YEAR_SHORT)
        snprintf(buf, n, "y%d (%.4s-%.4s)", y, a, b);
    else if (form == RPT_YEAR_AXIS)
        snprintf(buf, n, "y%d %.4s-%.2s", y, a, b + 2);
    else
        snprintf(buf, n, "y%d (%s to %s)", y, a, b);
}

int rpt_row_passes(const StatsTable *t, size_t row, const RFilter *f, size_t nf)
{
    for (size_t i = 0; i < nf; i++) {
        const StatsCell *c = stats_table_cell(t, row, f[i].col);
        if (!c)
            return 0;
        int same = c->text && strcmp(c->text, f[i].value) == 0;
        if (same != f[i].eq)
            return 0;
    }
    return 1;
}

static const StatsCol *find_col(const StatsTable *t, const char *key)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(t->cols[c].key, key) == 0)
            return &t->cols[c];
    return NULL;
}

static int is_name_col(const char *key)
{
    return strcmp(key, "group") == 0 || strcmp(key, "user") == 0;
}

void rpt_year(const Report *r, int64_t year, char *buf, size_t n)
{
    static const char *const mon[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    /* in whole days: the first and the last day with accounting */
    int64_t a = civil_floor_div(r->tui.acct_from, 86400);
    int64_t b = civil_floor_div(r->tui.acct_to - 1, 86400);
    int64_t y0 = civil_days(year, 1, 1), y1 = civil_days(year, 12, 31);
    int known = r->tui.acct_to > r->tui.acct_from;
    int from = known && a > y0 && a <= y1, to = known && b < y1 && b >= y0;
    int64_t yy;
    int m1, d1, m2, d2;
    civil_from_days(a, &yy, &m1, &d1);
    civil_from_days(b, &yy, &m2, &d2);
    if (from && to)
        snprintf(buf, n, "%lld (partial: %d %s to %d %s)", (long long)year, d1, mon[m1 - 1], d2,
                 mon[m2 - 1]);
    else if (from)
        snprintf(buf, n, "%lld (partial: from %d %s)", (long long)year, d1, mon[m1 - 1]);
    else if (to)
        snprintf(buf, n, "%lld (partial: to %d %s)", (long long)year, d2, mon[m2 - 1]);
    else
        snprintf(buf, n, "%lld", (long long)year);
}

/* A 4-digit year of the accounting in a period or year column, else -1
 * (a projection's years are not the accounting's). */
static int64_t year_of(const StatsTable *t, const StatsCol *col, const StatsCell *c)
{
    if ((strcmp(col->key, "period") != 0 && strcmp(col->key, "year") != 0) ||
        strcmp(t->key, "projection") == 0)
        return -1;
    if (col->type == STATS_COL_TEXT)
        return c->text && strlen(c->text) == 4 && strspn(c->text, "0123456789") == 4
                   ? atoi(c->text)
                   : -1;
    return isnan(c->num) ? -1 : (int64_t)c->num;
}

/* An event's row (columns util_before_pct, util_after_pct) without data
 * in the months before (side "before") or after it. */
static int no_data(const StatsTable *t, size_t row, const char *side)
{
    char key[32];
    snprintf(key, sizeof key, "util_%s_pct", side);
    const StatsCell *c = stats_table_cell(t, row, key);
    return c && isnan(c->num);
}

/* What column key of an event row shows when there is no data on one
 * side of the event: "no data before" (after) instead of figures, "-"
 * for the change; NULL: the figure itself. */
static const char *event_text(const StatsTable *t, size_t row, const char *key)
{
    int before = no_data(t, row, "before"), after = no_data(t, row, "after");
    if (strstr(key, "_before") && before)
        return "no data before";
    if (strstr(key, "_after") && after)
        return "no data after";
    if (strstr(key, "_change") && (before || after))
        return "-";
    return NULL;
}

/* One cell (row of t) as the report prints it. */
static void cell_text(const Report *r, const StatsTable *t, size_t row, const StatsCol *col,
                      const StatsCell *c, char *buf, size_t n)
{
    int64_t year = year_of(t, col, c);
    const char *ev = event_text(t, row, col->key);
    if (ev)
        snprintf(buf, n, "%s", ev);
    else if (year >= 1000 && year <= 9999)
        rpt_year(r, year, buf, n);
    else if (col->type == STATS_COL_TEXT) {
        char tmp[64];
        const char *s = c->text ? c->text : "";
        snprintf(buf, n, "%s", is_name_col(col->key) ? rpt_name(r, col->key, s, tmp, sizeof tmp)
                                                     : s);
    } else if (col->type == STATS_COL_BOOL)
        snprintf(buf, n, "%s", isnan(c->num) ? "n/a" : c->num != 0 ? "yes" : "no");
    else
        mdw_num(buf, n, c->num, col->type == STATS_COL_INT ? 0 : col->decimals, col->unit);
}

void rpt_stats_md(const Report *r, FILE *out, const StatsTable *t, const char *const *cols,
                  size_t ncols, const RFilter *f, size_t nf)
{
    const StatsCol **cv = xcalloc(ncols, sizeof *cv);
    const char **titles = xcalloc(ncols, sizeof *titles);
    char *align = xcalloc(ncols + 1, 1);
    char (*cells)[256] = xcalloc(ncols, sizeof *cells);
    const char **cp = xcalloc(ncols, sizeof *cp);
    size_t shown = 0;
    for (size_t i = 0; i < ncols; i++) {
        cv[i] = t ? find_col(t, cols[i]) : NULL;
        titles[i] = cv[i] ? cv[i]->title : cols[i];
        align[i] = cv[i] && cv[i]->type != STATS_COL_TEXT ? 'r' : 'l';
        cp[i] = cells[i];
    }
    for (size_t row = 0; t && row < t->nrows; row++) {
        if (!rpt_row_passes(t, row, f, nf))
            continue;
        if (shown++ == 0)
            mdw_head(out, titles, align, ncols);
        for (size_t i = 0; i < ncols; i++) {
            if (cv[i])
                cell_text(r, t, row, cv[i],
                          &t->cells[row * t->ncols + (size_t)(cv[i] - t->cols)], cells[i],
                          sizeof cells[i]);
            else
                snprintf(cells[i], sizeof cells[i], "n/a");
        }
        mdw_row(out, cp, ncols);
    }
    fputs(shown ? "\n" : "(no data)\n\n", out);
    free(cv), free(titles), free(align), free(cells), free(cp);
}

static size_t index_of(char ***v, size_t *n, const char *s)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*v)[i], s) == 0)
            return i;
    *v = xrealloc(*v, (*n + 1) * sizeof **v);
    (*v)[*n] = xstrdup(s);
    return (*n)++;
}

void rpt_pivot(const Report *r, const StatsTable *t, const char *xcol, const char *scol,
               const char *vcol, const RFilter *f, size_t nf, RPivot *out)
{
    memset(out, 0, sizeof out[0]);
    size_t nrows = t ? t->nrows : 0;
    size_t *xi = xcalloc(nrows + 1, sizeof *xi), *si = xcalloc(nrows + 1, sizeof *si);
    double *val = xcalloc(nrows + 1, sizeof *val);
    size_t m = 0;
    for (size_t row = 0; row < nrows; row++) {
        const StatsCell *x = stats_table_cell(t, row, xcol), *s = stats_table_cell(t, row, scol);
        const StatsCell *v = stats_table_cell(t, row, vcol);
        if (!x || !s || !v || !rpt_row_passes(t, row, f, nf))
            continue;
        char buf[64];
        const char *sn = s->text ? s->text : "";
        if (is_name_col(scol))
            sn = rpt_name(r, scol, sn, buf, sizeof buf);
        xi[m] = index_of(&out->x, &out->nx, x->text ? x->text : "");
        si[m] = index_of(&out->s, &out->ns, sn);
        val[m++] = v->num;
    }
    out->v = xmalloc((out->nx * out->ns + 1) * sizeof *out->v);
    for (size_t i = 0; i < out->nx * out->ns; i++)
        out->v[i] = NAN;
    for (size_t i = 0; i < m; i++)
        out->v[si[i] * out->nx + xi[i]] = val[i];
    free(xi), free(si), free(val);
}

void rpt_pivot_free(RPivot *p)
{
    for (size_t i = 0; i < p->nx; i++)
        free(p->x[i]);
    for (size_t i = 0; i < p->ns; i++)
        free(p->s[i]);
    free(p->x), free(p->s), free(p->v);
    memset(p, 0, sizeof *p);
}

const char *rpt_domain_colour(const Report *r, const char *domain)
{
    const Plan *p = r->plan;
    for (int i = 0; i < p->ndomains; i++)
        if (strcmp(p->domains[i], domain) == 0)
            return svg_colour((size_t)i);
    /* a domain of the usage the projection does not know: after them, in
     * the order the domains table first shows it */
    const StatsTable *t = rpt_table(r, RS_DOMAINS_YEAR, "domains");
    size_t k = (size_t)p->ndomains;
    for (size_t row = 0; t && row < t->nrows; row++) {
        const StatsCell *c = stats_table_cell(t, row, "domain");
        const char *d = c && c->text ? c->text : "";
        int seen = 0;
        for (int i = 0; i < p->ndomains && !seen; i++)
            seen = strcmp(p->domains[i], d) == 0;
        for (size_t q = 0; q < row && !seen; q++) {
            const StatsCell *e = stats_table_cell(t, q, "domain");
            seen = e && e->text && strcmp(e->text, d) == 0;
        }
        if (strcmp(d, domain) == 0)
            return svg_colour(k);
        k += !seen;
    }
    return svg_colour(k);
}

int rpt_chart(FILE *out, const char *dir, const char *rel, const char *name, const char *alt,
              const SvgChart *c, CpErr *err)
{
    if (dir) {
        size_t n = strlen(dir) + strlen(name) + 8;
        char *path = xmalloc(n);
        snprintf(path, n, "%s/%s.svg", dir, name);
        RFile rf;
        int rc = rfile_open(&rf, path, err);
        free(path);
        if (rc < 0)
            return -1;
        svg_write(rf.f, c);
        if (rfile_commit(&rf, err) < 0)
            return -1;
    }
    fputs("![", out);
    mdw_text(out, alt);
    int spaced = strchr(rel, ' ') != NULL; /* a link destination with spaces needs <> */
    fprintf(out, "](%s%s/%s.svg%s)\n\n", spaced ? "<" : "", rel, name, spaced ? ">" : "");
    return 0;
}

/* ---- the report ---- */

typedef int (*SectionFn)(const Report *r, FILE *out, const char *dir, const char *rel,
                         CpErr *err);

static int profiles_fn(const Report *r, FILE *out, const char *dir, const char *rel, CpErr *err)
{
    (void)dir, (void)rel;
    return rpt_profiles(r, out, err);
}

static int energy_fn(const Report *r, FILE *out, const char *dir, const char *rel, CpErr *err)
{
    (void)dir, (void)rel;
    return rpt_energy(r, out, err);
}

static int allocation_fn(const Report *r, FILE *out, const char *dir, const char *rel,
                         CpErr *err)
{
    (void)dir, (void)rel;
    return rpt_allocation(r, out, err);
}

static int research_fn(const Report *r, FILE *out, const char *dir, const char *rel,
                       CpErr *err)
{
    (void)dir, (void)rel;
    return rpt_research(r, out, err);
}

static int sources_fn(const Report *r, FILE *out, const char *dir, const char *rel, CpErr *err)
{
    (void)dir, (void)rel;
    return rpt_sources(r, out, err);
}

/* The sections in the report's order (index: REPORT_*). The first page
 * before them (REPORT_FIRST, index 0) is reports/report_decide.c's. */
static const struct {
    const char *title;
    SectionFn fn;
} sections[REPORT_NSECTIONS + 1] = {
    [REPORT_SUMMARY] = {"Summary", rpt_summary},
    [REPORT_DOMAINS] = {"Research domains", rpt_domains},
    [REPORT_USAGE] = {"Usage", rpt_usage},
    [REPORT_PROFILES] = {"Compute profiles", profiles_fn},
    [REPORT_PROJECTIONS] = {"Projections by group and by domain", rpt_projections},
    [REPORT_PEERS] = {"Other institutes", rpt_peers},
    [REPORT_ENERGY] = {"Energy and carbon", energy_fn},
    [REPORT_POLICY] = {"Allocation policy", allocation_fn},
    [REPORT_RESEARCH] = {"Who does what research", research_fn},
    [REPORT_SOURCES] = {"Data sources and method", sources_fn},
};

const char *report_section_title(int s)
{
    return s == REPORT_FIRST ? RPT_FIRST_TITLE
           : s >= 1 && s <= REPORT_NSECTIONS ? sections[s].title
                                             : NULL;
}

int report_section(const Report *r, int section, FILE *out, const char *dir, const char *rel,
                   CpErr *err)
{
    if (section == REPORT_FIRST)
        return rpt_first_page(r, out, dir, rel, err);
    if (section < 1 || section > REPORT_NSECTIONS)
        return cp_err_set(err, "no section %d", section);
    fprintf(out, "## %d. %s\n\n", section, sections[section].title);
    return sections[section].fn(r, out, dir, rel, err);
}

/* "report.md" -> "report_files" (the folder), and its last component. */
static void files_dir_of(const char *path, char *dir, size_t n, const char **rel)
{
    size_t len = strlen(path);
    if (len > 3 && strcmp(path + len - 3, ".md") == 0)
        len -= 3;
    snprintf(dir, n, "%.*s_files", (int)len, path);
    const char *slash = strrchr(dir, '/');
    *rel = slash ? slash + 1 : dir;
}

/* The YAML title block pandoc reads (plain strings: nothing from data),
 * with the print style sheet for its HTML and PDF. */
static void title_block(const Report *r, FILE *out)
{
    char t0[16], today[16];
    rpt_date(r->plan->win_end, t0, sizeof t0);
    rpt_date(r->now, today, sizeof today);
    fprintf(out, "---\ntitle: \"GPU capacity plan\"\n"
                 "subtitle: \"Projection from %s over %d years\"\ndate: \"%s\"\n"
                 "lang: en-GB\nheader-includes: |\n  <style>\n",
            t0, r->res->nyears, today);
    for (const char *c = mdhtml_css(); *c;) {
        size_t k = strcspn(c, "\n");
        fprintf(out, "  %.*s\n", (int)k, c);
        c += k + (c[k] ? 1 : 0);
    }
    fprintf(out, "  </style>\n---\n\n");
}

static void intro(const Report *r, FILE *out)
{
    char t0[16];
    rpt_date(r->plan->win_end, t0, sizeof t0);
    fprintf(out, "Scenario **");
    mdw_text(out, r->scenario);
    fprintf(out, "**, projection from %s over %d years; usage as recorded up to then. "
                 "Figures are %ss held on average over a year unless a unit says otherwise; "
                 "a year the accounting covers only in part is marked partial. Section %d "
                 "says where every figure comes from.%s\n\n",
            t0, r->res->nyears, r->plan->cpu ? "CPU" : "GPU", REPORT_SOURCES,
            r->o.anonymize ? " User and group names are pseudonyms." : "");
}

/* The whole report as Markdown into a new buffer (*md, *len; caller
 * frees), charts into dir. */
static int report_body(const Report *r, const char *dir, const char *rel, char **md,
                       size_t *len, CpErr *err)
{
    FILE *f = open_memstream(md, len);
    if (!f)
        return cp_err_set(err, "out of memory");
    title_block(r, f);
    intro(r, f);
    int rc = 0;
    for (int s = REPORT_FIRST; s <= REPORT_NSECTIONS && rc == 0; s++)
        rc = report_section(r, s, f, dir, rel, err);
    fclose(f);
    if (rc < 0) {
        free(*md);
        *md = NULL;
    } else if (r->o.anonymize) { /* rows by pseudonym, not by real name (#29) */
        char *sorted = anon_order_md(*md, *len, len);
        free(*md);
        *md = sorted;
    }
    return rc;
}

int report_write_md(const Report *r, const char *path, CpErr *err)
{
    char dir[4096];
    const char *rel;
    files_dir_of(path, dir, sizeof dir, &rel);
    if (rfile_mkdir(dir, err) < 0)
        return -1;
    char *md;
    size_t len;
    if (report_body(r, dir, rel, &md, &len, err) < 0)
        return -1;
    RFile rf;
    int rc = rfile_open(&rf, path, err);
    if (rc == 0) {
        mdfit(rf.f, md, len);
        rc = rfile_commit(&rf, err);
    }
    free(md);
    return rc;
}

/* Remove the temporary folder dir and the charts in it. */
static void remove_charts(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        size_t k = strlen(e->d_name);
        if (k > 4 && strcmp(e->d_name + k - 4, ".svg") == 0) {
            size_t n = strlen(dir) + k + 2;
            char *p = xmalloc(n);
            snprintf(p, n, "%s/%s", dir, e->d_name);
            unlink(p);
            free(p);
        }
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

int report_write_html(const Report *r, const char *path, CpErr *err)
{
    size_t n = strlen(path) + 16;
    char *dir = xmalloc(n), *fitted = NULL, *md = NULL;
    snprintf(dir, n, "%s.tmpXXXXXX", path);
    if (!mkdtemp(dir)) {
        cp_err_set(err, "%s: cannot create a temporary folder: %s", path, strerror(errno));
        free(dir);
        return -1;
    }
    const char *slash = strrchr(dir, '/'), *rel = slash ? slash + 1 : dir;
    char base[4096];
    snprintf(base, sizeof base, "%.*s", slash ? (int)(slash - dir) : 1, slash ? dir : ".");
    size_t len, flen;
    int rc = report_body(r, dir, rel, &md, &len, err);
    FILE *f = rc == 0 ? open_memstream(&fitted, &flen) : NULL;
    if (f) {
        mdfit(f, md, len);
        fclose(f);
        RFile rf;
        rc = rfile_open(&rf, path, err);
        if (rc == 0 && mdhtml(rf.f, fitted, flen, base, err) < 0) {
            rfile_abort(&rf);
            rc = -1;
        } else if (rc == 0)
            rc = rfile_commit(&rf, err);
    } else if (rc == 0)
        rc = cp_err_set(err, "out of memory");
    remove_charts(dir);
    free(md), free(fitted), free(dir);
    return rc;
}
