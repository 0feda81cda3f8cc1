#!/bin/sh
# The snapshot fixtures' reproducer (ktrace-qemu --run, in the guest): the
# global buffer and instance $INSTANCE record events and markers, each takes
# a snapshot half-way (echo 1 > snapshot: tr->max_buffer swapped with the
# live buffer, update_max_tr()), records more, and both freeze; the kernel's
# trace and snapshot files of both are the truth (global.trace,
# global.snapshot, $INSTANCE.trace, $INSTANCE.snapshot). Settings come from
# the recipe through /workload.env. The host's --crash-after-run panics the
# guest once this exits.
. /workload.env
T=/sys/kernel/tracing
I=$T/instances/$INSTANCE
log() { echo "ktrace-guest: $*" >/dev/kmsg; }
fail() { log "FAILED: $*"; exit 1; }
[ -e $T/trace ] || mount -t tracefs nodev $T || fail "no tracefs"
[ -e $T/snapshot ] || fail "no $T/snapshot (CONFIG_TRACER_SNAPSHOT)"
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
setup $T "$BUFFER_KB" "$EVENTS"
[ -d $I ] || mkdir $I || fail "mkdir $I"
setup $I "${INSTANCE_BUFFER_KB:-$BUFFER_KB}" "$INSTANCE_EVENTS"
markers $T/trace_marker "$MARKERS" "ktrace-marker $CASE before"
markers $I/trace_marker "$INSTANCE_MARKERS" "ktrace-inst-marker $CASE before"
echo "ktrace-marker $CASE snapshot-last" >$T/trace_marker
echo "ktrace-inst-marker $CASE snapshot-last" >$I/trace_marker
echo 1 >$T/snapshot || fail "snapshot of the global buffer"
echo 1 >$I/snapshot || fail "snapshot of $INSTANCE"
markers $T/trace_marker "$MARKERS" "ktrace-marker $CASE after"
markers $I/trace_marker "$INSTANCE_MARKERS" "ktrace-inst-marker $CASE after"
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
	cat $d/snapshot >/truth/$b.snapshot
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
