# Shared by the end-to-end scripts: where things are, and small checks.
# CAPPLAN_BIN and CAPPLAN_SHARED come from tests/run.sh.
: "${CAPPLAN_BIN:=$PWD/capplan}"
: "${CAPPLAN_SHARED:=$(cd "$(dirname "$0")/../../.." && pwd)/shared}"
: "${CAPPLAN_LOG_TIME:=0}"
export CAPPLAN_LOG_TIME
DATA="$CAPPLAN_SHARED/data"
# need_shared: a script that reads ../shared/data calls this first; without
# the folder (a clone on its own) it prints one SKIP line and exits 77,
# which tests/run.sh counts as skipped.
need_shared() {
    [ -d "$DATA" ] && return 0
    echo "SKIP: $(basename "$0"): ../shared/data not found, set CAPPLAN_SHARED"
    exit 77
}
WORK=$(mktemp -d /tmp/capplan-e2e.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cap() { "$CAPPLAN_BIN" --db "$WORK/t.db" "$@"; }
fail() { echo "FAIL: $*"; exit 1; }
# expect_rc RC CMD...: run CMD, check its exit status
expect_rc() {
    want=$1; shift
    "$@" >"$WORK/out" 2>"$WORK/err"
    got=$?
    [ "$got" -eq "$want" ] || { cat "$WORK/out" "$WORK/err"; fail "$* exited $got, expected $want"; }
}
# json_get EXPR: evaluate a python expression over `capplan status --json` as d
json_get() {
    cap status --json | python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"
}
