/* policy_cells: the runs' aggregate that `stats energy` reads (policy.h):
 * its builder, and its bytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"
#include "core/cp.h"
#include "core/policy_int.h"

#define PART_MAX 65536

/* A cell's key as hashed: every byte set. */
typedef struct CellKey {
    int32_t month, group, domain;
    uint16_t cluster, partition, gpu_type, pad;
} CellKey;

struct PolicyCellsBuild {
    const PolicyInput *pi;
    PolicyCells seed; /* policy_cells_build_from's: its names are borrowed */
    Owners w;
    PolSite *site;
    size_t nsites; /* the clusters site covers */
    StrMap *map; /* CellKey -> index into cells */
    PolicyCell *cells;
    size_t n, cap;
    Names types;      /* the cells' type names (typestr's) */
    char **typestr;   /* owned copies, in id order */
    int32_t *typemap; /* input type index -> cells' type id, -1 not yet */
    size_t ntypemap;
    unsigned char *preempted; /* per partition id */
};

PolicyCellsBuild *policy_cells_build_new(const PolicyInput *in)
{
    PolicyCellsBuild *b = xcalloc(1, sizeof *b);
    b->pi = in;
    owners_setup(&b->w, in->stats);
    b->site = pol_sites(in);
    b->nsites = in->stats->clusters.n;
    b->map = strmap_new();
    names_init(&b->types);
    b->typestr = xcalloc(1, sizeof *b->typestr);
    b->typestr[0] = xstrdup("");
    names_id(&b->types, b->typestr[0]);
    b->preempted = xcalloc(PART_MAX, 1);
    return b;
}

void policy_cells_build_grow(PolicyCellsBuild *b)
{
    owners_grow(&b->w);
    if (b->pi->stats->clusters.n > b->nsites) {
        b->site = pol_sites_grow(b->pi, b->site, b->nsites);
        b->nsites = b->pi->stats->clusters.n;
    }
}

/* The cells' type id of input type t. */
static uint16_t type_of(PolicyCellsBuild *b, uint16_t t, const StatsNames *types)
{
    if (t >= b->ntypemap) {
        size_t n = (size_t)t + 16;
        b->typemap = xrealloc(b->typemap, n * sizeof *b->typemap);
        for (size_t i = b->ntypemap; i < n; i++)
            b->typemap[i] = -1;
        b->ntypemap = n;
    }
    if (b->typemap[t] < 0) {
        const char *name = types && t < types->n && types->v[t] ? types->v[t] : "";
        int32_t id = names_find(&b->types, name);
        if (id < 0) {
            b->typestr = xrealloc(b->typestr, (b->types.n + 1) * sizeof *b->typestr);
            b->typestr[b->types.n] = xstrdup(name);
            id = names_id(&b->types, b->typestr[b->types.n]);
        }
        b->typemap[t] = id;
    }
    return (uint16_t)b->typemap[t];
}

static PolicyCell *cell_of(PolicyCellsBuild *b, const CellKey *k)
{
    int64_t i;
    if (strmap_get(b->map, (const char *)k, sizeof *k, &i))
        return &b->cells[i];
    if (b->n == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 1024;
        b->cells = xrealloc(b->cells, b->cap * sizeof *b->cells);
    }
    PolicyCell *c = &b->cells[b->n];
    memset(c, 0, sizeof *c);
    c->month = k->month;
    c->group = k->group;
    c->domain = k->domain;
    c->cluster = k->cluster;
    c->partition = k->partition;
    c->gpu_type = k->gpu_type;
    strmap_put(b->map, (const char *)k, sizeof *k, (int64_t)b->n);
    return &b->cells[b->n++];
}

/* The id names_id gives each of v[0..n) in d: i, else -1. */
static int intern_all(Names *d, char *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (names_id(d, v[i]) != (int32_t)i)
            return -1;
    return 0;
}

PolicyCellsBuild *policy_cells_build_from(const PolicyInput *in, PolicyCells *c)
{
    PolicyCellsBuild *b = policy_cells_build_new(in);
    b->seed = *c;
    memset(c, 0, sizeof *c);
    PolicyCells *s = &b->seed;
    int bad = intern_all(&b->w.groups, s->groups, s->ngroups) < 0 ||
              intern_all(&b->w.domains, s->domains, s->ndomains) < 0 || s->ntypes == 0 ||
              s->types[0][0] != '\0';
    for (size_t t = 1; !bad && t < s->ntypes; t++) {
        b->typestr = xrealloc(b->typestr, (b->types.n + 1) * sizeof *b->typestr);
        b->typestr[b->types.n] = xstrdup(s->types[t]);
        bad = names_id(&b->types, b->typestr[b->types.n]) != (int32_t)t;
    }
    for (size_t i = 0; !bad && i < s->ncells; i++) {
        const PolicyCell *x = &s->cells[i];
        CellKey k = {x->month, x->group, x->domain, x->cluster, x->partition, x->gpu_type, 0};
        *cell_of(b, &k) = *x;
    }
    for (size_t i = 0; !bad && i < s->npreempted; i++)
        b->preempted[s->preempted[i]] = 1;
    if (bad) {
        PolicyCells out;
        policy_cells_build_finish(b, &out);
        policy_cells_free(&out);
        return NULL;
    }
    return b;
}

static int32_t month_of(uint32_t start)
{
    int64_t y;
    int m, d;
    civil_from_days((int64_t)(start / 86400u), &y, &m, &d);
    return (int32_t)(y * 100 + m);
}

/* One attempt: the same figures, in the same expressions, as the tables
 * computed them for each run. */
static void add_one(PolicyCellsBuild *b, const StatsJob *j, const StatsNames *types)
{
    if (j->state == STATS_ST_PREEMPTED)
        b->preempted[j->partition] = 1;
    CellKey k;
    memset(&k, 0, sizeof k);
    owners_of(&b->w, j, &k.group, &k.domain);
    if (!pol_job_ran(j) || (size_t)j->cluster >= b->nsites)
        return;
    k.month = month_of(j->start);
    k.cluster = j->cluster;
    k.partition = j->partition;
    k.gpu_type = type_of(b, j->gpu_type, types);
    PolicyCell *c = cell_of(b, &k);
    double h = j->gpus * j->elapsed / 3600.0;
    double u = isnan(j->gpu_util) || j->gpu_util < 0 ? 1.0 : j->gpu_util / 100.0;
    double ghu = j->gpus * (j->elapsed / 3600.0) * u;
    double mean = energy_series_mean(&b->site[j->cluster].series, j->start,
                                     (int64_t)j->start + j->elapsed);
    c->runs += 1;
    c->gpu_h += h;
    c->ghu += ghu;
    c->ghu_ci += ghu * mean;
    if (j->gpu_util >= 0) {
        c->gpu_h_meas += h;
        c->ghu_meas += ghu;
        c->util_x_h += j->gpu_util * h;
    }
}

void policy_cells_build_add(PolicyCellsBuild *b, const StatsJob *jobs, size_t n,
                            const StatsNames *types)
{
    for (size_t i = 0; i < n; i++)
        add_one(b, &jobs[i], types);
}

static char **names_copy(const Names *d, size_t *n)
{
    char **v = xmalloc((d->n + 1) * sizeof *v);
    for (size_t i = 0; i < d->n; i++)
        v[i] = xstrdup(d->v[i]);
    *n = d->n;
    return v;
}

void policy_cells_build_finish(PolicyCellsBuild *b, PolicyCells *out)
{
    memset(out, 0, sizeof *out);
    out->cells = b->cells;
    out->ncells = b->n;
    out->groups = names_copy(&b->w.groups, &out->ngroups);
    out->domains = names_copy(&b->w.domains, &out->ndomains);
    out->types = b->typestr;
    out->ntypes = b->types.n;
    out->preempted = xmalloc(PART_MAX * sizeof *out->preempted);
    for (size_t p = 0; p < PART_MAX; p++)
        if (b->preempted[p])
            out->preempted[out->npreempted++] = (uint16_t)p;
    owners_done(&b->w);
    policy_cells_free(&b->seed);
    pol_sites_free(b->site, b->nsites);
    strmap_free(b->map);
    names_done(&b->types);
    free(b->typemap);
    free(b->preempted);
    free(b);
}

static void strs_free(char **v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

void policy_cells_free(PolicyCells *c)
{
    if (!c)
        return;
    free(c->cells);
    strs_free(c->groups, c->ngroups);
    strs_free(c->domains, c->ndomains);
    strs_free(c->types, c->ntypes);
    free(c->preempted);
    memset(c, 0, sizeof *c);
}

/* ---- bytes: "PCL1", five counts (uint64: cells, groups, domains, types,
 * preempted), the names NUL-terminated, the partition ids, padding to 8,
 * the cells ---- */

static const char MAGIC[4] = {'P', 'C', 'L', '1'};

static void put_strs(CpBuf *out, char *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cpbuf_append(out, v[i], strlen(v[i]) + 1);
}

void policy_cells_pack(const PolicyCells *c, CpBuf *out)
{
    size_t base = out->len;
    uint64_t count[5] = {c->ncells, c->ngroups, c->ndomains, c->ntypes, c->npreempted};
    cpbuf_append(out, MAGIC, sizeof MAGIC);
    cpbuf_append(out, count, sizeof count);
    put_strs(out, c->groups, c->ngroups);
    put_strs(out, c->domains, c->ndomains);
    put_strs(out, c->types, c->ntypes);
    if (c->npreempted)
        cpbuf_append(out, c->preempted, c->npreempted * sizeof *c->preempted);
    static const char zero[8] = {0};
    cpbuf_append(out, zero, (8 - (out->len - base) % 8) % 8);
    if (c->ncells)
        cpbuf_append(out, c->cells, c->ncells * sizeof *c->cells);
}

/* n strings from p[*at..end) into a new array; -1 when they do not fit. */
static int get_strs(const char *p, size_t end, size_t *at, size_t n, char ***out)
{
    *out = xcalloc(n + 1, sizeof **out);
    for (size_t i = 0; i < n; i++) {
        if (*at >= end)
            return -1;
        size_t len = strnlen(p + *at, end - *at);
        if (*at + len >= end)
            return -1;
        (*out)[i] = xstrndup(p + *at, len);
        *at += len + 1;
    }
    return 0;
}

int policy_cells_unpack(const void *data, size_t n, PolicyCells *out)
{
    const char *p = data;
    uint64_t count[5];
    memset(out, 0, sizeof *out);
    if (!p || n < sizeof MAGIC + sizeof count || memcmp(p, MAGIC, sizeof MAGIC) != 0)
        return -1;
    memcpy(count, p + sizeof MAGIC, sizeof count);
    for (int i = 0; i < 5; i++)
        if (count[i] > n)
            return -1;
    size_t at = sizeof MAGIC + sizeof count;
    out->ngroups = (size_t)count[1];
    out->ndomains = (size_t)count[2];
    out->ntypes = (size_t)count[3];
    int bad = get_strs(p, n, &at, out->ngroups, &out->groups) < 0 ||
              get_strs(p, n, &at, out->ndomains, &out->domains) < 0 ||
              get_strs(p, n, &at, out->ntypes, &out->types) < 0;
    size_t npre = (size_t)count[4], ncells = (size_t)count[0];
    if (!bad && n - at >= npre * sizeof *out->preempted) {
        out->preempted = xmalloc((npre + 1) * sizeof *out->preempted);
        if (npre)
            memcpy(out->preempted, p + at, npre * sizeof *out->preempted);
        out->npreempted = npre;
        at += npre * sizeof *out->preempted;
        at += (8 - at % 8) % 8;
    } else {
        bad = 1;
    }
    if (!bad && at <= n && (n - at) == ncells * sizeof *out->cells) {
        out->cells = xmalloc((ncells + 1) * sizeof *out->cells);
        if (ncells)
            memcpy(out->cells, p + at, ncells * sizeof *out->cells);
        out->ncells = ncells;
    } else {
        bad = 1;
    }
    for (size_t i = 0; !bad && i < out->ncells; i++) {
        const PolicyCell *c = &out->cells[i];
        bad = c->group < 0 || (size_t)c->group >= out->ngroups || c->domain < 0 ||
              (size_t)c->domain >= out->ndomains || c->gpu_type >= out->ntypes;
    }
    if (bad) {
        policy_cells_free(out);
        return -1;
    }
    return 0;
}
