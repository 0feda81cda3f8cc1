#!/bin/bash
# ktrace-extract built against Debian sid's libkdumpfile (0.5.6 when this
# was written: what the next Debian release builds our package with), not
# this machine's: its API changed in 0.5.5 (extract/kdump-compat.h). sid's
# packages are unpacked in the cache by scripts/fetch-libkdumpfile, with
# sid's loader and libc (0.5.6 needs glibc 2.38) to run the binary; it is
# built in $O-lkdf with LIBKDUMPFILE_PREFIX (-Werror: no warning on either
# API), and must then read every format of the fixtures as $KTRACE_BIN
# (this machine's libkdumpfile) does, byte for byte: stdout, stderr and exit
# status. What differs by design is said only with -v: 0.5.4 and later
# read a flattened file themselves (t-compress checks both readers).
# make check: the text of k6.12 and ksid (ELF, kdump-compressed, flattened,
# -d 31); make check-full and KTRACE_CASES: every kernel's base case and
# every other machine's, in text, JSON, --list, --dmesg, --from-dump,
# --timeline and trace.dat. KTRACE_LKDF_VERSION picks another version of
# sid's (default 0.5.6).
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
[ -n "${KTRACE_SANITIZE:-}" ] &&
	{ echo "skip - under the sanitizers: the build against sid's libkdumpfile is a plain one (make check and check-full run it)"; exit 77; }
root=$(cd "$(dirname "$0")/.." && pwd)
ver=${KTRACE_LKDF_VERSION:-0.5.6}
lkdf=$KTRACE_CACHE/libkdumpfile-$ver
if [ ! -e "$lkdf/complete" ]; then
	[ -n "${KTRACE_NO_FIXTURES:-}" ] &&
		{ echo "skip - no libkdumpfile $ver in $lkdf (scripts/fetch-libkdumpfile $ver; KTRACE_NO_FIXTURES is set)"; exit 77; }
	if ! why=$("$root/scripts/fetch-libkdumpfile" "$ver" 2>&1 >/dev/null); then
		echo "skip - sid's libkdumpfile $ver cannot be fetched: $(echo "$why" | tail -n 1)"
		exit 77
	fi
fi
case $O in /*) out=$O-lkdf ;; *) out=$root/$O-lkdf ;; esac
bin=$out/ktrace-extract
log=$(mktemp)
if ! make -s -C "$root" O="$out" WERROR=-Werror LIBKDUMPFILE_PREFIX="$lkdf/root/usr" \
	"$bin" >"$log" 2>&1; then
	nok "build against libkdumpfile $ver: $(grep -m 3 -E 'error|warning' "$log" | tr '\n' ' ' | cut -c1-300)"
	rm -f "$log"
	finish
fi
rm -f "$log"
ok "built against libkdumpfile $ver's headers with -Werror, linked with its library"
run056() { "$lkdf/bin/run" "$bin" "$@"; }
soname=$(readelf -d "$lkdf"/root/usr/lib/*/libkdumpfile.so 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ -n "$soname" ] && readelf -d "$bin" | grep -q "(NEEDED).*\[$soname\]" &&
	run056 --version | grep -q "(libkdumpfile $ver)"; then
	ok "the binary needs $soname and says it was built with libkdumpfile $ver"
else
	nok "the binary does not need sid's $soname or says another version: $(run056 --version 2>&1 | head -n 1)"
fi

if [ -n "${KTRACE_CASES:-}" ]; then
	pick="$(cases) $(dump_alone_cases)"
elif [ "${KTRACE_TIER:-core}" = full ]; then
	pick=$({ cases; dump_alone_cases; } |
		grep -E '^k([0-9]+\.[0-9]+(-rt)?|sid|bpo)(-(arm64|arm64-16k|ppc64el|ppc64el-64k|s390x))?$')
else
	pick="k6.12 ksid"
fi
modes=("")
[ -n "${KTRACE_CASES:-}" ] || [ "${KTRACE_TIER:-core}" = full ] &&
	modes=("" --json --list --dmesg --from-dump --timeline "-o @DAT@")
tmp=$(mktemp -d)
# run WHO OUT ARGS...: stdout (then the trace.dat written, if any), stderr
# and status of one binary in OUT.{out,err}
run() {
	local who=$1 o=$2 rc; shift 2
	rm -f "$tmp/t.dat"
	if [ "$who" = sys ]; then "$KTRACE_BIN" "$@"; else run056 "$@"; fi >"$o.out" 2>"$o.err"
	rc=$?
	echo "exit $rc" >>"$o.err"
	[ -f "$tmp/t.dat" ] && cat "$tmp/t.dat" >>"$o.out"
	return 0
}
n=0
for c in $pick; do
	dir=$VMCORES/$c
	[ -f "$dir/case.env" ] || { skip "$c: no fixture"; continue; }
	unset VMLINUX DUMP_ALONE FORMATS
	. "$dir/case.env"
	for fmt in $FORMATS ${EXTRA_DUMPS:-}; do
		core=$dir/vmcore.$fmt
		[ -f "$core" ] || continue
		bad=
		for m in "${modes[@]}"; do
			# shellcheck disable=SC2206
			args=(${m//@DAT@/$tmp/t.dat})
			case $m in
			--from-dump) ;;
			*) [ "${DUMP_ALONE:-}" = 1 ] && args+=(--from-dump) || args+=(-x "$VMLINUX") ;;
			esac
			run sys "$tmp/a" "${args[@]}" "$core"
			run 056 "$tmp/b" "${args[@]}" "$core"
			n=$((n + 1))
			if signalled "$(sed -n 's/^exit //p' "$tmp/b.err")"; then
				bad="${m:-text}: killed by a signal: $(grep -v '^exit' "$tmp/b.err" | tail -n 2 | tr '\n' ' ')"
			elif ! cmp -s "$tmp/a.out" "$tmp/b.out"; then
				bad="${m:-text}: stdout differs ($(wc -c <"$tmp/a.out") and $(wc -c <"$tmp/b.out") bytes): $(diff "$tmp/a.out" "$tmp/b.out" 2>/dev/null | sed -n 2p | cut -c1-200)"
			elif ! cmp -s "$tmp/a.err" "$tmp/b.err"; then
				bad="${m:-text}: stderr differs: $(diff "$tmp/a.err" "$tmp/b.err" | grep '^[<>]' | head -n 2 | tr '\n' ' ' | cut -c1-300)"
			fi
			[ -n "$bad" ] && break
		done
		if [ -n "$bad" ]; then
			nok "$c/$fmt: libkdumpfile $ver and the system's differ: $bad"
		else
			ok "$c/$fmt: libkdumpfile $ver reads it as the system's does (${#modes[@]} mode(s): stdout, stderr, $(sed -n 's/^exit //p' "$tmp/a.err" | tail -n 1 | sed 's/^/exit /'))"
		fi
	done
done
rm -rf "$tmp"
[ "$n" -gt 0 ] || skip "no fixture read (scripts/make-vmcores k6.12 ksid)"
finish
