#!/bin/sh
# bench/run.sh BUILD: time capplan on generated `sacct -a -D -P` files of
# 100k, 300k and 1M jobs, beside sqlite3's own `.import` of the same file
# into an untyped table (the baseline DESIGN.md measures against).
#
#   ./bench/run.sh build/release          (what `make bench` runs)
#   BENCH_SIZES="10000 50000" ./bench/run.sh build/release
#
# Environment: BENCH_SIZES (jobs per file), BENCH_SEED (generator seed, 1),
# BENCH_IMPORT_RUNS (runs of each import, the fastest kept; 2),
# CAPPLAN (binary, ./capplan), BENCH_KEEP_GOING=1 (carry on after a failed
# row, exit 1 at the end), BENCH_TMPDIR (where the temporary folder goes, /tmp),
# BENCH_TIMER=gnu-time|python3|none (how peak RSS is read; default: the first there),
# BENCH_DAYS (days the generated accounting spans; the generator's default:
# about 1500 jobs a day, at most two years), BENCH_WIDE=0 (skip the 26-field
# export shape of issue 14), BENCH_KEEP=DIR (keep the generated files, the
# baselines' times and capplan's imported database in DIR, and reuse them
# on the next run: see bench/README), BENCH_SKIP_BASELINE="SIZES" (sizes, or
# "all", at which the baselines -- sqlite3's .import, the naive queries,
# pandas -- are not run; a time kept in BENCH_KEEP is still shown).
#
# The end prints a summary: one line per row with every size side by side
# (time, CPU, peak RSS, the baseline), the import's seconds per million,
# and the issue 20 figure at 10M where the issue's table has one.
#
# Ten million jobs (issue 20; about 11 GB of sacct text and 1.7 GB of
# database, roughly an hour on 2 cores without BENCH_KEEP):
#   BENCH_SIZES="1000000 10000000" BENCH_DAYS=1825 BENCH_IMPORT_RUNS=1 \
#       BENCH_KEEP=/tmp/bench-keep make bench
#
# Every row of the table is one `bench_row` call:
#   bench_row WHAT JOBS ROWS BASELINE_S CMD...
# runs CMD, prints WHAT with its wall time, rows/s, peak RSS and, when
# BASELINE_S is not "-", the ratio to it; stops the run if CMD fails.
# Inside bench_size, $f is the sacct file, $db capplan's db after import.
set -u

BUILD=${1:-build/release}
GEN=$BUILD/bench/gen_sacct
CAPPLAN=${CAPPLAN:-./capplan}
SIZES=${BENCH_SIZES-100000 300000 1000000} # "": the site shape alone
SEED=${BENCH_SEED:-1}
KEEP_GOING=${BENCH_KEEP_GOING:-0}

die() {
    echo "bench: $*" >&2
    exit 1
}

[ -x "$GEN" ] || die "no generator at $GEN (make $GEN)"
[ -x "$CAPPLAN" ] || die "no capplan binary at $CAPPLAN (make capplan)"
command -v sqlite3 >/dev/null 2>&1 || die "sqlite3 (the shell) is missing: make deps"

TMP=$(mktemp -d "${BENCH_TMPDIR:-/tmp}/capplan-bench.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$TMP"' EXIT
# BENCH_KEEP: the sacct files, capplan's databases and the baselines' times
# live there and stay; else in the temporary folder.
KEEP=${BENCH_KEEP:-}
DATA=$TMP
if [ -n "$KEEP" ]; then
    mkdir -p "$KEEP" || die "BENCH_KEEP: cannot make $KEEP"
    DATA=$KEEP
fi
RES=$TMP/results # the summary's input: what, jobs, seconds, CPU s, peak MB, baseline s
: >"$RES"
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM

# Peak RSS: GNU time if installed (Debian package `time`), else python3's
# getrusage of the child, else unknown.
if [ -n "${BENCH_TIMER:-}" ]; then
    TIMER=$BENCH_TIMER
elif /usr/bin/time -f %M -o /dev/null true 2>/dev/null; then
    TIMER=gnu-time
elif command -v python3 >/dev/null 2>&1; then
    TIMER="python3 (floor ~14 MB: the forked interpreter)"
else
    TIMER=none
fi
PYWRAP='import resource, subprocess, sys
rc = subprocess.call(sys.argv[2:])
r = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%.2f %.2f %d\n" % (r.ru_utime, r.ru_stime, r.ru_maxrss))
sys.exit(rc if rc >= 0 else 128 - rc)'

FAILED=0
NOTES=""
PY_SAID=""
RECOMPUTE=""
TUI_SAID=""
# A python3 with pandas and scikit-learn (Debian's, when another python3 is
# first on PATH) for the planner's baseline.
PYSK=""
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import pandas, sklearn' 2>/dev/null; then PYSK=$p; break; fi
done

# naive_sql KIND: one plain query over the jobs table that a sysadmin would
# write for the same question (no materialised tables, no cache).
naive_sql() {
    case $1 in
    utilization) echo "SELECT cluster_id, strftime('%Y-%m', start, 'unixepoch') m,
        sum(gpus * elapsed) / 3600.0 FROM jobs WHERE start IS NOT NULL GROUP BY 1, 2;" ;;
    preemption) echo "SELECT account_id, partition_id, count(*), sum(state = (SELECT state FROM jobs
        WHERE state_raw LIKE 'PREEMPTED%' LIMIT 1)), sum(gpus * elapsed) / 3600.0
        FROM jobs GROUP BY 1, 2;" ;;
    waits) echo "SELECT partition_id, gpus, start - submit w FROM jobs WHERE start IS NOT NULL
        ORDER BY partition_id, gpus, w;" ;;
    efficiency) echo "SELECT account_id, sum(total_cpu_s) / sum(elapsed * ncpus),
        sum(max_rss_mib) / sum(req_mem_mib), avg(gpu_util) FROM jobs WHERE elapsed > 0
        GROUP BY 1;" ;;
    domains) echo "SELECT account_id, strftime('%Y', start, 'unixepoch'), sum(gpus * elapsed) / 3600.0
        FROM jobs WHERE start IS NOT NULL GROUP BY 1, 2;" ;;
    pubs) echo "SELECT account_id, count(*) FROM jobs GROUP BY 1;" ;;
    esac
}
LINEARITY=""
WIDE_LINEARITY=""
BASE_LINEARITY=""

# measure CMD...: runs CMD with stdout/stderr in $TMP/out, $TMP/err; sets
# M_S (wall seconds), M_CPU (user + system seconds, or "?"), M_RSS (peak MB
# or "?") and M_RC (exit status).
measure() {
    : >"$TMP/rss"
    sync # the previous row's writes reach the disk before this row is timed
    sync
    t0=$(date +%s.%N)
    case $TIMER in
    gnu-time) /usr/bin/time -f '%U %S %M' -o "$TMP/rss" "$@" >"$TMP/out" 2>"$TMP/err" ;;
    python3*) python3 -c "$PYWRAP" "$TMP/rss" "$@" >"$TMP/out" 2>"$TMP/err" ;;
    *) "$@" >"$TMP/out" 2>"$TMP/err" ;;
    esac
    M_RC=$?
    t1=$(date +%s.%N)
    M_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    # GNU time's last line: user, system, KB (a killed child adds a line before it)
    # shellcheck disable=SC2046 # three numbers, split on purpose
    set -- $(tail -n 1 "$TMP/rss" 2>/dev/null)
    M_CPU=$(awk -v u="${1:-}" -v s="${2:-}" 'BEGIN { if (u ~ /^[0-9.]+$/ && s ~ /^[0-9.]+$/)
        printf "%.2f", u + s; else print "?" }')
    M_RSS=$(awk -v k="${3:-}" 'BEGIN { if (k ~ /^[0-9]+$/) printf "%.1f", k / 1024; else print "?" }')
}

header() {
    printf '%-33s %8s %9s %8s %8s %7s %10s %8s %10s %6s\n' \
        what jobs rows "file MB" "time s" "CPU s" "rows/s" "peak MB" "base s" ratio
}

# record WHAT JOBS SECONDS CPU_S PEAK_MB BASELINE_S [MARK]: one line of the
# summary's input ($RES), whatever printed it; MARK follows the time there.
record() {
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "${7:-}" >>"$RES"
}

# print_row WHAT JOBS ROWS SECONDS PEAK_MB BASELINE_S [CPU_S]: a line of the
# size's table, recorded for the summary.
print_row() {
    awk -v w="$1" -v j="$2" -v r="$3" -v s="$4" -v m="$5" -v b="$6" -v c="${7:-$M_CPU}" \
        -v mb="$FILE_MB" 'BEGIN {
        rps = s > 0 ? sprintf("%.0f", r / s) : "-"
        ratio = (b != "-" && b > 0) ? sprintf("%.2f", s / b) : "-"
        printf "%-33s %8d %9d %8s %8.2f %7s %10s %8s %10s %6s\n", w, j, r, mb, s, c, rps, m, b, ratio
    }'
    record "$1" "$2" "$4" "${7:-$M_CPU}" "$5" "$6"
}

# kept_row WHAT JOBS ROWS FILE [BASELINE_S]: a row whose time was measured
# by an earlier run and kept in FILE (BENCH_KEEP: "seconds cpu peak_mb");
# sets BENCH_LAST_S, M_CPU and M_RSS as a measured row does.
kept_row() {
    _kb=${5:--}
    # shellcheck disable=SC2046 # three numbers, split on purpose
    set -- "$1" "$2" "$3" $(cat "$4")
    BENCH_LAST_S=$4 M_CPU=${5:-?} M_RSS=${6:-?}
    print_row "$1 (kept)" "$2" "$3" "$4" "$M_RSS" "$_kb"
}

# bench_row WHAT JOBS ROWS BASELINE_S CMD...: one timed row of the table.
# BENCH_LAST_S holds its time afterwards.
bench_row() {
    _what=$1 _jobs=$2 _rows=$3 _base=$4
    shift 4
    measure "$@"
    BENCH_LAST_S=$M_S
    if [ "$M_RC" -ne 0 ]; then
        FAILED=1
        printf '%-33s %8d  FAILED: exit %d after %s s\n' "$_what" "$_jobs" "$M_RC" "$M_S"
        echo "bench: '$_what' failed (exit $M_RC): $*" >&2
        tail -n 20 "$TMP/err" | sed 's/^/    /' >&2
        [ "$KEEP_GOING" = 1 ] || exit 1
        return 1
    fi
    print_row "$_what" "$_jobs" "$_rows" "$M_S" "$M_RSS" "$_base"
}

# import_best WHAT JOBS ROWS BASELINE_S DB CMD...: bench_row over
# BENCH_IMPORT_RUNS runs of CMD, each into a new DB, keeping the fastest.
import_best() {
    _w=$1 _j=$2 _r=$3 _b=$4 _db=$5
    shift 5
    _best="" _best_rss="" _best_cpu=""
    _i=0
    while [ "$_i" -lt "${BENCH_IMPORT_RUNS:-2}" ]; do
        rm -f "$_db" "$_db-wal" "$_db-shm" "$_db-journal"
        measure "$@"
        if [ "$M_RC" -ne 0 ]; then
            bench_row "$_w" "$_j" "$_r" "$_b" "$@" # reports the failure
            return 1
        fi
        if [ -z "$_best" ] || awk -v a="$M_S" -v b="$_best" 'BEGIN { exit !(a < b) }'; then
            _best=$M_S _best_rss=$M_RSS _best_cpu=$M_CPU
            cp "$TMP/out" "$TMP/out.best"
        fi
        _i=$((_i + 1))
    done
    cp "$TMP/out.best" "$TMP/out"
    BENCH_LAST_S=$_best
    M_RSS=$_best_rss M_CPU=$_best_cpu
    print_row "$_w" "$_j" "$_r" "$_best" "$_best_rss" "$_b" "$_best_cpu"
}

# skip_baseline N: 0 when BENCH_SKIP_BASELINE names size N (or "all").
skip_baseline() {
    for _s in ${BENCH_SKIP_BASELINE:-}; do
        [ "$_s" = all ] || [ "$_s" = "$1" ] && return 0
    done
    return 1
}

# keep_time FILE: BENCH_KEEP's record of the row just measured.
keep_time() {
    [ -z "$KEEP" ] || echo "$BENCH_LAST_S $M_CPU $M_RSS" >"$1"
}

fmt_jobs() {
    awk -v n="$1" 'BEGIN { if (n >= 1000000 && n % 1000000 == 0) printf "%dM", n / 1000000;
                           else if (n >= 1000 && n % 1000 == 0) printf "%dk", n / 1000;
                           else printf "%d", n }'
}

per100k() {
    awk -v s="$1" -v n="$2" 'BEGIN { printf "%.2f", s * 100000 / n }'
}

# gen_file N FILE [ARGS [LABEL]]: the generated sacct file with gen_sacct's
# further ARGS (--wide...), its row named "gen_sacct --steps LABEL" (ARGS by
# default); kept in BENCH_KEEP: a file already there, or a link to one, is
# used as it is.
gen_file() {
    _n=$1 _f=$2 _wide=${3:-} _label=${4:-${3:-}}
    days=${BENCH_DAYS:+--days $BENCH_DAYS}
    if [ -n "$KEEP" ] && [ -s "$_f" ]; then
        rows=$(($(wc -l <"$_f") - 1))
        FILE_MB=$(awk -v b="$(wc -c <"$_f")" 'BEGIN { printf "%.1f", b / 1048576 }')
        printf '%-33s %8d %9d %8s  kept: %s\n' "gen_sacct --steps${_label:+ $_label}" "$_n" \
            "$rows" "$FILE_MB" "$(readlink -f "$_f")"
        return 0
    fi
    # shellcheck disable=SC2016,SC2086 # $0..$5 are sh -c's own ($3: --days D or empty)
    measure sh -c 'exec "$0" --jobs "$1" --seed "$2" --steps $3 $5 >"$4"' "$GEN" "$_n" "$SEED" \
        "$days" "$_f" "$_wide"
    [ "$M_RC" -eq 0 ] || die "gen_sacct failed (exit $M_RC): $(tail -n 3 "$TMP/err")"
    rows=$(($(wc -l <"$_f") - 1))
    FILE_MB=$(awk -v b="$(wc -c <"$_f")" 'BEGIN { printf "%.1f", b / 1048576 }')
    print_row "gen_sacct --steps${_label:+ $_label}" "$_n" "$rows" "$M_S" "$M_RSS" -
}

# baseline_import WHAT N ROWS FILE KEPT: sqlite3's .import of FILE into an
# untyped table (best of BENCH_IMPORT_RUNS), or its time kept in KEPT, or
# nothing at a size of BENCH_SKIP_BASELINE; sets base ("-" when none).
baseline_import() {
    base=-
    if [ -n "$KEEP" ] && [ -s "$5" ]; then
        kept_row "$1" "$2" "$3" "$5"
    elif skip_baseline "$2"; then
        return 0
    else
        import_best "$1" "$2" "$3" - "$TMP/baseline_$2.db" \
            sqlite3 "$TMP/baseline_$2.db" '.mode list' '.separator |' ".import \"$4\" t"
        keep_time "$5"
        rm -f "$TMP/baseline_$2.db"
    fi
    base=$BENCH_LAST_S
}

# sim_fleet DB COPY: COPY is DB with the fleet its jobs ran on imported
# (each GPU model's recorded peak, bench/peak_fleet.py): gen_sacct's log
# has no inventory, and `capplan simulate` will not guess one.
sim_fleet() {
    rm -f "$2" "$2"-*
    cp "$1" "$2" || return 1
    python3 "$(dirname "$0")/peak_fleet.py" "$2" "$TMP/peak_fleet.csv" || return 1
    "$CAPPLAN" --db "$2" import inventory "$TMP/peak_fleet.csv" >/dev/null
}

# One file size: generate, baseline, capplan, then the rows that use the db.
bench_size() {
    n=$1
    f=$DATA/sacct_$n.psv
    db=$DATA/capplan_$n.db
    FILE_MB=-
    gen_file "$n" "$f"

    # The two imports: best of BENCH_IMPORT_RUNS runs each (2), each run
    # into a new database (the first run on a machine pays for memory the
    # kernel has not handed out yet, whichever program it is).
    baseline_import "sqlite3 .import (baseline)" "$n" "$rows" "$f" "$DATA/baseline_$n.time"
    [ "$base" = - ] || BASE_LINEARITY="$BASE_LINEARITY  $(fmt_jobs "$n") $(per100k "$base" "$n")"

    imported=0 fresh=0
    if [ -n "$KEEP" ] && [ -s "$db" ]; then
        # A kept database: its import is not run again (its time, when this
        # script made it, was kept beside it).
        if [ -s "$db.time" ]; then
            kept_row "capplan import sacct" "$n" "$rows" "$db.time" "$base"
            imported=1
        else
            printf '%-33s %8d  kept database, import not timed: %s\n' "capplan import sacct" \
                "$n" "$(readlink -f "$db")"
        fi
    elif import_best "capplan import sacct" "$n" "$rows" "$base" "$db" \
        "$CAPPLAN" --db "$db" import sacct "$f"; then
        keep_time "$db.time"
        imported=1 fresh=1
        said=$(tail -n 1 "$TMP/out")
        [ -n "$said" ] || said=$(tail -n 1 "$TMP/err")
        NOTES="$NOTES
  $(fmt_jobs "$n"): $said"
    fi
    if [ "$imported" = 1 ]; then
        LINEARITY="$LINEARITY  $(fmt_jobs "$n") $(per100k "$BENCH_LAST_S" "$n")"
        record "capplan import, s per million" "$n" \
            "$(awk -v s="$BENCH_LAST_S" -v n="$n" 'BEGIN { printf "%.2f", s * 1e6 / n }')" \
            "$(awk -v s="$M_CPU" -v n="$n" 'BEGIN { if (s ~ /^[0-9.]+$/)
                printf "%.2f", s * 1e6 / n; else print "?" }')" "$M_RSS" \
            "$(awk -v s="$base" -v n="$n" 'BEGIN { if (s ~ /^[0-9.]+$/)
                printf "%.2f", s * 1e6 / n; else print "-" }')"
    fi
    # issue 30 item 7: the first reads after the import, nothing between but
    # the summary lines above (after them: they read the import's BENCH_LAST_S)
    [ "$fresh" = 1 ] && bench_util_fresh "$n" "$rows" "$db"
    # status reads the counts kept at import (issue 20): no scan.
    bench_row "capplan status" "$n" "$rows" - "$CAPPLAN" --db "$db" status --json
    # The planner: profile + project beside pandas + scikit-learn doing the
    # same work (bench/baseline_plan.py) on the same database.
    pybase=-
    if [ -n "$PYSK" ] && ! skip_baseline "$n"; then
        bench_row "python3 pandas+sklearn" "$n" "$rows" - "$PYSK" bench/baseline_plan.py "$db"
        pybase=$BENCH_LAST_S
        PY_SAID="$PY_SAID
  $(fmt_jobs "$n") python3: $(tail -n 1 "$TMP/out")"
    fi
    bench_row "capplan profile" "$n" "$rows" "$pybase" "$CAPPLAN" --db "$db" profile --json
    PY_SAID="$PY_SAID
  $(fmt_jobs "$n") capplan: $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("k=%d silhouette=%.3f inertia=%.1f" % (d["k"], d["silhouette"], d["inertia"]))' "$TMP/out" 2>/dev/null)"
    bench_row "capplan project" "$n" "$rows" "$pybase" "$CAPPLAN" --db "$db" project --json
    bench_row "capplan project --backtest" "$n" "$rows" - "$CAPPLAN" --db "$db" project --backtest --json
    bench_row "capplan project --bench" "$n" "$rows" - "$CAPPLAN" --db "$db" project --bench
    RECOMPUTE="$RECOMPUTE
  $(fmt_jobs "$n"): $(grep 'recompute after one parameter change' "$TMP/out")"
    # the queue simulation (#33): the record replayed, then next year's purchase search
    # (after RECOMPUTE, which reads project --bench's output)
    # on a copy given the fleet the log ran on (simulate refuses to guess one;
    # bench/peak_fleet.py), so the rows after these read the database as imported
    sim_fleet "$db" "$TMP/sim_rows.db" || return 1
    bench_row "capplan simulate --replay" "$n" "$rows" - "$CAPPLAN" --db "$TMP/sim_rows.db" simulate --replay --json
    bench_row "capplan simulate (search)" "$n" "$rows" - "$CAPPLAN" --db "$TMP/sim_rows.db" simulate --json
    rm -f "$TMP/sim_rows.db" "$TMP/sim_rows.db"-*

    # Statistics: the first after the import (a kept database's first only
    # on its first run), then each kind from what it kept; each beside one
    # naive sqlite3 query over the jobs table.
    first=", first"
    for kind in utilization preemption waits efficiency domains pubs; do
        nbase=-
        if ! skip_baseline "$n"; then
            bench_row "sqlite3 naive $kind" "$n" "$rows" - sqlite3 "$db" "$(naive_sql "$kind")"
            nbase=$BENCH_LAST_S
        fi
        bench_row "capplan stats $kind$first" "$n" "$rows" "$nbase" \
            "$CAPPLAN" --db "$db" stats "$kind" --json
        [ "$kind" != utilization ] || ubase=$nbase
        first=""
    done
    bench_row "capplan stats utilization" "$n" "$rows" "$ubase" \
        "$CAPPLAN" --db "$db" stats utilization --json

    bench_tui "$n" "$rows" "$db"

    # The report and the spreadsheet tables (issue 20 item 4).
    bench_row "capplan export report.md" "$n" "$rows" - \
        "$CAPPLAN" --db "$db" export "$TMP/report_$n.md"
    bench_row "capplan export --csv" "$n" "$rows" - \
        "$CAPPLAN" --db "$db" export --csv "$TMP/csv_$n"
    # The whole export in one command (issue 17: md, html, xlsx, csv under 1 s at 300k).
    bench_row "capplan export all four" "$n" "$rows" - \
        "$CAPPLAN" --db "$db" export "$TMP/report_$n.md" "$TMP/report_$n.html" \
        "$TMP/budget_$n.xlsx" --csv "$TMP/csv_$n"
    rm -rf "$TMP/report_$n.md" "$TMP/report_${n}_files" "$TMP/report_files" "$TMP/csv_$n" \
        "$TMP/report_$n.html" "$TMP/budget_$n.xlsx"
    [ -n "$KEEP" ] || rm -f "$f" "$db" "$db"-* "$db.time"

    # The wide export shape (issue 14 item 14: 26 fields, JobName third,
    # Group, QOS, Cluster last): its own file, baseline and import.
    [ "${BENCH_WIDE:-1}" = 0 ] || bench_wide "$n"
}

# bench_util_fresh N ROWS DB: issue 30 item 7, right after the import of
# DB: `stats utilization` and the dashboard's Usage view's first figures,
# each beside sqlite3 computing the same figure (GPU-hours per cluster and
# month) with one query over the jobs table; budget 150 ms wall each on a
# quiet machine. The Usage figures: the headless dashboard opened on the
# Usage view (`tui --bench-keys 6q`, on a copy of DB it makes first and
# does not count); its first figures are the frame's table and sparklines
# (first frame + key to frame) and the heat map from its worker (first
# frame + its arrival), whichever is later; its CPU is the main thread's
# (the heat map's worker not counted). UTIL_SAID gets both.
UTIL_SAID=""
bench_util_fresh() {
    ub=-
    skip_baseline "$1" || {
        bench_row "sqlite3 naive utilization, fresh" "$1" "$2" - sqlite3 "$3" \
            "$(naive_sql utilization)"
        ub=$BENCH_LAST_S
    }
    bench_row "capplan stats util. after import" "$1" "$2" "$ub" \
        "$CAPPLAN" --db "$3" stats utilization --json || return 0
    said="stats utilization $BENCH_LAST_S s wall, $M_CPU s CPU"
    measure "$CAPPLAN" --db "$3" tui --bench-keys 6q # its own wall: the copy and every worker
    if [ "$M_RC" -ne 0 ]; then
        FAILED=1
        echo "bench: capplan tui --bench-keys 6q failed (exit $M_RC)" >&2
        [ "$KEEP_GOING" = 1 ] || exit 1
        return 0
    fi
    # first frame F (start to frame), V (key 6 to its frame), H (heat map after F)
    _f=$(sed -nE 's/.*first frame ([0-9.]+) ms after start \(CPU ([0-9.]+) ms\).*/\1 \2/p' "$TMP/out")
    _v=$(sed -nE 's/^view 6 Usage: first display ([0-9.]+) ms \(CPU ([0-9.]+) ms\).*/\1 \2/p' "$TMP/out")
    _h=$(sed -nE 's/^usage: heat map .* in ([0-9]+) ms after the first frame.*/\1/p' "$TMP/out")
    # shellcheck disable=SC2086 # pairs of numbers, split on purpose
    _ms=$(echo ${_f:-? ?} ${_v:-? ?} ${_h:-0} | awk '$1 ~ /^[0-9.]+$/ && $3 ~ /^[0-9.]+$/ {
        t = $1 + $3; h = $1 + $5; printf "%.1f %.1f", (h > t ? h : t), $2 + $4 }')
    if [ -n "$_ms" ]; then
        # shellcheck disable=SC2086
        set -- "$1" $_ms
        record "Usage view first figures, fresh" "$1" \
            "$(awk -v m="$2" 'BEGIN { printf "%.4f", m / 1000 }')" \
            "$(awk -v m="$3" 'BEGIN { printf "%.4f", m / 1000 }')" - "$ub"
        said="$said; Usage view's first figures $2 ms (first frame ${_f%% *} ms, key to the"
        said="$said Usage frame ${_v%% *} ms, heat map ${_h:-?} ms after the first frame; CPU $3 ms)"
    fi
    UTIL_SAID="$UTIL_SAID
  $(fmt_jobs "$1"): $said; sqlite3's one query: $ub s"
}

# tui_ms WHAT N PATTERN [nocpu]: a row of the summary from the headless
# dashboard's output ($TMP/out): the first number after PATTERN (ms), the
# CPU ms right after it when the line has one, and the mark "+" when the
# view's frame said part of its figures were still coming from a worker.
tui_ms() {
    _l=$(grep -m 1 -E "$3" "$TMP/out") || return 0
    _ms=$(echo "$_l" | sed -E "s/.*$3[^0-9]*([0-9.]+) ms.*/\1/")
    _cpu=""
    [ "${4:-}" = nocpu ] || _cpu=$(echo "$_l" | sed -nE 's/.*\(CPU ([0-9.]+) ms\).*/\1/p')
    _mark=""
    case $_l in *"still coming"*) _mark=+ ;; esac
    record "$1" "$2" "$(awk -v m="$_ms" 'BEGIN { printf "%.4f", m / 1000 }')" \
        "$(awk -v m="$_cpu" 'BEGIN { if (m != "") printf "%.4f", m / 1000; else print "?" }')" \
        - - "$_mark"
}

# bench_tui N ROWS DB: the dashboard, headless. Start to first frame,
# then every view once (2 Groups, 5 Projection and a parameter's why,
# 3 Group and a member's jobs, 6 Usage, 4 Profiles, 7 Scenarios, 1
# Overview): each view's first
# display, key to frame; the Usage figures (a worker thread) and the
# planner (another) after the first frame; a redraw per key. Then 400 keys
# walking every view for the p99 (issues 16 and 20: first frame and every
# view's first display <= 150 ms, p99 < 16 ms).
bench_tui() {
    bench_row "capplan tui (headless)" "$1" "$2" - \
        "$CAPPLAN" --db "$3" tui --bench-keys '2s5<Enter><Esc>3<Enter><Esc>6471q'
    TUI_SAID="$TUI_SAID
  $(fmt_jobs "$1"): $(grep -E '^load|^usage|^redraw|^view' "$TMP/out" | tr '\n' ';' | sed 's/;$//')"
    tui_ms "dashboard first frame" "$1" "first frame"
    for v in 2:Groups 3:Group 4:Profiles 5:Projection 6:Usage 7:Scenarios; do
        tui_ms "dashboard view ${v#*:}" "$1" "^view ${v%%:*} [A-Za-z]*: first display"
    done
    tui_ms "dashboard member's jobs" "$1" "^member detail"
    tui_ms "dashboard Usage heat map" "$1" "^usage: heat map"
    tui_ms "dashboard Usage energy panel" "$1" "^usage: figures"
    tui_ms "dashboard planner" "$1" "planner" nocpu
    bench_row "capplan tui 400 keys" "$1" "$2" - \
        "$CAPPLAN" --db "$3" tui --iterations 400
    TUI_SAID="$TUI_SAID
  $(fmt_jobs "$1") 400 keys: $(grep -E '^redraw' "$TMP/out" | tr '\n' ';' | sed 's/;$//')"
}

# bench_wide N: gen_sacct --wide, sqlite3's .import of it, capplan's import.
bench_wide() {
    n=$1
    f=$DATA/sacct_wide_$n.psv
    db=$TMP/capplan_wide_$n.db
    FILE_MB=-
    gen_file "$n" "$f" --wide
    baseline_import "sqlite3 .import wide" "$n" "$rows" "$f" "$DATA/baseline_wide_$n.time"
    if import_best "capplan import sacct wide" "$n" "$rows" "$base" "$db" \
        "$CAPPLAN" --db "$db" import sacct "$f"; then
        WIDE_LINEARITY="$WIDE_LINEARITY  $(fmt_jobs "$n") $(per100k "$BENCH_LAST_S" "$n")"
    fi
    rm -f "$db" "$db"-*
    [ -n "$KEEP" ] || rm -f "$f"
}

# bench_site N: the shape sites have (issue 31): the wide 26-field export of
# 1,000 users in 60 accounts, jobs spread evenly over four years
# (2021-2024), .batch/.extern steps and TRES usage columns. sqlite3's
# .import of it, capplan's import, the first project and stats after it;
# then the nightly import: 1,000 new jobs of the day after into that
# database (beside sqlite3's .import of the same small file), and the first
# project and stats after that. SITE_SAID gets the CPU ratios.
SITE_ARGS="--wide --users 1000 --accounts 60 --start 2021-01-01 --days 1461"
bench_site() {
    n=$1
    f=$DATA/sacct_site_$n.psv
    inc=$DATA/sacct_site_new1000.psv
    db=$TMP/capplan_site_$n.db
    FILE_MB=-
    gen_file "$n" "$f" "$SITE_ARGS" "--wide site" # its --days comes after BENCH_DAYS's, and wins
    baseline_import "sqlite3 .import site" "$n" "$rows" "$f" "$DATA/baseline_site_$n.time"
    sb=$base sbc=-
    [ "$sb" = - ] || sbc=$M_CPU
    import_best "capplan import sacct site" "$n" "$rows" "$sb" "$db" \
        "$CAPPLAN" --db "$db" import sacct "$f" || return 0
    said="capplan $M_CPU s CPU, $BENCH_LAST_S s wall, peak $M_RSS MB; sqlite3 .import $sbc s CPU,"
    SITE_SAID="$SITE_SAID
  $(fmt_jobs "$n") site import: $said $sb s wall; CPU ratio $(ratio "$M_CPU" "$sbc")"
    bench_row "capplan project site, first" "$n" "$rows" - "$CAPPLAN" --db "$db" project --json
    bench_row "capplan stats util. site, first" "$n" "$rows" - \
        "$CAPPLAN" --db "$db" stats utilization --json
    # The night after: 1,000 new jobs on 2025-01-01, ids after the file's.
    if ! [ -s "$inc" ]; then
        # shellcheck disable=SC2086
        "$GEN" --jobs 1000 --seed "$SEED" --steps $SITE_ARGS --start 2025-01-01 --days 1 \
            --first-id 90000000 >"$inc" || die "gen_sacct failed (the 1,000 new jobs)"
    fi
    irows=$(($(wc -l <"$inc") - 1))
    FILE_MB=$(awk -v b="$(wc -c <"$inc")" 'BEGIN { printf "%.1f", b / 1048576 }')
    rm -f "$TMP/site_inc_base.db"
    bench_row "sqlite3 .import site +1000" "$n" "$irows" - \
        sqlite3 "$TMP/site_inc_base.db" '.mode list' '.separator |' ".import \"$inc\" t"
    ib=$BENCH_LAST_S ibc=$M_CPU
    rm -f "$TMP/site_inc_base.db"
    bench_row "capplan import site +1000 jobs" "$n" "$irows" "$ib" \
        "$CAPPLAN" --db "$db" import sacct "$inc"
    said="capplan $M_CPU s CPU, $BENCH_LAST_S s wall, peak $M_RSS MB; sqlite3 .import (new table)"
    SITE_SAID="$SITE_SAID
  $(fmt_jobs "$n") site +1,000 jobs: $said $ibc s CPU, $ib s wall"
    bench_row "capplan project site+1000, first" "$n" "$rows" - \
        "$CAPPLAN" --db "$db" project --json
    bench_row "capplan stats util. site+1000" "$n" "$rows" - \
        "$CAPPLAN" --db "$db" stats utilization --json
    rm -f "$db" "$db"-*
    [ -n "$KEEP" ] || rm -f "$f" "$inc"
}

ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0)
        printf "%.2f", a / b; else print "-" }'
}

loadavg() {
    cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'
}

# summary: one line per row of the sizes' tables, every size side by side
# (wall time, CPU time, peak RSS, the row's baseline), and the figure of
# issue 20's table at 10M (before the work on it) where it has one.
summary() {
    echo "summary, every size side by side: wall time, CPU time (user + system), peak RSS and" \
        "the row's baseline (sqlite3 .import for an import, the naive query for a stats kind," \
        "pandas + scikit-learn for profile and project); * kept from an earlier run (BENCH_KEEP);" \
        "+ the view's frame came while part of its figures were still coming from a worker" \
        "(the dashboard's rows below say when they came):"
    awk -F '\t' -v sizes="$SIZES" '
    function fmt(t) {
        if (t == "" || t == "-" || t == "?") return t == "" ? "" : t
        return t < 1 ? sprintf("%.1f ms", t * 1000) : sprintf("%.2f s", t)
    }
    function jobs(n) {
        return n % 1000000 == 0 ? (n / 1000000) "M" : n % 1000 == 0 ? (n / 1000) "k" : n
    }
    BEGIN {
        ns = split(sizes, sz, " ")
        issue["capplan import sacct"] = "38.1 s, 94 MB"
        issue["capplan import, s per million"] = "3.5 s (2.3 at 1M)"
        issue["capplan status"] = "7.88 s, 70 MB"
        issue["capplan profile"] = "3.04 s, 1.2 GB"
        issue["capplan project"] = "0.04 s, 10 MB"
        issue["capplan stats utilization, first"] = "16.9 s, 2.4 GB"
        issue["capplan stats utilization"] = "1.1 s, 1.25 GB"
        issue["capplan stats waits"] = "1.1 s, 1.25 GB"
        issue["capplan stats efficiency"] = "1.4 s, 1.25 GB"
        issue["capplan stats preemption"] = "1.6 s, 1.25 GB"
        issue["capplan export report.md"] = "16.5 s, 2.65 GB"
        issue["dashboard first frame"] = "61 ms"
        issue["dashboard view Usage"] = "10.4 s"
    }
    {
        w = $1; kept = sub(/ \(kept\)$/, "", w)
        if (!(w in seen)) { seen[w] = 1; order[++nw] = w }
        k = w SUBSEP $2
        t[k] = fmt($3) (kept ? "*" : "") $7; c[k] = fmt($4); m[k] = $5; b[k] = fmt($6)
    }
    END {
        printf "%-34s", "what"
        for (i = 1; i <= ns; i++)
            printf " %10s %9s %8s %9s", jobs(sz[i]) ": time", "CPU", "peak MB", "baseline"
        printf "  %s\n", "issue 20 at 10M"
        for (r = 1; r <= nw; r++) {
            w = order[r]
            printf "%-34s", w
            for (i = 1; i <= ns; i++) {
                k = w SUBSEP sz[i]
                if (k in t)
                    printf " %10s %9s %8s %9s", t[k], c[k], m[k], b[k]
                else
                    printf " %10s %9s %8s %9s", "", "", "", ""
            }
            printf "  %s\n", (w in issue) ? issue[w] : ""
        }
    }' "$RES"
}

echo "capplan bench: sizes $SIZES jobs, seed $SEED, peak RSS by $TIMER," \
    "$(nproc 2>/dev/null || echo '?') cores, load average $(loadavg)${KEEP:+, files kept in $KEEP}"
header
for n in $SIZES; do
    bench_size "$n" || { FAILED=1; echo "bench: the rows at $n jobs stopped (above)" >&2; }
done
# The site shape (issue 31) at 200k, and at 1M when BENCH_SIZES has it
# (BENCH_SITE_SIZES to choose, BENCH_SITE=0 to skip).
SITE_SIZES=${BENCH_SITE_SIZES:-200000$(case " $SIZES " in *" 1000000 "*) echo " 1000000" ;; esac)}
[ "${BENCH_SITE:-1}" = 0 ] && SITE_SIZES=""
SITE_SAID=""
for n in $SITE_SIZES; do
    bench_site "$n"
done
# shellcheck disable=SC2086 # lists of sizes, split on purpose
SIZES=$(printf '%s\n' $SIZES $SITE_SIZES | sort -n -u | tr '\n' ' ' | sed 's/ $//')
echo
summary
echo
echo "load average at the end: $(loadavg) (timings are wall clock: other work on the machine counts)"
echo "linearity, seconds per 100k jobs:"
echo "  capplan import sacct:${LINEARITY:- (no successful run)}"
echo "  sqlite3 .import:     $BASE_LINEARITY"
[ -z "$WIDE_LINEARITY" ] || echo "  capplan import wide: $WIDE_LINEARITY"
[ -z "$SITE_SAID" ] || echo "the site shape (issue 31: 1,000 users, 60 accounts, four years, steps), CPU = user + system:$SITE_SAID"
if [ -n "$NOTES" ]; then
    echo "capplan said:$NOTES"
fi
[ -z "$PY_SAID" ] || echo "the clusterings (same k and inertia means the same work):$PY_SAID"
[ -z "$RECOMPUTE" ] || echo "projection recompute after one edit (capplan project --bench):$RECOMPUTE"
[ -z "$UTIL_SAID" ] || echo "right after the import (issue 30 item 7: 150 ms each):$UTIL_SAID"
[ -z "$TUI_SAID" ] || echo "dashboard, headless 100x30 (capplan tui --bench-keys):$TUI_SAID"
# The demo institute at its default size, as make demo builds it.
DEMO_DB=$TMP/demo.db
measure "$CAPPLAN" --db "$DEMO_DB" demo --no-tui --dir "$TMP/demo-input"
echo "capplan demo (default size, 300k jobs): $M_S s, peak $M_RSS MB; it said: $(head -n 1 "$TMP/out")"
[ "$M_RC" -eq 0 ] || FAILED=1
# Its whole export in one command (issue 17: under 1 s), wall and peak, then
# CPU time (user + system) from a second run when GNU time is there.
if [ "$M_RC" -eq 0 ]; then
    set -- "$CAPPLAN" --db "$DEMO_DB" export "$TMP/demo.md" "$TMP/demo.html" "$TMP/demo.xlsx" \
        --csv "$TMP/demo-csv"
    measure "$@"
    [ "$M_RC" -eq 0 ] || FAILED=1
    cpu="?"
    if [ "$TIMER" = gnu-time ] && /usr/bin/time -f '%U %S' -o "$TMP/cpu" "$@" >/dev/null 2>&1; then
        cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$TMP/cpu")
    fi
    echo "capplan export of the demo (report.md + its SVG charts, report.html, budget.xlsx, --csv):" \
        "$M_S s wall, $cpu s CPU, peak $M_RSS MB (budget 1 s)"
fi

# Who does what research (issue 18): BENCH_PAPERS generated BibTeX papers
# (10,000) of 1,000 roster people on four research lines, imported and
# clustered; the issue's budget is 1 s for both.
bench_research() {
    np=${BENCH_PAPERS:-10000}
    rdb=$TMP/research.db
    awk 'BEGIN { print "user,group,role,domain,start,end,name"
                 for (i = 0; i < 1000; i++)
                     printf "u%d,g%d,phd-student,ML,2020-01-01,,Given%d Family%d\n", i, i % 20, i, i }' \
        >"$TMP/research-roster.csv"
    awk -v n="$np" 'BEGIN { srand(1)
        split("pretraining,transformers,C4,distributed training,multi-node,scaling laws", w0, ",")
        split("diffusion models,LAION,text-to-image,VAE,image synthesis,COCO", w1, ",")
        split("graph neural networks,OGB,message passing,link prediction,GCN,node classification", w2, ",")
        split("Gaussian processes,ERA5,weather forecasting,precipitation,CMIP6,bayesian", w3, ",")
        for (p = 0; p < n; p++) { a = p % 1000; b = (p * 7 + 3) % 1000; l = a % 4
            for (j = 0; j < 3; j++) { r = 1 + int(rand() * 6)
                w[j] = l == 0 ? w0[r] : l == 1 ? w1[r] : l == 2 ? w2[r] : w3[r] }
            printf "@article{k%d,\n  author = {Family%d, Given%d and Given%d Family%d},\n", p, a, a, b, b
            printf "  title = {Paper %d: %s with %s},\n  year = %d,\n  keywords = {%s}\n}\n\n",
                p, w[0], w[1], 2019 + p % 7, w[2] } }' \
        >"$TMP/research.bib"
    "$CAPPLAN" --db "$rdb" import roster "$TMP/research-roster.csv" >/dev/null || return 1
    measure "$CAPPLAN" --db "$rdb" import pubs "$TMP/research.bib"
    [ "$M_RC" -eq 0 ] || return 1
    imp=$M_S
    measure "$CAPPLAN" --db "$rdb" research --json
    [ "$M_RC" -eq 0 ] || return 1
    echo "research: $np papers of 1000 people: import pubs (BibTeX) $imp s, research" \
        "(match, terms, TF-IDF, k-means) $M_S s, peak $M_RSS MB;" \
        "together $(awk -v a="$imp" -v b="$M_S" 'BEGIN { printf "%.2f", a + b }') s (budget 1 s)"
}
bench_research || { FAILED=1; echo "bench: research section failed" >&2; }

# The queue simulation (issue 33), its own section: one simulated year of the
# demo on its fleet (budget 0.2 s) beside tests/sim_ref.py, the independent
# python3 implementation of the same rules (it also checks every start);
# next year's purchase search (up to 40 fleets x 5 replicas; budget 5 s on
# the demo, 15 s and 200 MB at 1M jobs a year) beside the same search with
# the backfill over the whole queue (--bf-depth 0, what it did before the
# depth limit). The 1M-a-year database: gen_sacct --jobs BENCH_SIM_JOBS
# (1000000) --days 365, imported (kept in BENCH_KEEP); then the same on an
# inventory of BENCH_SIM_GPUS (1100) GPUs, where it queues and the purchase
# search runs in full. BENCH_SIM=0 skips the section; BENCH_SIM_BASE_S (600)
# bounds each whole-queue baseline run.
SIM_SAID=""
sim_line() { # WHAT: the last measure's wall, CPU and peak, with WHAT
    SIM_SAID="$SIM_SAID
  $1: $M_S s wall, $M_CPU s CPU, peak $M_RSS MB"
}
sim_base() { # WHAT CMD...: a whole-queue baseline, bounded
    _w=$1
    shift
    measure timeout "${BENCH_SIM_BASE_S:-600}" "$@"
    if [ "$M_RC" -eq 124 ]; then
        SIM_SAID="$SIM_SAID
  $_w: stopped after ${BENCH_SIM_BASE_S:-600} s"
    else
        sim_line "$_w"
    fi
}
bench_simulate() {
    sdb=$TMP/sim-demo.db
    "$CAPPLAN" --db "$sdb" demo --no-tui --today 2026-11-25 --dir "$TMP/sim-demo-input" \
        >/dev/null || return 1
    from=$(date -ud 2025-11-25 +%s) to=$(date -ud 2026-11-25 +%s)
    measure "$CAPPLAN" --db "$sdb" simulate --replay --from 2025-11-25 --to 2026-11-24 \
        --starts "$TMP/sim.starts"
    [ "$M_RC" -eq 0 ] || return 1
    one=$(sed -nE 's/.*the simulation itself ([0-9.]+) s.*/\1/p' "$TMP/out")
    njobs=$(wc -l <"$TMP/sim.starts")
    SIM_SAID="$SIM_SAID
  one year of the demo (2025-11-25..2026-11-24, $njobs jobs with the 30-day warm-up) on its
  fleet: the simulation $one s (budget 0.2 s); simulate --replay with loading, idle share and
  +10 %: $M_S s wall, $M_CPU s CPU, peak $M_RSS MB"
    measure python3 tests/sim_ref.py "$sdb" "$from" "$to" "$TMP/sim.starts"
    SIM_SAID="$SIM_SAID
  baseline tests/sim_ref.py (python3, same year, same rules, start for start): $M_S s wall,
  $M_CPU s CPU, peak $M_RSS MB; it said: $(tail -n 1 "$TMP/out")"
    measure "$CAPPLAN" --db "$sdb" simulate
    [ "$M_RC" -eq 0 ] || return 1
    sim_line "purchase search, demo ($(sed -nE 's/.*\. ([0-9]+ fleets simulated[^)]*\)).*/\1/p' \
        "$TMP/out"); budget 5 s)"
    sim_base "baseline, the same search with the whole queue (--bf-depth 0)" \
        "$CAPPLAN" --db "$sdb" simulate --bf-depth 0
    rm -rf "$sdb" "$sdb"-* "$TMP/sim-demo-input"
    # 1M jobs a year
    sn=${BENCH_SIM_JOBS:-1000000}
    ydb=$DATA/sim_year_$sn.db
    if [ -z "$KEEP" ] || ! [ -s "$ydb" ]; then
        rm -f "$ydb" "$ydb"-*
        "$GEN" --jobs "$sn" --seed "$SEED" --steps --days 365 >"$TMP/sim_year.psv" || return 1
        "$CAPPLAN" --db "$ydb" import sacct "$TMP/sim_year.psv" >/dev/null || return 1
        rm -f "$TMP/sim_year.psv"
    fi
    fdb=$TMP/sim_year_fleet.db # ydb stays as imported (kept with BENCH_KEEP)
    sim_fleet "$ydb" "$fdb" || return 1
    measure "$CAPPLAN" --db "$fdb" simulate --replay
    [ "$M_RC" -eq 0 ] || return 1
    sim_line "$(fmt_jobs "$sn") jobs in 365 days, simulate --replay of the last year ($(sed -nE \
        's/^Replay [^:]*: ([0-9]+) jobs.*the simulation itself ([0-9.]+) s.*/\1 jobs; the simulation \2 s/p' \
        "$TMP/out"))"
    measure "$CAPPLAN" --db "$fdb" simulate
    [ "$M_RC" -eq 0 ] || return 1
    sim_line "$(fmt_jobs "$sn") jobs in 365 days, purchase search ($(sed -nE \
        's/^Next year[^:]*: ([0-9]+) jobs.*/\1 jobs drawn/p' "$TMP/out"), $(sed -nE \
        's/.*\. ([0-9]+ fleets simulated[^)]*\)).*/\1/p' "$TMP/out"); budget 15 s, 200 MB)"
    sim_base "baseline, the same search with the whole queue (--bf-depth 0)" \
        "$CAPPLAN" --db "$fdb" simulate --bf-depth 0
    rm -f "$fdb" "$fdb"-*
    cdb=$TMP/sim_year_cap.db
    cp "$ydb" "$cdb" || return 1
    # the generated log's waits are policy (it never lacked GPUs), so no search ran: the
    # same jobs on an inventory of BENCH_SIM_GPUS (1100) GPUs, which they queue for, make
    # next year capacity-bound and the purchase search run in full
    printf 'cluster,gpu_model,gpus,gpu_mem_gib,from,to,relative_speed,tdp_w\n%s,a100,%s,80,2020-01-01,,1.0,400\n' \
        "$(sqlite3 "$cdb" 'SELECT name FROM clusters LIMIT 1')" "${BENCH_SIM_GPUS:-1100}" \
        >"$TMP/sim_inv.csv"
    "$CAPPLAN" --db "$cdb" import inventory "$TMP/sim_inv.csv" >/dev/null || return 1
    measure "$CAPPLAN" --db "$cdb" simulate
    [ "$M_RC" -eq 0 ] || return 1
    sim_line "$(fmt_jobs "$sn") jobs in 365 days on ${BENCH_SIM_GPUS:-1100} GPUs, purchase search ($(sed -nE \
        's/.*\. ([0-9]+ fleets simulated[^)]*\)).*/\1/p' "$TMP/out"); $(sed -nE \
        's/^Recommendation: (buy [0-9]+ [^ ]+).*/\1/p' "$TMP/out"); budget 15 s, 200 MB)"
    rm -f "$cdb" "$cdb"-*
    [ -n "$KEEP" ] || rm -f "$ydb" "$ydb"-*
    echo "the queue simulation (issue 33), load average $(loadavg):$SIM_SAID"
}
if [ "${BENCH_SIM:-1}" != 0 ]; then
    bench_simulate || { FAILED=1; echo "bench: simulate section failed" >&2; }
fi
if [ "$FAILED" -ne 0 ]; then
    echo "bench: FAILED (see the rows marked FAILED)" >&2
    exit 1
fi
