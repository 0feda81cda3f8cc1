#!/bin/sh
# The 'huge' fixture's reproducer (ktrace-qemu --run, in the guest): the
# host set up the 1 GiB ring (buffer_size_kb, sched events, the function
# tracer) and turned tracing on. Work on every CPU until each CPU's buffer
# has wrapped (overrun > 0 in its stats), or 20 minutes; freeze; save as
# truth the head of the kernel's trace (its oldest lines: rendering all of
# a 1 GiB ring under TCG takes too long) and the per-CPU stats. The host's
# --crash-after-run panics the guest once this exits.
. /workload.env
T=/sys/kernel/tracing
log() { echo "ktrace-guest: $*" >/dev/kmsg; }
fail() { log "FAILED: $*"; exit 1; }
[ -e $T/trace ] || mount -t tracefs nodev $T || fail "no tracefs"
n=$(nproc)
# wrapped: how many CPUs' buffers have overrun
wrapped() {
	w=0
	for s in $T/per_cpu/cpu*/stats; do
		o=$(awk '/^overrun:/ { print $2 }' $s)
		[ "${o:-0}" -gt 0 ] && w=$((w + 1))
	done
	echo $w
}
c=0
while [ $c -lt $n ]; do
	taskset -c $c sh -c "while :; do cat /proc/self/status /proc/meminfo >/dev/null; ls /sys/kernel >/dev/null; done" &
	c=$((c + 1))
done
t=0
while [ "$(wrapped)" -lt $n ] && [ $t -lt 1200 ]; do
	sleep 5
	t=$((t + 5))
done
echo "$LAST_MARKER_GLOBAL" >$T/trace_marker
echo 0 >$T/tracing_on
kill $(jobs -p) 2>/dev/null
log "buffers wrapped on $(wrapped) of $n cpus after $t s"
mkdir -p /truth
mount -t ext4 /dev/vda /truth || fail "cannot mount the truth disk"
head -n 5000 $T/trace >/truth/global.trace
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
