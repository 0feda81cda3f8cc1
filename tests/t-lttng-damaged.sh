#!/bin/bash
# t-lttng-damaged.sh - damaged LTTng structures in a real dump are refused
# with a message naming the object, address and cause, what is intact is
# still written, and the exit status says something was lost (10). The
# copies of the k6.1-lttng fixture and of the RING_TRUTH=lttng cases
# (k6.12-s390x-lttng, big-endian; k6.12-ppc64el-64k-lttng and
# k6.12-arm64-16k-lttng, 64 and 16 KiB pages: scripts/make-damaged-lttng): cpu 0's
# sub-buffer id indexes a page set that does not exist; cpu 0's commit
# count is past what was reserved in its sub-buffer; the session's
# metadata is cut short. Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
command -v babeltrace2 >/dev/null || { echo "skip - babeltrace2 missing"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t-lttng-damaged.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# damaged_case CASE DIR VMLINUX MODS DD: every check on one fixture's
# damaged copies (DD: make-damaged-lttng's directory for CASE)
damaged_case() {
	local c=$1 D=$2 DD=$5 t=$tmp/$1 buf0 cache rc k v sets
	local X=("$KTRACE_BIN" -x "$3" --module-debuginfo "$4")
	mkdir -p "$t"
	"${X[@]}" --lttng "$t/good" "$D/vmcore.elf" 2>"$t/good.log" ||
		{ nok "$c: ktrace-extract --lttng on the intact dump: $(tail -n 2 "$t/good.log")"; return; }
	"$top/scripts/make-damaged-lttng" -c "$c" "$t/good.log" >/dev/null 2>"$t/make.err" ||
		{ nok "$c: make-damaged-lttng: $(cat "$t/make.err")"; return; }
	buf0=$(grep -o 'cpu 0: buffer at 0x[0-9a-f]*' "$t/good.log" | sed 's/.* //')
	cache=$(grep -o 'metadata cache at 0x[0-9a-f]*' "$t/good.log" | sed 's/.* //')
	# page sets: num_subbuf + 1 in overwrite mode
	sets=$(sed -n 's/.*(overwrite, \([0-9]*\) x [0-9]* bytes).*/\1/p' "$t/good.log" | head -n 1)
	sets=$((sets + 1))

	check() { # WHICH PATTERN WHAT: exit 10, PATTERN on stderr
		local w=$1 pat=$2 what=$3 rc
		"${X[@]}" --lttng "$t/$w" "$DD/$w.elf" >/dev/null 2>"$t/$w.err"
		rc=$?
		if [ $rc = 10 ] && grep -q -- "$pat" "$t/$w.err"; then
			ok "$c: $what: exit 10, '$(grep -o -- "$pat.*" "$t/$w.err" | head -n 1 | cut -c1-150)'"
		else
			nok "$c: $what: exit $rc, $(grep -v '^lttng: ' "$t/$w.err" | head -n 3 | tr '\n' '|')"
		fi
	}
	check ids "buffer of cpu 0 at $buf0: sub-buffer id index 1000 out of range ($sets page sets): refused" \
		"a sub-buffer id out of range"
	check commit "buffer of cpu 0 at $buf0: commit count [0-9]* past the [0-9]* bytes reserved in sub-buffer [0-9]*: refused" \
		"a commit count past the sub-buffer"
	check metadata "session ktrace: metadata cache at $cache: metadata cut short: [0-9]* bytes end inside a declaration: refused" \
		"metadata cut short"
	# --list lists what it can and says a refused buffer by its status, as for
	# a relay channel: 10 for the damaged buffers, 0 for the intact dump
	for v in ids commit; do
		"${X[@]}" --list "$DD/$v.elf" >"$t/$v.list" 2>&1
		rc=$?
		[ $rc = 10 ] && grep -q '^lttng ktrace/chan0 .*(1 refused)' "$t/$v.list" &&
			ok "$c: $v: --list shows the buffer refused and exits 10" ||
			nok "$c: $v: --list exit $rc: $(grep '^lttng' "$t/$v.list" | head -n 2 | tr '\n' ' ')"
	done
	"${X[@]}" --list "$D/vmcore.elf" >"$t/good.list" 2>&1
	rc=$?
	[ $rc = 0 ] && ok "$c: the intact dump: --list exits 0" || nok "$c: the intact dump: --list exit $rc"
	# what is intact is still written: cpu 1's stream, read by babeltrace2
	for v in ids commit; do
		k=$t/$v/ktrace/kernel
		if [ ! -e "$k/chan0_0" ] && [ -s "$k/chan0_1" ] && babeltrace2 "$t/$v" >"$t/$v.txt" 2>"$t/$v.bt" &&
			[ ! -s "$t/$v.bt" ] && ! grep -qv 'cpu_id = 1 }' "$t/$v.txt"; then
			ok "$c: $v: cpu 1's stream is written all the same; babeltrace2 reads its $(wc -l <"$t/$v.txt") events without a warning"
		else
			nok "$c: $v: $(ls "$k" 2>&1 | tr '\n' ' '); $(head -c 300 "$t/$v.bt" 2>/dev/null)"
		fi
	done
	[ -z "$(ls "$t/metadata/ktrace/kernel" 2>/dev/null)" ] &&
		ok "$c: metadata cut short: no stream written without its metadata" ||
		nok "$c: metadata cut short: $(ls "$t/metadata/ktrace/kernel" | tr '\n' ' ') written"
}

found=
if [ -z "${KTRACE_CASES:-}" ] || [[ " $KTRACE_CASES " == *" k6.1-lttng "* ]]; then
	D=$VMCORES/k6.1-lttng
	if [ -s "$D/vmcore.elf" ]; then
		damaged_case k6.1-lttng "$D" "$KTRACE_CACHE/kernels/6.1/vmlinux" "$(cat "$D/lttng-modules")" \
			"$KTRACE_CACHE/damaged-lttng"
		found=1
	fi
fi
for c in $(ring_cases lttng); do
	(
		unset VMLINUX MODULES
		. "$VMCORES/$c/case.env"
		damaged_case "$c" "$VMCORES/$c" "$VMLINUX" "$MODULES" "$KTRACE_CACHE/damaged-lttng-$c"
		finish
	) || FAILED=1
	found=1
done
[ -n "$found" ] || { echo "skip - no LTTng fixture (scripts/make-lttng-vmcore; scripts/make-vmcores k6.12-s390x-lttng; tests/t-lttng.sh makes k6.1-lttng)"; exit 77; }
finish
