#!/usr/bin/env python3
"""tests/anon_leaks.py DB FILE...: print every name of the database found in
the files (whole tokens, ASCII case ignored, names of 3 bytes or more), one
"FILE: NAME" line each; exit 1 when any. The names are read here with
sqlite3, independently of capplan's own list (data/store/store_anon.c).

tests/anon_leaks.py --order DB FILE...: play the attacker who holds the
roster but not the key (#29). For every anonymised table (a CSV file, or a
Markdown table of report.md; a workbook's shared strings) whose rows are
named by pseudonyms, the
attacker lists the real names of the table's kind in alphabetical order
(ascending, then descending) and matches them to the pseudonyms in the
order the rows first show them. The key (read here from the database, to
score the attack) says how many guesses are right; a table where the
attacker gets 8 names and a third of them right is a leak: "FILE: table
N: K of M names recovered". Exit 1 when any. SVG charts and HTML are read
as one table: the pseudonyms in document order, and so are captured
dashboard screens (FILE.screen, tests/e2e/tui_anon_order.sh: the
Groups view, a group's members). Only the first column
named by pseudonyms is scored (it names the rows), and only with 8 names
or more: a random order gives 8 right guesses with a chance near 1e-5 (the
fixed points of a random permutation are close to Poisson(1)), so the
test does not fail by chance. On captured screens (FILE.screen) the
attacker also counts the adjacent rows in the roster's order: ties broken
by the real names (members with no GPU-hours, groups of one domain) show
as runs a random order makes with a chance under 1e-4 (the screens'
test fixes the key, so that it does not fail by chance either). The
roster's order is both the real names' (alphabetical) and the roster
file's own line order, which the attacker holds too (a list in the order
the planner read the people: the Projection view's members before #29)."""
import csv
import hashlib
import hmac
import io
import math
import re
import sqlite3
import sys
import zipfile

QUERIES = [
    "SELECT name FROM users", "SELECT user FROM people", "SELECT supervisor FROM people",
    "SELECT name FROM groups", "SELECT professor FROM groups", "SELECT group_name FROM people",
    "SELECT name FROM accounts", "SELECT user FROM notes", "SELECT user FROM stated_needs",
    "SELECT who FROM scenarios", "SELECT who FROM scenario_edits", "SELECT who FROM profile_names",
    "SELECT attendees FROM meetings", "SELECT authors FROM pubs", "SELECT group_name FROM pubs",
    "SELECT name FROM people", "SELECT aliases FROM people",
]
# full names: each capitalised word of 4 letters or more is a name too (a
# surname alone, a first name alone: #29)
WORDS = ["SELECT name FROM people", "SELECT professor FROM groups"]


def names(db):
    out = set()
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    for q in QUERIES:
        try:
            rows = con.execute(q).fetchall()
        except sqlite3.Error:
            continue
        for (v,) in rows:
            if not v:
                continue
            for part in re.split(r"[,;]| and ", v):
                part = part.strip()
                if len(part) >= 3 and part != "all":
                    out.add(part)
                if q in WORDS:
                    out.update(w for w in part.split() if len(w) >= 4 and w[0].isupper())
    return out


def read_text(path):
    """A file's text; a workbook's is every XML part of it (sheets, shared
    strings, document properties), unzipped."""
    if path.endswith(".xlsx"):
        z = zipfile.ZipFile(path)
        return "\n".join(z.read(n).decode("utf-8") for n in z.namelist() if n.endswith(".xml"))
    return open(path, "rb").read().decode("utf-8", "replace")


def main():
    db, files = sys.argv[1], sys.argv[2:]
    found = 0
    pats = [(n, re.compile(r"(?<![A-Za-z0-9_\x80-\xff])" + re.escape(n.encode()).decode("latin-1")
                           + r"(?![A-Za-z0-9_\x80-\xff])", re.I)) for n in sorted(names(db))]
    for f in files:
        text = read_text(f).encode("utf-8").decode("latin-1")
        for n, p in pats:
            if p.search(text):
                print("%s: %s" % (f, n))
                found += 1
    print("%d names checked in %d files, %d found" % (len(pats), len(files), found),
          file=sys.stderr)
    sys.exit(1 if found else 0)



DIGITS = "abcdefghijkmnpqrstuvwxyz23456789"
PSEUDO = re.compile(r"^(group|user|prof|person|account)-[a-z2-9]{6}$")
KINDS = {
    "group": ["SELECT name FROM groups", "SELECT name FROM accounts", "SELECT group_name FROM people"],
    "user": ["SELECT name FROM users", "SELECT user FROM people"],
    "prof": ["SELECT professor FROM groups"],
}


def pseudonym(key, kind, name):
    mac = hmac.new(key, kind.encode() + b"\0" + name.encode(), hashlib.sha256).digest()
    h = int.from_bytes(mac[:8], "big")
    code = ""
    for _ in range(6):
        code += DIGITS[h & 31]
        h >>= 5
    return "%s-%s" % (kind, code)


def real_names(db):
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    key = con.execute("SELECT value FROM site_meta WHERE key = 'anon_key'").fetchone()[0]
    back = {}
    for kind, queries in KINDS.items():
        for q in queries:
            try:
                rows = con.execute(q).fetchall()
            except sqlite3.Error:
                continue
            for (v,) in rows:
                if v:
                    back[pseudonym(key, kind, v)] = v
    return back


def roster_lines(db):
    """Each user's and group's rank in the roster file's line order (the
    people table's ids: one row a line, imported in the file's order)."""
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    rank = {}
    try:
        rows = con.execute("SELECT user, group_name FROM people ORDER BY id").fetchall()
    except sqlite3.Error:
        rows = []
    for user, group in rows:
        for v in (user, group):
            if v and v not in rank:
                rank[v] = len(rank)
    return rank


def screen_lists(text, blank=None):
    """Each list in prose of a captured screen, as a table of its own: the
    Projection view's "members (N): ..." and "leaving (N): ..." (#29), the
    names after the colon and on the lines below that go on at its column
    (a panel beside other text). When blank is a list (the screen's lines),
    each list's text is blanked in it: what is left is the screen's rows."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = re.search(r"(members|leaving) \(\d+\):", line)
        if not m:
            continue
        col = m.start()
        names = re.findall(r"(?:group|user|prof)-[a-z2-9]{6}", line[m.end():])
        if blank is not None:
            blank[i] = blank[i][:col]
        for j in range(i + 1, len(lines)):
            part = lines[j][col:]
            if not re.match(r"^ {2,}(?:group|user|prof)-[a-z2-9]{6}", part):
                break
            names += re.findall(r"(?:group|user|prof)-[a-z2-9]{6}", part)
            if blank is not None:
                blank[j] = blank[j][:col]
        yield [[n] for n in names]


def tables(path):
    text = read_text(path)
    if path.endswith(".xlsx"):  # the shared strings, in the order the rows wrote them
        z = zipfile.ZipFile(path)
        text = z.read("xl/sharedStrings.xml").decode("utf-8") if "xl/sharedStrings.xml" in z.namelist() else ""
    if path.endswith(".screen"):
        # each prose list on its own, then the rest (the rows) in screen
        # order: one group's members, contiguous in the roster file, listed
        # before the institute's would otherwise read as the file's order
        rows = text.split("\n")
        yield from list(screen_lists(text, rows))
        yield [[m] for m in re.findall(r"(?:group|user|prof)-[a-z2-9]{6}", "\n".join(rows))]
        return
    if path.endswith((".svg", ".html", ".xlsx")):  # the names in document order
        yield [[m] for m in re.findall(r"(?:group|user|prof)-[a-z2-9]{6}", text)]
        return
    if path.endswith(".csv"):
        yield list(csv.reader(io.StringIO(text)))[1:]
        return
    lines = text.split("\n")
    i = 0
    while i + 1 < len(lines):
        if lines[i].startswith("|") and re.match(r"^\|[-:| ]+\|?$", lines[i + 1]):
            rows, i = [], i + 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append([c.strip() for c in re.split(r"(?<!\\)\|", lines[i].strip("|"))])
                i += 1
            yield rows
        else:
            i += 1


def eulerian_tail(n, a):
    """The chance that a random order of n rows has a or more adjacent
    pairs in ascending order (Eulerian numbers, exact)."""
    row = [1]  # A(1, 0)
    for m in range(2, n + 1):
        row = [(k + 1) * (row[k] if k < len(row) else 0) + (m - k) * (row[k - 1] if k >= 1 else 0)
               for k in range(m)]
    total = sum(row)
    return sum(row[a:]) / total if a < len(row) else 0.0


def mahonian_head(n, k):
    """The chance that a random order of n rows has k or fewer inversions
    (Mahonian numbers, exact): rows almost in the roster's order."""
    row = [1]
    for m in range(2, n + 1):
        new = [0] * (len(row) + m - 1)
        for i, v in enumerate(row):
            for j in range(m):
                new[i + j] += v
        row = new
    return sum(row[:k + 1]) / sum(row)


def runs_leak(names, keys=None):
    """Rows whose ties are broken by the real names (a screen listing the
    members with no GPU-hours alphabetically) escape the positional match:
    count the adjacent rows in the roster's order (ascending, and
    descending), and the longest run of consecutive rows in that order; a
    count or a run a random order reaches with a chance under 1e-4 is a
    leak (a run of L among n rows: at most 2 (n - L + 1) / L!); and the
    pairs of rows out of the roster's order (inversions: rows in it save a
    few swaps). Returns
    (what, chance) when it leaks, else None."""
    n = len(names)
    keys = keys if keys is not None else [x.lower() for x in names]
    for sign in (1, -1):
        pairs = sum(1 for a, b in zip(keys, keys[1:]) if (a > b) - (a < b) == -sign)
        chance = eulerian_tail(n, pairs)
        if chance < 1e-4:
            return "%d of %d adjacent rows" % (pairs, n - 1), chance
        run = best = 1
        for a, b in zip(keys, keys[1:]):
            run = run + 1 if (a > b) - (a < b) == -sign else 1
            best = max(best, run)
        chance = min(1.0, 2.0 * (n - best + 1) / math.factorial(best))
        if chance < 1e-4:
            return "a run of %d consecutive rows" % best, chance
        inv = sum(1 for i in range(n) for j in range(i + 1, n)
                  if (keys[i] > keys[j]) - (keys[i] < keys[j]) == sign)
        chance = mahonian_head(n, inv) if n <= 400 else 1.0
        if chance < 1e-4:
            return "%d of %d pairs out of order only" % (inv, n * (n - 1) // 2), chance
    return None


def order_main():
    back = real_names(sys.argv[2])
    lines = roster_lines(sys.argv[2])
    leaks = scored = 0
    for path in sys.argv[3:]:
        for t, rows in enumerate(tables(path)):
            cols = max((len(r) for r in rows), default=0)
            for c in range(cols):
                seen = []
                for r in rows:
                    if c < len(r) and PSEUDO.match(r[c]) and r[c] not in seen:
                        seen.append(r[c])
                if not seen:
                    continue
                for kind in KINDS:
                    names = [back[p] for p in seen if p in back and p.startswith(kind + "-")]
                    if len(names) < 8:
                        continue
                    scored += 1
                    for guess in (sorted(names), sorted(names, reverse=True),
                                  sorted(names, key=str.lower),
                                  sorted(names, key=str.lower, reverse=True)):
                        right = sum(1 for a, b in zip(guess, names) if a == b)
                        if right >= max(8, len(names) / 3):
                            print("%s: table %d column %d: %d of %d %s names recovered by "
                                  "sorting the roster" % (path, t + 1, c + 1, right, len(names), kind))
                            leaks += 1
                            break
                    else:
                        hit = runs_leak(names) if path.endswith(".screen") else None
                        ranked = [lines[x] for x in names if x in lines]
                        in_file = (runs_leak(ranked, ranked) if path.endswith(".screen")
                                   and len(ranked) >= 8 else None)
                        if hit:
                            print("%s: %s of %s names in the roster's order (chance %.1g)"
                                  % (path, hit[0], kind, hit[1]))
                            leaks += 1
                        elif in_file:
                            print("%s: %s of %s names in the roster file's line order "
                                  "(chance %.1g)" % (path, in_file[0], kind, in_file[1]))
                            leaks += 1
                break  # the first column named by pseudonyms names the rows
    print("%d tables scored, %d leak" % (scored, leaks), file=sys.stderr)
    sys.exit(1 if leaks or scored == 0 else 0)


def roster_order_main():
    """--roster-order DB FILE: the file's pseudonyms listed in the order of
    their real names, the order a leaking screen shows (the test's control)."""
    back = real_names(sys.argv[2])
    seen = sorted(set(re.findall(r"(?:group|user|prof)-[a-z2-9]{6}", read_text(sys.argv[3]))))
    for p in sorted((p for p in seen if p in back), key=lambda p: back[p]):
        print(p)


if len(sys.argv) > 1 and sys.argv[1] == "--order":
    order_main()
elif len(sys.argv) > 1 and sys.argv[1] == "--roster-order":
    roster_order_main()
else:
    main()
