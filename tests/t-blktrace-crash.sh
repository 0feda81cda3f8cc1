#!/bin/bash
# t-blktrace-crash.sh - blktrace's unread relay data in crash: "ktrace
# blktrace DIR" writes byte for byte the files "ktrace-extract --blktrace
# DIR" writes, blkparse reads them, and "ktrace list" prints what --list
# prints (its relay line included), on the blktrace fixtures. crash 8.0.2
# opens 6.1, trixie's crash 8.0.6 6.12 (scripts/fetch-crash; tests/lib.sh's crash_ext_for).
# Exit 0 pass, 1 fail, 77 skip.
[ -n "${KTRACE_SANITIZE:-}" ] && { echo "skip - crash cannot load an ASan-built ktrace.so"; exit 77; }
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-build}
case $O in /*) ;; *) O=$ROOT/$O ;; esac
CRASH_SYS=${CRASH:-$(command -v crash)}
[ -n "$CRASH_SYS" ] || { echo "skip - crash is not installed"; exit 77; }
[ -f /usr/include/crash/defs.h ] || { echo "skip - no /usr/include/crash/defs.h"; exit 77; }
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
found=$(ring_cases blktrace)
[ -n "$found" ] || { echo "skip - no blktrace case in $VMCORES (scripts/make-vmcores k6.1-blktrace)"; exit 77; }
make -s -C "$ROOT" O="$O" "$O/ktrace.so" >/dev/null 2>&1 || { nok "make $O/ktrace.so failed"; finish; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t-blktrace-crash.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
command -v blkparse >/dev/null || { echo "skip - blkparse missing (scripts/install-deps)"; exit 77; }

for c in $found; do
	dir=$VMCORES/$c
	unset VMLINUX FORMATS SERIES
	. "$dir/case.env"
	cr=$(crash_ext_for "$SERIES")
	case $? in
	1) skip "$c: no crash that opens $SERIES dumps (scripts/fetch-crash)"; continue ;;
	2) nok "$c: the extension does not build against the defs.h of the crash for $SERIES"; continue ;;
	esac
	read -r crash ext crash_opts <<<"$cr"
	core=$dir/vmcore.kdump
	[ -f "$core" ] || core=$dir/vmcore.elf
	rm -rf "$tmp"/*
	{
		echo "extend $ext"
		echo "ktrace list > $tmp/list.crash"
		echo "ktrace blktrace $tmp/crash > $tmp/blktrace.crash"
		echo "q"
	} >"$tmp/cmds"
	"$crash" -s $crash_opts "$VMLINUX" "$core" -i "$tmp/cmds" </dev/null >"$tmp/crash.out" 2>&1
	grep -q "ktrace.so: shared object loaded" "$tmp/crash.out" ||
		{ nok "$c: crash did not load the extension: $(head -n3 "$tmp/crash.out" | tr '\n' ' ')"; continue; }
	"$KTRACE_BIN" -x "$VMLINUX" --list "$core" >"$tmp/list.want" 2>/dev/null
	grep -q '^relay vda/trace (struct rchan 0x[0-9a-f]*): blktrace vda' "$tmp/list.want" ||
		nok "$c: --list has no relay line for vda"
	if cmp -s "$tmp/list.crash" "$tmp/list.want"; then
		ok "$c: ktrace list: identical to --list ($(wc -l <"$tmp/list.want") lines)"
	else
		nok "$c: ktrace list differs: $(diff "$tmp/list.want" "$tmp/list.crash" | sed -n 2p | cut -c1-120)"
	fi
	"$KTRACE_BIN" -x "$VMLINUX" --blktrace "$tmp/want" "$core" >/dev/null 2>&1
	n=0 bad=
	for f in "$tmp"/want/vda.blktrace.*; do
		n=$((n + 1))
		cmp -s "$f" "$tmp/crash/${f##*/}" || bad="$bad ${f##*/}"
	done
	[ "$n" -gt 0 ] && [ -z "$bad" ] && [ "$(ls "$tmp/crash" | wc -l)" = "$n" ] &&
		ok "$c: ktrace blktrace: the $n files of --blktrace, byte for byte" ||
		nok "$c: ktrace blktrace: $n files from --blktrace, differing:${bad:- (file count)}; $(head -c 200 "$tmp/blktrace.crash")"
	grep -q "vda.blktrace.0: [1-9][0-9]* records" "$tmp/blktrace.crash" &&
		ok "$c: ktrace blktrace says what it wrote" || nok "$c: ktrace blktrace printed: $(head -c 200 "$tmp/blktrace.crash")"
	(cd "$tmp/crash" && blkparse -i vda) >"$tmp/bp.txt" 2>"$tmp/bp.err"
	q=$(awk '$6 == "Q"' "$tmp/bp.txt" | wc -l)
	[ "$q" -gt 0 ] && ! grep -qi 'bad magic' "$tmp/bp.err" &&
		ok "$c: blkparse reads crash's files: $q writes queued" ||
		nok "$c: blkparse on crash's files: $q queued, $(head -c 200 "$tmp/bp.err")"
done
finish
