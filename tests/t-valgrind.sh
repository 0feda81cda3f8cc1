#!/bin/bash
# ktrace-extract under valgrind's memcheck on a kdump-compressed dump and
# an ELF one of a 6.x and a 7.x kernel: no invalid read or write, in our
# code or in a library it calls. ASan cannot see into libkdumpfile (not
# built with it): its 0.5.1 kdump_free() of a compressed dump's context
# wrote to memory it had just freed, and glibc sometimes aborted on that
# at exit, after the output was written and before it was flushed
# (extract/dump.c, ctx_free()).
. "$(dirname "$0")/lib.sh"
[ -n "${KTRACE_SANITIZE:-}" ] && { echo "skip - valgrind runs the plain build (make check)"; exit 77; }
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
command -v valgrind >/dev/null || { echo "skip - valgrind not installed (scripts/install-deps installs it)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for c in k6.1 ksid; do
	dir=$VMCORES/$c
	[ -f "$dir/case.env" ] && recipe_wanted "$c" || continue
	unset VMLINUX FORMATS
	. "$dir/case.env"
	for f in kdump elf; do
		core=$dir/vmcore.$f
		[ -f "$core" ] || continue
		n=$((n + 1))
		valgrind -q --error-exitcode=99 "$KTRACE_BIN" -x "$VMLINUX" --panic-cpu "$core" \
			>/dev/null 2>"$tmp/vg"
		rc=$?
		if [ $rc = 99 ] || grep -q 'Invalid read\|Invalid write\|Invalid free' "$tmp/vg"; then
			nok "$c/$f: memcheck: $(grep -m 1 -A 3 'Invalid' "$tmp/vg" | tr '\n' ' ' | cut -c1-300)"
		elif [ $rc != 0 ]; then
			nok "$c/$f: --panic-cpu under valgrind: exit $rc: $(tail -n 1 "$tmp/vg")"
		else
			ok "$c/$f: --panic-cpu under valgrind's memcheck: no invalid access"
		fi
	done
done
[ $n -gt 0 ] || { echo "skip - no k6.1 or ksid fixture (scripts/make-vmcores)"; exit 77; }
finish
