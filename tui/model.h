#ifndef MODEL_H
#define MODEL_H
/* model: what the dashboard shows, as plain arrays computed once from a
 * store_tui snapshot: groups with their members and usage (through the
 * dated roster: a user's usage in a month goes to the group the roster
 * places them in that month; accounts stand in for groups when the roster
 * is empty), clusters with utilisation per month (usage against inventory
 * GPUs x hours), years, events and alerts. Capacity is counted as
 * `capplan stats utilization` counts it (core/stats stats_capacity_hours,
 * pro rata inside the window the accounting covers), so a partial first
 * or last month or year has the same utilisation and GPUs as the CLI.
 *
 * The model never points at a view and knows nothing of the terminal.
 * Months run from m0 over nmonths (contiguous); "the last 12 months" are
 * the 12 months ending at the model's reference month (the last month with
 * usage). Ratios that cannot be computed are NaN. */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"
#include "data/store/store_tui.h"

#define TUI_MAX_MONTHS 240
#define TUI_CLASSES 4 /* GPU-memory classes <=24, <=48, <=80, >80 GiB */

typedef struct TuiUser {
    char *name;          /* login */
    int group;           /* current group (index), -1 none */
    char *role;          /* roster role in that group, NULL when not on the roster */
    char *start, *end;   /* roster dates in that group (NULL: open) */
    int active;          /* on the roster at the reference month (or used GPUs in the last 12 months) */
    double gpu_h, gpu_h_12m, cpu_h_12m, lost_h_12m, wait_s_12m;
    int64_t jobs_12m, attempts_12m, preempted_12m, waited_12m;
    double mean_gpus_12m; /* GPU-hours of the last 12 months / hours in 12 months */
    double *gpu_h_month;  /* nmonths */
    double stated_gpus, stated_mem; /* the latest stated need, -1 none */
    char *stated_date;
    int profile;          /* compute profile (0-based) from the planner, -1 none */
    StoreTuiEff eff;      /* requested vs used, last 12 months (tui_model_set_scan) */
} TuiUser;

typedef struct TuiGroup {
    char *name, *professor, *domain; /* professor, domain may be NULL */
    int pseudo;                      /* 1: "(not in roster)", users the roster does not place */
    int *members;                    /* user indices: roster order, then by usage */
    int nmembers, nactive, nstudents; /* active members and active students now */
    double gpu_h, gpu_h_12m, gpu_h_prev12m, lost_h_12m, wait_s_12m;
    int64_t jobs_12m, attempts_12m, preempted_12m, waited_12m;
    double share_12m;       /* of every group's GPU-hours in the last 12 months */
    double preempt_rate;    /* preempted attempts / attempts, last 12 months */
    double mean_wait_s;     /* last 12 months */
    double growth;          /* GPU-hours last 12 months / previous 12 - 1 */
    double *gpu_h_month;    /* nmonths */
    double *wait_month;     /* mean wait (s), -1 no job */
    double *preempt_month;  /* preempted share of attempts, -1 no attempt */
    double demand_next, demand_base; /* need next year in the scenario and the base (GPU-eq,
                                        the planner's unit); NaN unknown */
    double demand_lo, demand_hi;     /* p10-p90 of demand_next; NaN not calibrated */
    int met;                /* 1: a meeting held (meetings table) or a meeting note */
} TuiGroup;

typedef struct TuiCluster {
    char *name;
    int has_inventory;
    double gpus_now;        /* inventory GPUs in service at the reference month */
    double *used_h;         /* GPU-hours used per month */
    double *cap_h;          /* GPU-hours available per month inside the accounting
                             * window (0: no inventory) */
    double *hours;          /* hours of each month the accounting covers (GPUs = cap_h / hours) */
    double *util;           /* used / available, -1 unknown */
    double *wait_month;     /* mean wait (s), -1 no job */
    int64_t *jobs_month;
} TuiCluster;

typedef struct TuiEvent {
    int64_t month;
    char *date, *cluster, *label; /* cluster "" = every cluster */
} TuiEvent;

typedef struct TuiYear {
    int year;
    int months;                   /* months of the year inside the model */
    double cap_gpus;              /* mean GPUs in service (projected: GPUs x relative speed) */
    double used_gpus;             /* mean GPUs in use (GPU-hours / hours covered) */
    double hours;                 /* hours of the year the accounting covers (0 projected) */
    double cap_class[TUI_CLASSES];
    double demand_class[TUI_CLASSES]; /* projected demand, NaN unknown */
    double demand;                /* projected demand of every class (and unknown), NaN */
    double demand_base;           /* the same in the base scenario, NaN */
    double demand_lo, demand_hi;  /* p10-p90 of demand, NaN not calibrated or not projected */
    int eq;                       /* cap_gpus, used_gpus in GPU-eq (set by the planner) */
    int projected;                /* 1: a future year from the projection */
} TuiYear;

typedef enum TuiAlertKind {
    TUI_AL_SATURATED,   /* a cluster above 90 % over the last 3 months */
    TUI_AL_IDLE,        /* a cluster below 30 % over the last 3 months */
    TUI_AL_GROWTH,      /* a group whose usage grew most */
    TUI_AL_PREEMPT,     /* a group with a high preemption rate */
    TUI_AL_WAIT,        /* a group waiting much longer than others */
    TUI_AL_SHORT,       /* a memory class short of capacity next year */
    TUI_AL_KIND_COUNT
} TuiAlertKind;

typedef struct TuiAlert {
    TuiAlertKind kind;
    int severity;       /* 0 info, 1 warning, 2 bad */
    int group;          /* -1 none */
    int cluster;        /* -1 none */
    int mem_class;      /* -1 none */
    double value, ref;  /* the figure and what it is compared with */
} TuiAlert;

typedef struct TuiNote {
    int group;
    char *user, *date, *text; /* user NULL: the group */
} TuiNote;

/* A planned, held or cancelled meeting of a group. */
typedef struct TuiMeeting {
    int group;                       /* group index */
    char *date, *attendees, *status; /* attendees: logins separated by ';' ("" none) */
} TuiMeeting;

typedef struct TuiModel {
    int64_t m0, ref_month;   /* first month, reference month (yyyymm) */
    int64_t acct_from, acct_to; /* window the accounting covers, epoch s (capacity inside it) */
    int nmonths;
    int roster;              /* 1: groups from the roster; 0: accounts stand in */
    TuiUser *users;
    int nusers;
    TuiGroup *groups;        /* by name; a pseudo group last */
    int ngroups;
    TuiCluster *clusters;    /* by name */
    int nclusters;
    TuiEvent *events;
    int nevents;
    TuiYear *years;          /* measured years, then projected ones (planner) */
    int nyears, nhist_years;
    char unit[48];           /* the planner's unit: "GPU-eq (v100 = 1)"; "" before it */
    TuiAlert *alerts;        /* most severe first */
    int nalerts;
    TuiNote *notes;
    int nnotes;
    TuiMeeting *meetings;    /* by group, date (groups the model knows) */
    int nmeetings;
    char **scenarios;
    int nscenarios;
    double total_gpu_h_12m;
    double cap_class_now[TUI_CLASSES]; /* inventory GPUs in service now per class */
    double demand_class_next[TUI_CLASSES]; /* projected demand next year, NaN unknown */
    double cap_class_next[TUI_CLASSES];    /* the projection's capacity next year (GPUs x
                                            * relative speed, as its gap), NaN unknown */
    int heat_loaded;         /* heat and efficiency filled (tui_model_set_scan) */
    double heat[168];        /* mean GPUs in use per hour of the week, last 12 months */
    int heat_weeks;
    double gpu_util;         /* GPU-hour-weighted mean GPU utilisation 0..100, NaN unknown */
    double gpu_util_known;   /* share of GPU-hours with a known utilisation */
    double gpu_mem;          /* GPU-hour-weighted mean peak GPU memory (GiB), NaN */
    double cpu_eff;          /* CPU time used / allocated, NaN */
    double mem_eff;          /* peak memory / requested, NaN */
} TuiModel;

/* Build a model from a snapshot (borrowed; every string is copied).
 * fallback_month (yyyymm) is the reference month when the snapshot has no
 * usage. Caller frees with tui_model_free. */
TuiModel *tui_model_build(const StoreTuiSnapshot *s, int64_t fallback_month);
void tui_model_free(TuiModel *m);

/* Fill the heat map and the requested-vs-used figures from a scan of the
 * model's last 12 months (store_tui_scan since tui_model_heat_since). */
void tui_model_set_scan(TuiModel *m, const StoreTuiScan *scan);
/* Epoch seconds (UTC) of the first day of the model's last 12 months. */
int64_t tui_model_heat_since(const TuiModel *m);

/* Index of the month yyyymm in the model's axis, -1 outside. */
int tui_model_month_index(const TuiModel *m, int64_t yyyymm);
/* Keep the model in step with an edit just written to the database (so
 * that an edit does not cost a reload): a member's stated need (gpus < 0
 * with date NULL: none any more), a note added or removed. */
void tui_model_set_stated(TuiModel *m, const char *user, double gpus, double mem,
                          const char *date);
void tui_model_add_note(TuiModel *m, int group, const char *date, const char *text);
void tui_model_drop_note(TuiModel *m, int group, const char *date, const char *text);

/* Index in m->meetings of group's meeting of date, -1 none. */
int tui_model_meeting_find(const TuiModel *m, int group, const char *date);
/* Add group's meeting of date, or replace its attendees and status; and
 * drop it (undo of a new one). Both keep TuiGroup.met in step (a held
 * meeting or a note). */
void tui_model_put_meeting(TuiModel *m, int group, const char *date, const char *attendees,
                           const char *status);
void tui_model_drop_meeting(TuiModel *m, int group, const char *date);

/* Index of the user called name, -1 none. */
int tui_model_user_find(const TuiModel *m, const char *name);
/* Index of the group called name, -1 none. */
int tui_model_group_find(const TuiModel *m, const char *name);

/* What a person sees for a group, its professor or a user: the name, or in
 * presentation mode (redact) a stable pseudonym ("group 03", "prof. 03",
 * "user 017"). Returns buf. */
char *tui_model_group_label(const TuiModel *m, int g, int redact, char *buf, size_t n);
char *tui_model_prof_label(const TuiModel *m, int g, int redact, char *buf, size_t n);
char *tui_model_user_label(const TuiModel *m, int u, int redact, char *buf, size_t n);

#endif
