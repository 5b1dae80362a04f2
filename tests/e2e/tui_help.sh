#!/bin/sh
# capplan tui, issue 30 item 5: F1 explains every column, mark and shade of
# every view. On the demo with research clusters (the Group view's Research
# column), at 80x24 and 200x60: each view (and the Group view's member
# jobs) opened, F1 pressed and read to its end page by page (PgDn, the
# header's "lines A-B of N" stitching the pages), as a person would; then
# every column title of the view's table is explained as "Title:" (at
# 200x60 every title is also checked to be the one on screen), the view's
# marks and shades are named, nothing of the help is cut (no "…" in the
# box), and the keys follow; the member jobs have a legend of their own
# ("In Group, a member's jobs:"), not the members' columns (issue 30 #3m).
# Before: only the Group view's Research column
# was in the help; the Usage table's Cluster, the member jobs' columns,
# Profiles' Users and the sort arrows were not.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"

DB="$WORK/demo.db"
"$CAPPLAN_BIN" --db "$DB" demo --today 2026-11-25 --no-tui --seed 7 --jobs 20000 >/dev/null 2>&1 \
    || fail "capplan demo"
"$CAPPLAN_BIN" --db "$DB" profile >/dev/null || fail "capplan profile"
"$CAPPLAN_BIN" --db "$DB" research >/dev/null || fail "capplan research"

# read_help NAME: F1, every page to the last (PgDn), Esc; the view's screen
# in $WORK/NAME.view, the box's lines in $WORK/NAME.help (one a line, in order).
read_help() {
    screen; cp "$WORK/screen" "$WORK/$1.view"
    keys F1; wait_for "capplan help"
    : >"$WORK/$1.pages"
    i=0
    while [ $i -lt 40 ]; do
        screen
        hd=$(row 1 | sed -n 's/.*lines \([0-9]*\)-\([0-9]*\) of \([0-9]*\).*/\1 \2 \3/p')
        [ -n "$hd" ] || { cat "$WORK/screen"; fail "$1: the help's header says no lines A-B of N"; }
        settled || continue
        echo "PAGE $hd" >>"$WORK/$1.pages"
        cat "$WORK/screen" >>"$WORK/$1.pages"
        set -- "$1" $hd
        [ "$3" -lt "$4" ] || break
        keys NPage
        j=0
        while [ $j -lt 50 ] && row 1 | grep -q "lines $2-$3 of"; do sleep 0.1; screen; j=$((j + 1)); done
        i=$((i + 1))
    done
    python3 - "$WORK/$1.pages" "$TUI_W" "$TUI_H" >"$WORK/$1.help" <<'PY' || fail "$1: the pages do not stitch"
import re, sys
w, h = int(sys.argv[2]), int(sys.argv[3])
bw = 100 if w > 104 else w
x0 = (w - bw) // 2
lines, total = {}, None
for page in open(sys.argv[1]).read().split("PAGE ")[1:]:
    head, *rows = page.split("\n")
    a, b, total = map(int, head.split())
    for k in range(a, b + 1):
        lines[k] = rows[2 + k - a][x0 + 1:x0 + bw].rstrip()
assert sorted(lines) == list(range(1, total + 1)), "lines missing: %s of %d" % (sorted(lines), total)
for k in sorted(lines):
    print(lines[k])
PY
    keys Escape; wait_gone "capplan help"
}

for size in 80x24 200x60; do
    TUI_W=${size%x*}; TUI_H=${size#*x}
    tui_start "$DB"
    keys 1; wait_for "capplan · Overview"; read_help "$size-1"
    for v in 2:Groups 3:Group 4:Profiles 5:Projection 6:Usage 7:Scenarios; do
        keys "${v%%:*}"; wait_for "capplan · ${v#*:}"
        case $v in 5:*) wait_for "Parameter" ;; 6:*) wait_for "GPUs in use by hour" ;; esac
        read_help "$size-${v%%:*}"
    done
    keys 3; wait_for "capplan · Group"; keys Enter; wait_for "biggest jobs first"
    read_help "$size-3m"
    tui_quit
done

python3 - "$WORK" <<'PY' || fail "the help does not explain what the views show"
import re, sys
w = sys.argv[1]
cols = {
    "1": ["!", "Alert", "Value"],
    "2": ["Group", "Professor", "Domain", "Stud.", "GPU-h", "Share %", "Preempt %", "Wait",
          "Trend %", "Need", "p10-p90", "vs base"],
    "3": ["Member", "Role", "Until", "Profile", "GPU-h", "GPUs used", "Stated", "vs used",
          "Preempt %", "Wait", "Jobs", "GPU-h a month, 24 months", "Research"],
    "3m": ["Job", "Name", "Cluster", "Partition", "State", "Start", "Run time", "GPUs", "GPU-h",
           "Mem GiB"],
    "4": ["#", "Profile", "Users", "GPUs/job", "Mem GiB", "Mean h", "Max h", "GPU-h/mo", "Peak",
          "GPU-eq/member"],
    "5": ["Parameter", "Measured", "Scenario", "Reason"],
    "6": ["Month", "Cluster", "GPU-h", "GPUs", "Util %", "Jobs", "Wait", "Event"],
    "7": ["Scenario", "Shown", "Made from", "Edits (count)"],
}
marks = {
    "1": ["\u2591 capacity", "\u2588 use", "\u2593 p10 to the need", "\u2592 the need to p90",
          "! warning", "!! bad", "+1y", "to meet:", "Next year cap/need, GPU-eq:",
          "Utilisation, 36 months:", "red: use beyond capacity"],
    "2": ["n/cal: not calibrated", "Dim rows:", "yellow over 10 %", "highlighted when above"],
    "3": ["R3?", "\u2260 x27", "\u2581 none to \u2588", "profiles P1\u00d73", "GPU-h/month:",
          "whom to ask", "Dim rows:"],
    "3m": ["The top line: the member", "GPU-h/month:", "biggest jobs first", "Esc: back",
           "Mem GiB: its peak GPU memory"],
    "4": ["* requested, not measured", "Dots:", "silhouette"],
    "5": ["\u2502 capacity", "now: used over the last 12 months", "\u2593 p10 to the need",
          "Need in parts", "why (...)", "buy a100 GPUs from 2027:"],
    "6": ["\u25b2 the month of an event", "\u2591 under 25 %", "\u2588 = N GPUs", "blk",
          "GPU-h %:", "Requested vs used", "red over 90 %", "over 100%: jobs held N GPUs"],
    "7": ["\u25cf the one every view shows", "A -> B", "A and B mark the two compared"],
}
every = ["\u25bc or \u25b2 after a column's title", "\u2026: text cut to fit", "Keys:", "in an edit"]
names = {"1": "Overview", "2": "Groups", "3": "Group", "3m": "Group, a member's jobs", "4": "Profiles",
         "5": "Projection", "6": "Usage", "7": "Scenarios"}
bad = []
for size in ("80x24", "200x60"):
    for v in cols:
        lines = open("%s/%s-%s.help" % (w, size, v)).read().split("\n")
        text = re.sub(r"\s+", " ", " ".join(l.strip() for l in lines))
        if lines[0].strip() != "In %s:" % names[v]:
            bad.append("%s %s: the help starts %r" % (size, v, lines[0]))
        for l in lines:
            if "\u2026" in l and "text cut to fit" not in l:
                bad.append("%s %s: a help line is cut: %r" % (size, v, l))
        for c in cols[v]:
            if c + ":" not in text:
                bad.append("%s view %s: column %r not explained" % (size, v, c))
        for m in marks[v] + every:
            if m not in text:
                bad.append("%s view %s: %r not in the help" % (size, v, m))
        # each table its own legend: the member jobs' columns are not the
        # Group view's, nor its members' columns the jobs' (issue 30)
        other = {"3": "3m", "3m": "3"}.get(v)
        for c in cols[other] if other else []:
            if c not in cols[v] and c + ":" in text:
                bad.append("%s view %s: column %r of %s explained here" % (size, v, c, other))
        if size == "200x60":  # every column shows: the titles are the screen's
            view = open("%s/%s-%s.view" % (w, size, v)).read().replace("\u25bc", " ").replace("\u25b2", " ")
            for c in cols[v]:
                if not re.search(r"(^|\s)%s(\s|$)" % re.escape(c), view, re.M):
                    bad.append("%s view %s: column %r not on the screen" % (size, v, c))
            if v == "3" and not re.search(r" R\d\?? *$", view, re.M):
                bad.append("the Group view shows no research cluster (R3)")
        print("PASS %s %-10s %3d help lines, %2d columns and %2d marks explained"
              % (size, names[v], len(lines), len(cols[v]),
                 len(marks[v]) + len(every)))
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
exit 0
