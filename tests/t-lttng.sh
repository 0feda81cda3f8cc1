#!/bin/bash
# t-lttng.sh - LTTng's kernel ring buffers from a real vmcore, read by the
# real babeltrace2. The fixture (scripts/make-lttng-vmcore, made here on
# demand: ~6 min the first time for lttng-modules, ~40 s after): Debian 12
# in QEMU on the 6.1 cloud kernel runs an LTTng kernel session in snapshot
# mode (overwrite channels; sched, irq, openat/execve/exit_group), makes
# marks (openat of /ktrace-lttng-mark-N), takes `lttng snapshot record`
# to a second disk (the truth), makes as many marks again and a last one,
# and panics with the session running. ktrace-extract --lttng writes a
# CTF trace; babeltrace2 must read it without a word on stderr and print
# every event of the snapshot, same time stamps and fields, in order;
# after them the later marks, in order, the last one the workload's last.
# ftrace's buffers of the same dump still hold the guest's own trace file.
# Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
command -v babeltrace2 >/dev/null || { echo "skip - babeltrace2 missing (scripts/install-deps)"; exit 77; }
D=$VMCORES/k6.1-lttng
if [ ! -s "$D/vmcore.elf" ] || [ "${KTRACE_LTTNG_REMAKE:-}" = 1 ]; then
	[ "$(id -u)" = 0 ] || { echo "skip - no $D and making it needs root"; exit 77; }
	[ "${KTRACE_LTTNG_MAKE:-1}" = 0 ] && { echo "skip - no $D (KTRACE_LTTNG_MAKE=0)"; exit 77; }
	"$top/scripts/make-lttng-vmcore" >/dev/null 2>"${TMPDIR:-/tmp}/make-lttng-vmcore.err" ||
		{ nok "scripts/make-lttng-vmcore: $(tail -n 3 "${TMPDIR:-/tmp}/make-lttng-vmcore.err")"; finish; }
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t-lttng.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mods=$(cat "$D/lttng-modules")
VMLINUX=$KTRACE_CACHE/kernels/6.1/vmlinux
ok "fixture: $(tr '\n' ';' <"$D/times")"

# --- recovery ---------------------------------------------------------------
t0=$EPOCHREALTIME
/usr/bin/time -f '%M' -o "$tmp/rss" "$KTRACE_BIN" -x "$VMLINUX" --module-debuginfo "$mods" \
	--lttng "$tmp/ctf" "$D/vmcore.elf" 2>"$tmp/extract.err"
rc=$?
secs=$(echo "${EPOCHREALTIME/,/.} - ${t0/,/.}" | bc)
if [ $rc = 0 ] && [ -s "$tmp/ctf/ktrace/kernel/metadata" ] && ls "$tmp"/ctf/ktrace/kernel/chan0_* >/dev/null 2>&1; then
	ok "ktrace-extract --lttng: $(ls "$tmp/ctf/ktrace/kernel" | tr '\n' ' ')in $secs s, max RSS $(cat "$tmp/rss") KiB; $(grep 'packets$' "$tmp/extract.err" | tr '\n' ' ')"
else
	nok "ktrace-extract --lttng: exit $rc: $(tail -n 3 "$tmp/extract.err")"
	finish
fi

# --- babeltrace2 on ours and on the snapshot --------------------------------
babeltrace2 "$tmp/ctf" >"$tmp/ours.txt" 2>"$tmp/ours.err"
rc=$?
if [ $rc = 0 ] && [ ! -s "$tmp/ours.err" ] && [ -s "$tmp/ours.txt" ]; then
	ok "babeltrace2 reads the recovered trace without a warning: $(wc -l <"$tmp/ours.txt") events"
else
	nok "babeltrace2 on the recovered trace: exit $rc: $(head -c 400 "$tmp/ours.err")"
fi
babeltrace2 "$D/truth/snapshot" >"$tmp/truth.txt" 2>"$tmp/truth.err" ||
	{ nok "babeltrace2 cannot read the guest's own snapshot: $(head -c 300 "$tmp/truth.err")"; finish; }
# the relative "(+delta)" column depends on the previous line: left out
strip() { sed 's/ (+[^)]*) / /' "$1"; }
strip "$tmp/truth.txt" >"$tmp/truth.s"
strip "$tmp/ours.txt" >"$tmp/ours.s"
n=$(wc -l <"$tmp/truth.s")
why=$(awk 'BEGIN { i = 0; n = 0 } NR == FNR { t[n++] = $0; next }
	i < n && $0 == t[i] { i++; last = FNR }
	END { if (i < n) printf "snapshot event %d of %d not found in order: %s", i + 1, n, t[i]; else print "at " last }' \
	"$tmp/truth.s" "$tmp/ours.s")
case $why in
"at "*) ok "every one of the $n events of \`lttng snapshot record\` is in ours, time stamps and fields, in order"
	after=${why#at } ;;
*) nok "$why"; after= ;;
esac
at_snap=$(cat "$D/truth/marks-at-snapshot")
last=$(cat "$D/truth/last-mark")
if [ -n "$after" ]; then
	got=$(tail -n +$((after + 1)) "$tmp/ours.s" | grep -o 'syscall_entry_openat: .*filename = "/ktrace-lttng-mark-[0-9]*"' |
		sed 's/.*mark-//; s/"//' | tr '\n' ' ')
	want=$(seq $((at_snap + 1)) "$last" | tr '\n' ' ')
	[ "$got" = "$want" ] &&
		ok "after the snapshot's events: the marks $((at_snap + 1))..$last written before the panic, in order" ||
		nok "after the snapshot's events: marks '$got', want '$want'"
fi
lastmark=$(grep -o 'filename = "/ktrace-lttng-mark-[0-9]*"' "$tmp/ours.s" | tail -n 1)
[ "$lastmark" = "filename = \"/ktrace-lttng-mark-$last\"" ] &&
	ok "the last mark LTTng recorded is the workload's last ($last)" ||
	nok "the last mark recovered is '$lastmark', the workload's last is $last"

# --- --list, and ftrace beside LTTng ------------------------------------------
"$KTRACE_BIN" -x "$VMLINUX" --module-debuginfo "$mods" --list "$D/vmcore.elf" >"$tmp/list" 2>&1
grep -q '^lttng ktrace/chan0  overwrite, 16 sub-buffers of 65536 bytes, 2 buffers (0 refused)' "$tmp/list" &&
	ok "--list: $(grep '^lttng ktrace/chan0' "$tmp/list")" ||
	nok "--list shows no LTTng channel: $(grep -i lttng "$tmp/list" | head -n 3)"
"$KTRACE_BIN" -x "$VMLINUX" --module-debuginfo "$mods" "$D/vmcore.elf" >"$tmp/ftrace.txt" 2>"$tmp/ftrace.err"
if [ -s "$D/truth/ftrace.trace" ]; then
	# up to the marker: the lines after it are of the cat that saved the
	# file, whose comm the kernel's own print took before the exec
	grep -v '^#' "$D/truth/ftrace.trace" | sed '/ktrace-lttng-ftrace-mark/q' >"$tmp/ftrace.truth"
	why=$(awk 'BEGIN { i = 0; n = 0 } NR == FNR { t[n++] = $0; next }
		i < n && $0 == t[i] { i++ } END { if (i < n) printf "line %d of %d not found in order: %s", i + 1, n, t[i] }' \
		"$tmp/ftrace.truth" "$tmp/ftrace.txt")
	[ -z "$why" ] && grep -q 'ktrace-lttng-ftrace-mark' "$tmp/ftrace.txt" &&
		ok "ftrace on the same dump: all $(wc -l <"$tmp/ftrace.truth") lines of the guest's own trace up to its marker, in order" ||
		nok "ftrace on the same dump: ${why:-no marker}"
else
	nok "no truth/ftrace.trace in $D"
fi
# --- crash> ktrace lttng: the same files, byte for byte -----------------------
if [ -n "${KTRACE_SANITIZE:-}" ]; then
	skip "crash cannot load an ASan-built ktrace.so"
elif ! command -v crash >/dev/null || [ ! -f /usr/include/crash/defs.h ]; then
	skip "crash or its defs.h is not installed"
elif ! make -s -C "$top" O="${O:-build}" "${O:-build}/ktrace.so" >/dev/null 2>&1; then
	nok "make ktrace.so failed"
else
	so=$(cd "$top" && cd "${O:-build}" && pwd)/ktrace.so
	printf 'mod -S %s\nextend %s\nktrace lttng %s\nq\n' "$mods" "$so" "$tmp/crash" >"$tmp/cmds"
	crash -s "$VMLINUX" "$D/vmcore.elf" -i "$tmp/cmds" </dev/null >"$tmp/crash.out" 2>&1
	bad=
	for f in metadata $(cd "$tmp/ctf/ktrace/kernel" && ls chan*); do
		cmp -s "$tmp/ctf/ktrace/kernel/$f" "$tmp/crash/ktrace/kernel/$f" || bad="$bad $f"
	done
	[ -z "$bad" ] && grep -q '^lttng: wrote ' "$tmp/crash.out" &&
		ok "crash> ktrace lttng (after mod -S): the files of --lttng, byte for byte" ||
		nok "crash> ktrace lttng: differing:${bad:- none, but no 'lttng: wrote' line}; $(grep -i 'lttng\|error' "$tmp/crash.out" | tail -n 3 | tr '\n' '|')"
fi
finish
