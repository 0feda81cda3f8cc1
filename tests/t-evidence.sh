#!/bin/bash
# Nothing ktrace-extract writes may replace a file it reads (issue 27):
# -o, --ticket and --make-profile write beside their path and rename over
# it, so an output that is the vmcore, a hard or symbolic link of it, the
# vmlinux, or the ticket's directory holding a link of the dump under one
# of the names it writes, must be refused before anything is written:
# non-zero exit, a message naming the input, the dump's sha256 unchanged,
# no temporary file left. Run on a copy of one fixture's kdump-compressed
# dump (the fixture itself is never an output, even in a failing run).
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
c=$(kdump_case)
[ -n "$c" ] || { echo "skip - no fixture with a vmcore.kdump in $VMCORES (run scripts/make-vmcores)"; exit 77; }
unset VMLINUX
. "$VMCORES/$c/case.env"
[ -f "${VMLINUX:-}" ] || { echo "skip - $c: no vmlinux ${VMLINUX:-} (scripts/fetch-kernel)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dump=$tmp/vmcore
cp "$VMCORES/$c/vmcore.kdump" "$dump"
sum=$(sha256sum <"$dump")
ln "$dump" "$tmp/hardlink"
ln -s "$dump" "$tmp/symlink"
ln "$dump" "$tmp/vmcore.tar.gz"
mkdir "$tmp/ticketdir"
ln "$dump" "$tmp/ticketdir/trace.dat"
# the vmlinux by a symbolic link: a failing guard replaces the link, not the kernel
ln -s "$VMLINUX" "$tmp/vmlinux"

# refused WHAT ARGS...: non-zero exit, "refused" on stderr, the dump intact
refused() {
	local what=$1 rc
	shift
	"$KTRACE_BIN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = 0 ] || ! grep -q 'refused' "$tmp/err"; then
		nok "$c: $what: not refused (exit $rc: $(head -c 300 "$tmp/err"))"
	elif [ "$(sha256sum <"$dump")" != "$sum" ]; then
		nok "$c: $what: refused (exit $rc) but the dump's sha256 changed"
	elif ls "$tmp" "$tmp/ticketdir" | grep -q '\.tmp\.'; then
		nok "$c: $what: refused but a temporary file was left: $(ls "$tmp" | grep '\.tmp\.')"
	elif [ -s "$tmp/out" ]; then
		nok "$c: $what: refused but wrote to stdout"
	else
		ok "$c: $what: refused with exit $rc, the dump's sha256 unchanged ($(head -n 1 "$tmp/err" | cut -c1-120))"
	fi
	[ -L "$tmp/vmlinux" ] || { nok "$c: $what: the vmlinux link was replaced"; ln -sf "$VMLINUX" "$tmp/vmlinux"; }
}

refused "-o VMCORE VMCORE" -x "$VMLINUX" -o "$dump" "$dump"
refused "-o HARDLINK VMCORE" -x "$VMLINUX" -o "$tmp/hardlink" "$dump"
refused "-o SYMLINK VMCORE" -x "$VMLINUX" -o "$tmp/symlink" "$dump"
refused "-o VMCORE HARDLINK" -x "$VMLINUX" -o "$dump" "$tmp/hardlink"
refused "-o VMCORE -j" -x "$VMLINUX" -j -o "$dump" "$dump"
refused "-o VMLINUX" -x "$tmp/vmlinux" -o "$tmp/vmlinux" "$dump"
refused "--ticket VMCORE" -x "$VMLINUX" --ticket "$dump" "$dump"
refused "--ticket VMCORE.tar.gz (a hard link of the dump)" -x "$VMLINUX" --ticket "$tmp/vmcore.tar.gz" "$dump"
refused "--ticket DIR holding the dump as trace.dat" -x "$VMLINUX" --ticket "$tmp/ticketdir" "$dump"
refused "--make-profile VMCORE" --make-profile "$dump" -x "$VMLINUX" "$dump"
refused "--make-profile VMLINUX" --make-profile "$tmp/vmlinux" -x "$tmp/vmlinux"
refused "--dmesg -o VMCORE" -x "$VMLINUX" --dmesg -o "$tmp/hardlink" "$dump"

# a profile found in a --profile directory is known only once the dump is
# open: the second check, still before anything is written
mkdir "$tmp/profiles"
if "$KTRACE_BIN" --make-profile "$tmp/profiles/$RELEASE.profile" -x "$VMLINUX" "$dump" 2>"$tmp/err"; then
	psum=$(sha256sum <"$tmp/profiles/$RELEASE.profile")
	refused "--profile DIR -o the profile it finds" --profile "$tmp/profiles" \
		-o "$tmp/profiles/$RELEASE.profile" "$dump"
	[ "$(sha256sum <"$tmp/profiles/$RELEASE.profile")" = "$psum" ] &&
		ok "$c: the profile found in the directory is unchanged" ||
		nok "$c: the profile found in the directory was replaced"
else
	nok "$c: --make-profile: $(head -c 300 "$tmp/err")"
fi

# and an output that is no input is written as ever
"$KTRACE_BIN" -x "$VMLINUX" -o "$tmp/trace.txt" "$dump" 2>"$tmp/err"
rc=$?
if { [ "$rc" = 0 ] || [ "$rc" = 10 ]; } && [ -s "$tmp/trace.txt" ] &&
	[ "$(sha256sum <"$dump")" = "$sum" ]; then
	ok "$c: -o a new file: written (exit $rc, $(wc -l <"$tmp/trace.txt") lines), the dump unchanged"
else
	nok "$c: -o a new file: exit $rc, $(head -c 300 "$tmp/err")"
fi
finish
