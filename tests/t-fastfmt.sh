#!/bin/bash
# Print formats compiled into programs (lib/ftrace/fastfmt.c) print what
# libtraceevent prints: on every cached fixture case, the text and the JSON
# Lines with the programs and with KTRACE_NO_FASTFMT=1 (every record through
# libtraceevent) are byte-identical, with the same stderr and exit status.
# So that the comparison is not empty, each kernel series' plain case must
# have compiled some formats (ktrace-extract -v counts them) and printed
# records through them; with KTRACE_NO_FASTFMT=1 none are compiled. The
# big-endian kernels' plain cases (s390x) too: their records are read in
# the kernel's byte order.
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# same CASE WHAT ARGS...: with and without the programs alike
same() {
	local c=$1 what=$2 rc1 rc2 bad=; shift 2
	kx "$tmp/f.out" "$tmp/f.err" "$@"
	rc1=$?
	KTRACE_NO_FASTFMT=1 kx "$tmp/s.out" "$tmp/s.err" "$@"
	rc2=$?
	if [ $rc1 != $rc2 ]; then
		bad="; status $rc1, $rc2 through libtraceevent alone"
	elif ! cmp -s "$tmp/f.out" "$tmp/s.out"; then
		bad="; output differs: $(diff "$tmp/s.out" "$tmp/f.out" | sed -n '2p;4p' | cut -c1-160 | tr '\n' '|')"
	elif ! cmp -s "$tmp/f.err" "$tmp/s.err"; then
		bad="; stderr differs: $(diff "$tmp/s.err" "$tmp/f.err" | sed -n 2p | cut -c1-120)"
	fi
	if [ -n "$bad" ]; then
		nok "$c: $what$bad"
	else
		ok "$c: $what: identical through libtraceevent alone ($(wc -l <"$tmp/f.out") lines, status $rc1)"
	fi
}

for c in $(all_cases); do
	dir=$VMCORES/$c
	unset VMLINUX FORMATS
	. "$dir/case.env"
	[ -f "$VMLINUX" ] || { skip "$c: $VMLINUX missing"; continue; }
	core=
	for f in $FORMATS; do
		[ -f "$dir/vmcore.$f" ] && { core=$dir/vmcore.$f; break; }
	done
	[ -n "$core" ] || { skip "$c: no dump"; continue; }
	# the 1 GiB ring: its last events are enough (the function tracer's
	# records are not printed through print formats)
	last=
	[ "$c" = huge ] && last="-n 200000"
	same "$c" text $last -x "$VMLINUX" "$core"
	same "$c" json $last -x "$VMLINUX" -j "$core"
done

# the comparison above is not empty: formats were compiled and used
for c in k5.10 k6.1 k6.12 mixed k6.12-s390x ksid-s390x; do
	dir=$VMCORES/$c
	[ -f "$dir/case.env" ] || continue
	unset VMLINUX FORMATS
	. "$dir/case.env"
	core=$dir/vmcore.elf
	[ -f "$core" ] && [ -f "$VMLINUX" ] || continue
	line=$("$KTRACE_BIN" -v -x "$VMLINUX" "$core" 2>&1 >/dev/null | grep 'print formats:')
	fast=$(echo "$line" | sed -n 's/.*print formats: \([0-9]*\) of.*/\1/p')
	if [ "${fast:-0}" -gt 0 ]; then
		ok "$c: $(echo "$line" | sed 's/^ktrace-extract: //')"
	else
		nok "$c: no print format compiled (-v said: ${line:-nothing})"
	fi
	line=$(KTRACE_NO_FASTFMT=1 "$KTRACE_BIN" -v -x "$VMLINUX" "$core" 2>&1 >/dev/null |
	       grep 'print formats:')
	case "$line" in
	*"formats: 0 of"*) ok "$c: KTRACE_NO_FASTFMT=1: none compiled" ;;
	*) nok "$c: KTRACE_NO_FASTFMT=1 still compiled formats: ${line:-nothing said}" ;;
	esac
done
finish
