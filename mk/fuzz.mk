# make fuzz: libFuzzer targets for capplan's parsers and readers, built
# with clang (ASan + UBSan) into build/fuzz/, apart from the gcc objects.
#   make fuzz                      # each target FUZZ_SECONDS (30) over its corpus
#   make fuzz FUZZ_SECONDS=20
#   make fuzz FUZZ_TARGETS=fuzz_fields
#   make fuzz FUZZ_OPTS="-fork=1 -ignore_crashes=1"   # go on past crashes
#   make fuzz-check                # replay the seed corpora once (a quick regression)
#   make fuzz-build
# Seeds live in tests/fuzz/corpus/<target>/ (each seed's first byte picks
# the target's options: see the comment atop tests/fuzz/<target>.c); what
# libFuzzer finds goes to build/fuzz/corpus/<target>/, crashes to
# build/fuzz/artifacts/. A crash fails the run: copy its file into the
# target's seed folder so that fuzz-check replays it from then on.
# Needs clang and its runtime (Debian: clang, libclang-rt-14-dev).

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 30
FUZZ_DIR     := build/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
                -fno-omit-frame-pointer
# The project's flags, less gcc's optimisation and -Werror (a warning only
# clang gives must not stop the fuzzers; the gcc build is the lint gate).
FUZZ_CFLAGS  := $(filter-out -Werror -O2 -O3 -g -fsanitize=% -fno-sanitize-recover=% \
                  -fno-omit-frame-pointer,$(ALL_CFLAGS)) -O1 -g $(FUZZ_SAN)

# The library: the readers and what they use (by design none of them
# touches the store, the TUI or the reports), as an archive, so that a target
# links only the modules it reaches, and another engineer's half-written
# file elsewhere does not stop the fuzzers. A reader that starts using
# another module shows as an undefined reference: add the module here.
FUZZ_LIB_SRC := $(wildcard core/cp.c core/strmap.c core/civil.c data/fields.c data/jobrec.c data/reader.c \
                  data/linereader.c data/peekfile.c data/sacct_fields.c data/sacct_text.c \
                  data/fold.c data/json_stream.c data/sacct_json.c data/csvin.c \
                  data/sacct_kv.c data/trace.c data/trace_*.c data/textenc.c data/tz.c \
                  data/jobstats.c)
FUZZ_LIB_OBJ := $(FUZZ_LIB_SRC:%.c=$(FUZZ_DIR)/%.o)
FUZZ_LIB     := $(FUZZ_DIR)/libcapplan_fuzz.a

# The deep target (fuzz_pipeline: import into an in-memory database, then
# status, every stats kind, profile, project and the report) links the
# whole program less main, as a second archive.
FUZZ_DEEP_SRC := $(wildcard core/*.c data/*.c reports/*.c tui/*.c) \
                 $(filter-out cli/main.c,$(wildcard cli/*.c))
FUZZ_DEEP_OBJ := $(FUZZ_DEEP_SRC:%.c=$(FUZZ_DIR)/%.o)
FUZZ_DEEP_LIB := $(FUZZ_DIR)/libcapplan_deep.a

# A reader's target exists only once the reader's header does.
FUZZ_ALL     := fuzz_fields fuzz_pipeline \
                $(if $(wildcard data/sacct_text.h),fuzz_sacct_text) \
                $(if $(wildcard data/sacct_json.h),fuzz_sacct_json) \
                $(if $(wildcard data/csvin.h),fuzz_csvin) \
                $(if $(wildcard data/sacct_kv.h),fuzz_sacct_kv) \
                $(if $(wildcard data/trace.h),fuzz_trace)
FUZZ_TARGETS ?= $(strip $(FUZZ_ALL))
FUZZ_BIN     := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/%)
FUZZ_OPTS    ?=
FUZZ_RUNOPTS := -timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 $(FUZZ_OPTS)

.PHONY: fuzz fuzz-build fuzz-check
ifeq ($(shell command -v $(FUZZ_CC) 2>/dev/null),)
fuzz fuzz-build fuzz-check:
	@echo "make $@: $(FUZZ_CC) not found; install clang and libclang-rt-14-dev (Debian 12)" >&2
	@exit 1
else
fuzz-build: $(FUZZ_BIN)

$(FUZZ_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_LIB): $(FUZZ_LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(FUZZ_DEEP_LIB): $(FUZZ_DEEP_OBJ)
	rm -f $@
	ar rcs $@ $^

$(FUZZ_DIR)/fuzz_pipeline: $(FUZZ_DIR)/tests/fuzz/fuzz_pipeline.o $(FUZZ_DEEP_LIB)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS)

$(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/tests/fuzz/fuzz_%.o $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS)

# Runs every target even after one failed; fails at the end if any did.
fuzz: $(FUZZ_BIN)
	@mkdir -p $(FUZZ_DIR)/artifacts
	@failed=""; \
	for t in $(FUZZ_TARGETS); do \
	    mkdir -p $(FUZZ_DIR)/corpus/$$t tests/fuzz/corpus/$$t; \
	    echo "== $$t: $(FUZZ_SECONDS) s"; \
	    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	    ASAN_OPTIONS=detect_leaks=1 \
	    $(FUZZ_DIR)/$$t $(FUZZ_RUNOPTS) -max_total_time=$(FUZZ_SECONDS) \
	        -artifact_prefix=$(FUZZ_DIR)/artifacts/$$t- \
	        $(FUZZ_DIR)/corpus/$$t tests/fuzz/corpus/$$t >$(FUZZ_DIR)/$$t.log 2>&1; \
	    rc=$$?; \
	    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)' \
	        $(FUZZ_DIR)/$$t.log | tr '\n' ' '; echo; \
	    if [ $$rc -ne 0 ]; then \
	        failed="$$failed $$t"; \
	        grep -E -A40 '^==[0-9]+==ERROR|runtime error|fuzz: check failed|deadly signal' \
	            $(FUZZ_DIR)/$$t.log | head -60; \
	        ls -t $(FUZZ_DIR)/artifacts/$$t-* 2>/dev/null | head -1 | sed 's/^/reproducer: /'; \
	    fi; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: FAILED:$$failed (logs in $(FUZZ_DIR)/)"; exit 1; fi; \
	echo "fuzz: $(words $(FUZZ_TARGETS)) targets, no crash in $(FUZZ_SECONDS) s each"

# Replays the seeds (crash reproducers included) once: no fuzzing.
fuzz-check: $(FUZZ_BIN)
	@failed=""; \
	for t in $(FUZZ_TARGETS); do \
	    n=$$(ls tests/fuzz/corpus/$$t 2>/dev/null | wc -l); \
	    if [ "$$n" -eq 0 ]; then echo "$$t: no seeds"; continue; fi; \
	    if UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	       $(FUZZ_DIR)/$$t -runs=0 tests/fuzz/corpus/$$t >$(FUZZ_DIR)/$$t.check.log 2>&1; then \
	        echo "PASS: $$t ($$n seeds)"; \
	    else \
	        failed="$$failed $$t"; tail -40 $(FUZZ_DIR)/$$t.check.log; echo "FAIL: $$t"; \
	    fi; \
	done; \
	[ -z "$$failed" ] || { echo "fuzz-check: FAILED:$$failed"; exit 1; }
endif
