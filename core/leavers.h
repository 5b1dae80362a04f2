#ifndef LEAVERS_H
#define LEAVERS_H
/* leavers (issue 28 item 2, what was known when): the date a roster line
 * says its member leaves, as known at a date, and for the members it says
 * nothing of, the group's measured yearly churn turned into an expected
 * presence. Pure: no I/O; nothing allocated. */

#include <stdint.h>

#define LEAVE_NONE INT64_MAX /* no leave date known (PROJ_NEVER, STORE_PLAN_NO_DATE) */

/* The date a member is taken to leave, as known at t0. end: the actual
 * end, planned: the planned end (the contract's or the expected
 * graduation date, known in advance), LEAVE_NONE when absent. The actual
 * end when it is before t0 (they left) or when t0 is the present
 * (known_now: today's roster is what is known today); else the planned
 * end when it is at or after t0; else LEAVE_NONE: unknown, the group's
 * churn applies (a planned end already passed says nothing of when). */
int64_t leave_known(int64_t end, int64_t planned, int64_t t0, int known_now);

/* Counts behind a yearly churn: members active at a date with no known
 * leave date, and those of them with no use in the year after it. */
typedef struct LeaveCount {
    double active, left;
} LeaveCount;

#define LEAVE_PRIOR 5.0 /* members' worth of the institute's churn a group's is shrunk toward */

/* A group's yearly churn: (left + LEAVE_PRIOR x the institute's rate) /
 * (active + LEAVE_PRIOR), the institute's rate inst.left / inst.active; 0
 * when nothing was measured (inst.active == 0). In [0, 1]. */
double leave_churn(LeaveCount group, LeaveCount inst);

/* The expected share of [a, b) (seconds, a < b) a member present at t0 is
 * still there when they leave at the yearly rate q (survival (1 - q) to
 * the power of the years since t0; before t0: 1). q <= 0: 1; q is capped
 * at 0.99. */
double leave_presence(double q, int64_t t0, int64_t a, int64_t b);

#endif
