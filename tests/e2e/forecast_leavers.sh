#!/bin/sh
# Issue 28 item 2 (what was known when) on the demo (demo --jobs 20000
# --seed 7 --today 2026-11-25), whose roster carries planned ends beside
# the actual ones: at three cuts, `project --as-of` takes as year-1 leavers
# exactly the projected members whose planned end falls in year 1, on that
# date (tests/forecast_leavers.py, checked against the demo's roster CSV and
# the jobs in sqlite3); the roster import stores planned_end as given and
# refuses a bad one naming file, line and field. Today, `project --explain`
# of every group with a measured churn lists as leaving only members with a
# known date (each shown with it; the old rule listed every undated one) and
# names the churn the others leave by.
. "$(dirname "$0")/lib.sh"
need_shared
T="$(cd "$(dirname "$0")/.." && pwd)"

expect_rc 0 cap demo --jobs 20000 --seed 7 --today 2026-11-25
R="$WORK/t.db.demo-input/roster.csv"
[ -f "$R" ] || fail "no demo roster at $R"
head -1 "$R" | grep -q ',planned_end$' || fail "the demo's roster has no planned_end column"
# the database holds the roster's planned ends as written (python3 reads the CSV)
python3 - "$WORK/t.db" "$R" <<'PY' || fail "planned ends stored"
import csv, sqlite3, sys
con = sqlite3.connect(sys.argv[1])
db = {(u, g, s): p for u, g, s, p in
      con.execute("SELECT user, group_name, start_date, planned_end FROM people")}
rows = list(csv.DictReader(open(sys.argv[2])))
for r in rows:
    if db[(r["user"], r["group"], r["start"])] != (r["planned_end"] or None):
        sys.exit("FAIL: %s planned_end %r in the database, %r in the file" %
                 (r["user"], db[(r["user"], r["group"], r["start"])], r["planned_end"]))
n = sum(1 for r in rows if r["planned_end"])
d = sum(1 for r in rows if r["planned_end"] and r["end"] and r["end"] != r["planned_end"])
print("roster: %d lines, %d with a planned end, %d of them with another actual end" % (len(rows), n, d))
PY
for cut in 2022-06-01 2023-09-01 2025-11-01; do
    expect_rc 0 cap project --as-of "$cut" --json
    python3 "$T/forecast_leavers.py" "$WORK/t.db" "$R" "$cut" "$WORK/out" || fail "leavers at $cut"
done

# today: --explain lists as leaving only members with a known date (each with
# it); the others leave by the group's churn, named with its rate
expect_rc 0 cap project --json
GROUPS=$(python3 -c "
import json
print(' '.join([g['name'] for g in json.load(open('$WORK/out'))['groups'] if g['churn'] > 0]))")
[ -n "$GROUPS" ] || fail "no group with a measured churn today"
for g in $GROUPS; do
    expect_rc 0 cap project --explain "$g"
    grep -q "the others by the group's churn [0-9]* %/yr" "$WORK/out" || fail "$g: no churn named"
    python3 - "$WORK/out" <<'PY' || fail "$g: an undated member listed as leaving"
import re, sys
for line in open(sys.argv[1]):
    if line.strip().startswith("leaving (") and not line.strip().startswith("leaving (0)"):
        names = re.sub(r" and \d+ more\s*$", "", line.split(":", 1)[1])
        bare = re.sub(r"\((left|leaves) \d{4}-\d\d-\d\d[^)]*\)", "", names).split()
        n = int(line.split("(")[1].split(")")[0])
        if len(bare) != len(re.findall(r"\((left|leaves) ", names)) or len(bare) > n:
            sys.exit("FAIL: " + line.strip())
PY
done

# a bad planned end: file, line and field named; the database as it was
printf 'user,group,role,domain,start,end,planned_end\nzz1,zz-lab,phd,ML,2024-01-01,,2028-02-30\n' \
    >"$WORK/bad.csv"
expect_rc 1 cap import roster "$WORK/bad.csv"
grep -q 'bad.csv:2.*planned_end' "$WORK/err" || fail "bad planned end not named: $(cat "$WORK/err")"
[ "$(sqlite3 "$WORK/t.db" "SELECT count(*) FROM people WHERE user = 'zz1'")" = 0 ] ||
    fail "a refused roster changed the database"
echo "forecast_leavers: ok"
