#!/bin/sh
# capplan tui in a group's meeting (issue 10): the Group view shows whom to
# ask; a student's stated need typed in place is marked against the
# measured use (the tolerance of data/plan/meetings.h); e on the Prof column
# applies it to the students of the same profile as a scenario edit with
# its reason; the Projection view (5) shows the per-member GPU-eq and the
# need change; u takes it back. The Overview lists the groups to meet.
# m plans or records a meeting on the Group view's meetings line (refused
# in place when bad, u takes it back); `capplan meetings list` shows it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"

DB="$WORK/demo.db"
"$CAPPLAN_BIN" --db "$DB" demo --no-tui --seed 7 --jobs 20000 --today 2026-11-25 >/dev/null 2>&1 \
    || fail "capplan demo"
"$CAPPLAN_BIN" --db "$DB" profile >/dev/null || fail "capplan profile"
printf 'group,date,attendees,status\nkapoor-lab,2026-11-20,mkapoor,held\n' >"$WORK/m.csv"
"$CAPPLAN_BIN" --db "$DB" meetings import "$WORK/m.csv" >/dev/null || fail "meetings import"
# chansen (tanaka-lab, profile 2, no stated need) is one of those to ask
PROF=$("$CAPPLAN_BIN" --db "$DB" meetings pick --json | python3 -c "
import json,sys
d=json.load(sys.stdin)
print([x['profile'] for x in d['picks'] if x['user']=='chansen' and x['group']=='tanaka-lab'][0])")
[ "$PROF" = 2 ] || fail "chansen is not picked for profile 2: '$PROF'"
# P2's members' mean rate (GPU-eq) as the Projection view shows it (fmt_gpus)
P2=$("$CAPPLAN_BIN" --db "$DB" project --json | python3 -c "
import json,sys
v=json.load(sys.stdin)['profiles'][1]['gpus']['measured']
print('%.2f' % v if abs(v) < 0.995 else '%.1f' % v)")
P2RE=$(echo "$P2" | sed 's/\./\\./')

tui_start "$DB" --scenario plan-2027
wait_for "capplan · Overview · scenario plan-2027"
# six groups with meeting notes and kapoor-lab's held meeting: 18 of 25 to meet
wait_for "to meet: 18 of 25 groups ("
absent "kapoor-lab, "
keys 2; keys /; typ "Tanaka"; keys Enter
wait_for "tanaka-lab · professor ktanaka"
# pito is not asked: his roster end (2026-01-28) is past (issue 16 item 6)
wait_for "whom to ask (nearest their profile's centroid): P1 rlaurent, pjansen · P2 chansen, igomez"
keys /; typ "chansen"; keys Enter; wait_for "biggest jobs first"; keys Escape
wait_for "chansen: no stated need"

# the student says 3 GPUs full-time: saved, and marked against 0.03 used
keys e; wait_for "Enter saves, Esc cancels"
keys C-u; typ "-1"; keys Enter; wait_for "refused: '-1' is not a number of GPUs"
keys C-u 3 Enter; wait_for "saved: 3 GPUs full-time (measured 0.03)"
wait_for "chansen says 3 GPUs full-time ($(date -u +%Y)-" # typed today
wait_for "used a mean of 0.03 over 12 months"
grep -q "^chansen .* 3\.0 ≠ x99 " "$WORK/screen" || { cat "$WORK/screen"; fail "mismatch not marked"; }
[ "$(sqlite3 "$DB" "SELECT gpus_fulltime FROM stated_needs WHERE user='chansen'")" = 3.0 ] \
    || fail "stated need not saved"

# the projection before
keys 5; wait_for "capplan · Projection · scenario plan-2027"
wait_for "GPU-eq/member P2"
grep -q "^GPU-eq/member P2 [^0-9]* $P2RE  *$P2RE\( \|$\)" "$WORK/screen" || { cat "$WORK/screen"; fail "P2 before"; }
d0=$(sed -n 's/^.* = need  *\([0-9.k]*\) .*/\1/p' "$WORK/screen" | head -1)

# apply it to the profile: e on the Prof column, a reason
keys 3; wait_for "tanaka-lab · professor ktanaka"
keys Left Left Left; keys e
wait_for "apply 3 GPUs full-time to the 3 P2 students, reason"
# issue 30 item 1: the form names the parameter as people say it, the
# value before and the one applied, the reason typed, the need before -> after
wait_for " Edit GPU-eq a member, P2 "
wait_for " was   $P2"
wait_for " new   3, as chansen stated"
grep -q "^ then  need next year: group [0-9.]* -> [0-9.]*, institute" "$WORK/screen" || { cat "$WORK/screen"; fail "no need before -> after"; }
typ "the professor agrees"; keys Enter
wait_for "applied to plan-2027: GPU-eq a member, P2 of tanaka-lab = 3 (was $P2); u undoes"
keys 5; wait_for "capplan · Projection · scenario plan-2027"
wait_for "3.0* the professor"
d1=$(sed -n 's/^.* = need  *\([0-9.k]*\) .*/\1/p' "$WORK/screen" | head -1)
[ -n "$d1" ] && [ "$d0" != "$d1" ] || { cat "$WORK/screen"; fail "demand did not change: $d0 -> $d1"; }
reason=$(sqlite3 "$DB" "SELECT reason FROM scenario_params WHERE key='gpus.2'")
case "$reason" in
"the professor agrees; stated by chansen (tanaka-lab, "$(date -u +%Y)"-"*"): 3 GPUs full-time, applied to the 3 students of profile P2 in tanaka-lab") ;;
*) fail "reason: $reason" ;;
esac

# undo: the measured value again
keys u; wait_for "undone and saved"
wait_for "GPU-eq/member P2"
grep -q "^GPU-eq/member P2 [^0-9]* $P2RE  *$P2RE\( \|$\)" "$WORK/screen" || { cat "$WORK/screen"; fail "P2 after undo"; }
[ "$(sqlite3 "$DB" "SELECT count(*) FROM scenario_params WHERE key='gpus.2'")" = 0 ] || fail "undo not saved"

# m plans a meeting on the Group view's meetings line: a bad line is
# refused in place (the line stays open, nothing saved), a good one is
# saved at once, shown, and u takes it back
meetings_of() { sqlite3 "$DB" "SELECT date || ' ' || status || ' ' || attendees FROM meetings WHERE group_name='$1' ORDER BY date"; }
TODAY=$(date -u +%Y-%m-%d)
keys 3; wait_for "tanaka-lab · professor ktanaka"
wait_for " meetings: none yet · m plans one"
keys m; wait_for "meeting: DATE STATUS [ATTENDEES]: Enter saves, Esc cancels"
wait_for " meeting: $TODAY planned"
keys C-u; typ "2026-02-30 held cwang"; keys Enter
wait_for "refused: '2026-02-30' is not a date (YYYY-MM-DD)"
wait_for " meeting: 2026-02-30 held cwang"
keys C-u; typ "2020-01-01 planned cwang"; keys Enter
wait_for "refused: 2020-01-01 is in the past for a planned meeting (today is $TODAY)"
wait_for " meeting: 2020-01-01 planned cwang"
[ -z "$(meetings_of tanaka-lab)" ] || fail "a refused meeting was saved: $(meetings_of tanaka-lab)"
keys C-u; typ "2099-12-03 planned ktanaka; cwang"; keys Enter
wait_for "meeting saved: 2099-12-03 planned (ktanaka;cwang); u undoes"
wait_for " meetings: next 2099-12-03 planned (ktanaka;cwang) · m plans one"
[ "$(meetings_of tanaka-lab)" = "2099-12-03 planned ktanaka;cwang" ] || fail "meeting not saved: $(meetings_of tanaka-lab)"
# presentation mode: the attendees counted, not named
keys a; wait_for " meetings: next 2099-12-03 planned (2 attendees) · m plans one"
absent "ktanaka;cwang"
keys a; wait_for "(ktanaka;cwang)"
keys u; wait_for "undone and saved"
wait_for " meetings: none yet · m plans one"
[ -z "$(meetings_of tanaka-lab)" ] || fail "undo not saved: $(meetings_of tanaka-lab)"

# a held meeting: the group is met, the Overview's list is one shorter
keys 2; keys /; keys C-u; typ "alvarez"; keys Enter
wait_for "alvarez-lab · professor"
keys m C-u; typ "2026-11-18 held pnakamura"; keys Enter
wait_for "meeting saved: 2026-11-18 held (pnakamura); u undoes"
wait_for " meetings: 2026-11-18 held (pnakamura) · m plans one"
keys 1; wait_for "to meet: 17 of 25 groups ("
tui_quit
"$CAPPLAN_BIN" --db "$DB" meetings list >"$WORK/list" || fail "meetings list"
grep -q "^2026-11-18 alvarez-lab  *held  *pnakamura$" "$WORK/list" || { cat "$WORK/list"; fail "meetings list: the dashboard's meeting"; }
grep -q "17 of 25 groups still to meet" "$WORK/list" || { cat "$WORK/list"; fail "meetings list: to meet"; }
echo "PASS tui_meetings"
