#!/bin/sh
# The LTTng fixture's workload (scripts/make-lttng-vmcore), run as the
# guest's PID 1 after the initramfs switched to the Debian 12 root: a kernel
# session in snapshot mode (its channels are overwrite channels), sched, irq
# and a few syscalls enabled; marks are openat() calls on the paths
# /ktrace-lttng-mark-N, which LTTng records as syscall_entry_openat with the
# path in the filename field. After the first LTTNG_MARKS marks, `lttng
# snapshot record` writes the truth to the second disk; then as many marks
# again, a last one, and a panic (sysrq c) with the session still running.
# ftrace records sched_process_exec and a trace_marker line beside it
# (its own trace file is saved as truth too).
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH HOME=/root LC_ALL=C
log() { echo "ktrace-guest: $*" >/dev/kmsg; }
fail() { log "FAILED: $*"; sleep 2; echo o >/proc/sysrq-trigger; }
mount -t proc proc /proc 2>/dev/null
mount -t sysfs sysfs /sys 2>/dev/null
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -o remount,rw / 2>/dev/null
echo 1 >/proc/sys/kernel/sysrq
log "init started"
marks=$(sed -n 's/.*ktrace_lttng_marks=\([0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$marks" ] || marks=40
n=0
mark() { # COUNT: COUNT openat() marks, each on a path of its own
	i=0
	while [ $i -lt "$1" ]; do
		n=$((n + 1))
		# true, not ":": a failed redirection of a special builtin ends sh
		true </ktrace-lttng-mark-$n 2>/dev/null
		i=$((i + 1))
	done
}
# lttng-sessiond loads the lttng modules itself (modprobe; depmod ran when
# the image was made)
lttng-sessiond --daemonize >/tmp/sessiond.log 2>&1 || fail "lttng-sessiond: $(tail -n 3 /tmp/sessiond.log)"
lttng create ktrace --snapshot -o /tmp/snap >/tmp/lttng.log 2>&1 || fail "lttng create: $(cat /tmp/lttng.log)"
lttng enable-channel -k chan0 --subbuf-size=64k --num-subbuf=16 >>/tmp/lttng.log 2>&1 ||
	fail "lttng enable-channel: $(cat /tmp/lttng.log)"
lttng enable-event -k -c chan0 sched_switch,sched_wakeup,sched_process_exec,irq_handler_entry,irq_handler_exit \
	>>/tmp/lttng.log 2>&1 || fail "lttng enable-event: $(cat /tmp/lttng.log)"
lttng enable-event -k -c chan0 --syscall openat,execve,exit_group >>/tmp/lttng.log 2>&1 ||
	fail "lttng enable-event --syscall: $(cat /tmp/lttng.log)"
lttng start >>/tmp/lttng.log 2>&1 || fail "lttng start: $(cat /tmp/lttng.log)"
# ftrace beside LTTng: process exec events and a marker, saved as truth
T=/sys/kernel/tracing
echo 1 >$T/events/sched/sched_process_exec/enable
echo 1 >$T/tracing_on
log "workload start"
mark "$marks"
lttng snapshot record >>/tmp/lttng.log 2>&1 || fail "lttng snapshot record: $(cat /tmp/lttng.log)"
mkdir -p /truth
mount -t ext4 /dev/vdb /truth || fail "cannot mount the truth disk"
cp -a /tmp/snap /truth/snapshot
echo "$n" >/truth/marks-at-snapshot
lttng list ktrace >/truth/lttng-list.txt 2>&1
cp /tmp/lttng.log /truth/
uname -r >/truth/uname-r
mark "$marks"
echo "$((n + 1))" >/truth/last-mark
echo "ktrace-lttng-ftrace-mark $n" >$T/trace_marker
cat $T/trace >/truth/ftrace.trace
umount /truth
sync
log "truth saved"
mark 1
log "reproducer exited"
echo c >/proc/sysrq-trigger
