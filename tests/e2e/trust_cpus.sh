#!/bin/sh
# Issue 29 item 2 (CPUs fractional): Alibaba's cpu_milli is stored exactly
# (jobs.cpu_milli, thousandths) and every CPU-hour figure reads it: status,
# stats (utilization, preemption) and check agree with CPU-hours python3
# recomputes from the CSV (cpu_milli / 1000 x (deletion - scheduled), the
# import's rule: a pod counts from scheduled_time to deletion_time, a running
# pod's deletion_time being the trace's end), not with the figure of CPUs
# rounded up. Accounting with whole CPUs (sacct's AllocCPUS/ReqCPUS, SWF's
# processors) stores no cpu_milli, so its figures are those of ncpus as before.
. "$(dirname "$0")/lib.sh"
need_shared
POD="$DATA/gpu-trace-alibaba-openb-sample/openb_pod_list_gpushare40.csv"
expect_rc 0 cap import trace --kind alibaba-pod "$POD"
python3 - "$POD" >"$WORK/want" <<'EOF'
import csv, math, sys
exact = ceil = 0.0
frac = milli = 0
for r in csv.DictReader(open(sys.argv[1])):
    m = int(r['cpu_milli'])
    if m % 1000:
        frac += 1
        milli += m
    if not r['scheduled_time'] or not r['deletion_time']:
        continue
    s, e = int(r['scheduled_time']), int(r['deletion_time'])
    if e > s:
        exact += m / 1000 * (e - s) / 3600
        ceil += math.ceil(m / 1000) * (e - s) / 3600
print(frac, milli, '%.2f' % exact, '%.2f' % ceil)
EOF
read -r frac milli exact ceil <"$WORK/want"
# the file: 5,488 of 8,152 pods ask for a fraction of a CPU
[ "$frac" = 5488 ] || fail "python: $frac fractional pods"
[ "$exact" != "$ceil" ] || fail "python: rounding up changes nothing ($exact)"
got=$(sqlite3 "$WORK/t.db" "SELECT count(cpu_milli), sum(cpu_milli) FROM jobs")
[ "$got" = "$frac|$milli" ] || fail "jobs.cpu_milli: $got, want $frac|$milli"
# no row keeps a fraction that is whole, and ncpus is the fraction rounded up
bad=$(sqlite3 "$WORK/t.db" "SELECT count(*) FROM jobs WHERE cpu_milli % 1000 = 0 OR ncpus * 1000 < cpu_milli OR (ncpus - 1) * 1000 >= cpu_milli")
[ "$bad" = 0 ] || fail "$bad rows with cpu_milli and ncpus apart"
# status (usage_month), stats (the jobs read again) and the jobs table say the exact figure
st=$(json_get "'%.2f' % d['cpu_hours']")
[ "$st" = "$exact" ] || fail "status CPU-hours $st, python $exact (rounded up: $ceil)"
cap stats utilization --by all --json >"$WORK/u.json" || fail "stats utilization"
su=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('%.2f' % [r for r in d['tables']['utilization'] if r['cluster'] == 'all'][0]['cpu_hours'])" "$WORK/u.json")
[ "$su" = "$exact" ] || fail "stats utilization CPU-hours $su, python $exact"
cap stats preemption --by all --csv >"$WORK/p.csv" || fail "stats preemption"
sp=$(python3 -c "import csv,sys; r=[r for r in csv.DictReader(open(sys.argv[1])) if r['group'] == 'all' and r['partition'] == 'all'][0]; print('%.2f' % float(r['cpu_hours']))" "$WORK/p.csv")
[ "$sp" = "$exact" ] || fail "stats preemption CPU-hours $sp, python $exact"
expect_rc 0 cap check
# imported again: unchanged (the hash holds the thousandths)
expect_rc 0 cap import trace --kind alibaba-pod "$POD"
grep -q ' 0 added, 0 updated, 8152 unchanged' "$WORK/out" || fail "again: $(cat "$WORK/out")"
# a database as an import before #29 left it (CPUs rounded up: the file with
# cpu_milli rounded up to whole CPUs): the next import of the real file puts
# the thousandths in (a fraction says more) and the usage follows
rm -f "$WORK/t.db"
python3 -c "
import csv, sys
r = csv.reader(open(sys.argv[1])); w = csv.writer(open(sys.argv[2], 'w', newline=''), lineterminator='\n')
h = next(r); w.writerow(h); c = h.index('cpu_milli')
for x in r:
    x[c] = str(-(-int(x[c]) // 1000) * 1000); w.writerow(x)
" "$POD" "$WORK/openb_pod_list_gpushare40.csv"
expect_rc 0 cap import trace --kind alibaba-pod "$WORK/openb_pod_list_gpushare40.csv"
st=$(json_get "'%.2f' % d['cpu_hours']")
[ "$st" = "$ceil" ] || fail "rounded file: status CPU-hours $st, python $ceil"
expect_rc 0 cap import trace --kind alibaba-pod "$POD"
grep -q " $frac updated" "$WORK/out" || fail "re-import: $(cat "$WORK/out")"
[ "$(sqlite3 "$WORK/t.db" "SELECT count(cpu_milli) FROM jobs")" = "$frac" ] || fail "re-import left rounded CPUs"
expect_rc 0 cap check
st=$(json_get "'%.2f' % d['cpu_hours']")
[ "$st" = "$exact" ] || fail "after re-import: status CPU-hours $st, python $exact"

# whole CPUs: sacct (AllocCPUS) and SWF store no thousandths; CPU-hours are
# ncpus x run as sqlite3 sums them from the columns
rm -f "$WORK/t.db"
expect_rc 0 cap import sacct "$DATA/sacct-json-sarc/mila_1706227200.json"
expect_rc 0 cap import sacct --cluster fox "$DATA/sacct-kv-jobanalyzer-fox/slurm-sacct.csv"
for f in "$DATA"/swf-pwa/*.swf; do expect_rc 0 cap import trace --kind swf "$f"; done
[ "$(sqlite3 "$WORK/t.db" "SELECT count(cpu_milli) FROM jobs")" = 0 ] || fail "whole CPUs stored as thousandths"
[ "$(sqlite3 "$WORK/t.db" "SELECT count(*) FROM jobs WHERE ncpus > 0")" -gt 1000 ] || fail "no CPUs read"
expect_rc 0 cap check
echo "trust_cpus: ok ($frac fractional pods, CPU-hours $exact exact, $ceil rounded up)"
