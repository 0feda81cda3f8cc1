#!/bin/sh
# The flight-channel fixtures' reproducer (ktrace-qemu --run, in the guest):
# ktrace_flight.ko is loaded (kmod/ktrace-flight: relay channels "percpu"
# and "global" in flight mode, small sub-buffers). Bursts of records on
# both CPUs go round the buffers several times, a last mark is written,
# recording is turned off, and the module's own view of what each buffer
# still holds (truth/flight.view) goes to the truth disk; the guest panics.
D=/sys/kernel/debug
K=$D/ktrace-flight
log() { echo "ktrace-guest: $*" >/dev/kmsg; }
[ -e $K/view ] || mount -t debugfs none $D
[ -e $K/view ] || { log "FAILED: no $K/view (ktrace_flight.ko not loaded)"; exit 1; }
burst() { # N: N records on each CPU, in parallel
	for c in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$c" sh -c "echo $1 >$K/burst" &
	done
	wait
}
for r in 1 2 3; do burst "${FLIGHT_RECORDS:-500}"; done
last="flight-last-mark $(cat /proc/sys/kernel/random/uuid)"
taskset -c 1 sh -c "echo '$last' >$K/mark"
echo 0 >$K/enabled
mkdir -p /truth
mount -t ext4 /dev/vda /truth || { log "FAILED: cannot mount the truth disk"; exit 1; }
cat $K/view >/truth/flight.view
awk '{ s += $NF } END { print "overrun: " s }' /truth/flight.view >/truth/flight.stats
{ cat /truth/flight.view; echo "last: mark $last"; } >/truth/flight.trace
echo "mark $last" >/truth/flight.last
uname -r >/truth/uname-r
umount /truth
sync
log "truth saved"
