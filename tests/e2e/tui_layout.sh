#!/bin/sh
# capplan tui at 80x24 and 200x60 (issue 16 item 11): the function bar
# keeps F1 Help and F10 Quit at 80 columns; spare width goes to the columns
# whose text is cut (Reason, job id, state), so the Jobs view shows ids and
# states whole and a long reason shows whole at 200 columns; the mouse
# wheel scrolls; the terminal is put in SGR mouse mode (1006), so a click
# past column 223 of a wide terminal still lands.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"

DB="$WORK/demo.db"
"$CAPPLAN_BIN" --db "$DB" demo --today 2026-11-25 --no-tui --seed 7 --jobs 20000 >/dev/null 2>&1 || fail "capplan demo"
q() { sqlite3 "$DB" "$1"; }
# The member whose biggest jobs of the last 12 months have the longest ids
# (array jobs: 1234567_89), with their group and its professor.
U=$(q "WITH t AS (SELECT u.name user, j.job_id, row_number() OVER (PARTITION BY j.user_id
        ORDER BY j.gpus * coalesce(j.elapsed, 0) DESC) rk FROM jobs j JOIN users u ON u.id = j.user_id
        WHERE j.start >= (SELECT max(start) FROM jobs) - 365 * 86400)
    SELECT user FROM t WHERE rk <= 12 GROUP BY user ORDER BY sum(length(job_id) >= 10) DESC LIMIT 1")
G=$(q "SELECT group_name FROM people WHERE user = '$U' ORDER BY start_date DESC LIMIT 1")
[ -n "$U" ] && [ -n "$G" ] || fail "no member with array jobs"

# 80x24: the Group view's function bar, then the member's jobs.
TUI_W=80 TUI_H=24 tui_start "$DB"
keys 2; wait_for "capplan · Groups"
keys /; typ "$G"; keys Enter; wait_for "$G · professor"
last=$(sed -n '24p' "$WORK/screen")
case "$last" in F1Help*F10Quit) ;; *) fail "80 columns: function bar '$last'";; esac
keys /; typ "$U"; keys Enter; wait_for "biggest jobs first" # "the 200 ..." when it has 200
wait_for "Job "
# Every job row: its id and state exactly as stored for that member.
sed -n '/^Job  /,/^row [0-9]* of/p' "$WORK/screen" | sed '1d;$d' >"$WORK/rows"
[ "$(wc -l <"$WORK/rows")" -ge 10 ] || { cat "$WORK/screen"; fail "too few job rows"; }
long=0
while read -r id rest; do
    [ -n "$id" ] || continue
    n=$(q "SELECT count(*) FROM jobs j JOIN users u ON u.id = j.user_id WHERE u.name = '$U'
        AND j.job_id = '$id'")
    [ "$n" -ge 1 ] || { cat "$WORK/screen"; fail "job id '$id' is not whole"; }
    st=$(q "SELECT state_raw FROM jobs j JOIN users u ON u.id = j.user_id WHERE u.name = '$U'
        AND j.job_id = '$id' LIMIT 1")
    case " $rest " in *" $st "*) ;; *) fail "state of $id is not whole: '$st' not in '$rest'";; esac
    [ ${#id} -ge 10 ] && long=$((long + 1))
done <"$WORK/rows"
[ "$long" -ge 1 ] || fail "no array job id shown to check"
tui_quit

# 200x60: a long reason shows whole in the Projection's Reason column.
WHY="the two postdocs hired in March run 8-GPU sweeps every week until the deadline"
"$CAPPLAN_BIN" --db "$DB" scenario new plan-2027 >/dev/null || fail "scenario new"
TUI_W=200 TUI_H=60 tui_start "$DB" --scenario plan-2027
keys 2; wait_for "capplan · Groups"
keys /; typ "$G"; keys Enter; wait_for "$G · professor"
"$CAPPLAN_BIN" --db "$DB" scenario set plan-2027 growth=0.2 --group "$G" --reason "$WHY" >/dev/null \
    || fail "scenario set"
# Another process's change shows without r (issue 30 item 3), for a moment.
wait_for "plan-2027 changed by $(id -un) at "; wait_gone "plan-2027 changed by"
keys 5; wait_for "growth a year"
wait_for "$WHY"
# SGR mouse mode is on; the wheel scrolls three rows a notch.
[ "$(tm display -p -t 0 '#{mouse_sgr_flag}')" = 1 ] || fail "the terminal is not in SGR mouse mode"
keys 2; wait_for "capplan · Groups"; keys Escape g; wait_for "row 1 of 25"
typ "$(printf '\033[<65;20;10M')"; wait_for "row 4 of 25"
typ "$(printf '\033[<64;20;10M')"; wait_for "row 1 of 25"
tui_quit

# 240 columns: a click at column 231 selects the row it is on; the wheel
# scrolls. On every xterm-compatible terminal, not only those whose
# terminfo asks for SGR (xterm-256color): tmux's and screen's entries
# (kmous \e[M, no XM) get SGR mode from the dashboard itself.
for term in xterm-256color tmux-256color screen-256color; do
    infocmp "$term" >/dev/null 2>&1 || { echo "no terminfo for $term: skipped"; continue; }
    TUI_ENV="TERM=$term" TUI_W=240 TUI_H=40 tui_start "$DB" --scenario base
    keys 2; wait_for "row 1 of 25"
    [ "$(tm display -p -t 0 '#{mouse_sgr_flag}')" = 1 ] || fail "TERM=$term: not in SGR mouse mode"
    hy=$(grep -n "^Group " "$WORK/screen" | head -1 | cut -d: -f1) # 1-based row of the header
    typ "$(printf '\033[<0;231;%dM\033[<0;231;%dm' $((hy + 3)) $((hy + 3)))"
    wait_for "row 3 of 25"
    typ "$(printf '\033[<65;231;10M')"; wait_for "row 6 of 25"
    typ "$(printf '\033[<64;20;10M')"; wait_for "row 3 of 25"
    tui_quit
    [ "$(tm display -p -t 0 '#{mouse_sgr_flag}' 2>/dev/null)" != 1 ] || fail "TERM=$term: SGR left on"
done
exit 0
