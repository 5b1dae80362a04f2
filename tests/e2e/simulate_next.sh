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
j() { python3 -c "import json,sys; d=json.load(open('$WORK/n.json')); print($1)"; }

expect_rc 0 cap demo --today 2026-11-25
expect_rc 0 cap simulate --json
cp "$WORK/out" "$WORK/n.json"
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
from=$(j "d['last_year_from']")
to=$(python3 -c "import datetime as t; print(t.date.fromisoformat('$(j "d['next_year_from']")') - t.timedelta(days=1))")
cap simulate --replay --from "$from" --to "$to" --json >"$WORK/r.json" || fail "replay"
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
# one answer: the report's decision page and purchase.csv (the workbook's purchase sheet
# is purchase.csv, checked in report_cli.sh) carry simulate --json's purchase
mkdir -p "$WORK/rep"
expect_rc 0 cap export "$WORK/rep/report.md" --csv "$WORK/rep/csv"
python3 - "$WORK/n.json" "$WORK/rep" <<'EOF' || fail "report, purchase.csv and simulate --json differ"
import csv, json, sys
n, d = json.load(open(sys.argv[1])), sys.argv[2]
p = n['purchase']
md = open(d + '/report.md', encoding='utf-8').read()
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
EOF
# fixed seeds: the same answer twice
cap simulate --json >"$WORK/n2.json" || fail "second run"
cmp -s "$WORK/n.json" "$WORK/n2.json" || fail "two runs differ"
# the text: buy nothing and the recommendation
expect_rc 0 cap simulate
grep -q '^Buy nothing: p90 wait ' "$WORK/out" || fail "text: $(cat "$WORK/out")"
grep -q "^Recommendation: buy $(j "d['purchase']['count']") $m " "$WORK/out" || fail "text: $(cat "$WORK/out")"
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
echo "PASS: simulate_next"
