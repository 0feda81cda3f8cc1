#!/bin/bash
# Kernels read from the dump alone: the fixtures of a kernel Debian ships
# no -dbg package of (DUMP_ALONE=1 in case.env, VMLINUX empty: k6.18), which
# every test that needs a vmlinux leaves out (cases() in lib.sh). For each,
# with `ktrace-extract --from-dump` (the dump's BTF, the kallsyms tables its
# VMCOREINFO lists):
# - (every line of the kernel's truth/<buffer>.trace in every dump format,
#   and JSON's events: t-truth, which reads these cases with --from-dump)
# - the makedumpfile -d 31 dump (EXTRA_DUMPS): exit 10 with the filtered
#   pages counted, and no line the kernel did not print;
# - trace.dat (-o X.dat, each buffer and all in one, file versions 6 and
#   7): `trace-cmd report` reads it without a word on stderr, and its events
#   (cpu, ns, pid, event) are those of --json;
# - --dmesg is what makedumpfile --dump-dmesg writes from the kdump dump,
#   where makedumpfile supports the kernel;
# - --ticket: trace.txt, trace.jsonl, dmesg.txt what the separate runs
#   write, its manifest verifies, summary.txt names release, build-id (the
#   dump's VMCOREINFO) and panic cpu and shows the truth's last event of
#   that cpu, and its layout profile reads the dump again to the same text.
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
[ -n "$(dump_alone_cases)" ] || { echo "skip - no dump-alone fixture in $VMCORES (scripts/make-vmcores k6.18)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t-dumpalone.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

X() { "$KTRACE_BIN" --from-dump "$@"; }
# loss_named ERR: the stderr of an exit-10 run names what was lost (a
# nonzero count in the loss lines, or an option not printed as the kernel would)
loss_named() {
	grep -qE '(unreadable|filtered from the dump|corrupt \(skipped\)|zero-filled|page-list anomalies|dropped by the kernel|pages flagged missed-events|unknown event ids|in-flight bytes \(reserved, not committed\)|trace buffers not read \([^)]*\)): [1-9]' "$1" ||
		grep -q 'not printed as the kernel would.*: [1-9]' "$1"
}
first_diff() { diff "$1" "$2" | sed -n '2{s/^\(.\{0,160\}\).*/\1/;p;q}'; }

# trace.dat against --json, as t-tracedat compares them: "cpu ns pid event"
report_events() {
	perl -ne '
		BEGIN { ($want, @inst) = @ARGV; @ARGV = (); %pre = map { $_ => 1 } @inst; }
		$buf = "global";
		if (/^\s*(\S+):\s/ && $pre{$1}) { $buf = $1; s/^\s*\S+://; }
		next unless $buf eq $want;
		next unless /-(-?\d+)\s+\[(\d+)\]\s+(?:\S+\s+)?(\d+)\.(\d+):\s+([^\s:]+):/;
		($pid, $cpu, $s, $f, $ev) = ($1, $2, $3, $4, $5);
		$f = substr($f . "000000000", 0, 9);
		printf "%d %s %d %s\n", $cpu, $s * 1000000000 + $f, $pid, $ev;
	' "$2" $3 <"$1" | sort -s -k2,2n -k1,1n
}
json_events() {
	perl -ne '
		next unless /^\{"instance":/;
		s/,"fields":.*//;
		/"cpu":(\d+),"ts":(\d+),.*"pid":(-?\d+),.*"event":"([^"]*)"/ or next;
		print "$1 $2 $3 $4\n";
	' <"$1" | sort -s -k2,2n -k1,1n
}
# dat_check DAT BUFFER JSON WHAT [empty-ok]
dat_check() {
	local dat=$1 inst=$2 json=$3 what=$4 n
	if ! trace-cmd report -t -i "$dat" >"$tmp/rep" 2>"$tmp/rep.err"; then
		nok "$what: trace-cmd report failed: $(head -n 3 "$tmp/rep.err" | tr '\n' ' ')"
		return
	fi
	if [ -s "$tmp/rep.err" ]; then
		nok "$what: trace-cmd report warns: $(head -n 3 "$tmp/rep.err" | tr '\n' ' ')"
		return
	fi
	report_events "$tmp/rep" "$inst" "$INSTANCES" >"$tmp/r.ev"
	json_events "$json" >"$tmp/j.ev"
	n=$(wc -l <"$tmp/j.ev")
	if [ "$n" = 0 ] && [ -z "${5:-}" ]; then
		nok "$what: no events in our JSON"
	elif ! cmp -s "$tmp/r.ev" "$tmp/j.ev"; then
		nok "$what: trace-cmd has $(wc -l <"$tmp/r.ev") events, we $n; first difference (cpu ts pid event): $(diff "$tmp/j.ev" "$tmp/r.ev" | grep -m 2 '^[<>]' | tr '\n' ' ')"
	else
		ok "$what: trace-cmd report reads it silently, the same $n events (cpu, ns, pid, event)"
	fi
}

for c in $(dump_alone_cases); do
	dir=$VMCORES/$c
	unset CASE VMLINUX INSTANCES FORMATS EXTRA_DUMPS NOTRACE RELEASE SERIES DUMP_ALONE
	. "$dir/case.env"
	NOK_WHO="[kernel $RELEASE, dump alone]"
	# a feature case (k6.18-opts, ...): t-truth reads it line by line;
	# what is checked here (the filtered dump, trace.dat against JSON, the
	# log, the ticket) does not depend on the feature, and its checks of a
	# tracer's own output live in the tests that need a vmlinux
	if ! is_base_case "$c"; then
		echo "# $c: a feature case: read line by line by t-truth (--from-dump)"
		continue
	fi
	if [ -n "${VMLINUX:-}" ]; then
		nok "$c: DUMP_ALONE=1 with VMLINUX=$VMLINUX"
	else
		ok "$c: case.env says DUMP_ALONE=1, no vmlinux"
	fi
	# 2. the filtered dump: loss counted, nothing the kernel did not print
	# (named "CASE: d31 dump, BUFFER", not "CASE/FORMAT/BUFFER": a damaged
	# dump is no verdict of scripts/support-table's on what is rendered)
	for x in ${EXTRA_DUMPS:-}; do
		core=$dir/vmcore.$x
		[ -f "$core" ] || { nok "$c: $x dump: $core missing"; continue; }
		for inst in $INSTANCES; do
			X -i "$inst" "$core" >"$tmp/out" 2>"$tmp/err"
			rc=$?
			extra=$(grep -av '^#' "$tmp/out" | grep -v '^CPU:.*LOST' | grep -vxF -f "$dir/truth/$inst.trace" | head -n 1)
			nf=$(sed -n 's/.*filtered from the dump: \([0-9]*\).*/\1/p' "$tmp/err" | head -n 1)
			if signalled $rc; then
				nok "$c: $x dump, $inst: killed by signal $((rc - 128))"
			elif [ $rc = 0 ] && [ "${nf:-0}" = 0 ]; then
				# makedumpfile kept every page of this buffer: then it is whole
				if [ -n "$extra" ]; then
					nok "$c: $x dump, $inst: a line the kernel did not print: $extra"
				else
					ok "$c: $x dump, $inst: no page filtered, exit 0, every line the kernel's"
				fi
			elif [ $rc != 10 ] || ! loss_named "$tmp/err"; then
				nok "$c: $x dump, $inst: exit $rc, loss not named: $(grep -v warning "$tmp/err" | tail -n 2 | tr '\n' ' ')"
			elif [ -n "$extra" ]; then
				nok "$c: $x dump, $inst: a line the kernel did not print: $extra"
			else
				ok "$c: $x dump, $inst: exit 10, ${nf:-0} pages filtered from the dump counted; its $(grep -avc '^#' "$tmp/out") lines the kernel's"
			fi
		done
	done
	# 3. trace.dat
	if ! command -v trace-cmd >/dev/null; then
		skip "$c: trace-cmd not installed: trace.dat not read back"
	else
		core=$dir/vmcore.${FORMATS%% *}
		for inst in $INSTANCES; do
			X -q -i "$inst" --json "$core" >"$tmp/$inst.json" 2>/dev/null
		done
		for v in 6 7; do
			export KTRACE_DAT_VERSION=$v
			for inst in $INSTANCES; do
				X -q -i "$inst" -o "$tmp/$inst.dat" "$core" 2>"$tmp/err"
				rc=$?
				if [ $rc != 0 ] && [ $rc != 10 ]; then
					nok "$c/$inst/v$v: --from-dump -o X.dat exit $rc: $(tail -n 2 "$tmp/err" | tr '\n' ' ')"
					continue
				fi
				# the file's only buffer is its top-level one
				dat_check "$tmp/$inst.dat" global "$tmp/$inst.json" "$c/$inst/v$v: trace.dat"
			done
			X -q -o "$tmp/all.dat" "$core" 2>"$tmp/err"
			rc=$?
			if [ $rc != 0 ] && [ $rc != 10 ]; then
				nok "$c/all/v$v: --from-dump -o X.dat exit $rc: $(tail -n 2 "$tmp/err" | tr '\n' ' ')"
			else
				for inst in $INSTANCES; do
					dat_check "$tmp/all.dat" "$inst" "$tmp/$inst.json" "$c/all/v$v: trace.dat, buffer $inst"
				done
			fi
			unset KTRACE_DAT_VERSION
		done
		for x in ${EXTRA_DUMPS:-}; do
			[ -f "$dir/vmcore.$x" ] || continue
			for inst in $INSTANCES; do
				X -q -i "$inst" --json "$dir/vmcore.$x" >"$tmp/$inst.json" 2>/dev/null
			done
			X -q -o "$tmp/x.dat" "$dir/vmcore.$x" 2>"$tmp/err"
			rc=$?
			if [ $rc != 0 ] && [ $rc != 10 ]; then
				nok "$c: $x dump: --from-dump -o X.dat exit $rc: $(tail -n 2 "$tmp/err" | tr '\n' ' ')"
			else
				for inst in $INSTANCES; do
					dat_check "$tmp/x.dat" "$inst" "$tmp/$inst.json" "$c: $x dump: trace.dat, buffer $inst" empty-ok
				done
			fi
		done
	fi
	# 4. the kernel log against makedumpfile's
	if ! command -v makedumpfile >/dev/null; then
		skip "$c: makedumpfile not installed: --dmesg not compared"
	elif [ ! -f "$dir/vmcore.kdump" ]; then
		skip "$c: no kdump-compressed dump: makedumpfile --dump-dmesg has nothing to read"
	elif ! makedumpfile --dump-dmesg "$dir/vmcore.kdump" "$tmp/want" >"$tmp/mdf.err" 2>&1 || [ ! -s "$tmp/want" ]; then
		skip "$c: makedumpfile $(makedumpfile -v 2>&1 | head -n 1 | awk '{ print $2 }') --dump-dmesg cannot read this kernel's log: $(tail -n 1 "$tmp/mdf.err")"
	else
		for fmt in $(formats_of "$c") ${EXTRA_DUMPS:-}; do
			core=$dir/vmcore.$fmt
			[ -f "$core" ] || continue
			X --dmesg "$core" >"$tmp/got" 2>"$tmp/err"
			rc=$?
			if [ $rc != 0 ]; then
				nok "$c/$fmt: --from-dump --dmesg exit status $rc: $(head -c 200 "$tmp/err")"
			elif ! cmp -s "$tmp/want" "$tmp/got"; then
				nok "$c/$fmt: --from-dump --dmesg differs from makedumpfile --dump-dmesg: $(first_diff "$tmp/want" "$tmp/got")"
			else
				ok "$c/$fmt: --from-dump --dmesg equals makedumpfile --dump-dmesg ($(wc -l <"$tmp/got") lines)"
			fi
		done
	fi
	# 5. the ticket
	core=$dir/vmcore.kdump
	[ -f "$core" ] || core=$dir/vmcore.${FORMATS%% *}
	t=$tmp/ticket-$c
	X -v --ticket "$t" "$core" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc != 0 ] && [ $rc != 10 ]; then
		nok "$c: --from-dump --ticket exit $rc: $(tail -n1 "$tmp/err")"
		continue
	fi
	X -q "$core" >"$tmp/want.txt" 2>/dev/null
	X -q -j "$core" >"$tmp/want.jsonl" 2>/dev/null
	X -q --dmesg "$core" >"$tmp/want.dmesg" 2>/dev/null
	for f in trace.txt:want.txt trace.jsonl:want.jsonl dmesg.txt:want.dmesg; do
		if [ -s "$tmp/${f#*:}" ] && cmp -s "$tmp/${f#*:}" "$t/${f%%:*}"; then
			ok "$c: the ticket's ${f%%:*} is what the separate --from-dump run writes"
		else
			nok "$c: the ticket's ${f%%:*} differs from the separate --from-dump run's"
		fi
	done
	if (cd "$t" && sha256sum -c --quiet manifest.sha256) >/dev/null 2>&1 &&
		[ "$(wc -l <"$t/manifest.sha256")" = "$(ls "$t" | grep -vc '^manifest.sha256$')" ]; then
		ok "$c: manifest.sha256 lists and verifies every file"
	else
		nok "$c: manifest.sha256 does not verify or misses a file"
	fi
	# the build-id the kernel wrote in its VMCOREINFO (5.9+), not ours
	bid=$(grep -a -m1 -o 'BUILD-ID=[0-9a-f]*' "$dir/vmcore.${FORMATS%% *}" | cut -d= -f2)
	cpu=$(X --panic-cpu "$core" 2>/dev/null)
	if [ -n "$bid" ] && [ -n "$cpu" ] && grep -qx "release: $RELEASE" "$t/summary.txt" &&
		grep -qx "build-id: $bid" "$t/summary.txt" &&
		grep -q "^panic cpu: $cpu (from panic_cpu)$" "$t/summary.txt" &&
		grep -q '^panic message: sysrq triggered crash$' "$t/summary.txt"; then
		ok "$c: summary.txt names release $RELEASE, build-id $bid, panic cpu $cpu and the panic message"
	else
		nok "$c: summary.txt lacks release $RELEASE, build-id '$bid', panic cpu '$cpu' or the panic message"
	fi
	last=$(grep -av '^#' "$dir/truth/global.trace" | grep -aF "[$(printf %03d "${cpu:-0}")]" | tail -n1)
	if [ -n "$last" ] && grep -qF -- "$last" "$t/summary.txt"; then
		ok "$c: summary.txt shows the truth's last event on cpu $cpu"
	else
		nok "$c: summary.txt lacks the truth's last event on cpu $cpu: '$last'"
	fi
	prof=$(ls "$t"/*.profile 2>/dev/null | head -n1)
	if [ -n "$prof" ] && "$KTRACE_BIN" -q -P "$prof" "$core" 2>/dev/null | cmp -s - "$tmp/want.txt"; then
		ok "$c: the ticket's profile (from the dump's BTF) reads the dump again to the same text"
	else
		nok "$c: the ticket's profile '$prof' does not read the dump to the same text"
	fi
done
finish
