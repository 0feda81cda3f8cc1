#!/bin/bash
# ktrace-extract over the vmcore matrix, against the kernel's own rendering
# of the same buffers (truth/<buffer>.trace, copied by the guest just
# before the panic): every line of the truth must appear in our output, in
# order and identical, and our last event must be the truth's last event.
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
n=0
for c in $(cases); do
	dir=$VMCORES/$c
	unset CASE VMLINUX INSTANCES FORMATS
	. "$dir/case.env"
	for fmt in $FORMATS; do
		core=$dir/vmcore.$fmt
		[ -f "$core" ] || { nok "$c: $fmt: $core missing"; continue; }
		for inst in $INSTANCES; do
			truth=$dir/truth/$inst.trace
			n=$((n + 1))
			out=$(mktemp); err=$(mktemp)
			"$KTRACE_BIN" -x "$VMLINUX" -i "$inst" "$core" >"$out" 2>"$err"
			rc=$?
			if [ $rc != 0 ]; then
				nok "$c/$fmt/$inst: exit status $rc: $(tail -n 3 "$err" | tr '\n' ' ')"
				rm -f "$out" "$err"; continue
			fi
			miss=$(awk 'BEGIN { n = 0; i = 0 } NR==FNR { t[n++] = $0; next }
				    i < n && $0 == t[i] { i++ }
				    END { if (i < n) printf "truth line %d not found in order: %s", i + 1, t[i] }' \
				"$truth" "$out")
			last_t=$(grep -v '^#' "$truth" | tail -n 1)
			last_o=$(grep -v '^#' "$out" | tail -n 1)
			var=LAST_MARKER_$inst
			marker=${!var:-}
			if [ -n "$miss" ]; then
				nok "$c/$fmt/$inst: $miss"
			elif [ "$last_t" != "$last_o" ]; then
				nok "$c/$fmt/$inst: output ends with '$last_o', the kernel's with '$last_t'"
			elif [ -n "$marker" ] && ! grep -v '^#' "$out" | grep -qF -- "$marker"; then
				nok "$c/$fmt/$inst: last marker '$marker' not in the output"
			else
				ok "$c/$fmt/$inst: $(grep -vc '^#' "$truth") kernel lines found in order, ends at the last event"
			fi
			# JSON carries the same events
			"$KTRACE_BIN" -x "$VMLINUX" -i "$inst" --json "$core" >"$out" 2>/dev/null
			ne_j=$(grep -c '^{"instance"' "$out")
			ne_t=$(grep -v '^#' "$truth" | grep -vc '^CPU:.*LOST')
			lastj=$(grep '^{"instance"' "$out" | tail -n 1)
			if [ "$ne_j" -lt "$ne_t" ]; then
				nok "$c/$fmt/$inst: JSON has $ne_j events, the kernel's trace $ne_t"
			elif [ -n "$marker" ] && [[ "$lastj" != *"$marker"* ]] && \
			     ! grep '^{"instance"' "$out" | tail -n 20 | grep -qF -- "$marker"; then
				nok "$c/$fmt/$inst: JSON does not end near the last marker"
			else
				ok "$c/$fmt/$inst: JSON has the $ne_j events"
			fi
			rm -f "$out" "$err"
		done
	done
done
[ $n = 0 ] && { echo "skip - no vmcore fixtures in $VMCORES (run scripts/make-vmcores)"; exit 77; }
finish
