#!/bin/sh
# The krec fixtures' reproducer (ktrace-qemu --run, in the guest): krec.ko
# and krec_demo.ko are loaded; records from both modules on both CPUs until
# the ring wraps, demo_irq disabled half-way, a last mark, recording off,
# then krec's own rendering (the ground truth) to the truth disk. The
# host's --crash-after-run panics the guest once this exits.
D=/sys/kernel/debug
K=$D/krec
log() { echo "ktrace-guest: $*" >/dev/kmsg; }
[ -e $K/trace ] || mount -t debugfs none $D
[ -e $K/trace ] || { log "FAILED: no $K/trace (krec.ko not loaded)"; exit 1; }
[ -e $D/krec_demo/burst ] || { log "FAILED: krec_demo.ko not loaded"; exit 1; }
# burst FILE N: N rounds on each CPU, in parallel
burst() {
	for c in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$c" sh -c "echo $2 >$1" &
	done
	wait
}
burst $K/burst "${KREC_NOTES:-300}"
burst $D/krec_demo/burst "${KREC_ROUNDS:-400}"
echo 0 >$K/events/demo_irq/enable
burst $D/krec_demo/burst 60
burst $K/burst 50
last="krec-last-mark $(cat /proc/sys/kernel/random/uuid)"
echo "$last" >$K/mark
echo 0 >$K/enabled
mkdir -p /truth
mount -t ext4 /dev/vda /truth || { log "FAILED: cannot mount the truth disk"; exit 1; }
cat $K/trace >/truth/krec.trace
cat $K/stats >/truth/krec.stats
cat $K/table >/truth/krec.table
for e in $K/events/*; do cat "$e/format"; echo; done >/truth/krec.formats
echo "$last" >/truth/krec.last
uname -r >/truth/uname-r
umount /truth
sync
log "truth saved"
