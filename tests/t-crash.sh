#!/bin/bash
# The crash extension against ktrace-extract over the vmcore matrix: in
# crash's batch mode, "ktrace show -i INST" must print byte for byte what
# "ktrace-extract -x VMLINUX -i INST VMCORE" prints, "ktrace list" what
# --list prints, "ktrace events -v" what --events prints, "ktrace dmesg"
# and "ktrace timeline" what --dmesg and --timeline print; a pipe through a
# shell command must work.
#
# Each kernel under a crash that opens it (tests/lib.sh's crash_ext_for):
# bookworm's crash 8.0.2 up to 6.1, trixie's 8.0.6 for 6.12 and the rt
# kernels, sid's 9.0 for 7.x (--no_modules), the latter two unpacked by
# scripts/fetch-crash, with the extension built against each one's defs.h.
# KTRACE_CRASH_FORMATS="elf kdump flat" adds the flattened dumps (crash
# reads them too; each format costs one crash start per case).
# make check runs the base case of each kernel (its ELF dump; the kdump-compressed one too on k6.1 and ksid); make
# check-full every case.
[ -n "${KTRACE_SANITIZE:-}" ] && { echo "skip - crash itself is not built with ASan, so it cannot load an ASan-built ktrace.so; make check runs this test"; exit 77; }
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-build}
case $O in /*) ;; *) O=$ROOT/$O ;; esac
CRASH_SYS=${CRASH:-$(command -v crash)}

[ -n "$CRASH_SYS" ] || { echo "skip - crash is not installed"; exit 77; }
[ -f /usr/include/crash/defs.h ] || { echo "skip - no /usr/include/crash/defs.h (crash's headers)"; exit 77; }
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
[ -n "$(cases)" ] || { echo "skip - no vmcore fixtures in $VMCORES (run scripts/make-vmcores)"; exit 77; }

# the newer crashes: fetched once (cached), so a fresh machine runs every case
if [ -z "${KTRACE_NO_FETCH:-}" ]; then
	for suite in trixie sid; do
		"$ROOT/scripts/fetch-crash" "$suite" >/dev/null 2>"$VMCORES/../fetch-crash.err" ||
			nok "scripts/fetch-crash $suite failed: $(tail -n 2 "$VMCORES/../fetch-crash.err" | tr '\n' ' ')"
	done
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run_crash CRASH EXT VMLINUX CORE: the ktrace commands, each into a file
run_crash() {
	local crash=$1 ext=$2 vmlinux=$3 core=$4 inst
	{
		echo "extend $ext"
		echo "ktrace list > $tmp/list.crash"
		echo "ktrace events -v > $tmp/events.crash"
		for inst in $INSTANCES; do
			echo "ktrace show -i $inst > $tmp/$inst.crash"
		done
		echo "ktrace show -i global | grep -c . > $tmp/pipe.crash"
		echo "ktrace show -i global -c 1 -n 40 -s $win_from -u $win_to > $tmp/window.crash"
		echo "ktrace dmesg > $tmp/dmesg.crash"
		echo "ktrace dmesg -j > $tmp/dmesg-json.crash"
		echo "ktrace timeline > $tmp/timeline.crash"
		echo "ktrace timeline > $tmp/timeline2.crash"
		echo "sys > $tmp/sys.crash"
		[ "$fmt" = elf ] && echo "ktrace ticket $tmp/ticket.crash"
		echo "bt > $tmp/bt.crash"
		echo "q"
	} >"$tmp/cmds"
	"$crash" -s $crash_opts "$vmlinux" "$core" -i "$tmp/cmds" </dev/null >"$tmp/crash.out" 2>&1
}

# same WHAT GOT WANT: compare, name the first difference
same() {
	local what=$1 got=$2 want=$3
	if [ ! -s "$want" ]; then
		nok "$what: ktrace-extract printed nothing to compare with"
	elif [ ! -s "$got" ]; then
		nok "$what: crash printed nothing ($(grep -m1 -iE 'error|cannot|ktrace:' \
			"$tmp/crash.out" | cut -c1-160))"
	elif cmp -s "$got" "$want"; then
		ok "$what: identical ($(wc -l <"$want") lines)"
	else
		local n a b i
		n=$(cmp "$want" "$got" 2>&1 | sed -n 's/.* line \([0-9]*\).*/\1/p')
		a=$(sed -n "${n}p" "$want"); b=$(sed -n "${n}p" "$got")
		i=0
		while [ $i -lt ${#a} ] && [ "${a:i:1}" = "${b:i:1}" ]; do i=$((i + 1)); done
		n="$n differs at column $((i + 1))"
		i=$((i > 20 ? i - 20 : 0))
		nok "$what: line $n: extract '${a:i:60}', crash '${b:i:60}'"
	fi
}

for c in $(cases); do
	# make check: the extension on each kernel's base case (k6.1, k6.1-rt,
	# ...): what crash adds (its memory, symbols, commands) is the same for
	# every feature, and each case is a crash start of 20-40 s; the feature
	# cases run in make check-full (and with KTRACE_CASES)
	if [ "${KTRACE_TIER:-core}" != full ] && [ -z "${KTRACE_CASES:-}" ] && ! is_base_case "$c"; then
		continue
	fi
	dir=$VMCORES/$c
	unset CASE VMLINUX INSTANCES FORMATS SERIES ARCH
	. "$dir/case.env"
	cr=$(crash_ext_for "$SERIES")
	case $? in
	1)
		if [ "${ARCH:-amd64}" != amd64 ]; then
			skip "$c: crash on this host is built for x86_64 and opens no $ARCH dump"
		else
			skip "$c: no crash that opens $SERIES dumps (scripts/fetch-crash)"
		fi
		continue ;;
	2) nok "$c: the extension does not build against the defs.h of the crash for $SERIES"; continue ;;
	esac
	read -r crash ext crash_opts <<<"$cr"
	# Both dump formats on the base case of each series (k6.1, ...): the
	# format is crash's business, not the extension's. The feature cases
	# (options, tracers, sub-buffer sizes) once, on the ELF dump: a crash
	# session costs 20-40 s, and the suite must stay inside CI's time.
	# make check: the kdump-compressed dump of a 6.x and a 7.x kernel
	# (k6.1 under Debian 12's crash, ksid under sid's), the ELF dump of
	# every kernel; check-full: both formats of every base case
	fmts=${KTRACE_CRASH_FORMATS:-elf kdump}
	[ -z "${KTRACE_CRASH_FORMATS:-}" ] && ! is_base_case "$c" && fmts=elf
	[ -z "${KTRACE_CRASH_FORMATS:-}" ] && [ "${KTRACE_TIER:-core}" != full ] &&
		[ -z "${KTRACE_CASES:-}" ] && [ "$c" != k6.1 ] && [ "$c" != ksid ] && fmts=elf
	for fmt in $fmts; do
		case " $FORMATS " in *" $fmt "*) ;; *) continue ;; esac
		core=$dir/vmcore.$fmt
		[ -f "$core" ] || { nok "$c/$fmt: $core missing"; continue; }
		rm -f "$tmp"/*.crash
		# a window around the global truth's 100th event
		win_from=$(grep -av '^#' "$dir/truth/global.trace" | sed -n '100p' |
			sed -n 's/.* \([0-9]*\.[0-9]*\): .*/\1/p')
		win_from=${win_from:-0}
		win_to=$(awk "BEGIN { printf \"%.6f\", $win_from + 0.002 }")
		run_crash "$crash" "$ext" "$VMLINUX" "$core"
		if ! grep -q "ktrace.so: shared object loaded" "$tmp/crash.out"; then
			nok "$c/$fmt: crash did not load the extension:" \
			    "$(grep -m2 -iE 'error|cannot|crash:' "$tmp/crash.out" | tr '\n' ' ' | cut -c1-200)"
			continue
		fi
		"$KTRACE_BIN" -x "$VMLINUX" --list "$core" >"$tmp/list.want" 2>/dev/null
		same "$c/$fmt: ktrace list" "$tmp/list.crash" "$tmp/list.want"
		"$KTRACE_BIN" -x "$VMLINUX" --events "$core" >"$tmp/events.want" 2>/dev/null
		same "$c/$fmt: ktrace events -v" "$tmp/events.crash" "$tmp/events.want"
		for inst in $INSTANCES; do
			"$KTRACE_BIN" -x "$VMLINUX" -i "$inst" "$core" >"$tmp/$inst.want" 2>/dev/null
			same "$c/$fmt: ktrace show -i $inst" "$tmp/$inst.crash" "$tmp/$inst.want"
		done
		"$KTRACE_BIN" -x "$VMLINUX" -i global -c 1 -n 40 --since "$win_from" --until "$win_to" \
			"$core" >"$tmp/window.want" 2>/dev/null
		same "$c/$fmt: ktrace show -c 1 -n 40 -s $win_from -u $win_to" "$tmp/window.crash" \
			"$tmp/window.want"
		"$KTRACE_BIN" -x "$VMLINUX" --dmesg "$core" >"$tmp/dmesg.want" 2>/dev/null
		same "$c/$fmt: ktrace dmesg" "$tmp/dmesg.crash" "$tmp/dmesg.want"
		"$KTRACE_BIN" -x "$VMLINUX" --dmesg --json "$core" >"$tmp/dmesg-json.want" 2>/dev/null
		same "$c/$fmt: ktrace dmesg -j" "$tmp/dmesg-json.crash" "$tmp/dmesg-json.want"
		"$KTRACE_BIN" -x "$VMLINUX" --timeline "$core" >"$tmp/timeline.want" 2>/dev/null
		same "$c/$fmt: ktrace timeline" "$tmp/timeline.crash" "$tmp/timeline.want"
		same "$c/$fmt: ktrace timeline, a second time in the session" "$tmp/timeline2.crash" \
			"$tmp/timeline.want"
		# the ticket: the same files as ktrace-extract --ticket writes (the
		# ELF dump only: the files do not depend on the format, t-ticket
		# checks that; making the DWARF profile costs 2 s a run)
		if [ "$fmt" = elf ]; then
			rm -rf "$tmp/ticket.want"
			"$KTRACE_BIN" -q -x "$VMLINUX" --ticket "$tmp/ticket.want" "$core" 2>/dev/null
			for f in trace.txt trace.jsonl trace.dat dmesg.txt timeline.txt; do
				same "$c/$fmt: ktrace ticket: $f" "$tmp/ticket.crash/$f" "$tmp/ticket.want/$f"
			done
			grep -v '^types and symbols from:' "$tmp/ticket.crash/summary.txt" \
				>"$tmp/sum.crash" 2>/dev/null
			grep -v '^types and symbols from:' "$tmp/ticket.want/summary.txt" >"$tmp/sum.want"
			same "$c/$fmt: ktrace ticket: summary.txt (but its source line)" "$tmp/sum.crash" \
				"$tmp/sum.want"
		fi
		rm -rf "$tmp/ticket.crash"
		# the panicking CPU: crash's bt of the panic task names its CPU
		want_cpu=$(sed -n 's/.* CPU: \([0-9]*\) .*/\1/p' "$tmp/bt.crash" | head -n1)
		got_cpu=$("$KTRACE_BIN" -x "$VMLINUX" --panic-cpu "$core" 2>/dev/null)
		if [ -n "$want_cpu" ] && [ "$got_cpu" = "$want_cpu" ] &&
			grep -q '^ *PANIC: ' "$tmp/sys.crash"; then
			ok "$c/$fmt: --panic-cpu $got_cpu, the CPU of crash's bt (PANIC: $(sed -n \
				's/^ *PANIC: //p' "$tmp/sys.crash" | cut -c1-40))"
		else
			nok "$c/$fmt: --panic-cpu '$got_cpu', crash's bt says CPU '$want_cpu'"
		fi
		if [ -f "$tmp/global.want" ] && [ "$(cat "$tmp/pipe.crash" 2>/dev/null)" = \
		     "$(grep -c . "$tmp/global.want")" ]; then
			ok "$c/$fmt: ktrace show | grep through crash's pipe"
		else
			nok "$c/$fmt: ktrace show | grep -c . printed '$(cat "$tmp/pipe.crash" 2>/dev/null)'"
		fi
	done
done
finish
