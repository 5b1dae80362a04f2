#!/bin/sh
# capplan tui (issue 16 items 9, 10): one meaning per word, units in the
# headers, the marks and shades explained in each view's help, ASCII '!'
# for "stated is far from used" (not the bar glyph '#'); the Usage view
# follows the selected group beside the institute, its requested-vs-used
# figure checked against SQL over the group's members' jobs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"

DB="$WORK/demo.db"
"$CAPPLAN_BIN" --db "$DB" demo --today 2026-11-25 --no-tui --seed 7 --jobs 20000 >/dev/null 2>&1 || fail "capplan demo"
q() { sqlite3 "$DB" "$1"; }

tui_start "$DB"
# Groups: usage trend is "Trend %", growth is the projection's head count.
keys 2; wait_for "capplan · Groups"
grep -q "^Group .* Stud\. .* GPU-h.* Share % .* Preempt % .* Trend % " "$WORK/screen" \
    || { sed -n 4p "$WORK/screen"; fail "Groups headers"; }
absent "Growth"
keys ?; wait_for "In Groups:"
wait_for "Trend %: GPU-hours of the last 12 months against the 12 before"
keys Escape; wait_gone "In Groups:" # the help covers the table (issue 30: as wide as the screen)
G=$(sed -n '5s/^\([^ ]*\) .*/\1/p' "$WORK/screen")
keys 5; wait_for "head-count growth a year"
keys ?; wait_for "head-count growth a year: of the group's active members"; keys Escape
# Group view: the mismatch mark explained in its help.
keys 2 g Enter; wait_for "$G · professor"
keys ?; wait_for "In Group:"; wait_for "≠ x27: stated 27"; keys Escape
# Usage follows the group: its line, its sparklines, requested vs used.
keys 6; wait_for "$G, 12 months: group/all · keys [ and ]: other group"
wait_for "Requested vs used, 12 mo"
wait_for "CPU time used"
keys ?; wait_for "░ under 25 %"; wait_for "▓ under 80 %"; keys Escape; wait_gone "In Usage:"
# The group's CPU time used of allocated, from SQL: its current members'
# attempts since the first day of the model's last 12 months.
since=$(q "SELECT strftime('%s', printf('%04d-%02d-01', max(month) / 100, max(month) % 100), '-11 months')
    FROM usage_month")
want=$(q "WITH cur AS (SELECT user, group_name, row_number() OVER (PARTITION BY user ORDER BY start_date DESC) rk
          FROM people),
     j AS (SELECT ncpus, total_cpu_s, (CASE WHEN elapsed >= 0 THEN start + elapsed ELSE end_time END - start) / 3600.0 h
          FROM jobs WHERE start >= $since AND user_id IN
          (SELECT u.id FROM users u JOIN cur ON cur.user = u.name WHERE cur.rk = 1 AND cur.group_name = '$G'))
    SELECT CASE WHEN 100.0 * sum(total_cpu_s / 3600.0) / sum(ncpus * h) < 9.95
                THEN printf('%.1f%%', 100.0 * sum(total_cpu_s / 3600.0) / sum(ncpus * h))
                ELSE printf('%.0f%%', 100.0 * sum(total_cpu_s / 3600.0) / sum(ncpus * h)) END
    FROM j WHERE ncpus > 0 AND total_cpu_s >= 0 AND h > 0")
got=$(sed -n "s/.*CPU time used *\([0-9.]*%\) .*/\1/p" "$WORK/screen" | head -1); [ -n "$got" ] || cat "$WORK/screen"
[ -n "$want" ] && [ "$got" = "$want" ] || fail "CPU time used of $G: shown '$got', SQL '$want'"
# [ ] moves to another group.
keys ]; wait_gone "$G, 12 months"; wait_for ", 12 months: group/all · keys [ and ]: other group"
tui_quit

# ASCII: a stated need far from the use shows '! x', never the bar '#'.
TUI_ENV="LC_ALL=C" tui_start "$DB" --ascii
keys 2 g Enter; wait_for "$G . professor"
keys e; keys C-u; typ "500"; keys Enter; wait_for "saved: 500 GPUs full-time"
grep -q "! x[0-9]" "$WORK/screen" || { cat "$WORK/screen"; fail "no '! x' mark in ASCII"; }
grep -q "# x[0-9]" "$WORK/screen" && fail "the mismatch mark is the bar glyph in ASCII"
tui_quit
exit 0
