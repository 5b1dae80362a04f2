#!/bin/sh
# tests/deb.sh: the Debian package, as a site would take it (CI part
# "make deb"; needs root and dpkg-dev debhelper fakeroot lintian man-db).
# Builds it (make deb: dpkg-buildpackage -us -uc), checks lintian reports no
# error and what it holds (dpkg -c), installs it with dpkg -i, runs
# `capplan --version`, `man -w capplan`, the completion and systemd-analyze
# verify on the units, then removes it (dpkg --purge) and checks that nothing
# of it is left: the user and group capplan go (debian/postrm), a database in
# /var/lib/capplan stays unless CAPPLAN_PURGE_DATA=yes. One PASS/FAIL line a
# check, then "N passed, M failed".
cd "$(dirname "$0")/.." || exit 1
passed=0 failed=0
pass() { passed=$((passed + 1)); echo "PASS: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
finish() { echo "deb: $passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }
[ "$(id -u)" -eq 0 ] || { fail "needs root (dpkg -i)"; finish; }
if dpkg-query -W -f='${Status}' capplan 2>/dev/null | grep -q "install ok installed"; then
    fail "a capplan package is installed already; not touching it"
    finish
fi
version=$(sed -n '1s/^capplan (\([^)]*\)).*/\1/p' debian/changelog)
arch=$(dpkg --print-architecture)
deb=build/deb/capplan_${version}_$arch.deb
log=$(mktemp)
if make deb >"$log" 2>&1 && [ -f "$deb" ]; then
    pass "make deb: $deb ($(du -k "$deb" | cut -f1) KB)"
else
    tail -n 30 "$log"
    fail "make deb"
    rm -f "$log"
    finish
fi
lintian "$deb" >"$log" 2>&1
if grep -q '^E: ' "$log"; then
    fail "lintian errors: $(grep '^E: ' "$log" | tr '\n' ' ')"
else
    pass "lintian: no error ($(grep -c '^W: ' "$log") warnings)"
fi
want="./usr/bin/capplan ./usr/share/man/man1/capplan.1.gz ./usr/share/bash-completion/completions/capplan
./usr/share/zsh/vendor-completions/_capplan ./lib/systemd/system/capplan-collect.service
./lib/systemd/system/capplan-collect.timer ./usr/share/doc/capplan/cron.d-capplan"
dpkg -c "$deb" | awk '{print $6}' >"$log"
missing=""
for f in $want; do grep -qx -- "$f" "$log" || missing="$missing $f"; done
[ -z "$missing" ] && pass "dpkg -c: binary, man page, completions, units, cron example" \
    || fail "dpkg -c lacks:$missing"
user_before=$(getent passwd capplan)
if dpkg -i "$deb" >"$log" 2>&1; then
    pass "dpkg -i"
    v=$(/usr/bin/capplan --version)
    [ "$v" = "capplan ${version%-*}" ] && pass "capplan --version: $v" || fail "capplan --version: '$v'"
    m=$(man -w capplan 2>&1)
    [ "$m" = /usr/share/man/man1/capplan.1.gz ] && pass "man -w capplan: $m" || fail "man -w: $m"
    if systemd-analyze verify /lib/systemd/system/capplan-collect.service \
        /lib/systemd/system/capplan-collect.timer >"$log" 2>&1; then
        pass "systemd-analyze verify: the service and timer"
    else
        fail "systemd-analyze verify: $(cat "$log")"
    fi
    c=$(bash -c '. /usr/share/bash-completion/completions/capplan
        COMP_WORDS=(capplan sta); COMP_CWORD=1; _capplan; echo "${COMPREPLY[*]}"')
    [ "$c" = "status stats" ] && pass "bash completion: capplan sta -> $c" || fail "bash completion: '$c'"
    getent passwd capplan >/dev/null && pass "system user capplan" || fail "no user capplan"
else
    fail "dpkg -i: $(tail -n 5 "$log")"
fi
# a database in the package's folder: purge removes the user and its group
# and keeps the database (owned by root), saying so
[ -d /var/lib/capplan ] && [ "$(stat -c %U /var/lib/capplan)" = capplan ] \
    && pass "/var/lib/capplan owned by capplan" || fail "/var/lib/capplan: $(ls -ld /var/lib/capplan 2>&1)"
/usr/bin/capplan --db /var/lib/capplan/capplan.db demo --no-tui --jobs 1000 --today 2026-11-25 \
    --dir /var/lib/capplan/demo-input >/dev/null 2>&1 || fail "a database in /var/lib/capplan"
dpkg --purge capplan >"$log" 2>&1 || fail "dpkg --purge: $(tail -n 3 "$log")"
if [ ! -e /usr/bin/capplan ] && ! man -w capplan >/dev/null 2>&1 &&
    [ ! -e /lib/systemd/system/capplan-collect.timer ]; then
    pass "dpkg --purge: nothing of the program left"
else
    fail "files left after dpkg --purge"
fi
if [ -z "$user_before" ]; then
    if ! getent passwd capplan >/dev/null && ! getent group capplan >/dev/null; then
        pass "dpkg --purge: the user and group capplan removed"
    else
        fail "dpkg --purge left: $(getent passwd capplan) $(getent group capplan)"
    fi
fi
if [ -s /var/lib/capplan/capplan.db ] && [ "$(stat -c %U /var/lib/capplan/capplan.db)" = root ] &&
    grep -q 'kept /var/lib/capplan (the database)' "$log"; then
    pass "dpkg --purge: the database kept, owned by root, and said: $(grep 'kept' "$log")"
else
    fail "dpkg --purge and the database: $(ls -la /var/lib/capplan 2>&1) $(cat "$log")"
fi
# asked to: CAPPLAN_PURGE_DATA=yes removes it too
if dpkg -i "$deb" >"$log" 2>&1 && CAPPLAN_PURGE_DATA=yes dpkg --purge capplan >"$log" 2>&1 &&
    [ ! -e /var/lib/capplan ] && { [ -n "$user_before" ] || ! getent passwd capplan >/dev/null; }; then
    pass "CAPPLAN_PURGE_DATA=yes dpkg --purge: /var/lib/capplan removed as well"
else
    fail "CAPPLAN_PURGE_DATA=yes dpkg --purge: $(ls -la /var/lib/capplan 2>&1) $(tail -n 3 "$log")"
fi
rm -f "$log"
finish
