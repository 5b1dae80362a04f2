#!/bin/sh
# capplan tui (#33): the Overview's "<=K GiB class short next year" alerts
# nest as the report and the institute page do (a small job runs on a GPU
# with more memory): a class is short only when no bigger class has room
# left to serve it. The alerts shown are exactly the classes whose nested
# gap `capplan project --json` gives over 0.5 GPU-eq, each with that gap;
# the nesting is recomputed apart from the C by tests/memclass_check.py.
#   - the small demo at 80x24: a class short unnested is served by a bigger
#     class's room (no alert for it);
#   - the same with a scenario (a pool of 40 for one group) at 80x24 in
#     ASCII: classes short even after nesting, as the JSON says;
#   - the full demo at 200x60: <=48 GiB short unnested is served by the
#     <=80 GiB room, <=24 GiB stays short; `project --csv` has the same gaps.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"
T="$(cd "$(dirname "$0")/.." && pwd)"

# overview_alerts DB PROJECT_JSON N [tui args]: the Overview as shown, then
# its class alerts against the JSON's nested gaps (exactly N alerts; N
# empty: as many as the JSON's nested gaps say).
overview_alerts() {
    db=$1 pj=$2 want=$3; shift 3
    tui_start "$db" "$@"
    wait_for "Alert"
    cp "$WORK/screen" "$WORK/overview"
    tui_quit
    python3 "$T/memclass_check.py" alerts "$pj" "$WORK/overview" $want \
        || { cat "$WORK/overview"; fail "Overview alerts against project --json ($pj)"; }
}

# unnested CLASS PROJECT_JSON: the class's first-year gap before nesting
unnested() {
    python3 -c "import json,sys; print(json.load(open(sys.argv[2]))['total'][0]['gap_by_class'][sys.argv[1]])" "$1" "$2"
}
# short CLASS PROJECT_JSON: exit 0 when the class is short before nesting
short() { awk -v g="$(unnested "$1" "$2")" 'BEGIN { exit !(g > 0.5) }'; }

DB="$WORK/demo.db"
"$CAPPLAN_BIN" --db "$DB" demo --jobs 20000 --seed 7 --today 2026-11-25 --no-tui >/dev/null 2>&1 \
    || fail "capplan demo"
"$CAPPLAN_BIN" --db "$DB" project --json >"$WORK/p.json" || fail "project --json"
# (its stated needs, a part of the need since issue 28, leave <=24 GiB
# short after nesting too: the alerts are what the nested gaps say, and a
# class short unnested is not alerted, the bigger classes' room serving it)
python3 - "$WORK/p.json" <<'PY' || fail "the small demo's <=24 GiB gap did not nest"
import json, sys
t = json.load(open(sys.argv[1]))["total"][0]
# a class short unnested whose alert the nesting removes
assert any(t["gap_by_class"][c] > 0.5 and t["gap_by_class_nested"][c] <= 0.5
           for c in t["gap_by_class"]), t
PY
TUI_W=80 TUI_H=24 overview_alerts "$DB" "$WORK/p.json" ""

G=$(sqlite3 "$DB" "SELECT name FROM groups ORDER BY name LIMIT 1")
expect_rc 0 "$CAPPLAN_BIN" --db "$DB" scenario new pool
expect_rc 0 "$CAPPLAN_BIN" --db "$DB" scenario set pool pool=40 --group "$G" --reason "a pool for $G"
"$CAPPLAN_BIN" --db "$DB" project --scenario pool --json >"$WORK/pool.json" || fail "project --json pool"
TUI_W=80 TUI_H=24 TUI_ENV="LC_ALL=C" overview_alerts "$DB" "$WORK/pool.json" "" --scenario pool
grep -q "^!! <=24 GiB class short next year" "$WORK/overview" || fail "ASCII class name"

FULL="$WORK/full.db"
"$CAPPLAN_BIN" --db "$FULL" demo --today 2026-11-25 --no-tui >/dev/null 2>&1 || fail "capplan demo (full)"
"$CAPPLAN_BIN" --db "$FULL" project --json >"$WORK/full.json" || fail "project --json (full)"
short 48 "$WORK/full.json" || fail "the full demo's <=48 GiB class is not short unnested"
TUI_W=200 TUI_H=60 overview_alerts "$FULL" "$WORK/full.json" 1
# project --csv's institute rows carry the same nested gaps
"$CAPPLAN_BIN" --db "$FULL" project --csv >"$WORK/full.csv" || fail "project --csv (full)"
python3 "$T/memclass_check.py" csv "$WORK/full.json" "$WORK/full.csv" || fail "project --csv gaps do not nest"
echo "PASS: tui_overview_alerts"
