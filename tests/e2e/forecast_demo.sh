#!/bin/sh
# Issue 28 on the demo (demo --jobs 20000 --seed 7 --today 2026-11-25): at
# three cuts, the backtest's cut, `project --as-of` on the full database and
# `project` on a copy holding only what was known at the cut (sqlite3: jobs
# started before it and their monthly aggregate, roster lines started
# before it with end dates after it dropped, inventory in service before
# it) give the same figures; the
# forecasters' record and coverage recomputed from the cuts in python3
# (tests/forecast_check.py demo): the institute's and the groups' coverage,
# today's need in its range and the 3 x cap asserted, the WAPE ratio printed
# (not met at 20,000 jobs; met on the full demo, forecast_demo_full.sh).
. "$(dirname "$0")/lib.sh"
need_shared
T="$(cd "$(dirname "$0")/.." && pwd)"

expect_rc 0 cap demo --jobs 20000 --seed 7 --today 2026-11-25
cp "$WORK/t.db" "$WORK/base.db"
expect_rc 0 cap project --backtest --json
cp "$WORK/out" "$WORK/bt.json"
expect_rc 0 cap project --json
cp "$WORK/out" "$WORK/p.json"
python3 "$T/forecast_check.py" demo "$WORK/bt.json" "$WORK/p.json" || fail "demo record"

CUTS=$(python3 -c "
import json
c = [x['cut'] for x in json.load(open('$WORK/bt.json'))['cuts'] if not x['set_apart']]
print(c[0], c[len(c) // 2], c[-1])")
[ -n "$CUTS" ] || fail "no cuts"
for cut in $CUTS; do
    expect_rc 0 cap project --as-of "$cut" --json
    cp "$WORK/out" "$WORK/asof.json"
    cp "$WORK/base.db" "$WORK/cut.db"
    python3 - "$WORK/cut.db" "$cut" <<'PY' || fail "cutting the database at $cut"
import calendar, sqlite3, sys
db, cut = sys.argv[1], sys.argv[2]
y, m, d = (int(x) for x in cut.split("-"))
c = calendar.timegm((y, m, d, 0, 0, 0))
con = sqlite3.connect(db)
con.execute("DELETE FROM jobs WHERE start IS NULL OR start >= ?", (c,))
con.execute("DELETE FROM people WHERE start_date >= ?", (cut,))
con.execute("UPDATE people SET end_date = NULL WHERE end_date >= ?", (cut,))
con.execute("DELETE FROM inventory WHERE from_date >= ?", (cut,))
con.execute("UPDATE inventory SET to_date = NULL WHERE to_date >= ?", (cut,))
con.execute("DELETE FROM usage_month WHERE month >= ?", (y * 100 + m,))  # the monthly aggregate
con.execute("DELETE FROM plan_cache")
con.commit()
PY
    "$CAPPLAN_BIN" --db "$WORK/cut.db" project --json >"$WORK/cutdb.json" || fail "project at $cut"
    python3 "$T/forecast_check.py" doors "$WORK/bt.json" "$cut" "$WORK/asof.json" \
        "$WORK/cutdb.json" || fail "three doors at $cut"
done
echo "forecast_demo: ok"
