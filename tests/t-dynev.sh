#!/bin/bash
# Dynamic events and the triggers that write to the buffer, on the k*-dynev
# fixtures (tests/vmcores/dynev-run.sh): kprobe and kretprobe events with
# arguments of many types, an eprobe (5.15+), fprobe events (6.12),
# a synthetic event fed by hist triggers (6.1+), stack traces from the
# stacktrace trigger and a snapshot from the snapshot trigger. The kernel
# prints these records with printers of their own (print_kprobe_event(),
# print_synth_event()...), not by their print fmt: each fixture's trace and
# snapshot text must be the kernel's own files, whole and identical, with
# exit 0 and nothing said to be left unprinted; the fixture must hold each
# kind the kernel accepted (truth/dynamic_events); JSON and trace.dat carry
# as many events as the kernel's lines (trace-cmd report reads them
# silently); the crash extension prints the same text. The k*-modev
# fixtures (modev-run.sh): an event defined in a loaded module
# (tests/kmod/ktrace-modev), its trace file whole and identical the same way.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-build}
case $O in /*) ;; *) O=$ROOT/$O ;; esac
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

# kinds KIND...: each kind of dynamic event the kernel accepted has lines
# in the kernel's own trace file (so the fixture does test it)
kinds() {
	local c=$1 dir=$2 k pat
	for k in kprobe kretprobe eprobe fentry fexit synth stacktrace; do
		case $k in
		kprobe) grep -q '^p:kprobes/ktopen ' "$dir/truth/dynamic_events" || continue; pat=' ktopen: (do_sys_openat2+0x0/' ;;
		kretprobe) grep -qE '^r[0-9]*:kprobes/ktopen_ret ' "$dir/truth/dynamic_events" || continue; pat=' ktopen_ret: (.* <- do_sys_openat2) ret=' ;;
		eprobe) grep -q '^e:kteprobe/ktsw ' "$dir/truth/dynamic_events" || continue; pat=' ktsw: (sched.sched_switch) prev=' ;;
		fentry) grep -q '^f:ktfp/ktfentry ' "$dir/truth/dynamic_events" || continue; pat=' ktfentry: (do_sys_openat2+0x0/' ;;
		fexit) grep -q '^f:ktfp/ktfexit ' "$dir/truth/dynamic_events" || continue; pat=' ktfexit: (.* <- do_sys_openat2) ret=' ;;
		synth) grep -qE '^s:synthetic/ktlat[[:space:]]' "$dir/truth/dynamic_events" || continue; pat=' ktlat: lat=[0-9]* pid=[0-9]* prio=' ;;
		stacktrace) pat=' <stack trace>' ;;
		esac
		grep -qa -- "$pat" "$dir/truth/global.trace" &&
			ok "$c: the kernel accepted a $k event and printed its records" ||
			nok "$c: a $k event is in dynamic_events but the kernel's trace has no line of it"
	done
}

for c in $(cases); do
	case $c in *-dynev | *-modev) ;; *) continue ;; esac
	dir=$VMCORES/$c
	unset CASE VMLINUX INSTANCES FORMATS SERIES
	. "$dir/case.env"
	n=$((n + 1))
	whats="trace snapshot" ev=ktopen
	if [ "${c%-modev}" != "$c" ]; then
		# a module's event: its enum, symbolic and flag names and %pS of its code
		whats=trace ev=ktrace_modev_state
		grep -qa ' ktrace_modev_state: seq=3 state=failed flags=A|B fn=modev_work+0x1/0x[0-9a-f]* \[ktrace_modev\] tag=' \
			"$dir/truth/global.trace" &&
			ok "$c: the kernel accepted a module event and printed its records" ||
			nok "$c: the kernel's trace has no ktrace_modev_state line with its names"
		# the kernel's printf rules, not the C library's: zeros under
		# %#x, %#06x, %#X and %.0d (the comparison below holds them to it)
		grep -qa ' ktrace_modev_num: x=0x0 x6=0x0000 x10=0x00000000 X=0X0 lx=0x0 o=0 d0=0 u0=0 x0=0 ' \
			"$dir/truth/global.trace" &&
			ok "$c: the kernel printed zeros under %#x, %#06x, %#X, %.0d its own way" ||
			nok "$c: the kernel's trace has no ktrace_modev_num line of zeros (remake the fixture)"
	else
		[ -s "$dir/truth/dynamic_events" ] || { nok "$c: no truth/dynamic_events (remake the fixture)"; continue; }
		kinds "$c" "$dir"
	fi
	for fmt in $(formats_of "$c"); do
		for what in $whats; do
			i=global
			[ $what = snapshot ] && i=global.snapshot
			truth=$dir/truth/global.$what
			[ $what = snapshot ] && ! grep -qa ' ktopen_ret: ' "$truth" && {
				nok "$c: the snapshot trigger took no snapshot of a ktopen_ret record"
				continue
			}
			"$KTRACE_BIN" -x "$VMLINUX" -i "$i" "$dir/vmcore.$fmt" >"$tmp/out" 2>"$tmp/err"
			rc=$?
			grep -v '^# ktrace: ' "$tmp/out" >"$tmp/text"
			if [ $rc != 0 ] || grep -q 'not rendered\|cannot print' "$tmp/err"; then
				nok "$c/$fmt/$i: exit $rc: $(grep -m 2 -v 'pages read\|overwritten' "$tmp/err" | tr '\n' ' ')"
			elif cmp -s "$tmp/text" "$truth"; then
				ok "$c/$fmt/$i: identical to the kernel's $what file ($(wc -l <"$truth") lines)"
			else
				nok "$c/$fmt/$i: differs from the kernel's $what file: $(diff "$truth" \
					"$tmp/text" | grep -m 2 '^[<>]' | tr '\n' ' ')"
			fi
		done
	done
	# JSON: one object per kernel line, each dynamic event's text the kernel's
	lines=$(grep -v '^#' "$dir/truth/global.trace" | grep -v '^ => ' | grep -vc '^$')
	"$KTRACE_BIN" -x "$VMLINUX" -i global --json "$dir/vmcore.elf" 2>/dev/null >"$tmp/json"
	nj=$(grep -c '^{"instance":"global"' "$tmp/json")
	[ "$nj" = "$lines" ] && ok "$c: JSON has the $nj events of the kernel's file" ||
		nok "$c: JSON has $nj events, the kernel's file $lines"
	# a stack trace's record holds as many callers as the kernel saved (its
	# format says caller[8]): JSON's fields has every frame its text has
	st=$(perl -MJSON::PP -ne 'my $r = eval { decode_json($_) } or next;
		next unless ($r->{event} // "") eq "kernel_stack";
		my $n = () = $r->{text} =~ / => /g; $all++;
		$bad++ if @{$r->{fields}{caller} // []} < $n;
		END { print $all ? "$all " . ($bad // 0) : "0 0" }' "$tmp/json")
	if [ "${st% *}" != 0 ]; then
		[ "${st#* }" = 0 ] && ok "$c: JSON's callers of its ${st% *} stack traces are every frame printed" ||
			nok "$c: JSON's callers of ${st#* } of ${st% *} stack traces are fewer than the frames printed"
	fi
	want=$(grep -a " $ev: " "$dir/truth/global.trace" | head -n 1 | sed "s/.*: $ev: /$ev: /")
	got=$(grep -m 1 "\"event\":\"$ev\"" "$tmp/json" | sed 's/.*"text":"\(.*\)"}$/\1/; s/\\"/"/g')
	[ -n "$want" ] && [ "$got" = "$want" ] && ok "$c: JSON's text of $ev is the kernel's" ||
		nok "$c: JSON's text of $ev: '$got', the kernel's '$want'"
	if command -v trace-cmd >/dev/null; then
		"$KTRACE_BIN" -q -x "$VMLINUX" -i global -o "$tmp/t.dat" "$dir/vmcore.elf" 2>/dev/null
		if trace-cmd report -i "$tmp/t.dat" >"$tmp/rep" 2>"$tmp/rep.err" && [ ! -s "$tmp/rep.err" ]; then
			# trace-cmd prints a stack trace as one event, its entries on lines of their own
			nr=$(grep -cE '^ +.+-[0-9]+ +\[[0-9]+\] ' "$tmp/rep")
			[ "$nr" = "$lines" ] && ok "$c: trace-cmd report reads the $nr events silently" ||
				nok "$c: trace-cmd report shows $nr events, the kernel's file $lines"
		else
			nok "$c: trace-cmd report: $(head -n 2 "$tmp/rep.err" | tr '\n' ' ')"
		fi
	fi
	if cr=$(crash_ext_for "$SERIES"); then
		set -- $cr
		printf 'extend %s\nktrace show -i global > %s\nq\n' "$2" "$tmp/crash.txt" >"$tmp/cmds"
		"$1" -s "${@:3}" "$VMLINUX" "$dir/vmcore.elf" -i "$tmp/cmds" </dev/null >"$tmp/crash.out" 2>&1
		"$KTRACE_BIN" -x "$VMLINUX" -i global "$dir/vmcore.elf" >"$tmp/want" 2>/dev/null
		[ -s "$tmp/crash.txt" ] && cmp -s "$tmp/crash.txt" "$tmp/want" &&
			ok "$c: crash's ktrace show prints the same ($(wc -l <"$tmp/want") lines)" ||
			nok "$c: crash's ktrace show differs or printed nothing: $(diff "$tmp/want" \
				"$tmp/crash.txt" 2>&1 | grep -m 2 '^[<>]' | tr '\n' ' ')"
	else
		skip "$c: no crash for $SERIES (see tests/t-crash.sh)"
	fi
done
[ $n = 0 ] && { echo "skip - no dynev fixture in $VMCORES (scripts/make-vmcores k6.1-dynev ...)"; exit 77; }
finish
