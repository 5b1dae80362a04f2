#include "data/ingest/sacct_json.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "data/ingest/fields.h"
#include "data/ingest/json_stream.h"
#include "data/ingest/textenc.h"

#define SJ_NO_VAL32 4294967294.0   /* Slurm's NO_VAL in plain-int versions */
#define SJ_INFINITE32 4294967295.0 /* Slurm's INFINITE */
#define SJ_MAX_EXACT 9007199254740992.0 /* 2^53: larger ids are not exact in a double */
#define SJ_MIB (1024.0 * 1024.0)
#define SJ_GIB (1024.0 * 1024.0 * 1024.0)

/* What a number field holds: absent (missing, null, set=false), a value,
 * or infinite. */
typedef enum SjKind { SJ_NONE = 0, SJ_SET, SJ_INF } SjKind;

/* The whole read. */
typedef struct SjRead {
    CpReadCtx *rc;
    char version[24]; /* "22.05", "" until meta is seen */
} SjRead;

/* The job element being converted. */
typedef struct SjJob {
    CpJobRec rec;
    const char *bad_field; /* first field of the wrong type, NULL if none */
    char bad_why[CP_ERR_MAX];
    char id[64];           /* the displayed job id */
    char state[128];       /* a state list joined with ',' */
} SjJob;

/* One TRES list, summed up. */
typedef struct SjTres {
    double untyped, typed; /* GPU counts, -1 absent */
    char gpu_type[CP_GPU_TYPE_MAX];
    double mem, cpu, node; /* -1 absent */
} SjTres;

/* Remember the first field of the wrong type; the job is then rejected. */
static void sj_wrong(SjJob *j, const char *field, const char *why)
{
    if (j->bad_field)
        return;
    j->bad_field = field;
    snprintf(j->bad_why, sizeof j->bad_why, "%s", why);
}

static const cJSON *sj_get(const cJSON *o, const char *key)
{
    return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

static int sj_absent(const cJSON *v)
{
    return v == NULL || cJSON_IsNull(v);
}

/* A member that must be an object when present; NULL when absent. */
static const cJSON *sj_obj(SjJob *j, const cJSON *o, const char *key, const char *field)
{
    const cJSON *v = sj_get(o, key);
    if (sj_absent(v))
        return NULL;
    if (!cJSON_IsObject(v)) {
        sj_wrong(j, field, "not an object");
        return NULL;
    }
    return v;
}

/* s when it is UTF-8; else the job is rejected naming field and "". */
static const char *sj_utf8(SjJob *j, const char *s, const char *field)
{
    size_t n = strlen(s), off = textenc_utf8_bad(s, n);
    if (off == n)
        return s;
    CpErr why;
    textenc_bad_reason(s, off, &why);
    sj_wrong(j, field, why.msg);
    return "";
}

/* A string member, UTF-8; "" when absent or null. */
static const char *sj_text(SjJob *j, const cJSON *o, const char *key, const char *field)
{
    const cJSON *v = sj_get(o, key);
    if (sj_absent(v))
        return "";
    if (!cJSON_IsString(v)) {
        sj_wrong(j, field, "not a string");
        return "";
    }
    return sj_utf8(j, v->valuestring, field);
}

/* A plain number, or {"set":..,"infinite":..,"number":..} (23.02+). */
static SjKind sj_number(SjJob *j, const cJSON *v, const char *field, double *out)
{
    if (sj_absent(v))
        return SJ_NONE;
    if (cJSON_IsObject(v)) {
        if (cJSON_IsTrue(sj_get(v, "infinite")))
            return SJ_INF;
        if (cJSON_IsFalse(sj_get(v, "set")))
            return SJ_NONE;
        v = sj_get(v, "number");
        if (sj_absent(v))
            return SJ_NONE;
    }
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) {
        sj_wrong(j, field, "not a number");
        return SJ_NONE;
    }
    *out = v->valuedouble;
    return SJ_SET;
}

/* An epoch time; 0 (Slurm's "not yet": end of a running job) is unknown. */
static int64_t sj_time(SjJob *j, const cJSON *t, const char *key, const char *field)
{
    double v;
    if (sj_number(j, sj_get(t, key), field, &v) != SJ_SET || v <= 0 || v >= SJ_MAX_EXACT)
        return CP_TIME_NONE;
    return (int64_t)v;
}

/* {"seconds":..,"microseconds":..} -> seconds, -1 when absent. */
static double sj_cpu_time(SjJob *j, const cJSON *t, const char *field)
{
    const cJSON *tot = sj_obj(j, t, "total", field);
    double s = 0, us = 0;
    if (!tot)
        return -1;
    if (sj_number(j, sj_get(tot, "seconds"), field, &s) != SJ_SET)
        return -1;
    sj_number(j, sj_get(tot, "microseconds"), field, &us);
    return s + us / 1e6;
}

static int sj_is_gpu_name(const char *name)
{
    return strcmp(name, "gpu") == 0 || (strncmp(name, "gpu:", 4) == 0 && name[4] != '\0');
}

/* One {type,name,count} entry of a job's TRES list. */
static void sj_tres_entry(SjJob *j, const cJSON *e, const char *field, SjTres *t)
{
    double count;
    const char *type = sj_text(j, e, "type", field);
    const char *name = sj_text(j, e, "name", field);
    if (sj_number(j, sj_get(e, "count"), field, &count) != SJ_SET)
        return;
    int gpu = strcmp(type, "gres") == 0 && sj_is_gpu_name(name);
    if (count < 0 && gpu) { /* no sentinel: a GPU count is never negative (#29) */
        char why[80];
        snprintf(why, sizeof why, "negative GPU count %g", count);
        sj_wrong(j, field, why);
        return;
    }
    if (count < 0)
        return; /* energy's -2 sentinel, unset counts */
    if (gpu)
        fields_gpu_entry(name, strlen(name), count, &t->untyped, &t->typed, t->gpu_type);
    else if (strcmp(type, "mem") == 0)
        t->mem = count;
    else if (strcmp(type, "cpu") == 0)
        t->cpu = count;
    else if (strcmp(type, "node") == 0)
        t->node = count;
}

static void sj_tres_list(SjJob *j, const cJSON *tres, const char *key, const char *field,
                         SjTres *t)
{
    memset(t, 0, sizeof *t);
    t->untyped = t->typed = t->mem = t->cpu = t->node = -1;
    const cJSON *list = sj_get(tres, key), *e;
    if (sj_absent(list))
        return;
    if (!cJSON_IsArray(list)) {
        sj_wrong(j, field, "not a list");
        return;
    }
    cJSON_ArrayForEach(e, list) {
        if (!cJSON_IsObject(e)) {
            sj_wrong(j, field, "an entry is not an object");
            return;
        }
        sj_tres_entry(j, e, field, t);
    }
}

/* GPUs of a TRES list: the untyped total, else the typed sum; -1 if none. */
static double sj_tres_gpus(const SjTres *t)
{
    return t->untyped >= 0 ? t->untyped : t->typed;
}

/* job_id: a positive integer, or the element is rejected. */
static const char *sj_job_id(const cJSON *job, int64_t *out)
{
    const cJSON *v = sj_get(job, "job_id");
    if (sj_absent(v))
        return "missing";
    if (!cJSON_IsNumber(v))
        return cJSON_IsString(v) ? "a string, not a number" : "not a number";
    double d = v->valuedouble;
    if (!(d >= 1 && d < SJ_MAX_EXACT) || floor(d) != d)
        return "not a positive integer";
    *out = (int64_t)d;
    return NULL;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Slurm 22.05's --json gives a pending array's tasks as a hex bitmap
 * ("0x1C": tasks 2, 3 and 4); sacct's text shows them as "2-4". Writes the
 * ranges ("2-4", "1,3-5") into out (cut short with no partial range when
 * out is full); returns 0, or -1 when hex is not "0x" and hex digits. */
static int bitmap_ranges(const char *hex, char *out, size_t outn)
{
    if (hex[0] != '0' || (hex[1] != 'x' && hex[1] != 'X') || !hex[2])
        return -1;
    size_t nd = strlen(hex + 2), used = 0;
    long run_start = -1;
    out[0] = '\0';
    for (size_t d = 0; d <= nd; d++) {
        int v = d < nd ? hex_digit(hex[2 + nd - 1 - d]) : 0; /* lowest digit last */
        if (v < 0)
            return -1;
        for (int b = 0; b < 4; b++) {
            long task = (long)(d * 4 + (size_t)b);
            int set = d < nd && ((v >> b) & 1);
            if (set && run_start < 0)
                run_start = task;
            if (!set && run_start >= 0) {
                char piece[48];
                int n = task - 1 == run_start
                            ? snprintf(piece, sizeof piece, "%s%ld", used ? "," : "", run_start)
                            : snprintf(piece, sizeof piece, "%s%ld-%ld", used ? "," : "",
                                       run_start, task - 1);
                if (n < 0 || used + (size_t)n >= outn)
                    return 0;
                memcpy(out + used, piece, (size_t)n + 1);
                used += (size_t)n;
                run_start = -1;
            }
        }
    }
    return 0;
}

/* Array parent and task, het offset, and the job id as sacct displays it. */
static void sj_ids(SjJob *j, const cJSON *job)
{
    CpJobRec *r = &j->rec;
    const cJSON *a = sj_obj(j, job, "array", "array");
    const cJSON *het = sj_obj(j, job, "het", "het");
    double parent = 0, task = 0, het_id = 0, het_off = 0;
    SjKind pk = sj_number(j, sj_get(a, "job_id"), "array.job_id", &parent);
    SjKind tk = sj_number(j, sj_get(a, "task_id"), "array.task_id", &task);
    const char *range = sj_text(j, a, "task", "array.task");
    int is_parent = pk == SJ_SET && parent >= 1 && parent < SJ_MAX_EXACT;
    if (is_parent && tk == SJ_SET && task >= 0 && task <= INT32_MAX) {
        r->array_job = (int64_t)parent;
        r->array_task = (int32_t)task;
        snprintf(j->id, sizeof j->id, "%lld_%d", (long long)r->array_job, (int)r->array_task);
    } else if (is_parent && range[0]) { /* a pending range of tasks */
        r->array_job = (int64_t)parent;
        char ranges[41];
        if (bitmap_ranges(range, ranges, sizeof ranges) == 0 && ranges[0])
            range = ranges;
        snprintf(j->id, sizeof j->id, range[0] == '[' ? "%lld_%.40s" : "%lld_[%.40s]",
                 (long long)r->array_job, range);
    } else if (sj_number(j, sj_get(het, "job_id"), "het.job_id", &het_id) == SJ_SET &&
               het_id >= 1 && het_id < SJ_MAX_EXACT &&
               sj_number(j, sj_get(het, "job_offset"), "het.job_offset", &het_off) == SJ_SET) {
        snprintf(j->id, sizeof j->id, "%lld+%lld", (long long)het_id, (long long)het_off);
    } else {
        snprintf(j->id, sizeof j->id, "%lld", (long long)r->job_raw);
    }
    r->job_id = j->id;
}

/* state.current: "FAILED" (up to 23.02) or ["CANCELLED", ...] (23.11+). */
static void sj_state(SjJob *j, const cJSON *job)
{
    const cJSON *st = sj_get(job, "state"), *cur, *e;
    cur = cJSON_IsString(st) ? st : sj_get(sj_obj(j, job, "state", "state"), "current");
    if (cJSON_IsString(cur)) {
        j->rec.state_raw = sj_utf8(j, cur->valuestring, "state.current");
    } else if (cJSON_IsArray(cur)) {
        size_t n = 0;
        cJSON_ArrayForEach(e, cur) {
            if (!cJSON_IsString(e)) {
                sj_wrong(j, "state.current", "a list entry is not a string");
                return;
            }
            if (sj_utf8(j, e->valuestring, "state.current") != e->valuestring)
                return;
            int k = snprintf(j->state + n, sizeof j->state - n, "%s%s", n ? "," : "",
                             e->valuestring);
            n = k < 0 || (size_t)k >= sizeof j->state - n ? sizeof j->state - 1 : n + (size_t)k;
        }
        j->rec.state_raw = j->state;
    } else if (!sj_absent(cur)) {
        sj_wrong(j, "state.current", "not a string or a list");
        return;
    }
    const char *s = j->rec.state_raw;
    j->rec.state = fields_state(s, strcspn(s, ","));
}

/* exit_code: {status, return_code, signal{signal_id | id}}; "code:signal"
 * as sacct shows it, a missing half being 0, both missing unknown. */
static void sj_exit(SjJob *j, const cJSON *job)
{
    const cJSON *e = sj_get(job, "exit_code");
    double code = 0, sig = 0;
    SjKind ck, sk;
    if (cJSON_IsNumber(e)) {
        ck = sj_number(j, e, "exit_code", &code);
        sk = SJ_NONE;
    } else {
        e = sj_obj(j, job, "exit_code", "exit_code");
        const cJSON *s = sj_obj(j, e, "signal", "exit_code.signal");
        const cJSON *id = sj_get(s, "signal_id") ? sj_get(s, "signal_id") : sj_get(s, "id");
        ck = sj_number(j, sj_get(e, "return_code"), "exit_code.return_code", &code);
        sk = sj_number(j, id, "exit_code.signal", &sig);
    }
    if (ck != SJ_SET && sk != SJ_SET)
        return;
    if ((ck == SJ_SET && !(code >= INT_MIN && code <= INT_MAX)) ||
        (sk == SJ_SET && !(sig >= INT_MIN && sig <= INT_MAX))) {
        sj_wrong(j, "exit_code", "out of range");
        return;
    }
    j->rec.exit_code = ck == SJ_SET ? (int)code : 0;
    j->rec.exit_signal = sk == SJ_SET ? (int)sig : 0;
}

/* time.*: epoch seconds, elapsed seconds, limit minutes. */
static void sj_times(SjJob *j, const cJSON *job)
{
    CpJobRec *r = &j->rec;
    const cJSON *t = sj_obj(j, job, "time", "time");
    double v;
    r->submit = sj_time(j, t, "submission", "time.submission");
    r->eligible = sj_time(j, t, "eligible", "time.eligible");
    r->start = sj_time(j, t, "start", "time.start");
    r->end = sj_time(j, t, "end", "time.end");
    if (sj_number(j, sj_get(t, "elapsed"), "time.elapsed", &v) == SJ_SET && v >= 0 &&
        v < SJ_MAX_EXACT)
        r->elapsed = (int64_t)v;
    SjKind k = sj_number(j, sj_get(t, "limit"), "time.limit", &v);
    if (k == SJ_INF || (k == SJ_SET && v == SJ_INFINITE32))
        r->timelimit = CP_DUR_UNLIMITED;
    else if (k == SJ_SET && v >= 0 && v < SJ_NO_VAL32)
        r->timelimit = (int64_t)v * 60;
    double total = sj_cpu_time(j, t, "time.total");
    if (total > 0)
        r->total_cpu_s = total;
}

/* Peaks of one step: steps[].tres.requested.max, counts in bytes. */
static void sj_step_max(SjJob *j, const cJSON *step)
{
    CpJobRec *r = &j->rec;
    const cJSON *req = sj_get(sj_get(step, "tres"), "requested");
    const cJSON *max = sj_get(req, "max"), *e;
    double count;
    if (sj_absent(max))
        return;
    if (!cJSON_IsArray(max)) {
        sj_wrong(j, "steps.tres.requested.max", "not a list");
        return;
    }
    cJSON_ArrayForEach(e, max) {
        const char *type = sj_text(j, e, "type", "steps.tres.requested.max");
        const char *name = sj_text(j, e, "name", "steps.tres.requested.max");
        if (sj_number(j, sj_get(e, "count"), "steps.tres.requested.max", &count) != SJ_SET ||
            count < 0)
            continue;
        if (strcmp(type, "mem") == 0 && count / SJ_MIB > r->max_rss_mib)
            r->max_rss_mib = count / SJ_MIB;
        else if (strcmp(type, "gres") == 0 && strcmp(name, "gpumem") == 0 &&
                 count / SJ_GIB > r->gpu_mem_gib)
            r->gpu_mem_gib = count / SJ_GIB;
        else if (strcmp(type, "gres") == 0 && strcmp(name, "gpuutil") == 0 &&
                 count > r->gpu_util)
            r->gpu_util = count;
    }
}

/* Fold the steps: peaks, and CPU time when the job row has none. */
static void sj_steps(SjJob *j, const cJSON *job)
{
    const cJSON *steps = sj_get(job, "steps"), *st;
    double cpu = 0;
    int n = 0;
    if (sj_absent(steps))
        return;
    if (!cJSON_IsArray(steps)) {
        sj_wrong(j, "steps", "not a list");
        return;
    }
    cJSON_ArrayForEach(st, steps) {
        if (!cJSON_IsObject(st)) {
            sj_wrong(j, "steps", "a step is not an object");
            return;
        }
        sj_step_max(j, st);
        double c = sj_cpu_time(j, sj_obj(j, st, "time", "steps.time"), "steps.time.total");
        cpu += c > 0 ? c : 0;
        n++;
    }
    if (n > 0 && j->rec.total_cpu_s < 0)
        j->rec.total_cpu_s = cpu;
}

/* required.*: the memory request when the TRES lists lack it. */
static double sj_required_mem(SjJob *j, const cJSON *job)
{
    const cJSON *req = sj_obj(j, job, "required", "required");
    double v, nodes = j->rec.nnodes > 0 ? j->rec.nnodes : 1, cpus = j->rec.ncpus;
    if (sj_number(j, sj_get(req, "memory_per_node"), "required.memory_per_node", &v) == SJ_SET)
        return v * nodes;
    if (sj_number(j, sj_get(req, "memory_per_cpu"), "required.memory_per_cpu", &v) == SJ_SET &&
        cpus > 0)
        return v * cpus;
    if (sj_number(j, sj_get(req, "memory"), "required.memory", &v) == SJ_SET && v < SJ_NO_VAL32)
        return v * nodes;
    return -1;
}

/* Nodes, CPUs, memory and GPUs from the TRES lists (allocated, else requested). */
static void sj_resources(SjJob *j, const cJSON *job)
{
    CpJobRec *r = &j->rec;
    const cJSON *tres = sj_obj(j, job, "tres", "tres");
    SjTres alloc, req;
    double v;
    sj_tres_list(j, tres, "allocated", "tres.allocated", &alloc);
    sj_tres_list(j, tres, "requested", "tres.requested", &req);
    double nodes = alloc.node > 0 ? alloc.node : req.node, cpus = alloc.cpu > 0 ? alloc.cpu : req.cpu;
    if (sj_number(j, sj_get(job, "allocation_nodes"), "allocation_nodes", &v) == SJ_SET && v > 0 &&
        v <= INT32_MAX)
        r->nnodes = (int32_t)v;
    else if (nodes > 0 && nodes <= INT32_MAX)
        r->nnodes = (int32_t)nodes;
    if (cpus > 0 && cpus <= INT32_MAX)
        r->ncpus = (int32_t)cpus;
    else if (sj_number(j, sj_get(sj_get(job, "required"), "CPUs"), "required.CPUs", &v) ==
                 SJ_SET && v > 0 && v <= INT32_MAX)
        r->ncpus = (int32_t)v;
    r->req_mem_mib = req.mem >= 0 ? req.mem : alloc.mem >= 0 ? alloc.mem : sj_required_mem(j, job);
    double ag = sj_tres_gpus(&alloc), rg = sj_tres_gpus(&req);
    r->req_gpus = rg;
    r->gpus = ag >= 0 ? ag : rg >= 0 ? rg : 0;
    const char *type = alloc.gpu_type[0] ? alloc.gpu_type : req.gpu_type;
    memcpy(r->gpu_type, type, strlen(type) + 1);
}

/* Every field of a job element into j->rec (strings borrowed from job). */
static void sj_fill(SjJob *j, const cJSON *job)
{
    CpJobRec *r = &j->rec;
    r->cluster = sj_text(j, job, "cluster", "cluster");
    if (!r->cluster[0])
        r->cluster = sj_text(j, sj_obj(j, job, "association", "association"), "cluster",
                             "association.cluster");
    r->user = sj_text(j, job, "user", "user");
    r->account = sj_text(j, job, "account", "account");
    r->partition = sj_text(j, job, "partition", "partition");
    r->qos = sj_text(j, job, "qos", "qos");
    r->job_name = sj_text(j, job, "name", "name");
    r->nodelist = sj_text(j, job, "nodes", "nodes");
    sj_ids(j, job);
    sj_state(j, job);
    sj_exit(j, job);
    sj_times(j, job);
    sj_resources(j, job);
    sj_steps(j, job);
}

/* The field named when jobrec_check refuses a member. */
static const char *sj_member_field(CpRecMember m)
{
    static const char *const names[CP_M_COUNT] = {
        [CP_M_END] = "time.end",
        [CP_M_ELAPSED] = "time.elapsed",
        [CP_M_TIMELIMIT] = "time.limit",
        [CP_M_GPUS] = "tres.allocated",
        [CP_M_REQ_GPUS] = "tres.requested",
        [CP_M_REQ_MEM] = "tres.requested",
        [CP_M_MAX_RSS] = "steps.tres.requested.max",
        [CP_M_GPU_MEM] = "steps.tres.requested.max",
        [CP_M_GPU_UTIL] = "steps.tres.requested.max",
        [CP_M_CPU_TIME] = "time.total",
    };
    return (unsigned)m < CP_M_COUNT && names[m] ? names[m] : "job";
}

static int sj_job(void *vctx, cJSON *job, int64_t line, CpErr *err)
{
    SjRead *rd = vctx;
    CpReadCtx *ctx = rd->rc;
    SjJob j;
    ctx->rows_read++;
    if (!cJSON_IsObject(job))
        return reader_reject(ctx, err, line, NULL, "job element is not a JSON object");
    memset(&j, 0, sizeof j);
    jobrec_clear(&j.rec);
    const char *why = sj_job_id(job, &j.rec.job_raw);
    if (why)
        return reader_reject(ctx, err, line, "job_id", why);
    sj_fill(&j, job);
    if (j.bad_field)
        return reader_reject(ctx, err, line, j.bad_field, j.bad_why);
    CpRecMember m;
    CpErr bad;
    if (jobrec_check(&j.rec, &m, &bad) < 0)
        return reader_reject(ctx, err, line, sj_member_field(m), bad.msg);
    return ctx->sink.job(ctx->sink.ctx, &j.rec, err);
}

static int sj_bad(void *vctx, int64_t line, const char *reason, CpErr *err)
{
    SjRead *rd = vctx;
    rd->rc->rows_read++;
    return reader_reject(rd->rc, err, line, NULL, reason);
}

/* A version part: 22 (up to 23.x) or "22" (25.x); -1 if neither. */
static int sj_version_part(const cJSON *v)
{
    if (cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble < 1000)
        return (int)v->valuedouble;
    if (cJSON_IsString(v) && v->valuestring[0] && strlen(v->valuestring) < 4 &&
        strspn(v->valuestring, "0123456789") == strlen(v->valuestring))
        return (int)strtol(v->valuestring, NULL, 10);
    return -1;
}

/* meta.Slurm.version (21.08-23.02) or meta.slurm.version (23.11+). */
static int sj_member(void *vctx, const char *key, cJSON *value, int64_t line, CpErr *err)
{
    SjRead *rd = vctx;
    (void)line;
    (void)err;
    if (strcmp(key, "meta") != 0)
        return 0;
    const cJSON *slurm = sj_get(value, "slurm") ? sj_get(value, "slurm") : sj_get(value, "Slurm");
    const cJSON *ver = sj_get(slurm, "version");
    int major = sj_version_part(sj_get(ver, "major"));
    int minor = sj_version_part(sj_get(ver, "minor"));
    if (major >= 0 && minor >= 0)
        snprintf(rd->version, sizeof rd->version, "%d.%02d", major, minor);
    return 0;
}

static void sj_progress(void *vctx, int64_t bytes)
{
    SjRead *rd = vctx;
    if (rd->rc->progress)
        rd->rc->progress(rd->rc->progress_ctx, bytes, rd->rc->rows_read);
}

int sacct_json_read(FILE *f, CpReadCtx *ctx, char *format_out, size_t format_sz, CpErr *err)
{
    SjRead rd = {.rc = ctx};
    JsonStreamOpts o = {
        .key = "jobs",
        .max_elem_bytes = SACCT_JSON_MAX_JOB_BYTES,
        .name = strcmp(ctx->path, "-") == 0 ? "<stdin>" : ctx->path,
        .each = sj_job,
        .member = sj_member,
        .bad = sj_bad,
        .progress = sj_progress,
        .ctx = &rd,
    };
    int rc = json_stream_run(f, &o, err);
    if (format_out && format_sz > 0)
        snprintf(format_out, format_sz, "sacct-json%s%s", rd.version[0] ? " " : "", rd.version);
    return rc < 0 ? -1 : 0;
}
