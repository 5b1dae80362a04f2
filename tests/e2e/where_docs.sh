#!/bin/sh
# The map stays true (issue 27): every `file` and `file:name` that
# docs/where.md ("Where things are") names exists: the file in the tree,
# the name defined at file scope in that file (a line that is not indented,
# not a comment, not a preprocessor line, holding the whole word). Every
# room (core, data and its four rooms, reports, tui, cli) has its README.md
# of three lines. The check is shown to fail on a name that is not there.
cd "$(dirname "$0")/../.." || exit 1
doc=docs/where.md
# defined FILE NAME: 0 when NAME is defined at file scope in FILE
defined() {
    grep -Eq "^[^ 	#/*].*(^|[^A-Za-z0-9_])$2([^A-Za-z0-9_]|\$)" "$1"
}
defined core/civil.c civil_days || { echo "FAIL: the check misses civil_days"; exit 1; }
defined core/civil.c civil_days_of_issue_27 && { echo "FAIL: the check finds a name that is not there"; exit 1; }
refs=$(grep -o '`[A-Za-z0-9_./-]*\.[ch]\(:[A-Za-z_][A-Za-z0-9_]*\)\{0,1\}`' "$doc" | tr -d '`' | sort -u)
n=0; bad=0
for r in $refs; do
    n=$((n + 1))
    f=${r%%:*}
    if [ ! -f "$f" ]; then
        echo "FAIL: $doc names $f: no such file"; bad=1; continue
    fi
    case $r in
    *:*) defined "$f" "${r#*:}" || { echo "FAIL: $doc names ${r#*:} in $f: not defined there"; bad=1; } ;;
    esac
done
[ "$n" -ge 40 ] || { echo "FAIL: $doc names $n files and functions, expected 40 or more"; bad=1; }
for d in core data data/ingest data/store data/plan data/demo reports tui cli; do
    lines=$(grep -c . "$d/README.md" 2>/dev/null || echo 0)
    [ "$lines" -eq 3 ] || { echo "FAIL: $d/README.md has $lines lines, expected 3"; bad=1; }
done
[ "$bad" -eq 0 ] || exit 1
echo "PASS: where_docs ($n names in $doc, 9 READMEs)"
