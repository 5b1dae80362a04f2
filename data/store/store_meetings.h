#ifndef STORE_MEETINGS_H
#define STORE_MEETINGS_H
/* store_meetings: the SQL of the meeting workflow (data/plan/meetings.h): the
 * meetings table (schema v7: group, date, attendees, status) and the
 * stated_needs table (schema v2: what a member says they need, dated).
 *
 * Every statement binds its values; strings are copied out of SQLite and
 * owned by the caller's arrays (each has a _free). Nothing here checks what
 * the values mean: data/plan/meetings.c validates before writing. Writes are
 * not wrapped in a transaction here: the caller brackets a file's rows in
 * store_begin/store_commit so that a file lands whole or not at all. */

#include <stddef.h>

#include "core/cp.h"

typedef struct Store Store;

/* One planned, held or cancelled meeting. Dates "YYYY-MM-DD"; attendees
 * logins separated by ';' ("" none). */
typedef struct StoreMeeting {
    char *group, *date, *attendees, *status;
} StoreMeeting;

/* The numbers of a stated need, in the CSV's column order. */
enum {
    NEED_GPUS,            /* GPUs used full-time */
    NEED_MEM,             /* GPU memory class, GiB (24, 48, 80 or more) */
    NEED_HOURS,           /* typical job length, hours */
    NEED_BURST_PER_MONTH, /* exploration/HPO bursts a month */
    NEED_BURST_GPUS,      /* GPUs one burst needs */
    NEED_BURST_HOURS,     /* how long a burst lasts, hours */
    NEED_NUM
};

/* One row of stated_needs. num[i] NAN when not stated; text may be NULL. */
typedef struct StoreNeed {
    char *user, *group, *date, *text;
    double num[NEED_NUM];
} StoreNeed;

/* Create the meetings table when the database lacks it (a database made
 * while schema v7 was still empty). */
int store_meetings_ensure(Store *st, CpErr *err);

/* Every meeting, by date then group. Caller frees with
 * store_meetings_free. */
int store_meetings_list(Store *st, StoreMeeting **out, size_t *n, CpErr *err);
void store_meetings_free(StoreMeeting *m, size_t n);
/* Insert, or replace the attendees and status of, the meeting of
 * (group, date). */
int store_meetings_put(Store *st, const StoreMeeting *m, CpErr *err);
/* The meeting of (group, date) into *out: 1 found, 0 none, -1 with err
 * (*out zeroed unless found). Caller frees its strings with
 * store_meetings_clear. */
int store_meetings_get(Store *st, const char *group, const char *date, StoreMeeting *out,
                       CpErr *err);
void store_meetings_clear(StoreMeeting *m);
/* Remove the meeting of (group, date) (undo of a new one); none is not an
 * error. */
int store_meetings_delete(Store *st, const char *group, const char *date, CpErr *err);

/* Every stated need, by group, user, date. Caller frees with
 * store_meetings_needs_free. */
int store_meetings_needs(Store *st, StoreNeed **out, size_t *n, CpErr *err);
void store_meetings_needs_free(StoreNeed *v, size_t n);
/* Insert, or replace, the need of (user, group, date). */
int store_meetings_need_put(Store *st, const StoreNeed *v, CpErr *err);

/* 1 when name is a known user (users table or roster), else 0; -1 on a
 * database error. */
int store_meetings_user_known(Store *st, const char *name, CpErr *err);
/* 1 when group has a meeting note (notes table): it was met. */
int store_meetings_noted(Store *st, const char *group, CpErr *err);
/* 1 when name is a known group (groups table, roster or accounts). */
int store_meetings_group_known(Store *st, const char *name, CpErr *err);
/* 1 when user belongs to group: a roster line in it, or jobs under the
 * account of that name; 0 when not; -1 with err. */
int store_meetings_member(Store *st, const char *user, const char *group, CpErr *err);

#endif
