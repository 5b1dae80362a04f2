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
#include "core/pick.h"
#include "data/store/store_meetings.h"

typedef struct Store Store;
typedef struct Plan Plan;

/* Tolerance of the mismatch rule: stated and measured full-time GPUs
 * differ when |stated - measured| > MEET_TOL_ABS GPU and it is more than
 * MEET_TOL_REL of the measured value (any difference above the absolute
 * one counts when nothing was measured). Memory differs when the stated
 * class is not the measured peak's class (<=24, <=48, <=80, >80 GiB). */
#define MEET_TOL_REL 0.5
#define MEET_TOL_ABS 0.5

enum { MEET_CSV_MEETINGS, MEET_CSV_NEEDS };

/* 1 when the stated and measured full-time GPUs differ beyond the
 * tolerance; 0 when not, or when either is unknown (NaN or < 0). */
int meetings_gpus_off(double stated, double measured);
/* 1 when the stated memory class (GiB) and the measured peak (GiB) fall in
 * different classes; 0 when not, or when either is unknown. */
int meetings_mem_off(double stated_gib, double measured_gib);

/* 1 when s is a valid "YYYY-MM-DD" date. */
int meetings_date_ok(const char *s);

/* The rules of a meeting's date and status, for the CSV import and the
 * dashboard alike: a real date, planned/held/cancelled, a planned meeting
 * not before today ("YYYY-MM-DD"), a held one not after it. 0, or -1 with
 * *field ("date" or "status") and why ("'2027-02-30' is not a date
 * (YYYY-MM-DD)") for the caller's message. */
int meetings_check(const char *date, const char *status, const char *today, const char **field,
                   char *why, size_t wn);

/* Import path (kind detected from the header) in one transaction. today
 * ("YYYY-MM-DD") is what a planned meeting's date is checked against.
 * *kind (may be NULL) gets MEET_CSV_*, *rows the rows written. -1 with
 * err ("meetings.csv:4: field status: ...") and nothing written. */
int meetings_import(Store *st, const char *path, const char *today, int *kind, int *rows,
                    CpErr *err);
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
