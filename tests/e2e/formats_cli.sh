#!/bin/sh
# What real sites export (#14), through the command line: delimiters read
# from the header, comment lines, short rows, Latin-1, time zones, jobstats,
# and Alibaba's GPU-sharing trace with fractional GPUs through profile and
# project. Expected figures: python3 over the same files (see each block).
. "$(dirname "$0")/lib.sh"
FIX="$(cd "$(dirname "$0")/.." && pwd)/fixtures"

# ---- sacct text shapes ----
expect_rc 0 cap import sacct "$FIX/sacct_snowman.txt"
grep -q 'sacct-text (parsable), 4 rows read, 3 added' "$WORK/out" || fail "snowman: $(cat "$WORK/out")"
expect_rc 0 cap import sacct "$FIX/sacct_reportseff.txt"
grep -q '4 rows read, 0 added, 0 updated, 3 unchanged' "$WORK/out" || fail "^|^: $(cat "$WORK/out")"
expect_rc 2 cap import sacct --delimiter '' "$FIX/sacct_snowman.txt"
grep -q 'the delimiter cannot be empty' "$WORK/err" || fail "empty delimiter"
expect_rc 0 cap import sacct "$FIX/sacct_comments.psv"
grep -q 'sacct_comments.psv: 4 comment lines skipped' "$WORK/out" || fail "comments: $(cat "$WORK/out")"
[ "$(sqlite3 "$WORK/t.db" "SELECT state FROM jobs WHERE job_id='301'")" = 4 ] \
    || fail "a commented-out line must not overwrite job 301"
expect_rc 1 cap import sacct "$FIX/sacct_ragged.psv"
grep -q '5 rows read, 4 added, 0 updated, 0 unchanged, 1 rejected' "$WORK/out" || fail "ragged: $(cat "$WORK/out")"

# ---- Latin-1: refused with its line (strict: the database file unchanged), or converted ----
bytes=$(sha256sum <"$WORK/t.db")
expect_rc 1 cap import sacct --strict "$FIX/sacct_latin1.psv"
grep -q "sacct_latin1.psv:2: field JobName: not UTF-8 (byte 0xE9 at column 5)" "$WORK/err" \
    || fail "latin1 message: $(cat "$WORK/err")"
[ "$(sha256sum <"$WORK/t.db")" = "$bytes" ] || fail "strict Latin-1 import changed the database"
expect_rc 0 cap import sacct --encoding cp1252 "$FIX/sacct_latin1.psv"
expect_rc 0 cap import sacct --encoding cp1252 "$FIX/sacct_latin1.psv"
grep -q '3 rows read, 0 added, 0 updated, 3 unchanged' "$WORK/out" || fail "re-import: $(cat "$WORK/out")"
[ "$(sqlite3 "$WORK/t.db" "SELECT name FROM jobs WHERE job_id='402'")" = "résumé € coût" ] \
    || fail "cp1252 job name"
expect_rc 2 cap import sacct --encoding ebcdic "$FIX/sacct_latin1.psv"
expect_rc 1 cap import roster "$FIX/roster_latin1.csv"
expect_rc 0 cap import roster --encoding latin1 "$FIX/roster_latin1.csv"
cap status --json >"$WORK/s.json" && cap stats utilization --json >"$WORK/u.json" \
    || fail "status/stats"
python3 -c "import json,sys; [json.load(open(f, encoding='utf-8', errors='strict')) for f in sys.argv[1:]]" \
    "$WORK/s.json" "$WORK/u.json" || fail "--json output is not valid UTF-8 JSON"

# ---- --tz with daylight saving: 01:30 -> 03:30 on the night Paris went back = 3 h ----
printf 'JobID|User|Account|State|Submit|Start|End|AllocTRES\n9001|tz|lab-tz|COMPLETED|2024-10-27T01:30:00|2024-10-27T01:30:00|2024-10-27T03:30:00|gres/gpu=1\n' >"$WORK/tz.txt"
expect_rc 0 cap import sacct --tz Europe/Paris "$WORK/tz.txt"
[ "$(sqlite3 "$WORK/t.db" "SELECT start || ' ' || end_time FROM jobs WHERE job_id='9001'")" = "1729985400 1729996200" ] \
    || fail "Europe/Paris times: $(sqlite3 "$WORK/t.db" "SELECT start, end_time FROM jobs WHERE job_id='9001'")"
expect_rc 2 cap import sacct --tz Mars/Olympus "$WORK/tz.txt"
grep -q "unknown time zone 'Mars/Olympus'" "$WORK/err" || fail "bad zone message"

# ---- jobstats in AdminComment: 501 max 39 GiB, mean 67.65 % ----
expect_rc 1 cap import sacct "$FIX/sacct_jobstats.psv"
grep -q "sacct_jobstats.psv:10: field AdminComment: bad jobstats summary: not base64" "$WORK/err" \
    || fail "jobstats reject: $(cat "$WORK/err")"
[ "$(sqlite3 "$WORK/t.db" "SELECT printf('%.2f %.2f', gpu_mem_gib, gpu_util) FROM jobs WHERE job_id='501'")" = "39.00 67.65" ] \
    || fail "jobstats 501: $(sqlite3 "$WORK/t.db" "SELECT gpu_mem_gib, gpu_util FROM jobs WHERE job_id='501'")"

# ---- MIG slices are fractional GPUs too: a 3g.20gb slice for 7 hours is 3 GPU-hours ----
printf 'JobID|User|Account|State|Submit|Start|End|AllocTRES\n7001|mig|lab-m|COMPLETED|2025-02-01T00:00:00|2025-02-01T00:00:00|2025-02-01T07:00:00|cpu=4,gres/gpu:a100_3g.20gb=1,node=1\n' >"$WORK/mig.txt"
expect_rc 0 "$CAPPLAN_BIN" --db "$WORK/m.db" import sacct "$WORK/mig.txt"
"$CAPPLAN_BIN" --db "$WORK/m.db" status --json | python3 -c "
import json, sys
d = json.load(sys.stdin)
gh = d['gpu_hours'] if 'gpu_hours' in d else d['totals']['gpu_hours']
assert abs(gh - 3.0) < 1e-9, gh" || fail "MIG slice GPU-hours"

# ---- Alibaba GPU sharing: pods and the node list, profile and project ----
# the rest reads ../shared/data
need_shared
A="$DATA/gpu-trace-alibaba-openb-sample"
start=$(date -u -d '160 days ago' +%F) # the whole trace (149 days) inside the 12-month window
P() { "$CAPPLAN_BIN" --db "$WORK/a.db" "$@"; }
expect_rc 0 P import trace --kind alibaba-pod --trace-start "$start" "$A/openb_pod_list_gpushare40.csv"
grep -q 'trace-alibaba-pod, 8152 rows read, 8152 added' "$WORK/out" || fail "pods: $(cat "$WORK/out")"
expect_rc 0 P import trace --kind alibaba-pod --trace-start "$start" "$A/openb_pod_list_gpushare40.csv"
grep -q '8152 rows read, 0 added, 0 updated, 8152 unchanged' "$WORK/out" || fail "pods again: $(cat "$WORK/out")"
expect_rc 0 P import trace --kind alibaba-pod --trace-start "$start" "$A/openb_node_list_gpu_node.csv"
grep -q 'alibaba-node-list, 1213 rows read, 7 added' "$WORK/out" || fail "nodes: $(cat "$WORK/out")"
expect_rc 0 P import trace --kind alibaba-pod --trace-start "$start" "$A/openb_node_list_gpu_node.csv"
grep -q '7 unchanged' "$WORK/out" || fail "nodes again: $(cat "$WORK/out")"
# strict: a bad instance row rejects the file, the database file unchanged
bytes=$(sha256sum <"$WORK/a.db")
expect_rc 1 P import trace --kind alibaba-pod --strict "$FIX/alibaba_instances.csv"
grep -q "alibaba_instances.csv:7: field gpu_request: bad number '-1'" "$WORK/err" || fail "strict instances"
[ "$(sha256sum <"$WORK/a.db")" = "$bytes" ] || fail "strict trace import changed the database"
printf 'sn,cpu_milli,memory_mib,gpu,model\nn-1,64000,262144,2,P100\nn-2,64000,262144,x,T4\n' >"$WORK/nodes.csv"
expect_rc 1 P import trace --kind alibaba-pod "$WORK/nodes.csv"
grep -q "nodes.csv:3: field gpu: bad GPU count 'x'" "$WORK/err" || fail "bad node list: $(cat "$WORK/err")"
[ "$(sha256sum <"$WORK/a.db")" = "$bytes" ] || fail "a bad node list changed the database"
P status --json >"$WORK/as.json" || fail "status"
P profile --json >"$WORK/ap.json" || fail "profile"
P project --json >"$WORK/aj.json" || fail "project"
python3 - "$WORK/as.json" "$WORK/ap.json" "$WORK/aj.json" <<'PYEOF' || fail "Alibaba figures differ"
import json, sys
st, pr, pj = (json.load(open(f)) for f in sys.argv[1:4])
# status: python3 over the pod list: sum of GPUs x (deletion - scheduled) = 42,418.002283 GPU-h
gh = st["gpu_hours"] if "gpu_hours" in st else st["totals"]["gpu_hours"]
assert abs(gh - 42418.002283) < 1e-3, gh
# profile: per QoS class, GPU pods of 5 min or more; GPU-hour-weighted p90
# of GPUs per pod (BE 0.81: fractional), mean and longest run, peak concurrency
u = {f["user"]: f for f in pr["user_features"]}
want = {"BE": (1405, 0.81, 2.364760380, 81.8475, 10.48, 1761.347775),
        "LS": (2333, 1.0, 17.888665881, 3482.637777778, 43.98, 35642.491892)}
for q, (jobs, p90, dmean, dmax, peak, h) in want.items():
    f = u[q]
    assert f["jobs"] == jobs, (q, f["jobs"])
    r = f["raw"]
    assert abs(r["gpus_p90"] - p90) < 1e-9, (q, r["gpus_p90"])
    assert abs(r["dur_mean_h"] - dmean) < 1e-6, (q, r["dur_mean_h"])
    assert abs(r["dur_max_h"] - dmax) < 1e-6, (q, r["dur_max_h"])
    assert abs(r["conc_peak"] - peak) < 1e-9, (q, r["conc_peak"])
    assert abs(f["gpu_hours"] - h) < 1e-4, (q, f["gpu_hours"])
assert pr["users"] == 4, pr["users"]
be = [p for p in pr["profiles"] if p["id"] == u["BE"]["profile"]][0]
assert 0 < be["centroid"]["gpus_p90"] < 1, be
# project: the node list is the capacity, 6,212 GPUs by memory class
# (24 GB: P100 265 + V100M16 195 + T4 842 + A10 2; 48: V100M32 204;
# unknown: G2 4,392 + G3 312); BE's fractional profile feeds its demand
y1 = pj["total"][0]
assert y1["capacity"] == 6212, y1["capacity"]
assert y1["capacity_by_class"]["24"] == 1304 and y1["capacity_by_class"]["48"] == 204, y1
assert y1["capacity_by_class"]["unknown"] == 4704, y1
pb = [p for p in pj["profiles"] if p["id"] == be["id"]][0]
# model v2: a profile's measured rate is its members' own exponentially
# weighted rate (docs/planning.md), not the centroid's mean concurrency
assert 0 < pb["gpus"]["measured"] <= be["centroid"]["conc_peak"], (pb, be)
g = [x for x in pj["groups"] if x["name"] == "BE"][0]
assert g["years"][0]["demand"] > 0 and g["years"][0]["demand"] != round(g["years"][0]["demand"]), g
print("alibaba: BE p90 0.81 GPU, capacity 6212 GPUs, BE demand %.3f GPUs" % g["years"][0]["demand"])
PYEOF
echo "formats_cli: ok"
