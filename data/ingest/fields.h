#ifndef FIELDS_H
#define FIELDS_H
/* fields: parse Slurm's field notations into normalised numbers.
 * Pure functions over a (pointer, length) slice of text; no I/O, no
 * allocation. Each returns 0 on success and -1 on a malformed value, with
 * err holding the reason (without file or line: the caller adds them). */

#include <stddef.h>
#include <stdint.h>

#include "core/civil.h" /* fields_epoch_of, fields_civil_of */
#include "core/cp.h"
#include "core/fieldtext.h" /* fields_time, fields_int, fields_double */
#include "core/jobrec.h"


/* "MM:SS", "HH:MM:SS", "D-HH:MM:SS", "D-HH", "MM:SS.mmm", plain seconds
 * when raw_seconds, "UNLIMITED"/"Partition_Limit"/"INFINITE" ->
 * CP_DUR_UNLIMITED, "" -> CP_DUR_UNKNOWN. Fractions are dropped. */
int fields_duration(const char *s, size_t n, int64_t *out, CpErr *err);

/* Memory "4000M", "4G", "16Gn", "2Gc", "4000Mc", "33549588K", "62.50G",
 * "0n", a plain number (MiB, or bytes when plain_is_bytes). A per-CPU
 * suffix is multiplied by ncpus and per-node by nnodes (when known, > 0).
 * "" -> -1, and "0n"/"0c" (all the node's memory) -> -1: unknown, not 0.
 * Result in MiB. */
int fields_mem(const char *s, size_t n, int plain_is_bytes, int32_t ncpus, int32_t nnodes,
               double *out_mib, CpErr *err);

/* What a TRES string says: "billing=1,cpu=1,gres/gpu:a100=1,gres/gpu=1,mem=100M,node=1".
 * gpus: the untyped gres/gpu total if present, else the sum of typed entries,
 * never both; a MIG type "a100_3g.20gb" counts 3/7 of a GPU. Negative fields
 * mean "not present". gpumem (TRESUsageInMax) is given in GiB. */
typedef struct CpTres {
    double gpus;       /* -1 absent */
    char gpu_type[CP_GPU_TYPE_MAX];
    double mem_mib;    /* -1 absent */
    double cpus;       /* -1 absent */
    double nodes;      /* -1 absent */
    double gpu_mem_gib; /* gres/gpumem, -1 absent */
    double gpu_util;   /* gres/gpuutil, -1 absent */
} CpTres;

int fields_tres(const char *s, size_t n, CpTres *out, CpErr *err);

/* The TRES strings read last, with what fields_tres made of them: a file
 * repeats a few AllocTRES / ReqTRES shapes on most of its lines (a job
 * and its steps, every job of one partition). Owned by one reader; all
 * zero bytes is empty. */
#define FIELDS_TRES_MEMO_SLOTS 1024
#define FIELDS_TRES_MEMO_LEN 96 /* longer strings are parsed every time */
typedef struct FieldsTresMemoSlot {
    int used;
    size_t len;
    char text[FIELDS_TRES_MEMO_LEN];
    CpTres tres;
} FieldsTresMemoSlot;
typedef struct FieldsTresMemo {
    FieldsTresMemoSlot slot[FIELDS_TRES_MEMO_SLOTS];
} FieldsTresMemo;

/* fields_tres(s, n, out, err), answered from m when s was read before
 * (only values it accepted are kept); m remembers s. Same result. */
int fields_tres_memo(FieldsTresMemo *m, const char *s, size_t n, CpTres *out, CpErr *err);

/* GPU count of one typed or untyped TRES/GRES name and count, as used by
 * both TRES strings and sacct --json lists: name "gpu", "gpu:a100",
 * "gpu:a100_3g.20gb"; adds to *untyped or *typed and records the type. */
void fields_gpu_entry(const char *name, size_t n, double count, double *untyped,
                      double *typed, char type_out[CP_GPU_TYPE_MAX]);

/* GRES request strings: "gpu:2", "gpu:V100:32", "gpu:4,hbm:0",
 * "gpu:P100:2(IDX:1,3)", "gpu:0(IDX:N/A)". gpus -1 when no gpu entry. */
int fields_gres(const char *s, size_t n, double *gpus, char type_out[CP_GPU_TYPE_MAX], CpErr *err);

/* "CANCELLED by 1234" -> CP_ST_CANCELLED; unknown words -> CP_ST_OTHER. */
CpState fields_state(const char *s, size_t n);

/* "0:15" -> code 0, signal 15. "" -> -1/-1. */
int fields_exit(const char *s, size_t n, int *code, int *sig, CpErr *err);

/* Job ids: "19", "19.batch", "5_3", "5_3.batch", "4103947_[1-3]", "123+0".
 * Fills raw (numeric part before '_' or '.'), array parent and task, and the
 * step suffix (pointer into s, NULL for none). */
int fields_jobid(const char *s, size_t n, int64_t *id, int64_t *array_job, int32_t *array_task,
                 const char **step, size_t *step_len, CpErr *err);

#endif
