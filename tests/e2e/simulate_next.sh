#!/bin/sh
# capplan simulate (#33): next year's queue on the demo (its last 12 months
# resampled to the forecaster's expected use), buy nothing beside the
# cheapest purchase from the catalog; the reference catalog by default, an
# imported one replaces it; never a model outside it, never a retired one.
# A CPU-only log gets no GPU purchase. Figures checked here: python3 over
# the JSON (the purchase's own waits meet the target; the target is the
# recorded p90 that --replay computes over the same 12 months).
. "$(dirname "$0")/lib.sh"
need_shared
# a python3 with openpyxl (Debian: python3-openpyxl), the first on PATH may lack it
PY=""
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import openpyxl' 2>/dev/null; then PY=$(command -v "$p"); break; fi
done
[ -n "$PY" ] || fail "no python3 with openpyxl (apt-get install python3-openpyxl)"
python3() { "$PY" "$@"; }
j() { python3 -c "import json,sys; d=json.load(open('$WORK/n.json')); print($1)"; }

expect_rc 0 cap demo --jobs 20000 --seed 7 --today 2026-11-25
expect_rc 0 cap simulate --json
cp "$WORK/out" "$WORK/n.json"
# FCFS by default; --order fairshare orders by the demo's allocations (5 of 25 groups):
# the same jobs drawn, other waits (buy nothing's median p90 2.74 h -> 2.69 h)
[ "$(j "d['order'], d['jobs_next'], round(d['buy_nothing']['p90_h']['median'], 2)")" = "fcfs 4312 2.74" ] \
    || fail "fcfs: $(j "d['order'], d['jobs_next'], d['buy_nothing']")"
cap simulate --order fairshare --json >"$WORK/fs.json" || fail "simulate --order fairshare"
python3 -c "import json; d=json.load(open('$WORK/fs.json')); print(d['order'], d['jobs_next'], round(d['buy_nothing']['p90_h']['median'], 2))" >"$WORK/fs"
[ "$(cat "$WORK/fs")" = "fairshare 4312 2.69" ] || fail "fair share next year: $(cat "$WORK/fs")"
# the reference catalog's models, from the file shipped with capplan
REF="$(cd "$(dirname "$0")/../.." && pwd)/data/ingest/catalog_ref.csv"
models=$(grep -v '^#' "$REF" | tail -n +2 | cut -d, -f1 | tr '\n' ' ')
[ "$(j "d['catalog']")" = "reference 2026-11" ] || fail "catalog: $(j "d['catalog']")"
m=$(j "d['purchase']['model']")
case " $models " in *" $m "*) ;; *) fail "purchase $m is not in the reference catalog ($models)" ;; esac
# a retired model (the inventory's v100 with a to_date in the past) is never bought, nor any
# model of the inventory that the catalog does not list
for inv in $(sqlite3 "$WORK/t.db" "SELECT DISTINCT gpu_model FROM inventory"); do
    [ "$m" != "$inv" ] || fail "bought an inventory model: $m"
done
# the target is last year's recorded p90, which --replay measures on the same window
# with next year's placement (any GPU with enough memory: the recorded waits are over
# the jobs the replay placed, and which are left queued at its end depends on it)
from=$(j "d['last_year_from']")
to=$(python3 -c "import datetime as t; print(t.date.fromisoformat('$(j "d['next_year_from']")') - t.timedelta(days=1))")
cap simulate --replay --from "$from" --to "$to" --placement any --json >"$WORK/r.json" || fail "replay"
python3 - "$WORK/n.json" "$WORK/r.json" <<'EOF' || fail "target, waits"
import json, sys
n, r = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
# the window: [last_year_from, next_year_from), the replay's the same days
assert abs(n['target_p90_h'] - n['last_year_recorded']['p90_h']) < 1e-9
assert abs(n['last_year_recorded']['p90_h'] - r['recorded']['p90_h']) < 1e-9, (n['last_year_recorded'], r['recorded'])
b, p = n['buy_nothing'], n['purchase']
assert not n['buy_nothing_meets_target'] and b['p90_h']['median'] > n['target_p90_h']
assert p['waits']['p90_h']['median'] <= n['target_p90_h'] < b['p90_h']['median']
assert p['count'] % 4 == 0 and p['count'] == sum(c['gpus'] for c in p['clusters'])
assert 1 <= p['quarter'] <= 4 and p['cost'] is not None
for lo_mid_hi in (b['p90_h'], p['waits']['p90_h']):
    assert lo_mid_hi['low'] <= lo_mid_hi['median'] <= lo_mid_hi['high']
pts = n['capacity_curve']['points']
assert pts[0]['gpus'] == 0 and pts[0]['waits'] == b and len(pts) == 6
assert n['capacity_curve']['model'] == p['model']
assert pts[-1]['waits']['p90_h']['median'] < pts[0]['waits']['p90_h']['median']
EOF
# one answer: the report's decision page and section 1, budget.xlsx's purchase sheet and
# purchase.csv carry simulate --json's purchase; page 1 names no retired model (the
# inventory's models some of whose GPUs left service before today: the demo's v100s of
# 2019-2024, h100s of 2024-2025) and shows no memory class short
# while a bigger class has room (section 1's classes nest)
mkdir -p "$WORK/rep"
expect_rc 0 cap export "$WORK/rep/report.md" --csv "$WORK/rep/csv"
expect_rc 0 cap export "$WORK/rep/budget.xlsx"
sqlite3 "$WORK/t.db" "SELECT DISTINCT gpu_model FROM inventory WHERE to_date < '2026-11-25'" \
    >"$WORK/retired"
[ -s "$WORK/retired" ] || fail "the demo retires no model"
python3 - "$WORK/n.json" "$WORK/rep" "$WORK/retired" <<'EOF' || fail "report, workbook, purchase.csv and simulate --json differ"
import csv, datetime, json, re, sys, openpyxl
n, d = json.load(open(sys.argv[1])), sys.argv[2]
retired = open(sys.argv[3]).read().split()
p = n['purchase']
md = open(d + '/report.md', encoding='utf-8').read()
page1 = md.split('\n## The decision on one page\n', 1)[1].split('\n## 1. ', 1)[0]
for m in retired:
    assert not re.search(r'(?<![\w-])%s(?![\w-])' % re.escape(m), page1), (m, page1)
assert '| Year | To 24 GiB' not in page1 and 'Memory class' not in page1, page1
# section 1: per year the classes 24, 48, 80, 80+ in order; short (> 0) only when no
# bigger class has room (< 0)
sec1 = md.split('\n## 1. ', 1)[1].split('\n## 2. ', 1)[0]
gaps = {}
for line in sec1.split('\n'):
    c = [x.strip() for x in line.split('|')[1:-1]]
    if len(c) == 6 and c[1] in ('24', '48', '80', '80+'):
        gaps.setdefault(c[0], []).append(float(c[4]))
assert gaps and all(len(g) == 4 for g in gaps.values()), gaps
for y, g in gaps.items():
    for k in range(4):
        assert g[k] <= 0 or all(x >= 0 for x in g[k + 1:]), (y, g)
assert '**Recommendation: buy %d %s**' % (p['count'], p['model']) in sec1, sec1
assert 'buy nothing, p90 wait %.1f h' % n['buy_nothing']['p90_h']['median'] in sec1, sec1
page = md.split('### What each option does to waiting', 1)[1].split('\n### ', 1)[0]
assert '| Buy nothing | 0 | 0 | 0.0 | %.1f | %.1f-%.1f | %.1f |' % (
    n['buy_nothing']['p90_h']['median'], n['buy_nothing']['p90_h']['low'],
    n['buy_nothing']['p90_h']['high'], n['buy_nothing']['mean_h']['median']) in page, page
row = '| Buy %s, arriving %s (quarter %d) | %d | %d USD | %.1f | %.1f |' % (
    p['model'], p['arrives'], p['quarter'], p['count'], p['cost'], p['power_kw'],
    p['waits']['p90_h']['median'])
assert row in page, (row, page)
assert '**Recommendation: buy %d %s**' % (p['count'], p['model']) in page
assert '| Last 12 months, recorded |   |   |   | %.1f |' % n['last_year_recorded']['p90_h'] in page
rows = list(csv.DictReader(open(d + '/csv/purchase.csv', newline='', encoding='utf-8')))
assert [(r['model'], r['cluster'], int(r['gpus'])) for r in rows] == \
    [(p['model'], c['cluster'], c['gpus']) for c in p['clusters']], rows
for r in rows:
    assert int(r['quarter']) == p['quarter'] and r['arrives'] == p['arrives']
    assert abs(float(r['p90_wait_with_h']) - p['waits']['p90_h']['median']) < 1e-6
    assert abs(float(r['p90_wait_without_h']) - n['buy_nothing']['p90_h']['median']) < 1e-6
assert abs(sum(float(r['cost']) for r in rows) - p['cost']) < 1e-6
assert abs(sum(float(r['power_kw']) for r in rows) - p['power_kw']) < 1e-6
# budget.xlsx's purchase sheet: the same rows and a SUM total row
ws = openpyxl.load_workbook(d + '/budget.xlsx')['purchase']
head = [c.value for c in ws[1]]
got = [dict(zip(head, [c.value for c in row])) for row in ws.iter_rows(min_row=2)]
assert got[-1]['model'] == 'total' and str(got[-1]['gpus']).startswith('=SUM('), got[-1]
got = got[:-1]
assert [(g['model'], g['cluster'], g['gpus'], g['quarter']) for g in got] == \
    [(p['model'], c['cluster'], c['gpus'], p['quarter']) for c in p['clusters']], got
for g in got:
    assert g['arrives'] == datetime.datetime.fromisoformat(p['arrives']), g
    assert abs(g['p90_wait_with_h'] - p['waits']['p90_h']['median']) < 1e-6, g
    assert abs(g['p90_wait_without_h'] - n['buy_nothing']['p90_h']['median']) < 1e-6, g
assert abs(sum(g['cost'] for g in got) - p['cost']) < 1e-6
assert abs(sum(g['power_kw'] for g in got) - p['power_kw']) < 1e-6
assert ws.cell(2, head.index('quarter') + 1).number_format == '0'  # plain, as years
ws = openpyxl.load_workbook(d + '/budget.xlsx')['waits']
assert ws.cell(2, 1).value == 2021 and ws.cell(2, 1).number_format == '0', ws.cell(2, 1).number_format
EOF
# energy and carbon of the projection in physical GPUs: GPU-eq (project --json's need) /
# the runs' GPU-hour-weighted mean relative speed (computed here with sqlite3 from the jobs
# and the inventory), at the TDP; energy = GPUs x 8760 h x util x TDP x PUE
speed=$(sqlite3 "$WORK/t.db" "SELECT sum(j.gpus * j.elapsed * (SELECT max(i.relative_speed)
    FROM inventory i JOIN clusters c ON c.name = i.cluster WHERE c.id = j.cluster_id
    AND i.gpu_model = j.gpu_type)) / sum(j.gpus * j.elapsed) FROM jobs j WHERE j.gpus > 0
    AND j.elapsed > 0")
cap project --json >"$WORK/p.json" || fail "project --json"
python3 - "$WORK/rep/report.md" "$WORK/p.json" "$speed" <<'EOF' || fail "energy of the projection"
import json, re, sys
md, p, speed = open(sys.argv[1], encoding='utf-8').read(), json.load(open(sys.argv[2])), float(sys.argv[3])
assert 1.5 < speed < 1.8, speed  # the demo's mix of v100 (1.0) to h100 (5.0), by GPU-hours
part = md.split('The projected demand of scenario **base** in physical GPUs', 1)[1]
tbl = part.split('\n\n', 2)[1]  # the table after the paragraph, not the next section's
rows = [[c.strip() for c in l.split('|')[1:-1]] for l in tbl.split('\n') if re.match(r'^\| 20', l)]
assert len(rows) == len(p['total']), rows
for r, t in zip(rows, p['total']):
    eq, gpus, util, tdp, pue, mwh = (float(x) for x in r[1:7])
    assert abs(eq - t['need']) <= 0.05, (r, t['need'])
    assert abs(gpus - t['need'] / speed) <= 0.05 + 1e-3 * gpus, (r, t['need'] / speed)
    assert abs(mwh - gpus * 8760 * util / 100 * tdp * pue / 1e6) <= 0.01 * mwh + 0.1, r
EOF
# fixed seeds: the same answer twice
cap simulate --json >"$WORK/n2.json" || fail "second run"
cmp -s "$WORK/n.json" "$WORK/n2.json" || fail "two runs differ"
# the text: buy nothing and the recommendation
expect_rc 0 cap simulate
grep -q '^Buy nothing: p90 wait ' "$WORK/out" || fail "text: $(cat "$WORK/out")"
grep -q "^Recommendation: buy $(j "d['purchase']['count']") $m " "$WORK/out" || fail "text: $(cat "$WORK/out")"
# project's text names the same answer in one line
expect_rc 0 cap project --simulate
grep -q "^next year simulated (capplan simulate): buy nothing, p90 wait $(j "'%.1f' % d['buy_nothing']['p90_h']['median']") h; recommendation: buy $(j "d['purchase']['count']") $m (quarter $(j "d['purchase']['quarter']")), p90 wait $(j "'%.1f' % d['purchase']['waits']['p90_h']['median']") h; target " "$WORK/out" \
    || fail "project: $(tail -3 "$WORK/out")"
grep -q "purchase model" "$WORK/out" && fail "project still names the inventory's models as purchases"
# a tighter target buys at least as much
expect_rc 0 cap simulate --json --target-wait 1h
cp "$WORK/out" "$WORK/t1.json"
python3 -c "
import json; a, b = json.load(open('$WORK/n.json')), json.load(open('$WORK/t1.json'))
assert b['target_p90_h'] == 1, b['target_p90_h']
assert b['purchase'] is None or b['purchase']['gpu_eq'] >= a['purchase']['gpu_eq'], (a['purchase'], b['purchase'])
" || fail "--target-wait 1h"
expect_rc 2 cap simulate --target-wait soon
# an imported catalog replaces the reference one: only what it lists is bought
printf 'model,mem_gib,relative_speed,tdp_w,price,currency\nsite-gpu,96,3.0,450,20000,EUR\n' >"$WORK/cat.csv"
expect_rc 0 cap import catalog "$WORK/cat.csv"
expect_rc 0 cap simulate --json
cp "$WORK/out" "$WORK/n.json"
[ "$(j "d['catalog'], d['purchase']['model'], d['purchase']['currency']")" = "imported site-gpu EUR" ] \
    || fail "imported catalog: $(j "d['purchase']")"

# ---- a CPU-only log: no GPU purchase ----
rm -f "$WORK/t.db"
expect_rc 0 cap import trace --kind swf "$DATA/swf-pwa/KTH-SP2-1996-2.1-cln.swf"
expect_rc 0 cap simulate
grep -q '^No GPUs: the history holds no GPU job' "$WORK/out" || fail "kth: $(cat "$WORK/out")"
# ---- OSC's CPU-only log: no energy projected in GPUs
rm -f "$WORK/t.db"
expect_rc 0 cap import trace --kind swf "$DATA/swf-pwa-osc-clust/OSC-Clust-2000-3.1-cln.swf"
mkdir -p "$WORK/osc"
expect_rc 0 cap export "$WORK/osc/report.md"
grep -q '^No GPUs: energy not projected' "$WORK/osc/report.md" || fail "osc: energy projected"
grep -q 'The projected demand of scenario' "$WORK/osc/report.md" && fail "osc: a projection table"
echo "PASS: simulate_next"
