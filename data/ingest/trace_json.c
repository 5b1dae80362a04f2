/* trace_json: the Microsoft Philly job list, a top-level JSON array of
 * jobs, streamed one element at a time through json_stream:
 *
 *   {"status": "Pass", "vc": "6214e9", "jobid": "application_..._9261",
 *    "user": "b22530", "submitted_time": "2017-10-05 06:18:46",
 *    "start_time": "...", "end_time": "...",
 *    "detail": [{"ip": "m177", "gpus": ["gpu0", "gpu1"]}]}
 *
 * as in the DRE sample (the last attempt flattened into the job). The
 * original cluster_job_log keeps start, end and detail in "attempts": the
 * last attempt is used, as DRE did. GPUs = the gpus listed over all nodes,
 * nodes = the entries of detail. Times carry no zone: UTC shifted by
 * ctx->tz. job_raw is the 1-based element number (Philly's ids
 * are not numbers), the same as the row number of the flattened CSV. */
#include "data/ingest/trace_rec.h"

#include <string.h>

#include <cJSON.h>

#include "data/ingest/fields.h"
#include "data/ingest/json_stream.h"
#include "data/ingest/textenc.h"

#define PJ_MAX_ELEM ((size_t)1 << 20) /* a job with hundreds of nodes is ~30 KiB */

typedef struct PhillyJson {
    CpReadCtx *rc;
    int64_t row;   /* elements so far: the 1-based job number */
    int64_t bytes; /* input consumed, as json_stream last said */
} PhillyJson;

/* Why an element was refused. */
typedef struct PjBad {
    const char *field;
    CpErr why;
} PjBad;

static int pj_bad(PjBad *bad, const char *field, const char *reason)
{
    bad->field = field;
    cp_err_set(&bad->why, "%s", reason);
    return -1;
}

/* A string member; "" when absent or null when optional. */
static int pj_string(const cJSON *o, const char *key, int required, const char **out, PjBad *bad)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    *out = "";
    if (cJSON_IsString(v) && v->valuestring) {
        size_t n = strlen(v->valuestring), off = textenc_utf8_bad(v->valuestring, n);
        if (off < n) { /* cJSON passes any byte through: the store keeps UTF-8 only */
            bad->field = key;
            textenc_bad_reason(v->valuestring, off, &bad->why);
            return -1;
        }
        *out = v->valuestring;
        return 0;
    }
    if ((!v || cJSON_IsNull(v)) && !required)
        return 0;
    return pj_bad(bad, key, v ? "not a string" : "missing");
}

static int pj_time(const CpReadCtx *rc, const cJSON *o, const char *key, int64_t *out,
                   PjBad *bad)
{
    const char *s;
    if (pj_string(o, key, 0, &s, bad) < 0)
        return -1;
    if (fields_time(s, strlen(s), rc->tz, out, &bad->why) < 0) {
        bad->field = key;
        return -1;
    }
    return 0;
}

/* GPUs and nodes from detail: [{ip, gpus: [...]}, ...]. */
static int pj_detail(const cJSON *detail, CpJobRec *r, PjBad *bad)
{
    if (!detail || cJSON_IsNull(detail))
        return 0;
    if (!cJSON_IsArray(detail))
        return pj_bad(bad, "detail", "not a list");
    int nodes = 0, gpus = 0;
    const cJSON *node;
    cJSON_ArrayForEach(node, detail) {
        const cJSON *g = cJSON_IsObject(node) ? cJSON_GetObjectItemCaseSensitive(node, "gpus")
                                              : NULL;
        if (!cJSON_IsObject(node) || (g && !cJSON_IsArray(g)))
            return pj_bad(bad, "detail", "not a list of {ip, gpus: [...]}");
        nodes++;
        gpus += cJSON_GetArraySize(g);
    }
    r->nnodes = nodes;
    r->gpus = r->req_gpus = gpus;
    return 0;
}

/* start, end and detail: from the job, or from its last attempt. */
static int pj_run(const CpReadCtx *rc, const cJSON *job, CpJobRec *r, PjBad *bad)
{
    const cJSON *run = job;
    const cJSON *attempts = cJSON_GetObjectItemCaseSensitive(job, "attempts");
    if (cJSON_IsArray(attempts) && cJSON_GetArraySize(attempts) > 0 &&
        !cJSON_GetObjectItemCaseSensitive(job, "start_time")) {
        run = cJSON_GetArrayItem(attempts, cJSON_GetArraySize(attempts) - 1);
        if (!cJSON_IsObject(run))
            return pj_bad(bad, "attempts", "not a list of objects");
    }
    if (pj_time(rc, run, "start_time", &r->start, bad) < 0 ||
        pj_time(rc, run, "end_time", &r->end, bad) < 0 ||
        pj_detail(cJSON_GetObjectItemCaseSensitive(run, "detail"), r, bad) < 0)
        return -1;
    if (trace_end_before_start(r, &bad->why)) { /* refused, not kept with no length (#29) */
        bad->field = "end_time";
        return -1;
    }
    if (r->start != CP_TIME_NONE && r->end != CP_TIME_NONE && r->end >= r->start)
        r->elapsed = r->end - r->start;
    return 0;
}

static int pj_record(PhillyJson *pj, const cJSON *job, CpJobRec *r, PjBad *bad)
{
    if (!cJSON_IsObject(job))
        return pj_bad(bad, NULL, "not a job object");
    if (pj_string(job, "jobid", 1, &r->job_id, bad) < 0 ||
        pj_string(job, "status", 1, &r->state_raw, bad) < 0 ||
        pj_string(job, "user", 0, &r->user, bad) < 0 ||
        pj_string(job, "vc", 0, &r->account, bad) < 0 ||
        pj_time(pj->rc, job, "submitted_time", &r->submit, bad) < 0 ||
        pj_run(pj->rc, job, r, bad) < 0)
        return -1;
    r->job_raw = pj->row;
    r->state = trace_state(r->state_raw, strlen(r->state_raw));
    return 0;
}

static int pj_each(void *ctx, cJSON *elem, int64_t line, CpErr *err)
{
    PhillyJson *pj = ctx;
    pj->row++;
    trace_count_row(pj->rc, pj->bytes);
    CpJobRec r;
    PjBad bad = {NULL, {""}};
    jobrec_clear(&r);
    r.cluster = TRACE_PHILLY;
    if (pj_record(pj, elem, &r, &bad) < 0)
        return reader_reject(pj->rc, err, line, bad.field, bad.why.msg);
    return trace_emit(pj->rc, &r, err);
}

/* An element that is not even JSON: rejected, counted as a row. */
static int pj_bad_elem(void *ctx, int64_t line, const char *reason, CpErr *err)
{
    PhillyJson *pj = ctx;
    pj->row++;
    trace_count_row(pj->rc, pj->bytes);
    return reader_reject(pj->rc, err, line, NULL, reason);
}

static void pj_progress(void *ctx, int64_t bytes_read)
{
    PhillyJson *pj = ctx;
    pj->bytes = bytes_read;
}

int trace_philly_json_read(FILE *f, CpReadCtx *ctx, CpErr *err)
{
    PhillyJson pj = {ctx, 0, 0};
    JsonStreamOpts o = {
        .key = NULL,
        .max_elem_bytes = PJ_MAX_ELEM,
        .name = trace_path(ctx),
        .each = pj_each,
        .bad = pj_bad_elem,
        .progress = pj_progress,
        .ctx = &pj,
    };
    int rc = json_stream_run(f, &o, err);
    trace_progress_end(ctx, pj.bytes);
    return rc < 0 ? -1 : 0;
}
