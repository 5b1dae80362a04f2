#ifndef SACCT_FIELDS_H
#define SACCT_FIELDS_H
/* sacct_fields: what each sacct field name means, shared by every reader
 * of sacct's text shapes (pipe with or without header, other delimiters,
 * Key=Value CSV). A reader maps each column's name to a field once
 * (sacctf_lookup), then for every row calls sacctf_set for each value and
 * sacctf_finish to derive what depends on several fields (per-CPU memory,
 * the job id parts, the GPU count from TRES or GRES) and to refuse what
 * cannot be true (jobrec_check: "GPU count 1e+308 above 4096 per job").
 *
 * The memory request is ReqTRES's mem when given, else ReqMem's; a ReqMem
 * that disagrees with it, or carries Slurm's 2^31 per-CPU flag as a value
 * ("2147486648Mn": 3000 MiB per CPU), sets CP_REC_MEM_CONFLICT and is never
 * kept as it reads.
 *
 * Values are borrowed slices of the reader's line, each NUL-terminated at
 * v[n] (readers split lines in place); the row keeps pointers into them, so
 * the line must stay alive until the record has been passed to the sink. */

#include <stddef.h>

#include "core/cp.h"
#include "core/jobrec.h"
#include "data/ingest/fields.h"

typedef struct CpTz CpTz; /* data/ingest/tz.h */

typedef enum SacctField {
    SF_IGNORED = 0,
    SF_ALLOCNODES, /* #14: multi-node jobs named by AllocNodes rather than NNodes */
    SF_JOBID, SF_JOBIDRAW, SF_CLUSTER, SF_PARTITION, SF_QOS, SF_ACCOUNT, SF_USER,
    SF_JOBNAME, SF_STATE, SF_EXITCODE, SF_SUBMIT, SF_ELIGIBLE, SF_START, SF_END,
    SF_ELAPSED, SF_ELAPSEDRAW, SF_TIMELIMIT, SF_TIMELIMITRAW, SF_NNODES, SF_NCPUS,
    SF_REQCPUS, SF_ALLOCCPUS, SF_REQNODES, SF_REQMEM, SF_MAXRSS, SF_REQTRES, SF_ALLOCTRES,
    SF_TRESUSAGEINMAX, SF_REQGRES, SF_ALLOCGRES, SF_NODELIST, SF_TOTALCPU, SF_USERCPU,
    SF_SYSTEMCPU, SF_CPUTIMERAW,
    SF_ADMINCOMMENT, /* jobstats' summary (data/ingest/jobstats.h), #14 */
    SF_COUNT
} SacctField;

/* Field for a sacct column name (case-insensitive, as `sacct --helpformat`
 * spells them, e.g. "JobIDRaw", "AllocTRES"). SF_IGNORED for others. */
SacctField sacctf_lookup(const char *name, size_t n);

/* Canonical name of a field ("Elapsed"), for error messages. */
const char *sacctf_name(SacctField f);

/* The 26-field list of Open XDMoD's shredder, comma-separated. */
extern const char sacctf_xdmod_fields[];

/* One row being read. */
typedef struct SacctRow {
    CpJobRec rec;
    char *val[SF_COUNT]; /* borrowed slices, NULL when absent (writable: see finish);
                          * val[SF_IGNORED] is never read (sacctf_set_cols puts the
                          * ignored columns there) */
    size_t len[SF_COUNT];
    struct SacctMemo *memo; /* the reader's, borrowed; NULL: parse every value */
} SacctRow;

/* What a reader's last lines held, to read repeated values once (issue 14
 * item 14): the TRES lists a file repeats, and the last time values (a
 * job's steps repeat its start and end). Owned by one reader; all zero
 * bytes is empty. */
#define SACCT_MEMO_TIMES 4
typedef struct SacctMemo {
    FieldsTresMemo tres;
    uint64_t time_key[SACCT_MEMO_TIMES][3]; /* "YYYY-MM-DDTHH:MM:SS" as 8 + 8 + 3 bytes */
    int64_t time_val[SACCT_MEMO_TIMES];
    const CpTz *time_tz; /* the zone the values were read in */
    int time_next;       /* the slot the next new value takes */
} SacctMemo;

/* Start a row: every field absent, no memo. */
void sacctf_row_init(SacctRow *row);

/* The next row of a reader that sets the same fields on every row: the
 * record back to unknown, the values and the memo kept for it to set again
 * (issue 31 item 3: no clearing of every field a line). */
void sacctf_row_next(SacctRow *row);

/* Remember the value of field f (borrowed slice, v[n] == '\0'). */
void sacctf_set(SacctRow *row, SacctField f, char *v, size_t n);

/* sacctf_set(row, cols[i], v[i], n[i]) for each of the ncols columns
 * (each cols[i] one of sacctf_lookup's answers). */
void sacctf_set_cols(SacctRow *row, const SacctField *cols, char *const *v, const size_t *n,
                     int ncols);

/* Parse every remembered value into row->rec. On a bad value returns -1,
 * with *bad_field set to the field's name and err holding the reason
 * ("bad duration '1-2x:00'"). Strings in rec point into the values; the
 * JobID value is cut at its step suffix in place ("5_3.batch" -> "5_3"). */
int sacctf_finish(SacctRow *row, const CpTz *tz, const char **bad_field, CpErr *err);

#endif
