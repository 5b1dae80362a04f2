#!/bin/sh
# capplan tui, issue 30 (a newcomer's database): one real sacct file and
# nothing else (the Fox cluster's day of jobs: no roster, no inventory). The
# Overview's year says what was used while the accounting ran (GPU-hours /
# hours covered); the Projection's "used now" is the mean over the part of
# its 12-month window the accounting covers, the same measure (before:
# "used now 0.00" against the Overview's 1.6: 39 GPU-hours spread over 12
# months). Both are computed here from the jobs table with python3's
# sqlite3, at 80x24 and 200x60: the Overview's 2025, each group's used now
# (] walks them), the institute's beside the chart at 200x60 and on its
# own page (i) at both sizes, and `project --explain`'s.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"
need_shared

DB="$WORK/fox.db"
"$CAPPLAN_BIN" --db "$DB" import sacct "$DATA/sacct-kv-jobanalyzer-fox/fox-sacct.derived.psv" \
    >/dev/null || fail "import sacct"
"$CAPPLAN_BIN" --db "$DB" project --explain a10000 >"$WORK/explain.txt" || fail "project --explain"

# want.txt: "year Y FIGURE", "inst FIGURE", "group NAME FIGURE" (as the
# dashboard prints them, tui/fmt.c fmt_gpus), "explain NAME 0.00".
python3 - "$DB" >"$WORK/want.txt" <<'PY' || fail "the figures from the jobs table"
import datetime as dt, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
jobs = db.execute("SELECT j.start, j.start + j.elapsed, j.gpus, a.name FROM jobs j "
                  "LEFT JOIN accounts a ON a.id = j.account_id "
                  "WHERE j.start IS NOT NULL AND j.elapsed > 0").fetchall()
# the planner's window ends at its cut (the profile run's end); 12 months before it
t0 = db.execute("SELECT win_end FROM profile_runs ORDER BY id DESC LIMIT 1").fetchone()[0]
d = dt.datetime.fromtimestamp(t0, dt.timezone.utc)
w0 = d.replace(year=d.year - 1).timestamp()
first, last = min(j[0] for j in jobs), max(j[1] for j in jobs)
assert first > w0, "the file covers more than the window: not a newcomer's short history"

def over(s, e, a, b):
    return max(0, min(e, b) - max(s, a))

def gpus(v):  # tui/fmt.c fmt_gpus
    a = abs(v)
    return ("0" if a == 0 else "%.2f" % v if a < 0.995 else "%.1f" % v if a < 9.95
            else "%.0f" % v)

years = sorted({dt.datetime.fromtimestamp(j[0], dt.timezone.utc).year for j in jobs})
for y in years:
    a = max(dt.datetime(y, 1, 1, tzinfo=dt.timezone.utc).timestamp(), first)
    b = min(dt.datetime(y + 1, 1, 1, tzinfo=dt.timezone.utc).timestamp(), last)
    print("year", y, gpus(sum(g * over(s, e, a, b) for s, e, g, _ in jobs) / (b - a)))
cov = t0 - first
print("inst", gpus(sum(g * over(s, e, first, t0) for s, e, g, _ in jobs) / cov))
acc = {}
for s, e, g, a in jobs:
    acc[a] = acc.get(a, 0) + g * over(s, e, first, t0) / cov
for a in sorted(acc):
    print("group", a, gpus(acc[a]))
print("explain a10000 %.2f" % acc["a10000"])
PY
cat "$WORK/want.txt"

# project --explain: the same figure, and says what it is the mean over
want=$(awk '$1 == "explain" { print $3 }' "$WORK/want.txt")
grep -q "^  used now  *$want GPU-eq  mean over the 1.0 days the accounting covers" "$WORK/explain.txt" \
    || { cat "$WORK/explain.txt"; fail "project --explain: used now is not $want over what was covered"; }
echo "PASS explain: used now $want GPU-eq over the 1.0 days covered"

for size in 80x24 200x60; do
    TUI_W=${size%x*}; TUI_H=${size#*x}
    tui_start "$DB"
    wait_for "No inventory (capacity unknown, nothing short)"
    for y in $(awk '$1 == "year" { print $2 }' "$WORK/want.txt"); do
        v=$(awk -v y="$y" '$1 == "year" && $2 == y { print $3 }' "$WORK/want.txt")
        grep -q "^ $y .* used $v GPU-eq (no inventory)" "$WORK/screen" \
            || { cat "$WORK/screen"; fail "$size Overview: $y is not 'used $v GPU-eq'"; }
        echo "PASS $size Overview $y used $v GPU-eq"
    done
    inst=$(awk '$1 == "inst" { print $2 }' "$WORK/want.txt")
    keys 5; wait_for "used now"
    # each group the Projection shows: its used now, the bar's and the panel's
    seen=""
    i=0
    while [ $i -lt 10 ]; do
        g=$(row 2 | sed -n 's/^ \([^ ]*\) · scenario.*/\1/p')
        [ -n "$g" ] || { cat "$WORK/screen"; fail "$size Projection: no group named"; }
        case " $seen " in *" $g "*) break ;; esac
        seen="$seen $g"
        v=$(awk -v g="$g" '$1 == "group" && $2 == g { print $3 }' "$WORK/want.txt")
        grep -q "^ now .* used now $v GPU-eq$" "$WORK/screen" \
            || { cat "$WORK/screen"; fail "$size Projection $g: the bar is not 'used now $v'"; }
        grep -q "need [0-9.]*, used now $v GPU-eq\|$g: need next year [0-9.]* GPU-eq, used now $v GPU-eq" \
            "$WORK/screen" || { cat "$WORK/screen"; fail "$size Projection $g: the parts' head is not $v"; }
        if [ "$TUI_W" -ge 200 ]; then
            grep -q "need [0-9.]*, used now $inst GPU-eq\|Institute: need next year [0-9.]* GPU-eq, used now $inst GPU-eq" "$WORK/screen" \
                || { cat "$WORK/screen"; fail "$size Projection: the institute's used now is not $inst"; }
        fi
        echo "PASS $size Projection $g used now $v GPU-eq"
        keys ]; wait_gone " $g · scenario"
        i=$((i + 1))
    done
    [ "$TUI_W" -lt 200 ] || echo "PASS $size Projection institute used now $inst GPU-eq (the Overview's year: the same)"
    # i: the institute's page at any size: its used now, each year named once,
    # no capacity of 0 (no inventory)
    keys i; wait_for "Institute · scenario base"
    grep -q "need [0-9.]*, used now $inst GPU-eq\|Institute: need next year [0-9.]* GPU-eq, used now $inst GPU-eq" "$WORK/screen" \
        || { cat "$WORK/screen"; fail "$size institute page: used now is not $inst"; }
    dup=$(sed -n 's/^ \([0-9][0-9][0-9][0-9]\|+[0-9]y\)  .*/\1/p' "$WORK/screen" | sort | uniq -d)
    [ -z "$dup" ] || { cat "$WORK/screen"; fail "$size institute page: a year twice: $dup"; }
    absent " of 0 "
    absent "│ capacity"
    absent "gap"
    [ "$TUI_H" -lt 60 ] || wait_for "By memory class: capacity needs an inventory (capplan import inventory FILE)"
    echo "PASS $size institute page (i): used now $inst GPU-eq, each year once, no capacity of 0"
    keys i; wait_for "· scenario base against base"
    tui_quit
done
# the institute's used now and the Overview's only year are one figure here
ny=$(awk '$1 == "year"' "$WORK/want.txt" | wc -l)
[ "$ny" -ne 1 ] || [ "$(awk '$1 == "year" { print $3 }' "$WORK/want.txt")" = "$inst" ] \
    || fail "the Overview's year and the institute's used now differ: $(cat "$WORK/want.txt")"
exit 0
