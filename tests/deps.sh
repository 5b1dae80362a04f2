#!/bin/sh
# tests/deps.sh [demo|test]: install the Debian packages capplan needs, when
# some are missing. demo: what building and running capplan needs (make,
# make demo). test (the default): that, plus what the tests check with
# (sqlite3, tmux, python3 with scikit-learn, pandas and openpyxl, GNU time,
# rsvg-convert, pandoc, weasyprint and poppler-utils for the report's PDF,
# LibreOffice's headless Calc, clang for the fuzzers, mandoc and man-db for
# the manual page's lint, zsh for its completion, faketime for the run a year
# on: make test-next-year). When another apt holds the
# lock, it waits (bounded, and says so: see apt() below).
set -e
BUILD_PKGS="build-essential pkg-config libsqlite3-dev libcsv-dev libcjson-dev libncurses-dev
zlib1g-dev libssl-dev libxlsxwriter-dev libbtparse-dev"
TEST_PKGS="libcmocka-dev sqlite3 tmux python3 python3-sklearn python3-pandas time librsvg2-bin
pandoc libreoffice-calc-nogui clang libclang-rt-14-dev procps weasyprint poppler-utils
python3-openpyxl mandoc man-db zsh faketime"
case "${1:-test}" in
demo) PKGS=$BUILD_PKGS ;;
test) PKGS="$BUILD_PKGS $TEST_PKGS" ;;
*) echo "usage: tests/deps.sh [demo|test]" >&2; exit 2 ;;
esac
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
# Another apt or dpkg (unattended-upgrades, a second make deps) may hold the
# lock: wait for it, up to CAPPLAN_APT_WAIT seconds [600], saying so once and
# then every minute, polling every CAPPLAN_APT_POLL seconds [5]; apt's own
# DPkg::Lock::Timeout covers the dpkg lock of the install as well.
WAIT=${CAPPLAN_APT_WAIT:-600}
POLL=${CAPPLAN_APT_POLL:-5}
err=$(mktemp)
trap 'rm -f "$err"' EXIT
apt_locked() {
    grep -Eq 'Could not get lock|Unable to acquire the dpkg frontend lock|Unable to lock|is another process using it' "$err"
}
# apt ARGS...: apt-get ARGS, again while the lock is held, until WAIT is spent
apt() {
    waited=0 told=-60
    while :; do
        if DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout="$POLL" "$@" 2>"$err"; then
            cat "$err" >&2
            return 0
        fi
        if ! apt_locked; then
            cat "$err" >&2
            return 1
        fi
        if [ "$waited" -ge "$WAIT" ]; then
            cat "$err" >&2
            echo "tests/deps.sh: the apt lock is still held after $WAIT s; try again later (or set CAPPLAN_APT_WAIT)" >&2
            return 1
        fi
        if [ $((waited - told)) -ge 60 ]; then
            echo "tests/deps.sh: another apt or dpkg holds the lock; waiting (up to $WAIT s, $waited s so far)" >&2
            told=$waited
        fi
        sleep "$POLL"
        waited=$((waited + POLL))
    done
}
apt update -qq
apt install -y -qq $missing
