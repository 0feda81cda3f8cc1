#!/bin/bash
# ktrace-extract on damaged dumps (scripts/make-damaged, from the fixtures):
# the message names the object, the address where there is one, and the
# cause; the exit status is the documented one (README "Exit status"); and
# every event that could still be recovered is written, as the kernel's
# own rendering (truth/global.trace) has it.
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
[ -f "$VMCORES/k6.1/case.env" ] || { echo "skip - no k6.1 fixture in $VMCORES"; exit 77; }
"$(dirname "$0")/../scripts/make-damaged" >/dev/null || { nok "scripts/make-damaged failed"; finish; }
D=$KTRACE_CACHE/damaged
V61=$(. "$VMCORES/k6.1/case.env"; echo "$VMLINUX")
V510=$( [ -f "$VMCORES/k5.10/case.env" ] && . "$VMCORES/k5.10/case.env" && echo "$VMLINUX")
TRUTH=$VMCORES/k6.1/truth/global.trace
out=$(mktemp); err=$(mktemp); want=$(mktemp)
trap 'rm -f "$out" "$err" "$want" "$want.elf"' EXIT

# run NAME ARGS...: ktrace-extract ARGS, status in $rc, stdout/stderr in $out/$err
run() {
	"$KTRACE_BIN" "$@" >"$out" 2>"$err"
	rc=$?
}
# expect NAME STATUS REGEX...: the status, and each regex in stderr
expect() {
	local name=$1 status=$2 re bad=
	shift 2
	for re in "$@"; do
		grep -Eq -- "$re" "$err" || bad="$bad '$re'"
	done
	if [ "$rc" != "$status" ]; then
		nok "$name: exit status $rc, want $status: $(head -c 300 "$err" | tr '\n' ' ')"
	elif [ -n "$bad" ]; then
		nok "$name: stderr lacks$bad: $(head -c 400 "$err" | tr '\n' ' ')"
	else
		ok "$name: exit $rc, $(grep -Em1 -- "$1" "$err" | cut -c1-150)"
	fi
}
# in_order NAME: every line of $want appears in $out, in order
in_order() {
	local miss
	miss=$(awk 'BEGIN { n = 0; i = 0 } NR==FNR { t[n++] = $0; next }
		    i < n && $0 == t[i] { i++ }
		    END { if (i < n) printf "line %d of %d not found in order: %s", i + 1, n, t[i] }' \
		"$want" "$out")
	if [ -n "$miss" ]; then nok "$1: $miss"; else ok "$1: $(wc -l <"$want") recoverable kernel lines written, in order"; fi
}
# absent NAME FILE: no line of FILE (markers) in $out
absent() {
	local n
	n=$(grep -cFx -f <(sed 's/.*/&/' "$2") <(grep -o 'ktrace-marker k6.1 cpu[0-9] [0-9]*' "$out"))
	if [ "$n" != 0 ]; then nok "$1: $n events of the damaged page were printed"; else ok "$1: none of the $(wc -l <"$2") events of the damaged page printed"; fi
}
# truth lines of cpu1, and cpu0's markers not listed in FILE
want_except() {
	grep -v '^#' "$TRUTH" | awk 'NR==FNR { lost[$0] = 1; next }
		/\[001\]/ { print; next }
		match($0, /ktrace-marker k6\.1 cpu0 [0-9]+/) && !(substr($0, RSTART, RLENGTH) in lost) { print }' "$1" - >"$want"
}

# not dumps
run -x "$V61" "$D/empty.vmcore"
expect "empty file" 3 "empty\.vmcore" "empty file"
run -x "$V61" "$D/not-a-dump.vmcore"
expect "not a dump" 3 "not-a-dump\.vmcore" "not a kernel dump"

# truncated: refused, or with --force read as far as it goes. What lies
# past a cut depends on where the guest's memory put the kernel image and
# the ring (physical KASLR): the kernel image past it, nothing can be read
# (exit 6); the ring partly past it, the pages there counted (exit 10) and
# only the whole run's lines printed; nothing the trace needs past it, the
# whole run's output (exit 0).
"$KTRACE_BIN" -x "$V61" "$VMCORES/k6.1/vmcore.elf" >"$want" 2>/dev/null
for t in trunc-half trunc-ring; do
	run -x "$V61" "$D/$t.elf"
	expect "$t" 3 "$t\.elf: truncated: [0-9]+ bytes" "segment at physical 0x[0-9a-f]+ ends at file offset"
	run -x "$V61" --force "$D/$t.elf"
	case $rc in
	6) expect "$t --force" 6 "$t\.elf: cannot read nr_cpu_ids at 0x[0-9a-f]+: " ;;
	0)
		if grep -q "truncated: [0-9]* bytes" "$err" && cmp -s "$out" "$want"; then
			ok "$t --force: exit 0, the cut left out nothing the trace needs: the whole run's $(grep -vc '^#' "$out") lines, the truncation said"
		else
			nok "$t --force: exit 0 but the output differs from the whole dump's, or the truncation is not said: $(diff "$want" "$out" | sed -n 2p | cut -c1-160)"
		fi ;;
	10)
		extra=$(grep -v '^#' "$out" | grep -vxF -f <(grep -v '^#' "$want") | head -n 1)
		if grep -Eq "unreadable: [1-9]|filtered from the dump: [1-9]|zero-filled: [1-9]" "$err" && [ -z "$extra" ]; then
			ok "$t --force: exit 10, $(grep -Eo 'unreadable: [0-9]+' "$err" | head -n 1) pages counted, only the whole run's lines"
		else
			nok "$t --force: exit 10 without the loss counted, or a line the whole run lacks: ${extra:0:160}"
		fi ;;
	*) nok "$t --force: exit status $rc: $(head -c 300 "$err" | tr '\n' ' ')" ;;
	esac
done

# a data page zero-filled: the others are written, its events are not
run -x "$V61" -i global "$D/zero-page.elf"
expect "zero-filled page" 10 "global: cpu0: sub-buffer of buffer_page 0x[0-9a-f]+ is zero-filled" \
	"zero-filled: 1,"
want_except "$D/zero-page.lost"
in_order "zero-filled page"
absent "zero-filled page" "$D/zero-page.lost"

# a data page whose commit is past the sub-buffer: skipped, not half-read
run -x "$V61" -i global "$D/corrupt-commit.elf"
expect "corrupt commit" 10 "global: cpu0: sub-buffer of buffer_page 0x[0-9a-f]+ is corrupt" \
	"corrupt \(skipped\): 1,"
want_except "$D/corrupt-commit.lost"
in_order "corrupt commit"
absent "corrupt commit" "$D/corrupt-commit.lost"

# a buffer_page's list.next pointing nowhere: cpu1 whole; cpu0 forward up to
# the break, then backwards along list.prev from the commit page: nothing lost
run -x "$V61" -i global "$D/bad-list.elf"
expect "broken page list" 10 "global: cpu0: broken page list at buffer_page 0x[0-9a-f]+" \
	"cannot read buffer_page at 0xdead000000000000" "page-list anomalies: [1-9]" \
	"global: cpu0: [0-9]+ pages recovered backwards from the commit page"
grep -v '^#' "$TRUTH" | grep -F '[001]' >"$want"
in_order "broken page list, cpu1"
grep -v '^#' "$TRUTH" | grep -F -f "$D/bad-list.page" >"$want"
in_order "broken page list, cpu0 up to the break"
grep -v '^#' "$TRUTH" >"$want"
in_order "broken page list, every line after the break too (recovered along list.prev)"

# a null padding (the writer's end-of-page mark) before the commit end: the
# page is corrupt, counted, not cut short silently
run -x "$V61" -i global "$D/null-pad.elf"
expect "null padding mid-page" 10 \
	"global: cpu0: sub-buffer of buffer_page 0x[0-9a-f]+ is corrupt \(a null padding before the end" \
	"corrupt \(skipped\): 1,"
want_except "$D/null-pad.lost"
in_order "null padding mid-page"
absent "null padding mid-page" "$D/null-pad.lost"

# a list.next skipping two pages: the ring closes early, short of
# nr_pages, and the skipped page's prev disagrees: counted (it was exit 0)
run -x "$V61" -i global "$D/short-ring.elf"
expect "ring closing early" 10 "global: cpu0: the page list closes after [0-9]+ pages, nr_pages is [0-9]+" \
	"global: cpu0: 1 buffer_pages' prev do not point back" "page-list anomalies: [1-9]"
want_except "$D/short-ring.lost"
in_order "ring closing early"
absent "ring closing early" "$D/short-ring.lost"

# a buffer_page whose .page is not a page (8 bytes past one): that page
# is skipped and counted, never read from the wrong place
run -x "$V61" -i global "$D/misaligned-page.elf"
expect "sub-buffer address off its page" 10 \
	"global: cpu0: buffer_page 0x[0-9a-f]+: its sub-buffer address 0x[0-9a-f]+ is not at a page boundary, skipped" \
	"corrupt \(skipped\): 1,"
want_except "$D/misaligned-page.lost"
in_order "sub-buffer address off its page"
absent "sub-buffer address off its page" "$D/misaligned-page.lost"

# two pages flagged HEAD (the kernel keeps one): counted; every line the
# kernel's, in order
run -x "$V61" -i global "$D/second-head.elf"
expect "a second HEAD flag" 10 "global: cpu0: 2 pages flagged head" "page-list anomalies: [1-9]"
extra=$(grep -v '^#' "$out" | grep -vxF -f "$TRUTH" | head -n 1)
[ -z "$extra" ] && ok "a second HEAD flag: only the kernel's lines" ||
	nok "a second HEAD flag: a line the kernel did not print: $extra"

# a page of time extends and nothing else (the writer never commits one):
# corrupt, counted (it was read as a page without events, exit 0)
run -x "$V61" -i global "$D/stamps-only.elf"
expect "a page of time stamps only" 10 \
	"global: cpu0: sub-buffer of buffer_page 0x[0-9a-f]+ is corrupt \(committed data of nothing but time stamps\)" \
	"corrupt \(skipped\): 1,"
want_except "$D/stamps-only.lost"
in_order "a page of time stamps only"
absent "a page of time stamps only" "$D/stamps-only.lost"

# the instance list emptied (global_trace, always on it, is not): the
# instance is gone from it, which is said and counted, never silent
run -x "$V61" "$D/no-instances.elf"
expect "instance list emptied" 10 "ftrace_trace_arrays does not hold global_trace" \
	"trace buffers not read \(an instance, or the instance list, damaged\): 1"
grep -v '^#' "$TRUTH" >"$want"
in_order "instance list emptied"
run -x "$V61" --list "$D/no-instances.elf"
expect "instance list emptied, --list" 10 "ftrace_trace_arrays does not hold global_trace"

# the event list cut at its 200th entry (a poisoned next pointer): the rest
# of the list is read backwards from its tail; --events says the table is
# not whole (exit 10), and the trace, whose every event is known again, is
# the kernel's, whole (before, the records of the 1190 events after the cut
# were unknown ids)
run -x "$V61" --events "$D/cut-events.elf"
expect "event list cut, --events" 10 "ftrace_events: broken next pointer.*1190 entries read backwards" \
	"event table entries not read \(the ftrace_events list or an entry damaged\): [1-9]"
run -x "$V61" "$D/cut-events.elf"
expect "event list cut" 0 "1190 entries read backwards from the list's tail" "unknown event ids: 0"
grep -v '^#' "$TRUTH" >"$want"
in_order "event list cut"

# the printk ring's descriptor array pointer wrapped: --dmesg names it
# (exit 6: no readable log); a ticket lacks its log, which is a loss
run -x "$V61" --dmesg "$D/prb-wrap.elf"
expect "printk descs pointer wrapped, --dmesg" 6 "kernel log: cannot read prb->desc_ring.descs at 0x[0-9a-f]+"
tdir=$(mktemp -d)
run -x "$V61" --ticket "$tdir/t" "$D/prb-wrap.elf"
expect "printk descs pointer wrapped, --ticket" 10 "no dmesg.txt nor timeline.txt: kernel log: cannot read prb->desc_ring.descs"
[ -s "$tdir/t/trace.txt" ] && [ ! -e "$tdir/t/dmesg.txt" ] && grep -q '^kernel log: none (kernel log: cannot read' "$tdir/t/summary.txt" &&
	ok "printk descs pointer wrapped, --ticket: the trace is in it, the summary says why the log is not" ||
	nok "printk descs pointer wrapped, --ticket: $(ls "$tdir/t" | tr '\n' ' ')"
rm -rf "$tdir"

# the wrong vmlinux (5.10's for a 6.1 dump)
if [ -n "$V510" ]; then
	run -x "$V510" "$VMCORES/k6.1/vmcore.kdump"
	expect "wrong vmlinux" 5 "vmlinux .*5\.10.* is 5\.10[^ ]* \(build-id [0-9a-f]+\.*\) but the dump is 6\.1"
else
	skip "wrong vmlinux: no k5.10 fixture"
fi

# makedumpfile -d 31: which pages it drops depends on where the kernel put
# them; whatever is written must be the kernel's own lines (nothing
# invented), and the status must say whether anything was lost
if [ -e "$D/d31.kdump" ]; then
	V612=$(. "$VMCORES/k6.12/case.env"; echo "$VMLINUX")
	for inst in global inst; do
		run -x "$V612" -i $inst "$D/d31.kdump"
		lossy=$(grep -E "unreadable: [1-9]|filtered from the dump: [1-9]|corrupt \(skipped\): [1-9]|zero-filled: [1-9]|anomalies: [1-9]|per-CPU buffers not read.*: [1-9]|trace buffers not read.*: [1-9]" "$err" | head -n 1)
		extra=$(grep -v '^#' "$out" | grep -v '^CPU:.*LOST' | grep -vxF -f "$VMCORES/k6.12/truth/$inst.trace" | head -n 1)
		# the instance's own structs filtered out (where they lie is the
		# kernel's choice): nothing of it to write, which is said, exit 6
		if [ $rc = 6 ] && [ $inst != global ] && [ ! -s "$out" ] &&
			grep -q "trace buffer.* could not be read (damaged, said above): '$inst' may be one" "$err"; then
			ok "makedumpfile -d 31, $inst: its trace array was not in the dump: exit 6, said ($(grep -m1 "warning: $inst:" "$err" | cut -c1-100))"
			continue
		fi
		if [ -n "$extra" ]; then
			nok "makedumpfile -d 31, $inst: a line the kernel did not print: $extra"
		elif [ -n "$lossy" ] && [ $rc != 10 ]; then
			nok "makedumpfile -d 31, $inst: loss reported but exit status $rc"
		elif [ -z "$lossy" ] && [ $rc != 0 ]; then
			nok "makedumpfile -d 31, $inst: exit status $rc without loss: $(head -c 200 "$err")"
		else
			ok "makedumpfile -d 31, $inst: exit $rc, $(grep -vc '^#' "$out") kernel lines and nothing else${lossy:+; lost: $(echo "$lossy" | cut -c1-120)}"
		fi
		# the JSON's trailer counts what the text's "# ktrace:" lines count
		cp "$out" "$want"
		"$KTRACE_BIN" -x "$V612" -i $inst --json "$D/d31.kdump" >"$out" 2>/dev/null
		jrc=$?
		if agree=$(loss_agrees "$want" "$out") && [ $jrc = $rc ]; then
			ok "makedumpfile -d 31, $inst: --json's loss trailer agrees with the text's counts ($agree), exit $jrc"
		else
			nok "makedumpfile -d 31, $inst: --json (exit $jrc, text $rc): $agree"
		fi
	done
else
	skip "makedumpfile -d 31: no k6.12/vmcore.d31 fixture"
fi

# ftrace_trace_arrays not known (a kallsyms or System.map that lost it):
# the instances are not found, which is counted and exit 10 (an instance
# once vanished with exit 0). k5.10: its dump lists no kallsyms, so the
# dump's BTF is read with the System.map given
if [ -f "$VMCORES/k5.10/case.env" ] && grep -q '^INSTANCES=.*inst' "$VMCORES/k5.10/case.env"; then
	map=$(. "$VMCORES/k5.10/case.env"; echo "$SYSTEM_MAP")
	grep -v ' ftrace_trace_arrays$' "$map" >"$want.map"
	for mode in --list ""; do
		run --from-dump --system-map "$want.map" $mode "$VMCORES/k5.10/vmcore.elf"
		if [ -n "$mode" ]; then
			expect "no ftrace_trace_arrays $mode" 10 \
				"symbol ftrace_trace_arrays not found: instances, if any, not read"
		else
			expect "no ftrace_trace_arrays" 10 \
				"symbol ftrace_trace_arrays not found: instances, if any, not read" \
				"trace buffers not read \(an instance, or the instance list, damaged\): 1"
		fi
	done
	# the instance asked for by name is then not a typo (exit 2) but
	# maybe the one not read: said, exit 6
	run --from-dump --system-map "$want.map" -i inst "$VMCORES/k5.10/vmcore.elf"
	expect "no ftrace_trace_arrays, -i inst" 6 \
		"no buffer named 'inst' among those read; the dump has: global" \
		"1 trace buffer could not be read \(damaged, said above\): 'inst' may be one"
	rm -f "$want.map"
else
	skip "no ftrace_trace_arrays: no k5.10 fixture with an instance"
fi

# makedumpfile -d 31 of today's kernels (issue 26): makedumpfile says
# "kernel version is not supported" and leaves out pages it should keep
# (a CPU's struct ring_buffer_per_cpu among them); libkdumpfile crashed
# our reader there once. Whatever the jobs, never a signal, the same text,
# only the kernel's lines, exit 10 with the loss said and counted
# (ksid-subbuf: 16 KiB sub-buffers, order-2 pages; there makedumpfile left
# out every CPU's struct of the global buffer, which was once said to be
# "tracing was off", exit 6)
today=$(for c in $(cases); do
	case $c in ksid | kbpo) echo "$c" ;; ksid-* | kbpo-*) [ -e "$VMCORES/$c/vmcore.d31" ] && echo "$c" ;; esac
done)
for c in $today; do
	if [ ! -e "$VMCORES/$c/vmcore.d31" ]; then
		nok "$c: makedumpfile -d 31: its recipe makes a vmcore.d31, and there is none"
		continue
	fi
	Vc=$(. "$VMCORES/$c/case.env"; echo "$VMLINUX")
	rel=$(. "$VMCORES/$c/case.env"; echo "$RELEASE")
	arch=$(. "$VMCORES/$c/case.env"; echo "${ARCH:-amd64}")
	for inst in global inst; do
		# another machine's d31 dump is its own makedumpfile's (sid's,
		# under qemu-user), which may keep every page the trace needs
		# (ksid-s390x: 7.2's "kernel version is not supported" too, but
		# the whole ring): then the whole trace, as its ELF dump gives it
		whole=
		if [ "$arch" != amd64 ]; then
			run -x "$Vc" -i $inst "$VMCORES/$c/vmcore.elf"
			[ $rc = 0 ] && cp "$out" "$want.elf" && whole=$want.elf
		fi
		run -x "$Vc" -i $inst -J 1 "$VMCORES/$c/vmcore.d31"
		rc1=$rc
		cp "$out" "$want"
		run -x "$Vc" -i $inst "$VMCORES/$c/vmcore.d31"
		lossy=$(grep -E "unreadable: [1-9]|filtered from the dump: [1-9]|corrupt \(skipped\): [1-9]|zero-filled: [1-9]|anomalies: [1-9]|per-CPU buffers not read.*: [1-9]" "$err" | head -n 1)
		extra=$(grep -v '^#' "$out" | grep -v '^CPU:.*LOST' | grep -vxF -f "$VMCORES/$c/truth/$inst.trace" | head -n 1)
		if signalled $rc1 || signalled $rc; then
			nok "$c ($rel): makedumpfile -d 31, $inst: killed by a signal (-J 1: status $rc1, default: $rc)"
		elif ! cmp -s "$out" "$want"; then
			nok "$c ($rel): makedumpfile -d 31, $inst: the text differs between -J 1 and the default jobs"
		elif [ -n "$extra" ]; then
			nok "$c ($rel): makedumpfile -d 31, $inst: a line the kernel did not print: $extra"
		elif [ -n "$whole" ] && [ $rc1 = 0 ] && [ $rc = 0 ] && [ -z "$lossy" ] &&
			cmp -s "$out" "$whole"; then
			ok "$c ($rel): makedumpfile -d 31 ($arch's), $inst: nothing the trace needs left out: exit 0 with -J 1 and the default, the $(grep -vc '^#' "$out") kernel lines of its ELF dump"
		elif [ $rc1 != 10 ] || [ $rc != 10 ] || [ -z "$lossy" ]; then
			nok "$c ($rel): makedumpfile -d 31, $inst: exit $rc1 (-J 1) and $rc, want 10 with the loss counted; counted: '${lossy:-nothing}'"
		else
			ok "$c ($rel): makedumpfile -d 31, $inst: exit 10 with -J 1 and the default, the same $(grep -vc '^#' "$out") kernel lines; lost: $(echo "$lossy" | cut -c1-100)"
		fi
	done
done

# the event table (issue 27): sched_wakeup's print fmt divides by zero,
# or asks a width no trace_seq holds; never a signal, the same for any -J,
# the lines of the other events as the kernel printed them
for dmp in fmt-div0 fmt-width; do
	[ -e "$D/$dmp.elf" ] || { skip "$dmp: not made"; continue; }
	run -x "$V61" -i global -J 1 "$D/$dmp.elf"
	cp "$out" "$want"
	run -x "$V61" -i global "$D/$dmp.elf"
	if ! cmp -s "$out" "$want"; then
		nok "$dmp: the text differs between -J 1 and workers"
	elif [ $dmp = fmt-div0 ]; then
		expect "print fmt dividing by zero" 10 \
			'sched:sched_wakeup .*a division by zero' 'not printed as the kernel would.*: [1-9]'
	else
		expect "print fmt width past the trace_seq" 10 \
			'sched:sched_wakeup .*print fmt refused: its widths alone fill' 'unknown event ids: [1-9]'
	fi
	extra=$(grep -v '^#' "$out" | grep -v -e 'sched_wak' -e 'Unknown type' | grep -vxF -f "$TRUTH" | head -n 1)
	if [ -n "$extra" ]; then nok "$dmp: a line the kernel did not print: $extra"
	else ok "$dmp: every other line as the kernel printed it"; fi
done

# kdump-compressed page descriptors and headers that lie (issue 27;
# scripts/make-damaged-kdump): libkdumpfile 0.5.1 wrote past its buffer on
# a compressed size beyond the block, and crashed in kdump_free() after any
# failed open. Never a signal; the page is unreadable and counted, every
# other event written; the dump's bytes unchanged.
if "$(dirname "$0")/../scripts/make-damaged-kdump" >/dev/null; then
	DK=$KTRACE_CACHE/damaged-kdump
	want_except "$DK/desc.lost"
	cp "$want" "$want.kd"
	sum=$(sha1sum <"$DK/desc-big.kdump")
	# libkdumpfile 0.5.4+ (Debian 13's 0.5.4, sid's 0.5.6) reads a flattened
	# file itself (extract/dump.c flat_by_lib), safely: the lying size only
	# lengthens the zlib input, and the page decompresses to the kernel's own
	# bytes; the version is the one ktrace-extract was built with
	kdf=$(kdumpfile_version)
	for dmp in desc-big.kdump desc-big.flat desc-huge.kdump desc-eof.kdump desc-neg.kdump \
		   desc-zero.kdump desc-raw-short.kdump; do
		run -x "$V61" -i global "$DK/$dmp"
		if signalled $rc; then
			nok "$dmp: killed by signal $((rc - 128))"
			continue
		fi
		if [ "$dmp" = desc-big.flat ] && [ -n "$kdf" ] &&
		   dpkg --compare-versions "$kdf" ge 0.5.4; then
			grep -v '^#' "$TRUTH" >"$want"
			if [ $rc = 0 ]; then
				ok "$dmp: exit 0 with libkdumpfile $kdf, which reads flattened files itself and a lying size safely"
			else
				nok "$dmp: exit status $rc with libkdumpfile $kdf: $(head -c 300 "$err" | tr '\n' ' ')"
			fi
			in_order "$dmp"
			cp "$want.kd" "$want"
			continue
		fi
		case $dmp in
		desc-big.* | desc-huge.*)
			expect "$dmp" 10 "page descriptors claim a compressed page larger than a page" \
				"global: cpu0: cannot read sub-buffer of buffer_page 0x[0-9a-f]+" "unreadable: 1," ;;
		*)
			expect "$dmp" 10 "global: cpu0: cannot read sub-buffer of buffer_page 0x[0-9a-f]+" \
				"unreadable: 1," ;;
		esac
		cp "$want.kd" "$want"
		in_order "$dmp"
		absent "$dmp" "$DK/desc.lost"
	done
	rm -f "$want.kd"
	[ "$(sha1sum <"$DK/desc-big.kdump")" = "$sum" ] &&
		ok "desc-big.kdump: read from a repaired copy, the dump's bytes unchanged" ||
		nok "desc-big.kdump: the dump was modified"
	# every compressed page lies: libkdumpfile's own reads at open too
	run -x "$V61" "$DK/desc-all-big.kdump"
	if signalled $rc; then nok "desc-all-big.kdump: killed by signal $((rc - 128))"
	else expect "desc-all-big.kdump" 3 "16245 of its [0-9]+ page descriptors|[0-9]+ of its [0-9]+ page descriptors claim" \
		"desc-all-big\.kdump: damaged \(its page descriptors lie\)"; fi
	# the page of sched_wakeup's print fmt unreadable (offset -1): the
	# events whose format was there are named, their records printed as
	# the kernel prints an id it has no event for, and counted (it was
	# once empty bodies with exit 0); every other line the kernel's
	run -x "$V61" -i global "$DK/desc-fmt-neg.kdump"
	if signalled $rc; then
		nok "desc-fmt-neg.kdump: killed by signal $((rc - 128))"
	else
		expect "desc-fmt-neg.kdump" 10 "sched:sched_wakeup \(id [0-9]+\): print fmt at 0x[0-9a-f]+ unreadable" \
			"unknown event ids: [1-9]"
		extra=$(grep -v '^#' "$out" | grep -v ': Unknown type [0-9]*$' | grep -vxF -f "$TRUTH" | head -n 1)
		n=$(grep -c ': Unknown type [0-9]*$' "$out")
		if [ -n "$extra" ]; then
			nok "desc-fmt-neg.kdump: a line the kernel did not print: $extra"
		elif [ "$n" = 0 ]; then
			nok "desc-fmt-neg.kdump: no record of the events whose format is lost is marked"
		else
			ok "desc-fmt-neg.kdump: $n records of those events marked 'Unknown type', every other line the kernel's"
		fi
	fi
	# instance inst's struct trace_buffer unreadable (its page's offset
	# -1): the instance is on the list, named, and nothing of it can be
	# read, as a fresh makedumpfile -d 31 of k6.18 once left it (then exit
	# 6, "no buffer named 'inst'"): -i inst says so, writes nothing,
	# exit 10; the global buffer is written whole, the loss counted
	if [ -e "$DK/inst-tb-neg.kdump" ]; then
		run -x "$V61" -i inst "$DK/inst-tb-neg.kdump"
		if signalled $rc; then
			nok "inst-tb-neg.kdump, -i inst: killed by signal $((rc - 128))"
		else
			expect "inst-tb-neg.kdump, -i inst" 10 \
				"buffer 'inst' is in the dump, but could not be read \(said above\): nothing of it is written" \
				"inst: cannot read struct trace_buffer at 0x[0-9a-f]+" \
				"trace buffers not read \(an instance, or the instance list, damaged\): 1"
			[ "$(grep -vc '^#' "$out")" = 0 ] &&
				ok "inst-tb-neg.kdump, -i inst: no line written" ||
				nok "inst-tb-neg.kdump, -i inst: $(grep -vc '^#' "$out") lines written: $(grep -vm1 '^#' "$out")"
		fi
		run -x "$V61" "$DK/inst-tb-neg.kdump"
		expect "inst-tb-neg.kdump" 10 "inst: cannot read struct trace_buffer" \
			"trace buffers not read \(an instance, or the instance list, damaged\): 1"
		grep -v '^#' "$TRUTH" >"$want"
		in_order "inst-tb-neg.kdump, the global buffer"
	else
		nok "inst-tb-neg.kdump: not made (scripts/make-damaged-kdump said why)"
	fi
	for dmp in hdr-maxmap hdr-sub hdr-subneg hdr-note-size; do
		for mode in "" --list --dmesg; do
			run -x "$V61" $mode "$DK/$dmp.kdump"
			if signalled $rc; then
				nok "$dmp.kdump${mode:+ $mode}: killed by signal $((rc - 128))"
			elif [ $dmp = hdr-maxmap ]; then
				expect "$dmp.kdump${mode:+ $mode}" 3 "$dmp\.kdump: a kdump-compressed header libkdumpfile refuses: .*Invalid diskdump header"
			else
				expect "$dmp.kdump${mode:+ $mode}" 3 "$dmp\.kdump: its kdump header (puts [0-9]+ bytes of notes|puts a page bitmap of|has a negative sub-header size)"
			fi
		done
	done
	# a flattened file cut short (an interrupted copy): refused, and with
	# --force read as far as it goes; pages whose bytes are lost are
	# unreadable, never read as the zeros the image holds there
	run -x "$V61" -i global "$DK/cut-end.flat"
	expect "cut-end.flat" 3 "cut-end\.flat: flattened dump truncated: no record header or end mark"
	run -x "$V61" -i global "$VMCORES/k6.1/vmcore.flat"
	cp "$out" "$want"
	run -x "$V61" -i global --force "$DK/cut-end.flat"
	if [ $rc = 0 ] && cmp -s "$out" "$want" && grep -q "read as far as it goes (--force)" "$err"; then
		ok "cut-end.flat --force: exit 0, the whole file's $(grep -vc '^#' "$out") lines (only the end mark is lost)"
	else
		nok "cut-end.flat --force: exit $rc, $(cmp "$out" "$want" 2>&1 | head -n1) $(head -c 300 "$err" | tr '\n' ' ')"
	fi
	run -x "$V61" -i global --force "$DK/cut95.flat"
	lossy=$(grep -E "unreadable: [1-9]|corrupt \(skipped\): [1-9]|zero-filled: [1-9]|anomalies: [1-9]" "$err" | head -n 1)
	extra=$(grep -v '^#' "$out" | grep -v '^CPU:.*LOST' | grep -vxF -f "$TRUTH" | head -n 1)
	if signalled $rc; then
		nok "cut95.flat --force: killed by signal $((rc - 128))"
	elif ! grep -Eq "[0-9]+ of its [0-9]+ pages were in the part of the file that is lost" "$err"; then
		nok "cut95.flat --force: the lost pages not counted: $(head -c 300 "$err" | tr '\n' ' ')"
	elif [ -n "$extra" ]; then
		nok "cut95.flat --force: a line the kernel did not print: $extra"
	elif [ $rc != 0 ] && [ $rc != 10 ]; then
		nok "cut95.flat --force: exit $rc: $(tail -n1 "$err")"
	elif [ -n "$lossy" ] && [ $rc != 10 ] || [ -z "$lossy" ] && [ $rc != 0 ]; then
		nok "cut95.flat --force: exit $rc, loss: ${lossy:-none}"
	else
		ok "cut95.flat --force: exit $rc, $(grep -vc '^#' "$out") kernel lines and nothing else, $(grep -Eo '[0-9]+ of its [0-9]+ pages were in the part' "$err")"
	fi
	run -x "$V61" --force "$DK/cut50.flat"
	if signalled $rc; then nok "cut50.flat --force: killed by signal $((rc - 128))"
	elif [ $rc = 3 ] || [ $rc = 6 ]; then
		expect "cut50.flat --force" $rc "pages were in the part of the file that is lost"
	else nok "cut50.flat --force: exit $rc, want 3 or 6 (its page tables are lost)"; fi
else
	nok "scripts/make-damaged-kdump failed"
fi

# what a Debian powerpc64le machine's kdump writes today: a radix kernel
# with 4 KiB pages filtered by its own makedumpfile 1.7.8, which leaves out
# pages in use as hwpoisoned (scripts/make-damaged-ppc64): what is there
# is read, the loss counted, and its likely cause said; the fixture's own
# copies (made with make-vmcores' -i) read whole and say nothing of it
if [ -f "$VMCORES/k6.12-ppc64el/case.env" ]; then
	VP=$(. "$VMCORES/k6.12-ppc64el/case.env"; echo "$VMLINUX")
	DP=$("$(dirname "$0")/../scripts/make-damaged-ppc64" 2>"$err")
	mrc=$?
	hint='reads? fell on pages this dump left out\. It is a dump of a ppc64 radix kernel with 4 KiB pages'
	if [ $mrc = 77 ]; then
		skip "ppc64 radix 4 KiB dumps of makedumpfile: $(tail -n1 "$err")"
	elif [ $mrc != 0 ]; then
		nok "scripts/make-damaged-ppc64 failed: $(tail -n1 "$err")"
	else
		run -x "$VP" "$DP/radix4k-d0.kdump"
		nhw=$(sed -n 's/.*Hwpoison pages *: 0x\([0-9a-f]*\).*/\1/p' "$DP/radix4k-d0.kdump.log")
		ptruth=$VMCORES/k6.12-ppc64el/truth/global.trace
		# records of events whose descriptions were left out print as
		# the kernel's "Unknown type N" and are counted; every other
		# line must be the kernel's
		extra=$(grep -av -e '^#' -e ': Unknown type [0-9]*$' "$out" |
			awk 'NR==FNR { t[$0] = 1; next } !($0 in t) { print; exit }' "$ptruth" -)
		if [ ! -s "$ptruth" ]; then
			nok "radix4k -d 0: no $ptruth to compare with"
		elif signalled $rc; then
			nok "radix4k -d 0: killed by signal $((rc - 128))"
		elif [ -n "$extra" ]; then
			nok "radix4k -d 0: a line the kernel did not print: $extra"
		else
			expect "radix4k -d 0 ($((16#${nhw:-0})) pages left out as hwpoisoned; $(grep -avc '^#' "$out") kernel lines)" 10 \
				"$hint" "filtered from the dump: [1-9]" "unknown event ids: [1-9]"
		fi
		run -x "$VP" "$DP/radix4k-d31.kdump"
		expect "radix4k -d 31" 6 "cannot read nr_cpu_ids" "$hint"
		run -x "$VP" "$VMCORES/k6.12-ppc64el/vmcore.kdump"
		if [ $rc = 0 ] && ! grep -q 'fell on pages this dump left out' "$err"; then
			ok "k6.12-ppc64el's kdump (makedumpfile with -i): exit 0, no hint of lost pages"
		else
			nok "k6.12-ppc64el's kdump: exit $rc: $(grep -m1 'fell on pages' "$err" | cut -c1-150)"
		fi
	fi
else
	skip "ppc64 radix 4 KiB dumps of makedumpfile: no k6.12-ppc64el fixture"
fi

# a kernel with tracing off (never enabled: buffers unexpanded, empty)
if [ -f "$VMCORES/k6.1-notrace/case.env" ]; then
	VN=$(. "$VMCORES/k6.1-notrace/case.env"; echo "$VMLINUX")
	run -x "$VN" "$VMCORES/k6.1-notrace/vmcore.kdump"
	expect "tracing off" 6 "vmcore\.kdump: the trace buffers are empty" "tracing was off"
else
	skip "dump of a kernel with tracing off: no k6.1-notrace fixture"
fi
finish
