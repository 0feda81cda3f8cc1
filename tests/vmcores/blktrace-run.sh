#!/bin/sh
# The blktrace fixtures' reproducer (ktrace-qemu --run, in the guest; the
# host's blktrace and its libraries are in /ktrace/files/root, GUEST_BINS).
# blktrace traces /dev/vda (the truth disk, unmounted) into /tmp/bt with
# small sub-buffers; a workload writes 4 KiB with O_DIRECT at sector
# BASE + 8 * SEQ in the disk's last MiBs (free space of its empty ext4);
# half-way the daemon is stopped (SIGSTOP), so what the second half
# writes stays unread in the relay sub-buffers. The daemon's files, the
# sequence written (truth/blktrace.trace, its last line the last write) and
# blktrace's dropped count go to the truth disk, then the guest panics.
D=/sys/kernel/debug
log() { echo "ktrace-guest: $*" >/dev/kmsg; }
fail() { log "FAILED: $*"; exit 1; }
[ -d $D/block ] || mount -t debugfs none $D
cp -a /ktrace/files/root/. / || fail "cannot install blktrace"
N1=${BLK_READ_WRITES:-150}
N2=${BLK_UNREAD_WRITES:-120}
size=$(cat /sys/block/vda/size)
base=$((size - 8192))
mkdir -p /tmp/bt
/usr/sbin/blktrace -d /dev/vda -D /tmp/bt -b 8 -n 32 >/tmp/bt.log 2>&1 &
bt=$!
i=0
while [ ! -e $D/block/vda/trace0 ] && [ $i -lt 20 ]; do sleep 1; i=$((i + 1)); done
[ -e $D/block/vda/trace0 ] || fail "blktrace did not start: $(cat /tmp/bt.log)"
sleep 1
: >/tmp/seq
w() { # SEQ: one 4 KiB write at BASE + 8 * SEQ
	dd if=/dev/zero of=/dev/vda bs=4096 count=1 seek=$(((base + 8 * $1) / 8)) \
		oflag=direct 2>/dev/null || fail "write $1"
	echo "seq $1 sector $((base + 8 * $1))" >>/tmp/seq
}
s=0
while [ $s -lt "$N1" ]; do w $s; s=$((s + 1)); done
# the daemon reads what is there, then stops reading for good
sleep 2
kill -STOP $bt
sleep 1
while [ $s -lt $((N1 + N2)) ]; do w $s; s=$((s + 1)); done
last="blktrace-last-write seq $((s - 1)) sector $((base + 8 * (s - 1)))"
mkdir -p /truth
mount -t ext4 /dev/vda /truth || fail "cannot mount the truth disk"
mkdir -p /truth/saved
cp /tmp/bt/* /truth/saved/
{ cat /tmp/seq; echo "last: $last"; } >/truth/blktrace.trace
echo "$last" >/truth/blktrace.last
{
	echo "overrun: 0"
	echo "dropped: $(cat $D/block/vda/dropped)"
	echo "base: $base"
	echo "read_writes: $N1"
	echo "unread_writes: $N2"
} >/truth/blktrace.stats
ls -l /tmp/bt >>/truth/blktrace.stats
uname -r >/truth/uname-r
umount /truth
sync
log "truth saved"
