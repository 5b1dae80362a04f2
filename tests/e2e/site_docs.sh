#!/bin/sh
# docs/site.md shows an administrator what to type and what capplan prints.
# Every fenced block of the page is known here by its first line and held to
# what the real parts do; a block this script does not know fails it (a new
# command on the page needs a check). Run here: make install and uninstall
# (as root without DESTDIR: a real system user and its folder, then removed;
# staged with DESTDIR), the file table, the cron line, the unit's reading of
# /etc/default/capplan (the page's CAPPLAN_COLLECT_ARGS through the unit's own
# ExecStart, words compared), the drop-in's ExecStart lines (a oneshot
# service), the package's file name. Not runnable without a cluster and a
# login node, and run by make test-slurm instead (CI runs it): the collect
# through ssh, its closing line and the PrivateData refusal (both compared
# with this page word for word there), two slurmdbds into one database; by
# tests/deb.sh: the package's install and purge.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PAGE=$ROOT/docs/site.md
python3 - "$PAGE" "$WORK/blk" <<'PY' >"$WORK/blocks" || fail "docs/site.md: no fenced blocks"
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
n, i = 0, 0
while i < len(lines):
    if lines[i].startswith("```"):
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        n += 1
        open(f"{sys.argv[2]}.{n}", "w").write("\n".join(lines[i + 1:j]) + "\n")
        print(f"{n}\t{i + 2}\t{lines[i + 1] if i + 1 < j else ''}")
        i = j
    i += 1
sys.exit(0 if n else 1)
PY

# ---- install and uninstall, run for real ----
STAGE=$WORK/stage
make -s -C "$ROOT" install INSTALL_BIN="$CAPPLAN_BIN" DESTDIR="$STAGE" >"$WORK/staged.out" 2>&1 \
    || fail "make install DESTDIR: $(cat "$WORK/staged.out")"
UNIT=$STAGE/usr/local/lib/systemd/system/capplan-collect.service
CRON=$STAGE/usr/local/share/doc/capplan/cron.d-capplan
ran_root=0
if [ "$(id -u)" = 0 ] && command -v useradd >/dev/null; then
    # a user and folder of the test's own, named apart from a real capplan
    U=cpdoc$$
    S=$WORK/state/capplan
    P=$WORK/prefix
    mkdir -p "$WORK/state"
    make -s -C "$ROOT" install INSTALL_BIN="$CAPPLAN_BIN" PREFIX="$P" CAPPLAN_USER="$U" STATEDIR="$S" \
        >"$WORK/root.out" 2>&1 || { userdel "$U" 2>/dev/null; fail "make install as root: $(cat "$WORK/root.out")"; }
    owner=$(stat -c '%U %a' "$S")
    make -s -C "$ROOT" uninstall PREFIX="$P" CAPPLAN_USER="$U" STATEDIR="$S" >"$WORK/unroot.out" 2>&1
    rc=$?
    left=$(find "$P" -mindepth 1 -type f)
    userdel "$U" 2>/dev/null; groupdel "$U" 2>/dev/null
    [ "$rc" = 0 ] || fail "make uninstall as root: $(cat "$WORK/unroot.out")"
    [ "$owner" = "$U 750" ] || fail "make install: $S is '$owner', not '$U 750'"
    [ -z "$left" ] || fail "make uninstall left files: $left"
    ran_root=1
else
    echo "site_docs: not root (or no useradd): make install's user and folder are not created here"
fi

# same BLOCK OUT: the block's lines are the output's, with the page's user
# and folder (capplan, /var/lib/capplan) for the test's own
same() {
    sed -e "s|/var/lib/capplan|$S|g" -e "s|user capplan|user $U|g" -e "s|userdel capplan|userdel $U|g" \
        -e "s|owned by capplan|owned by $U|g" -e "s|the user capplan|the user $U|g" "$1" >"$WORK/want"
    cmp -s "$WORK/want" "$2" || { diff "$WORK/want" "$2"; return 1; }
}

checked=0
while IFS='	' read -r n line first; do
    b=$WORK/blk.$n
    at="docs/site.md line $line"
    case $first in
    "make deps-demo"*)
        # the targets exist; install ran above
        for t in deps-demo install; do make -s -n -C "$ROOT" "$t" >/dev/null 2>&1 || fail "$at: no make target $t"; done
        grep -q '^sudo make install ' "$b" || fail "$at: the install line changed"
        ;;
    "make install: created the system user capplan")
        if [ "$ran_root" = 1 ]; then same "$b" "$WORK/root.out" || fail "$at: not what make install printed as root"; fi
        ;;
    "make install: the nightly collect runs as user capplan"*)
        cmp -s "$b" "$WORK/staged.out" || { diff "$b" "$WORK/staged.out"; fail "$at: not what make install DESTDIR=... printed"; }
        ;;
    "make deb "*)
        make -s -n -C "$ROOT" deb >/dev/null 2>&1 || fail "$at: no make target deb"
        v=$(sed -n '1s/^capplan (\([^)]*\)).*/\1/p' "$ROOT/debian/changelog")
        deb=$(sed -n 's/^sudo dpkg -i \(build\/deb\/[^ ]*\.deb\).*/\1/p' "$b")
        [ "$deb" = "build/deb/capplan_${v}_$(dpkg --print-architecture 2>/dev/null || echo amd64).deb" ] \
            || fail "$at: the package is build/deb/capplan_${v}_ARCH.deb (debian/changelog), the page says $deb"
        grep -q 'dpkg -i "\$deb"' "$ROOT/tests/deb.sh" || fail "$at: tests/deb.sh no longer installs the package"
        ;;
    "sudo -u capplan mkdir -m 700 /var/lib/capplan/.ssh")
        # ssh to a login node: not here. The user's home is where the keys go.
        grep -q -- "--home-dir \$(STATEDIR)" "$ROOT/mk/install.mk" || fail "$at: the user's home is not STATEDIR"
        grep -q "BatchMode=yes" "$b" || fail "$at: BatchMode"
        ;;
    "capplan: collect: Slurm's PrivateData=jobs"*)
        grep -q "site.md's PrivateData refusal" "$ROOT/tests/slurm/test_collect.sh" || fail "$at: make test-slurm no longer compares it"
        ;;
    "sudo -u capplan capplan --db /var/lib/capplan/capplan.db collect"*)
        # the options are collect's: its usage takes them
        for o in --sacct --clusters; do "$CAPPLAN_BIN" collect --help 2>&1 | grep -q -- "$o" || fail "$at: collect has no $o"; done
        ;;
    "collect: sacct since 2000-01-01T00:00:00Z -M all: "*)
        grep -q "site.md's collect line" "$ROOT/tests/slurm/test_collect.sh" || fail "$at: make test-slurm no longer compares it"
        ;;
    "capplan --db /var/lib/capplan/capplan.db collect --sacct"*)
        [ -f "$ROOT/tests/slurm/test_two_dbds.sh" ] || fail "$at: no two-slurmdbd test"
        ;;
    "sudo tee /etc/default/capplan <<'EOF'")
        # the page's settings, read as the unit reads them, through its ExecStart
        grep -qx 'EnvironmentFile=-/etc/default/capplan' "$UNIT" || fail "$at: the unit does not read /etc/default/capplan"
        sed -n '2,/^EOF$/p' "$b" | sed '$d' >"$WORK/default"
        cat >"$WORK/words" <<'EOF'
#!/bin/sh
for w in "$@"; do printf '[%s]\n' "$w"; done
EOF
        chmod 755 "$WORK/words"
        start=$(sed -n 's/^ExecStart=\/bin\/sh -c //p' "$UNIT" | sed "s/^'//; s/'\$//; s/\\\$\\\$/\$/g" \
            | sed "s|/usr/local/bin/capplan|$WORK/words|")
        (set -a; . "$WORK/default"; sh -c "$start") >"$WORK/argv" || fail "$at: the unit's ExecStart with the page's settings"
        printf '[--quiet]\n[collect]\n[--clusters]\n[all]\n[--sacct]\n[ssh -o BatchMode=yes login1 sacct]\n' >"$WORK/want"
        cmp -s "$WORK/want" "$WORK/argv" || { diff "$WORK/want" "$WORK/argv"; fail "$at: the unit does not pass the page's CAPPLAN_COLLECT_ARGS as capplan's words"; }
        grep -q '^systemctl list-timers capplan-collect.timer' "$b" || fail "$at: the timer's name"
        [ -f "$STAGE/usr/local/lib/systemd/system/capplan-collect.timer" ] || fail "$at: no capplan-collect.timer installed"
        ;;
    "[Service]")
        grep -qx 'Type=oneshot' "$UNIT" || fail "$at: several ExecStart lines need a oneshot service"
        grep -qx 'ExecStart=' "$b" || fail "$at: the drop-in must empty ExecStart first"
        grep '^ExecStart=.' "$b" | while read -r l; do
            case $l in "ExecStart=/usr/local/bin/capplan --quiet collect --sacct '"*" sacct'") ;;
            *) echo "$l"; exit 1 ;; esac
        done || fail "$at: an ExecStart line is not capplan --quiet collect --sacct '... sacct'"
        ;;
    "30 2 * * * capplan "*)
        grep -v '^#\|^[A-Z]*=' "$CRON" >"$WORK/cronline"
        cmp -s "$b" "$WORK/cronline" || { diff "$b" "$WORK/cronline"; fail "$at: not the installed cron line"; }
        ;;
    "make uninstall: kept the user capplan"*)
        if [ "$ran_root" = 1 ]; then same "$b" "$WORK/unroot.out" || fail "$at: not what make uninstall printed as root"; fi
        ;;
    "sudo CAPPLAN_PURGE_DATA=yes dpkg --purge capplan"*)
        grep -q 'CAPPLAN_PURGE_DATA=yes dpkg --purge capplan' "$ROOT/tests/deb.sh" || fail "$at: tests/deb.sh no longer purges so"
        ;;
    *)
        fail "$at: a block no test checks ('$first'): add its check to tests/e2e/site_docs.sh"
        ;;
    esac
    checked=$((checked + 1))
done <"$WORK/blocks"

# the file table of section 1: each row installed (staged), and nothing else
python3 - "$PAGE" "$STAGE/usr/local" <<'PY' || fail "docs/site.md: the table of installed files"
import os, re, sys
page, prefix = sys.argv[1], sys.argv[2]
rows = []
for l in open(page, encoding="utf-8"):
    m = re.match(r"\| `\$PREFIX/([^`]+)` \|", l)
    if m:
        p = m.group(1)
        b = re.match(r"(.*)\{([^}]*)\}(.*)", p)
        rows += [b.group(1) + x + b.group(3) for x in b.group(2).split(",")] if b else [p]
found = sorted(os.path.relpath(os.path.join(d, f), prefix) for d, _, fs in os.walk(prefix) for f in fs)
assert sorted(rows) == found, (sorted(rows), found)
PY
[ "$checked" -ge 14 ] || fail "only $checked blocks in docs/site.md"
echo "site_docs: $checked blocks checked"
