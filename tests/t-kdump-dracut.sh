#!/bin/bash
# The kexec-tools/kdump-utils integration (dracut module 99ktrace and the
# pre hook) without a VM: build an initramfs with dracut (the system's, or
# Debian's dracut-core unpacked privately: installing it would replace
# parts of this machine's boot set-up), check what the module put in it,
# then run the pre hook inside the unpacked initramfs (chroot) on a fixture
# vmcore standing for /proc/vmcore: its text must hold the kernel's trace.
[ -n "${KTRACE_SANITIZE:-}" ] && { echo "skip - the initramfs hook runs ktrace-extract under an address-space limit, which ASan cannot live with; make check runs this test"; exit 77; }
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "skip - needs root (chroot into the initramfs)"; exit 77; }
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
mounts=()
cleanup() {
	local m
	for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT

# dracut: the system's, else a private unpack of Debian's dracut-core
if command -v dracut >/dev/null && [ -d /usr/lib/dracut/modules.d ]; then
	dracut=$(command -v dracut) base=/usr/lib/dracut
else
	priv=$KTRACE_CACHE/tools/dracut
	if [ ! -x "$priv/root/usr/bin/dracut" ]; then
		mkdir -p "$priv"
		(cd "$priv" && apt-get download dracut-core >/dev/null 2>&1 &&
			dpkg-deb -x dracut-core_*.deb root) ||
			{ echo "skip - no dracut, and dracut-core cannot be downloaded"; exit 77; }
	fi
	dracut=$priv/root/usr/bin/dracut base=$priv/root/usr/lib/dracut
fi
cp -a "$base" "$tmp/dracut"
D=$tmp/dest
DESTDIR=$D "$top/kdump-hooks/dracut/install" "$KTRACE_BIN" >"$tmp/install.log" 2>&1 ||
	{ nok "dracut/install: $(tail -n 2 "$tmp/install.log")"; finish; }
cp -a "$D/usr/lib/dracut/modules.d/99ktrace" "$tmp/dracut/modules.d/"
ok "dracut/install into a DESTDIR; dracut: $dracut ($(dpkg-query -W -f='${Version}' dracut-core 2>/dev/null || echo private))"

# one fixture per kernel release with an ELF vmcore, vmlinuz and System.map
c=
for x in $(cases); do
	unset RELEASE KERNEL SYSTEM_MAP INSTANCES FORMATS
	. "$VMCORES/$x/case.env"
	[ -f "$VMCORES/$x/vmcore.kdump" ] && [ -f "$KERNEL" ] && [ -f "$SYSTEM_MAP" ] && [ "$x" != big ] &&
		{ c=$x; break; }
done
[ -n "$c" ] || { echo "skip - no fixture with vmcore.kdump, vmlinuz and System.map"; exit 77; }
mkdir -p "$tmp/boot"
ln -s "$KERNEL" "$tmp/boot/vmlinuz-$RELEASE"
ln -s "$SYSTEM_MAP" "$tmp/boot/System.map-$RELEASE"
KTRACE_BOOT=$tmp/boot KTRACE_PROFILES=$D/var/lib/ktrace/profiles KTRACE_EXTRACT=$KTRACE_BIN \
	EXTRACT_VMLINUX=$D/usr/lib/ktrace/extract-vmlinux \
	"$D/usr/sbin/ktrace-profile-update" "$RELEASE" 2>"$tmp/pu.err" ||
	{ nok "ktrace-profile-update $RELEASE: $(cat "$tmp/pu.err")"; finish; }

# build: the module alone over the smallest base (no kernel modules, no udev
# on a build machine), and the same without it, to see what it adds
build() {	# OUT MODULES...
	local out=$1; shift
	env dracutbasedir="$tmp/dracut" IN_KDUMP=1 KTRACE_EXTRACT="$D/usr/bin/ktrace-extract" \
		KTRACE_PROFILES="$D/var/lib/ktrace/profiles" KTRACE_LIBDIR="$D/usr/lib/ktrace" \
		"$dracut" --conf /dev/null --confdir "$tmp" --no-kernel --no-hostonly \
		--no-compress -m "$*" --force "$out" "$RELEASE" >"$out.log" 2>&1
}
if build "$tmp/with.img" bash ktrace && build "$tmp/without.img" bash; then
	w=$(stat -c %s "$tmp/with.img") wo=$(stat -c %s "$tmp/without.img")
	wz=$(zstd -q -19 -c "$tmp/with.img" | wc -c) woz=$(zstd -q -19 -c "$tmp/without.img" | wc -c)
	ok "dracut -m 'bash ktrace' for $RELEASE: the module adds $(( (w - wo) / 1024 )) KiB ($(( (wz - woz) / 1024 )) KiB zstd -19) to the initramfs"
else
	nok "dracut: $(grep -i 'error\|fail' "$tmp/with.img.log" "$tmp/without.img.log" | head -n 3)"; finish
fi
grep -q "will not be installed\|cannot be found" "$tmp/with.img.log" &&
	nok "dracut left the module out: $(grep 'ktrace' "$tmp/with.img.log" | head -n 2)"

# contents
R=$tmp/initramfs
mkdir -p "$R"
(cd "$R" && cpio -id --quiet <"$tmp/with.img")
missing=
for f in usr/bin/ktrace-extract usr/lib/ktrace/ktrace-kdump-save usr/lib/ktrace/kdump-pre-ktrace \
	"var/lib/ktrace/profiles/$RELEASE.profile"; do
	[ -e "$R/$f" ] || missing="$missing $f"
done
for l in $(ldd "$KTRACE_BIN" | awk '$3 ~ /^\// { print $1 }'); do
	found=
	for d in usr/lib/x86_64-linux-gnu lib/x86_64-linux-gnu lib64 usr/lib64; do
		[ -e "$R/$d/$l" ] && found=1
	done
	[ -n "$found" ] || missing="$missing $l"
done
[ -z "$missing" ] && ok "initramfs holds ktrace-extract, its $(ldd "$KTRACE_BIN" | grep -c '=> /') libraries, the pre hook and the profile of $RELEASE" ||
	nok "initramfs lacks:$missing"

# the pre hook inside the initramfs, on the fixture vmcore as /proc/vmcore
mkdir -p "$R/proc" "$R/mnt/vmcore" "$R/sysroot" "$R/etc"
mount --bind /proc "$R/proc" && mounts+=("$R/proc")
mount --bind -o ro "$VMCORES/$c" "$R/mnt/vmcore" && mounts+=("$R/mnt/vmcore")
printf 'path /var/crash\ncore_collector makedumpfile -l --message-level 7 -d 31\n' >"$R/etc/kdump.conf"
t0=$(date +%s.%N)
env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin KTRACE_VMCORE=/mnt/vmcore/vmcore.kdump \
	KTRACE_DUMP_ROOT=/sysroot chroot "$R" /bin/sh /usr/lib/ktrace/kdump-pre-ktrace >"$tmp/pre.out" 2>&1
rc=$?
secs=$(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)")
for m in "${mounts[@]}"; do umount "$m"; done
mounts=()
dir=$(ls -d "$R"/sysroot/var/crash/ktrace-* 2>/dev/null | head -n 1)
if [ $rc != 0 ] || [ -z "$dir" ] || [ ! -s "$dir/ktrace/trace.txt" ] || [ ! -s "$dir/ktrace/trace.dat" ]; then
	nok "pre hook in the initramfs: status $rc: $(tail -n 3 "$tmp/pre.out" | tr '\n' ' ') $(cat "$dir/ktrace.log" 2>/dev/null | head -n 3)"
	finish
fi
bad=
for inst in $INSTANCES; do
	awk 'BEGIN { n = 0; i = 0 } NR==FNR { t[n++] = $0; next } i < n && $0 == t[i] { i++ }
	     END { exit i < n }' "$VMCORES/$c/truth/$inst.trace" "$dir/ktrace/trace.txt" || bad="$bad $inst"
done
[ -z "$bad" ] &&
	ok "$c: pre hook in the chroot of the initramfs (profile, no vmlinux): ${dir#$R/sysroot}/ktrace/trace.txt holds the kernel's trace of $INSTANCES, trace.dat $(stat -c %s "$dir/ktrace/trace.dat") B; $secs s" ||
	nok "$c: ktrace/trace.txt lacks the truth of:$bad"
finish
