#!/bin/bash
# t-target.sh - the extractor's target against every cached vmcore
#
# usage: tests/t-target.sh [PROBE]
#   PROBE  the probe-target binary (default: $PROBE_TARGET, else
#          $O/tests/probe-target as the Makefile builds it, O=build)
#
# For each $KTRACE_CACHE/vmcores/<case>/ with a case.env, runs probe-target
# on every format there (vmcore.elf, vmcore.kdump, vmcore.flat; vmcore.d31
# expects filtered pages), then the error cases: an empty file, /etc/passwd,
# a truncated copy of a dump, and a vmlinux of another case. Every dump
# but a -d 31 one is also read with -x: init_uts_ns at vmcoreinfo's
# address, linux_banner as the vmlinux has it, a percpu variable of CPUs
# 0 and 1, the first module (vmalloc), each CPU's ring buffer tail page,
# its time stamp within what the CPU's stats file said (truth/). An s390x
# case (ARCH=s390x: big-endian, which libktrace does not read yet) is read
# in every tier: these are the checks of its address translation
# (dump-s390x.c); without one, a skip line says so. Prints
# "ok - ..." / "not ok - ..."; exits 0 when all pass, 1 when one fails,
# 77 (skip) when there is no fixture.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# is_base_case (the tier's pick)
. "$here/lib.sh"

cache=${KTRACE_CACHE:-$HOME/.cache/ktrace}
o=${O:-build}
case $o in /*) ;; *) o=$here/../$o ;; esac
probe=${1:-${PROBE_TARGET:-$o/tests/probe-target}}

if [ ! -x "$probe" ]; then
	echo "not ok - probe-target not built: $probe"
	exit 1
fi
cases=()
recipes=$(cd "$(dirname "$0")/vmcores" && pwd)
for env in "$cache"/vmcores/*/case.env; do
	[ -e "$env" ] || continue
	# this tree's cases only, not the benchmark's (EXPLICIT=1)
	c=$(basename "$(dirname "$env")")
	r=$recipes/$c.recipe
	# make check: every kernel's base case, each in every dump format (the
	# target reads the dump; a feature case is the same kernel and formats);
	# make check-full and KTRACE_CASES: every case
	if [ -n "${KTRACE_CASES:-}" ]; then
		[[ " $KTRACE_CASES " == *" $c "* ]] || continue
	elif [ "${KTRACE_TIER:-core}" != full ] && ! is_base_case "$c" &&
		! grep -q '^ARCH=s390x' "$env"; then
		continue
	fi
	# a kernel without a vmlinux (DUMP_ALONE=1): t-dumpalone.sh reads it
	grep -q '^DUMP_ALONE=1' "$env" && continue
	[ -f "$r" ] && ! grep -q '^EXPLICIT=1' "$r" && cases+=("$(dirname "$env")")
done
if [ ${#cases[@]} -eq 0 ]; then
	echo "# skip: no vmcore fixtures in $cache/vmcores/*/case.env" \
		"(make them with scripts/make-vmcores)"
	exit 77
fi

fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME EXPECT_RC PROBE-ARGS...: one "ok"/"not ok" line, details on failure
run()
{
	local name=$1 want=$2 rc
	shift 2
	"$probe" "$@" >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		echo "ok - $name"
	else
		echo "not ok - $name (exit $rc)"
		# what failed first, then the probe's commentary
		{ grep '^not ok' "$tmp/out"; grep -v -e '^ok - ' -e '^not ok' "$tmp/out"; } |
			sed 's/^/#   /' | head -20
		fail=1
	fi
}

# case.env assigns shell variables; read only the ones we need
case_var()
{
	sed -n "s/^$2=//p" "$1/case.env" | tail -n1 | sed "s/^['\"]//; s/['\"]$//"
}

# ring_bounds DIR: -r CPU:OLDEST:NOW for each CPU whose stats file (truth/)
# gives times in seconds (a clock in ns: "oldest event ts:  8.299554")
ring_bounds()
{
	local cpu f first last
	for cpu in 0 1; do
		f=$1/truth/global.cpu$cpu.stats
		[ -r "$f" ] || continue
		first=$(sed -n 's/^oldest event ts: *//p' "$f")
		last=$(sed -n 's/^now ts: *//p' "$f")
		[[ $first == *.* && $last == *.* ]] && echo "-r $cpu:$first:$last"
	done
}

# unused_cpus DIR: -u CPU for each CPU whose global ring was never written:
# a case that traced nothing there (a recorder's: no truth/global.trace;
# NO_TRACE: one without an event line), or whose stats file says no entry,
# overrun or read event (events of the other CPU only, k6.1-modev)
unused_cpus()
{
	local cpu f
	for cpu in 0 1; do
		f=$1/truth/global.cpu$cpu.stats
		if ! grep -qsv '^#' "$1/truth/global.trace" ||
		   { [ -r "$f" ] && grep -q '^entries: 0$' "$f" && grep -q '^overrun: 0$' "$f" &&
		     grep -q '^read events: 0$' "$f"; }; then
			echo "-u $cpu"
		fi
	done
}

first_dump= first_vmlinux= other_vmlinux= s390x=
for dir in "${cases[@]}"; do
	name=$(basename "$dir")
	vmlinux=$(case_var "$dir" VMLINUX)
	if [ -z "$vmlinux" ] || [ ! -r "$vmlinux" ]; then
		echo "not ok - $name: vmlinux '$vmlinux' of case.env not readable"
		fail=1
		continue
	fi
	[ -n "$first_vmlinux" ] && [ "$vmlinux" != "$first_vmlinux" ] &&
		other_vmlinux=$vmlinux
	for fmt in elf kdump flat d31; do
		f=$dir/vmcore.$fmt
		[ -e "$f" ] || continue
		filtered=
		[ "$fmt" = d31 ] && filtered=-F
		# makedumpfile 1.7.x does not support 7.x: its -d 31 drops the ring
		# buffer's own structures too (t-damaged and t-jobs read that dump)
		if [ "$fmt" = d31 ] && grep -qE '^SERIES=(sid|trixie-backports)$' "$dir/case.env"; then
			echo "skip - $name d31: makedumpfile does not support this kernel; its filter drops global_trace's buffers"
			continue
		fi
		# vmcore.kdump is makedumpfile -d 17 (zero and free pages) on
		# amd64; on arm64 it is QEMU's kdump-zlib dump rearranged by
		# makedumpfile -R, every page kept
		[ "$fmt" = kdump ] && ! grep -q '^ARCH=arm64' "$dir/case.env" && filtered=-F
		extended=
		[ "$fmt" != d31 ] && extended="-x $(ring_bounds "$dir") $(unused_cpus "$dir")"
		run "$name $fmt" 0 $filtered $extended -k "$vmlinux" "$f"
		grep -q '^ARCH=s390x' "$dir/case.env" && s390x+=" $name"
		if [ -z "$first_dump" ]; then
			first_dump=$f
			first_vmlinux=$vmlinux
		fi
	done
done

[ -z "$s390x" ] &&
	echo "skip - s390x address translation: no s390x case among those read" \
		"(k6.12-s390x in $cache/vmcores: scripts/make-vmcores, make check-full makes it)"

run "empty file is not a dump" 0 -e dump /dev/null
: >"$tmp/empty"
run "empty regular file is not a dump" 0 -e dump "$tmp/empty"
run "/etc/passwd is not a dump" 0 -e dump /etc/passwd
if [ -n "$first_dump" ]; then
	size=$(stat -c %s "$first_dump")
	head -c $((size / 2)) "$first_dump" >"$tmp/truncated"
	run "truncated copy of $(basename "$first_dump") is refused" 0 \
		-e dump -k "$first_vmlinux" "$tmp/truncated"
	run "no vmlinux: a missing one is debuginfo" 0 \
		-e debuginfo -k "$tmp/no-such-vmlinux" "$first_dump"
	run "/etc/passwd as vmlinux is debuginfo" 0 \
		-e debuginfo -k /etc/passwd "$first_dump"
	if [ -n "$other_vmlinux" ]; then
		run "vmlinux of another kernel is a mismatch" 0 \
			-e mismatch -k "$other_vmlinux" "$first_dump"
	else
		echo "skip - vmlinux mismatch: only one kernel in the fixtures"
	fi
fi
exit $fail
