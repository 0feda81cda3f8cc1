#!/bin/sh
# The blk tracer fixtures' reproducer (ktrace-qemu --run, in the guest):
# ftrace's blk tracer (current_tracer=blk) on the truth disk /dev/vda
# (unmounted; /sys/block/vda/trace/enable, act_mask left at its default
# of every action) records TRACE_BLK entries in the global ring buffer
# while a workload writes and reads 4 KiB with O_DIRECT at sector
# BASE + 8 * SEQ in the disk's last MiBs (free space of its empty ext4),
# every fourth write followed by fsync (a flush to the disk), every fifth
# read back.
# The recipe's OPTIONS go to trace_options after the tracer is set
# (blk_classic is a tracer option). Then the last marker, tracing frozen,
# the kernel's trace file and stats saved as truth/global.* as the marker
# fixtures have them, and the host's --crash-after-run panics the guest.
. /workload.env
T=/sys/kernel/tracing
log() { echo "ktrace-guest: $*" >/dev/kmsg; }
fail() { log "FAILED: $*"; exit 1; }
[ -e $T/trace ] || mount -t tracefs nodev $T || fail "no tracefs"
[ -e /sys/block/vda/trace/enable ] || fail "no /sys/block/vda/trace (CONFIG_BLK_DEV_IO_TRACE)"
N=${BLK_WRITES:-40}
echo 0 >$T/tracing_on
echo "$BUFFER_KB" >$T/buffer_size_kb || fail "buffer_size_kb=$BUFFER_KB"
echo blk >$T/current_tracer || fail "current_tracer=blk"
for o in $OPTIONS; do
	echo "$o" >$T/trace_options || fail "trace_options $o"
done
echo >$T/trace
# 5.10's sysfs store finds the queue through bdev->bd_disk, set while the
# disk is open (blk_trace_get_queue()): keep it open until disabled
exec 3</dev/vda
echo 1 >/sys/block/vda/trace/enable || fail "/sys/block/vda/trace/enable"
echo 1 >$T/tracing_on
size=$(cat /sys/block/vda/size)
base=$((size - 8192))
s=0
while [ $s -lt "$N" ]; do
	conv=notrunc
	[ $((s % 4)) = 3 ] && conv=notrunc,fsync
	dd if=/dev/zero of=/dev/vda bs=4096 count=1 seek=$(((base + 8 * s) / 8)) \
		oflag=direct conv=$conv 2>/dev/null || fail "write $s"
	[ $((s % 5)) = 4 ] && { dd if=/dev/vda of=/dev/null bs=4096 count=1 \
		skip=$(((base + 8 * s) / 8)) iflag=direct 2>/dev/null || fail "read $s"; }
	s=$((s + 1))
done
echo "$LAST_MARKER_GLOBAL" >$T/trace_marker
echo 0 >$T/tracing_on
echo 0 >/sys/block/vda/trace/enable
exec 3<&-
mkdir -p /truth
mount -t ext4 /dev/vda /truth || fail "cannot mount the truth disk"
cat $T/trace >/truth/global.trace
cat $T/buffer_size_kb >/truth/global.buffer_size_kb
cat $T/trace_clock >/truth/global.trace_clock
cat $T/trace_options >/truth/global.trace_options
for s in $T/per_cpu/cpu*; do
	cat $s/stats >/truth/global.${s##*/}.stats
done
uname -r >/truth/uname-r
cat /proc/cmdline >/truth/cmdline
umount /truth
sync
log "truth saved"
