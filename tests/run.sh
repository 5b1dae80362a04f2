#!/bin/sh
# Run every test binary in BUILD/tests and every tests/e2e/*.sh, then print
# one summary line: "tests: N passed, M failed, K skipped".
# Tests that read the shared data folder ($CAPPLAN_SHARED, else ../shared
# beside the checkout) are skipped, one "SKIP:" line each, when it does not
# exist: a clone on its own gets a green run. CI (.ci/run) fails on any skip.
BUILD=${1:-build/sanitize}
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export CAPPLAN_BIN="$PWD/$BUILD/capplan"
# the tests compare error lines exactly: no time stamp in front of them
export CAPPLAN_LOG_TIME="${CAPPLAN_LOG_TIME:-0}"
export CAPPLAN_SHARED="${CAPPLAN_SHARED:-$(cd "$(dirname "$0")/../.." && pwd)/shared}"
passed=0; failed=0; skipped=0; log=$(mktemp)
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    case "$t" in *.o|*.d) continue ;; esac
    "$t" >"$log" 2>&1
    rc=$?
    # cmocka lists a skipped test as "[  SKIPPED ] name"; our line names it
    grep -v '^\[  SKIPPED \] \|^SKIP: ' "$log"
    grep '^\[  SKIPPED \] [A-Za-z_]' "$log" | grep -v 'test(s)' | awk '!seen[$0]++' |
        sed "s|^\[  SKIPPED \] |SKIP: $(basename "$t") |; s|\$|: ../shared/data not found|"
    p=$(grep -o '\[  PASSED  \] [0-9]* test' "$log" | awk '{s+=$4} END {print s+0}')
    f=$(grep -o '\[  FAILED  \] [0-9]* test' "$log" | awk '{s+=$4} END {print s+0}')
    k=$(grep -o '\[  SKIPPED \] [0-9]* test' "$log" | awk '{s+=$4} END {print s+0}')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "FAIL: $t exited $rc"; fi
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + k))
done
# the include rules of the house (issue 27): one test
if sh tests/check_layout.sh >"$log" 2>&1; then
    passed=$((passed + 1)); echo "PASS: tests/check_layout.sh"
else
    failed=$((failed + 1)); cat "$log"; echo "FAIL: tests/check_layout.sh"
fi
# shared_first SCRIPT: the line of its first use of $DATA comes after a
# need_shared line (else a clone without ../shared fails instead of skipping)
shared_first() {
    first=$(grep -n '\$DATA\|\${DATA' "$1" | head -n 1 | cut -d: -f1)
    [ -z "$first" ] && return 0
    need=$(grep -n '^ *need_shared *$' "$1" | head -n 1 | cut -d: -f1)
    [ -n "$need" ] && [ "$need" -lt "$first" ]
}
for t in tests/e2e/*.sh; do
    [ "$(basename "$t")" = lib.sh ] && continue
    [ -f "$t" ] || continue
    if ! shared_first "$t"; then
        failed=$((failed + 1))
        echo "FAIL: $t reads \$DATA (line $first) before calling need_shared"
        continue
    fi
    sh "$t" >"$log" 2>&1
    rc=$?
    if [ "$rc" -eq 0 ]; then
        passed=$((passed + 1)); echo "PASS: $t"
    elif [ "$rc" -eq 77 ]; then
        skipped=$((skipped + 1)); grep '^SKIP: ' "$log" | tail -n 1
    else
        failed=$((failed + 1)); cat "$log"; echo "FAIL: $t"
    fi
done
rm -f "$log"
[ "$skipped" -gt 0 ] && echo "$skipped skipped: ../shared/data not found, set CAPPLAN_SHARED (now $CAPPLAN_SHARED)"
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
