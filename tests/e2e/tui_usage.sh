#!/bin/sh
# The dashboard's figures are `capplan stats utilization`'s (DESIGN.md: the
# TUI and the report never disagree): on the demo, whose last month is
# partial, the Usage view's utilisation and GPUs of each cluster's last
# month equal `stats utilization --json` (capacity pro rata inside the
# accounting window); the Overview's years, past and projected, are on the
# planner's one scale (GPU-eq, GPUs x relative speed) and equal `project
# --json`'s (past_years; total need and its p10-p90 range); the Overview's
# per-class line (capacity/need, GPU-eq) is project --json's, and its "short
# next year" alerts are the classes short after nesting (#33).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"

DB="$WORK/demo.db"
"$CAPPLAN_BIN" --db "$DB" demo --today 2026-11-25 --no-tui --seed 7 --jobs 20000 >/dev/null 2>&1 || fail "capplan demo"
"$CAPPLAN_BIN" --db "$DB" profile >/dev/null || fail "capplan profile"
"$CAPPLAN_BIN" --db "$DB" stats utilization --by month --json >"$WORK/month.json" || fail "stats by month"
"$CAPPLAN_BIN" --db "$DB" stats utilization --by year --json >"$WORK/year.json" || fail "stats by year"
"$CAPPLAN_BIN" --db "$DB" project --json >"$WORK/project.json" || fail "project --json"

tui_start "$DB"
wait_for "Mean GPU-eq (v100 = 1) a year: capacity"
wait_for "Next year cap/need, GPU-eq:"
cp "$WORK/screen" "$WORK/overview"
keys 6
wait_for "Month   Cluster"
cp "$WORK/screen" "$WORK/usage"
tui_quit

python3 - "$WORK" "$(cd "$(dirname "$0")/.." && pwd)" <<'PY' || fail "the dashboard disagrees with capplan stats"
import json, re, sys
w = sys.argv[1]
months = json.load(open(w + "/month.json"))["tables"]["utilization"]
proj = json.load(open(w + "/project.json"))
usage, overview = open(w + "/usage").read(), open(w + "/overview").read()
bad = []

def pct(v):  # tui/fmt.c fmt_pct: one decimal below 9.95 %, else whole
    return "%.1f%%" % v if abs(v) < 9.95 else "%.0f%%" % v

def gpus(v):  # tui/fmt.c fmt_gpus (fmt_num from 9.95 on: whole numbers here)
    a = abs(v)
    return ("0" if a == 0 else "%.2f" % v if a < 0.995 else "%.1f" % v if a < 9.95
            else "%.0f" % v)

last = max(r["period"] for r in months)
rows = [r for r in months if r["period"] == last and r["cluster"] != "all"]
assert rows, "no cluster in " + last
for r in rows:
    m = re.search(r"^%s %s +\S+ +(\S+) +(\S+)" % (last, r["cluster"]), usage, re.M)
    if not m:
        bad.append("Usage view has no row %s %s" % (last, r["cluster"]))
        continue
    want = (gpus(r["gpus"]), pct(r["util_pct"]))
    if m.groups() != want:
        bad.append("%s %s: dashboard GPUs/util %s, stats %s" % (last, r["cluster"], m.groups(), want))
    print("PASS-ROW %s %-9s GPUs %5s util %5s" % (last, r["cluster"], *m.groups()))

for y in proj["past_years"][-2:]:
    m = re.search(r"^ %d .*used (\S+) of (\S+) GPU-eq \((\S+)\)" % y["year"], overview, re.M)
    if not m:
        bad.append("Overview has no year %d" % y["year"])
        continue
    want = (gpus(y["used"]), gpus(y["capacity"]), pct(100 * y["used"] / y["capacity"]))
    if m.groups() != want:
        bad.append("year %d: dashboard %s, project --json %s" % (y["year"], m.groups(), want))
    print("PASS-YEAR %d used %s of %s GPU-eq (%s)" % (y["year"], *m.groups()))
t = proj["total"][0]
m = re.search(r"need (\S+) \((\S+)-(\S+)\) of (\S+) GPU-eq", overview)
r = t["need_range"]
want = (gpus(t["need"]), gpus(r["p10"]), gpus(r["p90"]), gpus(t["capacity"]))
if not m or m.groups() != want:
    bad.append("projected year: dashboard %s, project --json %s" % (m and m.groups(), want))
else:
    print("PASS-NEED need %s (%s-%s) of %s GPU-eq" % m.groups())

line = re.search(r"Next year cap/need, GPU-eq:(.*)", overview).group(1)
classes = {k.lstrip("\u2264").replace(">80", "80+"): (c, d) for k, c, d in re.findall(r"(\S+)G (\S+)/(\S+)", line)}
for k, (c, d) in classes.items():
    want = (gpus(t["capacity_by_class"][k]), gpus(t["need_by_class"][k]))
    if (c, d) != want:
        bad.append("class %s: line %s/%s, project --json %s/%s" % (k, c, d, *want))
    print("PASS-CLASS %s capacity %s need %s" % (k, c, d))
# the alerts: the classes short after nesting (#33), tests/memclass_check.py
sys.path.insert(0, sys.argv[2])
import memclass_check
why = memclass_check.check_alerts(proj, overview)
if why:
    bad.append(why)
for b in bad:
    print("MISMATCH:", b)
sys.exit(1 if bad else 0)
PY
echo "PASS: tui_usage (Usage = capplan stats utilization; Overview years = project --json, GPU-eq; class line = project --json, alerts nest)"
