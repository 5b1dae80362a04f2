/* import trace: public cluster traces through the shared job pipeline, and
 * the node list of Alibaba's GPU-sharing trace as inventory rows. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/ingest/csvin.h"
#include "data/ingest/fields.h"
#include "data/ingest/import.h"
#include "data/store/store.h"
#include "data/store/store_ref.h"
#include "data/ingest/textenc.h"
#include "data/ingest/trace.h"

#define NODE_MODELS_MAX 64

static int read_trace(FILE *f, CpReadCtx *rc, const void *arg, char *fmt, size_t fmtsz,
                      CpErr *err)
{
    const ImportOpts *o = arg;
    return trace_read(f, o->trace_kind, rc, fmt, fmtsz, err);
}

/* ---- the Alibaba node list: sn,cpu_milli,memory_mib,gpu,model ---- */

/* GPUs per model, summed over the nodes. */
typedef struct NodeList {
    const char *name; /* for messages */
    int have_header;
    int idx[2];       /* gpu, model */
    int64_t rows;
    int64_t cpu_nodes; /* no GPU and no model: counted apart (#29) */
    int n;
    char model[NODE_MODELS_MAX][CP_GPU_TYPE_MAX];
    int64_t gpus[NODE_MODELS_MAX];
} NodeList;

/* Memory of the models the trace names (GiB); the G1..G3 codes are
 * undisclosed: unknown (-1), never 0. */
static double model_mem_gib(const char *model)
{
    static const struct {
        const char *model;
        double gib;
    } known[] = {{"P100", 16}, {"T4", 16}, {"V100M16", 16}, {"V100M32", 32}, {"A10", 24}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(model, known[i].model) == 0)
            return known[i].gib;
    return -1;
}

static int node_add(NodeList *nl, const CsvinRec *rec, CpErr *err)
{
    const char *gpu = rec->f[nl->idx[0]], *model = rec->f[nl->idx[1]];
    size_t mlen = rec->len[nl->idx[1]];
    int64_t g;
    if (fields_int(gpu, rec->len[nl->idx[0]], &g, NULL) < 0 || g < 0 || g > 4096)
        return cp_err_set(err, "%s:%lld: field gpu: bad GPU count '%.20s'", nl->name,
                          (long long)rec->line, gpu);
    if (mlen == 0 && g == 0) { /* a CPU-only node of the full node list */
        nl->cpu_nodes++;
        return 0;
    }
    if (mlen == 0 || mlen >= CP_GPU_TYPE_MAX)
        return cp_err_set(err, "%s:%lld: field model: %s", nl->name, (long long)rec->line,
                          mlen ? "name too long" : "empty, for a node with GPUs");
    int i = 0;
    while (i < nl->n && strcmp(nl->model[i], model) != 0)
        i++;
    if (i == nl->n) {
        if (nl->n == NODE_MODELS_MAX)
            return cp_err_set(err, "%s:%lld: more than %d GPU models", nl->name,
                              (long long)rec->line, NODE_MODELS_MAX);
        memcpy(nl->model[i], model, mlen + 1);
        nl->gpus[i] = 0;
        nl->n++;
    }
    nl->gpus[i] += g;
    return 0;
}

static int node_record(void *ctx, const CsvinRec *rec, CpErr *err)
{
    NodeList *nl = ctx;
    static const char *const cols[] = {"gpu", "model"};
    if (csvin_rec_empty(rec))
        return 0;
    if (!nl->have_header) {
        nl->have_header = 1;
        return csvin_columns(rec, nl->name, cols, 2, 2, nl->idx, err);
    }
    nl->rows++;
    if (rec->n <= (size_t)nl->idx[0] || rec->n <= (size_t)nl->idx[1])
        return cp_err_set(err, "%s:%lld: only %zu fields", nl->name, (long long)rec->line,
                          rec->n);
    return node_add(nl, rec, err);
}

/* Write nl as inventory rows of cluster, in service from the trace's start. */
static int node_store(Store *st, const NodeList *nl, const char *path, const char *cluster,
                      const char *from, ImportResult *res, CpErr *err)
{
    int64_t id = store_import_begin(st, "inventory", path, "alibaba-node-list", err);
    StoreRef *sr = id < 0 ? NULL : store_ref_new(st, err);
    if (!sr)
        return -1;
    for (int i = 0; i < nl->n; i++) {
        RefInventory v = {cluster, nl->model[i], nl->gpus[i], model_mem_gib(nl->model[i]),
                          from, NULL, -1, -1};
        StoreRefOutcome out;
        if (store_ref_inventory(sr, id, &v, &out, err) < 0) {
            store_ref_free(sr);
            return -1;
        }
        res->added += out == STORE_REF_ADDED;
        res->updated += out == STORE_REF_UPDATED;
        res->unchanged += out == STORE_REF_UNCHANGED;
    }
    store_ref_free(sr);
    return store_import_end(st, id, nl->rows, res->added, res->updated, 0, err);
}

/* The node list, whole or not at all (a bad line fails the file). */
static int import_nodes(Store *st, FILE *f, const char *path, const ImportOpts *o,
                        ImportResult *res, CpErr *err)
{
    NodeList *nl = xcalloc(1, sizeof *nl);
    nl->name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    int rc = csvin_read(f, nl->name, 0, node_record, nl, err);
    if (rc == 0) {
        char from[16];
        int y, mo, d, h, mi, s;
        fields_civil_of(o->trace_start ? o->trace_start : TRACE_ALIBABA_EPOCH, &y, &mo, &d, &h,
                        &mi, &s);
        snprintf(from, sizeof from, "%04d-%02d-%02d", y, mo, d);
        const char *cluster = o->cluster && o->cluster[0] ? o->cluster : TRACE_ALIBABA;
        rc = store_begin(st, err);
        if (rc == 0 && node_store(st, nl, path, cluster, from, res, err) < 0) {
            store_rollback(st);
            rc = -1;
        } else if (rc == 0 && (rc = store_commit(st, err)) < 0)
            store_rollback(st);
    }
    res->rows_read = nl->rows;
    res->cpu_nodes = nl->cpu_nodes;
    snprintf(res->format, sizeof res->format, "alibaba-node-list");
    free(nl);
    return rc;
}

/* 1 when the first line of path is the Alibaba node list's header. */
static int is_node_list(const char *path)
{
    if (strcmp(path, "-") == 0)
        return 0;
    FILE *f = fopen(path, "rb");
    char line[512];
    int yes = f && fgets(line, sizeof line, f) && strncmp(line, "sn,", 3) == 0 &&
              strstr(line, ",model") && strstr(line, ",gpu");
    if (f)
        fclose(f);
    return yes;
}

int import_trace(Store *st, const char *path, const ImportOpts *o, ImportResult *res, CpErr *err)
{
    if (!o->trace_kind || !o->trace_kind[0])
        return cp_err_set(err, "import trace: --kind philly|swf|helios|pai|alibaba-pod is required");
    if (strcmp(o->trace_kind, "alibaba-pod") == 0 && is_node_list(path)) {
        memset(res, 0, sizeof *res);
        FILE *f = fopen(path, "rb");
        if (!f)
            return cp_err_set(err, "%s: %s", path, strerror(errno));
        FILE *in = o->encoding != TEXTENC_UTF8 ? textenc_open(f, (TextEnc)o->encoding) : f;
        int rc = in ? import_nodes(st, in, path, o, res, err)
                    : cp_err_set(err, "%s: %s", path, strerror(errno));
        if (in && in != f)
            fclose(in);
        fclose(f);
        return rc;
    }
    return import_jobs_with(st, "trace", path, o, read_trace, o, res, err);
}
