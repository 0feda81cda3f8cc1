#!/bin/bash
# t-fixtures.sh - check the generated vmcores with tools we did not write
#
# For each case made by scripts/make-vmcores (in $KTRACE_CACHE/vmcores, or
# only those in $KTRACE_CASES; the "big" one only when named there): case.env has the contract's keys and the truth
# files; crash opens vmcore.elf and vmcore.kdump with the case's vmlinux and
# its log shows the sysrq panic (trixie's crash 8.0.6 for 6.12: bookworm's
# 8.0.2 cannot open those), and so does vmcore.flat (crash reads the
# flattened format); makedumpfile --dump-dmesg reads vmcore.kdump (another
# machine's: that machine's makedumpfile under qemu-user), and
# makedumpfile -R rearranges vmcore.flat.
# Exit 0 pass, 1 fail, 77 skip.
[ -n "${KTRACE_SANITIZE:-}" ] && { echo "skip - the fixtures are checked with crash and makedumpfile by make check; none of our code runs here"; exit 77; }
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
KTRACE_CACHE=${KTRACE_CACHE:-$HOME/.cache/ktrace}
vmcores=$KTRACE_CACHE/vmcores
pass=0 fail=0 skip=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
notok() { echo "not ok - $*"; fail=$((fail + 1)); }
skipped() { echo "skip - $*"; skip=$((skip + 1)); }
work=$(mktemp -d "${TMPDIR:-/tmp}/t-fixtures.XXXXXX")
trap 'rm -rf "$work"' EXIT

cases=${KTRACE_CASES:-$(cd "$vmcores" 2>/dev/null && ls -d -- */ 2>/dev/null | tr -d /)}
found=
for c in $cases; do
	[ -e "$vmcores/$c/case.env" ] || continue
	# this tree's cases only (the cache is shared with other checkouts)
	[ -f "$top/tests/vmcores/$c.recipe" ] || continue
	# benchmark fixtures (EXPLICIT=1, like "big") only when named
	if [ -z "${KTRACE_CASES:-}" ] && grep -q '^EXPLICIT=1' "$top/tests/vmcores/$c.recipe" 2>/dev/null; then
		continue
	fi
	found="$found $c"
done
if [ -z "$found" ]; then
	echo "SKIP: no vmcores in $vmcores (make them with scripts/make-vmcores)"
	exit 77
fi
for t in crash makedumpfile; do
	command -v $t >/dev/null || { echo "SKIP: $t is not installed (scripts/install-deps)"; exit 77; }
done

# crash for a release: bookworm's for < 6.12 (it knows those layouts),
# trixie's for 6.12 and later 6.x, sid's for 7.x (with --no_modules: see
# tests/lib.sh's crash_ext_for), fetched on first use.
crash_for() {
	case $1 in
	5.* | 6.[0-9].* | 6.1[01].*) command -v crash ;;
	[7-9].*) "$top/scripts/fetch-crash" sid 2>"$work/fetch.log" || return 1 ;;
	*) "$top/scripts/fetch-crash" trixie 2>"$work/fetch.log" || return 1 ;;
	esac
}

# makedumpfile for a dump's machine: this host's reads x86_64 dumps only;
# another machine's is its own makedumpfile under qemu-user
# (scripts/fetch-makedumpfile), fetched on first use. Prints it, or the
# reason there is none (status 1).
mdf_for() {
	if [ "${1:-amd64}" = amd64 ]; then
		command -v makedumpfile
	elif ! "$top/scripts/fetch-makedumpfile" "$1" 2>"$work/fetch-mdf.log"; then
		echo "no makedumpfile of $1 to run under qemu-user: $(tail -n1 "$work/fetch-mdf.log")"
		return 1
	fi
}

printf 'log | tail -n 40\nsys\nq\n' >"$work/crash.cmds"
panic_re='sysrq: Trigger a crash|Kernel panic - not syncing|sysrq triggered crash'

for c in $found; do
	dir=$vmcores/$c
	echo "# $c"
	(
		CASE= RELEASE= VMLINUX= SYSTEM_MAP= CPUS= INSTANCES= WRAPPED= SUBBUF_KB= FORMATS= NOTRACE=
		RING_TRUTH= MODULES= DUMP_ALONE=
		. "$dir/case.env"
		miss=
		keys="CASE RELEASE VMLINUX SYSTEM_MAP CPUS INSTANCES WRAPPED SUBBUF_KB FORMATS"
		# a kernel Debian ships no -dbg package of: no vmlinux, no System.map
		[ "$DUMP_ALONE" = 1 ] && keys="CASE RELEASE CPUS INSTANCES WRAPPED SUBBUF_KB FORMATS"
		for k in $keys; do
			[ -n "$(eval echo "\$$k")" ] || miss="$miss $k"
		done
		# another recorder's case: its own rendering is the truth, not ftrace's
		if [ -n "$RING_TRUTH" ]; then
			INSTANCES=
			for f in trace stats last; do
				[ -s "$dir/truth/$RING_TRUTH.$f" ] || miss="$miss truth/$RING_TRUTH.$f"
			done
			# modules of ours, when the reproducer has some (blktrace's has none)
			[ -z "$MODULES" ] || ls "$MODULES"/*.ko >/dev/null 2>&1 ||
				miss="$miss MODULES($MODULES)"
		fi
		for b in $INSTANCES; do
			[ "${NOTRACE:-}" = 1 ] ||
				[ -n "$(eval echo "\${LAST_MARKER_$b:-}")" ] || miss="$miss LAST_MARKER_$b"
			[ -s "$dir/truth/$b.trace" ] || miss="$miss truth/$b.trace"
		done
		[ "$DUMP_ALONE" = 1 ] || [ -r "$VMLINUX" ] || miss="$miss VMLINUX($VMLINUX)"
		echo "$miss" >"$work/miss"
		[ -z "$miss" ]
	) && ok "$c: case.env has the contract's keys, truth files and vmlinux (or DUMP_ALONE=1)" ||
		notok "$c: case.env incomplete:$(cat "$work/miss")"
	RELEASE= VMLINUX= FORMATS= ARCH= DUMP_ALONE=
	. "$dir/case.env"

	crash_bin=$(crash_for "$RELEASE") || crash_bin=
	crash_opts=
	case $RELEASE in [7-9].*) crash_opts=--no_modules ;; esac
	# every format of each series' base case (k6.1, ...); the other cases'
	# dumps come from the same QEMU code, and t-crash opens each one's ELF
	# dump in crash (its 'sys' must show the panic): a second crash session
	# here would add ~10 s a case to CI for nothing. makedumpfile checks
	# their kdump and flattened files below.
	fmts="elf kdump flat"
	# (the cases t-crash leaves out, another recorder's or tracing never
	# on, are opened here)
	case $c in k[0-9]*.[0-9]*-*)
		[ -z "${KTRACE_CASES:-}" ] && fmts= &&
			grep -Eq '^(RING_TRUTH=|NOTRACE=1)' "$dir/case.env" && fmts=elf ;;
	esac
	# crash here is built for x86_64: another architecture's dump is
	# checked by what reads it (its truth, in t-truth), not by crash
	if [ -n "$fmts" ] && [ "${ARCH:-amd64}" != amd64 ]; then
		skipped "$c: crash (built for x86_64 here) opens no $ARCH dump"
		fmts=
	fi
	# crash needs the vmlinux's DWARF, which Debian ships none of for it
	if [ -n "$fmts" ] && [ "$DUMP_ALONE" = 1 ]; then
		skipped "$c: crash needs a vmlinux with DWARF, and $RELEASE has no -dbg package"
		fmts=
	fi
	for f in $fmts; do
		case " $FORMATS " in *" $f "*) ;; *) continue ;; esac
		if [ -z "$crash_bin" ]; then
			skipped "$c: crash vmcore.$f (no crash for $RELEASE: $(tail -n1 "$work/fetch.log"))"
			continue
		fi
		timeout 600 "$crash_bin" -s $crash_opts "$VMLINUX" "$dir/vmcore.$f" -i "$work/crash.cmds" \
			>"$work/crash.out" 2>&1 </dev/null
		if grep -Eq "$panic_re" "$work/crash.out"; then
			ok "$c: crash opens vmcore.$f and its log shows the sysrq panic"
		else
			notok "$c: crash on vmcore.$f (${crash_bin##*/cache/}): $(grep -v '^$' "$work/crash.out" | tail -n 3 | tr '\n' ' ')"
		fi
	done

	dmesg_check() { # FILE WHAT
		local mdf whose=
		[ "${ARCH:-amd64}" = amd64 ] || whose=" ($ARCH's)"
		rm -f "$work/dmesg"
		if ! mdf=$(mdf_for "${ARCH:-amd64}"); then
			skipped "$c: makedumpfile --dump-dmesg $2: $mdf"
		elif "$mdf" --dump-dmesg "$1" "$work/dmesg" >"$work/md.out" 2>&1 &&
			grep -Eq "$panic_re" "$work/dmesg"; then
			ok "$c: makedumpfile --dump-dmesg$whose reads $2 and finds the panic"
		elif [ "${ARCH:-amd64}" != amd64 ] && grep -q 'not supported' "$work/md.out"; then
			# sid's 1.7.8 on Debian's arm64 kernels: "PAGE SIZE 0x1000
			# and VA Bits 52 not supported"
			skipped "$c: makedumpfile --dump-dmesg$whose refuses this kernel: $(grep -m1 'not supported' "$work/md.out")"
		else
			notok "$c: makedumpfile --dump-dmesg$whose $2: $(tail -n 2 "$work/md.out" | tr '\n' ' ')"
		fi
	}
	case " $FORMATS " in *" kdump "*) dmesg_check "$dir/vmcore.kdump" vmcore.kdump ;; esac
	# QEMU's kdump-zlib is makedumpfile's flattened format: -R rearranges it.
	# makedumpfile 1.7.2 cannot then read it (its header gives phys_base 0
	# for a KASLR-relocated kernel), crash can: checked above.
	case " $FORMATS " in *" flat "*)
		if makedumpfile -R "$work/flat.kdump" <"$dir/vmcore.flat" >"$work/md.out" 2>&1 &&
			[ "$(head -c 8 "$work/flat.kdump")" = "KDUMP   " ]; then
			ok "$c: makedumpfile -R rearranges vmcore.flat into a kdump-compressed file"
		else
			notok "$c: makedumpfile -R cannot rearrange vmcore.flat: $(tail -n 2 "$work/md.out" | tr '\n' ' ')"
		fi
		rm -f "$work/flat.kdump"
		;;
	esac
done

echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ] || exit 1
[ $pass -gt 0 ] || exit 77
exit 0
