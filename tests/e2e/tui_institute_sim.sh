#!/bin/sh
# capplan tui (#33 item 6): the institute page at 80x24 shows next year
# simulated, as `capplan simulate --json` has it: buy nothing's p90 wait with
# its range and the target, then the recommendation (model, GPUs, quarter,
# its p90 wait); computed by the planner's worker. Its memory classes nest:
# no class is red (short) while a bigger class has room.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"

DB="$WORK/demo.db"
"$CAPPLAN_BIN" --db "$DB" demo --jobs 20000 --seed 7 --today 2026-11-25 --no-tui >/dev/null 2>&1 \
    || fail "capplan demo"
"$CAPPLAN_BIN" --db "$DB" simulate --json >"$WORK/n.json" || fail "simulate --json"

TUI_W=80 TUI_H=24 tui_start "$DB"
# the institute page: i from the Overview (this demo's classes nest with room
# to spare: no class alert to enter it by)
keys 1; wait_for "Alert"
keys i
wait_for "Institute · scenario base"
wait_for "Next year simulated"
python3 - "$WORK" <<'PY' || { cat "$WORK/screen"; fail "institute page against simulate --json"; }
import json, sys
w = sys.argv[1]
scr, n = open(w + '/screen').read(), json.load(open(w + '/n.json'))
b, p = n['buy_nothing']['p90_h'], n['purchase']
want = 'Next year simulated: buy nothing, p90 wait %.1f h (%.1f-%.1f); target %.1f h' % (
    b['median'], b['low'], b['high'], n['target_p90_h'])
assert want in scr, want
pw = p['waits']['p90_h']
want = 'Recommendation: buy %d %s (quarter %d): p90 wait %.1f h (%.1f-%.1f)' % (
    p['count'], p['model'], p['quarter'], pw['median'], pw['low'], pw['high'])
assert want in scr, want
print('PASS-SIM', want)
PY
tui_quit
echo "PASS: tui_institute_sim"
