#!/usr/bin/env python3
"""Independent checks of capplan's planner, run by tests/e2e/plan_cli.sh.

  plan_check.py kmeans PROFILE.json K
      From `capplan profile --k K --json`: recompute the standardised
      features from the raw ones (log1p, mean, population sd, unknown memory
      given the median log1p of the known ones) and compare them with
      capplan's; fit scikit-learn's KMeans (k-means++, n_init=10) on them
      and compare the inertia (within 1 %); compare the silhouette with
      sklearn.metrics.silhouette_score.

  plan_check.py rolling SWF BACKTEST.json
      From the SWF log itself (not through capplan): for every cut of
      `capplan project --backtest --json`, each group's actual use (mean
      CPUs over the 12 months after the cut, runs clipped to it) and naive
      forecast (mean CPUs over the 12 months before, or from the data's
      first month); checks capplan's per group (1e-6) and its WAPEs (the
      forecast's, naive's, last 3 months'); then that the forecaster users
      get (chosen at each cut from earlier cuts, issue 28) is no worse than
      naive per group, and prints issue 28's targets as measured: per-group
      WAPE 3 points below the better of naive and last 3 months, the
      institute total's mean |error| at most 30 %.

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


def parse_date(s):
    return calendar.timegm(dt.datetime.strptime(s, "%Y-%m-%d").timetuple())


def add_months(t, n):
    d = dt.datetime.fromtimestamp(t, dt.timezone.utc)
    k = d.year * 12 + d.month - 1 + n
    y, m = k // 12, k % 12 + 1
    last = calendar.monthrange(y, m)[1]
    return calendar.timegm((y, m, min(d.day, last), d.hour, d.minute, d.second))


def swf_jobs(swf):
    """(group, start, end, procs) of every job that ran, times in UTC."""
    base, jobs = None, []
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
        if run <= 0 or procs <= 0:
            continue
        jobs.append((group, start, start + int(round(run)), procs))
    return jobs


def mean_use(jobs, lo, hi):
    """Mean CPUs each group held over [lo, hi): runs clipped to it."""
    use = {}
    for g, s, e, p in jobs:
        a, b = max(s, lo), min(e, hi)
        if b > a:
            use[g] = use.get(g, 0.0) + p * (b - a)
    return {g: v / (hi - lo) for g, v in use.items()}


def wape(pred, act):
    keys = set(pred) | set(act)
    tot = sum(act.values())
    return sum(abs(pred.get(g, 0.0) - act.get(g, 0.0)) for g in keys) / tot


def check_rolling(swf, path):
    """The rolling backtest of `capplan project --backtest --json` against
    actual and naive use recomputed from the SWF log; the acceptance of
    issue 13 on OSC."""
    bt = json.load(open(path))
    jobs = swf_jobs(swf)
    first = min(s for _, s, _, _ in jobs)
    d0 = dt.datetime.fromtimestamp(first, dt.timezone.utc)
    first_month = month_start(d0.year, d0.month)
    wm, wn, w3, em, en = [], [], [], [], []
    for c in bt["cuts"]:
        cut, until = parse_date(c["cut"]), parse_date(c["until"])
        if add_months(cut, 12) != until:
            fail("cut %s: scored to %s, not 12 months" % (c["cut"], c["until"]))
        actual = mean_use(jobs, cut, until)
        naive = mean_use(jobs, max(add_months(cut, -12), first_month), cut)
        model = {g: x["model"] for g, x in c["groups"].items()}
        for g, x in c["groups"].items():
            for k, v in (("actual", actual), ("naive", naive)):
                if abs(x[k] - v.get(g, 0.0)) > 1e-6 * max(1.0, x[k]):
                    fail("cut %s group %s: %s %.9f, python %.9f" % (c["cut"], g, k, x[k],
                                                                   v.get(g, 0.0)))
        w_n, w_m = wape(naive, actual), wape(model, actual)
        last3 = mean_use(jobs, max(add_months(cut, -3), first_month), cut)
        w_3 = wape(last3, actual)
        if abs(w_n - c["wape_naive"]) > 1e-9 or abs(w_m - c["wape_model"]) > 1e-9:
            fail("cut %s: WAPE naive %.6f / forecast %.6f, python %.6f / %.6f" %
                 (c["cut"], c["wape_naive"], c["wape_model"], w_n, w_m))
        if abs(w_3 - c["wape_by_forecaster"]["last3"]) > 1e-9:
            fail("cut %s: WAPE last 3 months %.6f, python %.6f" %
                 (c["cut"], c["wape_by_forecaster"]["last3"], w_3))
        a = sum(actual.values())
        e_n = (sum(naive.values()) - a) / a
        e_m = (c["model"] - a) / a
        wm.append(w_m); wn.append(w_n); w3.append(w_3); em.append(abs(e_m)); en.append(abs(e_n))
        print("cut %s (%s): per-group WAPE forecast %.1f %%, naive %.1f %%, last 3 months %.1f %%; "
              "total error forecast %+.1f %%, naive (groups alone) %+.1f %%" %
              (c["cut"], c["forecaster"], 100 * w_m, 100 * w_n, 100 * w_3, 100 * e_m, 100 * e_n))
    n = len(bt["cuts"])
    if n == 0:
        fail("no cut")
    mw_m, mw_n, mw_3 = sum(wm) / n, sum(wn) / n, sum(w3) / n
    me_m, me_n = sum(em) / n, sum(en) / n
    print("rolling %s: %d cuts, each as `project --as-of` said it; mean per-group WAPE forecast "
          "%.1f %%, naive %.1f %%, last 3 months %.1f %%; institute total mean |error| forecast "
          "%.1f %%, naive %.1f %%" % (swf.split("/")[-1], n, 100 * mw_m, 100 * mw_n, 100 * mw_3,
                                      100 * me_m, 100 * me_n))
    # what must hold: the forecaster users get is no worse than naive per group
    if mw_m > mw_n:
        fail("per-group WAPE of the forecast %.1f %% above naive's %.1f %%" %
             (100 * mw_m, 100 * mw_n))
    # issue 28's targets, reported as measured (not tuned to pass)
    best = min(mw_n, mw_3)
    print("issue 28 target, per-group WAPE 3 points below the better of naive and last 3 "
          "months (%.1f %%): %s (%.1f points below)" %
          (100 * best, "met" if mw_m <= best - 0.03 else "NOT MET", 100 * (best - mw_m)))
    print("issue 28 target, institute total mean |error| at most 30 %%: %s (%.1f %%)" %
          ("met" if me_m <= 0.30 else "NOT MET", 100 * me_m))
    # asserted: the per-group target (met since the level cap, issue 28; the
    # total's is printed, not met: OSC's use tripled in 2001, unseen in 2000)
    if mw_m > best - 0.03:
        fail("per-group WAPE %.1f %% not 3 points below %.1f %%" % (100 * mw_m, 100 * best))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "kmeans":
        check_kmeans(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) == 4 and sys.argv[1] == "rolling":
        check_rolling(sys.argv[2], sys.argv[3])
    else:
        print(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()
