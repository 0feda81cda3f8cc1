#!/bin/bash
# trace.dat output, judged by trace-cmd: for every fixture, every buffer and
# both file versions, `trace-cmd report` reads our file without a word on
# stderr, and its events are ours: per event cpu, time stamp (ns, from
# report -t), pid and event name equal what `ktrace-extract --json` says.
# Both sides are put in (time stamp, cpu) order with a stable sort, since
# the two merges may order events of equal time stamps differently.
# Damaged dumps (EXTRA_DUMPS) must give a file trace-cmd reads silently,
# holding what could be read. KTRACE_DAT_VERSION picks the file version.
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
command -v trace-cmd >/dev/null || { echo "skip - trace-cmd not installed"; exit 77; }
# what is ours here (writing trace.dat) runs under the sanitizers in t-jobs
# and t-ticket; this test is trace-cmd's reading of it, which make check runs
[ -n "${KTRACE_SANITIZE:-}" ] && { echo "skip - trace-cmd reading our trace.dat: make check runs it; the sanitizers see the writing in t-jobs and t-ticket"; exit 77; }
command -v perl >/dev/null || { echo "skip - perl not installed"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "cpu ts pid event" of buffer $2 from `trace-cmd report -t` output $1;
# instance lines carry "name:" first (names in $3), the top buffer's none
report_events() {
	perl -ne '
		BEGIN { ($want, @inst) = @ARGV; @ARGV = (); %pre = map { $_ => 1 } @inst; }
		$buf = "global";
		# (names are right-aligned to the longest one)
		if (/^\s*(\S+):\s/ && $pre{$1}) { $buf = $1; s/^\s*\S+://; }
		next unless $buf eq $want;
		next unless /-(-?\d+)\s+\[(\d+)\]\s+(?:\S+\s+)?(\d+)\.(\d+):\s+([^\s:]+):/;
		($pid, $cpu, $s, $f, $ev) = ($1, $2, $3, $4, $5);
		$f = substr($f . "000000000", 0, 9);
		printf "%d %s %d %s\n", $cpu, $s * 1000000000 + $f, $pid, $ev;
	' "$2" $3 <"$1"
}

# the same from our JSON Lines
json_events() {
	perl -ne '
		next unless /^\{"instance":/;
		s/,"fields":.*//;
		/"cpu":(\d+),"ts":(\d+),.*"pid":(-?\d+),.*"event":"([^"]*)"/ or next;
		print "$1 $2 $3 $4\n";
	' <"$1"
}

ordered() { sort -s -k2,2n -k1,1n "$1"; }

# compare buffer $3 of report $1 with JSON $2; $4 names the check
compare() {
	local rep=$1 json=$2 inst=$3 what=$4 n
	# every buffer name a line may start with: the snapshot buffers too
	report_events "$rep" "$inst" "$INSTANCES $(printf '%s.snapshot ' $INSTANCES)" >"$tmp/r.ev"
	json_events "$json" >"$tmp/j.ev"
	ordered "$tmp/r.ev" >"$tmp/r.sorted"
	ordered "$tmp/j.ev" >"$tmp/j.sorted"
	n=$(wc -l <"$tmp/j.sorted")
	if [ "$n" = 0 ] && [ -z "${5:-}" ]; then
		nok "$what: no events in our JSON"
	elif ! cmp -s "$tmp/r.sorted" "$tmp/j.sorted"; then
		nok "$what: trace-cmd has $(wc -l <"$tmp/r.sorted") events, we $n; first" \
		    "difference (cpu ts pid event): $(diff "$tmp/j.sorted" "$tmp/r.sorted" |
		    grep -m 2 '^[<>]' | tr '\n' ' ')"
	else
		ok "$what: trace-cmd reads the $n events (cpu, ns, pid, event)"
	fi
}

# trace-cmd report of $1 into $2; a warning or failure is a failed check.
# REPORT_RAW=-R: every record in its raw form (trace-cmd's function graph
# printer folds a leaf call's return into its entry line, as the kernel does)
report() {
	local dat=$1 rep=$2 what=$3
	if ! trace-cmd report $REPORT_RAW -t -i "$dat" >"$rep" 2>"$tmp/report.err"; then
		nok "$what: trace-cmd report failed: $(head -n 3 "$tmp/report.err" | tr '\n' ' ')"
		return 1
	fi
	if [ -s "$tmp/report.err" ]; then
		nok "$what: trace-cmd report warns: $(head -n 3 "$tmp/report.err" | tr '\n' ' ')"
		return 1
	fi
	return 0
}

extract() {
	"$KTRACE_BIN" -q -x "$VMLINUX" "$@" 2>"$tmp/extract.err"
	local rc=$?
	[ $rc = 0 ] || [ $rc = 10 ]
}

n=0
for c in $(cases); do
	dir=$VMCORES/$c
	unset CASE VMLINUX INSTANCES FORMATS EXTRA_DUMPS
	. "$dir/case.env"
	core=$dir/vmcore.elf
	[ -f "$core" ] || { nok "$c: $core missing"; continue; }
	REPORT_RAW=
	grep -q '^# tracer: function_graph' "$dir"/truth/*.trace && REPORT_RAW=-R
	for inst in $INSTANCES; do
		extract -i "$inst" --json "$core" >"$tmp/$inst.json" ||
			{ nok "$c/$inst: --json failed: $(tail -n 2 "$tmp/extract.err" | tr '\n' ' ')"; continue; }
	done
	for v in 6 7; do
		export KTRACE_DAT_VERSION=$v
		# one buffer per file
		for inst in $INSTANCES; do
			n=$((n + 1))
			dat=$tmp/$c-$inst-v$v.dat
			[ -s "$tmp/$inst.json" ] || continue
			if ! extract -i "$inst" -o "$dat" "$core"; then
				nok "$c/$inst/v$v: -o trace.dat failed: $(tail -n 2 "$tmp/extract.err" | tr '\n' ' ')"
				continue
			fi
			report "$dat" "$tmp/rep" "$c/$inst/v$v" || continue
			# the file's only buffer is its top-level one
			compare "$tmp/rep" "$tmp/$inst.json" global "$c/$inst/v$v"
		done
		# every buffer in one file: the global one on top, instances as buffers
		n=$((n + 1))
		dat=$tmp/$c-all-v$v.dat
		if ! extract -o "$dat" "$core"; then
			nok "$c/all/v$v: -o trace.dat failed: $(tail -n 2 "$tmp/extract.err" | tr '\n' ' ')"
			continue
		fi
		if report "$dat" "$tmp/rep" "$c/all/v$v"; then
			for inst in $INSTANCES; do
				[ -s "$tmp/$inst.json" ] &&
					compare "$tmp/rep" "$tmp/$inst.json" "$inst" "$c/all/v$v: buffer $inst"
			done
		fi
		for cmd in "report --stat" "dump --all"; do
			if trace-cmd $cmd -i "$dat" >/dev/null 2>"$tmp/cmd.err" && [ ! -s "$tmp/cmd.err" ]; then
				ok "$c/all/v$v: trace-cmd $cmd reads it silently"
			else
				nok "$c/all/v$v: trace-cmd $cmd: $(head -n 2 "$tmp/cmd.err" | tr '\n' ' ')"
			fi
		done
		# to a pipe: spooled, the same bytes
		if extract -F dat -o - "$core" | cat >"$tmp/pipe.dat" && cmp -s "$dat" "$tmp/pipe.dat"; then
			ok "$c/all/v$v: written to a pipe, the same file"
		else
			nok "$c/all/v$v: written to a pipe, the file differs"
		fi
	done
	unset KTRACE_DAT_VERSION
	# damaged dumps: whatever could be read is written, and read back
	for x in ${EXTRA_DUMPS:-}; do
		core=$dir/vmcore.$x
		[ -f "$core" ] || { nok "$c/$x: $core missing"; continue; }
		n=$((n + 1))
		for inst in $INSTANCES; do
			extract -i "$inst" --json "$core" >"$tmp/$inst.json" || : >"$tmp/$inst.json"
		done
		dat=$tmp/$c-$x.dat
		if ! extract -o "$dat" "$core"; then
			nok "$c/$x: -o trace.dat failed: $(tail -n 2 "$tmp/extract.err" | tr '\n' ' ')"
			continue
		fi
		report "$dat" "$tmp/rep" "$c/$x" || continue
		for inst in $INSTANCES; do
			compare "$tmp/rep" "$tmp/$inst.json" "$inst" "$c/$x: buffer $inst" empty-ok
		done
	done
done
[ $n = 0 ] && { echo "skip - no vmcore fixtures in $VMCORES (run scripts/make-vmcores)"; exit 77; }
finish
