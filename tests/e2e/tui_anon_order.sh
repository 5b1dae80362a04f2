#!/bin/sh
# Issue 29 item 5: presentation mode's rows in an order the roster cannot
# undo. The attacker holds the roster, not the key: he sorts the real names
# and matches them to the rows of captured screens (tests/anon_leaks.py
# --order, scored with the database's key). Captured at 200x60 in
# presentation mode: the Overview's groups to meet, the Groups view (by GPU-hours, then sorted by Domain
# and by students, whose ties were broken by the real names' order), the
# members of the group with the most students (ties of members with no
# GPU-hours likewise), the groups the Usage view's ] walks through. No roster
# name on any of them either. The scorer can fail: the same pseudonyms
# listed in the real names' order are a leak.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"
LEAKS="$(cd "$(dirname "$0")/.." && pwd)/anon_leaks.py"

DB="$WORK/t.db"
expect_rc 0 cap demo --jobs 20000 --seed 7 --no-tui --today 2026-11-25
# a fixed key (the demo's is random): the same pseudonyms, the same order
# on every run, so that the order test (a chance bound) cannot fail by chance
sqlite3 "$DB" "UPDATE site_meta SET value = X'$(printf '%064x' 29)' WHERE key = 'anon_key'" ||
    fail "key not set"
TUI_W=200 TUI_H=60 tui_start "$DB"
wait_for "capplan · Overview"
keys a; wait_for "[presentation]"; wait_for "to meet: "
cp "$WORK/screen" "$WORK/overview.screen" # the groups to meet, in a line
keys 2; wait_for "capplan · Groups"; sleep 0.3; wait_for "[presentation]"
cp "$WORK/screen" "$WORK/groups.screen"
keys Right Right s; wait_for "sorted by Domain"; sleep 0.3; screen
cp "$WORK/screen" "$WORK/domain.screen"
keys s; wait_for "sorted by Domain, descending"; sleep 0.3; screen
cp "$WORK/screen" "$WORK/domain_desc.screen"
# the group with the most students: the longest list of members
keys Right s; wait_for "sorted by Stud., descending"; sleep 0.3; screen
cp "$WORK/screen" "$WORK/students.screen"
keys g Enter; wait_for "capplan · Group"; sleep 0.3; wait_for "[presentation]"
cp "$WORK/screen" "$WORK/members.screen"
# the Usage view's ] walks the groups: in the order of their labels
keys 6; wait_for "keys [ and ]: other group"
: >"$WORK/walk.screen"
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
    keys ]; sleep 0.3; wait_for "keys [ and ]: other group"
    grep -oE "group-[a-z2-9]{6}, 12 months" "$WORK/screen" | head -1 >>"$WORK/walk.screen"
done
[ "$(sort -u "$WORK/walk.screen" | wc -l)" -ge 12 ] || fail "] did not walk: $(cat "$WORK/walk.screen")"
tui_quit
[ -n "${KEEP_SHOTS:-}" ] && cp "$DB" "$WORK"/*.screen "$KEEP_SHOTS"/
n=$(grep -oE "user-[a-z2-9]{6}" "$WORK/members.screen" | sort -u | wc -l)
[ "$n" -ge 8 ] || fail "fewer than 8 members shown ($n): $(cat "$WORK/members.screen")"
python3 "$LEAKS" "$DB" "$WORK"/*.screen >"$WORK/leaks" 2>&1 ||
    fail "roster names on the screens: $(head -20 "$WORK/leaks")"
python3 "$LEAKS" --order "$DB" "$WORK"/*.screen >"$WORK/order" 2>&1 ||
    fail "rows in the roster's order: $(cat "$WORK/order")"
grep -qE "^([4-9]|[1-9][0-9]) tables scored, 0 leak" "$WORK/order" ||
    fail "not scored: $(cat "$WORK/order")"
# the test can fail: the members' pseudonyms in their real names' order
python3 "$LEAKS" --roster-order "$DB" "$WORK/members.screen" >"$WORK/sorted.screen"
python3 "$LEAKS" --order "$DB" "$WORK/sorted.screen" >"$WORK/order2" 2>&1 &&
    fail "the scorer misses rows in the roster's order: $(cat "$WORK/order2")"
grep -q "user names recovered by sorting" "$WORK/order2" || fail "control: $(cat "$WORK/order2")"
echo "PASS: tui_anon_order"
