#!/bin/sh
# The docs say what capplan prints: every command shown after "$ " in a
# fenced block of README.md and then docs/tour.md is run (in the files'
# order, in one folder: the tour in full continues the README's, on its
# tour.db; `capplan` on PATH is the capplan under test) and what it prints (stdout and stderr, as on a terminal) is compared
# with the lines under it. In the expected lines a line "..." stands for any
# number of lines, and a time ("10.0 s", "156 ms", "2026-11-29 00:43 UTC": when
# an edit was saved) for any time; blanks at
# the end of a line do not count; nothing else may differ. Docs drift fails the build: regenerate with
#   CAPPLAN_DOCS_SHOW=1 sh tests/e2e/docs_cli.sh    (prints what each command printed)
# The demos the docs build pin --today, so the figures hold on any day.
#
# Then the pages of docs/ that show commands a user types (PAGES below), each
# in a folder of its own beside a `shared` (so ../shared/data is the project's
# data, as beside a checkout) and with the demo `demo.db` (--seed 7 --jobs 20000
# --today 2026-11-25, profiled) built once in the folder above (../demo.db).
# In a page, on a "$ " line (the last of a command continued with "\"):
#   # exit N ...          the command is expected to exit with status N
#   # not run here: WHY   the command is not run (a live Slurm, ssh, root...):
#                         counted per page, its lines not compared
# and a comment "<!-- docs_cli setup" ... "-->" (not shown on the rendered page)
# holds shell lines run there, in the page's order, not compared: the input
# files a page's commands read (a CSV it does not show in full). The pages run
# with CAPPLAN_TODAY=2026-11-25, the demo's day (`meetings` checks dates by it).
# docs/site.md (install, ssh, systemd: commands for root and a cluster) has a
# test of its own, tests/e2e/site_docs.sh.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
mkdir "$WORK/bin"
ln -s "$CAPPLAN_BIN" "$WORK/bin/capplan"
dir=$WORK/docs
mkdir "$dir"
cat >"$WORK/docs_cli.py" <<'PY'
import os, re, subprocess, sys

doc, cwd = sys.argv[1], sys.argv[2]
show = os.environ.get("CAPPLAN_DOCS_SHOW") == "1"
lines = open(doc, encoding="utf-8").read().split("\n")

def sessions():
    """(line number, command, expected lines) of every "$ " command in a fence;
    (line number, None, shell lines) of every "<!-- docs_cli setup" comment."""
    i = 0
    while i < len(lines):
        if lines[i].startswith("<!-- docs_cli setup"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("-->"):
                j += 1
            yield i + 1, None, lines[i + 1:j]
            i = j + 1
            continue
        if not lines[i].startswith("```"):
            i += 1
            continue
        j = i + 1
        block = []
        while j < len(lines) and not lines[j].startswith("```"):
            block.append((j + 1, lines[j]))
            j += 1
        i = j + 1
        if not block or not block[0][1].startswith("$ "):
            continue
        k = 0
        while k < len(block):
            num, text = block[k]
            cmd = text[2:]
            while cmd.endswith("\\") and k + 1 < len(block):
                k += 1
                cmd = cmd[:-1] + "\n" + block[k][1]
            k += 1
            out = []
            while k < len(block) and not block[k][1].startswith("$ "):
                out.append(block[k][1])
                k += 1
            yield num, cmd, out

TIME = re.compile(r"\d+(?:\.\d+)? (s|ms)\b|\d{4}-\d\d-\d\d \d\d:\d\d UTC\b")

def line_re(e):
    parts, last = [], 0
    for m in TIME.finditer(e):
        any_time = r"\d{4}-\d\d-\d\d \d\d:\d\d UTC\b" if m.group(1) is None else \
            r"\d+(?:\.\d+)? " + m.group(1) + r"\b"
        parts.append(re.escape(e[last:m.start()]) + any_time)
        last = m.end()
    parts.append(re.escape(e[last:]))
    return re.compile("".join(parts) + r"\Z")

def match(exp, got):
    """exp (with "..." lines) against got, line by line."""
    memo = {}
    def m(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(exp):
            r = j == len(got)
        elif exp[i] == "...":
            r = any(m(i + 1, k) for k in range(j, len(got) + 1))
        else:
            r = j < len(got) and line_re(exp[i]).match(got[j]) is not None and m(i + 1, j + 1)
        memo[(i, j)] = r
        return r
    return m(0, 0)

EXIT = re.compile(r"#\s*exit (\d+)\b")
NOTRUN = re.compile(r"#\s*not run here:\s*\S")
bad = 0
n = 0
marked = 0
for num, cmd, exp in sessions():
    if cmd is None:
        p = subprocess.run(["sh", "-ec", "\n".join(exp)], cwd=cwd)
        if p.returncode != 0:
            print(f"FAIL: {doc}:{num}: the setup comment exited {p.returncode}")
            bad += 1
        continue
    if NOTRUN.search(cmd):
        marked += 1
        if show:
            print(f"--- {doc}:{num}: $ {cmd} (not run here)")
        continue
    n += 1
    want = EXIT.search(cmd.split("\n")[-1])
    want = int(want.group(1)) if want else 0
    p = subprocess.run(["sh", "-c", cmd], cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=600)
    got = p.stdout.decode("utf-8", "replace").rstrip("\n")
    got = [g.rstrip() for g in got.split("\n")] if got else []
    exp = [e.rstrip() for e in exp]
    if show:
        print(f"--- {doc}:{num}: $ {cmd} (exit {p.returncode})")
        print("\n".join(got))
    if p.returncode != want:
        print(f"FAIL: {doc}:{num}: $ {cmd}: exit {p.returncode}, the doc says {want}")
        print("\n".join(got[-10:]))
        bad += 1
    elif not match(exp, got):
        print(f"FAIL: {doc}:{num}: $ {cmd}: prints other lines than the doc shows")
        for k, g in enumerate(got):
            if k >= len(exp) or (exp[k] != "..." and not line_re(exp[k]).match(g)):
                print(f"  first difference at output line {k + 1}:")
                print(f"    doc:  {exp[k] if k < len(exp) else '(nothing)'}")
                print(f"    got:  {g}")
                break
        else:
            print(f"  the doc shows more lines than the {len(got)} printed")
        bad += 1
print(f"{os.path.relpath(doc, os.environ.get('DOCS_ROOT', '.'))}: {n} commands run, "
      f"{n - bad} as shown, {marked} marked not run here")
# a page of docs/ may show no command (its blocks are synopses); the README
# and the tour show some, or this test has stopped reading them
sys.exit(1 if bad or (n + marked == 0 and sys.argv[3:] != ["page"]) else 0)
PY
export DOCS_ROOT="$ROOT"
# run_doc DOC FOLDER [page]: the commands of DOC, run in FOLDER ("page": DOC may show none)
run_doc() {
    PATH="$WORK/bin:$PATH" LANG=C.UTF-8 LC_ALL=C.UTF-8 python3 "$WORK/docs_cli.py" "$ROOT/$1" "$2" $3 \
        || fail "$1: the commands it shows print something else (above)"
}
for doc in README.md docs/tour.md; do
    run_doc "$doc" "$dir"
done
# The pages: each in its own folder under $WORK/pages, beside the demo.
need_shared
pages=$WORK/pages
mkdir "$pages"
ln -s "$CAPPLAN_SHARED" "$pages/shared"
"$CAPPLAN_BIN" --db "$pages/demo.db" demo --no-tui --seed 7 --jobs 20000 --today 2026-11-25 >"$WORK/out" 2>&1 \
    && "$CAPPLAN_BIN" --db "$pages/demo.db" profile >"$WORK/out" 2>&1 || { cat "$WORK/out"; fail "the pages' demo"; }
# the pages' meetings run on the demo's day, as the demo was built
export CAPPLAN_TODAY=2026-11-25
for page in usage import planning simulate research dashboard formats reports safety; do
    mkdir "$pages/$page"
    run_doc "docs/$page.md" "$pages/$page" page
done
echo "docs_cli: ok"
