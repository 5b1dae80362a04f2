#!/usr/bin/env python3
"""Checks of issue 28 (the forecast, judged honestly), used by
tests/e2e/forecast_osc.sh and forecast_demo.sh. Every figure is read from
capplan's JSON and recomputed or compared here; nothing is pinned.

  forecast_check.py doors BACKTEST.json CUT ASOF.json CUTDB.json
      The backtest's cut CUT, `project --as-of CUT --json` on the full
      database and `project --json` on a database holding only what was
      known at CUT give the same forecaster and the same figures, to 1e-9
      relative (the same code on the same inputs; the cut database's
      present is the first of the month after its last day with a job
      start, the cut itself).

  forecast_check.py demo BACKTEST.json PROJECT.json [--all]
      The demo's acceptance, as measured: per-group WAPE of the forecaster
      chosen at each cut against naive's (at most 0.8 x), coverage of the
      institute total and of the groups (weighted by use) by the p10-p90
      taken from earlier cuts (70-90 %, 65-90 %), today's need inside its
      range, no group's year-1 need above 3 x its last 12 months (named
      arrivals or an edited pool aside). Fails when the record's figures do
      not add up (recomputed from the cuts), the chosen forecaster is worse
      than naive per group, or a target but the WAPE ratio is not met (that
      one only with --all: the full demo meets it, the 20,000-job one not,
      docs/planning.md); prints each target. A group whose need is above 3 x
      only by its stated need (the part `stated`) is named, not counted.

  forecast_check.py stated DB PROJECT.json
      Stated needs feed the projection (issue 28): the stated needs in
      PROJECT.json are, per group, the latest with a GPU figure of each
      (user, group) in DB's stated_needs dated before the projection's t0;
      each one's part of year 1's need is max(0, GPUs x share present -
      expected use) (all of it without use); a group's `stated` is their
      sum, its need expected use + pool + buffer + stated, the institute's
      stated the groups' sum. With none known (an as-of before them): all 0.

  forecast_check.py oracle BACKTEST.json
      How far the institute total can get (OSC, issue 28): at each cut the
      actual, the candidate nearest it in hindsight, the most optimistic
      candidate's error; the mean |error| of the hindsight best, of the best
      fixed candidate, and of the forecaster users got. Prints only.

  forecast_check.py loo OSC.json DEMO.json [DEMO2.json ...]
      The default out of sample (docs/planning.md): the rule that chose it
      (the best worst case of per-group WAPE / naive's at the cuts where the
      default applies, every candidate fc_choose may pick) run on the demos
      alone, and what its choice scores on OSC. Prints only.
"""
import sqlite3
import json
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def close(a, b, rel, absol=1e-9):
    return abs(a - b) <= max(absol, rel * max(abs(a), abs(b)))


def doors(bt_path, cut, asof_path, cutdb_path):
    bt = json.load(open(bt_path))
    asof = json.load(open(asof_path))
    cutdb = json.load(open(cutdb_path))
    c = [x for x in bt["cuts"] if x["cut"] == cut]
    if not c:
        fail("no backtest cut %s" % cut)
    c = c[0]
    fa, fc = asof["forecaster"], cutdb["forecaster"]
    if fa["key"] != c["forecaster"] or fc["key"] != c["forecaster"]:
        fail("cut %s: forecaster backtest %s, as-of %s, cut database %s" %
             (cut, c["forecaster"], fa["key"], fc["key"]))
    if not close(fa["expected_total"], c["model"], 1e-9):
        fail("cut %s: total backtest %.9f, as-of %.9f" % (cut, c["model"], fa["expected_total"]))
    if not close(fc["expected_total"], c["model"], 1e-9):
        fail("cut %s: total backtest %.6f, cut database %.6f" %
             (cut, c["model"], fc["expected_total"]))
    # the institute's year-1 expected use in the projection is the forecaster's
    y1 = asof["total"][0]["expected_use"]
    if not close(y1, fa["expected_total"], 1e-6):
        fail("cut %s: projection's expected use %.6f, forecaster's %.6f" %
             (cut, y1, fa["expected_total"]))
    worst = 0.0
    for g, x in c["groups"].items():
        a = fa["expected_use"].get(g, 0.0)
        b = fc["expected_use"].get(g, 0.0)
        if not close(a, x["model"], 1e-9):
            fail("cut %s group %s: backtest %.9f, as-of %.9f" % (cut, g, x["model"], a))
        if not close(b, x["model"], 1e-9):
            fail("cut %s group %s: backtest %.6f, cut database %.6f" % (cut, g, x["model"], b))
        if x["model"] > 0:
            worst = max(worst, abs(b - x["model"]) / x["model"])
    print("cut %s: forecaster %s; total %.4f (backtest) = %.4f (as-of) ~ %.4f (database cut "
          "at %s); %d groups, largest difference of the cut database %.3f %%" %
          (cut, c["forecaster"], c["model"], fa["expected_total"], fc["expected_total"], cut,
           len(c["groups"]), 100 * worst))


def demo(bt_path, proj_path, every=""):
    bt = json.load(open(bt_path))
    proj = json.load(open(proj_path))
    cuts = [c for c in bt["cuts"] if not c["set_apart"]]
    if len(cuts) < 3:
        fail("fewer than 3 cuts")
    # the record of the chosen forecaster, recomputed from the cuts
    wf = sum(c["wape_model"] for c in cuts) / len(cuts)
    wn = sum(c["wape_naive"] for c in cuts) / len(cuts)
    chosen = [f for f in bt["forecasters"] if f["key"] == "chosen"][0]
    if not close(chosen["wape"], wf, 1e-9) or chosen["cuts"] != len(cuts):
        fail("chosen record %.6f over %d cuts, cuts say %.6f over %d" %
             (chosen["wape"], chosen["cuts"], wf, len(cuts)))
    for c in cuts:
        if not close(c["wape_by_forecaster"]["naive"], c["wape_naive"], 1e-12):
            fail("cut %s: naive WAPE differs" % c["cut"])
    cal = [c for c in cuts if c["range"] is not None]
    held = sum(1 for c in cal if c["range"]["p10"] <= c["actual"] <= c["range"]["p90"])
    if held != sum(1 for c in cal if c["covered"]):
        fail("coverage: %d cuts inside their range, capplan says %d" %
             (held, sum(1 for c in cal if c["covered"])))
    cov = held / len(cal) if cal else 0.0
    gcov = sum(c["groups_covered"] for c in cal) / len(cal) if cal else 0.0
    print("demo: %d cuts (%d set apart: capacity changed > 25 %% in the year after); per-group "
          "WAPE chosen %.1f %%, naive %.1f %% (ratio %.2f); institute total inside p10-p90 at "
          "%d of %d cuts (%.0f %%); groups %.0f %% of their use" %
          (len(cuts), len(bt["cuts"]) - len(cuts), 100 * wf, 100 * wn, wf / wn, held, len(cal),
           100 * cov, 100 * gcov))
    if wf > wn:
        fail("the chosen forecaster's per-group WAPE %.1f %% is above naive's %.1f %%" %
             (100 * wf, 100 * wn))
    t = proj["total"][0]
    rg = t["need_range"]
    inside = rg is not None and rg["p10"] <= t["need"] <= rg["p90"]
    if rg is not None and not inside:
        fail("today's need %.3f outside its range %.3f-%.3f" % (t["need"], rg["p10"], rg["p90"]))
    print("today: %s; need %.2f, range %s" %
          (proj["forecaster"]["text"], t["need"],
           "%.2f-%.2f" % (rg["p10"], rg["p90"]) if rg else "not calibrated"))
    # no group's year-1 need above 3 x its last 12 months unless named
    # arrivals or an edited pool (a stated need) say why; the forecaster's
    # 12 full months end at the month's start, used_last_12_months today:
    # 2 % apart at most
    worst, over = 0.0, []
    for g in proj["groups"]:
        y, u = g["years"][0], g["used_last_12_months"]
        if u <= 0 or y["arrivals"] > 0 or g["params"]["pool"]["edited"]:
            continue
        if y["need"] > 3 * u * 1.02 and y["need"] - y["stated"] <= 3 * u * 1.02:
            print("  %s: need %.2f = %.2f x its last 12 months, %.2f of it stated (--explain "
                  "names it)" % (g["name"], y["need"], y["need"] / u, y["stated"]))
        worst = max(worst, (y["need"] - y["stated"]) / u)
        if y["need"] - y["stated"] > 3 * u * 1.02:
            over.append("%s %.2f x" % (g["name"], y["need"] / u))
    print("year-1 need / last 12 months' use: at most %.3f x over %d groups; %d capped" %
          (worst, len(proj["groups"]),
           sum(1 for g in proj["groups"] if g["years"][0]["pool_cut"] > 0)))
    targets = (
        ("per-group WAPE at most 0.8 x naive's", wf <= 0.8 * wn, "%.2f x" % (wf / wn),
         every == "--all"),
        ("institute coverage 70-90 %", 0.7 <= cov <= 0.9, "%.0f %%" % (100 * cov), 1),
        ("groups' coverage 65-90 %", 0.65 <= gcov <= 0.9, "%.0f %%" % (100 * gcov), 1),
        ("no group's need above 3 x its last 12 months", not over, ", ".join(over) or
         "%.3f x at most" % worst, 1))
    for name, ok, fig, asserted in targets:
        print("issue 28 target, %s: %s (%s)" % (name, "met" if ok else "NOT MET", fig))
    for name, ok, fig, asserted in targets:
        if asserted and not ok:
            fail("issue 28 target %s: %s" % (name, fig))


def stated(db, proj_path):
    proj = json.load(open(proj_path))
    t0 = proj["t0"][:10]
    con = sqlite3.connect(db)
    rows = con.execute("SELECT user, group_name, date, gpus_fulltime FROM stated_needs "
                       "WHERE gpus_fulltime IS NOT NULL AND date < ? ORDER BY date", (t0,))
    latest = {}
    for u, g, d, x in rows:
        latest[(u, g)] = (d, x)  # a later date replaces an earlier one
    groups = {g["name"]: g for g in proj["groups"]}
    want = {k: v for k, v in latest.items() if k[1] in groups}
    got, tot = {}, 0.0
    for name, g in groups.items():
        y = g["years"][0]
        s = 0.0
        for x in g["stated_needs"]:
            got[(x["user"], name)] = (x["date"], x["gpus_fulltime"])
            part = max(0.0, x["gpus_fulltime"] * x["present_share"] - x["expected_use"])
            if not x["measured_member"]:
                part = x["gpus_fulltime"]
            if not close(part, x["part"], 1e-9):
                fail("%s %s: part %.6f, recomputed %.6f" % (name, x["user"], x["part"], part))
            s += part
        if not close(s, y["stated"], 1e-9):
            fail("%s: stated %.6f, its members' parts %.6f" % (name, y["stated"], s))
        parts = y["expected_use"] + y["pool"] + y["buffer"] + y["stated"]
        if not close(parts, y["need"], 1e-9):
            fail("%s: need %.6f, parts %.6f" % (name, y["need"], parts))
        tot += y["stated"]
    if got != want:
        fail("stated needs: the projection has %s, the database %s" % (sorted(got), sorted(want)))
    if not close(tot, proj["total"][0]["stated"], 1e-9):
        fail("institute stated %.6f, groups' %.6f" % (proj["total"][0]["stated"], tot))
    n = sum(1 for g in groups.values() if g["years"][0]["stated"] > 0)
    print("stated needs at %s: %d known, %.2f of year 1's need beyond expected use in %d groups "
          "(institute need %.2f)" % (t0, len(want), tot, n, proj["total"][0]["need"]))


def oracle(bt_path):
    bt = json.load(open(bt_path))
    cuts = [c for c in bt["cuts"] if not c["set_apart"]]
    s_best = s_user = 0.0
    for c in cuts:
        e = c["total_error_by_forecaster"]
        k = min(e, key=lambda x: abs(e[x]))
        hi = max(e.values())
        s_best += abs(e[k])
        s_user += abs(c["err_model"])
        print("cut %s: actual %.1f, naive %.1f; nearest in hindsight %s %+.1f %%; most optimistic "
              "of %d candidates %+.1f %%; users got %s %+.1f %%" %
              (c["cut"], c["actual"], c["naive"], k, 100 * e[k], len(e), 100 * hi,
               c["forecaster"], 100 * c["err_model"]))
    fixed = [f for f in bt["forecasters"] if f["key"] != "chosen"]
    bf = min(fixed, key=lambda f: f["abs_total_error"])
    within = [f["key"] for f in fixed if f["abs_total_error"] <= 0.30]
    print("institute total, mean |error| over %d cuts: users got %.1f %%; the best fixed "
          "candidate in hindsight %s %.1f %%; the nearest candidate at each cut in hindsight "
          "%.1f %%; candidates within 30 %%: %s" %
          (len(cuts), 100 * s_user / len(cuts), bf["key"], 100 * bf["abs_total_error"],
           100 * s_best / len(cuts), ", ".join(within) or "none"))


def loo(paths):
    logs = [json.load(open(x)) for x in paths]
    ratio = []
    for d in logs:
        cs = [c for c in d["cuts"] if not c["set_apart"] and c["record_cuts"] < 3]
        nv = sum(c["wape_by_forecaster"]["naive"] for c in cs)
        ks = [k for k in cs[0]["wape_by_forecaster"]
              if not k.startswith("damped") and not k.startswith("comb")]
        ratio.append({k: sum(c["wape_by_forecaster"][k] for c in cs) / nv for k in ks})
    for train in ([0] + list(range(1, len(logs))), list(range(1, len(logs)))):
        keys = [k for k in ratio[0] if all(k in ratio[i] for i in train)]
        best = min(keys, key=lambda k: max(ratio[i][k] for i in train))
        f = {x["key"]: x for x in logs[0]["forecasters"]}
        print("default chosen on %s: %s; on %s: %.3f x naive, per-group WAPE %.1f %% (naive "
              "%.1f %%, last 3 months %.1f %%)" %
              (" + ".join(paths[i] for i in train), best, paths[0], ratio[0][best],
               100 * f[best]["wape"], 100 * f["naive"]["wape"], 100 * f["last3"]["wape"]))


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "doors":
        doors(*sys.argv[2:])
    elif len(sys.argv) in (4, 5) and sys.argv[1] == "demo":
        demo(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "stated":
        stated(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "oracle":
        oracle(sys.argv[2])
    elif len(sys.argv) >= 4 and sys.argv[1] == "loo":
        loo(sys.argv[2:])
    else:
        print(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()
