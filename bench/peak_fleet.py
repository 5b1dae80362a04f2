#!/usr/bin/env python3
"""peak_fleet.py DB OUT.csv: the fleet a generated log ran on, as capplan's
inventory CSV, for the benchmark's queue simulation (issue 33).

gen_sacct draws start times without a scheduler, so the jobs it records
sometimes run on more GPUs than its nominal pools hold; `capplan simulate`
refuses to guess a fleet (no inventory: exit 1). This writes, per cluster
and GPU model, the most GPUs the recorded jobs held at once (what the
simulator used on its own before it refused), in service from the first
recorded start, memory from gen_sacct's pools (bench/gen_sacct.c)."""
import sqlite3
import sys
import time

MEM_GIB = {"a100": 80, "h100": 80, "v100": 32, "l40s": 48, "a100_3g.20gb": 20}


def main(db, out):
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT c.name, j.gpu_type, j.start, j.end_time, j.gpus FROM jobs j "
        "JOIN clusters c ON c.id = j.cluster_id WHERE j.gpus > 0 AND j.gpu_type IS NOT NULL "
        "AND j.start IS NOT NULL AND j.end_time IS NOT NULL")
    events, first = {}, {}
    for cluster, model, start, end, gpus in rows:
        key = (cluster, model)
        events.setdefault(key, []).extend(((start, gpus), (end, -gpus)))
        first[key] = min(first.get(key, start), start)
    with open(out, "w") as f:
        f.write("cluster,gpu_model,gpus,gpu_mem_gib,from,to\n")
        for key in sorted(events):
            ev = sorted(events[key], key=lambda e: (e[0], e[1]))  # ends before starts
            cur = peak = 0
            for _, d in ev:
                cur += d
                peak = max(peak, cur)
            day = time.strftime("%Y-%m-%d", time.gmtime(first[key]))
            f.write("%s,%s,%d,%d,%s,\n" % (key[0], key[1], int(peak + 0.999),
                                           MEM_GIB.get(key[1], 80), day))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: peak_fleet.py DB OUT.csv")
    main(sys.argv[1], sys.argv[2])
