#!/bin/sh
# capplan collect with a stand-in sacct (no Slurm needed; the real one is
# tests/slurm/test_collect.sh): the arguments and environment sacct gets,
# the window kept in the database, and every way sacct can fail.
. "$(dirname "$0")/lib.sh"
need_shared

# The stand-in: records its arguments and environment (the last call's in
# $FAKE_ARGS, one per line; every call's on a line of $FAKE_ARGS.all),
# prints $FAKE_OUT for the last window (-E now), only its header line for
# the months before, writes $FAKE_ERR to stderr, exits $FAKE_RC (or kills
# itself: FAKE_RC=kill; or sleeps a minute when -S is $FAKE_HANG; or
# refuses a window from 2000 to now as slurmdbd's MaxQueryTimeRange does
# when $FAKE_WIDE is set).
FAKE="$WORK/sacct"
cat >"$FAKE" <<'EOF'
#!/bin/sh
printf '%s\n' "$@" >"$FAKE_ARGS"
echo "TZ=$TZ SLURM_TIME_FORMAT=$SLURM_TIME_FORMAT" >>"$FAKE_ARGS"
echo "$* TZ=$TZ" >>"$FAKE_ARGS.all"
end=$(grep -A1 -x -- -E "$FAKE_ARGS" | tail -n 1)
if [ -n "${FAKE_WIDE:-}" ] && [ "$end" = now ] && grep -A1 -x -- -S "$FAKE_ARGS" | tail -n 1 | grep -q '^2000-'; then
    echo "sacct: error: slurmdbd: Too wide of a date range in query" >&2; exit 1; fi
[ -n "${FAKE_HANG:-}" ] && [ "$(grep -A1 -x -- -S "$FAKE_ARGS" | tail -n 1)" = "$FAKE_HANG" ] && echo $$ >"$FAKE_ARGS.pid" && exec sleep 60
if [ "$end" != now ] && [ -n "${FAKE_OUT:-}" ]; then head -n 1 "$FAKE_OUT"; exit 0; fi
[ -n "${FAKE_OUT:-}" ] && cat "$FAKE_OUT"
[ -n "${FAKE_ERR:-}" ] && printf '%s\n' "$FAKE_ERR" >&2
[ "${FAKE_RC:-0}" = kill ] && kill -9 $$
exit "${FAKE_RC:-0}"
EOF
chmod 755 "$FAKE"
export FAKE_ARGS="$WORK/args" FAKE_OUT FAKE_ERR FAKE_RC FAKE_HANG
col() { rm -f "$FAKE_ARGS.all"; cap collect --sacct "$FAKE" "$@"; }
# the months from 2000-01 to this one (UTC): the first collect's windows
MONTHS=$(( ($(date -u +%Y) - 2000) * 12 + $(date -u +%m | sed 's/^0//') ))
arg_after() { grep -A1 -x -- "$1" "$FAKE_ARGS" | tail -n 1; }
dump() { sqlite3 "$WORK/t.db" .dump | sha256sum; }
utc() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%S; }
SANDBOX="$DATA/slurm-sandbox"

# ---- the first collect: everything, capplan's fields, TZ=UTC ----
FAKE_OUT="$SANDBOX/sacct_wide_allstates.psv" FAKE_ERR="" FAKE_RC=0
rm -f "$FAKE_ARGS.all"
expect_rc 0 env TZ=Europe/Paris SLURM_TIME_FORMAT=relative \
    "$CAPPLAN_BIN" --db "$WORK/t.db" collect --sacct "$FAKE"
grep -q '^collect: sacct since 2000-01-01T00:00:00Z: sacct-text, 59 rows read, 20 added' "$WORK/out" \
    || fail "first collect: $(cat "$WORK/out" "$WORK/err")"
for a in -a -D -P -E; do grep -qx -- "$a" "$FAKE_ARGS" || fail "sacct argument $a missing"; done
# month by month: one sacct per calendar month, the first from 2000-01-01,
# each window recorded, an imports row only for the month that had rows
[ "$(wc -l <"$FAKE_ARGS.all")" -eq "$MONTHS" ] || fail "$(wc -l <"$FAKE_ARGS.all") sacct calls, $MONTHS months expected"
head -n 1 "$FAKE_ARGS.all" | grep -q -- '-S 2000-01-01T00:00:00 -E 2000-02-01T00:00:00 ' \
    || fail "first window: $(head -n 1 "$FAKE_ARGS.all")"
sed -n 2p "$FAKE_ARGS.all" | grep -q -- '-S 2000-02-01T00:00:00 -E 2000-03-01T00:00:00 ' \
    || fail "second window: $(sed -n 2p "$FAKE_ARGS.all")"
[ "$(arg_after -S)" = "$(date -u +%Y-%m-01T00:00:00)" ] || fail "last window -S: $(arg_after -S)"
[ "$(sqlite3 "$WORK/t.db" "SELECT count(*) FROM collects")" -eq "$MONTHS" ] || fail "windows recorded"
[ "$(grep -c 'TZ=UTC$' "$FAKE_ARGS.all")" -eq "$MONTHS" ] || fail "TZ=UTC in every call"
[ "$(arg_after -E)" = now ] || fail "-E now"
grep -qx -- '--state=PD,R,RQ,RS,RV,S,CA,CD,F,TO,NF,PR,OOM,BF,DL' "$FAKE_ARGS" || fail "--state list"
grep -q -- '^--format=JobID,JobIDRaw,Cluster,.*,NodeList,JobName$' "$FAKE_ARGS" || fail "--format, JobName last"
grep -qx -- '-M' "$FAKE_ARGS" && fail "-M without --clusters"
grep -qx 'TZ=UTC SLURM_TIME_FORMAT=standard' "$FAKE_ARGS" || fail "environment: $(tail -n 1 "$FAKE_ARGS")"
[ "$(sqlite3 "$WORK/t.db" "SELECT kind || ' ' || path FROM imports")" = \
  "collect sacct since $(date -u +%Y-%m-01T00:00:00Z)" ] || fail "import row"

# ---- the next one: from the end of the last, less a day ----
until1=$(sqlite3 "$WORK/t.db" "SELECT max(until) FROM collects")
expect_rc 0 col
grep -q ' 0 added, 0 updated, 20 unchanged, 0 rejected$' "$WORK/out" || fail "second collect: $(cat "$WORK/out")"
[ "$(arg_after -S)" = "$(utc $((until1 - 86400)))" ] || fail "second -S $(arg_after -S), until $until1"

# --since overrides; --clusters passes -M and keeps a window of its own
# (the first of this month: one window on any date)
SINCE=$(date -u +%Y-%m-01)
expect_rc 0 col --since "$SINCE"
[ "$(arg_after -S)" = "${SINCE}T00:00:00" ] || fail "--since: $(arg_after -S)"
expect_rc 0 col --clusters a,b
[ "$(arg_after -M)" = a,b ] || fail "-M a,b"
head -n 1 "$FAKE_ARGS.all" | grep -q -- '-S 2000-01-01T00:00:00 ' || fail "a new cluster list starts from the beginning"
grep -q 'sacct since 2000-01-01T00:00:00Z -M a,b:' "$WORK/out" || fail "summary names -M"
# a gap in the windows: the next collect starts where they stop being contiguous
sqlite3 "$WORK/t.db" "INSERT INTO collects(clusters, since, until, at) VALUES
  ('gap', 1577836800, 1580515200, 0), ('gap', 1590969600, 1593561600, 0)"
expect_rc 0 col --clusters gap
head -n 1 "$FAKE_ARGS.all" | grep -q -- '-S 2020-01-31T00:00:00 -E 2020-02-01T00:00:00 ' \
    || fail "window with a gap: $(head -n 1 "$FAKE_ARGS.all")"
# --clusters all: sacct -M all, each job under the cluster sacct names
expect_rc 0 col --clusters all --since 2026-11-01
[ "$(arg_after -M)" = all ] || fail "-M all"

# --sacct-format json: sacct --json, no -P, no --format (--json is no option
# of collect: it would read as capplan's output)
FAKE_OUT="$SANDBOX/sacct.json"
expect_rc 0 col --sacct-format json
grep -qx -- --json "$FAKE_ARGS" || fail "--json not passed"
grep -qx -- -P "$FAKE_ARGS" && fail "-P with --json"
grep -q -- '^--format' "$FAKE_ARGS" && fail "--format with --json"
grep -q ': sacct-json 22.05, ' "$WORK/out" || fail "json: $(cat "$WORK/out")"
expect_rc 2 col --json
[ "$(head -n 1 "$WORK/err")" = "capplan: collect: unknown option '--json'" ] || fail "--json: $(cat "$WORK/err")"
expect_rc 2 col --sacct-format xml
grep -q "text or json, got 'xml'" "$WORK/err" || fail "--sacct-format xml: $(cat "$WORK/err")"

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

# killed in the middle of a first collect: the months done are kept, and
# the next collect continues from the last complete one (less a day)
FAKE_OUT="$SANDBOX/sacct_wide.psv" FAKE_ERR="" FAKE_RC=0 FAKE_HANG=2003-04-01T00:00:00
rm -f "$FAKE_ARGS.all"
"$CAPPLAN_BIN" --db "$WORK/t.db" collect --clusters resume --sacct "$FAKE" >/dev/null 2>&1 &
cpid=$!
i=0
while ! grep -q -- "-S $FAKE_HANG" "$FAKE_ARGS.all" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -KILL "$cpid"
wait "$cpid" 2>/dev/null
i=0
while kill -0 "$(cat "$FAKE_ARGS.pid")" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 "$(cat "$FAKE_ARGS.pid")" 2>/dev/null && fail "the hanging sacct outlived capplan"
[ "$(sqlite3 "$WORK/t.db" "SELECT count(*) || ' ' || max(until) FROM collects WHERE clusters = 'resume'")" \
    = "39 $(date -u -d 2003-04-01 +%s)" ] || fail "after the kill: $(sqlite3 "$WORK/t.db" "SELECT count(*), max(until) FROM collects WHERE clusters = 'resume'")"
FAKE_HANG=""
expect_rc 0 col --clusters resume
head -n 1 "$FAKE_ARGS.all" | grep -q -- '-S 2003-03-31T00:00:00 -E 2003-04-01T00:00:00 ' \
    || fail "resumed from: $(head -n 1 "$FAKE_ARGS.all")"

# another machine: --sacct 'ssh HOST sacct' (an ssh stand-in that drops the
# host and runs the words through a shell with a clean environment, its own
# TZ): sacct still gets TZ=UTC, through env
cat >"$WORK/ssh" <<EOF
#!/bin/sh
shift
exec env -i PATH=$WORK/priv:/usr/bin:/bin FAKE_ARGS="$FAKE_ARGS" FAKE_OUT="\$FAKE_OUT" FAKE_WIDE="\$FAKE_WIDE" FAKE_LEVEL="\$FAKE_LEVEL" TZ=Asia/Tokyo sh -c "\$*"
EOF
chmod 755 "$WORK/ssh"
FAKE_OUT="$SANDBOX/sacct_wide_allstates.psv"
expect_rc 0 cap collect --sacct "$WORK/ssh login1 $FAKE" --since 2026-11-02
grep -qx 'TZ=UTC SLURM_TIME_FORMAT=standard' "$FAKE_ARGS" || fail "TZ over ssh: $(tail -n 1 "$FAKE_ARGS")"
grep -q '59 rows read, 0 added, 0 updated, 20 unchanged, 0 rejected' "$WORK/out" \
    || fail "over ssh: $(cat "$WORK/out" "$WORK/err")"
# a first collect through ssh: the whole window in one sacct (one ssh
# session), one window recorded
rm -f "$FAKE_ARGS.all"
expect_rc 0 "$CAPPLAN_BIN" --db "$WORK/ssh.db" collect --sacct "$WORK/ssh login1 $FAKE"
[ "$(wc -l <"$FAKE_ARGS.all")" -eq 1 ] || fail "first collect over ssh: $(wc -l <"$FAKE_ARGS.all") sacct calls, 1 expected"
grep -q -- '-S 2000-01-01T00:00:00 -E now ' "$FAKE_ARGS.all" || fail "one window: $(cat "$FAKE_ARGS.all")"
grep -q ' 59 rows read, 20 added,' "$WORK/out" || fail "one window: $(cat "$WORK/out" "$WORK/err")"
[ "$(sqlite3 "$WORK/ssh.db" "SELECT count(*) || '|' || source FROM collect_windows")" = "1|$WORK/ssh login1 $FAKE" ] \
    || fail "one window over ssh: $(sqlite3 "$WORK/ssh.db" "SELECT * FROM collect_windows")"
# ... unless slurmdbd says the range is too wide: then month by month
rm -f "$FAKE_ARGS.all" "$WORK/ssh.db"
export FAKE_WIDE=1
expect_rc 0 "$CAPPLAN_BIN" --db "$WORK/ssh.db" collect --sacct "$WORK/ssh login1 $FAKE"
FAKE_WIDE=""
[ "$(wc -l <"$FAKE_ARGS.all")" -eq $((MONTHS + 1)) ] || fail "too wide: $(wc -l <"$FAKE_ARGS.all") sacct calls, 1 + $MONTHS expected"
[ ! -s "$WORK/err" ] || fail "too wide, then by month: $(cat "$WORK/err")"
grep -q ' 59 rows read, 20 added,' "$WORK/out" || fail "by month after too wide: $(cat "$WORK/out" "$WORK/err")"
[ "$(sqlite3 "$WORK/ssh.db" "SELECT count(*) FROM collects")" -eq "$MONTHS" ] || fail "too wide: windows"

# two slurmdbds into one database (two sacct commands, the second with
# another cluster's jobs): each keeps its own window, the second's first
# collect reads from 2000 as the first's did, and nothing of it is lost
cp "$FAKE" "$WORK/sacct-b"
TWO="$CAPPLAN_BIN --db $WORK/two.db collect"
FAKE_OUT="$SANDBOX/sacct_wide_allstates.psv"
expect_rc 0 $TWO --sacct "$FAKE"
FAKE_OUT="$WORK/done.psv"
rm -f "$FAKE_ARGS.all"
expect_rc 0 $TWO --sacct "$WORK/sacct-b"
head -n 1 "$FAKE_ARGS.all" | grep -q -- '-S 2000-01-01T00:00:00 -E 2000-02-01T00:00:00 ' \
    || fail "second slurmdbd's first window: $(head -n 1 "$FAKE_ARGS.all")"
grep -q 'sacct since 2000-01-01T00:00:00Z: sacct-text, 1 rows read, 1 added' "$WORK/out" \
    || fail "second slurmdbd: $(cat "$WORK/out" "$WORK/err")"
[ "$(sqlite3 "$WORK/two.db" "SELECT c.name, count(*) FROM jobs j JOIN clusters c ON c.id = j.cluster_id GROUP BY c.name ORDER BY c.name" | tr '\n' ' ')" \
    = "fake|1 sandbox|20 " ] || fail "two slurmdbds: $(sqlite3 "$WORK/two.db" "SELECT cluster_id, count(*) FROM jobs GROUP BY 1")"
for src in "$FAKE" "$WORK/sacct-b"; do
    until_src=$(sqlite3 "$WORK/two.db" "SELECT max(until) FROM collect_windows WHERE source = '$src'")
    [ "$(sqlite3 "$WORK/two.db" "SELECT count(*) FROM collect_windows WHERE source = '$src'")" -eq "$MONTHS" ] \
        || fail "windows of $src"
    expect_rc 0 $TWO --sacct "$src"
    [ "$(arg_after -S)" = "$(utc $((until_src - 86400)))" ] || fail "next window of $src: $(arg_after -S)"
done
# a window recorded before windows had a source counts for every source
sqlite3 "$WORK/two.db" "INSERT INTO collects(clusters, since, until, at) VALUES ('old', 946684800, 1577836800, 0)"
rm -f "$FAKE_ARGS.all"
expect_rc 0 $TWO --sacct "$WORK/sacct-b" --clusters old
head -n 1 "$FAKE_ARGS.all" | grep -q -- '-S 2019-12-31T00:00:00 ' || fail "an old window: $(head -n 1 "$FAKE_ARGS.all")"

# PrivateData=jobs and a user who is no operator: sacct would list that
# user's jobs only; collect says so, exit 1, nothing imported. scontrol,
# sacctmgr and id are run beside sacct (the same directory, the same ssh).
mkdir "$WORK/priv"
cp "$FAKE" "$WORK/priv/sacct"
printf '#!/bin/sh\nprintf "PrivateData             = jobs,usage\\nSlurmUser               = slurm(64030)\\n"\n' >"$WORK/priv/scontrol"
printf '#!/bin/sh\necho "$*" >"$FAKE_ARGS.mgr"\necho "ann|lab|${FAKE_LEVEL:-None}"\n' >"$WORK/priv/sacctmgr"
printf '#!/bin/sh\necho ann\n' >"$WORK/priv/id"
chmod 755 "$WORK/priv/"*
export FAKE_LEVEL=None
before=$(dump)
expect_rc 1 cap collect --sacct "$WORK/ssh login1 $WORK/priv/sacct"
[ "$(cat "$WORK/err")" = "capplan: collect: Slurm's PrivateData=jobs,usage shows ann only their own jobs; collect would take them for the site's. Run it as root, as SlurmUser (slurm), or give ann AdminLevel Operator (sacctmgr modify user ann set AdminLevel=Operator)" ] \
    || fail "PrivateData: $(cat "$WORK/err")"
[ "$(cat "$FAKE_ARGS.mgr")" = "-n -P show user ann" ] || fail "sacctmgr args: $(cat "$FAKE_ARGS.mgr")"
[ "$(dump)" = "$before" ] || fail "database changed under PrivateData"
FAKE_LEVEL=Operator
expect_rc 0 cap collect --sacct "$WORK/ssh login1 $WORK/priv/sacct" --since 2026-11-02
expect_rc 0 cap collect --help
grep -q 'one day of overlap' "$WORK/out" || fail "--help"
echo "collect_cli: ok"
