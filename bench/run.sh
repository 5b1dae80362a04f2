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
# export shape of issue 14).
#
# Ten million jobs (issue 20; about 11 GB of sacct text and 1.7 GB of
# database under BENCH_TMPDIR, roughly an hour on 2 cores):
#   BENCH_SIZES=10000000 BENCH_DAYS=1825 BENCH_IMPORT_RUNS=1 make bench
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
SIZES=${BENCH_SIZES:-100000 300000 1000000}
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
open(sys.argv[1], "w").write("%d\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
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
# M_S (wall seconds), M_RSS (peak MB or "?") and M_RC (exit status).
measure() {
    : >"$TMP/rss"
    sync # the previous row's writes reach the disk before this row is timed
    sync
    t0=$(date +%s.%N)
    case $TIMER in
    gnu-time) /usr/bin/time -f %M -o "$TMP/rss" "$@" >"$TMP/out" 2>"$TMP/err" ;;
    python3*) python3 -c "$PYWRAP" "$TMP/rss" "$@" >"$TMP/out" 2>"$TMP/err" ;;
    *) "$@" >"$TMP/out" 2>"$TMP/err" ;;
    esac
    M_RC=$?
    t1=$(date +%s.%N)
    M_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    kb=$(tail -n 1 "$TMP/rss" 2>/dev/null)
    M_RSS=$(awk -v k="$kb" 'BEGIN { if (k ~ /^[0-9]+$/) printf "%.1f", k / 1024; else print "?" }')
}

header() {
    printf '%-28s %8s %9s %8s %8s %10s %8s %10s %6s\n' \
        what jobs rows "file MB" "time s" "rows/s" "peak MB" "sqlite3 s" ratio
}

# print_row WHAT JOBS ROWS SECONDS PEAK_MB BASELINE_S
print_row() {
    awk -v w="$1" -v j="$2" -v r="$3" -v s="$4" -v m="$5" -v b="$6" -v mb="$FILE_MB" 'BEGIN {
        rps = s > 0 ? sprintf("%.0f", r / s) : "-"
        ratio = (b != "-" && b > 0) ? sprintf("%.2f", s / b) : "-"
        printf "%-28s %8d %9d %8s %8.2f %10s %8s %10s %6s\n", w, j, r, mb, s, rps, m, b, ratio
    }'
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
        printf '%-28s %8d  FAILED: exit %d after %s s\n' "$_what" "$_jobs" "$M_RC" "$M_S"
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
    _best="" _best_rss=""
    _i=0
    while [ "$_i" -lt "${BENCH_IMPORT_RUNS:-2}" ]; do
        rm -f "$_db" "$_db-wal" "$_db-shm" "$_db-journal"
        measure "$@"
        if [ "$M_RC" -ne 0 ]; then
            bench_row "$_w" "$_j" "$_r" "$_b" "$@" # reports the failure
            return 1
        fi
        if [ -z "$_best" ] || awk -v a="$M_S" -v b="$_best" 'BEGIN { exit !(a < b) }'; then
            _best=$M_S _best_rss=$M_RSS
            cp "$TMP/out" "$TMP/out.best"
        fi
        _i=$((_i + 1))
    done
    cp "$TMP/out.best" "$TMP/out"
    BENCH_LAST_S=$_best
    print_row "$_w" "$_j" "$_r" "$_best" "$_best_rss" "$_b"
}

fmt_jobs() {
    awk -v n="$1" 'BEGIN { if (n >= 1000000 && n % 1000000 == 0) printf "%dM", n / 1000000;
                           else if (n >= 1000 && n % 1000 == 0) printf "%dk", n / 1000;
                           else printf "%d", n }'
}

per100k() {
    awk -v s="$1" -v n="$2" 'BEGIN { printf "%.2f", s * 100000 / n }'
}

# One file size: generate, baseline, capplan, then the rows that use the db.
bench_size() {
    n=$1
    f=$TMP/sacct_$n.psv
    db=$TMP/capplan_$n.db
    FILE_MB=-
    days=${BENCH_DAYS:+--days $BENCH_DAYS}
    # shellcheck disable=SC2016 # $0..$4 are sh -c's own arguments ($3: empty or --days D)
    measure sh -c 'exec "$0" --jobs "$1" --seed "$2" --steps $3 >"$4"' "$GEN" "$n" "$SEED" \
        "$days" "$f"
    [ "$M_RC" -eq 0 ] || die "gen_sacct failed (exit $M_RC): $(tail -n 3 "$TMP/err")"
    rows=$(($(wc -l <"$f") - 1))
    FILE_MB=$(awk -v b="$(wc -c <"$f")" 'BEGIN { printf "%.1f", b / 1048576 }')
    print_row "gen_sacct --steps" "$n" "$rows" "$M_S" "$M_RSS" -

    # The two imports: best of BENCH_IMPORT_RUNS runs each (2), each run
    # into a new database (the first run on a machine pays for memory the
    # kernel has not handed out yet, whichever program it is).
    import_best "sqlite3 .import (baseline)" "$n" "$rows" - "$TMP/baseline_$n.db" \
        sqlite3 "$TMP/baseline_$n.db" '.mode list' '.separator |' ".import \"$f\" t"
    base=$BENCH_LAST_S
    BASE_LINEARITY="$BASE_LINEARITY  $(fmt_jobs "$n") $(per100k "$base" "$n")"

    if import_best "capplan import sacct" "$n" "$rows" "$base" "$db" \
        "$CAPPLAN" --db "$db" import sacct "$f"; then
        LINEARITY="$LINEARITY  $(fmt_jobs "$n") $(per100k "$BENCH_LAST_S" "$n")"
        said=$(tail -n 1 "$TMP/out")
        [ -n "$said" ] || said=$(tail -n 1 "$TMP/err")
        NOTES="$NOTES
  $(fmt_jobs "$n"): $said"
    fi
    # status reads the counts kept at import (issue 20): no scan.
    bench_row "capplan status" "$n" "$rows" - "$CAPPLAN" --db "$db" status --json
    # The planner: profile + project beside pandas + scikit-learn doing the
    # same work (bench/baseline_plan.py) on the same database.
    if [ -n "$PYSK" ]; then
        bench_row "python3 pandas+sklearn" "$n" "$rows" - "$PYSK" bench/baseline_plan.py "$db"
        pybase=$BENCH_LAST_S
        PY_SAID="$PY_SAID
  $(fmt_jobs "$n") python3: $(tail -n 1 "$TMP/out")"
    else
        pybase=-
    fi
    bench_row "capplan profile" "$n" "$rows" "$pybase" "$CAPPLAN" --db "$db" profile --json
    PY_SAID="$PY_SAID
  $(fmt_jobs "$n") capplan: $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("k=%d silhouette=%.3f inertia=%.1f" % (d["k"], d["silhouette"], d["inertia"]))' "$TMP/out" 2>/dev/null)"
    bench_row "capplan project" "$n" "$rows" "$pybase" "$CAPPLAN" --db "$db" project --json
    bench_row "capplan project --backtest" "$n" "$rows" - "$CAPPLAN" --db "$db" project --backtest --json
    bench_row "capplan project --bench" "$n" "$rows" - "$CAPPLAN" --db "$db" project --bench
    RECOMPUTE="$RECOMPUTE
  $(fmt_jobs "$n"): $(grep 'recompute after one parameter change' "$TMP/out")"

    # Statistics: the first call builds the cache, the rest read it; each
    # beside one naive sqlite3 query over the jobs table.
    for kind in utilization preemption waits efficiency domains pubs; do
        bench_row "sqlite3 naive $kind" "$n" "$rows" - sqlite3 "$db" "$(naive_sql "$kind")"
        bench_row "capplan stats $kind" "$n" "$rows" "$BENCH_LAST_S" \
            "$CAPPLAN" --db "$db" stats "$kind" --json
    done
    bench_row "capplan stats utilization" "$n" "$rows" - "$CAPPLAN" --db "$db" stats utilization --json

    # The dashboard, headless: start to first frame, and a redraw per key.
    bench_row "capplan tui (headless)" "$n" "$rows" - \
        "$CAPPLAN" --db "$db" tui --bench-keys '2s5<Enter>3<Enter><Esc>6471q'
    TUI_SAID="$TUI_SAID
  $(fmt_jobs "$n"): $(grep -E '^load|^redraw' "$TMP/out" | tr '\n' ';' | sed 's/;$//')"

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
    rm -f "$f" "$TMP"/*.db "$TMP"/*.db-*

    # The wide export shape (issue 14 item 14: 26 fields, JobName third,
    # Group, QOS, Cluster last): its own file, baseline and import.
    [ "${BENCH_WIDE:-1}" = 0 ] || bench_wide "$n"

}

# bench_wide N: gen_sacct --wide, sqlite3's .import of it, capplan's import.
bench_wide() {
    n=$1
    f=$TMP/sacct_wide_$n.psv
    db=$TMP/capplan_wide_$n.db
    FILE_MB=-
    days=${BENCH_DAYS:+--days $BENCH_DAYS}
    # shellcheck disable=SC2016,SC2086
    measure sh -c 'exec "$0" --jobs "$1" --seed "$2" --steps --wide $3 >"$4"' "$GEN" "$n" \
        "$SEED" "$days" "$f"
    [ "$M_RC" -eq 0 ] || die "gen_sacct --wide failed (exit $M_RC): $(tail -n 3 "$TMP/err")"
    rows=$(($(wc -l <"$f") - 1))
    FILE_MB=$(awk -v b="$(wc -c <"$f")" 'BEGIN { printf "%.1f", b / 1048576 }')
    print_row "gen_sacct --steps --wide" "$n" "$rows" "$M_S" "$M_RSS" -
    import_best "sqlite3 .import wide" "$n" "$rows" - "$TMP/baseline_wide_$n.db" \
        sqlite3 "$TMP/baseline_wide_$n.db" '.mode list' '.separator |' ".import \"$f\" t"
    base=$BENCH_LAST_S
    if import_best "capplan import sacct wide" "$n" "$rows" "$base" "$db" \
        "$CAPPLAN" --db "$db" import sacct "$f"; then
        WIDE_LINEARITY="$WIDE_LINEARITY  $(fmt_jobs "$n") $(per100k "$BENCH_LAST_S" "$n")"
    fi
    rm -f "$f" "$TMP"/*.db "$TMP"/*.db-*
}

loadavg() {
    cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'
}

echo "capplan bench: sizes $SIZES jobs, seed $SEED, peak RSS by $TIMER," \
    "$(nproc 2>/dev/null || echo '?') cores, load average $(loadavg)"
header
for n in $SIZES; do
    bench_size "$n"
done
echo
echo "load average at the end: $(loadavg) (timings are wall clock: other work on the machine counts)"
echo "linearity, seconds per 100k jobs:"
echo "  capplan import sacct:${LINEARITY:- (no successful run)}"
echo "  sqlite3 .import:     $BASE_LINEARITY"
[ -z "$WIDE_LINEARITY" ] || echo "  capplan import wide: $WIDE_LINEARITY"
if [ -n "$NOTES" ]; then
    echo "capplan said:$NOTES"
fi
[ -z "$PY_SAID" ] || echo "the clusterings (same k and inertia means the same work):$PY_SAID"
[ -z "$RECOMPUTE" ] || echo "projection recompute after one edit (capplan project --bench):$RECOMPUTE"
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
if [ "$FAILED" -ne 0 ]; then
    echo "bench: FAILED (see the rows marked FAILED)" >&2
    exit 1
fi
