#!/bin/sh
# capplan meetings through the command line, on the demo database: the
# meetings CSV and the stated-needs CSV round trip (export, edit, import,
# export again), bad input refused with one line and the database
# unchanged (sha256), whom to ask and the mismatch list checked against an
# independent computation in python3 from `capplan profile --json`, and a
# stated need applied to a scenario, then undone.
. "$(dirname "$0")/lib.sh"
export CAPPLAN_TODAY=2026-11-25

expect_rc 0 cap meetings --help
grep -q 'import-needs' "$WORK/out" || fail "meetings --help"
expect_rc 2 cap meetings
expect_rc 2 cap meetings frobnicate
expect_rc 2 cap meetings pick --per-group 4
expect_rc 2 cap meetings export

expect_rc 0 cap demo --no-tui --seed 7 --jobs 20000 --today 2026-11-25
expect_rc 0 cap profile
expect_rc 0 cap profile --json
cp "$WORK/out" "$WORK/profile.json"

# ---- the meetings CSV round trip
cat >"$WORK/plan.csv" <<'CSV'
group,date,attendees,status
tanaka-lab,2026-11-12,ktanaka;cwang;lduarte;igomez,held
okafor-lab,2027-01-15,lokafor;olaurent,planned
haddad-lab,2027-01-20,,planned
CSV
expect_rc 0 cap meetings import "$WORK/plan.csv"
grep -q '3 meetings imported' "$WORK/out" || fail "import: $(cat "$WORK/out")"
expect_rc 0 cap meetings export "$WORK/e1.csv"
sed -e 's/haddad-lab,2027-01-20,,planned/haddad-lab,2027-01-20,uhaddad;ilopez,planned/' \
    -e 's/okafor-lab,2027-01-15,lokafor;olaurent,planned/okafor-lab,2027-01-15,lokafor;olaurent,cancelled/' \
    "$WORK/e1.csv" >"$WORK/e1-edited.csv"
cmp -s "$WORK/e1.csv" "$WORK/e1-edited.csv" && fail "sed changed nothing"
expect_rc 0 cap meetings import "$WORK/e1-edited.csv"
expect_rc 0 cap meetings export "$WORK/e2.csv"
cmp -s "$WORK/e1-edited.csv" "$WORK/e2.csv" || { diff "$WORK/e1-edited.csv" "$WORK/e2.csv"; fail "meetings round trip"; }
expect_rc 0 cap meetings list --json
python3 -c "
import json,sys
d=json.load(open('$WORK/out'))
m={(x['group'],x['date']):x for x in d['meetings']}
assert m[('haddad-lab','2027-01-20')]['attendees']=='uhaddad;ilopez', m
assert m[('okafor-lab','2027-01-15')]['status']=='cancelled'
# met: tanaka-lab's held meeting, and the six groups with the demo's meeting notes
assert 'tanaka-lab' not in d['to_meet'] and 'haddad-lab' not in d['to_meet'] and len(d['to_meet'])==19, d['to_meet']
" || fail "meetings list --json"

# ---- the stated-needs CSV round trip (a text with a comma, a quote, a leading '=')
expect_rc 0 cap meetings export-needs "$WORK/n1.csv"
[ "$(wc -l <"$WORK/n1.csv")" -eq 19 ] || fail "18 stated needs expected"
python3 - "$WORK/n1.csv" "$WORK/n1-edited.csv" <<'PY'
import csv,sys
rows=list(csv.reader(open(sys.argv[1],newline='')))
for r in rows[1:]:
    if r[0]=='lduarte':
        r[3]='1.5'; r[9]='=SUM(A1) "quoted", and more'
rows.append(['pnakamura','alvarez-lab','2026-11-20','0.5','24','3','','','','asked in the corridor'])
w=csv.writer(open(sys.argv[2],'w',newline=''),lineterminator='\r\n')
for r in rows: w.writerow(r)
PY
expect_rc 0 cap meetings import "$WORK/n1-edited.csv"
grep -q '19 stated needs imported' "$WORK/out" || fail "needs import: $(cat "$WORK/out")"
expect_rc 0 cap meetings export-needs "$WORK/n2.csv"
python3 - "$WORK/n1-edited.csv" "$WORK/n2.csv" <<'PY' || fail "needs round trip"
import csv,sys
def rows(p):
    r=list(csv.reader(open(p,newline='')))
    return [r[0]]+sorted(r[1:])
a,b=rows(sys.argv[1]),rows(sys.argv[2])
# what python wrote raw is read back neutralised (a leading '), the rest equal
fix=lambda r:[c[1:] if c.startswith("'=") else c for c in r]
assert [fix(r) for r in a]==[fix(r) for r in b], (a,b)
assert any(c.startswith("'=SUM") for r in b for c in r), "formula not neutralised"
PY
expect_rc 0 cap meetings import-needs "$WORK/n2.csv"
expect_rc 0 cap meetings export-needs "$WORK/n3.csv"
cmp -s "$WORK/n2.csv" "$WORK/n3.csv" || fail "needs export, import, export: not identical"

# ---- bad input: one line naming file, line and field; exit 1; db unchanged
before=$(sha256sum "$WORK/t.db" | cut -d' ' -f1)
bad() { # bad NAME 'CSV text' 'expected message'
    printf '%s\n' "$2" >"$WORK/$1.csv"
    expect_rc 1 cap meetings import "$WORK/$1.csv"
    [ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "$1: not one line: $(cat "$WORK/err")"
    grep -qF "capplan: $WORK/$1.csv:$3" "$WORK/err" || fail "$1: $(cat "$WORK/err")"
    [ "$(sha256sum "$WORK/t.db" | cut -d' ' -f1)" = "$before" ] || fail "$1 changed the db"
}
bad badgroup 'group,date,attendees,status
tanaka-lab,2027-03-01,,planned
no-such-lab,2027-03-02,,planned' "3: field group: unknown group 'no-such-lab'"
bad baduser 'group,date,attendees,status
tanaka-lab,2027-03-01,cwang;ghost7,planned' "2: field attendees: unknown user 'ghost7'"
bad past 'group,date,attendees,status
tanaka-lab,2027-03-01,,planned
costa-lab,2025-01-01,,planned' "3: field date: 2025-01-01 is in the past for a planned meeting"
bad heldfuture 'group,date,attendees,status
costa-lab,2030-01-01,,held' "2: field date: 2030-01-01 is in the future for a held meeting"
bad width 'group,date,attendees,status
costa-lab,2027-01-01,,planned,extra' "2: expected 4 fields as in the header, found 5"
bad status 'group,date,attendees,status
costa-lab,2027-01-01,,maybe' "2: field status: 'maybe' is not planned, held or cancelled"
bad baddate 'group,date,attendees,status
costa-lab,2027-02-30,,planned' "2: field date: '2027-02-30' is not a date (YYYY-MM-DD)"
bad neg 'user,group,date,gpus_fulltime,gpu_mem_class_gib,typical_hours,burst_per_month,burst_gpus,burst_hours,text
cwang,tanaka-lab,2026-11-20,3,80,,,,,fine
lduarte,tanaka-lab,2026-11-20,-1,24,,,,,' "3: field gpus_fulltime: negative GPU count '-1'"
bad needgroup 'user,group,date,gpus_fulltime
cwang,okafor-lab,2026-11-20,1' "2: field group: cwang is not in okafor-lab"
bad needfuture 'user,group,date,gpus_fulltime
cwang,tanaka-lab,2030-01-01,1' "2: field date: 2030-01-01 is in the future for a stated need"
bad needuser 'user,group,date,gpus_fulltime
nobody9,tanaka-lab,2026-11-20,1' "2: field user: unknown user 'nobody9'"
bad nan 'user,group,date,gpus_fulltime,burst_gpus
cwang,tanaka-lab,2026-11-20,1,four' "2: field burst_gpus: not a number 'four'"
expect_rc 1 cap meetings import "$WORK/does-not-exist.csv"
[ "$(sha256sum "$WORK/t.db" | cut -d' ' -f1)" = "$before" ] || fail "db changed"

# ---- whom to ask, against python3 over profile --json
expect_rc 0 cap meetings pick --json
cp "$WORK/out" "$WORK/pick.json"
expect_rc 0 cap meetings pick --per-group 3
grep -q 'students to invite' "$WORK/out" || fail "pick text"
expect_rc 0 cap meetings pick --per-group 2 --json
python3 - "$WORK/profile.json" "$WORK/pick.json" "$WORK/t.db" <<'PY' || fail "pick against python3"
import json,sys,math,sqlite3
prof=json.load(open(sys.argv[1])); pick=json.load(open(sys.argv[2]))
cent={p['id']:p['centroid_z'] for p in prof['profiles']}
# issue 16: nobody whose roster end is past at the window's end (no row in
# force then, and one that started and ended)
t0=prof['window']['end']
rows={}
for user,start,end in sqlite3.connect(sys.argv[3]).execute('select user,start_date,end_date from people'):
    rows.setdefault(user,[]).append((start,end))
def gone(user):
    r=rows.get(user,[])
    started=[(a,b) for a,b in r if a is None or a<=t0]
    if any(b is None or b>t0 for a,b in started): return False
    return len(started)>0
by={}
for u in prof['user_features']:
    if u['profile'] is None or u['z'] is None or u['jobs']<prof['min_jobs']: continue
    if u['role'] in ('professor','staff'): continue
    if gone(u['user']): continue
    d=math.dist(u['z'],cent[u['profile']])
    by.setdefault((u['group'],u['profile']),[]).append((d,u['user']))
want=[]
for (g,p),v in by.items():
    v.sort()
    for r,(d,name) in enumerate(v[:2]):
        want.append((g,p,r+1,name,round(d,9),len(v)))
got=[(x['group'],x['profile'],x['rank'],x['user'],round(x['distance'],9),x['of']) for x in pick['picks']]
assert sorted(want)==sorted(got), (sorted(set(want)^set(got)))
assert len(got)>20
PY

# ---- mismatches, against python3 over profile --json and the stated needs
expect_rc 0 cap meetings mismatches --json
cp "$WORK/out" "$WORK/mm.json"
sqlite3 -csv "$WORK/t.db" 'select user,group_name,date,gpus_fulltime,gpu_mem_class_gib from stated_needs' >"$WORK/needs.csv" 2>/dev/null \
    || cp "$WORK/n3.csv" "$WORK/needs.csv"
python3 - "$WORK/profile.json" "$WORK/mm.json" "$WORK/n3.csv" <<'PY' || fail "mismatches against python3"
import json,sys,csv
prof=json.load(open(sys.argv[1])); mm=json.load(open(sys.argv[2]))
users={u['user']:u for u in prof['user_features']}
latest={}
for r in list(csv.DictReader(open(sys.argv[3],newline=''))):
    k=(r['user'],r['group'])
    if k not in latest or r['date']>latest[k]['date']: latest[k]=r
def cls(g): return 0 if g<=24 else 1 if g<=48 else 2 if g<=80 else 3
want={}
for (u,g),r in latest.items():
    f=users.get(u)
    used=f['raw']['conc_mean'] if f else 0.0
    s=float(r['gpus_fulltime']) if r['gpus_fulltime'] else None
    off=s is not None and abs(s-used)>0.5 and (used<=0 or abs(s-used)/used>0.5)
    mem=f['raw']['mem_gib'] if f else None
    sm=float(r['gpu_mem_class_gib']) if r['gpu_mem_class_gib'] else None
    moff=sm is not None and mem is not None and cls(sm)!=cls(mem)
    want[(u,g)]=(off,moff,round(used,9))
got={(x['user'],x['group']):(x['gpus_off'],x['mem_off'],round(x['measured_gpus'],9)) for x in mm['students']}
assert want==got, {k:(want.get(k),got.get(k)) for k in set(want)|set(got) if want.get(k)!=got.get(k)}
# the demo's known differences: the six "needs 2 GPUs of the 80 GB class" students
says2={u for (u,g),r in latest.items() if r['gpus_fulltime']=='2'}
assert len(says2)==6 and all(got[(u,g)][0] for (u,g) in got if u in says2)
offs=sorted(u for (u,g),v in got.items() if v[0])
print('gpus off:', ' '.join(offs))
PY
expect_rc 0 cap meetings mismatches
grep -q '^tanaka-lab *cwang .* 2 *0\.30 !=' "$WORK/out" || fail "mismatch text: $(cat "$WORK/out")"

# ---- apply a stated need to a scenario, then undo
expect_rc 0 cap project --json
cp "$WORK/out" "$WORK/p0.json"
expect_rc 0 cap meetings apply cwang --scenario plan-2027 --reason "professor agrees"
grep -q 'plan-2027 (new): gpus\.2 of tanaka-lab = 2 (measured' "$WORK/out" || fail "apply: $(cat "$WORK/out")"
expect_rc 0 cap scenario diff base plan-2027
grep -q 'stated by cwang (tanaka-lab, 2026-11-12)' "$WORK/out" || fail "diff: $(cat "$WORK/out")"
expect_rc 0 cap project --scenario plan-2027 --json
cp "$WORK/out" "$WORK/p1.json"
cmp -s "$WORK/p0.json" "$WORK/p1.json" && fail "apply changed nothing in the projection"
# tanaka-lab's own P2 value is 2 and its demand moved; every other group as before
python3 -c "
import json
a={g['name']: g for g in json.load(open('$WORK/p0.json'))['groups']}
b={g['name']: g for g in json.load(open('$WORK/p1.json'))['groups']}
t=b['tanaka-lab']
assert t['params']['gpus'][1] == {'value': 2, 'measured': a['tanaka-lab']['params']['gpus'][1]['value'], 'edited': True}, t['params']['gpus']
assert t['years'][0]['demand'] > a['tanaka-lab']['years'][0]['demand']
for n in a:
    if n != 'tanaka-lab':
        assert a[n]['years'] == b[n]['years'], n
        assert not any(x['edited'] for x in b[n]['params']['gpus']), n
" || fail "apply reached other groups, or not tanaka-lab's"
expect_rc 0 cap scenario undo plan-2027
expect_rc 0 cap project --scenario plan-2027 --json
python3 -c "
import json
a=json.load(open('$WORK/p0.json')); b=json.load(open('$WORK/out'))
a.pop('scenario',None); b.pop('scenario',None)
assert a==b
" || fail "undo did not bring the projection back"
expect_rc 1 cap meetings apply ktanaka --scenario plan-2027
grep -q 'no stated GPUs' "$WORK/err" || fail "apply without a stated need"
expect_rc 1 cap meetings apply cwang --scenario base
echo "PASS meetings_cli"
