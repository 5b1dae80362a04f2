#!/bin/sh
# Issue 29 item 7: `scenario set S k1=v1 k2=bad` is all or nothing: every
# pair is checked before any is saved, each bad one named on its line.
. "$(dirname "$0")/lib.sh"
"$CAPPLAN_BIN" --db "$WORK/t.db" demo --today 2026-11-25 --no-tui --seed 7 --jobs 20000 >/dev/null 2>&1 \
    || fail "capplan demo"
expect_rc 0 cap scenario new S
G=$(sqlite3 "$WORK/t.db" "SELECT name FROM groups ORDER BY name LIMIT 1")
params() { sqlite3 "$WORK/t.db" "SELECT key || '=' || value FROM scenario_params p
    JOIN scenarios s ON s.id = p.scenario_id WHERE s.name = 'S' ORDER BY key"; }
expect_rc 1 cap scenario set S growth=0.7 pool=-1 --group "$G" --reason x
[ -z "$(params)" ] || fail "a refused set saved: $(params)"
grep -q "pool: must be >= 0" "$WORK/err" || fail "the bad pair is not named: $(cat "$WORK/err")"
grep -q "scenario S: nothing saved: 1 of 2 values refused" "$WORK/err" || fail "$(cat "$WORK/err")"
expect_rc 1 cap scenario set S growth=zero pool=3 nosuch=1 --group "$G" --reason x
[ "$(grep -c 'capplan:' "$WORK/err")" = 3 ] || fail "each bad pair on its line: $(cat "$WORK/err")"
[ -z "$(params)" ] || fail "a refused set saved: $(params)"
expect_rc 0 cap scenario set S growth=0.7 pool=3 --group "$G" --reason x
[ "$(params | tr '\n' ' ')" = "growth=0.7 pool=3.0 " ] || fail "good set: $(params)"
echo "scenario_atomic: ok"
