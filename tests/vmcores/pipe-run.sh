#!/bin/sh
# The trace_pipe fixtures' reproducer (ktrace-qemu --run, in the guest):
# the global buffer and instance $INSTANCE record events and markers, then
# a reader consumes part of each through trace_pipe (the global one) and
# per_cpu/cpu0/trace_pipe (the instance's): ring_buffer_consume() advances
# cpu_buffer->reader_page->read and swaps in new reader pages, so whole
# pages are gone and the reader page is left partly read. A few markers
# more, the buffers freeze, and the kernel's trace files (what its
# non-consuming iterator starts at reader_page->read) are the truth, with
# the per-CPU stats ("read events") that show what was consumed. Settings
# come from the recipe through /workload.env; the global reader takes 64 KiB
# of text, the instance's 16 KiB (MARKERS and INSTANCE_MARKERS must leave
# more than that, or trace_pipe blocks). The host's --crash-after-run
# panics the guest once this exits.
. /workload.env
T=/sys/kernel/tracing
I=$T/instances/$INSTANCE
log() { echo "ktrace-guest: $*" >/dev/kmsg; }
fail() { log "FAILED: $*"; exit 1; }
[ -e $T/trace ] || mount -t tracefs nodev $T || fail "no tracefs"
# markers FILE N TEXT: N markers spread over the CPUs, in parallel
markers() {
	for c in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$c" sh -c "i=0; exec 3>$1
			while [ \$i -lt $(($2 / $(nproc) + 1)) ]; do
				echo \"$3 cpu$c \$i\" >&3; i=\$((i + 1))
			done" &
	done
	wait
}
# setup DIR KB EVENTS
setup() {
	echo 0 >$1/tracing_on
	echo "$2" >$1/buffer_size_kb || fail "buffer_size_kb=$2 in $1"
	for e in $3; do
		echo 1 >$1/events/$(echo "$e" | tr : /)/enable || fail "event $e in $1"
	done
	echo >$1/trace
	echo 1 >$1/tracing_on
}
# consume FILE BYTES: read BYTES of text from a trace_pipe, read() after
# read() (each takes as many whole events as fit, and consumes them)
consume() {
	timeout 60 head -c $2 $1 >/dev/null ||
		fail "reading $1"
}
setup $T "$BUFFER_KB" "$EVENTS"
[ -d $I ] || mkdir $I || fail "mkdir $I"
setup $I "${INSTANCE_BUFFER_KB:-$BUFFER_KB}" "$INSTANCE_EVENTS"
markers $T/trace_marker "$MARKERS" "ktrace-marker $CASE before"
markers $I/trace_marker "$INSTANCE_MARKERS" "ktrace-inst-marker $CASE before"
consume $T/trace_pipe 65536
consume $I/per_cpu/cpu0/trace_pipe 16384
markers $T/trace_marker 8 "ktrace-marker $CASE after"
markers $I/trace_marker 8 "ktrace-inst-marker $CASE after"
echo "$LAST_MARKER_GLOBAL" >$T/trace_marker
echo "$LAST_MARKER_INSTANCE" >$I/trace_marker
echo 0 >$T/tracing_on
echo 0 >$I/tracing_on
mkdir -p /truth
mount -t ext4 /dev/vda /truth || fail "cannot mount the truth disk"
for b in global $INSTANCE; do
	d=$T
	[ $b = global ] || d=$I
	cat $d/trace >/truth/$b.trace
	cat $d/buffer_size_kb >/truth/$b.buffer_size_kb
	cat $d/trace_clock >/truth/$b.trace_clock
	for s in $d/per_cpu/cpu*; do
		cat $s/stats >/truth/$b.${s##*/}.stats
	done
done
uname -r >/truth/uname-r
cat /proc/cmdline >/truth/cmdline
umount /truth
sync
log "truth saved"
