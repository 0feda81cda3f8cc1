#!/bin/bash
# The latency tracers (wakeup, wakeup_rt) on the k*-rt-wakeup fixtures
# (tests/vmcores, tracer-run.sh; Debian's rt kernels are the only ones with
# them): the kernel's trace file of a latency tracer shows tr->max_buffer,
# the longest latency's trace, with print_trace_header()'s header and the
# latency-format lines. ktrace's buffer NAME.snapshot must print that file
# whole and identical (both dump formats); the live buffer is said and
# counted (exit 10); JSON and trace.dat carry the same events (trace-cmd
# report reads them silently); the crash extension prints the same text.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-build}
case $O in /*) ;; *) O=$ROOT/$O ;; esac
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

for c in $(cases); do
	case $c in *-wakeup*) ;; *) continue ;; esac
	dir=$VMCORES/$c
	unset CASE VMLINUX INSTANCES FORMATS SERIES
	. "$dir/case.env"
	truth=$dir/truth/global.trace
	n=$((n + 1))
	tracer=$(cat "$dir/truth/global.current_tracer" 2>/dev/null)
	# a fixture that shows something: the header (its wake-up line may
	# have been overwritten: a long latency under TCG wraps the buffer)
	if grep -q "^# $tracer latency trace v1.1.5 on " "$truth"; then
		ok "$c: the kernel's trace file has the latency header ($tracer, $(sed -n 's/^# latency: \([0-9]* us, #[0-9/]*\).*/\1/p' "$truth"))"
	else
		nok "$c: the kernel's trace file has no latency trace (the guest saw no wake-up?)"
	fi
	for fmt in $(formats_of "$c"); do
		"$KTRACE_BIN" -x "$VMLINUX" -i global.snapshot "$dir/vmcore.$fmt" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		grep -v '^# ktrace: ' "$tmp/out" >"$tmp/text"
		if [ $rc != 0 ]; then
			nok "$c/$fmt/global.snapshot: exit $rc: $(tail -n 2 "$tmp/err" | tr '\n' ' ')"
		elif cmp -s "$tmp/text" "$truth"; then
			ok "$c/$fmt/global.snapshot: identical to the kernel's trace file ($(wc -l <"$truth") lines)"
		else
			nok "$c/$fmt/global.snapshot: differs from the kernel's trace file: $(diff "$truth" \
				"$tmp/text" | grep -m 2 '^[<>]' | tr '\n' ' ')"
		fi
		"$KTRACE_BIN" -x "$VMLINUX" -i global "$dir/vmcore.$fmt" >/dev/null 2>"$tmp/err"
		rc=$?
		if [ $rc = 10 ] && grep -q "tracer $tracer: the kernel's trace file shows the longest latency's trace, buffer global.snapshot" "$tmp/err" &&
			grep -q 'not printed as the kernel would.*: [1-9]' "$tmp/err"; then
			ok "$c/$fmt/global: the live buffer is said (names global.snapshot), counted, exit 10"
		else
			nok "$c/$fmt/global: live buffer: exit $rc: $(tail -n 2 "$tmp/err" | tr '\n' ' ')"
		fi
	done
	# JSON and trace.dat: the max buffer's events, one a line of the kernel's file
	lines=$(grep -v '^#' "$truth" | grep -v '^ => ' | grep -vc '^$')
	"$KTRACE_BIN" -x "$VMLINUX" -i global.snapshot --json "$dir/vmcore.elf" 2>/dev/null >"$tmp/json"
	nj=$(grep -c '^{"instance":"global.snapshot"' "$tmp/json")
	[ "$nj" = "$lines" ] && ok "$c/global.snapshot: JSON has the $nj events of the kernel's file" ||
		nok "$c/global.snapshot: JSON has $nj events, the kernel's file $lines"
	if command -v trace-cmd >/dev/null; then
		"$KTRACE_BIN" -q -x "$VMLINUX" -i global.snapshot -o "$tmp/s.dat" "$dir/vmcore.elf" 2>/dev/null
		if trace-cmd report -i "$tmp/s.dat" >"$tmp/rep" 2>"$tmp/rep.err" && [ ! -s "$tmp/rep.err" ]; then
			nr=$(grep -cE '^ +.+-[0-9]+ +\[[0-9]+\] ' "$tmp/rep")
			[ "$nr" -ge "$lines" ] &&
				ok "$c/global.snapshot: trace-cmd report reads its $nr events silently" ||
				nok "$c/global.snapshot: trace-cmd report shows $nr events, the kernel's file $lines"
		else
			nok "$c/global.snapshot: trace-cmd report: $(head -n 2 "$tmp/rep.err" | tr '\n' ' ')"
		fi
	fi
	if cr=$(crash_ext_for "$SERIES"); then
		set -- $cr
		printf 'extend %s\nktrace show -i global.snapshot > %s\nq\n' "$2" "$tmp/crash" >"$tmp/cmds"
		"$1" -s "${@:3}" "$VMLINUX" "$dir/vmcore.elf" -i "$tmp/cmds" </dev/null >"$tmp/crash.out" 2>&1
		"$KTRACE_BIN" -x "$VMLINUX" -i global.snapshot "$dir/vmcore.elf" >"$tmp/want" 2>/dev/null
		[ -s "$tmp/crash" ] && cmp -s "$tmp/crash" "$tmp/want" &&
			ok "$c/global.snapshot: crash's ktrace show prints the same ($(wc -l <"$tmp/want") lines)" ||
			nok "$c/global.snapshot: crash's ktrace show differs or printed nothing: $(diff "$tmp/want" "$tmp/crash" 2>&1 | grep -m 2 '^[<>]' | tr '\n' ' ')"
	else
		skip "$c: no crash for $SERIES dumps (scripts/fetch-crash)"
	fi
done
[ $n = 0 ] && { echo "skip - no wakeup fixture in $VMCORES (scripts/make-vmcores k6.1-rt-wakeup ...)"; exit 77; }
finish
