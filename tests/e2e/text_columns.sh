#!/bin/sh
# Text columns padded by display width, not bytes (cli/textcol): `capplan
# status` lists clusters and unmatched authors whose names carry accents
# ("zürich", "Müller, Hans", "José García": one column a character, two
# bytes for the accented one), and `capplan scenario diff` sizes its
# columns from their content (a scenario name of 29 characters, a group
# "müller-lab"). Expected lines written by hand; python3 checks, apart,
# that every column starts (or, for numbers, ends) at the same character
# on every line.
. "$(dirname "$0")/lib.sh"

cat >"$WORK/roster.csv" <<'CSV'
user,group,role,domain,start,end
ann,lab-a,phd,vision,2022-09-01,
bob,müller-lab,postdoc,vision,2022-09-01,
CSV
cat >"$WORK/inv.csv" <<'CSV'
cluster,gpu_model,gpus,gpu_mem_gib,from,to,relative_speed
zürich,a100,4,80,2023-01-01,,1.0
bern,a100,2,80,2023-01-01,,1.0
CSV
# 2024: ann 10 h a month on zürich, bob 5 h on bern, 1 GPU each
python3 -c "
print('JobID|User|Account|Partition|State|Submit|Start|End|ElapsedRaw|AllocTRES|Cluster|NCPUS')
for m in range(1, 13):
    for i, (u, cl, h) in enumerate((('ann', 'zürich', 10), ('bob', 'bern', 5))):
        print('%d|%s|acct|gpu|COMPLETED|2024-%02d-01T08:00:00|2024-%02d-01T10:00:00|'
              '2024-%02d-01T%02d:00:00|%d|billing=1,gres/gpu:a100=1|%s|4'
              % (100 + 2 * m + i, u, m, m, m, 10 + h, h * 3600, cl))
" >"$WORK/jobs.psv"
cat >"$WORK/pubs.bib" <<'BIB'
@article{p1, author = {Müller, Hans and José García and Smith, Jo}, title = {Vision}, year = 2024}
@article{p2, author = {Müller, Hans and Smith, Jo}, title = {More vision}, year = 2024}
BIB
expect_rc 0 cap import roster "$WORK/roster.csv"
expect_rc 0 cap import inventory "$WORK/inv.csv"
expect_rc 0 cap import sacct "$WORK/jobs.psv"
expect_rc 0 cap import pubs "$WORK/pubs.bib"

# ---- status: names in 20 (clusters) and 40 (authors) display columns
expect_rc 0 cap status
cat >"$WORK/want" <<'TXT'
  bern                         12 jobs
  zürich                       12 jobs
  Müller, Hans                                 2 papers
  Smith, Jo                                    2 papers
  José García                                  1 paper
TXT
grep '^  [^ ].* jobs$\|^  [^ ].* papers\?$' "$WORK/out" >"$WORK/got"
cmp -s "$WORK/got" "$WORK/want" || { diff "$WORK/want" "$WORK/got"; fail "status columns"; }
python3 -c "
import sys
rows = open(sys.argv[1], encoding='utf-8').read().splitlines()
for part in (rows[:2], rows[2:]):
    ends = {len(r) - len(r.split()[-1]) for r in part}  # where the unit starts
    assert len(ends) == 1, part
" "$WORK/got" || fail "status: counts not aligned"

# ---- scenario diff: columns as wide as their content
S=plan-2027-national-allocation
expect_rc 0 cap scenario new "$S"
expect_rc 0 cap scenario set "$S" growth=0.123456789 --group müller-lab --reason "Müller's two students"
expect_rc 0 cap scenario set "$S" pool=3 --group lab-a --reason "José's sweeps"
expect_rc 0 cap scenario diff base "$S"
sed -n '3,5p' "$WORK/out" >"$WORK/got"
cat >"$WORK/want" <<'TXT'
parameter           base          plan-2027-national-allocation  effect y1 (GPU-eq)  effect y3 (GPU-eq)  reason
growth @müller-lab  0 (measured)  0.123457                                    +0.00               +0.00  Müller's two students
pool @lab-a         0 (measured)  3                                           +0.00               +0.00  José's sweeps
TXT
cmp -s "$WORK/got" "$WORK/want" || { diff "$WORK/want" "$WORK/got"; fail "scenario diff columns"; }
python3 -c "
import sys
rows = open(sys.argv[1], encoding='utf-8').read().splitlines()
head = rows[0]
starts = [head.index(t) for t in ('base', 'plan-2027', 'reason')]
ends = [head.index(t) + len(t) for t in ('effect y1 (GPU-eq)', 'effect y3 (GPU-eq)')]
for r in rows[1:]:
    for s in starts:
        assert r[s - 2:s] == '  ' and r[s] != ' ', (r, s)
    for e in ends:
        assert r[e - 1] != ' ' and (e == len(r) or r[e] == ' '), (r, e)
" "$WORK/got" || fail "scenario diff: columns not aligned"
