#!/bin/bash
# The Debian packages (debian/): they build (scripts/build-debs, outside the
# tree), lintian finds no error, the crash extension and ktrace-qemu pull in
# no kdump implementation; in a Debian 12 root (scripts/make-deb-root, a
# cached debootstrap, worked on as a copy) apt installs all six without the
# network, the files land where they should, the postinst makes the layout
# profile of the root's kernel, "crash> extend ktrace.so" with no path loads
# the packaged extension and runs it on a real dump; remove keeps the
# profiles and conffiles, purge leaves nothing of ktrace and kdump-tools as
# it was. The machine itself is not changed (everything runs in the root).
[ -n "${KTRACE_SANITIZE:-}" ] && { echo "skip - the packages are built with Debian's flags, not the sanitizers; make check runs this test"; exit 77; }
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)

for t in dpkg-buildpackage dh fakeroot lintian debootstrap; do
	command -v $t >/dev/null || { skip "$t is missing (scripts/install-deps)"; exit 77; }
done
[ "$(id -u)" = 0 ] || { skip "needs root (debootstrap, chroot)"; exit 77; }

# --- build, lintian ----------------------------------------------------------
t0=$(date +%s)
if ! out=$("$ROOT/scripts/build-debs" 2>"${TMPDIR:-/tmp}/t-deb.$$.err"); then
	nok "scripts/build-debs: $(tail -n 3 "${TMPDIR:-/tmp}/t-deb.$$.err" | tr '\n' ' ')"
	rm -f "${TMPDIR:-/tmp}/t-deb.$$.err"
	finish
fi
rm -f "${TMPDIR:-/tmp}/t-deb.$$.err"
PKGS="ktrace ktrace-crash ktrace-kdump-common ktrace-kdump-tools ktrace-dracut ktrace-qemu"
debs=()
for p in $PKGS; do
	f=$(ls "$out/${p}"_*.deb 2>/dev/null | head -n 1)
	[ -n "$f" ] || { nok "build: no ${p}_*.deb in $out"; continue; }
	debs+=("$f")
done
[ ${#debs[@]} = 6 ] && ok "dpkg-buildpackage -us -uc -b: 6 packages in $out ($(($(date +%s) - t0)) s)"

if "$ROOT/scripts/build-debs" --lintian >/dev/null 2>&1; then
	ok "lintian: no error ($(grep -c '^W: ' "$out/lintian.txt") warnings, $(grep -c '^I: ' "$out/lintian.txt") infos; $out/lintian.txt)"
else
	nok "lintian: $(grep '^E: ' "$out/lintian.txt" | head -n 3 | tr '\n' ' ')"
fi

# Depends: the crash extension and ktrace-qemu need no kdump; the binaries
# their libraries (shlibs)
for p in ktrace-crash ktrace-qemu ktrace; do
	d=$(dpkg-deb -f "$out/${p}"_*.deb Depends)
	case $d in
	*kdump-tools* | *dracut* | *ktrace-kdump*) nok "$p depends on a kdump implementation: $d" ;;
	*) ok "$p: no kdump in Depends" ;;
	esac
done
for p in ktrace ktrace-crash; do
	d=$(dpkg-deb -f "$out/${p}"_*.deb Depends)
	case $d in *libc6*libtraceevent1*) ok "$p: shlibs Depends ($d)" ;;
	*) nok "$p: Depends lacks its libraries: $d" ;; esac
done

# --- a Debian 12 root ----------------------------------------------------------
if ! base=$("$ROOT/scripts/make-deb-root" 2>"${TMPDIR:-/tmp}/t-deb.$$.err"); then
	nok "scripts/make-deb-root: $(tail -n 3 "${TMPDIR:-/tmp}/t-deb.$$.err" | tr '\n' ' ')"
	rm -f "${TMPDIR:-/tmp}/t-deb.$$.err"
	finish
fi
rm -f "${TMPDIR:-/tmp}/t-deb.$$.err"
R=$KTRACE_CACHE/deb-root/run.$$
[ -n "${KTRACE_KEEP:-}" ] || trap 'rm -rf "$R"' EXIT	# KTRACE_KEEP=1: kept, to look into
cp -a "$base" "$R"
in_root() { chroot "$R" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"; }

# a kernel for the postinst to make a profile of: a 6.1 fixture's vmlinux as
# its -dbg file (hard links: nothing copied, nothing written)
REL= VMLINUX= CORE=
if [ -f "$VMCORES/k6.1/case.env" ]; then
	. "$VMCORES/k6.1/case.env"
	REL=$RELEASE CORE=$VMCORES/k6.1/vmcore.kdump
	mkdir -p "$R/usr/lib/debug/boot" "$R/root"
	if ln "$VMLINUX" "$R/usr/lib/debug/boot/vmlinux-$REL" 2>/dev/null &&
		ln "$CORE" "$R/root/vmcore" 2>/dev/null; then
		: >"$R/boot/vmlinuz-$REL"
	else
		cp "$VMLINUX" "$R/usr/lib/debug/boot/vmlinux-$REL" && cp "$CORE" "$R/root/vmcore" &&
			: >"$R/boot/vmlinuz-$REL" || REL=
	fi
else
	skip "no 6.1 fixture in $VMCORES/k6.1 (scripts/make-vmcores): no profile on install, no crash run"
fi

# what is in the root before: every path, but apt's and dpkg's own records
snapshot() {
	(cd "$R" && find . -xdev \( -path ./var/lib/dpkg -o -path ./var/lib/apt -o \
		-path ./var/cache -o -path ./var/log -o -path ./tmp -o -path ./root \) -prune \
		-o -print) | sort
}
snapshot >"$R/tmp/before.list"
kdump_before=$(in_root dpkg-query -W -f='${Status} ${Version}' kdump-tools)

mkdir -p "$R/tmp/debs"
cp "${debs[@]}" "$R/tmp/debs/"
in_debs=()
for f in "${debs[@]}"; do in_debs+=("/tmp/debs/${f##*/}"); done
# (--no-download would refuse the local files too; the log says what was fetched)
if in_root apt-get -y --no-install-recommends install "${in_debs[@]}" \
	>"$R/tmp/apt-install.log" 2>&1; then
	ok "apt-get install: the 6 packages install in a bookworm root ($(grep -o 'Need to get [^ ]* [^ ]*' "$R/tmp/apt-install.log" | head -n 1) from the network)"
else
	nok "apt-get install failed: $(grep -E '^E:|error' "$R/tmp/apt-install.log" | head -n 3 | tr '\n' ' ')"
	finish
fi

# the files, where they belong
missing=
for f in /usr/bin/ktrace-extract /usr/share/man/man1/ktrace-extract.1.gz \
	/usr/lib/crash/extensions/ktrace.so \
	/usr/sbin/ktrace-profile-update /usr/share/man/man8/ktrace-profile-update.8.gz \
	/usr/lib/ktrace/ktrace-kdump-save /usr/lib/ktrace/extract-vmlinux \
	/etc/kernel/postinst.d/ktrace /etc/kernel/postrm.d/ktrace \
	/etc/default/ktrace /usr/lib/ktrace/kdump-tools-ktrace \
	/lib/systemd/system/kdump-tools-dump.service.d/ktrace.conf \
	/lib/systemd/system/kdump-tools.service.d/ktrace.conf \
	/usr/lib/dracut/modules.d/99ktrace/module-setup.sh /etc/kdump/pre.d/10-ktrace \
	/etc/ktrace.conf /usr/lib/ktrace/kdump-pre-ktrace \
	/usr/bin/ktrace-qemu /usr/share/man/man1/ktrace-qemu.1.gz \
	/usr/lib/ktrace/ktrace-common.sh /usr/lib/ktrace/qemu-panic-init.sh \
	/usr/lib/ktrace/fetch-kernel /usr/lib/ktrace/tools/vmcore-normalize.c; do
	[ -e "$R$f" ] || missing="$missing $f"
done
[ -z "$missing" ] && ok "installed files in place (extension in /usr/lib/crash/extensions, drop-ins, hooks, man pages)" ||
	nok "not installed:$missing"
conff=$(in_root dpkg-query -W -f='${Conffiles}\n' ktrace-kdump-tools ktrace-kdump-common ktrace-dracut)
for c in /etc/default/ktrace /etc/kernel/postinst.d/ktrace /etc/ktrace.conf; do
	case $conff in *"$c "*) ok "$c is a conffile" ;; *) nok "$c is not a conffile" ;; esac
done
for c in "ktrace-extract --help" "ktrace-qemu --help" "ktrace-profile-update --help"; do
	if in_root $c >/dev/null 2>&1; then ok "$c runs in the root"
	else nok "$c fails in the root: $(in_root $c 2>&1 | tail -n 1)"; fi
done
if [ -n "$REL" ]; then
	p=$R/var/lib/ktrace/profiles/$REL.profile
	if [ -s "$p" ] && grep -q '^build-id' "$p"; then
		ok "postinst made the layout profile $REL.profile ($(wc -c <"$p") bytes)"
	else
		nok "postinst made no profile $p: $(grep -i ktrace "$R/tmp/apt-install.log" | tail -n 2 | tr '\n' ' ')"
	fi
	# the kernel hooks, as the kernel's packages run them
	in_root /etc/kernel/postrm.d/ktrace "$REL"
	[ -e "$p" ] && nok "/etc/kernel/postrm.d/ktrace $REL left $p" ||
		ok "/etc/kernel/postrm.d/ktrace drops the profile"
	in_root /etc/kernel/postinst.d/ktrace "$REL" 2>"$R/tmp/postinst.d.err"
	[ -s "$p" ] && ok "/etc/kernel/postinst.d/ktrace makes it again" ||
		nok "/etc/kernel/postinst.d/ktrace $REL made no profile"

	# crash> extend ktrace.so: no path, crash finds the packaged file
	printf 'extend ktrace.so\nktrace list > /tmp/list.crash\nq\n' >"$R/tmp/crash.cmds"
	in_root crash -s "/usr/lib/debug/boot/vmlinux-$REL" /root/vmcore -i /tmp/crash.cmds \
		</dev/null >"$R/tmp/crash.out" 2>&1
	in_root ktrace-extract -x "/usr/lib/debug/boot/vmlinux-$REL" --list /root/vmcore \
		>"$R/tmp/list.want" 2>/dev/null
	if grep -q '^/usr/lib/crash/extensions/ktrace.so: shared object loaded' "$R/tmp/crash.out" &&
		[ -s "$R/tmp/list.want" ] && cmp -s "$R/tmp/list.crash" "$R/tmp/list.want"; then
		ok "crash $(in_root crash --version | sed -n 's/^crash //p' | head -n 1): 'extend ktrace.so' loads /usr/lib/crash/extensions/ktrace.so; its 'ktrace list' is ktrace-extract --list ($(wc -l <"$R/tmp/list.want") lines)"
	else
		nok "crash: 'extend ktrace.so' with the package installed: $(grep -m 3 -iE 'ktrace|error|cannot' "$R/tmp/crash.out" | tr '\n' ' ' | cut -c1-200); list $(wc -l <"$R/tmp/list.crash" 2>/dev/null) lines, ktrace-extract $(wc -l <"$R/tmp/list.want") lines"
	fi
fi

# --- remove, purge -------------------------------------------------------------
if in_root apt-get -y remove $PKGS >"$R/tmp/apt-remove.log" 2>&1; then
	left=
	for f in /etc/default/ktrace ${REL:+/var/lib/ktrace/profiles/$REL.profile}; do
		[ -e "$R$f" ] || left="$left $f"
	done
	[ -z "$left" ] && ok "remove keeps conffiles and profiles" || nok "remove deleted:$left"
	[ -e "$R/usr/bin/ktrace-extract" ] && nok "remove left /usr/bin/ktrace-extract" ||
		ok "remove: programs gone"
else
	nok "apt-get remove failed: $(grep -E '^E:|error' "$R/tmp/apt-remove.log" | head -n 3 | tr '\n' ' ')"
fi
# dpkg: apt no longer knows the removed packages that had no conffiles
if in_root dpkg --purge $PKGS >"$R/tmp/dpkg-purge.log" 2>&1; then
	ok "dpkg --purge"
else
	nok "dpkg --purge failed: $(grep -iE 'error|warning' "$R/tmp/dpkg-purge.log" | head -n 3 | tr '\n' ' ')"
fi
snapshot >"$R/tmp/after.list"
extra=$(comm -13 "$R/tmp/before.list" "$R/tmp/after.list" | grep -v "^\./usr/lib/debug\|^\./boot/vmlinuz-$REL")
gone=$(comm -23 "$R/tmp/before.list" "$R/tmp/after.list")
if [ -z "$extra$gone" ]; then
	ok "purge: the root's files are those before the install (nothing of ktrace left, nothing else lost)"
else
	nok "purge: left $(echo "$extra" | head -n 5 | tr '\n' ' ') lost $(echo "$gone" | head -n 5 | tr '\n' ' ')"
fi
left=$(cd "$R" && find . -xdev -path ./usr/lib/debug -prune -o -path ./root -prune -o -path ./tmp -prune -o \
	-iname '*ktrace*' -print | head -n 5)
[ -z "$left" ] && ok "purge: no path named ktrace in the root" || nok "purge left: $left"
in_root dpkg-query -W -f='${Status}\n' $PKGS 2>/dev/null | grep -qE 'ok installed|config-files' &&
	nok "dpkg still lists a ktrace package as installed"
kdump_after=$(in_root dpkg-query -W -f='${Status} ${Version}' kdump-tools)
if [ "$kdump_after" = "$kdump_before" ] && in_root dpkg --verify kdump-tools >/dev/null 2>&1 &&
	in_root kdump-config show >/dev/null 2>&1; then
	ok "kdump-tools after the purge: $kdump_after, dpkg --verify clean, kdump-config show runs"
else
	nok "kdump-tools after the purge: '$kdump_after' (before '$kdump_before'); verify: $(in_root dpkg --verify kdump-tools 2>&1 | head -n 2 | tr '\n' ' ')"
fi
finish
