#!/bin/bash
# The dump as its own debuginfo: types from the BTF inside the dump,
# symbols from its kallsyms (VMCOREINFO lists them since 6.0) or, for older
# kernels, from --system-map. For every fixture case whose kernel has BTF,
# on every dump format, the text, the JSON Lines, the event formats and
# trace.dat read from the dump alone are byte-identical to the DWARF run's,
# with the same exit status. Without -x and with no vmlinux to be found,
# ktrace-extract takes this path by itself and says so on one line. A 5.10
# dump without --system-map is refused with the reason (status 4).
# Damaged copies (scripts/make-damaged-btf): BTF cut short, BTF corrupted,
# kallsyms tables unreadable (of 6.1, and of 7.x's names and place-relative
# offsets): a clear message, what can be recovered is written, and the
# documented status.
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME ARGS...: output to $tmp/NAME.out, stderr to $tmp/NAME.err, status in $rc
run() {
	local name=$1; shift
	kx "$tmp/$name.out" "$tmp/$name.err" "$@"
	rc=$?
}
first_diff() { diff "$1" "$2" | sed -n 2p | cut -c1-160; }

n=0
for c in $(cases); do
	# types and symbols are the kernel's; of the workloads, those whose
	# lines name symbols or take BTF's function arguments
	sanitize_subject "$c" '*-modev' '*-dynev' '*-fargs' '*-fgargs' '*-func' '*-sysc' || continue
	dir=$VMCORES/$c
	unset CASE VMLINUX SYSTEM_MAP RELEASE FORMATS SERIES
	. "$dir/case.env"
	[ -f "$VMLINUX" ] || { nok "$c: $VMLINUX missing"; continue; }
	if ! readelf -SW "$VMLINUX" 2>/dev/null | grep -q ' \.BTF '; then
		skip "$c: $RELEASE has no BTF"
		continue
	fi
	# before 6.0 the dump does not list its kallsyms tables
	alone=(--from-dump)
	case $SERIES in
	4.*|5.*) alone=(--system-map "$SYSTEM_MAP");;
	esac
	n=$((n + 1))
	for fmt in $(source_formats_of "$c"); do
		core=$dir/vmcore.$fmt
		[ -f "$core" ] || continue
		bad=
		for out in text:"" json:-j events:-e dat:dat; do
			kind=${out%%:*} arg=${out#*:}
			args=()
			if [ "$kind" = dat ]; then args=(-o "$tmp/K.dat"); elif [ -n "$arg" ]; then args=("$arg"); fi
			run ref -x "$VMLINUX" "${args[@]/%\/K.dat/\/ref.dat}" "$core"; ref_rc=$rc
			run dump "${alone[@]}" "${args[@]/%\/K.dat/\/dump.dat}" "$core"
			if [ $rc != $ref_rc ]; then
				bad="$bad; $kind: status $rc, with DWARF $ref_rc: $(grep -v '^ktrace-extract: \(pages\|events\)' "$tmp/dump.err" | head -n 2 | tr '\n' ' ')"
			elif [ $kind = dat ] && ! cmp -s "$tmp/ref.dat" "$tmp/dump.dat"; then
				bad="$bad; trace.dat differs from DWARF's ($(cmp "$tmp/ref.dat" "$tmp/dump.dat" | head -n 1))"
			elif ! cmp -s "$tmp/ref.out" "$tmp/dump.out"; then
				bad="$bad; $kind differs from DWARF's: $(first_diff "$tmp/ref.out" "$tmp/dump.out")"
			elif grep -q 'several values' "$tmp/dump.err"; then
				bad="$bad; $kind: $(grep 'several values' "$tmp/dump.err")"
			fi
			[ $kind = text ] && lines=$(grep -vc '^#' "$tmp/dump.out")
		done
		if [ -n "$bad" ]; then
			nok "$c/$fmt: ${alone[*]}:${bad#;}"
		else
			ok "$c/$fmt: ${alone[*]}: text ($lines lines), JSON, formats and trace.dat identical to DWARF's, same status"
		fi
	done
	# by itself: no -x, and HOME without the cached vmlinux
	core=$dir/vmcore.${FORMATS%% *}
	if [ "${alone[0]}" = --from-dump ]; then
		run ref -x "$VMLINUX" "$core"; ref_rc=$rc
		HOME=$tmp run auto "$core"
		if [ $rc != $ref_rc ]; then
			nok "$c: without -x (no vmlinux found): status $rc, with DWARF $ref_rc: $(head -n 2 "$tmp/auto.err" | tr '\n' ' ')"
		elif ! cmp -s "$tmp/auto.out" "$tmp/ref.out"; then
			nok "$c: without -x (no vmlinux found): text differs from DWARF's: $(head -n 3 "$tmp/auto.err" | tr '\n' ' ')"
		elif [ "$(grep -c "no vmlinux or profile for $RELEASE: types from the dump's BTF" "$tmp/auto.err")" != 1 ]; then
			nok "$c: without -x: no one-line note on stderr: $(head -n 2 "$tmp/auto.err" | tr '\n' ' ')"
		else
			ok "$c: without -x and no vmlinux found: the dump alone, said once: $(head -n 1 "$tmp/auto.err" | cut -c1-140)"
		fi
	else
		run nomap --from-dump "$core"
		if [ $rc = 4 ] && grep -q 'does not list the kallsyms tables (kernels before 6.0 do not).*--system-map' "$tmp/nomap.err"; then
			ok "$c: --from-dump without --system-map: status 4, $(cut -c1-120 "$tmp/nomap.err" | head -n 1)"
		else
			nok "$c: --from-dump without --system-map: status $rc (want 4): $(head -n 1 "$tmp/nomap.err")"
		fi
	fi
done
# a kernel without a -dbg package: no DWARF run to compare with (cases()
# leaves it out); t-dumpalone.sh reads it
for c in $(dump_alone_cases); do
	skip "$c: no vmlinux (Debian ships no -dbg package of its kernel): no DWARF run to compare with (t-truth and t-dumpalone read it from the dump alone)"
done
[ $n = 0 ] && { echo "skip - no vmcore fixtures with BTF in $VMCORES (run scripts/make-vmcores)"; exit 77; }

# another kernel's System.map is refused
maps=()
for c in $(cases); do maps+=("$(. "$VMCORES/$c/case.env"; echo "$RELEASE $SYSTEM_MAP")"); done
c61=$(cases | grep -x 'k6.1' || true)
if [ -n "$c61" ]; then
	other=$(printf '%s\n' "${maps[@]}" | awk '$1 !~ /^6\.1\./ { print $2; exit }')
	if [ -n "$other" ]; then
		run wrongmap --system-map "$other" "$VMCORES/k6.1/vmcore.elf"
		if [ $rc = 5 ] && grep -q "System.map $other: init_uts_ns is at .*not the crashed kernel's" "$tmp/wrongmap.err"; then
			ok "k6.1: another kernel's System.map refused: status 5"
		else
			nok "k6.1: another kernel's System.map: status $rc (want 5): $(head -n 1 "$tmp/wrongmap.err")"
		fi
	fi
fi

# damaged copies of k6.1's ELF dump
[ -f "$VMCORES/k6.1/case.env" ] || { finish; }
"$src/scripts/make-damaged-btf" >"$tmp/mk.log" 2>&1 || { nok "scripts/make-damaged-btf failed: $(tail -n 2 "$tmp/mk.log")"; finish; }
D=$KTRACE_CACHE/damaged-btf
. "$VMCORES/k6.1/case.env"
run ref -x "$VMLINUX" "$VMCORES/k6.1/vmcore.elf"
# expect NAME STATUS ARGS...: status and stderr checked by the caller's regexes in $want
expect() {
	local name=$1 status=$2 re miss=
	shift 2
	run "$name" "$@"
	for re in "${want[@]}"; do
		grep -Eq -- "$re" "$tmp/$name.err" || miss="$miss '$re'"
	done
	if [ $rc != "$status" ]; then
		nok "$name: status $rc, want $status: $(head -c 300 "$tmp/$name.err" | tr '\n' ' ')"
		return 1
	elif [ -n "$miss" ]; then
		nok "$name: stderr lacks$miss: $(head -c 300 "$tmp/$name.err" | tr '\n' ' ')"
		return 1
	fi
	return 0
}

# BTF cut short: its last pages (strings) unreadable
want=("BTF of the dump at 0x[0-9a-f]+ \([0-9]+ bytes\) is damaged: [1-9][0-9]* bytes unreadable.*types named there are lost")
if expect btf-cut 10 --from-dump "$D/btf-cut.elf"; then
	if [ "$(grep -vc '^#' "$tmp/btf-cut.out")" -gt 0 ] && cmp -s "$tmp/btf-cut.out" "$tmp/ref.out"; then
		ok "btf-cut: status 10, the trace written (identical to DWARF's: the lost names were not asked); $(grep -o 'is damaged: [^;]*' "$tmp/btf-cut.err")"
	elif [ "$(grep -c 'ktrace-marker' "$tmp/btf-cut.out")" -gt 0 ]; then
		ok "btf-cut: status 10, a trace written ($(grep -vc '^#' "$tmp/btf-cut.out") lines); $(grep -o 'is damaged: [^;]*' "$tmp/btf-cut.err")"
	else
		nok "btf-cut: status 10 but no trace written"
	fi
fi
# BTF corrupted: type records overwritten; libbpf refuses it, nothing to read with
want=("vmcore .*btf-corrupt.elf: BTF at 0x[0-9a-f]+ \([0-9]+ bytes, __start_BTF..__stop_BTF\): libbpf btf__new: .*damaged, no types; give -x VMLINUX or --profile")
expect btf-corrupt 4 --from-dump "$D/btf-corrupt.elf" &&
	ok "btf-corrupt: status 4 (no types without BTF): $(head -n 1 "$tmp/btf-corrupt.err" | sed "s|$D/||" | cut -c1-200)"
# BTF that parses with no types (type_len 0): damage (exit 4), not a
# kernel without ftrace (exit 6, which it was)
if [ -f "$D/btf-empty.elf" ]; then
	want=("vmcore .*btf-empty.elf: BTF at 0x[0-9a-f]+ .* has [0-9]+ types and no struct task_struct.*damaged, no types; give -x VMLINUX or --profile")
	expect btf-empty 4 --from-dump "$D/btf-empty.elf" &&
		ok "btf-empty: status 4: $(head -n 1 "$tmp/btf-empty.err" | sed "s|$D/||" | cut -c1-200)"
else
	nok "btf-empty: scripts/make-damaged-btf made no $D/btf-empty.elf"
fi
# ... and with the DWARF, the same dump still gives the whole trace
run btfc-dwarf -x "$VMLINUX" "$D/btf-corrupt.elf"
if [ $rc = 0 ] && cmp -s "$tmp/btfc-dwarf.out" "$tmp/ref.out"; then
	ok "btf-corrupt: with -x the trace is whole (the BTF is not read)"
else
	nok "btf-corrupt: with -x: status $rc, $(first_diff "$tmp/ref.out" "$tmp/btfc-dwarf.out")"
fi
# kallsyms unreadable: no symbols from the dump; with a System.map the
# trace is written, code addresses as numbers, status 10; with the vmlinux,
# the names come from its symbol table (KASLR applied): the kernel's lines,
# but not from its own table, so counted, status 10.
# ks_checks NAME DUMP WHY: NAME's damaged DUMP, whose kallsyms cannot be
# decoded for the reason matched by the regex WHY, of the kernel whose
# case.env is sourced and whose DWARF run is $tmp/ref.out
# (ALONE=no: a kernel whose VMCOREINFO lists no kallsyms, before 6.0)
ks_checks() {
	local name=$1 dump=$2 why=$3
	want=("kallsyms of the dump: $why.*no symbols; give --system-map")
	[ "${ALONE:-}" = no ] || { expect "$name-alone" 4 --from-dump "$dump" &&
		ok "$name: --from-dump: status 4: $(head -n 1 "$tmp/$name-alone.err" | sed "s|$D/||" | cut -c1-200)"; }
	want=("kallsyms of the dump cannot be read \($why.*printed as numbers")
	if expect "$name-map" 10 --system-map "$SYSTEM_MAP" "$dump"; then
		# the same events (task, CPU, time stamp); code addresses as numbers
		strip() { grep -v '^#' "$1" | awk '{ print $1, $2, $4 }'; }
		if [ "$(strip "$tmp/$name-map.out" | md5sum)" = "$(strip "$tmp/ref.out" | md5sum)" ] &&
			grep -q ': 0xffffffff[0-9a-f]*: ktrace-marker' "$tmp/$name-map.out"; then
			ok "$name: --system-map: status 10, every event written ($(grep -vc '^#' "$tmp/$name-map.out") lines), code addresses as numbers"
		else
			nok "$name: --system-map: the events differ from DWARF's: $(first_diff <(strip "$tmp/ref.out") <(strip "$tmp/$name-map.out"))"
		fi
	fi
	want=("the dump's kallsyms cannot be decoded \($why.*symbols from the vmlinux's symbol table"
		"code addresses named from the vmlinux's symbol table \(the dump's kallsyms could not be decoded\): [1-9]")
	if expect "$name-x" 10 -x "$VMLINUX" "$dump"; then
		if cmp -s <(grep -v '^#' "$tmp/$name-x.out") <(grep -v '^#' "$tmp/ref.out") &&
			grep -q '^# ktrace: code addresses named from the vmlinux' "$tmp/$name-x.out"; then
			ok "$name: -x: status 10, the kernel's lines ($(grep -vc '^#' "$tmp/$name-x.out")), names from the vmlinux, counted in the '# ktrace:' lines"
		else
			nok "$name: -x: $(first_diff <(grep -v '^#' "$tmp/ref.out") <(grep -v '^#' "$tmp/$name-x.out"))"
		fi
	fi
}
ks_checks kallsyms-hole "$D/kallsyms-hole.elf" "cannot read kallsyms_names at 0x[0-9a-f]+"
# 7.x (sid): its kallsyms_offsets are place-relative (kallsyms.c's third
# encoding); a hole in its names and one in its offsets; and damage that
# reads: a lost NUL in the token table (names would decode wrong), 16
# offsets overwritten (the addresses out of order)
if [ -f "$VMCORES/ksid/case.env" ] && [ -f "$D/kallsyms-hole-7.elf" ]; then
	. "$VMCORES/ksid/case.env"
	run ref -x "$VMLINUX" "$VMCORES/ksid/vmcore.elf"
	ks_checks kallsyms-hole-7 "$D/kallsyms-hole-7.elf" "cannot read kallsyms_names at 0x[0-9a-f]+"
	ks_checks kallsyms-offsets-hole-7 "$D/kallsyms-offsets-hole-7.elf" \
		"cannot read kallsyms_offsets at 0x[0-9a-f]+"
	ks_checks kallsyms-token-7 "$D/kallsyms-token-7.elf" \
		"kallsyms_token_index at 0x[0-9a-f]+: token [0-9]+ starts at [0-9]+, the token before it ends at [0-9]+: the tables are damaged"
	ks_checks kallsyms-order-7 "$D/kallsyms-order-7.elf" \
		"kallsyms_offsets at 0x[0-9a-f]+: the addresses are out of order at [0-9]+ places? \(the first: symbol [0-9]+ at 0x[0-9a-f]+ after 0x[0-9a-f]+\): the tables are damaged"
	# a letter of a token changed, its NUL kept: the table decodes, to
	# names out of kallsyms_seqs_of_names' order (6.1+)
	if [ -f "$D/kallsyms-letter-7.elf" ]; then
		ks_checks kallsyms-letter-7 "$D/kallsyms-letter-7.elf" \
			"kallsyms_seqs_of_names at 0x[0-9a-f]+: the decoded names are out of the kernel's name order at [1-9][0-9]* places? \(the first: '[^']+' before '[^']+'\): the tables are damaged"
	else
		nok "ksid is a fixture but make-damaged-btf made no kallsyms-letter-7.elf"
	fi
elif [ -f "$VMCORES/ksid/case.env" ]; then
	nok "ksid is a fixture but make-damaged-btf made no kallsyms-hole-7.elf"
fi
# 5.10: no kallsyms_seqs_of_names; the letter changed in a token is told
# by the names the vmlinux (or the System.map) does not know
if [ -f "$VMCORES/k5.10/case.env" ] && [ -f "$D/kallsyms-letter-5.elf" ]; then
	. "$VMCORES/k5.10/case.env"
	run ref -x "$VMLINUX" "$VMCORES/k5.10/vmcore.elf"
	ALONE=no ks_checks kallsyms-letter-5 "$D/kallsyms-letter-5.elf" \
		"[1-9][0-9]* of [0-9]+ names asked are not in the kernel's symbol table \(the vmlinux's or System.map\), the first '[^']+': the tables are damaged"
elif [ -f "$VMCORES/k5.10/case.env" ]; then
	nok "k5.10 is a fixture but make-damaged-btf made no kallsyms-letter-5.elf"
fi
finish
