# make test-slurm: `capplan collect` against a real Slurm 22.05 with
# accounting (tests/slurm/): installs slurm-wlm slurmdbd slurm-client
# mariadb-server munge when missing, starts a private sandbox on loopback,
# runs a first collect month by month from 2000, submits a job mix,
# collects, checks job by job, collects through ssh, with --clusters all,
# killed and resumed, and as a plain user under PrivateData=jobs (refused),
# stops everything by PID; then two slurmdbds (two sandboxes, two clusters)
# collected into one database (tests/slurm/test_two_dbds.sh).
# Needs root and Debian 12; about 2 minutes (plus the packages, once).
# capplan is the ASan + UBSan build, as in `make test`.
#   make test-slurm
#   CP_SLURM_KEEP=1 make test-slurm     # keep the sandbox's logs in /tmp

.PHONY: test-slurm
test-slurm: deps
	$(MAKE) SANITIZE=address,undefined build/sanitize/capplan
	ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	CAPPLAN_BIN="$(CURDIR)/build/sanitize/capplan" \
	    bash tests/slurm/test_collect.sh
	ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	CAPPLAN_BIN="$(CURDIR)/build/sanitize/capplan" \
	    bash tests/slurm/test_two_dbds.sh
