#!/bin/sh
# capplan import pubs (BibTeX, research CSV) and capplan research (issue 18):
# the two real lab lists of shared/data/bibtex-lab-publications with their
# rosters, a bad entry's message, and the demo's research lines, planted
# mismatches and agreement figures checked against scikit-learn.
. "$(dirname "$0")/lib.sh"
need_shared
LABS="$DATA/bibtex-lab-publications"

PY=
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import sklearn, numpy' 2>/dev/null; then PY=$p; break; fi
done
[ -n "$PY" ] || fail "no python3 with scikit-learn (apt-get install python3-sklearn)"

# ---- the real lists: capplan's roster wants a start date; fill the empty ones
for lab in aidos-lab mainlp; do
    awk -F, 'BEGIN{OFS=","} NR>1{ if ($5=="") $5="2018-01-01"; else if (length($5)==4) $5=$5"-01-01";
             if (length($6)==4) $6=$6"-12-31" } {print}' "$LABS/$lab-roster.csv" >"$WORK/$lab.csv"
    expect_rc 0 cap import roster "$WORK/$lab.csv"
    expect_rc 0 cap import pubs "$LABS/$lab.bib"
done
grep -q "mainlp.bib: bibtex, 106 rows read, 105 added" "$WORK/out" || fail "mainlp import: $(cat "$WORK/out")"
got=$(json_get "d['research']['author_slots'], d['research']['author_slots_matched'], d['research']['unmatched_authors']")
[ "$got" = "1418 409 621" ] || fail "author matching: $got"
cap status >"$WORK/status" || fail "status"
grep -q '^unmatched *621 authors' "$WORK/status" || fail "status: unmatched line"
grep -q '^  Borgwardt, Karsten  *32 papers' "$WORK/status" || fail "status: most frequent unmatched"
# again: nothing added
expect_rc 0 cap import pubs "$LABS/mainlp.bib"
grep -q "106 rows read, 0 added, 0 updated, 106 unchanged" "$WORK/out" || fail "re-import added something"

# ---- a bad entry: one line naming file, line and field; exit 1
printf '%s\n' '@article{ok, author = {X Y}, title = {T}, year = 2020}' \
    '@article{broken,' '  author = {A. B}' '  title = {no comma}, year = 2020' '}' >"$WORK/bad.bib"
expect_rc 1 cap import pubs "$WORK/bad.bib"
[ "$(cat "$WORK/err")" = "capplan: $WORK/bad.bib:2: field entry broken: syntax error: found \"title\", expected end of entry (\"}\" or \")\") (skipping to next \"@\")" ] ||
    fail "bad entry message: $(cat "$WORK/err")"
expect_rc 2 cap research --by nothing
expect_rc 0 cap research --help

# ---- the demo: research lines, planted students, ARI and NMI
rm -f "$WORK/t.db"
expect_rc 0 cap demo --jobs 30000 --today 2026-11-01 --no-tui
expect_rc 0 cap profile
cap research --json >"$WORK/km.json" || fail "research --json"
cap research --json --by coauthors >"$WORK/co.json" || fail "research --by coauthors"
cap research --csv >"$WORK/r.csv" || fail "research --csv"
"$PY" - "$WORK" "$WORK/t.db.demo-input/pubs-truth.csv" <<'PYEOF' || fail "research figures"
import csv, json, sys
from sklearn.metrics import adjusted_rand_score as ari, normalized_mutual_info_score as nmi
work, truth_path = sys.argv[1], sys.argv[2]
truth = {r['user']: r for r in csv.DictReader(open(truth_path))}
km = json.load(open(work + '/km.json'))
co = json.load(open(work + '/co.json'))
def agree(d):
    pairs = [(p['cluster'], truth[p['user']]['line']) for p in d['people']
             if p['cluster'] is not None and p['user'] in truth]
    return ari([a for a, _ in pairs], [b for _, b in pairs]), len(pairs)
a_km, n = agree(km)
a_co, _ = agree(co)
print('research lines recovered: kmeans ARI %.3f, coauthors ARI %.3f over %d people' % (a_km, a_co, n))
assert km['k'] == 6, km['k']
assert a_km > 0.95 and a_co < 0.2, (a_km, a_co)
# capplan's ARI and NMI against scikit-learn's over the same people
both = [(p['cluster'], p['profile']) for p in km['people']
        if p['cluster'] is not None and p['profile'] is not None]
assert len(both) == km['compared']
r, c = [a for a, _ in both], [b for _, b in both]
assert abs(ari(r, c) - km['ari']) < 1e-9, (ari(r, c), km['ari'])
assert abs(nmi(r, c) - km['nmi']) < 1e-9, (nmi(r, c), km['nmi'])
# the planted students (research on the pretraining or 70B lines, jobs of
# single-GPU or interactive work) are asked about when their profile shows it
planted = sorted(u for u, t in truth.items() if t['planted'] == '1')
asked = {p['user'] for p in km['people'] if p['ask']}
found = [u for u in planted if u in asked]
print('planted', planted, 'found', found)
assert len(planted) == 6 and len(found) == 4, (planted, found)
# papers and no GPU jobs: the statistics line (CPU work) is there
cpu = [p for p in km['people'] if p['papers_no_gpu'] and p['user'] in truth
       and truth[p['user']]['pattern'] == 'cpu-only']
assert len(cpu) > 0
rows = list(csv.reader(open(work + '/r.csv', newline='')))
assert rows[0][:4] == ['user', 'group', 'role', 'papers'] and len(rows) == len(km['people']) + 1
PYEOF
# propagation: bengel's stated 2 GPUs full-time to their research cluster's
# students, one edit per group that has some (groups counted from --json)
expect_rc 0 cap research apply bengel --scenario rs --reason "peers of the same line"
ngroups=$("$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = [p["cluster"] for p in d["people"] if p["user"] == "bengel"][0]
print(len({p["group"] for p in d["people"] if p["cluster"] == c}))' "$WORK/km.json")
got=$(sqlite3 "$WORK/t.db" "SELECT count(*) FROM scenario_params p JOIN scenarios s ON s.id = p.scenario_id
    WHERE s.name = 'rs' AND p.key = 'gpus.1' AND p.value = 2 AND p.reason LIKE 'peers of the same line; stated by bengel%'")
[ "$got" = "$ngroups" ] && [ "$got" -gt 1 ] || fail "research apply: $got edits, expected $ngroups"
expect_rc 0 cap scenario undo rs
[ "$(sqlite3 "$WORK/t.db" "SELECT count(*) FROM scenario_params p JOIN scenarios s ON s.id = p.scenario_id WHERE s.name = 'rs'")" = $((ngroups - 1)) ] ||
    fail "research apply: undo ($(sqlite3 "$WORK/t.db" "SELECT count(*) FROM scenario_params p JOIN scenarios s ON s.id = p.scenario_id WHERE s.name = 'rs'"), want $((ngroups - 1)))"
expect_rc 1 cap research apply jjung --scenario rs
grep -q "jjung has no stated full-time GPUs" "$WORK/err" || fail "apply without a stated need"

# the report's section, with names hidden under --anonymize
mkdir -p "$WORK/rep"
expect_rc 0 cap export "$WORK/rep/report.md" --anonymize
grep -q '^## 9. Who does what research$' "$WORK/rep/report.md" || fail "report: no research section"
sed -n '/^## 9. Who does what research/,/^## 10\./p' "$WORK/rep/report.md" >"$WORK/sec"
grep -q '^| R1 | efficient inference, llm fine-tuning, bert | 104 | 319 |' "$WORK/sec" || fail "report: R1 row"
grep -q 'adjusted Rand index' "$WORK/sec" || fail "report: agreement"
! grep -q 'flaurent2\|madeyemi\|-lab |' "$WORK/sec" || fail "report: names under --anonymize"
# the Group view: the Research column and "ask why, research:" (a wide
# terminal: the column is the first to go when narrow)
. "$(dirname "$0")/tui_helpers.inc"
ASKED=$("$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = [p for p in d["people"] if p["group"] == "fischer-lab" and p["ask"]][0]
print(p["user"], "R%d?" % p["cluster"])' "$WORK/km.json")
rm -f "$WORK/tui.rc" "$WORK/tui.err"
tm -f /dev/null new-session -d -x 170 -y 45 \
    "env LC_ALL=C.UTF-8 TERM=xterm-256color '$CAPPLAN_BIN' --db '$WORK/t.db' tui 2>'$WORK/tui.err'; echo \$? >'$WORK/tui.rc'"
wait_for "capplan"
planner_read
keys 2; wait_for "capplan · Groups"
keys /; typ fischer-lab; keys Enter
wait_for "fischer-lab · professor"
wait_for "ask why, research:"
set -- $ASKED
[ "$(awk -v u="$1" -v r="$2" '$1 == u && $NF == r' "$WORK/screen" | wc -l)" = 1 ] ||
    { cat "$WORK/screen"; fail "Research column: $1 $2"; }
tui_quit

echo "PASS: research_cli"
