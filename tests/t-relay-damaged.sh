#!/bin/bash
# t-relay-damaged.sh - damaged relay structures in real dumps
# (scripts/make-damaged-relay on the blktrace fixtures' ELF dumps): one
# CPU's struct rchan_buf with its offset past the sub-buffer, and the
# struct rchan with n_subbufs 0. Each damaged buffer is refused with a
# message naming the channel, the buffer's address and the value; the
# loss is counted (--list, --blktrace: exit 10); the intact CPU's file is
# byte for byte the one of the undamaged dump; nothing crashes.
# Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
found=$(ring_cases blktrace)
[ -n "$found" ] || { echo "skip - no blktrace case in $VMCORES (scripts/make-vmcores k6.1-blktrace)"; exit 77; }
command -v python3 >/dev/null || { echo "skip - python3 missing (scripts/make-damaged-relay)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t-relay-damaged.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
X=$KTRACE_CACHE/damaged-relay

for c in $found; do
	dir=$VMCORES/$c
	unset VMLINUX
	. "$dir/case.env"
	[ -f "$dir/vmcore.elf" ] || { skip "$c: no vmcore.elf"; continue; }
	k=("$KTRACE_BIN" -x "$VMLINUX")
	rchan=$("${k[@]}" --list "$dir/vmcore.elf" 2>/dev/null |
		sed -n 's/^relay vda\/trace (struct rchan \(0x[0-9a-f]*\)).*/\1/p')
	[ -n "$rchan" ] || { nok "$c: --list shows no relay channel of vda"; continue; }
	"$ROOT/scripts/make-damaged-relay" "$c" "$rchan" >/dev/null ||
		{ nok "$c: make-damaged-relay failed"; continue; }
	"${k[@]}" -q --blktrace "$tmp/$c.ok" "$dir/vmcore.elf" >/dev/null 2>&1
	# one CPU's offset past its sub-buffer
	addr=$(cat "$X/$c-offset.addr")
	"${k[@]}" --blktrace "$tmp/$c.offset" "$X/$c-offset.elf" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	line=$(grep "buffer of cpu [0-9]* at $addr: offset 9000 past the sub-buffer of 8192 bytes: refused" "$tmp/err")
	cpu=$(sed -n 's/.*buffer of cpu \([0-9]*\) at.*/\1/p' <<<"$line")
	[ $rc = 10 ] && [ -n "$line" ] && grep -q "relay lost: buffers refused as damaged 1$" "$tmp/err" &&
		ok "$c: offset past the sub-buffer: cpu $cpu's buffer refused with a message, counted, exit 10" ||
		nok "$c: offset damaged: exit $rc, $(head -c 300 "$tmp/err")"
	other=$((1 - cpu))
	[ -s "$tmp/$c.ok/vda.blktrace.$other" ] &&
		cmp -s "$tmp/$c.ok/vda.blktrace.$other" "$tmp/$c.offset/vda.blktrace.$other" &&
		[ ! -s "$tmp/$c.offset/vda.blktrace.$cpu" ] &&
		ok "$c: the intact cpu $other's file is the undamaged dump's, the refused one empty" ||
		nok "$c: cpu $other's file differs from the undamaged dump's, or cpu $cpu's is not empty"
	"${k[@]}" --list "$X/$c-offset.elf" >"$tmp/list" 2>/dev/null
	rc=$?
	[ $rc = 10 ] && grep -q "lost: buffers refused as damaged 1$" "$tmp/list" &&
		ok "$c: --list counts the refused buffer, exit 10" ||
		nok "$c: --list exit $rc: $(grep relay "$tmp/list")"
	# n_subbufs 0 in the channel: every buffer refused
	"${k[@]}" --blktrace "$tmp/$c.nsub" "$X/$c-nsub.elf" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	n=$(grep -c "n_subbufs 0 out of range (1\.\.1048576): refused" "$tmp/err")
	[ $rc = 10 ] && [ "$n" = "$CPUS" ] && grep -q "buffers refused as damaged $CPUS$" "$tmp/err" &&
		ok "$c: n_subbufs 0: all $CPUS buffers refused with a message, exit 10" ||
		nok "$c: n_subbufs 0: exit $rc, $n messages: $(head -c 300 "$tmp/err")"
done
finish
