#!/bin/bash
# The kernel log (ktrace-extract --dmesg, --timeline) over the vmcore matrix:
# - --dmesg of every dump format is byte for byte what makedumpfile
#   --dump-dmesg writes from the same case's kdump-compressed dump (its
#   1.7.2 refuses QEMU's ELF; no normalisation is needed), and so is the
#   log of a makedumpfile -d 31 dump where a case has one; another
#   machine's case is compared with that machine's makedumpfile, run under
#   qemu-user (scripts/fetch-makedumpfile: sid's), from its kdump dump or,
#   where it has none, its ELF dump (whose program headers
#   vmcore-add-vmcoreinfo put where makedumpfile reads them), without the
#   caller column 1.7.3 and later print;
# - every kernel line of the guest's console (console.log) is in the log,
#   once the lines of a multi-line record are given their record's stamp
#   (the console prints it on each line, makedumpfile indents);
# - the panic record is there and --json says its message; --json is one
#   header and one valid object per record;
# - --timeline has every log record in the log's order and, for each buffer
#   whose clock is comparable, exactly the lines of the buffer's own text,
#   in its order;
#   a buffer that is not comparable is named in a "# ktrace:" line;
# - a damaged printk ring (scripts/make-damaged-printk): the message names
#   each broken descriptor and its cause, every other record is written,
#   exit status 10.
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
[ -n "$(all_cases)" ] || { echo "skip - no vmcore fixtures in $VMCORES (run scripts/make-vmcores)"; exit 77; }
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t-dmesg.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# mdf_for ARCH: the makedumpfile that reads ARCH's dumps, once per arch:
# this host's for amd64, else ARCH's under qemu-user; none (status 1, the
# reason in $tmp/mdf-ARCH.why) when it is missing or cannot be fetched
mdf_for() {
	local why=$tmp/mdf-$1.why
	[ -e "$why" ] && return 1
	[ -e "$tmp/mdf-$1" ] && { cat "$tmp/mdf-$1"; return 0; }
	if [ "$1" = amd64 ]; then
		command -v makedumpfile >"$tmp/mdf-$1" || { echo "makedumpfile is not installed" >"$why"; return 1; }
	elif "$top/scripts/fetch-makedumpfile" --check "$1" >"$tmp/mdf-$1" 2>/dev/null; then
		:
	elif [ -n "${KTRACE_NO_FIXTURES:-}" ]; then
		echo "no makedumpfile of $1 in the cache (scripts/fetch-makedumpfile $1; KTRACE_NO_FIXTURES is set)" >"$why"
	elif ! "$top/scripts/fetch-makedumpfile" "$1" >"$tmp/mdf-$1" 2>"$tmp/fetch.err"; then
		echo "no makedumpfile of $1 to run under qemu-user: $(tail -n 1 "$tmp/fetch.err")" >"$why"
	fi
	[ -e "$why" ] && { rm -f "$tmp/mdf-$1"; return 1; }
	cat "$tmp/mdf-$1"
}

# uncaller FILE: makedumpfile 1.7.3 and later print each record's caller
# after its time stamp ("[    0.621348] [      T0] Linux version ...") and
# indent a record's further lines by the width of both; the kernel's
# console (no CONFIG_PRINTK_CALLER in Debian) and ktrace print the stamp
# alone, as 1.7.2 does: the caller column is taken out
uncaller() {
	awk '
	match($0, /^\[ *[0-9]+\.[0-9]+\] \[ *[TC][0-9]+\] /) {
		stamp = index($0, "] ")
		w = RLENGTH - (stamp + 1)
		print substr($0, 1, stamp + 1) substr($0, RLENGTH + 1)
		next
	}
	w && substr($0, 1, w) ~ /^ *$/ { print substr($0, w + 1); next }
	{ print }' "$1" >"$1.tmp" && mv "$1.tmp" "$1"
}

# first_diff A B: the first differing line, for the message
first_diff() {
	diff "$1" "$2" | sed -n '2{s/^\(.\{0,160\}\).*/\1/;p;q}'
}

for c in $(all_cases); do
	# the kernel log is the kernel's, not the workload's
	sanitize_subject "$c" || continue
	dir=$VMCORES/$c
	unset CASE VMLINUX INSTANCES FORMATS CLOCK ARCH
	. "$dir/case.env"
	rm -f "$tmp/want"
	arch=${ARCH:-amd64}
	src=$dir/vmcore.kdump
	[ "$arch" = amd64 ] || [ -f "$src" ] || src=$dir/vmcore.elf
	if ! mdf=$(mdf_for "$arch"); then
		skip "$c: makedumpfile --dump-dmesg: $(cat "$tmp/mdf-$arch.why"); the console, JSON and timeline checks still run"
	elif [ ! -f "$src" ]; then
		skip "$c: makedumpfile --dump-dmesg: no kdump-compressed dump of this case; the console, JSON and timeline checks still run"
	elif ! "$mdf" --dump-dmesg "$src" "$tmp/want" >"$tmp/mdf.err" 2>&1; then
		rm -f "$tmp/want"
		# another machine's makedumpfile that refuses the kernel itself
		# (sid's 1.7.8 on Debian's arm64 kernels: "PAGE SIZE 0x1000 and VA
		# Bits 52 not supported"): its reason, not ours
		# (and on kbpo-arm64-16k's ELF dump: "get_elf_info: Can't get the
		# number of PT_LOAD"): its reason, not ours
		if [ "$arch" != amd64 ] && grep -Eq "not supported|Can't get the number of PT_LOAD" "$tmp/mdf.err"; then
			skip "$c: makedumpfile --dump-dmesg ($arch's, under qemu-user) refuses this dump: $(grep -Em1 "not supported|Can't get the number of PT_LOAD" "$tmp/mdf.err"); the console, JSON and timeline checks still run"
		else
			nok "$c: makedumpfile --dump-dmesg ($arch's) of ${src##*/} failed: $(grep -v '^$' "$tmp/mdf.err" | tail -n 2 | head -n 1)"
			continue
		fi
	else
		uncaller "$tmp/want"
	fi
	[ -f "$tmp/want" ] && {
		for fmt in $(formats_of "$c"); do
			core=$dir/vmcore.$fmt
			kx "$tmp/got" "$tmp/err" -x "$VMLINUX" --dmesg "$core"
			rc=$?
			if [ $rc != 0 ]; then
				nok "$c/$fmt: --dmesg exit status $rc: $(head -c 200 "$tmp/err")"
			elif ! cmp -s "$tmp/want" "$tmp/got"; then
				nok "$c/$fmt: --dmesg differs from makedumpfile --dump-dmesg: $(first_diff "$tmp/want" "$tmp/got")"
			else
				ok "$c/$fmt: --dmesg equals makedumpfile --dump-dmesg of ${src##*/}$([ "$arch" = amd64 ] || echo " ($arch's, under qemu-user)") ($(wc -l <"$tmp/got") lines)"
			fi
		done
		# makedumpfile -d 31 drops free, cache and user pages, never the log
		if [ -f "$dir/vmcore.d31" ]; then
			"$KTRACE_BIN" -x "$VMLINUX" --dmesg "$dir/vmcore.d31" >"$tmp/got" 2>"$tmp/err"
			rc=$?
			if [ $rc = 0 ] && cmp -s "$tmp/want" "$tmp/got"; then
				ok "$c/d31: --dmesg of the makedumpfile -d 31 dump equals the whole dump's"
			else
				nok "$c/d31: --dmesg exit $rc, differs: $(first_diff "$tmp/want" "$tmp/got")"
			fi
		fi
	}
	core=$dir/vmcore.kdump
	[ -f "$core" ] || core=$dir/vmcore.${FORMATS%% *}
	kx "$tmp/log" /dev/null -x "$VMLINUX" --dmesg "$core"
	records=$(grep -c '^\[' "$tmp/log")

	# the console's kernel lines, each in the log (CRs of the serial line dropped)
	awk '/^\[/ { s = substr($0, 1, 15); print; next } { print s substr($0, 16) }' \
		"$tmp/log" >"$tmp/log.stamped"
	# (a line two CPUs wrote into at once, a second stamp's tail inside
	# it, is the console's garbling, not a record: a PREEMPT_RT kernel's
	# panic path prints from two contexts, "...: s487028] Kernel pany...")
	# The console has the text's bytes as they are; the log writes a byte
	# outside ASCII's printable and \t..\r as \xNN (lib/printk/log.c)
	# (lttng-modules 2.13.18: "LTTng: Loaded modules v2.13.18 (Nordicit\xc3\xa9)")
	tr -d '\r' <"$dir/console.log" | perl -pe 's/([^\x20-\x7e\t-\r])/sprintf("\\x%02x", ord $1)/ge' |
		grep -E '^\[ *[0-9]+\.[0-9]{6}\] ' |
		grep -vE '^\[ *[0-9]+\.[0-9]{6}\] .*[0-9]{6}\] ' >"$tmp/console"
	missing=$(grep -cvxF -f "$tmp/log.stamped" "$tmp/console")
	if [ ! -s "$tmp/console" ]; then
		nok "$c: no kernel line in console.log"
	elif [ "$missing" != 0 ]; then
		nok "$c: $missing of $(wc -l <"$tmp/console") console lines not in the log: $(grep -vxF -f "$tmp/log.stamped" "$tmp/console" | head -n 1)"
	else
		ok "$c: all $(wc -l <"$tmp/console") kernel lines of the guest's console are in the log"
	fi

	# the panic, and the JSON form
	kx "$tmp/json" /dev/null -x "$VMLINUX" --dmesg --json "$core"
	jcheck=$(python3 - "$tmp/json" "$records" <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
head = json.loads(lines[0])
recs = [json.loads(x) for x in lines[1:]]
if len(recs) != int(sys.argv[2]) or head.get('records') != len(recs):
    print('%d records, header says %s, text has %s' % (len(recs), head.get('records'), sys.argv[2]))
elif any(b['seq'] != a['seq'] + 1 for a, b in zip(recs, recs[1:])):
    print('sequence numbers not consecutive')
else:
    print('ok %s' % head.get('panic'))
EOF
)
	if [ "${jcheck%% *}" != ok ]; then
		nok "$c: --dmesg --json: $jcheck"
	elif [ "${jcheck#ok }" != "sysrq triggered crash" ] ||
	     ! grep -q '\] Kernel panic - not syncing: sysrq triggered crash$' "$tmp/log"; then
		nok "$c: the panic message is '${jcheck#ok }', not 'sysrq triggered crash'"
	else
		ok "$c: --json: $records records in sequence; panic message '${jcheck#ok }'"
	fi

	# the timeline: every log record, and each comparable buffer's own lines
	kx "$tmp/tl" "$tmp/err" -x "$VMLINUX" --timeline "$core"
	rc=$?
	merged=$(sed -n '1s/.*(printk, local_clock()), \{0,1\}\(.*\) merged by time stamp$/\1/p' "$tmp/tl")
	# the name column: as wide as the longest merged buffer's name (a
	# snapshot buffer, NAME.snapshot, is merged too)
	width=3
	for inst in $(grep -o 'buffer [^ ]* (' <<<"$merged" | cut -d' ' -f2); do
		[ ${#inst} -gt $width ] && width=${#inst}
	done
	# the status of the plain text run: 10 where an option is not rendered
	"$KTRACE_BIN" -q -x "$VMLINUX" "$core" >/dev/null 2>&1
	want_rc=$?
	# tracing never on (6): the timeline is the log alone, written
	[ $want_rc = 6 ] && want_rc=0
	bad=
	[ $rc = $want_rc ] || bad="exit status $rc (the text run's: $want_rc): $(head -c 200 "$tmp/err")"
	n=$(grep -cE "^\[ *[0-9]+\.[0-9]{6}\] log +\[[TC][0-9]+\] " "$tmp/tl")
	lines=$(wc -l <"$tmp/log")
	[ -n "$bad" ] || [ "$n" = "$lines" ] || bad="$n log lines, not $lines"
	# the log's records in their own order (early-boot stamps go backwards:
	# sched_clock on jiffies, then on the TSC; the merge keeps each source's order)
	if [ -z "$bad" ]; then
		grep -E "^\[ *[0-9]+\.[0-9]{6}\] log +\[[TC][0-9]+\] " "$tmp/tl" |
			sed -E 's/^(\[ *[0-9]+\.[0-9]{6}\] )log +\[[TC][0-9]+\] /\1/' >"$tmp/tl.log"
		cmp -s "$tmp/log.stamped" "$tmp/tl.log" ||
			bad="log lines not the log's: $(first_diff "$tmp/log.stamped" "$tmp/tl.log")"
	fi
	events=0
	for inst in $INSTANCES; do
		[ -n "$bad" ] && break
		case "$merged" in
		*"buffer $inst "*) ;;
		*)
			grep -q "^# ktrace: timeline: buffer $inst not merged: clock .* is not comparable" "$tmp/tl" ||
				bad="buffer $inst neither merged nor said not to be"
			continue ;;
		esac
		kx /dev/stdout /dev/null -x "$VMLINUX" -i "$inst" "$core" |
			grep -av -e '^#' -e '^CPU:.*LOST' >"$tmp/want.$inst"
		grep -E "^\[ *[0-9]+\.[0-9]{6}\] $inst {$((width - ${#inst} + 1))}" "$tmp/tl" |
			grep -v ' CPU:[0-9]* \[LOST' | cut -c$((15 + width + 2))- >"$tmp/got.$inst"
		if ! grep -Iq . "$tmp/want.$inst"; then
			# option bin: the buffer's own file is binary, the timeline
			# prints its records as text: as many lines as JSON events
			nj=$(kx /dev/stdout /dev/null -x "$VMLINUX" -i "$inst" --json "$core" |
				grep -c '^{"instance"')
			[ "$nj" = "$(wc -l <"$tmp/got.$inst")" ] ||
				bad="buffer $inst (bin): $(wc -l <"$tmp/got.$inst") timeline lines, $nj events"
		elif ! cmp -s "$tmp/want.$inst" "$tmp/got.$inst"; then
			bad="buffer $inst: not its own text: $(first_diff "$tmp/want.$inst" "$tmp/got.$inst")"
		fi
		events=$((events + $(wc -l <"$tmp/got.$inst")))
	done
	if [ -n "$bad" ]; then
		nok "$c: --timeline: $bad"
	else
		ok "$c: --timeline: $records log records ($lines lines) and $events event lines, each source in its order; merged:${merged:- none}"
	fi
done

# a damaged printk ring: three records broken, the rest written, exit 10
if "$(dirname "$0")/../scripts/make-damaged-printk" >"$tmp/mk" 2>&1; then
	V61=$(. "$VMCORES/k6.1/case.env"; echo "$VMLINUX")
	D=$KTRACE_CACHE/damaged-printk
	"$KTRACE_BIN" -x "$V61" --dmesg "$D/k6.1-printk.elf" >"$tmp/got" 2>"$tmp/err"
	rc=$?
	"$KTRACE_BIN" -x "$V61" --dmesg "$VMCORES/k6.1/vmcore.elf" 2>/dev/null |
		grep -vF -f "$D/k6.1-printk.lost" >"$tmp/want"
	bad=
	[ $rc = 10 ] || bad="exit status $rc, not 10"
	for re in "holds another id: skipped" "not aligned: skipped" "holds id 0x[0-9a-f]+: skipped" \
		  "corrupt \(skipped\): 3, " "kernel log: descriptor [0-9]+ \(id 0x[0-9a-f]+\) at 0x[0-9a-f]+: "; do
		[ -n "$bad" ] || grep -Eq -- "$re" "$tmp/err" || bad="stderr lacks '$re': $(head -c 300 "$tmp/err")"
	done
	[ -n "$bad" ] || cmp -s "$tmp/want" "$tmp/got" ||
		bad="not every other record written: $(first_diff "$tmp/want" "$tmp/got")"
	if [ -n "$bad" ]; then
		nok "damaged printk ring: $bad"
	else
		ok "damaged printk ring: exit 10, the 3 broken records named and skipped, the other $(wc -l <"$tmp/got") lines written"
	fi
else
	skip "damaged printk ring: $(tail -n 1 "$tmp/mk")"
fi
finish
