# Shared by the end-to-end scripts: where things are, and small checks.
# CAPPLAN_BIN and CAPPLAN_SHARED come from tests/run.sh.
: "${CAPPLAN_BIN:=$PWD/capplan}"
: "${CAPPLAN_SHARED:=$(cd "$(dirname "$0")/../../.." && pwd)/shared}"
DATA="$CAPPLAN_SHARED/data"
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
