#!/bin/sh
# Run every test binary in BUILD/tests and every tests/e2e/*.sh, then print
# one summary line: "capplan tests: N passed, M failed".
BUILD=${1:-build/sanitize}
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export CAPPLAN_BIN="$PWD/$BUILD/capplan"
export CAPPLAN_SHARED="${CAPPLAN_SHARED:-$(cd "$(dirname "$0")/../.." && pwd)/shared}"
passed=0; failed=0; log=$(mktemp)
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    case "$t" in *.o|*.d) continue ;; esac
    "$t" >"$log" 2>&1
    rc=$?
    cat "$log"
    p=$(grep -o '\[  PASSED  \] [0-9]* test' "$log" | awk '{s+=$4} END {print s+0}')
    f=$(grep -o '\[  FAILED  \] [0-9]* test' "$log" | awk '{s+=$4} END {print s+0}')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "FAIL: $t exited $rc"; fi
    passed=$((passed + p)); failed=$((failed + f))
done
for t in tests/e2e/*.sh; do
    [ "$(basename "$t")" = lib.sh ] && continue
    [ -f "$t" ] || continue
    if sh "$t" >"$log" 2>&1; then
        passed=$((passed + 1)); echo "PASS: $t"
    else
        failed=$((failed + 1)); cat "$log"; echo "FAIL: $t"
    fi
done
rm -f "$log"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
