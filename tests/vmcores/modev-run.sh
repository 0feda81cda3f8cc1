#!/bin/sh
# The module-events fixtures' reproducer (ktrace-qemu --run, in the guest):
# ktrace_modev.ko (tests/kmod/ktrace-modev, loaded at boot) defines
# ktrace_modev:ktrace_modev_state with an enum, __print_symbolic(),
# __print_flags() and %pS of its own code; the guest enables it, fires it
# (echo N > /sys/module/ktrace_modev/parameters/fire) between markers, with
# ktrace_modev_num (zeros under %#x, %#06x, %.0d: the kernel's printf rules), and
# saves the kernel's trace file as the truth (global.trace).
. /workload.env
T=/sys/kernel/tracing
P=/sys/module/ktrace_modev/parameters/fire
log() { echo "ktrace-guest: $*" >/dev/kmsg; }
fail() { log "FAILED: $*"; exit 1; }
[ -e $T/trace ] || mount -t tracefs nodev $T || fail "no tracefs"
[ -e $P ] || fail "no $P (ktrace_modev.ko not loaded)"
echo 0 >$T/tracing_on
echo "$BUFFER_KB" >$T/buffer_size_kb || fail "buffer_size_kb=$BUFFER_KB"
echo 1 >$T/events/ktrace_modev/enable || fail "no ktrace_modev events"
echo >$T/trace
echo 1 >$T/tracing_on
i=0
while [ $i -lt 4 ]; do
	echo "ktrace-marker $CASE round $i" >$T/trace_marker
	echo 6 >$P
	i=$((i + 1))
done
echo "$LAST_MARKER_GLOBAL" >$T/trace_marker
echo 0 >$T/tracing_on
mkdir -p /truth
mount -t ext4 /dev/vda /truth || fail "cannot mount the truth disk"
cat $T/trace >/truth/global.trace
cat $T/events/ktrace_modev/ktrace_modev_state/format >/truth/modev.format
cat $T/buffer_size_kb >/truth/global.buffer_size_kb
cat $T/trace_clock >/truth/global.trace_clock
for s in $T/per_cpu/cpu*; do
	cat $s/stats >/truth/global.${s##*/}.stats
done
uname -r >/truth/uname-r
cat /proc/cmdline >/truth/cmdline
umount /truth
sync
log "truth saved"
