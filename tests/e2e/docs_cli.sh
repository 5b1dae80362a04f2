#!/bin/sh
# The docs say what capplan prints: every command shown after "$ " in a
# fenced block of README.md and then docs/tour.md is run (in the files'
# order, in one folder: the tour in full continues the README's, on its
# tour.db; `capplan` on PATH is the capplan under test) and what it prints (stdout and stderr, as on a terminal) is compared
# with the lines under it. In the expected lines a line "..." stands for any
# number of lines, and a time ("10.0 s", "156 ms") for any time; blanks at
# the end of a line do not count; nothing else may differ. Docs drift fails the build: regenerate with
#   CAPPLAN_DOCS_SHOW=1 sh tests/e2e/docs_cli.sh    (prints what each command printed)
# The demos the docs build pin --today, so the figures hold on any day.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
mkdir "$WORK/bin"
ln -s "$CAPPLAN_BIN" "$WORK/bin/capplan"
dir=$WORK/docs
mkdir "$dir"
for doc in README.md docs/tour.md; do
    PATH="$WORK/bin:$PATH" LANG=C.UTF-8 LC_ALL=C.UTF-8 python3 - "$ROOT/$doc" "$dir" <<'PY' || fail "$doc: the commands it shows print something else (above)"
import os, re, subprocess, sys

doc, cwd = sys.argv[1], sys.argv[2]
show = os.environ.get("CAPPLAN_DOCS_SHOW") == "1"
lines = open(doc, encoding="utf-8").read().split("\n")

def sessions():
    """(line number, command, expected lines) of every "$ " command in a fence."""
    i = 0
    while i < len(lines):
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

TIME = re.compile(r"\d+(?:\.\d+)? (s|ms)\b")

def line_re(e):
    parts, last = [], 0
    for m in TIME.finditer(e):
        parts.append(re.escape(e[last:m.start()]) + r"\d+(?:\.\d+)? " + m.group(1) + r"\b")
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

bad = 0
n = 0
for num, cmd, exp in sessions():
    n += 1
    p = subprocess.run(["sh", "-c", cmd], cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=600)
    got = p.stdout.decode("utf-8", "replace").rstrip("\n")
    got = [g.rstrip() for g in got.split("\n")] if got else []
    exp = [e.rstrip() for e in exp]
    if show:
        print(f"--- {doc}:{num}: $ {cmd} (exit {p.returncode})")
        print("\n".join(got))
    if p.returncode != 0:
        print(f"FAIL: {doc}:{num}: $ {cmd}: exit {p.returncode}")
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
print(f"{os.path.relpath(doc)}: {n} commands, {n - bad} as shown")
sys.exit(1 if bad or n == 0 else 0)
PY
done
echo "docs_cli: ok"
