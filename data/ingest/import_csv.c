/* import_csv: `capplan import roster|inventory|gpu-metrics|events|pubs`.
 * Streams one CSV file through csvin, validates each row with refs, and
 * writes it with store_ref, all inside one transaction: the file lands
 * whole (its good rows, with every bad row reported) or, when strict and a
 * row is bad, not at all. A roster also fills the groups it names; GPU
 * metrics are written to gpu_metrics and given to the jobs they describe
 * in the same transaction. A time series of GPU memory (one sample per
 * line) is reduced in memory to one row per key before it is written. */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "data/ingest/csvin.h"
#include "data/ingest/import.h"
#include "data/ingest/reader.h"
#include "data/ingest/refs.h"
#include "data/store/store.h"
#include "data/store/store_ref.h"
#include "data/store/store_stats.h"
#include "data/ingest/textenc.h"

typedef struct CsvImport {
    Store *st;
    StoreRef *sr;
    const char *kind;
    const char *path;    /* as given ("-" for standard input) */
    const char *name;    /* as shown in messages */
    const ImportOpts *o;
    ImportResult *res;
    CpReadCtx rc;        /* path, strict and reject: how a bad row is reported */
    RefsHeader hdr;
    int have_header;
    int64_t import_id;
    RefsGroups *groups;  /* roster: the groups seen */
    RefsSeries *series;  /* gpu-metrics time series: per-key maxima */
    int64_t linked;      /* jobs given measured GPU values */
} CsvImport;

static void count(ImportResult *res, StoreRefOutcome out)
{
    if (out == STORE_REF_ADDED)
        res->added++;
    else if (out == STORE_REF_UPDATED)
        res->updated++;
    else
        res->unchanged++;
}

/* A bad row: reported and skipped, or (strict) the end of the import. */
static int reject(CsvImport *ci, const CsvinRec *rec, const char *field, const char *reason,
                  CpErr *err)
{
    char why[CP_ERR_MAX];
    snprintf(why, sizeof why, "%s", reason); /* reason may be err->msg itself */
    return reader_reject(&ci->rc, err, rec->line, field, why);
}

static int on_header(CsvImport *ci, const CsvinRec *rec, CpErr *err)
{
    if (refs_header(ci->kind, rec, ci->name, &ci->hdr, err) < 0)
        return -1;
    snprintf(ci->res->format, sizeof ci->res->format, "%s", ci->hdr.format);
    ci->import_id = store_import_begin(ci->st, ci->kind, ci->path, ci->hdr.format, err);
    if (ci->import_id < 0)
        return -1;
    ci->have_header = 1;
    return 0;
}

static int put_metric(CsvImport *ci, const RefMetric *m, CpErr *err)
{
    StoreRefOutcome out;
    if (store_ref_metric(ci->sr, ci->import_id, m, &out, err) < 0 ||
        store_ref_link_metric(ci->sr, m, &ci->linked, err) < 0)
        return -1;
    count(ci->res, out);
    return 0;
}

/* Validate and write one data row. Returns 1 for a bad row (bad_field and
 * err say why), 0 when written, -1 on a database error. */
static int put_row(CsvImport *ci, const CsvinRec *rec, const char **bad, CpErr *err)
{
    const char *cluster = ci->o->cluster ? ci->o->cluster : "";
    StoreRefOutcome out = STORE_REF_UNCHANGED;
    int rc = 0;
    switch (ci->hdr.shape) {
    case REFS_ROSTER: {
        RefPerson p;
        if (refs_person(&ci->hdr, rec, &p, bad, err) < 0)
            return 1;
        refs_groups_add(ci->groups, &p);
        rc = store_ref_person(ci->sr, ci->import_id, &p, &out, err);
        break;
    }
    case REFS_INVENTORY: {
        RefInventory v;
        if (refs_inventory(&ci->hdr, rec, cluster, &v, bad, err) < 0)
            return 1;
        rc = store_ref_inventory(ci->sr, ci->import_id, &v, &out, err);
        break;
    }
    case REFS_METRICS_JOB: {
        RefMetric m;
        if (refs_metric(&ci->hdr, rec, cluster, &m, bad, err) < 0)
            return 1;
        return put_metric(ci, &m, err);
    }
    case REFS_METRICS_SERIES: {
        RefSample smp;
        if (refs_sample(&ci->hdr, rec, &smp, bad, err) < 0)
            return 1;
        refs_series_add(ci->series, &smp);
        return 0;
    }
    case REFS_EVENTS: {
        RefEvent e;
        if (refs_event(&ci->hdr, rec, cluster, &e, bad, err) < 0)
            return 1;
        rc = store_ref_event(ci->sr, ci->import_id, &e, &out, err);
        break;
    }
    case REFS_PUBS: {
        RefPub p;
        if (refs_pub(&ci->hdr, rec, &p, bad, err) < 0)
            return 1;
        rc = store_ref_pub(ci->sr, ci->import_id, &p, &out, err);
        break;
    }
    default:
        return cp_err_set(err, "%s: no reader for this layout", ci->name);
    }
    if (rc == 0)
        count(ci->res, out);
    return rc;
}

/* csvin callback: the header first, then one row at a time. */
static int on_record(void *ctx, const CsvinRec *rec, CpErr *err)
{
    CsvImport *ci = ctx;
    if (!ci->have_header)
        return on_header(ci, rec, err);
    if (csvin_rec_empty(rec))
        return 0;
    if (csvin_rec_comment(rec)) { /* "# exported by ...": neither a row nor a rejected one */
        ci->res->comments++;
        return 0;
    }
    ci->res->rows_read++;
    ci->rc.rows_read++;
    CsvinPad pad;
    const CsvinRec *full = csvin_pad(rec, ci->hdr.nfields, &pad);
    if (!full) {
        char why[96];
        snprintf(why, sizeof why, "expected %zu fields, found %zu", ci->hdr.nfields, rec->n);
        return reject(ci, rec, NULL, why, err);
    }
    rec = full;
    const char *bad = NULL;
    int rc = put_row(ci, rec, &bad, err);
    return rc > 0 ? reject(ci, rec, bad, err->msg, err) : rc;
}

/* After the last row: what depends on the whole file. */
static int finish(CsvImport *ci, CpErr *err)
{
    if (!ci->have_header)
        return cp_err_set(err, "%s: empty file (expected a header line)", ci->name);
    for (size_t i = 0; i < refs_groups_count(ci->groups); i++) {
        RefGroup g = refs_groups_get(ci->groups, i);
        StoreRefOutcome out;
        if (store_ref_group(ci->sr, &g, &out, err) < 0)
            return -1;
    }
    const char *cluster = ci->o->cluster ? ci->o->cluster : "";
    for (size_t i = 0; i < refs_series_count(ci->series); i++) {
        RefMetric m = refs_series_get(ci->series, i, cluster);
        if (put_metric(ci, &m, err) < 0)
            return -1;
    }
    ci->res->rejected = ci->rc.rows_rejected;
    return store_import_end(ci->st, ci->import_id, ci->res->rows_read, ci->res->added,
                            ci->res->updated, ci->res->rejected, err);
}

/* GPU metrics rewrite the jobs' measured memory and utilisation, which the
 * statistics cache holds: rebuild it now, as a sacct import extends it, so
 * that the first `capplan stats` or export after the import does not pay
 * for the scan. A failure leaves the cache stale (the next load rescans):
 * the import itself has succeeded. */
static void keep_stats_current(const CsvImport *ci)
{
    if (strcmp(ci->kind, "gpu-metrics") != 0)
        return;
    CpErr ignored;
    (void)store_stats_refresh(ci->st, &ignored);
}

static int import_stream(CsvImport *ci, FILE *f, CpErr *err)
{
    if (store_begin(ci->st, err) < 0)
        return -1;
    ci->sr = store_ref_new(ci->st, err);
    if (!ci->sr || csvin_read(f, ci->name, 0, on_record, ci, err) < 0 || finish(ci, err) < 0) {
        store_ref_free(ci->sr);
        ci->sr = NULL;
        store_rollback(ci->st);
        return -1;
    }
    store_ref_free(ci->sr); /* before COMMIT: no statement left running */
    ci->sr = NULL;
    if (store_commit(ci->st, err) < 0) {
        store_rollback(ci->st);
        return -1;
    }
    keep_stats_current(ci);
    return 0;
}

int import_csv(Store *st, const char *kind, const char *path, const ImportOpts *o,
               ImportResult *res, CpErr *err)
{
    CsvImport ci;
    ImportOpts defaults;
    int rc = -1;
    FILE *f = NULL, *in = NULL;
    if (!o) {
        import_opts_init(&defaults);
        o = &defaults;
    }
    memset(&ci, 0, sizeof ci);
    memset(res, 0, sizeof *res);
    if (!refs_kind_known(kind))
        return cp_err_set(err, "unknown kind of import '%s'", kind);
    int is_stdin = strcmp(path, "-") == 0;
    ci.st = st;
    ci.kind = kind;
    ci.path = path;
    ci.name = is_stdin ? "<stdin>" : path;
    ci.o = o;
    ci.res = res;
    ci.rc.path = path;
    ci.rc.strict = o->strict;
    ci.rc.reject = o->reject;
    ci.rc.reject_ctx = o->reject_ctx;
    ci.rc.tz = o->tz;
    f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        cp_err_set(err, "%s: cannot open: %s", path, strerror(errno));
        goto out;
    }
    in = o->encoding != TEXTENC_UTF8 ? textenc_open(f, (TextEnc)o->encoding) : f;
    if (!in) {
        cp_err_set(err, "%s: %s", ci.name, strerror(errno));
        goto out;
    }
    ci.groups = refs_groups_new();
    ci.series = refs_series_new();
    rc = import_stream(&ci, in, err);
out:
    if (in && in != f)
        fclose(in);
    if (f && !is_stdin)
        fclose(f);
    refs_groups_free(ci.groups);
    refs_series_free(ci.series);
    return rc;
}
