#!/bin/sh
# The dynamic events fixtures' reproducer (ktrace-qemu --run, in the guest):
# kprobe and kretprobe events with fetch arguments of many types
# (trace_probe.c: s/u/x 8..64, string, ustring, symbol, arrays, bitfields,
# $comm, $retval), an eprobe (5.15+), fprobe events (CONFIG_FPROBE_EVENTS,
# 6.12), a synthetic event fed by hist triggers (CONFIG_SYNTH_EVENTS, 6.1+),
# and the stacktrace and snapshot triggers that write to the buffer
# (trace_events_trigger.c). What the kernel accepted is saved as
# truth/dynamic_events; the kernel's trace and snapshot files are the truth
# (global.trace, global.snapshot). Settings come from the recipe through
# /workload.env; the host's --crash-after-run panics the guest afterwards.
. /workload.env
T=/sys/kernel/tracing
log() { echo "ktrace-guest: $*" >/dev/kmsg; }
fail() { log "FAILED: $*"; exit 1; }
try() { # FILE LINE: append LINE to FILE, log when the kernel refuses it
	echo "$2" >>"$1" 2>/dev/null || log "refused by $1: $2"
}
[ -e $T/trace ] || mount -t tracefs nodev $T || fail "no tracefs"
echo 0 >$T/tracing_on
echo "$BUFFER_KB" >$T/buffer_size_kb || fail "buffer_size_kb=$BUFFER_KB"
K=$T/kprobe_events
# do_sys_openat2(int dfd, const char __user *filename, struct open_how *how)
# exists on 5.6+; struct open_how starts with u64 flags, u64 mode
try $K 'p:kprobes/ktopen do_sys_openat2 dfd=$arg1:s32 path=+0($arg2):ustring flags=+0($arg3):x64 mode=+8($arg3):u16 m8=+8($arg3):s8 caller=$stack0:symbol comm=$comm arr=+0($arg3):u8[4] bf=+0($arg3):b4@4/32 u32=$arg1:u32 x16=$arg1:x16'
try $K 'p:ktplain do_sys_openat2'
try $K 'r:kprobes/ktopen_ret do_sys_openat2 ret=$retval:s32 retx=$retval:x64'
try $K 'r:ktplain_ret do_sys_openat2'
# eprobe (5.15+) on sched_switch
try $T/dynamic_events 'e:kteprobe/ktsw sched/sched_switch prev=$prev_pid:u32 next=$next_comm:string prio=$next_prio:s32'
# fprobe events (CONFIG_FPROBE_EVENTS, 6.12 on Debian)
try $T/dynamic_events 'f:ktfp/ktfentry do_sys_openat2 dfd=$arg1:s32'
try $T/dynamic_events 'f:ktfp/ktfexit do_sys_openat2%return ret=$retval:s32'
# a synthetic event fed by hist triggers (CONFIG_SYNTH_EVENTS, 6.1+)
if [ -e $T/synthetic_events ]; then
	try $T/synthetic_events 'ktlat u64 lat; pid_t pid; int prio'
	try $T/events/sched/sched_waking/trigger 'hist:keys=pid:ts0=common_timestamp.usecs'
	try $T/events/sched/sched_switch/trigger 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).trace(ktlat,$lat,next_pid,next_prio)'
fi
for d in $T/events/kprobes $T/events/kteprobe $T/events/ktfp $T/events/synthetic; do
	[ -d $d ] && echo 1 >$d/enable
done
# triggers that write to the buffer: a stack trace after the first kprobe
# hits and after each fork; a snapshot at the first return once tracing
# is on (a trigger fires with tracing off too)
try $T/events/kprobes/ktopen/trigger 'stacktrace:3'
echo 1 >$T/events/sched/sched_process_fork/enable
try $T/events/sched/sched_process_fork/trigger 'stacktrace'
echo >$T/trace
echo 1 >$T/tracing_on
echo "ktrace-marker $CASE tracing on" >$T/trace_marker
try $T/events/kprobes/ktopen_ret/trigger 'snapshot:1'
i=0
while [ $i -lt 8 ]; do
	cat /proc/version /nonexistent-$i >/dev/null 2>&1
	echo "ktrace-marker $CASE round $i" >$T/trace_marker
	sleep 0.01
	i=$((i + 1))
done
echo "$LAST_MARKER_GLOBAL" >$T/trace_marker
echo 0 >$T/tracing_on
mkdir -p /truth
mount -t ext4 /dev/vda /truth || fail "cannot mount the truth disk"
cat $T/trace >/truth/global.trace
cat $T/snapshot >/truth/global.snapshot 2>/dev/null
cat $T/dynamic_events >/truth/dynamic_events
cat $T/buffer_size_kb >/truth/global.buffer_size_kb
cat $T/trace_clock >/truth/global.trace_clock
for s in $T/per_cpu/cpu*; do
	cat $s/stats >/truth/global.${s##*/}.stats
done
uname -r >/truth/uname-r
cat /proc/cmdline >/truth/cmdline
dmesg >/truth/dmesg 2>/dev/null
umount /truth
sync
log "truth saved"
