#!/bin/sh
# capplan import allocations|carbon|sites and stats fairshare|energy: the
# demo database and the Philly trace of ../shared/data, every total
# recomputed independently in python3 straight from the jobs table; the
# scenario's policy.* keys; bad input (one line, exit 1, database
# unchanged).
. "$(dirname "$0")/lib.sh"
need_shared
sha() { sha256sum "$WORK/t.db" | cut -d' ' -f1; }

# ---- the demo database ----
# a fixed today: the replay of 2026 (tanaka-lab past 125 %) does not move with the date
expect_rc 0 cap demo --no-tui --seed 7 --jobs 20000 --today 2026-11-25
# the demo imports allocations for cirrus's groups and an hourly DE series
# of its own (docs/demo.md): this test brings its own, from none
[ "$(sqlite3 "$WORK/t.db" "SELECT count(DISTINCT group_name) || ' ' || (SELECT count(DISTINCT zone) FROM carbon_intensity) FROM allocations")" = "5 1" ] \
    || fail "the demo's allocations and carbon: $(sqlite3 "$WORK/t.db" "SELECT count(*) FROM allocations")"
sqlite3 "$WORK/t.db" "DELETE FROM allocations; DELETE FROM carbon_intensity"
cat >"$WORK/alloc.csv" <<'CSV'
group,year,gpu_hours
tanaka-lab,2025,2000
kapoor-lab,2025,5000
silva-lab,2025,3000
tanaka-lab,2026,2000
CSV
expect_rc 0 cap import allocations "$WORK/alloc.csv"
grep -q 'allocations-csv, 4 rows read, 4 added' "$WORK/out" || fail "import allocations: $(cat "$WORK/out")"
expect_rc 0 cap import allocations "$WORK/alloc.csv"
grep -q '4 rows read, 0 added, 0 updated, 4 unchanged' "$WORK/out" || fail "re-import: $(cat "$WORK/out")"
# An hourly series for zone FR (Electricity Maps' time format), the
# intensity a function of the hour: 20 + 10 x (hour mod 12).
python3 - "$WORK/carbon.csv" <<'PY'
import datetime, sys
t = datetime.datetime(2025, 1, 1)
with open(sys.argv[1], "w") as f:
    f.write("datetime,zone,carbon_intensity\n")
    for h in range(24 * 400):
        d = t + datetime.timedelta(hours=h)
        f.write("%s,FR,%d\n" % (d.strftime("%Y-%m-%dT%H:%M:%S.000Z"), 20 + 10 * (d.hour % 12)))
PY
expect_rc 0 cap import carbon "$WORK/carbon.csv"
printf 'cluster,pue,carbon_zone,carbon_intensity\natlas,1.3,FR,\nborealis,,,50\ncirrus,1.1,,120\n' \
    >"$WORK/sites.csv"
expect_rc 0 cap import sites "$WORK/sites.csv"

# Energy and carbon recomputed from the jobs table: TDP from the inventory
# (the GPU-weighted mean of the cluster for untyped jobs), the measured
# utilisation else 1, PUE and intensity from the sites, the FR series
# (hours outside it at its mean) integrated over each run.
cat >"$WORK/check_energy.py" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1]); d = json.load(open(sys.argv[2]))
pue = {"atlas": 1.3, "borealis": 1.2, "cirrus": 1.1}
const = {"borealis": 50.0, "cirrus": 120.0}
inv = {}
for c, m, g, w in db.execute("select cluster, gpu_model, gpus, tdp_w from inventory"):
    inv.setdefault(c, []).append((m, g, w))
def tdp(c, t):
    for m, g, w in inv[c]:
        if t and m == t: return w
    return sum(g * w for m, g, w in inv[c]) / sum(g for m, g, w in inv[c])
series = {}
for h, v in db.execute("select hour, g_per_kwh from carbon_intensity where zone='FR'"):
    series[h] = v
fill = sum(series.values()) / len(series)
def mean_ci(a, b):
    tot, t = 0.0, a
    while t < b:
        e = min(b, (t // 3600 + 1) * 3600)
        tot += (e - t) * series.get(t // 3600 * 3600, fill); t = e
    return tot / (b - a)
kwh = kg = 0.0
for c, s, el, g, ty, u in db.execute(
        "select c.name, j.start, j.elapsed, j.gpus, j.gpu_type, j.gpu_util from jobs j "
        "join clusters c on c.id = j.cluster_id where j.start is not null and j.elapsed > 0 and j.gpus > 0"):
    e = g * el / 3600 * tdp(c, ty) * (1 if u is None else u / 100) * pue[c] / 1000
    kwh += e
    kg += e * (const[c] if c in const else mean_ci(s, s + el)) / 1000
row = d["tables"]["energy"][0]
assert row["period"] == "all", row
assert abs(row["kwh"] - kwh) < 1e-6 * kwh, (row["kwh"], kwh)
assert abs(row["kg_co2e"] - kg) < 1e-6 * kg, (row["kg_co2e"], kg)
print("energy %.3f kWh %.3f kg" % (kwh, kg))
PY
cap stats energy --by all --json >"$WORK/energy.json" || fail "stats energy --json"
python3 "$WORK/check_energy.py" "$WORK/t.db" "$WORK/energy.json" || fail "energy differs from python"
# Per group and per domain sum to the total; the clusters say where the figures came from.
python3 - "$WORK/energy.json" <<'PY' || fail "energy tables"
import json, sys
d = json.load(open(sys.argv[1]))["tables"]
tot = d["energy"][0]["kwh"]
for t in ("groups", "domains"):
    s = sum(r["kwh"] for r in d[t])
    assert abs(s - tot) < 1e-6 * tot, (t, s, tot)
c = {r["cluster"]: r for r in d["clusters"]}
assert c["atlas"]["intensity_source"] == "hourly series" and c["atlas"]["zone"] == "FR"
assert c["borealis"]["pue_source"] == "default" and c["borealis"]["pue"] == 1.2
assert c["cirrus"]["intensity_source"] == "site" and c["cirrus"]["tdp_source"] == "inventory"
sh = {r["cluster"]: r for r in d["shifting"]}
assert sh["all"]["kg_saved"] > 0 and sh["borealis"]["kg_saved"] == 0, sh
assert sh["all"]["kg_after"] <= sh["all"]["kg_before"]
PY
expect_rc 0 cap stats energy --by year
grep -q 'Temporal shifting' "$WORK/out" || fail "stats energy text"
expect_rc 0 cap stats energy --csv --table groups
head -1 "$WORK/out" | grep -q '^group,attempts,gpu_hours,kwh' || fail "energy csv header"
expect_rc 1 cap stats energy --group nobody-lab

# Fair share on the demo: used = replayed + lost, per group; the machine's
# used GPU-hours are the jobs table's; the blocks are the groups past 125 %.
cap stats fairshare --by year --json >"$WORK/fs.json" || fail "stats fairshare --json"
python3 - "$WORK/t.db" "$WORK/fs.json" <<'PY' || fail "fairshare on the demo"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1]); d = json.load(open(sys.argv[2]))["tables"]
total = db.execute("select sum(gpus * elapsed) / 3600.0 from jobs where start is not null "
                   "and elapsed > 0 and gpus > 0").fetchone()[0]
used = sum(r["used_h"] for r in d["groups"])
assert abs(used - total) < 1e-6 * total, (used, total)
for r in d["groups"]:
    assert abs(r["used_h"] - r["replayed_h"] - r["lost_h"]) < 1e-6 * max(1, r["used_h"]), r
m = sum(r["used_h"] for r in d["machine"])
assert abs(m - total) < 1e-6 * total, (m, total)
for b in d["blocks"]:
    assert b["lost_h"] > 0
for r in d["series"]:
    if r["blocked"]:
        assert r["replayed_year_h"] >= 1.25 * r["allocated_h"] - 1e-6, r
PY
# The dashboard's Usage view: energy per year and the fair-share panel.
cap tui --bench-keys 6 --dump --size 100x30 >"$WORK/tui.txt" 2>&1 || fail "tui dump"
grep -q 'Energy (util' "$WORK/tui.txt" || fail "no energy panel: $(cat "$WORK/tui.txt")"
grep -q 'MWh .* t CO2e' "$WORK/tui.txt" || fail "no MWh line"
grep -q 'Fair-share  used/alloc' "$WORK/tui.txt" || fail "no fair-share panel"
grep -q 'tanaka-lab .* blk' "$WORK/tui.txt" || fail "tanaka-lab not shown blocked"

# A scenario with a ceiling of 100 %: more hours lost.
expect_rc 0 cap scenario new strict
expect_rc 0 cap scenario set strict policy.ceiling=1.0 policy.half_life_days=7
expect_rc 1 cap scenario set strict policy.ceiling=0.5
expect_rc 1 cap scenario set strict policy.nothing=1
lost() { cap stats fairshare --by all --json "$@" | python3 -c '
import json, sys; print(sum(r["lost_h"] for r in json.load(sys.stdin)["tables"]["groups"]))'; }
base=$(lost); strict=$(lost --scenario strict)
python3 -c "import sys; sys.exit(0 if $strict > $base else 1)" || fail "ceiling 1.0 lost $strict <= $base"

# The report's two sections, with the scenario's ceiling.
expect_rc 0 cap export "$WORK/report.md" --scenario strict
grep -q '^## 7. Energy and carbon' "$WORK/report.md" || fail "report: no energy section"
grep -q '^## 8. Allocation policy' "$WORK/report.md" || fail "report: no policy section"
grep -q 'up to 100 % of its yearly allocation' "$WORK/report.md" || fail "report: ceiling"
grep -q '^| tanaka-lab | 2025 | ' "$WORK/report.md" || fail "report: no block of tanaka-lab"

# ---- bad input: one line, exit 1, the database unchanged ----
before=$(sha)
bad() { # KIND CONTENT EXPECTED-MESSAGE
    printf "$2" >"$WORK/bad.csv"
    expect_rc 1 cap import "$1" "$WORK/bad.csv"
    [ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "$1: one line expected: $(cat "$WORK/err")"
    grep -q "$3" "$WORK/err" || fail "$1: expected '$3', got $(cat "$WORK/err")"
    [ "$(sha)" = "$before" ] || fail "$1: the database changed"
}
bad allocations 'group,year,gpu_hours,colour\na,2025,1,red\n' 'bad.csv:1: field colour: unknown column'
bad allocations 'group,year,gpu_hours\na,2025,10\nb,2025,1x0\n' 'bad.csv:3: field gpu_hours: bad number'
bad allocations 'group,year,gpu_hours\na,2025,-5\n' 'bad.csv:2: field gpu_hours: negative hours'
bad allocations 'group,year,gpu_hours\na,20x5,5\n' 'bad.csv:2: field year: bad year'
bad allocations 'group,year\na,2025\n' "bad.csv:1: missing column 'gpu_hours'"
bad allocations 'group,year,gpu_hours\na,2025,1,000\n' 'bad.csv:2: expected 3 fields as in the header, found 4'
bad allocations 'group,year,gpu_hours\na,2025,0\n' 'bad.csv:2: field gpu_hours: an allocation of 0 h'
bad allocations 'group,year,gpu_hours\nghost-lab,2025,10\n' "bad.csv:2: field group: unknown group 'ghost-lab'"
bad carbon 'datetime,zone,carbon_intensity\n2025-01-01T00:00:00Z,FR,12\nyesterday,FR,3\n' \
    'bad.csv:3: field datetime: bad date and time'
bad carbon 'datetime,zone,carbon_intensity\n2025-01-01 00:00:00,FR,-3\n' 'field carbon_intensity: negative intensity'
bad sites 'cluster,pue\natlas,0.8\n' 'bad.csv:2: field pue: PUE below 1'
bad sites 'cluster,pue,tdp\natlas,1.1,300\n' 'field tdp: unknown column'

# ---- the Philly trace: accounts are the groups ----
rm -f "$WORK/t.db"
expect_rc 0 cap import trace --kind philly "$DATA"/gpu-trace-philly-dre-sample/sampled_jobs.shared.json
printf 'cluster,gpu_model,gpus,gpu_mem_gib,from,to,relative_speed,tdp_w\nphilly,p100,2490,16,2017-01-01,,1.0,250\n' \
    >"$WORK/inv.csv"
expect_rc 0 cap import inventory "$WORK/inv.csv"
printf 'group,year,gpu_hours\nee9e8c,2017,100000\nb436b2,2017,50000\n6214e9,2017,60000\n' >"$WORK/palloc.csv"
expect_rc 0 cap import allocations "$WORK/palloc.csv"
cap stats fairshare --by all --json >"$WORK/pfs.json" || fail "philly fairshare"
cap stats energy --by all --json >"$WORK/pen.json" || fail "philly energy"
python3 - "$WORK/t.db" "$WORK/pfs.json" "$WORK/pen.json" <<'PY' || fail "philly differs from python"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
fs = json.load(open(sys.argv[2]))["tables"]; en = json.load(open(sys.argv[3]))["tables"]
alloc = {"ee9e8c": 100000, "b436b2": 50000, "6214e9": 60000}
jobs = db.execute("select a.name, j.start, j.gpus, j.elapsed from jobs j join accounts a "
                  "on a.id = j.account_id where j.start is not null and j.elapsed > 0 and "
                  "j.gpus > 0 order by j.start").fetchall()
used, lost, blocked = {}, {}, {}
for g, s, n, el in jobs:
    h = n * el / 3600
    u = used.get(g, 0)
    room = max(0, 1.25 * alloc[g] - u) if g in alloc else h
    ok = min(h, room)
    if ok < h and g not in blocked:
        blocked[g] = s + round(ok / n * 3600)
    used[g] = u + ok; lost[g] = lost.get(g, 0) + h - ok
rows = {r["group"]: r for r in fs["groups"]}
for g in alloc:
    assert abs(rows[g]["lost_h"] - lost[g]) < 1e-6 * max(1, lost[g]), (g, rows[g], lost[g])
    assert abs(rows[g]["replayed_h"] - used[g]) < 1e-6 * used[g], (g, rows[g], used[g])
b = {r["group"]: r for r in fs["blocks"]}
import datetime
for g, t in blocked.items():
    when = datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    assert b[g]["blocked_at"] == when, (g, b[g], when)
assert set(b) == set(blocked), (b, blocked)
kwh = sum(n * el / 3600 * 250 * 1.2 / 1000 for g, s, n, el in jobs)
row = en["energy"][0]
assert abs(row["kwh"] - kwh) < 1e-6 * kwh, (row, kwh)
assert abs(row["kg_co2e"] - kwh * 480 / 1000) < 1e-6 * kwh, row
assert row["measured_pct"] == 0
c = en["clusters"][0]
assert c["pue_source"] == "default" and c["intensity_source"] == "default" and c["tdp_source"] == "inventory", c
print("philly: lost", {g: round(v) for g, v in lost.items()}, "energy %.1f kWh" % kwh)
PY
echo "PASS: policy_cli"
