#!/bin/sh
# capplan tui, issue 30 items 1-3, at 80x24 and 200x60: an edit is typed in
# a form of its own (the field, the value before, the new value and the
# reason in full, need before -> after previewed), never in a table cell;
# an edit of base offers a named scenario from it and carries the value and
# reason over; another process's change shows within a second, and a save's
# "before" is the database's at save time. Figures against `capplan project
# --json`.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"

"$CAPPLAN_BIN" --db "$WORK/demo.db" demo --today 2026-11-25 --no-tui --seed 7 --jobs 20000 \
    >/dev/null 2>&1 || fail "capplan demo"
NEXT=$(($(date -u +%Y) + 1))
SC="plan-$NEXT"
ME=$(id -un)

# need SCENARIO GROUP: the group's need next year as `capplan project --json` has it.
need() {
    "$CAPPLAN_BIN" --db "$DB" project --scenario "$1" --json | python3 -c "
import json, sys
d = json.load(sys.stdin)
print('%.2f' % [g for g in d['groups'] if g['name'] == sys.argv[1]][0]['years'][0]['need'])" "$2"
}
param() {
    sqlite3 "$DB" "SELECT value || '|' || reason FROM scenario_params p JOIN scenarios s
                   ON s.id = p.scenario_id WHERE s.name = '$SC' AND key = '$1' AND group_name = '$G'"
}

for size in 80x24 200x60; do
    TUI_W=${size%x*}; TUI_H=${size#*x}
    DB="$WORK/$size.db"
    cp "$WORK/demo.db" "$DB"
    tui_start "$DB"
    keys 5; wait_for "growth a year"
    G=$(sed -n '3s/^ \([^ ]*\) · scenario base against base.*/\1/p' "$WORK/screen")
    [ -n "$G" ] || { cat "$WORK/screen"; fail "$size: no group on the Projection view (base)"; }
    base_need=$(need base "$G")

    # Item 1: the form, not the cell. A refused value first: the form says
    # so before Enter, Enter refuses, Esc leaves nothing typed behind.
    keys j; keys Enter; wait_for " Edit pool GPU-eq · $G · scenario base"
    wait_for " was   0 (measured)"
    typ "8x"; wait_for " new   '8x' does not read as a number"
    keys Enter; wait_for "refused: '8x' is not a number"
    keys Escape; wait_gone " Edit pool GPU-eq"
    keys Enter; wait_for " Edit pool GPU-eq"
    # Item 2: base, no reason: refused, the prompt still open and showing it.
    typ "8"; keys Enter; wait_for "refused: a reason is required"
    wait_for " new   8.0"
    # The refused text is selected: what is typed next replaces it.
    typ "9 why not"; wait_for " new   9.0"; wait_for " why   why not"
    keys Escape; wait_gone " Edit pool GPU-eq"
    # The full edit: value and reason readable, need before -> after.
    keys Enter; typ "8 postdoc runs 8-GPU sweeps"
    wait_for " new   8.0"
    wait_for " why   postdoc runs 8-GPU sweeps"
    wait_for " > 8 postdoc runs 8-GPU sweeps"
    wait_for " then  need next year: group $base_need -> "
    wait_for "base holds the measured values: Enter starts a new scenario from base"
    grep -q "^pool GPU-eq  *0  *0 " "$WORK/screen" || { cat "$WORK/screen"; fail "$size: the typed value is in the table"; }
    preview=$(sed -n "s/^ then  need next year: group $base_need -> \([0-9.]*\),.*/\1/p" "$WORK/screen")
    # Item 2: one Enter names the scenario, the next makes it with the edit.
    keys Enter; wait_for "new scenario from base, with pool = 8 (Enter makes it): $SC"
    keys Enter; wait_for "new scenario $SC: need next year $base_need -> $preview GPU-eq; u undoes"
    [ "$(param pool)" = "8.0|postdoc runs 8-GPU sweeps" ] || fail "$size: carried edit: $(param pool)"
    [ "$(need "$SC" "$G")" = "$preview" ] || fail "$size: preview $preview, project --json $(need "$SC" "$G")"
    wait_for "capplan · Projection · scenario $SC"

    # Item 3: another process's change shows within a second.
    t0=$(date +%s%N)
    "$CAPPLAN_BIN" --db "$DB" scenario set "$SC" pool=40 --group "$G" --reason "from the cli" \
        >/dev/null || fail "scenario set"
    wait_for "$SC changed by $ME at "
    ms=$((($(date +%s%N) - t0) / 1000000))
    grep -q "UTC: pool of $G 8 -> 40" "$WORK/screen" || { cat "$WORK/screen"; fail "$size: the change is not named"; }
    grep -q "^pool GPU-eq  *0  *40\* " "$WORK/screen" || { cat "$WORK/screen"; fail "$size: pool 40 not shown"; }
    echo "$size: another process's change on the screen after $ms ms"
    [ "$ms" -le 1500 ] || fail "$size: the change took $ms ms to show"
    # "before" at save time: a change made while the form is open.
    keys Enter; typ "30 the budget"; wait_for " new   30"
    "$CAPPLAN_BIN" --db "$DB" scenario set "$SC" pool=50 --group "$G" --reason "cli again" \
        >/dev/null || fail "scenario set"
    before=$(need "$SC" "$G")
    keys Enter; wait_for "saved to $SC: need next year $before -> "
    after=$(need "$SC" "$G")
    wait_for "saved to $SC: need next year $before -> $after GPU-eq"
    [ "$(param pool)" = "30.0|the budget" ] || fail "$size: pool after the save: $(param pool)"
    # The Group view: a stated need typed with words is read in the form,
    # the table cell untouched.
    keys 3; wait_for "capplan · Group"
    keys e; wait_for " Edit the GPUs "
    typ "8 postdoc runs"; wait_for " new   '8 postdoc runs' is not a number of GPUs (0 to 10000)"
    wait_for " > 8 postdoc runs"
    [ "$(grep -c "8 postdoc runs" "$WORK/screen")" = 2 ] || { cat "$WORK/screen"; fail "$size: the typed text is in the table"; }
    keys Escape; wait_gone " Edit the GPUs "
    tui_quit
done

# An undo in a second dashboard: the first shows it within a second.
DB="$WORK/200x60.db"
TUI_W=100; TUI_H=30
tui_start "$DB" --scenario "$SC"
keys 5; wait_for "growth a year"
tm new-window -d "env LC_ALL=C.UTF-8 TERM=xterm-256color '$CAPPLAN_BIN' --db '$DB' tui --scenario '$SC' 2>'$WORK/tui2.err'"
two() { tm send-keys -t :1 "$@"; }
i=0; while [ $i -lt 300 ] && ! tm capture-pane -p -t :1 | grep -q "growth a year"; do
    two 5; sleep 0.1; i=$((i + 1)); done
two j Enter; sleep 0.3; tm send-keys -t :1 -l "12 second dashboard"; two Enter
wait_for "$SC changed by $ME at "; wait_for "UTC: pool of $G 30 -> 12"
two u
t0=$(date +%s%N)
wait_for "UTC: pool of $G 12 -> 30"
echo "an undo in a second dashboard on the first's screen after $((($(date +%s%N) - t0) / 1000000)) ms"
[ "$(param pool)" = "30.0|the budget" ] || fail "the second dashboard's undo: $(param pool)"
tm send-keys -t :1 q
tui_quit
[ ! -s "$WORK/tui2.err" ] || { cat "$WORK/tui2.err"; fail "the second dashboard wrote to stderr"; }
exit 0
