#!/bin/sh
# tests/deps.sh [demo|test]: install the Debian packages capplan needs, when
# some are missing. demo: what building and running capplan needs (make,
# make demo). test (the default): that, plus what the tests check with
# (sqlite3, tmux, python3 with scikit-learn, pandas and openpyxl, GNU time,
# rsvg-convert, pandoc, weasyprint and poppler-utils for the report's PDF,
# LibreOffice's headless Calc, clang for the fuzzers, mandoc and man-db for
# the manual page's lint, zsh for its completion).
set -e
BUILD_PKGS="build-essential pkg-config libsqlite3-dev libcsv-dev libcjson-dev libncurses-dev
zlib1g-dev libssl-dev libxlsxwriter-dev libbtparse-dev"
TEST_PKGS="libcmocka-dev sqlite3 tmux python3 python3-sklearn python3-pandas time librsvg2-bin
pandoc libreoffice-calc-nogui clang libclang-rt-14-dev procps weasyprint poppler-utils
python3-openpyxl mandoc man-db zsh"
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
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
