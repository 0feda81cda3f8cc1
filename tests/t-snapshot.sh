#!/bin/bash
# Snapshot buffers (tr->max_buffer) on the k*-snap fixtures (tests/vmcores,
# snap-run.sh): each trace array that took a snapshot has a buffer
# "NAME.snapshot" whose text is the kernel's own snapshot file, whole and
# identical, while NAME stays its trace file; the fixture shows the swap
# (the snapshot holds what came before it, the live buffer what came
# after); JSON and trace.dat carry the snapshot's events (trace-cmd report
# reads them silently, as many as the kernel's lines); the crash
# extension prints the same text (one crash start per case).
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-build}
case $O in /*) ;; *) O=$ROOT/$O ;; esac
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

for c in $(cases); do
	case $c in *-snap) ;; *) continue ;; esac
	dir=$VMCORES/$c
	unset CASE VMLINUX INSTANCES FORMATS SERIES
	. "$dir/case.env"
	for b in $INSTANCES; do
		[ -s "$dir/truth/$b.snapshot" ] || nok "$c/$b: no truth/$b.snapshot (the guest failed?)"
	done
	"$KTRACE_BIN" -x "$VMLINUX" --list "$dir/vmcore.elf" >"$tmp/list" 2>/dev/null
	for b in $INSTANCES; do
		grep -q "^$b\.snapshot " "$tmp/list" && ok "$c/$b: --list shows $b.snapshot" ||
			nok "$c/$b: --list shows no $b.snapshot"
	done
	for fmt in $(formats_of "$c"); do
		for b in $INSTANCES; do
			for what in snapshot trace; do
				n=$((n + 1))
				i=$b
				[ $what = snapshot ] && i=$b.snapshot
				truth=$dir/truth/$b.$what
				kx "$tmp/out" "$tmp/err" -x "$VMLINUX" -i "$i" "$dir/vmcore.$fmt"
				rc=$?
				grep -v '^# ktrace: ' "$tmp/out" >"$tmp/text"
				if [ $rc != 0 ]; then
					nok "$c/$fmt/$i: exit $rc: $(tail -n 2 "$tmp/err" | tr '\n' ' ')"
				elif cmp -s "$tmp/text" "$truth"; then
					ok "$c/$fmt/$i: identical to the kernel's $what file ($(wc -l <"$truth") lines)"
				else
					nok "$c/$fmt/$i: differs from the kernel's $what file: $(diff "$truth" \
						"$tmp/text" | grep -m 2 '^[<>]' | tr '\n' ' ')"
				fi
			done
		done
	done
	for b in $INSTANCES; do
		snap=$dir/truth/$b.snapshot
		live=$dir/truth/$b.trace
		# the swap, in the kernel's files: before in the snapshot, after live
		if grep -q "marker $c before" "$snap" && ! grep -q "marker $c after" "$snap" &&
			[ "$(grep -a 'marker ' "$snap" | tail -n 1 | sed 's/.*marker //')" = "$c snapshot-last" ] &&
			grep -q "marker $c after" "$live" && ! grep -q "marker $c before" "$live"; then
			ok "$c/$b: the kernel's snapshot ends at its last marker, the live buffer has what came after"
		else
			nok "$c/$b: the kernel's snapshot and trace files do not show the swap"
		fi
		# JSON and trace.dat: the snapshot's events, one a line of the kernel's file
		lines=$(grep -v '^#' "$snap" | grep -vc '^$')
		kx "$tmp/json" /dev/null -x "$VMLINUX" -i "$b.snapshot" --json "$dir/vmcore.elf"
		nj=$(grep -c "^{\"instance\":\"$b.snapshot\"" "$tmp/json")
		[ "$nj" = "$lines" ] && ok "$c/$b.snapshot: JSON has the $nj events of the kernel's file" ||
			nok "$c/$b.snapshot: JSON has $nj events, the kernel's file $lines lines"
		if command -v trace-cmd >/dev/null; then
			"$KTRACE_BIN" -q -x "$VMLINUX" -i "$b.snapshot" -o "$tmp/s.dat" "$dir/vmcore.elf" 2>/dev/null
			if trace-cmd report -i "$tmp/s.dat" >"$tmp/rep" 2>"$tmp/rep.err" && [ ! -s "$tmp/rep.err" ]; then
				nr=$(grep -cE '^ +.+-[0-9]+ +\[[0-9]+\] ' "$tmp/rep")
				[ "$nr" = "$lines" ] &&
					ok "$c/$b.snapshot: trace-cmd report reads the $nr events silently" ||
					nok "$c/$b.snapshot: trace-cmd report shows $nr events, the kernel's file $lines"
			else
				nok "$c/$b.snapshot: trace-cmd report: $(head -n 2 "$tmp/rep.err" | tr '\n' ' ')"
			fi
		fi
	done
	# the crash extension prints the same snapshot text
	if cr=$(crash_ext_for "$SERIES"); then
		set -- $cr
		{
			echo "extend $2"
			for b in $INSTANCES; do echo "ktrace show -i $b.snapshot > $tmp/$b.crash"; done
			echo q
		} >"$tmp/cmds"
		"$1" -s "${@:3}" "$VMLINUX" "$dir/vmcore.elf" -i "$tmp/cmds" </dev/null >"$tmp/crash.out" 2>&1
		for b in $INSTANCES; do
			kx "$tmp/want" /dev/null -x "$VMLINUX" -i "$b.snapshot" "$dir/vmcore.elf"
			[ -s "$tmp/$b.crash" ] && cmp -s "$tmp/$b.crash" "$tmp/want" &&
				ok "$c/$b.snapshot: crash's ktrace show prints the same ($(wc -l <"$tmp/want") lines)" ||
				nok "$c/$b.snapshot: crash's ktrace show differs or printed nothing"
		done
	else
		skip "$c: no crash for $SERIES (see tests/t-crash.sh)"
	fi
done
[ $n = 0 ] && { echo "skip - no snapshot fixture in $VMCORES (scripts/make-vmcores k6.1-snap ...)"; exit 77; }
finish
