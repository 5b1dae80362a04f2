#!/bin/sh
# capplan tui on the demo institute, as in a group's meeting (DESIGN.md "A
# planning round"): find the group by its professor, open it, type what a
# student says they need and a note; on the projection, raise the group's
# growth with a reason and see the demand change at once; refused input;
# the edit still there after quitting and reopening, in `capplan project
# --json`, after the terminal is closed; undo. Also Usage, Profiles and
# Scenarios with real content.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"

DB="$WORK/demo.db"
"$CAPPLAN_BIN" --db "$DB" demo --today 2026-11-25 --no-tui --seed 7 --jobs 20000 >/dev/null 2>&1 || fail "capplan demo"
"$CAPPLAN_BIN" --db "$DB" profile >/dev/null || fail "capplan profile"
# The busiest group of the last year and its professor, straight from SQL.
GROUP=$(sqlite3 "$DB" "SELECT p.group_name FROM usage_month m JOIN users u ON u.id = m.user_id
    JOIN people p ON p.user = u.name WHERE p.role <> 'professor'
    AND m.month >= (SELECT max(month) - 100 FROM usage_month)
    GROUP BY p.group_name ORDER BY sum(m.gpu_hours) DESC LIMIT 1")
PROF=$(sqlite3 "$DB" "SELECT professor FROM groups WHERE name = '$GROUP'")
[ -n "$GROUP" ] && [ -n "$PROF" ] || fail "no group or professor in the demo"

json_group() { # EXPR over the group's entry g in `capplan project --json`
    "$CAPPLAN_BIN" --db "$DB" project --scenario plan-2027 --json |
        python3 -c "import json,sys; d=json.load(sys.stdin); g=[x for x in d['groups'] if x['name']=='$GROUP'][0]; print($1)"
}

tui_start "$DB" --scenario plan-2027
wait_for "capplan · Overview · scenario plan-2027"
wait_for "Mean GPU-eq (v100 = 1) a year: capacity ░, use █ (projected: need, p10-p90 ▓▒)"
keys 2; wait_for "capplan · Groups · scenario plan-2027"
keys /; typ "$PROF"; keys Enter
wait_for "capplan · Group · scenario plan-2027"
wait_for "$GROUP · professor $PROF"
wait_for "GPU-h/month"; wait_for "Member"

# A student says they need 2 GPUs full-time: typed in place, saved.
said() { sqlite3 "$DB" "SELECT count(*) FROM stated_needs WHERE group_name = '$GROUP' AND gpus_fulltime = 2"; }
said_before=$(said)
keys e; wait_for "Enter saves, Esc cancels"
keys C-u 2 x Enter; wait_for "refused: '2x' is not a number of GPUs"
keys C-u 2 Enter; wait_for "saved: 2 GPUs full-time"
[ "$(said)" = $((said_before + 1)) ] \
    || fail "stated need not in the database"
keys n; typ "needs the 80 GB class for fine-tuning"; keys Enter; wait_for "note saved"
wait_for "needs the 80 GB class for fine-tuning"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM notes WHERE group_name = '$GROUP'")" -ge 1 ] || fail "note"

# The projection: growth is the first parameter.
keys 5; wait_for "capplan · Projection · scenario plan-2027"
wait_for "growth a year"
keys Enter; wait_for "Enter saves, Esc cancels"
keys C-u; typ "-5"; keys Enter; wait_for "refused: growth cannot be negative"
keys C-u; typ "abc"; keys Enter; wait_for "refused: 'abc' is not a number"
keys C-u; typ "20 two more students next year"; keys Enter
wait_for "saved to plan-2027: need next year"
before=$(sed -n 's/.*need next year \([0-9.]*\) -> \([0-9.]*\) GPU-eq.*/\1/p' "$WORK/screen")
after=$(sed -n 's/.*need next year \([0-9.]*\) -> \([0-9.]*\) GPU-eq.*/\2/p' "$WORK/screen")
[ -n "$after" ] && [ "$before" != "$after" ] || fail "need did not change: $before -> $after"
cp "$WORK/screen" "$WORK/panel"
grep -q "growth a year .* 20%\*" "$WORK/screen" || fail "edited value not marked"
grep -qF "two more stud" "$WORK/screen" || fail "reason not shown"
tui_quit

# In the database at once: capplan project sees it; reopening shows it.
[ "$(json_group "g['params']['growth']['value']")" = 0.2 ] || fail "project --json growth"
[ "$(json_group "g['params']['growth']['edited']")" = True ] || fail "project --json edited"
[ "$(json_group "'%.2f' % g['years'][0]['need']")" = "$after" ] || fail "project --json need"
# the parts' table: need, its p10-p90 per calendar year, as project --json has them
json_group "json.dumps(g['years'][:3])" >"$WORK/gy.json"
python3 - "$WORK" <<'PY' || fail "Projection panel against project --json"
import json, re, sys
w = sys.argv[1]
panel, ys = open(w + '/panel').read(), json.load(open(w + '/gy.json'))
assert re.search(r'GPU-eq +20\d\d +20\d\d +20\d\d', panel), 'unit and years'
for label, get in (('= need', lambda y: y['need']),
                   ('need p10', lambda y: y['need_range']['p10']),
                   ('need p90', lambda y: y['need_range']['p90'])):
    m = re.search(r'%s +(\S+) +(\S+) +(\S+)' % label, panel)
    want = tuple('%.2f' % get(y) if get(y) < 99.995 else '%.1f' % get(y) for y in ys)
    assert m and m.groups() == want, (label, m and m.groups(), want)
    print('PASS-PANEL %-12s %s' % (label.strip(), ' '.join(want)))
PY
tui_start "$DB" --scenario plan-2027
keys 2; keys /; typ "$PROF"; keys Enter; wait_for "$GROUP · professor"
keys 5; wait_for "growth a year"
grep -q "growth a year .* 20%\*" "$WORK/screen" || fail "edit lost after reopening"

# Undo takes back this session's edits only (issue 16 item 3): nothing
# here yet; an edit made now, then u, is back to the 20 % stored before.
keys u; wait_for "nothing to undo in this session"
grep -q "growth a year .* 20%\*" "$WORK/screen" || fail "u undid an earlier session's edit"
keys Enter; typ "30 a third student"; keys Enter; wait_for "saved to plan-2027"
keys u; wait_for "undone and saved: growth of"
grep -q "growth a year .* 20%\*" "$WORK/screen" || fail "u did not put 20% back"
tui_quit
[ "$(json_group "g['params']['growth']['value']")" = 0.2 ] || fail "undo not saved"

# An edit, then the terminal goes away (SIGHUP): the edit is kept.
tui_start "$DB" --scenario plan-2027
keys 2; keys /; typ "$PROF"; keys Enter; wait_for "$GROUP · professor"
keys 5; wait_for "growth a year"
keys j j; keys Enter; keys C-u; typ "50 for safety"; keys Enter; wait_for "saved to plan-2027"
tm kill-server
sleep 0.5
[ "$(json_group "g['params']['buffer']['value']")" = 0.5 ] || fail "edit lost on SIGHUP"

# Usage, Profiles, Scenarios with their content.
tui_start "$DB" --scenario plan-2027
keys 6; wait_for "capplan · Usage · scenario plan-2027"
wait_for "GPUs in use by hour (UTC)"; wait_for "Mon "; wait_for "Requested vs used"
grep -qF "▲" "$WORK/screen" || fail "events not marked"
keys 4; wait_for "capplan · Profiles · scenario plan-2027"
wait_for "profiles of"; wait_for "members:"
keys 7; wait_for "capplan · Scenarios · scenario plan-2027"
wait_for "plan-2027"
grep -q "^base " "$WORK/screen" || fail "base scenario row"
tui_quit

# `capplan demo` on a terminal (what `make demo` runs) opens the dashboard
# on the institute it built; q quits with status 0.
rm -f "$WORK/tui.rc" "$WORK/tui.err"
tm kill-server 2>/dev/null
tm -f /dev/null new-session -d -x 100 -y 30 \
    "env LC_ALL=C.UTF-8 TERM=xterm-256color '$CAPPLAN_BIN' --db '$WORK/made.db' demo --today 2026-11-25 --jobs 5000 --seed 3 2>'$WORK/tui.err'; echo \$? >'$WORK/tui.rc'"
wait_for "capplan · Overview · scenario base"
wait_for "Mean GPU-eq (v100 = 1) a year: capacity ░, use █"
tui_quit
[ "$(sqlite3 "$WORK/made.db" "SELECT count(DISTINCT group_name) FROM people")" = 25 ] || fail "demo database"
exit 0
