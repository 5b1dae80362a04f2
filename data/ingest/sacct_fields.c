#include "data/ingest/sacct_fields.h"

#include <math.h>
#include <string.h>
#include <strings.h>

#include "data/ingest/fields.h"
#include "data/ingest/jobstats.h"

static const struct {
    const char *name;
    SacctField field;
} field_names[] = {
    {"JobID", SF_JOBID},           {"JobIDRaw", SF_JOBIDRAW},
    {"Cluster", SF_CLUSTER},       {"Partition", SF_PARTITION},
    {"QOS", SF_QOS},               {"Account", SF_ACCOUNT},
    {"User", SF_USER},             {"JobName", SF_JOBNAME},
    {"State", SF_STATE},           {"ExitCode", SF_EXITCODE},
    {"Submit", SF_SUBMIT},         {"Eligible", SF_ELIGIBLE},
    {"Start", SF_START},           {"End", SF_END},
    {"Elapsed", SF_ELAPSED},       {"ElapsedRaw", SF_ELAPSEDRAW},
    {"Timelimit", SF_TIMELIMIT},   {"TimelimitRaw", SF_TIMELIMITRAW},
    {"NNodes", SF_NNODES},         {"NCPUS", SF_NCPUS},
    {"AllocNodes", SF_ALLOCNODES},
    {"ReqCPUS", SF_REQCPUS},       {"AllocCPUS", SF_ALLOCCPUS},
    {"ReqNodes", SF_REQNODES},     {"ReqMem", SF_REQMEM},
    {"MaxRSS", SF_MAXRSS},         {"ReqTRES", SF_REQTRES},
    {"AllocTRES", SF_ALLOCTRES},   {"TRESUsageInMax", SF_TRESUSAGEINMAX},
    {"ReqGRES", SF_REQGRES},       {"AllocGRES", SF_ALLOCGRES},
    {"NodeList", SF_NODELIST},     {"TotalCPU", SF_TOTALCPU},
    {"UserCPU", SF_USERCPU},       {"SystemCPU", SF_SYSTEMCPU},
    {"CPUTimeRAW", SF_CPUTIMERAW}, {"AdminComment", SF_ADMINCOMMENT},
};
#define NFIELD_NAMES (sizeof field_names / sizeof field_names[0])

const char sacctf_xdmod_fields[] =
    "JobID,JobIDRaw,Cluster,Partition,QOS,Account,Group,GID,User,UID,Submit,Eligible,Start,"
    "End,Elapsed,ExitCode,State,NNodes,NCPUS,ReqCPUS,ReqMem,ReqTRES,AllocTRES,Timelimit,"
    "NodeList,JobName";

SacctField sacctf_lookup(const char *name, size_t n)
{
    for (size_t i = 0; i < NFIELD_NAMES; i++)
        if (strlen(field_names[i].name) == n && strncasecmp(name, field_names[i].name, n) == 0)
            return field_names[i].field;
    return SF_IGNORED;
}

const char *sacctf_name(SacctField f)
{
    for (size_t i = 0; i < NFIELD_NAMES; i++)
        if (field_names[i].field == f)
            return field_names[i].name;
    return "?";
}

void sacctf_row_init(SacctRow *row)
{
    jobrec_clear(&row->rec);
    memset(row->val, 0, sizeof row->val);
    memset(row->len, 0, sizeof row->len);
    row->memo = NULL;
}

void sacctf_row_next(SacctRow *row)
{
    jobrec_clear(&row->rec);
}

void sacctf_set(SacctRow *row, SacctField f, char *v, size_t n)
{
    if (f > SF_IGNORED && f < SF_COUNT) {
        row->val[f] = v;
        row->len[f] = n;
    }
}

void sacctf_set_cols(SacctRow *row, const SacctField *cols, char *const *v, const size_t *n,
                     int ncols)
{
    for (int i = 0; i < ncols; i++) { /* no test per column: val[SF_IGNORED] takes the ignored */
        row->val[cols[i]] = v[i];
        row->len[cols[i]] = n[i];
    }
}

/* Failure of field f: name it for the caller. */
static int fail(SacctField f, const char **bad_field)
{
    *bad_field = sacctf_name(f);
    return -1;
}

static const char *text(const SacctRow *row, SacctField f)
{
    return row->val[f] ? row->val[f] : "";
}

static int has(const SacctRow *row, SacctField f)
{
    return row->val[f] && row->len[f] > 0;
}

static int finish_ids(SacctRow *row, const char **bad, CpErr *err)
{
    CpJobRec *r = &row->rec;
    const char *step = NULL;
    size_t step_len = 0;
    int64_t id, parent;
    int32_t task;
    if (!has(row, SF_JOBID) && !has(row, SF_JOBIDRAW)) {
        cp_err_set(err, "missing job id");
        return fail(SF_JOBID, bad);
    }
    if (has(row, SF_JOBID)) {
        if (fields_jobid(row->val[SF_JOBID], row->len[SF_JOBID], &id, &parent, &task, &step,
                         &step_len, err) < 0)
            return fail(SF_JOBID, bad);
        r->array_job = parent;
        r->array_task = task;
        r->job_raw = id;
        if (parent && task >= 0) { /* no JobIDRaw: a synthetic key per task */
            /* Slurm's ids are 32-bit and its arrays hold at most 4,000,001
             * tasks (MaxArraySize), so the key is exact within these. */
            if (parent > INT64_MAX / 10000000 - 1 || task >= 10000000) {
                cp_err_set(err, "array job id out of range");
                return fail(SF_JOBID, bad);
            }
            r->job_raw = -(parent * 10000000 + task);
        }
    }
    if (has(row, SF_JOBIDRAW) && has(row, SF_JOBID) && row->len[SF_JOBIDRAW] == row->len[SF_JOBID] &&
        memcmp(row->val[SF_JOBIDRAW], row->val[SF_JOBID], row->len[SF_JOBID]) == 0) {
        /* the same text read the same (a job that is no array task, and its steps):
         * id and step as JobID's read gave them (issue 31 item 3) */
        r->job_raw = id;
    } else if (has(row, SF_JOBIDRAW)) {
        int64_t p2;
        int32_t t2;
        if (fields_jobid(row->val[SF_JOBIDRAW], row->len[SF_JOBIDRAW], &id, &p2, &t2, &step,
                         &step_len, err) < 0)
            return fail(SF_JOBIDRAW, bad);
        r->job_raw = id;
    }
    /* The display id is the job part of JobID ("5_3"), without the step. */
    char *disp = has(row, SF_JOBID) ? row->val[SF_JOBID] : row->val[SF_JOBIDRAW];
    r->job_id = disp;
    if (step) {
        r->step = step; /* NUL-terminated: it runs to the end of the value */
        char *dot = strchr(disp, '.');
        if (dot)
            *dot = '\0'; /* the value is the reader's own line buffer */
    }
    return 0;
}

/* A 19-byte time's bytes as three words (the last holds 3), to compare at once. */
static void time_key(const char *s, uint64_t k[3])
{
    memcpy(&k[0], s, 8);
    memcpy(&k[1], s + 8, 8);
    k[2] = (uint64_t)(unsigned char)s[16] | (uint64_t)(unsigned char)s[17] << 8 |
           (uint64_t)(unsigned char)s[18] << 16;
}

/* fields_time, answered from the memo when the row's reader read the same
 * 19-byte time in the same zone lately (only values it accepted are kept). */
static int row_time(SacctRow *row, SacctField f, const CpTz *tz, int64_t *out, CpErr *err)
{
    SacctMemo *m = row->memo;
    const char *s = row->val[f];
    size_t n = row->len[f];
    if (!m || n != 19)
        return fields_time(s, n, tz, out, err);
    if (m->time_tz != tz) {
        memset(m->time_key, 0, sizeof m->time_key); /* no value's key: values hold no NUL */
        m->time_tz = tz;
    }
    uint64_t k[3];
    time_key(s, k);
    unsigned hits = 0; /* every slot compared, then one branch (a key is in one slot at most) */
    for (int i = 0; i < SACCT_MEMO_TIMES; i++)
        hits |= (unsigned)(((m->time_key[i][0] ^ k[0]) | (m->time_key[i][1] ^ k[1]) |
                            (m->time_key[i][2] ^ k[2])) == 0)
                << i;
    if (hits) {
        *out = m->time_val[__builtin_ctz(hits)];
        return 0;
    }
    if (fields_time(s, n, tz, out, err) < 0)
        return -1;
    memcpy(m->time_key[m->time_next], k, sizeof k);
    m->time_val[m->time_next] = *out;
    m->time_next = (m->time_next + 1) % SACCT_MEMO_TIMES;
    return 0;
}

static int finish_times(SacctRow *row, const CpTz *tz, const char **bad, CpErr *err)
{
    CpJobRec *r = &row->rec;
    static const SacctField tf[] = {SF_SUBMIT, SF_ELIGIBLE, SF_START, SF_END};
    int64_t *dst[] = {&r->submit, &r->eligible, &r->start, &r->end};
    for (int i = 0; i < 4; i++)
        if (row->val[tf[i]] && row_time(row, tf[i], tz, dst[i], err) < 0)
            return fail(tf[i], bad);
    int64_t v;
    if (has(row, SF_ELAPSEDRAW)) {
        if (fields_int(row->val[SF_ELAPSEDRAW], row->len[SF_ELAPSEDRAW], &v, err) < 0)
            return fail(SF_ELAPSEDRAW, bad);
        if (v < 0) { /* say why (#29) */
            cp_err_set(err, "negative duration %lld s", (long long)v);
            return fail(SF_ELAPSEDRAW, bad);
        }
        r->elapsed = v;
    } else if (row->val[SF_ELAPSED]) {
        if (fields_duration(row->val[SF_ELAPSED], row->len[SF_ELAPSED], &r->elapsed, err) < 0)
            return fail(SF_ELAPSED, bad);
    }
    if (has(row, SF_TIMELIMITRAW)) {
        if (fields_duration(row->val[SF_TIMELIMITRAW], row->len[SF_TIMELIMITRAW], &v, err) < 0)
            return fail(SF_TIMELIMITRAW, bad);
        r->timelimit = v >= 0 ? v * 60 : v; /* TimelimitRaw is in minutes */
    } else if (row->val[SF_TIMELIMIT]) {
        if (fields_duration(row->val[SF_TIMELIMIT], row->len[SF_TIMELIMIT], &r->timelimit,
                            err) < 0)
            return fail(SF_TIMELIMIT, bad);
    }
    return 0;
}

static int count_field(SacctRow *row, SacctField f, int32_t *dst, const char **bad, CpErr *err)
{
    int64_t v;
    if (!has(row, f) || *dst >= 0)
        return 0;
    if (fields_int(row->val[f], row->len[f], &v, err) < 0)
        return fail(f, bad);
    if (v < 0 || v > INT32_MAX) { /* a number, but no count: say which */
        cp_err_set(err, "%lld is not a count (0 to %d)", (long long)v, INT32_MAX);
        return fail(f, bad);
    }
    *dst = (int32_t)v;
    return 0;
}

static int finish_counts(SacctRow *row, const char **bad, CpErr *err)
{
    CpJobRec *r = &row->rec;
    if (count_field(row, SF_NNODES, &r->nnodes, bad, err) < 0 ||
        count_field(row, SF_ALLOCNODES, &r->nnodes, bad, err) < 0 ||
        count_field(row, SF_REQNODES, &r->nnodes, bad, err) < 0 ||
        count_field(row, SF_NCPUS, &r->ncpus, bad, err) < 0 ||
        count_field(row, SF_ALLOCCPUS, &r->ncpus, bad, err) < 0 ||
        count_field(row, SF_REQCPUS, &r->ncpus, bad, err) < 0)
        return -1;
    return 0;
}

static int finish_cpu_time(SacctRow *row, const char **bad, CpErr *err)
{
    CpJobRec *r = &row->rec;
    int64_t v, s;
    if (has(row, SF_TOTALCPU)) {
        if (fields_duration(row->val[SF_TOTALCPU], row->len[SF_TOTALCPU], &v, err) < 0 || v < 0)
            return fail(SF_TOTALCPU, bad);
        r->total_cpu_s = (double)v;
    } else if (has(row, SF_USERCPU)) {
        if (fields_duration(row->val[SF_USERCPU], row->len[SF_USERCPU], &v, err) < 0 || v < 0)
            return fail(SF_USERCPU, bad);
        s = 0;
        if (has(row, SF_SYSTEMCPU) &&
            (fields_duration(row->val[SF_SYSTEMCPU], row->len[SF_SYSTEMCPU], &s, err) < 0 ||
             s < 0))
            return fail(SF_SYSTEMCPU, bad);
        r->total_cpu_s = (double)(v + s);
    }
    return 0;
}

#define SLURM_MEM_PER_CPU32 2147483648.0 /* 2^31: the per-CPU flag of a 32-bit ReqMem */

/* The memory request: ReqTRES's mem (tres_mib, -1 absent) first, ReqMem's
 * otherwise. Slurm (seen in Open XDMoD's logs) prints a per-CPU request
 * stored with its old 32-bit flag as 2^31 + n with "Mn" ("2147486648Mn" is
 * 3000 MiB per CPU): that value is never kept; without ReqTRES it is read
 * as n per CPU. Disagreement sets CP_REC_MEM_CONFLICT. */
static int finish_req_mem(SacctRow *row, double tres_mib, const char **bad, CpErr *err)
{
    CpJobRec *r = &row->rec;
    double mem = -1, unit = -1;
    if (row->val[SF_REQMEM] &&
        (fields_mem(row->val[SF_REQMEM], row->len[SF_REQMEM], 0, r->ncpus, r->nnodes, &mem,
                    err) < 0 ||
         fields_mem(row->val[SF_REQMEM], row->len[SF_REQMEM], 0, 0, 0, &unit, err) < 0))
        return fail(SF_REQMEM, bad);
    size_t n = row->len[SF_REQMEM];
    int artefact = n > 2 && memcmp(row->val[SF_REQMEM] + n - 2, "Mn", 2) == 0 &&
                   unit >= SLURM_MEM_PER_CPU32 && unit < 2 * SLURM_MEM_PER_CPU32;
    if (artefact)
        mem = r->ncpus > 0 ? (unit - SLURM_MEM_PER_CPU32) * r->ncpus : -1;
    if (tres_mib >= 0) {
        double off = fabs(mem - tres_mib); /* more than rounding: 1 MiB and 1 % */
        if (artefact || (mem >= 0 && off > 1 && off > tres_mib / 100))
            r->flags |= CP_REC_MEM_CONFLICT;
        r->req_mem_mib = tres_mib;
        return 0;
    }
    if (artefact)
        r->flags |= CP_REC_MEM_CONFLICT;
    r->req_mem_mib = mem;
    return 0;
}

/* A TRES list that files repeat (AllocTRES, ReqTRES), through the memo. */
static int tres(const SacctRow *row, SacctField f, CpTres *out, CpErr *err)
{
    if (row->memo)
        return fields_tres_memo(&row->memo->tres, text(row, f), row->len[f], out, err);
    return fields_tres(text(row, f), row->len[f], out, err);
}

static int finish_resources(SacctRow *row, const char **bad, CpErr *err)
{
    CpJobRec *r = &row->rec;
    CpTres alloc, req, use;
    if (tres(row, SF_ALLOCTRES, &alloc, err) < 0)
        return fail(SF_ALLOCTRES, bad);
    if (tres(row, SF_REQTRES, &req, err) < 0)
        return fail(SF_REQTRES, bad);
    if (fields_tres(text(row, SF_TRESUSAGEINMAX), row->len[SF_TRESUSAGEINMAX], &use, err) < 0)
        return fail(SF_TRESUSAGEINMAX, bad);
    double gres_alloc = -1, gres_req = -1;
    char gtype[CP_GPU_TYPE_MAX] = "", rtype[CP_GPU_TYPE_MAX] = "";
    if (has(row, SF_ALLOCGRES) &&
        fields_gres(row->val[SF_ALLOCGRES], row->len[SF_ALLOCGRES], &gres_alloc, gtype, err) < 0)
        return fail(SF_ALLOCGRES, bad);
    if (has(row, SF_REQGRES) &&
        fields_gres(row->val[SF_REQGRES], row->len[SF_REQGRES], &gres_req, rtype, err) < 0)
        return fail(SF_REQGRES, bad);
    r->req_gpus = req.gpus >= 0 ? req.gpus : gres_req;
    double gpus = alloc.gpus >= 0 ? alloc.gpus : gres_alloc >= 0 ? gres_alloc : r->req_gpus;
    r->gpus = gpus > 0 ? gpus : 0;
    const char *type = alloc.gpu_type[0] ? alloc.gpu_type
                       : gtype[0]        ? gtype
                       : req.gpu_type[0] ? req.gpu_type
                                         : rtype;
    memcpy(r->gpu_type, type, strlen(type) + 1);
    if (r->ncpus < 0 && alloc.cpus >= 0) {
        if (alloc.cpus > INT32_MAX) {
            cp_err_set(err, "cpu count %.0f out of range", alloc.cpus);
            return fail(SF_ALLOCTRES, bad);
        }
        r->ncpus = (int32_t)alloc.cpus;
    }
    if (r->nnodes < 0 && alloc.nodes >= 0) {
        if (alloc.nodes > INT32_MAX) {
            cp_err_set(err, "node count %.0f out of range", alloc.nodes);
            return fail(SF_ALLOCTRES, bad);
        }
        r->nnodes = (int32_t)alloc.nodes;
    }
    r->gpu_mem_gib = use.gpu_mem_gib;
    r->gpu_util = use.gpu_util;
    if (finish_req_mem(row, req.mem_mib, bad, err) < 0)
        return -1;
    if (row->val[SF_MAXRSS] &&
        fields_mem(row->val[SF_MAXRSS], row->len[SF_MAXRSS], 1, 0, 0, &r->max_rss_mib, err) < 0)
        return fail(SF_MAXRSS, bad);
    if (r->max_rss_mib < 0 && use.mem_mib >= 0)
        r->max_rss_mib = use.mem_mib;
    return 0;
}

/* GPU memory and utilisation from a jobstats summary in AdminComment,
 * where TRESUsageInMax did not give them. */
static int finish_jobstats(SacctRow *row, const char **bad, CpErr *err)
{
    CpJobRec *r = &row->rec;
    JobStats js;
    if (!has(row, SF_ADMINCOMMENT))
        return 0;
    if (jobstats_parse(row->val[SF_ADMINCOMMENT], row->len[SF_ADMINCOMMENT], &js, err) < 0)
        return fail(SF_ADMINCOMMENT, bad);
    if (r->gpu_mem_gib < 0)
        r->gpu_mem_gib = js.gpu_mem_gib;
    if (r->gpu_util < 0)
        r->gpu_util = js.gpu_util;
    return 0;
}

/* The first of a member's candidate fields that the row has, for naming
 * what jobrec_check refused. */
static SacctField member_field(const SacctRow *row, CpRecMember m)
{
    static const SacctField cand[CP_M_COUNT][4] = {
        [CP_M_END] = {SF_END},
        [CP_M_ELAPSED] = {SF_ELAPSEDRAW, SF_ELAPSED},
        [CP_M_TIMELIMIT] = {SF_TIMELIMITRAW, SF_TIMELIMIT},
        [CP_M_GPUS] = {SF_ALLOCTRES, SF_ALLOCGRES, SF_REQTRES, SF_REQGRES},
        [CP_M_REQ_GPUS] = {SF_REQTRES, SF_REQGRES},
        [CP_M_REQ_MEM] = {SF_REQTRES, SF_REQMEM},
        [CP_M_MAX_RSS] = {SF_MAXRSS, SF_TRESUSAGEINMAX},
        [CP_M_GPU_MEM] = {SF_TRESUSAGEINMAX},
        [CP_M_GPU_UTIL] = {SF_TRESUSAGEINMAX},
        [CP_M_CPU_TIME] = {SF_TOTALCPU, SF_USERCPU, SF_SYSTEMCPU},
    };
    for (int i = 0; i < 4 && cand[m][i] != SF_IGNORED; i++)
        if (has(row, cand[m][i]))
            return cand[m][i];
    return cand[m][0];
}

static int check_record(SacctRow *row, const char **bad, CpErr *err)
{
    CpRecMember m;
    if (jobrec_check(&row->rec, &m, err) < 0)
        return fail(member_field(row, m), bad);
    return 0;
}

int sacctf_finish(SacctRow *row, const CpTz *tz, const char **bad_field, CpErr *err)
{
    CpJobRec *r = &row->rec;
    *bad_field = "";
    if (finish_ids(row, bad_field, err) < 0 || finish_times(row, tz, bad_field, err) < 0 ||
        finish_counts(row, bad_field, err) < 0 || finish_resources(row, bad_field, err) < 0 ||
        finish_cpu_time(row, bad_field, err) < 0 || finish_jobstats(row, bad_field, err) < 0)
        return -1;
    r->cluster = text(row, SF_CLUSTER);
    r->partition = text(row, SF_PARTITION);
    r->qos = text(row, SF_QOS);
    r->account = text(row, SF_ACCOUNT);
    r->user = text(row, SF_USER);
    r->job_name = text(row, SF_JOBNAME);
    r->nodelist = text(row, SF_NODELIST);
    r->state_raw = text(row, SF_STATE);
    r->state = fields_state(r->state_raw, row->len[SF_STATE]);
    if (row->val[SF_EXITCODE] &&
        fields_exit(row->val[SF_EXITCODE], row->len[SF_EXITCODE], &r->exit_code,
                    &r->exit_signal, err) < 0)
        return fail(SF_EXITCODE, bad_field);
    return check_record(row, bad_field, err);
}
