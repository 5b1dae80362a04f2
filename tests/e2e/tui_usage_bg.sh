#!/bin/sh
# The Usage view's figures from the jobs (heat map, requested vs used,
# energy) are computed in the background (issue 16): while they are, the
# view says "computing usage…" and shows everything else, keys and the
# other views work, and the figures appear without a key when they are
# ready; quitting (q or F10) while they are computed exits at once and
# cleanly. The worker is held back with CAPPLAN_TEST_USAGE_HOLD (it waits
# while that file exists) so that the "computing" state lasts as long as
# the test needs; without the hold, the figures show as they did before.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"

DB="$WORK/demo.db"
HOLD="$WORK/hold"
"$CAPPLAN_BIN" --db "$DB" demo --today 2026-11-25 --no-tui --seed 7 --jobs 20000 >/dev/null 2>&1 || fail "capplan demo"

# 1. Held: the view shows its table and says the figures are coming.
: >"$HOLD"
TUI_ENV="CAPPLAN_TEST_USAGE_HOLD=$HOLD" tui_start "$DB"
keys 6
wait_for "computing usage…"
wait_for "Month   Cluster"
wait_for "the background: keys work."
absent "Requested vs used"
absent "GPUs, 12 months"
# Keys work meanwhile: the table moves, other views come and go.
keys j
wait_for "row 2 of"
keys 2
wait_for "capplan · Groups"
keys 6
wait_for "computing usage…"
# Released: the figures appear with no key pressed.
rm -f "$HOLD"
wait_for "GPUs, 12 months"
wait_for "Requested vs used, 12 mo"
wait_for "Energy (util"
wait_gone "computing usage…"
screen
grep -q " Mon [^ ]" "$WORK/screen" || { cat "$WORK/screen"; fail "no heat map row for Monday"; }
tui_quit

# 2. Quit with q while the figures are being computed: at once, exit 0,
# nothing on stderr (a sanitizer build reports a leak or a race there).
: >"$HOLD"
TUI_ENV="CAPPLAN_TEST_USAGE_HOLD=$HOLD" tui_start "$DB"
keys 6
wait_for "computing usage…"
tui_quit q

# 3. The same with F10, from another view.
TUI_ENV="CAPPLAN_TEST_USAGE_HOLD=$HOLD" tui_start "$DB"
keys 6
wait_for "computing usage…"
keys 1
wait_for "capplan · Overview"
tui_quit F10
rm -f "$HOLD"

# 4. The headless mode waits for the figures before its last frame.
"$CAPPLAN_BIN" --db "$DB" tui --bench-keys 6 --dump >"$WORK/dump" 2>"$WORK/err" \
    || { cat "$WORK/err"; fail "tui --bench-keys 6 --dump"; }
grep -q "GPUs, 12 months" "$WORK/dump" || { cat "$WORK/dump"; fail "headless: no heat map"; }
grep -q "^usage: first switch to the Usage view [0-9.]* ms (key to frame)$" "$WORK/dump" \
    || { cat "$WORK/dump"; fail "headless: no first-switch time"; }
grep -q "^usage: figures computed in the background in [0-9]* ms" "$WORK/dump" \
    || { cat "$WORK/dump"; fail "headless: no background time"; }
echo "PASS: tui_usage_bg (computing usage… while the worker runs, figures without a key, clean quit)"
