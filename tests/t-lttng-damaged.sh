#!/bin/bash
# t-lttng-damaged.sh - damaged LTTng structures in a real dump are refused
# with a message naming the object, address and cause, what is intact is
# still written, and the exit status says something was lost (10). The
# copies of the k6.1-lttng fixture (scripts/make-damaged-lttng): cpu 0's
# sub-buffer id indexes a page set that does not exist; cpu 0's commit
# count is past what was reserved in its sub-buffer; the session's
# metadata is cut short. Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
D=$VMCORES/k6.1-lttng
[ -s "$D/vmcore.elf" ] || { echo "skip - no $D (scripts/make-lttng-vmcore; tests/t-lttng.sh makes it)"; exit 77; }
command -v babeltrace2 >/dev/null || { echo "skip - babeltrace2 missing"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t-lttng-damaged.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mods=$(cat "$D/lttng-modules")
X=("$KTRACE_BIN" -x "$KTRACE_CACHE/kernels/6.1/vmlinux" --module-debuginfo "$mods")
"${X[@]}" --lttng "$tmp/good" "$D/vmcore.elf" 2>"$tmp/good.log" ||
	{ nok "ktrace-extract --lttng on the intact dump: $(tail -n 2 "$tmp/good.log")"; finish; }
"$top/scripts/make-damaged-lttng" "$tmp/good.log" >/dev/null 2>"$tmp/make.err" ||
	{ nok "make-damaged-lttng: $(cat "$tmp/make.err")"; finish; }
DD=$KTRACE_CACHE/damaged-lttng
buf0=$(grep -o 'cpu 0: buffer at 0x[0-9a-f]*' "$tmp/good.log" | sed 's/.* //')
cache=$(grep -o 'metadata cache at 0x[0-9a-f]*' "$tmp/good.log" | sed 's/.* //')

check() { # CASE PATTERN WHAT: exit 10, PATTERN on stderr
	local c=$1 pat=$2 what=$3 rc
	"${X[@]}" --lttng "$tmp/$c" "$DD/$c.elf" >/dev/null 2>"$tmp/$c.err"
	rc=$?
	if [ $rc = 10 ] && grep -q -- "$pat" "$tmp/$c.err"; then
		ok "$what: exit 10, '$(grep -o -- "$pat.*" "$tmp/$c.err" | head -n 1 | cut -c1-150)'"
	else
		nok "$what: exit $rc, $(grep -v '^lttng: ' "$tmp/$c.err" | head -n 3 | tr '\n' '|')"
	fi
}
check ids "buffer of cpu 0 at $buf0: sub-buffer id index 1000 out of range (17 page sets): refused" \
	"a sub-buffer id out of range"
check commit "buffer of cpu 0 at $buf0: commit count [0-9]* past the [0-9]* bytes reserved in sub-buffer [0-9]*: refused" \
	"a commit count past the sub-buffer"
check metadata "session ktrace: metadata cache at $cache: metadata cut short: [0-9]* bytes end inside a declaration: refused" \
	"metadata cut short"
# --list lists what it can and says a refused buffer by its status, as for
# a relay channel: 10 for the damaged buffers, 0 for the intact dump
for c in ids commit; do
	"${X[@]}" --list "$DD/$c.elf" >"$tmp/$c.list" 2>&1
	rc=$?
	[ $rc = 10 ] && grep -q '^lttng ktrace/chan0 .*(1 refused)' "$tmp/$c.list" &&
		ok "$c: --list shows the buffer refused and exits 10" ||
		nok "$c: --list exit $rc: $(grep '^lttng' "$tmp/$c.list" | head -n 2 | tr '\n' ' ')"
done
"${X[@]}" --list "$D/vmcore.elf" >"$tmp/good.list" 2>&1
rc=$?
[ $rc = 0 ] && ok "the intact dump: --list exits 0" || nok "the intact dump: --list exit $rc"
# what is intact is still written: cpu 1's stream, read by babeltrace2
for c in ids commit; do
	k=$tmp/$c/ktrace/kernel
	if [ ! -e "$k/chan0_0" ] && [ -s "$k/chan0_1" ] && babeltrace2 "$tmp/$c" >"$tmp/$c.txt" 2>"$tmp/$c.bt" &&
		[ ! -s "$tmp/$c.bt" ] && ! grep -qv 'cpu_id = 1 }' "$tmp/$c.txt"; then
		ok "$c: cpu 1's stream is written all the same; babeltrace2 reads its $(wc -l <"$tmp/$c.txt") events without a warning"
	else
		nok "$c: $(ls "$k" 2>&1 | tr '\n' ' '); $(head -c 300 "$tmp/$c.bt" 2>/dev/null)"
	fi
done
[ -z "$(ls "$tmp/metadata/ktrace/kernel" 2>/dev/null)" ] &&
	ok "metadata cut short: no stream written without its metadata" ||
	nok "metadata cut short: $(ls "$tmp/metadata/ktrace/kernel" | tr '\n' ' ') written"
finish
