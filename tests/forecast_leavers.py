#!/usr/bin/env python3
"""Issue 28 item 2 (what was known when), used by tests/e2e/forecast_leavers.sh.

  forecast_leavers.py DB ROSTER.csv CUT PROJECT.json

PROJECT.json is `project --as-of CUT --json` on the demo's database DB.
The leavers the projection takes in year 1 (every group's leavers_year1)
must be exactly the members it projects (active: a final GPU job running
in the 12 months before CUT, read from DB with sqlite3) whose roster line
as known at CUT (ROSTER.csv, the demo's file: the line in force then, else
the latest started) has not ended before CUT and whose planned end falls in
[CUT, CUT + 12 months), each leaving on that planned end, never on the
actual end (which lies after CUT, unknown then). Prints how many, how many
actually left later or earlier than planned, and how many members' actual
end falls in year 1 (what the roster read today would have said).
"""
import calendar
import csv
import json
import sqlite3
import sys


def main(db, roster, cut, js):
    a = json.load(open(js))
    y1 = [x for x in a["years"] if x["year"] == 1][0]
    lo, hi = y1["from"], y1["to"]
    if lo != cut:
        sys.exit("FAIL: year 1 starts %s, not at the cut %s" % (lo, cut))
    yy, mm, dd = (int(v) for v in cut.split("-"))
    c = calendar.timegm((yy, mm, dd, 0, 0, 0))
    w0 = calendar.timegm((yy - 1, mm, dd, 0, 0, 0))
    con = sqlite3.connect(db)
    active = {r[0] for r in con.execute(
        "SELECT DISTINCT u.name FROM jobs j JOIN users u ON u.id = j.user_id "
        "WHERE j.final = 1 AND j.gpus > 0 AND j.start < ? AND j.end_time > ? "
        "AND j.end_time > j.start", (c, w0))}
    lines = {}
    for r in csv.DictReader(open(roster)):
        lines.setdefault(r["user"], []).append(r)
    want, later, earlier, actual_in = {}, 0, 0, 0
    for u, ls in lines.items():
        started = [x for x in ls if x["start"] <= cut]
        if not started or u not in active:
            continue
        force = [x for x in started if not x["end"] or x["end"] >= cut]
        line = max(force or started, key=lambda x: x["start"])
        if line["end"] and line["end"] < cut:
            continue  # left before the cut: known
        actual_in += bool(line["end"]) and lo <= line["end"] < hi
        p = line["planned_end"]
        if p and lo <= p < hi:
            want[u] = p
            later += line["end"] > p or not line["end"]
            earlier += bool(line["end"]) and line["end"] < p
    got = {}
    for g in a["groups"]:
        for x in g["leavers_year1"]:
            got[x["user"]] = x["leaves"]
    if set(want) != set(got):
        sys.exit("FAIL: cut %s: leavers missing %s, not planned %s" %
                 (cut, sorted(set(want) - set(got))[:10], sorted(set(got) - set(want))[:10]))
    bad = [(u, want[u], got[u]) for u in want if want[u] != got[u]]
    if bad:
        sys.exit("FAIL: cut %s: leave dates not the planned ends: %s" % (cut, bad[:5]))
    if not want:
        sys.exit("FAIL: cut %s: no planned end in year 1 (nothing tested)" % cut)
    print("cut %s: %d leavers in year 1, each on its planned end (of them %d left later, %d "
          "earlier than planned); the actual ends would have given %d" %
          (cut, len(want), later, earlier, actual_in))


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
