#!/bin/bash
# The function_graph tracer on the k*-fgraph* fixtures (tests/vmcores): the
# text of ktrace-extract is the kernel's own trace file, whole and identical
# (every line, the header included, nothing more but ktrace's "# ktrace:"
# notes), with no warning and exit 0; each fixture shows what its recipe
# sets out to show (in the kernel's file); the JSON holds every record of
# the buffer (the per-CPU "entries" of the kernel's stats) and as many
# graph entries and returns as the kernel's lines show calls and returns.
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

# kernel FILE REGEX WHAT: the kernel's trace shows it (the fixture covers it)
kernel() {
	if grep -qE -- "$2" "$1"; then
		ok "$c/global: the kernel's trace has $3"
	else
		nok "$c/global: the kernel's trace has no $3 (/$2/): the fixture does not cover it"
	fi
}

for c in $(cases); do
	case $c in *-fgraph*) ;; *) continue ;; esac
	dir=$VMCORES/$c
	unset CASE VMLINUX INSTANCES FORMATS
	. "$dir/case.env"
	truth=$dir/truth/global.trace
	grep -q '^# tracer: function_graph$' "$truth" ||
		{ nok "$c/global: the kernel's trace is not function_graph's"; continue; }
	for fmt in $(formats_of "$c"); do
		n=$((n + 1))
		core=$dir/vmcore.$fmt
		"$KTRACE_BIN" -x "$VMLINUX" -i global "$core" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		grep -v '^# ktrace: ' "$tmp/out" >"$tmp/text"
		if [ $rc != 0 ]; then
			nok "$c/$fmt/global: exit $rc: $(tail -n 2 "$tmp/err" | tr '\n' ' ')"
		elif cmp -s "$tmp/text" "$truth"; then
			ok "$c/$fmt/global: identical to the kernel's trace ($(wc -l <"$truth") lines)"
		else
			nok "$c/$fmt/global: differs from the kernel's trace: $(diff "$truth" "$tmp/text" |
				grep -m 2 '^[<>]' | tr '\n' ' ')"
		fi
		if grep -v '^ktrace-extract: \(pages read\|events overwritten\)' "$tmp/err" | grep -q .; then
			nok "$c/$fmt/global: stderr says more than the loss summary: $(head -n 2 "$tmp/err" | tr '\n' ' ')"
		else
			ok "$c/$fmt/global: nothing said on stderr but the loss summary"
		fi
	done
	# what each fixture is for, in the kernel's own file
	kernel "$truth" '\(\);$' "leaf calls folded with their return"
	kernel "$truth" '\(\) \{$' "nested calls"
	kernel "$truth" '/\* ktrace-marker .* \*/$' "markers as comments"
	case $c in
	*-fgraph)
		kernel "$truth" '^# CPU  DURATION                  FUNCTION CALLS$' "the default header"
		kernel "$truth" '^ [0-9]\) \+ [0-9.]+ us   \|' "'+' durations over 10 us"
		kernel "$truth" '^ [0-9]\) +[a-z<.]+-[0-9]+ +=> +[a-z<.]+-[0-9]+ *$' "a task-switch line"
		;;
	*-fgraph2)
		kernel "$truth" '^ +[0-9]+\.[0-9]{6} \| +[^ ]+-[0-9]+ +\| ' "abstime and proc columns"
		kernel "$truth" '\} /\* [a-z_]+ \*/$' "closing braces named (funcgraph-tail)"
		kernel "$truth" '/\* sched_switch: .* \*/$' "events as comments"
		kernel "$truth" ' => ' "task-switch lines"
		# (verif_pid() prints the CPU in a task-switch line whatever the option)
		grep -v ' => ' "$truth" | grep -qE '^ [0-9]\) ' &&
			nok "$c/global: a CPU column with funcgraph-cpu off" ||
			ok "$c/global: no CPU column (funcgraph-cpu off)"
		;;
	k6.1-fgraph3)
		kernel "$truth" '^# CPU               FUNCTION CALLS$' "the header without DURATION"
		kernel "$truth" '^ [0-9]\) +\} /\* [a-z_]+ \*/$' "returns whose entry was overwritten"
		kernel "$truth" '^ \(Overruns: [0-9]+\)$' "overruns after each return (funcgraph-overrun)"
		;;
	k6.12-fgraph3)
		[ "$(grep -c '^#' "$truth")" = 2 ] && ok "$c/global: the kernel's header is the tracer's name alone" ||
			nok "$c/global: the kernel's header is more than the tracer's name"
		kernel "$truth" '^ +\} /\* [a-z_]+ \*/$' "returns whose entry was overwritten"
		grep -v ' => ' "$truth" | grep -q '|' && nok "$c/global: a column with context-info off" ||
			ok "$c/global: no column (context-info off)"
		;;
	esac
	# JSON: every record the kernel held, and the calls and returns the text shows
	"$KTRACE_BIN" -x "$VMLINUX" -i global --json "$dir/vmcore.${FORMATS%% *}" \
		2>/dev/null >"$tmp/json"
	entries=$(cat "$dir"/truth/global.cpu*.stats | awk '/^entries:/ { s += $2 } END { print s + 0 }')
	nj=$(grep -c '^{"instance"' "$tmp/json")
	ent_j=$(grep -c '"event":"funcgraph_entry"' "$tmp/json")
	ret_j=$(grep -c '"event":"funcgraph_exit"' "$tmp/json")
	body=$(grep -v '^#' "$truth")
	leaf=$(grep -cE '\(\);$' <<<"$body")
	open=$(grep -cE '\(\) \{$' <<<"$body")
	close=$(grep -cE '(\}|\} /\* [A-Za-z0-9_.]+ \*/)$' <<<"$body")
	if [ "$nj" = "$entries" ]; then
		ok "$c/global: JSON has the $nj records the kernel's stats count"
	else
		nok "$c/global: JSON has $nj records, the kernel's stats $entries"
	fi
	if [ "$ent_j" = $((leaf + open)) ] && [ "$ret_j" = $((leaf + close)) ]; then
		ok "$c/global: JSON has $ent_j entries and $ret_j returns: the kernel's $leaf leaves, $open calls, $close returns"
	else
		nok "$c/global: JSON has $ent_j entries, $ret_j returns; the kernel's text $leaf leaves, $open calls, $close returns"
	fi
done
[ $n = 0 ] && { echo "skip - no function_graph fixture in $VMCORES (scripts/make-vmcores k6.1-fgraph ...)"; exit 77; }
finish
