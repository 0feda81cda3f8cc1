#!/bin/bash
# Trace options (trace_array.trace_flags) on the kX-opts* fixtures. t-truth.sh
# compares the text line by line; here: that each fixture really has the
# option on (its output shows it), bin's binary file is the kernel's byte
# for byte, and the option ktrace does not print as the kernel does
# (sym-userobj) is said on stderr, counted (exit 10) and its records still
# match the kernel's.
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
n=0
# has OUT REGEX WHAT: the output has an event line matching REGEX
has() {
	if grep -v '^#' "$1" | grep -qE -- "$2"; then
		ok "$c/$b: $3"
	else
		nok "$c/$b: $3: no line matches '$2'"
	fi
}
for c in $(cases); do
	case $c in *-opts*) ;; *) continue ;; esac
	dir=$VMCORES/$c
	unset CASE VMLINUX INSTANCES FORMATS
	. "$dir/case.env"
	core=$dir/vmcore.kdump
	for b in $INSTANCES; do
		n=$((n + 1))
		truth=$dir/truth/$b.trace
		out=$(mktemp); err=$(mktemp); json=$(mktemp)
		"$KTRACE_BIN" -x "$VMLINUX" -i "$b" "$core" >"$out" 2>"$err"
		rc=$?
		"$KTRACE_BIN" -x "$VMLINUX" -i "$b" --json "$core" >"$json" 2>/dev/null
		unrendered=$(sed -n 's/.*not printed as the kernel would.*: \([0-9]*\)$/\1/p' "$err")
		case $c/$b in
		*-opts/global)
			has "$out" '^ .{15}-[0-9]+ +\( *[0-9]+\) \[[0-9]+\] +[0-9]+\.[0-9]+: ' \
				"record-tgid column, irq-info off"
			has "$out" 'vfs_write\+0x[0-9a-f]+/0x[0-9a-f]+ <[0-9a-f]{16}> <-ksys_write\+' \
				"sym-offset and sym-addr"
			has "$out" '^ => +<[0-9a-f]{16}>$' "userstacktrace: user stack entries"
			grep -q '^#           TASK-PID       TGID    CPU#     TIMESTAMP  FUNCTION$' "$out" &&
				ok "$c/$b: header with TGID, without the irq columns" ||
				nok "$c/$b: header with TGID, without the irq columns"
			;;
		*-opts/inst)
			has "$out" '^[0-9]+ [0-9]+ [0-9]+ type: [0-9]+$' "raw: tracepoints as trace_nop_print()"
			has "$out" '^[0-9]+ [0-9]+ [0-9]+ # [0-9a-f]+ ktrace-last-marker' "raw: trace_print_raw()"
			;;
		*-opts2/global)
			has "$out" '^vfs_write$' "context-info and print-parent off"
			grep -v '^#' "$out" | grep -q '<-\|\[00[0-9]\]' &&
				nok "$c/$b: a context column or parent is printed" ||
				ok "$c/$b: no context column, no parent"
			;;
		*-opts2/inst)
			has "$out" '^[0-9a-f]{8} [0-9a-f]{8} [0-9a-f]{16} type: [0-9]+$' "hex"
			;;
		*-opts3/global)
			# bin: print_bin_fmt()'s bytes after the text header, the
			# kernel's file whole (ktrace's own header line aside)
			if [ "$rc" = 0 ] && [ -z "$unrendered" ] &&
				cmp -s <(grep -av '^# ktrace: ' "$out") "$truth"; then
				ok "$c/$b: bin: the kernel's binary trace file byte for byte ($(wc -c <"$truth") bytes), exit 0"
			else
				nok "$c/$b: bin: exit $rc, $(cmp <(grep -av '^# ktrace: ' "$out") "$truth" 2>&1 | head -n 1)"
			fi
			# print_bin_fmt(): pid, cpu (int), ts (u64), then trace_nop_print(),
			# in the kernel's byte order (s390x: big-endian)
			want=$(python3 -c '
import struct, sys, re
d = open(sys.argv[1], "rb").read()
bo = ">" if sys.argv[2] == "s390x" else "<"
i = 0
while d[i:i + 1] == b"#":	# the text header (trace_default_header())
    i = d.index(b"\n", i) + 1
while i < len(d):
    pid, cpu, ts = struct.unpack_from(bo + "iiQ", d, i)
    m = re.match(rb"type: (\d+)\n", d[i + 16:])
    if not m:
        sys.exit("bad record at %d" % i)
    print(pid, cpu, ts)
    i += 16 + m.end()
' "$truth" "${ARCH:-amd64}" 2>&1)
			got=$(sed -n 's/^{"instance".*"cpu":\([0-9]*\),"ts":\([0-9]*\),.*"pid":\([0-9-]*\),.*/\3 \1 \2/p' "$json")
			nw=$(echo "$want" | wc -l)
			if [ "$want" = "$got" ]; then
				ok "$c/$b: the kernel's $nw binary records (pid, cpu, ts) are JSON's"
			else
				nok "$c/$b: binary records differ ($nw kernel, $(echo "$got" | wc -l) JSON): $(diff <(echo "$want") <(echo "$got") | head -3 | tr '\n' ' ')"
			fi
			;;
		*-opts4/global)
			# bitmask-list (7.x): the masks the kernel printed as lists,
			# ktrace as hex: said, each such record counted, the rest the
			# kernel's lines in order
			nipi=$(grep -v '^#' "$out" | grep -c ' ipi_send_cpumask: ')
			grep -q 'option bitmask-list is on' "$err" && [ "$rc" = 10 ] &&
				ok "$c/$b: bitmask-list said on stderr, exit 10" ||
				nok "$c/$b: bitmask-list not said (exit $rc)"
			[ "$nipi" -gt 0 ] && [ "$unrendered" = "$nipi" ] &&
				ok "$c/$b: its $nipi ipi_send_cpumask records counted as not rendered" ||
				nok "$c/$b: $nipi ipi_send_cpumask records, $unrendered counted"
			# the kernel printed lists (a range or a single CPU number),
			# which hex would not give for every mask
			grep -v ' ipi_send_cpumask: ' "$truth" >"$out.want"
			miss=$(awk 'BEGIN { n = 0; i = 0 } NR==FNR { t[n++] = $0; next }
				    i < n && $0 == t[i] { i++ }
				    END { if (i < n) printf "truth line %d not found in order: %s", i + 1, t[i] }' \
				"$out.want" "$out")
			[ -z "$miss" ] && ok "$c/$b: every other kernel line, in order" || nok "$c/$b: $miss"
			kmasks=$(grep ' ipi_send_cpumask: ' "$truth" | grep -o 'cpumask=[^ ]*' | sort -u | tr '\n' ' ')
			omasks=$(grep ' ipi_send_cpumask: ' "$out" | grep -o 'cpumask=[^ ]*' | sort -u | tr '\n' ' ')
			if [ -z "$kmasks" ] || [ "$kmasks" = "$omasks" ]; then
				nok "$c/$b: the kernel's masks ($kmasks) are ktrace's hex ones: bitmask-list was not in effect"
			else
				ok "$c/$b: the kernel printed lists ($kmasks), ktrace hex ($omasks)"
			fi
			rm -f "$out.want"
			;;
		*-opts3/inst)
			grep -q 'option sym-userobj is on' "$err" && [ "$rc" = 10 ] &&
				ok "$c/$b: sym-userobj said on stderr, exit 10" ||
				nok "$c/$b: sym-userobj not said (exit $rc)"
			nstk=$(grep -c '<user stack trace>' "$out")
			[ "$nstk" -gt 0 ] && [ "$unrendered" = "$nstk" ] &&
				ok "$c/$b: $nstk user stacks counted as not rendered" ||
				nok "$c/$b: $nstk user stacks, $unrendered counted"
			grep '^ => ' "$out" | grep -vq 'sym-userobj not rendered' &&
				nok "$c/$b: a user stack entry is not marked" ||
				ok "$c/$b: every user stack entry is marked"
			# every other kernel line, in order
			miss=$(awk 'BEGIN { n = 0; i = 0 } NR==FNR { if ($0 !~ /^ => /) t[n++] = $0; next }
				    i < n && $0 == t[i] { i++ }
				    END { if (i < n) printf "truth line %d not found in order: %s", i + 1, t[i] }' \
				"$truth" "$out")
			[ -z "$miss" ] && ok "$c/$b: every kernel line but the user stack entries, in order" ||
				nok "$c/$b: $miss"
			;;
		esac
		rm -f "$out" "$err" "$json"
	done
done
[ $n = 0 ] && { echo "skip - no kX-opts fixtures in $VMCORES (scripts/make-vmcores k6.1-opts ...)"; exit 77; }
finish
