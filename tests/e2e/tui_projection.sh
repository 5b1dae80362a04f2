#!/bin/sh
# capplan tui: the Projection view (issue 16 item 7) on the demo, read as a
# person sees it and checked against `capplan project --json` and
# `--explain` of the same database: calendar years (not y1-y3); a chart of
# used now and the need per year on one GPU-eq scale with its p10-p90 and
# the reference model named; the need in parts for the group and, in a
# table of its own, for the institute, with the people they come from; the
# institute page's past years and capacity line; [ and ] shown as keys;
# 80x24 (Reason folded, the selected row's reason below) and 200x60; ASCII
# and NO_COLOR; presentation mode names nobody.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"

DB="$WORK/demo.db"
"$CAPPLAN_BIN" --db "$DB" demo --today 2026-11-25 --no-tui >/dev/null 2>&1 || fail "capplan demo"
"$CAPPLAN_BIN" --db "$DB" scenario new plan-2027 >/dev/null || fail "scenario new"
"$CAPPLAN_BIN" --db "$DB" project --json >"$WORK/p.json" || fail "project --json"

# check_screen GROUP: the chart and the tables on $WORK/screen against the
# JSON and the explanation (python3 reads both; fmt_gpus and the parts'
# format redone here).
check_screen() {
    "$CAPPLAN_BIN" --db "$DB" project --scenario plan-2027 --explain "$1" >"$WORK/explain" || fail "explain $1"
    python3 - "$WORK" "$1" <<'PY' || { cat "$WORK/screen"; fail "Projection view against project --json/--explain"; }
import json, re, sys
w, group = sys.argv[1], sys.argv[2]
scr, d = open(w + '/screen').read(), json.load(open(w + '/p.json'))
ex = open(w + '/explain').read()
def gpus(v):  # tui/fmt.c fmt_gpus
    a = abs(v)
    return ('0' if a == 0 else '%.2f' % v if a < 0.995 else '%.1f' % v if a < 9.95
            else '%.0f' % v if a < 999.5 else '%.1fk' % (v / 1e3) if a < 9950 else '%.0fk' % (v / 1e3))
def part(v, sign):  # view_projection.c part_text
    a = abs(v); dd = 2 if a < 99.995 else 1 if a < 999.95 else 0
    if sign:
        return '%+.*f' % (dd, 0.0 if a < 0.005 else v)
    return '%.*f' % (dd, v)
years = [int(y['to'][:4]) for y in d['years'][:3]]
assert re.search(r'Mean GPU-eq a year, %s = 1\.0' % d['reference_model'], scr), 'reference model'
assert not re.search(r'\by[123]\b', scr), 'y1-y3 still shown'
g = [x for x in d['groups'] if x['name'] == group][0]['years'][:3]
used_now = float(re.search(r'used now +([0-9.]+) GPU-eq', ex).group(1))
# the chart: used now, then a need (p10-p90) per calendar year
assert re.search(r'^ now .* used now %s GPU-eq' % re.escape(gpus(used_now)), scr, re.M), 'used now bar'
for yn, y in zip(years, g):
    r = y['need_range']
    want = 'need %s (%s-%s) GPU-eq' % (gpus(y['need']), gpus(r['p10']), gpus(r['p90']))
    assert re.search(r'^ %d .*%s' % (yn, re.escape(want)), scr, re.M), (yn, want)
# the group's table: header, years, every part, their sum
top = scr.split('Institute: need next year')[0]
assert 'Institute' not in top.split('Need in parts')[-1], 'institute row in the group table'
hd = 'need %s, used now %s GPU-eq' % (gpus(g[0]['need']), gpus(used_now))
assert hd in top or '%s: need next year %s GPU-eq, used now %s GPU-eq' % (group, gpus(g[0]['need']), gpus(used_now)) in top, 'header'
assert re.search(r'GPU-eq +%d +%d +%d *$' % tuple(years), top, re.M), 'years header'
rows = [('stayers', 'stayers', 1, 'stayers'), ('leavers', 'leavers', 1, 'leavers'),
        ('new(?:comers)?, ramp [0-9.]+', 'newcomers_use', 1, 'newcomers'),
        ('intensity', 'intensity', 1, 'intensity'), ('pool share', 'pool', 1, 'pool share'),
        ('buffer', 'buffer', 1, 'buffer share'), ('stated need', 'stated', 1, 'stated need'),
        ('= need', 'need', 0, None)]
expl = {k: float(v) for k, v in re.findall(r'^  (stayers|leavers|newcomers|intensity|pool share|buffer share|stated need) +([-+][0-9.]+)', ex, re.M)}
ex_need = float(re.search(r'need ([0-9.]+) GPU-eq', ex).group(1))
for label, key, sign, ek in rows:
    m = re.search(r'^.*  %s[^\n]*? +(\S+) +(\S+) +(\S+) *$' % label.replace('= ', '= '), top, re.M)
    want = tuple(part(y[key], sign) for y in g)
    assert m and m.groups() == want, (label, m and m.groups(), want)
    e = ex_need if ek is None else expl[ek]
    assert abs(float(m.group(1)) - e) < 0.006, (label, m.group(1), e)
    print('PASS-PARTS %-10s %s' % (label, ' '.join(want)))
for label, q in (('need p10', 'p10'), ('need p90', 'p90')):
    m = re.search(r'%s +(\S+) +(\S+) +(\S+)' % label, top)
    want = tuple(part(y['need_range'][q], 0) for y in g)
    assert m and m.groups() == want, (label, m and m.groups(), want)
s = sum(y for k, y in expl.items())
assert abs(s - ex_need) < 0.04 and abs(s - g[0]['need']) < 0.04, ('sum', s, ex_need)
# the people: those named are --explain's, in its order
mem = re.sub(r' and \d+ more$', '', re.search(r'^    members \(\d+\): (.*)$', ex, re.M).group(1)).split()
shown = re.search(r'members \((\d+)\): ([^\n│]*)', top)
# the count agrees with --explain's and with the members today (issue 13)
assert shown.group(1) == re.search(r'^    members \((\d+)\)', ex, re.M).group(1), (shown.group(1), ex)
assert int(shown.group(1)) == round([x for x in d['groups'] if x['name'] == group][0]['heads_now']), shown.group(1)
names = shown.group(2).split()
if names and names[-1].endswith('\u2026'):
    names = names[:-1]  # cut by the panel's edge
assert names and names[:len(mem)] == mem[:len(names)], (names, mem)
print('PASS-PEOPLE', ' '.join(names[:5]))
PY
}

# ---- 80x24
TUI_W=80 TUI_H=24 tui_start "$DB" --scenario plan-2027
keys 5; wait_for "capplan · Projection · scenario plan-2027"
wait_for "Mean GPU-eq a year"
G=$(sed -n '3s/^ \([^ ]*\) · scenario plan-2027 against base.*/\1/p' "$WORK/screen")
[ -n "$G" ] || { cat "$WORK/screen"; fail "no group in the title"; }
grep -qF "keys [ and ]: other group" "$WORK/screen" || fail "[ and ] not shown as keys"
absent "[ ]"
check_screen "$G"
# Narrow: the Reason column folds away; the selected row's reason shows below.
absent " Reason "
grep -q "^ why (head-count growth a year): measured, not edited" "$WORK/screen" || fail "why line"
keys Enter; wait_for "then why (required)"
keys C-u; typ "15 two students join in March"; keys Enter; wait_for "saved to plan-2027"
wait_for " why (head-count growth a year): two students join in March"
"$CAPPLAN_BIN" --db "$DB" project --scenario plan-2027 --json >"$WORK/p.json" || fail "project --json"
check_screen "$G"
# ] another group; the chart and the tables follow it.
keys ]; wait_gone "$G · scenario plan-2027"
G2=$(sed -n '3s/^ \([^ ]*\) · scenario plan-2027 against base.*/\1/p' "$WORK/screen")
[ -n "$G2" ] && [ "$G2" != "$G" ] || fail "] did not move on"
check_screen "$G2"
# The institute's page: from an institute alert of the Overview.
keys 1; wait_for "GiB class short next year"
n=$(grep -n "GiB class short next year" "$WORK/screen" | head -1 | cut -d: -f1)
first=$(grep -n "^!" "$WORK/screen" | sed -n 2p | cut -d: -f1)
keys g; i=$first; while [ "$i" -lt "$n" ]; do keys j; i=$((i + 1)); done
keys Enter; wait_for "Institute · scenario plan-2027 · keys [ and ]: back to a group"
wait_for "Institute: need next year"
cp "$WORK/screen" "$WORK/institute80"
python3 - "$WORK" <<'PY' || { cat "$WORK/institute80"; fail "institute page against project --json"; }
import json, re, sys
w = sys.argv[1]
scr, d = open(w + '/institute80').read(), json.load(open(w + '/p.json'))
def gpus(v):  # tui/fmt.c fmt_gpus
    a = abs(v)
    return ('0' if a == 0 else '%.2f' % v if a < 0.995 else '%.1f' % v if a < 9.95
            else '%.0f' % v if a < 999.5 else '%.1fk' % (v / 1e3) if a < 9950 else '%.0fk' % (v / 1e3))
def part(v, sign):
    a = abs(v); dd = 2 if a < 99.995 else 1 if a < 999.95 else 0
    return '%+.*f' % (dd, 0.0 if a < 0.005 else v) if sign else '%.*f' % (dd, v)
t = d['total'][:3]
years = [int(y['to'][:4]) for y in d['years'][:3]]
# past years: used of capacity, as project --json's past_years
past = [p for p in d['past_years'] if p['year'] < years[0]]
shown = re.findall(r'^ (\d{4}) .*used (\S+) of (\S+) GPU-eq', scr, re.M)
assert shown, 'no past year'
for yr, u, c in shown:
    p = [x for x in past if x['year'] == int(yr)][0]
    assert (u, c) == (gpus(p['used']), gpus(p['capacity'])), (yr, u, c, p)
for yn, y in zip(years, t):
    want = 'need %s (%s-%s) of %s GPU-eq' % (gpus(y['need']), gpus(y['need_range']['p10']),
                                            gpus(y['need_range']['p90']), gpus(y['capacity']))
    assert re.search(r'^ %d .*\u2502.*%s' % (yn, re.escape(want)), scr, re.M), want
# the institute's parts: the groups' stayers and leavers summed, newcomers
# and intensity the rest of expected use, the shared pool, the buffer
gs = [x['years'][:3] for x in d['groups']]
cols = {}
for label in ('stayers', 'leavers', 'newcomers', 'intensity', 'pool share', 'buffer', 'stated need', '= need', 'need p10', 'need p90'):
    m = re.search(r'^ *%s[^\n]*? +(\S+) +(\S+) +(\S+) *$' % re.escape(label), scr, re.M)
    assert m, label
    cols[label] = [float(v) for v in m.groups()]
for i, y in enumerate(t):
    st = sum(g[i]['stayers'] for g in gs); lv = sum(g[i]['leavers'] for g in gs)
    assert cols['stayers'][i] == float(part(st, 1)), ('stayers', i)
    assert cols['leavers'][i] == float(part(lv, 1)), ('leavers', i)
    rest = y['expected_use'] - st - lv
    assert abs(cols['newcomers'][i] + cols['intensity'][i] - rest) < 0.2, ('newcomers+intensity', i)
    assert cols['pool share'][i] == float(part(y['pool'], 1)), ('pool', i)
    assert cols['buffer'][i] == float(part(y['buffer'], 1)), ('buffer', i)
    assert cols['stated need'][i] == float(part(y['stated'], 1)), ('stated', i)
    assert cols['= need'][i] == float(part(y['need'], 0)), ('need', i)
    assert cols['need p10'][i] == float(part(y['need_range']['p10'], 0))
    assert cols['need p90'][i] == float(part(y['need_range']['p90'], 0))
    s = sum(cols[k][i] for k in ('stayers', 'leavers', 'newcomers', 'intensity', 'pool share', 'buffer', 'stated need'))
    assert abs(s - y['need']) < 0.3, ('sum', i, s, y['need'])
for g in d['groups']:  # no group's row in the institute's table
    assert not re.search(r'^ *%s\b' % re.escape(g['name']), scr, re.M), g['name']
print('PASS-INSTITUTE', ' '.join('%g' % v for v in cols['= need']))
PY
absent "other group"
keys ]; wait_for "keys [ and ]: other group"
tui_quit

# ---- 200x60: the Reason column whole, the institute's table of its own below the group's
TUI_W=200 TUI_H=60 tui_start "$DB" --scenario plan-2027
keys 5; wait_for "Mean GPU-eq a year"; wait_for "Institute: need next year"
grep -q "^Parameter .* Reason " "$WORK/screen" || fail "Reason column at 200 columns"
grep -q "head-count growth a year .* 15%\* *two students join in March" "$WORK/screen" \
    || { cat "$WORK/screen"; fail "reason whole at 200 columns"; }
G=$(sed -n '3s/^ \([^ ]*\) · scenario plan-2027 against base.*/\1/p' "$WORK/screen")
check_screen "$G"
# the group's table comes first, the institute's after it, each with its header
gl=$(grep -n "$G: need next year" "$WORK/screen" | cut -d: -f1)
il=$(grep -n "Institute: need next year" "$WORK/screen" | cut -d: -f1)
[ "$gl" -lt "$il" ] || fail "tables' order"
[ "$(grep -c "Need in parts, GPU-eq" "$WORK/screen")" = 2 ] || fail "two tables, two headers"
# Presentation mode: no person or group named, people as pseudonyms.
keys a; wait_for "members ("
screen
python3 - "$WORK" <<'PY' || { cat "$WORK/screen"; fail "a name shown in presentation mode"; }
import json, re, sys
w = sys.argv[1]
scr, d = open(w + '/screen').read(), json.load(open(w + '/p.json'))
for g in d['groups']:
    assert g['name'] not in scr, g['name']
ex = open(w + '/explain').read()
for n in re.sub(r' and \d+ more$', '', re.search(r'^    members \(\d+\): (.*)$', ex, re.M).group(1)).split():
    assert not re.search(r'\b%s\b' % re.escape(n), scr), n
assert re.search(r'members \(\d+\): user-[a-z2-9]{6}', scr), 'pseudonyms'
print('PASS-REDACT')
PY
tui_quit

# ---- ASCII and NO_COLOR
TUI_W=80 TUI_H=24 TUI_ENV="LC_ALL=C NO_COLOR=1" tui_start "$DB"
keys 5; wait_for "Mean GPU-eq a year"
LC_ALL=C grep -q '[^ -~]' "$WORK/screen" && { cat "$WORK/screen"; fail "non-ASCII on an ASCII terminal"; }
grep -q "^ now   #" "$WORK/screen" || fail "ASCII bars"
grep -q "^ 20[0-9][0-9]  #*[+]*:" "$WORK/screen" || { cat "$WORK/screen"; fail "ASCII band"; }
tm capture-pane -p -e -t 0 >"$WORK/attrs"
grep -qE "$(printf '\033')\\[([0-9]+;)*(3[0-7]|4[0-7]|38;5|48;5)(;[0-9]+)*m" "$WORK/attrs" \
    && fail "colours despite NO_COLOR"
tui_quit
echo "PASS tui_projection"
