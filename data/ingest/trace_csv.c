/* trace_csv: the CSV shapes of the public traces, read through csvin
 * (libcsv, streamed in chunks):
 *
 *   helios        job_id,user,vc,[jobname,]gpu_num,cpu_num,node_num,state,
 *                 submit_time,start_time,end_time,duration,queue
 *                 (SenseTime cluster_log.csv; header named, or absent with
 *                 13 or 12 fields in that order);
 *   philly-csv    job_id,user,vc,gpu_num,node_num,state,submit_time,...
 *                 (the Philly job list flattened, Helios-like columns);
 *   titansched    timestamp,duration,num_gpus,gpu_time,cluster (Philly
 *                 per-job table with no user and no state);
 *   pai job/task  Alibaba PAI 2020 pai_job_table (6 fields) and
 *                 pai_task_table (10 fields), header optional;
 *   alibaba pods  cluster-trace-gpu-v2023 pod lists: name,cpu_milli,
 *                 memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,
 *                 creation_time,deletion_time,scheduled_time;
 *   alibaba inst. cluster-trace-gpu-v2025 inference instances:
 *                 instance_sn,role,app_name,cpu_request,...,gpu_request,...,
 *                 memory_request (GiB),...,creation_time,scheduled_time,
 *                 deletion_time, the times empty (or NaN) when outside the
 *                 trace.
 *
 * Columns are found by header name wherever the header allows it. Times
 * "YYYY-MM-DD HH:MM:SS" carry no zone: local to ctx->tz (UTC when NULL), as
 * fields_time reads them. PAI times are seconds (already shifted by the
 * trace's publisher): no zone is applied. */
#include "data/ingest/trace_rec.h"

#include <math.h>
#include <string.h>

#include "data/ingest/csvin.h"
#include "data/ingest/fields.h"

#define TC_MAX_COLS 16
#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

/* Why a row was refused: the field at fault and the reason. */
typedef struct TcBad {
    const char *field;
    CpErr why;
} TcBad;

typedef struct TraceCsv TraceCsv;

/* One CSV shape: its columns (required ones first) and its row builder,
 * which fills r from the fields or fills bad and returns -1. */
typedef struct TcShape {
    const char *format;
    const char *cluster;
    const char *const *cols;
    size_t ncols, nrequired;
    int (*row)(TraceCsv *t, const CsvinRec *rec, CpJobRec *r, TcBad *bad);
} TcShape;

enum { IDS_UNDECIDED, IDS_JOB_NUMBERS, IDS_ROW_NUMBERS };

struct TraceCsv {
    CpReadCtx *rc;
    const char *kind;
    const TcShape *shape; /* NULL until the first record is seen */
    int idx[TC_MAX_COLS]; /* field index of each of shape->cols, -1 absent */
    size_t nfields;       /* fields every data row must have */
    int ids;              /* IDS_*: where job_raw comes from */
    int64_t row;          /* data rows so far: the 1-based row number */
    int64_t bytes;        /* input consumed so far, for progress */
    int64_t origin;       /* epoch of second 0 of a relative-time trace */
    char idbuf[24];       /* job_id text when the trace has none */
};

/* ---- columns ---- */

/* Helios and the flattened Philly list share these names. */
enum { H_JOB_ID, H_USER, H_VC, H_GPU_NUM, H_STATE, H_SUBMIT, H_START, H_END, H_JOBNAME,
       H_CPU_NUM, H_NODE_NUM, H_DURATION, H_QUEUE, H_N };
static const char *const helios_cols[H_N] = {
    "job_id", "user", "vc", "gpu_num", "state", "submit_time", "start_time", "end_time",
    "jobname|job_name", "cpu_num", "node_num", "duration", "queue",
};
/* Headerless Helios files: the published order, with or without jobname. */
static const char *const helios_layout13[] = {
    "job_id", "user", "vc", "jobname|job_name", "gpu_num", "cpu_num", "node_num", "state",
    "submit_time", "start_time", "end_time", "duration", "queue",
};
static const char *const helios_layout12[] = {
    "job_id", "user", "vc", "gpu_num", "cpu_num", "node_num", "state",
    "submit_time", "start_time", "end_time", "duration", "queue",
};

enum { T_TIMESTAMP, T_DURATION, T_NUM_GPUS, T_CLUSTER, T_GPU_TIME, T_N };
static const char *const titan_cols[T_N] = {"timestamp", "duration", "num_gpus", "cluster",
                                            "gpu_time"};

/* PAI: the published order, which headerless files follow. */
enum { PJ_JOB_NAME, PJ_INST_ID, PJ_USER, PJ_STATUS, PJ_START, PJ_END, PJ_N };
static const char *const pai_job_cols[PJ_N] = {"job_name", "inst_id", "user",
                                               "status", "start_time", "end_time"};
enum { PT_JOB_NAME, PT_TASK_NAME, PT_INST_NUM, PT_STATUS, PT_START, PT_END, PT_PLAN_CPU,
       PT_PLAN_MEM, PT_PLAN_GPU, PT_GPU_TYPE, PT_N };
static const char *const pai_task_cols[PT_N] = {
    "job_name", "task_name", "inst_num", "status", "start_time",
    "end_time", "plan_cpu", "plan_mem", "plan_gpu", "gpu_type",
};

/* Alibaba GPU-sharing pods (v2023). */
enum { AP_NAME, AP_NUM_GPU, AP_GPU_MILLI, AP_CREATE, AP_DELETE, AP_SCHED, AP_QOS, AP_PHASE,
       AP_CPU, AP_MEM, AP_SPEC, AP_N };
static const char *const pod_cols[AP_N] = {
    "name", "num_gpu", "gpu_milli", "creation_time", "deletion_time", "scheduled_time",
    "qos", "pod_phase", "cpu_milli", "memory_mib", "gpu_spec",
};
/* Alibaba inference instances (v2025). */
enum { AI_SN, AI_GPU, AI_CREATE, AI_SCHED, AI_DELETE, AI_ROLE, AI_APP, AI_CPU, AI_MEM, AI_N };
static const char *const inst_cols[AI_N] = {
    "instance_sn", "gpu_request", "creation_time", "scheduled_time", "deletion_time",
    "role", "app_name", "cpu_request", "memory_request",
};

/* Field c of shape->cols in rec ("" when the file lacks the column). */
static const char *fld(const TraceCsv *t, const CsvinRec *rec, int c, size_t *n)
{
    int i = t->idx[c];
    if (i < 0) {
        *n = 0;
        return "";
    }
    *n = rec->len[i];
    return rec->f[i];
}

/* Name the column at fault (only columns without aliases are parsed). */
static int bad_field(TcBad *bad, const char *col)
{
    bad->field = col;
    return -1;
}

/* Parse helpers: on failure they name the column in bad. */
static int get_count(TraceCsv *t, const CsvinRec *rec, int c, double *out, TcBad *bad)
{
    size_t n;
    const char *s = fld(t, rec, c, &n);
    if (trace_count(s, n, out, &bad->why) < 0)
        return bad_field(bad, t->shape->cols[c]);
    return 0;
}

/* As get_count, but an empty or absent field gives -1 (unknown). */
static int get_count_opt(TraceCsv *t, const CsvinRec *rec, int c, double *out, TcBad *bad)
{
    size_t n;
    fld(t, rec, c, &n);
    if (n == 0) {
        *out = -1;
        return 0;
    }
    return get_count(t, rec, c, out, bad);
}

static int get_time(TraceCsv *t, const CsvinRec *rec, int c, int64_t *out, TcBad *bad)
{
    size_t n;
    const char *s = fld(t, rec, c, &n);
    if (fields_time(s, n, t->rc->tz, out, &bad->why) < 0)
        return bad_field(bad, t->shape->cols[c]);
    return 0;
}

static int get_epoch(TraceCsv *t, const CsvinRec *rec, int c, int64_t *out, TcBad *bad)
{
    size_t n;
    const char *s = fld(t, rec, c, &n);
    if (trace_epoch(s, n, out, &bad->why) < 0)
        return bad_field(bad, t->shape->cols[c]);
    return 0;
}

static int32_t to_i32(double v)
{
    return v >= 0 && v < INT32_MAX ? (int32_t)llround(v) : -1;
}

/* The row number as job_raw, and as the job_id shown. */
static void row_number_id(TraceCsv *t, CpJobRec *r)
{
    r->job_raw = t->row;
    snprintf(t->idbuf, sizeof t->idbuf, "%lld", (long long)t->row);
    r->job_id = t->idbuf;
}

/* ---- Helios and flattened Philly rows ---- */

/* job_raw: the job number when the first data row's job_id is a number
 * (Helios: Slurm ids, in submission order), else the 1-based data row
 * number for the whole file (Philly's "application_<rm start>_<n>" ids). */
static int helios_id(TraceCsv *t, const CsvinRec *rec, CpJobRec *r, TcBad *bad)
{
    size_t n;
    const char *s = fld(t, rec, H_JOB_ID, &n);
    int64_t v;
    int numeric = fields_int(s, n, &v, &bad->why) == 0 && v >= 0;
    if (t->ids == IDS_UNDECIDED)
        t->ids = numeric ? IDS_JOB_NUMBERS : IDS_ROW_NUMBERS;
    r->job_id = s;
    if (t->ids == IDS_ROW_NUMBERS) {
        r->job_raw = t->row;
        return 0;
    }
    if (!numeric) {
        cp_err_set(&bad->why, "bad job number '%.*s'", (int)(n > 64 ? 64 : n), s);
        return bad_field(bad, "job_id");
    }
    r->job_raw = v;
    return 0;
}

static int helios_times(TraceCsv *t, const CsvinRec *rec, CpJobRec *r, TcBad *bad)
{
    double dur;
    if (get_time(t, rec, H_SUBMIT, &r->submit, bad) < 0 ||
        get_time(t, rec, H_START, &r->start, bad) < 0 ||
        get_time(t, rec, H_END, &r->end, bad) < 0 ||
        get_count_opt(t, rec, H_DURATION, &dur, bad) < 0)
        return -1;
    if (dur >= 0)
        r->elapsed = llround(dur);
    else if (r->start != CP_TIME_NONE && r->end != CP_TIME_NONE && r->end >= r->start)
        r->elapsed = r->end - r->start;
    return 0;
}

static int helios_row(TraceCsv *t, const CsvinRec *rec, CpJobRec *r, TcBad *bad)
{
    size_t n;
    double gpus, cpus, nodes;
    if (helios_id(t, rec, r, bad) < 0 || get_count(t, rec, H_GPU_NUM, &gpus, bad) < 0 ||
        get_count_opt(t, rec, H_CPU_NUM, &cpus, bad) < 0 ||
        get_count_opt(t, rec, H_NODE_NUM, &nodes, bad) < 0 || helios_times(t, rec, r, bad) < 0)
        return -1;
    r->user = fld(t, rec, H_USER, &n);
    r->account = fld(t, rec, H_VC, &n);
    r->job_name = fld(t, rec, H_JOBNAME, &n);
    r->state_raw = fld(t, rec, H_STATE, &n);
    r->state = trace_state(r->state_raw, n);
    r->gpus = r->req_gpus = gpus;
    jobrec_set_cpus(r, cpus);
    r->nnodes = to_i32(nodes);
    return 0;
}

/* ---- Philly per-job table (TitanSched): no user, no state ---- */

/* job_raw: the 1-based data row number (the table has no job id).
 * submit = start = timestamp, end = start + duration. */
static int titan_row(TraceCsv *t, const CsvinRec *rec, CpJobRec *r, TcBad *bad)
{
    size_t n;
    double dur, gpus;
    if (get_time(t, rec, T_TIMESTAMP, &r->submit, bad) < 0 ||
        get_count(t, rec, T_DURATION, &dur, bad) < 0 ||
        get_count(t, rec, T_NUM_GPUS, &gpus, bad) < 0)
        return -1;
    if (r->submit == CP_TIME_NONE) {
        cp_err_set(&bad->why, "empty time");
        return bad_field(bad, "timestamp");
    }
    row_number_id(t, r);
    r->start = r->submit;
    r->elapsed = llround(dur);
    r->end = r->start + r->elapsed;
    r->gpus = r->req_gpus = gpus;
    r->account = fld(t, rec, T_CLUSTER, &n); /* the Philly VC */
    r->state = CP_ST_OTHER;
    r->state_raw = "";
    return 0;
}

/* ---- Alibaba PAI 2020 ---- */

/* pai_job_table: job_raw is the 1-based data row number (job_name is a
 * hash). start_time is the submission ("timestamp of job submission
 * time"); the run's start is only in the task table. */
static int pai_job_row(TraceCsv *t, const CsvinRec *rec, CpJobRec *r, TcBad *bad)
{
    size_t n;
    if (get_epoch(t, rec, PJ_START, &r->submit, bad) < 0 ||
        get_epoch(t, rec, PJ_END, &r->end, bad) < 0)
        return -1;
    r->job_raw = t->row;
    r->job_id = r->job_name = fld(t, rec, PJ_JOB_NAME, &n);
    r->user = fld(t, rec, PJ_USER, &n);
    r->state_raw = fld(t, rec, PJ_STATUS, &n);
    r->state = trace_state(r->state_raw, n);
    return 0;
}

static int pai_task_plan(TraceCsv *t, const CsvinRec *rec, CpJobRec *r, TcBad *bad)
{
    double inst, cpu, mem, gpu;
    if (get_count(t, rec, PT_INST_NUM, &inst, bad) < 0 ||
        get_count_opt(t, rec, PT_PLAN_CPU, &cpu, bad) < 0 ||
        get_count_opt(t, rec, PT_PLAN_MEM, &mem, bad) < 0 ||
        get_count_opt(t, rec, PT_PLAN_GPU, &gpu, bad) < 0)
        return -1;
    jobrec_set_cpus(r, cpu >= 0 ? inst * cpu / 100.0 : -1); /* 600 = 6 cores */
    r->req_mem_mib = mem >= 0 ? inst * mem * 1024.0 : -1;  /* GB per instance */
    r->gpus = r->req_gpus = gpu >= 0 ? inst * gpu / 100.0 : 0; /* 100 = one GPU */
    return 0;
}

/* pai_task_table: one record per task. job_raw is the 1-based data row
 * number; job_id the job's hash, job_name the task's role ("worker").
 * The task's launch time is both its start and its submit (the key needs
 * one; the job's submission is in the job table). */
static int pai_task_row(TraceCsv *t, const CsvinRec *rec, CpJobRec *r, TcBad *bad)
{
    size_t n;
    if (get_epoch(t, rec, PT_START, &r->start, bad) < 0 ||
        get_epoch(t, rec, PT_END, &r->end, bad) < 0 || pai_task_plan(t, rec, r, bad) < 0)
        return -1;
    r->job_raw = t->row;
    r->submit = r->start;
    if (r->start != CP_TIME_NONE && r->end != CP_TIME_NONE && r->end >= r->start)
        r->elapsed = r->end - r->start;
    r->job_id = fld(t, rec, PT_JOB_NAME, &n);
    r->job_name = fld(t, rec, PT_TASK_NAME, &n);
    r->state_raw = fld(t, rec, PT_STATUS, &n);
    r->state = trace_state(r->state_raw, n);
    const char *type = fld(t, rec, PT_GPU_TYPE, &n);
    snprintf(r->gpu_type, sizeof r->gpu_type, "%.*s", (int)n, type);
    return 0;
}

/* ---- Alibaba GPU-sharing traces ---- */

/* Seconds from the trace's start ("9992086", "1435629.0"); "" and "NaN"
 * are unknown (before or after the trace). */
static int get_rel_time(TraceCsv *t, const CsvinRec *rec, int c, int64_t *out, TcBad *bad)
{
    size_t n;
    const char *s = fld(t, rec, c, &n);
    if (n == 0 || (n == 3 && (s[0] == 'N' || s[0] == 'n') && (s[1] == 'a' || s[1] == 'A') &&
                   (s[2] == 'N' || s[2] == 'n'))) {
        *out = CP_TIME_NONE;
        return 0;
    }
    if (get_epoch(t, rec, c, out, bad) < 0)
        return -1;
    *out += t->origin;
    return 0;
}

/* job_raw: the number that ends the name ("openb-pod-0042" -> 42,
 * "instance_7185" -> 7185), else the 1-based data row number. */
static void name_number(TraceCsv *t, const char *s, size_t n, CpJobRec *r)
{
    size_t i = n;
    while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
        i--;
    int64_t v;
    r->job_id = s;
    if (i < n && n - i < 18 && fields_int(s + i, n - i, &v, NULL) == 0)
        r->job_raw = v;
    else
        r->job_raw = t->row;
}

static void elapsed_of(CpJobRec *r)
{
    if (r->start != CP_TIME_NONE && r->end != CP_TIME_NONE && r->end >= r->start)
        r->elapsed = r->end - r->start;
}

/* GPUs of a pod: num_gpu whole GPUs, or gpu_milli thousandths of one
 * shared GPU (num_gpu 1, gpu_milli 470: 0.47 GPU). */
static int pod_gpus(TraceCsv *t, const CsvinRec *rec, CpJobRec *r, TcBad *bad)
{
    double num, milli;
    if (get_count(t, rec, AP_NUM_GPU, &num, bad) < 0 ||
        get_count(t, rec, AP_GPU_MILLI, &milli, bad) < 0)
        return -1;
    if (milli > 1000) {
        cp_err_set(&bad->why, "more than 1000 milli-GPU of one GPU (%g)", milli);
        return bad_field(bad, "gpu_milli");
    }
    r->gpus = r->req_gpus = num > 0 && milli > 0 ? num * milli / 1000.0 : num;
    return 0;
}

static int pod_resources(TraceCsv *t, const CsvinRec *rec, CpJobRec *r, TcBad *bad)
{
    double cpu, mem;
    size_t n;
    if (pod_gpus(t, rec, r, bad) < 0 || get_count_opt(t, rec, AP_CPU, &cpu, bad) < 0 ||
        get_count_opt(t, rec, AP_MEM, &mem, bad) < 0)
        return -1;
    jobrec_set_cpus(r, cpu >= 0 ? cpu / 1000.0 : -1); /* milli-cores, kept exact (#29) */
    r->req_mem_mib = mem;
    const char *spec = fld(t, rec, AP_SPEC, &n); /* "V100M16|V100M32": any of these */
    if (n > 0 && !memchr(spec, '|', n))
        snprintf(r->gpu_type, sizeof r->gpu_type, "%.*s", (int)n, spec);
    return 0;
}

/* A pod: its name's number as job_raw, its QoS class as qos, user and
 * account (the trace has no user or team: each class is profiled as one
 * workload), its phase as state; submit = created,
 * start = scheduled (none while Pending), end = deleted (for a Running
 * pod, the trace's end). */
static int pod_row(TraceCsv *t, const CsvinRec *rec, CpJobRec *r, TcBad *bad)
{
    size_t n;
    if (get_rel_time(t, rec, AP_CREATE, &r->submit, bad) < 0 ||
        get_rel_time(t, rec, AP_SCHED, &r->start, bad) < 0 ||
        get_rel_time(t, rec, AP_DELETE, &r->end, bad) < 0 || pod_resources(t, rec, r, bad) < 0)
        return -1;
    const char *name = fld(t, rec, AP_NAME, &n);
    name_number(t, name, n, r);
    r->job_name = name;
    r->qos = r->user = r->account = fld(t, rec, AP_QOS, &n);
    r->state_raw = fld(t, rec, AP_PHASE, &n);
    r->state = trace_state(r->state_raw, n);
    elapsed_of(r);
    return 0;
}

/* An inference instance: app_name as user and account, role (CN, HN) as
 * partition. Created before the trace: submit unknown, and it was running
 * at the trace's start (its start when scheduled_time is empty too).
 * Deleted after the trace: still RUNNING, end unknown; else COMPLETED. */
static int inst_row(TraceCsv *t, const CsvinRec *rec, CpJobRec *r, TcBad *bad)
{
    size_t n;
    double gpus, cpus, mem;
    if (get_rel_time(t, rec, AI_CREATE, &r->submit, bad) < 0 ||
        get_rel_time(t, rec, AI_SCHED, &r->start, bad) < 0 ||
        get_rel_time(t, rec, AI_DELETE, &r->end, bad) < 0 ||
        get_count(t, rec, AI_GPU, &gpus, bad) < 0 ||
        get_count_opt(t, rec, AI_CPU, &cpus, bad) < 0 ||
        get_count_opt(t, rec, AI_MEM, &mem, bad) < 0)
        return -1;
    if (r->start == CP_TIME_NONE && r->submit == CP_TIME_NONE)
        r->start = t->origin;
    const char *sn = fld(t, rec, AI_SN, &n);
    name_number(t, sn, n, r);
    r->user = r->account = fld(t, rec, AI_APP, &n);
    r->partition = r->job_name = fld(t, rec, AI_ROLE, &n);
    r->qos = "LS";
    r->gpus = r->req_gpus = gpus;
    jobrec_set_cpus(r, cpus);
    r->req_mem_mib = mem >= 0 ? mem * 1024.0 : -1; /* GiB */
    r->state = r->end == CP_TIME_NONE ? CP_ST_RUNNING : CP_ST_COMPLETED;
    r->state_raw = r->end == CP_TIME_NONE ? "RUNNING" : "COMPLETED";
    elapsed_of(r);
    return 0;
}

static const TcShape shape_pod = {"trace-alibaba-pod", TRACE_ALIBABA, pod_cols, AP_N, AP_QOS,
                                  pod_row};
static const TcShape shape_inst = {"trace-alibaba-instance", TRACE_ALIBABA, inst_cols, AI_N,
                                   AI_ROLE, inst_row};

static const TcShape shape_helios = {"trace-helios", TRACE_HELIOS, helios_cols, H_N,
                                     H_JOBNAME, helios_row};
static const TcShape shape_philly = {"trace-philly-csv", TRACE_PHILLY, helios_cols, H_N,
                                     H_JOBNAME, helios_row};
static const TcShape shape_titan = {"trace-philly-titansched", TRACE_PHILLY, titan_cols, T_N,
                                    T_GPU_TIME, titan_row};
static const TcShape shape_pai_job = {"trace-pai-job", TRACE_PAI, pai_job_cols, PJ_N, PJ_N,
                                      pai_job_row};
static const TcShape shape_pai_task = {"trace-pai-task", TRACE_PAI, pai_task_cols, PT_N, PT_N,
                                       pai_task_row};

/* ---- telling the shapes apart ---- */

/* The first record is a header: map the shape's columns by name. */
static int use_header(TraceCsv *t, const TcShape *sh, const CsvinRec *hdr, CpErr *err)
{
    t->shape = sh;
    t->nfields = hdr->n;
    return csvin_columns(hdr, trace_path(t->rc), sh->cols, sh->ncols, sh->nrequired, t->idx,
                         err);
}

/* No header: the columns are where layout puts them. Returns 1 (the first
 * record is data). */
static int use_layout(TraceCsv *t, const TcShape *sh, const char *const *layout, size_t n)
{
    t->shape = sh;
    t->nfields = n;
    for (size_t c = 0; c < sh->ncols; c++) {
        t->idx[c] = -1;
        for (size_t i = 0; i < n; i++)
            if (strcmp(sh->cols[c], layout[i]) == 0)
                t->idx[c] = (int)i;
    }
    return 1;
}

static int not_this(TraceCsv *t, const CsvinRec *rec, const char *what, CpErr *err)
{
    return cp_err_set(err, "%s:%lld: not %s (first field '%.40s', %zu fields)",
                      trace_path(t->rc), (long long)rec->line, what, rec->f[0], rec->n);
}

/* Pick the shape from the first record: a header names its columns (in
 * any order, matched case-insensitively; an extra index column is fine).
 * Returns 0 when it was a header,
 * 1 when it is the first data row, -1 with err filled. */
static int detect(TraceCsv *t, const CsvinRec *rec, CpErr *err)
{
    if (strcmp(t->kind, "helios") == 0) {
        if (csvin_has_column(rec, "job_id"))
            return use_header(t, &shape_helios, rec, err);
        if (rec->n == NCOLS(helios_layout13) || rec->n == NCOLS(helios_layout12))
            return rec->n == NCOLS(helios_layout13)
                       ? use_layout(t, &shape_helios, helios_layout13, rec->n)
                       : use_layout(t, &shape_helios, helios_layout12, rec->n);
        return not_this(t, rec, "a Helios cluster_log.csv: expected the header "
                                "job_id,user,vc,[jobname,]gpu_num,cpu_num,...", err);
    }
    if (strcmp(t->kind, "philly") == 0) {
        if (csvin_has_column(rec, "job_id"))
            return use_header(t, &shape_philly, rec, err);
        if (csvin_has_column(rec, "timestamp"))
            return use_header(t, &shape_titan, rec, err);
        return not_this(t, rec, "a Philly trace: expected a JSON job list or a CSV header "
                                "starting 'job_id' or 'timestamp'", err);
    }
    if (strcmp(t->kind, "alibaba-pod") == 0) {
        if (csvin_has_column(rec, "gpu_milli"))
            return use_header(t, &shape_pod, rec, err);
        if (csvin_has_column(rec, "instance_sn"))
            return use_header(t, &shape_inst, rec, err);
        return not_this(t, rec, "an Alibaba pod or instance list: expected a header naming "
                                "gpu_milli (pods) or instance_sn (inference instances)", err);
    }
    /* pai */
    if (csvin_has_column(rec, "job_name"))
        return use_header(t, csvin_has_column(rec, "task_name") ? &shape_pai_task
                                                                : &shape_pai_job, rec, err);
    if (rec->n == PJ_N)
        return use_layout(t, &shape_pai_job, pai_job_cols, PJ_N);
    if (rec->n == PT_N)
        return use_layout(t, &shape_pai_task, pai_task_cols, PT_N);
    return not_this(t, rec, "a PAI table: expected 6 fields (pai_job_table) or 10 "
                            "(pai_task_table)", err);
}

/* ---- rows ---- */

/* The name of the shape's end column, for messages. */
static const char *end_column(const TcShape *sh)
{
    for (size_t c = 0; c < sh->ncols; c++)
        if (strcmp(sh->cols[c], "end_time") == 0 || strcmp(sh->cols[c], "deletion_time") == 0)
            return sh->cols[c];
    return "end";
}

static int data_row(TraceCsv *t, const CsvinRec *rec, CpErr *err)
{
    t->row++;
    t->bytes = rec->bytes_read;
    trace_count_row(t->rc, rec->bytes_read);
    if (rec->n != t->nfields) { /* traces are written by programs: a short row is cut */
        char why[64];
        snprintf(why, sizeof why, "expected %zu fields, found %zu", t->nfields, rec->n);
        return reader_reject(t->rc, err, rec->line, NULL, why);
    }
    CpJobRec r;
    TcBad bad = {NULL, {""}};
    jobrec_clear(&r);
    r.cluster = t->shape->cluster;
    if (t->shape->row(t, rec, &r, &bad) < 0)
        return reader_reject(t->rc, err, rec->line, bad.field, bad.why.msg);
    if (trace_end_before_start(&r, &bad.why)) /* Philly's, Helios's: refused (#29) */
        return reader_reject(t->rc, err, rec->line, end_column(t->shape), bad.why.msg);
    return trace_emit(t->rc, &r, err);
}

static int on_record(void *ctx, const CsvinRec *rec, CpErr *err)
{
    TraceCsv *t = ctx;
    if (csvin_rec_empty(rec))
        return 0;
    if (csvin_rec_comment(rec)) {
        t->rc->rows_comment++;
        return 0;
    }
    if (!t->shape) {
        int first = detect(t, rec, err);
        if (first <= 0)
            return first;
    }
    return data_row(t, rec, err);
}

int trace_csv_read(FILE *f, const char *kind, CpReadCtx *ctx, char *format_out,
                   size_t format_sz, CpErr *err)
{
    TraceCsv t;
    memset(&t, 0, sizeof t);
    t.rc = ctx;
    t.kind = kind;
    t.origin = ctx->time_origin ? ctx->time_origin : TRACE_ALIBABA_EPOCH;
    int rc = csvin_read(f, trace_path(ctx), 0, on_record, &t, err);
    if (t.shape)
        snprintf(format_out, format_sz, "%s", t.shape->format);
    if (rc == 0 && !t.shape)
        rc = cp_err_set(err, "%s:1: empty file: no %s trace records", trace_path(ctx), kind);
    trace_progress_end(ctx, t.bytes);
    return rc;
}
