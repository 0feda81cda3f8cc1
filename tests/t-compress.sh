#!/bin/bash
# Every kdump-compressed flavour makedumpfile writes, and its own flattened
# output (-F, what Debian's kdump-tools saves): made from the k6.1 fixture's
# ELF into the cache, read by ktrace-extract, compared with the truth.
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
c=k6.1
dir=$VMCORES/$c
[ -f "$dir/case.env" ] || { echo "skip - no $c fixture (scripts/make-vmcores $c)"; exit 77; }
. "$dir/case.env"
# this tree's build of scripts/tools/vmcore-normalize.c (ktrace_tool, in a
# subshell: its die and note stay there)
norm_tool=$(. "$(dirname "$0")/../scripts/ktrace-common.sh" && ktrace_tool vmcore-normalize)
[ -x "$norm_tool" ] || { echo "skip - cannot build scripts/tools/vmcore-normalize.c"; exit 77; }
out=$KTRACE_CACHE/derived/$c
mkdir -p "$out"
stamp=$(stat -c %Y "$dir/vmcore.elf")
if [ "$(cat "$out/.stamp" 2>/dev/null)" != "$stamp" ]; then
	rm -f "$out"/vmcore.*
	cp "$dir/vmcore.elf" "$out/vmcore.norm" && chmod u+w "$out/vmcore.norm"
	"$norm_tool" "$out/vmcore.norm" || { nok "vmcore-normalize failed"; finish; }
	echo "$stamp" >"$out/.stamp"
fi

check() { # NAME FILE
	local o; o=$(mktemp)
	"$KTRACE_BIN" -q -x "$VMLINUX" -i global "$2" >"$o" 2>/dev/null
	local rc=$?
	local miss
	miss=$(awk 'BEGIN { n = 0; i = 0 } NR==FNR { t[n++] = $0; next }
		    i < n && $0 == t[i] { i++ }
		    END { if (i < n) printf "truth line %d missing", i + 1 }' "$dir/truth/global.trace" "$o")
	if [ $rc = 0 ] && [ -z "$miss" ]; then
		ok "$1: every truth line of the global buffer, in order"
	else
		nok "$1: exit status $rc ${miss}"
	fi
	rm -f "$o"
}

for flavour in c:zlib l:lzo p:snappy z:zstd; do
	opt=${flavour%%:*} name=${flavour#*:}
	f=$out/vmcore.$name
	if [ ! -s "$f" ]; then
		if ! makedumpfile -$opt -d 17 "$out/vmcore.norm" "$f.tmp" >/dev/null 2>"$out/$name.log"; then
			rm -f "$f.tmp"
			skip "makedumpfile cannot write $name here: $(tail -n 1 "$out/$name.log")"
			continue
		fi
		mv "$f.tmp" "$f"
	fi
	check "kdump-compressed ($name)" "$f"
done
f=$out/vmcore.mdf-flat
if [ ! -s "$f" ]; then
	makedumpfile -F -c -d 17 "$out/vmcore.norm" >"$f.tmp" 2>/dev/null && mv "$f.tmp" "$f"
fi
if [ -s "$f" ]; then
	check "makedumpfile -F (flattened, as kdump-tools saves)" "$f"
else
	nok "makedumpfile -F failed"
fi
# Both readers of the flattened format: libkdumpfile's own (0.5.4 and
# later: Debian 13) and our rearrangement in memory (what 0.5.1, Debian 12,
# needs; KTRACE_FLAT=rearrange asks for it anywhere). The same text from
# both, and -v names the reader the library version calls for.
if [ -s "$f" ]; then
	tmpd=$(mktemp -d)
	libv=$(kdumpfile_version)
	want="rearranged in memory"
	dpkg --compare-versions "$libv" ge 0.5.4 2>/dev/null && want="read by libkdumpfile $libv itself"
	"$KTRACE_BIN" -v -x "$VMLINUX" "$f" >"$tmpd/lib.out" 2>"$tmpd/lib.err"; rc1=$?
	KTRACE_FLAT=rearrange "$KTRACE_BIN" -v -x "$VMLINUX" "$f" >"$tmpd/ours.out" 2>"$tmpd/ours.err"; rc2=$?
	if [ $rc1 != 0 ] || [ $rc2 != 0 ]; then
		nok "flattened, both readers: exit $rc1 and $rc2"
	elif ! cmp -s "$tmpd/lib.out" "$tmpd/ours.out"; then
		nok "flattened: libkdumpfile's reader and ours differ: $(diff "$tmpd/lib.out" "$tmpd/ours.out" | sed -n 2p)"
	elif ! grep -q "flattened file $want" "$tmpd/lib.err" ||
		! grep -q 'flattened file rearranged in memory' "$tmpd/ours.err"; then
		nok "flattened: -v does not name the reader (libkdumpfile $libv: want '$want'): $(grep 'flattened file' "$tmpd/lib.err")"
	else
		ok "flattened: libkdumpfile $libv's way ($want) and KTRACE_FLAT=rearrange give the same $(grep -vc '^#' "$tmpd/lib.out") lines"
	fi
	# cut short: libkdumpfile 0.5.4 refuses it whole; ours says where it ends
	head -c $(($(stat -c %s "$f") * 2 / 3)) "$f" >"$tmpd/cut.flat"
	"$KTRACE_BIN" -x "$VMLINUX" "$tmpd/cut.flat" >/dev/null 2>"$tmpd/cut.err"; rc=$?
	if [ $rc = 3 ] && grep -q 'flattened dump truncated: .* at offset [0-9]* (end of file)' "$tmpd/cut.err"; then
		ok "flattened, cut to 2/3: exit 3, $(head -n 1 "$tmpd/cut.err" | sed "s|$tmpd/||")"
	else
		nok "flattened, cut to 2/3: exit $rc: $(head -n 2 "$tmpd/cut.err" | tr '\n' ' ')"
	fi
	rm -rf "$tmpd"
fi
# the vmcore is evidence: it must be exactly as it was
sum1=$(md5sum <"$f")
"$KTRACE_BIN" -q -x "$VMLINUX" "$f" >/dev/null 2>&1
[ "$(md5sum <"$f")" = "$sum1" ] && ok "the dump is unchanged after reading" || nok "the dump changed"
finish
