#!/bin/bash
# t-relay-flight.sh - the flight-recorder channels of kmod/ktrace-flight
# read from real dumps (cases with RING_TRUTH=flight: k6.1-flight,
# k6.12-flight, k5.10-flight, big-endian k6.12-s390x-flight), against the module's own account saved in the guest
# before the panic (truth/flight.view: per buffer, the sequence number of
# the first record still there and of the next one, and the sub-buffers
# overwritten). ktrace-extract --relay writes each buffer's unread bytes;
# decoded here (struct flight_record: magic "flgt", u16 length, u16 cpu,
# u64 seq, text), every buffer holds exactly the records first..next-1,
# in order; the last mark is the last record of its CPU's buffer and of
# the global one; --list shows both channels and counts the overwritten
# sub-buffers as the module does. Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
found=$(ring_cases flight)
[ -n "$found" ] || { echo "skip - no flight case in $VMCORES (scripts/make-vmcores k6.1-flight)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t-relay-flight.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# decode FILE: "SEQ TEXT" per record, "bad at N" where no record starts.
# The module writes its records in the kernel's byte order (FLIGHT_MAGIC
# 0x74676c66: "flgt" little-endian, "tglf" from s390x), the order of
# every record of a file the one of its first
decode() {
	od -An -v -tu1 "$1" | awk '
		{ for (i = 1; i <= NF; i++) b[n++] = $i }
		END {
			pos = 0
			be = b[0] == 116
			while (pos < n) {
				if (pos + 16 > n ||
				    (!be && (b[pos] != 102 || b[pos + 1] != 108 ||
					     b[pos + 2] != 103 || b[pos + 3] != 116)) ||
				    (be && (b[pos] != 116 || b[pos + 1] != 103 ||
					    b[pos + 2] != 108 || b[pos + 3] != 102))) {
					print "bad at " pos; exit
				}
				len = be ? 256 * b[pos + 4] + b[pos + 5] : b[pos + 4] + 256 * b[pos + 5]
				seq = 0
				if (be)
					for (k = 2; k <= 7; k++) seq = seq * 256 + b[pos + 8 + k]
				else
					for (k = 5; k >= 0; k--) seq = seq * 256 + b[pos + 8 + k]
				t = ""
				for (k = pos + 16; k < pos + len && b[k]; k++) t = t sprintf("%c", b[k])
				print seq, t
				if (len < 16) { print "bad length at " pos; exit }
				pos += len
			}
		}'
}

for c in $found; do
	dir=$VMCORES/$c
	unset VMLINUX FORMATS MODULES
	. "$dir/case.env"
	view=$dir/truth/flight.view
	last=$(cat "$dir/truth/flight.last")
	for fmt in $(formats_of "$c"); do
		core=$dir/vmcore.$fmt
		out=$tmp/$c.$fmt
		"$KTRACE_BIN" -x "$VMLINUX" --list "$core" >"$out.list" 2>/dev/null
		for ch in percpu global; do
			want=$(awk -v ch=$ch '$1 == ch { s += $NF } END { print s + 0 }' "$view")
			line=$(grep "^relay ktrace-flight/$ch " "$out.list")
			kind=per-CPU
			[ $ch = global ] && kind=global
			if grep -q ": ktrace_flight_callbacks \[ktrace_flight\]\|: flight_callbacks \[ktrace_flight\]" <<<"$line" &&
				grep -q ", $kind, 8 x 1024 bytes, .*lost: sub-buffers overwritten unread $want\$" <<<"$line"; then
				ok "$c/$fmt: --list: $ch channel, $kind, 8 x 1 KiB, $want sub-buffers overwritten as the module counts"
			else
				nok "$c/$fmt: --list $ch: '$line', want $want overwritten"
			fi
		done
		"$KTRACE_BIN" -x "$VMLINUX" --relay "$out" "$core" >/dev/null 2>"$out.err"
		rc=$?
		# overwritten sub-buffers are a loss: 10
		[ $rc = 10 ] && grep -q "relay lost: sub-buffers overwritten unread" "$out.err" &&
			ok "$c/$fmt: --relay exit 10, the overwritten sub-buffers said" ||
			nok "$c/$fmt: --relay exit $rc: $(head -c 200 "$out.err")"
		while read -r ch _ cpu _ first _ next _ over; do
			cpu=${cpu%:}
			f=$out/ktrace-flight-$ch.$cpu
			[ "$cpu" = -1 ] && f=$out/ktrace-flight-$ch.global
			decode "$f" >"$f.txt"
			got=$(awk '{ print $1 }' "$f.txt" | tr '\n' ' ')
			want=$(seq "$first" $((next - 1)) | tr '\n' ' ')
			if [ "$got" = "$want" ]; then
				ok "$c/$fmt: $ch cpu $cpu: records $first..$((next - 1)) in order, as the module says ($over sub-buffers overwritten)"
			else
				nok "$c/$fmt: $ch cpu $cpu: got $(head -c 80 <<<"$got")... want $first..$((next - 1))"
			fi
		done <"$view"
		for f in "$out/ktrace-flight-percpu.1" "$out/ktrace-flight-global.global"; do
			got=$(tail -n1 "$f.txt" | cut -d' ' -f2-)
			[ "$got" = "$last" ] && ok "$c/$fmt: ${f##*/}: the last mark is the last record" ||
				nok "$c/$fmt: ${f##*/}: last record '$got', want '$last'"
		done
	done
done
finish
