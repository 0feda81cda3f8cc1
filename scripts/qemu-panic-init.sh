#!/bin/sh
# /init of the ktrace-qemu guest (busybox sh). Loads the modules the host put
# in /lib/modules, then one of two workloads of /workload.env:
# - the markers (no RUN): runs the tracing workload, freezes the buffers,
#   copies the ground truth to the ext4 disk /dev/vda (the only disk), and
#   panics with sysrq-c;
# - RUN=path: sets up tracing only if the host asked for a run-time set-up
#   (RUN_SETUP=1; else tracing is as the kernel command line left it), runs
#   the reproducer as root in /ktrace/files, and waits for the kernel to
#   panic by itself (CRASH_AFTER_RUN=1: sysrq-c once the reproducer exits).
# NO_TRACE=1: no workload at all (no event, no marker, buffer_size_kb and
# tracing_on untouched, so the ring buffers stay unexpanded): only the truth
# (the kernel's empty trace) and the panic.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
. /workload.env

log() { echo "ktrace-guest: $*" >/dev/kmsg; echo "ktrace-guest: $*"; }
fail() { log "FAILED: $*"; poweroff -f; }

log "init started on $(nproc) cpus: $(uname -r)"
# modules.load: one "file.ko [parameter=value ...]" a line, dependencies first
while read -r m args; do
	[ -n "$m" ] || continue
	# shellcheck disable=SC2086 # the parameters are words
	insmod "/lib/modules/$m" $args 2>/dev/null || log "insmod $m failed (built in?)"
done </lib/modules.load 2>/dev/null

T=/sys/kernel/tracing
[ -e $T/trace ] || mount -t tracefs nodev $T || fail "no tracefs"

# option DIR WORD: options/WORD=1, or options/X=0 for a WORD noX
option() {
	case $2 in
	no?*) echo 0 >$1/options/${2#no} || fail "option $2 in $1" ;;
	*) echo 1 >$1/options/$2 || fail "option $2 in $1" ;;
	esac
}

# setup DIR EVENTS KB OPTIONS: configure one trace array (global or an instance)
setup() {
	d=$1
	echo 0 >$d/tracing_on
	if [ -n "$SUBBUF_KB" ] && [ "$SUBBUF_KB" != 0 ]; then
		[ -e $d/buffer_subbuf_size_kb ] || fail "no buffer_subbuf_size_kb in $d"
		echo "$SUBBUF_KB" >$d/buffer_subbuf_size_kb || fail "buffer_subbuf_size_kb=$SUBBUF_KB"
	fi
	echo "$3" >$d/buffer_size_kb || fail "buffer_size_kb=$3 in $d"
	[ -n "$CLOCK" ] && { echo "$CLOCK" >$d/trace_clock || fail "trace_clock=$CLOCK"; }
	echo 1 >$d/options/overwrite
	for o in $4; do
		# a tracer's options (funcgraph-*) may appear with the tracer: later
		if [ $d = $T ] && [ ! -e $d/options/${o#no} ]; then
			late="$late $o"
			continue
		fi
		option $d $o
	done
	for e in $2; do
		p=$d/events/$(echo "$e" | tr : /)
		echo 1 >$p/enable || fail "cannot enable event $e"
	done
	echo >$d/trace
}

# markers FILE N TEXT: N markers spread over all CPUs, in parallel, each
# padded to about MARKER_BYTES
pad=
[ -n "$MARKER_BYTES" ] && [ "$MARKER_BYTES" -gt 64 ] &&
	pad=" $(head -c $((MARKER_BYTES - 64)) /dev/zero | tr '\0' .)"
markers() {
	c=0
	ncpu=$(nproc)
	per=$(($2 / ncpu + 1))
	while [ $c -lt $ncpu ]; do
		taskset -c $c sh -c "i=0; exec 3>$1
			while [ \$i -lt $per ]; do
				echo \"$3 cpu$c \$i$pad\" >&3; i=\$((i + 1))
			done" &
		c=$((c + 1))
	done
	wait
}

# truth-raw{ (hashed for the TRUTH_DISK=raw recipes only, as the block below)
# TRUTH_DISK=raw and a RUN shell script (the recorder fixtures' *-run.sh):
# it runs sourced by /ktrace/raw-run, whose mount and umount functions take
# its "mount -t ext4 /dev/vda DIR" as a directory made in the initramfs and
# its "umount DIR" (that DIR) as one tar archive of it written to the raw
# disk; any other mount goes to busybox. Functions, not commands in PATH:
# busybox sh runs its own applets before PATH.
if [ "$TRUTH_DISK" = raw ] && [ -n "$RUN" ] && [ "$(head -c 9 "$RUN")" = '#!/bin/sh' ]; then
	cat >/ktrace/raw-run <<'EOF'
#!/bin/sh
mount() {
	if [ $# = 4 ] && [ "$1" = -t ] && [ "$2" = ext4 ] && [ "$3" = /dev/vda ]; then
		mkdir -p "$4" && truth_dir=$4
	else
		/bin/busybox mount "$@"
	fi
}
umount() {
	if [ $# = 1 ] && [ "$1" = "${truth_dir:-}" ]; then
		tar -c -f /dev/vda -C "$1" . && sync
	else
		/bin/busybox umount "$@"
	fi
}
. /ktrace/run
EOF
	chmod +x /ktrace/raw-run
	RUN=/ktrace/raw-run
fi
# }truth-raw
if [ -n "$RUN" ]; then
	if [ "$RUN_SETUP" = 1 ]; then
		setup $T "$EVENTS" "$BUFFER_KB" "$OPTIONS"
		if [ -n "$TRACER" ]; then
			for f in $FTRACE_FILTER; do
				echo "$f" >>$T/set_ftrace_filter || fail "set_ftrace_filter $f"
			done
			echo "$TRACER" >$T/current_tracer || fail "current_tracer=$TRACER"
		fi
		if [ -n "$INSTANCE" ]; then
			mkdir $T/instances/$INSTANCE || fail "mkdir instances/$INSTANCE"
			setup $T/instances/$INSTANCE "$INSTANCE_EVENTS" \
				"${INSTANCE_BUFFER_KB:-$BUFFER_KB}" "$INSTANCE_OPTIONS"
			echo 1 >$T/instances/$INSTANCE/tracing_on
		fi
		echo 1 >$T/tracing_on
	fi
	sc=
	for k in panic_on_oops panic_on_warn hung_task_panic hung_task_timeout_secs \
		softlockup_panic watchdog_thresh; do
		[ -e /proc/sys/kernel/$k ] && sc="$sc $k=$(cat /proc/sys/kernel/$k)"
	done
	log "sysctl:$sc"
	log "workload start: $RUN"
	cd /ktrace/files || fail "no /ktrace/files"
	"$RUN"
	log "reproducer exited with status $?"
	if [ "$CRASH_AFTER_RUN" = 1 ]; then
		log "panicking (sysrq-c) after the reproducer"
		echo c >/proc/sysrq-trigger
	fi
	while :; do sleep 3600; done
elif [ "$NO_TRACE" = 1 ]; then
	log "workload: none (NO_TRACE), tracing never enabled"
else
	setup $T "$EVENTS" "$BUFFER_KB" "$OPTIONS"
	if [ -n "$TRACER" ]; then
		# graph:F -> set_graph_function, depth:N -> max_graph_depth
		for f in $FTRACE_FILTER; do
			case $f in
			graph:*) echo "${f#graph:}" >>$T/set_graph_function || fail "set_graph_function $f" ;;
			depth:*) echo "${f#depth:}" >$T/max_graph_depth || fail "max_graph_depth $f" ;;
			*) echo "$f" >>$T/set_ftrace_filter || fail "set_ftrace_filter $f" ;;
			esac
		done
		echo "$TRACER" >$T/current_tracer || fail "current_tracer=$TRACER"
		echo >$T/trace
	fi
	for o in $late; do
		option $T $o
	done
	if [ -n "$INSTANCE" ]; then
		mkdir $T/instances/$INSTANCE || fail "mkdir instances/$INSTANCE"
		setup $T/instances/$INSTANCE "$INSTANCE_EVENTS" "${INSTANCE_BUFFER_KB:-$BUFFER_KB}" \
			"$INSTANCE_OPTIONS"
		echo 1 >$T/instances/$INSTANCE/tracing_on
	fi
	echo 1 >$T/tracing_on
	log "workload start: $MARKERS markers, buffer_size_kb=$BUFFER_KB on $(nproc) cpus"
	[ -n "$INSTANCE" ] && [ "$INSTANCE_MARKERS" -gt 0 ] && markers $T/instances/$INSTANCE/trace_marker "$INSTANCE_MARKERS" "ktrace-inst-marker $CASE" &
	markers $T/trace_marker "$MARKERS" "ktrace-marker $CASE"
	wait
	[ -n "$INSTANCE" ] && echo "$LAST_MARKER_INSTANCE" >$T/instances/$INSTANCE/trace_marker
	echo "$LAST_MARKER_GLOBAL" >$T/trace_marker
	# Freeze every buffer right after its last marker: what the dump holds and
	# what we copy below are then the same records.
	echo 0 >$T/tracing_on
	[ -n "$INSTANCE" ] && echo 0 >$T/instances/$INSTANCE/tracing_on
fi

# truth-raw{ (scripts/make-vmcores hashes these lines for the TRUTH_DISK=raw
# recipes only: the other fixtures' boots are unchanged by them)
# TRUTH_DISK=raw: no file system on /dev/vda, for a kernel whose ext4 cannot
# write under QEMU (tests/vmcores/ksid-s390x.recipe). The truth is saved in
# the initramfs's own /truth (no mount), and its "umount" writes it to the
# raw disk as one tar archive, which ktrace-qemu unpacks on the host.
if [ "$TRUTH_DISK" = raw ]; then
	mount() { :; }
	umount() { tar -c -f /dev/vda -C "$1" . && sync; }
fi
# }truth-raw
mkdir -p /truth
mount -t ext4 /dev/vda /truth || fail "cannot mount /dev/vda"
save() {
	name=$1 d=$2
	cat $d/trace >/truth/$name.trace
	cat $d/buffer_size_kb >/truth/$name.buffer_size_kb
	[ -e $d/buffer_subbuf_size_kb ] && cat $d/buffer_subbuf_size_kb >/truth/$name.buffer_subbuf_size_kb
	cat $d/trace_clock >/truth/$name.trace_clock
	for s in $d/per_cpu/cpu*; do
		cat $s/stats >/truth/$name.${s##*/}.stats
	done
}
save global $T
[ -n "$INSTANCE" ] && save $INSTANCE $T/instances/$INSTANCE
uname -r >/truth/uname-r
cat /proc/cmdline >/truth/cmdline
umount /truth || fail "umount /truth"
sync
log "truth saved, panicking"
echo c >/proc/sysrq-trigger
