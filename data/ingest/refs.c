#include "data/ingest/refs.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"
#include "data/ingest/fields.h"

/* Column positions of each shape, in the order of its column list. */
enum { R_USER, R_GROUP, R_ROLE, R_DOMAIN, R_START, R_END, R_SUPERVISOR, R_NAME, R_ALIASES,
       R_PLANNED_END };
enum { I_CLUSTER, I_MODEL, I_GPUS, I_MEM, I_FROM, I_TO, I_SPEED, I_TDP };
enum { M_JOB, M_MEM, M_UTIL, M_CLUSTER };
enum { S_TIME, S_VALUE, S_KEY };
enum { E_DATE, E_CLUSTER, E_LABEL };
enum { P_YEAR, P_GROUP, P_TITLE, P_DOMAIN, P_AUTHORS };
enum { X_INSTITUTION, X_GPUS, X_RESEARCHERS };

static const char *const roster_cols[] = {"user",  "group|group_name", "role",
                                          "domain", "start|start_date", "end|end_date",
                                          "supervisor", "name", "aliases",
                                          "planned_end|planned_end_date"};
static const char *const inventory_cols[] = {
    "cluster", "gpu_model|model", "gpus", "gpu_mem_gib", "from|from_date", "to|to_date",
    "relative_speed", "tdp_w"};
static const char *const metrics_cols[] = {"job_id|jobid|job", "gpu_mem_max_gib",
                                           "gpu_util_mean", "cluster"};
static const char *const series_cols[] = {"timestamp_anon|timestamp", "value", "container_ip"};
static const char *const events_cols[] = {"date", "cluster", "label"};
static const char *const peers_cols[] = {"institution|institute", "gpus", "researchers"};
static const char *const pubs_cols[] = {"year", "group|group_name", "title", "domain",
                                        "authors"};

typedef struct Layout {
    const char *kind;
    const char *format;
    const char *const *cols;
    size_t ncols, nrequired;
} Layout;

#define COLS(a) a, sizeof a / sizeof a[0]

static const Layout layouts[REFS_SHAPE_COUNT] = {
    [REFS_ROSTER] = {"roster", "roster-csv", COLS(roster_cols), 6},
    [REFS_INVENTORY] = {"inventory", "inventory-csv", COLS(inventory_cols), 6},
    [REFS_METRICS_JOB] = {"gpu-metrics", "gpu-metrics-csv", COLS(metrics_cols), 2},
    [REFS_METRICS_SERIES] = {"gpu-metrics", "gpu-metrics-series-csv", COLS(series_cols), 3},
    [REFS_EVENTS] = {"events", "events-csv", COLS(events_cols), 3},
    [REFS_PUBS] = {"pubs", "pubs-csv", COLS(pubs_cols), 4},
    [REFS_PEERS] = {"peers", "peers-csv", COLS(peers_cols), 3},
};

int refs_kind_known(const char *kind)
{
    for (int s = 0; s < REFS_SHAPE_COUNT; s++)
        if (strcmp(layouts[s].kind, kind) == 0)
            return 1;
    return 0;
}

int refs_header(const char *kind, const CsvinRec *hdr, const char *name, RefsHeader *out,
                CpErr *err)
{
    int shape = -1;
    for (int s = 0; s < REFS_SHAPE_COUNT && shape < 0; s++)
        if (strcmp(layouts[s].kind, kind) == 0)
            shape = s;
    if (shape < 0)
        return cp_err_set(err, "unknown kind of file '%s'", kind);
    if (shape == REFS_METRICS_JOB && csvin_has_column(hdr, "container_ip"))
        shape = REFS_METRICS_SERIES;
    const Layout *l = &layouts[shape];
    out->shape = (RefsShape)shape;
    out->format = l->format;
    out->nfields = hdr->n;
    for (size_t i = 0; i < REFS_MAX_COLS; i++)
        out->idx[i] = -1;
    return csvin_columns(hdr, name, l->cols, l->ncols, l->nrequired, out->idx, err);
}

/* The value of column col ("" when the file lacks that optional column). */
static char *cell(const RefsHeader *h, const CsvinRec *rec, int col, size_t *n)
{
    int i = h->idx[col];
    if (i < 0 || (size_t)i >= rec->n) {
        *n = 0;
        return NULL;
    }
    *n = rec->len[i];
    return rec->f[i];
}

/* Text of col, NULL when empty. */
static const char *opt_text(const RefsHeader *h, const CsvinRec *rec, int col)
{
    size_t n;
    const char *s = cell(h, rec, col, &n);
    return n ? s : NULL;
}

/* Text of col, which must not be empty. */
static int need_text(const RefsHeader *h, const CsvinRec *rec, int col, const char *field,
                     const char **out, const char **bad, CpErr *err)
{
    size_t n;
    const char *s = cell(h, rec, col, &n);
    if (!n) {
        *bad = field;
        return cp_err_set(err, "empty value");
    }
    *out = s;
    return 0;
}

/* A date column: required, or optional (NULL when empty). */
static int date_cell(const RefsHeader *h, const CsvinRec *rec, int col, const char *field,
                     int required, const char **out, const char **bad, CpErr *err)
{
    size_t n;
    const char *s = cell(h, rec, col, &n);
    *out = NULL;
    if (!n && required) {
        *bad = field;
        return cp_err_set(err, "empty value");
    }
    if (n && refs_date(s, n, err) < 0) {
        *bad = field;
        return -1;
    }
    *out = n ? s : NULL;
    return 0;
}

/* A number column; *out = -1 when optional and empty. Values below min are
 * refused with reason ("negative count"). */
static int num_cell(const RefsHeader *h, const CsvinRec *rec, int col, const char *field,
                    int required, double min, const char *reason, double *out, const char **bad,
                    CpErr *err)
{
    size_t n;
    const char *s = cell(h, rec, col, &n);
    *out = -1;
    if (!n) {
        if (!required)
            return 0;
        *bad = field;
        return cp_err_set(err, "empty value");
    }
    if (fields_double(s, n, out, err) < 0) {
        *bad = field;
        return -1;
    }
    if (*out < min) {
        *bad = field;
        return cp_err_set(err, "%s '%s'", reason, s);
    }
    return 0;
}

int refs_date(const char *s, size_t n, CpErr *err)
{
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int ok = n == 10 && s[4] == '-' && s[7] == '-';
    for (size_t i = 0; ok && i < n; i++)
        if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
            ok = 0;
    if (ok) {
        int y = atoi(s), m = atoi(s + 5), d = atoi(s + 8);
        int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        ok = y >= 1900 && m >= 1 && m <= 12 && d >= 1 && d <= mdays[m - 1] &&
             !(m == 2 && d == 29 && !leap);
    }
    if (!ok)
        return cp_err_set(err, "bad date '%.*s' (expected YYYY-MM-DD)", (int)(n > 40 ? 40 : n),
                          s);
    return 0;
}

int refs_role_is_professor(const char *role)
{
    return strcmp(role, "professor") == 0 || strcmp(role, "prof") == 0 ||
           strcmp(role, "pi") == 0;
}

/* YYYY or YYYY-MM (n 4 or 7) widened to its first day, or its last when
 * last_day, into buf[11]; -1 when s is neither. */
static int widen_date(const char *s, size_t n, int last_day, char *buf)
{
    static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if ((n != 4 && n != 7) || strspn(s, "0123456789") != 4 ||
        (n == 7 && (s[4] != '-' || strspn(s + 5, "0123456789") != 2)))
        return -1;
    int y = atoi(s), m = n == 7 ? atoi(s + 5) : last_day ? 12 : 1;
    if (m < 1 || m > 12)
        return -1;
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    int d = !last_day ? 1 : m == 2 && leap ? 29 : mdays[m - 1];
    snprintf(buf, 11, "%04d-%02d-%02d", y, m, d);
    return refs_date(buf, 10, NULL);
}

/* A roster date: empty (NULL: unknown), YYYY-MM-DD, or as coarse as labs'
 * web pages give it, YYYY-MM or YYYY, widened into buf[11] to its first
 * day (a start) or its last (an end, last_day). */
static int roster_date(const RefsHeader *h, const CsvinRec *rec, int col, const char *field,
                       int last_day, char *buf, const char **out, const char **bad, CpErr *err)
{
    size_t n;
    const char *s = cell(h, rec, col, &n);
    *out = NULL;
    if (!n)
        return 0;
    if (n == 10 && refs_date(s, n, err) == 0) {
        *out = s;
        return 0;
    }
    if (n != 10 && widen_date(s, n, last_day, buf) == 0) {
        *out = buf;
        return 0;
    }
    *bad = field;
    return n == 10 ? -1
                   : cp_err_set(err, "bad date '%.*s' (expected YYYY-MM-DD, YYYY-MM or YYYY)",
                                (int)(n > 40 ? 40 : n), s);
}

int refs_person(const RefsHeader *h, const CsvinRec *rec, RefPerson *out, const char **bad,
                CpErr *err)
{
    if (need_text(h, rec, R_USER, "user", &out->user, bad, err) < 0 ||
        need_text(h, rec, R_GROUP, "group", &out->group, bad, err) < 0 ||
        need_text(h, rec, R_ROLE, "role", &out->role, bad, err) < 0 ||
        roster_date(h, rec, R_START, "start", 0, out->start_buf, &out->start, bad, err) < 0 ||
        roster_date(h, rec, R_END, "end", 1, out->end_buf, &out->end, bad, err) < 0 ||
        roster_date(h, rec, R_PLANNED_END, "planned_end", 1, out->planned_buf, &out->planned_end,
                    bad, err) < 0)
        return -1;
    if (out->end && out->start && strcmp(out->end, out->start) < 0) {
        *bad = "end";
        return cp_err_set(err, "end %s before start %s", out->end, out->start);
    }
    size_t n;
    char *role = cell(h, rec, R_ROLE, &n);
    for (size_t i = 0; i < n; i++)
        role[i] = (char)tolower((unsigned char)role[i]);
    out->domain = opt_text(h, rec, R_DOMAIN);
    out->supervisor = opt_text(h, rec, R_SUPERVISOR);
    out->name = opt_text(h, rec, R_NAME);
    out->aliases = opt_text(h, rec, R_ALIASES);
    return 0;
}

int refs_inventory(const RefsHeader *h, const CsvinRec *rec, const char *default_cluster,
                   RefInventory *out, const char **bad, CpErr *err)
{
    double gpus;
    out->cluster = opt_text(h, rec, I_CLUSTER);
    if (!out->cluster)
        out->cluster = default_cluster && default_cluster[0] ? default_cluster : NULL;
    if (!out->cluster) {
        *bad = "cluster";
        return cp_err_set(err, "empty value");
    }
    if (need_text(h, rec, I_MODEL, "gpu_model", &out->gpu_model, bad, err) < 0 ||
        num_cell(h, rec, I_GPUS, "gpus", 1, 0, "negative count", &gpus, bad, err) < 0 ||
        num_cell(h, rec, I_MEM, "gpu_mem_gib", 1, 0, "negative memory", &out->gpu_mem_gib, bad,
                 err) < 0 ||
        date_cell(h, rec, I_FROM, "from", 1, &out->from, bad, err) < 0 ||
        date_cell(h, rec, I_TO, "to", 0, &out->to, bad, err) < 0 ||
        num_cell(h, rec, I_SPEED, "relative_speed", 0, 0, "negative speed", &out->relative_speed,
                 bad, err) < 0 ||
        num_cell(h, rec, I_TDP, "tdp_w", 0, 0, "negative power", &out->tdp_w, bad, err) < 0)
        return -1;
    if (gpus != (double)(int64_t)gpus || gpus > 1e9) {
        *bad = "gpus";
        return cp_err_set(err, "not a whole number of GPUs '%g'", gpus);
    }
    out->gpus = (int64_t)gpus;
    if (out->to && strcmp(out->to, out->from) < 0) {
        *bad = "to";
        return cp_err_set(err, "%s before from %s", out->to, out->from);
    }
    return 0;
}

int refs_event(const RefsHeader *h, const CsvinRec *rec, const char *default_cluster,
               RefEvent *out, const char **bad, CpErr *err)
{
    if (date_cell(h, rec, E_DATE, "date", 1, &out->date, bad, err) < 0 ||
        need_text(h, rec, E_LABEL, "label", &out->label, bad, err) < 0)
        return -1;
    out->cluster = opt_text(h, rec, E_CLUSTER);
    if (!out->cluster)
        out->cluster = default_cluster ? default_cluster : "";
    return 0;
}

int refs_peer(const RefsHeader *h, const CsvinRec *rec, RefPeer *out, const char **bad,
              CpErr *err)
{
    if (need_text(h, rec, X_INSTITUTION, "institution", &out->institution, bad, err) < 0 ||
        num_cell(h, rec, X_GPUS, "gpus", 1, 0, "negative count", &out->gpus, bad, err) < 0 ||
        num_cell(h, rec, X_RESEARCHERS, "researchers", 1, 0, "negative count",
                 &out->researchers, bad, err) < 0)
        return -1;
    return 0;
}

int refs_pub(const RefsHeader *h, const CsvinRec *rec, RefPub *out, const char **bad,
             CpErr *err)
{
    size_t n;
    const char *y = cell(h, rec, P_YEAR, &n);
    if (!n) {
        *bad = "year";
        return cp_err_set(err, "empty value");
    }
    if (fields_int(y, n, &out->year, NULL) < 0 || out->year < 1900 || out->year > 2200) {
        *bad = "year";
        return cp_err_set(err, "bad year '%.*s'", (int)(n > 40 ? 40 : n), y);
    }
    if (need_text(h, rec, P_GROUP, "group", &out->group, bad, err) < 0 ||
        need_text(h, rec, P_TITLE, "title", &out->title, bad, err) < 0)
        return -1;
    out->domain = opt_text(h, rec, P_DOMAIN);
    out->authors = opt_text(h, rec, P_AUTHORS);
    return 0;
}

int refs_metric(const RefsHeader *h, const CsvinRec *rec, const char *default_cluster,
                RefMetric *out, const char **bad, CpErr *err)
{
    if (need_text(h, rec, M_JOB, "job_id", &out->job_key, bad, err) < 0 ||
        num_cell(h, rec, M_MEM, "gpu_mem_max_gib", 0, 0, "negative memory",
                 &out->gpu_mem_max_gib, bad, err) < 0 ||
        num_cell(h, rec, M_UTIL, "gpu_util_mean", 0, 0, "negative utilisation",
                 &out->gpu_util_mean, bad, err) < 0)
        return -1;
    if (out->gpu_util_mean > 100) {
        *bad = "gpu_util_mean";
        return cp_err_set(err, "utilisation above 100 '%g'", out->gpu_util_mean);
    }
    if (out->gpu_mem_max_gib < 0 && out->gpu_util_mean < 0) {
        *bad = "gpu_mem_max_gib";
        return cp_err_set(err, "empty value");
    }
    out->cluster = opt_text(h, rec, M_CLUSTER);
    if (!out->cluster)
        out->cluster = default_cluster ? default_cluster : "";
    out->samples = 1;
    return 0;
}

int refs_sample(const RefsHeader *h, const CsvinRec *rec, RefSample *out, const char **bad,
                CpErr *err)
{
    double t;
    if (num_cell(h, rec, S_TIME, "timestamp_anon", 1, -1e18, "bad time", &t, bad, err) < 0 ||
        num_cell(h, rec, S_VALUE, "value", 1, 0, "negative bytes", &out->bytes, bad, err) < 0 ||
        need_text(h, rec, S_KEY, "container_ip", &out->key, bad, err) < 0)
        return -1;
    out->key_len = rec->len[h->idx[S_KEY]];
    return 0;
}

/* ---- groups of a roster ---- */

typedef struct DomainCount {
    char *domain;
    int64_t count;
} DomainCount;

typedef struct GroupAcc {
    char *name;
    char *professor;
    int prof_rank;       /* 2 still there, 1 left; the higher and later end wins */
    char *prof_end;
    char *prof_domain;
    DomainCount *domains;
    size_t ndomains;
} GroupAcc;

struct RefsGroups {
    StrMap *index;
    GroupAcc *g;
    size_t n, cap;
};

RefsGroups *refs_groups_new(void)
{
    RefsGroups *g = xcalloc(1, sizeof *g);
    g->index = strmap_new();
    return g;
}

void refs_groups_free(RefsGroups *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n; i++) {
        GroupAcc *a = &g->g[i];
        for (size_t d = 0; d < a->ndomains; d++)
            free(a->domains[d].domain);
        free(a->domains);
        free(a->name);
        free(a->professor);
        free(a->prof_end);
        free(a->prof_domain);
    }
    free(g->g);
    strmap_free(g->index);
    free(g);
}

static GroupAcc *group_slot(RefsGroups *g, const char *name)
{
    int64_t i;
    if (strmap_get(g->index, name, strlen(name), &i))
        return &g->g[i];
    if (g->n == g->cap) {
        g->cap = g->cap ? g->cap * 2 : 16;
        g->g = xrealloc(g->g, g->cap * sizeof *g->g);
    }
    GroupAcc *a = &g->g[g->n];
    memset(a, 0, sizeof *a);
    a->name = xstrdup(name);
    strmap_put(g->index, name, strlen(name), (int64_t)g->n);
    g->n++;
    return a;
}

static void count_domain(GroupAcc *a, const char *domain)
{
    for (size_t d = 0; d < a->ndomains; d++)
        if (strcmp(a->domains[d].domain, domain) == 0) {
            a->domains[d].count++;
            return;
        }
    a->domains = xrealloc(a->domains, (a->ndomains + 1) * sizeof *a->domains);
    a->domains[a->ndomains].domain = xstrdup(domain);
    a->domains[a->ndomains].count = 1;
    a->ndomains++;
}

/* Does professor p beat the one already kept? Still there beats left; of
 * two who left, the later end wins; otherwise the first seen stays. */
static int better_professor(const GroupAcc *a, const RefPerson *p)
{
    int rank = p->end ? 1 : 2;
    if (!a->professor || rank > a->prof_rank)
        return 1;
    return rank == 1 && a->prof_rank == 1 && strcmp(p->end, a->prof_end) > 0;
}

static void set_str(char **dst, const char *s)
{
    free(*dst);
    *dst = s ? xstrdup(s) : NULL;
}

void refs_groups_add(RefsGroups *g, const RefPerson *p)
{
    GroupAcc *a = group_slot(g, p->group);
    if (p->domain)
        count_domain(a, p->domain);
    if (refs_role_is_professor(p->role) && better_professor(a, p)) {
        set_str(&a->professor, p->user);
        set_str(&a->prof_end, p->end);
        set_str(&a->prof_domain, p->domain);
        a->prof_rank = p->end ? 1 : 2;
    }
}

size_t refs_groups_count(const RefsGroups *g)
{
    return g->n;
}

RefGroup refs_groups_get(const RefsGroups *g, size_t i)
{
    const GroupAcc *a = &g->g[i];
    RefGroup out = {a->name, a->prof_domain, a->professor, a->prof_domain != NULL};
    if (!out.domain && a->ndomains) { /* the most common; ties: the first seen */
        size_t best = 0;
        for (size_t d = 1; d < a->ndomains; d++)
            if (a->domains[d].count > a->domains[best].count)
                best = d;
        out.domain = a->domains[best].domain;
    }
    return out;
}

/* ---- GPU memory time series ---- */

typedef struct SeriesAcc {
    char *key;
    double max_bytes;
    int64_t samples;
} SeriesAcc;

struct RefsSeries {
    StrMap *index;
    SeriesAcc *a;
    size_t n, cap;
};

RefsSeries *refs_series_new(void)
{
    RefsSeries *s = xcalloc(1, sizeof *s);
    s->index = strmap_new();
    return s;
}

void refs_series_free(RefsSeries *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        free(s->a[i].key);
    free(s->a);
    strmap_free(s->index);
    free(s);
}

void refs_series_add(RefsSeries *s, const RefSample *sample)
{
    int64_t i;
    if (!strmap_get(s->index, sample->key, sample->key_len, &i)) {
        if (s->n == s->cap) {
            s->cap = s->cap ? s->cap * 2 : 64;
            s->a = xrealloc(s->a, s->cap * sizeof *s->a);
        }
        i = (int64_t)s->n++;
        s->a[i].key = xstrndup(sample->key, sample->key_len);
        s->a[i].max_bytes = sample->bytes;
        s->a[i].samples = 0;
        strmap_put(s->index, sample->key, sample->key_len, i);
    }
    SeriesAcc *a = &s->a[i];
    if (sample->bytes > a->max_bytes)
        a->max_bytes = sample->bytes;
    a->samples++;
}

size_t refs_series_count(const RefsSeries *s)
{
    return s->n;
}

RefMetric refs_series_get(const RefsSeries *s, size_t i, const char *cluster)
{
    const SeriesAcc *a = &s->a[i];
    RefMetric m = {cluster ? cluster : "", a->key, a->max_bytes / (1024.0 * 1024.0 * 1024.0), -1,
                   a->samples};
    return m;
}
