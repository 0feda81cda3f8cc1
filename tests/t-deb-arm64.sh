#!/bin/bash
# The arm64 packages and the crash extension on arm64 (issue 30). Cross-built
# with Debian's toolchain (scripts/build-debs --arch arm64: dpkg-buildpackage
# -a arm64 in a Debian root with crossbuild-essential-arm64 and the :arm64
# libraries, the unit programs run there by qemu-user), lintian finds no
# error; in an arm64 Debian root of the same suite (scripts/make-deb-root
# --arch arm64, its programs run by qemu-user through binfmt_misc,
# scripts/fetch-qemu-user: Debian's crash reads the dumps of its own machine
# only) apt installs ktrace
# and ktrace-crash without the network, and Debian's arm64 crash (the
# suite's: trixie's 8.0.6) loads the packaged extension ("extend ktrace.so",
# no path) on k6.12-arm64-va48's ELF dump: "ktrace show" prints every line of
# the kernel's own trace (truth/*.trace), in order, ending with its last
# event, and byte for byte what this tree's ktrace-extract prints, as t-crash
# compares on x86_64; "ktrace list" what --list prints; the packaged
# ktrace-extract, run by qemu-user, prints the same trace.
# crash runs under trixie's qemu-user 10.0 (scripts/fetch-qemu-user --suite
# trixie, KTRACE_ARM64_QEMU_SUITE), named on the command line: under
# bookworm's 7.2 (the binfmt_misc handler) its gdb start spins without end,
# no system call, no memory grown, on every dump. On a kernel built for
# 52-bit addresses that runs with 48 (k6.12-arm64-va48: arm64.nolva) the
# kernel moves memstart_addr by PAGE_OFFSET(48) - PAGE_OFFSET(52), and crash
# (8.0.6, 9.0.2; upstream master's arm64.c the same) takes VMCOREINFO's PHYS_OFFSET as it
# is: every linear-map address is off ("seek error: kernel virtual address:
# ffff00000ff6bdc0 type: \"memory section root table\""), so crash is given
# the real one, "--machdep phys_offset=", worked out from that VMCOREINFO
# (VA_BITS, TCR_EL1_T1SZ). When crash itself does not get to its prompt on
# the dump (so the extension is never asked), that is said as a skip with
# crash's words: KTRACE_ARM64_CASE=k6.12-arm64 (52-bit addresses, LPA2:
# 8.0.2, 8.0.6 and 9.0.2 stop at "invalid kernel virtual address").
# The suite is the one of the fixture's kernel (6.12: trixie), or
# KTRACE_ARM64_SUITE. Minutes long (the roots once, then the crash session under
# qemu-user: 3 min on an idle machine, 8 under load): make check-full only. The machine's packages are not changed;
# the binfmt_misc handler stays registered until the machine reboots.
[ -n "${KTRACE_SANITIZE:-}" ] && { echo "skip - the packages are built with Debian's flags, not the sanitizers; make check-full runs this test"; exit 77; }
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CASE=${KTRACE_ARM64_CASE:-k6.12-arm64-va48}

[ "$(id -u)" = 0 ] || { skip "needs root (debootstrap, chroot, binfmt_misc)"; exit 77; }
command -v debootstrap >/dev/null || { skip "debootstrap is missing (scripts/install-deps)"; exit 77; }
grep -qw binfmt_misc /proc/filesystems || { skip "this kernel has no binfmt_misc: no arm64 program runs here"; exit 77; }
[ -f "$VMCORES/$CASE/case.env" ] || { skip "no $CASE fixture in $VMCORES (scripts/make-vmcores)"; exit 77; }
(
	unset VMLINUX
	. "$VMCORES/$CASE/case.env"
	[ -f "$VMCORES/$CASE/vmcore.elf" ] && [ -f "$VMLINUX" ]
) || { skip "$CASE: no vmcore.elf or no vmlinux (scripts/make-vmcores)"; exit 77; }
. "$VMCORES/$CASE/case.env"
. "$ROOT/scripts/ktrace-common.sh"
SUITE=${KTRACE_ARM64_SUITE:-$(ktrace_series_suite "$SERIES")}
err=${TMPDIR:-/tmp}/t-deb-arm64.$$.err
tmp=$(mktemp -d)
R=
cleanup() {
	rm -rf "$tmp" "$err"
	[ -n "$R" ] || return 0
	umount "$R/proc" 2>/dev/null
	[ -n "${KTRACE_KEEP:-}" ] || rm -rf --one-file-system "$R"	# KTRACE_KEEP=1: kept, to look into
}
trap cleanup EXIT

# --- cross build, lintian -------------------------------------------------------
t0=$(date +%s)
if ! out=$("$ROOT/scripts/build-debs" --arch arm64 --suite "$SUITE" --lintian 2>"$err"); then
	nok "scripts/build-debs --arch arm64 --suite $SUITE --lintian: $(tail -n 3 "$err" | tr '\n' ' ')"
	finish
fi
t_build=$(($(date +%s) - t0))
debs=() n=0
for p in ktrace ktrace-crash ktrace-kdump-common ktrace-kdump-tools ktrace-dracut ktrace-qemu; do
	f=$(ls "$out/${p}"_*.deb 2>/dev/null | head -n 1)
	[ -n "$f" ] || { nok "build: no ${p}_*.deb in $out"; continue; }
	n=$((n + 1))
	a=$(dpkg-deb -f "$f" Architecture)
	case $p in
	ktrace | ktrace-crash)
		[ "$a" = arm64 ] && debs+=("$f") || nok "$p: Architecture $a, not arm64" ;;
	*) [ "$a" = all ] || nok "$p: Architecture $a, not all" ;;
	esac
done
[ $n = 6 ] && ok "dpkg-buildpackage -a arm64 ($SUITE's cross toolchain; $(grep -c '^== build/tests/' "$out/build.log") unit programs run by qemu-user): 6 packages in $out (${t_build} s, $(sed -n 's/^build-debs: built in //p' "$out/build.log") of it the build)"
w=$(grep -c '^W: ' "$out/lintian.txt") i=$(grep -c '^I: ' "$out/lintian.txt")
ok "lintian ($SUITE's) on the arm64 .changes: no error ($w warnings, $i infos; $out/lintian.txt)"

# what the packages hold is arm64 code: the ELF header's machine
dpkg-deb -x "$out"/ktrace-crash_*_arm64.deb "$tmp/x"
dpkg-deb -x "$out"/ktrace_*_arm64.deb "$tmp/x"
for f in usr/lib/crash/extensions/ktrace.so usr/bin/ktrace-extract; do
	m=$(LC_ALL=C readelf -h "$tmp/x/$f" 2>/dev/null | sed -n 's/^ *Machine: *//p')
	[ "$m" = AArch64 ] && ok "/$f: an AArch64 ELF file" || nok "/$f: machine '$m', not AArch64"
done
for p in ktrace ktrace-crash; do
	d=$(dpkg-deb -f "$out/${p}"_*_arm64.deb Depends)
	case $d in *libc6*libtraceevent1*) ok "$p (arm64): shlibs Depends ($d)" ;;
	*) nok "$p (arm64): Depends lacks its libraries: $d" ;; esac
done
[ ${#debs[@]} = 2 ] || finish

# --- the arm64 root ----------------------------------------------------------------
t0=$(date +%s)
if ! base=$("$ROOT/scripts/make-deb-root" --arch arm64 --suite "$SUITE" 2>"$err"); then
	nok "scripts/make-deb-root --arch arm64 --suite $SUITE: $(tail -n 3 "$err" | tr '\n' ' ')"
	finish
fi
R=$(dirname "$base")/run.$$
cp -a "$base" "$R"
mount --bind /proc "$R/proc"
in_root() { chroot "$R" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"; }
m=$(in_root uname -m)
[ "$m" = aarch64 ] && ok "the arm64 root runs its own programs (uname -m: $m, qemu-user; root ready in $(($(date +%s) - t0)) s)" ||
	{ nok "the arm64 root: uname -m says '$m'"; finish; }

# the dump and its vmlinux in the root: hard links (nothing copied, nothing written)
mkdir -p "$R/dump"
for f in "$VMCORES/$CASE/vmcore.elf" "$VMLINUX"; do
	ln "$f" "$R/dump/${f##*/}" 2>/dev/null || cp --sparse=always "$f" "$R/dump/${f##*/}"
done

mkdir -p "$R/tmp/debs"
cp "${debs[@]}" "$R/tmp/debs/"
in_debs=()
for f in "${debs[@]}"; do in_debs+=("/tmp/debs/${f##*/}"); done
if in_root apt-get -y --no-install-recommends install "${in_debs[@]}" >"$tmp/apt.log" 2>&1; then
	ok "apt-get install: ktrace and ktrace-crash (arm64) install in a $SUITE arm64 root ($(grep -o 'Need to get [^ ]* [^ ]*' "$tmp/apt.log" | head -n 1) from the network)"
else
	nok "apt-get install failed: $(grep -E '^E:|error' "$tmp/apt.log" | head -n 3 | tr '\n' ' ')"
	finish
fi

# --- Debian's arm64 crash, the packaged extension ---------------------------------------
# a qemu-user that gets crash through its gdb start (not the handler's 7.2),
# copied into the root: a static program, run there by name
qs=${KTRACE_ARM64_QEMU_SUITE:-trixie}
if ! q=$("$ROOT/scripts/fetch-qemu-user" --suite "$qs" arm64 2>"$err"); then
	nok "scripts/fetch-qemu-user --suite $qs arm64: $(tail -n 2 "$err" | tr '\n' ' ')"
	finish
fi
cp "$q" "$R/usr/local/bin/qemu-aarch64"
qv=$("$q" --version | sed -n 's/.*version \([^ ]*\).*/\1/p' | head -n 1)
# the kernel's own memstart_addr when it runs with fewer address bits than
# it was built for (arch/arm64/mm/init.c: memstart_addr -=
# _PAGE_OFFSET(vabits_actual) - _PAGE_OFFSET(52)), undone for crash
vmci() { head -c 4194304 "$VMCORES/$CASE/vmcore.elf" | LC_ALL=C grep -a -o -m 1 "$1=[0-9a-fx]*" | head -n 1 | cut -d= -f2; }
machdep=() po=$(vmci 'NUMBER(PHYS_OFFSET)') vb=$(vmci 'NUMBER(VA_BITS)') t1=$(vmci 'NUMBER(TCR_EL1_T1SZ)')
if [ -n "$po" ] && [ -n "$vb" ] && [ -n "$t1" ] && [ $((64 - t1)) != "$vb" ]; then
	machdep=(--machdep "phys_offset=$(printf '0x%x' $((po + -(1 << (64 - t1)) - -(1 << vb))))")
	echo "# $CASE: VA_BITS=$vb, running with $((64 - t1)) (TCR_EL1_T1SZ=$t1), PHYS_OFFSET=$po: crash ${machdep[*]}"
fi
{
	echo "extend ktrace.so"
	echo "ktrace list > /tmp/list.crash"
	for inst in $INSTANCES; do echo "ktrace show -i $inst > /tmp/$inst.crash"; done
	echo "q"
} >"$R/tmp/crash.cmds"
# (the session, mostly gdb reading the vmlinux's DWARF, takes 3 min under
# qemu-user on an idle machine, 8 on a loaded one; a crash that never gets
# to its prompt is bounded)
t0=$(date +%s)
timeout -k 30 "${KTRACE_ARM64_CRASH_TIMEOUT:-1200}" chroot "$R" env -i HOME=/root \
	PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 \
	/usr/local/bin/qemu-aarch64 /usr/bin/crash -s "${machdep[@]}" "/dump/${VMLINUX##*/}" /dump/vmcore.elf -i /tmp/crash.cmds </dev/null \
	>"$tmp/crash.out" 2>&1
rc=$?
t_crash=$(($(date +%s) - t0))
cver=$(in_root crash --version 2>/dev/null | sed -n 's/^crash \([0-9].*\)/\1/p' | head -n 1)
if grep -q '^/usr/lib/crash/extensions/ktrace.so: shared object loaded' "$tmp/crash.out"; then
	ok "Debian's arm64 crash $cver (qemu-user $qv) loads /usr/lib/crash/extensions/ktrace.so with 'extend ktrace.so' on $CASE ($t_crash s session)"
elif grep -q '^crash: ' "$tmp/crash.out" || [ $rc = 124 ] || [ $rc = 137 ]; then
	# crash itself did not open the dump: the extension was never asked
	# (seen: bookworm's 8.0.2 and sid's 9.0.2 on k6.12-arm64, "invalid
	# kernel virtual address"; trixie's 8.0.6 refuses 16 KiB pages with
	# 52-bit addresses)
	why=$(grep -m 1 '^crash: ' "$tmp/crash.out" | cut -c1-200)
	[ -n "$why" ] || why="no prompt after $t_crash s (timeout, exit $rc)"
	skip "$CASE: Debian's arm64 crash $cver does not open this dump: $why; the extension not loaded"
	finish
else
	nok "crash $cver: 'extend ktrace.so': $(grep -m 3 -iE 'ktrace|error|cannot|crash:' "$tmp/crash.out" | tr '\n' ' ' | cut -c1-240)"
	finish
fi

# same WHAT GOT WANT: byte for byte, or the first difference
same() {
	local what=$1 got=$2 want=$3 n
	if [ ! -s "$want" ]; then
		nok "$what: nothing to compare with"
	elif [ ! -s "$got" ]; then
		nok "$what: crash printed nothing ($(grep -m1 -iE 'error|cannot|ktrace:' "$tmp/crash.out" | cut -c1-160))"
	elif cmp -s "$got" "$want"; then
		ok "$what: identical ($(wc -l <"$want") lines)"
	else
		n=$(cmp "$want" "$got" 2>&1 | sed -n 's/.* line \([0-9]*\).*/\1/p')
		nok "$what: line $n: want '$(sed -n "${n}p" "$want" | cut -c1-80)', crash '$(sed -n "${n}p" "$got" | cut -c1-80)'"
	fi
}
for inst in $INSTANCES; do
	got=$R/tmp/$inst.crash truth=$VMCORES/$CASE/truth/$inst.trace
	[ -s "$got" ] || { nok "$CASE/$inst: crash's ktrace show printed nothing"; continue; }
	# the kernel's own lines, in order (as t-truth), and the same last event
	miss=$(awk 'BEGIN { n = 0; i = 0 } NR==FNR { t[n++] = $0; next }
		    i < n && $0 == t[i] { i++ }
		    END { if (i < n) printf "truth line %d not found in order: %s", i + 1, t[i] }' \
		"$truth" "$got")
	last_t=$(grep -av '^#' "$truth" | tail -n 1)
	last_o=$(grep -av '^#' "$got" | tail -n 1)
	if [ -z "$miss" ] && [ "$last_t" = "$last_o" ]; then
		ok "$CASE/$inst: arm64 crash's 'ktrace show' has every line of the kernel's trace, in order ($(wc -l <"$truth") lines), the same last event"
	else
		[ -n "$miss" ] || miss="last event '$last_o', the kernel's '$last_t'"
		nok "$CASE/$inst: $miss"
	fi
	if [ -x "$KTRACE_BIN" ]; then
		"$KTRACE_BIN" -x "$VMLINUX" -i "$inst" "$VMCORES/$CASE/vmcore.elf" >"$tmp/$inst.want" 2>/dev/null
		same "$CASE/$inst: arm64 crash's 'ktrace show' against x86_64 ktrace-extract" "$got" "$tmp/$inst.want"
	fi
done
if [ -x "$KTRACE_BIN" ]; then
	"$KTRACE_BIN" -x "$VMLINUX" --list "$VMCORES/$CASE/vmcore.elf" >"$tmp/list.want" 2>/dev/null
	same "$CASE: arm64 crash's 'ktrace list' against x86_64 ktrace-extract --list" "$R/tmp/list.crash" "$tmp/list.want"
	# the packaged ktrace-extract, an arm64 program under qemu-user
	t0=$(date +%s)
	in_root ktrace-extract -x "/dump/${VMLINUX##*/}" -i global /dump/vmcore.elf \
		>"$tmp/global.arm64" 2>"$tmp/extract.err"
	rc=$?
	if [ $rc = 0 ]; then
		same "$CASE/global: the arm64 package's ktrace-extract ($(($(date +%s) - t0)) s under qemu-user) against x86_64's" \
			"$tmp/global.arm64" "$tmp/global.want"
	else
		nok "$CASE: arm64 ktrace-extract exit $rc: $(tail -n 2 "$tmp/extract.err" | tr '\n' ' ')"
	fi
else
	skip "$KTRACE_BIN not built: crash's output is compared with the truth only"
fi
finish
