#!/bin/sh
# Issue 28's acceptance on the full demo (demo --today 2026-11-25, every
# job): each cut as `project --as-of` said it, nothing unknown at the cut
# used; recomputed from the backtest's cuts in python3 (tests/forecast_check.py
# demo --all): per-group WAPE at most 0.8 x naive's, the institute total
# inside its p10-p90 (taken from earlier cuts) at 70-90 % of the cuts, the
# groups' use inside theirs at 65-90 %, today's need inside its range, no
# group's year-1 need above 3 x its last 12 months (named arrivals or an
# edited pool aside). The doors themselves: forecast_demo.sh (20,000 jobs).
. "$(dirname "$0")/lib.sh"
T="$(cd "$(dirname "$0")/.." && pwd)"

expect_rc 0 cap demo --today 2026-11-25
expect_rc 0 cap project --backtest --json
cp "$WORK/out" "$WORK/bt.json"
expect_rc 0 cap project --json
cp "$WORK/out" "$WORK/p.json"
python3 "$T/forecast_check.py" demo "$WORK/bt.json" "$WORK/p.json" --all || fail "demo acceptance"
# every group the cap cut says so in --explain
for g in $(python3 -c "
import json
print(' '.join(g['name'] for g in json.load(open('$WORK/p.json'))['groups']
               if g['years'][0]['pool_cut'] > 0))"); do
    expect_rc 0 cap project --explain "$g"
    grep -q '^    capped: [0-9.]* GPU-eq of measured bursts left out: the need at most 3 x' \
        "$WORK/out" || fail "--explain $g does not name the cap: $(cat "$WORK/out")"
done
echo "forecast_demo_full: ok"
