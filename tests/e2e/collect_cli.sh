#!/bin/sh
# capplan collect with a stand-in sacct (no Slurm needed; the real one is
# tests/slurm/test_collect.sh): the arguments and environment sacct gets,
# the window kept in the database, and every way sacct can fail.
. "$(dirname "$0")/lib.sh"

# The stand-in: records its arguments and environment, prints $FAKE_OUT,
# writes $FAKE_ERR to stderr, exits $FAKE_RC (or kills itself: FAKE_RC=kill).
FAKE="$WORK/sacct"
cat >"$FAKE" <<'EOF'
#!/bin/sh
printf '%s\n' "$@" >"$FAKE_ARGS"
echo "TZ=$TZ SLURM_TIME_FORMAT=$SLURM_TIME_FORMAT" >>"$FAKE_ARGS"
[ -n "${FAKE_OUT:-}" ] && cat "$FAKE_OUT"
[ -n "${FAKE_ERR:-}" ] && printf '%s\n' "$FAKE_ERR" >&2
[ "${FAKE_RC:-0}" = kill ] && kill -9 $$
exit "${FAKE_RC:-0}"
EOF
chmod 755 "$FAKE"
export FAKE_ARGS="$WORK/args" FAKE_OUT FAKE_ERR FAKE_RC
col() { cap collect --sacct "$FAKE" "$@"; }
arg_after() { grep -A1 -x -- "$1" "$FAKE_ARGS" | tail -n 1; }
dump() { sqlite3 "$WORK/t.db" .dump | sha256sum; }
utc() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%S; }
SANDBOX="$DATA/slurm-sandbox"

# ---- the first collect: everything, capplan's fields, TZ=UTC ----
FAKE_OUT="$SANDBOX/sacct_wide_allstates.psv" FAKE_ERR="" FAKE_RC=0
expect_rc 0 env TZ=Europe/Paris SLURM_TIME_FORMAT=relative \
    "$CAPPLAN_BIN" --db "$WORK/t.db" collect --sacct "$FAKE"
grep -q '^collect: sacct since 2000-01-01T00:00:00Z: sacct-text, 59 rows read, 20 added' "$WORK/out" \
    || fail "first collect: $(cat "$WORK/out" "$WORK/err")"
for a in -a -D -P -E; do grep -qx -- "$a" "$FAKE_ARGS" || fail "sacct argument $a missing"; done
[ "$(arg_after -S)" = 2000-01-01T00:00:00 ] || fail "first -S: $(arg_after -S)"
[ "$(arg_after -E)" = now ] || fail "-E now"
grep -qx -- '--state=PD,R,RQ,RS,RV,S,CA,CD,F,TO,NF,PR,OOM,BF,DL' "$FAKE_ARGS" || fail "--state list"
grep -q -- '^--format=JobID,JobIDRaw,Cluster,.*,NodeList,JobName$' "$FAKE_ARGS" || fail "--format, JobName last"
grep -qx -- '-M' "$FAKE_ARGS" && fail "-M without --clusters"
grep -qx 'TZ=UTC SLURM_TIME_FORMAT=standard' "$FAKE_ARGS" || fail "environment: $(tail -n 1 "$FAKE_ARGS")"
[ "$(sqlite3 "$WORK/t.db" "SELECT kind || ' ' || path FROM imports")" = \
  "collect sacct since 2000-01-01T00:00:00Z" ] || fail "import row"

# ---- the next one: from the end of the last, less a day ----
until1=$(sqlite3 "$WORK/t.db" "SELECT max(until) FROM collects")
expect_rc 0 col
grep -q ' 0 added, 0 updated, 20 unchanged, 0 rejected$' "$WORK/out" || fail "second collect: $(cat "$WORK/out")"
[ "$(arg_after -S)" = "$(utc $((until1 - 86400)))" ] || fail "second -S $(arg_after -S), until $until1"

# --since overrides; --clusters passes -M and keeps a window of its own
expect_rc 0 col --since 2026-11-20
[ "$(arg_after -S)" = 2026-11-20T00:00:00 ] || fail "--since: $(arg_after -S)"
expect_rc 0 col --clusters a,b
[ "$(arg_after -M)" = a,b ] || fail "-M a,b"
[ "$(arg_after -S)" = 2000-01-01T00:00:00 ] || fail "a new cluster list starts from the beginning"
grep -q 'sacct since 2000-01-01T00:00:00Z -M a,b:' "$WORK/out" || fail "summary names -M"
# a gap in the windows: the next collect starts where they stop being contiguous
sqlite3 "$WORK/t.db" "INSERT INTO collects(clusters, since, until, at) VALUES
  ('gap', 1577836800, 1580515200, 0), ('gap', 1590969600, 1593561600, 0)"
expect_rc 0 col --clusters gap
[ "$(arg_after -S)" = 2020-01-31T00:00:00 ] || fail "window with a gap: $(arg_after -S)"

# --json: sacct --json, no -P, no --format
FAKE_OUT="$SANDBOX/sacct.json"
expect_rc 0 col --json
grep -qx -- --json "$FAKE_ARGS" || fail "--json not passed"
grep -qx -- -P "$FAKE_ARGS" && fail "-P with --json"
grep -q -- '^--format' "$FAKE_ARGS" && fail "--format with --json"
grep -q ': sacct-json 22.05, ' "$WORK/out" || fail "json: $(cat "$WORK/out")"

# ---- RUNNING in one collect, COMPLETED in the next: one job ----
H='JobID|JobIDRaw|Cluster|Partition|QOS|Account|User|State|ExitCode|Submit|Eligible|Start|End|ElapsedRaw|TimelimitRaw|NNodes|NCPUS|ReqMem|MaxRSS|ReqTRES|AllocTRES|TRESUsageInMax|TotalCPU|NodeList|JobName'
printf '%s\n%s\n' "$H" \
  '900|900|fake|gpu|normal|lab|ann|RUNNING|0:0|2026-11-01T10:00:00|2026-11-01T10:00:00|2026-11-01T10:00:05|Unknown|60|600|1|8|16G||billing=8,cpu=8,gres/gpu=2,mem=16G,node=1|billing=8,cpu=8,gres/gpu:a100=2,gres/gpu=2,mem=16G,node=1||00:00:00|n1|train|x' \
  >"$WORK/run.psv"
printf '%s\n%s\n' "$H" \
  '900|900|fake|gpu|normal|lab|ann|COMPLETED|0:0|2026-11-01T10:00:00|2026-11-01T10:00:00|2026-11-01T10:00:05|2026-11-01T12:00:05|7200|600|1|8|16G||billing=8,cpu=8,gres/gpu=2,mem=16G,node=1|billing=8,cpu=8,gres/gpu:a100=2,gres/gpu=2,mem=16G,node=1||01:00:00|n1|train|x' \
  >"$WORK/done.psv"
FAKE_OUT="$WORK/run.psv"
expect_rc 0 col --clusters fake
FAKE_OUT="$WORK/done.psv"
expect_rc 0 col --clusters fake
grep -q ' 0 added, 1 updated, ' "$WORK/out" || fail "update: $(cat "$WORK/out")"
[ "$(sqlite3 "$WORK/t.db" "SELECT count(*), state, elapsed, gpus FROM jobs j JOIN clusters c ON c.id = j.cluster_id WHERE c.name = 'fake'")" = "1|4|7200|2.0" ] \
    || fail "RUNNING then COMPLETED: $(sqlite3 "$WORK/t.db" "SELECT job_id, state, elapsed FROM jobs WHERE job_raw = 900")"

# ---- failures: one line, exit 1, the database unchanged ----
expect_fail() { # expect_fail "MESSAGE" ARGS...
    msg=$1; shift
    before=$(dump)
    expect_rc 1 col "$@"
    [ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "one line expected: $(cat "$WORK/err")"
    [ "$(cat "$WORK/err")" = "$msg" ] || fail "message: '$(cat "$WORK/err")', expected '$msg'"
    [ ! -s "$WORK/out" ] || fail "output on failure: $(cat "$WORK/out")"
    [ "$(dump)" = "$before" ] || fail "database changed by: $msg"
}
FAKE_OUT="$SANDBOX/sacct_wide.psv" FAKE_RC=1 FAKE_ERR="sacct: error: slurm_persist_conn_open_without_init: failed to open persistent connection to host:127.0.0.1:6819: Connection refused
sacct: error: Problem talking to the database: Connection refused"
expect_fail "capplan: collect: sacct: slurm_persist_conn_open_without_init: failed to open persistent connection to host:127.0.0.1:6819: Connection refused"
FAKE_RC=0 FAKE_ERR="sacct: error: Invalid user id: 99"
expect_fail "capplan: collect: sacct: Invalid user id: 99"
FAKE_RC=3 FAKE_ERR=""
expect_fail "capplan: collect: sacct: exited with status 3"
FAKE_RC=kill
expect_fail "capplan: collect: sacct: Killed"
FAKE_RC=0 FAKE_OUT=""
expect_fail "capplan: collect: sacct: printed nothing"
FAKE_RC=1 FAKE_ERR="$(printf 'Invalid time specification (pos=0): \033[2Jx')"
expect_fail "capplan: collect: sacct: Invalid time specification (pos=0): ?[2Jx"
expect_fail "capplan: collect: sacct: /nonexistent: No such file or directory" --sacct /nonexistent
before=$(dump)
expect_rc 1 env PATH=/nonexistent "$CAPPLAN_BIN" --db "$WORK/t.db" collect
grep -qx "capplan: collect: sacct: 'sacct' not found in PATH (install slurm-client, or give --sacct PATH)" "$WORK/err" \
    || fail "not in PATH: $(cat "$WORK/err")"
[ "$(dump)" = "$before" ] || fail "database changed when sacct is missing"

# a warning on stderr is passed on; the collect succeeds
FAKE_OUT="$SANDBOX/sacct_wide.psv" FAKE_RC=0 FAKE_ERR="sacct: slurm.conf: deprecated option"
expect_rc 0 col
grep -qx "capplan: collect: sacct: slurm.conf: deprecated option" "$WORK/err" || fail "warning: $(cat "$WORK/err")"

# rejected lines: the good rows land, each bad one is told by sacct's line, and
# the window stays where it was
printf '%s\n%s\n%s\n' "$H" \
  '901|901|fake|gpu|normal|lab|ann|COMPLETED|0:0|2026-11-02T10:00:00|2026-11-02T10:00:00|2026-11-02T10:00:05|2026-11-02T11:00:05|3600|600|1|8|16G||||||n1|ok' \
  '902|902|fake|gpu|normal|lab|ann|COMPLETED|0:0|2026-11-02T10:00:00|2026-11-02T10:00:00|2026-11-02T10:00:05|2026-11-02T11:00:05|1-2x|600|1|8|16G||||||n1|bad' \
  >"$WORK/bad.psv"
FAKE_OUT="$WORK/bad.psv" FAKE_ERR=""
windows=$(sqlite3 "$WORK/t.db" "SELECT count(*) FROM collects")
expect_rc 1 col --clusters fake
grep -q '^capplan: collect: sacct:3: field ElapsedRaw: ' "$WORK/err" || fail "rejected line: $(cat "$WORK/err")"
grep -q 'window was not advanced' "$WORK/err" || fail "window message: $(cat "$WORK/err")"
[ "$(sqlite3 "$WORK/t.db" "SELECT count(*) FROM collects")" = "$windows" ] || fail "window advanced"
[ "$(sqlite3 "$WORK/t.db" "SELECT count(*) FROM jobs WHERE job_raw = 901")" = 1 ] || fail "good row"

# usage
expect_rc 2 cap collect --since yesterday
grep -q "expected YYYY-MM-DD" "$WORK/err" || fail "--since message"
expect_rc 2 cap collect --since 2099-01-01
grep -q "is in the future" "$WORK/err" || fail "--since in the future: $(cat "$WORK/err")"
expect_rc 2 cap collect --frobnicate

# capplan killed while sacct runs: sacct goes too (PR_SET_PDEATHSIG), nothing left
printf '#!/usr/bin/env python3\nimport time\ntime.sleep(60)\n' >"$WORK/slow-sacct"
chmod 755 "$WORK/slow-sacct"
"$CAPPLAN_BIN" --db "$WORK/t.db" collect --sacct "$WORK/slow-sacct" >/dev/null 2>&1 &
cpid=$!
i=0
while ! pgrep -f "$WORK/slow-sacct -a" >/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
pgrep -f "$WORK/slow-sacct -a" >/dev/null || fail "the slow sacct never started"
kill -TERM "$cpid"
wait "$cpid" 2>/dev/null
i=0
while pgrep -f "$WORK/slow-sacct -a" >/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
if pgrep -f "$WORK/slow-sacct -a" >/dev/null; then
    pkill -f "$WORK/slow-sacct -a"
    fail "sacct left running after capplan was killed"
fi
expect_rc 0 cap collect --help
grep -q 'one day of overlap' "$WORK/out" || fail "--help"
echo "collect_cli: ok"
