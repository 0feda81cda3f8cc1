#!/bin/bash
# t-lttng.sh - LTTng's kernel ring buffers from a real vmcore, read by the
# real babeltrace2. Two fixtures:
# - k6.1-lttng (scripts/make-lttng-vmcore, made here on demand: ~6 min the
#   first time for lttng-modules, ~40 s after): Debian 12 in QEMU on the
#   6.1 cloud kernel runs an LTTng kernel session in snapshot mode
#   (overwrite channels; sched, irq, openat/execve/exit_group), makes marks
#   (openat of /ktrace-lttng-mark-N), takes `lttng snapshot record` to a
#   second disk (the truth), makes as many marks again and a last one, and
#   panics with the session running;
# - the cases with RING_TRUTH=lttng (scripts/make-vmcores: k6.12-s390x-lttng,
#   a big-endian kernel; k6.12-ppc64el-64k-lttng, 64 KiB pages): the same
#   with lttng_logger marks
#   ("ktrace-lttng-mark-N" written to /proc/lttng-logger), the buffers
#   wrapped before the snapshot; ELF and kdump dumps.
# ktrace-extract --lttng writes a CTF trace; babeltrace2 must read it
# without a word on stderr and print every event of the snapshot, same time
# stamps and fields, in order; after them the later marks, in order, the
# last one the workload's last. Another format of the same dump gives the
# same files byte for byte. Every packet, the snapshot's and ours, has
# packet_size = its content rounded up to the kernel's page (VMCOREINFO's
# PAGESIZE), as client_buffer_end() writes it. ftrace's buffers of the same dump still hold
# the guest's own trace file.
# Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
command -v babeltrace2 >/dev/null || { echo "skip - babeltrace2 missing (scripts/install-deps)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t-lttng.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# the relative "(+delta)" column depends on the previous line: left out
strip() { sed 's/ (+[^)]*) / /' "$1"; }
# the marks of a babeltrace2 text: openat's path on amd64, lttng_logger's
# message on s390x (lttng-modules has no syscall table there)
marks_of() {
	grep -oE '(syscall_entry_openat|lttng_logger): .*(filename|msg) = "/?ktrace-lttng-mark-[0-9]+' |
		sed 's/.*mark-//'
}

# rd64 FILE OFFSET BE: the u64 at OFFSET of FILE, in the kernel's byte order
# (BE=1: big-endian), decimal
rd64() {
	local x
	x=$(od -A n -t x1 -j "$2" -N 8 "$1" | tr -d ' \n')
	[ ${#x} = 16 ] || return 1
	[ "$3" = 1 ] || x=$(echo "$x" | sed 's/\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)/\8\7\6\5\4\3\2\1/')
	printf '%u\n' "0x$x"
}
# packet_sizes DIR BE PAGE: how each stream of DIR closes its packets.
# lttng-ring-buffer-client.h's client_buffer_end() writes content_size
# (offset 48 of struct packet_header, bits) and packet_size (56, bits) =
# PAGE_ALIGN(content): every packet's packet_size must be that, PAGE the
# kernel's page size. Prints "STREAM:PACKETS:LAST-CONTENT:LAST-PACKET" a
# stream, or "bad STREAM@OFFSET content C packet P" and returns 1
packet_sizes() {
	local f o cs ps end
	for f in "$1"/chan*; do
		o=0 end=$(stat -c %s "$f")
		n=0
		while [ "$o" -lt "$end" ]; do
			cs=$(rd64 "$f" $((o + 48)) "$2") && ps=$(rd64 "$f" $((o + 56)) "$2") || {
				echo "bad $(basename "$f")@$o: cut short"; return 1; }
			if [ $((ps % 8)) != 0 ] || [ "$ps" -lt "$cs" ] ||
				[ $(((cs / 8 + $3 - 1) / $3 * $3)) != $((ps / 8)) ]; then
				echo "bad $(basename "$f")@$o content $((cs / 8)) packet $((ps / 8))"
				return 1
			fi
			o=$((o + ps / 8)) n=$((n + 1))
		done
		echo "$(basename "$f"):$n:$((cs / 8)):$((ps / 8))"
	done
}

# lttng_case CASE DIR VMLINUX MODS FORMATS LIST: every check on one fixture;
# LIST the channel's --list line
lttng_case() {
	local c=$1 D=$2 VMLINUX=$3 mods=$4 formats=$5 list_want=$6 t=$tmp/$1 rc secs why n after
	local at_snap last got want lastmark fmt f bad so snap
	mkdir -p "$t"
	if [ -s "$D/times" ]; then
		ok "$c: fixture: $(tr '\n' ';' <"$D/times")"
	else
		ok "$c: fixture: made by scripts/make-vmcores ($(cat "$D/truth/lttng.stats" 2>/dev/null | tr '\n' ' '))"
	fi
	# --- recovery -------------------------------------------------------
	t0=$EPOCHREALTIME
	/usr/bin/time -f '%M' -o "$t/rss" "$KTRACE_BIN" -x "$VMLINUX" --module-debuginfo "$mods" \
		--lttng "$t/ctf" "$D/vmcore.elf" 2>"$t/extract.err"
	rc=$?
	secs=$(echo "${EPOCHREALTIME/,/.} - ${t0/,/.}" | bc)
	if [ $rc = 0 ] && [ -s "$t/ctf/ktrace/kernel/metadata" ] && ls "$t"/ctf/ktrace/kernel/chan0_* >/dev/null 2>&1; then
		ok "$c: ktrace-extract --lttng: $(ls "$t/ctf/ktrace/kernel" | tr '\n' ' ')in $secs s, max RSS $(cat "$t/rss") KiB; $(grep 'packets$' "$t/extract.err" | tr '\n' ' ')"
	else
		nok "$c: ktrace-extract --lttng: exit $rc: $(tail -n 3 "$t/extract.err")"
		return
	fi

	# --- babeltrace2 on ours and on the snapshot ----------------------------
	babeltrace2 "$t/ctf" >"$t/ours.txt" 2>"$t/ours.err"
	rc=$?
	if [ $rc = 0 ] && [ ! -s "$t/ours.err" ] && [ -s "$t/ours.txt" ]; then
		ok "$c: babeltrace2 reads the recovered trace without a warning: $(wc -l <"$t/ours.txt") events"
	else
		nok "$c: babeltrace2 on the recovered trace: exit $rc: $(head -c 400 "$t/ours.err")"
	fi
	# the guest's snapshot as babeltrace2 2.0 reads it: sid's lttng-consumerd
	# (2.16, k6.12-s390x-lttng) writes the kernel's metadata cache as it is,
	# plain text without the "/* CTF 1.8" signature babeltrace2 2.0 wants
	# (Debian 12's 2.13 wrote it packetized): a copy gets the signature
	snap=$D/truth/snapshot
	for f in $(find "$snap" -name metadata); do
		case $(head -c 6 "$f" | od -A n -t x1 | tr -d ' \n') in
		2f2a20435446 | 75d11d57* | 571dd175*) continue ;;	# "/* CTF", the packet magic
		esac
		[ "$snap" = "$t/snapshot" ] || { cp -a "$D/truth/snapshot" "$t/snapshot"; snap=$t/snapshot; }
		f=$t/snapshot/${f#"$D"/truth/snapshot/}
		{ printf '/* CTF 1.8 */\n\n'; cat "$f"; } >"$f.new" && mv "$f.new" "$f"
		ok "$c: the snapshot's $(basename "$(dirname "$(dirname "$f")")")/kernel/metadata has no CTF signature: a copy with it"
	done
	babeltrace2 "$snap" >"$t/truth.txt" 2>"$t/truth.err" ||
		{ nok "$c: babeltrace2 cannot read the guest's own snapshot: $(head -c 300 "$t/truth.err")"; return; }
	strip "$t/truth.txt" >"$t/truth.s"
	strip "$t/ours.txt" >"$t/ours.s"
	n=$(wc -l <"$t/truth.s")
	why=$(awk 'BEGIN { i = 0; n = 0 } NR == FNR { t[n++] = $0; next }
		i < n && $0 == t[i] { i++; last = FNR }
		END { if (i < n) printf "snapshot event %d of %d not found in order: %s", i + 1, n, t[i]; else print "at " last }' \
		"$t/truth.s" "$t/ours.s")
	after=
	case $why in
	"at "*) ok "$c: every one of the $n events of \`lttng snapshot record\` is in ours, time stamps and fields, in order"
		after=${why#at } ;;
	*) nok "$c: $why" ;;
	esac
	at_snap=$(cat "$D/truth/marks-at-snapshot")
	last=$(cat "$D/truth/last-mark")
	if [ -n "$after" ]; then
		got=$(tail -n +$((after + 1)) "$t/ours.s" | marks_of | tr '\n' ' ')
		want=$(seq $((at_snap + 1)) "$last" | tr '\n' ' ')
		[ "$got" = "$want" ] &&
			ok "$c: after the snapshot's events: the marks $((at_snap + 1))..$last written before the panic, in order" ||
			nok "$c: after the snapshot's events: marks '$got', want '$want'"
	fi
	lastmark=$(marks_of <"$t/ours.s" | tail -n 1)
	[ "$lastmark" = "$last" ] &&
		ok "$c: the last mark LTTng recorded is the workload's last ($last)" ||
		nok "$c: the last mark recovered is '$lastmark', the workload's last is $last"

	# --- the packets closed as the kernel closes them: PAGE_ALIGN ------------
	# the kernel's page (VMCOREINFO's PAGESIZE, among the ELF dump's first
	# notes) and byte order (the ELF header's EI_DATA); the guest's snapshot
	# was closed by the kernel itself, ours by ktrace (the packet being
	# written: its content rounded up to that page, not to 4096)
	local page be ps_snap ps_ours
	page=$(head -c 1048576 "$D/vmcore.elf" | grep -a -o -m 1 'PAGESIZE=[0-9]*' | head -n 1 | cut -d= -f2)
	be=$([ "$(od -A n -t u1 -j 5 -N 1 "$D/vmcore.elf" | tr -d ' ')" = 2 ] && echo 1 || echo 0)
	if [ -z "$page" ]; then
		nok "$c: no PAGESIZE= in the ELF dump's VMCOREINFO"
	else
		so=$(find "$D/truth/snapshot" -name 'chan0_0' | head -n 1)
		if ps_snap=$(packet_sizes "$(dirname "$so")" "$be" "$page") &&
			ps_ours=$(packet_sizes "$t/ctf/ktrace/kernel" "$be" "$page"); then
			ok "$c: every packet's packet_size is its content rounded up to the kernel's $page-byte page, the snapshot's (the kernel's: $(echo $ps_snap)) and ours (stream:packets:last content:last size: $(echo $ps_ours))"
		else
			nok "$c: packet sizes not PAGE_ALIGN($page) of the content: snapshot '$(echo $ps_snap)', ours '$(echo $ps_ours)'"
		fi
	fi

	# --- the other formats of the same dump: the same files ------------------
	for fmt in $formats; do
		[ "$fmt" = elf ] && continue
		"$KTRACE_BIN" -x "$VMLINUX" --module-debuginfo "$mods" --lttng "$t/ctf-$fmt" \
			"$D/vmcore.$fmt" 2>"$t/extract-$fmt.err"
		rc=$?
		bad=
		for f in metadata $(cd "$t/ctf/ktrace/kernel" && ls chan*); do
			cmp -s "$t/ctf/ktrace/kernel/$f" "$t/ctf-$fmt/ktrace/kernel/$f" || bad="$bad $f"
		done
		[ $rc = 0 ] && [ -z "$bad" ] &&
			ok "$c: vmcore.$fmt: the files of the ELF dump, byte for byte" ||
			nok "$c: vmcore.$fmt: exit $rc, differing:${bad:- none}; $(tail -n 2 "$t/extract-$fmt.err" | tr '\n' ' ')"
	done

	# --- --list, and ftrace beside LTTng --------------------------------------
	"$KTRACE_BIN" -x "$VMLINUX" --module-debuginfo "$mods" --list "$D/vmcore.elf" >"$t/list" 2>&1
	grep -q "^lttng ktrace/chan0  $list_want" "$t/list" &&
		ok "$c: --list: $(grep '^lttng ktrace/chan0' "$t/list")" ||
		nok "$c: --list shows no such LTTng channel: $(grep -i lttng "$t/list" | head -n 3)"
	"$KTRACE_BIN" -x "$VMLINUX" --module-debuginfo "$mods" "$D/vmcore.elf" >"$t/ftrace.txt" 2>"$t/ftrace.err"
	if [ -s "$D/truth/ftrace.trace" ]; then
		# up to the marker: the lines after it are of the cat that saved the
		# file, whose comm the kernel's own print took before the exec
		grep -v '^#' "$D/truth/ftrace.trace" | sed '/ktrace-lttng-ftrace-mark/q' >"$t/ftrace.truth"
		why=$(awk 'BEGIN { i = 0; n = 0 } NR == FNR { t[n++] = $0; next }
			i < n && $0 == t[i] { i++ } END { if (i < n) printf "line %d of %d not found in order: %s", i + 1, n, t[i] }' \
			"$t/ftrace.truth" "$t/ftrace.txt")
		[ -z "$why" ] && grep -q 'ktrace-lttng-ftrace-mark' "$t/ftrace.txt" &&
			ok "$c: ftrace on the same dump: all $(wc -l <"$t/ftrace.truth") lines of the guest's own trace up to its marker, in order" ||
			nok "$c: ftrace on the same dump: ${why:-no marker}"
	else
		nok "$c: no truth/ftrace.trace in $D"
	fi
	# --- crash> ktrace lttng: the same files, byte for byte -----------------
	if [ "$c" != k6.1-lttng ]; then
		skip "$c: crash reads dumps of its own architecture only"
	elif [ -n "${KTRACE_SANITIZE:-}" ]; then
		skip "crash cannot load an ASan-built ktrace.so"
	elif ! command -v crash >/dev/null || [ ! -f /usr/include/crash/defs.h ]; then
		skip "crash or its defs.h is not installed"
	elif ! make -s -C "$top" O="${O:-build}" "${O:-build}/ktrace.so" >/dev/null 2>&1; then
		nok "make ktrace.so failed"
	else
		so=$(cd "$top" && cd "${O:-build}" && pwd)/ktrace.so
		printf 'mod -S %s\nextend %s\nktrace lttng %s\nq\n' "$mods" "$so" "$t/crash" >"$t/cmds"
		crash -s "$VMLINUX" "$D/vmcore.elf" -i "$t/cmds" </dev/null >"$t/crash.out" 2>&1
		bad=
		for f in metadata $(cd "$t/ctf/ktrace/kernel" && ls chan*); do
			cmp -s "$t/ctf/ktrace/kernel/$f" "$t/crash/ktrace/kernel/$f" || bad="$bad $f"
		done
		[ -z "$bad" ] && grep -q '^lttng: wrote ' "$t/crash.out" &&
			ok "crash> ktrace lttng (after mod -S): the files of --lttng, byte for byte" ||
			nok "crash> ktrace lttng: differing:${bad:- none, but no 'lttng: wrote' line}; $(grep -i 'lttng\|error' "$t/crash.out" | tail -n 3 | tr '\n' '|')"
	fi
}

found=
want_k61=1
[ -z "${KTRACE_CASES:-}" ] || [[ " $KTRACE_CASES " == *" k6.1-lttng "* ]] || want_k61=
if [ -n "$want_k61" ]; then
	D=$VMCORES/k6.1-lttng
	if [ ! -s "$D/vmcore.elf" ] || [ "${KTRACE_LTTNG_REMAKE:-}" = 1 ]; then
		if [ "$(id -u)" != 0 ]; then
			skip "no $D and making it needs root"
		elif [ "${KTRACE_LTTNG_MAKE:-1}" = 0 ]; then
			skip "no $D (KTRACE_LTTNG_MAKE=0)"
		elif ! "$top/scripts/make-lttng-vmcore" >/dev/null 2>"$tmp/make-lttng-vmcore.err"; then
			nok "scripts/make-lttng-vmcore: $(tail -n 3 "$tmp/make-lttng-vmcore.err")"
		fi
	fi
	if [ -s "$D/vmcore.elf" ]; then
		lttng_case k6.1-lttng "$D" "$KTRACE_CACHE/kernels/6.1/vmlinux" "$(cat "$D/lttng-modules")" elf \
			'overwrite, 16 sub-buffers of 65536 bytes, 2 buffers (0 refused)'
		found=1
	fi
fi
for c in $(ring_cases lttng); do
	(
		unset VMLINUX FORMATS MODULES
		. "$VMCORES/$c/case.env"
		lttng_case "$c" "$VMCORES/$c" "$VMLINUX" "$MODULES" "$FORMATS" \
			'overwrite, 4 sub-buffers of 65536 bytes, 2 buffers (0 refused)'
		finish
	) || FAILED=1
	found=1
done
[ -n "$found" ] || { echo "skip - no LTTng fixture (scripts/make-lttng-vmcore; scripts/make-vmcores k6.12-s390x-lttng)"; exit 77; }
finish
