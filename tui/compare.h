#ifndef TUI_COMPARE_H
#define TUI_COMPARE_H
/* compare: two scenarios side by side (the Scenarios view, key 7; c picks
 * the two): every parameter on which they differ, with the value in each,
 * the reason, who made the edit and when, and its effect alone on next
 * year's total need; and the need by year and memory class in each. Made
 * through the planner's API (data/plan/plan.h plan_params, plan_apply,
 * core/projection); reads the database, writes nothing. */

#include "core/cp.h"
#include "data/store/store_plan.h"
#include "tui/model.h"

typedef struct Store Store;
typedef struct TuiPlan TuiPlan;

#define CMP_YEARS 3

/* A parameter on which the two differ. */
typedef struct CmpEdit {
    const char *key, *group;     /* borrowed from the edits below; group "" for all */
    double a, b;                 /* its value in A, in B */
    int edited_a, edited_b;      /* 0: the measured value there */
    const StorePlanParam *why;   /* the edit whose reason, who and when are shown: B's, else A's */
    int why_from_a;
    double effect;               /* next year's total need with only this moved from A to B, minus A's */
} CmpEdit;

typedef struct TuiCompare {
    char a[64], b[64];
    int ny;
    int year[CMP_YEARS];                        /* calendar years */
    double need[2][CMP_YEARS];                  /* A, B: every class */
    double need_c[2][CMP_YEARS][TUI_CLASSES];   /* per memory class */
    double capacity[2][CMP_YEARS];
    CmpEdit *edits;
    int nedits;
    StorePlanParam *pa, *pb;                    /* each one's stored edits (owned) */
    size_t npa, npb;
} TuiCompare;

/* Compare scenario a with b ("base": the measured values) for model m.
 * NULL with err when a scenario cannot be read. Caller frees with
 * compare_free. */
TuiCompare *compare_new(Store *st, TuiPlan *p, const TuiModel *m, const char *a, const char *b,
                        CpErr *err);
void compare_free(TuiCompare *c);

#endif
