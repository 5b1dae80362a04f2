#ifndef STORE_TUI_H
#define STORE_TUI_H
/* store_tui: the SQL the dashboard reads, as plain arrays. One call loads a
 * snapshot of everything the views need that is cheap to read (usage per
 * user and per cluster per month from usage_month, the roster, groups,
 * inventory, events, notes, stated needs, meetings, scenario names); the hour-of-week
 * heat map, which scans the jobs table, is a call of its own so that the
 * dashboard can load it only when the Usage view is first shown.
 *
 * Tables that a database may not have yet (notes, stated_needs, scenarios,
 * created by later schema versions or other modules) read as empty. Nothing
 * here interprets the data (the roster-to-group mapping, utilisation and
 * alerts are the dashboard model's work, tui/model.c). Every statement binds
 * its values; strings are copied out of SQLite and owned by the snapshot. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"

typedef struct Store Store;

/* usage_month rows as stored (per month, cluster, account, user and
 * partition: a (month, user, account) may come several times, to be
 * added up), or summed per (month, cluster) with user_id = account_id = 0.
 * Ids index the snapshot's name arrays. */
typedef struct StoreTuiUsage {
    int64_t month; /* yyyymm */
    int64_t cluster_id, user_id, account_id;
    int64_t jobs, gpu_jobs, attempts, preempted, waited;
    double gpu_hours, cpu_hours, wait_s, gpu_hours_lost;
} StoreTuiUsage;

/* One roster line; dates "YYYY-MM-DD" or NULL. */
typedef struct StoreTuiPerson {
    char *user, *group, *role, *domain, *start, *end, *supervisor;
} StoreTuiPerson;

typedef struct StoreTuiGroup {
    char *name, *domain, *professor; /* domain, professor may be NULL */
} StoreTuiGroup;

typedef struct StoreTuiInventory {
    char *cluster, *gpu_model, *from, *to; /* to NULL: still in service */
    int64_t gpus;
    double gpu_mem_gib, relative_speed;    /* relative_speed -1 when unknown */
} StoreTuiInventory;

typedef struct StoreTuiEvent {
    char *date, *cluster, *label; /* cluster "" = every cluster */
} StoreTuiEvent;

typedef struct StoreTuiNote {
    char *group, *user, *date, *text; /* user NULL: the group as a whole */
} StoreTuiNote;

/* The latest stated need of a member (the newest date per user and group). */
typedef struct StoreTuiStated {
    char *user, *group, *date, *text;
    double gpus_fulltime, gpu_mem_class_gib; /* -1 when not stated */
} StoreTuiStated;

/* One meeting of the meetings table; dates "YYYY-MM-DD", attendees logins
 * separated by ';' ("" none), status planned, held or cancelled. */
typedef struct StoreTuiMeeting {
    char *group, *date, *attendees, *status;
} StoreTuiMeeting;

/* A name by database id: names[id] (NULL for ids not in use). */
typedef struct StoreTuiNames {
    char **names;
    int64_t n; /* highest id + 1 */
} StoreTuiNames;

typedef struct StoreTuiSnapshot {
    StoreTuiNames users, accounts, clusters;
    StoreTuiUsage *user_usage;     /* usage_month's rows, by month */
    size_t nuser_usage;
    StoreTuiUsage *cluster_usage;  /* per (month, cluster), by month */
    size_t ncluster_usage;
    StoreTuiPerson *people;
    size_t npeople;
    StoreTuiGroup *groups;
    size_t ngroups;
    StoreTuiInventory *inventory;
    size_t ninventory;
    StoreTuiEvent *events;         /* by date */
    size_t nevents;
    StoreTuiNote *notes;           /* by group, date */
    size_t nnotes;
    StoreTuiStated *stated;
    size_t nstated;
    char **scenarios;              /* scenario names, when the table exists */
    size_t nscenarios;
    char **met_groups;             /* groups with a meeting held (meetings table), by name */
    size_t nmet_groups;
    StoreTuiMeeting *meetings;     /* every meeting, by group, date */
    size_t nmeetings;
    /* The window the accounting covers, epoch seconds [acct_from, acct_to)
     * (core/stats stats_window over what `capplan stats` loads): capacity
     * counts only inside it, as in `capplan stats utilization`.
     * acct_to <= acct_from: not known (the model takes its whole months). */
    int64_t acct_from, acct_to;
} StoreTuiSnapshot;

/* Fill *out (zeroed first) from st; the accounting window reads the job
 * attempts through data/store_stats (its cache, else a scan). On error returns -1 with err, and *out
 * holds what was read (free it all the same). Caller frees with
 * store_tui_snapshot_free. */
int store_tui_load(Store *st, StoreTuiSnapshot *out, CpErr *err);
void store_tui_snapshot_free(StoreTuiSnapshot *s);

/* What one pass over the job attempts that started at or after since
 * finds: GPU-hours spread over the hours of the week they ran in
 * (heat[d*24+h], d = 0 for Monday, h the UTC hour; divide by the weeks
 * covered for mean GPUs in use), and requested against used resources,
 * each over the attempts where both are known. */
/* Requested against used, summed over job attempts. */
typedef struct StoreTuiEff {
    double gpu_h, gpu_h_util, util_x_h;      /* GPU-hours; with a known utilisation; util x h */
    double gpu_h_mem, mem_x_h;               /* with a known GPU memory peak; GiB x h */
    double cpu_alloc_h, cpu_used_h;          /* CPU-hours allocated, used (CPU time known) */
    double mem_req_h, mem_used_h;            /* MiB-hours requested, peak used (both known) */
} StoreTuiEff;

typedef struct StoreTuiScan {
    double heat[168];
    double gpu_h, gpu_h_util, util_x_h;      /* GPU-hours; with a known utilisation; util x h */
    double gpu_h_mem, mem_x_h;               /* with a known GPU memory peak; GiB x h */
    double cpu_alloc_h, cpu_used_h;          /* CPU-hours allocated, used (CPU time known) */
    double mem_req_h, mem_used_h;            /* MiB-hours requested, peak used (both known) */
    int64_t attempts;
    /* The same per user: by_user[id] for the users table's ids (owned),
     * names[id] their logins (owned, NULL for an id not in use). */
    StoreTuiEff *by_user;
    char **names;
    int64_t nby_user;
} StoreTuiScan;

/* Fill *out from the jobs table (a full scan), per user too. Caller frees
 * with store_tui_scan_free (also after an error). */
int store_tui_scan(Store *st, int64_t since, StoreTuiScan *out, CpErr *err);
void store_tui_scan_free(StoreTuiScan *scan);

/* One job attempt, as the member detail lists it. */
typedef struct StoreTuiJob {
    char *job_id, *name, *state, *partition, *cluster; /* name, partition may be NULL */
    int64_t start, elapsed;  /* epoch seconds, seconds */
    double gpus, gpu_hours;
    double gpu_mem_gib, gpu_util; /* -1 unknown */
} StoreTuiJob;

/* The limit biggest attempts (by GPU-hours, then CPU time) of user that
 * started at or after since. Scans the jobs table. Caller frees with
 * store_tui_jobs_free. */
int store_tui_user_jobs(Store *st, const char *user, int64_t since, int limit,
                        StoreTuiJob **out, size_t *n, CpErr *err);
void store_tui_jobs_free(StoreTuiJob *v, size_t n);

/* Add a meeting note for group (user may be NULL), dated date. */
int store_tui_note_add(Store *st, const char *group, const char *user, const char *date,
                       const char *text, CpErr *err);
/* Record what user of group says they need, dated date (one row per user,
 * group and date: a second call the same day replaces it). A value < 0 is
 * stored as NULL (not stated). */
int store_tui_stated_set(Store *st, const char *user, const char *group, const char *date,
                         double gpus_fulltime, double gpu_mem_class_gib, CpErr *err);
/* user's stated need of that date in group: *found 1 with the GPUs and
 * memory class (-1 when not stated), 0 when there is none. */
int store_tui_stated_get(Store *st, const char *user, const char *group, const char *date,
                         int *found, double *gpus_fulltime, double *gpu_mem_class_gib,
                         CpErr *err);
/* Remove a note added by store_tui_note_add (undo). */
int store_tui_note_delete(Store *st, const char *group, const char *date, const char *text,
                          CpErr *err);
/* Remove user's stated need of that date (undo of a first statement). */
int store_tui_stated_delete(Store *st, const char *user, const char *group, const char *date,
                            CpErr *err);

/* The scenario the dashboard showed last, into out (n bytes); "" when
 * none is remembered or it is not stored any more ("base" always is). */
int store_tui_last_scenario(Store *st, char *out, size_t n, CpErr *err);
/* Remember name as the scenario shown last. */
int store_tui_set_last_scenario(Store *st, const char *name, CpErr *err);

/* A second connection to st's database file, for another thread (SQLite
 * connections are not shared between threads here: each opens its own).
 * NULL with err->msg "" when st has no file (in memory, temporary), NULL
 * with err when it cannot be opened. Caller closes with store_close. */
Store *store_tui_second(Store *st, CpErr *err);
/* Make the statement st runs now return an error soon (SQLITE_INTERRUPT):
 * callable from another thread while st is open. */
void store_tui_interrupt(Store *st);

/* Copy the whole database into path (an empty or absent file), for a run
 * that must not change the original (the headless --bench-keys). */
int store_tui_copy(Store *st, const char *path, CpErr *err);

#endif
