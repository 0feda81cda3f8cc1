#!/bin/bash
# Run every test: C unit programs in $O/tests/ and shell tests tests/t-*.sh.
# A test prints TAP-like lines: "ok - what", "not ok - what", "skip - why".
# Exit status of a script: 0 pass, 77 skip, anything else fail.
# The last line is the summary: "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.."
O=${O:-build}
export O KTRACE_BIN=${KTRACE_BIN:-$PWD/$O/ktrace-extract}
pass=0 fail=0 skip=0
failed_names=()

run_one() {
	local name=$1; shift
	local out rc np nf ns
	out=$("$@" 2>&1); rc=$?
	printf '%s\n' "$out" | sed "s|^|[$name] |"
	np=$(printf '%s\n' "$out" | grep -c '^ok - ')
	nf=$(printf '%s\n' "$out" | grep -c '^not ok - ')
	ns=$(printf '%s\n' "$out" | grep -c '^skip - ')
	if [ "$rc" = 77 ]; then
		[ "$ns" = 0 ] && ns=1
	elif [ "$rc" != 0 ] && [ "$nf" = 0 ]; then
		nf=1
		echo "[$name] not ok - exited with status $rc"
	elif [ "$rc" = 0 ] && [ $((np + nf + ns)) = 0 ]; then
		np=1
	fi
	pass=$((pass + np)); fail=$((fail + nf)); skip=$((skip + ns))
	[ "$nf" != 0 ] && failed_names+=("$name")
}

if [ -z "${KTRACE_NO_FIXTURES:-}" ] && [ -x scripts/make-vmcores ]; then
	echo "== generating missing vmcore fixtures"
	scripts/make-vmcores || echo "warning: fixture generation failed; tests that need it will fail"
fi

for t in "$O"/tests/*; do
	[ -x "$t" ] || continue
	case "$t" in *.sh) continue;; esac
	# unit programs named probe-* need arguments; their shell test drives them
	case "$(basename "$t")" in probe-*) continue;; esac
	echo "== $(basename "$t")"
	run_one "$(basename "$t")" "$t"
done
for t in tests/t-*.sh; do
	[ -f "$t" ] || continue
	echo "== $t"
	run_one "$(basename "$t" .sh)" bash "$t"
done
[ ${#failed_names[@]} -gt 0 ] && echo "failed: ${failed_names[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
