#!/bin/bash
# t-blktrace.sh - blktrace's unread relay sub-buffers from real dumps (cases
# with RING_TRUTH=blktrace: k5.10-, k6.1-, k6.12-blktrace). In the guest,
# blktrace traced /dev/vda while a workload wrote 4 KiB at sector BASE + 8
# * SEQ; the daemon was stopped half-way, its files saved (truth/saved/).
# Judged by the real blkparse: the daemon's files (cut after their last
# whole record: the daemon maps its output ahead, the rest is zeros; a
# record it read part of is whole in the recovered file) with
# what ktrace-extract --blktrace recovered appended, per CPU, show every
# write of the sequence queued in order, no gap, the last one last, and no
# per-CPU sequence skip; the recovered part alone starts, on each CPU, at
# the sequence number after the daemon's last (exactly what it had not
# read); together they hold each write once, the recovered part every
# write after the stop; --list shows the channel.
# Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
found=$(ring_cases blktrace)
[ -n "$found" ] || { echo "skip - no blktrace case in $VMCORES (scripts/make-vmcores k6.1-blktrace)"; exit 77; }
command -v blkparse >/dev/null || { echo "skip - blkparse missing (scripts/install-deps)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t-blktrace.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The records are in the byte order of the kernel that wrote them, as the
# daemon writes them (big-endian on s390x): BLK_AWK's functions read a
# field in the order of the magic the file starts with (be: 1 when its
# first byte is 0x65, the magic's high byte).
BLK_AWK='
	function u16(at) { return be ? 256 * b[at] + b[at + 1] : b[at] + 256 * b[at + 1] }
	function u32(at) { return be ? 65536 * u16(at) + u16(at + 2) : u16(at) + 65536 * u16(at + 2) }
	function u64(at) { return be ? 4294967296 * u32(at) + u32(at + 4) : u32(at) + 4294967296 * u32(at + 4) }
	function magic(at) { return at + 48 <= n && u32(at) == 1700885511 }
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	NR == 1 { be = b[0] == 101 }'

# records FILE: "END LAST": the bytes of the whole blktrace records FILE
# starts with, and where the last of them starts (struct blk_io_trace:
# magic 0x65617407 at 0, pdu_len u16 at 46, 48 bytes)
records() {
	od -An -v -tu1 "$1" | awk "$BLK_AWK"'
		END {
			pos = 0; last = 0
			while (magic(pos)) {
				len = 48 + u16(pos + 46)
				if (pos + len > n)
					break
				last = pos
				pos += len
			}
			print pos, last
		}'
}

# foreign FILE CPU: "CPU SEQ SECTOR ACTION" of each whole record of FILE
# (struct blk_io_trace: sequence u32 at 4, sector u64 at 16, action u32
# at 28, cpu u32 at 40) whose cpu is not CPU: 7.x's preemptible
# tracepoints let __blk_add_trace() take one CPU's sequence and write to
# the buffer of the CPU it migrated to; blkparse drops such a record
foreign() {
	od -An -v -tu1 "$1" | awk -v cpu="$2" "$BLK_AWK"'
		END {
			pos = 0
			while (magic(pos)) {
				len = 48 + u16(pos + 46)
				if (pos + len > n)
					break
				if (u32(pos + 40) != cpu)
					print u32(pos + 40), u32(pos + 4), u64(pos + 16), u32(pos + 28) % 65536
				pos += len
			}
		}'
}

# daemon_part SAVED RECOVERED: the bytes of SAVED the daemon wrote whole.
# Its file is mapped ahead and zero past what it read; when it stopped
# inside a record, that record is zeros from there on in SAVED and whole
# at the start of RECOVERED: SAVED ends before it (checked: the two agree
# except where SAVED is zero).
daemon_part() {
	local end last n
	read -r end last < <(records "$1")
	n=$((end - last))
	if [ "$end" -gt 0 ] && [ -s "$2" ] &&
		cmp -s <(head -c 8 "$2") <(tail -c +$((last + 1)) "$1" | head -c 8) &&
		! cmp -l <(tail -c +$((last + 1)) "$1" | head -c "$n") <(head -c "$n" "$2") 2>/dev/null |
			awk '$2 != 0 { bad = 1 } END { exit !bad }'; then
		echo "$last"
	else
		echo "$end"
	fi
}

# queued SEQ_BASE N < blkparse output: the sequence numbers of the
# workload's writes queued (Q), in the order printed
queued() {
	awk -v b="$1" -v n="$2" '$6 == "Q" && $8 >= b && $8 < b + 8 * n && ($8 - b) % 8 == 0 {
		print ($8 - b) / 8 }'
}

for c in $found; do
	dir=$VMCORES/$c
	unset VMLINUX FORMATS
	. "$dir/case.env"
	base=$(awk '/^base:/ { print $2 }' "$dir/truth/blktrace.stats")
	n1=$(awk '/^read_writes:/ { print $2 }' "$dir/truth/blktrace.stats")
	n2=$(awk '/^unread_writes:/ { print $2 }' "$dir/truth/blktrace.stats")
	total=$((n1 + n2))
	for fmt in $(formats_of "$c"); do
		core=$dir/vmcore.$fmt
		out=$tmp/$c.$fmt
		mkdir -p "$out/rec" "$out/all"
		"$KTRACE_BIN" -x "$VMLINUX" --list "$core" >"$out/list" 2>"$out/list.err"
		if grep -q "^relay vda/trace (struct rchan 0x[0-9a-f]*): blktrace vda (dev [0-9]*:[0-9]*, running), per-CPU, 32 x 8192 bytes, $CPUS buffers, unread [1-9][0-9]* bytes\$" "$out/list"; then
			ok "$c/$fmt: --list shows blktrace's relay channel of vda, per-CPU, 32 x 8 KiB, bytes unread"
		else
			nok "$c/$fmt: --list: $(grep relay "$out/list" || echo 'no relay line')"
		fi
		t0=$(date +%s%N)
		"$KTRACE_BIN" -x "$VMLINUX" --blktrace "$out/rec" "$core" >"$out/out" 2>"$out/err"
		rc=$?
		ms=$((($(date +%s%N) - t0) / 1000000))
		[ $rc = 0 ] && ok "$c/$fmt: --blktrace exit 0, nothing lost (${ms} ms)" ||
			nok "$c/$fmt: --blktrace exit $rc: $(tr '\n' ' ' <"$out/err" | cut -c1-200)"
		cpus=0 order=
		for f in "$dir"/truth/saved/vda.blktrace.*; do
			cpu=${f##*.}
			cpus=$((cpus + 1))
			# the daemon's byte order (its magic's first byte) is ktrace's
			[ "$(head -c 1 "$f" | od -An -tx1)" = "$(head -c 1 "$out/rec/vda.blktrace.$cpu" | od -An -tx1)" ] ||
				order="$order cpu$cpu: the daemon's file starts with$(head -c 4 "$f" | od -An -tx1), ktrace's with$(head -c 4 "$out/rec/vda.blktrace.$cpu" | od -An -tx1);"
			head -c "$(daemon_part "$f" "$out/rec/vda.blktrace.$cpu")" "$f" >"$out/all/vda.blktrace.$cpu"
			cp "$out/all/vda.blktrace.$cpu" "$out/saved.$cpu"
			cat "$out/rec/vda.blktrace.$cpu" >>"$out/all/vda.blktrace.$cpu" 2>/dev/null ||
				nok "$c/$fmt: no recovered vda.blktrace.$cpu"
		done
		[ -z "$order" ] && ok "$c/$fmt: the recovered records are in the byte order of the daemon's ($([ "$(head -c 1 "$dir/truth/saved/vda.blktrace.0" | od -An -tx1)" = " 65" ] && echo big || echo little)-endian)" ||
			nok "$c/$fmt: byte order:$order"
		(cd "$out/all" && blkparse -i vda) >"$out/all.txt" 2>"$out/all.err"
		(cd "$out/rec" && blkparse -i vda) >"$out/rec.txt" 2>"$out/rec.err"
		mkdir -p "$out/sv" && for f in "$out"/saved.*; do cp "$f" "$out/sv/vda.blktrace.${f##*.}"; done
		(cd "$out/sv" && blkparse -i vda) >"$out/sv.txt" 2>&1
		# records stamped with another CPU (see foreign()): their queued
		# writes count as there, in the part that holds them
		: >"$out/fsv.q"; : >"$out/frec.q"; : >"$out/f.seq"
		for f in "$out"/saved.*; do
			foreign "$f" "${f##*.}" | tee -a "$out/f.seq" |
				awk -v b="$base" -v n="$total" '$4 == 1 && $3 >= b && $3 < b + 8 * n && ($3 - b) % 8 == 0 { print ($3 - b) / 8 }' >>"$out/fsv.q"
		done
		nrec=0
		for f in "$out"/rec/vda.blktrace.*; do
			foreign "$f" "${f##*.}" >"$out/f.one"
			nrec=$((nrec + $(grep -c . "$out/f.one")))
			cat "$out/f.one" >>"$out/f.seq"
			awk -v b="$base" -v n="$total" '$4 == 1 && $3 >= b && $3 < b + 8 * n && ($3 - b) % 8 == 0 { print ($3 - b) / 8 }' "$out/f.one" >>"$out/frec.q"
		done
		nsaid=$(sed -n 's/.*: \([0-9]*\) records\{0,1\} stamped with another CPU.*/\1/p' "$out/err" | awk '{ s += $1 } END { print s + 0 }')
		[ "$nsaid" = "$nrec" ] &&
			ok "$c/$fmt: records stamped with another CPU in the recovered files: $nrec, as ktrace says ($(grep -c . "$out/f.seq") in saved and recovered)" ||
			nok "$c/$fmt: ktrace says $nsaid records are stamped with another CPU, the recovered files hold $nrec"
		queued "$base" "$total" <"$out/all.txt" | cat - "$out/fsv.q" "$out/frec.q" | sort -n >"$out/all.q"
		want=$(seq 0 $((total - 1)) | tr '\n' ' ')
		got=$(tr '\n' ' ' <"$out/all.q")
		if [ "$got" = "$want" ]; then
			ok "$c/$fmt: saved + recovered, per blkparse: all $total writes queued, in order, no gap"
		else
			nok "$c/$fmt: saved + recovered: writes $(head -c 120 <<<"$got")... want 0..$((total - 1))"
		fi
		last=$(cat "$dir/truth/blktrace.last")
		want_last="blktrace-last-write seq $((total - 1)) sector $((base + 8 * (total - 1)))"
		[ "$last" = "$want_last" ] && [ "$(tail -n1 "$out/all.q")" = $((total - 1)) ] &&
			ok "$c/$fmt: the last write issued before the panic is the last queued" ||
			nok "$c/$fmt: last queued $(tail -n1 "$out/all.q"), truth says '$last'"
		grep -q '^Skips: 0 forward' "$out/all.txt" && ! grep -qi 'bad magic\|skipped' "$out/all.err" &&
			ok "$c/$fmt: blkparse finds no sequence skip and no bad record in saved + recovered" ||
			nok "$c/$fmt: blkparse: $(grep '^Skips' "$out/all.txt") $(head -c 200 "$out/all.err")"
		# exactly what the daemon had not read: per CPU, the recovered
		# part starts at the sequence after the saved part's last
		bad=
		for ((cpu = 0; cpu < cpus; cpu++)); do
			s_last=$(awk -v c=$cpu '$2 == c && $3 ~ /^[0-9]+$/ { s = $3 } END { print s + 0 }' "$out/sv.txt")
			r_first=$(awk -v c=$cpu '$2 == c && $3 ~ /^[0-9]+$/ { print $3; exit }' "$out/rec.txt")
			# the sequence numbers of this CPU a migrated record took
			gap=$(awk -v c=$cpu -v a="$s_last" -v z="${r_first:-0}" '$1 == c && $2 > a && $2 < z' "$out/f.seq" | wc -l)
			[ -n "$r_first" ] && [ "$r_first" = $((s_last + 1 + gap)) ] ||
				bad="$bad cpu$cpu: saved ends at $s_last, recovered starts at ${r_first:-nothing};"
		done
		[ -z "$bad" ] && ok "$c/$fmt: on every CPU the recovered part starts where the daemon stopped reading" ||
			nok "$c/$fmt:$bad"
		# the daemon read each CPU's buffer up to its own point: the two
		# parts split the writes between them, once each; every write
		# after the stop is in the recovered part
		queued "$base" "$total" <"$out/sv.txt" | cat - "$out/fsv.q" >"$out/sv.q"
		queued "$base" "$total" <"$out/rec.txt" | cat - "$out/frec.q" >"$out/rec.q"
		both=$(sort -n "$out/sv.q" "$out/rec.q" | tr '\n' ' ')
		after=$(awk -v n="$n1" '$1 >= n' "$out/rec.q" | sort -n | tr '\n' ' ')
		if [ "$both" = "$want" ] && [ "$after" = "$(seq "$n1" $((total - 1)) | tr '\n' ' ')" ]; then
			ok "$c/$fmt: saved ($(wc -l <"$out/sv.q")) and recovered ($(wc -l <"$out/rec.q")) writes: each once; all $n2 after the stop recovered"
		else
			nok "$c/$fmt: saved + recovered writes '$(head -c 80 <<<"$both")...', recovered after the stop '$(head -c 60 <<<"$after")...'"
		fi
	done
done
finish
