#!/bin/sh
# capplan stats through the command line: usage and exit codes, figures on
# real files of ../shared/data recomputed independently (awk over the
# XDMoD log, python3 over the OSC SWF log), JSON and CSV shapes (RFC 4180,
# formulas neutralised), control characters, the cache, and the demo's
# events when the demo generator is there.
. "$(dirname "$0")/lib.sh"
need_shared

# ---- usage ----
expect_rc 2 cap stats
expect_rc 2 cap stats frobnicate
expect_rc 2 cap stats waits --by week
expect_rc 2 cap stats waits --json extra
expect_rc 2 cap stats waits --group
expect_rc 0 cap stats --help
grep -q 'utilization|preemption|waits|efficiency|domains|pubs' "$WORK/out" || fail "stats --help"
# no database at all: refused (a mistyped --db is not an empty institute)
expect_rc 1 cap stats utilisation --json
grep -q "t.db: no such database" "$WORK/err" || fail "missing database: $(cat "$WORK/err")"
[ ! -e "$WORK/t.db" ] || fail "a read-only command created the database"
# an empty file is not a database (#29): refused in one line, left empty
: >"$WORK/t.db"
expect_rc 1 cap stats utilisation --json
grep -q "an empty file, not a capplan database" "$WORK/err" || fail "empty file: $(cat "$WORK/err")"
[ ! -s "$WORK/t.db" ] || fail "a reader wrote into an empty file"
# an empty database (no jobs): empty figures
printf 'date,cluster,label\n' >"$WORK/ev.csv"
expect_rc 0 cap import events "$WORK/ev.csv"
expect_rc 0 cap stats utilisation --json
expect_rc 0 cap stats domains

# ---- XDMoD log: preempted attempts, jobs and CPU-hours per account ----
# (no roster: the groups are the accounts)
expect_rc 0 cap import sacct --fields xdmod "$DATA"/sacct-pipe-xdmod/pozidriv.head.log
awk -F'|' '
function secs(s,   d, n, a) {
    d = 0
    if (index(s, "-")) { d = substr(s, 1, index(s, "-") - 1); s = substr(s, index(s, "-") + 1) }
    n = split(s, a, ":")
    return d * 86400 + a[1] * 3600 + a[2] * 60 + a[3]
}
{ jobs[$6]++; if ($17 == "PREEMPTED") pre[$6]++; cpu[$6] += $19 * secs($15) / 3600 }
END { for (a in jobs) printf "%s %d %d %.6f\n", a, jobs[a], pre[a] + 0, cpu[a] }' \
    "$DATA"/sacct-pipe-xdmod/pozidriv.head.log | sort >"$WORK/awk.txt"
[ "$(wc -l <"$WORK/awk.txt")" -eq 7 ] || fail "awk: 7 accounts expected: $(cat "$WORK/awk.txt")"
cap stats preemption --by all --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
for r in sorted(d["tables"]["preemption"], key=lambda r: r["group"]):
    if r["partition"] == "all" and r["group"] != "all":
        print("%s %d %d %.6f" % (r["group"], r["jobs"], r["preempted_attempts"], r["cpu_hours"]))
' >"$WORK/capplan.txt" || fail "stats preemption --json"
diff "$WORK/awk.txt" "$WORK/capplan.txt" >"$WORK/diff" || fail "preemption per account differs from awk: $(cat "$WORK/diff")"
# the same CPU-hours through usage_month (charged pro rata to months, summed)
cap stats utilization --by all --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
for r in sorted(d["tables"]["groups"], key=lambda r: r["group"]):
    print("%s %.6f" % (r["group"], r["cpu_hours"]))
' >"$WORK/util.txt"
awk '{ printf "%s %.6f\n", $1, $4 }' "$WORK/awk.txt" | diff - "$WORK/util.txt" >"$WORK/diff" \
    || fail "CPU-hours per account (usage_month) differ from awk: $(cat "$WORK/diff")"
[ "$(awk '{ s += $3 } END { print s }' "$WORK/capplan.txt")" = 70 ] || fail "70 preempted attempts"

# ---- OSC SWF log: waits p50/p90/p99 per month, recomputed with python3 ----
expect_rc 0 "$CAPPLAN_BIN" --db "$WORK/osc.db" import trace --kind swf "$DATA"/swf-pwa-osc-clust/OSC-Clust-2000-3.1-cln.swf
"$CAPPLAN_BIN" --db "$WORK/osc.db" stats waits --by month --json >"$WORK/osc.json" || fail "stats waits on OSC"
python3 - "$DATA"/swf-pwa-osc-clust/OSC-Clust-2000-3.1-cln.swf "$WORK/osc.json" <<'EOF' || fail "OSC waits differ"
import json, sys, time
# SWF: 2 submit (s after UnixStartTime), 3 wait, 4 run, 11 status (5 cancelled).
# capplan: start = submit + wait; a wait of -1 is unknown (no start, no
# wait); a job cancelled before it ran (run <= 0) has no wait.
start0 = None
waits = {}
for line in open(sys.argv[1]):
    if line.startswith(";"):
        if "UnixStartTime:" in line:
            start0 = int(line.split(":")[1])
        continue
    f = line.split()
    if len(f) != 18:
        continue
    submit, wait, run, status = float(f[1]), float(f[2]), float(f[3]), int(f[10])
    if submit < 0:
        continue
    if wait < 0:
        continue
    if status == 5 and run <= 0:
        continue
    t = start0 + round(submit) + round(wait)
    month = time.strftime("%Y-%m", time.gmtime(t))
    waits.setdefault(month, []).append(round(wait))

def q(v, p):
    v = sorted(v)
    h = (len(v) - 1) * p
    lo = int(h)
    return v[lo] + (h - lo) * (v[min(lo + 1, len(v) - 1)] - v[lo])

# capplan reads waits from histograms (docs/scale.md): exact below 128 s,
# then 64 buckets an octave, each quantile the mean of its rank's bucket;
# the tolerance is the width of the bucket of the upper of the two ranks.
def width(x):
    x = int(x)
    return 1 if x < 128 else 2 ** (x.bit_length() - 1 - 6)

def tol(v, p):
    v = sorted(v)
    lo = int((len(v) - 1) * p)
    return width(v[min(lo + 1, len(v) - 1)]) / 3600 + 1e-9

rows = {r["period"]: r for r in json.load(open(sys.argv[2]))["tables"]["waits"]
        if r["partition"] == "all" and r["gpus"] == "all"}
assert sorted(rows) == sorted(waits), (sorted(rows), sorted(waits))
for m, v in waits.items():
    r = rows[m]
    assert r["attempts"] == len(v), (m, r["attempts"], len(v))
    for p, k in ((0.5, "wait_p50_h"), (0.9, "wait_p90_h"), (0.99, "wait_p99_h")):
        want = q(v, p) / 3600
        assert abs(r[k] - want) <= tol(v, p), (m, k, r[k], want, tol(v, p))
    assert abs(r["wait_mean_h"] - sum(v) / len(v) / 3600) < 1e-9
print("osc months checked:", len(waits))
EOF

# ---- JSON and CSV shapes, names from data ----
cat >"$WORK/s.psv" <<'EOF'
JobID|JobIDRaw|Cluster|Partition|Account|User|State|Submit|Start|End|ElapsedRaw|NCPUS|AllocTRES
1|1|k|gpu|acc|u1|COMPLETED|2024-03-01T00:00:00|2024-03-01T01:00:00|2024-03-01T03:00:00|7200|2|cpu=2,gres/gpu=1,node=1
2|2|k|gpu|acc|u2|COMPLETED|2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T01:00:00|3600|2|cpu=2,gres/gpu=3,node=1
3|3|k|gpu|acc|u3|COMPLETED|2024-03-02T00:00:00|2024-03-02T00:00:00|2024-03-02T01:00:00|3600|2|cpu=2,gres/gpu=1,node=1
EOF
printf 'user,group,role,domain,start,end\nu1,=SUM(1+1),phd-student,ML,2020-01-01,\nu2,"lab ""x"", y",phd-student,ML,2020-01-01,\nu3,"bad\033[2Jname",phd-student,ML,2020-01-01,\n' >"$WORK/r.csv"
expect_rc 0 "$CAPPLAN_BIN" --db "$WORK/n.db" import sacct "$WORK/s.psv"
expect_rc 0 "$CAPPLAN_BIN" --db "$WORK/n.db" import roster "$WORK/r.csv"
"$CAPPLAN_BIN" --db "$WORK/n.db" stats utilization --csv --table groups >"$WORK/g.csv" || fail "csv"
printf 'period,group,gpu_hours,share_pct,capacity_pct,cpu_hours,jobs\r\n' >"$WORK/want.csv"
printf '2024-03,"\047=SUM(1+1)",2,33.33333333,,4,1\r\n' >>"$WORK/want.csv"
printf '2024-03,bad?[2Jname,1,16.66666667,,2,1\r\n' >>"$WORK/want.csv"
printf '2024-03,"lab ""x"", y",3,50,,2,1\r\n' >>"$WORK/want.csv"
cmp -s "$WORK/want.csv" "$WORK/g.csv" || fail "CSV: $(od -c "$WORK/g.csv" | head -20)"
"$CAPPLAN_BIN" --db "$WORK/n.db" stats utilization --csv >"$WORK/u.csv"
head -n 1 "$WORK/u.csv" | grep -q '^period,cluster,gpus,capacity_gpu_hours,gpu_hours,util_pct,jobs,cpu_hours,wait_mean_h' \
    || fail "CSV default table: $(head -n 1 "$WORK/u.csv")"
expect_rc 2 "$CAPPLAN_BIN" --db "$WORK/n.db" stats utilization --csv --table nope
grep -q "no table 'nope'; tables: utilization groups events hour_of_week" "$WORK/err" || fail "--table message: $(cat "$WORK/err")"
"$CAPPLAN_BIN" --db "$WORK/n.db" stats utilization --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["kind"] == "utilization" and d["by"] == "month" and d["group"] is None
u = [r for r in d["tables"]["utilization"] if r["cluster"] == "k"][0]
assert u["gpu_hours"] == 6 and u["jobs"] == 3, u
assert u["util_pct"] is None and u["capacity_gpu_hours"] is None, u   # no inventory: unknown
assert abs(u["wait_mean_h"] - 1 / 3) < 1e-12, u
assert isinstance(u["jobs"], int)
assert list(d["tables"]) == ["utilization", "groups", "events", "hour_of_week", "hour_of_week_gpus"]
' || fail "JSON shape"
# no control character from data reaches the terminal
"$CAPPLAN_BIN" --db "$WORK/n.db" stats utilization >"$WORK/t.txt"
if grep -q "$(printf '\033')" "$WORK/t.txt"; then fail "escape character in the text table"; fi
grep -q 'bad?\[2Jname' "$WORK/t.txt" || fail "sanitised name: $(cat "$WORK/t.txt")"
# numbers right-aligned with units, unknown shown as '-'
"$CAPPLAN_BIN" --db "$WORK/n.db" stats utilization --table groups >"$WORK/t.txt"
cat >"$WORK/want.txt" <<'EOF'
Each group's share of the GPU-hours
period   group        GPU-h  share  of capacity  CPU-h  jobs
2024-03  =SUM(1+1)        2  33.3%            -      4     1
2024-03  bad?[2Jname      1  16.7%            -      2     1
2024-03  lab "x", y       3  50.0%            -      2     1
EOF
diff "$WORK/want.txt" "$WORK/t.txt" >"$WORK/diff" || fail "text table: $(cat "$WORK/diff")"
expect_rc 1 "$CAPPLAN_BIN" --db "$WORK/n.db" stats efficiency --group no-such-lab
grep -q "no group named 'no-such-lab'" "$WORK/err" || fail "unknown group message"
expect_rc 1 "$CAPPLAN_BIN" --db "$WORK/n.db" stats waits --cluster nowhere
expect_rc 0 "$CAPPLAN_BIN" --db "$WORK/n.db" stats efficiency --group "=SUM(1+1)"

# ---- the cache: a second run reads it back and prints the same ----
"$CAPPLAN_BIN" --db "$WORK/osc.db" stats waits --by month --json >"$WORK/osc2.json"
cmp -s "$WORK/osc.json" "$WORK/osc2.json" || fail "second run (cache) differs"
[ "$(sqlite3 "$WORK/osc.db" 'SELECT count(*) FROM stats_cache')" -ge 2 ] || fail "no cache written"

# ---- the demo: the atlas upgrade lowers utilisation and waits, the cirrus
# cut raises waits (docs/demo.md) ----
if "$CAPPLAN_BIN" demo --help >/dev/null 2>&1; then
    "$CAPPLAN_BIN" --db "$WORK/demo.db" demo --no-tui --jobs 20000 --today 2026-11-22 >"$WORK/demo.out" 2>&1 \
        || fail "demo: $(cat "$WORK/demo.out")"
    "$CAPPLAN_BIN" --db "$WORK/demo.db" stats utilization --json | python3 -c '
import json, sys
ev = json.load(sys.stdin)["tables"]["events"]
up = [e for e in ev if "atlas upgrade" in e["label"]][0]
assert up["util_after_pct"] < up["util_before_pct"] - 5, up
assert up["wait_after_h"] < up["wait_before_h"], up
cut = [e for e in ev if "cirrus allocation change" in e["label"]][0]
assert cut["wait_after_h"] > cut["wait_before_h"], cut
print("demo: atlas %.1f%% -> %.1f%%, waits %.2f h -> %.2f h" % (
    up["util_before_pct"], up["util_after_pct"], up["wait_before_h"], up["wait_after_h"]))
' || fail "demo events"
    expect_rc 0 "$CAPPLAN_BIN" --db "$WORK/demo.db" stats efficiency --by all --json
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
w = sorted(d["tables"]["waste"], key=lambda r: -(r["hog_gpu_hours"] or 0))
# the three groups that hold idle notebooks (docs/demo.md) hog the most
assert all(r["idle_pct"] > 20 for r in w[:3]), w[:3]
assert all(r["idle_pct"] < 10 for r in w[3:]), w[3:]
assert w[2]["hog_gpu_hours"] > 5 * w[3]["hog_gpu_hours"], w[:4]
' "$WORK/out" || fail "demo hogging"
    # efficiency from the aggregates (issue 20): the same tables as a
    # group's attempts give (--group), and as a rebuild from the jobs
    cp "$WORK/out" "$WORK/eff_all.json"
    g=$(python3 -c 'import json,sys; w=json.load(open(sys.argv[1]))["tables"]["waste"]; print(max(w, key=lambda r: r["hog_gpu_hours"] or 0)["group"])' "$WORK/eff_all.json")
    expect_rc 0 "$CAPPLAN_BIN" --db "$WORK/demo.db" stats efficiency --by all --group "$g" --json
    cp "$WORK/out" "$WORK/eff_group.json"
    expect_rc 0 "$CAPPLAN_BIN" --db "$WORK/demo.db" stats efficiency --by month --json
    cp "$WORK/out" "$WORK/eff_month.json"
    sqlite3 "$WORK/demo.db" 'DELETE FROM stats_agg WHERE month < 0'
    expect_rc 0 "$CAPPLAN_BIN" --db "$WORK/demo.db" stats efficiency --by month --json
    [ "$(sqlite3 "$WORK/demo.db" 'SELECT count(*) FROM stats_agg WHERE month = -1')" = 1 ] ||
        fail "efficiency aggregates not written back"
    python3 -c '
import json, math, sys
def same(a, b, what):
    assert len(a) == len(b), (what, len(a), len(b))
    for x, y in zip(a, b):
        for k in x:
            p, q = x[k], y[k]
            if isinstance(p, float) or isinstance(q, float):
                assert (p is None) == (q is None) and (p is None or math.isclose(p, q, rel_tol=1e-9, abs_tol=1e-9)), (what, k, p, q)
            else:
                assert p == q, (what, k, p, q)
al, gr, mo, re = (json.load(open(f))["tables"] for f in sys.argv[1:5])
g = sys.argv[5]
for t in ("efficiency", "waste"):
    same([r for r in al[t] if r["group"] == g], [r for r in gr[t] if r["user"] == "all"], t)
    same(mo[t], re[t], t + " rebuilt")
same(mo["top_hogs"], re["top_hogs"], "top_hogs rebuilt")
mine = [r for r in al["top_hogs"] if r["group"] == g]
same(mine, gr["top_hogs"][:len(mine)], "top_hogs of the group")
assert any(r["hog_gpu_hours"] for r in gr["waste"]), "no hogging in the group"
' "$WORK/eff_all.json" "$WORK/eff_group.json" "$WORK/eff_month.json" "$WORK/out" "$g" ||
        fail "efficiency: aggregates against attempts and rebuild"
fi
echo "stats_cli: ok"
