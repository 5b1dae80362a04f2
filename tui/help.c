/* help: each view's legend (help.h). */
#include "tui/help.h"

#define NOTE "\xc2\xb7"

static const char *const overview[] = {
    "Bars: mean GPU-eq a year (GPUs x their model's relative speed; CPUs for a CPU-only "
    "history), \xe2\x96\x91 capacity, \xe2\x96\x88 use; projected years: the need, "
    "\xe2\x96\x93 p10 to the need, \xe2\x96\x92 the need to p90, red beyond capacity",
    "No inventory: no capacity is shown (never a shortage against 0); the Overview names the "
    "command that adds what is missing",
    "Alerts: ! warning, !! bad " NOTE " Value: the figure the alert is about, in its unit",
    "Enter on an alert: its group, its cluster (Usage) or, for a memory class, the institute's "
    "projection",
};

static const char *const groups[] = {
    "Stud.: active students now " NOTE " GPU-h: GPU-hours of the last 12 months " NOTE
    " Share %: of every group's GPU-hours " NOTE " Preempt %: preempted attempts " NOTE
    " Wait: mean queue wait",
    "Trend %: GPU-hours of the last 12 months against the 12 before (usage; the projection's "
    "growth is head count)",
    "Need: projected mean GPU-eq next year in the shown scenario " NOTE " p10-p90: its range "
    "(8 in 10 backtest years fell inside; n/cal: not calibrated) " NOTE
    " vs base: minus base's, GPU-eq",
    "Dim rows: groups without use in the last 12 months (or not on the roster)",
};

static const char *const group[] = {
    "GPU-h: GPU-hours of the last 12 months " NOTE " GPUs used: their mean " NOTE
    " Stated: the GPUs the member says they need full-time",
    "vs used: stated against used, ok within 50 % and 0.5 GPU; \xe2\x89\xa0 x27: stated 27 times the GPUs "
    "used, \xe2\x89\xa0 /4: a quarter of them, \xe2\x89\xa0 none: some stated, none used, "
    "\xe2\x89\xa0 mem: another memory class",
    "GPU-h a month: the last 24 months, \xe2\x96\x81 none to \xe2\x96\x88 the member's busiest",
    "whom to ask: per compute profile, the students nearest its centre, still on the roster",
    "Profile: the member's compute profile (P1..., key 4) " NOTE " Preempt %: preempted "
    "attempts " NOTE " Wait: mean queue wait " NOTE " Jobs: job attempts, 12 months",
    "Research: R3 the member's research cluster from their papers (capplan research); R3? "
    "in yellow: the member computes like another profile than their cluster's peers, ask why "
    "(the line under the table says which); -: no papers",
};

static const char *const profiles[] = {
    "Profiles: members grouped by how they compute (k-means over standardised features)",
    "GPUs/job: 90th percentile " NOTE " Mem GiB: the GPU memory they need " NOTE
    " * requested, not measured " NOTE " Mean h, Max h: run time " NOTE
    " Peak: most GPUs held at once " NOTE " GPU-eq/member: full-time GPU-eq each (as the "
    "Projection's GPU-eq/member)",
};

static const char *const projection[] = {
    "head-count growth a year: of the group's active members (newcomers keep it), not GPU-hours",
    "GPU-eq: mean GPUs x their model's relative speed (the reference model = 1.0) " NOTE
    " now: used over the last 12 months",
    "Chart: \xe2\x96\x88 used, or need up to its p10 " NOTE " \xe2\x96\x93 p10 to the need "
    NOTE " \xe2\x96\x92 the need to p90 (8 in 10 backtest years fell inside) " NOTE
    " \xe2\x94\x82 capacity",
    "Need in parts, as capplan project --explain: stayers (members now, own rates) + leavers "
    "(roster end in the year) + newcomers (first year at the ramp) + intensity + pool share "
    "(exploration bursts) + buffer share = need",
    "pool GPU-eq: the group's burst pool " NOTE " buffer: a share on top of use + pool",
    "Measured: from the accounting " NOTE " Scenario: the shown scenario's value, * edited " NOTE
    " Reason: why",
    "An edit needs a reason (Enter on an empty one keeps the stored reason); it opens a form: "
    "the value before, the new one, the reason and the need before -> after, Enter saves",
    "On base (the measured values) an edit starts a new scenario: Enter names it, Enter again "
    "makes it with the edit",
};

static const char *const usage[] = {
    "GPU-h: used in the month " NOTE " GPUs: in service (inventory) " NOTE
    " Util %: GPU-hours used of those available " NOTE " Wait: mean queue wait",
    "Heat map: mean GPUs in use per hour of the week (UTC), last 12 months; shades of the "
    "busiest hour: blank under 2 %, \xe2\x96\x91 under 25 %, \xe2\x96\x92 under 50 %, "
    "\xe2\x96\x93 under 80 %, \xe2\x96\x88 80 % or more",
    "\xe2\x96\xb2 an event (a purchase, a decommission) " NOTE
    " Requested vs used: what jobs asked for and used",
    "[ and ] follow a group (its share, preemption, waits, requested vs used); Esc: the "
    "institute",
};

static const char *const scenarios[] = {
    "c picks two scenarios (A, then B); without a pick: base against the shown one",
    "Need: mean GPU-eq a year in A -> in B (change) " NOTE
    " next year: one parameter's effect alone",
    "u and C-r undo and redo this session's edits only; earlier ones are listed here",
};

#define N(a) (int)(sizeof a / sizeof a[0])

const char *const *tui_help_view(TuiViewId v, int *n)
{
    switch (v) {
    case TUI_V_OVERVIEW: *n = N(overview); return overview;
    case TUI_V_GROUPS: *n = N(groups); return groups;
    case TUI_V_GROUP: *n = N(group); return group;
    case TUI_V_PROFILES: *n = N(profiles); return profiles;
    case TUI_V_PROJECTION: *n = N(projection); return projection;
    case TUI_V_USAGE: *n = N(usage); return usage;
    case TUI_V_SCENARIOS: *n = N(scenarios); return scenarios;
    case TUI_V_COUNT: break;
    }
    *n = 0;
    return NULL;
}
