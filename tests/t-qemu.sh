#!/bin/bash
# ktrace-qemu on the 6.1, 6.12 and sid's (7.x) cloud kernels with the test module
# tests/kmod/ktrace-trigger (built against each kernel's Debian headers by
# scripts/build-kmod): for each trigger (oops, bug, warn, hung, lockup) the
# last event of the panicking CPU is the trigger's own event, and a wrong
# expectation fails with status 1; a panic in module init at boot with
# tracing set up on the command line only; bad input gets status 2; and
# git bisect run finds the commit that brought a NULL dereference into the
# module. About 20 boots under TCG (several minutes).
[ -n "${KTRACE_SANITIZE:-}" ] && { echo "skip - the QEMU panic tests run in the plain build (make check); ktrace-extract's part of them is covered under sanitizers by the fixture tests"; exit 77; }
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
kq=$top/scripts/ktrace-qemu
export KTRACE_EXTRACT=$KTRACE_BIN
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "skip - building the module in the kernel's own toolchain root needs root (chroot)"; exit 77; }
for t in qemu-system-x86_64 socat busybox; do
	command -v $t >/dev/null || { echo "skip - $t missing (scripts/install-deps)"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org

# repro TRIGGER: the reproducer: load the module, enable its events, fire.
# The hung task is found by khungtaskd, which panics on its own CPU: both
# are pinned to CPU 0 so that CPU's last event is the trigger's. The lockup
# spins on CPU 1, and the soft lockup is not always reported by that CPU: a
# stop_machine() that began on CPU 0 while CPU 1 spins leaves CPU 0 waiting
# for it in multi_cpu_stop() with preemption off, and CPU 0's watchdog may
# fire first (seen once in CI on 6.12). Its assertion is on CPU 1.
repro() {
	cat <<EOF
#!/bin/sh
insmod ./ktrace_trigger.ko || exit 1
echo 1 >/sys/kernel/tracing/events/ktrace_trigger/enable
# a real oops on CPU 1 while the scheduler events trace every CPU
[ $1 = oops ] && echo 1 >/sys/kernel/tracing/events/sched/sched_switch/enable
if [ $1 = oops ] || [ $1 = lockup ]; then
	exec taskset 2 sh -c 'echo $1 >/sys/module/ktrace_trigger/parameters/trigger'
fi
if [ $1 = hung ]; then
	taskset -p 1 \$(pidof khungtaskd) >/dev/null || exit 1
	exec taskset 1 sh -c 'echo $1 >/sys/module/ktrace_trigger/parameters/trigger'
fi
echo $1 >/sys/module/ktrace_trigger/parameters/trigger
EOF
}
panic_re() {
	case $1 in
	oops) echo 'BUG: kernel NULL pointer dereference' ;;
	bug) echo 'kernel BUG at' ;;
	# 6.x: "WARNING: CPU: 0 PID: 121 at ...ktrace_trigger"; 7.x: "WARNING:
	# ktrace_trigger.c:53 at ktrace_trigger_fire+0x76/0x270 [ktrace_trigger], CPU#0: run/121"
	warn) echo 'WARNING: (CPU: [0-9]+ PID: [0-9]+ at .*ktrace_trigger|.*ktrace_trigger.*, CPU#[0-9]+: )' ;;
	hung) echo 'blocked for more than [0-9]+ seconds' ;;
	lockup) echo 'soft lockup - CPU#[0-9]+ stuck' ;;
	esac
}
panic_on() { case $1 in bug) echo oops ;; lockup) echo lockup ;; *) echo "$1" ;; esac; }
on_cpu() { case $1 in lockup) echo 1 ;; *) echo panic ;; esac; }

# --- bad input: status 2, before any boot ---------------------------------
printf '#!/bin/sh\n' >"$tmp/noexec.sh"
bad() { # WHAT PATTERN ARGS...
	local what=$1 pat=$2 rc=0
	shift 2
	"$kq" "$@" "$tmp/bad" >"$tmp/bad.out" 2>&1 || rc=$?
	if [ $rc = 2 ] && grep -qE "$pat" "$tmp/bad.out"; then ok "bad input: $what: status 2, '$(grep -E -m1 "$pat" "$tmp/bad.out")'"
	else nok "bad input: $what: status $rc: $(tail -n2 "$tmp/bad.out")"; fi
}
K61=$KTRACE_CACHE/kernels/6.1 K612=$KTRACE_CACHE/kernels/6.12
if [ -s "$K61/vmlinuz" ] && [ -s "$K612/vmlinux" ]; then
	bad "a bzImage that is not a kernel" 'not an x86 bzImage' --kernel /etc/passwd --vmlinux "$K61/vmlinux"
	bad "a vmlinux of another kernel" 'is not the vmlinux of --kernel.*build-id' --kernel "$K61/vmlinuz" --vmlinux "$K612/vmlinux"
	bad "a reproducer that is not executable" 'not executable' --series 6.1 --run "$tmp/noexec.sh"
	bad "a regex that does not compile" "does not compile" --series 6.1 --expect 'trigger=(oops'
	bad "an unknown --panic-on word" "unknown 'panic'" --series 6.1 --panic-on oops,panic
	bad "--on-cpu not a number" "wants a CPU number" --series 6.1 --on-cpu first
else
	skip "bad input: the 6.1 and 6.12 kernels are not fetched yet (scripts/make-vmcores)"
fi

# --- each trigger on each kernel -------------------------------------------
# (KTRACE_QEMU_SERIES="sid": only those)
for series in ${KTRACE_QEMU_SERIES:-6.1 6.12 sid}; do
	mod=$("$top/scripts/build-kmod" "$series" "$top/tests/kmod/ktrace-trigger" 2>"$tmp/build.err") ||
		{ nok "$series: build-kmod: $(tail -n3 "$tmp/build.err")"; continue; }
	ok "$series: ktrace_trigger.ko built against $(basename "$(dirname "$mod")")'s headers"
	mkdir -p "$tmp/files-$series"
	cp "$mod/ktrace_trigger.ko" "$tmp/files-$series/"
	for t in oops bug warn hung lockup; do
		d=$tmp/$series-$t
		repro $t >"$tmp/repro-$t.sh"
		chmod +x "$tmp/repro-$t.sh"
		rc=0
		"$kq" --series "$series" --files "$tmp/files-$series" --run "$tmp/repro-$t.sh" \
			--panic-on "$(panic_on $t)" --expect-last "ktrace_trigger_fire: trigger=$t cpu=" \
			--on-cpu "$(on_cpu $t)" --expect-panic "$(panic_re $t)" --junit "$d.xml" "$d" \
			>"$d.out" 2>&1 || rc=$?
		# 125: the kernel did not boot (6.12 under TCG, now and then): once more
		if [ $rc = 125 ]; then
			rc=0
			"$kq" --series "$series" --files "$tmp/files-$series" --run "$tmp/repro-$t.sh" \
				--panic-on "$(panic_on $t)" --expect-last "ktrace_trigger_fire: trigger=$t cpu=" \
				--on-cpu "$(on_cpu $t)" --expect-panic "$(panic_re $t)" --junit "$d.xml" "$d" \
				>"$d.out" 2>&1 || rc=$?
		fi
		if [ $rc = 0 ] && grep -q 'failures="0"' "$d.xml"; then
			if [ "$(on_cpu $t)" = panic ]; then
				ok "$series $t: the last event of the panicking CPU ($(sed -n 's/^panicking cpu: //p' "$d/summary.txt")) is ktrace_trigger_fire trigger=$t"
			else
				ok "$series $t: the last event of CPU $(on_cpu $t), where it fired, is ktrace_trigger_fire trigger=$t (panicking CPU: $(sed -n 's/^panicking cpu: //p' "$d/summary.txt"))"
			fi
			echo "# $series $t: $(sed -n 's/^time: //p' "$d/summary.txt")"
		else
			nok "$series $t: status $rc: $(grep -E '^(not ok|#)' "$d.out" | head -n4 | tr '\n' ' ') $(grep -a 'ktrace-qemu: verdict' "$d.out")"
			cp -r "$d" "/tmp/t-qemu-$series-$t.failed" 2>/dev/null
			continue
		fi
		# the ticket of the oops on CPU 1: the summary names that CPU, the
		# panic message and, as that CPU's last event, the trigger's
		if [ $t = oops ]; then
			core=$(ls "$d"/vmcore.* 2>/dev/null | head -n1)
			"$KTRACE_BIN" -q -x "$KTRACE_CACHE/kernels/$series/vmlinux" --ticket "$d.ticket" \
				"$core" 2>"$d.ticket.err"
			last=$(awk '/^buffer global:/ { g = 1; next } /^buffer / { g = 0 }
				g && /last events on the panicking cpu/ { b = 1; next }
				g && b && NF { l = $0 } END { print l }' "$d.ticket/summary.txt" 2>/dev/null)
			if grep -q '^panic cpu: 1 (from panic_cpu)$' "$d.ticket/summary.txt" 2>/dev/null &&
				grep -q '^panic message: Fatal exception' "$d.ticket/summary.txt" &&
				echo "$last" | grep -q 'ktrace_trigger_fire: trigger=oops cpu=1'; then
				ok "$series oops on cpu 1: the ticket's summary names cpu 1, 'Fatal exception' and its last event: ${last##*: }"
			else
				nok "$series oops on cpu 1: the ticket's summary: $(grep -E '^panic' "$d.ticket/summary.txt" 2>&1 | tr '\n' ' ') last '$last'"
			fi
		fi
		wrong=oops
		[ $t = oops ] && wrong=bug
		rc=0
		"$kq" --series "$series" --recheck --expect-last "ktrace_trigger_fire: trigger=$wrong" \
			--on-cpu "$(on_cpu $t)" "$d" >"$d.wrong" 2>&1 || rc=$?
		if [ $rc = 1 ] && grep -q '^not ok 1 ' "$d.wrong"; then ok "$series $t: a wrong expectation (trigger=$wrong) fails with status 1"
		else nok "$series $t: a wrong expectation gave status $rc"; fi
	done
	# one wrong expectation through a whole boot as well
	if [ "$series" = 6.1 ]; then
		rc=0
		"$kq" --series "$series" --files "$tmp/files-$series" --run "$tmp/repro-warn.sh" \
			--panic-on warn --expect-last "ktrace_trigger_fire: trigger=oops" --on-cpu panic \
			"$tmp/wrong-boot" >"$tmp/wrong-boot.out" 2>&1 || rc=$?
		if [ $rc = 1 ]; then ok "$series: a wrong expectation fails with status 1 after a full boot"
		else nok "$series: a wrong expectation after a full boot gave status $rc"; fi
	fi
done

# --- boot-time tracing: a panic in module init, from the initramfs ---------
mod=$("$top/scripts/build-kmod" 6.1 "$top/tests/kmod/ktrace-trigger" 2>/dev/null)
if [ -n "$mod" ]; then
	mkdir -p "$tmp/bootmods"
	cp "$mod/ktrace_trigger.ko" "$tmp/bootmods/"
	echo "ktrace_trigger.ko trigger=bug" >"$tmp/bootmods/modules.load"
	d=$tmp/boot
	rc=0
	"$kq" --series 6.1 --modules "$tmp/bootmods" --boot-events "module:module_load" \
		--boot-buffer-kb 32 --panic-on oops --expect 'module_load: .*ktrace_trigger' \
		--expect-last 'module_load: .*ktrace_trigger' --on-cpu panic \
		--expect-panic 'kernel BUG at' "$d" >"$d.out" 2>&1 || rc=$?
	if [ $rc = 0 ] && ! grep -aq 'ktrace-guest: workload start' "$d/console.log" &&
		grep -q 'trace_event=module:module_load' "$d/cmdline"; then
		ok "boot-time tracing (trace_event= only): the panic in module init is recovered, last event module_load ktrace_trigger on cpu $(sed -n 's/^panicking cpu: //p' "$d/summary.txt")"
	else
		nok "boot-time tracing: status $rc: $(grep -E '^(not ok|#)' "$d.out" | head -n4 | tr '\n' ' ')"
	fi
fi

# --- git bisect run over three builds of the module ------------------------
# c1 good, c2 good (a comment), c3 bad (state is never set: NULL
# dereference in init), c4 bad (a comment). The check: load the module;
# --expect-no-panic gives 0 (good) or 1 (bad), 125 would skip.
b=$tmp/bisect/ktrace-trigger
mkdir -p "$b"
cp "$top"/tests/kmod/ktrace-trigger/* "$b/"
git -C "$b" init -q && git -C "$b" add . && git -C "$b" commit -qm "c1: ktrace_trigger"
echo "/* c2: nothing changes */" >>"$b/ktrace_trigger.c"
git -C "$b" commit -qam "c2: a comment"
sed -i '/state = &ktrace_trigger_state;/d' "$b/ktrace_trigger.c"
git -C "$b" commit -qam "c3: state set later (the bug)"
echo "/* c4: nothing changes */" >>"$b/ktrace_trigger.c"
git -C "$b" commit -qam "c4: another comment"
cat >"$tmp/bisect/load.sh" <<'EOF'
#!/bin/sh
insmod ./ktrace_trigger.ko
EOF
cat >"$tmp/bisect/check.sh" <<EOF
#!/bin/sh
# git bisect run: build this commit's module, boot, load it
files=$tmp/bisect/files-\$(git rev-parse --short HEAD)
mkdir -p "\$files"
"$top/scripts/build-kmod" -o "\$files" 6.1 . >/dev/null || exit 125
exec "$kq" --series 6.1 --files "\$files" --run $tmp/bisect/load.sh \\
	--panic-on oops --expect-no-panic --grace 3 $tmp/bisect/run-\$(git rev-parse --short HEAD)
EOF
chmod +x "$tmp/bisect/check.sh" "$tmp/bisect/load.sh"
c3=$(git -C "$b" rev-parse HEAD~1)
(cd "$b" && git bisect start HEAD HEAD~3 && git bisect run "$tmp/bisect/check.sh") >"$tmp/bisect.out" 2>&1
if grep -q "^$c3 is the first bad commit" "$tmp/bisect.out"; then
	ok "git bisect run with ktrace-qemu --expect-no-panic finds c3 ($(grep -c '^running' "$tmp/bisect.out") runs)"
else
	nok "git bisect run: $(tail -n 5 "$tmp/bisect.out" | tr "\n" " ")"
fi
finish
