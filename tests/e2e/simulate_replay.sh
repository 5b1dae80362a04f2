#!/bin/sh
# capplan simulate --replay (#33) on real logs with every wait recorded:
# KTH SP2 (100 processors, EASY by its header) is capacity-bound and the
# simulation follows it; OSC-Clust (178 processors) waited beside idle
# processors, so its waits are policy; the demo's last year. On all three
# tests/sim_ref.py, an independent python3 EASY over the same database,
# gives the same start for every job. Recorded figures: python3 over the
# SWF file itself (field 3, the wait), and for the demo python3 over the
# database. --order fairshare: FCFS where there are no allocations (KTH);
# on the demo (allocations for 5 of 25 groups) the fair-share order, start
# for start with sim_ref.py's. --placement: each job on the GPU model it
# ran on (the default), or on any GPU with enough memory.
. "$(dirname "$0")/lib.sh"
need_shared
REF="$(cd "$(dirname "$0")/.." && pwd)/sim_ref.py"
KTH="$DATA/swf-pwa/KTH-SP2-1996-2.1-cln.swf"
OSC="$DATA/swf-pwa-osc-clust/OSC-Clust-2000-3.1-cln.swf"
INV=cluster,gpu_model,gpus,gpu_mem_gib,from,to,relative_speed,tdp_w
j() { python3 -c "import json,sys; d=json.load(open('$WORK/r.json')); print($1)"; }
span() { sqlite3 "$1" "SELECT min(submit), max(submit) + 1 FROM jobs WHERE final = 1 AND start IS NOT NULL AND elapsed >= 0 AND start >= submit"; }

# ---- usage ----
expect_rc 1 cap simulate
grep -q 'no such database' "$WORK/err" || fail "no database: $(cat "$WORK/err")"
expect_rc 2 cap simulate --bogus
expect_rc 2 cap simulate --replay --from 1996-13-01
grep -q 'not a date' "$WORK/err" || fail "bad date: $(cat "$WORK/err")"

# ---- KTH SP2 ----
expect_rc 0 cap import trace --kind swf "$KTH"
# without an inventory: the most processors its jobs held at once
expect_rc 0 cap simulate --replay
grep -q '(kth) 104 peak' "$WORK/out" || fail "kth peak: $(grep Fleet "$WORK/out")"
printf '%s\nswedish royal institute of technology (kth),sp2-node,100,0,1996-01-01,,1.0,\n' "$INV" >"$WORK/kth.csv"
expect_rc 0 cap import inventory "$WORK/kth.csv"
expect_rc 0 cap simulate --replay --json --starts "$WORK/kth.starts"
cp "$WORK/out" "$WORK/r.json"
# the recorded waits, from the file: every job with a wait, a runtime and processors
python3 - "$KTH" >"$WORK/kth.rec" <<'EOF'
import math, sys
w = sorted(int(f[2]) for f in (l.split() for l in open(sys.argv[1]) if l.strip() and l[0] != ';')
           if int(f[2]) >= 0 and int(f[3]) >= 0 and max(int(f[4]), int(f[7])) > 0)
print(len(w), round(w[math.ceil(.9 * len(w)) - 1] / 3600, 4), round(sum(w) / len(w) / 3600, 4),
      round(sum(min(x, 172800) for x in w) / len(w) / 3600, 4))
EOF
[ "$(cat "$WORK/kth.rec")" = "28475 10.0833 4.249 3.5784" ] || fail "kth record: $(cat "$WORK/kth.rec")"
got=$(j "d['recorded']['jobs'], round(d['recorded']['p90_h'], 4), round(d['recorded']['mean_h'], 4), round(d['recorded']['mean_capped_h'], 4)")
[ "$got" = "$(cat "$WORK/kth.rec")" ] || fail "kth recorded waits: $got"
# the simulation: p90 6.0 h (within 50 % of 10.1), capped mean 1.90 h (within 2x
# of 3.58; the uncapped 1.91 h is not within 2x of 4.25), monthly correlation 0.76
got=$(j "round(d['simulated']['p90_h'], 2), round(d['simulated']['mean_capped_h'], 2), round(d['monthly_correlation'], 2)")
[ "$got" = "6.01 1.9 0.76" ] || fail "kth simulated: $got"
j "0.5 <= d['simulated']['p90_h'] / d['recorded']['p90_h'] <= 1.5 and d['monthly_correlation'] >= 0.6 and d['recorded']['mean_capped_h'] / d['simulated']['mean_capped_h'] <= 2" | grep -qx True || fail "kth targets"
# capacity explains KTH's waits: 2 % of it beside idle processors; +10 % capacity
# roughly halves the mean wait (1.91 -> 1.04 h)
[ "$(j "round(d['idle_share'], 2), d['waits_are_policy'], round(d['plus10_simulated']['mean_h'], 2)")" = "0.02 False 1.04" ] \
    || fail "kth idle/sensitivity: $(j "d['idle_share'], d['plus10_simulated']")"
set -- $(span "$WORK/t.db" | tr '|' ' ')
python3 "$REF" "$WORK/t.db" "$1" "$2" "$WORK/kth.starts" >"$WORK/ref" || fail "kth reference: $(cat "$WORK/ref")"
grep -q '^28475 jobs, 0 starts differ' "$WORK/ref" || fail "kth reference: $(cat "$WORK/ref")"
[ "$(j "d['order']")" = fcfs ] || fail "kth order: $(j "d['order']")"
# no GPU model recorded: the default placement pins nobody
[ "$(j "d['placement'], d['pinned_jobs']")" = "recorded 0" ] || fail "kth placement: $(j "d['placement'], d['pinned_jobs']")"
# no allocations: fair share is FCFS, start for start
expect_rc 0 cap simulate --replay --order fairshare --json --starts "$WORK/kthfs.starts"
cmp -s "$WORK/kthfs.starts" "$WORK/kth.starts" || fail "kth: fair share without allocations is not FCFS"
grep -q '"order":[[:space:]]*"fcfs"' "$WORK/out" || fail "kth fair share order: $(head -c 300 "$WORK/out")"
expect_rc 2 cap simulate --replay --order lifo
grep -q "'lifo' is not fcfs or fairshare" "$WORK/err" || fail "bad order: $(cat "$WORK/err")"
# the backfill depth (slurm.conf's bf_max_job_test; 100 jobs behind the head by default):
# on KTH the whole queue starts every job at the same time as 100 deep; 20 deep, 5794 of
# the 28475 starts move and the mean wait rises to 2.10 h; sim_ref.py at depth 20 agrees
expect_rc 0 cap simulate --replay --bf-depth 0 --starts "$WORK/kth0.starts"
grep -q 'EASY backfill on the time limit, the whole queue;' "$WORK/out" || fail "kth depth 0: $(head -1 "$WORK/out")"
cmp -s "$WORK/kth0.starts" "$WORK/kth.starts" || fail "kth: the whole queue differs from 100 deep"
expect_rc 0 cap simulate --replay --bf-depth 20 --json --starts "$WORK/kth20.starts"
cp "$WORK/out" "$WORK/r.json"
[ "$(j "d['bf_depth'], round(d['simulated']['mean_h'], 2)")" = "20 2.1" ] || fail "kth depth 20: $(j "d['bf_depth'], d['simulated']")"
[ "$(paste -d ' ' "$WORK/kth20.starts" "$WORK/kth.starts" | awk '$2 != $4' | wc -l)" = 5794 ] \
    || fail "kth depth 20: starts moved"
python3 "$REF" "$WORK/t.db" "$1" "$2" "$WORK/kth20.starts" 20 >"$WORK/ref" || fail "kth reference 20: $(cat "$WORK/ref")"
grep -q '^28475 jobs, 0 starts differ' "$WORK/ref" || fail "kth reference 20: $(cat "$WORK/ref")"
expect_rc 2 cap simulate --replay --bf-depth -1
grep -q 'bf-depth' "$WORK/err" || fail "bad --bf-depth: $(cat "$WORK/err")"
expect_rc 0 cap simulate --replay
grep -q '^Sensitivity: +10 % capacity (every pool, rounded up): simulated mean wait 1.91 h -> 1.04 h' "$WORK/out" \
    || fail "kth text: $(tail -3 "$WORK/out")"
grep -q 'not capacity' "$WORK/out" && fail "kth waits are capacity"
expect_rc 1 cap simulate --replay --from 2030-01-01
grep -q 'simulate: --from is after the last recorded submit' "$WORK/err" || fail "late --from: $(cat "$WORK/err")"
expect_rc 1 cap simulate --replay --from 1997-01-01 --to 1996-12-01
grep -q 'simulate: --to is before --from' "$WORK/err" || fail "--to before --from: $(cat "$WORK/err")"
# a window: October 1996 alone
expect_rc 0 cap simulate --replay --from 1996-10 --to 1996-10-31 --json
cp "$WORK/out" "$WORK/r.json"
[ "$(j "len(d['months']), d['months'][0]['month'], d['recorded']['jobs']")" = "1 1996-10 2405" ] \
    || fail "kth October: $(j "d['months'][0]['month'], d['recorded']['jobs']")"
[ "$(sqlite3 "$WORK/t.db" "SELECT count(*) FROM jobs WHERE ncpus > 0 AND submit >= strftime('%s','1996-10-01') AND submit < strftime('%s','1996-11-01')")" = 2405 ] \
    || fail "kth October count"

# ---- OSC-Clust: waits beside idle processors are policy ----
rm -f "$WORK/t.db"
expect_rc 0 cap import trace --kind swf "$OSC"
printf '%s\nosc,node-proc,178,0,2000-01-01,,1.0,\n' "$INV" >"$WORK/osc.csv"
expect_rc 0 cap import inventory "$WORK/osc.csv"
expect_rc 0 cap simulate --replay --json --starts "$WORK/osc.starts"
cp "$WORK/out" "$WORK/r.json"
[ "$(j "round(d['idle_share'], 2), d['waits_are_policy']")" = "0.93 True" ] \
    || fail "osc idle share: $(j "d['idle_share']")"
set -- $(span "$WORK/t.db" | tr '|' ' ')
python3 "$REF" "$WORK/t.db" "$1" "$2" "$WORK/osc.starts" >"$WORK/ref" || fail "osc reference: $(cat "$WORK/ref")"
expect_rc 0 cap simulate --replay
grep -q '^These waits are policy (limits, fair share, holds), not capacity: buying processors will not shorten them.$' \
    "$WORK/out" || fail "osc verdict: $(tail -4 "$WORK/out")"

# ---- the demo's last year, each job on the GPU model it ran on ----
rm -f "$WORK/t.db"
expect_rc 0 cap demo --today 2026-11-25
set -- "$(date -ud 2025-11-01 +%s)" "$(date -ud 2026-11-01 +%s)"
expect_rc 0 cap simulate --replay --from 2025-11-01 --to 2026-10-31 --json --starts "$WORK/demo.starts"
cp "$WORK/out" "$WORK/r.json"
[ "$(j "len(d['months']), d['units'], d['unplaced'], d['placement'], d['pinned_jobs']")" = "12 GPUs 0 recorded 81223" ] \
    || fail "demo: $(j "len(d['months']), d['units'], d['placement'], d['pinned_jobs']")"
# the recorded waits, from the database: GPU jobs' final attempts that started,
# submitted in the window (p90 by nearest rank, mean capped at 2 days)
python3 - "$WORK/t.db" "$1" "$2" >"$WORK/demo.rec" <<'EOF'
import math, sqlite3, sys
w = sorted(r[0] for r in sqlite3.connect(sys.argv[1]).execute(
    "SELECT start - submit FROM jobs WHERE final = 1 AND start IS NOT NULL AND elapsed >= 0 "
    "AND start >= submit AND gpus > 0 AND submit >= ? AND submit < ?", (int(sys.argv[2]), int(sys.argv[3]))))
print(len(w), round(w[math.ceil(.9 * len(w)) - 1] / 3600, 4), round(sum(min(x, 172800) for x in w) / len(w) / 3600, 4))
EOF
[ "$(cat "$WORK/demo.rec")" = "75155 7.5361 2.575" ] || fail "demo record: $(cat "$WORK/demo.rec")"
got=$(j "d['recorded']['jobs'], round(d['recorded']['p90_h'], 4), round(d['recorded']['mean_capped_h'], 4)")
[ "$got" = "$(cat "$WORK/demo.rec")" ] || fail "demo recorded waits: $got"
# the issue's targets on the demo: p90 within 50 % (7.51 h against 7.54), capped
# mean within 2x (2.57 against 2.575), monthly correlation 0.99 (>= 0.6)
[ "$(j "round(d['simulated']['p90_h'], 2), round(d['simulated']['mean_capped_h'], 2), round(d['monthly_correlation'], 2)")" = "7.51 2.57 0.99" ] \
    || fail "demo simulated: $(j "d['simulated'], d['monthly_correlation']")"
python3 - "$WORK/r.json" "$WORK/demo.rec" <<'EOF' || fail "demo targets"
import json, sys
d = json.load(open(sys.argv[1]))
n, p90, capped = map(float, open(sys.argv[2]).read().split())
s = d['simulated']
assert 0.5 <= s['p90_h'] / p90 <= 1.5, (s['p90_h'], p90)
assert 0.5 <= s['mean_capped_h'] / capped <= 2, (s['mean_capped_h'], capped)
assert d['monthly_correlation'] >= 0.6 and not d['waits_are_policy'], d['monthly_correlation']
EOF
python3 "$REF" "$WORK/t.db" "$1" "$2" "$WORK/demo.starts" >"$WORK/ref" || fail "demo reference: $(cat "$WORK/ref")"
grep -q '^81223 jobs, 0 starts differ' "$WORK/ref" || fail "demo reference: $(cat "$WORK/ref")"
# on any GPU with enough memory (the rule before): jobs spill onto the other model
# of their cluster and the p90 falls to 3.42 h (-55 %, the target missed); the
# reference agrees with those starts under "any", not under "recorded"
expect_rc 0 cap simulate --replay --from 2025-11-01 --to 2026-10-31 --placement any --json \
    --starts "$WORK/demoany.starts"
cp "$WORK/out" "$WORK/r.json"
[ "$(j "d['placement'], d['pinned_jobs'], round(d['simulated']['p90_h'], 2), round(d['simulated']['mean_capped_h'], 2), round(d['monthly_correlation'], 2)")" = "any 0 3.42 1.49 0.86" ] \
    || fail "demo placement any: $(j "d['placement'], d['simulated'], d['monthly_correlation']")"
python3 "$REF" "$WORK/t.db" "$1" "$2" "$WORK/demoany.starts" 100 fcfs any >"$WORK/ref" \
    || fail "demo reference any: $(cat "$WORK/ref")"
grep -q '^81223 jobs, 0 starts differ' "$WORK/ref" || fail "demo reference any: $(cat "$WORK/ref")"
python3 "$REF" "$WORK/t.db" "$1" "$2" "$WORK/demoany.starts" 100 fcfs recorded >"$WORK/ref" \
    && fail "the reference pinned agrees with placement any"
grep -q '^81223 jobs, 37319 starts differ' "$WORK/ref" || fail "demo any vs recorded: $(cat "$WORK/ref")"
# partition tiers (the demo's scheduler: interactive > gpu > preempt, demo_sched.c; sacct
# does not record them, so --tiers names them): the totals stay within the targets (p90
# 7.62 h, capped mean 2.68 h, correlation 0.99) and the partitions' waits move toward the
# record: interactive p90 4.09 h -> 0.27 h (recorded 0.31), preempt 6.15 h -> 9.95 h
# (recorded 11.00), from the starts and the jobs' partitions in the database
expect_rc 0 cap simulate --replay --from 2025-11-01 --to 2026-10-31 --tiers interactive,gpu,preempt \
    --json --starts "$WORK/demotier.starts"
cp "$WORK/out" "$WORK/r.json"
[ "$(j "','.join(d['tiers']), round(d['simulated']['p90_h'], 2), round(d['simulated']['mean_capped_h'], 2), round(d['monthly_correlation'], 2)")" = "interactive,gpu,preempt 7.62 2.68 0.99" ] \
    || fail "demo tiers: $(j "d['tiers'], d['simulated'], d['monthly_correlation']")"
cat >"$WORK/bypart.py" <<'EOF'
import math, sqlite3, sys
db, lo, hi, starts = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rows = sqlite3.connect(db).execute(
    "SELECT j.submit, j.start, p.name FROM jobs j JOIN clusters c ON c.id = j.cluster_id "
    "LEFT JOIN partitions p ON p.id = j.partition_id WHERE j.final = 1 AND j.start IS NOT NULL "
    "AND j.elapsed >= 0 AND j.start >= j.submit AND j.gpus > 0 AND j.submit >= ? AND j.submit < ? "
    "ORDER BY c.name, j.submit, j.id", (lo - 30 * 86400, hi)).fetchall()
sim = [l.split() for l in open(starts)]
assert len(sim) == len(rows)
out = []
for part in ("interactive", "preempt"):
    for k in (1, 0):
        w = sorted((int(b[1]) if k else a[1]) - a[0] for a, b in zip(rows, sim) if a[2] == part and a[0] >= lo)
        out.append("%.2f" % (w[math.ceil(.9 * len(w)) - 1] / 3600))
print(" ".join(out))
EOF
[ "$(python3 "$WORK/bypart.py" "$WORK/t.db" "$1" "$2" "$WORK/demo.starts")" = "4.09 0.31 6.15 11.00" ] \
    || fail "demo partitions, no tiers: $(python3 "$WORK/bypart.py" "$WORK/t.db" "$1" "$2" "$WORK/demo.starts")"
[ "$(python3 "$WORK/bypart.py" "$WORK/t.db" "$1" "$2" "$WORK/demotier.starts")" = "0.27 0.31 9.95 11.00" ] \
    || fail "demo partitions, tiers: $(python3 "$WORK/bypart.py" "$WORK/t.db" "$1" "$2" "$WORK/demotier.starts")"
python3 "$REF" "$WORK/t.db" "$1" "$2" "$WORK/demotier.starts" 100 fcfs recorded interactive,gpu,preempt \
    >"$WORK/ref" || fail "demo tiers reference: $(cat "$WORK/ref")"
grep -q '^81223 jobs, 0 starts differ' "$WORK/ref" || fail "demo tiers reference: $(cat "$WORK/ref")"
# tiers before fair share: the reference agrees
expect_rc 0 cap simulate --replay --from 2025-11-01 --to 2026-10-31 --tiers interactive,gpu,preempt \
    --order fairshare --starts "$WORK/demotierfs.starts"
grep -q '^Partition tiers: interactive > gpu > preempt > the rest$' "$WORK/out" || fail "tiers text: $(head -3 "$WORK/out")"
python3 "$REF" "$WORK/t.db" "$1" "$2" "$WORK/demotierfs.starts" 100 fairshare recorded interactive,gpu,preempt \
    >"$WORK/ref" || fail "demo tiers fair share reference: $(cat "$WORK/ref")"
grep -q '^81223 jobs, 0 starts differ' "$WORK/ref" || fail "demo tiers fair share reference: $(cat "$WORK/ref")"
expect_rc 2 cap simulate --replay --tiers gpu,,preempt
grep -q "'gpu,,preempt' is not a list" "$WORK/err" || fail "bad tiers: $(cat "$WORK/err")"
expect_rc 1 cap simulate --tiers gpu
grep -q 'simulate: --tiers goes with --replay' "$WORK/err" || fail "tiers without replay: $(cat "$WORK/err")"
expect_rc 2 cap simulate --replay --placement anywhere
grep -q "'anywhere' is not recorded or any" "$WORK/err" || fail "bad placement: $(cat "$WORK/err")"
# fair share from the allocations: another order (32072 of 81223 starts move; the
# reference told FCFS disagrees), the same starts as sim_ref.py's fair share, and
# further from the record than FCFS (the demo's scheduler has no fair share):
# p90 4.49 h, capped mean 1.85 h, correlation 0.93
expect_rc 0 cap simulate --replay --from 2025-11-01 --to 2026-10-31 --order fairshare --json \
    --starts "$WORK/demofs.starts"
cp "$WORK/out" "$WORK/r.json"
[ "$(j "d['order'], round(d['simulated']['p90_h'], 2), round(d['simulated']['mean_capped_h'], 2), round(d['monthly_correlation'], 2)")" = "fairshare 4.49 1.85 0.93" ] \
    || fail "demo fair share: $(j "d['order'], d['simulated'], d['monthly_correlation']")"
[ "$(paste -d ' ' "$WORK/demofs.starts" "$WORK/demo.starts" | awk '$2 != $4' | wc -l)" = 32072 ] \
    || fail "demo fair share: starts moved"
python3 "$REF" "$WORK/t.db" "$1" "$2" "$WORK/demofs.starts" 100 fairshare >"$WORK/ref" \
    || fail "demo fair share reference: $(cat "$WORK/ref")"
grep -q '^81223 jobs, 0 starts differ' "$WORK/ref" || fail "demo fair share reference: $(cat "$WORK/ref")"
python3 "$REF" "$WORK/t.db" "$1" "$2" "$WORK/demofs.starts" 100 fcfs >"$WORK/ref" \
    && fail "the reference in FCFS agrees with fair share"
grep -q '^81223 jobs, 32072 starts differ' "$WORK/ref" || fail "demo fair share vs FCFS: $(cat "$WORK/ref")"
# the natural experiment: the 12 months before the 2024 upgrades on the fleet after them
# (placement any there by default: the models the jobs chose were the old fleet's)
cap simulate --replay --from 2023-08-01 --to 2024-07-31 --json >"$WORK/before.json" || fail "before"
cap simulate --replay --from 2023-08-01 --to 2024-07-31 --fleet-at 2024-11-01 --json >"$WORK/up.json" || fail "upgraded"
python3 - "$WORK/before.json" "$WORK/up.json" <<'EOF' || fail "natural experiment"
import json, sys
b, u = (json.load(open(f)) for f in sys.argv[1:])
assert b['recorded'] == u['recorded'] and b['recorded']['jobs'] == u['simulated']['jobs']
assert (b['placement'], u['placement'], u['pinned_jobs']) == ('recorded', 'any', 0)
assert u['simulated']['mean_h'] < b['simulated']['mean_h'] / 1.5, (b['simulated'], u['simulated'])
assert u['simulated']['p90_h'] < b['simulated']['p90_h'], (b['simulated'], u['simulated'])
EOF
echo "PASS: simulate_replay"
