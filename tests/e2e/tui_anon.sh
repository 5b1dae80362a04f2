#!/bin/sh
# Issue 15 item 7 / issue 16 item 4: in presentation mode (a) no screen of
# the dashboard names a person or a group: every view captured, the
# Scenarios view and the Projection's Reason column included, with free
# text that names them (a scenario named after a group, a reason naming a
# professor and a login, an event label, a renamed profile), and every
# name of the database looked for in every capture. Then issue 16's
# screens: the comparison of two scenarios (7, c, c) with its reasons and
# who made them, the institute's projection (Enter on an alert), the Usage
# view following a group, the edit prompt offering the stored reason,
# "reason kept: '...'", undo and redo naming what they undid; and the files
# x writes (.md and .csv, their names too).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"
LEAKS="$(cd "$(dirname "$0")/.." && pwd)/anon_leaks.py"

DB="$WORK/t.db"
expect_rc 0 cap demo --jobs 1000 --no-tui --today 2026-11-25
g1=$(sqlite3 "$DB" "SELECT name FROM groups ORDER BY name LIMIT 1")
g2=$(sqlite3 "$DB" "SELECT name FROM groups ORDER BY name LIMIT 1 OFFSET 1")
u1=$(sqlite3 "$DB" "SELECT name FROM users ORDER BY name LIMIT 1")
prof=$(sqlite3 "$DB" "SELECT professor FROM groups ORDER BY name LIMIT 1")
printf 'date,cluster,label\n2026-01-15,atlas,%s group got 8 new GPUs\n' "$u1" >"$WORK/ev.csv"
expect_rc 0 cap import events "$WORK/ev.csv"
expect_rc 0 cap profile --k 2
expect_rc 0 cap profile rename 1 "$u1 sweeps"
expect_rc 0 cap scenario new "$g1"
expect_rc 0 cap scenario set "$g1" growth=0.2 --group "$g2" --reason "$prof agrees, asked by $u1"
expect_rc 0 cap scenario set "$g1" growth=0.3 --group "$g1" --reason "$u1 and $g2 share"
# a pool for g1 makes the <=24 GiB class short next year: an alert to open
expect_rc 0 cap scenario set "$g1" pool=40 --group "$g1" --reason "$prof wants a pool"
expect_rc 0 cap scenario new "$g2-lean" --from "$g1"
expect_rc 0 cap scenario set "$g2-lean" buffer=0.5 --reason "$u1 says $g2 needs less"

# the dashboard's folder, where x writes
mkdir "$WORK/x" && cd "$WORK/x" || fail "cd"
tui_start "$DB" --scenario "$g1"
wait_for "capplan · Overview"
wait_for "$g1" # names are shown before presentation mode
keys a; wait_for "[presentation]"
n=0
shot() { screen; cp "$WORK/screen" "$WORK/shot$n"; n=$((n + 1)); }
shot
for v in 1 2 4 5 6 7; do keys $v; sleep 0.3; wait_for "[presentation]"; shot; done
keys 2; sleep 0.2; keys Enter; sleep 0.3; wait_for "capplan · Group"; shot
keys 5; sleep 0.2; keys Down Down Enter; sleep 0.3; shot; keys Escape
keys 7; sleep 0.2; keys Enter; sleep 0.3; shot
# issue 16: two scenarios side by side (A = g1, B = g2-lean; base is first)
keys g j c; wait_for "select the other scenario and press c"; shot
keys j c; wait_for "comparing A "; wait_for " against B "; shot
keys k Enter; wait_for "showing scenario group-"
# the institute's projection: Enter on the class alert, then ] to a group
keys 1; wait_for "GiB class short next year"
first=$(grep -n "^!" "$WORK/screen" | sed -n 2p | cut -d: -f1)
at=$(grep -n "GiB class short next year" "$WORK/screen" | head -1 | cut -d: -f1)
keys g; while [ "$first" -lt "$at" ]; do keys j; first=$((first + 1)); done
keys Enter; wait_for "Institute · scenario"; wait_for "all classes"; shot
keys ]; wait_for "]: other group"; shot
# names shown to pick g1 in Groups, hidden again from its Group view on
keys a; wait_for "names shown"
keys 2; sleep 0.2; keys /; typ "$g1"; keys Enter; keys Escape; keys g Enter
wait_for "$g1 · professor"
keys a; wait_for "[presentation]"; shot
# Usage follows the group, then the next one
keys 6; wait_for "keys [ and ]: other group"; shot
keys ]; sleep 0.3; shot
keys [; sleep 0.3 # back to g1 (] walks the labels' order, not the names')
# the Projection of g1: growth holds a reason, offered and then kept
keys 3; sleep 0.2; keys 5; wait_for "growth a year"; shot
keys g Enter; wait_for "(none: keep '"; shot
keys C-u; typ "25"; keys Enter; wait_for "reason kept: '"; shot
keys u; wait_for "undone and saved: growth of "; shot
keys C-r; wait_for "redone and saved: growth of "; shot
# x in presentation mode: the proposed name, then the files (.md, .csv)
keys x; wait_for "export to (.md or .csv): capplan-projection-"; shot
keys Enter; wait_for "exported"
keys x; wait_for "export to"; keys C-u; typ "projection.csv"; keys Enter; wait_for "projection.csv (CSV)"
keys 3; wait_for "capplan · Group"; keys x; wait_for "export to"; keys Enter; wait_for "exported"
keys Enter; wait_for "biggest jobs first"; keys x; wait_for "-jobs-"; keys Enter; wait_for "exported"
keys Escape; keys 7; wait_for "capplan · Scenarios"; keys x; wait_for "export to"; keys Enter
wait_for "exported"
keys 2; wait_for "capplan · Groups"; keys x; wait_for "export to"; keys C-u; typ "groups.csv"
keys Enter; wait_for "groups.csv (CSV)"
keys 4; wait_for "capplan · Profiles"; keys x; wait_for "export to"; keys C-u; typ "profiles.csv"
keys Enter; wait_for "profiles.csv (CSV)"
for v in 1 4 6; do keys $v; sleep 0.2; keys x; wait_for "export to"; keys Enter; wait_for "exported"; done
keys a; wait_for "names shown"
tui_quit
cd "$WORK" || fail "cd"
[ -n "${KEEP_SHOTS:-}" ] && cp "$WORK"/shot* "$WORK"/x/* "$KEEP_SHOTS"/
python3 "$LEAKS" "$DB" "$WORK"/shot* >"$WORK/leaks" 2>&1 ||
    fail "names on the screens in presentation mode: $(head -20 "$WORK/leaks"; cat "$WORK/shot4")"
[ "$(ls "$WORK/x" | wc -l)" -ge 10 ] || fail "exports missing: $(ls "$WORK/x")"
ls "$WORK/x" >"$WORK/x.names"
python3 "$LEAKS" "$DB" "$WORK/x.names" "$WORK"/x/* >"$WORK/leaks" 2>&1 ||
    fail "names in the files x wrote in presentation mode: $(head -20 "$WORK/leaks")"
# and the test can fail: the same screens without presentation mode name them
grep -l "$g1" "$WORK"/shot* >/dev/null && fail "the scenario's name shown in presentation mode"
echo "PASS: tui_anon"
