#!/bin/sh
# Issue 30 (a newcomer with their own data): one day of jobs, fox's sacct
# file alone. The planner's monthly rates counted that day's month as a
# whole month of use, so next year's expected use was 0.053 GPU-eq against
# 1.60 GPU-eq used now. A history that lies inside the fit's last month now
# counts that month by the part it covers (core/demand.c last_cover), as
# "used now" does (DemFit.window_cover): with no growth, intensity, leavers
# or pools measurable from one day, year 1's expected use equals the sum of
# the groups' used now, each group's to 1e-9, and both are within 2 % of the
# mean GPUs in use over the day the accounting covers, recomputed here in
# python3 from the jobs table (every attempt's run, start + elapsed, over
# [first start, last end)).
. "$(dirname "$0")/lib.sh"
need_shared

F="$DATA/sacct-kv-jobanalyzer-fox/fox-sacct.derived.psv"
expect_rc 0 cap import sacct "$F"
cap project --json >"$WORK/p.json" || fail "project --json"
python3 - "$WORK/t.db" "$WORK/p.json" <<'PY' || fail "next year's use disagrees with used now"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
p = json.load(open(sys.argv[2]))
rows = list(db.execute("SELECT start, start + elapsed, gpus FROM jobs WHERE gpus > 0 AND start IS NOT NULL"))
a, z = min(r[0] for r in rows), max(r[1] for r in rows)
gpus = sum(g * (e - s) for s, e, g in rows) / (z - a)
assert abs(gpus - 1.6247251602749555) < 1e-9, gpus  # 84 GPU jobs over 1.0 day
used = {g["name"]: g["used_last_12_months"] for g in p["groups"]}
exp = p["forecaster"]["expected_use"]
for g, u in used.items():
    assert abs(exp[g] - u) <= 1e-9 * max(1, u), (g, exp[g], u)
y1 = p["total"][0]["expected_use"]
print("PASS mean GPUs over the day %.4f (python3); used now %.4f; year 1 expected %.4f"
      % (gpus, sum(used.values()), y1))
assert abs(y1 - sum(used.values())) <= 1e-9, (y1, sum(used.values()))
assert abs(y1 / gpus - 1) < 0.02, (y1, gpus)   # before: 0.053 of 1.62
PY
# the project text says the same
cap project >"$WORK/p.txt" || fail "project"
grep -q "y1 expected use 1.6 (not calibrated)" "$WORK/p.txt" || { cat "$WORK/p.txt"; fail "project text: y1 expected use"; }
echo PASS
