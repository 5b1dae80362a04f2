#!/bin/sh
# Issue 29: nothing wrong stored, nothing wrong said. Runs still going at a
# trace's end are counted up to it (censored); a garbage start leaves the
# hours unknown. Expected figures: python3 over the same files.
. "$(dirname "$0")/lib.sh"
FIX="$(cd "$(dirname "$0")/.." && pwd)/fixtures"
need_shared

# ---- censored runs: an inference-instance list, 1 in 3 still running ----
python3 - "$WORK/inst.csv" <<'PY'
import random, sys
random.seed(29)
cols = ("instance_sn,role,app_name,cpu_request,cpu_limit,gpu_request,gpu_limit,rdma_request,"
        "rdma_limit,memory_request,memory_limit,disk_request,disk_limit,max_instance_per_node,"
        "creation_time,scheduled_time,deletion_time")
with open(sys.argv[1], "w") as f:
    print(cols, file=f)
    for i in range(3000):
        c = random.randint(0, 900000)
        s = c + random.randint(0, 600)
        d = "" if i % 3 == 0 else "%d.0" % (s + random.randint(60, 400000))
        g = random.choice(["1", "2", "0.5", "8", "0"])
        print("instance_%d,HN,app_%d,8,8,%s,%s,1,1,60.0,60.0,1.0,1.0,8,%d.0,%d.0,%s"
              % (i, i % 17, g, g, c, s, d), file=f)
PY
inst_want=$(python3 - "$WORK/inst.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cut = max(float(x) for r in rows for x in (r["creation_time"], r["scheduled_time"],
          r["deletion_time"]) if x)
h = sum(float(r["gpu_request"]) * ((float(r["deletion_time"]) if r["deletion_time"] else cut)
        - float(r["scheduled_time"])) for r in rows) / 3600
print("%d %.1f" % (sum(1 for r in rows if not r["deletion_time"]), h))
PY
)
expect_rc 0 cap import trace --kind alibaba-pod "$WORK/inst.csv"
grep -q "inst.csv: ${inst_want% *} runs still going at the file's end: counted up to 2023-01-" "$WORK/out" \
    || fail "censored summary: $(cat "$WORK/out") (want ${inst_want% *})"
got=$(cap stats utilization --json | python3 -c "import json,sys; d=json.load(sys.stdin); \
print('%.1f' % sum(r['gpu_hours'] for r in d['tables']['utilization'] if r['cluster'] == 'alibaba'))")
[ "$got" = "${inst_want#* }" ] || fail "censored GPU-hours: $got, python3 says ${inst_want#* }"
[ "$(sqlite3 "$WORK/t.db" "SELECT count(*) FROM jobs WHERE end_time IS NULL AND elapsed > 0 \
     AND state = 2")" = "${inst_want% *}" ] || fail "censored runs not stored RUNNING with a length"
# in the profiles: every GPU run of 5 minutes or more counts, the censored
# ones included (python3: 2,404 of them, 786 still going)
prof_want=$(python3 - "$WORK/inst.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cut = max(float(x) for r in rows for x in (r["creation_time"], r["scheduled_time"],
          r["deletion_time"]) if x)
print(sum(1 for r in rows if float(r["gpu_request"]) > 0 and
          (float(r["deletion_time"]) if r["deletion_time"] else cut) - float(r["scheduled_time"]) >= 300))
PY
)
got=$(cap profile --json | python3 -c "import json,sys; print(json.load(sys.stdin)['jobs'])")
[ "$got" = "$prof_want" ] || fail "profile jobs: $got, python3 says $prof_want"
# stats and profile say how many runs are censored and up to when (#29
# item 1): python3's count of runs with no end (and a GPU, for the profile)
# and the trace's last time after --trace-start (2023-01-01)
python3 - "$WORK/inst.csv" >"$WORK/cz" <<'PY'
import csv, sys, datetime
rows = list(csv.DictReader(open(sys.argv[1])))
cut = max(float(x) for r in rows for x in (r["creation_time"], r["scheduled_time"],
          r["deletion_time"]) if x)
going = [r for r in rows if not r["deletion_time"] and cut > float(r["scheduled_time"])]
at = datetime.datetime.fromtimestamp(1672531200 + cut, datetime.timezone.utc)
print(len(going), sum(1 for r in going if float(r["gpu_request"]) > 0), at.strftime("%Y-%m-%dT%H:%M:%SZ"))
PY
read -r cz_all cz_gpu cz_at <"$WORK/cz"
got=$(cap stats utilization --json | python3 -c "import json,sys; c=json.load(sys.stdin)['censored']; print(c['runs'], c['first_cut'], c['last_cut'])")
[ "$got" = "$cz_all $cz_at $cz_at" ] || fail "stats --json censored: $got, python3 says $cz_all $cz_at"
cap stats waits >"$WORK/out" || fail "stats waits"
grep -q "^censored: $cz_all runs still going when their file was written, counted up to $cz_at (their hours are a lower bound)$" "$WORK/out" \
    || fail "stats text: $(tail -1 "$WORK/out")"
got=$(cap profile --json | python3 -c "import json,sys; c=json.load(sys.stdin)['censored']; print(c['runs'], c['last_cut'])")
[ "$got" = "$cz_gpu $cz_at" ] || fail "profile --json censored: $got, python3 says $cz_gpu $cz_at"
cap profile >"$WORK/out" || fail "profile"
grep -q "^censored: $cz_gpu runs in the window still going when their file was written, counted up to $cz_at " "$WORK/out" \
    || fail "profile text: $(cat "$WORK/out")"
# re-import: the same cut, nothing changes; --as-of moves the cut
expect_rc 0 cap import trace --kind alibaba-pod "$WORK/inst.csv"
grep -q "3000 rows read, 0 added, 0 updated, 3000 unchanged" "$WORK/out" || fail "re-import: $(cat "$WORK/out")"
expect_rc 0 cap import trace --kind alibaba-pod --as-of 2023-02-01 "$WORK/inst.csv"
grep -q "counted up to 2023-02-01T00:00:00, censored" "$WORK/out" || fail "--as-of: $(cat "$WORK/out")"
grep -q "0 added, ${inst_want% *} updated" "$WORK/out" || fail "--as-of updates: $(cat "$WORK/out")"
got=$(cap stats utilization --json | python3 -c "import json,sys; c=json.load(sys.stdin)['censored']; print(c['runs'], c['last_cut'])")
[ "$got" = "$cz_all 2023-02-01T00:00:00Z" ] || fail "stats after --as-of: $got"
expect_rc 2 cap import trace --kind alibaba-pod --as-of yesterday-ish "$WORK/inst.csv"

# real sacct snapshots (sacct-json-sarc): mila_1714003200.json holds 3 jobs
# RUNNING when it was taken, the next snapshot has them ended. python3: a
# running job's hours end at start + min(elapsed, time limit) (the import's
# rule for a job not final), the cuts stats names
rm -f "$WORK/t.db"
M="$DATA/sacct-json-sarc"
expect_rc 0 cap import sacct "$M/mila_1714003200.json"
want=$(python3 - "$M/mila_1714003200.json" <<'PY'
import json, sys, datetime
cuts = sorted(j["time"]["start"] + min(j["time"]["elapsed"], j["time"]["limit"]["number"] * 60)
              for j in json.load(open(sys.argv[1]))["jobs"] if "RUNNING" in j["state"]["current"])
iso = lambda t: datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
print(len(cuts), iso(cuts[0]), iso(cuts[-1]))
PY
)
got=$(cap stats waits --json | python3 -c "import json,sys; c=json.load(sys.stdin)['censored']; print(c['runs'], c['first_cut'], c['last_cut'])")
[ "$got" = "$want" ] || fail "sarc censored: $got, python3 says $want"
[ "${want%% *}" = 3 ] || fail "python3: ${want%% *} running jobs in the snapshot"
expect_rc 0 cap import sacct "$M/mila_1716595200.json"
got=$(cap stats waits --json | python3 -c "import json,sys; print(json.load(sys.stdin)['censored']['runs'])")
[ "$got" = 0 ] || fail "sarc: the next snapshot ends them, still $got censored"
cap stats waits >"$WORK/out" || fail "stats waits"
grep -q "^censored" "$WORK/out" && fail "a censored line with none censored"

# the real pod sample: every pod has a deletion time (python3: 0 of 8,152
# empty), so nothing is censored and every row lands as before
rm -f "$WORK/t.db"
expect_rc 0 cap import trace --kind alibaba-pod "$DATA/gpu-trace-alibaba-openb-sample/openb_pod_list_gpushare40.csv"
grep -q "8152 rows read, 8152 added" "$WORK/out" || fail "pods: $(cat "$WORK/out")"
grep -q "censored" "$WORK/out" && fail "pods: nothing is censored in the sample"

# ---- a garbage start: sacct --json `start 0`, `end 13798`, `elapsed 13798` ----
python3 - "$DATA/sacct-json-sarc/slurm_22_5_9.json" "$WORK" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
j["state"]["current"] = "CANCELLED"
j["time"].update(start=0, end=13798, elapsed=13798)
json.dump(d, open(sys.argv[2] + "/garbage.json", "w"))
j["time"].update(start=0, end=1693865044, elapsed=124403)   # end and elapsed agree
json.dump(d, open(sys.argv[2] + "/agree.json", "w"))
PY
rm -f "$WORK/t.db"
expect_rc 0 cap import sacct "$WORK/garbage.json"
[ "$(sqlite3 "$WORK/t.db" "SELECT coalesce(start,'-'), coalesce(elapsed,'-'), \
     (SELECT sum(gpu_hours) FROM usage_month) FROM jobs")" = "-|-|0.0" ] \
    || fail "garbage start: $(sqlite3 "$WORK/t.db" 'SELECT start, elapsed FROM jobs')"
rm -f "$WORK/t.db"
expect_rc 0 cap import sacct "$WORK/agree.json"
[ "$(sqlite3 "$WORK/t.db" "SELECT start, elapsed FROM jobs")" = "1693740641|124403" ] \
    || fail "agreeing end and elapsed: $(sqlite3 "$WORK/t.db" 'SELECT start, elapsed FROM jobs')"

# ---- every importer refuses or stores sanely (item 2 of the issue) ----
rm -f "$WORK/t.db"
python3 - "$DATA" "$WORK" <<'PY'
import csv, json, sys
data, work = sys.argv[1], sys.argv[2]
src = open(data + "/swf-pwa/NASA-iPSC-1993-3.1-cln.swf").read().splitlines()
rows = [l for l in src if l.strip() and not l.startswith(";")][:3]
f = rows[1].split(); f[3] = "9" * 300; rows[1] = " ".join(f)
open(work + "/swf300.swf", "w").write("\n".join([l for l in src if l.startswith(";")] + rows) + "\n")
d = json.load(open(data + "/sacct-json-sarc/slurm_22_5_9.json"))
for t in d["jobs"][0]["tres"]["allocated"]:
    if t["type"] == "gres":
        t["count"] = -3
json.dump(d, open(work + "/neg.json", "w"))
p = json.load(open(data + "/gpu-trace-philly-dre-sample/sampled_jobs.shared.json"))[:3]
p[1]["end_time"] = "2017-01-01 00:00:00"
json.dump(p, open(work + "/philly.json", "w"), indent=1)
w = open(data + "/slurm-sandbox/sacct_wide_X.psv").read().splitlines()
h = w[0].split("|"); rows = [l.split("|") for l in w[1:4]]
rows[1][h.index("ElapsedRaw")] = "-5"
open(work + "/neg_el.psv", "w").write("\n".join(["|".join(h)] + ["|".join(r) for r in rows]) + "\n")
rows = [l.split("|") + ["mallory"] for l in w[1:4]]
open(work + "/dup.psv", "w").write("\n".join(["|".join(h + ["User"])] + ["|".join(r) for r in rows]) + "\n")
x = open(data + "/sacct-pipe-xdmod/accounting-logs.log").read().replace("|", "\u2603")
open(work + "/snow.log", "w").write(x)
n = open(data + "/gpu-trace-alibaba-openb-sample/openb_node_list_gpu_node.csv").read()
open(work + "/nodes.csv", "w").write(n + "openb-node-9000,96000,786432,0,\nopenb-node-9001,96000,786432,0,\n")
PY
utf8() { python3 -c "import sys; open(sys.argv[1], 'rb').read().decode('utf-8')" "$1" || fail "stderr is not UTF-8"; }
expect_rc 1 cap import trace --kind swf "$WORK/swf300.swf"
grep -q "swf300.swf:[0-9]*: field 4 (run time): duration '9999.*' out of range (above 10 years)" "$WORK/err" \
    || fail "SWF 300 digits: $(cat "$WORK/err")"
[ "$(sqlite3 "$WORK/t.db" "SELECT count(*) FROM jobs WHERE elapsed < 0")" = 0 ] || fail "a wrapped run time stored"
expect_rc 1 cap import sacct "$WORK/neg.json"
grep -q "neg.json:1: field tres.allocated: negative GPU count -3" "$WORK/err" || fail "GPU -3: $(cat "$WORK/err")"
expect_rc 1 cap import trace --kind philly "$WORK/philly.json"
grep -q "philly.json:[0-9]*: field end_time: end 2017-01-01T00:00:00 before start" "$WORK/err" \
    || fail "Philly end before start: $(cat "$WORK/err")"
expect_rc 1 cap import sacct "$WORK/neg_el.psv"
grep -q "neg_el.psv:3: field ElapsedRaw: negative duration -5 s" "$WORK/err" || fail "ElapsedRaw -5: $(cat "$WORK/err")"
expect_rc 1 cap import sacct "$WORK/dup.psv"
grep -q "header names User twice (fields 4 and 30)" "$WORK/err" || fail "User twice: $(cat "$WORK/err")"
expect_rc 1 cap import sacct --fields xdmod "$WORK/snow.log"
[ "$(wc -l <"$WORK/err")" = 1 ] || fail "wrong delimiter: one line, not $(wc -l <"$WORK/err")"
grep -q "snow.log: line 1: no '|' in it, but --fields names 26 fields: .*--delimiter '☃'" "$WORK/err" \
    || fail "wrong delimiter hint: $(cat "$WORK/err")"
utf8 "$WORK/err"
expect_rc 0 cap import sacct --fields xdmod --delimiter ☃ "$WORK/snow.log"
expect_rc 2 cap import trace "$DATA/swf-pwa/NASA-iPSC-1993-3.1-cln.swf"
grep -q "looks like a trace of kind swf: capplan import trace --kind swf FILE" "$WORK/err" || fail "no --kind: $(cat "$WORK/err")"
expect_rc 1 cap import sacct "$DATA/gpu-trace-philly-dre-sample/philly_jobs.shared.derived.csv"
grep -q "not a sacct header: it looks like a trace of kind philly: capplan import trace --kind philly" "$WORK/err" \
    || fail "sacct on a trace: $(cat "$WORK/err")"
expect_rc 0 cap import trace --kind alibaba-pod "$WORK/nodes.csv"
grep -q "nodes.csv: 2 CPU-only nodes (no GPU, no model) counted apart" "$WORK/out" || fail "CPU nodes: $(cat "$WORK/out")"
# python3 over the real list: 6,212 GPUs (SOURCE.md), the CPU-only nodes add none
[ "$(sqlite3 "$WORK/t.db" "SELECT sum(gpus) FROM inventory WHERE cluster = 'alibaba'")" = 6212 ] || fail "GPU inventory"
echo "trust_cli: ok"
