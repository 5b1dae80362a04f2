#include "core/jobrec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/civil.h"

void jobrec_clear(CpJobRec *r)
{
    memset(r, 0, sizeof *r);
    r->cluster = r->job_id = r->user = r->account = r->partition = r->qos = "";
    r->job_name = r->nodelist = r->state_raw = "";
    r->step = NULL;
    r->array_task = -1;
    r->state = CP_ST_OTHER;
    r->exit_code = r->exit_signal = -1;
    r->submit = r->eligible = r->start = r->end = CP_TIME_NONE;
    r->elapsed = r->timelimit = CP_DUR_UNKNOWN;
    r->nnodes = r->ncpus = r->cpu_milli = -1;
    r->req_mem_mib = r->max_rss_mib = r->req_gpus = r->gpu_mem_gib = -1;
    r->gpu_util = r->total_cpu_s = -1;
    r->gpus = 0;
}

void jobrec_set_cpus(CpJobRec *r, double cpus)
{
    r->ncpus = r->cpu_milli = -1;
    if (!(cpus >= 0) || cpus > (double)INT32_MAX / 1000.0)
        return;
    double milli = round(cpus * 1000.0);
    r->ncpus = (int32_t)ceil(milli / 1000.0);
    if (fmod(milli, 1000.0) != 0)
        r->cpu_milli = (int32_t)milli;
}

double jobrec_cpus(const CpJobRec *r)
{
    if (r->cpu_milli >= 0)
        return r->cpu_milli / 1000.0;
    return r->ncpus >= 0 ? (double)r->ncpus : -1;
}

const char *jobrec_state_name(CpState s)
{
    static const char *names[CP_ST_COUNT] = {
        "OTHER",     "PENDING",   "RUNNING",  "SUSPENDED",     "COMPLETED",
        "FAILED",    "CANCELLED", "TIMEOUT",  "PREEMPTED",     "NODE_FAIL",
        "OUT_OF_MEMORY", "REQUEUED", "BOOT_FAIL", "DEADLINE",
    };
    return (unsigned)s < CP_ST_COUNT ? names[s] : "OTHER";
}

int jobrec_final(CpState s)
{
    switch (s) {
    case CP_ST_COMPLETED: case CP_ST_FAILED: case CP_ST_TIMEOUT: case CP_ST_CANCELLED:
    case CP_ST_OUT_OF_MEMORY: case CP_ST_PREEMPTED: case CP_ST_NODE_FAIL: case CP_ST_BOOT_FAIL:
    case CP_ST_DEADLINE:
        return 1;
    default:
        return 0;
    }
}

int jobrec_finite(const CpJobRec *r)
{
    const double v[] = {r->req_mem_mib, r->max_rss_mib, r->gpus, r->req_gpus,
                        r->gpu_mem_gib, r->gpu_util,    r->total_cpu_s};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

/* ISO text of t (UTC) into buf, for messages. */
static const char *iso(int64_t t, char buf[32])
{
    return fields_iso(t, buf, 32);
}

/* Times before 2000 become unknown. A run with an end but whose start is
 * unknown or was garbage (sacct --json's `start 0` of a job cancelled while
 * pending, with `end 13798` and `elapsed 13798`) has no place in time: its elapsed is
 * dropped (its hours unknown, not placed from the submit time), unless a
 * real end and the elapsed agree on a start at or after the submit time,
 * which is then kept (#29). */
static void floor_times(CpJobRec *r)
{
    int had_end = r->end != CP_TIME_NONE; /* a record that says when it ended */
    int64_t *t[] = {&r->submit, &r->eligible, &r->start, &r->end};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (*t[i] != CP_TIME_NONE && *t[i] < CP_EPOCH_FLOOR)
            *t[i] = CP_TIME_NONE;
    /* a list with no Start and no End column at all keeps its Elapsed */
    if (r->start != CP_TIME_NONE || r->elapsed <= 0 || !had_end)
        return;
    int64_t derived = r->end != CP_TIME_NONE ? r->end - r->elapsed : CP_TIME_NONE;
    if (derived != CP_TIME_NONE && derived >= CP_EPOCH_FLOOR &&
        (r->submit == CP_TIME_NONE || derived >= r->submit))
        r->start = derived;
    else
        r->elapsed = CP_DUR_UNKNOWN;
}

static int check_numbers(const CpJobRec *r, CpRecMember *bad, CpErr *err)
{
    static const struct {
        CpRecMember m;
        double max;
        const char *what, *limit;
    } lim[] = {
        {CP_M_GPUS, CP_MAX_GPUS, "GPU count", "above 4096 per job"},
        {CP_M_REQ_GPUS, CP_MAX_GPUS, "GPU count", "above 4096 per job"},
        {CP_M_REQ_MEM, CP_MAX_MEM_MIB, "memory (MiB)", "above 1 PiB"},
        {CP_M_MAX_RSS, CP_MAX_MEM_MIB, "memory (MiB)", "above 1 PiB"},
        {CP_M_GPU_MEM, CP_MAX_MEM_MIB / 1024, "GPU memory (GiB)", "above 1 PiB"},
        {CP_M_GPU_UTIL, 1e6, "GPU utilisation (%)", "out of range"},
        {CP_M_CPU_TIME, 1e15, "CPU time (s)", "out of range"},
    };
    const double v[] = {r->gpus,        r->req_gpus, r->req_mem_mib, r->max_rss_mib,
                        r->gpu_mem_gib, r->gpu_util, r->total_cpu_s};
    for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++) {
        *bad = lim[i].m;
        if (!isfinite(v[i]))
            return cp_err_set(err, "%s is not a finite number", lim[i].what);
        if (v[i] > lim[i].max)
            return cp_err_set(err, "%s %.6g %s", lim[i].what, v[i], lim[i].limit);
    }
    const int64_t d[] = {r->elapsed, r->timelimit};
    for (int i = 0; i < 2; i++) {
        *bad = i ? CP_M_TIMELIMIT : CP_M_ELAPSED;
        if (d[i] > CP_MAX_DURATION_S)
            return cp_err_set(err, "duration %lld s above 10 years", (long long)d[i]);
    }
    *bad = CP_M_NONE;
    return 0;
}

int jobrec_check(CpJobRec *r, CpRecMember *bad, CpErr *err)
{
    *bad = CP_M_NONE;
    floor_times(r);
    /* a job still running (or pending, suspended, requeued) has run at
     * most its time limit by the snapshot's time */
    if (!jobrec_final(r->state) && r->state != CP_ST_OTHER && r->timelimit > 0 &&
        r->elapsed > r->timelimit)
        r->elapsed = r->timelimit;
    if (check_numbers(r, bad, err) < 0)
        return -1;
    if (r->start != CP_TIME_NONE && r->end != CP_TIME_NONE && r->end < r->start) {
        char a[32], b[32];
        *bad = CP_M_END;
        return cp_err_set(err, "end %s before start %s", iso(r->end, a), iso(r->start, b));
    }
    return 0;
}
