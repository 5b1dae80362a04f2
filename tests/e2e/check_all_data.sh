#!/bin/sh
# Issue 29 item 3: `capplan check` agrees with the import's rules. Every
# accounting, trace, roster, metrics and publication file of ../shared/data
# is imported with its own command into one database, and `check` (then
# `check --quick`) exits 0 after each. Files that are not capplan inputs
# (sacctmgr tables, slurm.conf, job scripts, the YAML and the fixed-width
# default sacct view, the tar.gz archive of the metrics) are named below.
. "$(dirname "$0")/lib.sh"
need_shared
n=0
imp() { # imp CMD... FILE: import, then check
    "$CAPPLAN_BIN" --db "$WORK/t.db" import "$@" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    [ "$rc" -le 1 ] || { cat "$WORK/err"; fail "import $* exited $rc"; }
    grep -q ' rows read' "$WORK/out" || { cat "$WORK/out" "$WORK/err"; fail "import $*: no summary"; }
    cap check >"$WORK/ck" 2>&1 || { cat "$WORK/ck"; fail "check after import $*"; }
    n=$((n + 1))
}
S="$DATA/slurm-sandbox"
for f in "$DATA"/sacct-json-sarc/*.json; do imp sacct "$f"; done
imp sacct --cluster fox "$DATA/sacct-kv-jobanalyzer-fox/slurm-sacct.csv"
imp sacct --cluster fox "$DATA/sacct-kv-jobanalyzer-fox/fox-sacct.derived.psv"
for f in "$DATA"/sacct-pipe-xdmod/*.log; do imp sacct --cluster xdmod --fields xdmod "$f"; done
imp sacct --cluster xdmod "$DATA/sacct-pipe-xdmod/pozidriv.head.with-header.psv"
for f in "$S"/sacct_*.psv "$S"/sacct.json; do imp sacct --cluster sandbox "$f"; done
for f in "$S"/cgroup/sacct_*.psv "$S"/cgroup/sacct.json; do imp sacct --cluster sandbox-cg "$f"; done
for f in "$DATA"/swf-pwa/*.swf "$DATA"/swf-pwa-osc-clust/*.swf; do imp trace --kind swf "$f"; done
for f in "$DATA"/gpu-trace-philly-dre-sample/*.json "$DATA"/gpu-trace-philly-dre-sample/*.csv; do
    imp trace --kind philly "$f"
done
imp trace --kind philly --cluster philly-vc "$DATA/gpu-trace-philly-vc-titansched/philly.head.csv"
for f in "$DATA"/gpu-trace-alibaba-openb-sample/*.csv; do imp trace --kind alibaba-pod "$f"; done
imp gpu-metrics "$DATA/gpu-memory-alibaba-genai-2026/pod_gpu_memory_used_bytes_anon.sample44pods.csv"
for f in "$DATA"/bibtex-lab-publications/*-roster.csv; do imp roster "$f"; done
for f in "$DATA"/bibtex-lab-publications/*.bib; do imp pubs "$f"; done
cap check --quick >"$WORK/ck" 2>&1 || { cat "$WORK/ck"; fail "check --quick"; }
grep -q ': ok' "$WORK/ck" || fail "check --quick: $(cat "$WORK/ck")"
# and check still says so when a table is wrong
sqlite3 "$WORK/t.db" "UPDATE usage_month SET gpu_hours = gpu_hours + 1 WHERE month = (SELECT min(month) FROM usage_month)"
expect_rc 1 cap check --quick
grep -q 'usage_month: GPU-hours' "$WORK/out" || fail "check --quick misses a changed GPU-hour: $(cat "$WORK/out")"
echo "check_all_data: ok ($n files)"
