#!/bin/sh
# More of what real sites export (#14, second round), through the command
# line: Latin-1 in sacct --json, comment lines in Key=Value CSV, --encoding
# for the CSV kinds that open their own files, rosters with empty start
# dates (the two real rosters, unchanged) and each import's span of jobs.
# Expected figures: python3 over the same files (see each block).
. "$(dirname "$0")/lib.sh"
FIX="$(cd "$(dirname "$0")/.." && pwd)/fixtures"

# ---- sacct --json with Latin-1 strings (a Slurm 23.02 export of a site whose
# job names and accounts are typed on Latin-1 terminals): refused naming the
# member and line, or converted with --encoding ----
expect_rc 1 cap import sacct --strict "$FIX/sacct_latin1.json"
grep -q "sacct_latin1.json:9: field name: not UTF-8 (byte 0xE9 at column 5)" "$WORK/err" \
    || fail "json latin1 message: $(cat "$WORK/err")"
expect_rc 1 cap import sacct "$FIX/sacct_latin1.json"
grep -q "sacct_latin1.json:14: field account: not UTF-8 (byte 0xE9 at column 5)" "$WORK/err" \
    || fail "json latin1 account: $(cat "$WORK/err")"
grep -q '3 rows read, 1 added, 0 updated, 0 unchanged, 2 rejected' "$WORK/out" || fail "json latin1: $(cat "$WORK/out")"
expect_rc 0 cap import sacct --encoding cp1252 "$FIX/sacct_latin1.json"
grep -q '3 rows read, 2 added, 0 updated, 1 unchanged, 0 rejected' "$WORK/out" || fail "json cp1252: $(cat "$WORK/out")"
[ "$(sqlite3 "$WORK/t.db" "SELECT name FROM jobs WHERE job_id='603'")" = "coût €" ] || fail "cp1252 json name"
[ "$(sqlite3 "$WORK/t.db" "SELECT a.name FROM jobs j JOIN accounts a ON a.id=j.account_id WHERE job_id='603'")" = "lab-été" ] \
    || fail "cp1252 json account"
[ "$(sqlite3 "$WORK/t.db" "SELECT count(*) FROM imports")" = 2 ] || fail "the strict import must leave nothing"
[ "$(sqlite3 "$WORK/t.db" "SELECT name FROM jobs WHERE job_id='602'")" = "données" ] || fail "latin1 json name"

# ---- Key=Value CSV (sonar's slurm-sacct.csv shape, ../shared/data/sacct-kv-jobanalyzer-fox)
# with '#' comment lines, one of them a commented-out copy of job 2001 as PENDING ----
expect_rc 0 cap import sacct "$FIX/sacct_kv_comments.csv"
grep -q 'sacct-keyvalue-csv, 3 rows read, 2 added, 0 updated, 0 unchanged, 0 rejected' "$WORK/out" \
    || fail "kv comments: $(cat "$WORK/out")"
grep -q 'sacct_kv_comments.csv: 4 comment lines skipped' "$WORK/out" || fail "kv comment count: $(cat "$WORK/out")"
[ "$(sqlite3 "$WORK/t.db" "SELECT state || ' ' || elapsed FROM jobs WHERE job_id='2001'")" = "4 7200" ] \
    || fail "kv: the commented-out line must not count: $(sqlite3 "$WORK/t.db" "SELECT state, elapsed FROM jobs WHERE job_id='2001'")"

# ---- --encoding for the CSV kinds that open their own files: a French site's
# spreadsheets saved as Latin-1 / Windows-1252 (peers, allocations, sites, carbon) ----
expect_rc 0 cap import roster --encoding latin1 "$FIX/roster_latin1.csv"
for k in peers:peers_latin1.csv allocations:allocations_latin1.csv sites:sites_cp1252.csv carbon:carbon_latin1.csv; do
    expect_rc 1 cap import "${k%%:*}" "$FIX/${k#*:}"
    grep -q "${k#*:}:2: field [12]: not UTF-8 (byte 0x" "$WORK/err" || fail "${k%%:*} refusal: $(cat "$WORK/err")"
done
expect_rc 0 cap import peers --encoding latin1 "$FIX/peers_latin1.csv"
expect_rc 0 cap import allocations --encoding latin1 "$FIX/allocations_latin1.csv"
expect_rc 0 cap import sites --encoding cp1252 "$FIX/sites_cp1252.csv"
expect_rc 0 cap import carbon --encoding latin1 "$FIX/carbon_latin1.csv"
[ "$(sqlite3 "$WORK/t.db" "SELECT group_concat(institution, ';') FROM (SELECT institution FROM peers ORDER BY institution)")" = "Université de Lyon;École polytechnique" ] \
    || fail "peers names: $(sqlite3 "$WORK/t.db" "SELECT institution FROM peers")"
[ "$(sqlite3 "$WORK/t.db" "SELECT gpu_hours FROM allocations WHERE group_name='biologie-végétale'")" = 12000.0 ] \
    || fail "allocation of biologie-végétale"
[ "$(sqlite3 "$WORK/t.db" "SELECT cluster FROM sites")" = "vénus" ] || fail "site name"
[ "$(sqlite3 "$WORK/t.db" "SELECT count(*) FROM carbon_intensity WHERE zone='Île-de-France'")" = 2 ] || fail "carbon zone"
