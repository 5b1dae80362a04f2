#!/bin/sh
# Issue 15, items 2, 3 and 6 and the exit codes 3 and 4: two imports at once
# both land; readers during a bulk import never fail; a read-only folder is
# readable; a future schema is refused untouched; a held lock gives exit 3
# after CAPPLAN_LOCK_TIMEOUT; pages overwritten with dd give exit 4.
. "$(dirname "$0")/lib.sh"
need_shared
POZ="$DATA/sacct-pipe-xdmod/pozidriv.head.with-header.psv"
XD="$DATA/sacct-pipe-xdmod/pozidriv.head.log"

# --- two imports at once: B opens (reading the names known), A holds the
# write lock and adds names B's file holds too, commits; B must land.
cap import sacct "$DATA/slurm-sandbox/sacct_wide.psv" >/dev/null 2>&1 || fail "seed import"
python3 -c '
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
c.execute("BEGIN IMMEDIATE"); open(sys.argv[2], "w").close(); time.sleep(1.5)
c.execute("INSERT INTO clusters(name) VALUES (?)", ("pozidriv",))
c.execute("INSERT INTO users(name) VALUES (?)", ("turdo",))
c.execute("COMMIT")' "$WORK/t.db" "$WORK/a.held" & a=$!
while [ ! -e "$WORK/a.held" ]; do sleep 0.05; done
cap import sacct "$POZ" >"$WORK/b.out" 2>&1; rb=$?
wait $a; ra=$?
[ "$ra" -eq 0 ] && [ "$rb" -eq 0 ] || fail "concurrent imports: $ra $rb: $(cat "$WORK/b.out")"
# and two real imports at once, of the same jobs: both land
cap import sacct "$POZ" >"$WORK/a.out" 2>&1 & a=$!
cap import sacct --fields xdmod "$XD" >"$WORK/b.out" 2>&1 & b=$!
wait $a; ra=$?; wait $b; rb=$?
[ "$ra" -eq 0 ] && [ "$rb" -eq 0 ] || fail "concurrent imports: $ra $rb: $(cat "$WORK/a.out" "$WORK/b.out")"
# pozidriv holds 8,659 jobs (awk over the file), the sandbox 18
jobs=$(json_get 'd["jobs"]')
[ "$jobs" = 8677 ] || fail "concurrent imports: $jobs jobs, expected 8677"

# --- readers during a bulk import (rollback journal, the write lock held
# throughout): an 8 x pozidriv file (24 MB, 8 clusters); the readers
# (status, stats, a dashboard start; before the fix 18 of 18 failed) start once the import's journal
# exists, and must wait rather than fail.
awk -F'|' 'NR==1{h=$0; next} {r[NR]=$0}
  END{print h; for(k=0;k<8;k++) for(i=2;i<=NR;i++){split(r[i],f,"|"); f[3]=f[3] k;
      s=f[1]; for(j=2;j<=26;j++) s=s "|" f[j]; print s}}' "$POZ" >"$WORK/big.psv"
cp "$WORK/t.db" "$WORK/r.db"
"$CAPPLAN_BIN" --db "$WORK/r.db" import sacct "$WORK/big.psv" >"$WORK/imp.out" 2>&1 & imp=$!
while kill -0 $imp 2>/dev/null && [ ! -e "$WORK/r.db-journal" ]; do sleep 0.01; done
[ -e "$WORK/r.db-journal" ] || echo "note: the import ended before the readers started"
n=0; bad=0
while [ $n -lt 6 ]; do
    "$CAPPLAN_BIN" --db "$WORK/r.db" status >/dev/null 2>>"$WORK/readers.err" & p1=$!
    "$CAPPLAN_BIN" --db "$WORK/r.db" stats utilization >/dev/null 2>>"$WORK/readers.err" & p2=$!
    "$CAPPLAN_BIN" --db "$WORK/r.db" tui --iterations 2 >/dev/null 2>>"$WORK/readers.err" & p3=$!
    wait $p1 || bad=$((bad + 1)); wait $p2 || bad=$((bad + 1)); wait $p3 || bad=$((bad + 1))
    n=$((n + 1))
done
wait $imp || fail "bulk import: $(cat "$WORK/imp.out")"
[ "$bad" -eq 0 ] || fail "$bad of $((3 * n)) readers failed during a bulk import: $(sort -u "$WORK/readers.err")"
jobs=$("$CAPPLAN_BIN" --db "$WORK/r.db" status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"])')
[ "$jobs" = $((8677 + 8 * 8659)) ] || fail "after the bulk import: $jobs jobs"
[ "$(sqlite3 "$WORK/r.db" 'PRAGMA journal_mode')" = wal ] || fail "bulk import left the journal mode"

# --- a read-only folder, read by another user (root may write anywhere)
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
    mkdir "$WORK/ro" && cp "$WORK/t.db" "$WORK/ro/t.db" && chmod 755 "$WORK" "$WORK/ro" &&
        chmod 644 "$WORK/ro/t.db"
    expect_rc 0 setpriv --reuid=65534 --regid=65534 --clear-groups \
        "$CAPPLAN_BIN" --db "$WORK/ro/t.db" status
    grep -q '^jobs  *8677 ' "$WORK/out" || fail "read-only status: $(cat "$WORK/out" "$WORK/err")"
    expect_rc 0 setpriv --reuid=65534 --regid=65534 --clear-groups \
        "$CAPPLAN_BIN" --db "$WORK/ro/t.db" stats utilization
    [ -z "$(ls "$WORK/ro" | grep -v '^t.db$')" ] || fail "read-only: files left: $(ls "$WORK/ro")"
    expect_rc 1 setpriv --reuid=65534 --regid=65534 --clear-groups \
        "$CAPPLAN_BIN" --db "$WORK/ro/t.db" import sacct "$XD"
    grep -q 'readonly\|read-only' "$WORK/err" || fail "import into a read-only folder: $(cat "$WORK/err")"
else
    echo "skip: read-only folder (needs root and setpriv)"
fi

# --- a future schema: refused, and the file not touched (journal mode kept)
cp "$WORK/t.db" "$WORK/f.db"
sqlite3 "$WORK/f.db" "PRAGMA journal_mode=DELETE; PRAGMA user_version=999;" >/dev/null
sum=$(md5sum <"$WORK/f.db")
for c in status "import sacct $XD"; do
    expect_rc 1 "$CAPPLAN_BIN" --db "$WORK/f.db" $c
    grep -q 'schema version 999 is newer' "$WORK/err" || fail "future schema ($c): $(cat "$WORK/err")"
done
[ "$(md5sum <"$WORK/f.db")" = "$sum" ] || fail "future schema: the file changed"
[ "$(sqlite3 "$WORK/f.db" 'PRAGMA journal_mode')" = delete ] || fail "future schema: journal switched"

# --- exit 3: a lock held past CAPPLAN_LOCK_TIMEOUT, with one notice
python3 -c '
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE"); open(sys.argv[2], "w").close(); time.sleep(6)' \
    "$WORK/t.db" "$WORK/held" & holder=$!
while [ ! -e "$WORK/held" ]; do sleep 0.05; done
export CAPPLAN_LOCK_TIMEOUT=2
expect_rc 3 cap import sacct "$XD"
unset CAPPLAN_LOCK_TIMEOUT
grep -q 'another capplan holds the database.*waiting up to 2 s' "$WORK/err" || fail "no wait notice: $(cat "$WORK/err")"
grep -q 'locked' "$WORK/err" || fail "exit 3 without saying why: $(cat "$WORK/err")"
kill $holder 2>/dev/null; wait $holder 2>/dev/null

# --- exit 4: the page of job_counts overwritten in a copy (status reads
# the counts kept at import, issue 20, not the jobs table)
cp "$WORK/t.db" "$WORK/s.db"
sqlite3 "$WORK/s.db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
psz=$(sqlite3 "$WORK/s.db" 'PRAGMA page_size')
p=$(sqlite3 "$WORK/s.db" "SELECT rootpage FROM sqlite_master WHERE name='job_counts'")
dd if=/dev/urandom of="$WORK/s.db" bs="$psz" seek=$((p - 1)) count=1 conv=notrunc 2>/dev/null
expect_rc 4 "$CAPPLAN_BIN" --db "$WORK/s.db" status
grep -q 'corrupt\|malformed' "$WORK/err" || fail "corrupt status: $(cat "$WORK/out" "$WORK/err")"

# --- exit 4: two pages of the jobs table overwritten in a copy
cp "$WORK/t.db" "$WORK/c.db"
sqlite3 "$WORK/c.db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
pages=$(sqlite3 "$WORK/c.db" "SELECT pageno FROM dbstat WHERE name='jobs' AND pagetype='leaf' LIMIT 2" 2>/dev/null)
[ -n "$pages" ] || pages="3 4"
for p in $pages; do
    dd if=/dev/urandom of="$WORK/c.db" bs="$psz" seek=$((p - 1)) count=1 conv=notrunc 2>/dev/null
done
expect_rc 4 "$CAPPLAN_BIN" --db "$WORK/c.db" tui --iterations 3 --dump
# (headless, the dashboard works on a copy: the copy may be what finds it)
grep -q 'the database is corrupt' "$WORK/out" || grep -q 'malformed\|corrupt' "$WORK/err" ||
    fail "the dashboard over a corrupt database: $(tail -3 "$WORK/out" "$WORK/err")"
expect_rc 4 "$CAPPLAN_BIN" --db "$WORK/c.db" check
grep -q 'corrupt\|malformed\|integrity' "$WORK/out" "$WORK/err" || fail "check: $(cat "$WORK/out" "$WORK/err")"
expect_rc 0 cap check
echo "PASS: safety_locks"
