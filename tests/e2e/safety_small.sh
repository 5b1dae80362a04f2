#!/bin/sh
# Issue 15 item 8, the small ones: no escape from a profile's old name to
# the terminal; NCPUS out of range says why; a 10 MB line gives one
# message; duplicate CSV header columns refused; a NUL inside a JSON string
# rejects the record instead of cutting the name.
. "$(dirname "$0")/lib.sh"

expect_rc 0 cap demo --jobs 1000 --no-tui --today 2026-11-25
expect_rc 0 cap profile --k 2
esc=$(printf 'x\033]0;pwned\007y')
expect_rc 0 cap profile rename 1 "$esc"
expect_rc 0 cap profile rename 1 calm
grep -q "$(printf '\033')" "$WORK/out" "$WORK/err" && fail "an escape reached the terminal: $(od -c "$WORK/out" | head)"
grep -q "^profile 1 (x?\]0;pwned?y) is now named 'calm'" "$WORK/out" || fail "rename: $(cat "$WORK/out")"

printf 'JobID|User|NCPUS|Submit\n1|ann|-3|2024-01-01T00:00:00\n' >"$WORK/n.psv"
expect_rc 1 cap import sacct "$WORK/n.psv"
grep -q 'n.psv:2: field NCPUS: -3 is not a count (0 to 2147483647)' "$WORK/err" || fail "NCPUS: $(cat "$WORK/err")"

python3 -c "print('x' * 10000000)" >"$WORK/long.psv"
expect_rc 1 cap import sacct "$WORK/long.psv"
[ "$(wc -l <"$WORK/err")" = 1 ] || fail "a 10 MB line: $(cat "$WORK/err")"
grep -q 'line 1 longer than 1 MiB where the header was expected' "$WORK/err" || fail "long line: $(cat "$WORK/err")"

printf 'user,group,role,domain,user\nann,lab,student,bio,bob\n' >"$WORK/dup.csv"
expect_rc 1 cap import roster "$WORK/dup.csv"
grep -q "dup.csv:1: columns 1 and 5 ('user', 'user') name the same field" "$WORK/err" || fail "dup: $(cat "$WORK/err")"

# the rest reads ../shared/data
need_shared
python3 - "$DATA/slurm-sandbox/sacct.json" "$WORK/nul.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
j["user"] = "ann\u0000evil"
json.dump({"meta": d.get("meta", {}), "jobs": [j]}, open(sys.argv[2], "w"))
PY
expect_rc 1 cap import sacct "$WORK/nul.json"
grep -q 'a string holds \\u0000 (a NUL character)' "$WORK/err" || fail "NUL: $(cat "$WORK/err")"
[ "$(sqlite3 "$WORK/t.db" "SELECT count(*) FROM users WHERE name = 'ann'")" = 0 ] || fail "NUL cut a name"
echo "PASS: safety_small"
