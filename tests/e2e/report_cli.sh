#!/bin/sh
# capplan export: report.md and --csv on the demo database and on one built
# from ../shared/data (XDMoD sacct log plus a roster written here, with an
# injection attempt as a group name and a user named +cmd). Checks: every
# section present and no TODO; the figures equal what `capplan project
# --json`, `capplan project --backtest --json` and `capplan stats ... --json`
# print; every SVG parses as XML and renders to PNG (rsvg-convert); the
# Markdown converts with pandoc without warnings; every CSV parses with
# python3's csv module with its header; --anonymize leaves no name; the
# neutralised cells stay text in LibreOffice (skipped when soffice is absent).
. "$(dirname "$0")/lib.sh"
need_shared

command -v rsvg-convert >/dev/null || fail "rsvg-convert missing (apt-get install librsvg2-bin)"
command -v pandoc >/dev/null || fail "pandoc missing (apt-get install pandoc)"

expect_rc 0 cap export --help
grep -q 'anonymize' "$WORK/out" || fail "export --help"
expect_rc 2 cap export
expect_rc 2 cap export a.md --csv dir
expect_rc 2 cap export a.md --bogus

# check_report DB DIR: the report and its figures against the CLI's JSON.
check_report() {
    db=$1; dir=$2
    mkdir -p "$dir"
    c() { "$CAPPLAN_BIN" --db "$db" "$@"; }
    printf 'institution,gpus,researchers\nPeer U,400,250\n"Inst, B",120,300\n' >"$dir/peers.csv"
    c export "$dir/report.md" --peers "$dir/peers.csv" 2>"$dir/err" || fail "export: $(cat "$dir/err")"
    [ -f "$dir/report.md" ] && [ -d "$dir/report_files" ] || fail "no report or report_files/"
    ls "$dir" | grep -q 'tmp' && fail "temporary file left: $(ls "$dir")"
    c project --json >"$dir/project.json" || fail "project --json"
    cut=$(python3 -c "
import json,datetime; d=json.load(open('$dir/project.json')); t=datetime.date.fromisoformat(d['t0'])
m=t.year*12+t.month-1-12; print('%04d-%02d' % (m//12, m%12+1))")
    c project --backtest "$cut" --json >"$dir/backtest.json" 2>/dev/null || echo '{}' >"$dir/backtest.json"
    c stats utilization --by year --json >"$dir/util.json" || fail "stats utilization"
    c stats domains --json >"$dir/domains.json" || fail "stats domains"
    c stats preemption --by all --json >"$dir/preempt.json" || fail "stats preemption"
    c stats waits --by year --json >"$dir/waits.json" || fail "stats waits"
    c stats pubs --json >"$dir/pubs.json" || fail "stats pubs"
    python3 - "$dir" <<'PY' || fail "report figures differ from the CLI's JSON ($dir)"
import json, re, sys
d = sys.argv[1]
md = open(d + '/report.md', encoding='utf-8').read()
J = lambda n: json.load(open('%s/%s.json' % (d, n)))
for i, s in enumerate(['Summary', 'Research domains', 'Usage', 'Compute profiles',
                       'Projections by group and by domain', 'Other institutes'], 1):
    assert '\n## %d. %s\n' % (i, s) in md, s
assert 'TODO' not in md

def unesc(s): return re.sub(r'\\(.)', r'\1', s.strip())

def tables(after):
    """Rows (lists of cells) of the first table after the heading line 'after'."""
    part = md.split(after, 1)[1]
    rows = []
    for line in part.split('\n')[1:]:
        if line.startswith('|'):
            cells = [unesc(c) for c in re.split(r'(?<!\\)\|', line)[1:-1]]
            if not all(set(c) <= set(':- ') for c in cells):
                rows.append(cells)
        elif rows or line.startswith('#'):
            break
    return rows if after.startswith('|') else rows[1:]  # without the header row

def num(cell):
    m = re.match(r'^(-?[0-9]+(?:\.([0-9]+))?)', cell)
    assert m, cell
    return float(m.group(1)), len(m.group(2) or '')

def same(cell, v, scale=1):
    if v is None:
        assert cell == 'n/a', (cell, v)
        return
    x, dec = num(cell)
    assert abs(x - v * scale) <= 0.5 * 10 ** -dec + 1e-9 * abs(v * scale), (cell, v)

p = J('project')
# 1. summary: totals per year and class
rows = tables('| Year | GPU memory class (GiB) |')
k = 0
for t in p['total']:
    for cls in ['24', '48', '80', '80+', 'unknown', 'total']:
        r = rows[k]; k += 1
        assert r[0].startswith('y%d ' % t['year']) and r[1] == cls, r
        dem = t['demand'] if cls == 'total' else t['demand_by_class'][cls]
        cap = t['capacity'] if cls == 'total' else t['capacity_by_class'][cls]
        gap = t['gap'] if cls == 'total' else t['gap_by_class'][cls]
        same(r[2], dem); same(r[3], cap); same(r[4], gap)
assert k == len(rows)
# 5. every term per group and year
rows = tables('### By group')
k = 0
for g in p['groups']:
    for y in g['years']:
        r = rows[k]; k += 1
        assert r[0] == g['name'] and r[2] == 'y%d' % y['year'], (r, g['name'])
        for col, key in [(3, 'stay'), (4, 'arrivals'), (5, 'target'), (6, 'newcomers'),
                         (7, 'heads'), (8, 'base'), (9, 'bursts'), (10, 'pool'), (12, 'demand')]:
            same(r[col], y[key])
        same(r[11], y['buffer'], 100)
assert k == len(rows)
rows = tables('### By domain')
k = 0
for dm in p['domains']:
    for y in dm['years']:
        r = rows[k]; k += 1
        assert r[0] == dm['name']
        same(r[2], y['heads']); same(r[5], y['demand'])
# backtest
bt = J('backtest')
if bt.get('wape') and bt.get('users'):
    rows = tables('| Projection | Projected total |')
    same(rows[0][1], bt['total']['actual'])
    same(rows[1][2], bt['wape']['naive'], 100)
    same(rows[2][2], bt['wape']['base'], 100)
    same(rows[3][2], bt['wape']['demand'], 100)
else:
    assert 'No backtest' in md
# 2. domains and 3. usage against stats --json
def check_stats(heading, rows_json, keys, cols):
    rows = tables(heading)
    assert len(rows) == len(rows_json), (heading, len(rows), len(rows_json))
    for r, j in zip(rows, rows_json):
        for i, key in enumerate(keys):
            assert r[i] == str(j[key]), (r, j)
        for i, key in cols:
            same(r[i], j[key])
dom = J('domains')['tables']['domains']
check_stats('### GPU-hours and researchers per domain', dom, ['period', 'domain'],
            [(2, 'gpu_hours'), (3, 'share_pct'), (4, 'researchers')])
check_stats('### Publications and GPU-hours per publication', J('pubs')['tables']['domains'],
            ['year', 'domain'], [(2, 'pubs'), (4, 'gpu_hours_per_pub')])
util = J('util')['tables']
check_stats('### Utilisation and usage per cluster, by year', util['utilization'],
            ['period', 'cluster'], [(2, 'gpus'), (4, 'gpu_hours'), (5, 'util_pct')])
check_stats('### Events and their measured impact', util['events'], ['date'],
            [(3, 'util_before_pct'), (4, 'util_after_pct')])
pre = [r for r in J('preempt')['tables']['preemption'] if r['partition'] == 'all']
check_stats('### Preemption per group (whole period)', pre, ['group'],
            [(1, 'jobs'), (2, 'preempted_jobs'), (3, 'preempted_jobs_pct')])
wt = [r for r in J('waits')['tables']['waits'] if r['partition'] == 'all' and r['gpus'] == 'all']
check_stats('### Waits, by year', wt, ['period'], [(2, 'wait_p50_h'), (3, 'wait_p90_h')])
# 6. peers
rows = tables('| Institution | GPUs |')
assert [r[0] for r in rows] == ['this institute', 'Peer U', 'Inst, B'], rows
same(rows[1][3], 400 / 250); same(rows[2][3], 120 / 300)
PY
    for f in "$dir"/report_files/*.svg; do
        python3 -c "import sys, xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); assert r.tag.endswith('svg')" "$f" \
            || fail "$f is not SVG XML"
        rsvg-convert -o "$f.png" "$f" 2>"$dir/err" && [ -s "$f.png" ] || fail "rsvg-convert $f: $(cat "$dir/err")"
        rm -f "$f.png"
    done
    n=$(ls "$dir"/report_files/*.svg | wc -l)
    [ "$n" -eq 5 ] || fail "expected 5 charts, found $n"
    grep -o '](report_files/[a-z]*\.svg)' "$dir/report.md" | sed 's/^](//; s/)$//' | while read -r f; do
        [ -f "$dir/$f" ] || fail "link to missing $f"
    done
    for fmt in commonmark markdown gfm; do
        (cd "$dir" && pandoc --fail-if-warnings -f "$fmt" -t html -o "$dir/r.html" report.md) \
            2>"$dir/err" || fail "pandoc -f $fmt: $(cat "$dir/err")"
        [ -s "$dir/err" ] && fail "pandoc -f $fmt warned: $(cat "$dir/err")"
    done
    grep -q '<table' "$dir/r.html" || fail "pandoc: no table"
}

# check_csv DB DIR [--anonymize]: every file with its header; projection
# equal to project --json.
check_csv() {
    db=$1; dir=$2; shift 2
    "$CAPPLAN_BIN" --db "$db" export --csv "$dir/csv" "$@" 2>"$dir/err" || fail "export --csv: $(cat "$dir/err")"
    "$CAPPLAN_BIN" --db "$db" project --json >"$dir/project.json"
    python3 - "$dir" <<'PY' || fail "CSV ($dir)"
import csv, json, sys
d = sys.argv[1]
heads = {
    'groups.csv': ['group', 'domain', 'heads_now', 'growth', 'growth_measured'],
    'students.csv': ['user', 'group', 'role', 'profile', 'leaves', 'jobs', 'gpu_hours'],
    'profiles.csv': ['profile', 'name', 'size', 'gpus_p90'],
    'projection.csv': ['kind', 'name', 'domain', 'year', 'from', 'to', 'stay', 'arrivals',
                       'newcomers', 'heads', 'base', 'bursts', 'pool', 'demand'],
    'usage_by_month.csv': ['period', 'cluster', 'gpus', 'capacity_gpu_hours', 'gpu_hours',
                           'util_pct'],
    'usage_by_group_month.csv': ['period', 'group', 'gpu_hours', 'share_pct'],
    'preemption.csv': ['period', 'group', 'partition', 'preemptible', 'jobs'],
    'waits.csv': ['period', 'partition', 'gpus', 'attempts', 'wait_p50_h'],
}
data = {}
for f, h in heads.items():
    raw = open('%s/csv/%s' % (d, f), 'rb').read()
    raw.decode('utf-8')
    assert raw.endswith(b'\r\n'), f
    rows = list(csv.reader(open('%s/csv/%s' % (d, f), newline='', encoding='utf-8'), strict=True))
    assert rows[0][:len(h)] == h, (f, rows[0])
    assert all(len(r) == len(rows[0]) for r in rows), f
    for r in rows[1:]:
        for c in r:
            assert c == '' or c[0] not in '=+@\t\r' or c.startswith("'"), (f, c)
            if c[:1] == '-':
                float(c)  # a negative number, else it would have been neutralised
    data[f] = rows
p = json.load(open(d + '/project.json'))
anon = len(sys.argv) > 2
proj = [r for r in data['projection.csv'][1:] if r[0] == 'total']
assert len(proj) == len(p['total'])
for r, t in zip(proj, p['total']):
    assert abs(float(r[13]) - t['demand']) <= 1e-6 * max(1, t['demand']), (r, t)
grp = [r for r in data['projection.csv'][1:] if r[0] == 'group']
assert len(grp) == sum(len(g['years']) for g in p['groups'])
PY
}

# ---- the demo database
DEMO="$WORK/demo.db"
"$CAPPLAN_BIN" --db "$DEMO" demo --no-tui --seed 7 --jobs 20000 >/dev/null 2>&1 || fail "demo"
"$CAPPLAN_BIN" --db "$DEMO" scenario new plan >/dev/null || fail "scenario new"
"$CAPPLAN_BIN" --db "$DEMO" scenario set plan growth=0.2 --group chen-lab --reason "two more students, said schen" \
    >/dev/null 2>&1 || fail "scenario set"
check_report "$DEMO" "$WORK/demo"
expect_rc 0 "$CAPPLAN_BIN" --db "$DEMO" export "$WORK/demo/plan.md" --scenario plan
grep -q 'two more students' "$WORK/demo/plan.md" || fail "scenario reason not in the report"
# every group named in the profile mixes
mixes() { awk "/^### Groups' mixes of profiles/ { f = 1; next } /^##/ { f = 0 } f" "$1"; }
mixes "$WORK/demo/plan.md" | grep -q '^| [a-z]*-lab | ' || fail "mixes: no group name"
mixes "$WORK/demo/plan.md" | grep -q '^|  *| ' && fail "mixes: a row without its group"
grep -q '^| growth | chen-lab | 0.2000 |' "$WORK/demo/plan.md" || fail "edit not listed"
[ -f "$WORK/demo/plan_files/summary.svg" ] || fail "plan_files/"
expect_rc 1 "$CAPPLAN_BIN" --db "$DEMO" export "$WORK/demo/x.md" --scenario nosuch
check_csv "$DEMO" "$WORK/demo"

# anonymised: no user or group name left anywhere
expect_rc 0 "$CAPPLAN_BIN" --db "$DEMO" export "$WORK/demo/anon.md" --anonymize --scenario plan
grep -q 'schen' "$WORK/demo/plan.md" || fail "the reason names schen in the plain report"
grep -q 'left out: anonymised' "$WORK/demo/anon.md" || fail "the edit's reason not left out"
mkdir -p "$WORK/anon"
check_csv "$DEMO" "$WORK/anon" --anonymize
python3 - "$WORK" <<'PY' || fail "--anonymize left a name"
import csv, json, sys, glob, re
w = sys.argv[1]
p = json.load(open(w + '/demo/project.json'))
names = {g['name'] for g in p['groups']}
names |= {r[0] for r in csv.reader(open(w + '/demo/csv/students.csv', encoding='utf-8'))}
names -= {'user', 'all', ''}
texts = [open(w + '/demo/anon.md', encoding='utf-8').read()]
texts += [open(f, encoding='utf-8').read() for f in glob.glob(w + '/anon/csv/*.csv')]
texts += [open(f, encoding='utf-8').read() for f in glob.glob(w + '/demo/anon_files/*.svg')]
for t in texts:
    words = set(re.findall(r'[\w.-]+', t.replace('\\', '')))
    left = names & words
    assert not left, sorted(left)[:5]
assert 'group-' in texts[0]
s = list(csv.reader(open(w + '/anon/csv/students.csv', encoding='utf-8')))
assert all(r[0].startswith('user-') and r[1].startswith('group-') for r in s[1:]), s[1]
PY

# ---- real data: an XDMoD sacct log, a roster with hostile names
X="$WORK/x.db"
"$CAPPLAN_BIN" --db "$X" import sacct --fields xdmod "$DATA"/sacct-pipe-xdmod/pozidriv.head.log \
    >/dev/null || fail "import xdmod"
cat >"$WORK/roster.csv" <<'CSV'
user,group,role,domain,start,end
turdo,"=HYPERLINK(""x"")",phd,physics,2016-01-01,
reebu,"=HYPERLINK(""x"")",postdoc,physics,2016-01-01,2017-06-30
+cmd,"=HYPERLINK(""x"")",phd,physics,2016-01-01,
sante,lab|b,phd,chemistry,2016-01-01,
sancr,lab|b,professor,chemistry,2015-01-01,
CSV
"$CAPPLAN_BIN" --db "$X" import roster "$WORK/roster.csv" >/dev/null || fail "import roster"
cat >"$WORK/cmd.psv" <<'PSV'
JobID|User|Account|Partition|State|Submit|Start|End|ElapsedRaw|AllocTRES|Cluster|NCPUS
9000001|+cmd|@acct|calla|COMPLETED|2016-12-28T08:00:00|2016-12-28T09:00:00|2016-12-28T13:00:00|14400|cpu=4,mem=4G|pozidriv|4
9000002|+cmd|@acct|calla|COMPLETED|2016-12-29T08:00:00|2016-12-29T09:00:00|2016-12-29T13:00:00|14400|cpu=4,mem=4G|pozidriv|4
9000003|+cmd|@acct|calla|COMPLETED|2016-12-30T08:00:00|2016-12-30T09:00:00|2016-12-30T13:00:00|14400|cpu=4,mem=4G|pozidriv|4
PSV
"$CAPPLAN_BIN" --db "$X" import sacct "$WORK/cmd.psv" >/dev/null || fail "import +cmd jobs"
printf 'institution,gpus,researchers\nETH,400,250\n' >"$WORK/peers.csv"
expect_rc 0 "$CAPPLAN_BIN" --db "$X" import peers "$WORK/peers.csv"
grep -q '1 added' "$WORK/out" || fail "import peers: $(cat "$WORK/out")"
printf 'institution,gpus,researchers\nX,lots,2\n' >"$WORK/bad.csv"
expect_rc 1 "$CAPPLAN_BIN" --db "$X" import peers "$WORK/bad.csv"
grep -q 'bad.csv:2: field gpus' "$WORK/err" || fail "bad peers: $(cat "$WORK/err")"
check_report "$X" "$WORK/x"
grep -q 'HYPERLINK' "$WORK/x/report.md" || fail "group missing from the report"
grep -q '^| ETH |' "$WORK/x/report.md" && fail "--peers FILE must replace the table's peers"
expect_rc 0 "$CAPPLAN_BIN" --db "$X" export "$WORK/x/tab.md"
grep -q '^| ETH | 400 GPUs | 250 people | 1.600 GPUs |' "$WORK/x/tab.md" || fail "peers table not used"
check_csv "$X" "$WORK/x"
grep -q "\"'=HYPERLINK(\"\"x\"\")\"" "$WORK/x/csv/groups.csv" || fail "group not neutralised: $(cat "$WORK/x/csv/groups.csv")"
grep -q "^\"'+cmd\"," "$WORK/x/csv/students.csv" || fail "user not neutralised: $(cat "$WORK/x/csv/students.csv")"
grep -q '=HYPERLINK' "$WORK/x/csv/usage_by_group_month.csv" || fail "group missing from usage_by_group_month"

# ---- LibreOffice: the neutralised cells stay text, no formula
if command -v soffice >/dev/null 2>&1; then
    mkdir -p "$WORK/lo"
    for f in groups students usage_by_group_month; do
        HOME="$WORK/lo" soffice --headless --convert-to xlsx --outdir "$WORK/lo" \
            "$WORK/x/csv/$f.csv" >"$WORK/lo/log" 2>&1 || fail "soffice $f: $(cat "$WORK/lo/log")"
    done
    printf 'a,b\r\n=1+1,x\r\n' >"$WORK/lo/control.csv"
    HOME="$WORK/lo" soffice --headless --convert-to xlsx --outdir "$WORK/lo" "$WORK/lo/control.csv" \
        >/dev/null 2>&1 || fail "soffice control"
    python3 - "$WORK/lo" <<'PY' || fail "LibreOffice evaluated a formula"
import sys, zipfile
d = sys.argv[1]
def sheet(n):
    z = zipfile.ZipFile('%s/%s.xlsx' % (d, n))
    return z.read('xl/worksheets/sheet1.xml').decode(), z.read('xl/sharedStrings.xml').decode()
s, _ = sheet('control')
assert '<f' in s, 'the control formula was not read as one: the check would prove nothing'
found = 0
for n in ['groups', 'students', 'usage_by_group_month']:
    s, strings = sheet(n)
    assert '<f' not in s, n
    found += '&apos;=HYPERLINK' in strings
    found += '&apos;+cmd' in strings
assert found >= 3, found
PY
else
    echo "SKIP: soffice not installed (apt-get install libreoffice-calc-nogui): LibreOffice check skipped"
fi
echo "PASS: report_cli"
