# capplan — build, test, bench, demo.  `make` builds ./capplan.
CC      ?= cc
PKGS    := sqlite3 libcjson ncursesw zlib libcrypto xlsxwriter
CSV_LIBS := -lcsv
# BibTeX reader for `import pubs FILE.bib` (Debian libbtparse-dev ships no .pc).
BT_LIBS := -lbtparse
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null) $(CSV_LIBS) $(BT_LIBS) -lm -pthread
WARN    := -Wall -Wextra -Werror -pedantic -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wcast-qual -Wformat=2 -Werror=vla
CFLAGS  ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) $(CPPFLAGS) $(CFLAGS) \
              -I. $(PKG_CFLAGS) -pthread -MMD -MP

SANITIZE ?=
BUILD   := build/release
ifneq ($(SANITIZE),)
BUILD   := build/sanitize
ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
LDSAN   := -fsanitize=$(SANITIZE)
endif

LIB_SRC := $(wildcard core/*.c data/ingest/*.c data/store/*.c data/plan/*.c data/demo/*.c reports/*.c tui/*.c) $(filter-out cli/main.c,$(wildcard cli/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
# data/plan/terms.txt, the research terms dictionary, compiled in as a C string.
TERMS_OBJ := $(BUILD)/gen/terms_txt.o
LIB_OBJ += $(TERMS_OBJ)
# data/ingest/catalog_ref.csv, the reference GPU catalog (#33), compiled in likewise.
CATREF_OBJ := $(BUILD)/gen/catalog_ref.o
LIB_OBJ += $(CATREF_OBJ)
MAIN_OBJ := $(BUILD)/cli/main.o
TEST_SRC := $(wildcard tests/test_*.c)
TESTLIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/lib/*.c))
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

.PHONY: all test demo clean deps deps-demo

all: capplan

ifeq ($(SANITIZE),)
capplan: $(BUILD)/capplan
	cp $< $@
endif

$(BUILD)/capplan: $(LIB_OBJ) $(MAIN_OBJ)
	@$(if $(V),,echo "  LD      $@")
	$(Q)$(CC) $(LDSAN) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

# V=1 shows the whole commands.
Q := $(if $(V),,@)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# cmocka before btparse: both export print_error, and cmocka must find its
# own (btparse's error handlers then print a byte or two, never crash).
$(BUILD)/tests/%: $(BUILD)/tests/%.o $(TESTLIB_OBJ) $(LIB_OBJ)
	@$(if $(V),,echo "  LD      $@")
	$(Q)$(CC) $(LDSAN) -o $@ $^ -lcmocka $(PKG_LIBS)

$(BUILD)/gen/terms_txt.c: data/plan/terms.txt
	@mkdir -p $(dir $@)
	$(Q){ echo '#include "core/research_terms.h"'; echo 'const char *const research_terms_builtin[] = {'; \
	  sed 's/\\/\\\\/g; s/"/\\"/g; s/.*/    "&",/' $<; echo '    0};'; } > $@

$(TERMS_OBJ): $(BUILD)/gen/terms_txt.c
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/gen/catalog_ref.c: data/ingest/catalog_ref.csv
	@mkdir -p $(dir $@)
	$(Q){ echo '#include "data/ingest/catalog.h"'; echo 'const char catalog_builtin_csv[] ='; \
	  sed 's/\\/\\\\/g; s/"/\\"/g; s/.*/    "&\\n"/' $<; echo '    "";'; } > $@

$(CATREF_OBJ): $(BUILD)/gen/catalog_ref.c
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The two README commands. `deps` installs the Debian packages the tests
# need when missing, `deps-demo` only those that building capplan needs.
deps:
	@./tests/deps.sh test

deps-demo:
	@./tests/deps.sh demo

# Every test, under AddressSanitizer and UndefinedBehaviorSanitizer (the
# bench's generator too: tests/e2e/plan_incremental.sh imports its files).
test: deps
	$(MAKE) SANITIZE=address,undefined build/sanitize/capplan build/sanitize/bench/gen_sacct \
		sanitize-tests
	./tests/run.sh build/sanitize

.PHONY: sanitize-tests
sanitize-tests: $(TEST_BIN)

# Every test with the clock a year on (libfaketime), so that a test that
# holds only on some days fails here and not on the day CI happens to run.
# The release build: AddressSanitizer and libfaketime's preload do not mix.
# man-db's seccomp sandbox refuses libfaketime's semaphore: switched off.
FAKETIME_LIB = $(firstword $(wildcard /usr/lib/*/faketime/libfaketime.so.1))
.PHONY: test-next-year
test-next-year: deps
	$(MAKE) build/release/capplan build/release/bench/gen_sacct sanitize-tests
	@test -n "$(FAKETIME_LIB)" || { echo "test-next-year: libfaketime not found (apt-get install faketime)"; exit 1; }
	LD_PRELOAD=$(FAKETIME_LIB) FAKETIME=+365d MAN_DISABLE_SECCOMP=1 ./tests/run.sh build/release

# (capplan is built by a second make, which reads pkg-config's flags once
# the packages are there.)
demo: deps-demo
	$(MAKE) capplan
	./capplan --db demo.db demo

clean:
	rm -rf build capplan

# make bench: build ./capplan and the sacct generator, then time import,
# profile, project, every stats kind, the dashboard and the demo, each beside
# its baseline (bench/run.sh; bench/README).
#   make bench                       # 100k, 300k and 1M jobs
#   make bench BENCH_SIZES="10000"   # a quick run
# The generator links nothing from capplan, so it builds even while the
# library does not.
GEN_SACCT := $(BUILD)/bench/gen_sacct
BENCH_SIZES ?= 100000 300000 1000000

.PHONY: bench gen-sacct
gen-sacct: $(GEN_SACCT)

$(GEN_SACCT): $(BUILD)/bench/gen_sacct.o
	$(CC) $(LDSAN) -o $@ $< -lm

# make reader-cpu: the import's reader thread alone (bench/reader_cpu.c)
READER_CPU := $(BUILD)/bench/reader_cpu
.PHONY: reader-cpu
reader-cpu: $(READER_CPU)

$(READER_CPU): $(BUILD)/bench/reader_cpu.o $(LIB_OBJ)
	@$(if $(V),,echo "  LD      $@")
	$(Q)$(CC) $(LDSAN) -o $@ $^ $(PKG_LIBS)

# make insert-floor: SQLite alone storing an import's attempts (bench/insert_floor.c)
INSERT_FLOOR := $(BUILD)/bench/insert_floor
.PHONY: insert-floor
insert-floor: $(INSERT_FLOOR)

$(INSERT_FLOOR): $(BUILD)/bench/insert_floor.o
	@$(if $(V),,echo "  LD      $@")
	$(Q)$(CC) $(LDSAN) -o $@ $< $(shell pkg-config --libs sqlite3)

bench: capplan $(GEN_SACCT)
	BENCH_SIZES="$(BENCH_SIZES)" ./bench/run.sh $(BUILD)

# make install, uninstall, deb (mk/install.mk); make fuzz, fuzz-check
# (mk/fuzz.mk) and make test-slurm (mk/slurm.mk)
include mk/install.mk mk/fuzz.mk mk/slurm.mk

-include $(shell find build -name '*.d' 2>/dev/null)
