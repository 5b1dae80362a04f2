#!/bin/sh
# capplan tui, Scenarios view (issue 16 item 8): any two scenarios side by
# side (c picks A, then B), with the need by year and memory class in each
# and every parameter on which they differ, its reason, who made the edit
# and when, and its effect alone on next year's need; figures checked
# against `capplan project --json` and `capplan scenario diff --json`.
# The dashboard reopens on the scenario last shown, named in the title.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"

DB="$WORK/demo.db"
"$CAPPLAN_BIN" --db "$DB" demo --today 2026-11-25 --no-tui --seed 7 --jobs 20000 >/dev/null 2>&1 || fail "capplan demo"
cap2() { "$CAPPLAN_BIN" --db "$DB" "$@"; }
G=$(sqlite3 "$DB" "SELECT name FROM groups ORDER BY name LIMIT 1")
cap2 scenario new plan-2027 >/dev/null || fail "new"
cap2 scenario set plan-2027 growth=0.2 --group "$G" --reason "two new students" >/dev/null || fail "set"
cap2 scenario set plan-2027 purchase.h100.y1=16 --reason "the H100 order" >/dev/null || fail "set"
cap2 scenario new lean --from plan-2027 >/dev/null || fail "new lean"
cap2 scenario set lean gpus.1=0.5 --reason "sweeps moved to the cloud" >/dev/null || fail "set lean"
# What capplan scenario diff says of base against lean (the plan API's figures).
cap2 scenario diff base lean --json >"$WORK/diff.json" || fail "scenario diff"
dj() { python3 -c "import json; d=json.load(open('$WORK/diff.json')); print($1)"; }

tui_start "$DB"
wait_for "capplan · Overview · scenario base"
keys 7; wait_for "capplan · Scenarios · scenario base"
# c on base (A), then c on lean (B).
keys g c; wait_for "A = base; select the other scenario and press c"
keys j c; wait_for "comparing A base with B lean"
wait_for "A base against B lean: 3 parameters differ"
# The planner's figures are GPU-eq (GPUs x relative speed), and say so:
# the header, the title line and every effect; nothing calls them GPUs.
grep -q "^ Need, GPU-eq  *20[0-9][0-9]: A -> B" "$WORK/screen" || fail "the need's header is not GPU-eq"
grep -q "A base against B lean: 3 parameters differ, need next year [-+][0-9.]* GPU-eq" \
    "$WORK/screen" || fail "the title line's need is not in GPU-eq"
if grep -q "GPUs" "$WORK/screen"; then cat "$WORK/screen"; fail "the comparison calls GPU-eq GPUs"; fi
# Need by year: A -> B, as the planner computes each.
a1=$(dj "'%.0f' % d['demand_a'][0]"); b1=$(dj "'%.0f' % d['demand_b'][0]")
row=$(grep "^ every class " "$WORK/screen")
echo "$row" | grep -q " $a1 -> $b1 (" || fail "need next year '$row' is not $a1 -> $b1"
for cls in "≤24 GiB" "≤48 GiB" "≤80 GiB" ">80 GiB"; do
    grep -q "^ $cls " "$WORK/screen" || fail "no memory class row $cls"
done
# Every differing parameter, its effect alone as scenario diff has it,
# its reason, who made it and when.
n=$(dj "len(d['changes'])")
[ "$n" = 3 ] || fail "scenario diff lists $n changes"
i=0
while [ $i -lt "$n" ]; do
    key=$(dj "d['changes'][$i]['key']"); eff=$(dj "'%+.1f' % d['changes'][$i]['effect'][0]")
    why=$(dj "d['changes'][$i]['reason']"); who=$(dj "d['changes'][$i]['who']")
    grep -q "^ $key[: @].* · next year $eff GPU-eq$" "$WORK/screen" || fail "$key: effect $eff GPU-eq not shown"
    grep -qF "why: $why · $who, $(date -u +%Y-%m-%d)" "$WORK/screen" || fail "$key: why, who, when"
    i=$((i + 1))
done
grep -qF "growth @ $G: " "$WORK/screen" || fail "the group's growth edit"
# Enter shows lean; the title names it; quit and reopen: lean again.
keys Enter; wait_for "showing scenario lean"; wait_for "capplan · Scenarios · scenario lean"
tui_quit
tui_start "$DB"
wait_for "capplan · Overview · scenario lean"
wait_for "opened on scenario lean, the one shown last"
tui_quit
exit 0
