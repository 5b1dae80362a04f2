#!/bin/sh
# tests/deb.sh: the Debian package, as a site would take it (CI part
# "make deb"; needs root and dpkg-dev debhelper fakeroot lintian man-db).
# Builds it (make deb: dpkg-buildpackage -us -uc), checks lintian reports no
# error and what it holds (dpkg -c), installs it with dpkg -i, runs
# `capplan --version`, `man -w capplan`, the completion and systemd-analyze
# verify on the units, then removes it (dpkg --purge) and checks that nothing
# of it is left. One PASS/FAIL line a check, then "N passed, M failed".
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
dpkg --purge capplan >"$log" 2>&1 || fail "dpkg --purge: $(tail -n 3 "$log")"
if [ ! -e /usr/bin/capplan ] && ! man -w capplan >/dev/null 2>&1 &&
    [ ! -e /lib/systemd/system/capplan-collect.timer ]; then
    pass "dpkg --purge: nothing of it left"
else
    fail "files left after dpkg --purge"
fi
# the user the package made, when there was none before
if [ -z "$user_before" ] && getent passwd capplan >/dev/null; then
    deluser --system capplan >/dev/null 2>&1
    getent group capplan >/dev/null && delgroup --system capplan >/dev/null 2>&1
    rm -rf /var/lib/capplan
fi
rm -f "$log"
finish
