#!/bin/bash
# t-krec-crash.sh - the ktrace recorder in crash: with the modules' debuginfo
# loaded ("mod -s krec krec.ko"), "ktrace show -i krec" prints byte for byte
# what "ktrace-extract --module-debuginfo DIR -i krec" prints, "ktrace list"
# what --list prints, and "ktrace show -r SPEC" what --ring SPEC prints (the
# module's ring by its symbol; ftrace's global ring by global_trace).
# crash 8.0.2 opens 6.1, trixie's crash 8.0.6 6.12 (scripts/fetch-crash; tests/lib.sh's crash_ext_for).
# Exit 0 pass, 1 fail, 77 skip.
[ -n "${KTRACE_SANITIZE:-}" ] && { echo "skip - crash cannot load an ASan-built ktrace.so"; exit 77; }
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-build}
case $O in /*) ;; *) O=$ROOT/$O ;; esac
CRASH_SYS=${CRASH:-$(command -v crash)}
[ -n "$CRASH_SYS" ] || { echo "skip - crash is not installed"; exit 77; }
[ -f /usr/include/crash/defs.h ] || { echo "skip - no /usr/include/crash/defs.h"; exit 77; }
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
found=$(ring_cases krec)
[ -n "$found" ] || { echo "skip - no krec case in $VMCORES (scripts/make-vmcores k6.1-krec)"; exit 77; }
make -s -C "$ROOT" O="$O" "$O/ktrace.so" >/dev/null 2>&1 || { nok "make $O/ktrace.so failed"; finish; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t-krec-crash.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

same() { # WHAT GOT WANT
	if [ ! -s "$3" ]; then
		nok "$1: ktrace-extract printed nothing"
	elif cmp -s "$2" "$3"; then
		ok "$1: identical ($(wc -l <"$3") lines)"
	else
		nok "$1: differs: $(diff "$3" "$2" 2>&1 | sed -n 2p | cut -c1-120)"
	fi
}

for c in $found; do
	dir=$VMCORES/$c
	unset VMLINUX FORMATS MODULES SERIES
	. "$dir/case.env"
	cr=$(crash_ext_for "$SERIES")
	case $? in
	1) skip "$c: no crash that opens $SERIES dumps (scripts/fetch-crash)"; continue ;;
	2) nok "$c: the extension does not build against the defs.h of the crash for $SERIES"; continue ;;
	esac
	read -r crash ext crash_opts <<<"$cr"
	# sid's crash 9.0.2 opens 7.x only with --no_modules (tests/lib.sh):
	# then 'mod -s' cannot load krec.ko's types (ktrace-extract reads them
	# from the .ko: t-krec)
	case " $crash_opts " in *" --no_modules "*)
		# what crash> ktrace does then: the ring found by the module's
		# own kallsyms, its records printed raw, and that said
		core=$dir/vmcore.elf
		printf 'extend %s\nktrace show -i krec\nq\n' "$ext" >"$tmp/cmds"
		"$crash" -s $crash_opts "$VMLINUX" "$core" -i "$tmp/cmds" </dev/null >"$tmp/crash.out" 2>&1
		if grep -q "krec: module krec is loaded but its types (struct krec_entry, struct krec_record) are unknown" "$tmp/crash.out" &&
			grep -q '^# ring: krec (raw)$' "$tmp/crash.out" &&
			grep -Eq '^ +[0-9]+\.[0-9]{6} \[00[01]\] len [0-9]+: ' "$tmp/crash.out"; then
			ok "$c: crash for $SERIES (--no_modules, no 'mod -s'): the krec ring printed raw, and said: its types are unknown"
		else
			nok "$c: crash --no_modules: $(grep -m3 -E 'krec|ring' "$tmp/crash.out" | tr '\n' ' ')"
		fi
		continue ;;
	esac
	core=$dir/vmcore.kdump
	[ -f "$core" ] || core=$dir/vmcore.elf
	rm -f "$tmp"/*.crash
	{
		echo "extend $ext"
		echo "mod -s krec $MODULES/krec.ko"
		echo "mod -s krec_demo $MODULES/krec_demo.ko"
		echo "ktrace list > $tmp/list.crash"
		echo "ktrace show -i krec > $tmp/krec.crash"
		echo "ktrace show -r krec_buffer > $tmp/ring.crash"
		echo "ktrace events -v > $tmp/events.crash"
		echo "ktrace show -r global_trace > $tmp/global.crash"
		echo "q"
	} >"$tmp/cmds"
	"$crash" -s $crash_opts "$VMLINUX" "$core" -i "$tmp/cmds" </dev/null >"$tmp/crash.out" 2>&1
	grep -q "ktrace.so: shared object loaded" "$tmp/crash.out" ||
		{ nok "$c: crash did not load the extension: $(head -n3 "$tmp/crash.out" | tr '\n' ' ')"; continue; }
	k=("$KTRACE_BIN" -x "$VMLINUX" --module-debuginfo "$MODULES")
	"${k[@]}" --list "$core" >"$tmp/list.want" 2>/dev/null
	same "$c: ktrace list" "$tmp/list.crash" "$tmp/list.want"
	"${k[@]}" -i krec "$core" >"$tmp/krec.want" 2>/dev/null
	same "$c: ktrace show -i krec" "$tmp/krec.crash" "$tmp/krec.want"
	grep -q 'krec_mark: ' "$tmp/krec.crash" || nok "$c: ktrace show -i krec: no krec_mark decoded"
	"${k[@]}" --events "$core" >"$tmp/events.want" 2>/dev/null
	same "$c: ktrace events -v" "$tmp/events.crash" "$tmp/events.want"
	grep -q '^name: demo_irq$' "$tmp/events.want" ||
		nok "$c: --events does not list krec's demo_irq"
	"${k[@]}" --ring krec_buffer "$core" >"$tmp/ring.want" 2>/dev/null
	same "$c: ktrace show -r krec_buffer" "$tmp/ring.crash" "$tmp/ring.want"
	"${k[@]}" --ring global_trace "$core" >"$tmp/global.want" 2>/dev/null
	same "$c: ktrace show -r global_trace" "$tmp/global.crash" "$tmp/global.want"
done
finish
