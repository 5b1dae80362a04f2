# make bench: build ./capplan and the sacct generator, then time capplan's
# import beside sqlite3's own .import of the same files (bench/run.sh).
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

bench: capplan $(GEN_SACCT)
	BENCH_SIZES="$(BENCH_SIZES)" ./bench/run.sh $(BUILD)
