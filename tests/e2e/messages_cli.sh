#!/bin/sh
# One rule for messages (what cron mails and a log keeps): --quiet prints
# nothing but errors; every error line, and the usage line after it, starts
# with the local time off a terminal; every bad argument is named with what
# is allowed. On a small demo, pinned to a day; no shared data needed.
. "$(dirname "$0")/lib.sh"
cap demo --today 2026-11-25 --no-tui --jobs 2000 --seed 3 >/dev/null 2>&1 || fail "demo"
cd "$WORK" || fail "cd"

# refused CMD... : exit 2 and the first line of stderr is LINE exactly
refused() {
    line=$1; shift
    # shellcheck disable=SC2068
    expect_rc 2 cap $@
    [ "$(head -n 1 "$WORK/err")" = "capplan: $line" ] || fail "$*: '$(head -n 1 "$WORK/err")', expected 'capplan: $line'"
    [ ! -s "$WORK/out" ] || fail "$*: printed on stdout: $(head -n 2 "$WORK/out")"
}
refused "tui: --size: expected WxH, 20x5 to 1000x500 (e.g. 120x40), got '10'" tui --size 10
refused "tui: --iterations: expected 1..10000000, got '0'" tui --iterations 0
refused "meetings: unknown subcommand 'bogus' (list, pick, mismatches, import FILE.csv, export FILE.csv, import-needs FILE.csv, export-needs FILE.csv or apply USER)" meetings bogus
refused "meetings: --per-group: expected 1..3, got '9'" meetings pick --per-group 9
refused "meetings import: needs a FILE.csv" meetings import
refused "meetings list: takes no argument, got 'x'" meetings list x
refused "export: 'foo.txt': expected a file ending .md, .html or .xlsx (or --csv DIR)" export foo.txt
refused "export: --years: expected 1..10, got '99'" export r.md --years 99
refused "export: nothing to write: give report.md, report.html, budget.xlsx or --csv DIR" export
refused "status: takes only --json, got 'extra'" status --json extra
refused "check: cannot use 'extra' (the usage below)" check extra
refused "scenario: unknown subcommand 'bogus' (list, new, set, diff, rm or undo)" scenario bogus
refused "scenario: cannot use 'diff a' (the usage below)" scenario diff a
refused "research: --k needs a value (1..8)" research --k
refused "research: --k: expected 1..8, got '99'" research --k 99
refused "project: --explain prints text: not with --json" project --explain G --json
refused "project: --json or --csv, not both" project --json --csv
refused "project: --years 'x': expected 1..10" project --years x
refused "stats: unknown kind 'bogus' (utilization, preemption, waits, efficiency, domains, pubs, fairshare or energy)" stats bogus
refused "stats: --by takes month, year or all, not 'bogus'" stats utilization --by bogus
refused "demo: --jobs: expected a whole number from 1000 to 10000000, got '-5'" demo --jobs -5
refused "demo: --today: expected a day, YYYY-MM-DD, got '2026-13-01'" demo --today 2026-13-01
refused "unknown command 'bogus' (commands: import, collect, status, demo, profile, project, scenario, tui, stats, meetings, export, check, complete, research, simulate; capplan --help says more)" bogus
# --json honoured or refused wherever it is offered; --json and --csv not both
refused "scenario new: no --json output (list and diff have one)" scenario new s2 --json
refused "meetings export: no --json output (list, pick and mismatches have one)" meetings export m.csv --json
refused "stats: --json or --csv, not both" stats utilization --json --csv
refused "research: --json or --csv, not both" research --json --csv
refused "project --backtest: text or --json, not --csv" project --backtest --csv
refused "export: unknown option '--json'" export r.md --json
refused "export: --years needs a value" export r.md --years
[ ! -e m.csv ] || fail "meetings export wrote m.csv though refused"
expect_rc 2 "$CAPPLAN_BIN"
[ "$(cat "$WORK/err")" = "capplan: no command given (commands: import, collect, status, demo, profile, project, scenario, tui, stats, meetings, export, check, complete, research, simulate; capplan --help says more)" ] \
    || fail "no command: $(cat "$WORK/err")"
# every refusal of a command is followed by its usage line
expect_rc 2 cap meetings bogus
[ "$(sed -n 2p "$WORK/err")" = "usage: $("$CAPPLAN_BIN" meetings --help | head -n 1 | sed 's/^usage: //')" ] \
    || fail "usage line: $(sed -n 2p "$WORK/err")"

# --quiet: nothing but errors, on stdout or stderr
expect_rc 0 cap --quiet export r.md
[ ! -s "$WORK/out" ] && [ ! -s "$WORK/err" ] || fail "--quiet export printed: $(cat "$WORK/out" "$WORK/err")"
[ -s r.md ] || fail "--quiet export wrote no r.md"
expect_rc 0 cap export r.md
grep -Eq '^capplan: export: r\.md written in [0-9.]+ s$' "$WORK/err" || fail "export without --quiet: $(cat "$WORK/err")"
expect_rc 0 cap --quiet collect --help
expect_rc 2 cap --quiet export r.txt
grep -q "^capplan: export: 'r.txt'" "$WORK/err" || fail "--quiet hid an error: $(cat "$WORK/err")"

# off a terminal every error line and the usage line carry the local time
STAMP='[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{4}'
stamped() { # stamped CMD...: every line of stderr starts with the time
    env -u CAPPLAN_LOG_TIME "$CAPPLAN_BIN" "$@" >/dev/null 2>"$WORK/err"
    [ -s "$WORK/err" ] || fail "$*: nothing on stderr"
    bad=$(grep -Ev "^$STAMP (capplan|usage): " "$WORK/err")
    [ -z "$bad" ] || fail "$*: a line without a time stamp: $bad"
}
stamped --db
stamped --bogus
stamped --db "$WORK/t.db" bogus
stamped --db "$WORK/t.db"
stamped --db "$WORK/t.db" stats bogus
stamped --db "$WORK/t.db" stats utilization --by bogus
stamped --db "$WORK/t.db" project --years x
stamped --db "$WORK/t.db" demo --jobs -5
stamped --db "$WORK/t.db" meetings bogus
stamped --db "$WORK/t.db" scenario bogus
stamped --db "$WORK/t.db" export foo.txt
stamped --db "$WORK/none.db" status
stamped --db "$WORK/t.db" export r.md
echo "messages_cli: ok"
