#!/bin/sh
# The persistent ring buffer fixture's reproducer (ktrace-qemu --run, in the
# guest; 6.12+). The recipe's APPEND puts reserve_mem=SIZE:ALIGN:NAME and
# trace_instance=INSTANCE@NAME on the kernel command line: the instance's
# ring buffer is range-mapped into the reserved memory (struct
# ring_buffer_meta before each CPU's sub-buffers, ring_buffer.c). Events
# are enabled in it and markers written to its trace_marker, and in the
# global buffer too; both freeze, and the kernel's trace files, the
# instance's last_boot_info and per-CPU stats are the truth. The host's
# --crash-after-run panics the guest once this exits.
. /workload.env
T=/sys/kernel/tracing
# the boot instance (INSTANCE of /workload.env is empty: /init would mkdir
# it), its events and markers
INSTANCE=$(sed -n 's/.*trace_instance=\([^@^ ,]*\).*/\1/p' /proc/cmdline)
INSTANCE_EVENTS="sched:sched_switch timer:hrtimer_start"
INSTANCE_MARKERS=3000
I=$T/instances/$INSTANCE
log() { echo "ktrace-guest: $*" >/dev/kmsg; }
fail() { log "FAILED: $*"; exit 1; }
[ -e $T/trace ] || mount -t tracefs nodev $T || fail "no tracefs"
[ -n "$INSTANCE" ] && [ -d $I ] || fail "no boot instance $I (trace_instance= on the command line)"
[ -e $I/last_boot_info ] || fail "$I has no last_boot_info: not boot-mapped"
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
# setup DIR KB EVENTS (KB empty: the size the kernel chose is kept; a
# range-mapped buffer cannot be resized)
setup() {
	echo 0 >$1/tracing_on
	[ -z "$2" ] || echo "$2" >$1/buffer_size_kb || fail "buffer_size_kb=$2 in $1"
	for e in $3; do
		echo 1 >$1/events/$(echo "$e" | tr : /)/enable || fail "event $e in $1"
	done
	echo >$1/trace
	echo 1 >$1/tracing_on
}
setup $T "$BUFFER_KB" "$EVENTS"
setup $I "" "$INSTANCE_EVENTS"
markers $T/trace_marker "$MARKERS" "ktrace-marker $CASE"
markers $I/trace_marker "$INSTANCE_MARKERS" "ktrace-inst-marker $CASE"
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
cat $I/last_boot_info >/truth/$INSTANCE.last_boot_info
for s in $I/per_cpu/cpu*; do
	[ -e $s/buffer_meta ] && cat $s/buffer_meta >/truth/$INSTANCE.${s##*/}.buffer_meta
done
uname -r >/truth/uname-r
cat /proc/cmdline >/truth/cmdline
umount /truth
sync
log "truth saved"
