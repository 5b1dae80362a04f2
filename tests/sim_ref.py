#!/usr/bin/env python3
"""sim_ref: an independent reference for `capplan simulate --replay`.

Reads a capplan database with sqlite3 (not through capplan), builds the
jobs and the fleet by the rules written in data/plan/simulate.h, simulates
FCFS with EASY backfill on the time limit by the rules written in
core/sim.h, and compares every start with the file `--starts` wrote.

    sim_ref.py DB FROM TO STARTS [DEPTH [ORDER [PLACEMENT [TIERS]]]]  (FROM,
        TO: epoch s of the window; DEPTH: backfill depth, 100; 0 all; ORDER:
        fcfs, the default, or fairshare, which is fcfs without allocations;
        PLACEMENT: recorded, the default, or any; TIERS: partition names
        comma-separated, the highest priority first, "" none)

Tiers: the waiting jobs go first by the place of their partition in
TIERS (any other partition, or none, after all of them), then as FCFS or
fair share order them.

Placement "recorded": a job whose gpu_type names a GPU model that some
inventory row of its cluster has, with enough GPUs and memory for it, runs
only on the rows of that model; any other job (and every job under "any")
on any row of its cluster with enough memory.

Fair share (core/sim.h, data/plan/simulate.h): at each event the waiting
jobs go by their group's usage over its share (Slurm's factor 2^(-U/S),
highest first), then submit time; usage is unit-seconds weighed
2^(-age/14 days), charged as jobs run; shares are allocations over the
year's capacity, groups without one splitting the rest evenly.

Prints "N jobs, M starts differ" and exits 1 when any differs.
"""
import calendar
import heapq
import math
import sqlite3
import sys
import time

WARMUP = 30 * 86400
DEPTH = 100  # jobs behind the head tried for backfill per event (SIM_BF_DEPTH)
OPEN = float("inf")


def day(text):
    return calendar.timegm((int(text[0:4]), int(text[5:7]), int(text[8:10]), 0, 0, 0))


def load(db, lo, hi, placement="recorded", tiers=()):
    rows = db.execute(
        "SELECT c.name, j.submit, j.start, j.elapsed, j.timelimit, j.gpus, j.ncpus, "
        "j.gpu_mem_gib, j.gpu_type, a.name, pt.name FROM jobs j "
        "JOIN clusters c ON c.id = j.cluster_id LEFT JOIN accounts a ON a.id = j.account_id "
        "LEFT JOIN partitions pt ON pt.id = j.partition_id WHERE j.final = 1 AND j.start IS NOT NULL AND j.elapsed >= 0 AND j.start >= j.submit "
        "AND j.submit >= ? AND j.submit < ? ORDER BY c.name, j.submit, j.id", (lo, hi)).fetchall()
    gpu_clusters = {r[0] for r in rows if (r[5] or 0) > 0}
    pools = []  # dicts, in capplan's order: inventory rows, then the peak of the rest
    for cl, model, gpus, mem, frm, to, speed in db.execute(
            "SELECT cluster, gpu_model, gpus, gpu_mem_gib, from_date, to_date, relative_speed "
            "FROM inventory ORDER BY cluster, gpu_model, from_date"):
        if gpus < 1 or cl not in {r[0] for r in rows}:
            continue
        pools.append(dict(cluster=cl, model=model, units=int(round(gpus)), mem=mem,
                          speed=speed if speed and speed > 0 else 1.0,
                          frm=day(frm) if frm else -OPEN, to=day(to) + 86400 if to else OPEN))
    jobs = []
    for cl, submit, start, elapsed, limit, gpus, ncpus, mem, model, group, part in rows:
        gpu = cl in gpu_clusters
        units = math.ceil(gpus) if gpu else (ncpus if ncpus is not None else -1)
        if units < 1:
            continue
        ref = next((p["speed"] for p in pools if p["cluster"] == cl and p["model"] == model), 1.0)
        jobs.append(dict(cluster=cl, submit=submit, start=start, run=elapsed,
                         limit=limit if limit is not None else -1, units=units,
                         mem=(mem or 0.0) if gpu else 0.0, ref=ref, group=group or "",
                         model=model or None,
                         tier=tiers.index(part) if part in tiers else len(tiers)))
    for cl in sorted({j["cluster"] for j in jobs}, key=[r[0] for r in rows].index):
        if any(p["cluster"] == cl for p in pools):
            continue
        ev = {}
        for j in jobs:
            if j["cluster"] == cl:
                ev[j["start"]] = ev.get(j["start"], 0) + j["units"]
                ev[j["start"] + j["run"]] = ev.get(j["start"] + j["run"], 0) - j["units"]
        busy = peak = 0
        for t in sorted(ev):
            busy += ev[t]
            peak = max(peak, busy)
        pools.append(dict(cluster=cl, model="peak", units=peak, mem=1e9, speed=1.0,
                          frm=-OPEN, to=OPEN))
    for i, p in enumerate(pools):
        p["index"] = i
    for j in jobs:  # pinned to its model where one of the model's rows could ever hold it
        mine = [p for p in pools if p["cluster"] == j["cluster"] and p["model"] == j["model"]]
        keep = placement == "recorded" and any(p["units"] >= j["units"] and p["mem"] >= j["mem"]
                                               for p in mine)
        j["pin"] = j["model"] if keep else None
    return jobs, pools, {r[9] or "" for r in rows}


def usable(job, pool):
    """The job may run on the pool: memory, and its pinned model if any."""
    return pool["mem"] >= job["mem"] and job["pin"] in (None, pool["model"])


def year_start(y):
    return calendar.timegm((y, 1, 1, 0, 0, 0))


def shares(db, pools, groups):
    """{year: {group: share}} from the allocations, None without any."""
    allocs = db.execute("SELECT group_name, year, gpu_hours FROM allocations "
                        "ORDER BY 1, 2").fetchall()
    if not allocs or not groups:
        return None
    out = {}
    for y in range(min(a[1] for a in allocs), max(a[1] for a in allocs) + 1):
        a, b = year_start(y), year_start(y + 1)
        cap = 0.0
        for p in pools:
            lo, hi = max(p["frm"], a), min(p["to"], b)
            if hi > lo:
                cap += p["units"] * (hi - lo) / 3600.0
        total, mine = 0.0, {}
        for g, year, hours in allocs:
            if year == y:
                total += hours
                if g in groups:
                    mine[g] = mine.get(g, 0.0) + hours
        if cap <= 0:
            cap = total
        rest = (cap - total) / cap if cap > total else 0.0
        others = len(groups - set(mine))
        out[y] = {g: (mine[g] / cap if cap > 0 else 0.0) if g in mine else rest / others
                  for g in groups}
    return out


def run_on(job, pool):
    return math.floor(job["run"] * job["ref"] / pool["speed"] + 0.5)


def est_on(job, pool):
    return max(job["limit"], run_on(job, pool))


def simulate_cluster(jobs, pools, depth, fair=None, half_life=14 * 86400.0, tiers=False):
    """Start time of each job (None: never), the jobs in queue order;
    fair: {year: {group: share}} for the fair-share order."""
    pools = sorted(pools, key=lambda p: (p["mem"], -p["speed"], p["index"]))
    free = {p["index"]: p["units"] for p in pools}
    running = {p["index"]: [] for p in pools}  # [est_end, units, job]
    ends = []  # heap of (end, seq, pool index, entry)
    start = [None] * len(jobs)
    queue = []
    nxt = 0
    t = -OPEN
    t0 = jobs[0]["submit"] if jobs else 0
    done, base, runu = {}, {}, {}  # per group: ended usage, running base, running units

    def scale(x):
        return math.pow(2.0, (x - t0) / half_life)

    def serving(p):
        return p["frm"] <= t < p["to"]

    def begin(k, p):
        job = jobs[k]
        start[k] = t
        entry = [t + est_on(job, p), job["units"], k]
        running[p["index"]].append(entry)
        free[p["index"]] -= job["units"]
        heapq.heappush(ends, (t + run_on(job, p), k, p["index"], entry))
        if fair:
            g = job["group"]
            base[g] = base.get(g, 0.0) + job["units"] * scale(t)
            runu[g] = runu.get(g, 0) + job["units"]

    while True:
        times = []
        if nxt < len(jobs):
            times.append(jobs[nxt]["submit"])
        if ends:
            times.append(ends[0][0])
        if queue:
            times += [p["frm"] for p in pools if p["frm"] > t]
        if not times:
            break
        t = min(times)
        while ends and ends[0][0] <= t:
            end, k, pi, entry = heapq.heappop(ends)
            running[pi].remove(entry)
            free[pi] += entry[1]
            if fair:
                g, ps = jobs[k]["group"], scale(start[k])
                done[g] = done.get(g, 0.0) + entry[1] * (scale(end) - ps)
                base[g] -= entry[1] * ps
                runu[g] -= entry[1]
        while nxt < len(jobs) and jobs[nxt]["submit"] <= t:
            j = jobs[nxt]
            if any(usable(j, p) and p["units"] >= j["units"] for p in pools):
                queue.append(nxt)
            nxt += 1
        if tiers and not fair:  # partition tier, then submit time
            queue.sort(key=lambda k: (jobs[k]["tier"], jobs[k]["submit"], k))
        if fair:  # tier, then groups by usage over share, then submit time
            years = sorted(fair)
            y = min(max(time.gmtime(t).tm_year, years[0]), years[-1])
            now, rank = scale(t), {}
            for g in {jobs[k]["group"] for k in queue}:
                used = done.get(g, 0.0) + runu.get(g, 0) * now - base.get(g, 0.0)
                share = fair[y][g]
                rank[g] = used / share if share > 0 else (OPEN if used > 0 else 0.0)
            queue.sort(key=lambda k: (jobs[k]["tier"], rank[jobs[k]["group"]], jobs[k]["submit"], k))
        # FCFS: the head starts while it fits
        while queue:
            j = jobs[queue[0]]
            fit = [p for p in pools if serving(p) and usable(j, p)
                   and free[p["index"]] >= j["units"]]
            if not fit:
                break
            begin(queue.pop(0), fit[0])
        if not queue:
            continue
        # EASY: the head's reservation
        head = jobs[queue[0]]
        resv = None  # (shadow, pool index, extra)
        for p in pools:
            if not serving(p) or not usable(head, p) or p["units"] < head["units"]:
                continue
            avail = free[p["index"]]
            shadow = None
            for est_end, units, _ in sorted(running[p["index"]], key=lambda e: e[0]):
                if shadow is not None and est_end > shadow:
                    break
                avail += units
                if shadow is None and avail >= head["units"]:
                    shadow = est_end
            if shadow is None or shadow >= p["to"]:
                continue
            if resv is None or shadow < resv[0]:
                resv = [shadow, p["index"], avail - head["units"]]
        kept = [queue[0]]
        tried = queue[1:1 + depth] if depth else queue[1:]
        for k in tried:
            j = jobs[k]
            chosen = None
            for p in pools:
                if not serving(p) or not usable(j, p) or free[p["index"]] < j["units"]:
                    continue
                if resv and p["index"] == resv[1] and t + est_on(j, p) > resv[0]:
                    if j["units"] > resv[2]:
                        continue
                    resv[2] -= j["units"]
                chosen = p
                break
            if chosen is None:
                kept.append(k)
            else:
                begin(k, chosen)
        queue = kept + queue[1 + len(tried):]
    return start


def main():
    path, lo, hi, starts_path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    depth = int(sys.argv[5]) if len(sys.argv) > 5 else DEPTH
    order = sys.argv[6] if len(sys.argv) > 6 else "fcfs"
    placement = sys.argv[7] if len(sys.argv) > 7 else "recorded"
    tiers = [t for t in sys.argv[8].split(",") if t] if len(sys.argv) > 8 else []
    db = sqlite3.connect(path)
    jobs, pools, groups = load(db, lo - WARMUP, hi, placement, tiers)
    fair = shares(db, pools, groups) if order == "fairshare" else None
    order = sorted(range(len(jobs)), key=lambda i: (jobs[i]["cluster"], jobs[i]["submit"], i))
    start = [None] * len(jobs)
    for cl in sorted({j["cluster"] for j in jobs}):
        idx = [i for i in order if jobs[i]["cluster"] == cl]
        got = simulate_cluster([jobs[i] for i in idx], [p for p in pools if p["cluster"] == cl],
                               depth, fair, tiers=bool(tiers))
        for i, s in zip(idx, got):
            start[i] = s
    theirs = [line.split() for line in open(starts_path)]
    if len(theirs) != len(jobs):
        print("%d jobs here, %d in %s" % (len(jobs), len(theirs), starts_path))
        return 1
    differ = 0
    for j, s, (sub, st) in zip(jobs, start, theirs):
        mine = "-" if s is None else str(int(s))
        if int(sub) != j["submit"] or st != mine:
            if differ < 5:
                print("submit %s: capplan %s, reference %s" % (sub, st, mine))
            differ += 1
    waits = sorted(s - j["submit"] for j, s in zip(jobs, start)
                   if s is not None and lo <= j["submit"] < hi)
    mean = sum(waits) / len(waits) / 3600 if waits else 0
    print("%d jobs, %d starts differ; window mean wait %.3f h" % (len(jobs), differ, mean))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
