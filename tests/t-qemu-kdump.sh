#!/bin/bash
# QEMU's kdump-compressed dumps of another machine's guest (issue 30): an
# arm64 guest's kdump-zlib dump (vmcore.flat) is in blocks of 64 KiB
# whatever its page size, with no machine name in the header, and so is
# its makedumpfile -R copy (vmcore.kdump). libkdumpfile misreads such a
# dump (0.5.1: past its buffers, SIGABRT); ktrace-extract writes it again
# in pages first (extract/kdump-reblock.c). Each must give every line of
# the kernel's own trace of each buffer, in order, and the kernel's last
# event last, or be refused with exit 3 and the reason; never a signal.
. "$(dirname "$0")/lib.sh"
[ -x "$KTRACE_BIN" ] || { echo "skip - $KTRACE_BIN not built"; exit 77; }
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for c in $(cases); do
	dir=$VMCORES/$c
	unset CASE VMLINUX INSTANCES FORMATS ARCH
	. "$dir/case.env"
	[ "${ARCH:-amd64}" = amd64 ] && continue
	for fmt in flat kdump; do
		core=$dir/vmcore.$fmt
		case " $FORMATS " in *" $fmt "*) ;; *) continue ;; esac
		[ -f "$core" ] || { nok "$c/$fmt: $core missing"; continue; }
		for inst in $INSTANCES; do
			n=$((n + 1))
			truth=$dir/truth/$inst.trace
			"$KTRACE_BIN" -x "$VMLINUX" -i "$inst" "$core" >"$tmp/out" 2>"$tmp/err"
			rc=$?
			if signalled $rc; then
				nok "$c/$fmt/$inst: killed by a signal (exit $rc): $(tail -n 2 "$tmp/err" | tr '\n' ' ' | cut -c1-300)"
				continue
			fi
			if [ $rc != 0 ]; then
				# a refusal names the blocks and pages it would not read
				if [ $rc = 3 ] && grep -q 'kdump-compressed in blocks of [0-9]* bytes for pages of' "$tmp/err"; then
					ok "$c/$fmt/$inst: refused, exit 3: $(grep -m1 'blocks of' "$tmp/err" | cut -c1-200)"
				elif [ $rc = 10 ] && grep -q 'option [a-z-]* is on' "$tmp/err" &&
					grep -q 'not printed as the kernel would.*: [1-9]' "$tmp/err"; then
					# an option ktrace does not print as the kernel does
					# (sym-userobj, bitmask-list): said and counted, as
					# t-truth takes it; t-options reads those cases
					ok "$c/$fmt/$inst: exit 10: $(grep -m1 -o 'option [a-z-]* is on' "$tmp/err"), its events counted"
				else
					nok "$c/$fmt/$inst: exit status $rc: $(tail -n 3 "$tmp/err" | tr '\n' ' ' | cut -c1-300)"
				fi
				continue
			fi
			miss=$(awk 'BEGIN { n = 0; i = 0 } NR==FNR { t[n++] = $0; next }
				    i < n && $0 == t[i] { i++ }
				    END { if (i < n) printf "truth line %d not found in order: %s", i + 1, t[i] }' \
				"$truth" "$tmp/out")
			last_t=$(grep -av '^#' "$truth" | tail -n 1)
			last_o=$(grep -av '^#' "$tmp/out" | tail -n 1)
			if [ -n "$miss" ]; then
				nok "$c/$fmt/$inst: $miss"
			elif [ "$last_t" != "$last_o" ]; then
				nok "$c/$fmt/$inst: last event differs: ours '$last_o', the kernel's '$last_t'"
			else
				ok "$c/$fmt/$inst: every one of the kernel's $(grep -avc '^#' "$truth") lines, in order, the last last"
			fi
		done
	done
done
[ $n -gt 0 ] || { echo "skip - no kdump-compressed dump of another machine's guest (an arm64 case with FORMATS flat or kdump: scripts/make-vmcores k6.12-arm64)"; exit 77; }
finish
