#!/bin/sh
# Issue 31 item 1: the import's planner refresh reuses each backtest cut's
# entry (table plan_cut_cache) while every job added since starts at or
# after the cut, and what `project --json` and `project --backtest --json`
# print after the import is what they print after a full rebuild (both
# caches emptied). Imports in several orders: the demo's own sacct files
# year by year, in reverse and shuffled; the real OSC log (SWF) in three
# pieces, in order and not; the bench's site shape (gen_sacct, when built
# beside the binary) with the next day's 1,000 jobs after it and before
# it. In time order, the cuts before the new jobs are reused (counted; on
# OSC, whose later pieces bring new accounts, the kept fits widened to the
# new groups).
. "$(dirname "$0")/lib.sh"
need_shared
sq() { sqlite3 "$WORK/t.db" "$1"; }

# check WHAT: after an import, the refresh's figures are a rebuild's
check() {
    expect_rc 0 cap project --json
    cp "$WORK/out" "$WORK/inc.json"
    expect_rc 0 cap project --backtest --json
    cp "$WORK/out" "$WORK/inc_bt.json"
    sq 'DELETE FROM plan_cache; DELETE FROM plan_cut_cache'
    expect_rc 0 cap project --json
    cmp -s "$WORK/out" "$WORK/inc.json" || fail "$1: project --json differs from a rebuild"
    expect_rc 0 cap project --backtest --json
    cmp -s "$WORK/out" "$WORK/inc_bt.json" || fail "$1: project --backtest --json differs from a rebuild"
    grep -q '"schema":.*project-backtest' "$WORK/inc_bt.json" || fail "$1: no backtest: $(head -c 200 "$WORK/inc_bt.json")"
}

# reused: the entries written before the last import that it kept
reused() { sq 'SELECT count(*) FROM plan_cut_cache WHERE upto < (SELECT max(id) FROM jobs)'; }

# ---- the demo's files, three orders ----
"$CAPPLAN_BIN" --db "$WORK/demo.db" demo --jobs 20000 --seed 7 --today 2026-11-25 --no-tui \
    >"$WORK/out" 2>"$WORK/err" || fail "demo: $(cat "$WORK/err")"
IN="$WORK/demo.db.demo-input"
[ -s "$IN/sacct-atlas-2025.txt" ] || fail "demo wrote no sacct files: $(ls "$IN")"
demo_run() { # ORDER of years
    rm -f "$WORK/t.db" "$WORK/t.db-wal" "$WORK/t.db-shm"
    expect_rc 0 cap import roster "$IN/roster.csv"
    expect_rc 0 cap import inventory "$IN/inventory.csv"
    n=0 kept=0
    for y in $1; do
        for f in "$IN"/sacct-*-"$y".txt; do
            [ -s "$f" ] || continue
            expect_rc 0 cap import sacct "$f"
            n=$((n + 1))
            kept=$((kept + $(reused)))
            check "demo, years $1, after $(basename "$f")"
        done
    done
    echo "demo years $1: $n imports checked, $kept cut entries reused"
}
demo_run "2021 2022 2023 2024 2025 2026"
[ "$kept" -gt 0 ] || fail "demo in time order: no cut entry reused"
# measured GPU memory: no fit reads it, no edit logged; still a rebuild's
seq=$(sq 'SELECT coalesce(max(seq), 0) FROM plan_job_edits')
expect_rc 0 cap import gpu-metrics "$IN/gpu-metrics.csv"
[ "$(sq 'SELECT count(*) FROM jobs WHERE gpu_mem_source = 2')" -gt 0 ] || fail "no job measured"
[ "$(sq 'SELECT coalesce(max(seq), 0) FROM plan_job_edits')" = "$seq" ] ||
    fail "gpu-metrics logged edits: $(sq 'SELECT count(*) FROM plan_job_edits')"
check "demo, after gpu-metrics"
demo_run "2026 2025 2024 2023 2022 2021"
demo_run "2023 2021 2025 2022 2026 2024"

# ---- OSC (real SWF log) in three pieces ----
SWF="$DATA"/swf-pwa-osc-clust/OSC-Clust-2000-3.1-cln.swf
grep '^;' "$SWF" >"$WORK/head.swf"
grep -v '^;' "$SWF" >"$WORK/body.swf"
lines=$(wc -l <"$WORK/body.swf")
a=$((lines * 6 / 10)) b=$((lines * 8 / 10))
for part in 1 2 3; do
    cp "$WORK/head.swf" "$WORK/osc$part.swf"
done
sed -n "1,${a}p" "$WORK/body.swf" >>"$WORK/osc1.swf"
sed -n "$((a + 1)),${b}p" "$WORK/body.swf" >>"$WORK/osc2.swf"
sed -n "$((b + 1)),\$p" "$WORK/body.swf" >>"$WORK/osc3.swf"
for order in "1 2 3" "3 1 2"; do
    rm -f "$WORK/t.db" "$WORK/t.db-wal" "$WORK/t.db-shm"
    kept=0
    for part in $order; do
        expect_rc 0 cap import trace --kind swf "$WORK/osc$part.swf"
        kept=$((kept + $(reused)))
        check "OSC, pieces $order, after piece $part"
    done
    # each later piece brings accounts (groups) the earlier did not have:
    # the kept fits are widened to them (demand_fit_widen)
    echo "OSC pieces $order: checked, $kept cut entries reused"
    [ "$order" != "1 2 3" ] || [ "$kept" -gt 0 ] || fail "OSC in time order: no cut entry reused"
done

# ---- the bench's site shape, when gen_sacct is built beside the binary ----
GEN="$(dirname "$CAPPLAN_BIN")/bench/gen_sacct"
if [ -x "$GEN" ]; then
    A="--wide --users 200 --accounts 20 --start 2021-01-01 --days 1461"
    # shellcheck disable=SC2086
    "$GEN" --jobs 20000 --seed 3 --steps $A >"$WORK/site.psv" || fail "gen_sacct"
    # shellcheck disable=SC2086
    "$GEN" --jobs 1000 --seed 3 --steps $A --start 2025-01-01 --days 1 --first-id 90000000 \
        >"$WORK/new.psv" || fail "gen_sacct (the next day)"
    for order in "site new" "new site"; do
        rm -f "$WORK/t.db" "$WORK/t.db-wal" "$WORK/t.db-shm"
        kept=0
        for f in $order; do
            expect_rc 0 cap import sacct "$WORK/$f.psv"
            kept=$((kept + $(reused)))
            check "bench site shape, $order, after $f"
        done
        echo "bench site shape, $order: checked, $kept cut entries reused"
        [ "$order" != "site new" ] || [ "$kept" -gt 0 ] || fail "bench in time order: none reused"
    done
    # an edit (the sqlite3 shell doubles one 2023 job's GPUs; the import
    # after it adds nothing, so project plans): the cuts after its start are
    # computed again, those before it kept, and the figures are a rebuild's
    id=$(sq "SELECT id FROM jobs WHERE final = 1 AND gpus > 0 AND start >= strftime('%s', '2023-03-10')
             ORDER BY start LIMIT 1")
    at=$(sq "SELECT start FROM jobs WHERE id = $id")
    sq "UPDATE jobs SET gpus = gpus * 2 WHERE id = $id"
    expect_rc 0 cap import sacct "$WORK/new.psv"
    expect_rc 0 cap project --json
    seq=$(sq 'SELECT max(seq) FROM plan_job_edits')
    before=$(sq "SELECT count(*) FROM plan_cut_cache WHERE edits < $seq AND cut <= $at")
    after=$(sq "SELECT count(*) FROM plan_cut_cache WHERE edits < $seq AND cut > $at")
    [ "$before" -gt 0 ] && [ "$after" = 0 ] ||
        fail "after an edit: $before entries before it kept, $after after it kept"
    check "bench site shape, after an edit"
    echo "bench site shape, an edit at $at: $before cut entries before it kept, none after"
    # the greatest id deleted, and a 2022 job imported after it takes that id
    # again: no entry can tell, so none is kept (plan_job_edits logs 0)
    max=$(sq 'SELECT max(id) FROM jobs')
    sq "DELETE FROM jobs WHERE id = $max"
    awk -F'|' -v OFS='|' 'NR == 1 { print; next }
        $1 !~ /\./ && $11 ~ /^2022-06/ { $1 = $2 = 99999999; print; exit }' \
        "$WORK/site.psv" >"$WORK/one.psv"
    [ "$(wc -l <"$WORK/one.psv")" = 2 ] || fail "no 2022 job to copy"
    expect_rc 0 cap import sacct "$WORK/one.psv"
    [ "$(sq 'SELECT max(id) FROM jobs')" = "$max" ] || fail "the id was not taken again"
    [ "$(sq "SELECT count(*) FROM plan_cut_cache WHERE upto = $max AND edits < (SELECT max(seq) FROM plan_job_edits)")" = 0 ] ||
        fail "entries kept after the greatest id was deleted"
    check "bench site shape, a job in 2022 under a deleted job's id"
    # a roster where a user of few jobs (never a group's first: the groups'
    # order stays) moves to another group of the data after the data's end:
    # project's jobs take the line in force, the backtest's the latest, the
    # same groups either way; their entries never stand for each other
    set -- $(awk -F'|' 'NR > 1 && $1 !~ /\./ { n[$4]++; g[$4] = $6 }
        END { for (k in n) if (n[k] >= 20 && (m == 0 || n[k] < m)) { m = n[k]; b = k }
              for (k in g) if (g[k] != g[b]) o = g[k]; print b, g[b], o }' "$WORK/site.psv")
    u=$1
    printf 'user,group,role,domain,start,end\n%s,%s,phd,cs,2020-01-01,2025-06-30\n%s,%s,postdoc,cs,2025-07-01,\n' \
        "$1" "$2" "$1" "$3" >"$WORK/moves.csv"
    expect_rc 0 cap import roster "$WORK/moves.csv"
    expect_rc 0 cap project --backtest --json
    sq 'DELETE FROM plan_cache' # the refresh's entry: project reads the cuts'
    expect_rc 0 cap project --json
    cp "$WORK/out" "$WORK/moves.json"
    sq 'DELETE FROM plan_cache; DELETE FROM plan_cut_cache'
    expect_rc 0 cap project --json
    cmp -s "$WORK/out" "$WORK/moves.json" || fail "project after project --backtest is not a rebuild's"
    expect_rc 0 cap project --backtest --json
    cp "$WORK/out" "$WORK/moves_bt.json"
    sq 'DELETE FROM plan_cache'
    expect_rc 0 cap project --json
    sq 'DELETE FROM plan_cache'
    expect_rc 0 cap project --backtest --json
    cmp -s "$WORK/out" "$WORK/moves_bt.json" || fail "project --backtest after project is not a rebuild's"
    sq 'DELETE FROM plan_cache; DELETE FROM plan_cut_cache'
    expect_rc 0 cap project --backtest --json
    cmp -s "$WORK/out" "$WORK/moves_bt.json" || fail "project --backtest after project is not a rebuild's"
    echo "bench site shape, $u moving groups after the data: project and --backtest apart"
else
    echo "bench site shape: not checked ($GEN not built)"
fi

echo "plan_incremental: the refresh's figures are a rebuild's OK"
