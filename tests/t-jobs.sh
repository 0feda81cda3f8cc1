#!/bin/bash
# Rendering on worker threads (--jobs N) changes nothing but the time: on
# every cached fixture case (a trace array's buffers, a recorder's ring, a
# dump with tracing off), the text, the JSON Lines and trace.dat (its
# sub-buffers read and checked on reader threads) with -J 1 (the calling
# thread alone), -J 2 and -J 7 are byte-identical, and so are the exit
# status and stderr (warnings and loss counts). On one case with a
# wrapped buffer, --last, a CPU list and --no-header too; and the damaged
# dumps t-damaged.sh makes; and under kdump's ulimit -v of 64 MiB. A bad
# count is a usage error (status 2).
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# same CASE WHAT ARGS...: -J 1, 2 and 7 alike
same() {
	local c=$1 what=$2 j rc1 rc bad=; shift 2
	"$KTRACE_BIN" -J 1 "$@" >"$tmp/1.out" 2>"$tmp/1.err"
	rc1=$?
	signalled $rc1 && bad="; -J 1: killed by signal $((rc1 - 128))"
	for j in 2 7; do
		"$KTRACE_BIN" -J $j "$@" >"$tmp/$j.out" 2>"$tmp/$j.err"
		rc=$?
		if signalled $rc; then
			bad="$bad; -J $j: killed by signal $((rc - 128))"
		elif [ $rc != $rc1 ]; then
			bad="$bad; -J $j: status $rc, -J 1: $rc1"
		elif ! cmp -s "$tmp/1.out" "$tmp/$j.out"; then
			bad="$bad; -J $j: output differs: $(diff "$tmp/1.out" "$tmp/$j.out" | sed -n 2p | cut -c1-120)"
		elif ! cmp -s "$tmp/1.err" "$tmp/$j.err"; then
			bad="$bad; -J $j: stderr differs: $(diff "$tmp/1.err" "$tmp/$j.err" | sed -n 2p | cut -c1-120)"
		fi
	done
	if [ -n "$bad" ]; then
		nok "$c: $what${bad}"
	else
		ok "$c: $what: -J 1, 2, 7 identical ($(if [ "${what#trace.dat}" != "$what" ]; then
			echo "$(wc -c <"$tmp/1.out") bytes"; else echo "$(wc -l <"$tmp/1.out") lines"; fi), status $rc1)"
	fi
}

n=0
for c in $(all_cases); do
	# -J's workers per kernel, and the output with state across records
	sanitize_subject "$c" '*-fgraph' '*-opts' '*-rt-wakeup' || continue
	dir=$VMCORES/$c
	unset VMLINUX FORMATS WRAPPED
	. "$dir/case.env"
	[ -f "$VMLINUX" ] || { skip "$c: $VMLINUX missing"; continue; }
	# the dump format does not reach the rendering: the first one made
	core=
	for f in $FORMATS; do
		[ -f "$dir/vmcore.$f" ] && { core=$dir/vmcore.$f; break; }
	done
	[ -n "$core" ] || { skip "$c: no dump"; continue; }
	n=$((n + 1))
	same "$c" text -x "$VMLINUX" "$core"
	same "$c" json -x "$VMLINUX" -j "$core"
	same "$c" trace.dat -x "$VMLINUX" -F dat "$core"
	# a compressed dump's pages are inflated on the readers' own contexts
	case " $FORMATS " in
	*" kdump "*) [ "$core" != "$dir/vmcore.kdump" ] && [ -f "$dir/vmcore.kdump" ] &&
		same "$c" "trace.dat of the kdump-compressed dump" -x "$VMLINUX" -F dat "$dir/vmcore.kdump" ;;
	esac
	if [ "${WRAPPED:-0}" = 1 ] && [ -z "$windowed" ]; then
		windowed=1
		same "$c" "--last 1000" -x "$VMLINUX" -n 1000 "$core"
		same "$c" "CPUs 0,2-3" -x "$VMLINUX" -c 0,2-3 "$core"
		same "$c" "--no-header" -x "$VMLINUX" --no-header "$core"
		# a window that closes mid-trace: the read-ahead runs past its end
		mid=$("$KTRACE_BIN" -J 1 --no-header -x "$VMLINUX" "$core" 2>/dev/null |
			awk -v n="$(wc -l <"$tmp/1.out")" 'NR >= n / 2 {
				for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
					print substr($i, 1, length($i) - 1); exit } }')
		[ -n "$mid" ] && same "$c" "--until $mid" -x "$VMLINUX" --until "$mid" "$core"
	fi
done
[ $n -gt 0 ] || skip "no fixture case cached (scripts/make-vmcores)"

# damaged dumps (scripts/make-damaged, made by t-damaged.sh): unreadable,
# corrupt and cut pages are read, counted and skipped alike by the
# read-ahead thread and the calling thread
D=$KTRACE_CACHE/damaged
ls "$D"/*.elf >/dev/null 2>&1 || echo "skip - no damaged dumps in $D (scripts/make-damaged: made by the runner and by t-damaged)"
V61=$( [ -f "$VMCORES/k6.1/case.env" ] && . "$VMCORES/k6.1/case.env" && echo "$VMLINUX")
V612=$( [ -f "$VMCORES/k6.12/case.env" ] && . "$VMCORES/k6.12/case.env" && echo "$VMLINUX")
for core in "$D"/*.elf "$D"/d31.kdump; do
	[ -f "$core" ] || continue
	v=$V61
	[ "${core##*/}" = d31.kdump ] && v=$V612
	[ -f "$v" ] || continue
	same "damaged/${core##*/}" text -x "$v" "$core"
	same "damaged/${core##*/}" trace.dat -x "$v" -F dat "$core"
done

# kdump's capture kernel runs ktrace-extract with a profile under ulimit -v
# (KTRACE_MAX_MEM=64 MiB): threads that cannot be had are done without
if [ -n "$V61" ] && [ -z "${KTRACE_SANITIZE:-}" ] &&
   "$KTRACE_BIN" --make-profile "$tmp/k61.prof" -x "$V61" >/dev/null 2>&1; then
	core=$VMCORES/k6.1/vmcore.kdump
	[ -f "$core" ] || core=$VMCORES/k6.1/vmcore.elf
	"$KTRACE_BIN" -J 1 --profile "$tmp/k61.prof" "$core" >"$tmp/p1.out" 2>/dev/null
	rc1=$?
	(ulimit -v 65536; exec "$KTRACE_BIN" -J 8 --profile "$tmp/k61.prof" "$core") \
		>"$tmp/p8.out" 2>"$tmp/p8.err"
	rc=$?
	if [ $rc = $rc1 ] && cmp -s "$tmp/p1.out" "$tmp/p8.out"; then
		ok "k6.1 under ulimit -v 64 MiB: -J 8 as -J 1 (status $rc)"
	else
		nok "k6.1 under ulimit -v 64 MiB: -J 8 status $rc (-J 1: $rc1): $(head -n 1 "$tmp/p8.err")"
	fi
	# trace.dat of the ELF dump: its reader threads and their windows
	core=$VMCORES/k6.1/vmcore.elf
	if [ -f "$core" ]; then
		"$KTRACE_BIN" -J 1 --profile "$tmp/k61.prof" -F dat "$core" >"$tmp/p1.dat" 2>/dev/null
		rc1=$?
		(ulimit -v 65536; exec "$KTRACE_BIN" -J 8 --profile "$tmp/k61.prof" -F dat "$core") \
			>"$tmp/p8.dat" 2>"$tmp/p8.err"
		rc=$?
		if [ $rc = $rc1 ] && [ -s "$tmp/p1.dat" ] && cmp -s "$tmp/p1.dat" "$tmp/p8.dat"; then
			ok "k6.1 under ulimit -v 64 MiB: trace.dat with -J 8 as with -J 1 (status $rc)"
		else
			nok "k6.1 under ulimit -v 64 MiB: trace.dat -J 8 status $rc (-J 1: $rc1): $(head -n 1 "$tmp/p8.err")"
		fi
	fi
fi

"$KTRACE_BIN" -J 0 /dev/null >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && grep -q "bad number of jobs '0'" "$tmp/err"; then
	ok "-J 0: usage error, status 2"
else
	nok "-J 0: status $rc: $(head -n 1 "$tmp/err")"
fi
finish
