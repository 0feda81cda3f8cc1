#!/bin/bash
# ktrace-extract over the vmcore matrix, against the kernel's own rendering
# of the same buffers (truth/<buffer>.trace, copied by the guest just
# before the panic): every line of the truth must appear in our output, in
# order and identical, and our last event must be the truth's last event.
# A kernel Debian ships no -dbg package of (DUMP_ALONE=1: k6.18) is read
# from the dump alone (--from-dump), the others with their vmlinux.
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
n=0
for c in $(cases) $(dump_alone_cases); do
	dir=$VMCORES/$c
	unset CASE VMLINUX INSTANCES FORMATS NOTRACE RELEASE SERIES DUMP_ALONE
	. "$dir/case.env"
	read_mode
	# today's kernels are made again when the mirror moves on: a failure
	# there names the release the matrix had not seen
	case ${SERIES:-} in sid | trixie-backports | 6.18) NOK_WHO="[kernel $RELEASE, $SERIES's newest]" ;; *) NOK_WHO= ;; esac
	# tracing never on: no truth to compare with (tests/t-notrace.sh)
	[ "${NOTRACE:-}" = 1 ] && { skip "$c: NOTRACE case, see t-notrace.sh"; continue; }
	# the DWARF is read one unit at a time, never the whole file (the
	# peak RSS of issue 16): elfutils 0.192 (Debian 13, t-trixie) refused
	# our one-unit images once, and ktrace-extract read the whole file
	core=$dir/vmcore.${FORMATS%% *}
	if [ -f "$core" ] && [ "${DUMP_ALONE:-}" != 1 ]; then
		whole=$(KTRACE_DEBUG=1 "$KTRACE_BIN" -x "$VMLINUX" --list "$core" 2>&1 >/dev/null |
			grep 'DWARF:.*reading the whole file')
		if [ -n "$whole" ]; then
			nok "$c: $whole"
		else
			ok "$c: DWARF read one unit at a time (no whole-file fallback)"
		fi
	fi
	for fmt in $(formats_of "$c"); do
		core=$dir/vmcore.$fmt
		[ -f "$core" ] || { nok "$c: $fmt: $core missing"; continue; }
		for inst in $INSTANCES; do
			truth=$dir/truth/$inst.trace
			n=$((n + 1))
			out=$(mktemp); err=$(mktemp)
			kx "$out" "$err" "${RD[@]}" -i "$inst" "$core"
			rc=$?
			# bin, sym-userobj...: what ktrace says it does not print as the
			# kernel does is checked by t-options.sh, not line by line here
			# (so here: it must say which, count them and exit 10)
			if [ $rc = 10 ] && grep -q 'not printed as the kernel would' "$err"; then
				nun=$(sed -n 's/.*not printed as the kernel would.*: \([0-9]*\)$/\1/p' "$err" | head -n 1)
				if grep -q 'not printed as the kernel would.*: [1-9]' "$err" &&
					grep -q 'option [a-z-]* is on' "$err"; then
					ok "$c/$fmt/$inst: names the option it does not print as the kernel would, counts $nun events, exit 10"
				elif grep -q 'cannot print as the kernel did' "$err" &&
					[ "$(grep -c ': \[not rendered\]$' "$out")" = "$nun" ]; then
					# an event ktrace has no printer for (6.19+'s syscall
					# printer): each of its records marked and counted, every
					# other line the kernel's own, in order
					grep -v ': \[not rendered\]$' "$out" | grep -av '^#' >"$out.rest"
					miss=$(awk 'NR==FNR { t[$0] = 1; next } !($0 in t) { print; exit }' \
						"$truth" "$out.rest")
					if [ -n "$miss" ]; then
						nok "$c/$fmt/$inst: beside its [not rendered] records, a line the kernel did not print: $miss"
					else
						ok "$c/$fmt/$inst: $nun records of $(sed -n 's/^ktrace: warning: \([^ ]*\) (id.*cannot print as the kernel did.*/\1/p' "$err" | sort -u | tr '\n' ' ')marked [not rendered] and counted, exit 10; its $(wc -l <"$out.rest") other lines the kernel's"
					fi
					rm -f "$out.rest"
				else
					nok "$c/$fmt/$inst: exit 10 without naming the option: $(tail -n 2 "$err" | tr '\n' ' ')"
				fi
				rm -f "$out" "$err"; continue
			fi
			if [ $rc != 0 ]; then
				nok "$c/$fmt/$inst: exit status $rc: $(tail -n 3 "$err" | tr '\n' ' ')"
				rm -f "$out" "$err"; continue
			fi
			miss=$(awk 'BEGIN { n = 0; i = 0 } NR==FNR { t[n++] = $0; next }
				    i < n && $0 == t[i] { i++ }
				    END { if (i < n) printf "truth line %d not found in order: %s", i + 1, t[i] }' \
				"$truth" "$out")
			# a line may hold a NUL (a %c of 0): dropped from both, as bash
			# would, but said so (bash warns on stderr, which run-tests.sh
			# counts as the script not running as written)
			last_t=$(grep -av '^#' "$truth" | tail -n 1 | tr -d '\0')
			last_o=$(grep -av '^#' "$out" | tail -n 1 | tr -d '\0')
			var=LAST_MARKER_$inst
			marker=${!var:-}
			if [ -n "$miss" ]; then
				nok "$c/$fmt/$inst: $miss"
			elif [ "$last_t" != "$last_o" ]; then
				nok "$c/$fmt/$inst: output ends with '$last_o', the kernel's with '$last_t'"
			elif [ -n "$marker" ] && grep -qF -- "$marker" "$truth" &&
				! grep -av '^#' "$out" | grep -qF -- "$marker"; then
				nok "$c/$fmt/$inst: last marker '$marker' not in the output"
			else
				ok "$c/$fmt/$inst: $(grep -vc '^#' "$truth") kernel lines found in order, ends at the last event"
			fi
			# JSON carries the same events: same order, time stamps and text
			grep -av '^#' "$out" | grep -v '^CPU:.*LOST' |
				sed -n 's/^.\{16\}-[0-9]* *\(([ 0-9-]*) \)\{0,1\}\[\([0-9]*\)\] [^ ]* *\([0-9]*\.[0-9]*\): \(.*\)$/\2 \3 \4/p' |
				sed 's/^0*\([0-9]\)/\1/' >"$err"
			kx "$out" /dev/null "${RD[@]}" -i "$inst" --json "$core"
			ne_j=$(grep -c '^{"instance"' "$out")
			# (hex prints an empty line after each event)
			ne_t=$(grep -av '^#' "$truth" | grep -v '^CPU:.*LOST' | grep -v '^ => ' |
				grep -v '^$' | grep -vc '^#####')
			jdiff=$(grep '^{"instance"' "$out" |
				sed 's/^.*"cpu":\([0-9]*\),.*"timestamp":"\([0-9.]*\)".*"text":"\(.*\)"}$/\1 \2 \3/' |
				sed 's/\\n.*//; s/\\"/"/g; s/\\\\/\\/g' | diff - "$err" | head -n 4)
			if [ "$ne_j" -lt "$ne_t" ]; then
				nok "$c/$fmt/$inst: JSON has $ne_j events, the kernel's trace $ne_t"
			elif [ ! -s "$err" ]; then
				# raw, hex, context-info off: no context columns to match
				ok "$c/$fmt/$inst: JSON has $ne_j events (the text has no context columns: options)"
			elif [ -n "$jdiff" ]; then
				nok "$c/$fmt/$inst: JSON events differ from the text: $(echo "$jdiff" | tr '\n' ' ')"
			else
				ok "$c/$fmt/$inst: JSON has the same $ne_j events (cpu, time stamp, text)"
			fi
			# ftrace's print records (trace_marker): fields.buf is the
			# message (char buf[], size 0: the rest of the record)
			pbad=$(perl -ne 'next unless /"system":"ftrace","event":"print"/; $n++;
				my ($b) = /"buf":"((?:[^"\\]|\\.)*)"/; my ($t) = /"text":"((?:[^"\\]|\\.)*)"}$/;
				$b =~ s/\\n$//; $bad++ if !defined $b || $b eq "" || substr($t, -length($b)) ne $b;
				END { print $n ? ($bad // 0) . " $n" : "" }' "$out")
			if [ -n "$pbad" ]; then
				[ "${pbad%% *}" = 0 ] && ok "$c/$fmt/$inst: JSON: fields.buf of all ${pbad#* } print records is the message the text ends with" ||
					nok "$c/$fmt/$inst: JSON: fields.buf of ${pbad%% *} of ${pbad#* } print records is not the message"
			fi
			rm -f "$out" "$err"
		done
	done
done
[ $n = 0 ] && { echo "skip - no vmcore fixtures in $VMCORES (run scripts/make-vmcores)"; exit 77; }
finish
