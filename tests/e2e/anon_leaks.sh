#!/bin/sh
# Issue 15, item 7: `export --anonymize` leaves no name of the database in
# any file (report.md, its SVGs, every CSV), free text included: a scenario
# named after a group, an event label naming a login, a renamed profile, an
# edit's reason. Pseudonyms are keyed: the database's key (made once) gives
# the same pseudonym every time, another key (--anon-key) another one.
. "$(dirname "$0")/lib.sh"
LEAKS="$(dirname "$0")/../anon_leaks.py"

expect_rc 0 cap demo --jobs 1000 --no-tui --today 2026-11-25
g1=$(sqlite3 "$WORK/t.db" "SELECT name FROM groups ORDER BY name LIMIT 1")
g2=$(sqlite3 "$WORK/t.db" "SELECT name FROM groups ORDER BY name LIMIT 1 OFFSET 1")
u1=$(sqlite3 "$WORK/t.db" "SELECT u.name FROM users u ORDER BY u.name LIMIT 1")
prof=$(sqlite3 "$WORK/t.db" "SELECT professor FROM groups ORDER BY name LIMIT 1")
full=$(sqlite3 "$WORK/t.db" "SELECT name FROM people WHERE name LIKE '% %' ORDER BY user LIMIT 1")
last=${full##* }  # #29: a roster's full name, and its surname alone, in free text
printf 'date,cluster,label\n2026-01-15,atlas,%s group got 8 new GPUs\n2026-02-01,atlas,Dr %s moved\n' \
    "$u1" "$last" >"$WORK/ev.csv"
expect_rc 0 cap import events "$WORK/ev.csv"
expect_rc 0 cap profile --k 2
expect_rc 0 cap profile rename 1 "$u1 sweeps"
expect_rc 0 cap scenario new "$g1"
expect_rc 0 cap scenario set "$g1" growth=0.2 --group "$g2" --reason "$prof agrees, asked by $u1 and $full"

for key in db file; do
    rm -rf "$WORK/out-$key"; mkdir "$WORK/out-$key"
    opt=""
    [ $key = file ] && { head -c 32 /dev/urandom >"$WORK/key"; opt="--anon-key $WORK/key"; }
    expect_rc 0 cap export "$WORK/out-$key/r.md" --scenario "$g1" --anonymize $opt
    expect_rc 0 cap export --csv "$WORK/out-$key/csv" --scenario "$g1" --anonymize $opt
    expect_rc 0 cap export "$WORK/out-$key/budget.xlsx" --scenario "$g1" --anonymize $opt
    n=$(find "$WORK/out-$key" -type f | wc -l)
    [ "$n" -ge 10 ] || fail "only $n files written"
    python3 "$LEAKS" "$WORK/t.db" $(find "$WORK/out-$key" -type f) >"$WORK/leaks" 2>&1 ||
        fail "names in the anonymised export ($key key): $(head -20 "$WORK/leaks")"
done
# #29: the attacker who holds the roster but not the key recovers no name
# from the order of the rows (tests/anon_leaks.py --order scores the attack with
# the database's key): report.md, report.html, the SVGs, every CSV
expect_rc 0 cap export "$WORK/out-db/r.html" --scenario "$g1" --anonymize
python3 "$LEAKS" --order "$WORK/t.db" $(find "$WORK/out-db" -type f) >"$WORK/order" 2>&1 ||
    fail "rows in the order of the real names: $(head -5 "$WORK/order")"
grep -q "tables scored, 0 leak" "$WORK/order" || fail "anon_leaks --order: $(cat "$WORK/order")"
# the free text was there to leak: without --anonymize the names show
expect_rc 0 cap export "$WORK/plain.md" --scenario "$g1"
grep -q "Dr $last moved" "$WORK/plain_files"/*.svg "$WORK/plain.md" || fail "the surname is not in the plain report"
grep -q "$u1 group got 8 new GPUs" "$WORK/plain_files"/*.svg "$WORK/plain.md" || fail "event label not in the plain report"
! python3 "$LEAKS" "$WORK/t.db" "$WORK/plain.md" >/dev/null 2>&1 || fail "the leak check finds nothing in a plain report"

# #29: a roster's full names are scrubbed for themselves, not only because
# the publications' authors repeat them: without authors, the surname in
# an event label still goes
cp "$WORK/t.db" "$WORK/noauth.db"
sqlite3 "$WORK/noauth.db" "UPDATE pubs SET authors = NULL"
rm -rf "$WORK/na"; mkdir "$WORK/na"
expect_rc 0 "$CAPPLAN_BIN" --db "$WORK/noauth.db" export "$WORK/na/r.md" --scenario "$g1" --anonymize
python3 "$LEAKS" "$WORK/noauth.db" $(find "$WORK/na" -type f) >"$WORK/leaks" 2>&1 ||
    fail "full names in the anonymised export without authors: $(head -5 "$WORK/leaks")"

# keyed: one key made once; same pseudonyms again; another key, others
[ "$(sqlite3 "$WORK/t.db" "SELECT count(*), length(value) FROM site_meta WHERE key='anon_key'")" = "1|32" ] \
    || fail "site key not stored once"
expect_rc 0 cap export "$WORK/again.md" --scenario "$g1" --anonymize
pseudo() { grep -o 'group-[a-z2-9]\{6\}' "$1" | sort -u; }
[ "$(pseudo "$WORK/again.md")" = "$(pseudo "$WORK/out-db/r.md")" ] || fail "pseudonyms changed between two exports"
[ -n "$(pseudo "$WORK/again.md")" ] || fail "no group pseudonym in the report"
[ "$(pseudo "$WORK/out-file/r.md")" != "$(pseudo "$WORK/out-db/r.md")" ] || fail "another key gave the same pseudonyms"
# a key file too short is refused
printf 'short' >"$WORK/short"
expect_rc 1 cap export "$WORK/x.md" --anonymize --anon-key "$WORK/short"
grep -q 'needs 16 bytes' "$WORK/err" || fail "short key: $(cat "$WORK/err")"
echo "PASS: anon_leaks"
