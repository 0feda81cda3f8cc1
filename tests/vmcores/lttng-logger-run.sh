#!/bin/sh
# The LTTng reproducer of another machine's guest (ktrace-qemu --run, in the
# busybox initramfs; tests/vmcores/k6.12-s390x-lttng.recipe, k6.12-ppc64el-64k-lttng). The guest
# runs Debian's lttng-tools of its architecture (sid's, GUEST_BINS: in
# /ktrace/files/root with their loader and libraries, linked into /usr and
# /lib); the lttng modules
# (LTTNG_MODULES=1: scripts/build-lttng-modules, cross-built) were loaded by
# /init, so lttng-sessiond finds them loaded (libkmod, once depmod wrote
# its index files). A kernel session in snapshot mode (overwrite channel chan0, 4
# sub-buffers of 64 KiB a CPU) records sched, irq and lttng_logger events.
# The marks are lttng_logger events: "ktrace-lttng-mark-N" plus padding
# written to /proc/lttng-logger (lttng-modules has no syscall table for
# s390x, so the amd64 fixture's openat marks do not exist there), in
# chunks pinned to CPU 0 and CPU 1 in turn, in order of N. The first
# phase wraps both CPUs' buffers; `lttng snapshot record` then takes the
# truth, the newest 3 packets of each CPU (the fourth, the oldest, gives
# its place to the next packet); the second phase is small enough to stay
# in that next packet, so that every packet the snapshot holds is still in
# the dump. Then a last mark, the
# truth saved (snapshot, marks-at-snapshot, last-mark, the kernel's own
# ftrace file with a marker, also as global.trace, and lttng.trace/.last/.stats for
# make-vmcores: the marks in order; overrun: the packets overwritten
# before the snapshot's oldest, from each stream's first packet_seq_num),
# and the guest panics (make-vmcores: --crash-after-run).
log() { echo "ktrace-guest: $*" >/dev/kmsg; }
# on a failure, the logs of the lttng commands to the console too
fail() {
	log "FAILED: $*"
	for f in /tmp/*.log; do
		[ -f "$f" ] && echo "== $f" && cat "$f"
	done
	exit 1
}
# linked, not copied: the initramfs is in the guest's RAM, and the
# modules (with their DWARF) and lttng-tools' libraries fill half of it
R=/ktrace/files/root
[ -e /usr ] || ln -s $R/usr /usr || fail "cannot link /usr"
# ppc64el's loader is /lib64/ld64.so.2 (its PT_INTERP), s390x's in /lib
for d in lib lib64; do
	[ -d "$R/$d" ] || continue
	mkdir -p "/$d"
	for f in "$R/$d"/*; do
		[ -e "/$d/${f##*/}" ] || ln -s "$f" "/$d/" || fail "cannot link $f"
	done
done
export PATH=/usr/bin:/bin HOME=/root LC_ALL=C
mkdir -p /root /run /var/run /dev/shm /tmp
mount -t tmpfs tmpfs /dev/shm
[ -e /proc/lttng ] || fail "no /proc/lttng: the lttng modules are not loaded"
# lttng-sessiond asks libkmod for the modules, which needs the index files
# of /lib/modules/RELEASE even for modules already loaded: sid's depmod
# (kmod, GUEST_BINS) writes them for the modules /init loaded (hard links)
rel=$(uname -r)
mkdir -p "/lib/modules/$rel/extra"
for m in /lib/modules/*.ko; do
	ln "$m" "/lib/modules/$rel/extra/" || fail "cannot link $m"
done
touch "/lib/modules/$rel/modules.order" "/lib/modules/$rel/modules.builtin" "/lib/modules/$rel/modules.builtin.modinfo"
ln -s /usr/bin/kmod /tmp/depmod
/tmp/depmod -a "$rel" >/tmp/depmod.log 2>&1 || fail "depmod: $(cat /tmp/depmod.log)"
[ -e /proc/lttng-logger ] || fail "no /proc/lttng-logger"
T=/sys/kernel/tracing
pad=$(head -c 64 /dev/zero | tr '\0' .)
n=0
# chunk CPU COUNT: marks n+1..n+COUNT written from CPU
chunk() {
	taskset -c "$1" sh -c "i=$n; e=$((n + $2))
		while [ \$i -lt \$e ]; do
			i=\$((i + 1))
			printf 'ktrace-lttng-mark-%d $pad' \$i >/proc/lttng-logger || exit 1
		done" || fail "marks on cpu $1"
	n=$((n + $2))
}
# marks ROUNDS PER: ROUNDS times PER marks on CPU 0, then PER on CPU 1
marks() {
	r=0
	while [ $r -lt "$1" ]; do
		chunk 0 "$2"
		chunk 1 "$2"
		r=$((r + 1))
	done
}
lttng-sessiond --background >/tmp/sessiond.log 2>&1 || fail "lttng-sessiond: $(tail -n 3 /tmp/sessiond.log)"
lttng create ktrace --snapshot -o /tmp/snap >/tmp/lttng.log 2>&1 || fail "lttng create: $(cat /tmp/lttng.log)"
lttng enable-channel -k chan0 --overwrite --subbuf-size=64k --num-subbuf=4 >>/tmp/lttng.log 2>&1 ||
	fail "lttng enable-channel: $(cat /tmp/lttng.log)"
lttng enable-event -k -c chan0 \
	sched_switch,sched_wakeup,sched_process_exec,sched_process_fork,sched_process_exit,irq_handler_entry,irq_handler_exit,lttng_logger \
	>>/tmp/lttng.log 2>&1 || fail "lttng enable-event: $(cat /tmp/lttng.log)"
lttng start >>/tmp/lttng.log 2>&1 || fail "lttng start: $(cat /tmp/lttng.log)"
echo 1 >$T/events/sched/sched_process_exec/enable
echo 1 >$T/tracing_on
log "lttng session started"
# about 110 bytes an event: 256 KiB a CPU wraps after some 2400 marks
marks 8 400
# The snapshot's flush closes each CPU's packet without beginning another
# (SWITCH_FLUSH): the buffer holds 4 whole packets, and the next event
# begins a packet in the oldest one's place. The snapshot takes the newest
# 3 of each stream (--max-size: 3 x 64 KiB x 2 streams fit, 4 do not), the
# packets still whole at the panic.
lttng snapshot record --max-size=448K >>/tmp/lttng.log 2>&1 || fail "lttng snapshot record: $(cat /tmp/lttng.log)"
at_snap=$n
mkdir -p /truth
mount -t ext4 /dev/vda /truth || fail "cannot mount the truth disk"
cp -a /tmp/snap /truth/snapshot || fail "cannot save the snapshot"
echo "$at_snap" >/truth/marks-at-snapshot
lttng list ktrace >/truth/lttng-list.txt 2>&1
uname -r >/truth/uname-r
# the packets overwritten before the snapshot's oldest: each stream's first
# packet_seq_num (offset 64 of struct packet_header, the kernel's order)
over=0
for f in /truth/snapshot/*/kernel/chan0_*; do
	[ -s "$f" ] || continue
	s=$(od -A n -t x1 -j 64 -N 8 "$f" | tr -d ' \n')
	case $(printf '\1\0' | od -A n -t x2 | tr -d ' \n') in
	0100) ;;	# a big-endian machine: the bytes in order are the value
	*) s=$(echo "$s" | sed 's/\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)/\8\7\6\5\4\3\2\1/') ;;
	esac
	over=$((over + 0x$s))
done
# the second phase: within the packet the snapshot's flush began
marks 1 20
last=$((n + 1))
printf 'ktrace-lttng-mark-%d %s' "$last" "$pad" >/proc/lttng-logger || fail "last mark"
n=$last
echo "$last" >/truth/last-mark
echo "ktrace-lttng-ftrace-mark $n" >$T/trace_marker
cat $T/trace >/truth/ftrace.trace
# the global buffer's trace under the name the ftrace tests know (t-target
# takes a recorder's case without it for one that left ftrace untouched)
cp /truth/ftrace.trace /truth/global.trace
cp /tmp/lttng.log /tmp/sessiond.log /truth/
i=1
while [ $i -le "$n" ]; do
	echo "mark: ktrace-lttng-mark-$i"
	i=$((i + 1))
done >/truth/lttng.trace
echo "last: ktrace-lttng-mark-$last" >>/truth/lttng.trace
echo "ktrace-lttng-mark-$last" >/truth/lttng.last
{
	echo "overrun: $over"
	echo "marks-at-snapshot: $at_snap"
	echo "last-mark: $last"
} >/truth/lttng.stats
umount /truth
sync
log "truth saved"
