#!/bin/bash
# ftrace's blk tracer (current_tracer=blk; cases k*-blktracer, k6.1-blkclassic):
# the kernel's own trace of each case really holds block actions (queue,
# issue, complete), and ktrace-extract prints that buffer with no warning
# of a record it could not print the kernel's way, exit 0. t-truth checks
# the text line by line against the same truth.
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
n=0
for c in $(cases); do
	case $c in *-blktracer | *-blkclassic) ;; *) continue ;; esac
	n=$((n + 1))
	dir=$VMCORES/$c
	unset VMLINUX
	. "$dir/case.env"
	t=$dir/truth/global.trace
	miss=
	for a in Q D C; do
		grep -aqE " $a +[A-Z]+ [0-9]+ \+ [0-9]+ " "$t" || miss="$miss $a"
	done
	[ -z "$miss" ] && ok "$c: the kernel's trace holds Q, D and C actions" ||
		nok "$c: the kernel's trace lacks the actions:$miss"
	err=$(mktemp)
	"$KTRACE_BIN" -x "$VMLINUX" "$dir/vmcore.elf" >/dev/null 2>"$err"
	rc=$?
	if [ $rc = 0 ] && ! grep -v '^ktrace-extract: ' "$err" | grep -qi 'not printed\|not rendered\|unknown'; then
		ok "$c: printed with exit 0 and no record left unprinted"
	else
		nok "$c: exit $rc: $(grep -v '^ktrace-extract: ' "$err" | grep -i 'not printed\|not rendered\|unknown' | head -n 2 | tr '\n' ' ')"
	fi
	rm -f "$err"
done
[ $n = 0 ] && { echo "skip - no blk tracer case in $VMCORES (scripts/make-vmcores k6.1-blktracer)"; exit 77; }
finish
