#!/bin/sh
# capplan tui on a database imported from ../shared/data (XDMoD's pozidriv
# log, 8,659 real jobs) with a roster written here and a hostile sacct file
# (a user name and a job name carrying escape sequences): every view's
# title, a sorted column, a filter, drill-down and back, help, a resize to
# 80x24, presentation mode, the hostile names shown harmlessly, an export.
. "$(dirname "$0")/lib.sh"
need_shared
. "$(dirname "$0")/tui_helpers.inc"

DB="$WORK/t.db"
"$CAPPLAN_BIN" --db "$DB" import sacct --fields xdmod "$DATA/sacct-pipe-xdmod/pozidriv.head.log" >/dev/null \
    || fail "import pozidriv"
cat >"$WORK/roster.csv" <<'CSV'
user,group,role,domain,start,end
oprof,lab-ocean,professor,Earth Sciences,2005-01-01,
reebu,lab-ocean,phd-student,Earth Sciences,2014-09-01,2018-08-31
turdo,lab-ocean,phd-student,Earth Sciences,2015-09-01,2019-08-31
sarwa,lab-ocean,msc-student,Earth Sciences,2016-09-01,2017-08-31
shag1,lab-ocean,postdoc,Earth Sciences,2015-01-01,2017-12-31
fprof,lab-fusion,professor,Physics,2008-01-01,
honbu,lab-fusion,phd-student,Physics,2013-09-01,2017-08-31
yebsa,lab-fusion,phd-student,Physics,2016-01-01,2020-08-31
gprof,lab-genome,professor,Life Sciences,2001-01-01,
ovenb,lab-genome,phd-student,Life Sciences,2014-09-01,2018-08-31
litst,lab-genome,msc-student,Life Sciences,2016-09-01,2017-06-30
sante,lab-genome,phd-student,Life Sciences,2015-09-01,2019-08-31
savsp,lab-genome,phd-student,Life Sciences,2016-09-01,2020-08-31
swath,lab-genome,postdoc,Life Sciences,2016-01-01,2018-12-31
ybsbu,lab-genome,phd-student,Life Sciences,2014-09-01,2018-08-31
cprof,lab-climate,professor,Earth Sciences,2010-01-01,
sancr,lab-climate,phd-student,Earth Sciences,2013-09-01,2017-08-31
field,lab-climate,staff,Earth Sciences,2010-01-01,
lanhach,lab-climate,msc-student,Earth Sciences,2016-09-01,2017-08-31
velsc,lab-climate,phd-student,Earth Sciences,2016-09-01,2020-08-31
grath,lab-climate,phd-student,Earth Sciences,2014-09-01,2018-08-31
yebbu,lab-climate,phd-student,Earth Sciences,2015-09-01,2019-08-31
CSV
"$CAPPLAN_BIN" --db "$DB" import roster "$WORK/roster.csv" >/dev/null || fail "import roster"
printf 'JobID|User|Account|Partition|JobName|Submit|Start|End|Elapsed|State|AllocTRES|NCPUS\n9001|evil\033[31mred|calla|black|\033]0;pwned\007\033[2Jx|2016-12-28T10:00:00|2016-12-28T10:05:00|2016-12-28T14:05:00|04:00:00|COMPLETED|cpu=4,gres/gpu=2|4\n' \
    >"$WORK/hostile.psv"
"$CAPPLAN_BIN" --db "$DB" import sacct "$WORK/hostile.psv" >/dev/null || fail "import hostile"

tui_start "$DB"
wait_for "capplan · Overview · scenario base"
wait_for "F10Quit"

# Every view has its title; the tabs and the function bar are there.
for v in "1 Overview" "2 Groups" "3 Group" "4 Profiles" "5 Projection" "6 Usage" "7 Scenarios"; do
    keys "${v%% *}"
    wait_for "capplan · ${v#* } · scenario base"
done
grep -qF "1 Overview 2 Groups 3 Group 4 Profiles 5 Projection 6 Usage 7 Scenarios" "$WORK/screen" || fail "tabs"
keys 6; wait_for "GPUs in use by hour (UTC)"

# Groups: the roster's four groups and the user it does not know.
keys 2; wait_for "lab-ocean"
for g in lab-fusion lab-genome lab-climate "(not in roster)"; do grep -qF -- "$g" "$WORK/screen" || fail "group $g"; done
# s on the first column sorts by group name, again reverses.
keys s; wait_for "Group▲"
order=$(grep -oE '^(lab-[a-z]+|\(not in roster\))' "$WORK/screen" | tr '\n' ' ')
[ "$order" = "(not in roster) lab-climate lab-fusion lab-genome lab-ocean " ] || fail "ascending: $order"
keys s; wait_for "Group▼"
order=$(grep -oE '^(lab-[a-z]+|\(not in roster\))' "$WORK/screen" | tr '\n' ' ')
[ "$order" = "lab-ocean lab-genome lab-fusion lab-climate (not in roster) " ] || fail "descending: $order"
# The preemption column: lab-ocean (63 of 5,461 attempts) before lab-fusion (7 of 3,017).
keys l l l l l l s; wait_for "Preempt %▼"
first=$(grep -oE '^(lab-[a-z]+|\(not in roster\))' "$WORK/screen" | head -2 | tr '\n' ' ')
[ "$first" = "lab-ocean lab-fusion " ] || fail "by preemption: $first"
grep -E '^lab-ocean' "$WORK/screen" | grep -qF "1.2%" || fail "lab-ocean preemption 1.2%"

# Filter by the professor's name, Enter: one match opens the group.
keys / o p r o f; wait_for "filter: oprof"
wait_gone "lab-fusion"
keys Enter
wait_for "capplan · Group · scenario base"
wait_for "lab-ocean · professor oprof · Earth Sciences"
for u in reebu turdo sarwa shag1; do grep -qF "$u" "$WORK/screen" || fail "member $u"; done
keys Escape; wait_for "capplan · Groups · scenario base"
wait_for 'filter "oprof": 1 of 5 rows'
keys Escape; wait_for "lab-fusion"

# Help lists the keys, Esc closes it.
# The view's legend comes first (tui_help.sh reads it); End shows the last page.
keys '?'; wait_for "capplan help"; wait_for "In Groups:"
keys End; wait_for "quit (every edit"
for t in "filter as you type" "presentation mode"; do
    grep -qF "$t" "$WORK/screen" || fail "help: $t"
done
keys Escape; wait_gone "capplan help"
keys F1; wait_for "capplan help"; keys Escape; wait_gone "capplan help"

# The hostile names: shown with '?' for each control character, and the
# terminal's title untouched.
keys / n o t Space i n Enter
wait_for "capplan · Group · scenario base"
wait_for "evil?[31mred"
keys Enter; wait_for "biggest jobs first"
wait_for "?]0;pwned??[2Jx"
[ "$(tm display -p -t 0 '#{pane_title}')" != "pwned" ] || fail "the job name set the terminal title"
keys Escape; wait_for "Member"
keys Escape; wait_for "capplan · Groups"
keys Escape; wait_for "lab-ocean"    # the filter cleared

# Presentation mode: no group, professor or user name left.
keys a; wait_for "[presentation]"
absent "lab-ocean"; absent "oprof"
wait_for "group-"
keys 3; wait_for "capplan · Group · scenario base"
absent "reebu"; absent "evil"
keys a; wait_gone "[presentation]"

# Resize to 80x24: redrawn at the new size, function bar on the last row.
keys 2
tm resize-window -t 0 -x 80 -y 24
i=0
while [ $i -lt 50 ]; do
    screen
    [ "$(wc -l <"$WORK/screen")" -eq 24 ] && row 23 | grep -q "F10Quit" && break
    sleep 0.1; i=$((i + 1))
done
row 23 | grep -q "^F1Help.*F10Quit" || { cat "$WORK/screen"; fail "function bar after resize"; }
row 0 | grep -qF "capplan · Groups · scenario base" || fail "title after resize"
[ "$(row 3 | cut -c1-5)" = "Group" ] || fail "table header after resize: $(row 3)"
python3 -c 'import sys; sys.exit(any(len(l.rstrip("\n")) > 80 for l in open(sys.argv[1], encoding="utf-8")))' \
    "$WORK/screen" || fail "a row wider than 80 columns"

# Export the Groups table as CSV, atomically, into the work folder.
keys x C-u; typ "$WORK/groups.csv"; keys Enter
wait_for "exported 5 rows"
head -1 "$WORK/groups.csv" | grep -q '^Group,Professor,Domain,Students (people),"GPU-hours, last 12 months","Share of GPU-hours, 12 months (%)",Preempted attempts (%),Mean wait (hours)' || fail "CSV header"
grep -q '^lab-ocean,oprof,Earth Sciences,' "$WORK/groups.csv" || fail "CSV row"
ls "$WORK"/groups.csv.* >/dev/null 2>&1 && fail "temporary file left"

tui_quit F10

# A locale that is not UTF-8: ASCII only; NO_COLOR: no colour codes.
TUI_ENV="LC_ALL=C NO_COLOR=1" tui_start "$DB"
wait_for "capplan . Overview . scenario base"
keys 6; wait_for "capplan . Usage . scenario base"
LC_ALL=C grep -q '[^ -~]' "$WORK/screen" && { cat "$WORK/screen"; fail "non-ASCII on an ASCII terminal"; }
tm capture-pane -p -e -t 0 >"$WORK/attrs"
grep -qE "$(printf '\033')\\[([0-9]+;)*(3[0-7]|4[0-7]|38;5|48;5)(;[0-9]+)*m" "$WORK/attrs" \
    && fail "colours despite NO_COLOR"
grep -q "$(printf '\033')\\[[0-9;]*7m" "$WORK/attrs" || fail "no reverse video for the title and selection"
tui_quit
exit 0
