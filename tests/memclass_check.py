#!/usr/bin/env python3
"""Memory classes nest (issue 33), checked apart from capplan's C.

A job of a small GPU-memory class runs on any GPU with at least its memory,
so a class is short only when no bigger class has room left to serve it.

  memclass_check.py alerts PROJECT.json SCREEN [N]
      From `capplan project --json` (its first projected year): the nested
      gap of each class, recomputed here from need_by_class and
      capacity_by_class (the room of the bigger classes serves the smaller
      classes' shortfall, the biggest short class first, from the nearest
      bigger class with room) and compared with the JSON's
      gap_by_class_nested; then the dashboard Overview's "<=K GiB class
      short next year" alerts in SCREEN (a tmux capture, UTF-8 or ASCII)
      must be exactly the classes whose nested gap is over 0.5 GPU-eq, each
      with that gap as the Overview prints it (tui/fmt.c fmt_gpus). With N,
      exactly N such alerts must be shown (a test that cannot pass empty).

  memclass_check.py csv PROJECT.json PROJECT.csv
      `capplan project --csv`'s institute rows (kind total): gap_K_gpu_eq of
      each class and year equals the nested gap recomputed from the JSON.

nested(total) is imported by other checks (tests/e2e/tui_usage.sh).
Exit 0 and one line per alert on success; 1 with the reason otherwise.
"""
import csv
import json
import re
import sys

CLASSES = ['24', '48', '80', '80+']


def nested(t):
    """Nested gap per class of one `project --json` total (unknown unnested)."""
    room = [t['capacity_by_class'][c] - t['need_by_class'][c] for c in CLASSES]
    for k in (2, 1, 0):
        for j in range(k + 1, 4):
            take = min(max(-room[k], 0), max(room[j], 0))
            room[k] += take
            room[j] -= take
    for k in range(4):
        # never short while a bigger class has room left
        assert room[k] >= -1e-9 or all(x <= 1e-9 for x in room[k + 1:]), room
    g = dict(zip(CLASSES, [-x for x in room]))
    g['unknown'] = t['gap_by_class']['unknown']
    return g


def gpus(v):
    """tui/fmt.c fmt_gpus."""
    a = abs(v)
    return ('0' if a == 0 else '%.2f' % v if a < 0.995 else '%.1f' % v if a < 9.95
            else '%.0f' % v if a < 999.5 else '%.1fk' % (v / 1e3) if a < 9950
            else '%.0fk' % (v / 1e3))


def screen_alerts(screen):
    """[(class, value)] of the Overview's class alerts, top to bottom."""
    out = []
    for m in re.finditer(r'^!+ +(\u2264|<=|>)(\d+) GiB class short next year, in GPU-eq +(\S+)',
                         screen, re.M):
        out.append((m.group(2) + ('+' if m.group(1) == '>' else ''), m.group(3)))
    return out


def check_alerts(proj, screen, want_n=None):
    t = proj['total'][0]
    g = nested(t)
    js = t['gap_by_class_nested']
    for c in CLASSES + ['unknown']:
        if abs(g[c] - js[c]) > 1e-9:
            return 'class %s: nested here %.6f, project --json %.6f' % (c, g[c], js[c])
    want = sorted((c, gpus(g[c])) for c in CLASSES if g[c] > 0.5)
    got = sorted(screen_alerts(screen))
    if got != want:
        return 'Overview alerts %s, project --json nested gaps say %s (unnested %s)' % (
            got, want, {c: round(t['gap_by_class'][c], 2) for c in CLASSES})
    if want_n is not None and len(got) != want_n:
        return '%d class alerts, the test wants %d' % (len(got), want_n)
    for c, v in got:
        print('PASS-ALERT <=%s GiB short %s GPU-eq (nested; unnested %.1f)' % (
            c, v, t['gap_by_class'][c]))
    for c in CLASSES:
        if g[c] <= 0.5 and t['gap_by_class'][c] > 0.5:
            print('PASS-NESTED <=%s GiB: unnested short %.1f, served by bigger classes: no alert'
                  % (c, t['gap_by_class'][c]))
    return None


def check_csv(proj, path):
    cols = {'24': 'gap_24_gpu_eq', '48': 'gap_48_gpu_eq', '80': 'gap_80_gpu_eq',
            '80+': 'gap_80plus_gpu_eq', 'unknown': 'gap_unknown_gpu_eq'}
    rows = [r for r in csv.DictReader(open(path)) if r['kind'] == 'total']
    if len(rows) != len(proj['total']):
        return '%d total rows in the CSV, %d years in the JSON' % (len(rows), len(proj['total']))
    for r, t in zip(rows, proj['total']):
        g = nested(t)
        for c, col in cols.items():
            if abs(float(r[col]) - g[c]) > 1e-4 * max(1.0, abs(g[c])):
                return 'year %s class %s: CSV %s, nested %.6f' % (r['year'], c, r[col], g[c])
        print('PASS-CSV year %s gaps %s' % (r['year'], ' '.join(r[cols[c]] for c in CLASSES)))
    return None


def main(argv):
    if len(argv) < 4 or argv[1] not in ('alerts', 'csv'):
        print(__doc__)
        return 1
    proj = json.load(open(argv[2]))
    if argv[1] == 'csv':
        why = check_csv(proj, argv[3])
    else:
        screen = open(argv[3], encoding='utf-8').read()
        why = check_alerts(proj, screen, int(argv[4]) if len(argv) > 4 else None)
    if why:
        print('MISMATCH:', why)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
