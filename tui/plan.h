#ifndef TUI_PLAN_H
#define TUI_PLAN_H
/* plan: the dashboard's link to the planner (data/plan/plan.h): the compute
 * profiles, the projection with the shown scenario's parameters and the
 * base scenario's (the measured values), recomputed at once after every
 * edit, and the edits themselves, written to the scenario in the database
 * before the call returns (data/store/store_plan.h), so that nothing accepted is
 * ever lost. It fills the model's demand figures (per group, per year and
 * memory class, capacity alerts) so that the views stay plain readers.
 *
 * Parameter values are in the planner's units: growth, share and buffer
 * are fractions (0.08 = 8 %), burst and gpus.N GPUs, mem.N GiB (-1
 * unknown), purchases GPUs. */

#include "core/cp.h"
#include "core/projection.h"
#include "data/plan/meetings.h"
#include "data/plan/plan.h"
#include "data/store/store_plan.h"
#include "tui/app.h"
#include "tui/model.h"

/* Open scenario of st for model m (borrowed: m must outlive the plan or
 * be replaced through tui_plan_reload). NULL with err->msg "" when the
 * database has nothing to plan from (no jobs in the window); NULL with err
 * on a database error. Caller frees with tui_plan_close. */
TuiPlan *tui_plan_open(Store *st, TuiModel *m, const char *scenario, CpErr *err);
/* tui_plan_open in two steps, so that the first (the slow one: profiles
 * and the projection from the jobs) may run in a worker on a connection of
 * its own (tui/plan_bg.h): the planner's Plan of st (NULL with err), then
 * the TuiPlan over it for model m (takes plan; NULL, err->msg "", when
 * there is nothing to plan from). */
Plan *tui_plan_build(Store *st, CpErr *err);
TuiPlan *tui_plan_from(Store *st, TuiModel *m, const char *scenario, Plan *plan, CpErr *err);
void tui_plan_close(TuiPlan *p);
/* After the model was rebuilt from the database: fill it again. */
void tui_plan_reload(TuiPlan *p, TuiModel *m);

/* What the views read (borrowed, valid until the next edit or switch). */
const Plan *tui_plan_plan(const TuiPlan *p);
const ProjParams *tui_plan_params(const TuiPlan *p, int base);
const ProjResult *tui_plan_result(const TuiPlan *p, int base);
/* The unit of the projected figures: "GPU-eq" (CPUs when they stand in).
 * Static storage. */
const char *tui_plan_unit(const TuiPlan *p);
/* Whom to ask in every group (data/plan/meetings.h meetings_pick, PICK_DEFAULT a
 * profile), computed on the first call; *n of them. Borrowed from p. */
const MeetPick *tui_plan_picks(TuiPlan *p, int *n);
/* The planner's group of the model's group mg, -1 when not in the plan. */
int tui_plan_group(const TuiPlan *p, const TuiModel *m, int mg);

/* Parameter rows of the Projection view: the group keys, then gpus.N and
 * mem.N per profile, then purchases per class and year. */
int tui_plan_nparams(const TuiPlan *p);
/* Key of row (e.g. "growth", "gpus.2", "purchase.80.y1") into key. */
void tui_plan_param_key(const TuiPlan *p, int row, char *key, size_t n);
/* Value of key for plan group g in the shown scenario (base: measured).
 * NaN when unknown. */
double tui_plan_value(const TuiPlan *p, const char *key, int g, int base);
/* 1 when the shown scenario stores an edit of key (for group g, or for
 * every group); *reason (may be NULL) gets its reason (borrowed, may be
 * NULL). */
int tui_plan_edited(const TuiPlan *p, const char *key, int g, const char **reason);

/* Set key of plan group g (ignored for profile and purchase keys) to
 * value, with reason: checked, written to the scenario (created from base
 * on its first edit; base itself cannot be edited), recomputed, and pushed
 * on s's undo list. A reason is required: without one (NULL or blank) the
 * parameter's stored reason is kept, and with none stored the edit is
 * refused. s->edit_note says which reason the edit carries. -1 with err
 * (nothing changed) when refused. */
int tui_plan_set(TuiState *s, const char *key, int g, double value, const char *reason,
                 CpErr *err);
/* Put the parameter of the session's edit u back as it was before it
 * (redo 0) or as the edit made it (redo 1), on condition that nobody
 * changed it since (data/store/store_undo.h); u->edit follows. 0 done, 1 left
 * alone because someone else changed it (why: "by WHO at WHEN", WHO
 * "someone else" when redact), -1 err. */
int tui_plan_put(TuiPlan *p, TuiUndo *u, int redo, int redact, char *why, size_t wn,
                 CpErr *err);
/* Need next year with key of plan group g set to value, without saving:
 * the group's and the institute's, before (as shown) and after. -1 when
 * the value is refused. */
typedef struct TuiPlanPreview {
    double group_before, group_after, total_before, total_after;
} TuiPlanPreview;
int tui_plan_preview(const TuiPlan *p, const char *key, int g, double value, TuiPlanPreview *out);
/* key as people say it ("pool", "GPU-eq a member, P1"), never the
 * internal key (gpus.1) in a message. p may be NULL. */
void tui_plan_key_words(const TuiPlan *p, const char *key, char *buf, size_t n);
/* An edit typed on base: a reason is required; then the new-scenario
 * prompt opens with a proposed name (plan-YEAR) selected, carrying key,
 * g, value and reason: its Enter makes the scenario from base, shows it
 * and saves the edit into it (tui_plan_prompt_accept). TUI_* flags. */
unsigned tui_plan_offer_scenario(TuiState *s, const char *key, int g, double value,
                                 const char *reason);
/* A parameter's value as the dashboard shows it ("20%", "6.4", "-"). */
void tui_plan_value_text(const char *key, double v, char *buf, size_t n);
/* Give profile k (0-based) a name (saved at once). */
int tui_plan_rename(TuiState *s, int k, const char *name, CpErr *err);

/* The shown scenario's stored edits (its difference from base), in key
 * order; borrowed until the next edit or switch. */
int tui_plan_nedits(const TuiPlan *p);
const StorePlanParam *tui_plan_edit(const TuiPlan *p, int i);
/* Total demand of projected year y (1-based) in the shown scenario or in
 * base; NaN when there is no such year. */
double tui_plan_total(const TuiPlan *p, int y, int base);

/* Edits stored in scenario name (-1 unknown), the scenario it was made
 * from ("" none). */
double tui_plan_edits(const TuiPlan *p, const char *name);
const char *tui_plan_base_of(const TuiPlan *p, const char *name);
/* Show scenario name: parameters read again, demand recomputed. */
unsigned tui_plan_switch(TuiState *s, const char *name);
/* Accept the new-scenario prompt (s->prompt): a copy of the shown one. */
unsigned tui_plan_prompt_accept(TuiState *s);

#endif
