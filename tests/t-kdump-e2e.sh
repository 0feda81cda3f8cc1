#!/bin/bash
# End to end on Debian 12 in QEMU (TCG, 2 vCPUs, 1 GiB, crashkernel=256M);
# KTRACE_E2E_SUITE=trixie: on Debian 13 (tests/t-kdump-e2e-trixie.sh);
# trixie-backports: Debian 13 with the backports' 7.x kernel (t-kdump-e2e-bpo.sh).
# A guest with the release's cloud kernel (6.1, 6.12), its kdump-tools and
# ktrace's packages built for it (kdump-hooks/tests/make-guest) boots, loads the capture kernel, traces a
# workload with markers, saves the kernel's own trace file, panics. The
# capture kernel runs kdump-tools-dump.service; afterwards the guest disk
# (read with debugfs) must hold, in /var/crash/<stamp>/, the dump, the dmesg
# file and ktrace's text and trace.dat, and the text must hold every line
# of the truth in order. A second run with a corrupted profile must still
# save the dump (the trace then comes from the dump's own BTF). Slow: ~4 min,
# and ~5 min more the first time, to build the guest.
[ -n "${KTRACE_SANITIZE:-}" ] && { echo "skip - the QEMU end-to-end test runs the plain build inside the guest (make check); not again under sanitizers"; exit 77; }
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
suite=${KTRACE_E2E_SUITE:-bookworm}
case $suite in
bookworm) G=$KTRACE_CACHE/kdump-guest ;;
trixie | trixie-backports) G=$KTRACE_CACHE/kdump-guest-$suite ;;
*) echo "KTRACE_E2E_SUITE: bookworm, trixie or trixie-backports, not '$suite'" >&2; exit 2 ;;
esac
# The guest is built on first use (~5 min, then cached in $G) so a fresh
# machine runs this test too; KTRACE_E2E=0 leaves it out on purpose.
if [ "${KTRACE_E2E:-}" = 0 ]; then
	echo "skip - KTRACE_E2E=0: the QEMU end-to-end kdump test is left out on request"
	exit 77
fi
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "skip - needs root (debootstrap, chroot)"; exit 77; }
for t in qemu-system-x86_64 debugfs mkfs.ext4; do
	command -v $t >/dev/null || { echo "skip - $t missing"; exit 77; }
done
# (re)built only when the packages (scripts/build-debs) or kdump-hooks/tests/ changed
mkdir -p "$G" || { nok "cannot create $G"; finish; }
"$top/kdump-hooks/tests/make-guest" --suite "$suite" 2>"$G/make-guest.err" ||
	{ nok "make-guest: $(tail -n 3 "$G/make-guest.err")"; finish; }
[ "$(grep -c ' installed$' "$G/packages" 2>/dev/null)" = 3 ] &&
	ok "guest: installed with apt: $(cut -d' ' -f1,2 "$G/packages" | tr '\n' ' ')" ||
	nok "guest: the ktrace packages are not installed: $(cat "$G/packages" 2>&1 | tr '\n' ' ')"
rel=$(cat "$G/release")
out=${KTRACE_E2E_OUT:-$(mktemp -d)}
mkdir -p "$out"
[ -z "${KTRACE_E2E_OUT:-}" ] && trap 'rm -rf "$out"' EXIT

# one QEMU at a time on this machine
exec 8>"$KTRACE_CACHE/qemu.lock"
flock 8
while pgrep -f '^qemu-system-x86_64' >/dev/null; do sleep 5; done

# boot NAME [PREPARE]: run the guest on a copy of the image until the
# capture kernel reboots (-no-reboot ends QEMU); console lines stamped with
# seconds. TCG now and then hangs a kernel in early boot: a console silent
# for 300 s ends that boot and it is done again on a fresh copy (twice at
# most); the hung boot's console is kept as NAME.console.hung<try>.
boot() {
	local name=$1 img=$out/$1.ext4 try t0 qpid stalled con=$out/$1.console
	for try in 1 2 3; do
		cp --sparse=always "$G/base.ext4" "$img"
		[ -n "${2:-}" ] && "$2" "$img"
		t0=$EPOCHREALTIME
		: >"$con"
		(timeout 1200 qemu-system-x86_64 -accel tcg -cpu max,la57=off -smp 2 -m 1G \
			-machine q35 -nodefaults -display none -no-reboot -serial stdio \
			-kernel "$G/vmlinuz" -initrd "$G/initrd.img" \
			-append "root=/dev/vda rw console=ttyS0 crashkernel=256M ktrace_e2e=panic" \
			-drive "file=$img,if=virtio,format=raw" </dev/null 2>&1 |
			while IFS= read -r l; do
				printf '%7.1f %s\n' "$(echo "${EPOCHREALTIME/,/.} - ${t0/,/.}" | bc)" "${l%$'\r'}"
			done >"$con") &
		qpid=$!
		stalled=
		while kill -0 $qpid 2>/dev/null; do
			sleep 5
			if [ $(($(date +%s) - $(stat -c %Y "$con"))) -ge 300 ]; then
				stalled=1
				pkill -f -- "file=$img,if=virtio" 2>/dev/null
			fi
		done
		wait $qpid 2>/dev/null
		[ -z "$stalled" ] && break
		mv "$con" "$con.hung$try"
		echo "# $name: boot $try: console silent for 300 s (last: $(tail -n 1 "$con.hung$try" | cut -c1-80)); again on a fresh copy"
	done
	# the capture kernel ends with reboot -f: replay the ext4 journal
	# first, debugfs does not
	e2fsck -fy "$img" >/dev/null 2>&1
	rm -rf "$out/$name.crash"
	mkdir -p "$out/$name.crash"
	# rdump makes $name.crash/crash/
	debugfs -R "rdump /var/crash $out/$name.crash" "$img" >/dev/null 2>&1
	# when kdump-config began a minute after the hook, the trace is in the
	# minute before the dump's: the next boot of the guest would move it
	# (kdump-tools.service runs kdump-tools-ktrace --tidy); so does this
	KDUMP_COREDIR=$out/$name.crash/crash "$top/kdump-hooks/debian/kdump-tools-ktrace" --tidy \
		2>"$out/$name.tidy"
	[ -s "$out/$name.tidy" ] && echo "# $name: $(cat "$out/$name.tidy")"
	debugfs -R "dump /var/lib/ktrace-e2e/truth.trace $out/$name.truth" "$img" >/dev/null 2>&1
	debugfs -R "dump /var/lib/ktrace-e2e/buffer_size_kb $out/$name.buffer_size_kb" "$img" >/dev/null 2>&1
}
# seconds at the first console line matching PATTERN (after line SKIP)
at() { awk -v p="$1" -v s="${2:-0}" 'NR > s && $0 ~ p { print $1; exit }' "$3"; }

# --- run 1: the real thing ---------------------------------------------------
boot run1
con=$out/run1.console
d=$(ls -d "$out"/run1.crash/crash/2* 2>/dev/null | head -n 1)
t_ready=$(at 'ready to kdump' 0 "$con")
t_panic=$(at 'sysrq: Trigger a crash' 0 "$con")
t_kt=$(at 'ktrace: saved' 0 "$con")
t_saved=$(at 'saved vmcore in' 0 "$con")
grep -q "wrote .*profiles/$rel.profile (--btf /sys/kernel/btf/vmlinux" "$G/first-boot.console" &&
	ok "first boot of the guest: ktrace-profile-update --running made the profile from /sys/kernel/btf/vmlinux and /proc/kallsyms" ||
	nok "first boot of the guest: no profile made: $(grep -a ktrace-profile "$G/first-boot.console" | head -n 2)"
ok "run 1: buffer_size_kb $(cat "$out/run1.buffer_size_kb" 2>/dev/null) per cpu, ready to kdump at ${t_ready:-?} s, panic at ${t_panic:-?} s, ktrace saved at ${t_kt:-?} s, dump saved at ${t_saved:-?} s (console: $con)"
if [ -z "$d" ]; then
	nok "run 1: no /var/crash/<stamp>/ on the guest disk: $(tail -n 5 "$con" | tr '\n' '|')"
	finish
fi
stamp=${d##*/}
files=$(ls "$d" | tr '\n' ' ')
if [ -f "$d/dump.$stamp" ] && [ -f "$d/dmesg.$stamp" ] && [ -s "$d/ktrace.$stamp/trace.txt" ] &&
	[ -s "$d/ktrace.$stamp/trace.dat" ]; then
	ok "run 1: /var/crash/$stamp/ holds $files"
else
	nok "run 1: /var/crash/$stamp/ holds only $files; $(grep 'ktrace' "$con" | tail -n 3 | tr '\n' '|')"
fi
if [ -s "$out/run1.truth" ]; then
	why=$(awk 'BEGIN { n = 0; i = 0 } NR==FNR { t[n++] = $0; next } i < n && $0 == t[i] { i++ }
		END { if (i < n) printf "truth line %d of %d not found in order: %s", i + 1, n, t[i] }' \
		"$out/run1.truth" "$d/ktrace.$stamp/trace.txt" 2>/dev/null)
	last=$(grep -v '^#' "$out/run1.truth" | tail -n 1)
	if [ -n "$why" ]; then
		nok "run 1: ktrace.$stamp/trace.txt: $why"
	elif ! grep -qF -- "${last##*: }" "$d/ktrace.$stamp/trace.txt"; then
		nok "run 1: the last event of the truth is not in ktrace's text"
	else
		ok "run 1: ktrace.$stamp/trace.txt holds all $(grep -vc '^#' "$out/run1.truth") lines of the kernel's own trace, in order (last: ${last##*: })"
	fi
else
	nok "run 1: no truth file on the guest disk"
fi
kt=$(grep -ao 'ktrace: saved.*' "$con" | head -n 1 | tr -d '\r')
[ -n "$kt" ] && ok "run 1: capture kernel: '$kt'; $(grep -h '^ticket: \|^ktrace-extract: \(.* opened in\|session \|done in\)' "$d"/ktrace.*.log 2>/dev/null | sed 's/^ticket: //; s/^ktrace-extract: //' | tr '\n' ';')"
if (cd "$d/ktrace.$stamp" && sha256sum -c --quiet manifest.sha256) >/dev/null 2>&1 &&
	grep -q "^release: $rel$" "$d/ktrace.$stamp/summary.txt" &&
	grep -q '^panic cpu: [0-9]' "$d/ktrace.$stamp/summary.txt"; then
	ok "run 1: the ticket's summary names $rel and $(grep -m1 '^panic cpu' "$d/ktrace.$stamp/summary.txt"); its manifest verifies"
else
	nok "run 1: the ticket ktrace.$stamp/ lacks a summary naming release and panic cpu, or its manifest fails"
fi

# --- run 2: a corrupted profile must not cost the dump -------------------
break_profile() {
	local img=$1 p=/var/lib/ktrace/profiles/$rel.profile
	debugfs -R "dump $p $out/good.profile" "$img" >/dev/null 2>&1
	sed 's/^\(member\tstruct list_head\tnext\t\)0/\18/' "$out/good.profile" >"$out/bad.profile"
	debugfs -w -R "rm $p" "$img" >/dev/null 2>&1
	debugfs -w -R "write $out/bad.profile $p" "$img" >/dev/null 2>&1
}
boot run2 break_profile
con=$out/run2.console
d=$(ls -d "$out"/run2.crash/crash/2* 2>/dev/null | head -n 1)
stamp=${d##*/}
# the profile is refused; with no vmlinux in the guest the fallback reads
# the dump's own BTF and kallsyms, so the trace is saved all the same
if [ -n "$d" ] && [ -f "$d/dump.$stamp" ] && [ -f "$d/dmesg.$stamp" ] &&
	grep -q 'checksum mismatch' "$d/ktrace.$stamp.log" 2>/dev/null &&
	grep -q "types from the dump's BTF" "$d/ktrace.$stamp.log" &&
	[ -s "$d/ktrace.$stamp/trace.txt" ]; then
	ok "run 2 (corrupted profile): dump and dmesg saved; ktrace.$stamp.log says: $(grep -m1 'checksum' "$d/ktrace.$stamp.log" | cut -c1-70); the trace saved from the dump's own BTF"

else
	nok "run 2 (corrupted profile): /var/crash: $(ls -R "$out/run2.crash" 2>&1 | tr '\n' ' '); $(grep ktrace "$con" | tail -n 3 | tr '\n' '|')"
fi

# --- purge: in a copy of the guest's tree (the packages as apt installed
# them), dpkg --purge leaves no file of ktrace and kdump-tools as it was --
P=$out/purge-root
rm -rf "$P"
cp -a "$G/rootfs" "$P"
in_p() { chroot "$P" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"; }
kd_before=$(in_p dpkg-query -W -f='${Status} ${Version}' kdump-tools)
if in_p dpkg --purge ktrace-kdump-tools ktrace-kdump-common ktrace >"$out/purge.log" 2>&1; then
	# (the test's own workload and unit are named ktrace-e2e: not ktrace's)
	left=$(cd "$P" && find . -xdev \( -path ./proc -o -path ./tmp \) -prune -o -iname '*ktrace*' -print |
		grep -v 'ktrace-e2e' | head -n 5 | tr '\n' ' ')
	kd_after=$(in_p dpkg-query -W -f='${Status} ${Version}' kdump-tools)
	if [ -n "$left" ]; then
		nok "purge: left $left"
	elif [ "$kd_after" != "$kd_before" ] || ! in_p dpkg --verify kdump-tools >/dev/null 2>&1 ||
		! in_p kdump-config show >/dev/null 2>&1; then
		nok "purge: kdump-tools '$kd_after' (before '$kd_before'): $(in_p dpkg --verify kdump-tools 2>&1 | head -n 2 | tr '\n' ' ')"
	else
		ok "purge of ktrace-kdump-tools ktrace-kdump-common ktrace: no path named ktrace left; kdump-tools $kd_after, dpkg --verify clean, kdump-config show runs"
	fi
else
	nok "dpkg --purge: $(grep -iE 'error|warning' "$out/purge.log" | head -n 3 | tr '\n' ' ')"
fi
rm -rf "$P"
finish
