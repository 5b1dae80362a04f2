#!/bin/sh
# Issue 15 item 7 / issue 16 item 4: in presentation mode (a) no screen of
# the dashboard names a person or a group: every view captured, the
# Scenarios view and the Projection's Reason column included, with free
# text that names them (a scenario named after a group, a reason naming a
# professor and a login, an event label, a renamed profile), and every
# name of the database looked for in every capture.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"
LEAKS="$(dirname "$0")/../anon_leaks.py"

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
keys a; wait_for "names shown"
tui_quit
[ -n "${KEEP_SHOTS:-}" ] && cp "$WORK"/shot* "$KEEP_SHOTS"/
python3 "$LEAKS" "$DB" "$WORK"/shot* >"$WORK/leaks" 2>&1 ||
    fail "names on the screens in presentation mode: $(head -20 "$WORK/leaks"; cat "$WORK/shot4")"
# and the test can fail: the same screens without presentation mode name them
grep -l "$g1" "$WORK"/shot* >/dev/null && fail "the scenario's name shown in presentation mode"
echo "PASS: tui_anon"
