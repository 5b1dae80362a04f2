#ifndef REFS_H
#define REFS_H
/* refs: the reference CSV files (roster, inventory, gpu-metrics, events,
 * pubs): their column layouts, the validation of one row into a plain
 * struct, and the two per-file aggregates (the groups a roster describes,
 * the per-key maxima of a GPU memory time series).
 *
 * Pure: no I/O, no SQL. A row parser reads a CsvinRec through the column
 * map of its header and fills a struct whose strings are borrowed from the
 * record (they die with it); on a bad value it returns -1 with *bad_field
 * naming the column and err holding the reason ("bad date '2024-13-01'"),
 * without file or line: the caller adds them. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"
#include "data/ingest/csvin.h"
#include "data/store/store_ref.h" /* RefPerson, RefInventory, RefEvent, RefPub, RefMetric, RefGroup */

/* The layouts a reference file can have; gpu-metrics has two, told apart
 * by the header. */
typedef enum RefsShape {
    REFS_ROSTER,         /* user,group,role,domain,start,end[,supervisor][,planned_end] */
    REFS_INVENTORY,      /* cluster,gpu_model,gpus,gpu_mem_gib,from,to[,relative_speed,tdp_w] */
    REFS_METRICS_JOB,    /* job_id,gpu_mem_max_gib[,gpu_util_mean][,cluster] */
    REFS_METRICS_SERIES, /* timestamp_anon,value,container_ip (value in bytes) */
    REFS_EVENTS,         /* date,cluster,label */
    REFS_PUBS,           /* year,group,title,domain[,authors] */
    REFS_PEERS,          /* institution,gpus,researchers (other institutes; reports) */
    REFS_SHAPE_COUNT
} RefsShape;

#define REFS_MAX_COLS 10

/* A header mapped to a shape. */
typedef struct RefsHeader {
    RefsShape shape;
    const char *format;      /* "roster-csv", "gpu-metrics-series-csv"... static */
    int idx[REFS_MAX_COLS];  /* column index in the file, -1 if absent */
    size_t nfields;          /* fields in the header: every row must have as many */
} RefsHeader;

/* 1 when kind is one of "roster", "inventory", "gpu-metrics", "events",
 * "pubs", "peers", else 0. */
int refs_kind_known(const char *kind);

/* Map the header record hdr of a file of kind to its shape and columns.
 * name is the file as shown in messages. -1 with err on a missing column
 * ("people.csv:1: missing column 'group'"). */
int refs_header(const char *kind, const CsvinRec *hdr, const char *name, RefsHeader *out,
                CpErr *err);

/* Another institute's resources, for the report's comparison. */
typedef struct RefPeer {
    const char *institution;
    double gpus, researchers; /* >= 0 */
} RefPeer;

/* One sample of a time series: the key and the bytes measured. */
typedef struct RefSample {
    const char *key;
    size_t key_len;
    double bytes;
} RefSample;

/* Row parsers, one per shape; default_cluster fills an empty cluster
 * ("" when none). Return 0, or -1 with *bad_field and err set. */
int refs_person(const RefsHeader *h, const CsvinRec *rec, RefPerson *out, const char **bad_field,
                CpErr *err);
int refs_inventory(const RefsHeader *h, const CsvinRec *rec, const char *default_cluster,
                   RefInventory *out, const char **bad_field, CpErr *err);
int refs_event(const RefsHeader *h, const CsvinRec *rec, const char *default_cluster,
               RefEvent *out, const char **bad_field, CpErr *err);
int refs_pub(const RefsHeader *h, const CsvinRec *rec, RefPub *out, const char **bad_field,
             CpErr *err);
int refs_peer(const RefsHeader *h, const CsvinRec *rec, RefPeer *out, const char **bad_field,
              CpErr *err);
int refs_metric(const RefsHeader *h, const CsvinRec *rec, const char *default_cluster,
                RefMetric *out, const char **bad_field, CpErr *err);
int refs_sample(const RefsHeader *h, const CsvinRec *rec, RefSample *out,
                const char **bad_field, CpErr *err);

/* "YYYY-MM-DD" naming a real calendar day: 0, else -1 with err. */
int refs_date(const char *s, size_t n, CpErr *err);

/* 1 when a (lowercased) roster role names the head of a group:
 * "professor", "prof" or "pi". */
int refs_role_is_professor(const char *role);

/* The groups a roster describes: for each group, its professor (the member
 * whose role is professor, preferring one still there) and its domain (the
 * professor's, else the most common among the members the file lists). Memory grows with
 * the number of groups and distinct domains, not with rows. */
typedef struct RefsGroups RefsGroups;

/* Caller frees with refs_groups_free. */
RefsGroups *refs_groups_new(void);
void refs_groups_free(RefsGroups *g);
/* Account for one roster line (copied). */
void refs_groups_add(RefsGroups *g, const RefPerson *p);
size_t refs_groups_count(const RefsGroups *g);
/* Group i (0 <= i < count) in order of first appearance; strings borrowed
 * until refs_groups_free. */
RefGroup refs_groups_get(const RefsGroups *g, size_t i);

/* A GPU memory time series reduced to one row per key: the maximum in GiB
 * and the number of samples. Memory grows with the distinct keys only. */
typedef struct RefsSeries RefsSeries;

/* Caller frees with refs_series_free. */
RefsSeries *refs_series_new(void);
void refs_series_free(RefsSeries *s);
void refs_series_add(RefsSeries *s, const RefSample *sample);
size_t refs_series_count(const RefsSeries *s);
/* Key i in order of first appearance, as a metric of cluster (borrowed:
 * job_key lives until refs_series_free). */
RefMetric refs_series_get(const RefsSeries *s, size_t i, const char *cluster);

#endif
