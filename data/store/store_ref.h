#ifndef STORE_REF_H
#define STORE_REF_H
/* store_ref: the SQL of the reference tables (people, groups, inventory,
 * events, pubs, gpu_metrics) and the link from measured GPU metrics to the
 * jobs they describe. Every statement is prepared once per StoreRef and
 * every value bound; nothing from a file is spliced into SQL text.
 *
 * Each write is keyed by its table's UNIQUE constraint and says what it
 * did: a new row (added), a row whose other values changed (updated), or
 * nothing (unchanged), so that re-importing a file adds nothing. Callers
 * run these inside store_begin/store_commit; this module never begins,
 * commits or rolls back. */

#include <stdint.h>

#include "core/cp.h"

typedef struct Store Store;
typedef struct StoreRef StoreRef;

/* The records written here, as data/ingest/refs.c reads them from the
 * reference files; strings borrowed from the caller.
 *
 * One roster line. role is lowercased in place; start, end and supervisor
 * are NULL when empty (an empty start: on the roster since before the
 * records), domain too; name (as papers write it) and aliases (other
 * spellings, ';'-separated) too (issue 18). A start or end given as a year
 * or a month (as labs' web pages give them) is widened to YYYY-MM-DD in
 * start_buf / end_buf: its first day for a start, its last for an end. */
typedef struct RefPerson {
    const char *user, *group, *role, *domain, *start, *end, *supervisor;
    const char *name, *aliases;
    char start_buf[11], end_buf[11];
    const char *planned_end; /* the contract's or expected graduation date, known in advance:
                                NULL when not given (issue 28); widened like end */
    char planned_buf[11];
} RefPerson;

typedef struct RefInventory {
    const char *cluster, *gpu_model;
    int64_t gpus;
    double gpu_mem_gib;
    const char *from, *to;  /* to NULL when empty: still in service */
    double relative_speed;  /* -1 when absent */
    double tdp_w;           /* -1 when absent */
} RefInventory;

typedef struct RefEvent {
    const char *date, *cluster, *label; /* cluster "" = every cluster */
} RefEvent;

typedef struct RefPub {
    int64_t year;
    const char *group, *title, *domain, *authors; /* domain, authors NULL when empty */
} RefPub;

/* What a monitor measured for one job (or one pod). */
typedef struct RefMetric {
    const char *cluster;      /* "" when unknown: matches jobs of any cluster */
    const char *job_key;      /* JobIDRaw, JobID ("5_3") or the monitor's own key */
    double gpu_mem_max_gib;   /* -1 when not measured */
    double gpu_util_mean;     /* 0..100, -1 when not measured */
    int64_t samples;
} RefMetric;

/* A group a roster describes (refs_groups_get, data/ingest/refs.h). */
typedef struct RefGroup {
    const char *name;
    const char *domain;    /* NULL when unknown */
    const char *professor; /* NULL when no member is a professor */
    int domain_sure;       /* 1 when domain is the professor's (else a guess
                            * from the members, which fills a gap only) */
} RefGroup;

typedef enum StoreRefOutcome {
    STORE_REF_ADDED,
    STORE_REF_UPDATED,
    STORE_REF_UNCHANGED
} StoreRefOutcome;

/* Prepare the statements on st's database. Caller frees with
 * store_ref_free, before store_close(st). NULL with err on failure. */
StoreRef *store_ref_new(Store *st, CpErr *err);
void store_ref_free(StoreRef *r);

/* Upserts, keyed by (user, group, start), (name), (cluster, gpu_model,
 * from), (date, cluster, label), (year, group, title), (cluster, job_key).
 * import_id is recorded on rows added or updated. Return 0 with *out set,
 * or -1 with err on a database error. */
int store_ref_person(StoreRef *r, int64_t import_id, const RefPerson *p, StoreRefOutcome *out,
                     CpErr *err);
/* A group's professor is only ever replaced by a known one (NULL keeps
 * what the table holds); its domain is replaced when g->domain_sure, else
 * only filled in when the table has none. */
int store_ref_group(StoreRef *r, const RefGroup *g, StoreRefOutcome *out, CpErr *err);
int store_ref_inventory(StoreRef *r, int64_t import_id, const RefInventory *v,
                        StoreRefOutcome *out, CpErr *err);
int store_ref_event(StoreRef *r, int64_t import_id, const RefEvent *e, StoreRefOutcome *out,
                    CpErr *err);
int store_ref_pub(StoreRef *r, int64_t import_id, const RefPub *p, StoreRefOutcome *out,
                  CpErr *err);
int store_ref_metric(StoreRef *r, int64_t import_id, const RefMetric *m, StoreRefOutcome *out,
                     CpErr *err);

/* Give the jobs m describes its measured values: every attempt whose
 * cluster is m->cluster (any cluster when "") and whose JobIDRaw (a numeric
 * key) or JobID (any other key, e.g. "5_3") is m->job_key gets gpu_mem_gib
 * with gpu_mem_source = 2 (measured by a monitor) and gpu_util when known.
 * Jobs already holding these values are left alone. *linked (may be NULL)
 * is increased by the number of jobs changed. A key that is not numeric costs a
 * scan of the jobs table. */
int store_ref_link_metric(StoreRef *r, const RefMetric *m, int64_t *linked, CpErr *err);

#endif
