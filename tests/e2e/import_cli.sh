#!/bin/sh
# capplan import through the command line, on every accounting file of
# ../shared/data: exit codes, summaries, status, bad input, strict.
. "$(dirname "$0")/lib.sh"
need_shared

expect_rc 0 "$CAPPLAN_BIN" --version
grep -q '^capplan [0-9]' "$WORK/out" || fail "--version"
expect_rc 2 "$CAPPLAN_BIN" frobnicate
expect_rc 2 cap import
expect_rc 2 cap import sacct --no-such-option x
expect_rc 0 cap import --help
grep -q 'sacct FILE' "$WORK/out" || fail "import --help"

# Every sacct shape: pipe with header, -D, --format=ALL, JSON 21.08..25.05, Key=Value CSV
for f in "$DATA"/slurm-sandbox/sacct_wide.psv "$DATA"/slurm-sandbox/sacct_wide_D.psv \
         "$DATA"/slurm-sandbox/sacct_wide_X.psv "$DATA"/slurm-sandbox/sacct_all.psv \
         "$DATA"/slurm-sandbox/sacct_wide_allstates.psv "$DATA"/slurm-sandbox/sacct.json \
         "$DATA"/sacct-json-sarc/*.json "$DATA"/sacct-kv-jobanalyzer-fox/slurm-sacct.csv \
         "$DATA"/sacct-pipe-xdmod/pozidriv.head.with-header.psv; do
    expect_rc 0 cap import sacct "$f"
done
expect_rc 0 cap import sacct --fields xdmod "$DATA"/sacct-pipe-xdmod/pozidriv.head.log
grep -q 'rows read, 0 added, 0 updated, 8659 unchanged, 0 rejected' "$WORK/out" \
    || fail "xdmod no-header import must match the header version: $(cat "$WORK/out")"
expect_rc 0 cap import sacct --cluster fox "$DATA"/sacct-kv-jobanalyzer-fox/fox-sacct.derived.psv
# stdin
expect_rc 0 sh -c "cat '$DATA/sacct-pipe-xdmod/accounting-logs.log' | '$CAPPLAN_BIN' --db '$WORK/t.db' import sacct --fields xdmod -"
grep -q '^<stdin>: sacct-text (xdmod), 4 rows read, 4 added' "$WORK/out" || fail "stdin: $(cat "$WORK/out")"

# Traces and GPU metrics
expect_rc 0 cap import trace --kind swf "$DATA"/swf-pwa-osc-clust/OSC-Clust-2000-3.1-cln.swf
expect_rc 0 cap import trace --kind philly "$DATA"/gpu-trace-philly-dre-sample/sampled_jobs.shared.json
expect_rc 0 cap import trace --kind philly --cluster philly-vc "$DATA"/gpu-trace-philly-vc-titansched/philly.head.csv
expect_rc 0 cap import gpu-metrics "$DATA"/gpu-memory-alibaba-genai-2026/pod_gpu_memory_used_bytes_anon.sample44pods.csv

# The figures, checked independently with python3 over the same files:
# sandbox 20 jobs (18 in the default view, plus 4 and 12 that never started,
# seen with --state; 21 attempts with -D's first run of 19), pozidriv 8,659, fox 294 (twice:
# default and fox clusters), OSC 36,097, Philly DRE 2,667, TitanSched 71,792,
# 44 pods of GPU memory.
[ "$(json_get "[c['jobs'] for c in d['clusters'] if c['name']=='sandbox'][0]")" = 20 ] || fail "sandbox jobs"
[ "$(json_get "d['attempts'] - d['jobs']")" = 1 ] || fail "one earlier attempt (job 19)"
[ "$(json_get "[c['jobs'] for c in d['clusters'] if c['name']=='osc'][0]")" = 36097 ] || fail "osc jobs"
[ "$(json_get "[c['jobs'] for c in d['clusters'] if c['name']=='philly'][0]")" = 2667 ] || fail "philly jobs"
[ "$(json_get "[c['jobs'] for c in d['clusters'] if c['name']=='philly-vc'][0]")" = 71792 ] || fail "philly-vc jobs"
[ "$(json_get "[c['jobs'] for c in d['clusters'] if c['name']=='fox'][0]")" = 294 ] || fail "fox jobs"
[ "$(json_get "d['gpu_metrics']")" = 44 ] || fail "gpu metrics"
sqlite3 "$WORK/t.db" "SELECT count(*) FROM jobs j JOIN clusters c ON c.id=j.cluster_id WHERE c.name='sandbox' AND j.state=8" >"$WORK/n"
[ "$(cat "$WORK/n")" = 2 ] || fail "sandbox preempted attempts: $(cat "$WORK/n")"

# The cgroup run of the same job mix: job 10 ends OUT_OF_MEMORY there
"$CAPPLAN_BIN" --db "$WORK/cg.db" import sacct "$DATA"/slurm-sandbox/cgroup/sacct_wide_D.psv >/dev/null || fail "cgroup import"
[ "$(sqlite3 "$WORK/cg.db" "SELECT state FROM jobs WHERE job_id='10'")" = 10 ] || fail "job 10 OUT_OF_MEMORY"

# Bad input: one line per rejected line, file:line: field X: reason, exit 1
printf 'JobID|User|Elapsed|State\n1|ann|01:00:00|COMPLETED\n2|bob|1-2x:00|COMPLETED\n3|eve|01:00:00|COMPLETED|x\n' >"$WORK/bad.txt"
before=$(sqlite3 "$WORK/t.db" .dump | sha256sum)
bytes=$(sha256sum <"$WORK/t.db")
expect_rc 1 cap import sacct --strict "$WORK/bad.txt"
[ "$(sha256sum <"$WORK/t.db")" = "$bytes" ] || fail "strict import changed the database file's bytes"
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "strict: one line expected: $(cat "$WORK/err")"
grep -q "^capplan: $WORK/bad.txt:3: field Elapsed: bad duration '1-2x:00'$" "$WORK/err" || fail "strict message: $(cat "$WORK/err")"
[ "$(sqlite3 "$WORK/t.db" .dump | sha256sum)" = "$before" ] || fail "strict import changed the database"
expect_rc 1 cap import sacct "$WORK/bad.txt"
[ "$(wc -l <"$WORK/err")" -eq 2 ] || fail "two rejected lines expected: $(cat "$WORK/err")"
grep -q "bad.txt:4: expected 4 fields, found 5" "$WORK/err" || fail "field count message"
grep -q "1 added, 0 updated, 0 unchanged, 2 rejected" "$WORK/out" || fail "summary: $(cat "$WORK/out")"
expect_rc 1 cap import sacct "$WORK/nonexistent.txt"
grep -q "nonexistent.txt: No such file or directory" "$WORK/err" || fail "missing file message"
: >"$WORK/empty.txt"
expect_rc 1 cap import sacct "$WORK/empty.txt"
grep -q "empty.txt: empty file" "$WORK/err" || fail "empty file message"
# control characters from data never reach the terminal
printf 'JobID|Elapsed\n1|\033[2J\n' >"$WORK/ctl.txt"
expect_rc 1 cap import sacct "$WORK/ctl.txt"
if grep -q "$(printf '\033')" "$WORK/err"; then fail "escape character reached the terminal"; fi
grep -q "bad duration '?\[2J'" "$WORK/err" || fail "sanitised message: $(cat "$WORK/err")"

# Issue 14, every class of bad record (fixtures in tests/fixtures/issue14):
# --strict leaves the database byte for byte, a lenient import lands the
# rest, and importing it again changes nothing.
FIX=$(cd "$(dirname "$0")/../fixtures/issue14" && pwd)
for f in out_of_range.psv running_garbage.json; do
    bytes=$(sha256sum <"$WORK/t.db")
    expect_rc 1 cap import sacct --strict "$FIX/$f"
    [ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "$f strict: one line expected: $(cat "$WORK/err")"
    [ "$(sha256sum <"$WORK/t.db")" = "$bytes" ] || fail "$f: strict import changed the database file"
    expect_rc 1 cap import sacct "$FIX/$f"
    expect_rc 1 cap import sacct "$FIX/$f"
    grep -q ' 0 added, 0 updated, ' "$WORK/out" || fail "$f re-import: $(cat "$WORK/out")"
done
grep -q "^capplan: $FIX/running_garbage.json:14: field tres.allocated: GPU count 1e+308 above 4096 per job$" \
    "$WORK/err" || fail "JSON 1e308: $(cat "$WORK/err")"
expect_rc 0 cap import sacct "$FIX/out_of_range_fixed.psv"
grep -q '6 added, 0 updated, 1 unchanged, 0 rejected' "$WORK/out" || fail "corrected: $(cat "$WORK/out")"
for f in snap_day3.psv snap_day1.psv snap_day2.psv alloc_nodes_orphans.psv; do
    expect_rc 0 cap import sacct "$FIX/$f"
    expect_rc 0 cap import sacct "$FIX/$f"
    grep -q ' 0 added, 0 updated, ' "$WORK/out" || fail "$f re-import: $(cat "$WORK/out")"
done
grep -q "^capplan: $FIX/alloc_nodes_orphans.psv: 2 steps without their job row in reach: not counted$" \
    "$WORK/err" || fail "orphans reported: $(cat "$WORK/err")"
[ "$(sqlite3 "$WORK/t.db" "SELECT group_concat(state) FROM (SELECT j.state FROM jobs j JOIN clusters c ON c.id=j.cluster_id WHERE c.name='default' AND j.job_id IN ('101','102','105') ORDER BY j.job_raw, j.submit)")" = 4,5,11,4 ] \
    || fail "snapshots in the order 3, 1, 2: 101 COMPLETED, 102 FAILED, 105 REQUEUED then COMPLETED"
expect_rc 0 cap import sacct --fields xdmod "$FIX/xdmod_reqmem.log"
grep -q "xdmod_reqmem.log: 3 jobs: ReqMem disagreed with ReqTRES" "$WORK/out" || fail "flag: $(cat "$WORK/out")"

# Progress on a terminal (script gives the command a pty), quiet otherwise
awk 'BEGIN { print "JobID|User|Submit|Elapsed|State"; for (i = 1; i <= 200000; i++) printf "%d|u%d|2024-01-01T00:00:00|00:10:00|COMPLETED\n", i, i % 40 }' >"$WORK/big.txt"
script -qec "'$CAPPLAN_BIN' --db '$WORK/p.db' import sacct '$WORK/big.txt'" /dev/null >"$WORK/tty" 2>&1
grep -q 'rows/s' "$WORK/tty" || fail "no progress shown on a terminal"
rm -f "$WORK/p.db"
cap import sacct "$WORK/big.txt" >/dev/null 2>"$WORK/err"
[ ! -s "$WORK/err" ] || fail "progress shown when not on a terminal"
echo "import_cli: ok"
