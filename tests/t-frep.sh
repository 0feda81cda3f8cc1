#!/bin/bash
# func_repeats on the k*-frep* fixtures (tests/vmcores): the function
# tracer with its func-no-repeats option (5.13+) folds a run of calls of
# one function from one call site into one TRACE_FUNC_REPEATS record. The
# kernel's trace file must hold some (" (repeats: N, last_ts: T)", or
# with raw the 7 decimal numbers of trace_func_repeats_raw()); ktrace's
# JSON has as many func_repeats events; the text, from every dump format
# with one or two render threads, is the kernel's trace file whole. (5.10
# has no func_repeats; trace.dat and the crash extension: t-tracedat.sh and
# t-crash.sh take these cases too.)
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for c in $(cases); do
	case $c in *-frep*) ;; *) continue ;; esac
	dir=$VMCORES/$c
	unset CASE VMLINUX INSTANCES FORMATS SERIES
	. "$dir/case.env"
	truth=$dir/truth/global.trace
	k=$(grep -c ' (repeats: [0-9]*, last_ts: ' "$truth")
	[ "$k" = 0 ] && k=$(grep -cE '^[0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+$' "$truth")
	[ "$k" -gt 0 ] && ok "$c: the kernel's trace file has $k func_repeats records" ||
		nok "$c: the kernel's trace file has no func_repeats record (the option failed?)"
	"$KTRACE_BIN" -x "$VMLINUX" -i global --json "$dir/vmcore.elf" >"$tmp/json" 2>/dev/null
	nj=$(grep -c '"event":"func_repeats"' "$tmp/json")
	[ "$nj" = "$k" ] && ok "$c: JSON has the $nj func_repeats events" ||
		nok "$c: JSON has $nj func_repeats events, the kernel's file $k"
	for fmt in $(formats_of "$c"); do
		for j in 1 2; do
			n=$((n + 1))
			"$KTRACE_BIN" -J $j -x "$VMLINUX" -i global "$dir/vmcore.$fmt" >"$tmp/out" 2>"$tmp/err"
			rc=$?
			grep -v '^# ktrace: ' "$tmp/out" >"$tmp/text"
			if [ $rc != 0 ]; then
				nok "$c/$fmt/global: -J$j: exit $rc: $(tail -n 2 "$tmp/err" | tr '\n' ' ')"
			elif cmp -s "$tmp/text" "$truth"; then
				ok "$c/$fmt/global: identical to the kernel's trace file ($(wc -l <"$truth") lines, -J$j)"
			else
				nok "$c/$fmt/global: -J$j: differs from the kernel's trace file: $(diff "$truth" \
					"$tmp/text" | grep -m 2 '^[<>]' | tr '\n' ' ')"
			fi
		done
	done
done
[ $n = 0 ] && { echo "skip - no frep fixture in $VMCORES (scripts/make-vmcores k6.1-frep ...)"; exit 77; }
finish
