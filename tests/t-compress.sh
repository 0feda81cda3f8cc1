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
norm_tool=$KTRACE_CACHE/tools/vmcore-normalize
[ -x "$norm_tool" ] || { echo "skip - $norm_tool not built (scripts/make-vmcores builds it)"; exit 77; }
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
# the vmcore is evidence: it must be exactly as it was
sum1=$(md5sum <"$f")
"$KTRACE_BIN" -q -x "$VMLINUX" "$f" >/dev/null 2>&1
[ "$(md5sum <"$f")" = "$sum1" ] && ok "the dump is unchanged after reading" || nok "the dump changed"
finish
