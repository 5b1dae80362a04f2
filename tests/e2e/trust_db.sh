#!/bin/sh
# Issue 29 item 4: one rule for a database that is not sound. An empty file
# is not a database for readers; a corrupt one makes every reader that
# meets the damage exit 4 and nothing is written into it; a read-only one
# (file 444, folder 555, as a user who is not root) works for every reader;
# a -wal without its -shm there is refused, not silently ignored.
. "$(dirname "$0")/lib.sh"
DB="$WORK/demo.db"
"$CAPPLAN_BIN" --db "$DB" demo --today 2026-11-25 --no-tui --seed 7 --jobs 20000 >/dev/null 2>&1 \
    || fail "capplan demo"
"$CAPPLAN_BIN" --db "$DB" project >/dev/null 2>&1 || fail "project"
sqlite3 "$DB" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
readers="status|stats utilization|profile|project|scenario list|meetings list|research|check"

# ---- an empty file: readers refuse it in one line and leave it empty ----
: >"$WORK/empty.db"
IFS='|'
for c in $readers; do
    unset IFS
    # shellcheck disable=SC2086
    expect_rc 1 "$CAPPLAN_BIN" --db "$WORK/empty.db" $c
    [ "$(wc -l <"$WORK/err")" = 1 ] && grep -q "an empty file, not a capplan database" "$WORK/err" \
        || fail "$c on an empty file: $(cat "$WORK/err")"
    [ ! -s "$WORK/empty.db" ] || fail "$c wrote into an empty file"
    IFS='|'
done
unset IFS
printf 'date,cluster,label\n2026-01-05,c1,upgrade\n' >"$WORK/ev.csv"
expect_rc 0 "$CAPPLAN_BIN" --db "$WORK/empty.db" import events "$WORK/ev.csv"
grep -q "an empty file: a new database is created in it" "$WORK/err" || fail "import into an empty file: $(cat "$WORK/err")"

# ---- corrupt: pages of people and jobs overwritten ----
cp "$DB" "$WORK/bad.db"
python3 - "$DB" "$WORK/bad.db" <<'PY' || fail "no dbstat in python3's sqlite3"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
size = c.execute("PRAGMA page_size").fetchone()[0]
pages = []
for t in ("people", "jobs"):
    p = [r[0] for r in c.execute("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' "
                                 "ORDER BY pageno", (t,))]
    pages += p[:2] + p[-2:]
c.close()
with open(sys.argv[2], "r+b") as f:
    for p in pages:
        f.seek((p - 1) * size + 8)
        f.write(b"\xde\xad" * 3000)
PY
IFS='|'
for c in status "stats utilization" profile project research check "export $WORK/r.md"; do
    unset IFS
    cp "$WORK/bad.db" "$WORK/c.db"; rm -f "$WORK/c.db-wal" "$WORK/c.db-shm"
    # shellcheck disable=SC2086
    "$CAPPLAN_BIN" --db "$WORK/c.db" $c >"$WORK/out" 2>"$WORK/err"
    rc=$?
    [ "$rc" = 4 ] || { cat "$WORK/err"; fail "$c on a corrupt database exited $rc, not 4"; }
    cmp -s "$WORK/bad.db" "$WORK/c.db" || fail "$c wrote into a corrupt database"
    IFS='|'
done
unset IFS

# ---- read-only, as nobody: every reader works ----
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null; then
    RO=$(mktemp -d /tmp/capplan-ro.XXXXXX)
    chmod 755 "$RO"; mkdir "$RO/d"
    cp "$DB" "$RO/d/r.db"; chmod 444 "$RO/d/r.db"; chmod 555 "$RO/d"
    # nobody may not reach the build (a clone under a 0700 mktemp -d, as in
    # CI's plain-clone run): then it runs a copy of the binary from $RO
    RO_BIN=$CAPPLAN_BIN
    if ! runuser -u nobody -- test -x "$CAPPLAN_BIN"; then
        cp "$CAPPLAN_BIN" "$RO/capplan"; chmod 755 "$RO/capplan"; RO_BIN=$RO/capplan
    fi
    nob() { runuser -u nobody -- env HOME=/tmp TMPDIR=/tmp "$RO_BIN" --db "$RO/d/r.db" "$@"; }
    IFS='|'
    for c in $readers "scenario diff base base"; do
        unset IFS
        # shellcheck disable=SC2086
        nob $c >"$WORK/out" 2>"$WORK/err" || { cat "$WORK/err"; chmod 755 "$RO/d"; rm -rf "$RO"; fail "read-only: $c"; }
        IFS='|'
    done
    unset IFS
    nob profile >/dev/null 2>"$WORK/err"
    grep -q "read-only: the run is shown, not saved" "$WORK/err" || fail "profile read-only: $(cat "$WORK/err")"
    # project cannot save the profiles it ran: a note, time-stamped off a
    # terminal as every line on stderr, and nothing under --quiet
    # (a demo never projected, so that project has profiles to save)
    chmod 755 "$RO/d"
    "$CAPPLAN_BIN" --db "$RO/d/n.db" demo --today 2026-11-25 --no-tui --seed 7 --jobs 20000 >/dev/null 2>&1 \
        || fail "capplan demo (never projected)"
    sqlite3 "$RO/d/n.db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
    rm -rf "$RO/d/n.db-wal" "$RO/d/n.db-shm" "$RO/d/n.db.demo-input"; chmod 444 "$RO/d/n.db"; chmod 555 "$RO/d"
    env -u CAPPLAN_LOG_TIME runuser -u nobody -- env HOME=/tmp "$RO_BIN" --db "$RO/d/n.db" project >/dev/null 2>"$WORK/err" \
        || fail "project read-only: $(cat "$WORK/err")"
    grep -Eqx '[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}[+-][0-9]{4} capplan: note: profiles not saved: .*readonly database' "$WORK/err" \
        || fail "project read-only, the note: $(cat "$WORK/err")"
    runuser -u nobody -- env HOME=/tmp "$RO_BIN" --db "$RO/d/n.db" --quiet project >/dev/null 2>"$WORK/err" \
        || fail "project --quiet read-only"
    [ ! -s "$WORK/err" ] || fail "--quiet project said: $(cat "$WORK/err")"
    nob scenario new x >/dev/null 2>"$WORK/err" && fail "scenario new on a read-only database"
    [ "$(wc -l <"$WORK/err")" = 1 ] || fail "a refused edit says more than one line: $(cat "$WORK/err")"
    nob tui --bench-keys 1q >/dev/null 2>"$WORK/err" || fail "tui read-only: $(cat "$WORK/err")"
    # the dashboard, interactive: it opens, an edit is refused in one line
    if command -v tmux >/dev/null; then
        chmod 755 "$RO/d"; chmod 644 "$RO/d/r.db"
        "$CAPPLAN_BIN" --db "$RO/d/r.db" scenario new plan >/dev/null || fail "scenario new"
        sqlite3 "$RO/d/r.db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
        rm -f "$RO/d/r.db-wal" "$RO/d/r.db-shm"; chmod 444 "$RO/d/r.db"; chmod 555 "$RO/d"
        sha=$(sha256sum <"$RO/d/r.db")
        T="tmux -L capplan-ro$$ -f /dev/null"
        $T new-session -d -x 100 -y 30 "runuser -u nobody -- env HOME=/tmp LC_ALL=C.UTF-8 \
            TERM=xterm-256color '$RO_BIN' --db '$RO/d/r.db' tui --scenario plan 2>'$WORK/tui.err'; \
            echo \$? >'$WORK/tui.rc'"
        seen() { i=0; while [ $i -lt 100 ]; do
            $T capture-pane -p -t 0 >"$WORK/screen" 2>/dev/null; grep -q "$1" "$WORK/screen" && return 0
            sleep 0.1; i=$((i + 1)); done; cat "$WORK/screen"; return 1; }
        seen "F10Quit" || fail "tui: no first frame as nobody"
        $T send-keys -t 0 5; seen "growth a year" || fail "tui: no Projection view"
        $T send-keys -t 0 Enter; $T send-keys -t 0 -l "9 a reason"; $T send-keys -t 0 Enter
        seen "refused: .*readonly database" || fail "tui: an edit on a read-only database was not refused"
        [ "$(grep -c "refused" "$WORK/screen")" = 1 ] || fail "tui: refusal not one line"
        $T send-keys -t 0 F10; sleep 0.5; $T kill-server 2>/dev/null
        [ "$(sha256sum <"$RO/d/r.db")" = "$sha" ] || fail "tui changed a read-only database"
    fi
    # a committed change left in the -wal, no -shm: refused, not ignored
    chmod 755 "$RO/d"; rm -f "$RO/d/r.db"
    cp "$DB" "$RO/d/r.db"
    python3 - "$RO/d/r.db" "$RO/keep" <<'PY'
import shutil, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("PRAGMA wal_autocheckpoint=0")
c.execute("INSERT INTO events(date, cluster, label) VALUES('2026-01-01', 'x', 'only in the wal')")
c.commit()
shutil.copy(sys.argv[1] + "-wal", sys.argv[2] + "-wal")
shutil.copy(sys.argv[1], sys.argv[2])
c.close()
PY
    rm -f "$RO/d/r.db"*; cp "$RO/keep" "$RO/d/r.db"; cp "$RO/keep-wal" "$RO/d/r.db-wal"
    chmod 444 "$RO/d/r.db" "$RO/d/r.db-wal"; chmod 555 "$RO/d"
    nob status >"$WORK/out" 2>"$WORK/err" && { chmod 755 "$RO/d"; rm -rf "$RO"; fail "a -wal without -shm was ignored: $(cat "$WORK/out")"; }
    grep -q "its -wal file holds changes but it has no -shm" "$WORK/err" || fail "wal message: $(cat "$WORK/err")"
    chmod 755 "$RO/d"; rm -rf "$RO"
else
    echo "trust_db: not root (or no runuser): the read-only checks as another user are skipped"
fi
echo "trust_db: ok"
