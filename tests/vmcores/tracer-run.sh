#!/bin/sh
# The reproducer of the tracer fixtures (ktrace-qemu --run, in the guest):
# the global buffer runs $TRACER, a tracer with output of its own, set up
# with knobs small enough for TCG, plus $EVENTS and $MARKERS markers; then
# it freezes and the kernel's trace file is the truth (global.trace).
#   hwlat     hwlat_detector window 100 ms, width 20 ms: a TRACE_HWLAT
#             record for every sample over tracing_thresh (TCG has many)
#   osnoise   period 100 ms, runtime 20 ms: a TRACE_OSNOISE record a
#             period on each CPU, and the osnoise:* events
#   timerlat  period 10 ms: TRACE_TIMERLAT records (irq and thread)
#   wakeup, wakeup_rt, wakeup_dl: as set up by the kernel (latency-format
#             on); the trace file shows tr->max_buffer, the longest wake-up
#             seen; tracing_on=0 stops the tracer (its stop()), so the max
#             buffer is final when the truth is read. For wakeup_rt and
#             wakeup_dl, scripts/tools/schedwake (GUEST_TOOLS) sleeps and
#             wakes as a SCHED_FIFO or SCHED_DEADLINE task meanwhile; for
#             wakeup too when the recipe installs it: wakeup tracks a
#             wake-up only of a task of a better priority than the
#             CPU's current one, and on PREEMPT_RT a SCHED_OTHER
#             sleeper's timer expires in the ktimers thread (SCHED_FIFO),
#             so the markers' own sleeps may never count (7.2-rt: no
#             latency in 20 rounds, cold)
# Settings come from the recipe through /workload.env; the host's
# --crash-after-run panics the guest once this exits.
. /workload.env
T=/sys/kernel/tracing
log() { echo "ktrace-guest: $*" >/dev/kmsg; }
fail() { log "FAILED: $*"; exit 1; }
[ -e $T/trace ] || mount -t tracefs nodev $T || fail "no tracefs"
grep -qw "$TRACER" $T/available_tracers || fail "no tracer $TRACER in this kernel"
echo 0 >$T/tracing_on
echo "$BUFFER_KB" >$T/buffer_size_kb || fail "buffer_size_kb=$BUFFER_KB"
echo 1 >$T/options/overwrite
for o in $OPTIONS; do
	case $o in
	no?*) echo 0 >$T/options/${o#no} || fail "option $o" ;;
	*) echo 1 >$T/options/$o || fail "option $o" ;;
	esac
done
for e in $EVENTS; do
	echo 1 >$T/events/$(echo "$e" | tr : /)/enable || fail "event $e"
done
case $TRACER in
hwlat)
	# width < window at every step
	echo 20000 >$T/hwlat_detector/width || fail "hwlat width"
	echo 100000 >$T/hwlat_detector/window || fail "hwlat window"
	;;
osnoise)
	# runtime <= period at every step
	echo 20000 >$T/osnoise/runtime_us || fail "osnoise runtime"
	echo 100000 >$T/osnoise/period_us || fail "osnoise period"
	;;
timerlat)
	echo 10000 >$T/osnoise/timerlat_period_us || fail "timerlat period"
	;;
esac
echo "$TRACER" >$T/current_tracer || fail "current_tracer=$TRACER"
echo >$T/trace
echo 1 >$T/tracing_on
[ -d /ktrace/files/root ] && { cp -a /ktrace/files/root/. / || fail "cannot install the tools"; }
# a latency tracer's trace file may show no latency after one round (no
# wake-up of its kind, or an empty max buffer): up to twenty (wakeup_rt on
# 6.1-rt recorded none in five rounds on a loaded host, cold)
round=0
while :; do
	case $TRACER in
	wakeup) ! command -v schedwake >/dev/null || schedwake fifo 50 400 3000 & ;;
	wakeup_rt) schedwake fifo 50 400 3000 & ;;
	wakeup_dl) schedwake deadline 1000:10000 400 3000 & ;;
	esac
	i=0
	while [ $i -lt "$MARKERS" ]; do
		echo "ktrace-marker $CASE $i" >$T/trace_marker
		i=$((i + 1))
		[ $((i % 10)) = 0 ] && sleep 0.2
	done
	wait
	round=$((round + 1))
	case $TRACER in wakeup*) ;; *) break ;; esac
	# a max recorded is not enough: its buffer may still show nothing
	grep -q '^# [a-z_]* latency trace v' $T/trace && break
	[ $round = 20 ] && fail "$TRACER: no latency recorded in $round rounds"
	log "$TRACER: no latency recorded yet, round $((round + 1))"
	# some boots record none at all however long they run (7.2-rt:
	# wakeup, with the FIFO sleeper, none in 10 rounds, the next boot in
	# its first): the tracer set up again every five rounds
	if [ $((round % 5)) = 0 ]; then
		log "$TRACER: set up again"
		echo nop >$T/current_tracer && echo "$TRACER" >$T/current_tracer ||
			fail "current_tracer=$TRACER again"
		echo 1 >$T/tracing_on
	fi
done
echo "$LAST_MARKER_GLOBAL" >$T/trace_marker
echo 0 >$T/tracing_on
mkdir -p /truth
mount -t ext4 /dev/vda /truth || fail "cannot mount the truth disk"
cat $T/trace >/truth/global.trace
cat $T/buffer_size_kb >/truth/global.buffer_size_kb
cat $T/trace_clock >/truth/global.trace_clock
cat $T/current_tracer >/truth/global.current_tracer
for s in $T/per_cpu/cpu*; do
	cat $s/stats >/truth/global.${s##*/}.stats
done
uname -r >/truth/uname-r
cat /proc/cmdline >/truth/cmdline
umount /truth
sync
log "truth saved"
