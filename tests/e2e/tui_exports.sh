#!/bin/sh
# capplan tui: what a meeting takes away and opens (issue 16 items 5, 6).
# x proposes a file named by view, group and scenario; the extension says
# the format (.md Markdown, .csv CSV, anything else refused); an existing
# file is only replaced after y; the Projection's export holds the demand
# by year. Enter on an institute alert opens the institute's projection by
# memory class; whom to ask names nobody whose roster end is past.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"

DB="$WORK/demo.db"
"$CAPPLAN_BIN" --db "$DB" demo --today 2026-11-25 --no-tui --seed 7 --jobs 20000 >/dev/null 2>&1 || fail "capplan demo"
cd "$WORK" || fail "cd"

tui_start "$DB"
# Two groups' exports do not collide: each name holds its group.
keys 2; wait_for "capplan · Groups"
keys /; typ "lab"; keys Enter; keys Escape
keys g Enter; wait_for "capplan · Group · scenario base"
G1=$(sed -n '3s/^ \([^ ]*\) · professor.*/\1/p' "$WORK/screen")
keys x; wait_for "export to (.md or .csv): capplan-group-$G1-base.md"
keys Enter; wait_for "exported"
keys ]; wait_for "capplan · Group"
G2=$(sed -n '3s/^ \([^ ]*\) · professor.*/\1/p' "$WORK/screen")
[ "$G1" != "$G2" ] || fail "] did not move to another group"
keys x; wait_for "capplan-group-$G2-base.md"; keys Enter; wait_for "exported"
[ -s "capplan-group-$G1-base.md" ] && [ -s "capplan-group-$G2-base.md" ] || fail "one file per group"
head -1 "capplan-group-$G2-base.md" | grep -qF "# capplan · Group · $G2 · scenario base" \
    || fail "the file's title names no group"
# The same name again: asked first; n keeps the file, y replaces it.
echo "keep me" >"capplan-group-$G2-base.md"
keys x Enter; wait_for "capplan-group-$G2-base.md exists: overwrite it? y overwrites, n keeps it"
keys n; wait_for "not exported: capplan-group-$G2-base.md kept as it was"
[ "$(cat "capplan-group-$G2-base.md")" = "keep me" ] || fail "overwritten without asking"
keys x Enter; wait_for "exists: overwrite it?"; keys y; wait_for "exported"
grep -qF "# capplan · Group · $G2" "capplan-group-$G2-base.md" || fail "y did not overwrite"
# The extension says the format; .txt is refused and the prompt stays.
keys x; typ "notes.txt"; keys Enter
wait_for "refused: the name must end in .md (Markdown) or .csv (CSV)"
[ ! -e notes.txt ] || fail "notes.txt written"
keys C-u; typ "members.csv"; keys Enter; wait_for "(CSV)"
head -1 members.csv | grep -q '^Member,' || { head -2 members.csv; fail "members.csv is not CSV"; }

# The Projection's export: the parameters, then the demand by year.
keys 5; wait_for "growth a year"
P=$(sed -n '3s/^ \([^ ]*\) · scenario base against base.*/\1/p' "$WORK/screen")
keys x; wait_for "capplan-projection-$P-base.md"; keys Enter
wait_for "and the figures beside them to capplan-projection-$P-base.md (Markdown)"
grep -q "^## Need by year, in parts, with its p10-p90 range" "capplan-projection-$P-base.md" || fail "no demand by year"
Y1=$(sqlite3 "$DB" "SELECT substr(max(month), 1, 4) + 1 FROM usage_month")
grep -q "^| Projected, mean a year | $Y1 | $((Y1 + 1)) | $((Y1 + 2)) |" "capplan-projection-$P-base.md" \
    || { cat "capplan-projection-$P-base.md"; fail "years not named"; }
grep -q "^| institute: need (GPU-eq) | [0-9.]* |" "capplan-projection-$P-base.md" || fail "institute demand"

# Item 6: i from the Overview opens the institute's projection (this demo's
# classes nest with room to spare, #33: no class alert to enter it by).
keys 1; wait_for "Alert"
keys i; wait_for "Institute · scenario base · keys [ and ]: back to a group"
wait_for "Memory class"; wait_for "all classes"
absent "other group"
keys ]; wait_for "keys [ and ]: other group"
tui_quit

# Whom to ask: nobody whose every roster row ended before the data's
# present (the projection's t0).
T0=$("$CAPPLAN_BIN" --db "$DB" project --json | python3 -c "import json,sys; print(json.load(sys.stdin)['t0'])")
"$CAPPLAN_BIN" --db "$DB" meetings pick | awk '/^[a-z]/{g=$1} /^  P/{print $2}' >"$WORK/picks"
[ -s "$WORK/picks" ] || fail "no picks"
while read -r u; do
    gone=$(sqlite3 "$DB" "SELECT count(*) FROM (SELECT max(coalesce(end_date, '9999')) e
        FROM people WHERE user = '$u') WHERE e < '$T0'")
    [ "$gone" = 0 ] || fail "whom to ask suggests $u, whose roster end is past"
done <"$WORK/picks"
exit 0
