#!/bin/sh
# The bitmask-list fixture's reproducer (ktrace-qemu --run, in the guest;
# 7.x): the global buffer with option bitmask-list and instance $INSTANCE
# without it both record ipi:ipi_send_cpumask and sched_switch. Enabling
# an event patches the kernel's text (jump labels), which calls a function
# on every other CPU: with 3 or more CPUs that is an IPI to a mask of
# CPUs, and both buffers record it, the kernel printing the mask as a
# list in the global buffer ("0-1,3") and as hex in the instance. So an
# event that neither buffer records is enabled and disabled a few times,
# between markers. The buffers freeze and the kernel's trace files are
# the truth. The host's --crash-after-run panics the guest once this exits.
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
# setup DIR KB EVENTS OPTIONS
setup() {
	echo 0 >$1/tracing_on
	echo "$2" >$1/buffer_size_kb || fail "buffer_size_kb=$2 in $1"
	for e in $3; do
		echo 1 >$1/events/$(echo "$e" | tr : /)/enable || fail "event $e in $1"
	done
	for o in $4; do
		echo "$o" >$1/trace_options || fail "option $o in $1"
	done
	echo >$1/trace
}
[ "$(nproc)" -ge 3 ] || fail "$(nproc) CPUs: an IPI to a mask of CPUs needs 3 or more"
setup $T "$BUFFER_KB" "$EVENTS" "$OPTIONS"
[ -d $I ] || mkdir $I || fail "mkdir $I"
setup $I "${INSTANCE_BUFFER_KB:-$BUFFER_KB}" "$INSTANCE_EVENTS" "$INSTANCE_OPTIONS"
echo 1 >$T/tracing_on
echo 1 >$I/tracing_on
toggle=$T/events/timer/timer_init/enable
for i in 1 2 3 4 5; do
	markers $T/trace_marker $((MARKERS / 5)) "ktrace-marker $CASE $i"
	markers $I/trace_marker $((INSTANCE_MARKERS / 5)) "ktrace-inst-marker $CASE $i"
	echo 1 >$toggle || fail "enable timer_init"
	echo 0 >$toggle
done
echo "$LAST_MARKER_GLOBAL" >$T/trace_marker
echo "$LAST_MARKER_INSTANCE" >$I/trace_marker
echo 0 >$T/tracing_on
echo 0 >$I/tracing_on
n=$(grep -c ' ipi_send_cpumask: ' $T/trace)
[ "$n" -gt 0 ] || fail "no ipi_send_cpumask in the global buffer"
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
log "truth saved ($n ipi_send_cpumask records in the global buffer)"
