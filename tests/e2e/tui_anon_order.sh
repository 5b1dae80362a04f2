#!/bin/sh
# Issue 29 item 5: presentation mode's rows in an order the roster cannot
# undo. The attacker holds the roster, not the key: he sorts the real names
# and matches them to the rows of captured screens (tests/anon_leaks.py
# --order, scored with the database's key). Captured at 200x60 in
# presentation mode: the Overview's groups to meet, the Groups view (by GPU-hours, then sorted by Domain
# and by students, whose ties were broken by the real names' order), the
# members of the group with the most students (ties of members with no
# GPU-hours likewise), the groups the Usage view's ] walks through, the
# Projection view's members and leaving lines (a group's and the
# institute's, listed in the planner's order before: the roster file's).
# No roster name on any of them either. The scorer can fail: the same pseudonyms
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
# the Projection view's members and leaving lines, of a group and of the
# institute below it (60 rows: names shown), for three groups
keys 5; wait_for "keys [ and ]: other group · Enter"; sleep 0.5; wait_for "members ("
for k in 1 2 3; do # (wait_for uses i)
    keys ]; sleep 0.5; wait_for "keys [ and ]: other group · Enter"; wait_for "leaving ("
    cp "$WORK/screen" "$WORK/projection$k.screen"
done
tui_quit
[ -n "${KEEP_SHOTS:-}" ] && cp "$DB" "$WORK"/*.screen "$KEEP_SHOTS"/
for k in 1 2 3; do
    grep -qE "members \([0-9]+\): user-" "$WORK/projection$k.screen" ||
        fail "no members on the Projection view: $(cat "$WORK/projection$k.screen")"
done
[ "$(head -3 "$WORK"/projection?.screen | grep -oE "^ group-[a-z2-9]{6}" | sort -u | wc -l)" = 3 ] ||
    fail "] did not walk the Projection view's groups"
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
# ... and the Projection view's members listed in the roster file's line
# order (the planner's order, shown before #29) with a few swapped
python3 - "$DB" "$WORK/projection1.screen" >"$WORK/lines.screen" <<'PY' || fail "control screen"
import hashlib, hmac, re, sqlite3, sys
con = sqlite3.connect(sys.argv[1])
key = con.execute("SELECT value FROM site_meta WHERE key = 'anon_key'").fetchone()[0]
D = "abcdefghijkmnpqrstuvwxyz23456789"
def pseudo(name):
    h = int.from_bytes(hmac.new(key, b"user\0" + name.encode(), hashlib.sha256).digest()[:8], "big")
    return "user-" + "".join(D[(h >> (5 * i)) & 31] for i in range(6))
shown = set(re.findall(r"user-[a-z2-9]{6}", open(sys.argv[2]).read()))
users = []
for (u,) in con.execute("SELECT user FROM people ORDER BY id"):
    if pseudo(u) in shown and pseudo(u) not in users:
        users.append(pseudo(u))
for i in range(0, len(users) - 1, 5):  # a swap in every five
    users[i], users[i + 1] = users[i + 1], users[i]
print("  members (%d): %s" % (len(users), " ".join(users)))
PY
python3 "$LEAKS" --order "$DB" "$WORK/lines.screen" >"$WORK/order3" 2>&1 &&
    fail "the scorer misses rows in the roster file's order: $(cat "$WORK/order3")"
grep -q "roster file's line order" "$WORK/order3" || fail "control 2: $(cat "$WORK/order3")"
echo "PASS: tui_anon_order"
