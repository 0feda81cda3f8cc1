# shellcheck shell=bash
# ktrace-qemu: the trace of the dump, the assertions, the verdict (sourced by
# ktrace-qemu, not run). Results go to stdout as TAP, to tap.txt, to
# summary.txt and, with --junit, to JUnit XML.

t_captured= t_extracted= panic_cpu= panic_cpu_from= vmcore=
# how ktrace-extract finds the kernel's layout: the vmlinux, or (a kernel
# without a -dbg package) the dump alone
xsrc=(-x "$vmlinux")
[ -n "$vmlinux" ] || xsrc=(--from-dump)
tap_n=0 tap_fail=0
junit_cases=

xml() { sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g' <<<"$1"; }

# result OK|FAIL DESCRIPTION [DIAGNOSTIC...]: one TAP line (and the JUnit case)
result() {
	local res=$1 desc=$2 line d
	shift 2
	tap_n=$((tap_n + 1))
	if [ "$res" = OK ]; then line="ok $tap_n - $desc"; else line="not ok $tap_n - $desc"; tap_fail=$((tap_fail + 1)); fi
	{
		echo "$line"
		for d; do printf '#   %s\n' "$d"; done
	} | tee -a "$out/tap.txt"
	junit_cases="$junit_cases<testcase classname=\"ktrace-qemu.$(xml "$case")\" name=\"$(xml "$desc")\">"
	[ "$res" = OK ] || junit_cases="$junit_cases<failure message=\"$(xml "${1:-failed}")\">$(xml "$(printf '%s\n' "$@")")</failure>"
	junit_cases="$junit_cases</testcase>"$'\n'
}

# finish STATUS WHY: the summary, the JUnit file, and the exit
finish() {
	local st=$1 why=$2 panic_line
	t_end=$(now)
	panic_line=$(grep -a -m1 -o 'Kernel panic - not syncing.*' "$out/console.log" 2>/dev/null | tr -d '\r')
	{
		echo "verdict: $st ($why)"
		echo "kernel: $kernel"
		echo "vmlinux: ${vmlinux:-none (read from the dump alone)}"
		echo "machine: $accel_name, $cpus cpus, $mem"
		echo "command line: $cmdline"
		echo "reproducer: ${run:-marker workload}"
		echo "panic: ${panic_line:-none}"
		[ -z "$panic_cpu" ] || echo "panicking cpu: $panic_cpu (from the $panic_cpu_from)"
		[ -z "$vmcore" ] || echo "dump: $vmcore"
		[ $tap_n -eq 0 ] || echo "assertions: $((tap_n - tap_fail)) passed, $tap_fail failed"
		echo "time: $(timings)"
	} >"$out/summary.txt"
	sed "s/^/$NAME: /" "$out/summary.txt" >&2
	if [ -n "$junit" ]; then
		[ $tap_n -gt 0 ] || result FAIL "verdict" "$why"
		{
			echo '<?xml version="1.0" encoding="UTF-8"?>'
			echo "<testsuites><testsuite name=\"ktrace-qemu\" tests=\"$tap_n\" failures=\"$tap_fail\" time=\"$(phase "$t_start" "$t_end")\">"
			printf '%s' "$junit_cases"
			echo "<system-out>$(xml "$(cat "$out/summary.txt")")</system-out>"
			echo '</testsuite></testsuites>'
		} >"$junit.tmp" && mv "$junit.tmp" "$junit"
	fi
	exit "$st"
}

# boot (QEMU start to the workload), workload (to the panic), capture (the
# dumps), extraction (ktrace-extract: text, trace.dat, the panicking CPU)
timings() {
	local t=$t_qemu s=
	[ -n "$t_qemu" ] || { echo "none"; return; }
	if [ -n "$t_work" ]; then s="boot $(phase "$t_qemu" "$t_work") s"; t=$t_work; fi
	if [ -n "$t_panic" ]; then
		if [ -n "$t_work" ]; then s="$s, workload"; else s="boot to panic"; fi
		s="$s $(phase "$t" "$t_panic") s"
		[ -z "$t_captured" ] || s="$s, capture $(phase "$t_panic" "$t_captured") s"
		[ -z "$t_extracted" ] || s="$s, extraction $(phase "$t_captured" "$t_extracted") s"
	fi
	echo "$s${s:+, }total $(phase "$t_start" "$(now)") s (setup before QEMU $(phase "$t_start" "$t_qemu") s)"
}

no_panic_verdict() {
	if [ -n "$expect_no_panic" ]; then
		echo "1..1" | tee "$out/tap.txt"
		result OK "no panic"
		finish 0 "no panic, as expected"
	fi
	finish 3 "no panic within the timeout (console: $out/console.log)"
}

# the panicking CPU: from the dump (ktrace-extract --panic-cpu: panic_cpu,
# or the CPU kdump records); else from the console, the last "CPU: N"
# line of an oops or of panic()'s own dump_stack
find_panic_cpu() {
	local c
	c=$("$extract" "${xsrc[@]}" --panic-cpu "$vmcore" 2>/dev/null | head -n1)
	case $c in
	none) panic_cpu=none panic_cpu_from=dump; return ;;
	'' | *[!0-9]*) ;;
	*) panic_cpu=$c panic_cpu_from=dump; return ;;
	esac
	c=$(awk '/Kernel panic - not syncing/ { if (cpu != "") { print cpu; exit } after = 1 }
		match($0, /CPU: [0-9]+ /) { cpu = substr($0, RSTART + 5, RLENGTH - 6); if (after) { print cpu; exit } }' \
		"$out/console.log" | tr -d '\r')
	if [ -n "$c" ]; then panic_cpu=$c panic_cpu_from=console; else panic_cpu=none panic_cpu_from=console; fi
}

extract_trace() {
	local rc=0 f
	for f in elf kdump flat; do
		[ -s "$out/vmcore.$f" ] && { vmcore=$out/vmcore.$f; break; }
	done
	[ -n "$vmcore" ] || finish 125 "no dump to read"
	"$extract" "${xsrc[@]}" "$vmcore" >"$out/trace.txt" 2>"$out/extract.log" || rc=$?
	case $rc in
	0 | 10) ;;
	6) note "the dump holds no usable trace buffer (tracing was never on)" ;;
	*) cat "$out/extract.log" >&2; finish 125 "ktrace-extract could not read the dump (status $rc, $out/extract.log)" ;;
	esac
	[ $rc = 6 ] || "$extract" -q "${xsrc[@]}" -o "$out/trace.dat" "$vmcore" 2>>"$out/extract.log" ||
		note "no trace.dat (see $out/extract.log)"
	find_panic_cpu
	t_extracted=$(now)
}

# view BUFFER CPU: the event lines of one buffer (or all: "") and one CPU
# (or all: ""), without headers and stack traces; prints the file's name
view() {
	local f=$work/view.${1:-all}.${2:-all}
	if [ ! -e "$f" ]; then
		"$extract" -q "${xsrc[@]}" ${1:+-i "$1"} ${2:+-c "$2"} "$vmcore" 2>/dev/null |
			grep -av '^#' | grep -av '^[[:space:]]*=>' | grep -a . >"$f"
	fi
	echo "$f"
}

assert_all() {
	local a kind arg buf cpu f where desc last n pos re k line
	local total=${#asserts[@]}
	[ -n "$expect_no_panic" ] && total=$((total + 1))
	[ "$total" -gt 0 ] || finish 0 "the kernel panicked; no assertion given"
	echo "1..$total" | tee "$out/tap.txt"
	if [ -n "$expect_no_panic" ]; then
		result FAIL "no panic" "the kernel panicked on cpu $panic_cpu: $(grep -a -m1 -o 'Kernel panic - not syncing.*' "$out/console.log")" \
			"last events of cpu $panic_cpu:" \
			"$([ "$panic_cpu" != none ] && tail -n 3 "$(view "" "$panic_cpu")")"
	fi
	cpu=$on_cpu
	if [ "$cpu" = panic ]; then
		cpu=$panic_cpu
		[ "$cpu" != none ] || note "--on-cpu panic: the panicking CPU is not known"
	fi
	for a in "${asserts[@]+"${asserts[@]}"}"; do
		kind=${a%%	*} arg=${a#*	}
		buf=$in_buf
		[ "$kind" = expect-last ] && buf=${buf:-global}
		where=" in ${buf:-every buffer}${on_cpu:+ on cpu $cpu}"
		[ "$on_cpu" = panic ] && where="$where (panicking)"
		if [ "$on_cpu" = panic ] && [ "$cpu" = none ]; then
			result FAIL "$kind /$arg/$where" "the panicking CPU is not known"
			continue
		fi
		[ "$kind" = expect-panic ] || f=$(view "$buf" "$cpu")
		case $kind in
		expect)
			if grep -Eaq -- "$arg" "$f"; then result OK "expect /$arg/$where"
			else result FAIL "expect /$arg/$where" "no event line matches; $(wc -l <"$f") events, the last: $(tail -n1 "$f")"; fi ;;
		expect-last)
			last=$(tail -n1 "$f")
			if [ -n "$last" ] && grep -Eaq -- "$arg" <<<"$last"; then result OK "expect-last /$arg/$where"
			else result FAIL "expect-last /$arg/$where" "the last event: ${last:-(none)}"; fi ;;
		expect-none)
			line=$(grep -Ea -m1 -- "$arg" "$f")
			if [ -z "$line" ]; then result OK "expect-none /$arg/$where"
			else result FAIL "expect-none /$arg/$where" "matches: $line"; fi ;;
		expect-panic)
			line=$(grep -Ea -m1 -- "$arg" "$out/console.log" | tr -d '\r')
			if [ -n "$line" ]; then result OK "expect-panic /$arg/"
			else result FAIL "expect-panic /$arg/" "the console says: $(grep -a -m1 -o 'Kernel panic - not syncing.*' "$out/console.log")"; fi ;;
		expect-seq)
			pos=0 k=0 desc=
			while IFS= read -r re; do
				[ -n "$re" ] || continue
				k=$((k + 1))
				n=$(tail -n +$((pos + 1)) "$f" | grep -Ean -m1 -- "$re" | cut -d: -f1)
				if [ -z "$n" ]; then desc="regex $k /$re/ matches no event after event $pos"; break; fi
				pos=$((pos + n))
			done <"$arg"
			if [ -z "$desc" ]; then result OK "expect-seq $arg ($k regexes)$where"
			else result FAIL "expect-seq $arg$where" "$desc"; fi ;;
		esac
	done
	t_end=$(now)
	if [ $tap_fail -gt 0 ]; then finish 1 "$tap_fail of $tap_n assertions failed"; fi
	finish 0 "every assertion holds"
}
