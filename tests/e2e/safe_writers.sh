#!/bin/sh
# Issue 29 item 6: one safe writer for terminals (cli/safeout, textcol) and
# one for CSV (reports/csvw). Hostile names planted in a demo database (an
# inventory model with an OSC title sequence, a group led by blanks, a tab
# and '=' with a colour escape, a login ' =HYPERLINK(...)' with a clear-
# screen) reach no output raw: no control byte but LF (and CR of CRLF),
# and no CSV cell that starts, after blanks, with = + - @ unless it is a
# plain number. Checked by python3's csv module over every output.
. "$(dirname "$0")/lib.sh"
"$CAPPLAN_BIN" --db "$WORK/t.db" demo --today 2026-11-25 --no-tui --seed 7 --jobs 20000 >/dev/null 2>&1 \
    || fail "capplan demo"
python3 - "$WORK/t.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE inventory SET gpu_model = char(27) || ']0;pwn' || char(7) || gpu_model "
          "WHERE rowid = (SELECT min(rowid) FROM inventory)")
g = c.execute("SELECT name FROM groups ORDER BY name LIMIT 1").fetchone()[0]
bad_g = " \t=1+1\x1b[31m"
c.execute("UPDATE people SET group_name = ? WHERE group_name = ?", (bad_g, g))
c.execute("UPDATE groups SET name = ? WHERE name = ?", (bad_g, g))
c.execute("UPDATE accounts SET name = ? WHERE name = ?", (" -2+3\x1b[2J", g))
u = c.execute("SELECT user FROM people WHERE group_name = ? LIMIT 1", (bad_g,)).fetchone()[0]
bad_u = ' =HYPERLINK("http://x")\x1b[2J'
c.execute("UPDATE people SET user = ? WHERE user = ?", (bad_u, u))
c.execute("UPDATE users SET name = ? WHERE name = ?", (bad_u, u))
c.commit()
PY
expect_rc 0 cap check
n=0
for c in project research "stats utilization" "stats waits" "stats efficiency" "stats preemption" \
         "stats fairshare" "stats domains" "stats energy"; do
    for fmt in text csv; do
        flag=""; [ "$fmt" = csv ] && flag=--csv
        # shellcheck disable=SC2086
        cap $c $flag >"$WORK/o" 2>"$WORK/e" || { cat "$WORK/e"; fail "$c $flag"; }
        python3 - "$WORK/o" "$fmt" "$c $flag" <<'PY' || exit 1
import csv, io, re, sys
d = open(sys.argv[1], "rb").read()
ctrl = [hex(b) for b in d if (b < 0x20 and b not in (10, 13)) or b == 0x7f]
if ctrl or b"\xc2\x9b" in d:
    sys.exit("FAIL: %s: control bytes reach the output: %s" % (sys.argv[3], ctrl[:5]))
if sys.argv[2] == "csv":
    num = re.compile(r"-?\d+(\.\d+)?([eE][-+]?\d+)?")
    for row in csv.reader(io.StringIO(d.decode("utf-8"))):
        for cell in row:
            t = cell.lstrip(" \t")
            if t[:1] in ("=", "+", "-", "@") and not num.fullmatch(t):
                sys.exit("FAIL: %s: a formula cell: %r" % (sys.argv[3], cell))
PY
        n=$((n + 1))
    done
done
# the planted names were really printed (else the test proves nothing)
cap project >"$WORK/o"; grep -q '?\]0;pwn?' "$WORK/o" || fail "project: the model's name is not shown escaped"
cap research --csv >"$WORK/o"; grep -q "\"' =HYPERLINK" "$WORK/o" || fail "research --csv: the login is not shown neutralised"
cap project --csv >"$WORK/o"; grep -q "\"' ?=1+1?\[31m\"" "$WORK/o" || fail "project --csv: the group is not shown neutralised: $(grep 1+1 "$WORK/o" | head -1)"
echo "safe_writers: ok ($n outputs)"
