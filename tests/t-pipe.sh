#!/bin/bash
# The trace_pipe-consumed part on the k*-pipe fixtures (tests/vmcores,
# pipe-run.sh): readers consumed part of the global buffer (trace_pipe) and
# of the instance's CPU 0 (per_cpu/cpu0/trace_pipe) before the panic. The
# kernel's per-CPU stats must show it ("read events" beyond one sub-buffer's
# worth on some CPU: whole pages were swapped out as reader pages); the
# text of every buffer, from every dump format and with one or two render
# threads, is the kernel's trace file, whole and identical: the consumed
# events are not printed, the partly read reader page starts at its read
# offset with the right clock. crash itself (not ktrace) shows that the
# global buffer was left so: some CPU's reader_page->read is not 0, and
# its pages_read counts more than one reader page. (JSON, trace.dat and the
# crash extension: t-truth.sh, t-tracedat.sh and t-crash.sh take these
# cases too.)
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
# the crash for a series, or nothing (as tests/t-crash.sh)
crash_for() {
	if [ "$1" = 6.12 ]; then
		[ -x "$KTRACE_CACHE/crash-8.0.6/bin/crash" ] || return 1
		echo "$KTRACE_CACHE/crash-8.0.6/bin/crash"
	else
		command -v crash || return 1
	fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for c in $(cases); do
	case $c in *-pipe) ;; *) continue ;; esac
	dir=$VMCORES/$c
	unset CASE VMLINUX INSTANCES FORMATS SERIES
	. "$dir/case.env"
	# the kernel's own structures, as crash reads them
	if cr=$(crash_for "$SERIES"); then
		for cpu in 0 1; do
			echo "p global_trace.array_buffer.buffer.buffers[$cpu].reader_page.read"
			echo "p global_trace.array_buffer.buffer.buffers[$cpu].pages_read.a.counter"
		done >"$tmp/cmds"
		echo q >>"$tmp/cmds"
		"$cr" -s "$VMLINUX" "$dir/vmcore.elf" -i "$tmp/cmds" </dev/null 2>/dev/null |
			sed -n 's/^\$[0-9]* = //p' | tr '\n' ' ' >"$tmp/rp"
		# "read0 pages_read0 read1 pages_read1"
		if awk '{ exit !(($1 > 0 && $2 > 1) || ($3 > 0 && $4 > 1)) }' "$tmp/rp"; then
			ok "$c/global: crash shows a partly read reader page after whole pages read (read, pages_read per cpu: $(cat "$tmp/rp"))"
		else
			nok "$c/global: crash shows no partly read reader page after whole pages ($(cat "$tmp/rp"))"
		fi
	else
		skip "$c: no crash for $SERIES (see tests/t-crash.sh)"
	fi
	for b in $INSTANCES; do
		# consumed: the most any CPU's reader took, against the fewest
		# events a 4 KiB sub-buffer holds (a marker event is > 40 bytes)
		read=$(cat "$dir"/truth/$b.cpu*.stats | awk '/^read events:/ { if ($3 > m) m = $3 } END { print m + 0 }')
		[ "$read" -gt 100 ] &&
			ok "$c/$b: the kernel's stats show $read events of one CPU consumed by trace_pipe" ||
			nok "$c/$b: the kernel's stats show only $read events consumed (the reader failed?)"
		for fmt in $(formats_of "$c"); do
			for j in 1 2; do
				n=$((n + 1))
				"$KTRACE_BIN" -J $j -x "$VMLINUX" -i "$b" "$dir/vmcore.$fmt" >"$tmp/out" 2>"$tmp/err"
				rc=$?
				grep -v '^# ktrace: ' "$tmp/out" >"$tmp/text"
				if [ $rc != 0 ]; then
					nok "$c/$fmt/$b: -J$j: exit $rc: $(tail -n 2 "$tmp/err" | tr '\n' ' ')"
				elif cmp -s "$tmp/text" "$dir/truth/$b.trace"; then
					ok "$c/$fmt/$b: identical to the kernel's trace file ($(wc -l <"$tmp/text") lines, -J$j)"
				else
					nok "$c/$fmt/$b: -J$j: differs from the kernel's trace file: $(diff \
						"$dir/truth/$b.trace" "$tmp/text" | grep -m 2 '^[<>]' | tr '\n' ' ')"
				fi
			done
		done
	done
done
[ $n = 0 ] && { echo "skip - no pipe fixture in $VMCORES (scripts/make-vmcores k6.1-pipe ...)"; exit 77; }
finish
