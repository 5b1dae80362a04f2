#!/usr/bin/env python3
"""tests/anon_leaks.py DB FILE...: print every name of the database found in
the files (whole tokens, ASCII case ignored, names of 3 bytes or more), one
"FILE: NAME" line each; exit 1 when any. The names are read here with
sqlite3, independently of capplan's own list (data/store_anon.c)."""
import re
import sqlite3
import sys

QUERIES = [
    "SELECT name FROM users", "SELECT user FROM people", "SELECT supervisor FROM people",
    "SELECT name FROM groups", "SELECT professor FROM groups", "SELECT group_name FROM people",
    "SELECT name FROM accounts", "SELECT user FROM notes", "SELECT user FROM stated_needs",
    "SELECT who FROM scenarios", "SELECT who FROM scenario_edits", "SELECT who FROM profile_names",
    "SELECT attendees FROM meetings", "SELECT authors FROM pubs", "SELECT group_name FROM pubs",
]


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
    return out


def main():
    db, files = sys.argv[1], sys.argv[2:]
    found = 0
    pats = [(n, re.compile(r"(?<![A-Za-z0-9_\x80-\xff])" + re.escape(n.encode()).decode("latin-1")
                           + r"(?![A-Za-z0-9_\x80-\xff])", re.I)) for n in sorted(names(db))]
    for f in files:
        text = open(f, "rb").read().decode("latin-1")
        for n, p in pats:
            if p.search(text):
                print("%s: %s" % (f, n))
                found += 1
    print("%d names checked in %d files, %d found" % (len(pats), len(files), found),
          file=sys.stderr)
    sys.exit(1 if found else 0)


main()
