#!/usr/bin/env bash
# tests/slurm/test_collect.sh -- `capplan collect` against a real Slurm 22.05
# with accounting (tests/slurm/sandbox.sh), end to end. Run by `make
# test-slurm`; needs root (the daemons, useradd) and Debian's packages, which
# it installs when missing.
#
# It starts a private sandbox (PrivateData=jobs), runs a site's first
# collect (month by month from 2000-01-01, before any job), submits a job mix
# as three Linux users in two accounts (completed, failed, timeout, cancelled while pending and while
# running, an array with a failing task, --gres=gpu:1, --gres=gpu:a100:2,
# --gpus=2, over its memory limit, preempted, preempted then requeued),
# collects three times (twice while jobs run, once after), and checks job by
# job with sqlite3 that the capplan database holds what was submitted and what
# sacct itself says. Then: collect through an ssh stand-in with another TZ,
# with --clusters all, killed in this month's window and resumed (the same
# jobs), and as a plain user (refused: PrivateData); slurmdbd down and a
# missing sacct each give one line, exit 1 and an unchanged database. Everything is stopped by PID and
# the test checks that no process of it is left. One PASS/FAIL line per
# assertion group, then "N passed, N failed"; exit 1 on any failure.
#
#   CAPPLAN_BIN       the capplan to test [./capplan]
#   CP_SLURM_KEEP=1   keep the sandbox directory (logs) after the run
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CAPPLAN=${CAPPLAN_BIN:-$ROOT/capplan}
# the checks compare capplan's error lines: no time stamp in front of them
export CAPPLAN_LOG_TIME=${CAPPLAN_LOG_TIME:-0}
SANDBOX=$HERE/sandbox.sh
T_START=$SECONDS
passed=0 failed=0

log() { echo "test_collect: $*" >&2; }
pass() { passed=$((passed + 1)); echo "PASS: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
finish() {
    echo "test_collect: $((SECONDS - T_START)) s in all"
    echo "$passed passed, $failed failed"
    [[ $failed -eq 0 && $passed -gt 0 ]] && exit 0
    exit 1
}
abort() { fail "$*"; finish; }

[[ $(id -u) == 0 ]] || abort "must run as root (it starts Slurm's daemons and adds Linux users)"
[[ -x $CAPPLAN ]] || abort "no capplan at $CAPPLAN (make capplan)"
command -v sqlite3 >/dev/null || abort "sqlite3 missing (tests/deps.sh installs it)"

# ---- packages ------------------------------------------------------------------
PKGS="slurm-wlm slurmdbd slurm-client mariadb-server munge"
install_packages() {
    local p missing="" t0=$SECONDS made_policy=""
    for p in $PKGS; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
    done
    [[ -z $missing ]] && { log "packages: already installed"; return 0; }
    log "installing:$missing"
    # No service may start from the packages' scripts: the test starts its own.
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
        chmod 755 /usr/sbin/policy-rc.d
        made_policy=1
    fi
    local rc=0
    { DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null; } || rc=$?
    [[ -n $made_policy ]] && rm -f /usr/sbin/policy-rc.d
    [[ $rc -eq 0 ]] || abort "apt-get install$missing failed"
    log "packages installed in $((SECONDS - t0)) s"
}
install_packages

# ---- the sandbox, always stopped ----------------------------------------------
SB=$(mktemp -d /tmp/capplan-slurm.XXXXXX)
WORK=$(mktemp -d /tmp/capplan-collect.XXXXXX)
DB=$WORK/capplan.db
JDB=$WORK/capplan-json.db
cleanup() {
    trap - EXIT INT TERM
    "$SANDBOX" stop "$SB" >/dev/null 2>&1 || true
    if [[ ${CP_SLURM_KEEP:-0} == 1 ]]; then
        log "kept $SB and $WORK"
    else
        "$SANDBOX" clean "$SB" >/dev/null 2>&1 || true
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT
trap 'fail "interrupted"; finish' INT TERM

t0=$SECONDS
if ! "$SANDBOX" start "$SB" 2>"$WORK/start.log"; then
    tail -n 40 "$WORK/start.log"
    abort "sandbox start"
fi
T_SANDBOX=$((SECONDS - t0))
log "sandbox up in $T_SANDBOX s ($SB)"
export SLURM_CONF=$SB/etc/slurm.conf
CLUSTER=capplan-test
# The first collect of a site: month by month from 2000-01-01 to now, one
# sacct and one window each; months without a job leave no imports row.
# (Before any job: the collects below start an hour ago, so that the jobs
# still run while they read.)
MONTHS=$(( ($(date -u +%Y) - 2000) * 12 + $(date -u +%m | sed 's/^0//') ))
FIRST=$WORK/first.db
t0=$SECONDS
if "$CAPPLAN" --db "$FIRST" collect >"$WORK/first.out" 2>&1; then
    T_FIRST=$((SECONDS - t0))
    w=$(sqlite3 "$FIRST" "SELECT count(*) || ' ' || min(c.since) || ' ' || sum(c.since = coalesce(p.until, 946684800))
                          || ' ' || (SELECT count(*) FROM imports) || ' ' || (SELECT count(*) FROM jobs)
                          FROM collects c LEFT JOIN collects p ON p.id = c.id - 1")
    if [[ $w == "$MONTHS 946684800 $MONTHS 0 0" ]]; then
        pass "first collect: $MONTHS months from 2000-01-01, each from the end of the one before, no imports row for empty months ($T_FIRST s)"
    else
        fail "first collect: windows, first since, contiguous, imports, jobs: '$w' ($MONTHS months expected)"
    fi
else
    fail "first collect: $(cat "$WORK/first.out")"
fi
T_JOBS=$SECONDS
SINCE=$(date -u -d '-1 hour' +%Y-%m-%dT%H:%M:%S) # for the test's own sacct calls

# ---- submitting ------------------------------------------------------------------
JOBS=$SB/jobs
mkdir -p "$JOBS/out"
chmod 1777 "$JOBS/out"
script() { cat >"$JOBS/$1.sh"; chmod 755 "$JOBS/$1.sh"; echo "$JOBS/$1.sh"; }
S_SLEEP=$(script sleep <<'EOF'
#!/bin/bash
sleep "${1:-300}"
EOF
)
S_OK=$(script ok <<'EOF'
#!/bin/bash
srun hostname; srun sleep 1; sleep 15
EOF
)
S_FAIL=$(script fail <<'EOF'
#!/bin/bash
sleep 1; exit 1
EOF
)
S_ARRAY=$(script array <<'EOF'
#!/bin/bash
sleep 5; [[ $SLURM_ARRAY_TASK_ID == 3 ]] && exit 2; exit 0
EOF
)
S_MEM=$(script mem <<'EOF'
#!/bin/bash
perl -e '$x = "a" x (400 * 1024 * 1024); sleep 8; print length($x), "\n"'
EOF
)

declare -A E_USER E_ACCT E_PART E_STATE E_GPUS E_TRIES E_WHAT
# sub VAR USER ACCOUNT PARTITION STATE GPUS ATTEMPTS WHAT SBATCH-ARGS...: submit
# as USER, note what is expected of the job, set VAR to its id
sub() {
    local var=$1 user=$2 acct=$3 part=$4 st=$5 gpus=$6 tries=$7 what=$8 id
    shift 8
    id=$(cd / && runuser -u "$user" -- env SLURM_CONF="$SLURM_CONF" sbatch --parsable \
        -A "$acct" -p "$part" -J "$what" -o "$JOBS/out/%x-%j.out" --chdir="$JOBS/out" "$@") \
        || abort "sbatch $what as $user"
    id=${id%%;*}
    E_USER[$id]=$user E_ACCT[$id]=$acct E_PART[$id]=$part E_STATE[$id]=$st
    E_GPUS[$id]=$gpus E_TRIES[$id]=$tries E_WHAT[$id]=$what
    printf -v "$var" %s "$id"
}
state() { squeue -h -j "$1" -o %T 2>/dev/null || true; }
wait_for() { # wait_for SECONDS WHAT CMD...: poll CMD until it succeeds
    local end=$((SECONDS + $1)) what=$2
    shift 2
    until "$@"; do
        ((SECONDS < end)) || { log "timed out waiting for $what"; squeue >&2; return 1; }
        sleep 0.3
    done
}
is_state() { [[ $(state "$1") == "$2" ]]; }
# in_acct ID STATE: the accounting (what sacct and so capplan see) says so;
# slurmctld sends records to slurmdbd a few seconds after the fact
in_acct() { TZ=UTC sacct -n -X -P -j "$1" --format=State 2>/dev/null | grep -q "^$2"; }
queue_empty() { [[ -z $(squeue -h -p "$1" -o %A 2>/dev/null) ]]; }
as() { local u=$1; shift; (cd / && runuser -u "$u" -- env SLURM_CONF="$SLURM_CONF" "$@"); }

A=cpt_alice B=cpt_bob C=cpt_carol
sub J_OK $A lab-a main COMPLETED 0 1 ok-steps "$S_OK"
sub J_FAIL $B lab-b main FAILED 0 1 fail-exit1 "$S_FAIL"
sub J_TIMEOUT $C lab-b unkillable TIMEOUT 0 1 timeout --time=1 "$S_SLEEP" 300
sub J_PEND $A lab-a main CANCELLED 0 1 cancel-pending --begin=now+1hour "$S_SLEEP" 5
sub J_RUN $A lab-a unkillable CANCELLED 0 1 cancel-running "$S_SLEEP" 300
# -c 4: two tasks at most run at once, the others wait for CPUs (a job
# throttled with %N, or held, is not in the accounting until it runs)
sub J_ARR $B lab-b main ARRAY 0 1 array --array=1-4 -c 4 "$S_ARRAY" # checked task by task
sub J_GPU1 $C lab-a main COMPLETED 1 1 gpu1 --gres=gpu:1 "$S_SLEEP" 3
sub J_GPU2 $A lab-a main COMPLETED 2 1 gpu-a100-2 --gres=gpu:a100:2 "$S_SLEEP" 3
sub J_GPUS $B lab-b main COMPLETED 2 1 gpus-2 --gpus=2 "$S_SLEEP" 3
sub J_MEM $C lab-a main FAILED 0 1 over-mem --mem=64M "$S_MEM"
log "phase A submitted: ok=$J_OK fail=$J_FAIL timeout=$J_TIMEOUT pend=$J_PEND run=$J_RUN" \
    "array=$J_ARR gpu1=$J_GPU1 gpu2=$J_GPU2 gpus=$J_GPUS mem=$J_MEM"

sleep 1
as $A scancel "$J_PEND" || fail "scancel of the pending job"
wait_for 30 "cancel-running to run" is_state "$J_RUN" RUNNING
wait_for 30 "ok-steps to run" is_state "$J_OK" RUNNING
as $A scancel "$J_RUN" || fail "scancel of the running job"

# ---- collect 1: jobs running, array tasks pending --------------------------------
collect() { # collect TAG [ARGS]: one collect into the text db and one --json into JDB
    local tag=$1
    shift
    "$CAPPLAN" --db "$DB" collect "$@" >"$WORK/$tag.out" 2>"$WORK/$tag.err"
    local rc=$?
    "$CAPPLAN" --db "$JDB" collect --sacct-format json "$@" >"$WORK/$tag.json.out" 2>"$WORK/$tag.json.err"
    local jrc=$?
    cat "$WORK/$tag.out" "$WORK/$tag.json.out" >&2
    if [[ $rc -ne 0 || $jrc -ne 0 ]]; then
        fail "collect $tag exited $rc (text), $jrc (json): $(cat "$WORK/$tag.err" "$WORK/$tag.json.err")"
        return 1
    fi
    sqlite3 "$DB" ".backup '$WORK/$tag.db'"
}
# Slurm sends the records of pending jobs to slurmdbd a few seconds late:
# wait until the array's pending tasks are there, as one record N_[a-b]
ALLSTATES=PD,R,RQ,RS,RV,S,CA,CD,F,TO,NF,PR,OOM,BF,DL
placeholder() {
    TZ=UTC sacct -a -X -n -P -S "$SINCE" -E now --state=$ALLSTATES --format=JobID |
        grep -q "^${J_ARR}_\["
}
PH=yes
wait_for 15 "the array's pending record" placeholder || PH=no
wait_for 15 "ok-steps running in the accounting" in_acct "$J_OK" RUNNING
collect c1 --since "$SINCE" && log "collect 1 at $((SECONDS - T_JOBS)) s (array's pending record listed: $PH)"

# ---- phase B: preemption, once the main partition is idle -------------------------
wait_for 90 "phase A's main jobs to end" queue_empty main
sub J_SCAV $B lab-b scavenge PREEMPTED 0 1 scavenge-victim -c 3 "$S_SLEEP" 300
sub J_REQ $C lab-a main COMPLETED 0 2 main-victim -c 3 "$S_SLEEP" 12
wait_for 30 "the victims to run" is_state "$J_SCAV" RUNNING
wait_for 30 "the victims to run" is_state "$J_REQ" RUNNING
wait_for 15 "main-victim running in the accounting" in_acct "$J_REQ" RUNNING
collect c2 && log "collect 2 at $((SECONDS - T_JOBS)) s (victims running)"
# 8 CPUs: timeout holds 1, the victims 3 + 3; -c 7 in the top tier needs both
sub J_HI $A lab-a unkillable COMPLETED 0 1 unkillable-hi -c 7 "$S_SLEEP" 5
requeued() {
    local s
    s=$(scontrol show job "$J_REQ" 2>/dev/null)
    grep -q 'JobState=PENDING' <<<"$s" && grep -q 'Restarts=1' <<<"$s"
}
wait_for 60 "main-victim to be requeued" requeued
# Slurm holds a requeued job for two minutes (BeginTime): let it go now
scontrol update JobId="$J_REQ" StartTime=now || fail "scontrol update StartTime"
wait_for 150 "all jobs to end" queue_empty main,scavenge,unkillable
# and their records to reach slurmdbd
settled() {
    ! TZ=UTC sacct -a -X -n -P -S "$SINCE" -E now --state=$ALLSTATES --format=State,End \
        | grep -Eq 'RUNNING|PENDING|REQUEUED|Unknown'
}
wait_for 30 "accounting to settle" settled
collect c3 && log "collect 3 at $((SECONDS - T_JOBS)) s (all ended)"
T_JOBS=$((SECONDS - T_JOBS))

# ---- what sacct itself says, as a table beside capplan's ----------------------------
REF=$WORK/ref.db
TZ=UTC sacct -a -D -X -P -S "$SINCE" -E now --state=$ALLSTATES \
    --format=JobID,JobIDRaw,User,Account,Partition,State,ExitCode,Submit,ElapsedRaw,AllocTRES \
    >"$WORK/ref.psv" || fail "sacct for the reference"
sqlite3 "$REF" ".mode list" ".separator |" ".import '$WORK/ref.psv' ref" \
    "ATTACH '$DB' AS c" \
    "CREATE TABLE mine AS SELECT j.job_id, j.job_raw, j.submit, j.array_job, u.name AS user,
        a.name AS account, p.name AS partition,
        CASE j.state WHEN 1 THEN 'PENDING' WHEN 2 THEN 'RUNNING' WHEN 3 THEN 'SUSPENDED'
          WHEN 4 THEN 'COMPLETED' WHEN 5 THEN 'FAILED' WHEN 6 THEN 'CANCELLED'
          WHEN 7 THEN 'TIMEOUT' WHEN 8 THEN 'PREEMPTED' WHEN 9 THEN 'NODE_FAIL'
          WHEN 10 THEN 'OUT_OF_MEMORY' WHEN 11 THEN 'REQUEUED' ELSE 'OTHER' END AS state,
        j.exit_code, j.exit_signal, j.elapsed, j.gpus, j.gpu_type, j.final, j.start
      FROM c.jobs j JOIN c.clusters k ON k.id = j.cluster_id
      LEFT JOIN c.users u ON u.id = j.user_id LEFT JOIN c.accounts a ON a.id = j.account_id
      LEFT JOIN c.partitions p ON p.id = j.partition_id WHERE k.name = '$CLUSTER'" \
    || fail "reference tables"
q() { sqlite3 -separator ' ' "$REF" "$@"; }

# ---- job by job -------------------------------------------------------------------------
check_job() { # what was submitted, and what sacct says of each attempt
    local id=$1 problems="" rows n last
    rows=$(q "SELECT user, account, partition, state, gpus, final, elapsed FROM mine
              WHERE job_raw = $id ORDER BY submit")
    n=$(grep -c . <<<"$rows")
    [[ $n -eq ${E_TRIES[$id]} ]] || problems+=" attempts $n, expected ${E_TRIES[$id]};"
    last=$(tail -n 1 <<<"$rows")
    read -r u a p s g f _ <<<"$last"
    [[ $u == "${E_USER[$id]}" ]] || problems+=" user '$u';"
    [[ $a == "${E_ACCT[$id]}" ]] || problems+=" account '$a';"
    [[ $p == "${E_PART[$id]}" ]] || problems+=" partition '$p';"
    [[ $s == "${E_STATE[$id]}" || ($id == "$J_MEM" && $s == OUT_OF_MEMORY) ]] \
        || problems+=" state $s, expected ${E_STATE[$id]};"
    [[ $(q "SELECT count(*) FROM mine WHERE job_raw = $id AND gpus = ${E_GPUS[$id]}") -eq $n ]] \
        || problems+=" GPUs $g, expected ${E_GPUS[$id]};"
    [[ $f == 1 ]] || problems+=" last attempt not final;"
    if [[ ${E_GPUS[$id]} != 0 && $(q "SELECT gpu_type FROM mine WHERE job_raw = $id AND final") != a100 ]]; then
        problems+=" GPU type not a100;"
    fi
    # each attempt as sacct lists it: same submit, state, elapsed within a second
    local bad
    bad=$(q "SELECT r.JobID || ' ' || r.State || ' ' || r.ElapsedRaw || ' vs ' ||
                    coalesce(m.state, 'missing') || ' ' || coalesce(m.elapsed, '-')
             FROM ref r LEFT JOIN mine m ON m.job_raw = CAST(r.JobIDRaw AS INTEGER)
               AND m.submit = CAST(strftime('%s', r.Submit) AS INTEGER) AND m.job_id = r.JobID
             WHERE r.JobIDRaw = '$id' AND (m.job_raw IS NULL
               OR m.state <> substr(r.State || ' ', 1, instr(r.State || ' ', ' ') - 1)
               OR abs(m.elapsed - CAST(r.ElapsedRaw AS INTEGER)) > 1)")
    [[ -z $bad ]] || problems+=" against sacct: $bad;"
    if [[ -z $problems ]]; then
        pass "job $id ${E_WHAT[$id]}: ${E_USER[$id]} ${E_ACCT[$id]} ${E_PART[$id]} $s, ${E_GPUS[$id]} GPUs, $n attempt(s)"
    else
        fail "job $id ${E_WHAT[$id]}:$problems"
    fi
}
for id in "$J_OK" "$J_FAIL" "$J_TIMEOUT" "$J_PEND" "$J_RUN" "$J_GPU1" "$J_GPU2" "$J_GPUS" \
    "$J_MEM" "$J_SCAV" "$J_REQ" "$J_HI"; do
    check_job "$id"
done

# The array: four tasks, task 3 FAILED with exit 2, no pending placeholder left
arr=$(q "SELECT job_id || ':' || state || ':' || coalesce(exit_code, '') || ':' || user || ':' || account
         FROM mine WHERE array_job = $J_ARR OR job_id LIKE '${J_ARR}\_%' ESCAPE '\\' ORDER BY job_id")
want="${J_ARR}_1:COMPLETED:0:$B:lab-b ${J_ARR}_2:COMPLETED:0:$B:lab-b ${J_ARR}_3:FAILED:2:$B:lab-b ${J_ARR}_4:COMPLETED:0:$B:lab-b"
if [[ $(echo $arr) == "$want" ]]; then
    pass "array $J_ARR: 4 tasks, task 3 FAILED 2, no pending placeholder (collect 1 saw one: $PH)"
else
    fail "array $J_ARR: got [$(echo $arr)], expected [$want]"
fi

# A job seen RUNNING by collect 1 is one COMPLETED job at the end
c1=$(sqlite3 "$WORK/c1.db" "SELECT j.state FROM jobs j WHERE j.job_raw = $J_OK")
c2=$(sqlite3 "$WORK/c2.db" "SELECT count(*) || ':' || group_concat(state) FROM jobs WHERE job_raw = $J_REQ")
fin=$(q "SELECT count(*) || ':' || group_concat(state) FROM mine WHERE job_raw = $J_OK")
if [[ $c1 == 2 && $fin == "1:COMPLETED" && $c2 == "1:2" ]]; then
    pass "RUNNING in one collect, COMPLETED in the next: one job (ok-steps; main-victim RUNNING in collect 2)"
else
    fail "RUNNING then COMPLETED: collect 1 state '$c1' (2 = RUNNING), collect 2 main-victim '$c2', final '$fin'"
fi

# Every attempt sacct lists is in capplan, and nothing else
# (keyed by raw id, submit time and the id shown: an array's pending record
# N_[a-b] has the raw id and submit time of the task that runs last)
missing=$(q "SELECT r.JobID FROM ref r LEFT JOIN mine m ON m.job_raw = CAST(r.JobIDRaw AS INTEGER)
             AND m.submit = CAST(strftime('%s', r.Submit) AS INTEGER) AND m.job_id = r.JobID
             WHERE m.job_raw IS NULL")
extra=$(q "SELECT m.job_id FROM mine m LEFT JOIN ref r ON m.job_raw = CAST(r.JobIDRaw AS INTEGER)
           AND m.submit = CAST(strftime('%s', r.Submit) AS INTEGER) AND m.job_id = r.JobID
           WHERE r.JobIDRaw IS NULL")
nref=$(q "SELECT count(*) FROM ref")
njobs=$(q "SELECT count(DISTINCT JobIDRaw) FROM ref")
nfinal=$(q "SELECT count(*) FROM mine WHERE final = 1")
if [[ -z $missing && -z $extra && $nref -eq $(q "SELECT count(*) FROM mine") && $njobs -eq $nfinal ]]; then
    pass "capplan holds sacct's $nref attempts of $njobs jobs, no more"
else
    fail "against sacct -D -X: missing [$(echo $missing)], extra [$(echo $extra)], $nref attempts / $njobs jobs in sacct, $nfinal final in capplan"
fi

# The windows: the first collect from --since (1: from it), each month's
# window from the end of the one before (c), the next two collects from the
# last one's end less a day (n); an imports row for each window that read rows
win=$(sqlite3 "$DB" "SELECT group_concat(k, '') FROM (SELECT c.id,
        CASE WHEN p.id IS NULL THEN CASE WHEN c.since = CAST(strftime('%s', '$SINCE') AS INTEGER) THEN '1' ELSE '0' END
             WHEN c.since = p.until THEN 'c'
             WHEN c.since = p.until - 86400 THEN 'n' ELSE 'x' END AS k
        FROM collects c LEFT JOIN collects p ON p.id = c.id - 1 ORDER BY c.id)")
kinds=$(sqlite3 "$DB" "SELECT count(*) FROM imports WHERE kind = 'collect' AND path LIKE 'sacct since %'")
nwin=$(sqlite3 "$DB" "SELECT count(*) FROM collects")
if [[ $win =~ ^1c*nc*nc*$ && $kinds == "$nwin" ]]; then
    pass "windows: from --since, month by month, then from the last collect less one day ($win); $kinds imports named"
else
    fail "windows: '$win' (1c*nc*nc* expected), $kinds imports of kind collect for $nwin windows"
fi

# The same collect through a wrapper, as --sacct 'ssh login1 sacct' runs it:
# a stand-in ssh that drops the host and runs the words through a shell with
# a clean environment and its own TZ (Asia/Tokyo). capplan forwards TZ=UTC
# through env: the jobs and their times are the same as collected directly.
SSH=$WORK/ssh
cat >"$SSH" <<EOF
#!/bin/sh
shift
exec env -i PATH=/usr/bin:/bin SLURM_CONF=$SLURM_CONF TZ=Asia/Tokyo sh -c "\$*"
EOF
chmod 755 "$SSH"
SDB=$WORK/ssh.db
if "$CAPPLAN" --db "$SDB" collect --sacct "$SSH login1 sacct" --since "$(date -u -d '-1 day' +%Y-%m-%d)" \
    >"$WORK/ssh.out" 2>"$WORK/ssh.err"; then
    d=$(sqlite3 "$SDB" "ATTACH '$DB' AS c" \
        "SELECT count(*) FROM (SELECT job_id, submit, start, \"end\", elapsed, state FROM jobs
           EXCEPT SELECT job_id, submit, start, \"end\", elapsed, state FROM c.jobs)")
    n=$(sqlite3 "$SDB" "SELECT count(*) FROM jobs")
    if [[ $d == 0 && $n == $(sqlite3 "$DB" "SELECT count(*) FROM jobs") ]]; then
        pass "--sacct 'ssh login1 sacct' (TZ=Asia/Tokyo on the far side): the same $n attempts, the same times"
    else
        fail "--sacct through ssh: $d attempts differ, $n in all"
    fi
else
    fail "--sacct through ssh: $(cat "$WORK/ssh.err")"
fi

# --clusters all (sacct -M all): the cluster's jobs under its own name
ADB=$WORK/all.db
if "$CAPPLAN" --db "$ADB" collect --clusters all --since "$(date -u -d '-1 day' +%Y-%m-%d)" \
    >"$WORK/all.out" 2>"$WORK/all.err" &&
    [[ $(sqlite3 "$ADB" "SELECT group_concat(DISTINCT c.name) || ' ' || count(*) FROM jobs j
                         JOIN clusters c ON c.id = j.cluster_id") == "$CLUSTER $(sqlite3 "$DB" "SELECT count(*) FROM jobs")" ]]; then
    pass "--clusters all: $(cat "$WORK/all.out")"
else
    fail "--clusters all: $(cat "$WORK/all.out" "$WORK/all.err")"
fi
# docs/site.md (section 3) shows the line a collect ends with: the same words,
# its N any count and its time any time
doc=$(grep -m1 '^collect: sacct since 2000-01-01T00:00:00Z -M all: ' "$ROOT/docs/site.md")
re=$(printf '%s' "$doc" | sed -e 's/2000-01-01T00:00:00Z/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z/' -e 's/\bN\b/[0-9]+/g')
if [[ -n $doc ]] && cat "$WORK/all.out" "$WORK/all.err" | grep -Eqx "$re"; then
    pass "docs/site.md's collect line is what collect prints"
else
    fail "docs/site.md's collect line '$doc' is not what collect printed: $(cat "$WORK/all.out" "$WORK/all.err")"
fi

# Killed in the middle: a sacct that hangs on this month's window; the
# months before are kept, and the next collect continues from the last
# complete month less a day and ends with the same jobs
RDB=$WORK/resume.db
MONTH=$(date -u +%Y-%m-01T00:00:00)
SLOW=$WORK/slow-sacct
cat >"$SLOW" <<EOF
#!/bin/bash
prev=""
for a in "\$@"; do
    [[ \$prev == -S && \$a == "\${HANG_AT:-none}" ]] && { echo started >"$WORK/hang"; exec sleep 60; }
    prev=\$a
done
exec sacct "\$@"
EOF
chmod 755 "$SLOW"
rm -f "$WORK/hang"
HANG_AT=$MONTH "$CAPPLAN" --db "$RDB" collect --sacct "$SLOW" --since "$(date -u -d '-70 days' +%Y-%m-%d)" \
    >/dev/null 2>&1 &
cpid=$!
wait_for 30 "the hanging window" test -e "$WORK/hang"
kill -KILL "$cpid"
wait "$cpid" 2>/dev/null
kept=$(sqlite3 "$RDB" "SELECT count(*) || ' ' || max(until) FROM collects")
"$CAPPLAN" --db "$RDB" collect --sacct "$SLOW" >"$WORK/resume.out" 2>&1
rc=$?
first=$(sqlite3 "$RDB" "SELECT since FROM collects ORDER BY id LIMIT 1 OFFSET ${kept%% *}")
same=$(sqlite3 "$RDB" "ATTACH '$DB' AS c" \
    "SELECT count(*) FROM (SELECT job_id, submit, state FROM jobs EXCEPT SELECT job_id, submit, state FROM c.jobs)")
if [[ $rc == 0 && ${kept#* } == $(date -u -d "$MONTH" +%s) && $first == $(( $(date -u -d "$MONTH" +%s) - 86400 )) &&
      $same == 0 && $(sqlite3 "$RDB" "SELECT count(*) FROM jobs") == $(sqlite3 "$DB" "SELECT count(*) FROM jobs") ]]; then
    pass "killed in this month's window: ${kept% *} months kept, resumed from $MONTH less a day, the same jobs"
else
    fail "resume: rc $rc, kept '$kept', next since '$first', $same differ: $(cat "$WORK/resume.out")"
fi

# PrivateData=jobs: a plain user sees only their own jobs; collect says so
PDIR=$(mktemp -d /tmp/capplan-private.XXXXXX)
chmod 777 "$PDIR"
out=$(as $A "$CAPPLAN" --db "$PDIR/p.db" collect 2>&1)
rc=$?
if [[ $rc == 1 && $out == *"PrivateData=jobs shows $A only their own jobs"* &&
      $(sqlite3 "$PDIR/p.db" "SELECT count(*) FROM jobs") == 0 ]]; then
    pass "PrivateData=jobs as $A: exit 1, $out"
else
    fail "PrivateData=jobs as $A: exit $rc: $out"
fi
# docs/site.md (section 2) shows that refusal for the user capplan: word for word
doc=$(grep -m1 "^capplan: collect: Slurm's PrivateData=jobs shows capplan " "$ROOT/docs/site.md" | sed "s/ capplan / $A /g")
if [[ -n $doc ]] && grep -qxF "$doc" <<<"$out"; then
    pass "docs/site.md's PrivateData refusal is what collect prints"
else
    fail "docs/site.md's PrivateData refusal '$doc' is not what collect printed: $out"
fi
rm -rf "$PDIR"

# sacct --json: the same jobs, but for those that never started (22.05 leaves
# them out of --json) and exit codes (22.05's --json loses non-zero ones)
dj=$(sqlite3 "$REF" "ATTACH '$DB' AS c" "ATTACH '$JDB' AS j" \
    "SELECT job_id FROM (SELECT x.job_id, u.name, a.name, p.name, x.state, x.gpus, x.final
       FROM c.jobs x JOIN c.users u ON u.id = x.user_id JOIN c.accounts a ON a.id = x.account_id
       JOIN c.partitions p ON p.id = x.partition_id WHERE x.start IS NOT NULL
     EXCEPT SELECT x.job_id, u.name, a.name, p.name, x.state, x.gpus, x.final
       FROM j.jobs x JOIN j.users u ON u.id = x.user_id JOIN j.accounts a ON a.id = x.account_id
       JOIN j.partitions p ON p.id = x.partition_id)" 2>&1)
jn=$(sqlite3 "$JDB" "SELECT count(*) FROM jobs WHERE start IS NOT NULL")
tn=$(sqlite3 "$DB" "SELECT count(*) FROM jobs WHERE start IS NOT NULL")
jph=$(sqlite3 "$JDB" "SELECT job_id FROM jobs WHERE instr(job_id, '[') > 0")
if [[ -z $dj && $jn == "$tn" && -z $jph ]]; then
    pass "collect --json: the same $jn attempts that started, no pending array record left"
else
    fail "collect --json differs from text on [$(echo $dj)]; $jn vs $tn attempts that started;" \
        "pending array records [$(echo $jph)]"
fi

# ---- failures: one line, exit 1, the database unchanged -------------------------------
dump() { sqlite3 "$DB" .dump | sha256sum; }
expect_fail() { # expect_fail WHAT PATTERN ARGS...
    local what=$1 pat=$2 before rc lines
    shift 2
    before=$(dump)
    "$CAPPLAN" --db "$DB" collect "$@" >"$WORK/f.out" 2>"$WORK/f.err"
    rc=$?
    lines=$(wc -l <"$WORK/f.err")
    if [[ $rc -eq 1 && $lines -eq 1 && ! -s $WORK/f.out ]] && grep -qE "$pat" "$WORK/f.err" &&
        [[ $(dump) == "$before" ]]; then
        pass "$what: exit 1, one line ($(cat "$WORK/f.err")), database unchanged"
    else
        fail "$what: exit $rc, $lines lines: $(cat "$WORK/f.err" "$WORK/f.out"); unchanged: $([[ $(dump) == "$before" ]] && echo yes || echo no)"
    fi
}
"$SANDBOX" stop-dbd "$SB" || fail "stopping slurmdbd"
expect_fail "slurmdbd down" '^capplan: collect: sacct: .*(Connection refused|database)'
expect_fail "slurmdbd down, --sacct-format json" '^capplan: collect: sacct: ' --sacct-format json
"$SANDBOX" start-dbd "$SB" 2>/dev/null || fail "starting slurmdbd again"
expect_fail "--sacct /nonexistent" '^capplan: collect: sacct: /nonexistent: No such file' --sacct /nonexistent

# back up: the next collect adds nothing and changes nothing
"$CAPPLAN" --db "$DB" collect >"$WORK/c4.out" 2>"$WORK/c4.err"
rc=$?
if [[ $rc -eq 0 ]] && grep -qE ' 0 added, 0 updated, [0-9]+ unchanged, 0 rejected$' "$WORK/c4.out"; then
    pass "collect after the outage: $(cat "$WORK/c4.out")"
else
    fail "collect after the outage: exit $rc: $(cat "$WORK/c4.out" "$WORK/c4.err")"
fi

# ---- stop: nothing of the test is left ------------------------------------------------
t0=$SECONDS
if "$SANDBOX" stop "$SB" 2>"$WORK/stop.log"; then
    left=$("$SANDBOX" leftovers "$SB")
    if [[ -z $left ]]; then
        pass "stopped in $((SECONDS - t0)) s; no process of the test left"
    else
        fail "processes left after stop: $(echo $left)"
    fi
else
    fail "sandbox stop: $(tail -n 5 "$WORK/stop.log")"
fi
log "timings: sandbox start $T_SANDBOX s, jobs and collects $T_JOBS s, stop $((SECONDS - t0)) s"
finish
