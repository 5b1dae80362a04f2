#!/usr/bin/env python3
"""The baseline for `capplan profile` + `capplan project` in make bench: the
same work done the way a planning team would script it, with pandas and
scikit-learn, reading capplan's own database (so the input is identical).

Per user, over the 12 months before the latest counted start (final
attempts holding GPUs, 5 minutes or more): GPU-hour-weighted p90 of GPUs per
job, peak GPU memory, mean and max duration, GPU-hours a month, mean and
peak concurrent GPUs; log1p, standardised; k-means (k-means++, 10 restarts)
for k = 2..8, k chosen by silhouette (sampled at 4000); then a projection
per group: heads x the profile's 75th percentile of mean concurrency.

usage: baseline_plan.py DB   (prints k, silhouette, inertia, total demand)
"""
import sqlite3
import sys

import numpy as np
import pandas as pd
from sklearn.cluster import KMeans
from sklearn.metrics import silhouette_score


def load(db):
    con = sqlite3.connect(db)
    jobs = pd.read_sql_query(
        "SELECT user_id, account_id, start, elapsed, gpus, gpu_mem_gib FROM jobs "
        "WHERE final = 1 AND gpus > 0 AND elapsed >= 300 AND start IS NOT NULL", con)
    con.close()
    last = jobs["start"].max()
    return jobs[jobs["start"] >= last - 365 * 86400].copy(), last


def weighted_p90(g):
    g = g.sort_values("gpus")
    w = (g["gpus"] * g["elapsed"]).cumsum()
    return g["gpus"].iloc[int(np.searchsorted(w.values, 0.9 * w.iloc[-1]))]


def peak_concurrency(g):
    ev = pd.concat([pd.DataFrame({"t": g["start"], "d": g["gpus"]}),
                    pd.DataFrame({"t": g["start"] + g["elapsed"], "d": -g["gpus"]})])
    ev = ev.sort_values(["t", "d"])
    return ev["d"].cumsum().max()


def features(jobs, last):
    jobs["gh"] = jobs["gpus"] * jobs["elapsed"] / 3600.0
    by = jobs.groupby("user_id")
    f = pd.DataFrame({
        "jobs": by.size(),
        "gpus_p90": by.apply(weighted_p90),
        "mem_gib": by["gpu_mem_gib"].max(),
        "dur_mean_h": by["elapsed"].mean() / 3600.0,
        "dur_max_h": by["elapsed"].max() / 3600.0,
        "gpu_hours": by["gh"].sum(),
        "first": by["start"].min(),
        "conc_peak": by.apply(peak_concurrency),
        "account": by["account_id"].agg(lambda s: s.mode().iloc[0]),
    })
    span_h = np.maximum(last - f["first"], 30 * 86400) / 3600.0
    f["gpu_hours_month"] = f["gpu_hours"] / 12.0
    f["conc_mean"] = f["gpu_hours"] / span_h
    f["mem_gib"] = f["mem_gib"].fillna(f["mem_gib"].median()).fillna(0)
    return f[f["jobs"] >= 3]


def main():
    jobs, last = load(sys.argv[1])
    f = features(jobs, last)
    cols = ["gpus_p90", "mem_gib", "dur_mean_h", "dur_max_h", "gpu_hours_month",
            "conc_mean", "conc_peak"]
    x = np.log1p(f[cols].to_numpy(dtype=float))
    sd = x.std(axis=0)
    z = (x - x.mean(axis=0)) / np.where(sd > 0, sd, 1)
    best = None
    for k in range(2, min(8, len(z) - 1) + 1):
        km = KMeans(n_clusters=k, n_init=10, random_state=0).fit(z)
        s = silhouette_score(z, km.labels_, sample_size=min(4000, len(z)), random_state=0)
        if best is None or s > best[0]:
            best = (s, k, km)
    s, k, km = best
    f["profile"] = km.labels_
    b = f.groupby("profile")["conc_mean"].quantile(0.75)
    demand = f.groupby("account")["profile"].apply(lambda p: b[p].sum()).sum()
    print("k=%d silhouette=%.3f inertia=%.1f users=%d demand=%.1f GPUs"
          % (k, s, km.inertia_, len(f), demand))


if __name__ == "__main__":
    main()
