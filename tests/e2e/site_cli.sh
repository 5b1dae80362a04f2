#!/bin/sh
# What a site installs and runs unattended (docs/site.md), without the shared
# data: option conventions (--db without a path, unknown options named,
# --quiet, time-stamped errors off a terminal, "schema" in --json), the
# demo's allocations and carbon series (checked against its inventory in
# python3), the manual page (mandoc -T lint, man --warnings, every command
# and option of --help in it), bash and zsh completion, make install and
# uninstall into a staging folder, the systemd units.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MAN=$ROOT/docs/capplan.1

# ---- conventions ----
expect_rc 2 "$CAPPLAN_BIN" --db
[ "$(cat "$WORK/err")" = "capplan: --db needs a path" ] || fail "--db: $(cat "$WORK/err")"
expect_rc 2 "$CAPPLAN_BIN" --db= status
[ "$(cat "$WORK/err")" = "capplan: --db needs a path" ] || fail "--db=: $(cat "$WORK/err")"
expect_rc 2 "$CAPPLAN_BIN" --db --quiet status
[ "$(cat "$WORK/err")" = "capplan: --db needs a path" ] || fail "--db --quiet: $(cat "$WORK/err")"
expect_rc 2 "$CAPPLAN_BIN" --bogus
grep -qx "capplan: unknown option '--bogus' (before the command: --db PATH, --quiet, --version, --help)" "$WORK/err" || fail "global --bogus: $(cat "$WORK/err")"
expect_rc 0 cap demo --today 2026-11-25 --no-tui --jobs 2000 --seed 3
for c in "export r.md --bogus" "stats utilization --bogus" "status --bogus" "project --bogus=1" \
    "meetings list --bogus" "tui --bogus" "profile --bogus" "collect --json"; do
    # shellcheck disable=SC2086
    expect_rc 2 cap $c
    opt=$(echo "$c" | grep -o -- '--[a-z]*' | tail -n 1)
    [ "$(head -n 1 "$WORK/err")" = "capplan: ${c%% *}: unknown option '$opt'" ] \
        || fail "$c: $(cat "$WORK/err")"
    grep -q '^usage: capplan ' "$WORK/err" || fail "$c: no usage line"
done
expect_rc 2 cap project --scenario
[ "$(head -n 1 "$WORK/err")" = "capplan: project: --scenario needs a value" ] || fail "needs a value: $(cat "$WORK/err")"
expect_rc 2 cap collect --since
[ "$(head -n 1 "$WORK/err")" = "capplan: collect: --since needs a value" ] || fail "collect --since: $(cat "$WORK/err")"

# --quiet: nothing on stdout, errors still on stderr
expect_rc 0 "$CAPPLAN_BIN" --db "$WORK/t.db" --quiet status
[ ! -s "$WORK/out" ] || fail "--quiet status printed: $(head -n 2 "$WORK/out")"
expect_rc 1 "$CAPPLAN_BIN" --db "$WORK/none.db" --quiet status
grep -q 'no such database' "$WORK/err" || fail "--quiet hid the error"

# errors off a terminal carry the local time, unless CAPPLAN_LOG_TIME=0 or
# journald stamps them
env -u CAPPLAN_LOG_TIME "$CAPPLAN_BIN" --db "$WORK/none.db" status 2>"$WORK/err"
grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{4} capplan: .*no such database' "$WORK/err" \
    || fail "time stamp: $(cat "$WORK/err")"
env -u CAPPLAN_LOG_TIME JOURNAL_STREAM=8:1 "$CAPPLAN_BIN" --db "$WORK/none.db" status 2>"$WORK/err"
grep -q '^capplan: ' "$WORK/err" || fail "under journald: $(cat "$WORK/err")"
CAPPLAN_LOG_TIME=1 JOURNAL_STREAM=8:1 "$CAPPLAN_BIN" --db "$WORK/none.db" status 2>"$WORK/err"
grep -Eq '^[0-9]{4}-.* capplan: ' "$WORK/err" || fail "CAPPLAN_LOG_TIME=1: $(cat "$WORK/err")"

# every --json output: an object whose first key is "schema"
cap profile >/dev/null || fail "profile"
cap scenario new s1 >/dev/null || fail "scenario new"
for c in "status --json" "stats utilization --json" "stats fairshare --json" "stats energy --json" \
    "profile --json --no-save" "project --json" "scenario diff base s1 --json" "scenario list --json" "research --json" \
    "meetings list --json" "meetings pick --json" "meetings mismatches --json"; do
    # shellcheck disable=SC2086
    cap $c >"$WORK/j.json" 2>"$WORK/err" || fail "$c: $(cat "$WORK/err")"
    k=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(next(iter(d)), d["schema"])' "$WORK/j.json") \
        || fail "$c: not a JSON object"
    name=$(echo "$c" | cut -d' ' -f1)
    case $k in "schema capplan.$name"*/1) ;; *) fail "$c: first key and schema '$k'" ;; esac
done

# ---- the demo's allocations and hourly carbon: fairshare and energy work ----
python3 - "$WORK/t.db" "$WORK/t.db.demo-input/allocations.csv" <<'PY' || fail "demo allocations"
import csv, datetime, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
inv = db.execute("select gpus, from_date, to_date from inventory where cluster='cirrus' order by from_date").fetchall()
groups = sorted(r[0] for r in db.execute("select distinct group_name from allocations"))
assert len(groups) == 5, groups
d = lambda s: datetime.date.fromisoformat(s)
first = d(inv[0][1])
def gpus(day):  # the inventory's GPUs of cirrus on day
    return sum(g for g, f, t in inv if d(f) <= day and (t is None or day <= d(t)))
rows = list(csv.DictReader(open(sys.argv[2])))
years = sorted({int(r["year"]) for r in rows})
assert years[0] == first.year, (years, first)
for r in rows:
    y = int(r["year"])
    a, b = max(datetime.date(y, 1, 1), first), datetime.date(y + 1, 1, 1)
    want = round(gpus(a + (b - a) / 2) * (b - a).days * 24 / 5)
    assert int(r["gpu_hours"]) == want, (r, want)
assert db.execute("select count(*) from allocations").fetchone()[0] == len(rows) == 5 * len(years)
n, zones = db.execute("select count(*), count(distinct zone) from carbon_intensity").fetchone()
assert zones == 1 and n > 24 * 365 * 4, (n, zones)
print("allocations", len(rows), "rows; carbon", n, "hours")
PY
expect_rc 0 cap stats fairshare --by year
grep -q 'Allocation policy replay' "$WORK/out" || fail "stats fairshare on the demo: $(head -n 3 "$WORK/out" "$WORK/err")"
expect_rc 0 cap stats energy --by year --table clusters
grep -q 'DE' "$WORK/out" || fail "stats energy: the DE series not used: $(cat "$WORK/out")"

# ---- the manual page ----
command -v mandoc >/dev/null || fail "mandoc missing (tests/deps.sh installs it)"
lint=$(mandoc -T lint -W warning "$MAN" 2>&1)
[ -z "$lint" ] || fail "mandoc -T lint: $lint"
style=$(mandoc -T lint "$MAN" 2>&1 | grep -v 'referenced manual not found\|mandoc.db')
[ -z "$style" ] || fail "mandoc -T lint (style): $style"
warn=$(MANWIDTH=80 man --warnings -l "$MAN" 2>&1 >/dev/null | grep -v 'mandoc.db')
[ -z "$warn" ] || fail "man --warnings: $warn"
for s in NAME SYNOPSIS DESCRIPTION COMMANDS "FILE FORMATS" ENVIRONMENT FILES "EXIT STATUS" EXAMPLES; do
    grep -qx ".Sh $s" "$MAN" || fail "man page: no section $s"
done
cmds=$("$CAPPLAN_BIN" --help | sed -n 's/^  capplan \([a-z]*\).*/\1/p')
[ "$(echo "$cmds" | wc -l)" -ge 11 ] || fail "commands from --help: $cmds"
for c in $cmds; do
    grep -qx ".Ss $c" "$MAN" || fail "man page: no command $c"
    # the options of the usage lines, and those the help lists (an indented
    # line starting with one); not sacct's, which collect's help quotes
    for o in $("$CAPPLAN_BIN" "$c" --help | awk '/^$/ { u = 1 } !u || /^ +--[a-z]/' |
        grep -o -- '--[a-z][a-z-]*' | sort -u); do
        case $o in --help|--bench) continue ;; esac
        grep -q -- "Fl ${o#-}\b\|Fl ${o#-}\$" "$MAN" || fail "man page: $c option $o missing"
    done
done
# every CAPPLAN_* variable the program reads, documented
vars=$(grep -rhoE 'getenv\("CAPPLAN_[A-Z_]+"\)' "$ROOT/cli" "$ROOT/core" "$ROOT/data" "$ROOT/reports" "$ROOT/tui" |
    sed 's/getenv("\(.*\)")/\1/' | grep -v '^CAPPLAN_TEST_' | sort -u)
[ -n "$vars" ] || fail "no CAPPLAN_ variable found in the sources"
for v in $vars; do grep -q "Ev $v" "$MAN" || fail "man page: $v"; done
# the page's head and foot name capplan's manual, not groff's BSD default
head=$(MANWIDTH=80 man -l "$MAN" 2>/dev/null | sed -n '1p;$p')
case $head in *BSD*) fail "man page head or foot: $head" ;; esac
echo "$head" | head -n 1 | grep -q 'General Commands Manual' || fail "man page head: $head"
for st in 0 1 2 3 4; do grep -qx ".It $st" "$MAN" || fail "man page: exit status $st"; done

# ---- completion: bash and zsh, names from the database ----
PATH=$(dirname "$CAPPLAN_BIN"):$PATH
export PATH
bc() { bash -c '. "$1/contrib/completions/capplan.bash"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _capplan; echo "${COMPREPLY[*]}"' - "$ROOT" "$@"; }
[ "$(bc capplan st)" = "status stats" ] || fail "bash: capplan st -> $(bc capplan st)"
[ "$(bc capplan --db "$WORK/t.db" stats f)" = fairshare ] || fail "bash: stats f"
[ "$(bc capplan --db "$WORK/t.db" collect --sa)" = "--sacct-format --sacct" ] || fail "bash: collect --sa -> $(bc capplan --db "$WORK/t.db" collect --sa)"
[ "$(bc capplan --db "$WORK/t.db" project --scenario "")" = "base s1" ] || fail "bash: scenarios -> $(bc capplan --db "$WORK/t.db" project --scenario "")"
[ "$(bc capplan --db="$WORK/t.db" scenario diff base "")" = "base s1" ] || fail "bash: scenario diff"
g=$(sqlite3 "$WORK/t.db" "SELECT name FROM (SELECT DISTINCT group_name AS name FROM allocations) ORDER BY name LIMIT 1")
[ "$(bc capplan --db "$WORK/t.db" stats fairshare --group "${g%?}")" = "$g" ] || fail "bash: --group ${g%?}"
[ "$(bc capplan --db "$WORK/t.db" collect --clusters "")" = "all atlas borealis cirrus" ] || fail "bash: --clusters"
command -v zsh >/dev/null || fail "zsh missing (tests/deps.sh installs it)"
zc() { timeout 30 zsh "$ROOT/tests/lib/zsh_complete.zsh" "$ROOT/contrib/completions" "$*" | tr -d '\r' | LC_ALL=C sort | tr '\n' ' '; }
[ "$(zc "capplan --db $WORK/t.db st")" = "stats status " ] || fail "zsh: st -> $(zc "capplan --db $WORK/t.db st")"
[ "$(zc "capplan --db $WORK/t.db project --scenario ")" = "base s1 " ] || fail "zsh: scenarios -> $(zc "capplan --db $WORK/t.db project --scenario ")"
[ "$(zc "capplan --db $WORK/t.db stats energy --group ${g%?}")" = "$g " ] || fail "zsh: --group"
[ "$(zc "capplan --db $WORK/t.db collect --clusters ")" = "all atlas borealis cirrus " ] || fail "zsh: --clusters"

# ---- make install / uninstall into a staging folder ----
STAGE=$WORK/stage
make -s -C "$ROOT" install INSTALL_BIN="$CAPPLAN_BIN" DESTDIR="$STAGE" PREFIX=/usr/local >"$WORK/mk" 2>&1 \
    || fail "make install: $(cat "$WORK/mk")"
# staged (DESTDIR): no user created, but how to create it is said
grep -qx '  useradd --system --user-group --home-dir /var/lib/capplan --shell /usr/sbin/nologin capplan' "$WORK/mk" \
    || fail "make install: how to create the user: $(cat "$WORK/mk")"
tree=$(cd "$STAGE" && find . -type f | sort | tr '\n' ' ')
[ "$tree" = "./usr/local/bin/capplan ./usr/local/lib/systemd/system/capplan-collect.service ./usr/local/lib/systemd/system/capplan-collect.timer ./usr/local/share/bash-completion/completions/capplan ./usr/local/share/doc/capplan/cron.d-capplan ./usr/local/share/man/man1/capplan.1 ./usr/local/share/zsh/site-functions/_capplan " ] \
    || fail "installed tree: $tree"
[ -x "$STAGE/usr/local/bin/capplan" ] || fail "binary not executable"
"$STAGE/usr/local/bin/capplan" --version | grep -q '^capplan [0-9]' || fail "installed --version"
grep -q "^ExecStart=/bin/sh -c 'eval exec /usr/local/bin/capplan --quiet collect" \
    "$STAGE/usr/local/lib/systemd/system/capplan-collect.service" || fail "service ExecStart"
grep -qx "ExecStartPost=/bin/sh -c 'exec /usr/local/bin/capplan --quiet check --quick'" \
    "$STAGE/usr/local/lib/systemd/system/capplan-collect.service" || fail "service ExecStartPost"
grep -q ' capplan /usr/local/bin/capplan --db /var/lib/capplan/capplan.db --quiet collect && /usr/local/bin/capplan --db /var/lib/capplan/capplan.db --quiet check --quick$' \
    "$STAGE/usr/local/share/doc/capplan/cron.d-capplan" || fail "cron line"
if command -v systemd-analyze >/dev/null; then
    systemd-analyze verify --man=no "$STAGE/usr/local/lib/systemd/system/capplan-collect.service" \
        "$STAGE/usr/local/lib/systemd/system/capplan-collect.timer" >"$WORK/mk" 2>&1 \
        || fail "systemd-analyze verify: $(cat "$WORK/mk")"
fi
make -s -C "$ROOT" uninstall DESTDIR="$STAGE" PREFIX=/usr/local >"$WORK/mk" 2>&1 || fail "make uninstall: $(cat "$WORK/mk")"
left=$(cd "$STAGE" && find . -mindepth 1)
[ -z "$left" ] || fail "left after uninstall (files or folders): $left"
# ---- make deps: waits for the apt lock, bounded, and says so ----
# (stand-ins for dpkg-query, every package missing until installed, and
# apt-get, which finds the lock held for its first $LOCKED calls)
mkdir "$WORK/apt"
cat >"$WORK/apt/dpkg-query" <<'EOF'
#!/bin/sh
[ -e "$APT_DIR/installed" ] && printf 'install ok installed'
exit 0
EOF
cat >"$WORK/apt/apt-get" <<'EOF'
#!/bin/sh
echo "$*" >>"$APT_DIR/calls"
n=$(wc -l <"$APT_DIR/calls")
if [ "$n" -le "$LOCKED" ]; then
    echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)" >&2
    echo "E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is another process using it?" >&2
    exit 100
fi
case "$*" in *install*)
    [ -n "$BROKEN" ] && { echo "E: Unable to locate package nope" >&2; exit 100; }
    touch "$APT_DIR/installed" ;;
esac
exit 0
EOF
chmod 755 "$WORK/apt/dpkg-query" "$WORK/apt/apt-get"
deps() { # deps LOCKED WAIT [BROKEN]: run tests/deps.sh demo with the stand-ins
    rm -f "$WORK/apt/calls" "$WORK/apt/installed"
    env PATH="$WORK/apt:$PATH" APT_DIR="$WORK/apt" LOCKED="$1" BROKEN="${3:-}" CAPPLAN_APT_WAIT="$2" \
        CAPPLAN_APT_POLL=1 sh "$ROOT/tests/deps.sh" demo >"$WORK/out" 2>"$WORK/err"
}
deps 2 30 || fail "deps, lock held twice: $(cat "$WORK/out" "$WORK/err")"
[ "$(grep -c 'install -y -qq' "$WORK/apt/calls")" = 1 ] && [ "$(wc -l <"$WORK/apt/calls")" = 4 ] \
    || fail "deps: apt-get calls: $(cat "$WORK/apt/calls")"
[ "$(grep -c '^tests/deps.sh: another apt or dpkg holds the lock; waiting (up to 30 s, 0 s so far)$' "$WORK/err")" = 1 ] \
    || fail "deps: the wait not told once: $(cat "$WORK/err")"
grep -q 'DPkg::Lock::Timeout=1' "$WORK/apt/calls" || fail "deps: no DPkg::Lock::Timeout"
deps 1000 2 && fail "deps: the lock never freed, yet exit 0"
grep -q '^tests/deps.sh: the apt lock is still held after 2 s; try again later (or set CAPPLAN_APT_WAIT)$' "$WORK/err" \
    || fail "deps: bounded wait: $(cat "$WORK/err")"
deps 0 30 broken && fail "deps: apt-get failed, yet exit 0"
[ "$(wc -l <"$WORK/apt/calls")" = 2 ] || fail "deps: another failure is not waited for: $(cat "$WORK/apt/calls")"
grep -q 'Unable to locate package nope' "$WORK/err" || fail "deps: apt's error not shown: $(cat "$WORK/err")"
echo "site_cli: ok"
