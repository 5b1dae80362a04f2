#!/usr/bin/env bash
# tests/slurm/test_two_dbds.sh -- two slurmdbds collected into one capplan
# database (`make test-slurm` runs it after test_collect.sh). Two private
# sandboxes (tests/slurm/sandbox.sh), each its own munge, MariaDB, slurmdbd,
# slurmctld and cluster (capplan-test on ports 16817.., capplan-two on
# 16917..), one job in each; then
#   capplan collect --sacct 'env SLURM_CONF=A/etc/slurm.conf sacct'
#   capplan collect --sacct 'env SLURM_CONF=B/etc/slurm.conf sacct'
# into one database: each source's first collect reads from 2000-01-01 in
# one sacct (the command has words before sacct: another machine's way, one
# session for the whole window), each keeps its own window, and both jobs
# are there; a second round continues each from its own window less a day.
# Needs root and Debian's Slurm packages (test_collect.sh installs them).
#
#   CAPPLAN_BIN       the capplan to test [./capplan]
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CAPPLAN=${CAPPLAN_BIN:-$ROOT/capplan}
export CAPPLAN_LOG_TIME=${CAPPLAN_LOG_TIME:-0}
SANDBOX=$HERE/sandbox.sh
passed=0 failed=0
log() { echo "test_two_dbds: $*" >&2; }
pass() { passed=$((passed + 1)); echo "PASS: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
finish() {
    echo "$passed passed, $failed failed"
    [[ $failed -eq 0 && $passed -gt 0 ]] && exit 0
    exit 1
}
abort() { fail "$*"; finish; }

[[ $(id -u) == 0 ]] || abort "must run as root (it starts Slurm's daemons)"
[[ -x $CAPPLAN ]] || abort "no capplan at $CAPPLAN (make capplan)"
command -v slurmdbd >/dev/null || [[ -x /usr/sbin/slurmdbd ]] \
    || abort "slurmdbd missing (tests/slurm/test_collect.sh installs the packages)"

A=$(mktemp -d /tmp/capplan-slurm-a.XXXXXX)
B=$(mktemp -d /tmp/capplan-slurm-b.XXXXXX)
WORK=$(mktemp -d /tmp/capplan-two.XXXXXX)
DB=$WORK/capplan.db
cleanup() {
    trap - EXIT INT TERM
    CP_SLURM_PORT_BASE=16900 CP_SLURM_CLUSTER=capplan-two "$SANDBOX" clean "$B" >/dev/null 2>&1 || true
    "$SANDBOX" clean "$A" >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'fail "interrupted"; finish' INT TERM

"$SANDBOX" start "$A" 2>"$WORK/a.log" || { tail -n 30 "$WORK/a.log"; abort "sandbox A start"; }
CP_SLURM_PORT_BASE=16900 CP_SLURM_CLUSTER=capplan-two "$SANDBOX" start "$B" 2>"$WORK/b.log" \
    || { tail -n 30 "$WORK/b.log"; abort "sandbox B start"; }
log "two sandboxes up: $A (capplan-test), $B (capplan-two)"

# one short job in each, as the same user; wait until each slurmdbd has it
run_job() { # run_job DIR: submit, wait for COMPLETED in its accounting; prints the id
    local conf=$1/etc/slurm.conf id end=$((SECONDS + 90))
    id=$(su - cpt_alice -c "SLURM_CONF=$conf sbatch --parsable -p main -n 1 --wrap 'sleep 2'" 2>>"$WORK/sbatch.err") || return 1
    until SLURM_CONF=$conf TZ=UTC sacct -n -X -P -j "$id" --format=State 2>/dev/null | grep -q '^COMPLETED'; do
        ((SECONDS < end)) || return 1
        sleep 0.5
    done
    echo "$id"
}
JA=$(run_job "$A") || abort "job in A: $(cat "$WORK/sbatch.err")"
JB=$(run_job "$B") || abort "job in B: $(cat "$WORK/sbatch.err")"
log "jobs: $JA in capplan-test, $JB in capplan-two"

# a wrapper that counts the sacct runs (the sessions a first collect opens)
cat >"$WORK/count" <<EOF
#!/bin/sh
echo "\$*" >>"$WORK/calls"
exec "\$@"
EOF
chmod 755 "$WORK/count"
SA="$WORK/count env SLURM_CONF=$A/etc/slurm.conf sacct"
SB="$WORK/count env SLURM_CONF=$B/etc/slurm.conf sacct"
round() { # collect A, then B, into one database: "CALLS SUMMARY" lines
    for src in "$SA" "$SB"; do
        rm -f "$WORK/calls"
        if "$CAPPLAN" --db "$DB" collect --sacct "$src" >"$WORK/out" 2>"$WORK/err"; then
            echo "$(grep -c " sacct " "$WORK/calls") $(cat "$WORK/out")"
        else
            echo "FAILED $(cat "$WORK/err")"
        fi
    done
}
r1=$(round)
la=$(sed -n 1p <<<"$r1") lb=$(sed -n 2p <<<"$r1")
if [[ $la == "1 collect: sacct since 2000-01-01T00:00:00Z: "* && $lb == "1 collect: sacct since 2000-01-01T00:00:00Z: "* ]]; then
    pass "each slurmdbd's first collect: from 2000-01-01, one sacct for the whole window"
else
    fail "first collects: A '$la', B '$lb'"
fi
got=$(sqlite3 "$DB" "SELECT c.name || ':' || j.job_raw FROM jobs j JOIN clusters c ON c.id = j.cluster_id ORDER BY c.name")
if [[ $got == "capplan-test:$JA"$'\n'"capplan-two:$JB" ]]; then
    pass "both slurmdbds' jobs in one database: capplan-test:$JA, capplan-two:$JB"
else
    fail "jobs in the database: $(echo $got), capplan-test:$JA capplan-two:$JB expected"
fi
w=$(sqlite3 "$DB" "SELECT count(DISTINCT source) || ' ' || count(*) FROM collect_windows")
if [[ $w == "2 2" ]]; then pass "two sources, one window each"; else fail "windows: $w (2 sources, 2 windows expected)"; fi

# the second round: each from its own window's end, less a day
declare -A until_of
for s in "$SA" "$SB"; do until_of[$s]=$(sqlite3 "$DB" "SELECT max(until) FROM collect_windows WHERE source = '$s'"); done
r2=$(round)
ok=1
for s in "$SA" "$SB"; do
    n=$(sqlite3 "$DB" "SELECT count(*) FROM collect_windows WHERE source = '$s' AND since = ${until_of[$s]} - 86400")
    [[ $n == 1 ]] || { ok=0; fail "second collect of $s: $(sqlite3 "$DB" "SELECT source, since, until FROM collect_windows")"; }
done
grep -q FAILED <<<"$r2" && { ok=0; fail "second round: $r2"; }
[[ $ok == 1 ]] && pass "second round: each source from its own window less a day ($(sed 's/^[0-9]* collect: //' <<<"$r2" | tr '\n' ';'))"

if "$SANDBOX" stop "$A" 2>/dev/null &&
    CP_SLURM_PORT_BASE=16900 CP_SLURM_CLUSTER=capplan-two "$SANDBOX" stop "$B" 2>/dev/null; then
    pass "both sandboxes stopped"
else
    fail "stopping the sandboxes"
fi
finish
