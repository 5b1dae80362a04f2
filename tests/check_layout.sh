#!/bin/sh
# check_layout: the include rules of the house (issue 27), read from the
# #include "..." lines of core/, data/, reports/, tui/ and cli/:
#   1. the floors: cli -> tui -> reports -> data -> core; nothing includes a
#      room above its own;
#   2. inside data/: store includes core only; ingest and plan include store
#      and core (never each other, never demo); demo may include all of data/;
#   3. no circle of includes between the rooms (core, data/store,
#      data/ingest, data/plan, data/demo, reports, tui, cli).
# Prints one line per broken rule (file:line: what and why); exit 1 if any.
# Run from anywhere: sh tests/check_layout.sh
cd "$(dirname "$0")/.." || exit 1
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
# shellcheck disable=SC2046
awk -v edges="$edges" '
function room(p,    parts) {
    if (p ~ /^data\//) { split(p, parts, "/"); return "data/" parts[2] }
    split(p, parts, "/"); return parts[1]
}
function floor_of(r) {
    if (r == "core") return 1
    if (r ~ /^data\//) return 2
    if (r == "reports") return 3
    if (r == "tui") return 4
    if (r == "cli") return 5
    return 0
}
# "" when from may include to, else why not
function why(from, to,    ff, ft) {
    if (from == to) return ""
    ff = floor_of(from); ft = floor_of(to)
    if (ff == 0 || ft == 0) return ""
    if (ff == 2 && ft == 2) {
        if (from == "data/demo") return ""
        if (from == "data/store") return "data/store includes core only"
        if (to == "data/store") return ""
        return from " includes data/store and core only"
    }
    if (ft > ff) return from " is below " to ": cli -> tui -> reports -> data -> core"
    return ""
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
    inc = $0
    sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
    if (inc !~ /\//) { d = FILENAME; sub(/[^\/]*$/, "", d); inc = d inc }
    w = why(room(FILENAME), room(inc))
    if (w != "") { printf "%s:%d: includes %s: %s\n", FILENAME, FNR, inc, w; bad = 1 }
    a = room(FILENAME); b = room(inc)
    if (a != b && floor_of(b) > 0) print a, b > edges
}
END { exit bad }
' $(find core data reports tui cli -name '*.[ch]' | sort)
rc=$?
loops=$(sort -u "$edges" | tsort 2>&1 >/dev/null | sed 's/^tsort: //' |
    awk '/input contains a loop/ { if (l != "") print l; l = "circle:"; next } { l = l " " $0 }
         END { if (l != "") print l }')
if [ -n "$loops" ]; then
    echo "$loops" | sed 's/$/ (each includes the next, the last the first)/'
    rc=1
fi
exit $rc
