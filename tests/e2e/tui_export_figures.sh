#!/bin/sh
# capplan tui, issue 30 item 4: each view's export holds what the view
# shows, units in every header, percentages as percentages and waits in
# hours: the Overview's chart figures by year, the Projection's need in
# parts with its p10-p90 range, the Scenarios comparison, Usage named by
# its group. Every figure is checked against `capplan ... --json`.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"

DB="$WORK/demo.db"
"$CAPPLAN_BIN" --db "$DB" demo --today 2026-11-25 --no-tui --seed 7 --jobs 20000 >/dev/null 2>&1 || fail "capplan demo"
cd "$WORK" || fail "cd"
G=$(sqlite3 "$DB" "SELECT name FROM groups ORDER BY name LIMIT 1")
"$CAPPLAN_BIN" --db "$DB" scenario new plan-2027 >/dev/null || fail "scenario new"
"$CAPPLAN_BIN" --db "$DB" scenario set plan-2027 pool=30 --group "$G" --reason "budget" >/dev/null \
    || fail "scenario set pool"
"$CAPPLAN_BIN" --db "$DB" scenario set plan-2027 growth=0.2 --group "$G" --reason "two students" \
    >/dev/null || fail "scenario set growth"
"$CAPPLAN_BIN" --db "$DB" project --scenario plan-2027 --json >project.json || fail "project --json"
"$CAPPLAN_BIN" --db "$DB" scenario diff base plan-2027 --json >diff.json || fail "scenario diff --json"

# export FILE: x, the name typed over the proposed one, Enter.
export_as() {
    keys x; wait_for "export to (.md or .csv):"; typ "$WORK/$1"; keys Enter; wait_for "exported"
    [ -s "$WORK/$1" ] || fail "$1 not written"
}

tui_start "$DB" --scenario plan-2027
wait_for "capplan · Overview"
export_as overview.csv
keys 5; wait_for "growth a year"
[ "$(sed -n '3s/^ \([^ ]*\) · scenario plan-2027 against base.*/\1/p' "$WORK/screen")" = "$G" ] \
    || { cat "$WORK/screen"; fail "the Projection does not show $G first"; }
export_as projection.csv
export_as projection.md
keys 7; wait_for "capplan · Scenarios"
export_as scenarios.csv
keys 2; wait_for "capplan · Groups"
export_as groups.csv
keys 6; wait_for "capplan · Usage"
keys x; wait_for "export to (.md or .csv): capplan-usage-"
grep -q "export to (.md or .csv): capplan-usage-[a-z0-9_.-]*-lab-plan-2027.md" "$WORK/screen" \
    || { cat "$WORK/screen"; fail "the Usage export does not name its group"; }
keys Enter; wait_for "exported"
f=$(ls capplan-usage-*-plan-2027.md)
head -1 "$f" | grep -q "^# capplan · Usage · [a-z0-9_-]* · scenario plan-2027" || { head -1 "$f"; fail "Usage title"; }
tui_quit

python3 - "$G" <<'EOF' || fail "the exports do not hold the --json figures"
import csv, json, sys
g = sys.argv[1]
proj = json.load(open("project.json"))
diff = json.load(open("diff.json"))

def parts(name):
    """The tables of a CSV export, split at the blank lines."""
    out, cur = [], []
    for row in csv.reader(open(name, newline="")):
        if not row:
            out.append(cur); cur = []
        else:
            cur.append(row)
    out.append(cur)
    return out

def close(a, b, what):
    if abs(float(a) - b) > 0.006:
        sys.exit("%s: export %s, --json %.4f" % (what, a, b))

# Overview: used and capacity of past years, need of projected ones.
years = parts("overview.csv")[1]
head = years[0]
assert head[:2] == ["Year", "Measured or projected"], head
assert all("GPU-eq" in h for h in head[2:]), head
byyear = {int(r[0]): r for r in years[1:]}
for p in proj["past_years"]:
    close(byyear[p["year"]][2], p["used"], "used %d" % p["year"])
    close(byyear[p["year"]][3], p["capacity"], "capacity %d" % p["year"])
proj_rows = [r for r in years[1:] if r[1] == "projected"]
assert len(proj_rows) == len(proj["total"]), proj_rows
for r, t in zip(proj_rows, proj["total"]):
    close(r[4], t["need"], "need %s" % r[0])
    close(r[5], t["need_range"]["p10"], "need p10 %s" % r[0])
    close(r[6], t["need_range"]["p90"], "need p90 %s" % r[0])

# Projection: its parameters as shown, percentages in percent.
pp = parts("projection.csv")[0]
assert pp[0][1] == "Measured (in % for growth, buffer, intensity)", pp[0]
close({r[0]: r for r in pp[1:]}["head-count growth a year"][2], 20, "growth in percent")
close({r[0]: r for r in pp[1:]}["pool GPU-eq"][2], 30, "pool")
# Projection: the group's need in parts and its range, the institute's.
need = {r[0]: r[1:] for r in parts("projection.csv")[1][1:]}
gj = [x for x in proj["groups"] if x["name"] == g][0]["years"]
for y in range(3):
    for label, v in [("need", gj[y]["need"]), ("need p10", gj[y]["need_range"]["p10"]),
                     ("need p90", gj[y]["need_range"]["p90"]), ("part: stayers", gj[y]["stayers"]),
                     ("part: leavers", gj[y]["leavers"]), ("part: newcomers", gj[y]["newcomers_use"]),
                     ("part: pool share", gj[y]["pool"])]:
        close(need["%s: %s (GPU-eq)" % (g, label)][y], v, "%s %s year %d" % (g, label, y + 1))
    t = proj["total"][y]
    close(need["institute: need (GPU-eq)"][y], t["need"], "institute need")
    close(need["institute: need p90 (GPU-eq)"][y], t["need_range"]["p90"], "institute p90")
    close(need["institute: capacity (GPU-eq)"][y], t["capacity"], "institute capacity")

# Scenarios: the need in A and B, each parameter's values and effect.
sc = parts("scenarios.csv")
for y, r in enumerate(sc[1][1:]):
    close(r[1], diff["demand_a"][y], "need in A")
    close(r[2], diff["demand_b"][y], "need in B")
assert sc[2][0][2:4] == ["A: base", "B: plan-2027"], sc[2][0]
assert "GPU-eq" in sc[2][0][6], sc[2][0]
edits = {(r[0], r[1]): r for r in sc[2][1:]}
for c in diff["changes"]:
    words = {"pool": "pool", "growth": "growth (%)"}[c["key"]]
    r = edits[(words, c["group"])]
    scale = 100 if c["key"] == "growth" else 1
    close(r[3], c["value_b"] * scale, "%s in B" % c["key"])
    close(r[6], c["effect"][0], "%s effect" % c["key"])
    assert r[4] == c["reason"], r

# Groups: shares in percent (they add up to 100), waits in hours.
gr = parts("groups.csv")[0]
h = gr[0]
share = h.index("Share of GPU-hours, 12 months (%)")
assert "Mean wait (hours)" in h and "Need next year (GPU-eq)" in h, h
total = sum(float(r[share]) for r in gr[1:] if r[share])
if abs(total - 100) > 0.5:
    sys.exit("shares add up to %.2f %%" % total)
EOF
grep -q "^## Need by year, in parts, with its p10-p90 range" projection.md || fail "projection.md: no parts"
exit 0
