/* help: each view's legend (help.h). */
#include "tui/help.h"

#define NOTE "\xc2\xb7"

static const char *const overview[] = {
    "Bars: mean GPU-eq a year (GPUs x their model's relative speed, the reference model = 1; "
    "CPUs for a CPU-only history): \xe2\x96\x91 capacity (GPUs in service, the inventory), "
    "\xe2\x96\x88 use, red: use beyond capacity",
    "used U of C GPU-eq (P%): a past year's mean use of its capacity; a year the accounting "
    "covers in part: the mean over the part it covers (as the Projection's used now)",
    "Projected years, need N (p10-p90) of C GPU-eq: \xe2\x96\x88 the need up to p10, "
    "\xe2\x96\x93 p10 to the need, \xe2\x96\x92 the need to p90 (8 in 10 backtest years fell "
    "inside); red: need beyond capacity; not calibrated: too few backtest years for a range; "
    "+1y: a projected year whose calendar year was measured already",
    "No inventory: no capacity is shown (never a shortage against 0); the Overview names the "
    "command that adds what is missing (yellow lines: No roster, No inventory...)",
    "Next year cap/need, GPU-eq: per GPU memory class (\xe2\x89\xa4" "24G: jobs that need up to "
    "24 GiB), next year's capacity / need; without a projection: GPUs now by memory class",
    "Utilisation, 36 months: every cluster's GPU-hours used of those available per month, "
    "\xe2\x96\x81 none to \xe2\x96\x88 all; the last month's %; without an inventory: GPU-hours, "
    "\xe2\x96\x81 to the busiest month",
    "to meet: groups with no meeting held yet (capplan meetings; a note counts), green when none "
    "is left",
    "Alerts, !: ! warning (yellow), !! bad (red) " NOTE " Alert: what was found " NOTE
    " Value: the figure the alert is about, in its unit",
    "Enter on an alert: its group, its cluster (Usage) or, for a memory class, the institute's "
    "projection",
};

static const char *const groups[] = {
    "The line above the table: how many groups, from the roster (or the accounts without one), "
    "the last 12 months' GPU-hours, the unit of the need",
    "Group: a research group (the roster's; without a roster, an account) " NOTE
    " Professor: its head " NOTE " Domain: its research domain",
    "Stud.: active students now " NOTE " GPU-h: GPU-hours of the last 12 months " NOTE
    " Share %: of every group's GPU-hours",
    "Preempt %: preempted attempts, yellow over 10 %, red over 25 % " NOTE
    " Wait: mean queue wait (s, m, h, d)",
    "Trend %: GPU-hours of the last 12 months against the 12 before, yellow over +50 % (usage; "
    "the projection's growth is head count)",
    "Need: projected mean GPU-eq next year in the shown scenario " NOTE " p10-p90: its range "
    "(8 in 10 backtest years fell inside; n/cal: not calibrated) " NOTE
    " vs base: minus base's, GPU-eq, highlighted when above",
    "Dim rows: groups without use in the last 12 months (or not on the roster); -: no figure "
    "(no use, no projection)",
};

static const char *const group[] = {
    "Top lines: the group, its professor, domain, students and active members " NOTE
    " GPU-h/month: its GPU-hours a month, \xe2\x96\x81 none to \xe2\x96\x88 its busiest, with the "
    "last 12 months' GPU-hours, share of all and trend " NOTE
    " preempted: its preempted share a month, of attempts, GPU-hours lost, mean wait",
    "profiles P1\xc3\x97" "3: members per compute profile " NOTE " stated needs: how many "
    "members stated one, how many far from what they used (\xe2\x89\xa0, the line in yellow)",
    "Member: the user " NOTE " Role: on the roster (phd-student, postdoc...) " NOTE
    " Until: the roster's end date (year-month), -: none",
    "Profile: the member's compute profile (P1..., key 4), -: too little history",
    "GPU-h: GPU-hours of the last 12 months " NOTE " GPUs used: their mean over 12 months " NOTE
    " Stated: the GPUs the member says they need full-time (e types one; highlighted), -: none",
    "vs used: stated against used, ok (green) within 50 % and 0.5 GPU, else red: "
    "\xe2\x89\xa0 x27: stated 27 times the GPUs used, \xe2\x89\xa0 /4: a quarter of them, \xe2\x89\xa0 none: some "
    "stated, none used, \xe2\x89\xa0 mem: another memory class",
    "Preempt %: preempted attempts " NOTE " Wait: mean queue wait " NOTE
    " Jobs: job attempts, 12 months",
    "GPU-h a month, 24 months: the last 24 months, \xe2\x96\x81 none to \xe2\x96\x88 the member's "
    "busiest",
    "Research: R3: the member's research cluster from their papers (capplan research); R3? in "
    "yellow: the member computes like another profile than their cluster's peers, ask why (the "
    "line under the table says which); -: no papers",
    "Dim rows: members not active now (off the roster and no use in 12 months)",
    "Under the table: meetings (last, next; m plans one), notes (n adds one), whom to ask: per "
    "compute profile, the members nearest its centre, still on the roster; the selected member's "
    "stated need against their use",
    "Enter on a member: their GPU-hours a month and biggest jobs (F1 there explains them)",
};

/* The Group view's member jobs (Enter on a member; Esc: the members). */
static const char *const member_jobs[] = {
    "The top line: the member (a pseudonym when anonymised), their role on the roster (not on "
    "the roster: an account's user), their start..end, their group, their GPU-hours of the "
    "last 12 months",
    "GPU-h/month: their GPU-hours a month over the last 36 months, \xe2\x96\x81 none to "
    "\xe2\x96\x88 their busiest; then biggest jobs first (the 200 biggest jobs first: only "
    "those are read; reading the jobs...: still reading) " NOTE " Esc: back to the members",
    "The table: the member's job attempts of the whole history, one a row, the most GPU-hours "
    "first: Job: its id " NOTE " Name: the job's name ((hidden) when anonymised) " NOTE
    " Cluster: where it ran " NOTE " Partition: its queue",
    "State: how it ended (COMPLETED, TIMEOUT, PREEMPTED...) " NOTE " Start: its day (UTC) " NOTE
    " Run time: how long it ran " NOTE " GPUs: GPUs held " NOTE " GPU-h: GPUs x run time " NOTE
    " Mem GiB: its peak GPU memory, -: not measured",
};

static const char *const profiles[] = {
    "Profiles: members grouped by how they compute (k-means over standardised features); "
    "silhouette: how well apart the profiles are, -1 to 1 " NOTE " e renames the selected one",
    "#: the profile's number (P1...) " NOTE " Profile: its name " NOTE
    " Users: its members " NOTE " GPUs/job: 90th percentile of GPUs a job",
    "Mem GiB: the GPU memory they need, * requested, not measured " NOTE
    " Mean h: a job's mean run time " NOTE " Max h: its longest " NOTE " GPU-h/mo: GPU-hours a month a member",
    "Peak: most GPUs a member held at once " NOTE " GPU-eq/member: full-time GPU-eq each (as the "
    "Projection's GPU-eq/member)",
    "Dots: one per member at the two features named on the right (x: f, y: F change them; "
    "log scales), the selected profile's members bright, the others dim; beside: its members",
};

static const char *const projection[] = {
    "Top line: the group (or the institute), the shown scenario against base, keys [ and ] "
    "for another group",
    "Chart: mean GPU-eq a year (GPUs x their model's relative speed, the reference model = 1.0; "
    "CPUs for a CPU-only history)",
    "now: used over the last 12 months, mean GPU-eq (over the part the accounting covers when it "
    "began later, as the Overview's years)",
    "Bars: \xe2\x96\x88 used, or the need up to its p10 " NOTE " \xe2\x96\x93 p10 to the need "
    NOTE " \xe2\x96\x92 the need to p90 (8 in 10 backtest years fell inside) " NOTE
    " \xe2\x94\x82 capacity; need N (p10-p90): red beyond capacity; not calibrated: no range yet",
    "Parameter: what the projection assumes, one a row (Enter: its value and why):",
    "head-count growth a year: of the group's active members (newcomers keep it), not GPU-hours "
    NOTE " pool GPU-eq: the group's burst pool " NOTE " buffer: a share on top of use + pool",
    "intensity a year (all): the trend of the institute's use per member " NOTE
    " half-life, months (all): how fast old months fade from the rates",
    "GPU-eq/member P1: full-time GPU-eq each member of profile 1 uses " NOTE
    " GiB/GPU P1: the GPU memory its jobs need " NOTE
    " buy a100 GPUs from 2027: a purchase in the scenario",
    "Measured: from the accounting (dim) " NOTE " Scenario: the shown scenario's value, "
    "highlighted when edited " NOTE " Reason: why it was edited",
    "Need in parts, as capplan project --explain: stayers (members now, own rates) + leavers "
    "(roster end in the year) + newcomers (first year at the ramp) + intensity + pool share "
    "(exploration bursts) + buffer share = need, with its p10 and p90 (n/c: not calibrated); "
    "members (N), leaving (N): who",
    "why (...): the selected parameter's reason, who edited it and when",
    "The institute (i, or Enter on an institute alert; i again: the group): past years used of capacity, as the Overview; "
    "Next year simulated and Recommendation: the queue simulation's p90 wait; forecaster: how the "
    "level was chosen; By memory class: need, capacity (GPUs in service x relative speed) and gap "
    "(need - capacity after bigger classes' room, red: short)",
    "An edit needs a reason (Enter on an empty one keeps the stored reason); it opens a form: "
    "the value before, the new one, the reason and the need before -> after, Enter saves",
    "On base (the measured values) an edit starts a new scenario: Enter names it, Enter again "
    "makes it with the edit",
};

static const char *const usage[] = {
    "Utilisation per month: each cluster's GPU-hours used of those available (the inventory), "
    "\xe2\x96\x81 none to \xe2\x96\x88 all, and its last month's %; GPU-h: no inventory, "
    "\xe2\x96\x81 to its busiest month",
    "events: \xe2\x96\xb2 the month of an event (a purchase, a decommission, an allocation "
    "change), named in the Event column",
    "[ and ] follow a group: GPU-h %: its share of every group's GPU-hours a month " NOTE
    " preempt %: its preempted attempts " NOTE " wait: its mean wait; the figures: the group's "
    "12 months / all; Esc: the institute",
    "Month: the calendar month (UTC), newest first " NOTE " Cluster: the cluster " NOTE
    " GPU-h: used in the month " NOTE " GPUs: in service (inventory), -: not known",
    "Util %: GPU-hours used of those available, red over 90 %, yellow under 30 % " NOTE
    " Jobs: jobs in the month " NOTE " Wait: mean queue wait " NOTE
    " Event: what happened that month",
    "over 100%: jobs held N GPUs, inventory lists M (red, in Event and under the table for the "
    "selected month): the jobs used more GPU-hours than the inventory's M GPUs give, N GPUs on "
    "average, so the inventory lists fewer GPUs than the jobs ran on that month",
    "Heat map: mean GPUs in use per hour of the week (UTC), last 12 months; shades of the "
    "busiest hour: blank under 2 %, \xe2\x96\x91 under 25 %, \xe2\x96\x92 under 50 %, "
    "\xe2\x96\x93 under 80 %, \xe2\x96\x88 80 % or more; \xe2\x96\x88 = N GPUs: the busiest hour",
    "Requested vs used, 12 months (the group's beside all when following one): GPU util: mean "
    "GPU utilisation where measured; CPU time used: CPU time / (run time x CPUs); memory used: "
    "peak RSS / requested memory",
    "Energy (util N% measured): MWh and t CO2e a year (capplan stats energy) " NOTE
    " Fair-share used/alloc: the fair-share factor (0-1) and the share of the allocation used; "
    "blk (red): blocked (capplan stats fairshare)",
};

static const char *const scenarios[] = {
    "Scenario: its name; A and B mark the two compared (c picks A, then B; without a pick: base "
    "against the shown one) " NOTE " Shown: \xe2\x97\x8f the one every view shows (bold)",
    "Made from: the scenario it was copied from " NOTE " Edits (count): its edited values; -: "
    "base, the measured values",
    "A against B: how many parameters differ and next year's need, A -> B; Need, GPU-eq: a year's "
    "need in A -> in B (= when equal), every class, then per GPU memory class (\xe2\x89\xa4" "24 "
    "GiB: jobs that need up to 24 GiB)",
    "Parameters that differ: A -> B, that one change's effect alone on next year's need, why, "
    "who and when",
    "u and C-r undo and redo this session's edits only; earlier ones are listed here",
};

static const char *const common[] = {
    "Title: the view, the scenario shown and the months the accounting covers; \"reading the "
    "planner\" while the projection is read",
    "Tables: \xe2\x96\xbc or \xe2\x96\xb2 after a column's title: sorted by it, descending or "
    "ascending (s); the column under the cursor is highlighted (Left, Right), and the selected "
    "row; \xe2\x80\xa6: text cut to fit (wider terminals show more columns); -: no figure",
    "Colours: red bad or beyond capacity, yellow a warning, green fine, dim: measured or "
    "inactive; the status line under the table: row N of M, the filter, what was saved",
};

#define N(a) (int)(sizeof a / sizeof a[0])

const char *const *tui_help_common(int *n)
{
    *n = N(common);
    return common;
}

int tui_help_member_jobs(const TuiState *s)
{
    return s->view == TUI_V_GROUP && s->member >= 0;
}

const char *const *tui_help_legend(const TuiState *s, int *n)
{
    if (tui_help_member_jobs(s)) {
        *n = N(member_jobs);
        return member_jobs;
    }
    return tui_help_view(s->view, n);
}

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
