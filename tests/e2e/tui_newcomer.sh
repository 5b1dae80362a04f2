#!/bin/sh
# capplan tui, issue 30 items 5 and 6: a newcomer with their own data and
# nothing else (a sacct file; an SWF trace, CPU-only), at 80x24 and
# 200x60. Each view says what is missing and the command that adds it; no
# capacity of 0 is a shortage; no year shows twice; CPU-only data says CPUs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_helpers.inc"
need_shared

SACCT="$WORK/sacct.db"
SWF="$WORK/swf.db"
"$CAPPLAN_BIN" --db "$SACCT" import sacct "$DATA/slurm-sandbox/sacct_wide.psv" >/dev/null \
    || fail "import sacct"
"$CAPPLAN_BIN" --db "$SWF" import trace --kind swf "$DATA/swf-pwa-osc-clust/OSC-Clust-2000-3.1-cln.swf" \
    >/dev/null || fail "import swf"

# no_year_twice: the Overview's year rows (" 2025  ...") name each year once.
no_year_twice() {
    dup=$(grep -o '^ [0-9][0-9][0-9][0-9]  ' "$WORK/screen" | sort | uniq -d)
    [ -z "$dup" ] || { cat "$WORK/screen"; fail "$1: a year shown twice: $dup"; }
}

for size in 80x24 200x60; do
    TUI_W=${size%x*}; TUI_H=${size#*x}

    # sacct only: no roster, no inventory, too few months to plan from.
    tui_start "$SACCT"
    wait_for "No roster (groups are accounts): capplan import roster FILE"
    wait_for "No inventory (capacity unknown, nothing short): capplan import inventory FILE"
    wait_for "No projection yet (too few jobs or months): capplan import sacct FILE"
    no_year_twice "sacct $size"
    absent " of 0 "
    keys 2; wait_for "capplan · Groups"
    wait_for "No roster (groups are accounts): capplan import roster FILE"
    keys 5; wait_for "capplan · Projection"
    wait_for "No projection yet (too few jobs or months): capplan import sacct FILE"
    keys 4; wait_for "No compute profiles yet (too few jobs or months): capplan import sacct FILE"
    tui_quit

    # SWF only: a CPU-only history with a projection, no inventory.
    tui_start "$SWF"
    wait_for "Mean CPUs a year"
    wait_for "CPU-only history, figures in CPUs: for GPUs, capplan import sacct FILE"
    wait_for "No inventory (capacity unknown, nothing short): capplan import inventory FILE"
    wait_for "CPUs, capacity unknown"
    no_year_twice "swf $size"
    absent "GPU-eq"
    absent " of 0 "
    absent "class short"
    keys 2; wait_for "capplan · Groups"
    wait_for "CPU-only history, figures in CPUs"
    keys 5; wait_for "Mean CPUs a year"
    wait_for "pool CPUs"
    absent "GPU-eq"
    keys 6; wait_for "capplan · Usage"
    wait_for "CPU-only: no GPU in use"
    tui_quit
done
exit 0
