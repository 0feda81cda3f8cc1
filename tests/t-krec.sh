#!/bin/bash
# t-krec.sh - the ktrace recorder (kmod/ktrace-recorder) read from real dumps
# (cases with RING_TRUTH=krec: k6.1-krec, k6.12-krec), against the module's
# own rendering saved in the guest before the panic (truth/krec.trace):
# every line of it in our text, in order and identical; the last mark last;
# the ring's overrun equal to the module's; JSON with the same records (each
# record's pid the one trace-cmd reads in our trace.dat); the
# ring printed raw when the module's types are not given; --ring by the
# module's symbol; and --ring on ftrace's own global buffer (the k6.1 and
# k6.12 fixtures): the same records, raw, as the normal path decodes.
# Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
found=$(ring_cases krec)
[ -n "$found" ] || { echo "skip - no krec case in $VMCORES (scripts/make-vmcores k6.1-krec)"; exit 77; }
command -v jq >/dev/null || { echo "skip - jq missing (scripts/install-deps)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t-krec.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# in_order TRUTH OUT: empty if every line of TRUTH is in OUT in order
in_order() {
	awk 'BEGIN { n = 0; i = 0 } NR==FNR { t[n++] = $0; next }
	     i < n && $0 == t[i] { i++ }
	     END { if (i < n) printf "truth line %d not found in order: %s", i + 1, t[i] }' "$1" "$2"
}

for c in $found; do
	dir=$VMCORES/$c
	unset VMLINUX FORMATS MODULES
	. "$dir/case.env"
	truth=$dir/truth/krec.trace
	last=$(cat "$dir/truth/krec.last")
	want_overrun=$(awk '/^overrun:/ { print $2 }' "$dir/truth/krec.stats")
	nt=$(wc -l <"$truth")
	for fmt in $(formats_of "$c"); do
		core=$dir/vmcore.$fmt
		k=("$KTRACE_BIN" -x "$VMLINUX" --module-debuginfo "$MODULES")
		"${k[@]}" -q -i krec --no-header "$core" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		miss=$(in_order "$truth" "$tmp/out")
		if [ $rc != 0 ]; then
			nok "$c/$fmt: exit status $rc: $(head -n2 "$tmp/err" | tr '\n' ' ')"
		elif [ -n "$miss" ]; then
			nok "$c/$fmt: $miss"
		else
			ok "$c/$fmt: all $nt lines krec rendered in the guest are in our text, in order"
		fi
		got_last=$(tail -n1 "$tmp/out")
		if [ "${got_last##*krec_mark: }" = "$last" ] && [ "$got_last" = "$(tail -n1 "$truth")" ]; then
			ok "$c/$fmt: the last event written before the panic is the last printed"
		else
			nok "$c/$fmt: last line '$got_last', want krec_mark '$last'"
		fi
		grep -q ' demo_irq: ' "$tmp/out" && grep -q ' krec_note: ' "$tmp/out" &&
			grep -q ' demo_xmit: dev=' "$tmp/out" &&
			ok "$c/$fmt: events of both modules, with string arguments" ||
			nok "$c/$fmt: events of krec.ko or krec_demo.ko missing"
		# demo_irq was disabled half-way: none after the last one, others after it
		after=$(awk '/ demo_irq: /{ n = 0; next } / demo_xmit: /{ n++ } END { print n + 0 }' "$tmp/out")
		[ "$after" -gt 0 ] && ok "$c/$fmt: demo_irq stops half-way, $after demo_xmit after its last" ||
			nok "$c/$fmt: no demo_xmit after the last demo_irq (disabled half-way?)"

		overrun=$("${k[@]}" --list "$core" 2>/dev/null | awk '$1 == "krec" { s += $6 } END { print s + 0 }')
		[ "$overrun" = "$want_overrun" ] && [ "$overrun" -gt 0 ] &&
			ok "$c/$fmt: the ring's overrun $overrun is the module's" ||
			nok "$c/$fmt: overrun $overrun in --list, the module says $want_overrun"
		grep -q "events overwritten by the kernel: $want_overrun," "$tmp/err" ||
			"${k[@]}" -i krec "$core" 2>&1 >/dev/null | grep -q "events overwritten by the kernel: $want_overrun," &&
			ok "$c/$fmt: the loss summary counts the $want_overrun overwritten records" ||
			nok "$c/$fmt: the loss summary does not say $want_overrun overwritten"

		# JSON: the same records, the mark last, each decoded
		"${k[@]}" -q -j -i krec "$core" >"$tmp/json" 2>/dev/null
		nj=$(jq -c 'select(.event != null)' "$tmp/json" | wc -l)
		nbad=$(jq -c 'select(.ts != null and .text == null)' "$tmp/json" | wc -l)
		jlast=$(jq -c 'select(.event != null)' "$tmp/json" | tail -n1 | jq -r '.event + ": " + .text')
		[ "$nj" = "$nt" ] && [ "$nbad" = 0 ] && [ "$jlast" = "krec_mark: $last" ] &&
			ok "$c/$fmt: JSON: $nj records decoded, krec_mark last" ||
			nok "$c/$fmt: JSON: $nj records (want $nt), $nbad undecoded, last '$jlast'"

		# trace.dat: the recorder's ring as buffer "krec" beside ftrace's,
		# its events with formats trace-cmd prints as krec did
		if command -v trace-cmd >/dev/null; then
			"${k[@]}" -q -o "$tmp/all.dat" "$core" 2>/dev/null
			sed 's/^.*\] //' "$truth" >"$tmp/want.names"
			trace-cmd report "$tmp/all.dat" 2>/dev/null | sed -n 's/^krec: *//p' |
				sed 's/^.*\] *[0-9.]*: \([a-z_]*\): */\1: /' >"$tmp/got.names"
			cmp -s "$tmp/got.names" "$tmp/want.names" &&
				ok "$c/$fmt: trace.dat: trace-cmd report prints the $nt krec records as krec did" ||
				nok "$c/$fmt: trace.dat: trace-cmd report differs: $(diff "$tmp/want.names" \
					"$tmp/got.names" | sed -n 2p | cut -c1-100)"
			# each record's pid: JSON's (ktrace decodes the header) is
			# what trace-cmd reads in trace.dat's copy of the record
			# (its common_pid, in the file's byte order)
			jq -r 'select(.event != null) | .pid' "$tmp/json" >"$tmp/json.pids"
			trace-cmd report "$tmp/all.dat" 2>/dev/null |
				sed -n 's/^krec: *[^ ]*-\([0-9][0-9]*\) .*/\1/p' >"$tmp/dat.pids"
			[ -s "$tmp/json.pids" ] && cmp -s "$tmp/json.pids" "$tmp/dat.pids" &&
				ok "$c/$fmt: JSON: each record's pid is trace-cmd's ($(sort -u "$tmp/json.pids" | wc -l) pids)" ||
				nok "$c/$fmt: JSON pids differ from trace-cmd's: $(diff "$tmp/dat.pids" "$tmp/json.pids" | sed -n 2,3p | tr '\n' ' ')"
		else
			skip "$c/$fmt: trace-cmd is not installed"
		fi

		# --timeline: the recorder's records among the kernel log's (both
		# local_clock()), merged by time stamp. Not "the last mark before
		# the panic's sysrq line": local_clock() is per CPU, and under TCG
		# two CPUs' clocks were seen 0.19 s apart (k6.12-krec: the module's
		# own trace has its last mark at 6.945918 on cpu 1, the log its
		# sysrq at 6.758368): the recorder's lines must be its own trace
		"${k[@]}" -q --timeline "$core" >"$tmp/tl" 2>/dev/null
		rc=$?
		nm=$(grep -nF "] krec_mark: $last" "$tmp/tl" | cut -d: -f1)
		ns=$(grep -n " log .*sysrq: Trigger a crash" "$tmp/tl" | head -n1 | cut -d: -f1)
		nk=$(grep -c ' krec  *\[[0-9]*\] ' "$tmp/tl")
		# the recorder's lines of the timeline are the module's own trace, in its order
		grep ' krec  *\[[0-9]*\] ' "$tmp/tl" | sed 's/^\[ *\([0-9.]*\)\] krec  */\1 /' >"$tmp/tlk"
		grep -v '^#' "$dir/truth/krec.trace" | sed 's/^ *//' >"$tmp/tlw"
		[ $rc = 0 ] && [ "$nk" = "$nt" ] && [ -n "$nm" ] && [ -n "$ns" ] && cmp -s "$tmp/tlk" "$tmp/tlw" &&
			ok "$c/$fmt: --timeline: the $nk krec records among the kernel log's, the module's own trace in its order (mark at line $nm, sysrq at $ns)" ||
			nok "$c/$fmt: --timeline: exit $rc, $nk krec lines (want $nt), mark at line '$nm', sysrq at '$ns': $(diff "$tmp/tlw" "$tmp/tlk" | sed -n 2p | cut -c1-100)"

		# no module types: the ring is still read, every record raw
		"$KTRACE_BIN" -x "$VMLINUX" --module-debuginfo "$tmp" -q -i krec --no-header "$core" \
			>"$tmp/raw" 2>"$tmp/rawerr"
		rc=$?
		nr=$(grep -c '\] len [0-9]*:' "$tmp/raw")
		[ $rc = 0 ] && [ "$nr" = "$nt" ] && grep -q 'its ring is printed raw' "$tmp/rawerr" &&
			ok "$c/$fmt: without the module's types: $nr records raw, and a warning saying why" ||
			nok "$c/$fmt: without the module's types: exit $rc, $nr raw records (want $nt)"

		# --ring by the module's symbol (a pointer variable) is that ring, decoded
		"${k[@]}" -q --ring krec_buffer --no-header "$core" >"$tmp/ring" 2>/dev/null
		cmp -s "$tmp/ring" "$tmp/out" && ok "$c/$fmt: --ring krec_buffer prints the same text" ||
			nok "$c/$fmt: --ring krec_buffer differs from -i krec"
	done
done

# --ring on ftrace's global buffer: the same records (cpu, time stamp, size), raw
for c in k6.1 k6.12; do
	dir=$VMCORES/$c
	[ -e "$dir/case.env" ] || { skip "$c: no fixture (scripts/make-vmcores $c)"; continue; }
	unset VMLINUX
	. "$dir/case.env"
	core=$dir/vmcore.kdump
	"$KTRACE_BIN" -x "$VMLINUX" -q -j -i global "$core" 2>/dev/null |
		jq -r 'select(.ts != null) | "\(.cpu) \(.ts)"' >"$tmp/norm"
	"$KTRACE_BIN" -x "$VMLINUX" -q -j --ring global_trace "$core" 2>"$tmp/ringerr" |
		jq -r 'select(.ts != null and .hex != null) | "\(.cpu) \(.ts)"' >"$tmp/raw"
	n=$(wc -l <"$tmp/norm")
	[ "$n" -gt 0 ] && cmp -s "$tmp/norm" "$tmp/raw" &&
		ok "$c: --ring global_trace: the same $n records, raw, as -i global decodes" ||
		nok "$c: --ring global_trace: $(wc -l <"$tmp/raw") raw records, -i global has $n"
	addr=$(sed -n 's/.*the ring pointer is at global_trace+0x[0-9a-f]* (\(0x[0-9a-f]*\)).*/\1/p' "$tmp/ringerr")
	"$KTRACE_BIN" -x "$VMLINUX" -q -j --ring "$addr" "$core" 2>/dev/null |
		jq -r 'select(.ts != null and .hex != null) | "\(.cpu) \(.ts)"' >"$tmp/raw2"
	[ -n "$addr" ] && cmp -s "$tmp/norm" "$tmp/raw2" &&
		ok "$c: --ring $addr (the address) prints the same records" ||
		nok "$c: --ring by address '$addr' differs"
	"$KTRACE_BIN" -x "$VMLINUX" --ring nr_cpu_ids "$core" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc = 6 ] && grep -q 'nr_cpu_ids.*no ring buffer' "$tmp/err" &&
		ok "$c: --ring on a symbol that is no ring: status 6 and why" ||
		nok "$c: --ring nr_cpu_ids: status $rc: $(head -n1 "$tmp/err")"
done
finish
