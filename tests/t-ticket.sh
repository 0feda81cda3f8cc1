#!/bin/bash
# ktrace-extract --ticket on every fixture: the ticket's trace.txt,
# trace.jsonl and trace.dat are byte for byte what the separate runs write,
# its manifest verifies with sha256sum -c, summary.txt names the dump's
# release, build-id and panicking CPU, its layout profile reads the dump
# again to the same text, every ring page was read from the dump once, and
# the .tar.gz / .tar.zst forms hold the same files.
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
[ -n "$(cases)" ] || { echo "skip - no vmcore fixtures in $VMCORES (run scripts/make-vmcores)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# no_cpu_line CASE CPU SUMMARY TRUTH WHAT: the kernel's trace has no WHAT
# of the panicking CPU (nothing ran there, or only lines without a CPU
# column): the summary must say it has none, or its last line of that CPU
# must be a line of the kernel's trace
no_cpu_line() {
	local sect
	sect=$(awk -v h="last events on the panicking cpu $2:" 'index($0, h) { on = 1; next }
		on && (/^buffer / || /^$/) { on = 0 } on' "$3" | grep -v '^    none printed' | tail -n 1)
	if grep -q "last events on the panicking cpu $2: none in this buffer" "$3"; then
		ok "$1: the kernel's trace has no $5 of cpu $2, and summary.txt says the buffer has none"
	elif [ -n "$sect" ] && grep -qxF -- "$sect" "$4"; then
		ok "$1: the kernel's trace has no $5 with cpu $2's column; summary.txt's last line of cpu $2 is one of its lines ('${sect:0:60}')"
	else
		nok "$1: the kernel's trace has no $5 of cpu $2, and summary.txt neither says none nor shows one of its lines: '$sect'"
	fi
}

# alias_diff MAP WANT GOT: WANT and GOT have as many lines, and where a
# line differs, only in words that are names of one address in MAP
alias_diff() {
	perl -e '
		my ($map, $wf, $gf, $prefix) = @ARGV;
		my %at;
		open(my $m, "<", $map) or die "no System.map $map\n";
		while (<$m>) { my ($a, $t, $n) = split; $at{$n}{$a} = 1 if defined $n; }
		sub alias { my ($x, $y) = @_; return 0 unless $at{$x} && $at{$y};
			for (keys %{$at{$x}}) { return 1 if $at{$y}{$_}; } return 0; }
		# trace-cmd gives ftrace/blktrace a format of its own when the
		# file has ftrace/user_stack (tracecmd_blk_hack(), the id after
		# it): two formats of one id, and which it uses depends on the
		# other formats in the file. blktrace lines (and the binary
		# data -R prints after them) are compared by their prefix alone.
		my $blk = 0;
		sub lines { my ($f) = @_; open(my $h, "<", $f) or die; my (@l, $inblk);
			while (<$h>) {
				if (/^(.*\] +[0-9.]+: blktrace: )/) { push @l, "$1\n"; $inblk = 1; $blk++; next; }
				if ($inblk && !/\[\d+\] +[0-9.]+: / && !/^=>/) { next; }
				$inblk = 0; push @l, $_;
			}
			return @l; }
		my @w = lines($wf); my @g = lines($gf); $blk /= 2;
		# prefix: trace-cmd died on one of the files; what it wrote
		# before (whole lines) must begin what it wrote of the other
		if ($prefix) {
			pop @w if @w && $w[-1] !~ /\n$/;
			pop @g if @g && $g[-1] !~ /\n$/;
			my $m = @w < @g ? @w : @g;
			if ($m < 100) { print "only $m whole lines to compare\n"; exit 1; }
			$#w = $m - 1; $#g = $m - 1;
		}
		if (@w != @g) { print scalar(@w), " lines against ", scalar(@g), "\n"; exit 1; }
		my $n = 0;
		for my $i (0 .. $#w) {
			next if $w[$i] eq $g[$i];
			my @a = split /([A-Za-z0-9_.\$]+)/, $w[$i];
			my @b = split /([A-Za-z0-9_.\$]+)/, $g[$i];
			my $okl = @a == @b;
			for my $k (0 .. $#a) {
				last unless $okl;
				next if $a[$k] eq $b[$k];
				$okl = alias($a[$k], $b[$k]);
			}
			if (!$okl) { chomp($w[$i], $g[$i]); print "line ", $i + 1, ": \"$w[$i]\" against \"$g[$i]\"\n"; exit 1; }
			$n++;
		}
		print scalar(@w), " lines", $n ? ", $n naming an alias of the symbol" : "",
			$blk ? ", $blk blktrace lines compared by their prefix" : "", "\n";
	' "$@" | cut -c1-400
	return "${PIPESTATUS[0]}"
}

for c in $(cases); do
	# the ticket per kernel and machine, the cases with more than one
	# buffer, and those whose trace.dat keeps formats and symbols of their
	# own (the ticket's holds only what its text used): the text in it is
	# compared with the separate run, which t-truth reads on every case
	kernel_subject "$c" '*-snap' '*-persist' '*-subbuf' '*-func' '*-fgraph' '*-dynev' '*-modev' '*-blktracer' || continue
	# under the sanitizers, the buffers' cases alone
	sanitize_subject "$c" '*-snap' '*-persist' '*-subbuf' || continue
	dir=$VMCORES/$c
	unset VMLINUX FORMATS RELEASE SERIES SYSTEM_MAP
	. "$dir/case.env"
	core=$dir/vmcore.kdump
	[ -f "$core" ] || core=$dir/vmcore.elf
	t=$tmp/$c
	"$KTRACE_BIN" -v -x "$VMLINUX" --ticket "$t" "$core" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc != 0 ] && [ $rc != 10 ]; then
		nok "$c: --ticket exit $rc: $(tail -n1 "$tmp/err")"
		continue
	fi
	kx "$tmp/want.txt" /dev/null -q -x "$VMLINUX" "$core"
	kx "$tmp/want.jsonl" /dev/null -q -j -x "$VMLINUX" "$core"
	"$KTRACE_BIN" -q -x "$VMLINUX" -o "$tmp/want.dat" "$core" 2>/dev/null
	for f in txt jsonl; do
		if [ -s "$tmp/want.$f" ] && cmp -s "$tmp/want.$f" "$t/trace.$f"; then
			ok "$c: trace.$f is what the separate run writes"
		else
			nok "$c: trace.$f differs from the separate run's"
		fi
	done
	# the ticket's trace.dat has only the event formats and kallsyms
	# entries its text used: trace-cmd report (every buffer, raw fields
	# too) must print what it prints of the separate run's whole file
	if ! command -v trace-cmd >/dev/null; then
		skip "$c: trace-cmd not installed: the ticket's trace.dat is not compared"
	elif [ -n "${KTRACE_SANITIZE:-}" ]; then
		# trace-cmd reading the two files is not our code: make check runs it
		[ -s "$tmp/want.dat" ] && [ -s "$t/trace.dat" ] &&
			ok "$c: trace.dat written ($(stat -c %s "$t/trace.dat") bytes; trace-cmd compares it in make check)" ||
			nok "$c: trace.dat missing ($(stat -c %s "$tmp/want.dat" "$t/trace.dat" 2>&1 | tr '\n' ' '))"
	elif [ ! -s "$tmp/want.dat" ] || [ ! -s "$t/trace.dat" ]; then
		nok "$c: trace.dat missing ($(stat -c %s "$tmp/want.dat" "$t/trace.dat" 2>&1 | tr '\n' ' '))"
	else
		for how in "" -R; do
			(cd "$tmp" && exec trace-cmd report $how -i want.dat) >"$tmp/want.report" 2>&1
			wrc=$?
			cp "$t/trace.dat" "$tmp/got.dat"
			(cd "$tmp" && exec trace-cmd report $how -i got.dat) >"$tmp/got.report" 2>&1
			grc=$?
			sed -i 's/got\.dat/want.dat/g' "$tmp/got.report"
			# trace-cmd 3.1.6 with libtraceevent 1.7.1 (and upstream's
			# print_field_raw() still) prints -R's arrays at the length
			# the format gives: a kernel_stack record the kernel wrote
			# with fewer than caller[8]'s entries, last in its page, is
			# read past the page trace-cmd mapped, and it dies (seen on
			# a 6.1 fixture's whole file). Where trace-cmd dies on one
			# file, what it wrote before must begin the other's report.
			prefix=
			if [ $wrc -ge 128 ] || [ $grc -ge 128 ]; then
				prefix=prefix
				echo "# $c: trace-cmd report $how died of signal $(( (wrc >= 128 ? wrc : grc) - 128 )) on the $([ $wrc -ge 128 ] && echo whole file)$([ $wrc -ge 128 ] && [ $grc -ge 128 ] && echo ' and the ')$([ $grc -ge 128 ] && echo "ticket's"): the lines before are compared"
			fi
			# lines may differ only in a symbol named by an alias (an
			# entry at the same address in System.map): of aliases,
			# trace-cmd given the whole table names whichever its
			# binary search meets first, given the ticket's the first
			# in the kernel's table, the one the kernel names
			if verdict=$(alias_diff "$(dirname "$VMLINUX")/System.map" "$tmp/want.report" "$tmp/got.report" $prefix); then
				ok "$c: trace-cmd report ${how:+$how }of the ticket's trace.dat ($(stat -c %s "$t/trace.dat") bytes) is that of the whole file ($(stat -c %s "$tmp/want.dat") bytes): $verdict"
			else
				nok "$c: trace-cmd report ${how:+$how }of the ticket's trace.dat differs from the whole file's: $verdict"
			fi
		done
		# without ftrace/user_stack in the file, trace-cmd keeps the
		# kernel's blktrace format: "MAJ,MIN action=..." on every line
		nblk=$(grep -c ': blktrace: ' "$tmp/got.report" 2>/dev/null)
		if [ "${nblk:-0}" -gt 0 ]; then
			(cd "$tmp" && trace-cmd report -i got.dat) >"$tmp/got.report" 2>&1
			bad=$(grep ': blktrace: ' "$tmp/got.report" | grep -cv ': blktrace: *[0-9]*,[0-9]* action=0x')
			[ "$bad" = 0 ] && ok "$c: trace-cmd report of the ticket's trace.dat prints its $nblk blktrace lines in the kernel's format" ||
				nok "$c: $bad of the ticket's blktrace lines are not in the kernel's format: $(grep ': blktrace: ' "$tmp/got.report" | head -n1)"
		fi
	fi
	for f in dmesg timeline; do
		"$KTRACE_BIN" -q -x "$VMLINUX" --$f "$core" >"$tmp/want.$f" 2>/dev/null
		if [ -s "$tmp/want.$f" ] && cmp -s "$tmp/want.$f" "$t/$f.txt"; then
			ok "$c: $f.txt is what --$f writes"
		else
			nok "$c: $f.txt differs from what --$f writes"
		fi
	done
	if grep -q '^panic message: sysrq triggered crash$' "$t/summary.txt" &&
		grep -q '^uptime at the panic: [0-9]*\.[0-9]\{6\} s' "$t/summary.txt"; then
		ok "$c: summary.txt has the panic message and the uptime at the panic"
	else
		nok "$c: summary.txt lacks the panic message or the uptime at the panic"
	fi
	if (cd "$t" && sha256sum -c --quiet manifest.sha256) >/dev/null 2>&1 &&
		[ "$(wc -l <"$t/manifest.sha256")" = "$(ls "$t" | grep -vc '^manifest.sha256$')" ]; then
		ok "$c: manifest.sha256 lists and verifies every file"
	else
		nok "$c: manifest.sha256 does not verify or misses a file"
	fi
	bid=$(readelf -n "$VMLINUX" | sed -n 's/.*Build ID: //p' | head -n1)
	cpu=$("$KTRACE_BIN" -x "$VMLINUX" --panic-cpu "$core" 2>/dev/null)
	if grep -qx "release: $RELEASE" "$t/summary.txt" && grep -qx "build-id: $bid" "$t/summary.txt" &&
		grep -q "^panic cpu: $cpu (from panic_cpu)$" "$t/summary.txt" &&
		grep -q "last events on the panicking cpu $cpu:" "$t/summary.txt"; then
		ok "$c: summary.txt names release, build-id $bid and panic cpu $cpu"
	else
		nok "$c: summary.txt lacks release $RELEASE, build-id $bid or panic cpu $cpu"
	fi
	# the kernel's own last line on the panicking CPU is in the summary
	last=$(grep -av '^#' "$dir/truth/global.trace" | grep -aF "[$(printf %03d "$cpu")]" | tail -n1)
	if ! grep -Iq . "$dir/truth/global.trace"; then
		# option bin: after the text header, each entry is pid, cpu (s32
		# each) and time stamp (u64, ns), then the event's binary output,
		# here "type: N" lines; the summary's last line of the panicking
		# CPU (global buffer) must be that entry: its pid and time (us,
		# rounded as the kernel's ns2usecs does), in the kernel's byte
		# order (s390x: big-endian)
		bo='<'
		[ "${ARCH:-amd64}" = s390x ] && bo='>'
		blast=$(perl -e 'local $/; my $d = <STDIN>; my $i = 0; my $o = $ARGV[1];
			$i = index($d, "\n", $i) + 1 while substr($d, $i, 1) eq "#";
			my ($n, $last) = (0, "");
			while ($i + 16 <= length($d)) {
				my ($pid, $cpu, $ts) = unpack("l${o}l${o}Q${o}", substr($d, $i, 16));
				my $j = index($d, "\n", $i + 16);
				last if $j < 0;
				$i = $j + 1; $n++;
				next if $cpu != $ARGV[0];
				my $us = int(($ts + 500) / 1000);
				$last = sprintf("%d %d.%06d", $pid, $us / 1000000, $us % 1000000);
			}
			print "$n $last\n"' "$cpu" "$bo" <"$dir/truth/global.trace")
		read -r bn bpid bts <<<"$blast"
		sline=$(awk -v h="last events on the panicking cpu $cpu:" 'index($0, h) { on = 1; next }
			on && (/^buffer / || /^$/) { exit } on' "$t/summary.txt" | tail -n 1)
		if [ -z "$bts" ]; then
			nok "$c: no entry of cpu $cpu in the kernel's binary trace ($bn entries)"
		elif [[ $sline == *"-$bpid "*" $bts: "* ]]; then
			ok "$c: the kernel's trace is binary (option bin, $bn entries): its last entry of cpu $cpu (pid $bpid at $bts) is summary.txt's last line of that cpu"
		else
			nok "$c: the kernel's binary trace ends cpu $cpu with pid $bpid at $bts; summary.txt's last line of that cpu: '$sline'"
		fi
	elif grep -q '^# wakeup[_a-z]* latency trace v1.1.5 on ' "$dir/truth/global.trace"; then
		# a latency tracer: the kernel's trace file is the max buffer
		# (global.snapshot), its lines "comm-pid CPU flags time mark: ";
		# the mark is the gap to the next line of any CPU, so compared
		# without it (the summary shows the panicking CPU's alone)
		nomark() { sed 's/^\(.\{20\}[^ ]* *[0-9]*us\)[ +!#*@$]: /\1 : /'; }
		llast=$(grep -av -e '^#' -e '^ => ' "$dir/truth/global.trace" |
			awk -v c="$cpu" 'substr($0, 18, 3) + 0 == c' | tail -n1 | nomark)
		awk 'index($0, "buffer global.snapshot") == 1 { on = 1; next } /^buffer / { on = 0 } on' \
			"$t/summary.txt" | nomark >"$tmp/lsect"
		if [ -z "$llast" ]; then
			ok "$c: the kernel's latency trace has no line of cpu $cpu"
		elif grep -qF -- "${llast# }" "$tmp/lsect"; then
			ok "$c: summary.txt's global.snapshot shows the kernel's last latency line on cpu $cpu"
		else
			nok "$c: summary.txt's global.snapshot lacks the kernel's last latency line on cpu $cpu: '$llast'"
		fi
	elif grep -q '^# tracer: function_graph$' "$dir/truth/global.trace"; then
		# the graph's CPU column is " N) " (after the abstime one); the
		# kernel's last graph line of the panicking CPU is in the summary
		# (task-switch lines name the CPU whatever the options: not those)
		glast=$(grep -av -e '^#' -e ' => ' "$dir/truth/global.trace" |
			grep -aE "^( *[0-9]+\.[0-9]+ \|  )? $cpu\) " | tail -n1)
		if [ -z "$glast" ]; then
			# no CPU column (funcgraph-cpu or context-info off): the
			# summary's lines of that cpu (global buffer) must be lines of
			# the kernel's trace, in its order
			awk -v h="last events on the panicking cpu $cpu:" 'index($0, h) { on = 1; next }
				on && (/^buffer / || /^$/) { exit } on && !/^    none printed/' \
				"$t/summary.txt" >"$tmp/gsect"
			why=$(awk 'BEGIN { n = 0; i = 0 } NR == FNR { w[n++] = $0; next } i < n && $0 == w[i] { i++ }
				END { if (n == 0) print "no line"; else if (i < n) printf "line %d of %d not in the kernel'"'"'s trace in order: %s", i + 1, n, w[i] }' \
				"$tmp/gsect" "$dir/truth/global.trace")
			if [ -z "$why" ]; then
				ok "$c: the kernel's function_graph trace has no CPU column; summary.txt's $(wc -l <"$tmp/gsect") lines of cpu $cpu are lines of it, in order"
			else
				nok "$c: the kernel's function_graph trace has no CPU column; summary.txt's lines of cpu $cpu: $why"
			fi
		elif grep -qF -- "$glast" "$t/summary.txt"; then
			ok "$c: summary.txt shows the kernel's last graph line on cpu $cpu"
		else
			nok "$c: summary.txt lacks the kernel's last graph line on cpu $cpu: '$glast'"
		fi
	elif grep -q '^# DEV   CPU TIMESTAMP' "$dir/truth/global.trace"; then
		# blk_classic: the blk tracer's lines have their own CPU column,
		# the second ("MAJ,MIN CPU SECS.NSECS PID ACT RWBS ...")
		blast=$(grep -av '^#' "$dir/truth/global.trace" |
			awk -v c="$cpu" '$1 ~ /^[0-9]+,[0-9]+$/ && $2 == c' | tail -n1)
		if [ -z "$blast" ]; then
			no_cpu_line "$c" "$cpu" "$t/summary.txt" "$dir/truth/global.trace" "blk_classic line"
		elif grep -qF -- "$blast" "$t/summary.txt"; then
			ok "$c: summary.txt shows the kernel's last blk_classic line on cpu $cpu"
		else
			nok "$c: summary.txt lacks the kernel's last blk_classic line on cpu $cpu: '$blast'"
		fi
	elif ! grep -aq '\[[0-9]\{3\}\]' "$dir/truth/global.trace"; then
		# no CPU column (context-info off): the markers
		# name the CPU they were written on ("... cpuN i", taskset), so the
		# truth's last marker of cpu N must be among the summary's last events
		# shows the kernel's last marker of cpu N, unless more events of
		# that CPU followed it than the summary shows (the panic's own
		# writes when cpu N panicked): then its lines must be lines of the
		# kernel's trace in order, and no marker of another CPU among them
		m=$(grep -ao "ktrace-marker $c cpu$cpu [0-9]*" "$dir/truth/global.trace" | tail -n1)
		awk -v h="last events on the panicking cpu $cpu:" 'index($0, h) { on = 1; next }
			on && (/^buffer / || /^$/) { exit } on && !/^    none printed/' \
			"$t/summary.txt" >"$tmp/msect"
		sm=$(grep -ao "ktrace-marker $c cpu[0-9]* [0-9]*" "$tmp/msect" | tail -n1)
		why=$(awk 'BEGIN { n = 0; i = 0 } NR == FNR { w[n++] = $0; next } i < n && $0 == w[i] { i++ }
			END { if (n == 0) print "no line"; else if (i < n) printf "line %d of %d not in the kernel'"'"'s trace in order: %s", i + 1, n, w[i] }' \
			"$tmp/msect" "$dir/truth/global.trace")
		if [ -n "$m" ] && [ "$sm" = "$m" ]; then
			ok "$c: summary.txt shows the truth's last marker of cpu $cpu ('$m'; the kernel's trace has no CPU column)"
		elif [ -n "$m" ] && [ -z "$sm" ] && [ -z "$why" ]; then
			ok "$c: summary.txt's $(wc -l <"$tmp/msect") lines of cpu $cpu follow its last marker ('$m'): lines of the kernel's trace, in order (no CPU column)"
		else
			nok "$c: summary.txt's lines of cpu $cpu: last marker '${sm:-none}', the truth's '$m'${why:+; $why}"
		fi
	elif [ -z "$last" ]; then
		no_cpu_line "$c" "$cpu" "$t/summary.txt" "$dir/truth/global.trace" "line"
	elif grep -qF -- "$last" "$t/summary.txt"; then
		ok "$c: summary.txt shows the truth's last event on cpu $cpu"
	elif grep -F -- "${last%%: *}: " "$t/summary.txt" | grep -q ': \[not rendered\]$'; then
		# an event ktrace has no printer for (counted, exit 10): its record
		ok "$c: summary.txt shows the truth's last event on cpu $cpu, marked [not rendered]"
	else
		nok "$c: summary.txt lacks the truth's last event on cpu $cpu: '$last'"
	fi
	read_pages=$(sed -n 's/.*ring pages read from the dump \([0-9]*\),.*/\1/p' "$tmp/err")
	loss_pages=$(sed -n 's/^ktrace-extract: pages read: \([0-9]*\),.*/\1/p' "$tmp/err")
	if [ -n "$read_pages" ] && [ "$read_pages" = "$loss_pages" ]; then
		ok "$c: each of the $read_pages ring pages read from the dump once"
	else
		nok "$c: ring pages read from the dump '$read_pages', pages in the buffers '$loss_pages'"
	fi
	prof=$(ls "$t"/*.profile 2>/dev/null | head -n1)
	if [ -n "$prof" ] && "$KTRACE_BIN" -q -P "$prof" "$core" 2>/dev/null | cmp -s - "$tmp/want.txt"; then
		ok "$c: the ticket's profile reads the dump again to the same text"
	else
		nok "$c: the ticket's profile '$prof' does not read the dump to the same text"
	fi
	# the dump alone (its BTF and kallsyms; 5.10: with its System.map):
	# the same text, and a profile made from them that reads it again
	extra=
	[ "$SERIES" = 5.10 ] && extra="--system-map $SYSTEM_MAP"
	# shellcheck disable=SC2086
	"$KTRACE_BIN" -q --from-dump $extra --ticket "$t.alone" "$core" 2>"$tmp/err"
	rc=$?
	prof=$(ls "$t.alone"/*.profile 2>/dev/null | head -n1)
	if [ $rc != 0 ] && [ $rc != 10 ]; then
		nok "$c: --from-dump --ticket exit $rc: $(tail -n1 "$tmp/err")"
	elif cmp -s "$t.alone/trace.txt" "$tmp/want.txt" && [ -n "$prof" ] &&
		"$KTRACE_BIN" -q -P "$prof" "$core" 2>/dev/null | cmp -s - "$tmp/want.txt"; then
		ok "$c: dump-alone ticket: the DWARF run's text, and a profile from the dump's BTF that reads it again"
	else
		nok "$c: dump-alone ticket: text or its profile '$prof' differ from the DWARF run"
	fi
done

# archives, on one case: the same files, a manifest that verifies
c=$(kdump_case)
[ -n "$c" ] || { skip "archives: no case with a kdump-compressed dump"; finish; }
. "$VMCORES/$c/case.env"
for sfx in tar.gz tar.zst; do
	a=$tmp/ticket-$c.$sfx
	"$KTRACE_BIN" -q -x "$VMLINUX" --ticket "$a" "$VMCORES/$c/vmcore.kdump" 2>"$tmp/err"
	rc=$?
	mkdir -p "$tmp/un-$sfx"
	if [ $rc = 0 ] && tar -xf "$a" -C "$tmp/un-$sfx" &&
		(cd "$tmp/un-$sfx/ticket-$c" && sha256sum -c --quiet manifest.sha256) &&
		[ "$(ls "$tmp/un-$sfx/ticket-$c")" = "$(ls "$tmp/$c")" ] &&
		cmp -s "$tmp/un-$sfx/ticket-$c/trace.txt" "$tmp/$c/trace.txt"; then
		ok "$c: --ticket X.$sfx: tar reads it, same files, manifest verifies"
	else
		nok "$c: --ticket X.$sfx (exit $rc): $(tail -n1 "$tmp/err")"
	fi
	if ls "$tmp" | grep -q '\.tmp\.'; then
		nok "$c: --ticket X.$sfx left a temporary file or directory behind"
	fi
done

# a directory that did not exist, under missing parents: made, written
# under a temporary name and renamed (nothing else left beside it)
"$KTRACE_BIN" -q -x "$VMLINUX" --ticket "$tmp/new/parents/t" "$VMCORES/$c/vmcore.kdump" 2>"$tmp/err"
rc=$?
if [ $rc = 0 ] && [ "$(ls -A "$tmp/new/parents")" = t ] &&
	(cd "$tmp/new/parents/t" && sha256sum -c --quiet manifest.sha256) >/dev/null 2>&1; then
	ok "a new ticket directory under missing parents: made whole, its manifest verifies, nothing beside it"
else
	nok "a new ticket directory under missing parents: exit $rc, $(ls -A "$tmp/new/parents" 2>&1 | tr '\n' ' ') $(tail -n1 "$tmp/err")"
fi

# --fsync (the kdump hook's): every file fdatasync()ed, then the directory
# fsync()ed, renamed into place and its parent fsync()ed; without it no
# fdatasync (the profile made from DWARF is fsync()ed by itself either way)
if command -v strace >/dev/null; then
	# LeakSanitizer cannot run under ptrace: off for these two runs
	nolsan=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	ASAN_OPTIONS=$nolsan strace -f -e trace=fdatasync,fsync,rename -o "$tmp/strace" \
		"$KTRACE_BIN" -q -x "$VMLINUX" --fsync --ticket "$tmp/synced/t" "$VMCORES/$c/vmcore.kdump" 2>"$tmp/err"
	rc=$?
	nf=$(($(wc -l <"$tmp/synced/t/manifest.sha256" 2>/dev/null || echo 0) + 1))
	seq=$(sed -n 's/^[0-9]* *\(fdatasync\|fsync\|rename\)(.*/\1/p' "$tmp/strace" | uniq -c |
		awk '{ printf "%s%s x%d", (NR > 1 ? ", " : ""), $2, $1 }')
	ASAN_OPTIONS=$nolsan strace -f -e trace=fdatasync,fsync -o "$tmp/strace2" \
		"$KTRACE_BIN" -q -x "$VMLINUX" --ticket "$tmp/unsynced" "$VMCORES/$c/vmcore.kdump" 2>/dev/null
	# (the profile the ticket makes from the DWARF is synced and renamed
	# by itself first; stderr, a file here, is synced last)
	want="fdatasync x$nf, fsync x1, rename x1, fsync x1, fdatasync x1"
	if [ $rc = 0 ] && case $seq in *"$want") true ;; *) false ;; esac &&
		! grep -q 'datasync(' "$tmp/strace2"; then
		ok "--fsync: ends with $want (the $nf files, the directory, its rename, the parent, stderr); without it no fdatasync"
	else
		nok "--fsync: exit $rc, calls: $seq (want it to end with $want); without: $(grep -c 'datasync(' "$tmp/strace2") fdatasync"
	fi
else
	skip "--fsync: strace is not installed (scripts/install-deps)"
fi

# a ticket that cannot be written (a parent is a file): exit 1 with the
# path in the message
: >"$tmp/afile"
"$KTRACE_BIN" -q -x "$VMLINUX" --ticket "$tmp/afile/such/dir" "$VMCORES/$c/vmcore.kdump" 2>"$tmp/err"
rc=$?
if [ $rc = 1 ] && grep -q "$tmp/afile/such/dir" "$tmp/err"; then
	ok "unwritable ticket directory: exit 1, $(head -n1 "$tmp/err" | cut -c1-100)"
else
	nok "unwritable ticket directory: exit $rc: $(head -n1 "$tmp/err")"
fi
finish
