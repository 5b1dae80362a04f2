#ifndef TUI_RESEARCH_H
#define TUI_RESEARCH_H
/* tui_research: who does what research in the dashboard (issue 18): the
 * Group view's Research column and its "ask why" list, from the same
 * data/research_run figures as `capplan research`. Loaded once with the
 * planner, whose compute profiles it is set beside: "R3?" and "R3 runs P2"
 * speak of the profiles the Group view's Profile column shows, not of a
 * saved `capplan profile` run that may be older. No curses here. */

#include <stddef.h>

typedef struct Research Research;
typedef struct Store Store;
typedef struct Plan Plan;

/* The research figures against plan's compute profiles (borrowed for the
 * call; NULL: the latest saved profile run), or NULL when there are no
 * papers or they cannot be read. Caller frees with tui_research_close. */
Research *tui_research_open(Store *st, const Plan *plan);
void tui_research_close(Research *r);

/* user's research cluster as shown: "R3", "R3?" when they are in the
 * ranked list of hidden demand (their line implies more than their jobs
 * show; issue 32), "-" when none (or r NULL). */
void tui_research_cell(const Research *r, const char *user, char *buf, size_t n);

/* 1 when user is to be asked why (see tui_research_cell). */
int tui_research_ask(const Research *r, const char *user);

/* The GPU-eq at stake for user (0 when not flagged): the ask-why order. */
double tui_research_stake(const Research *r, const char *user);

/* 1 when user is flagged but not in the list shown (the cap a group). */
int tui_research_unshown(const Research *r, const char *user);

/* "R6 24 GB, its line 80 GB, +0.55 GPU-eq" (or "R2 2 GPUs a job, its line
 * 8, +2.29 GPU-eq") for an asked user, into buf. */
void tui_research_why(const Research *r, const char *user, char *buf, size_t n);

#endif
