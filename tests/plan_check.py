#!/usr/bin/env python3
"""Independent checks of capplan's planner, run by tests/e2e/plan_cli.sh.

  plan_check.py kmeans PROFILE.json K
      From `capplan profile --k K --json`: recompute the standardised
      features from the raw ones (log1p, mean, population sd, unknown memory
      given the median log1p of the known ones) and compare them with
      capplan's; fit scikit-learn's KMeans (k-means++, n_init=10) on them
      and compare the inertia (within 1 %); compare the silhouette with
      sklearn.metrics.silhouette_score.

  plan_check.py wape SWF BACKTEST.json
      From the SWF log itself (not through capplan): the naive per-group
      projection at the cut of `capplan project --backtest DATE --json`
      (each group's CPU-hours of the 12 months before the cut, as mean
      CPUs held, times 1 + growth, growth 0 when nothing precedes the fit
      year), scored against the mean CPUs each group held from the cut to
      the end of the data, hours charged to months pro rata; prints the
      WAPE and checks capplan's (within 1e-6), and prints the figure by
      calendar-year CPU-hours ("same as last year") for the record.

Exit 0 and one line per check on success; 1 with the reason otherwise.
"""
import calendar
import datetime as dt
import json
import math
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def standardise(users, nfeat, mem_index):
    """capplan's scaling, written again from its definition."""
    rows = [u for u in users if u["z"] is not None]
    names = None
    logs = []
    for u in rows:
        names = list(u["raw"].keys())
        logs.append([None if u["raw"][k] is None else math.log1p(u["raw"][k]) for k in names])
    known = sorted(r[mem_index] for r in logs if r[mem_index] is not None)
    if known:
        n = len(known)
        pos = 0.5 * (n - 1)
        lo = int(math.floor(pos))
        med = known[lo] if lo >= n - 1 else known[lo] + (known[lo + 1] - known[lo]) * (pos - lo)
    else:
        med = 0.0
    for r in logs:
        if r[mem_index] is None:
            r[mem_index] = med
    z = [[0.0] * nfeat for _ in logs]
    for f in range(nfeat):
        col = [r[f] for r in logs]
        mean = sum(col) / len(col)
        sd = math.sqrt(sum((v - mean) ** 2 for v in col) / len(col))
        if f == mem_index and not known:
            sd = 0.0
        for i, v in enumerate(col):
            z[i][f] = (v - mean) / sd if sd > 1e-12 else 0.0
    return rows, z


def check_kmeans(path, k):
    import numpy as np
    from sklearn.cluster import KMeans
    from sklearn.metrics import silhouette_score

    d = json.load(open(path))
    feats = d["features"]
    rows, z = standardise(d["user_features"], len(feats), feats.index("mem_gib"))
    X = np.array([u["z"] for u in rows])
    worst = float(np.max(np.abs(X - np.array(z)))) if len(rows) else 0.0
    if worst > 1e-9:
        fail("%s: standardised features differ from capplan's by %g" % (path, worst))
    if d["k"] != k:
        fail("%s: k %d, expected %d" % (path, d["k"], k))
    km = KMeans(n_clusters=k, n_init=10, random_state=0).fit(X)
    ours, theirs = d["inertia"], float(km.inertia_)
    rel = (ours - theirs) / theirs if theirs > 0 else 0.0
    if abs(rel) > 0.01:
        fail("%s: inertia %.6g, scikit-learn %.6g (%.2f %%)" % (path, ours, theirs, 100 * rel))
    labels = np.array([u["profile"] - 1 for u in rows])
    sil = float(silhouette_score(X, labels)) if 1 < k < len(rows) else 0.0
    if abs(sil - d["silhouette"]) > 1e-6:
        fail("%s: silhouette %.6f, scikit-learn %.6f" % (path, d["silhouette"], sil))
    print("kmeans %s: %d users, k=%d, inertia %.6g vs scikit-learn %.6g (%+.3f %%), "
          "silhouette %.6f (same)" % (path.split("/")[-1], len(rows), k, ours, theirs,
                                      100 * rel, sil))


def month_start(y, m):
    return calendar.timegm((y, m, 1, 0, 0, 0))


def next_month(y, m):
    return (y + 1, 1) if m == 12 else (y, m + 1)


def charge(hours, group, start, end, procs):
    """CPU-hours of [start, end) charged to (group, yyyymm) pro rata."""
    t = start
    while t < end:
        d = dt.datetime.fromtimestamp(t, dt.timezone.utc)
        ny, nm = next_month(d.year, d.month)
        stop = min(end, month_start(ny, nm))
        key = (group, d.year * 100 + d.month)
        hours[key] = hours.get(key, 0.0) + procs * (stop - t) / 3600.0
        t = stop


def check_wape(swf, path):
    bt = json.load(open(path))
    cut = calendar.timegm(dt.datetime.strptime(bt["cut"], "%Y-%m-%d").timetuple())
    cy, cm = dt.datetime.fromtimestamp(cut, dt.timezone.utc).year, \
        dt.datetime.fromtimestamp(cut, dt.timezone.utc).month
    base, hours, year_hours, data_end = None, {}, {}, 0
    for line in open(swf):
        if line.startswith(";"):
            if "UnixStartTime:" in line:
                base = int(line.split(":")[1])
            continue
        f = line.split()
        if len(f) < 18:
            continue
        submit, wait, run, procs, group = int(f[1]), int(f[2]), float(f[3]), float(f[4]), f[12]
        start = base + submit + (wait if wait >= 0 else 0)
        end = start + int(round(run))
        if run <= 0 or procs <= 0:
            continue
        data_end = max(data_end, end)
        charge(hours, group, start, end, procs)
        y = dt.datetime.fromtimestamp(base + submit, dt.timezone.utc).year
        year_hours[(group, y)] = year_hours.get((group, y), 0.0) + run * procs / 3600.0
    py, pm = cy - 1, cm
    before_h = (cut - month_start(py, pm)) / 3600.0
    until = min(data_end, month_start(cy + 1, cm))
    after_h = (until - cut) / 3600.0
    lo, mid, hi = py * 100 + pm, cy * 100 + cm, (cy + 1) * 100 + cm
    groups = sorted({g for g, _ in hours})
    before = {g: sum(v for (h, m), v in hours.items() if h == g and lo <= m < mid) / before_h
              for g in groups}
    after = {g: sum(v for (h, m), v in hours.items() if h == g and mid <= m < hi) / after_h
             for g in groups}
    wape = sum(abs(before[g] - after[g]) for g in groups) / sum(after.values())
    ours = bt["wape"]["naive"]
    if abs(wape - ours) > 1e-6:
        fail("naive WAPE: python %.9f, capplan %.9f" % (wape, ours))
    a = sum(v for (g, y), v in year_hours.items() if y == cy)
    same = sum(abs(year_hours.get((g, cy), 0.0) - year_hours.get((g, cy - 1), 0.0))
               for g in groups) / a
    print("wape %s at %s: naive per-group projection off by %.1f %% of the total (capplan "
          "%.1f %%, mean CPUs over %.2f scored months); calendar-year CPU-hours, same as last "
          "year: %.1f %%" % (swf.split("/")[-1], bt["cut"], 100 * wape, 100 * ours,
                              after_h / (365.2425 * 24 / 12), 100 * same))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "kmeans":
        check_kmeans(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) == 4 and sys.argv[1] == "wape":
        check_wape(sys.argv[2], sys.argv[3])
    else:
        print(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()
