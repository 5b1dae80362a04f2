#!/bin/sh
# Issue 15, item 1: `capplan demo` replaces only a demo's own work (else
# --force), and builds beside the database: killed with -9 at any point,
# it leaves the old database whole.
. "$(dirname "$0")/lib.sh"

need_shared
# a real database: 18 jobs of the sandbox; the demo refuses it
expect_rc 0 cap import sacct "$DATA/slurm-sandbox/sacct_wide.psv"
sum=$(md5sum <"$WORK/t.db")
expect_rc 1 cap demo --today 2026-11-25 --jobs 1000 --no-tui
grep -q 'holds work not made by `capplan demo` (imports=1), no demo mark; not replaced' "$WORK/err" \
    || fail "demo over a real database: $(cat "$WORK/err")"
[ "$(md5sum <"$WORK/t.db")" = "$sum" ] || fail "the refused demo changed the database"

# killed at several points of a forced demo: the old database is whole
for delay in 0.05 0.3 0.8 1.5 2.5; do
    "$CAPPLAN_BIN" --db "$WORK/t.db" demo --today 2026-11-25 --jobs 20000 --no-tui --force >/dev/null 2>&1 & pid=$!
    sleep $delay
    kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
    [ "$(sqlite3 "$WORK/t.db" 'PRAGMA integrity_check')" = ok ] || fail "kill after $delay s: integrity"
    jobs=$(sqlite3 "$WORK/t.db" 'SELECT count(*) FROM jobs WHERE final = 1')
    # 18 before the demo lands; a demo of 20000 jobs once the rename is done
    [ "$jobs" = 18 ] || [ "$jobs" -gt 15000 ] || fail "kill after $delay s: $jobs jobs"
done

# forced: replaced; a second demo replaces the first without --force
expect_rc 0 cap demo --today 2026-11-25 --jobs 1000 --no-tui --force
[ "$(sqlite3 "$WORK/t.db" "SELECT count(*) FROM imports WHERE path LIKE '%sandbox%'")" = 0 ] \
    || fail "forced demo kept the old imports"
[ ! -e "$WORK/t.db.demo-tmp" ] || fail "demo-tmp left behind"
expect_rc 0 cap demo --today 2026-11-25 --jobs 1000 --no-tui --seed 2
# once someone works in it, it is theirs
expect_rc 0 cap scenario new mine
expect_rc 1 cap demo --today 2026-11-25 --jobs 1000 --no-tui
grep -q 'scenarios=1' "$WORK/err" || fail "demo over a scenario: $(cat "$WORK/err")"
# never a file that is not a capplan database, even forced
echo "precious" >"$WORK/notes.txt"
expect_rc 1 "$CAPPLAN_BIN" --db "$WORK/notes.txt" demo --today 2026-11-25 --jobs 1000 --no-tui --force
[ "$(cat "$WORK/notes.txt")" = precious ] || fail "demo replaced a text file"
echo "PASS: safety_demo"
