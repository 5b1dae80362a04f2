#!/bin/sh
# Install the Debian packages capplan needs, when some are missing.
set -e
PKGS="build-essential pkg-config libsqlite3-dev libcsv-dev libcjson-dev libncurses-dev libcmocka-dev sqlite3 tmux python3 python3-sklearn python3-pandas time librsvg2-bin pandoc libreoffice-calc-nogui"
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
