#include "data/plan/research_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/features.h"
#include "core/profiles.h"
#include "core/research_terms.h"
#include "core/strmap.h"
#include "core/tfidf.h"
#include "data/plan/plan.h"

void research_opts_init(ResearchOpts *o)
{
    memset(o, 0, sizeof *o);
    o->since = 2019;
    o->method = RESEARCH_KMEANS;
    o->seed = 1;
    o->min_hours = RESEARCH_MIN_HOURS;
    o->per_group = RESEARCH_PER_GROUP;
}

/* The whole of a (small) text file; caller frees. */
static char *slurp(const char *path, CpErr *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        cp_err_set(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t n = 0, cap = 4096;
    char *buf = xmalloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0)
            buf = xrealloc(buf, cap *= 2);
    }
    buf[n] = '\0';
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        cp_err_set(err, "%s: read error", path);
        return NULL;
    }
    return buf;
}

static int load_terms(Research *r, CpErr *err)
{
    r->terms = terms_new();
    terms_load_builtin(r->terms);
    if (r->opts.terms_file) {
        char *text = slurp(r->opts.terms_file, err);
        if (!text || terms_load(r->terms, text, r->opts.terms_file, err) < 0) {
            free(text);
            return -1;
        }
        free(text);
    }
    r->nterms = (int)terms_count(r->terms);
    return 0;
}

/* Rows: the roster's people but professors; rowof[person] or -1. */
static int *make_rows(Research *r)
{
    const ResearchData *d = &r->data;
    int *rowof = xmalloc((size_t)(d->npeople > 0 ? d->npeople : 1) * sizeof *rowof);
    r->rows = xcalloc((size_t)(d->npeople > 0 ? d->npeople : 1), sizeof *r->rows);
    for (int i = 0; i < d->npeople; i++) {
        rowof[i] = -1;
        if (strcmp(d->people[i].role, "professor") == 0)
            continue;
        ResearchRow *w = &r->rows[r->nrows];
        w->user = d->people[i].user;
        w->group = d->people[i].group;
        w->role = d->people[i].role;
        w->cluster = w->profile = -1;
        rowof[i] = r->nrows++;
    }
    return rowof;
}

/* The co-author graph's edges, accumulated by pair. */
typedef struct Edges {
    StrMap *pair;
    int *a, *b;
    double *w;
    int n, cap;
} Edges;

static void edge_add(Edges *e, int a, int b)
{
    int key[2] = {a < b ? a : b, a < b ? b : a};
    int64_t i;
    if (strmap_get(e->pair, (const char *)key, sizeof key, &i)) {
        e->w[i] += 1;
        return;
    }
    if (e->n == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 256;
        e->a = xrealloc(e->a, (size_t)e->cap * sizeof *e->a);
        e->b = xrealloc(e->b, (size_t)e->cap * sizeof *e->b);
        e->w = xrealloc(e->w, (size_t)e->cap * sizeof *e->w);
    }
    e->a[e->n] = key[0];
    e->b[e->n] = key[1];
    e->w[e->n] = 1;
    strmap_put(e->pair, (const char *)key, sizeof key, e->n++);
}

/* One paper: its authors' rows (deduplicated) into who; returns how many. */
static int paper_rows(const RsPaper *p, const int *rowof, int *who)
{
    int n = 0;
    for (int a = 0; a < p->nauthors; a++) {
        int row = p->person[a] >= 0 ? rowof[p->person[a]] : -1;
        int dup = 0;
        for (int j = 0; j < n; j++)
            dup |= who[j] == row;
        if (row >= 0 && !dup)
            who[n++] = row;
    }
    return n;
}

/* Term counts per row (tf), papers per row, and the co-author edges. */
static void scan_papers(Research *r, const int *rowof, double *tf, Edges *e)
{
    int d = r->nterms;
    unsigned char *hits = xmalloc((size_t)(d > 0 ? d : 1));
    int maxa = 1;
    for (int i = 0; i < r->data.npapers; i++)
        if (r->data.papers[i].nauthors > maxa)
            maxa = r->data.papers[i].nauthors;
    int *who = xmalloc((size_t)maxa * sizeof *who);
    for (int i = 0; i < r->data.npapers; i++) {
        const RsPaper *p = &r->data.papers[i];
        int n = paper_rows(p, rowof, who);
        if (n == 0)
            continue;
        r->npapers_used++;
        memset(hits, 0, (size_t)(d > 0 ? d : 1));
        terms_scan(r->terms, p->text, hits);
        if (p->year > r->recent_from)
            r->recent_from = p->year; /* the latest year, for now */
        for (int j = 0; j < n; j++) {
            r->rows[who[j]].papers++;
            if (p->year > r->rows[who[j]].last_year)
                r->rows[who[j]].last_year = p->year;
            double *row = tf + (size_t)who[j] * (size_t)d;
            for (int t = 0; t < d; t++)
                row[t] += hits[t];
            for (int q = j + 1; q < n; q++)
                edge_add(e, who[j], who[q]);
        }
    }
    free(hits);
    free(who);
}

static void name_clusters(Research *r)
{
    int k = r->clusters.k;
    r->cluster_name = xcalloc((size_t)(k > 0 ? k : 1), sizeof *r->cluster_name);
    for (int c = 0; c < k; c++) {
        char buf[256];
        size_t len = 0;
        buf[0] = '\0';
        for (int t = 0; t < RESEARCH_TOP; t++) {
            int term = r->clusters.top[c * RESEARCH_TOP + t];
            if (term >= 0)
                len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", len ? ", " : "",
                                        terms_label(r->terms, (size_t)term));
            if (len >= sizeof buf)
                len = sizeof buf - 1;
        }
        r->cluster_name[c] = xstrdup(len ? buf : "(no terms)");
    }
}

static void count_cluster_papers(Research *r, const int *rowof)
{
    int k = r->clusters.k;
    r->cluster_papers = xcalloc((size_t)(k > 0 ? k : 1), sizeof *r->cluster_papers);
    unsigned char *seen = xcalloc((size_t)(k > 0 ? k : 1), 1);
    for (int i = 0; i < r->data.npapers; i++) {
        const RsPaper *p = &r->data.papers[i];
        memset(seen, 0, (size_t)(k > 0 ? k : 1));
        for (int a = 0; a < p->nauthors; a++) {
            int row = p->person[a] >= 0 ? rowof[p->person[a]] : -1;
            int c = row >= 0 ? r->clusters.labels[row] : -1;
            if (c >= 0 && !seen[c]) {
                seen[c] = 1;
                r->cluster_papers[c]++;
            }
        }
    }
    free(seen);
}

static void cluster(Research *r, const double *x, const Edges *e)
{
    if (r->opts.method == RESEARCH_COAUTHORS) {
        unsigned char *active = xcalloc((size_t)(r->nrows > 0 ? r->nrows : 1), 1);
        for (int i = 0; i < r->nrows; i++)
            active[i] = r->rows[i].papers > 0;
        research_coauthor(r->nrows, e->a, e->b, e->w, e->n, active, &r->clusters);
        free(active);
    } else
        research_kmeans(x, r->nrows, r->nterms, r->opts.k, r->opts.seed, &r->clusters);
    research_name(&r->clusters, x, r->nterms);
    for (int i = 0; i < r->nrows; i++)
        r->rows[i].cluster = r->clusters.labels[i];
}

/* The profiles of plan pl as the saved run would hold them (names chosen,
 * else generated; every user of its window): owned copies, freed with
 * store_research_profiles_done. */
static void plan_profiles(const Plan *pl, RsProfiles *out)
{
    memset(out, 0, sizeof *out);
    out->found = pl->fit.k > 0;
    out->k = pl->fit.k;
    out->name = xcalloc((size_t)(out->k > 0 ? out->k : 1), sizeof *out->name);
    for (int i = 0; i < out->k; i++)
        out->name[i] = xstrdup(pl->names[i]);
    out->members = xcalloc((size_t)(pl->nusers > 0 ? pl->nusers : 1), sizeof *out->members);
    for (int i = 0; i < pl->nusers; i++) {
        RsMember *m = &out->members[out->nmembers++];
        m->user = xstrdup(pl->users[i].name);
        m->profile = pl->users[i].profile;
        m->gpu_hours = pl->users[i].f.gpu_hours;
        m->conc_mean = pl->users[i].f.raw[FEAT_CONC_MEAN];
        m->gpus_p90 = pl->users[i].f.raw[FEAT_GPUS_P90];
        m->mem_gib = pl->users[i].f.raw[FEAT_MEM_GIB];
    }
}

/* What each cluster's line implies beyond its members' jobs, and the
 * ranked list (core/research_demand): rows' need and ask, r->need. */
static void hidden_demand(Research *r)
{
    int k = r->clusters.k;
    RsNeedIn *in = xcalloc((size_t)(r->nrows > 0 ? r->nrows : 1), sizeof *in);
    RsNeedOut *out = xcalloc((size_t)(r->nrows > 0 ? r->nrows : 1), sizeof *out);
    r->need = xcalloc((size_t)(k > 0 ? k : 1), sizeof *r->need);
    StrMap *groups = strmap_new();
    for (int i = 0; i < r->nrows; i++) {
        const ResearchRow *w = &r->rows[i];
        int64_t g;
        if (!strmap_get(groups, w->group, strlen(w->group), &g)) {
            g = (int64_t)strmap_count(groups);
            strmap_put(groups, w->group, strlen(w->group), g);
        }
        in[i] = (RsNeedIn){w->cluster, (int)g, w->gpu_hours, w->conc, w->gpus, w->mem_gib};
    }
    strmap_free(groups);
    r->nflagged = research_demand(in, r->nrows, k, r->opts.min_hours, r->opts.per_group, out,
                                  r->need, &r->nshown);
    for (int i = 0; i < r->nrows; i++) {
        r->rows[i].need = out[i];
        r->rows[i].ask = out[i].rank > 0;
    }
    free(in);
    free(out);
}

/* Profiles (the plan's, else the latest run's) onto the rows, and the
 * comparison. */
static int compare(Research *r, Store *st, CpErr *err)
{
    RsProfiles p;
    if (r->opts.plan)
        plan_profiles(r->opts.plan, &p);
    else if (store_research_profiles(st, &p, err) < 0)
        return -1;
    r->have_profiles = p.found;
    r->kp = p.k;
    r->profile_name = p.name;
    p.name = NULL;
    p.k = 0;
    StrMap *byuser = strmap_new();
    for (int i = 0; i < r->nrows; i++)
        strmap_put(byuser, r->rows[i].user, strlen(r->rows[i].user), i);
    for (int m = 0; m < p.nmembers; m++) {
        int64_t i;
        if (strmap_get(byuser, p.members[m].user, strlen(p.members[m].user), &i)) {
            r->rows[i].profile = p.members[m].profile;
            r->rows[i].gpu_hours = p.members[m].gpu_hours;
            r->rows[i].conc = p.members[m].conc_mean;
            r->rows[i].gpus = p.members[m].gpus_p90;
            r->rows[i].mem_gib = p.members[m].mem_gib;
        }
    }
    strmap_free(byuser);
    store_research_profiles_done(&p);
    int *rl = xmalloc((size_t)(r->nrows > 0 ? r->nrows : 1) * sizeof *rl);
    int *pl = xmalloc((size_t)(r->nrows > 0 ? r->nrows : 1) * sizeof *pl);
    for (int i = 0; i < r->nrows; i++) {
        rl[i] = r->rows[i].cluster;
        pl[i] = r->rows[i].profile < r->kp ? r->rows[i].profile : -1;
    }
    research_compare(rl, pl, r->nrows, r->clusters.k, r->kp, &r->cmp);
    for (int i = 0; i < r->nrows; i++) {
        ResearchRow *w = &r->rows[i];
        w->off_usual = r->cmp.ask[i];
        /* nothing said over nobody: without a profile run no one's jobs are known */
        w->papers_no_gpu = r->have_profiles && w->papers > 0 && w->last_year >= r->recent_from &&
                           w->gpu_hours <= 0;
        w->gpu_no_papers = r->have_profiles && w->papers == 0 && w->gpu_hours > 0;
    }
    free(rl);
    free(pl);
    hidden_demand(r);
    return 0;
}

int research_build(Store *st, const ResearchOpts *o, Research *out, CpErr *err)
{
    memset(out, 0, sizeof *out);
    if (o)
        out->opts = *o;
    else
        research_opts_init(&out->opts);
    if (load_terms(out, err) < 0 || store_research_load(st, out->opts.since, &out->data, err) < 0) {
        research_free(out);
        return -1;
    }
    int *rowof = make_rows(out);
    size_t cells = (size_t)(out->nrows > 0 ? out->nrows : 1) * (size_t)(out->nterms > 0 ? out->nterms : 1);
    double *x = xcalloc(cells, sizeof *x);
    Edges e = {strmap_new(), NULL, NULL, NULL, 0, 0};
    scan_papers(out, rowof, x, &e);
    out->recent_from -= 1; /* the last two years of papers */
    tfidf_transform(x, out->nrows, out->nterms, x, NULL);
    cluster(out, x, &e);
    name_clusters(out);
    count_cluster_papers(out, rowof);
    free(x);
    free(rowof);
    strmap_free(e.pair);
    free(e.a);
    free(e.b);
    free(e.w);
    if (compare(out, st, err) < 0) {
        research_free(out);
        return -1;
    }
    return 0;
}

void research_free(Research *r)
{
    for (int c = 0; r->cluster_name && c < r->clusters.k; c++)
        free(r->cluster_name[c]);
    free(r->cluster_name);
    free(r->cluster_papers);
    free(r->need);
    for (int p = 0; p < r->kp; p++)
        free(r->profile_name[p]);
    free(r->profile_name);
    research_clusters_done(&r->clusters);
    research_compare_done(&r->cmp);
    free(r->rows);
    store_research_done(&r->data);
    terms_free(r->terms);
    memset(r, 0, sizeof *r);
}

int research_budget_text(const Research *r, int c, char *buf, size_t n)
{
    buf[0] = '\0';
    if (!r->need || c < 0 || c >= r->clusters.k || r->need[c].below == 0)
        return 0;
    const ResearchNeed *u = &r->need[c];
    int mem = 0;
    for (int i = 0; i < r->nrows; i++)
        mem += r->rows[i].cluster == c && r->rows[i].need.below_mem;
    const char *cls = u->mem_class >= 0 ? profiles_mem_class_name(u->mem_class) : NULL;
    if (cls && mem > 0) {
        int len = snprintf(buf, n, "R%d: %d %s below their line's usual %s GB class", c + 1, mem,
                           mem == 1 ? "person runs" : "people run", cls);
        if (len > 0 && (size_t)len < n && u->below > mem)
            len += snprintf(buf + len, n - (size_t)len, " (and %d under half its %g GPUs a job)",
                            u->below - mem, u->gpus);
        if (len > 0 && (size_t)len < n)
            snprintf(buf + len, n - (size_t)len, "; at their peers' use, +%.1f GPU-eq in the %s "
                     "GB class next year", u->budget, cls);
    } else
        snprintf(buf, n, "R%d: %d %s under half their line's usual %g GPUs a job; at their "
                         "peers' use, +%.1f GPU-eq next year",
                 c + 1, u->below, u->below == 1 ? "person runs" : "people run", u->gpus, u->budget);
    return 1;
}

const ResearchRow *research_row(const Research *r, const char *user)
{
    for (int i = 0; i < r->nrows; i++)
        if (strcmp(r->rows[i].user, user) == 0)
            return &r->rows[i];
    return NULL;
}
