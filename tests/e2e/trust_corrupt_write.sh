#!/bin/sh
# Issue 29 item 4, the corrupt-then-write guard: a writing command (import,
# scenario set, profile) that meets a damaged page while it works exits 4
# and leaves the file byte for byte as it was (no -wal either). Each damage
# is checked to be real (integrity_check fails) and each command to write
# on the sound copy (the file changes), so the guard is what keeps the file.
# Damaged pages: a leaf of a table in its middle or at its end, its cell
# offsets overwritten (the cells SQLite reads are out of range); pages the
# command reads after it has started writing (the import's jobs are inserted
# before `link GPU metrics` reads the jobs table), pages SQLite only notices
# with PRAGMA cell_size_check (the last leaf of jobs, job_counts, imports;
# without it the last leaf of jobs read as a negative highest id, no error,
# which data/store's store_max_job_id takes for a corrupt file too).
. "$(dirname "$0")/lib.sh"
need_shared
DB="$WORK/demo.db"
"$CAPPLAN_BIN" --db "$DB" demo --today 2026-11-25 --no-tui --seed 7 --jobs 20000 >/dev/null 2>&1 \
    || fail "capplan demo"
"$CAPPLAN_BIN" --db "$DB" project >/dev/null 2>&1 || fail "project"
"$CAPPLAN_BIN" --db "$DB" scenario new s1 >/dev/null 2>&1 || fail "scenario new"
sqlite3 "$DB" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
GROUP=$(sqlite3 "$DB" "SELECT name FROM groups ORDER BY name LIMIT 1")
SACCT="$DATA/sacct-json-sarc/mila_1706227200.json"

# damage TABLE mid|last: $WORK/bad.db, $DB with one leaf of TABLE overwritten
damage() {
    cp "$DB" "$WORK/bad.db"
    python3 - "$DB" "$WORK/bad.db" "$1" "$2" <<'PY' || fail "no dbstat in python3's sqlite3"
import sqlite3, sys
src, dst, table, which = sys.argv[1:5]
c = sqlite3.connect(src)
size = c.execute("PRAGMA page_size").fetchone()[0]
p = [r[0] for r in c.execute("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' "
                             "ORDER BY pageno", (table,))]
c.close()
page = p[len(p) // 2] if which == "mid" else p[-1]
with open(dst, "r+b") as f:
    f.seek((page - 1) * size + 8)
    f.write(b"\xde\xad" * ((size - 16) // 2))
PY
    [ "$(sqlite3 "$WORK/bad.db" "PRAGMA integrity_check" 2>&1 | head -1)" != ok ] \
        || fail "$1/$2: the damage is not seen by integrity_check"
}

# guard TABLE WHICH CMD...: CMD writes on a sound copy, and exits 4 leaving
# the damaged copy byte-identical
n=0
guard() {
    t=$1 w=$2; shift 2
    cp "$DB" "$WORK/s.db"
    "$CAPPLAN_BIN" --db "$WORK/s.db" "$@" >/dev/null 2>&1 || fail "$* on the sound copy"
    ! cmp -s "$DB" "$WORK/s.db" || fail "$* does not write: the test proves nothing"
    rm -f "$WORK/s.db" "$WORK/s.db-wal" "$WORK/s.db-shm"
    damage "$t" "$w"
    cp "$WORK/bad.db" "$WORK/c.db"
    "$CAPPLAN_BIN" --db "$WORK/c.db" "$@" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    [ "$rc" = 4 ] || { cat "$WORK/err"; fail "$* with $t/$w damaged exited $rc, not 4"; }
    cmp -s "$WORK/bad.db" "$WORK/c.db" || fail "$* wrote into a database with $t/$w damaged"
    [ ! -s "$WORK/c.db-wal" ] || fail "$* left a -wal in a database with $t/$w damaged"
    rm -f "$WORK/c.db" "$WORK/c.db-wal" "$WORK/c.db-shm"
    n=$((n + 1))
}

guard jobs mid import sacct "$SACCT"
grep -q "link GPU metrics" "$WORK/err" || fail "import met the damage elsewhere: $(cat "$WORK/err")"
guard jobs last import sacct "$SACCT"
grep -q "malformed\|corrupt" "$WORK/err" || fail "the last leaf of jobs: $(cat "$WORK/err")"
for t in usage_month job_counts imports users; do guard "$t" mid import sacct "$SACCT"; done
for t in jobs job_blocks usage_month people profiles profile_members; do
    guard "$t" last profile
done
for t in jobs people usage_month plan_cache; do
    guard "$t" last scenario set s1 growth=0.7 --group "$GROUP" --reason "corrupt-then-write"
done
echo "trust_corrupt_write: ok ($n damaged databases, each left as it was)"
