#!/bin/bash
# Layout profiles (ktrace-extract --make-profile / --profile): for every
# fixture case, a profile made from the vmlinux DWARF, and one made from
# the BTF in the same vmlinux plus System.map, must give the output the
# DWARF gives (text of every buffer, the event formats, trace.dat), on
# every dump format, without asking a question the profile cannot answer.
# A profile of another kernel is refused (status 5); a corrupted one gives
# a clear error (status 4). Every question lib/ writes as a literal has
# its answer in the profiles (the maker asks what lib/questions.c has
# every recorder's probe ask), and a profile made from the vmlinux reads
# every recorder (the trace, krec's ring, --relay, --blktrace, --lttng,
# the ticket) as DWARF does.
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

# resign: a profile on stdin, edited, signed again as profile-make signs it
# (its "end" line: the count of lines before it and their FNV-1a hash)
resign() {
	python3 -c '
import sys
lines = sys.stdin.buffer.read().split(b"\n")[:-1]
keep = [l for l in lines if not l.startswith(b"end\t")]
h = 0xcbf29ce484222325
for l in keep:
    for b in l + b"\n":
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
sys.stdout.buffer.write(b"".join(l + b"\n" for l in keep) + b"end\t%d\t%016x\n" % (len(keep), h))
'
}
# noftrace: a profile on stdin whose trace_array has neither buffer member
# (answered absent, as a kernel whose tracing layout changed would be).
# The maker writes only what this kernel's answers lead lib/ to ask: with
# array_buffer there, trace_buffer (before 5.6) is never asked, so its
# absent line is added, as a profile of such a kernel would have it
noftrace() {
	grep -v -e '^member	struct trace_array	array_buffer	' \
		-e '^member	struct trace_array	trace_buffer	' -e '^end	' |
		sed '$a member\tstruct trace_array\tarray_buffer\t-\nmember\tstruct trace_array\ttrace_buffer\t-' |
		resign
}

# asked_by_lib SRC PROFILE...: every question lib/ writes as a literal
# (kt_symbol, kt_member__probe, layout.c's P(), LTTng's member(), the
# target's member and type_size) that no PROFILE answers, one a line,
# after the count of those met. The profile maker asks what lib/ asks
# (lib/questions.c); a question added to lib/ where neither a probe run
# nor questions.c's table asks it is found here, not in a capture.
asked_by_lib() {
	python3 - "$@" <<'EOF'
import re, sys, glob, os
src = sys.argv[1]
profiles = sys.argv[2:]
have = set()
for p in profiles:
    for l in open(p):
        f = l.rstrip('\n').split('\t')
        if f[0] in ('sym', 'nosym'): have.add(('s', f[1]))
        elif f[0] == 'member': have.add(('m', f[1], f[2]))
        elif f[0] == 'size': have.add(('z', f[1]))
# asked only after an earlier answer says so, on kernels the fixtures may not have
cond = {('m', 'struct ring_buffer', 'buffers'): 'before 5.6 only',
        ('m', 'struct trace_buffer', 'buffer'): 'before 5.6 only',
        ('m', 'struct trace_array', 'trace_buffer'): 'before 5.6 only',
        ('m', 'struct trace_array', 'snapshot_buffer'): '7.0+, when max_buffer is absent'}
S = r'"([^"]+)"'
pats = [('s', re.compile(r'kt_symbol\(s, ' + S)),
        ('m', re.compile(r'kt_member__probe\(s, ' + S + r', ' + S)),
        ('m', re.compile(r'\bP\(\w+, ' + S + r', ' + S)),
        ('m', re.compile(r't\.member\(s->t\.priv, ' + S + r',\s*' + S)),
        ('z', re.compile(r'type_size\(s(?:->t\.priv)?, ' + S))]
# lttng/find.c names its types by macros
missing = []
n = 0
for f in sorted(glob.glob(src + '/lib/**/*.c', recursive=True)):
    text = open(f).read()
    macros = {}
    for m in re.finditer(r'#define\s+(\w+)\s+"([^"]+)"', text):
        macros[m.group(1)] = m.group(2)
    local = [('m', re.compile(r'\bmember\(s, (\w+|"[^"]+"), ' + S))]
    for kind, pat in pats + local:
        for m in pat.finditer(text):
            g = m.groups()
            if pat is local[0][1]:
                t = g[0].strip('"') if g[0][0] == '"' else macros.get(g[0])
                if not t: continue
                g = (t, g[1])
            q = (kind,) + g
            n += 1
            if q not in have and q not in cond:
                missing.append('%s: %s' % (os.path.relpath(f, src), ' '.join(g)))
print(n)
for m in sorted(set(missing)): print(m)
EOF
}

# same_but_sign DWARF BTF: the files differ only where DWARF says (-X) and
# BTF says 2^8/2^16/2^32 - X (extract/types/dwarf.c reads DW_FORM_data1/2/4
# enumerator values as signed; BTF records the enum's signedness)
same_but_sign() {
	python3 - "$1" "$2" <<'EOF'
import re, sys
a = open(sys.argv[1]).read().split('\n'); b = open(sys.argv[2]).read().split('\n')
if len(a) != len(b): sys.exit(1)
for x, y in zip(a, b):
    if x == y: continue
    tx = re.split(r'(\(-\d+\)|\d+)', x); ty = re.split(r'(\(-\d+\)|\d+)', y)
    if len(tx) != len(ty): sys.exit(1)
    for u, v in zip(tx, ty):
        if u == v: continue
        m = re.fullmatch(r'\(-(\d+)\)', u)
        if not m or not v.isdigit() or int(v) + int(m.group(1)) not in (256, 65536, 2**32): sys.exit(1)
sys.exit(0)
EOF
}

n=0
# profiles made from a vmlinux alone depend on that vmlinux only: made once
# per kernel, each case of it reads with them
declare -A release_of profile_of dwarf_of btf_of
for c in $(cases); do
	dir=$VMCORES/$c
	unset CASE VMLINUX SYSTEM_MAP RELEASE FORMATS
	. "$dir/case.env"
	[ -f "$VMLINUX" ] || { nok "$c: $VMLINUX missing"; continue; }
	n=$((n + 1))
	if [ -n "${dwarf_of[$VMLINUX]:-}" ]; then
		prof=${dwarf_of[$VMLINUX]} bprof=${btf_of[$VMLINUX]}
	else
	prof=$tmp/$c.dwarf.profile
	t0=$(date +%s.%N)
	run mk-$c --make-profile "$prof" -x "$VMLINUX"
	t1=$(date +%s.%N)
	if [ $rc != 0 ]; then
		nok "$c: --make-profile -x: status $rc: $(head -n 2 "$tmp/mk-$c.err")"
		continue
	fi
	ok "$c: profile from DWARF: $(stat -c %s "$prof") bytes, $(grep -c '^enum' "$prof") enumerators, $(printf '%.1f' "$(echo "$t1 - $t0" | bc)") s"
	bprof=$tmp/$c.btf.profile
	if [ -n "${SYSTEM_MAP:-}" ] && [ -f "$SYSTEM_MAP" ] &&
		readelf -SW "$VMLINUX" 2>/dev/null | grep -q ' \.BTF '; then
		run mkb-$c --make-profile "$bprof" --btf "$VMLINUX" --system-map "$SYSTEM_MAP"
		if [ $rc = 0 ]; then
			ok "$c: profile from BTF (.BTF of the vmlinux) + System.map: $(stat -c %s "$bprof") bytes"
		else
			nok "$c: --make-profile --btf: status $rc: $(head -n 2 "$tmp/mkb-$c.err")"
			bprof=
		fi
	else
		skip "$c: no .BTF in the vmlinux or no System.map: BTF path not tested"
		bprof=
	fi
	dwarf_of[$VMLINUX]=$prof btf_of[$VMLINUX]=$bprof
	fi
	release_of[$c]=$RELEASE
	profile_of[$c]=$prof
	# make check: the ELF dump and a d31 one (source_formats_of in
	# lib.sh); make check-full: all formats
	for fmt in $(source_formats_of "$c"); do
		core=$dir/vmcore.$fmt
		[ -f "$core" ] || continue
		# the reference: DWARF
		run ref -x "$VMLINUX" "$core"; ref_rc=$rc
		run refe -x "$VMLINUX" --events "$core"
		run refd -x "$VMLINUX" -o "$tmp/ref.dat" "$core"
		run refl -x "$VMLINUX" --dmesg "$core"
		for kind in dwarf btf; do
			p=$prof
			[ $kind = btf ] && p=$bprof
			[ -n "$p" ] || continue
			run pro --profile "$p" "$core"
			if [ $rc != "$ref_rc" ]; then
				nok "$c/$fmt: --profile ($kind): status $rc, with DWARF $ref_rc: $(grep -v '^ktrace-extract: \(pages\|events\)' "$tmp/pro.err" | head -n 2)"
				continue
			fi
			if ! cmp -s "$tmp/ref.out" "$tmp/pro.out"; then
				nok "$c/$fmt: --profile ($kind): text differs from DWARF's: $(diff "$tmp/ref.out" "$tmp/pro.out" | sed -n 2p)"
				continue
			fi
			run proe --profile "$p" --events "$core"
			run prod --profile "$p" -o "$tmp/pro.dat" "$core"
			unk=$(cat "$tmp/pro.err" "$tmp/proe.err" "$tmp/prod.err" | grep -c 'has no answer')
			if ! cmp -s "$tmp/refe.out" "$tmp/proe.out" && [ $kind = btf ] &&
				same_but_sign "$tmp/refe.out" "$tmp/proe.out"; then
				ok "$c/$fmt: --profile (btf): text and trace.dat identical to DWARF's; formats differ only where the DWARF reader sign-extends an enumerator (0x80 read as -128)"
			elif ! cmp -s "$tmp/refe.out" "$tmp/proe.out"; then
				nok "$c/$fmt: --profile ($kind) --events differs from DWARF's: $(diff "$tmp/refe.out" "$tmp/proe.out" | sed -n 2p)"
			elif ! cmp -s "$tmp/ref.dat" "$tmp/pro.dat"; then
				nok "$c/$fmt: --profile ($kind): trace.dat differs from DWARF's"
			elif [ "$unk" != 0 ]; then
				nok "$c/$fmt: --profile ($kind): $unk questions the profile has no answer for: $(grep -h 'has no answer' "$tmp"/pro*.err | head -n 1)"
			else
				ok "$c/$fmt: --profile ($kind): text ($(grep -vc '^#' "$tmp/pro.out") lines), formats and trace.dat identical to DWARF's"
			fi
			run prol --profile "$p" --dmesg "$core"
			if [ $rc != 0 ] || ! cmp -s "$tmp/refl.out" "$tmp/prol.out"; then
				nok "$c/$fmt: --profile ($kind) --dmesg: status $rc, differs from DWARF's: $(head -c 200 "$tmp/prol.err")"
			else
				ok "$c/$fmt: --profile ($kind) --dmesg: the kernel log identical to DWARF's ($(wc -l <"$tmp/prol.out") lines)"
			fi
		done
	done
done
[ $n = 0 ] && { echo "skip - no vmcore fixtures in $VMCORES (run scripts/make-vmcores)"; exit 77; }

# a profile recorded on another machine's dump (--make-profile -x VMLINUX
# VMCORE: the extractor's every question asked of that dump) reads the
# dump as DWARF does: the recording reads the kernel in the dump's byte
# order and page size (it once read an s390x dump as little-endian and
# stopped at vmcoreinfo_data, "cannot read the VMCOREINFO text at
# 0x306d0000000000": the pointer byte-swapped)
for c in $(cases); do
	is_machine_case "$c" || continue
	unset CASE VMLINUX ARCH FORMATS
	. "$VMCORES/$c/case.env"
	[ "${ARCH:-amd64}" != amd64 ] || continue
	core=$VMCORES/$c/vmcore.${FORMATS%% *}
	run rec-$c --make-profile "$tmp/rec-$c.profile" -x "$VMLINUX" "$core"
	if [ $rc != 0 ]; then
		nok "$c: --make-profile -x VMLINUX VMCORE ($ARCH): status $rc: $(head -n 2 "$tmp/rec-$c.err")"
		continue
	fi
	run ref -x "$VMLINUX" "$core"
	ref_rc=$rc
	run pro --profile "$tmp/rec-$c.profile" "$core"
	if [ $rc != "$ref_rc" ] || ! cmp -s "$tmp/ref.out" "$tmp/pro.out"; then
		nok "$c: the profile recorded on its $ARCH dump: status $rc (DWARF $ref_rc), text $(cmp -s "$tmp/ref.out" "$tmp/pro.out" && echo same || echo differs)"
	else
		ok "$c: the profile recorded on its $ARCH dump reads it as DWARF does ($(grep -vc '^#' "$tmp/pro.out") lines, status $rc)"
	fi
done

# every literal question of lib/ has its line in the profiles made above
asked_by_lib "$src" "${dwarf_of[@]}" >"$tmp/lit"
if [ "$(sed -n 1p "$tmp/lit")" -gt 100 ] && [ "$(wc -l <"$tmp/lit")" = 1 ]; then
	ok "the profiles answer each of the $(sed -n 1p "$tmp/lit") questions lib/ writes as a literal"
else
	nok "questions of lib/ no profile answers: $(tail -n +2 "$tmp/lit" | head -n 5 | tr '\n' ';')"
fi

# another kernel's profile is refused
for c in "${!profile_of[@]}"; do
	for o in "${!profile_of[@]}"; do
		[ "${release_of[$o]}" != "${release_of[$c]}" ] || continue
		. "$VMCORES/$c/case.env"
		run other --profile "${profile_of[$o]}" "$VMCORES/$c/vmcore.${FORMATS%% *}"
		if [ $rc = 5 ] && grep -q "is of ${release_of[$o]}.*but the dump is of ${release_of[$c]}" "$tmp/other.err"; then
			ok "$c: the profile of $o (${release_of[$o]}) is refused: status 5"
		else
			nok "$c: the profile of $o: status $rc (want 5): $(head -n 1 "$tmp/other.err")"
		fi
		break 2
	done
done

# corrupted profiles: an edited answer, a truncated file, not a profile
c=$(printf '%s\n' "${!profile_of[@]}" | sort | head -n 1)
if [ -n "$c" ]; then
	. "$VMCORES/$c/case.env"
	core=$VMCORES/$c/vmcore.${FORMATS%% *}
	p=${profile_of[$c]}
	sed 's/^\(member\tstruct list_head\tnext\t\)0/\18/' "$p" >"$tmp/edited.profile"
	head -c $(($(stat -c %s "$p") / 2)) "$p" >"$tmp/trunc.profile"
	head -c 4096 "$VMLINUX" >"$tmp/elf.profile"
	for bad in edited:checksum trunc:truncated elf:'not a ktrace layout profile'; do
		name=${bad%%:*} want=${bad#*:}
		run bad --profile "$tmp/$name.profile" "$core"
		if [ $rc = 4 ] && grep -q "profile $tmp/$name.profile: .*$want" "$tmp/bad.err"; then
			ok "$c: $name profile refused: $(head -n 1 "$tmp/bad.err" | sed "s|$tmp/||")"
		else
			nok "$c: $name profile: status $rc (want 4): $(head -n 1 "$tmp/bad.err")"
		fi
	done
	# a profile of an older ktrace, made before it asked for the snapshot
	# buffer's member (both names gone, the file signed again as
	# profile-make signs it): the run says so and is partial (exit 10),
	# never a quiet exit 0 that may lack a buffer
	grep -v -e '^member	struct trace_array	max_buffer	' \
		-e '^member	struct trace_array	snapshot_buffer	' "$p" | resign >"$tmp/old.profile"
	run old --profile "$tmp/old.profile" "$core"
	"$KTRACE_BIN" -q -x "$VMLINUX" "$core" >"$tmp/old.want" 2>/dev/null
	if [ $rc = 10 ] && grep -q 'no answer for member struct trace_array.max_buffer' "$tmp/old.err" &&
		grep -q 'the profile had no answer to [0-9]* question' "$tmp/old.err" &&
		cmp -s "$tmp/old.out" "$tmp/old.want"; then
		ok "$c: an older ktrace's profile (no snapshot question): said, exit 10, the rest as DWARF's"
	else
		nok "$c: an older ktrace's profile: status $rc (want 10): $(grep -v 'pages read\|events overwritten' "$tmp/old.err" | head -n 2 | tr '\n' ' ')"
	fi
	# a kernel whose ftrace ktrace cannot read: the trace is refused
	# (exit 6, the reason named); what needs none of ftrace is written
	# whole, the loss said and counted (exit 10): --dmesg, the ticket
	noftrace <"$p" >"$tmp/noft.profile"
	run noft --profile "$tmp/noft.profile" "$core"
	if [ $rc = 6 ] && grep -q 'neither array_buffer nor trace_buffer' "$tmp/noft.err"; then
		ok "$c: ftrace's layout unknown: the trace refused, exit 6 ($(head -n 1 "$tmp/noft.err" | sed 's/.*: //' | cut -c1-60))"
	else
		nok "$c: ftrace's layout unknown: status $rc (want 6): $(head -n 1 "$tmp/noft.err")"
	fi
	"$KTRACE_BIN" -q -x "$VMLINUX" --dmesg "$core" >"$tmp/noftd.want" 2>/dev/null
	run noftd --profile "$tmp/noft.profile" --dmesg "$core"
	if [ $rc = 10 ] && [ -s "$tmp/noftd.want" ] && cmp -s "$tmp/noftd.out" "$tmp/noftd.want" &&
		grep -q "ftrace's buffers cannot be read" "$tmp/noftd.err"; then
		ok "$c: ftrace's layout unknown: --dmesg prints the whole log ($(wc -l <"$tmp/noftd.out") lines), ftrace's loss said, exit 10"
	else
		nok "$c: ftrace's layout unknown: --dmesg status $rc (want 10), log $(cmp -s "$tmp/noftd.out" "$tmp/noftd.want" && echo same || echo differs): $(head -n 1 "$tmp/noftd.err")"
	fi
	run noftt --profile "$tmp/noft.profile" --ticket "$tmp/noft.ticket" "$core"
	if [ $rc = 10 ] && cmp -s "$tmp/noft.ticket/dmesg.txt" "$tmp/noftd.want" &&
		[ ! -e "$tmp/noft.ticket/trace.txt" ] &&
		grep -q '^ftrace: its buffers could not be read' "$tmp/noft.ticket/summary.txt" &&
		grep -q '^data lost: yes' "$tmp/noft.ticket/summary.txt" &&
		(cd "$tmp/noft.ticket" && sha256sum --quiet -c manifest.sha256 >/dev/null 2>&1); then
		ok "$c: ftrace's layout unknown: the ticket holds the whole log, no trace files, summary.txt says why, exit 10"
	else
		nok "$c: ftrace's layout unknown: the ticket: status $rc (want 10); files: $(ls "$tmp/noft.ticket" 2>/dev/null | tr '\n' ' ')"
	fi
fi

# the relay channels of a kernel whose ftrace cannot be read: blktrace's
# unread sub-buffers written as with a sound profile, exit 10
c=$(ring_cases blktrace | head -n 1)
if [ -n "$c" ]; then
	unset VMLINUX FORMATS
	. "$VMCORES/$c/case.env"
	core=$VMCORES/$c/vmcore.${FORMATS%% *}
	run rp --make-profile "$tmp/rp.profile" -x "$VMLINUX" "$core"
	noftrace <"$tmp/rp.profile" >"$tmp/rpn.profile"
	run rpw --profile "$tmp/rp.profile" --blktrace "$tmp/rp.want" "$core"
	want_rc=$rc
	run rpg --profile "$tmp/rpn.profile" --blktrace "$tmp/rp.got" "$core"
	if [ "$want_rc" = 0 ] && [ $rc = 10 ] && [ -n "$(ls "$tmp/rp.want" 2>/dev/null)" ] &&
		diff -r "$tmp/rp.want" "$tmp/rp.got" >/dev/null; then
		ok "$c: ftrace's layout unknown: --blktrace writes the same $(ls "$tmp/rp.got" | wc -l) files as with the whole profile, exit 10"
	else
		nok "$c: ftrace's layout unknown: --blktrace status $rc (want 10; whole profile $want_rc), files $(diff -rq "$tmp/rp.want" "$tmp/rp.got" 2>&1 | head -n 1)"
	fi
fi
# every recorder through a profile made from the vmlinux alone (the kdump
# hooks' profile): the trace, --relay, --blktrace, --lttng and the ticket
# as with DWARF, byte for byte and with the same status, and no question
# the profile cannot answer. The recorders' types in out-of-tree modules
# (krec, the relay flight recorder, lttng-modules) come from their .ko
# (--module-debuginfo) in both runs, the profile answering them absent;
# and a profile made with --module-debuginfo gives the same with no .ko
# at all, as in a capture kernel. Each recorder's first case, and its
# first of a big-endian kernel (k6.12-s390x-*: the module's types answered
# from s390x .ko files).
rec_cases=
for r in krec flight blktrace; do
	rec_cases="$rec_cases $(ring_cases $r | head -n 1) $(ring_cases $r | grep s390x | head -n 1)"
done
[ -s "$VMCORES/k6.1-lttng/vmcore.elf" ] && [ -f "$VMCORES/k6.1-lttng/lttng-modules" ] &&
	rec_cases="$rec_cases k6.1-lttng"
for c in $rec_cases; do
	unset VMLINUX FORMATS MODULES
	if [ -f "$VMCORES/$c/case.env" ]; then
		. "$VMCORES/$c/case.env"
	else	# scripts/make-lttng-vmcore's fixture (t-lttng.sh)
		VMLINUX=$KTRACE_CACHE/kernels/6.1/vmlinux FORMATS=elf
		MODULES=$(cat "$VMCORES/$c/lttng-modules")
	fi
	[ -f "$VMLINUX" ] || continue
	core=$VMCORES/$c/vmcore.${FORMATS%% *}
	mods=()
	[ -n "${MODULES:-}" ] && mods=(--module-debuginfo "$MODULES")
	run rmk --make-profile "$tmp/rec.profile" -x "$VMLINUX"
	[ $rc = 0 ] || { nok "$c: --make-profile: status $rc: $(head -n 1 "$tmp/rmk.err")"; continue; }
	kinds="dwarf profile"
	if [ ${#mods[@]} != 0 ]; then
		run rmkm --make-profile "$tmp/recm.profile" -x "$VMLINUX" "${mods[@]}"
		if [ $rc = 0 ]; then
			kinds="$kinds modprofile"
		else
			nok "$c: --make-profile --module-debuginfo: status $rc: $(head -n 1 "$tmp/rmkm.err")"
		fi
	fi
	whats="text relay blktrace lttng ticket"
	grep -q '^RING_TRUTH=krec$' "$VMCORES/$c/case.env" 2>/dev/null && whats="$whats krec"
	for what in $whats; do
		for kind in $kinds; do
			case $kind in
			dwarf) src_args=(-x "$VMLINUX" "${mods[@]}") ;;
			profile) src_args=(--profile "$tmp/rec.profile" "${mods[@]}") ;;
			modprofile) src_args=(--profile "$tmp/recm.profile") ;;
			esac
			rm -rf "$tmp/rec.d"
			case $what in
			text) w=() ;;
			krec) w=(-i krec) ;;
			*) w=(--$what "$tmp/rec.d") ;;
			esac
			run rec-$kind "${src_args[@]}" "${w[@]}" "$core"
			eval "rc_$kind=\$rc"
			rm -rf "$tmp/rec-$kind.d"
			[ -d "$tmp/rec.d" ] && mv "$tmp/rec.d" "$tmp/rec-$kind.d"
		done
		for kind in $kinds; do
			[ $kind != dwarf ] || continue
			# the ticket's own profile, and the line saying where types
			# came from, differ by construction (t-ticket checks them)
			differs=
			cmp -s "$tmp/rec-dwarf.out" "$tmp/rec-$kind.out" || differs="stdout"
			if [ -d "$tmp/rec-dwarf.d" ] || [ -d "$tmp/rec-$kind.d" ]; then
				diff -r -x '*.profile' -x manifest.sha256 -x summary.txt \
					"$tmp/rec-dwarf.d" "$tmp/rec-$kind.d" >/dev/null 2>&1 ||
					differs="$differs files"
				[ $what != ticket ] || cmp -s \
					<(grep -v '^types and symbols from' "$tmp/rec-dwarf.d/summary.txt") \
					<(grep -v '^types and symbols from' "$tmp/rec-$kind.d/summary.txt") ||
					differs="$differs summary.txt"
			fi
			eval "rck=\$rc_$kind"
			nfiles=$(find "$tmp/rec-$kind.d" -type f 2>/dev/null | wc -l)
			if [ "$rc_dwarf" != "$rck" ] || [ -n "$differs" ]; then
				nok "$c $what ($kind): status $rck, differs: ${differs:-no}; with DWARF status $rc_dwarf: $(grep -v 'pages read\|events overwritten' "$tmp/rec-$kind.err" | head -n 2 | tr '\n' ' ')"
			elif grep -q 'has no answer' "$tmp/rec-$kind.err"; then
				nok "$c $what ($kind): the profile lacks $(grep -c 'has no answer' "$tmp/rec-$kind.err") answers, the first $(grep -m1 -o 'has no answer for [^(]*' "$tmp/rec-$kind.err")"
			else
				ok "$c $what ($kind): as with DWARF (status $rck, $nfiles files, $(wc -l <"$tmp/rec-$kind.out") lines)"
			fi
		done
	done
done
finish
