/* demo_sacct: the accounting as sites export it.
 *
 * Text: what `sacct -a -D -P --format=...` prints, one file per cluster
 * and year (sacct-atlas-2023.txt), with Slurm's own header names and
 * JobName last. Every attempt of a requeued job is listed (-D), each job
 * row followed by its steps as Slurm shows them (see shared/data/
 * slurm-sandbox): batch jobs have .batch and .extern; interactive srun
 * sessions .extern and .0; distributed training .batch, .extern and .0.
 * Step rows leave User, QOS, Timelimit, ReqMem and ReqTRES empty and hold
 * MaxRSS and TRESUsageInMax (with gres/gpumem and gres/gpuutil where the
 * cluster records them). A TIMEOUT or PREEMPTED job's .batch is CANCELLED
 * 0:15; a cancelled job says "CANCELLED by <uid>"; a requeued attempt is
 * submitted when its predecessor was preempted and eligible two minutes
 * later. Jobs still running "today" have End Unknown.
 *
 * JSON: the national cluster's last three months as `sacct --json` of
 * Slurm 24.05 (data_parser v0.0.41: state.current a list,
 * {set,infinite,number} numbers, TRES as {type,name,id,count} lists, steps
 * nested, every attempt its own element). */
#include <string.h>

#include "data/demo/demo_model.h"

static const char sacct_header[] =
    "JobID|JobIDRaw|Cluster|Partition|Account|User|QOS|State|ExitCode|Submit|Eligible|Start|"
    "End|Elapsed|Timelimit|NNodes|NCPUS|ReqMem|MaxRSS|ReqTRES|AllocTRES|TRESUsageInMax|"
    "TotalCPU|NodeList|JobName\n";

/* One attempt of a job, as written. */
typedef struct Att {
    int64_t submit, eligible, start, end; /* end: today's time when running */
    int state;                            /* DemoOutcome */
    int restart;                          /* attempts before this one */
    int running;
} Att;

/* Everything a job's rows share. */
typedef struct JobCtx {
    const DemoWorld *w;
    const DemoJob *j;
    const DemoPerson *p;
    const DemoPool *pool;
    const DemoCluster *cl;
    const char *account;
    int nodes, first_node;
    int gpumem;            /* GPU memory recorded for this attempt */
} JobCtx;

static void bar(DemoOut *o)
{
    demo_out_ch(o, '|');
}

static void put_jobid(DemoOut *o, const DemoJob *j, const char *step)
{
    if (j->array_n) {
        demo_out_int(o, j->array_job);
        demo_out_ch(o, '_');
        demo_out_int(o, j->array_task);
    } else {
        demo_out_int(o, j->job_raw);
    }
    if (step) {
        demo_out_ch(o, '.');
        demo_out_str(o, step);
    }
    bar(o);
    demo_out_int(o, j->job_raw);
    if (step) {
        demo_out_ch(o, '.');
        demo_out_str(o, step);
    }
    bar(o);
}

static void put_nodes(DemoOut *o, const JobCtx *c, int n)
{
    demo_out_str(o, c->pool->node_prefix);
    if (n == 1) {
        if (c->first_node < 10)
            demo_out_ch(o, '0');
        demo_out_int(o, c->first_node);
        return;
    }
    demo_out_ch(o, '[');
    if (c->first_node < 10)
        demo_out_ch(o, '0');
    demo_out_int(o, c->first_node);
    demo_out_ch(o, '-');
    if (c->first_node + n - 1 < 10)
        demo_out_ch(o, '0');
    demo_out_int(o, c->first_node + n - 1);
    demo_out_ch(o, ']');
}

/* "cpu=8,gres/gpu:a100=2,gres/gpu=2,mem=64G,node=1" and friends. */
static void put_tres(DemoOut *o, const JobCtx *c, int billing, int typed, int cpus, int gpus,
                     int nodes)
{
    if (billing) {
        demo_out_str(o, "billing=");
        demo_out_int(o, c->j->ncpus);
        demo_out_ch(o, ',');
    }
    demo_out_str(o, "cpu=");
    demo_out_int(o, cpus);
    if (gpus > 0) {
        if (typed) {
            demo_out_str(o, ",gres/gpu:");
            demo_out_str(o, c->pool->model);
            demo_out_ch(o, '=');
            demo_out_int(o, gpus);
        }
        demo_out_str(o, ",gres/gpu=");
        demo_out_int(o, gpus);
    }
    demo_out_str(o, ",mem=");
    demo_out_int(o, (int64_t)c->j->mem_req_gib / (nodes == c->nodes ? 1 : c->nodes));
    demo_out_str(o, "G,node=");
    demo_out_int(o, nodes);
}

/* Slurm's name of a DEMO_OUT_* state, for a job or (step 1) one of its
 * steps: a step of a job cut short was CANCELLED. */
static const char *state_name(int state, int step)
{
    static const char *const job_state[] = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT",
                                            "OUT_OF_MEMORY", "NODE_FAIL", "PREEMPTED",
                                            "RUNNING"};
    static const char *const step_state[] = {"COMPLETED", "FAILED", "CANCELLED", "CANCELLED",
                                             "OUT_OF_MEMORY", "CANCELLED", "CANCELLED",
                                             "RUNNING"};
    return step ? step_state[state] : job_state[state];
}

static void put_state(DemoOut *o, const JobCtx *c, int state, int step)
{
    demo_out_str(o, state_name(state, step));
    if (!step && state == DEMO_OUT_CANCELLED) {
        demo_out_str(o, " by ");
        demo_out_int(o, c->p->uid);
    }
    bar(o);
    if (state == DEMO_OUT_FAILED) {
        demo_out_int(o, c->j->exit_code);
        demo_out_str(o, ":0");
    } else if (state == DEMO_OUT_OOM) {
        demo_out_str(o, "0:125");
    } else if (step && (state == DEMO_OUT_CANCELLED || state == DEMO_OUT_TIMEOUT ||
                        state == DEMO_OUT_PREEMPTED)) {
        demo_out_str(o, "0:15");
    } else if (step && state == DEMO_OUT_NODE_FAIL) {
        demo_out_str(o, "0:9");
    } else {
        demo_out_str(o, "0:0");
    }
    bar(o);
}

/* Submit|Eligible|Start|End|Elapsed| */
static void put_times(DemoOut *o, const Att *a, int64_t submit, int64_t eligible)
{
    demo_out_time(o, submit);
    bar(o);
    demo_out_time(o, eligible);
    bar(o);
    demo_out_time(o, a->start);
    bar(o);
    if (a->running)
        demo_out_str(o, "Unknown");
    else
        demo_out_time(o, a->end);
    bar(o);
    demo_out_dur(o, a->end - a->start);
    bar(o);
}

static int64_t cpu_seconds(const JobCtx *c, const Att *a)
{
    return (int64_t)((double)(a->end - a->start) * c->j->ncpus * c->j->cpu_eff);
}

static void job_row(DemoOut *o, const JobCtx *c, const Att *a)
{
    const DemoJob *j = c->j;
    put_jobid(o, j, NULL);
    demo_out_str(o, c->cl->name);
    bar(o);
    demo_out_str(o, demo_part_names[j->part]);
    bar(o);
    demo_out_str(o, c->account);
    bar(o);
    demo_out_str(o, c->p->user);
    bar(o);
    demo_out_str(o, j->part == DEMO_PART_PREEMPT ? "low" : "normal");
    bar(o);
    put_state(o, c, a->state, 0);
    put_times(o, a, a->submit, a->eligible);
    demo_out_dur(o, j->limit);
    bar(o);
    demo_out_int(o, c->nodes);
    bar(o);
    demo_out_int(o, j->ncpus);
    bar(o);
    demo_out_int(o, (int64_t)j->mem_req_gib);
    demo_out_str(o, "G||");
    put_tres(o, c, 1, j->typed, j->ncpus, j->gpus, c->nodes);
    bar(o);
    put_tres(o, c, 1, 1, j->ncpus, j->gpus, c->nodes);
    demo_out_str(o, "||");
    demo_out_dur(o, cpu_seconds(c, a));
    bar(o);
    put_nodes(o, c, c->nodes);
    bar(o);
    demo_out_str(o, demo_job_names[j->name]);
    demo_out_ch(o, '\n');
}

/* The step that did the work: its peak memory, GPU memory and use. */
static void usage_max(DemoOut *o, const JobCtx *c, const Att *a, int64_t rss_k, int busy)
{
    demo_out_str(o, "cpu=");
    demo_out_dur(o, busy ? cpu_seconds(c, a) : 0);
    demo_out_str(o, ",energy=0,fs/disk=");
    demo_out_int(o, busy ? 9000 + (c->j->job_raw % 7919) * 1000 : 6976);
    if (busy && c->gpumem) {
        demo_out_str(o, ",gres/gpumem=");
        demo_out_int(o, (int64_t)(c->j->gpu_mem * 1024.0f));
        demo_out_str(o, "M,gres/gpuutil=");
        demo_out_int(o, (int64_t)(c->j->gpu_util + 0.5f));
    }
    demo_out_str(o, ",mem=");
    demo_out_int(o, rss_k);
    demo_out_str(o, "K,pages=0,vmem=");
    demo_out_int(o, rss_k + rss_k / 8 + 2920);
    demo_out_ch(o, 'K');
}

typedef enum StepKind { STEP_BATCH, STEP_EXTERN, STEP_ZERO } StepKind;

static void step_row(DemoOut *o, const JobCtx *c, const Att *a, StepKind kind, int busy)
{
    static const char *const ids[] = {"batch", "extern", "0"};
    const DemoJob *j = c->j;
    int nodes = kind == STEP_BATCH ? 1 : c->nodes;
    int cpus = j->ncpus / (kind == STEP_BATCH ? c->nodes : 1);
    int gpus = j->gpus / (kind == STEP_BATCH ? c->nodes : 1);
    int64_t rss_k = busy ? (int64_t)(j->mem_req_gib * j->rss_frac * 1048576.0f)
                         : 1500 + (j->job_raw % 300);
    put_jobid(o, j, ids[kind]);
    demo_out_str(o, c->cl->name);
    bar(o);
    bar(o);
    demo_out_str(o, c->account);
    demo_out_str(o, "|||");
    put_state(o, c, kind == STEP_EXTERN ? (a->running ? DEMO_OUT_RUNNING : DEMO_OUT_COMPLETED)
                                        : a->state,
              1);
    put_times(o, a, a->start, a->start);
    bar(o);
    demo_out_int(o, nodes);
    bar(o);
    demo_out_int(o, cpus);
    demo_out_str(o, "||");
    demo_out_int(o, rss_k);
    demo_out_str(o, "K||");
    put_tres(o, c, kind == STEP_EXTERN, 1, cpus, gpus, nodes);
    bar(o);
    usage_max(o, c, a, rss_k, busy);
    bar(o);
    demo_out_dur(o, busy ? cpu_seconds(c, a) : 0);
    bar(o);
    put_nodes(o, c, nodes);
    bar(o);
    demo_out_str(o, kind == STEP_BATCH ? "batch" : kind == STEP_EXTERN ? "extern"
                    : j->srun                      ? demo_job_names[j->name]
                                                   : "python");
    demo_out_ch(o, '\n');
}

/* A job row and its steps for one attempt. */
static void attempt_rows(DemoOut *o, const JobCtx *c, const Att *a)
{
    const DemoJob *j = c->j;
    job_row(o, c, a);
    if (j->srun) {
        step_row(o, c, a, STEP_EXTERN, 0);
        step_row(o, c, a, STEP_ZERO, 1);
    } else if (j->pattern == DEMO_PAT_MULTI) {
        step_row(o, c, a, STEP_BATCH, 0);
        step_row(o, c, a, STEP_EXTERN, 0);
        step_row(o, c, a, STEP_ZERO, 1);
    } else {
        step_row(o, c, a, STEP_BATCH, 1);
        step_row(o, c, a, STEP_EXTERN, 0);
    }
}

static void job_ctx(const DemoWorld *w, const DemoJob *j, int64_t start, JobCtx *c)
{
    c->w = w;
    c->j = j;
    c->p = &w->people[j->person];
    c->pool = &w->pools[j->pool];
    c->cl = &w->clusters[c->pool->cluster];
    c->account = w->groups[c->p->group].name;
    c->nodes = j->gpus > c->pool->node_gpus ? (j->gpus + c->pool->node_gpus - 1) / c->pool->node_gpus
                                             : 1;
    int total = demo_pool_gpus(w, j->pool, start) / c->pool->node_gpus;
    if (total < c->nodes)
        total = c->nodes;
    uint64_t h = (uint64_t)j->job_raw * 0x9e3779b97f4a7c15ULL + (uint64_t)start;
    c->first_node = 1 + (int)((h >> 33) % (uint64_t)(total - c->nodes + 1));
    c->gpumem = j->gpus > 0 && c->cl->gpumem_from <= start;
}

/* Every attempt of job j that ran, in order; calls fn for each. */
typedef void (*AttFn)(void *ctx, const DemoWorld *w, const DemoJob *j, const Att *a);

static void for_attempts(const DemoWorld *w, const DemoJob *j, AttFn fn, void *ctx)
{
    int k = 0;
    for (int32_t i = j->first_att; i >= 0; i = w->att[i].next, k++) {
        const DemoAttempt *at = &w->att[i];
        Att a = {at->submit, at->eligible, at->start, at->end, DEMO_OUT_PREEMPTED, k, 0};
        fn(ctx, w, j, &a);
    }
    if (j->start == DEMO_NEVER)
        return;
    Att a = {j->fsubmit, j->feligible, j->start, j->end, j->outcome, k, 0};
    if (j->end > w->today) {
        a.running = 1;
        a.state = DEMO_OUT_RUNNING;
        a.end = w->today;
    }
    fn(ctx, w, j, &a);
}

typedef struct FileSet {
    const DemoWorld *w;
    const char *dir;
    DemoFiles *files;
    DemoOut out;
    int open, json;
    int64_t elements; /* JSON job elements written to the open file */
    char name[1100];
} FileSet;

static void text_attempt(void *ctx, const DemoWorld *w, const DemoJob *j, const Att *a)
{
    FileSet *fs = ctx;
    JobCtx c;
    job_ctx(w, j, a->start, &c);
    attempt_rows(&fs->out, &c, a);
}

/* ---- JSON ---- */

static void js_str(DemoOut *o, const char *s)
{
    demo_out_ch(o, '"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') {
            demo_out_ch(o, '\\');
            demo_out_ch(o, (char)ch);
        } else if (ch < 0x20) {
            static const char hex[] = "0123456789abcdef";
            char e[6] = {'\\', 'u', '0', '0', hex[ch >> 4], hex[ch & 15]};
            demo_out_mem(o, e, 6);
        } else {
            demo_out_ch(o, (char)ch);
        }
    }
    demo_out_ch(o, '"');
}

/* {"set":true,"infinite":false,"number":v} */
static void js_num(DemoOut *o, int set, int64_t v)
{
    demo_out_str(o, set ? "{\"set\":true,\"infinite\":false,\"number\":"
                        : "{\"set\":false,\"infinite\":false,\"number\":");
    demo_out_int(o, v);
    demo_out_ch(o, '}');
}

static void js_tres_item(DemoOut *o, const char *type, const char *name, int id, int64_t count,
                         int comma)
{
    demo_out_str(o, "{\"type\":");
    js_str(o, type);
    demo_out_str(o, ",\"name\":");
    js_str(o, name);
    demo_out_str(o, ",\"id\":");
    demo_out_int(o, id);
    demo_out_str(o, ",\"count\":");
    demo_out_int(o, count);
    demo_out_str(o, comma ? "}," : "}");
}

static void js_tres(DemoOut *o, const JobCtx *c, int billing)
{
    const DemoJob *j = c->j;
    char gres[64];
    snprintf(gres, sizeof gres, "gpu:%s", c->pool->model);
    demo_out_ch(o, '[');
    js_tres_item(o, "cpu", "", 1, j->ncpus, 1);
    js_tres_item(o, "mem", "", 2, (int64_t)j->mem_req_gib * 1024, 1);
    js_tres_item(o, "node", "", 4, c->nodes, billing || j->gpus);
    if (billing)
        js_tres_item(o, "billing", "", 5, j->ncpus, j->gpus > 0);
    if (j->gpus)
        js_tres_item(o, "gres", gres, 1001, j->gpus, 0);
    demo_out_ch(o, ']');
}

/* exit_code of 24.05: status list, return code, signal. */
static void js_exit(DemoOut *o, const JobCtx *c, int state, int step)
{
    const char *status = "SUCCESS";
    int64_t rc = 0, sig = 0;
    if (state == DEMO_OUT_FAILED) {
        status = "ERROR";
        rc = c->j->exit_code;
    } else if (state == DEMO_OUT_OOM) {
        status = "SIGNALED";
        sig = 125;
    } else if (step && state != DEMO_OUT_COMPLETED && state != DEMO_OUT_RUNNING) {
        status = "SIGNALED";
        sig = state == DEMO_OUT_NODE_FAIL ? 9 : 15;
    }
    demo_out_str(o, "{\"status\":[");
    js_str(o, status);
    demo_out_str(o, "],\"return_code\":");
    js_num(o, 1, rc);
    demo_out_str(o, ",\"signal\":{\"id\":");
    js_num(o, sig != 0, sig);
    demo_out_str(o, ",\"name\":");
    js_str(o, sig == 15 ? "SIGTERM" : sig == 9 ? "SIGKILL" : "");
    demo_out_str(o, "}}");
}

static void js_state_list(DemoOut *o, int state, int step)
{
    demo_out_ch(o, '[');
    js_str(o, state_name(state, step));
    demo_out_ch(o, ']');
}

/* The end of a "time" object, a job's or a step's: no suspension or
 * system time, cpu seconds of user (and total) time, the limit in minutes
 * (marked set only when has_limit). */
static void js_time_end(DemoOut *o, int64_t cpu, int has_limit, int64_t limit_min)
{
    demo_out_str(o, ",\"suspended\":0,\"system\":{\"seconds\":0,\"microseconds\":0},"
                    "\"total\":{\"seconds\":");
    demo_out_int(o, cpu);
    demo_out_str(o, ",\"microseconds\":0},\"user\":{\"seconds\":");
    demo_out_int(o, cpu);
    demo_out_str(o, ",\"microseconds\":0},\"limit\":");
    js_num(o, has_limit, limit_min);
    demo_out_ch(o, '}');
}

static void js_step_time(DemoOut *o, const Att *a, int64_t cpu)
{
    demo_out_str(o, "\"time\":{\"elapsed\":");
    demo_out_int(o, a->end - a->start);
    demo_out_str(o, ",\"end\":");
    js_num(o, !a->running, a->running ? 0 : a->end);
    demo_out_str(o, ",\"start\":");
    js_num(o, 1, a->start);
    js_time_end(o, cpu, 0, 0);
}

static void js_step(DemoOut *o, const JobCtx *c, const Att *a, StepKind kind, int busy)
{
    static const char *const ids[] = {"batch", "extern", "0"};
    const DemoJob *j = c->j;
    int64_t cpu = busy ? cpu_seconds(c, a) : 0;
    int64_t rss = busy ? (int64_t)(j->mem_req_gib * j->rss_frac * 1073741824.0f)
                       : (1500 + j->job_raw % 300) * 1024;
    demo_out_ch(o, '{');
    js_step_time(o, a, cpu);
    demo_out_str(o, ",\"exit_code\":");
    int state = kind == STEP_EXTERN ? (a->running ? DEMO_OUT_RUNNING : DEMO_OUT_COMPLETED)
                                    : a->state;
    js_exit(o, c, state, 1);
    demo_out_str(o, ",\"nodes\":{\"count\":");
    demo_out_int(o, kind == STEP_BATCH ? 1 : c->nodes);
    demo_out_str(o, ",\"range\":\"");
    put_nodes(o, c, kind == STEP_BATCH ? 1 : c->nodes);
    demo_out_str(o, "\"},\"tasks\":{\"count\":1},\"state\":");
    js_state_list(o, state, 1);
    demo_out_str(o, ",\"step\":{\"id\":\"");
    demo_out_int(o, j->job_raw);
    demo_out_ch(o, '.');
    demo_out_str(o, ids[kind]);
    demo_out_str(o, "\",\"name\":");
    js_str(o, kind == STEP_ZERO ? demo_job_names[j->name] : ids[kind]);
    demo_out_str(o, "},\"tres\":{\"requested\":{\"max\":[");
    js_tres_item(o, "mem", "", 2, rss, busy && c->gpumem);
    if (busy && c->gpumem) {
        js_tres_item(o, "gres", "gpumem", 1003, (int64_t)((double)j->gpu_mem * 1073741824.0), 1);
        js_tres_item(o, "gres", "gpuutil", 1004, (int64_t)(j->gpu_util + 0.5f), 0);
    }
    demo_out_str(o, "],\"min\":[],\"average\":[],\"total\":[]},\"consumed\":{\"max\":[],"
                    "\"min\":[],\"average\":[],\"total\":[]},\"allocated\":");
    js_tres(o, c, kind == STEP_EXTERN);
    demo_out_str(o, "}}");
}

static void js_steps(DemoOut *o, const JobCtx *c, const Att *a)
{
    demo_out_str(o, ",\"steps\":[");
    if (c->j->srun) {
        js_step(o, c, a, STEP_EXTERN, 0);
        demo_out_ch(o, ',');
        js_step(o, c, a, STEP_ZERO, 1);
    } else {
        js_step(o, c, a, STEP_BATCH, 1);
        demo_out_ch(o, ',');
        js_step(o, c, a, STEP_EXTERN, 0);
    }
    demo_out_ch(o, ']');
}

static void js_job_time(DemoOut *o, const JobCtx *c, const Att *a)
{
    int64_t cpu = cpu_seconds(c, a);
    demo_out_str(o, ",\"time\":{\"elapsed\":");
    demo_out_int(o, a->end - a->start);
    demo_out_str(o, ",\"eligible\":");
    demo_out_int(o, a->eligible);
    demo_out_str(o, ",\"end\":");
    demo_out_int(o, a->running ? 0 : a->end);
    demo_out_str(o, ",\"start\":");
    demo_out_int(o, a->start);
    demo_out_str(o, ",\"submission\":");
    demo_out_int(o, a->submit);
    js_time_end(o, cpu, 1, c->j->limit / 60);
}

static void js_ids(DemoOut *o, const JobCtx *c)
{
    const DemoJob *j = c->j;
    demo_out_str(o, "\"account\":");
    js_str(o, c->account);
    demo_out_str(o, ",\"allocation_nodes\":");
    demo_out_int(o, c->nodes);
    demo_out_str(o, ",\"array\":{\"job_id\":");
    demo_out_int(o, j->array_n ? j->array_job : 0);
    demo_out_str(o, ",\"limits\":{\"max\":{\"running\":{\"tasks\":0}}},\"task_id\":");
    js_num(o, j->array_n > 0, j->array_n ? j->array_task : 0);
    demo_out_str(o, ",\"task\":\"\"},\"association\":{\"account\":");
    js_str(o, c->account);
    demo_out_str(o, ",\"cluster\":");
    js_str(o, c->cl->name);
    demo_out_str(o, ",\"partition\":");
    js_str(o, demo_part_names[j->part]);
    demo_out_str(o, ",\"user\":");
    js_str(o, c->p->user);
    demo_out_str(o, ",\"id\":0},\"cluster\":");
    js_str(o, c->cl->name);
}

/* The job's own fields between its ids and its steps. */
static void js_job_fields(DemoOut *o, const JobCtx *c, const Att *a)
{
    const DemoJob *j = c->j;
    demo_out_str(o, ",\"derived_exit_code\":");
    js_exit(o, c, a->state, 0);
    demo_out_str(o, ",\"exit_code\":");
    js_exit(o, c, a->state, 0);
    demo_out_str(o, ",\"flags\":[\"STARTED_ON_SCHEDULE\"],\"group\":\"\",\"het\":{\"job_id\":0,"
                    "\"job_offset\":");
    js_num(o, 0, 0);
    demo_out_str(o, "},\"job_id\":");
    demo_out_int(o, j->job_raw);
    demo_out_str(o, ",\"kill_request_user\":");
    js_str(o, a->state == DEMO_OUT_CANCELLED ? c->p->user : "");
    demo_out_str(o, ",\"name\":");
    js_str(o, demo_job_names[j->name]);
    demo_out_str(o, ",\"nodes\":\"");
    put_nodes(o, c, c->nodes);
    demo_out_str(o, "\",\"partition\":");
    js_str(o, demo_part_names[j->part]);
    demo_out_str(o, ",\"priority\":");
    js_num(o, 1, 10000 + (j->part * 5000));
    demo_out_str(o, ",\"qos\":\"normal\",\"required\":{\"CPUs\":");
    demo_out_int(o, j->ncpus);
    demo_out_str(o, ",\"memory_per_cpu\":");
    js_num(o, 0, 0);
    demo_out_str(o, ",\"memory_per_node\":");
    js_num(o, 1, (int64_t)j->mem_req_gib * 1024);
    demo_out_str(o, "},\"restart_cnt\":");
    demo_out_int(o, a->restart);
    demo_out_str(o, ",\"state\":{\"current\":");
    js_state_list(o, a->state, 0);
    demo_out_str(o, ",\"reason\":");
    js_str(o, a->restart ? "BeginTime" : "None");
    demo_out_ch(o, '}');
}

/* One attempt as one element of "jobs". */
static void js_attempt(void *ctx, const DemoWorld *w, const DemoJob *j, const Att *a)
{
    FileSet *fs = ctx;
    DemoOut *o = &fs->out;
    JobCtx c;
    job_ctx(w, j, a->start, &c);
    if (fs->elements++)
        demo_out_str(o, ",\n");
    demo_out_ch(o, '{');
    js_ids(o, &c);
    js_job_fields(o, &c, a);
    js_steps(o, &c, a);
    js_job_time(o, &c, a);
    demo_out_str(o, ",\"tres\":{\"allocated\":");
    js_tres(o, &c, 1);
    demo_out_str(o, ",\"requested\":");
    js_tres(o, &c, 1);
    demo_out_str(o, "},\"user\":");
    js_str(o, c.p->user);
    demo_out_ch(o, '}');
}

static void js_meta(DemoOut *o, const char *cluster)
{
    demo_out_str(o, "\n],\n\"meta\":{\"plugin\":{\"type\":\"\",\"name\":\"\",\"data_parser\":"
                    "\"data_parser/v0.0.41\",\"accounting_storage\":"
                    "\"accounting_storage/slurmdbd\"},\"client\":{\"source\":\"\",\"user\":"
                    "\"sacct\",\"group\":\"sacct\"},\"command\":[\"sacct\",\"--json\"],"
                    "\"slurm\":{\"version\":{\"major\":\"24\",\"minor\":\"05\",\"micro\":\"4\"},"
                    "\"release\":\"24.05.4\",\"cluster\":");
    js_str(o, cluster);
    demo_out_str(o, "}},\n\"warnings\":[],\n\"errors\":[]\n}\n");
}

/* ---- files ---- */

static int close_file(FileSet *fs, const char *cluster, CpErr *err)
{
    if (!fs->open)
        return 0;
    if (fs->json)
        js_meta(&fs->out, cluster);
    fs->open = 0;
    if (demo_out_close(&fs->out, err) < 0)
        return -1;
    demo_files_add(fs->files, "sacct", fs->name, fs->out.bytes);
    return 0;
}

static int open_file(FileSet *fs, const char *cluster, int json, int64_t t, CpErr *err)
{
    int y, m, d;
    demo_ymd(t, &y, &m, &d);
    if (json)
        snprintf(fs->name, sizeof fs->name, "%s/sacct-%s-from-%04d-%02d.json", fs->dir, cluster, y,
                 m);
    else
        snprintf(fs->name, sizeof fs->name, "%s/sacct-%s-%04d.txt", fs->dir, cluster, y);
    if (demo_out_open(&fs->out, fs->name, err) < 0)
        return -1;
    fs->open = 1;
    fs->json = json;
    demo_out_str(&fs->out, json ? "{\n\"jobs\":[\n" : sacct_header);
    fs->elements = 0;
    return 0;
}

/* File for a job submitted at t on cluster c: a new one when the year
 * changes, or JSON from the cluster's json_from on. */
static int file_for(FileSet *fs, int c, int64_t t, int *cur_year, CpErr *err)
{
    const DemoCluster *cl = &fs->w->clusters[c];
    int json = t >= cl->json_from, y, m, d;
    demo_ymd(t, &y, &m, &d);
    if (fs->open && fs->json == json && (json || y == *cur_year))
        return 0;
    if (close_file(fs, cl->name, err) < 0 || open_file(fs, cl->name, json, t, err) < 0)
        return -1;
    *cur_year = y;
    return 0;
}

static int write_cluster(FileSet *fs, int c, size_t *i, CpErr *err)
{
    const DemoWorld *w = fs->w;
    int year = 0;
    for (; *i < w->norder; (*i)++) {
        const DemoJob *j = &w->jobs[w->order[*i]];
        if (w->pools[j->pool].cluster != c)
            break;
        if (file_for(fs, c, j->submit, &year, err) < 0)
            return -1;
        for_attempts(w, j, fs->json ? js_attempt : text_attempt, fs);
    }
    return close_file(fs, w->clusters[c].name, err);
}

int demo_write_sacct(const DemoWorld *w, const char *dir, DemoFiles *files, CpErr *err)
{
    FileSet fs;
    memset(&fs, 0, sizeof fs);
    fs.w = w;
    fs.dir = dir;
    fs.files = files;
    size_t i = 0;
    for (int c = 0; c < DEMO_NCLUSTERS; c++)
        if (write_cluster(&fs, c, &i, err) < 0) {
            if (fs.open)
                demo_out_close(&fs.out, NULL);
            return -1;
        }
    return 0;
}
