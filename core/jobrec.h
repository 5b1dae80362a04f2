#ifndef JOBREC_H
#define JOBREC_H
/* jobrec: one accounting record as every reader produces it, whatever the
 * input format (sacct text, sacct --json, Key=Value CSV, public traces),
 * and the sink that receives it.
 *
 * Contract (as ncdu's dir_output): every pointer inside a record is
 * borrowed and dies when the sink call returns; a sink that keeps a value
 * copies it. Units are normalised by the reader: times in epoch seconds
 * UTC, durations in seconds, memory in MiB, GPU memory in GiB. */

#include <stdint.h>

#include "core/cp.h"

#define CP_TIME_NONE INT64_MIN /* time Unknown, None or absent */
#define CP_DUR_UNKNOWN (-1)    /* duration absent or unparsable-but-allowed */
#define CP_DUR_UNLIMITED (-2)  /* UNLIMITED, Partition_Limit, INFINITE */
#define CP_GPU_TYPE_MAX 48     /* longest GPU type name kept (Slurm's are ~12) */

/* Normalised job states; the raw text is kept beside it. */
typedef enum CpState {
    CP_ST_OTHER = 0, /* a state capplan does not know: kept, not rejected */
    CP_ST_PENDING,
    CP_ST_RUNNING,
    CP_ST_SUSPENDED,
    CP_ST_COMPLETED,
    CP_ST_FAILED,
    CP_ST_CANCELLED,
    CP_ST_TIMEOUT,
    CP_ST_PREEMPTED,
    CP_ST_NODE_FAIL,
    CP_ST_OUT_OF_MEMORY,
    CP_ST_REQUEUED,
    CP_ST_BOOT_FAIL,
    CP_ST_DEADLINE,
    CP_ST_COUNT
} CpState;

typedef struct CpJobRec {
    const char *cluster;   /* "" when the input does not say */
    const char *job_id;    /* as displayed: "5_3", "4103947_[1-3]", "19" */
    int64_t job_raw;       /* numeric JobIDRaw (the real id of an array task) */
    int64_t array_job;     /* parent array id, 0 if not an array task */
    int32_t array_task;    /* task id, -1 if none or a pending range */
    const char *step;      /* NULL for a job row; "batch", "extern", "0"... */
    const char *user;
    const char *account;
    const char *partition;
    const char *qos;
    const char *job_name;
    const char *nodelist;
    const char *state_raw; /* exactly as written, e.g. "CANCELLED by 1234" */
    CpState state;
    int exit_code;         /* -1 unknown */
    int exit_signal;       /* -1 unknown */
    int64_t submit, eligible, start, end; /* CP_TIME_NONE if unknown */
    int64_t elapsed;       /* seconds, CP_DUR_UNKNOWN */
    int64_t timelimit;     /* seconds, CP_DUR_UNKNOWN or CP_DUR_UNLIMITED */
    int32_t nnodes;        /* -1 unknown */
    int32_t ncpus;         /* whole CPUs (a fraction rounded up), -1 unknown */
    int32_t cpu_milli;     /* the CPUs exactly, in thousandths, when the input gives a
                            * fraction (Alibaba's cpu_milli 3152); -1 when ncpus is exact (#29) */
    double req_mem_mib;    /* whole-job request, -1 unknown */
    double max_rss_mib;    /* peak resident memory over steps, -1 unknown */
    double gpus;           /* allocated GPUs (requested if never allocated); MIG fractional */
    double req_gpus;       /* requested GPUs, -1 unknown */
    char gpu_type[CP_GPU_TYPE_MAX]; /* "a100", "" if untyped */
    double gpu_mem_gib;    /* peak GPU memory used, -1 unknown (never 0 for unknown) */
    double gpu_util;       /* mean GPU utilisation 0..100, -1 unknown */
    double total_cpu_s;    /* CPU time used, -1 unknown */
    unsigned flags;        /* CP_REC_*: what the reader doubted */
    uint64_t rec_hash;     /* store_rec_hash of it, computed on the reader's thread; 0 not yet */
} CpJobRec;

/* flags: ReqMem disagreed with ReqTRES's mem (or was Slurm's 2^31 per-CPU
 * artefact); the request kept is ReqTRES's, or unknown. */
#define CP_REC_MEM_CONFLICT 1u

/* Reset every field to "unknown" (strings become ""). */
void jobrec_clear(CpJobRec *r);

/* Receives records. Returns 0, or -1 with err filled to stop the reader. */
typedef struct CpJobSink {
    int (*job)(void *ctx, const CpJobRec *rec, CpErr *err);
    void *ctx;
} CpJobSink;

/* Set a record's CPUs from a count that may be fractional (3.152): ncpus
 * rounded up, cpu_milli the exact thousandths when not whole; a negative
 * or non-finite count makes both unknown. */
void jobrec_set_cpus(CpJobRec *r, double cpus);

/* The record's CPUs exactly (cpu_milli / 1000 or ncpus), -1 unknown. */
double jobrec_cpus(const CpJobRec *r);

/* Display name of a normalised state ("COMPLETED"). Static storage. */
const char *jobrec_state_name(CpState s);

/* 1 for the states a job attempt ends in (COMPLETED, FAILED, TIMEOUT,
 * CANCELLED, OUT_OF_MEMORY, PREEMPTED, NODE_FAIL, BOOT_FAIL, DEADLINE). */
int jobrec_final(CpState s);

/* 1 when every real-valued member is finite. */
int jobrec_finite(const CpJobRec *r);

/* Bounds of what one Slurm job can say (issue 14). */
#define CP_MAX_GPUS 4096.0                       /* GPUs per job */
#define CP_MAX_MEM_MIB (1024.0 * 1024.0 * 1024.0) /* 1 PiB */
#define CP_MAX_DURATION_S 315576000               /* 10 years of 365.25 days */
#define CP_EPOCH_FLOOR 946684800                  /* 2000-01-01: earlier is not a Slurm time */

/* The member of a record jobrec_check refused; each reader names it with
 * its own field ("AllocTRES", "tres.allocated"). */
typedef enum CpRecMember {
    CP_M_NONE = 0, CP_M_END, CP_M_ELAPSED, CP_M_TIMELIMIT, CP_M_GPUS, CP_M_REQ_GPUS,
    CP_M_REQ_MEM, CP_M_MAX_RSS, CP_M_GPU_MEM, CP_M_GPU_UTIL, CP_M_CPU_TIME,
    CP_M_COUNT
} CpRecMember;

/* What a record read from a Slurm accounting snapshot can be, checked in
 * place: times before 2000-01-01 become unknown (a seen `end` of 13798);
 * a run with an end (real or garbage) but no real start, and an elapsed,
 * gets start = end - elapsed when a real end allows it (not before
 * submit), else its elapsed becomes unknown;
 * a job not yet final (PENDING, RUNNING, SUSPENDED, REQUEUED) has run at
 * most its time limit, so a longer elapsed is cut to it. Returns 0, or -1
 * with *bad the member at fault and err the reason: a non-finite number,
 * GPUs above CP_MAX_GPUS, memory above 1 PiB, a duration above 10 years,
 * an end before the start. Not for public traces (their times are
 * relative or older than Slurm). */
int jobrec_check(CpJobRec *r, CpRecMember *bad, CpErr *err);

#endif
