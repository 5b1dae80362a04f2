#!/bin/sh
# The import leaves the planner's cache current (docs/plan-speed.md, issue 14
# item 15): after `capplan import` of a real sacct export (Fox, Key=Value
# CSV) table plan_cache holds the entry the next `capplan project` reads (it
# writes nothing: the entry's rowid stays, the saved profiles stay one run),
# and what project prints is what it prints with the cache emptied. The
# import prints what it printed before; one that changes nothing, or a kind
# the plan does not read, leaves both alone; a roster import refreshes; a
# database without jobs gets nothing; a refresh that cannot write never fails
# its import.
. "$(dirname "$0")/lib.sh"
need_shared
FOX="$DATA"/sacct-kv-jobanalyzer-fox/slurm-sacct.csv
sq() { sqlite3 "$WORK/t.db" "$1"; }
entries() { sq 'SELECT count(*) FROM plan_cache'; }
runs() { sq 'SELECT count(*) FROM profile_runs'; }

# a roster alone: no jobs, nothing planned
printf 'user,group,role,domain,start,end\nx10001,lab-a,phd,physics,2020-01-01,\n' >"$WORK/roster.csv"
expect_rc 0 cap import roster "$WORK/roster.csv"
[ "$(entries)/$(runs)" = 0/0 ] || fail "no jobs: $(entries) entries, $(runs) runs"

# the jobs: the import's output as before, nothing on stderr
expect_rc 0 cap import sacct --cluster fox "$FOX"
[ "$(cat "$WORK/out")" = "$FOX: sacct-keyvalue-csv, 876 rows read, 294 added, 0 updated, 0 unchanged, 0 rejected" ] ||
    fail "import output: $(cat "$WORK/out")"
[ -s "$WORK/err" ] && fail "import stderr: $(cat "$WORK/err")"
[ "$(entries)/$(runs)" = 1/1 ] || fail "after import: $(entries) entries, $(runs) runs"
ENTRY=$(sq 'SELECT rowid || key FROM plan_cache')
case "$ENTRY" in *" jobs 294 cpu 0 "*) ;; *) fail "entry: $ENTRY" ;; esac

# project reads it: no entry written (INSERT OR REPLACE would move the
# rowid), no profiles computed and saved
expect_rc 0 cap project --json
cp "$WORK/out" "$WORK/cached.json"
[ "$(sq 'SELECT rowid || key FROM plan_cache')" = "$ENTRY" ] || fail "project wrote the cache"
[ "$(runs)" = 1 ] || fail "project saved profiles again: $(runs) runs"
# ... and gives what a build without it gives, which writes the same key
sq 'DELETE FROM plan_cache'
expect_rc 0 cap project --json
cmp -s "$WORK/out" "$WORK/cached.json" || fail "project differs with the cache emptied"
[ "$(sq 'SELECT key FROM plan_cache')" = "$(echo "$ENTRY" | sed 's/^[0-9]*//')" ] ||
    fail "the refresh's key is not project's: $(sq 'SELECT key FROM plan_cache')"
ENTRY=$(sq 'SELECT rowid || key FROM plan_cache')

# a re-import that adds nothing, and events (not in the plan): no work
expect_rc 0 cap import sacct --cluster fox "$FOX"
printf 'date,cluster,label\n2025-01-10,fox,upgrade\n' >"$WORK/events.csv"
expect_rc 0 cap import events "$WORK/events.csv"
[ "$(sq 'SELECT rowid || key FROM plan_cache')/$(runs)" = "$ENTRY/1" ] ||
    fail "nothing changed, yet: $(entries) entries, $(runs) runs"

# a roster line: a new key, refreshed at once; project reads it
printf 'user,group,role,domain,start,end\nx10002,lab-b,postdoc,chemistry,2020-01-01,\n' >"$WORK/roster2.csv"
expect_rc 0 cap import roster "$WORK/roster2.csv"
[ "$(entries)/$(runs)" = 2/2 ] || fail "after roster: $(entries) entries, $(runs) runs"
ENTRY=$(sq 'SELECT rowid || key FROM plan_cache ORDER BY rowid DESC LIMIT 1')
expect_rc 0 cap project --json
[ "$(sq 'SELECT rowid || key FROM plan_cache ORDER BY rowid DESC LIMIT 1')/$(entries)/$(runs)" = "$ENTRY/2/2" ] ||
    fail "project after the roster computed again"
grep -q '"lab-b"' "$WORK/out" || fail "x10002 not in lab-b: $(head -c 300 "$WORK/out")"

# a refresh that cannot write (both tables refuse) never fails its import
sq "CREATE TRIGGER no_cache BEFORE INSERT ON plan_cache BEGIN SELECT RAISE(ABORT, 'no'); END;
    CREATE TRIGGER no_runs BEFORE INSERT ON profile_runs BEGIN SELECT RAISE(ABORT, 'no'); END;"
printf 'user,group,role,domain,start,end\nx10004,lab-b,phd,chemistry,2020-01-01,\n' >"$WORK/roster3.csv"
expect_rc 0 cap import roster "$WORK/roster3.csv"
[ "$(cat "$WORK/out")" = "$WORK/roster3.csv: roster-csv, 1 rows read, 1 added, 0 updated, 0 unchanged, 0 rejected" ] ||
    fail "import output: $(cat "$WORK/out")"
[ -s "$WORK/err" ] && fail "import stderr: $(cat "$WORK/err")"
[ "$(entries)/$(runs)" = 2/2 ] || fail "refused, yet: $(entries) entries, $(runs) runs"

echo "plan_refresh: the import leaves the planner's cache current OK"
