/* policy_energy: `capplan stats energy` (policy.h) over the runs'
 * aggregate. Order: setup; the sums by period, group, domain, cluster;
 * temporal shifting (run by run on clusters with an hourly series); the
 * projected demand. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cp.h"
#include "core/policy_int.h"

#define HOUR 3600

typedef struct Energy {
    const PolicyInput *pi;
    const StatsOpts *o;
    const PolicyCells *c;
    PolicyCells own; /* when made from the jobs */
    Names groups;    /* c's, for --group */
    PolSite *site;   /* per cluster id */
    PolTdp *tdp;     /* cluster x c's types */
    double *kwh, *kwh_meas, *kg; /* per cell */
    unsigned char *kept;         /* per cell */
} Energy;

/* ---- setup ---- */

static PolicyCells *cells_from_jobs(const PolicyInput *pi, PolicyCells *own)
{
    PolicyCellsBuild *b = policy_cells_build_new(pi);
    policy_cells_build_add(b, pi->stats->jobs, pi->stats->njobs, &pi->stats->gpu_types);
    policy_cells_build_finish(b, own);
    return own;
}

static const PolTdp *cell_tdp(const Energy *e, const PolicyCell *x)
{
    return &e->tdp[(size_t)x->cluster * e->c->ntypes + x->gpu_type];
}

static void tdp_init(Energy *e)
{
    const StatsInput *in = e->pi->stats;
    size_t nt = e->c->ntypes;
    e->tdp = xmalloc((in->clusters.n * nt + 1) * sizeof *e->tdp);
    for (size_t c = 0; c < in->clusters.n; c++)
        for (size_t t = 0; t < nt; t++)
            e->tdp[c * nt + t] =
                pol_tdp(e->pi, pol_name_of(&in->clusters, (int32_t)c), e->c->types[t]);
}

/* Each cell's energy and carbon, and whether the filters keep it. */
static void cells_figures(Energy *e)
{
    const StatsInput *in = e->pi->stats;
    const PolicyCells *c = e->c;
    e->kwh = xmalloc((c->ncells + 1) * sizeof *e->kwh);
    e->kwh_meas = xmalloc((c->ncells + 1) * sizeof *e->kwh_meas);
    e->kg = xmalloc((c->ncells + 1) * sizeof *e->kg);
    e->kept = xcalloc(c->ncells + 1, 1);
    for (size_t i = 0; i < c->ncells; i++) {
        const PolicyCell *x = &c->cells[i];
        e->kwh[i] = e->kwh_meas[i] = e->kg[i] = 0;
        if (x->cluster >= in->clusters.n)
            continue;
        double f = cell_tdp(e, x)->w * e->site[x->cluster].pue;
        e->kwh[i] = x->ghu * f / 1000.0;
        e->kwh_meas[i] = x->ghu_meas * f / 1000.0;
        e->kg[i] = x->ghu_ci * f / 1e6;
        e->kept[i] = (!e->o->cluster ||
                      strcmp(pol_name_of(&in->clusters, x->cluster), e->o->cluster) == 0) &&
                     (!e->o->group || strcmp(c->groups[x->group], e->o->group) == 0);
    }
}

static int energy_init(Energy *e, const PolicyInput *pi, const StatsOpts *o, CpErr *err)
{
    memset(e, 0, sizeof *e);
    e->pi = pi;
    e->o = o;
    e->c = pi->cells ? pi->cells : cells_from_jobs(pi, &e->own);
    names_init(&e->groups);
    for (size_t i = 0; i < e->c->ngroups; i++)
        names_id(&e->groups, e->c->groups[i]);
    if (pol_check_filters(pi->stats, o, &e->groups, err) < 0) {
        names_done(&e->groups);
        policy_cells_free(&e->own);
        return -1;
    }
    e->site = pol_sites(pi);
    tdp_init(e);
    cells_figures(e);
    return 0;
}

static void energy_done(Energy *e)
{
    pol_sites_free(e->site, e->pi->stats->clusters.n);
    free(e->tdp);
    free(e->kwh);
    free(e->kwh_meas);
    free(e->kg);
    free(e->kept);
    names_done(&e->groups);
    policy_cells_free(&e->own);
}

int policy_cluster_hourly(const PolicyInput *in, const char *cluster)
{
    const StatsInput *s = in->stats;
    PolSite *site = pol_sites(in);
    int hourly = 0;
    for (size_t c = 0; c < s->clusters.n; c++)
        hourly |= site[c].hourly && strcmp(pol_name_of(&s->clusters, (int32_t)c), cluster) == 0;
    pol_sites_free(site, s->clusters.n);
    return hourly;
}

int policy_energy_needs_jobs(const PolicyInput *in)
{
    const StatsInput *s = in->stats;
    if (in->shift_delay_h <= 0)
        return 0;
    PolSite *site = pol_sites(in);
    int hourly = 0;
    for (size_t c = 0; c < s->clusters.n; c++)
        hourly |= site[c].hourly;
    pol_sites_free(site, s->clusters.n);
    return hourly;
}

/* ---- sums ---- */

/* Sums of one row. */
typedef struct ESum {
    double jobs, gpu_h, kwh, kwh_meas, gpu_h_meas, kg;
} ESum;

static void esum_add(ESum *s, const Energy *e, size_t i)
{
    const PolicyCell *x = &e->c->cells[i];
    s->jobs += x->runs;
    s->gpu_h += x->gpu_h;
    s->kwh += e->kwh[i];
    s->kg += e->kg[i];
    s->gpu_h_meas += x->gpu_h_meas;
    s->kwh_meas += e->kwh_meas[i];
}

/* The columns after the first, shared by the period, group and domain
 * tables. */
#define EN_SUM_COLS                                                                              \
    {"attempts", "runs", "", STATS_COL_INT, 0}, {"gpu_hours", "GPU-hours", "h", STATS_COL_REAL, 0}, \
        {"kwh", "energy kWh", "", STATS_COL_REAL, 1},                                            \
        {"measured_pct", "util measured", "%", STATS_COL_REAL, 1},                               \
        {"kwh_at_tdp", "kWh at TDP", "", STATS_COL_REAL, 1},                                     \
        {"kg_co2e", "kg CO2e", "", STATS_COL_REAL, 1}, {"g_per_kwh", "gCO2e/kWh", "", STATS_COL_REAL, 0}
static const StatsCol en_period_cols[] = {{"period", "period", "", STATS_COL_TEXT, 0}, EN_SUM_COLS};
static const StatsCol en_group_cols[] = {{"group", "group", "", STATS_COL_TEXT, 0}, EN_SUM_COLS};
static const StatsCol en_domain_cols[] = {{"domain", "domain", "", STATS_COL_TEXT, 0}, EN_SUM_COLS};
#define EN_NCOLS (sizeof en_period_cols / sizeof en_period_cols[0])

static const char en_note[] =
    "energy = GPUs x hours x TDP x utilisation x PUE / 1000, with the measured mean GPU "
    "utilisation where known (util measured: the share of GPU-hours), else the GPU at its TDP "
    "(kWh at TDP: the energy of those runs); carbon = energy x the cluster's intensity over "
    "the hours each run spans; a run counts in the period of its start";

static void esum_row(StatsTable *t, const char *key, const ESum *s)
{
    StatsCell *c = stats_table_add_row(t);
    stats_cell_set_text(t, &c[0], key);
    c[1].num = s->jobs;
    c[2].num = s->gpu_h;
    c[3].num = s->kwh;
    c[4].num = 100.0 * pol_ratio(s->gpu_h_meas, s->gpu_h);
    c[5].num = s->kwh - s->kwh_meas;
    c[6].num = s->kg;
    c[7].num = 1000.0 * pol_ratio(s->kg, s->kwh);
}

typedef struct NameIdx {
    const char *name;
    int32_t idx;
} NameIdx;

static int name_idx_cmp(const void *pa, const void *pb)
{
    return strcmp(((const NameIdx *)pa)->name, ((const NameIdx *)pb)->name);
}

static void esum_table(StatsTable *t, const ESum *s, char *const *names, size_t n)
{
    NameIdx *order = xmalloc((n + 1) * sizeof *order);
    for (size_t i = 0; i < n; i++)
        order[i] = (NameIdx){names[i], (int32_t)i};
    qsort(order, n, sizeof *order, name_idx_cmp);
    for (size_t i = 0; i < n; i++)
        if (s[order[i].idx].jobs > 0)
            esum_row(t, order[i].name, &s[order[i].idx]);
    free(order);
}

static int32_t cell_period(StatsBy by, int32_t month)
{
    return by == STATS_BY_MONTH ? month : by == STATS_BY_YEAR ? month / 100 : 0;
}

static int int32_cmp(const void *pa, const void *pb)
{
    int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    return (a > b) - (a < b);
}

/* The index of key in the sorted v[0..n) (present). */
static size_t key_pos(const int32_t *v, size_t n, int32_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void en_period_table(const Energy *e, StatsReport *rep)
{
    const PolicyCells *c = e->c;
    StatsBy by = e->o->by;
    StatsTable *t = pol_table(rep, "energy", "Energy and carbon per period", en_note,
                              en_period_cols, EN_NCOLS);
    int32_t *u = xmalloc((c->ncells + 1) * sizeof *u);
    size_t k = 0;
    for (size_t i = 0; i < c->ncells; i++)
        if (e->kept[i])
            u[k++] = cell_period(by, c->cells[i].month);
    qsort(u, k, sizeof *u, int32_cmp);
    size_t nu = 0;
    for (size_t i = 0; i < k; i++)
        if (nu == 0 || u[nu - 1] != u[i])
            u[nu++] = u[i];
    ESum *s = xcalloc(nu + 1, sizeof *s), all = {0};
    for (size_t i = 0; i < c->ncells; i++)
        if (e->kept[i])
            esum_add(&s[key_pos(u, nu, cell_period(by, c->cells[i].month))], e, i);
    for (size_t i = 0; i < nu; i++) {
        char buf[32];
        pol_period_label(by, u[i], buf, sizeof buf);
        esum_row(t, buf, &s[i]);
        all.jobs += s[i].jobs;
        all.gpu_h += s[i].gpu_h;
        all.kwh += s[i].kwh;
        all.kwh_meas += s[i].kwh_meas;
        all.gpu_h_meas += s[i].gpu_h_meas;
        all.kg += s[i].kg;
    }
    if (nu > 1 || by != STATS_BY_ALL)
        esum_row(t, "total", &all);
    free(s);
    free(u);
}

static void en_owner_tables(const Energy *e, StatsReport *rep)
{
    const PolicyCells *c = e->c;
    ESum *g = xcalloc(c->ngroups + 1, sizeof *g), *d = xcalloc(c->ndomains + 1, sizeof *d);
    for (size_t i = 0; i < c->ncells; i++)
        if (e->kept[i]) {
            esum_add(&g[c->cells[i].group], e, i);
            esum_add(&d[c->cells[i].domain], e, i);
        }
    StatsTable *t = pol_table(rep, "groups", "Energy and carbon per group", NULL, en_group_cols,
                              EN_NCOLS);
    esum_table(t, g, c->groups, c->ngroups);
    t = pol_table(rep, "domains", "Energy and carbon per research domain", NULL, en_domain_cols,
                  EN_NCOLS);
    esum_table(t, d, c->domains, c->ndomains);
    free(g);
    free(d);
}

static const StatsCol en_cluster_cols[] = {
    {"cluster", "cluster", "", STATS_COL_TEXT, 0},
    {"pue", "PUE", "", STATS_COL_REAL, 2},
    {"pue_source", "PUE from", "", STATS_COL_TEXT, 0},
    {"g_per_kwh", "gCO2e/kWh", "", STATS_COL_REAL, 0},
    {"intensity_source", "intensity from", "", STATS_COL_TEXT, 0},
    {"zone", "zone", "", STATS_COL_TEXT, 0},
    {"tdp_w", "TDP W", "", STATS_COL_REAL, 0},
    {"tdp_source", "TDP from", "", STATS_COL_TEXT, 0},
    {"kwh", "energy kWh", "", STATS_COL_REAL, 1},
    {"kg_co2e", "kg CO2e", "", STATS_COL_REAL, 1},
};
static const char en_cluster_note[] =
    "defaults: PUE 1.2; intensity 480 gCO2e/kWh (world average 2023, Ember); TDP from the "
    "vendors' spec sheets where the inventory has no tdp_w; TDP W: GPU-hour-weighted mean";

/* Per cluster: energy, carbon, TDP x GPU-hours, GPU-hours, and where the
 * TDPs came from (NULL: no run; "mixed"). */
typedef struct CSum {
    double kwh, kg, wh, h;
    const char *src;
} CSum;

static CSum *csum_by_cluster(const Energy *e)
{
    const StatsInput *in = e->pi->stats;
    CSum *sum = xcalloc(in->clusters.n + 1, sizeof *sum);
    for (size_t i = 0; i < e->c->ncells; i++) {
        const PolicyCell *x = &e->c->cells[i];
        if (!e->kept[i])
            continue;
        CSum *s = &sum[x->cluster];
        const PolTdp *tdp = cell_tdp(e, x);
        s->kwh += e->kwh[i];
        s->kg += e->kg[i];
        s->wh += tdp->w * x->gpu_h;
        s->h += x->gpu_h;
        s->src = !s->src || strcmp(s->src, tdp->src) == 0 ? tdp->src : "mixed";
    }
    return sum;
}

static void en_cluster_table(const Energy *e, StatsReport *rep)
{
    const StatsInput *in = e->pi->stats;
    StatsTable *t = pol_table(rep, "clusters", "Energy and carbon per cluster: assumptions",
                              en_cluster_note, en_cluster_cols,
                              sizeof en_cluster_cols / sizeof en_cluster_cols[0]);
    CSum *sum = csum_by_cluster(e);
    for (size_t c = 0; c < in->clusters.n; c++) {
        const char *name = pol_name_of(&in->clusters, (int32_t)c);
        if (!name[0] || (e->o->cluster && strcmp(e->o->cluster, name) != 0))
            continue;
        const CSum *cs = &sum[c];
        const PolSite *s = &e->site[c];
        StatsCell *r = stats_table_add_row(t);
        stats_cell_set_text(t, &r[0], name);
        r[1].num = s->pue;
        stats_cell_set_text(t, &r[2], s->pue_src);
        r[3].num = cs->h > 0 ? 1000.0 * pol_ratio(cs->kg, cs->kwh) : s->series.fill;
        stats_cell_set_text(t, &r[4], s->ci_src);
        stats_cell_set_text(t, &r[5], s->zone ? s->zone : "");
        r[6].num = pol_ratio(cs->wh, cs->h);
        stats_cell_set_text(t, &r[7], cs->src ? cs->src : "");
        r[8].num = cs->kwh;
        r[9].num = cs->kg;
    }
    free(sum);
}

/* ---- temporal shifting ---- */

#define PART_IDS 65536

/* preemptible[id]: the partition saw a preemption or its name says so (as
 * `stats preemption` decides). PART_IDS slots. */
static unsigned char *preemptible(const Energy *e)
{
    const StatsInput *in = e->pi->stats;
    unsigned char *p = xcalloc(PART_IDS, 1);
    for (size_t i = 0; i < in->partitions.n && i < PART_IDS; i++) {
        const char *n = in->partitions.v[i];
        p[i] = n && (strstr(n, "preempt") || strstr(n, "scaveng") || strstr(n, "spot"));
    }
    for (size_t i = 0; i < e->c->npreempted; i++)
        p[e->c->preempted[i]] = 1;
    return p;
}

/* GPUs in service per cluster and hour from t0 (NULL: no inventory). */
static double *capacity_grid(const StatsInput *in, int64_t t0, size_t nhours)
{
    if (!in->ninventory)
        return NULL;
    double *cap = xmalloc((in->clusters.n * nhours + 1) * sizeof *cap);
    for (size_t c = 0; c < in->clusters.n; c++) {
        const char *name = pol_name_of(&in->clusters, (int32_t)c);
        int known = 0;
        for (size_t k = 0; k < in->ninventory; k++)
            known |= strcmp(in->inventory[k].cluster, name) == 0;
        for (size_t h = 0; h < nhours; h++) {
            int64_t a = t0 + (int64_t)h * HOUR;
            cap[c * nhours + h] =
                known ? stats_capacity_hours(in->inventory, in->ninventory, name, a, a + HOUR)
                      : -1;
        }
    }
    return cap;
}

static const StatsCol en_shift_cols[] = {
    {"cluster", "cluster", "", STATS_COL_TEXT, 0},
    {"movable", "preemptible runs", "", STATS_COL_INT, 0},
    {"moved", "moved", "", STATS_COL_INT, 0},
    {"kg_before", "kg CO2e", "", STATS_COL_REAL, 1},
    {"kg_after", "kg shifted", "", STATS_COL_REAL, 1},
    {"kg_saved", "kg saved", "", STATS_COL_REAL, 1},
    {"saved_pct", "saved", "%", STATS_COL_REAL, 1},
    {"delay_h", "delay h", "", STATS_COL_INT, 0},
    {"capacity", "capacity", "", STATS_COL_TEXT, 0},
};
static const char en_shift_note[] =
    "runs on preemptible partitions moved, in start order, to the start within the delay "
    "(whole hours) where their carbon is least, if they fit the GPUs the other runs leave "
    "free in every hour; only clusters with an hourly series can save anything";

/* Per cluster (and nclusters: all): movable runs, moved, kg before, after. */
typedef struct ShiftSum {
    double n, moved, before, after;
} ShiftSum;

/* The TDP of each (cluster, type of the jobs' names): ntypes per cluster. */
static PolTdp *jobs_tdp(const Energy *e, size_t *ntypes)
{
    const StatsInput *in = e->pi->stats;
    size_t nt = in->gpu_types.n ? in->gpu_types.n : 1;
    PolTdp *t = xmalloc((in->clusters.n * nt + 1) * sizeof *t);
    for (size_t c = 0; c < in->clusters.n; c++)
        for (size_t k = 0; k < nt; k++)
            t[c * nt + k] = pol_tdp(e->pi, pol_name_of(&in->clusters, (int32_t)c),
                                    k < in->gpu_types.n ? in->gpu_types.v[k] : NULL);
    *ntypes = nt;
    return t;
}

/* The runs of clusters with an hourly series, as the shift takes them
 * (every run: the others fill the capacity); *n of them (NULL: none). */
static EnergyShiftJob *hourly_runs(const Energy *e, const unsigned char *pre, size_t *n,
                                   int64_t *t0, int64_t *t1)
{
    const StatsInput *in = e->pi->stats;
    size_t m = 0;
    *n = 0;
    *t0 = INT64_MAX;
    *t1 = INT64_MIN;
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        m += pol_job_ran(j) && (size_t)j->cluster < in->clusters.n && e->site[j->cluster].hourly;
    }
    if (m == 0)
        return NULL;
    Owners w;
    if (e->o->group)
        owners_init(&w, in);
    size_t nt;
    PolTdp *tdp = jobs_tdp(e, &nt);
    EnergyShiftJob *v = xcalloc(m + 1, sizeof *v);
    for (size_t i = 0; i < in->njobs; i++) {
        const StatsJob *j = &in->jobs[i];
        if (!pol_job_ran(j) || (size_t)j->cluster >= in->clusters.n || !e->site[j->cluster].hourly)
            continue;
        size_t t = j->gpu_type < nt ? j->gpu_type : 0;
        int kept = (!e->o->cluster ||
                    strcmp(pol_name_of(&in->clusters, j->cluster), e->o->cluster) == 0) &&
                   (!e->o->group || strcmp(w.groups.v[w.group[i]], e->o->group) == 0);
        EnergyShiftJob *x = &v[(*n)++];
        x->cluster = j->cluster;
        x->start = j->start;
        x->run_s = j->elapsed;
        x->gpus = j->gpus;
        x->kwh = energy_kwh(j->gpus, j->elapsed / 3600.0, tdp[(size_t)j->cluster * nt + t].w,
                            j->gpu_util, e->site[j->cluster].pue);
        x->movable = kept && pre[j->partition];
        *t0 = x->start < *t0 ? x->start : *t0;
        *t1 = x->start + x->run_s > *t1 ? x->start + x->run_s : *t1;
    }
    free(tdp);
    if (e->o->group)
        owners_done(&w);
    return v;
}

static void shift_sum_add(ShiftSum *s, const EnergyShiftJob *v, const EnergyShiftOut *out)
{
    s->n++;
    s->moved += out->new_start != v->start;
    s->before += out->kg_before;
    s->after += out->kg_after;
}

/* The runs of hourly clusters moved one by one, into sum[cluster]. */
static void shift_hourly(const Energy *e, const unsigned char *pre, ShiftSum *sum)
{
    const StatsInput *in = e->pi->stats;
    size_t n;
    int64_t t0, t1;
    EnergyShiftJob *v = hourly_runs(e, pre, &n, &t0, &t1);
    EnergyShiftOut *out = xcalloc(n + 1, sizeof *out);
    const EnergySeries **series = xmalloc((in->clusters.n + 1) * sizeof *series);
    for (size_t c = 0; c < in->clusters.n; c++)
        series[c] = &e->site[c].series;
    EnergyShiftGrid g = {(int32_t)in->clusters.n, 0, 0, NULL, series};
    double *cap = NULL;
    if (t1 > t0) {
        g.t0 = t0 - ((t0 % HOUR) + HOUR) % HOUR;
        g.nhours = (size_t)((t1 - g.t0) / HOUR) + (size_t)e->pi->shift_delay_h + 2;
        cap = capacity_grid(in, g.t0, g.nhours);
        g.cap = cap;
        energy_shift(&g, v, n, e->pi->shift_delay_h, out);
    }
    for (size_t i = 0; i < n; i++)
        if (v[i].movable)
            shift_sum_add(&sum[v[i].cluster], &v[i], &out[i]);
    free(cap);
    free(series);
    free(out);
    free(v);
}

static void shift_row(const Energy *e, StatsTable *t, const char *name, const ShiftSum *s,
                      int capped)
{
    StatsCell *r = stats_table_add_row(t);
    stats_cell_set_text(t, &r[0], name);
    r[1].num = s->n;
    r[2].num = s->moved;
    r[3].num = s->before;
    r[4].num = s->after;
    r[5].num = s->before - s->after;
    r[6].num = 100.0 * pol_ratio(s->before - s->after, s->before);
    r[7].num = e->pi->shift_delay_h;
    stats_cell_set_text(t, &r[8], capped ? "inventory" : "unconstrained (no inventory)");
}

static void en_shift_table(const Energy *e, StatsReport *rep)
{
    const StatsInput *in = e->pi->stats;
    size_t nc = in->clusters.n;
    StatsTable *t = pol_table(rep, "shifting", "Temporal shifting of preemptible runs",
                              en_shift_note, en_shift_cols,
                              sizeof en_shift_cols / sizeof en_shift_cols[0]);
    unsigned char *pre = preemptible(e);
    ShiftSum *sum = xcalloc(nc + 1, sizeof *sum);
    /* a cluster at a constant intensity (or no delay): nothing moves */
    int delay = e->pi->shift_delay_h > 0;
    for (size_t i = 0; i < e->c->ncells; i++) {
        const PolicyCell *x = &e->c->cells[i];
        if (!e->kept[i] || !pre[x->partition] || (delay && e->site[x->cluster].hourly))
            continue;
        sum[x->cluster].n += x->runs;
        sum[x->cluster].before += e->kg[i];
        sum[x->cluster].after += e->kg[i];
    }
    if (delay)
        shift_hourly(e, pre, sum);
    int capped = in->ninventory && e->c->ncells > 0;
    for (size_t c = 0; c < nc; c++) {
        const char *name = pol_name_of(&in->clusters, (int32_t)c);
        sum[nc].n += sum[c].n;
        sum[nc].moved += sum[c].moved;
        sum[nc].before += sum[c].before;
        sum[nc].after += sum[c].after;
        if (name[0] && (!e->o->cluster || strcmp(e->o->cluster, name) == 0))
            shift_row(e, t, name, &sum[c], capped);
    }
    shift_row(e, t, "all", &sum[nc], capped);
    free(sum);
    free(pre);
}

/* ---- the projected demand ---- */

static const StatsCol en_proj_cols[] = {
    {"year", "year", "", STATS_COL_TEXT, 0},
    {"gpu_eq", "GPU-eq", "", STATS_COL_REAL, 1},
    {"speed", "speed", "", STATS_COL_REAL, 2},
    {"gpus", "GPUs", "", STATS_COL_REAL, 1},
    {"util_pct", "util", "%", STATS_COL_REAL, 1},
    {"tdp_w", "TDP W", "", STATS_COL_REAL, 0},
    {"pue", "PUE", "", STATS_COL_REAL, 2},
    {"mwh", "energy MWh", "", STATS_COL_REAL, 1},
    {"g_per_kwh", "gCO2e/kWh", "", STATS_COL_REAL, 0},
    {"t_co2e", "t CO2e", "", STATS_COL_REAL, 1},
};
static const char en_proj_note[] =
    "projected demand in physical GPUs = GPU-eq / the runs' mean relative speed (GPU-hour "
    "weighted, each model's from the inventory): GPUs x 8760 h x the measured mean GPU "
    "utilisation (runs where "
    "measured, GPU-hour weighted) x the measured mean TDP x PUE, at the measured mean "
    "intensity (all GPU-hour weighted over the runs above)";

static void en_proj_table(const Energy *e, StatsReport *rep)
{
    const PolicyInput *pi = e->pi;
    double h = 0, hu = 0, u = 0, wh = 0, sh = 0, pue = 0, kwh = 0, kg = 0;
    for (size_t i = 0; i < e->c->ncells; i++) {
        const PolicyCell *x = &e->c->cells[i];
        if (!e->kept[i])
            continue;
        h += x->gpu_h;
        wh += cell_tdp(e, x)->w * x->gpu_h;
        sh += cell_tdp(e, x)->speed * x->gpu_h;
        pue += e->site[x->cluster].pue * x->gpu_h;
        kwh += e->kwh[i];
        kg += e->kg[i];
        hu += x->gpu_h_meas;
        u += x->util_x_h;
    }
    StatsTable *t = pol_table(rep, "projection", "Energy and carbon of the projected demand",
                              en_proj_note, en_proj_cols,
                              sizeof en_proj_cols / sizeof en_proj_cols[0]);
    double util = hu > 0 ? u / hu : 100.0, tdp = h > 0 ? wh / h : ENERGY_TDP_FALLBACK;
    double p = h > 0 ? pue / h : ENERGY_PUE_DEFAULT, speed = h > 0 && sh > 0 ? sh / h : 1;
    double ci = kwh > 0 ? 1000.0 * kg / kwh : ENERGY_INTENSITY_DEFAULT;
    for (size_t y = 0; y < pi->nproj; y++) {
        StatsCell *c = stats_table_add_row(t);
        char year[16];
        snprintf(year, sizeof year, "%d", (int)pi->proj_year[y]);
        stats_cell_set_text(t, &c[0], year);
        double gpus = pi->proj_gpus[y] / speed;
        c[1].num = pi->proj_gpus[y];
        c[2].num = speed;
        c[3].num = gpus;
        c[4].num = util;
        c[5].num = tdp;
        c[6].num = p;
        c[7].num = energy_kwh(gpus, 8760.0, tdp, util, p) / 1000.0;
        c[8].num = ci;
        c[9].num = energy_carbon_kg(c[7].num * 1000.0, ci) / 1000.0;
    }
}

int policy_energy(const PolicyInput *pi, const StatsOpts *o, StatsReport *out, CpErr *err)
{
    memset(out, 0, sizeof *out);
    out->kind = STATS_KIND_COUNT;
    out->by = o->by;
    Energy e;
    if (energy_init(&e, pi, o, err) < 0)
        return -1;
    en_period_table(&e, out);
    en_owner_tables(&e, out);
    en_cluster_table(&e, out);
    en_shift_table(&e, out);
    if (pi->nproj)
        en_proj_table(&e, out);
    energy_done(&e);
    return 0;
}
