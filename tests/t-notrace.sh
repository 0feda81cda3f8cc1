#!/bin/bash
# t-notrace.sh - a dump of a kernel whose tracing was never on (cases with
# NOTRACE=1 in case.env, e.g. k6.1-notrace: no event, no marker, buffers
# never expanded). ktrace-extract must exit with status 6 and say on stderr
# that the buffers are empty because tracing was off; --list must still work
# (status 0) and show every per-CPU buffer, with no entry.
# Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
found=
for c in $(all_cases); do
	grep -q '^NOTRACE=1' "$VMCORES/$c/case.env" && found="$found $c"
done
[ -n "$found" ] || {
	echo "skip - no NOTRACE case in $VMCORES (run scripts/make-vmcores k6.1-notrace)"
	exit 77
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t-notrace.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

for c in $found; do
	dir=$VMCORES/$c
	unset CASE VMLINUX INSTANCES FORMATS CPUS
	. "$dir/case.env"
	[ -r "$VMLINUX" ] || { nok "$c: vmlinux $VMLINUX not readable"; continue; }
	for fmt in $(formats_of "$c"); do
		core=$dir/vmcore.$fmt
		[ -f "$core" ] || { nok "$c/$fmt: $core missing"; continue; }
		for sel in "" "-i global"; do
			what="$c/$fmt${sel:+ $sel}"
			# shellcheck disable=SC2086
			"$KTRACE_BIN" -x "$VMLINUX" $sel "$core" >"$tmp/out" 2>"$tmp/err"
			rc=$?
			if [ $rc != 6 ]; then
				nok "$what: exit status $rc, not 6: $(tail -n 2 "$tmp/err" | tr '\n' ' ')"
			elif ! grep -q 'empty.*tracing was off' "$tmp/err"; then
				nok "$what: status 6 but stderr does not say tracing was off: $(tail -n 2 "$tmp/err" | tr '\n' ' ')"
			elif grep -v '^#' "$tmp/out" | grep -q .; then
				nok "$what: status 6 but events on stdout: $(grep -v '^#' "$tmp/out" | head -n 1)"
			else
				ok "$what: exit status 6, '$(grep -m1 'tracing was off' "$tmp/err" | sed 's/.*: the trace/the trace/')'"
			fi
		done
		"$KTRACE_BIN" -x "$VMLINUX" --list "$core" >"$tmp/list" 2>"$tmp/err"
		rc=$?
		# BUFFER CPU PAGES SUBBUF ENTRIES ...: one line per CPU, no entry
		rows=$(awk '$1 == "global" && $2 ~ /^[0-9]+$/' "$tmp/list" | wc -l)
		full=$(awk '$1 == "global" && $2 ~ /^[0-9]+$/ && $5 != 0' "$tmp/list" | wc -l)
		if [ $rc != 0 ]; then
			nok "$c/$fmt: --list exit status $rc: $(tail -n 2 "$tmp/err" | tr '\n' ' ')"
		elif [ "$rows" != "$CPUS" ]; then
			nok "$c/$fmt: --list shows $rows per-CPU rows of global, not $CPUS: $(tr '\n' '|' <"$tmp/list")"
		elif [ "$full" != 0 ]; then
			nok "$c/$fmt: --list shows entries in $full per-CPU buffers: $(tr '\n' '|' <"$tmp/list")"
		else
			ok "$c/$fmt: --list exits 0 and shows the $CPUS empty per-CPU buffers of global"
		fi
	done
done
finish
