#!/bin/bash
# A short pass of every fuzzer (tests/fuzz/), a few seconds each: the
# decoder and the format reader keep surviving hostile input.
# make fuzz FUZZ_TIME=600 is the long run.
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
FUZZ_CC=${FUZZ_CC:-clang}
# the fuzzers are built with ASan and UBSan whatever the build (the
# Makefile's FUZZ_FLAGS): make check's pass is the sanitizers' already
[ -n "${KTRACE_SANITIZE:-}" ] && { echo "skip - the fuzzers are built with ASan and UBSan in every build; make check runs them"; exit 77; }
command -v "$FUZZ_CC" >/dev/null || { echo "skip - $FUZZ_CC not installed (clang with libclang-rt for libFuzzer)"; exit 77; }
if ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' |
     "$FUZZ_CC" -fsanitize=fuzzer -x c -o /dev/null - 2>/dev/null; then
	echo "skip - $FUZZ_CC cannot link -fsanitize=fuzzer (libclang-rt-dev missing)"
	exit 77
fi
make -s -j"$(nproc)" fuzzers O="${O:-build}" >/dev/null 2>&1 || { nok "make fuzzers failed"; finish; }
O=${O:-build} FUZZ_SEED_SAMPLE=${FUZZ_SEED_SAMPLE:-60} tests/fuzz/run "${FUZZ_SMOKE_TIME:-5}"
