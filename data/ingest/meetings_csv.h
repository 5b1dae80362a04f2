#ifndef MEETINGS_CSV_H
#define MEETINGS_CSV_H
/* meetings_csv: the reader of the meeting workflow's CSV files (meetings
 * and stated needs, described in data/plan/meetings.h), each row checked
 * by core/meetings_rules and written through data/store/store_meetings. */

#include "core/cp.h"

typedef struct Store Store;

/* Import path (kind detected from the header) in one transaction. today
 * ("YYYY-MM-DD") is what a planned meeting's date is checked against.
 * *kind (may be NULL) gets MEET_CSV_*, *rows the rows written. -1 with
 * err ("meetings.csv:4: field status: ...") and nothing written. */
int meetings_import(Store *st, const char *path, const char *today, int *kind, int *rows,
                    CpErr *err);

#endif
