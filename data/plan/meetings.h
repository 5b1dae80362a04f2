#ifndef MEETINGS_H
#define MEETINGS_H
/* meetings: the meeting workflow of a planning round (issue 10): the plan
 * of the group meetings and the stated needs, imported from and exported to
 * the team's CSV; whom to ask in each group (the students nearest their
 * profile's centroid, core/pick); what they said set beside what the
 * accounting shows (mismatches); and a stated need applied as a scenario
 * edit to the students of the same profile.
 *
 * It reads and writes through store_meetings and store_plan (all the SQL),
 * computes through core/ and data/plan; it prints nothing. Used by
 * `capplan meetings`, the dashboard's Group and Overview views and the
 * report.
 *
 * CSV files (RFC 4180, UTF-8, a header line naming the columns in any
 * order):
 *   meetings:  group,date,attendees,status
 *              attendees: logins separated by ';'; status planned, held or
 *              cancelled; a planned meeting cannot be dated before today.
 *   needs:     user,group,date,gpus_fulltime,gpu_mem_class_gib,
 *              typical_hours,burst_per_month,burst_gpus,burst_hours,text
 *              (an empty number: not stated; numbers >= 0).
 * meetings_import tells them apart by the header (a "user" column: needs).
 * A row is keyed by (group, date), resp. (user, group, date): importing it
 * again replaces it. A file lands whole or not at all: the first bad field
 * stops it with "file:line: field X: reason" and nothing is written. */

#include <stddef.h>

#include "core/cp.h"
#include "core/meetings_rules.h" /* MEET_TOL_*, MEET_CSV_*, meetings_gpus_off, _mem_off, _date_ok, _check */
#include "core/pick.h"
#include "data/store/store_meetings.h"

typedef struct Store Store;
typedef struct Plan Plan;

/* Write every meeting (kind MEET_CSV_MEETINGS) or every stated need
 * (MEET_CSV_NEEDS) to path as CSV: a temporary file beside it, renamed.
 * Text cells starting with = + - @ get a leading ' (undone on import). */
int meetings_export(Store *st, const char *path, int kind, int *rows, CpErr *err);

/* ---- whom to ask ---- */

/* One student to invite: users[user] of plan, in plan group group. */
typedef struct MeetPick {
    int user, group;
    PickChoice c; /* profile (c.label), rank, distance to its centroid */
} MeetPick;

/* For each of plan's groups, per_profile (1..PICK_MAX) students per
 * profile present in the group: members with a profile (enough history:
 * at least the plan's min_jobs jobs) whose roster role is not professor or
 * staff, nearest their profile's centroid. Sorted by group, profile, rank.
 * Caller frees *out. */
/* Members whose roster end is past (before the projection's t0, the
 * data's present) are left out. */
int meetings_pick(const Plan *p, int per_profile, MeetPick **out);

/* ---- what they said against what was measured ---- */

typedef struct MeetMismatch {
    char *user, *group, *date; /* owned */
    int plan_user;             /* index in plan users, -1 not in the window */
    int profile;               /* 0-based, -1 none */
    int njobs;
    double gpu_hours;
    double stated_gpus, measured_gpus; /* measured: mean concurrent GPUs in the window */
    double stated_mem, measured_mem;   /* GiB; NaN unknown */
    double stated_hours, measured_hours; /* typical job length vs mean duration */
    int gpus_off, mem_off;
} MeetMismatch;

/* The latest stated need of every (user, group), stated beside measured
 * (the plan's window, as `capplan profile` shows it), with the marks of
 * the tolerance rule. Ordered by group, then user. Caller frees with
 * meetings_mismatches_free. */
int meetings_mismatches(Store *st, const Plan *p, MeetMismatch **out, size_t *n, CpErr *err);
void meetings_mismatches_free(MeetMismatch *m, size_t n);

/* Index of plan user called name, -1 none. */
int meetings_plan_user(const Plan *p, const char *name);

/* ---- propagation ---- */

typedef struct MeetApply {
    char key[32];        /* "gpus.N" */
    char group[128];     /* the student's group */
    char date[16];       /* of the stated need */
    int profile;         /* 0-based */
    int same_profile;    /* students of that profile in the group, the speaker included */
    double value, measured;
    int created;         /* 1: the scenario was created for it */
} MeetApply;

/* Apply user's latest stated full-time GPUs to the students of their
 * profile: the scenario edit gpus.N = stated, with a reason naming who said
 * it, when, and for which group (reason, when not NULL, is put first).
 * The projection's b_p is per profile for the whole institute, so the edit
 * reaches every student of the profile; out->same_profile counts those of
 * the group. The scenario is created (empty) when absent. Undo it with
 * store_plan_undo. -1 with err when user has no stated GPUs, no profile or
 * the scenario is "base". */
/* Students (roles other than professor and staff) of profile (0-based) in
 * plan group group (a name). */
int meetings_same_profile(const Plan *p, const char *group, int profile);
/* The reason an apply records: "[reason; ]stated by USER (GROUP, DATE): V
 * GPUs full-time, applied to the N students of profile PK in GROUP". */
void meetings_apply_reason(char *buf, size_t n, const char *reason, const char *user,
                           const char *group, const char *date, double value, int same_profile,
                           int profile);

int meetings_apply(Store *st, const Plan *p, const char *user, const char *scenario,
                   const char *reason, const char *who, MeetApply *out, CpErr *err);

#endif
