#!/bin/bash
# The panicking CPU (lib/panic.c) on every fixture and dump format: what
# "ktrace-extract --panic-cpu" prints must be the CPU the kernel named in
# its oops on the console ("CPU: N [UID: N ]PID: ..." after the sysrq crash), and
# --list must end with the same fact. (t-crash.sh checks it against crash's
# bt; t-damaged.sh checks a dump whose panic_cpu is unreadable.)
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
[ -n "$(all_cases)" ] || { echo "skip - no vmcore fixtures in $VMCORES (run scripts/make-vmcores)"; exit 77; }

for c in $(all_cases); do
	dir=$VMCORES/$c
	unset VMLINUX FORMATS
	. "$dir/case.env"
	# the oops of sysrq-c: the first "CPU: N PID:" after the trigger (a
	# PREEMPT_RT kernel may not print "sysrq: Trigger a crash" before it
	# dies: its printk thread never ran; then after the panic line)
	want=$(sed -n '/sysrq: Trigger a crash\|Kernel panic - not syncing: sysrq triggered crash/,$p' \
		"$dir/console.log" | tr -d '\r' |
		sed -n 's/.*\] CPU: \([0-9]*\) \(UID: [0-9]* \)\{0,1\}PID: .*/\1/p' | head -n1)
	if [ -z "$want" ] && ! grep -aq 'sysrq: Trigger a crash\|Kernel panic - not syncing' "$dir/console.log"; then
		# 7.x PREEMPT_RT (ksid-rt-wakeup): nothing of the crash reached the
		# console before the guest stopped; there is no truth to check against
		skip "$c: the console shows neither the sysrq trigger nor the panic (the printk thread of a PREEMPT_RT kernel never ran): its panic CPU is not checked"
		continue
	elif [ -z "$want" ]; then
		nok "$c: no 'CPU: N PID:' oops line after the sysrq trigger in console.log"
		continue
	fi
	for fmt in $(formats_of "$c"); do
		core=$dir/vmcore.$fmt
		[ -f "$core" ] || continue
		got=$("$KTRACE_BIN" -x "$VMLINUX" --panic-cpu "$core" 2>/dev/null)
		rc=$?
		if [ $rc = 0 ] && [ "$got" = "$want" ]; then
			ok "$c/$fmt: --panic-cpu $got, as the oops on the console says"
		else
			nok "$c/$fmt: --panic-cpu printed '$got' (exit $rc), the console says CPU $want"
		fi
		line=$("$KTRACE_BIN" -x "$VMLINUX" --list "$core" 2>/dev/null | tail -n1)
		if [ "$line" = "panic cpu: $want (panic_cpu)" ]; then
			ok "$c/$fmt: --list ends with '$line'"
		else
			nok "$c/$fmt: --list ends with '$line', want 'panic cpu: $want (panic_cpu)'"
		fi
	done
done
finish
