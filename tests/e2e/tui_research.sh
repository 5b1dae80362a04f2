#!/bin/sh
# The Group view's Research column ("R1?") and "ask why, research:" set
# each member's research cluster beside the compute profile the view's
# Profile column shows: the dashboard's planner's profiles, not a saved
# `capplan profile` run (issue 16). On a demo where no profile run was
# ever saved, the dashboard still names whom to ask, and it names the same
# people as `capplan research` once `capplan profile` has saved the same
# profiles (on a copy).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"

DB="$WORK/demo.db"
"$CAPPLAN_BIN" --db "$DB" demo --today 2026-11-25 --no-tui --seed 7 --jobs 20000 >/dev/null 2>&1 || fail "capplan demo"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM profile_runs")" = 0 ] || fail "the demo saved a profile run"
cp "$DB" "$WORK/saved.db"
"$CAPPLAN_BIN" --db "$WORK/saved.db" profile >/dev/null || fail "capplan profile"
"$CAPPLAN_BIN" --db "$WORK/saved.db" research --json >"$WORK/research.json" || fail "research --json"
set -- $(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = min((p for p in d["people"] if p["rank"]), key=lambda p: p["rank"])  # the biggest, first in its group
print(p["user"], p["group"])' "$WORK/research.json")
USER_ASKED=$1 GROUP=$2

TUI_W=170 TUI_H=45 tui_start "$DB"
keys 2; wait_for "capplan · Groups"
keys /; typ "$GROUP"; keys Enter
wait_for "$GROUP · professor"
wait_for "ask why, research: $USER_ASKED (R"
[ "$(awk -v u="$USER_ASKED" '$1 == u && $NF ~ /^R[0-9]+\?$/' "$WORK/screen" | wc -l)" = 1 ] ||
    { cat "$WORK/screen"; fail "Research column: no R?-mark for $USER_ASKED"; }
tui_quit
echo "PASS: tui_research (the Research column follows the dashboard's profiles)"
