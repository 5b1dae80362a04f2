#!/bin/sh
# capplan tui: edits that cannot go wrong in a meeting (issue 16 items 1-3,
# issue 15 item 4). Prompts open with the old value selected: typing
# replaces it, readline keys edit it, Esc cancels (edits, x, m, /). A
# scenario edit needs a reason, or keeps the one stored, visibly. u and
# C-r undo and redo this session's edits only, each message naming what;
# an edit made meanwhile with `capplan scenario set` is left alone, and so
# is its history. --bench-keys works on a copy of the database.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"

DB="$WORK/demo.db"
"$CAPPLAN_BIN" --db "$DB" demo --today 2026-11-25 --no-tui --seed 7 --jobs 20000 >/dev/null 2>&1 || fail "capplan demo"
q() { sqlite3 "$DB" "$1"; }
param() { # KEY: the stored value of KEY for the shown group in plan-2027
    q "SELECT value FROM scenario_params p JOIN scenarios s ON s.id = p.scenario_id
       WHERE s.name = 'plan-2027' AND key = '$1' AND group_name = '$G'"
}
reason() {
    q "SELECT reason FROM scenario_params p JOIN scenarios s ON s.id = p.scenario_id
       WHERE s.name = 'plan-2027' AND key = '$1' AND group_name = '$G'"
}
"$CAPPLAN_BIN" --db "$DB" scenario new plan-2027 >/dev/null || fail "scenario new"

# --bench-keys: its edits land in a copy, the database is unchanged.
"$CAPPLAN_BIN" --db "$DB" tui --scenario plan-2027 --bench-keys '5<Enter>9 a scripted edit<Enter>' \
    >/dev/null || fail "bench-keys"
[ "$(q "SELECT count(*) FROM scenario_edits")" = 0 ] || fail "--bench-keys wrote into the database"

tui_start "$DB" --scenario plan-2027
keys 5; wait_for "growth a year"
G=$(sed -n '3s/^ \([^ ]*\) · scenario plan-2027 against base.*/\1/p' "$WORK/screen")
[ -n "$G" ] || { cat "$WORK/screen"; fail "no group on the Projection view"; }

# Item 2: no reason, nothing stored yet: refused, and the prompt said so.
keys j; wait_for "pool GPU-eq"
keys Enter; wait_for "pool GPU-eq, then why (required): Enter saves"
typ "7"; keys Enter; wait_for "refused: a reason is required"
[ -z "$(param pool)" ] || fail "an edit without a reason was saved"
keys Escape; wait_gone "then why (required)"

# Item 1: the old value is selected, typing replaces it (was: 6.4278).
keys Enter; typ "8 postdoc runs 8-GPU sweeps"; keys Enter
wait_for "saved to plan-2027"; wait_for "why: postdoc runs 8-GPU sweeps"
[ "$(param pool)" = 8.0 ] || fail "typed over the old value: pool = $(param pool)"
# Home, then typing inserts before; End appends; C-w removes a word.
keys Enter; wait_for "(none: keep 'postdoc runs 8-GPU sweeps')"
keys Home; typ "1"; keys End; typ " two wrong"; keys C-w C-w; typ "bigger sweeps"; keys Enter
wait_for "why: bigger sweeps"
[ "$(param pool)" = 18.0 ] || fail "Home/End/C-w: pool = $(param pool)"
# Left, Backspace, Delete inside the text.
keys Enter; keys End Left BSpace; typ "2"; keys End; typ " fits the budget"; keys Home Delete
typ "3"; keys Enter
wait_for "why: fits the budget"
[ "$(param pool)" = 38.0 ] || fail "Left/Backspace/Delete: pool = $(param pool)"
# Esc cancels: nothing saved.
keys Enter; typ "99 never"; keys Escape; wait_gone "then why"
[ "$(param pool)" = 38.0 ] || fail "Esc did not cancel"
# Item 2: no reason typed, one stored: kept, and the message says which.
keys Enter; typ "33"; keys Enter; wait_for "reason kept: 'fits the budget'"
[ "$(param pool)" = 33.0 ] && [ "$(reason pool)" = "fits the budget" ] || fail "reason not kept"

# x: the file name is selected, typing replaces it.
keys x; wait_for "export to"; typ "$WORK/plan.csv"; keys Enter; wait_for "exported"
[ -s "$WORK/plan.csv" ] || fail "x: typing did not replace the proposed name"
# /: the filter is selected when the prompt opens again.
keys 2; wait_for "capplan · Groups"
keys /; typ "zzznomatch"; keys Enter; keys /; typ "lab"; keys Enter
wait_for 'filter "lab"'

# Item 3 (and issue 15 item 4): u undoes this session's edits only.
keys 5; wait_for "growth a year"
keys g Enter; wait_for "growth a year (%), then why"; typ "20 two new students"; keys Enter; wait_for "saved to plan-2027"
# Meanwhile, from the command line: the same key, and another one.
"$CAPPLAN_BIN" --db "$DB" scenario set plan-2027 growth=0.3 --group "$G" --reason "from the cli" \
    >/dev/null || fail "scenario set"
"$CAPPLAN_BIN" --db "$DB" scenario set plan-2027 buffer=0.5 --group "$G" --reason "cli buffer" \
    >/dev/null || fail "scenario set buffer"
hist=$(q "SELECT count(*) FROM scenario_edits")
keys u; wait_for "not undone: growth of $G was changed by $(id -un) at "
grep -q "UTC; it stays" "$WORK/screen" || fail "the refusal does not say the edit stays"
[ "$(param growth)" = 0.3 ] && [ "$(reason growth)" = "from the cli" ] || fail "u reverted the cli edit"
[ "$(param buffer)" = 0.5 ] || fail "u touched the cli's buffer"
[ "$(q "SELECT count(*) FROM scenario_edits")" = "$hist" ] || fail "u changed the history"
# The next u: the pool edit of this session, named, back to 38.
keys u; wait_for "undone and saved: pool of $G in plan-2027: 33 -> 38"
[ "$(param pool)" = 38.0 ] || fail "u: pool = $(param pool)"
[ "$(reason pool)" = "fits the budget" ] || fail "u: reason not restored"
[ "$(q "SELECT count(*) FROM scenario_edits WHERE reason LIKE 'from the cli'")" = 1 ] \
    || fail "the cli edit's history is gone"
# C-r makes it again.
keys C-r; wait_for "redone and saved: pool of $G in plan-2027: 38 -> 33"
[ "$(param pool)" = 33.0 ] || fail "C-r: pool = $(param pool)"
# Undo down to the start of the session, and no further.
keys u u u u; wait_for "undone and saved: pool of $G in plan-2027: 8 -> measured"
[ -z "$(param pool)" ] || fail "pool still edited"
keys u; wait_for "nothing to undo in this session"
[ "$(param buffer)" = 0.5 ] && [ "$(param growth)" = 0.3 ] || fail "u reached past the session"
# m: the proposed meeting line is selected, typing replaces it.
keys 3; wait_for "capplan · Group"
keys m; wait_for "meeting: DATE STATUS [ATTENDEES]"
typ "2099-01-05 planned"; keys Enter; wait_for "meeting saved: 2099-01-05 planned"
# A stated need typed here, then imported anew from a file by another
# process: u names it and leaves the imported one.
keys e; typ "3"; keys Enter; wait_for "saved: 3 GPUs full-time"
TODAY=$(date -u +%Y-%m-%d)
row=$(q "SELECT user || ',' || group_name FROM stated_needs WHERE date = '$TODAY' AND gpus_fulltime = 3")
[ -n "$row" ] || fail "the stated need is not in the database"
printf 'user,group,date,gpus_fulltime\n%s,%s,5\n' "$row" "$TODAY" >"$WORK/needs.csv"
"$CAPPLAN_BIN" --db "$DB" meetings import-needs "$WORK/needs.csv" >/dev/null || fail "import-needs"
keys u; wait_for "stated need of $TODAY was changed by another process; it stays"
[ "$(q "SELECT gpus_fulltime FROM stated_needs WHERE date = '$TODAY' AND user || ',' || group_name = '$row'")" = 5.0 ] \
    || fail "u reverted the imported stated need"
tui_quit

# A new session: earlier edits are not its own to undo.
tui_start "$DB" --scenario plan-2027
keys u; wait_for "nothing to undo in this session"
tui_quit
[ "$(param growth)" = 0.3 ] || fail "a new session's u undid an earlier edit"
exit 0
