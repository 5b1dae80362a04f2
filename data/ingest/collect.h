#ifndef COLLECT_H
#define COLLECT_H
/* collect: run sacct on this Slurm cluster and import what it prints,
 * incrementally (`capplan collect`).
 *
 * sacct is run by fork/exec with an argument array (never through a
 * shell), with TZ=UTC and SLURM_TIME_FORMAT=standard in its environment and
 * standard input from /dev/null, as
 *
 *   sacct -a -D -P --format=COLLECT_FIELDS --state=COLLECT_STATES
 *         -S SINCE -E now [-M CLUSTERS]          (--json: -P --format left out)
 *
 * The explicit state list with -E now is what makes sacct list jobs that
 * never started (cancelled while pending); -D lists every attempt of a
 * requeued job; JobName comes last, so that a name holding the delimiter
 * still reads. Its standard output goes to an unlinked temporary file, its
 * standard error to another; only when sacct exited 0 and printed no error
 * does the import start (import_sacct, one transaction), so a failing sacct
 * leaves the database as it was.
 *
 * The window: the collects table (data/store/store_collect.c) keeps the
 * windows read so far per source (the sacct command as given, see
 * collect_source) and cluster list: two slurmdbds collected into one
 * database each continue from their own last window. Without since, the next window starts
 * where the windows cover without a gap, less COLLECT_OVERLAP_S, so that
 * jobs still pending or running last time, and records that reached
 * slurmdbd late (slurmctld queues them while slurmdbd is down), are read
 * again: the store replaces an attempt with the same cluster, job id and
 * submit time, so a job seen RUNNING and then COMPLETED ends as one
 * completed job. The first collect reads from COLLECT_FIRST_SINCE: all that
 * the accounting database holds. The window is recorded only after an
 * import that rejected no line.
 *
 * By month (o->month): [since, now] is cut at the first second of each
 * calendar month, UTC; each piece is one sacct (-S FROM -E TO, the last -E
 * now), one import transaction and one recorded window, so that years of
 * history are not one query, and a collect that is killed keeps the months
 * it finished: the next one starts from the last complete month (less the
 * overlap). A window that imports nothing leaves no imports row. Through
 * another machine (--sacct of several words: one ssh session a sacct), the
 * whole window is asked of sacct at once instead, one session and one
 * transaction; only when slurmdbd refuses so wide a range (MaxQueryTimeRange:
 * "Too wide of a date range in query") month by month.
 *
 * --sacct given as several words ("ssh login1 sacct", "sudo -u slurm
 * sacct"): the last word is sacct, run through the words before it as
 *   WORDS... env TZ=UTC SLURM_TIME_FORMAT=standard SACCT ARGS...
 * (ssh does not pass our environment on). Before the first window, when
 * scontrol show config (run the same way, from sacct's directory) says
 * PrivateData=jobs and the user sacct runs as (id -un) is neither root,
 * SlurmUser nor an Operator/Administrator (sacctmgr show user), collect
 * refuses: sacct -a would silently list that user's jobs only. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"
#include "data/ingest/import.h"

typedef struct Store Store;

/* capplan's own sacct field list. */
#define COLLECT_FIELDS                                                                        \
    "JobID,JobIDRaw,Cluster,Partition,QOS,Account,User,State,ExitCode,Submit,Eligible,Start," \
    "End,ElapsedRaw,TimelimitRaw,NNodes,NCPUS,ReqMem,MaxRSS,ReqTRES,AllocTRES,"              \
    "TRESUsageInMax,TotalCPU,NodeList,JobName"
/* Every state sacct selects on (Slurm 22.05's list). */
#define COLLECT_STATES "PD,R,RQ,RS,RV,S,CA,CD,F,TO,NF,PR,OOM,BF,DL"
/* How far back of the covered windows a collect reads again: one day. */
#define COLLECT_OVERLAP_S 86400
/* 2000-01-01T00:00:00Z: the first collect reads everything (Slurm reads
 * -S 1970-01-01 as no start time at all). */
#define COLLECT_FIRST_SINCE INT64_C(946684800)

typedef struct CollectOpts {
    const char *sacct;    /* the command: a path, or a name looked up in PATH ("sacct"), or
                             words ("ssh login1 sacct", see above) */
    const char *clusters; /* sacct -M LIST ("all": every cluster of the slurmdbd); NULL or
                             "" = the machine's cluster */
    int json;             /* sacct --json instead of -P text */
    int64_t since;        /* CP_TIME_NONE (INT64_MIN): from the stored windows */
    const char *tmpdir;   /* for sacct's output; NULL: $TMPDIR, else /tmp */
    int progress;         /* import progress on stderr (single window only) */
    int month;            /* one sacct query and one transaction a month (see above) */
    /* after each window: its first second, its number (1-based) of n, what
     * it imported; NULL for none */
    void (*window_done)(void *ctx, int64_t since, int i, int n, const ImportResult *r);
    void *window_ctx;
    void (*reject)(void *ctx, const char *msg); /* each rejected line, "sacct:LINE: ..." */
    void *reject_ctx;
} CollectOpts;

typedef struct CollectResult {
    int64_t since, until;   /* the window read: -S since, until = when sacct was started */
    char label[256];        /* "sacct since 2026-11-21T08:00:00Z[ -M LIST]" */
    char warning[256];      /* sacct's first line on stderr when it succeeded, or "" */
    int recorded;           /* the last window was stored (no rejected line) */
    int windows, done;      /* windows to read (months with o->month, else 1), read */
    ImportResult import;    /* summed over the windows read */
} CollectResult;

/* Defaults: "sacct" from PATH, local cluster, text, stored window, by month. */
void collect_opts_init(CollectOpts *o);

/* The key of a source: the sacct command as given (NULL or "": "sacct"),
 * its words joined by one blank, into out (cut at sz). */
void collect_source(const char *sacct, char *out, size_t sz);

/* Where the next collect of this sacct command (as given to --sacct, NULL:
 * "sacct") and cluster list ("" = local) starts: COLLECT_FIRST_SINCE when
 * none was recorded, else the end of the windows covered without a gap
 * (from the earliest since) less COLLECT_OVERLAP_S. Returns 0, or -1 with
 * err filled. */
int collect_next_since(Store *st, const char *sacct, const char *clusters, int64_t *since,
                       CpErr *err);

/* How many calendar months (UTC) [since, now] touches: the windows of a
 * collect by month. */
int collect_months(int64_t since, int64_t now);

/* Run sacct and import its output. Returns 0 when sacct succeeded and its
 * output was imported (res->import.rejected may still be > 0: those lines
 * went to o->reject and the window was not recorded); -1 with err filled:
 * "sacct: <its first error line>" or the import's error, the database
 * unchanged; or, rarely, the window could not be recorded after the import
 * committed (the next collect then reads the same window again). */
int collect_run(Store *st, const CollectOpts *o, CollectResult *res, CpErr *err);

#endif
