#!/bin/sh
# capplan simulate (#33) on a newcomer's database: only Fox's sacct export
# (../shared/data/sacct-kv-jobanalyzer-fox/fox-sacct.derived.psv, GPU jobs, no
# inventory). Without an inventory today's fleet is unknown, so next year's
# queue cannot be simulated on it: `capplan simulate` (text and --json),
# `project --simulate`, the report's decision page and section 1, and the
# dashboard's institute page (80x24 and 200x60) say so in one line naming
# `capplan import inventory FILE`, and never name a purchase (purchase.csv
# and the workbook's purchase sheet hold no row). Then the command the line
# names makes the simulation run.
. "$(dirname "$0")/lib.sh"
need_shared
. "$(dirname "$0")/tui_helpers.inc"
# a python3 with openpyxl (Debian: python3-openpyxl), the first on PATH may lack it
PY=""
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import openpyxl' 2>/dev/null; then PY=$(command -v "$p"); break; fi
done
[ -n "$PY" ] || fail "no python3 with openpyxl (apt-get install python3-openpyxl)"

PSV="$DATA/sacct-kv-jobanalyzer-fox/fox-sacct.derived.psv"
MSG="no inventory: today's fleet is unknown, so next year's queue cannot be simulated on it (capplan import inventory FILE adds it)"
DB="$WORK/t.db"
expect_rc 0 cap import sacct "$PSV"
grep -q ": sacct-text, 876 rows read, 294 added, 0 updated, 0 unchanged, 0 rejected$" "$WORK/out" \
    || fail "import: $(cat "$WORK/out")"
# the file's jobs and GPU jobs, counted apart from capplan: rows that are no
# step (no "." in JobID), and of those the ones whose AllocTRES holds gres/gpu
want=$(awk -F'|' 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
    $h["JobID"] !~ /\./ { t++; if ($h["AllocTRES"] ~ /gres\/gpu=[1-9]/) n++ }
    END { print t "|" n + 0 }' "$PSV")
[ "$want" = "294|84" ] || fail "the file by awk: $want jobs|GPU jobs"
[ "$(sqlite3 "$DB" "SELECT count(*), sum(gpus > 0) FROM jobs")" = "$want" ] || fail "imported jobs"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM inventory")" = 0 ] || fail "an inventory appeared"

# the command line: one line on stderr, exit 1, nothing on stdout
for a in "" --json; do
    expect_rc 1 cap simulate $a
    [ ! -s "$WORK/out" ] || fail "simulate $a printed: $(cat "$WORK/out")"
    [ "$(wc -l <"$WORK/err")" = 1 ] || fail "simulate $a: not one line: $(cat "$WORK/err")"
    grep -qF "capplan: $DB: $MSG" "$WORK/err" || fail "simulate $a: $(cat "$WORK/err")"
done
expect_rc 0 cap project --simulate
grep -qxF "next year not simulated: $MSG" "$WORK/out" || fail "project --simulate: $(tail -3 "$WORK/out")"
grep -qi "buy\|recommend\|h100" "$WORK/out" && fail "project --simulate names a purchase"

# the report: the decision page and section 1; purchase.csv and the workbook
mkdir -p "$WORK/rep"
expect_rc 0 cap export "$WORK/rep/report.md" --csv "$WORK/rep/csv"
expect_rc 0 cap export "$WORK/rep/budget.xlsx"
"$PY" - "$WORK/rep" "$MSG" <<'EOF' || fail "report on a database without inventory"
import csv, re, sys, openpyxl
d, msg = sys.argv[1], sys.argv[2]
rep = open(d + '/report.md').read()
page1 = rep.split('## The decision on one page', 1)[1].split('\n## ', 1)[0]
assert 'Not simulated: %s.' % msg in page1, page1
sec1 = rep.split('\n## 1. Summary', 1)[1].split('\n## ', 1)[0]
assert 'Next year not simulated: %s.' % msg in sec1, sec1
for name, text in (('page 1', page1), ('section 1', sec1)):
    assert not re.search(r'(?i)\bbuy\b|recommendation:|h100|b200', text), name
rows = list(csv.reader(open(d + '/csv/purchase.csv')))
assert len(rows) == 1 and rows[0][0] == 'model', rows
wb = openpyxl.load_workbook(d + '/budget.xlsx')
if 'purchase' in wb.sheetnames:
    cells = [c.value for r in wb['purchase'].iter_rows() for c in r if c.value is not None]
    assert not any(re.search(r'(?i)h100|b200|a100|l40|mi300', str(v)) for v in cells), cells
print('PASS-REPORT page 1 and section 1 say it; purchase.csv and the workbook hold no purchase')
EOF

# the dashboard: the institute page (i), at 80x24 on two rows, at 200x60 on one
for size in 80x24 200x60; do
    TUI_W=${size%x*} TUI_H=${size#*x} tui_start "$DB"
    keys i; wait_for "Institute · scenario base"
    wait_for "Next year not simulated: no inventory"
    python3 - "$WORK/screen" "$MSG" "$size" <<'EOF' || { cat "$WORK/screen"; fail "institute page $size"; }
import re, sys
scr, msg, size = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
lines = [l.strip() for l in scr.splitlines()]
at = next(i for i, l in enumerate(lines) if l.startswith('Next year not simulated: '))
want = 'Next year not simulated: ' + msg
got = lines[at] if lines[at] == want else lines[at] + ' ' + lines[at + 1]
assert got == want, (got, want)
assert not re.search(r'(?i)recommendation|\bbuy\b', scr), 'a purchase on the page'
print('PASS-TUI', size, 'rows', 1 if lines[at] == want else 2)
EOF
    tui_quit
done

# the command the line names: with an inventory the queue is simulated
printf 'cluster,gpu_model,gpus,gpu_mem_gib,from,to\n' >"$WORK/inv.csv"
sqlite3 "$DB" "SELECT DISTINCT c.name FROM jobs j JOIN clusters c ON c.id = j.cluster_id WHERE j.gpus > 0" |
    while read -r c; do printf '%s,a100,8,80,2020-01-01,\n' "$c"; done >>"$WORK/inv.csv"
[ "$(wc -l <"$WORK/inv.csv")" -gt 1 ] || fail "no cluster for the inventory"
expect_rc 0 cap import inventory "$WORK/inv.csv"
expect_rc 0 cap simulate
grep -q "^Buy nothing: p90 wait" "$WORK/out" || fail "with an inventory: $(cat "$WORK/out" "$WORK/err")"
echo "PASS: simulate_newcomer"
