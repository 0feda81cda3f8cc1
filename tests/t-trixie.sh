#!/bin/bash
# Debian 13: the project built and its suite run in a trixie root
# (scripts/make-trixie-root, cached): gcc 14, libkdumpfile 0.5.x, libtraceevent
# 1.8, libbpf 1.5, trace-cmd 3.3 and crash 8.0.6 as Debian 13 ships them.
# The tree is copied into the root, built there with -Werror (ktrace.so
# against trixie's crash defs.h), and the unit programs and the tests that
# drive those libraries and tools run on the base fixtures (k5.10, k6.1,
# k6.12, sid's and trixie-backports' 7.x, every dump format) and a blktrace case, read from the host's cache through a bind
# mount in a private mount namespace (nothing stays mounted). Each of their
# results is repeated here as "debian13: ..." and counted; the last line of
# the run inside is printed as its own "debian13: N passed, N failed" line.
# Under the sanitizers (the suite's second pass) it is not run again.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
[ -z "${KTRACE_SANITIZE:-}" ] ||
	{ echo "skip - under the sanitizers: the Debian 13 build and suite run once, in make check"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "skip - needs root (debootstrap, chroot)"; exit 77; }
# (t-crash is left to the host run, which drives crash 8.0.6 on 6.12 too:
# here the packaged extension is loaded in trixie's crash below; CI time)
TESTS=${KTRACE_TRIXIE_TESTS:-"units t-truth t-tracedat t-btf t-compress t-damaged t-blktrace"}
# today's kernels too (sid's 7.2, trixie-backports' 7.3, every format): the
# trace.dat of a 7.x dump read by trace-cmd 3.3 as by the host's 3.1
CASES=${KTRACE_TRIXIE_CASES:-"k5.10 k6.1 k6.12 ksid kbpo k6.1-blktrace"}
for c in $CASES; do
	[ -f "$VMCORES/$c/case.env" ] || { nok "no fixture $c in $VMCORES (scripts/make-vmcores)"; finish; }
done

t0=$SECONDS
if ! R=$("$top/scripts/make-trixie-root" 2>"${TMPDIR:-/tmp}/t-trixie.$$.err"); then
	nok "scripts/make-trixie-root: $(tail -n 3 "${TMPDIR:-/tmp}/t-trixie.$$.err" | tr '\n' ' ')"
	rm -f "${TMPDIR:-/tmp}/t-trixie.$$.err"
	finish
fi
rm -f "${TMPDIR:-/tmp}/t-trixie.$$.err"
echo "# trixie root ready in $((SECONDS - t0)) s: $R"
for p in libkdumpfile-dev libtraceevent-dev libbpf-dev crash trace-cmd gcc; do
	echo "# $p $(chroot "$R" dpkg-query -W -f='${Version}' "$p" 2>/dev/null)"
done

# the tree, as tracked files or (no git) without build outputs
src=/build/ktrace.$$
mkdir -p "$R$src"
[ -n "${KTRACE_KEEP:-}" ] || trap 'rm -rf "${R:?}$src"' EXIT	# KTRACE_KEEP=1: kept, to look into
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$top" && git ls-files -z | tar --null -T - -cf -) | tar -C "$R$src" -xf -
else
	tar -C "$top" --exclude='./build*' --exclude=./.git -cf - . | tar -C "$R$src" -xf -
fi

log=$R$src/trixie.log
# a private mount namespace: /proc, /dev and the fixture cache bound into
# the root for this run only
unshare -m --propagation private bash -c '
	set -e
	R=$1 src=$2 cache=$3 tests=$4 cases=$5
	mount --bind /proc "$R/proc"
	mount --rbind /dev "$R/dev"
	mkdir -p "$R$cache"
	mount --bind "$cache" "$R$cache"
	chroot "$R" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 \
		KTRACE_NO_FIXTURES=1 KTRACE_TESTS="$tests" KTRACE_CASES="$cases" \
		bash -c "cd $src && make -j2 all units >build.log 2>&1 || { tail -n 30 build.log; echo BUILD FAILED; exit 3; }
			tests/run-tests.sh"
' _ "$R" "$src" "$KTRACE_CACHE" "$TESTS" "$CASES" >"$log" 2>&1
rc=$?
if grep -q '^BUILD FAILED' "$log"; then
	nok "debian13: the tree does not build in the trixie root: $(grep -E 'error|warning' "$log" | head -n 3 | tr '\n' ' ')"
	finish
fi
# every result inside, counted here
sed -n 's/^\[\([^]]*\)\] \(ok\|not ok\|skip\) - \(.*\)$/\2 - debian13: [\1] \3/p' "$log"
summary=$(tail -n 1 "$log")
echo "debian13: $summary"
if ! printf '%s\n' "$summary" | grep -Eq '^[0-9]+ passed, 0 failed'; then
	nok "debian13: the suite in the trixie root: $summary (exit $rc); $(grep '^failed:' "$log")"
elif [ "$rc" != 0 ]; then
	nok "debian13: the run in the trixie root exited $rc: $(tail -n 3 "$log" | tr '\n' ' ')"
else
	echo "# debian13: built and run in $((SECONDS - t0)) s; $(grep '^slowest:' "$log")"
fi

# The packages on Debian 13: built there (dpkg-buildpackage through
# scripts/build-debs, trixie's debhelper), lintian (trixie's) without an
# error, ktrace and ktrace-crash installed with dpkg: crash 8.0.6 loads the
# extension by name on the 6.12 dump, its 'ktrace list' is ktrace-extract's;
# purged, nothing of theirs is left and the root is as it was.
. "$VMCORES/k6.12/case.env"
t1=$SECONDS
unshare -m --propagation private bash -c '
	R=$1 src=$2 cache=$3 vmlinux=$4 core=$5
	mount --bind /proc "$R/proc"
	mount --rbind /dev "$R/dev"
	mkdir -p "$R$cache"
	mount --bind "$cache" "$R$cache"
	in_root() { chroot "$R" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
	debs=$src/debs
	in_root bash -c "cd $src && KTRACE_CACHE=$debs scripts/build-debs --lintian" >"$R$src/debs.log" 2>&1
	echo "build-debs=$?"
	out=$debs/deb/out
	ls "$R$out"/*.deb 2>/dev/null | sed "s|^$R||"
	in_root dpkg -i "$(ls "$R$out"/ktrace_*_amd64.deb | sed "s|^$R||")" \
		"$(ls "$R$out"/ktrace-crash_*_amd64.deb | sed "s|^$R||")" >"$R$src/dpkg.log" 2>&1
	echo "dpkg-i=$?"
	in_root dpkg -L ktrace ktrace-crash 2>/dev/null | sort >"$R$src/files.list"
	printf "extend ktrace.so\nktrace list > $src/list.crash\nq\n" >"$R$src/crash.cmds"
	in_root crash -s "$vmlinux" "$core" -i "$src/crash.cmds" </dev/null >"$R$src/crash.out" 2>&1
	in_root ktrace-extract -x "$vmlinux" --list "$core" >"$R$src/list.want" 2>/dev/null
	echo "crash-version=$(in_root crash --version | sed -n "s/^crash //p" | head -n 1)"
	in_root dpkg --purge ktrace-crash ktrace >"$R$src/purge.log" 2>&1
	echo "purge=$?"
' _ "$R" "$src" "$KTRACE_CACHE" "$VMLINUX" "$VMCORES/k6.12/vmcore.elf" >"$R$src/pkg.result" 2>&1
res() { sed -n "s/^$1=//p" "$R$src/pkg.result" | head -n 1; }
debs=$(grep -c '\.deb$' "$R$src/pkg.result")
lint=$R$src/debs/deb/out/lintian.txt
if [ "$(res build-debs)" != 0 ] || [ "$debs" -lt 6 ]; then
	nok "debian13: scripts/build-debs --lintian (status $(res build-debs), $debs packages): $(grep -E '^E: |error' "$R$src/debs.log" | head -n 3 | tr '\n' ' ')"
	finish
fi
ok "debian13: dpkg-buildpackage builds the $debs packages; lintian $(chroot "$R" dpkg-query -W -f='${Version}' lintian) reports no error ($(grep -c '^W: ' "$lint" 2>/dev/null) warnings)"
if [ "$(res dpkg-i)" != 0 ]; then
	nok "debian13: dpkg -i ktrace ktrace-crash: $(grep -iE 'error|depends' "$R$src/dpkg.log" | head -n 3 | tr '\n' ' ')"
elif grep -q '^/usr/lib/crash/extensions/ktrace.so: shared object loaded' "$R$src/crash.out" &&
	[ -s "$R$src/list.want" ] && cmp -s "$R$src/list.crash" "$R$src/list.want"; then
	ok "debian13: crash $(res crash-version): 'extend ktrace.so' loads the packaged extension; on the 6.12 dump its 'ktrace list' is ktrace-extract --list ($(wc -l <"$R$src/list.want") lines)"
else
	nok "debian13: crash $(res crash-version): 'extend ktrace.so' with ktrace-crash installed: $(grep -m 3 -iE 'ktrace|error|cannot' "$R$src/crash.out" | tr '\n' ' ' | cut -c1-200)"
fi
left=
while read -r f; do
	[ "$f" = /. ] && continue
	[ -f "$R$f" ] || [ -L "$R$f" ] && left="$left $f"
done <"$R$src/files.list"
if [ "$(res purge)" = 0 ] && [ -z "$left" ] && [ -s "$R$src/files.list" ]; then
	ok "debian13: dpkg --purge ktrace-crash ktrace leaves none of their $(wc -l <"$R$src/files.list") paths' files"
else
	nok "debian13: purge (status $(res purge)) left:$left"
fi
echo "# debian13: packages built, installed and purged in $((SECONDS - t1)) s"
finish
