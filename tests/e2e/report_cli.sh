#!/bin/sh
# capplan export: report.md, report.html, budget.xlsx and --csv on the demo
# database and on one built from ../shared/data (XDMoD sacct log plus a
# roster written here, with an injection attempt as a group name, a user
# named +cmd and one named müller). Checks: every section present (the ones
# `export --help` lists) and no TODO nor file outside the repository; the
# figures equal what `capplan project --json`, `capplan project --backtest
# --json` and `capplan stats ... --json` print; the provenance against the
# database (sqlite3); partial years marked; every SVG parses as XML and
# renders to PNG (rsvg-convert); the Markdown converts with pandoc without
# warnings; the PDF (pandoc + weasyprint) and the HTML (weasyprint) are A4
# portrait with no word past the page's edge (pdftotext -bbox); the HTML is
# one file with the charts inline; every CSV parses with python3's csv
# module, one type per column, "all" rows in *_all.csv only; the workbook
# read back with openpyxl (types, formats, frozen header, SUM totals, no
# other formula) and recalculated by LibreOffice; --anonymize leaves no
# name; the neutralised cells stay text in LibreOffice; --bom makes
# LibreOffice read müller.
. "$(dirname "$0")/lib.sh"
need_shared

command -v rsvg-convert >/dev/null || fail "rsvg-convert missing (apt-get install librsvg2-bin)"
command -v pandoc >/dev/null || fail "pandoc missing (apt-get install pandoc)"
command -v weasyprint >/dev/null || fail "weasyprint missing (apt-get install weasyprint)"
command -v pdftotext >/dev/null || fail "pdftotext missing (apt-get install poppler-utils)"
# a python3 with openpyxl (Debian: python3-openpyxl), the first on PATH may lack it
PY=""
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import openpyxl' 2>/dev/null; then PY=$p; break; fi
done
[ -n "$PY" ] || fail "no python3 with openpyxl (apt-get install python3-openpyxl)"
python3() { "$PY" "$@"; }

expect_rc 0 cap export --help
grep -q 'anonymize' "$WORK/out" || fail "export --help"
cp "$WORK/out" "$WORK/help.txt"
"$CAPPLAN_BIN" --version >"$WORK/version.txt"
expect_rc 2 cap export
expect_rc 2 cap export a.txt
expect_rc 2 cap export a.md --bogus

# pdf_fits PDF: A4 portrait, and no word of any page in its right margin (12
# mm, 34 pt; 4 pt of slack) or left of the page.
pdf_fits() {
    pdfinfo "$1" | grep -q 'Page size: *595.* x 841.* pts (A4)' || fail "$1: not A4 portrait: $(pdfinfo "$1" | grep 'Page size')"
    pdftotext -bbox "$1" - | python3 -c "
import re, sys
w = None; bad = []; pages = 0
for line in sys.stdin:
    m = re.search(r'<page width=\"([0-9.]+)\"', line)
    if m: w = float(m.group(1)); pages += 1
    m = re.search(r'<word xMin=\"([0-9.]+)\" yMin=\"[0-9.]+\" xMax=\"([0-9.]+)\"[^>]*>(.*)</word>', line)
    if m and (float(m.group(2)) > w - 30 or float(m.group(1)) < 0):
        bad.append((pages, m.group(3), m.group(2)))
assert pages > 3 and not bad, (pages, bad[:5])
" || fail "$1: text in the right margin"
}

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
    python3 - "$dir" "$db" <<'PY' || fail "report figures differ from the CLI's JSON ($dir)"
import json, re, sys
d = sys.argv[1]
md = open(d + '/report.md', encoding='utf-8').read()
J = lambda n: json.load(open('%s/%s.json' % (d, n)))
titles = ['Summary', 'Research domains', 'Usage', 'Compute profiles',
          'Projections by group and by domain', 'Other institutes', 'Energy and carbon',
          'Allocation policy', 'Who does what research', 'Data sources and method']
for i, s in enumerate(titles, 1):
    assert '\n## %d. %s\n' % (i, s) in md, s
assert len(re.findall(r'^## ', md, re.M)) == len(titles) + 1  # and the first page
assert md.index('\n## The decision on one page\n') < md.index('\n## 1. Summary\n')
# export --help lists every section by its number and title
help_text = ' '.join(open(d + '/../help.txt').read().split())
for i, s in enumerate(titles, 1):
    assert ' %d %s' % (i, s) in help_text, ('help', s)
assert ' The decision on one page:' in help_text
assert 'TODO' not in md and 'DESIGN.md' not in md
assert md.startswith('---\ntitle: "GPU capacity plan"\n')

def unesc(s): return re.sub(r'\\(.)', r'\1', s.strip())

def parse_tables(part):
    """The tables at the start of part (up to the next heading), as lists of rows."""
    out, cur = [], None
    for line in part.split('\n'):
        if line.startswith('|'):
            cells = [unesc(c) for c in re.split(r'(?<!\\)\|', line)[1:-1]]
            if cur is None:
                cur = []
                out.append(cur)
            if not all(set(c) <= set(':- ') for c in cells):
                cur.append(cells)
        else:
            cur = None
            if line.startswith('#'):
                break
    return out

def tables(after):
    """Rows of the first table after the line 'after' (its parts, split to
    fit the page, joined again: a part repeats the leading key columns)."""
    part = after + md.split(after, 1)[1] if after.startswith('|') else md.split(after, 1)[1].split('\n', 1)[1]
    ts = parse_tables(part)
    if not ts:
        return []
    rows = [list(r) for r in ts[0]]
    for t in ts[1:]:
        nk = 0
        while nk < len(t[0]) and nk < len(rows[0]) and t[0][nk] == rows[0][nk]:
            nk += 1
        if nk == 0 or len(t) != len(rows):
            break
        for r, x in zip(rows, t):
            r.extend(x[nk:])
    return rows[1:]  # without the header row

def num(cell):
    m = re.match(r'^(-?[0-9]+(?:\.([0-9]+))?)', cell)
    assert m, cell
    return float(m.group(1)), len(m.group(2) or '')

def same(cell, v, scale=1):
    if v is None:
        assert cell in ('n/a', 'no data before', 'no data after', '-'), (cell, v)
        return
    x, dec = num(cell)
    assert abs(x - v * scale) <= 0.5 * 10 ** -dec + 1e-9 * abs(v * scale), (cell, v)

p = J('project')
# classes nest (#33): a job runs on any GPU with enough memory, so the room of the bigger
# classes serves the smaller classes' shortfall, the biggest short class first
def nested(t):
    cl = ['24', '48', '80', '80+']
    room = [t['capacity_by_class'][c] - t['need_by_class'][c] for c in cl]
    for k in (2, 1, 0):
        for j in range(k + 1, 4):
            take = min(max(-room[k], 0), max(room[j], 0))
            room[k] += take; room[j] -= take
    for k in range(4):
        # never short while a bigger class has room left
        assert room[k] >= -1e-9 or all(x <= 1e-9 for x in room[k + 1:]), room
    g = dict(zip(cl, [-x for x in room]))
    g['unknown'] = t['gap_by_class']['unknown']
    return g
# 1. summary: totals per year and class
rows = tables('| Year | GPU memory class (GiB) |')
k = 0
for t in p['total']:
    ng = nested(t)
    for cls in ['24', '48', '80', '80+', 'unknown', 'total']:
        r = rows[k]; k += 1
        assert r[0].startswith('y%d ' % t['year']) and r[1] == cls, r
        dem = t['need'] if cls == 'total' else t['need_by_class'][cls]
        cap = t['capacity'] if cls == 'total' else t['capacity_by_class'][cls]
        gap = t['gap'] if cls == 'total' else ng[cls]
        same(r[2], dem); same(r[3], cap); same(r[4], gap)
        if cls == 'total':
            rg = t['need_range']
            assert r[5] == ('not calibrated' if rg is None else
                            '%.1f-%.1f GPU-eq' % (rg['p10'], rg['p90'])), (r[5], rg)
assert k == len(rows)
# 5. every term per group and year
rows = tables('### By group')
k = 0
for g in p['groups']:
    for y in g['years']:
        r = rows[k]; k += 1
        assert r[0] == g['name'] and r[2] == 'y%d' % y['year'], (r, g['name'])
        for col, key in [(3, 'stay'), (4, 'arrivals'), (5, 'newcomers'), (6, 'heads'),
                         (7, 'expected_use'), (9, 'pool'), (10, 'buffer'), (11, 'stated'),
                         (12, 'need')]:
            same(r[col], y[key])
        rg = y['expected_use_range']
        assert r[8] == ('not calibrated' if rg is None else
                        '%.1f-%.1f GPU-eq' % (rg['p10'], rg['p90'])), (r[8], rg)
assert k == len(rows)
rows = tables('### By domain')
k = 0
for dm in p['domains']:
    for y in dm['years']:
        r = rows[k]; k += 1
        assert r[0] == dm['name']
        same(r[2], y['heads']); same(r[5], y['need'])
# groups' or domains' needs adding to more than the institute's: the shared line beside them
for what, key in (('groups', 'groups'), ('domains', 'domains')):
    for t in p['total']:
        y = t['year']
        tot = sum(g['years'][y - 1]['need'] for g in p[key])
        line = "y%d: the %s' needs add to " % (y, what)
        if tot > t['need'] + 0.005:
            assert line in md and 'shared between groups' in md, (line, tot, t['need'])
        else:
            assert line not in md, (line, tot, t['need'])
# backtest
bt = J('backtest')
if bt.get('wape') and bt.get('users'):
    rows = tables('| Projection | Projected total')
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
            assert re.sub(r' \(partial: [^)]*\)$', '', r[i]) == str(j[key]), (r, j)
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
# 9. provenance against the database itself
import datetime, sqlite3
db = sqlite3.connect(sys.argv[2])
day = lambda t: datetime.datetime.fromtimestamp(t, datetime.timezone.utc).date()
today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
ver = open(d + '/../version.txt').read().split()[1]
assert 'Written on %s by capplan %s from the database %s.' % (today, ver, sys.argv[2]) in md
lo, hi = db.execute('select lo, hi from acct_window').fetchone()
a, b = day(lo), day(hi - 1)
assert 'The accounting covers %s to %s ' % (a, b) in md
imp = db.execute('select kind, format, rows_read, rows_added, rows_updated, rows_rejected, '
                 'first_submit, last_submit from imports where finished_at is not null '
                 'order by id').fetchall()
rows = tables('### Imported files')
assert len(rows) == len(imp), (len(rows), len(imp))
for r, i in zip(rows, imp):
    assert [r[0], r[2]] == [i[0], i[1]] and r[4:] == [str(x) for x in i[2:6]], (r, i)
# the span of the jobs each import brought (issue 14), kept in imports at import time
spans = [(i[0], str(day(i[6])), str(day(i[7]))) for i in imp if i[6] is not None]
rows = tables('### Jobs each import brought')
assert spans and [(r[0], r[3], r[4]) for r in rows] == spans, (rows, spans)
names = [n for (n,) in db.execute('select name from clusters order by name')]
rows = tables('### Clusters')
assert [r[0] for r in rows] == names, (rows, names)
for m, in db.execute('select distinct gpu_model from inventory where relative_speed = 1'):
    assert re.search(r'relative speed 1: [^.]*%s \(' % re.escape(m), md), m
# partial years: the first and last year of the window, as the tables show them
mon = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split()
util_rows = tables('### Utilisation and usage per cluster, by year')
first = '%d (partial: from %d %s)' % (a.year, a.day, mon[a.month - 1])
if (a.month, a.day) != (1, 1) and a.year != b.year:
    assert util_rows[0][0] == first, (util_rows[0][0], first)
if (b.month, b.day) != (12, 31) and a.year != b.year:
    assert util_rows[-1][0] == '%d (partial: to %d %s)' % (b.year, b.day, mon[b.month - 1]), util_rows[-1]
full = [r[0] for r in util_rows if a.year < int(r[0][:4]) < b.year]
assert all(len(y) == 4 for y in full), full
# an event with no month before the accounting says so
for r, e in zip(tables('### Events and their measured impact'), util['events']):
    if e['util_before_pct'] is None:
        assert r[3] == 'no data before' and r[5] == '-', r
# 9. the research clusters beside section 4's profiles, whether or not a
# `capplan profile` saved them (this report is written before the
# `project --json` above saves them)
prof = [r[1] for r in tables('## 4. Compute profiles')]
sec9 = md.split('\n## 9. Who does what research\n', 1)[1].split('\n## ', 1)[0]
if 'No papers with their text imported' not in sec9:
    named = [unesc(n) for n in re.findall(r'^- P[0-9]+: (.*)$', sec9, re.M)]
    assert named == prof, (prof, named)
    assert bool(prof) != ('No compute profiles yet' in sec9), prof
PY
    check_first_page "$db" "$dir"
    check_charts "$dir"
    for f in "$dir"/report_files/*.svg; do
        python3 -c "import sys, xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); assert r.tag.endswith('svg')" "$f" \
            || fail "$f is not SVG XML"
        rsvg-convert -o "$f.png" "$f" 2>"$dir/err" && [ -s "$f.png" ] || fail "rsvg-convert $f: $(cat "$dir/err")"
        rm -f "$f.png"
    done
    n=$(ls "$dir"/report_files/*.svg | wc -l)
    [ "$n" -ge 5 ] || fail "expected 5 charts, found $n"
    grep -o '](report_files/[a-z]*\.svg)' "$dir/report.md" | sed 's/^](//; s/)$//' | while read -r f; do
        [ -f "$dir/$f" ] || fail "link to missing $f"
    done
    # print: pandoc to PDF through weasyprint, and the one-file HTML
    (cd "$dir" && pandoc report.md -o report.pdf --pdf-engine=weasyprint) 2>"$dir/err" \
        || fail "pandoc to PDF: $(cat "$dir/err")"
    pdf_fits "$dir/report.pdf"
    # the commands above may have stored profiles (section 9 compares them): the
    # Markdown the HTML is compared with is written from the same database state
    c export "$dir/report.md" --peers "$dir/peers.csv" 2>"$dir/err" || fail "export again: $(cat "$dir/err")"
    c export "$dir/report.html" --peers "$dir/peers.csv" 2>"$dir/err" || fail "export report.html: $(cat "$dir/err")"
    [ -d "$dir/report.html_files" ] && fail "report.html left a folder"
    ls "$dir" | grep -q 'report.html.tmp' && fail "temporary folder left: $(ls "$dir")"
    python3 - "$dir" <<'PY' || fail "report.html ($dir)"
import re, sys
from html.parser import HTMLParser
d = sys.argv[1]
h = open(d + '/report.html', encoding='utf-8').read()
md = open(d + '/report.md', encoding='utf-8').read()
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.tags = {}; s.src = []
    def handle_starttag(s, tag, attrs):
        s.tags[tag] = s.tags.get(tag, 0) + 1
        s.src += [v for k, v in attrs if k in ('src', 'href')]
p = P(); p.feed(h)
assert p.tags.get('svg') == md.count('](report_files/'), p.tags.get('svg')
assert not p.src, p.src  # no link to another file
assert 'report_files' not in h and '<?xml' not in h
assert p.tags.get('table') == len(re.findall(r'^\| :?-', md, re.M)), (p.tags.get('table'))
assert p.tags.get('h2') == len(re.findall(r'^## ', md, re.M))
assert '<title>GPU capacity plan</title>' in h
PY
    weasyprint "$dir/report.html" "$dir/report_html.pdf" 2>"$dir/err" || fail "weasyprint: $(cat "$dir/err")"
    pdf_fits "$dir/report_html.pdf"
    for fmt in commonmark markdown gfm; do
        (cd "$dir" && pandoc --fail-if-warnings -f "$fmt" -t html -o "$dir/r.html" report.md) \
            2>"$dir/err" || fail "pandoc -f $fmt: $(cat "$dir/err")"
        [ -s "$dir/err" ] && fail "pandoc -f $fmt warned: $(cat "$dir/err")"
    done
    grep -q '<table' "$dir/r.html" || fail "pandoc: no table"
}

# check_charts DIR: the SVG charts read with python3's xml against the
# projection: the summary's series (past use, need per memory class, its
# p10-p90 band, capacity) and years on its axis; one colour per domain in
# the domain and projection charts; event markers in no series' colour;
# the plot spread over the canvas.
check_charts() {
    python3 - "$1" <<'PY' || fail "charts ($1)"
import json, re, sys, xml.etree.ElementTree as E
d = sys.argv[1]
p = json.load(open(d + '/project.json'))
NS = '{http://www.w3.org/2000/svg}'
def load(n): return E.parse('%s/report_files/%s.svg' % (d, n)).getroot()
def series(root):
    out = {}
    for e in root.iter():
        if e.get('class') == 'series':
            out.setdefault(e.get('data-series'), []).append(e)
    return out
def colour(e): return e.get('fill') if e.tag == NS + 'rect' else e.get('stroke')
def texts(root): return [t.text or '' for t in root.iter(NS + 'text')]
def xs(e):
    if e.tag == NS + 'rect':
        return [float(e.get('x')), float(e.get('x')) + float(e.get('width'))]
    return [float(v) for v in re.findall(r'[ML]([0-9.]+) ', e.get('d'))]
every_series_colour = set()
import os
for name in ['summary', 'domains', 'projection', 'utilization', 'peers']:
    if name == 'peers' and not os.path.exists(d + '/report_files/peers.svg'):
        continue
    root = load(name)
    ss = series(root)
    for n, es in ss.items():
        cs = {colour(e) for e in es}
        assert len(cs) == 1, (name, n, cs)
        if n not in ('band', 'line'):
            every_series_colour |= cs
    # the plot takes the canvas: its rightmost element past 72 % of the width (the legend
    # as wide as its entries; 55 % beside event labels)
    right = max([x for es in ss.values() for e in es for x in xs(e)] or [1e9])  # no data: no plot
    marked = any(e.get('class') == 'mark' for e in root.iter())
    assert right > (0.55 if marked else 0.72) * float(root.get('width')), (name, right)
S = load('summary'); ss = series(S)
classes = [('24', 'need, up to 24 GiB'), ('48', 'need, up to 48 GiB'), ('80', 'need, up to 80 GiB'),
           ('80+', 'need, over 80 GiB'), ('unknown', 'need, memory unknown')]
val = lambda e: float(e.find(NS + 'title').text.rsplit(': ', 1)[1])
used = [y['used'] for y in p['past_years'] if y['used'] > 0]
got = [val(e) for e in ss.get('used', [])]
assert len(got) == len(used) and all(abs(a - b) <= 1e-3 * max(1, b) for a, b in zip(got, used)), (got, used)
for key, n in classes:
    want = [t['need_by_class'][key] for t in p['total'] if t['need_by_class'][key] > 0]
    got = [val(e) for e in ss.get(n, [])]
    assert len(got) == len(want) and all(abs(a - b) <= 1e-3 * max(1, b) for a, b in zip(got, want)), (n, got, want)
# the band spans p10 to p90 of the need; capacity is one line over past and projected years
assert ('band' in ss) == p['calibrated'], ss.keys()
line = [float(v) for v in re.findall(r'[ML][0-9.]+ ([0-9.]+) ', ss['line'][0].get('d'))]
assert len(line) == len(p['past_years']) + len(p['total']), line
legend = texts(S)
for n in ['used', 'need p10-p90' if p['calibrated'] else 'capacity', 'capacity']:
    assert n in legend, (n, legend)
# years on the axis: each past year, and each projected year with its calendar years
for y in p['past_years']:
    assert any(t.startswith(str(y['year'])) for t in legend), y['year']
for y in p['years']:
    assert 'y%d %s-%s' % (y['year'], y['from'][:4], y['to'][2:4]) in legend, y
# one colour per domain: the same in the domain share chart and the projection chart
dom = {n: colour(es[0]) for n, es in series(load('domains')).items()}
proj = {n: colour(es[0]) for n, es in series(load('projection')).items()}
for n in set(dom) & set(proj):
    assert dom[n] == proj[n], (n, dom[n], proj[n])
assert len(set(dom.values())) == len(dom) and len(set(proj.values())) == len(proj), (dom, proj)
# event markers: a colour no series of any chart takes
U = load('utilization')
marks = [e for e in U.iter(NS + 'line') if e.get('class') == 'mark']
for m in marks:
    assert m.get('stroke') not in every_series_colour, (m.get('stroke'), every_series_colour)
print('charts:', len(marks), 'markers,', len(dom), 'domains')
PY
}

# check_first_page DB DIR: the first page of DIR/report.md against `capplan
# project --json` and the rolling backtest (`project --backtest --json`), the
# p80 = need x e^(q80 sqrt(year)), q80 the 80th percentile (linear) of
# log(actual / forecast) over the cuts; no need-based purchase, no per-class gap.
check_first_page() {
    "$CAPPLAN_BIN" --db "$1" project --backtest --json >"$2/btall.json" 2>/dev/null || echo '{}' >"$2/btall.json"
    python3 - "$2" "$1" <<'PY' || fail "first page ($2)"
import json, math, re, sqlite3, sys
d, dbp = sys.argv[1], sys.argv[2]
md = open(d + '/report.md', encoding='utf-8').read()
page = md.split('\n## The decision on one page\n', 1)[1].split('\n## 1. ', 1)[0]
p = json.load(open(d + '/project.json'))
bt = json.load(open(d + '/btall.json'))
u = p['unit']
def unesc(s): return re.sub(r'\\(.)', r'\1', s.strip())
def table(head):
    part = page.split(head, 1)[1]
    rows = []
    for line in (head + part).split('\n'):
        if not line.startswith('|'):
            break
        cells = [unesc(c) for c in re.split(r'(?<!\\)\|', line)[1:-1]]
        if not all(set(c) <= set(':- ') for c in cells):
            rows.append(cells)
    return rows[1:]
def same(cell, v):
    m = re.match(r'^(-?[0-9]+(?:\.([0-9]+))?)', cell)
    assert m, (cell, v)
    assert abs(float(m.group(1)) - v) <= 0.5 * 10 ** -len(m.group(2) or '') + 1e-9 * abs(v), (cell, v)
lr = sorted(math.log(c['actual'] / c['model']) for c in bt.get('cuts', [])
            if c['model'] > 0 and c['actual'] > 0)
def pct(v, q):
    r = q / 100 * (len(v) - 1); i = int(r)
    return v[i] + (r - i) * (v[i + 1] - v[i]) if i + 1 < len(v) else v[-1]
q80 = pct(lr, 80) if len(lr) >= 3 else None
assert (q80 is not None) == p['calibrated'], (len(lr), p['backtest_cuts'])
f = lambda y: math.exp(q80 * math.sqrt(y)) if q80 is not None else 1.0
# today: the latest past year
last = p['past_years'][-1]
m = re.search(r'\*\*Today\*\* \(%d, ([0-9.]+) months of data\): use ([0-9.]+) %s on average '
              r'against a capacity of ([0-9.]+) %s\.' % (last['year'], re.escape(u), re.escape(u)), page)
assert m, page[:400]
same(m.group(1), last['months']); same(m.group(2), last['used']); same(m.group(3), last['capacity'])
if u == 'GPU-eq':
    assert 'GPUs x relative speed (the reference model = 1.0, section 1)' in page
# the need per year, its range and p80
rows = table('| Year | Need (')
assert len(rows) == len(p['total']), rows
for r, t in zip(rows, p['total']):
    y = t['year']
    assert r[0].startswith('y%d (' % y), r
    same(r[1], t['need'])
    rg = t['need_range']
    assert r[2] == ('not calibrated' if rg is None else '%.1f-%.1f %s' % (rg['p10'], rg['p90'], u)), r
    same(r[3], t['need'] * f(y)); same(r[4], t['capacity']); same(r[5], t['need'] * f(y) - t['capacity'])
# the need-based purchase and the per-class gap table (classes that did not nest) are gone:
# the purchase on the page is `capplan simulate`'s (tests/e2e/simulate_next.sh)
assert '| Year | To 24 GiB' not in page and '| Memory class (GiB) |' not in page, page
assert '### What each option does to waiting' in page, page
# how sure
if q80 is None:
    assert 'Not calibrated: the rolling backtest scored %d cuts' % len(lr) in page
else:
    assert 'refit at %d monthly cuts' % len(lr) in page
    assert 'missed by %.0f %% on average' % (100 * bt['mean']['abs_err_model']) in page
    b = bt['mean']['bias_model']
    assert 'it %s by %.1f %% (its bias)' % ('under-forecast' if b < 0 else 'over-forecast', 100 * abs(b)) in page
    assert '%.0f %% %s the need in year 1' % (abs(100 * (math.exp(q80) - 1)), 'below' if q80 < 0 else 'above') in page
print('first page:', len(lr), 'cuts')
PY
}

# check_csv DB DIR [--anonymize]: every file with its header; projection
# equal to project --json.
check_csv() {
    db=$1; dir=$2; shift 2
    "$CAPPLAN_BIN" --db "$db" export --csv "$dir/csv" "$@" 2>"$dir/err" || fail "export --csv: $(cat "$dir/err")"
    "$CAPPLAN_BIN" --db "$db" project --json >"$dir/project.json"
    "$CAPPLAN_BIN" --db "$db" project --csv >"$dir/project.csv"
    python3 - "$dir" <<'PY' || fail "CSV ($dir)"
import csv, json, sys
d = sys.argv[1]
heads = {
    'groups.csv': ['group', 'domain', 'people_now', 'growth_pct', 'growth_measured_pct',
                   'pool_gpu_eq', 'pool_gpu_eq_measured', 'buffer_pct'],
    'students.csv': ['user', 'group', 'role', 'profile', 'leaves_on', 'jobs', 'gpu_hours',
                     'gpus_p90', 'mem_gib', 'mem_source', 'dur_mean_h', 'dur_max_h',
                     'gpu_hours_per_month', 'conc_mean_gpus', 'conc_peak_gpus', 'burst_pct'],
    'profiles.csv': ['profile', 'name', 'members', 'gpus_p90'],
    'projection.csv': ['kind', 'name', 'domain', 'year', 'from', 'to', 'stay_people',
                       'arrivals_people', 'newcomers_people', 'heads_people',
                       'expected_use_gpu_eq', 'expected_use_p10_gpu_eq',
                       'expected_use_p90_gpu_eq', 'pool_gpu_eq', 'buffer_gpu_eq', 'need_gpu_eq',
                       'need_p10_gpu_eq', 'need_p90_gpu_eq'],
    'usage_by_group.csv': ['period', 'group', 'gpu_hours', 'share_pct', 'capacity_pct', 'cpu_hours',
                           'jobs'],
    'usage_by_month.csv': ['period', 'cluster', 'gpus', 'capacity_gpu_hours', 'gpu_hours',
                           'util_pct'],
    'usage_by_group_month.csv': ['period', 'group', 'gpu_hours', 'share_pct'],
    'preemption.csv': ['period', 'group', 'partition', 'preemptible', 'jobs'],
    'waits.csv': ['period', 'partition', 'gpus_min', 'gpus_max', 'attempts', 'wait_p50_h'],
    'catalog.csv': ['model', 'mem_gib', 'relative_speed', 'tdp_w', 'price', 'currency'],
    'purchase.csv': ['model', 'cluster', 'gpus', 'quarter', 'cost', 'currency', 'arrives',
                     'power_kw', 'p90_wait_without_h', 'p90_wait_with_h'],
}
for f in list(heads):
    if f.split('.')[0] in ('usage_by_month', 'preemption', 'waits'):
        heads[f.replace('.csv', '_all.csv')] = heads[f]
import os
assert sorted(os.listdir(d + '/csv')) == sorted(heads), sorted(os.listdir(d + '/csv'))
def isnum(v):
    try:
        float(v); return True
    except ValueError:
        return False
data = {}
for f, h in heads.items():
    raw = open('%s/csv/%s' % (d, f), 'rb').read()
    raw.decode('utf-8')
    assert raw.endswith(b'\r\n'), f
    assert not raw.startswith(b'\xef\xbb\xbf'), f  # a BOM only with --bom
    rows = list(csv.reader(open('%s/csv/%s' % (d, f), newline='', encoding='utf-8'), strict=True))
    assert rows[0][:len(h)] == h, (f, rows[0])
    assert all(len(r) == len(rows[0]) for r in rows), f
    for r in rows[1:]:
        for c in r:
            assert c == '' or c[0] not in '=+@\t\r' or c.startswith("'"), (f, c)
            if c[:1] == '-':
                float(c)  # a negative number, else it would have been neutralised
    # one type a column: numbers only, or no number at all (names, dates, classes)
    for i, col in enumerate(rows[0]):
        vals = [r[i] for r in rows[1:] if r[i] != '']
        kinds = {isnum(v) for v in vals}
        assert len(kinds) <= 1 or col in ('user', 'group', 'name'), (f, col, vals[:5])
        assert not col.endswith('_frac') and col not in ('share', 'growth', 'buffer'), (f, col)
    # aggregate rows apart: "all" only in the *_all files (the period aside)
    texts = [i for i, col in enumerate(rows[0]) if col not in ('period', 'name', 'domain')]
    agg = [any(r[i] == 'all' for i in texts) for r in rows[1:]]
    if 'gpus_min' in rows[0]:  # every GPU count: from 0, no maximum
        lo, hi = rows[0].index('gpus_min'), rows[0].index('gpus_max')
        agg = [a or (r[lo], r[hi]) == ('0', '') for a, r in zip(agg, rows[1:])]
    if f.endswith('_all.csv'):
        assert rows[1:] and all(agg), f
    elif f != 'projection.csv':
        assert not any(agg), f
    data[f] = rows
p = json.load(open(d + '/project.json'))
anon = len(sys.argv) > 2
# project --csv and projection.csv: the same columns; no range as text
cli = list(csv.reader(open(d + '/project.csv', newline='', encoding='utf-8'), strict=True))
assert cli[0] == data['projection.csv'][0], (cli[0], data['projection.csv'][0])
assert len(cli) == len(data['projection.csv'])
for r in cli[1:] + data['projection.csv'][1:]:
    for c in r[6:]:
        assert c == '' or float(c) == float(c), r
proj = [r for r in data['projection.csv'][1:] if r[0] == 'total']
assert len(proj) == len(p['total'])
for r, t in zip(proj, p['total']):
    assert abs(float(r[15]) - t['need']) <= 1e-6 * max(1, t['need']), (r, t)
    rg = t['need_range']
    if rg is not None:
        assert abs(float(r[16]) - rg['p10']) <= 1e-6 * max(1, rg['p10']), (r, t)
        assert abs(float(r[17]) - rg['p90']) <= 1e-6 * max(1, rg['p90']), (r, t)
grp = [r for r in data['projection.csv'][1:] if r[0] == 'group']
assert len(grp) == sum(len(g['years']) for g in p['groups'])
PY
}

# check_files_listed DB DIR: the whole export, with other institutes, writes
# exactly the files docs/reports.md lists under "The files", the workbook has
# their sheets in that order, and `export --help` names the same CSV files.
check_files_listed() {
    db=$1; dir=$2
    mkdir -p "$dir"
    printf 'institution,gpus,researchers\nPeer U,400,250\n' >"$WORK/peers1.csv"
    "$CAPPLAN_BIN" --db "$db" export "$dir/report.md" "$dir/report.html" "$dir/budget.xlsx" \
        --csv "$dir/csv" --peers "$WORK/peers1.csv" 2>"$WORK/err" || fail "export all: $(cat "$WORK/err")"
    python3 - "$dir" "$(dirname "$0")/../../docs/reports.md" "$WORK/help.txt" <<'PY' \
        || fail "the files export writes differ from docs/reports.md's list"
import os, re, sys, openpyxl
d, doc, helpf = sys.argv[1:]
part = open(doc, encoding='utf-8').read().split('\n## The files\n', 1)[1].split('\n## ', 1)[0]
listed = re.findall(r'^- `([^`]+)`', part, re.M)
want = sorted(x.replace('DIR/', 'csv/') for x in listed)
written = sorted(os.path.relpath(os.path.join(r, f), d) for r, _, fs in os.walk(d) for f in fs)
assert written == want, ('written, not listed:', sorted(set(written) - set(want)),
                         'listed, not written:', sorted(set(want) - set(written)))
csvs = [x[4:-4] for x in listed if x.startswith('DIR/')]
sheets = openpyxl.load_workbook(d + '/budget.xlsx', read_only=True).sheetnames
assert sheets == ['about'] + csvs, sheets
help_text = ' '.join(open(helpf).read().split())
m = re.search(r'--csv DIR ([a-z_, ]+) \(\.csv\)', help_text)
assert m, 'export --help lists no CSV file'
assert m.group(1).split(', ') == [c for c in csvs if not c.endswith('_all')], m.group(1)
assert 'in *_all.csv' in help_text
assert all(c[:-4] in csvs for c in csvs if c.endswith('_all')), csvs
PY
}

# ---- the demo database
DEMO="$WORK/demo.db"
"$CAPPLAN_BIN" --db "$DEMO" demo --today 2026-11-25 --no-tui --seed 7 --jobs 20000 >/dev/null 2>&1 || fail "demo"
printf 'model,mem_gib,relative_speed,tdp_w,price\nH100 SXM,80,5,700,30000\nL40S,48,3,350,9000\nL4,24,0.9,72,\n' >"$WORK/democat.csv"
"$CAPPLAN_BIN" --db "$DEMO" import catalog "$WORK/democat.csv" >/dev/null || fail "demo catalog"
# an import makes the saved profiles stale: save them again, as after any import
"$CAPPLAN_BIN" --db "$DEMO" profile >/dev/null || fail "profile"
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
check_files_listed "$DEMO" "$WORK/all"

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
# the first page names no one either (and still holds its options)
first = texts[0].split('\n## The decision on one page\n', 1)[1].split('\n## 1. ', 1)[0]
assert not names & set(re.findall(r'[\w.-]+', first.replace('\\', ''))), 'first page'
assert '### What each option does to waiting' in first
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
müller,lab|b,phd,chemistry,2016-01-01,
CSV
"$CAPPLAN_BIN" --db "$X" import roster "$WORK/roster.csv" >/dev/null || fail "import roster"
cat >"$WORK/cmd.psv" <<'PSV'
JobID|User|Account|Partition|State|Submit|Start|End|ElapsedRaw|AllocTRES|Cluster|NCPUS
9000001|+cmd|@acct|calla|COMPLETED|2016-12-28T08:00:00|2016-12-28T09:00:00|2016-12-28T13:00:00|14400|cpu=4,mem=4G|pozidriv|4
9000002|+cmd|@acct|calla|COMPLETED|2016-12-29T08:00:00|2016-12-29T09:00:00|2016-12-29T13:00:00|14400|cpu=4,mem=4G|pozidriv|4
9000003|+cmd|@acct|calla|COMPLETED|2016-12-30T08:00:00|2016-12-30T09:00:00|2016-12-30T13:00:00|14400|cpu=4,mem=4G|pozidriv|4
9000004|müller|acct|calla|COMPLETED|2016-12-28T08:00:00|2016-12-28T09:00:00|2016-12-28T13:00:00|14400|cpu=4,mem=4G|pozidriv|4
9000005|müller|acct|calla|COMPLETED|2016-12-29T08:00:00|2016-12-29T09:00:00|2016-12-29T13:00:00|14400|cpu=4,mem=4G|pozidriv|4
9000006|müller|acct|calla|COMPLETED|2016-12-30T08:00:00|2016-12-30T09:00:00|2016-12-30T13:00:00|14400|cpu=4,mem=4G|pozidriv|4
PSV
"$CAPPLAN_BIN" --db "$X" import sacct "$WORK/cmd.psv" >/dev/null || fail "import +cmd jobs"
printf 'institution,gpus,researchers\nETH,400,250\n' >"$WORK/peers.csv"
expect_rc 0 "$CAPPLAN_BIN" --db "$X" import peers "$WORK/peers.csv"
grep -q '1 added' "$WORK/out" || fail "import peers: $(cat "$WORK/out")"
printf 'institution,gpus,researchers\nX,lots,2\n' >"$WORK/bad.csv"
expect_rc 1 "$CAPPLAN_BIN" --db "$X" import peers "$WORK/bad.csv"
grep -q 'bad.csv:2: field gpus' "$WORK/err" || fail "bad peers: $(cat "$WORK/err")"
printf 'model,mem_gib,relative_speed,tdp_w,price\nH100 SXM,80,5,700,30000\nL4,24,0.9,,\n' >"$WORK/cat.csv"
expect_rc 0 "$CAPPLAN_BIN" --db "$X" import catalog "$WORK/cat.csv"
grep -q '2 rows read, 2 added, 0 updated, 0 unchanged, 0 rejected' "$WORK/out" || fail "import catalog: $(cat "$WORK/out")"
expect_rc 0 "$CAPPLAN_BIN" --db "$X" import catalog "$WORK/cat.csv"
grep -q '0 added, 0 updated, 2 unchanged' "$WORK/out" || fail "catalog again: $(cat "$WORK/out")"
printf 'model,mem_gib,relative_speed,tdp_w,price\nB200,192,8,1000,lots\n' >"$WORK/badcat.csv"
expect_rc 1 "$CAPPLAN_BIN" --db "$X" import catalog "$WORK/badcat.csv"
grep -q "badcat.csv:2: field price: bad number 'lots'" "$WORK/err" || fail "bad catalog: $(cat "$WORK/err")"
[ "$(sqlite3 "$X" 'select group_concat(model) from gpu_catalog order by model')" = "H100 SXM,L4" ] \
    || fail "catalog table: $(sqlite3 "$X" 'select * from gpu_catalog')"
check_report "$X" "$WORK/x"
grep -q '^| H100 SXM | 80 | 5.00 | 700 | 30000 |$' "$WORK/x/report.md" || fail "catalog not in the report"
grep -q '^| L4 | 24 | 0.90 | n/a | n/a |$' "$WORK/x/report.md" || fail "catalog L4 not in the report"
grep -q '^| Model | Memory (GiB) | Relative speed | TDP (W) | Price per GPU (EUR) |$' "$WORK/x/report.md" \
    || fail "catalog titles"
grep -q 'HYPERLINK' "$WORK/x/report.md" || fail "group missing from the report"
grep -q '^| ETH |' "$WORK/x/report.md" && fail "--peers FILE must replace the table's peers"
expect_rc 0 "$CAPPLAN_BIN" --db "$X" export "$WORK/x/tab.md"
grep -q '^| ETH | 400 | 250 | 1.600 |' "$WORK/x/tab.md" || fail "peers table not used"
grep -q '^| Institution | GPUs | Researchers (people) | GPUs per researcher |' "$WORK/x/tab.md" \
    || fail "peers: units not in the titles"
check_csv "$X" "$WORK/x"
grep -q "\"'=HYPERLINK(\"\"x\"\")\"" "$WORK/x/csv/groups.csv" || fail "group not neutralised: $(cat "$WORK/x/csv/groups.csv")"
grep -q "^\"'+cmd\"," "$WORK/x/csv/students.csv" || fail "user not neutralised: $(cat "$WORK/x/csv/students.csv")"
grep -q '=HYPERLINK' "$WORK/x/csv/usage_by_group_month.csv" || fail "group missing from usage_by_group_month"

grep -q '^müller,' "$WORK/x/csv/students.csv" || fail "müller not in students.csv"

# ---- the workbook, read back against the CSV files of the same database
expect_rc 0 "$CAPPLAN_BIN" --db "$X" export "$WORK/x/budget.xlsx" --csv "$WORK/x/bom" --bom
python3 - "$WORK/x" <<'PY' || fail "budget.xlsx"
import csv, datetime, os, sys, openpyxl
d = sys.argv[1]
order = ['groups', 'students', 'profiles', 'projection', 'usage_by_group', 'usage_by_month',
         'usage_by_month_all', 'usage_by_group_month', 'preemption', 'preemption_all', 'waits',
         'waits_all', 'catalog', 'purchase']
totals = {'groups': ['people_now'], 'students': ['jobs', 'gpu_hours'], 'profiles': ['members'],
          'usage_by_group': ['gpu_hours', 'share_pct', 'jobs'],
          'purchase': ['gpus', 'cost', 'power_kw']}
wb = openpyxl.load_workbook(d + '/budget.xlsx')
vals = openpyxl.load_workbook(d + '/budget.xlsx', data_only=True)
assert wb.sheetnames == ['about'] + order, wb.sheetnames
about = {r[0].value: r[1].value for r in wb['about'].iter_rows()}
assert about['Scenario'] == 'base' and about['Projection years'] == '3', about
for name in order:
    ws = wb[name]
    rows = list(csv.reader(open('%s/csv/%s.csv' % (d, name), newline='', encoding='utf-8')))
    assert open('%s/bom/%s.csv' % (d, name), 'rb').read() == b'\xef\xbb\xbf' + \
        open('%s/csv/%s.csv' % (d, name), 'rb').read(), name
    assert ws.freeze_panes == 'A2', (name, ws.freeze_panes)
    head = [c.value for c in ws[1]]
    assert head == rows[0], (name, head)
    assert all(c.font.b for c in ws[1])
    for i, r in enumerate(rows[1:], 2):
        for j, v in enumerate(r):
            c = ws.cell(i, j + 1)
            if v == '':
                assert c.value is None, (name, i, j, c.value)
                continue
            assert c.data_type != 'f', (name, c.coordinate)  # no formula from data
            col = [x[j] for x in rows[1:] if x[j] != '']
            try:
                nums = [float(x) for x in col]
            except ValueError:
                nums = None
            if nums is not None:
                assert c.data_type == 'n' and abs(c.value - float(v)) <= 1e-9 * max(1, abs(float(v))), (name, c.coordinate, v, c.value)
                assert c.number_format in ('0', '#,##0', '#,##0.0', '#,##0.00', '0.0000'), c.number_format
                if all(x == int(x) for x in nums):
                    # years and quarters plain (2021, not 2,021), other counts with separators
                    plain = rows[0][j] in ('year', 'period', 'quarter') or rows[0][j].endswith('_year')
                    assert c.number_format == ('0' if plain else '#,##0'), (name, rows[0][j], c.number_format)
                elif rows[0][j].endswith('_pct'):
                    assert c.number_format == '#,##0.0', (name, rows[0][j], c.number_format)
            elif all(len(x) == 10 and x[4] == '-' and x[7] == '-' for x in col):
                assert c.is_date and c.value.date().isoformat() == v, (name, c.coordinate, v)
            else:
                want = v[1:] if v[:2] in ("'=", "'+", "'-", "'@") else v
                assert c.data_type == 's' and c.value == want, (name, c.coordinate, v, c.value)
    # the totals: SUM formulas under the columns a budget office adds, cached values right
    n = len(rows)
    formulas = [(c.coordinate, c.value) for row in ws.iter_rows() for c in row if c.data_type == 'f']
    want = []
    for key in totals.get(name, []):
        j = rows[0].index(key)
        letter = openpyxl.utils.get_column_letter(j + 1)
        want.append(('%s%d' % (letter, n + 1), '=SUM(%s2:%s%d)' % (letter, letter, n)))
        s = sum(float(r[j]) for r in rows[1:] if r[j] != '')
        got = vals[name]['%s%d' % (letter, n + 1)].value
        assert abs(got - s) <= 1e-6 * max(1, abs(s)), (name, key, got, s)
    assert sorted(formulas) == sorted(want), (name, formulas, want)
    if want:
        assert ws.cell(n + 1, 1).value == 'total'
PY
if command -v soffice >/dev/null 2>&1; then
    mkdir -p "$WORK/lo"
    # LibreOffice opens the workbook and recalculates the totals to the same sums
    HOME="$WORK/lo" soffice --headless --convert-to \
        'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1' \
        --outdir "$WORK/lo" "$WORK/x/budget.xlsx" >"$WORK/lo/log" 2>&1 || fail "soffice xlsx: $(cat "$WORK/lo/log")"
    python3 - "$WORK" <<'PY' || fail "LibreOffice's totals"
import csv, sys
w = sys.argv[1]
for name, keys in [('groups', ['people_now']), ('students', ['jobs', 'gpu_hours'])]:
    lo = list(csv.reader(open('%s/lo/budget-%s.csv' % (w, name), encoding='utf-8')))
    src = list(csv.reader(open('%s/x/csv/%s.csv' % (w, name), encoding='utf-8')))
    assert lo[-1][0] == 'total' and len(lo) == len(src) + 1, (name, lo[-1])
    for k in keys:
        j = src[0].index(k)
        s = sum(float(r[j]) for r in src[1:] if r[j])
        assert abs(float(lo[-1][j]) - s) <= 1e-6 * max(1, s), (name, k, lo[-1][j], s)
PY
    # müller: the workbook holds Unicode text, LibreOffice reads it as it is
    grep -q '^müller,' "$WORK/lo/budget-students.csv" || fail "LibreOffice lost müller in budget.xlsx"
    # the --bom CSV read as UTF-8: müller, and the header's first name stays 'user' (the
    # mark is not glued to it). LibreOffice 7.4 does not itself act on the mark: without
    # the charset it reads mÃ¼ller from either file (the README says so).
    HOME="$WORK/lo" soffice --headless --infilter='CSV:44,34,76' --convert-to xlsx \
        --outdir "$WORK/lo" "$WORK/x/bom/students.csv" >"$WORK/lo/log" 2>&1 \
        || fail "soffice bom: $(cat "$WORK/lo/log")"
    python3 -c "
import openpyxl, sys
ws = openpyxl.load_workbook(sys.argv[1]).active
users = [r[0].value for r in ws.iter_rows(min_row=2)]
assert 'müller' in users and not [u for u in users if 'Ã' in str(u)], users
assert ws['A1'].value == 'user', repr(ws['A1'].value)
" "$WORK/lo/students.xlsx" || fail "LibreOffice did not read müller from the --bom CSV"
fi

# ---- LibreOffice: the neutralised cells stay text, no formula
if command -v soffice >/dev/null 2>&1; then
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
