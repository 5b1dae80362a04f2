#!/usr/bin/env bash
# tests/slurm/sandbox.sh -- a private, single-host Slurm 22.05 cluster with
# real accounting (munged, MariaDB, slurmdbd, slurmctld, slurmd) for capplan's
# end-to-end tests, on loopback, as root, without systemd.
#
#   sandbox.sh start DIR       start everything in DIR (a new, empty or own dir)
#   sandbox.sh stop DIR        cancel the jobs, end each daemon by its PID, check
#                              that no process of DIR is left (exit 1 if one is)
#   sandbox.sh stop-dbd DIR    end slurmdbd only (accounting outage)
#   sandbox.sh start-dbd DIR   start it again
#   sandbox.sh leftovers DIR   list processes of DIR still alive ("PID NAME" lines)
#   sandbox.sh clean DIR       stop, delete the Linux users start created, rm DIR
#
# Everything lives in DIR: configs, munge key and socket, the MariaDB datadir,
# Slurm state, logs, PID files. Clients need SLURM_CONF=DIR/etc/slurm.conf.
# The daemons are started by us in the foreground (-D / --foreground), put in
# the background, and their PIDs written to DIR/pids; stop ends those PIDs
# (after checking /proc/PID/exe, against PID reuse) and nothing else, then
# looks for any process whose command line or environment names DIR (jobs,
# slurmstepd) and ends those, so that nothing of the sandbox survives it.
#
# Cluster: ClusterName CP_SLURM_CLUSTER [capplan-test], one node (node01) advertising
# CP_SLURM_CPUS CPUs [8] (more than the machine has: config_overrides; the
# jobs only sleep) and 8000 MB, with 4 fake GPUs gpu:a100 (character devices
# with /dev/null's numbers: Slurm 22.05 drops a GPU without File=).
# Partitions: main (default, PriorityTier 1, PreemptMode REQUEUE),
# unkillable (tier 10, never preempted), scavenge (tier 0, PreemptMode
# CANCEL); PreemptType preempt/partition_prio. Accounts lab-a and lab-b;
# Linux users (created when missing, with useradd)
# CP_SLURM_USERS ["cpt_alice:lab-a cpt_bob:lab-b cpt_carol:lab-a,lab-b"].
# PrivateData CP_SLURM_PRIVATE_DATA [jobs] (slurm.conf and slurmdbd.conf): a
# user sees only their own jobs, root and SlurmUser all of them.
# Memory limits are enforced by polling (JobAcctGatherParams=OverMemoryKill,
# no cgroups needed): a job over --mem ends FAILED with signal 9.
#
# Ports (loopback), not Slurm's defaults so that a site's or another sandbox's
# daemons are left alone: CP_SLURM_PORT_BASE [16800]: slurmctld +17,
# slurmd +18, slurmdbd +19, MariaDB +20. start refuses a port in use.
#
# Needs the Debian 12 packages slurm-wlm slurmdbd slurm-client mariadb-server
# munge (the test installs them when missing).
set -Eeuo pipefail

PROG=sandbox.sh
die() { echo "$PROG: $*" >&2; exit 1; }
say() { echo "$PROG: $*" >&2; }

CMD=${1:-}
[[ -n ${2:-} ]] || { sed -n '2,13p' "$0" >&2; exit 2; }
DIR=$(realpath -m -- "$2")

CLUSTER=${CP_SLURM_CLUSTER:-capplan-test}
NODE=node01
BASE=${CP_SLURM_PORT_BASE:-16800}
CTLD_PORT=$((BASE + 17)) SLURMD_PORT=$((BASE + 18)) DBD_PORT=$((BASE + 19)) DB_PORT=$((BASE + 20))
CPUS=${CP_SLURM_CPUS:-8}
GPUS=4
USERS=${CP_SLURM_USERS:-cpt_alice:lab-a cpt_bob:lab-b cpt_carol:lab-a,lab-b}
WAIT=${CP_SLURM_TIMEOUT:-60}
PRIVATE=${CP_SLURM_PRIVATE_DATA:-jobs}

ETC=$DIR/etc LOG=$DIR/log RUN=$DIR/run PIDS=$DIR/pids VAR=$DIR/var
MUNGE_SOCK=$DIR/munge/munge.socket.2
DB_SOCK=$RUN/mysqld/mysqld.sock
MARK=$DIR/.capplan-slurm-sandbox
export SLURM_CONF=$ETC/slurm.conf

DAEMONS="munged mariadbd slurmdbd slurmctld slurmd"
declare -A EXE RUNAS
# Each daemon is run through the path Debian installs (slurmctld and slurmd
# are alternatives symlinks): Slurm tells what it is from basename(argv[0]),
# and slurmctld run as 'slurmctld-wlm' never starts its accounting agent.
# EXE is the binary /proc/PID/exe then shows.
find_daemons() {
    local d p
    for d in $DAEMONS; do
        p=$(command -v "$d" 2>/dev/null || true)
        [[ -z $p && -x /usr/sbin/$d ]] && p=/usr/sbin/$d
        [[ -n $p ]] || die "$d not found: apt-get install slurm-wlm slurmdbd slurm-client mariadb-server munge"
        RUNAS[$d]=$p
        EXE[$d]=$(readlink -f "$p")
    done
}

# ---- processes ----------------------------------------------------------

alive() {   # alive PID: exists and is not a zombie
    local st
    st=$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) || return 1
    [[ -n $st && $st != Z ]]
}
pid_of() { cat "$PIDS/$1.pid" 2>/dev/null || true; }
ours() {    # ours NAME: its recorded PID is alive and runs its binary
    local p; p=$(pid_of "$1")
    [[ -n $p ]] && alive "$p" && [[ $(readlink "/proc/$p/exe" 2>/dev/null) == "${EXE[$1]}" ]]
}

launch() {  # launch NAME ARGS...: start a foreground daemon in the background
    local name=$1; shift
    ours "$name" && { say "$name already runs (pid $(pid_of "$name"))"; return 0; }
    "${RUNAS[$name]}" "$@" </dev/null >>"$LOG/$name.out" 2>&1 &
    echo $! >"$PIDS/$name.pid"
}

await() {   # await NAME LOG WHAT CMD...: until CMD succeeds, NAME dies or time runs out
    local name=$1 logf=$2 what=$3; shift 3
    local end=$((SECONDS + WAIT))
    until "$@" >/dev/null 2>&1; do
        if ! ours "$name" || ((SECONDS >= end)); then
            tail -n 30 "$logf" "$LOG/$name.out" >&2 2>/dev/null || true
            ours "$name" && die "timed out after ${WAIT}s waiting for $what"
            die "$name exited while starting ($what); logs in $LOG"
        fi
        sleep 0.2
    done
}

end_pid() { # end_pid NAME: SIGTERM its PID, SIGKILL after a grace time
    local name=$1 grace=${2:-20} p
    p=$(pid_of "$name")
    [[ -n $p ]] || return 0
    if ours "$name"; then
        kill -TERM "$p" 2>/dev/null || true
        local end=$((SECONDS + grace))
        while alive "$p" && ((SECONDS < end)); do sleep 0.1; done
        if alive "$p"; then
            say "$name (pid $p) still alive after ${grace}s: SIGKILL"
            kill -KILL "$p" 2>/dev/null || true
            sleep 0.3
        fi
    fi
    rm -f "$PIDS/$name.pid"
}

# Processes of this sandbox: command line or environment naming DIR/, or a
# descriptor open in it (slurmstepd: its sockets are in the spool dir).
leftovers() {
    local p pid f self=$$ hit
    for p in /proc/[0-9]*; do
        pid=${p#/proc/}
        [[ $pid == "$self" || $pid == "$BASHPID" ]] && continue
        hit=
        if { tr '\0' '\n' <"$p/cmdline"; } 2>/dev/null | grep -qF -- "$DIR/"; then hit=1
        elif { tr '\0' '\n' <"$p/environ"; } 2>/dev/null | grep -qF -- "$DIR/"; then hit=1
        else
            for f in "$p"/fd/*; do
                [[ $(readlink "$f" 2>/dev/null) == "$DIR/"* ]] && { hit=1; break; }
            done
        fi
        [[ -n $hit ]] && alive "$pid" && echo "$pid $(cat "$p/comm" 2>/dev/null)"
    done
    return 0
}

# ---- configuration --------------------------------------------------------

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

write_configs() {
    local i
    mkdir -p "$DIR/dev"
    echo "AutoDetect=off" >"$ETC/gres.conf"
    for ((i = 0; i < GPUS; i++)); do
        [[ -e $DIR/dev/gpu$i ]] || mknod -m 666 "$DIR/dev/gpu$i" c 1 3 2>/dev/null \
            || ln -s /dev/null "$DIR/dev/gpu$i"
        echo "NodeName=$NODE Name=gpu Type=a100 File=$DIR/dev/gpu$i" >>"$ETC/gres.conf"
    done
    cat >"$ETC/slurm.conf" <<EOF
# capplan test sandbox (tests/slurm/sandbox.sh)
ClusterName=$CLUSTER
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=slurm
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCK
CredType=cred/munge
CommunicationParameters=NoInAddrAny,NoCtldInAddrAny
StateSaveLocation=$VAR/slurmctld
SlurmdSpoolDir=$VAR/slurmd
SlurmctldPidFile=$RUN/slurmctld.pid
SlurmdPidFile=$RUN/slurmd.pid
SlurmctldLogFile=$LOG/slurmctld.log
SlurmdLogFile=$LOG/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=1
JobAcctGatherParams=OverMemoryKill
PrologFlags=Contain
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=$DBD_PORT
# the munge socket slurmctld and the clients use to reach slurmdbd
AccountingStoragePass=$MUNGE_SOCK
AccountingStorageEnforce=associations,limits,qos
AccountingStorageTRES=gres/gpu,gres/gpu:a100
JobCompType=jobcomp/none
SchedulerType=sched/backfill
PrivateData=$PRIVATE
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=256
PriorityType=priority/multifactor
PreemptType=preempt/partition_prio
PreemptMode=REQUEUE
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=60
MessageTimeout=10
KillWait=2
OverTimeLimit=0
InactiveLimit=0
MinJobAge=300
GresTypes=gpu
SlurmdParameters=config_overrides
NodeName=$NODE NodeAddr=127.0.0.1 NodeHostname=localhost CPUs=$CPUS RealMemory=8000 Gres=gpu:a100:$GPUS State=UNKNOWN
PartitionName=main Nodes=$NODE Default=YES PriorityTier=1 PreemptMode=REQUEUE DefaultTime=00:10:00 MaxTime=1-00:00:00 State=UP
PartitionName=unkillable Nodes=$NODE PriorityTier=10 PreemptMode=OFF DefaultTime=00:10:00 MaxTime=1-00:00:00 State=UP
PartitionName=scavenge Nodes=$NODE PriorityTier=0 PreemptMode=CANCEL DefaultTime=00:10:00 MaxTime=1-00:00:00 State=UP
EOF
    cat >"$ETC/slurmdbd.conf" <<EOF
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCK
DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort=$DBD_PORT
SlurmUser=slurm
DebugLevel=info
LogFile=$LOG/slurmdbd.log
PidFile=$RUN/slurmdbd.pid
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$DB_PORT
StorageUser=slurm
StoragePass=$(cat "$ETC/dbpass")
StorageLoc=slurm_acct_db
PrivateData=$PRIVATE
EOF
    chown slurm "$ETC/slurmdbd.conf"
    chmod 600 "$ETC/slurmdbd.conf"
    chmod 644 "$ETC/slurm.conf" "$ETC/gres.conf"
}

# ---- start ------------------------------------------------------------------

start_munge() {
    [[ -s $ETC/munge.key ]] || mungekey --create --keyfile="$ETC/munge.key" --force
    chmod 600 "$ETC/munge.key"
    launch munged --foreground --force --key-file="$ETC/munge.key" --socket="$MUNGE_SOCK" \
        --pid-file="$DIR/munge/munged.pid" --seed-file="$DIR/munge/munged.seed" \
        --log-file="$LOG/munged.log"
    await munged "$LOG/munged.log" "munged" \
        bash -c "munge -n -S '$MUNGE_SOCK' | unmunge -S '$MUNGE_SOCK'"
}

start_mariadb() {
    local data=$VAR/mysql
    if [[ ! -d $data/mysql ]]; then
        mkdir -p "$data"
        chown mysql:mysql "$data"
        mariadb-install-db --no-defaults --user=mysql --datadir="$data" --skip-test-db \
            --auth-root-authentication-method=socket >"$LOG/mariadb-install.log" 2>&1 \
            || { tail -n 20 "$LOG/mariadb-install.log" >&2; die "mariadb-install-db failed"; }
    fi
    mkdir -p "$RUN/mysqld"
    chown mysql:mysql "$RUN/mysqld"
    touch "$LOG/mariadb.log"
    chown mysql "$LOG/mariadb.log"
    launch mariadbd --no-defaults --user=mysql --datadir="$data" --socket="$DB_SOCK" \
        --port="$DB_PORT" --bind-address=127.0.0.1 --skip-name-resolve \
        --pid-file="$RUN/mysqld/mariadb.pid" --log-error="$LOG/mariadb.log" \
        --tmpdir="$DIR/tmp" --innodb-buffer-pool-size=256M --innodb-log-file-size=64M \
        --innodb-lock-wait-timeout=900
    await mariadbd "$LOG/mariadb.log" "MariaDB" mariadb --no-defaults -S "$DB_SOCK" -u root -e 'SELECT 1'
    [[ -s $ETC/dbpass ]] || head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$ETC/dbpass"
    chmod 600 "$ETC/dbpass"
    mariadb --no-defaults -S "$DB_SOCK" -u root <<EOF
CREATE DATABASE IF NOT EXISTS slurm_acct_db;
CREATE USER IF NOT EXISTS 'slurm'@'127.0.0.1' IDENTIFIED BY '$(cat "$ETC/dbpass")';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';
FLUSH PRIVILEGES;
EOF
}

start_slurmdbd() {
    launch slurmdbd -D
    await slurmdbd "$LOG/slurmdbd.log" "slurmdbd" sacctmgr -n -P show cluster format=cluster
}

# Cluster, accounts and users, before slurmctld so that it loads them at once.
add_associations() {
    local spec u accts a
    [[ -n $(sacctmgr -n -P show cluster "$CLUSTER" format=cluster) ]] \
        || sacctmgr -i add cluster "$CLUSTER" >/dev/null
    for spec in $USERS; do
        u=${spec%%:*} accts=${spec#*:}
        if ! id -u "$u" >/dev/null 2>&1; then
            useradd -m -s /bin/bash "$u"
            echo "$u" >>"$DIR/users-created"
        fi
        for a in ${accts//,/ }; do
            [[ -n $(sacctmgr -n -P show account "$a" format=account) ]] \
                || sacctmgr -i add account "$a" cluster="$CLUSTER" description="$a" organization=capplan >/dev/null
            [[ -n $(sacctmgr -n -P show assoc where cluster="$CLUSTER" user="$u" account="$a" format=user) ]] \
                || sacctmgr -i add user "$u" account="$a" defaultaccount="${accts%%,*}" cluster="$CLUSTER" >/dev/null
        done
    done
}

start_slurm() {
    launch slurmctld -D
    await slurmctld "$LOG/slurmctld.log" "slurmctld" bash -c "scontrol ping | grep -q 'is UP'"
    launch slurmd -D -N "$NODE"
    await slurmd "$LOG/slurmd.log" "node $NODE to register" \
        bash -c "sinfo -h -n $NODE -o %t | grep -Eq '^(idle|mix|alloc)$'"
}

do_start() {
    local t0=$SECONDS p
    [[ $(id -u) == 0 ]] || die "must run as root (the daemons start as root)"
    find_daemons
    id -u slurm >/dev/null 2>&1 || die "user slurm missing (package slurm-wlm creates it)"
    id -u mysql >/dev/null 2>&1 || die "user mysql missing (package mariadb-server creates it)"
    if [[ -e $DIR && ! -e $MARK && -n $(ls -A "$DIR" 2>/dev/null) ]]; then
        die "$DIR is not empty and not a sandbox of ours"
    fi
    if [[ ! -e $MARK ]]; then
        for p in $CTLD_PORT $SLURMD_PORT $DBD_PORT $DB_PORT; do
            port_free "$p" || die "port $p is in use (set CP_SLURM_PORT_BASE)"
        done
    fi
    mkdir -p "$ETC" "$LOG" "$RUN" "$PIDS" "$DIR/munge" "$VAR/slurmd" "$VAR/slurmctld" "$DIR/tmp" "$DIR/jobs"
    touch "$MARK"
    chmod 755 "$DIR" "$ETC" "$LOG" "$RUN" "$PIDS" "$DIR/munge" "$DIR/jobs"
    chmod 1777 "$DIR/tmp"
    chown slurm "$VAR/slurmctld"
    touch "$LOG/slurmctld.log" "$LOG/slurmdbd.log"
    chown slurm "$LOG/slurmctld.log" "$LOG/slurmdbd.log"
    start_munge
    start_mariadb
    write_configs
    start_slurmdbd
    add_associations
    start_slurm
    say "up in $((SECONDS - t0)) s: export SLURM_CONF=$SLURM_CONF"
}

# ---- stop -------------------------------------------------------------------

do_stop() {
    [[ -e $MARK ]] || { [[ -d $DIR ]] && die "$DIR is not a sandbox of ours"; return 0; }
    find_daemons
    if ours slurmctld; then
        local ids
        ids=$(squeue -h -o %A 2>/dev/null | tr '\n' ' ' || true)
        if [[ -n ${ids// /} ]]; then
            # shellcheck disable=SC2086
            scancel $ids 2>/dev/null || true
            local end=$((SECONDS + 15))
            while [[ -n $(squeue -h -t R,CG -o %A 2>/dev/null) ]] && ((SECONDS < end)); do sleep 0.3; done
        fi
    fi
    end_pid slurmd 15
    end_pid slurmctld 15
    end_pid slurmdbd 15
    end_pid mariadbd 60
    end_pid munged 10
    # jobs or slurmstepd that outlived their slurmd: end them by PID
    local left pid name
    left=$(leftovers)
    if [[ -n $left ]]; then
        while read -r pid name; do
            say "ending leftover $name (pid $pid)"
            kill -KILL "$pid" 2>/dev/null || true
        done <<<"$left"
        sleep 0.5
    fi
    left=$(leftovers)
    [[ -z $left ]] || die "processes of $DIR still alive: $(echo $left)"
    say "stopped; no process of $DIR left"
}

do_clean() {
    do_stop
    local u
    if [[ -f $DIR/users-created ]]; then
        while read -r u; do
            [[ -n $u ]] && userdel -r "$u" 2>/dev/null || true
        done <"$DIR/users-created"
    fi
    [[ -e $MARK ]] && rm -rf -- "$DIR"
    return 0
}

case $CMD in
start) do_start ;;
stop) do_stop ;;
stop-dbd) find_daemons; end_pid slurmdbd 15 ;;
start-dbd) find_daemons; start_slurmdbd ;;
leftovers) leftovers ;;
clean) do_clean ;;
*) sed -n '2,13p' "$0" >&2; exit 2 ;;
esac
