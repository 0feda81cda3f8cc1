#!/bin/bash
# The persistent ring buffer of 6.12 on the k*-persist fixtures
# (tests/vmcores, persist-run.sh): reserve_mem= and trace_instance=NAME@...
# on the command line range-map instance NAME's ring buffer into reserved
# memory. ktrace lists it like any instance and prints its text (and the
# global buffer's), from every dump format, identical to the kernel's trace
# files; --last-boot-info prints what the kernel's last_boot_info file read;
# on a buffer that is not boot-mapped it fails with a message; the crash
# extension's "ktrace last_boot_info" prints the same. (JSON, trace.dat and
# the crash extension's text: t-truth.sh, t-tracedat.sh, t-crash.sh.)
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-build}
case $O in /*) ;; *) O=$ROOT/$O ;; esac
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for c in $(cases); do
	case $c in *-persist) ;; *) continue ;; esac
	dir=$VMCORES/$c
	unset CASE VMLINUX INSTANCES FORMATS SERIES
	. "$dir/case.env"
	boot=
	for b in $INSTANCES; do
		[ -s "$dir/truth/$b.last_boot_info" ] && boot=$b
	done
	[ -n "$boot" ] || { nok "$c: no truth/NAME.last_boot_info (the guest failed?)"; continue; }
	grep -q "trace_instance=$boot@" "$dir/truth/cmdline" &&
		ok "$c: $boot was made boot-mapped on the kernel command line" ||
		nok "$c: the kernel command line has no trace_instance=$boot@"
	"$KTRACE_BIN" -x "$VMLINUX" --list "$dir/vmcore.elf" >"$tmp/list" 2>/dev/null
	grep -q "^$boot " "$tmp/list" && ok "$c: --list shows $boot" || nok "$c: --list shows no $boot"
	for fmt in $(formats_of "$c"); do
		for b in $INSTANCES; do
			n=$((n + 1))
			kx "$tmp/out" "$tmp/err" -x "$VMLINUX" -i "$b" "$dir/vmcore.$fmt"
			rc=$?
			grep -v '^# ktrace: ' "$tmp/out" >"$tmp/text"
			if [ $rc != 0 ]; then
				nok "$c/$fmt/$b: exit $rc: $(tail -n 2 "$tmp/err" | tr '\n' ' ')"
			elif cmp -s "$tmp/text" "$dir/truth/$b.trace"; then
				ok "$c/$fmt/$b: identical to the kernel's trace file ($(wc -l <"$tmp/text") lines)"
			else
				nok "$c/$fmt/$b: differs from the kernel's trace file: $(diff \
					"$dir/truth/$b.trace" "$tmp/text" | grep -m 2 '^[<>]' | tr '\n' ' ')"
			fi
		done
		"$KTRACE_BIN" -x "$VMLINUX" -i "$boot" --last-boot-info "$dir/vmcore.$fmt" \
			>"$tmp/lbi" 2>"$tmp/err"
		rc=$?
		[ $rc = 0 ] && cmp -s "$tmp/lbi" "$dir/truth/$boot.last_boot_info" &&
			ok "$c/$fmt/$boot: --last-boot-info is the kernel's last_boot_info ($(tr '\n\t' '; ' <"$tmp/lbi"))" ||
			nok "$c/$fmt/$boot: --last-boot-info (exit $rc) differs: $(cat "$tmp/lbi" "$tmp/err" | tr '\n\t' '; ')"
	done
	# a buffer that is not boot-mapped: a message, a failure, no text
	"$KTRACE_BIN" -x "$VMLINUX" -i global --last-boot-info "$dir/vmcore.elf" >"$tmp/lbi" 2>"$tmp/err"
	rc=$?
	[ $rc != 0 ] && [ ! -s "$tmp/lbi" ] && grep -q 'not a boot-mapped instance' "$tmp/err" &&
		ok "$c/global: --last-boot-info fails (exit $rc): $(cat "$tmp/err")" ||
		nok "$c/global: --last-boot-info on the global buffer: exit $rc, $(cat "$tmp/lbi" "$tmp/err")"
	if cr=$(crash_ext_for "$SERIES"); then
		set -- $cr
		printf 'extend %s\nktrace last_boot_info -i %s > %s\nq\n' "$2" "$boot" \
			"$tmp/crash.lbi" >"$tmp/cmds"
		"$1" -s "${@:3}" "$VMLINUX" "$dir/vmcore.elf" -i "$tmp/cmds" </dev/null >"$tmp/crash.out" 2>&1
		[ -s "$tmp/crash.lbi" ] && cmp -s "$tmp/crash.lbi" "$dir/truth/$boot.last_boot_info" &&
			ok "$c/$boot: crash's ktrace last_boot_info prints the kernel's file" ||
			nok "$c/$boot: crash's ktrace last_boot_info: $(cat "$tmp/crash.lbi" 2>/dev/null | tr '\n\t' '; ')"
	else
		skip "$c: no crash for $SERIES (see tests/t-crash.sh)"
	fi
done
[ $n = 0 ] && { echo "skip - no persist fixture in $VMCORES (scripts/make-vmcores k6.12-persist)"; exit 77; }
finish
