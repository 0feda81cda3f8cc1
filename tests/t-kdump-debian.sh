#!/bin/bash
# The Debian kdump-tools integration without a VM: install it into a
# DESTDIR, make profiles the way the kernel postinst hook does on a machine
# without the -dbg package (BTF of the vmlinux inside vmlinuz, System.map),
# then run the ExecStartPre= script on each fixture's ELF vmcore standing
# for /proc/vmcore: the text must hold every line of the kernel's own trace
# in order; trace.dat must be there; time and peak memory are reported.
# Then the failure paths: no profile, a broken profile, no time, too small
# a size limit: the script still exits 0 and says why.
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
D=$tmp/root
if DESTDIR=$D "$top/kdump-hooks/debian/install" "$KTRACE_BIN" >"$tmp/install.log" 2>&1; then
	ok "debian/install into a DESTDIR: $(cd "$D" && find . -type f | sort | tr '\n' ' ')"
else
	nok "debian/install: $(tail -n 2 "$tmp/install.log")"; finish
fi
grep -q '^ExecStartPre=-/usr/lib/ktrace/kdump-tools-ktrace$' \
	"$D/lib/systemd/system/kdump-tools-dump.service.d/ktrace.conf" &&
	ok "drop-in: ExecStartPre=- on kdump-tools-dump.service (runs before savecore, failure ignored)" ||
	nok "drop-in for kdump-tools-dump.service missing"

export KTRACE_EXTRACT=$KTRACE_BIN KTRACE_LIBDIR=$D/usr/lib/ktrace
export KTRACE_PROFILES=$D/var/lib/ktrace/profiles EXTRACT_VMLINUX=$D/usr/lib/ktrace/extract-vmlinux
# contains FILE TRUTH: every truth line in the file, in order
contains() {
	awk 'BEGIN { n = 0; i = 0 } NR==FNR { t[n++] = $0; next }
	     i < n && $0 == t[i] { i++ }
	     END { if (i < n) { printf "truth line %d not found in order: %s", i + 1, t[i]; exit 1 } }' "$2" "$1"
}

declare -A seen
n=0
for c in $(cases); do
	unset CASE RELEASE KERNEL SYSTEM_MAP INSTANCES ARCH VMLINUX
	. "$VMCORES/$c/case.env"
	[ -n "${seen[$RELEASE]:-}" ] && continue
	[ -f "$VMCORES/$c/vmcore.elf" ] && [ -f "$KERNEL" ] && [ -f "$SYSTEM_MAP" ] || continue
	seen[$RELEASE]=1
	n=$((n + 1))
	boot=$tmp/boot-$c
	mkdir -p "$boot"
	ln -s "$KERNEL" "$boot/vmlinuz-$RELEASE"
	ln -s "$SYSTEM_MAP" "$boot/System.map-$RELEASE"
	t0=$(date +%s.%N)
	if KTRACE_BOOT=$boot "$D/usr/sbin/ktrace-profile-update" "$RELEASE" 2>"$tmp/pu.err" &&
		grep -q "^source	btf " "$KTRACE_PROFILES/$RELEASE.profile"; then
		ok "$c: ktrace-profile-update $RELEASE: BTF from vmlinuz + System.map, $(stat -c %s "$KTRACE_PROFILES/$RELEASE.profile") bytes, $(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)") s"
	else
		nok "$c: ktrace-profile-update: $(cat "$tmp/pu.err")"; continue
	fi
	crash=$tmp/crash-$c
	t0=$(date +%s.%N)
	KTRACE_VMCORE=$VMCORES/$c/vmcore.elf KDUMP_COREDIR=$crash KTRACE_MAX_SIZE=512M \
		/usr/bin/time -f '%M' -o "$tmp/rss" "$D/usr/lib/ktrace/kdump-tools-ktrace" 2>"$tmp/run.err"
	rc=$?
	secs=$(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)")
	dir=$(ls -d "$crash"/2* 2>/dev/null | head -n 1)
	stamp=${dir##*/}
	if [ $rc != 0 ] || [ -z "$dir" ] || [ ! -s "$dir/ktrace.$stamp/trace.txt" ] || [ ! -s "$dir/ktrace.$stamp/trace.dat" ]; then
		nok "$c: kdump-tools-ktrace: status $rc, $(ls -A "$crash" "$dir" 2>&1 | tr '\n' ' '): $(tail -n 2 "$tmp/run.err")"
		continue
	fi
	bad=
	for inst in $INSTANCES; do
		why=$(contains "$dir/ktrace.$stamp/trace.txt" "$VMCORES/$c/truth/$inst.trace") || bad="$bad $inst: $why"
	done
	if [ -n "$bad" ]; then
		nok "$c: ktrace.$stamp/trace.txt:$bad"
	else
		ok "$c: $dir: ktrace.$stamp/trace.txt ($(stat -c %s "$dir/ktrace.$stamp/trace.txt") B) holds the kernel's trace of $INSTANCES, ktrace.$stamp/trace.dat ($(stat -c %s "$dir/ktrace.$stamp/trace.dat") B); ${secs} s for both, peak RSS of one extraction $(cat "$tmp/rss") KB (the script's /usr/bin/time)"
	fi
	if (cd "$dir/ktrace.$stamp" && sha256sum -c --quiet manifest.sha256) >/dev/null 2>&1 &&
		grep -q "^release: $RELEASE$" "$dir/ktrace.$stamp/summary.txt" &&
		[ -s "$dir/ktrace.$stamp/$RELEASE.profile" ]; then
		ok "$c: the ticket ktrace.$stamp/: summary.txt names $RELEASE, the profile used is in it, manifest.sha256 verifies"
	else
		nok "$c: the ticket ktrace.$stamp/ lacks summary, profile or a verifying manifest: $(ls "$dir/ktrace.$stamp" | tr '\n' ' ')"
	fi
	ls -A "$dir" | grep -q '\.tmp' && nok "$c: temporary files left in $dir"
done
[ $n = 0 ] && { echo "skip - no fixture with vmcore.elf, vmlinuz and System.map"; exit 77; }

# failure paths: the script exits 0, the dump would go on, the log says why
c=$(kdump_case)
[ -n "$c" ] || c=$(cases | head -n 1)
. "$VMCORES/$c/case.env"
core=$VMCORES/$c/vmcore.elf
try() {	# NAME WANT-IN-LOG ENV...
	local name=$1 want=$2; shift 2
	local crash=$tmp/fail-$name
	env "$@" KTRACE_VMCORE="$core" KDUMP_COREDIR="$crash" \
		"$D/usr/lib/ktrace/kdump-tools-ktrace" >"$tmp/f.out" 2>&1
	local rc=$? d
	d=$(ls -d "$crash"/2* 2>/dev/null | head -n 1)
	if [ $rc = 0 ] && grep -q -- "$want" "$tmp/f.out" "$d"/ktrace.*.log 2>/dev/null &&
		! ls "$d" 2>/dev/null | grep -q '\.tmp'; then
		ok "failure path $name: status 0, says '$want'"
	else
		nok "failure path $name: status $rc: $(tail -n 2 "$tmp/f.out")"
	fi
}
mkdir -p "$tmp/broken"
for p in "$KTRACE_PROFILES"/*.profile; do
	sed 's/^\(member\tstruct list_head\tnext\t\)0/\18/' "$p" >"$tmp/broken/${p##*/}"
done
try broken-profile 'checksum mismatch' KTRACE_PROFILES="$tmp/broken"
mkdir -p "$tmp/empty"
try no-profile 'no usable profile; trying the vmlinux' KTRACE_PROFILES="$tmp/empty"
try timeout 'timed out\|no time left' KTRACE_TIMEOUT=0
try size-limit 'cut to the last 4K\|not kept' KTRACE_MAX_SIZE=4K
# a run that never ends (the dump a FIFO nobody writes: open(2) waits):
# ktrace-extract's own --time-limit (SIGALRM) ends it, the hook goes on
mkfifo "$tmp/stuck"
t0=$(date +%s)
KTRACE_TIMEOUT=3 KTRACE_VMCORE="$tmp/stuck" KDUMP_COREDIR="$tmp/fail-stuck" \
	timeout 60 "$D/usr/lib/ktrace/kdump-tools-ktrace" >"$tmp/f.out" 2>&1
rc=$? el=$(($(date +%s) - t0))
if [ $rc = 0 ] && [ $el -le 20 ] && grep -q 'timed out after 3s' "$tmp/f.out"; then
	ok "failure path stuck: a run that blocks is ended after KTRACE_TIMEOUT=3 (${el} s), status 0, says 'timed out after 3s'"
else
	nok "failure path stuck: status $rc after ${el} s: $(tail -n 2 "$tmp/f.out")"
fi
d=$(ls -d "$tmp"/fail-size-limit/2*/ktrace.* 2>/dev/null | grep -v '\.log$' | head -n 1)
if [ -n "$d" ] && [ ! -e "$d/trace.dat" ] && head -n1 "$d/trace.txt" | grep -q 'output cut' &&
	(cd "$d" && sha256sum -c --quiet manifest.sha256) >/dev/null 2>&1; then
	ok "size-limit: trace.txt cut, trace.dat dropped, the manifest made again verifies"
else
	nok "size-limit: the cut ticket '$d' is not as it should be: $(ls "$d" 2>&1 | tr '\n' ' ')"
fi
# the layout before the ticket, still there on request: one run per file
c2=$tmp/legacy
KTRACE_FORMATS="txt dat" KTRACE_MAX_SIZE=512M KTRACE_VMCORE="$core" KDUMP_COREDIR="$c2" \
	"$D/usr/lib/ktrace/kdump-tools-ktrace" 2>/dev/null
d=$(ls -d "$c2"/2* 2>/dev/null | head -n 1)
if [ -n "$d" ] && [ -s "$d/ktrace.${d##*/}.txt" ] && [ -s "$d/ktrace.${d##*/}.dat" ]; then
	ok "KTRACE_FORMATS=\"txt dat\": ktrace.<stamp>.txt and .dat"
else
	nok "KTRACE_FORMATS=\"txt dat\": $(ls -A "$d" 2>&1 | tr '\n' ' ')"
fi
# the hook's last line: wall time, and the processor time of its own and of
# ktrace-extract (what the capture pays, apart from what others took); no
# sync(1): ktrace-extract --fsync synced the ticket and the log
if grep -q 'ktrace: saved ktrace\.[0-9]*/ in .* in [0-9.]* s, processor time [0-9.]* s (ktrace-extract [0-9.]* s, processor time [0-9.]* s)$' "$tmp/run.err"; then
	ok "the hook says its wall and processor time, and ran no sync(1): $(grep -o 'in [0-9.]* s, processor.*' "$tmp/run.err")"
else
	nok "the hook's last line lacks wall or processor time, or it ran sync(1): $(tail -n 1 "$tmp/run.err")"
fi

# --tidy (at boot, kdump-tools.service): a trace left alone in the minute
# before its dump's directory goes beside the dump; nothing else moves
grep -q '^ExecStartPre=-/usr/lib/ktrace/kdump-tools-ktrace --tidy$' \
	"$D/lib/systemd/system/kdump-tools.service.d/ktrace.conf" &&
	ok "drop-in: kdump-tools.service runs kdump-tools-ktrace --tidy at boot" ||
	nok "drop-in for kdump-tools.service lacks --tidy"
T=$tmp/tidy
mk() { mkdir -p "$T/$(dirname "$1")"; case $1 in */) mkdir -p "$T/$1" ;; *) : >"$T/$1" ;; esac; }
# split over a year's end: moved, renamed by the dump's stamp
mk 202612312359/ktrace.202612312359/trace.txt; mk 202612312359/ktrace.202612312359.log
mk 202701010000/dmesg.202701010000; mk 202701010000/dump.202701010000
# the next minute already has a trace: left
mk 202611241000/ktrace.202611241000/trace.txt; mk 202611241001/dmesg.202611241001
mk 202611241001/ktrace.202611241001.log
# no dump in the next minute, two minutes later: left
mk 202611241100/ktrace.202611241100/trace.txt; mk 202611241102/dump.202611241102
# not alone (the dump beside it): left
mk 202611241200/ktrace.202611241200/trace.txt; mk 202611241200/dump-incomplete
mk 202611241201/dmesg.202611241201
# the dump failed half-way in the next minute: moved
mk 202611241300/ktrace.202611241300.txt; mk 202611241301/vmcore-incomplete
KDUMP_COREDIR=$T "$D/usr/lib/ktrace/kdump-tools-ktrace" --tidy 2>"$tmp/tidy.err"
rc=$?
got=$(cd "$T" && find . -mindepth 1 | sort | tr '\n' ' ')
want="./202611241000 ./202611241000/ktrace.202611241000 ./202611241000/ktrace.202611241000/trace.txt ./202611241001 ./202611241001/dmesg.202611241001 ./202611241001/ktrace.202611241001.log ./202611241100 ./202611241100/ktrace.202611241100 ./202611241100/ktrace.202611241100/trace.txt ./202611241102 ./202611241102/dump.202611241102 ./202611241200 ./202611241200/dump-incomplete ./202611241200/ktrace.202611241200 ./202611241200/ktrace.202611241200/trace.txt ./202611241201 ./202611241201/dmesg.202611241201 ./202611241301 ./202611241301/ktrace.202611241301.txt ./202611241301/vmcore-incomplete ./202701010000 ./202701010000/dmesg.202701010000 ./202701010000/dump.202701010000 ./202701010000/ktrace.202701010000 ./202701010000/ktrace.202701010000.log ./202701010000/ktrace.202701010000/trace.txt "
if [ $rc = 0 ] && [ "$got" = "$want" ] && [ "$(grep -c 'moved beside its dump' "$tmp/tidy.err")" = 2 ]; then
	ok "--tidy: 2 traces left alone a minute before their dump moved beside it (one over a year's end), 3 other layouts left as they were"
else
	nok "--tidy: status $rc; $got; $(cat "$tmp/tidy.err")"
fi
KTRACE_ENABLED=0 KTRACE_VMCORE="$core" KDUMP_COREDIR="$tmp/fail-disabled" \
	"$D/usr/lib/ktrace/kdump-tools-ktrace"
rc=$?
[ $rc = 0 ] && [ ! -e "$tmp/fail-disabled" ] && ok "KTRACE_ENABLED=0: status 0, nothing written" ||
	nok "KTRACE_ENABLED=0: status $rc, $(ls -A "$tmp/fail-disabled" 2>&1)"
finish
