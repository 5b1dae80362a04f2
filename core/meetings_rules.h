#ifndef MEETINGS_RULES_H
#define MEETINGS_RULES_H
/* meetings_rules: the rules of the meeting workflow (issue 10, see
 * data/plan/meetings.h), pure, for the importer (data/ingest/meetings_csv),
 * the planner's side (data/plan/meetings), the dashboard and the report
 * alike: when a stated need and the accounting differ, and what a meeting's
 * date and status may be. */

#include <stddef.h>

/* Tolerance of the mismatch rule: stated and measured full-time GPUs
 * differ when |stated - measured| > MEET_TOL_ABS GPU and it is more than
 * MEET_TOL_REL of the measured value (any difference above the absolute
 * one counts when nothing was measured). Memory differs when the stated
 * class is not the measured peak's class (<=24, <=48, <=80, >80 GiB). */
#define MEET_TOL_REL 0.5
#define MEET_TOL_ABS 0.5

/* The two CSV files of the workflow (meetings_import tells them apart by
 * the header, meetings_export writes either). */
enum { MEET_CSV_MEETINGS, MEET_CSV_NEEDS };

/* Their columns, in the order meetings_export writes them: of a meetings
 * file group, date and status are required, of a needs file user, group
 * and date (data/ingest/meetings_csv). */
extern const char *const meet_cols[4];
extern const char *const need_cols[10];

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

#endif
