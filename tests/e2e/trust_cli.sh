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
# re-import: the same cut, nothing changes; --as-of moves the cut
expect_rc 0 cap import trace --kind alibaba-pod "$WORK/inst.csv"
grep -q "3000 rows read, 0 added, 0 updated, 3000 unchanged" "$WORK/out" || fail "re-import: $(cat "$WORK/out")"
expect_rc 0 cap import trace --kind alibaba-pod --as-of 2023-02-01 "$WORK/inst.csv"
grep -q "counted up to 2023-02-01T00:00:00, censored" "$WORK/out" || fail "--as-of: $(cat "$WORK/out")"
grep -q "0 added, ${inst_want% *} updated" "$WORK/out" || fail "--as-of updates: $(cat "$WORK/out")"
expect_rc 2 cap import trace --kind alibaba-pod --as-of yesterday-ish "$WORK/inst.csv"

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
echo "ok trust_cli"
