#!/bin/bash
# Run every test: C unit programs in $O/tests/ and shell tests tests/t-*.sh.
# A test prints TAP-like lines: "ok - what", "not ok - what", "skip - why".
# Exit status of a script: 0 pass, 77 skip, anything else fail.
# The last line is the summary: "N passed, N failed, N skipped".
# KTRACE_TESTS="units t-truth ...": only the tests named (unit programs and
# shell tests by name, "units" for every unit program; the Debian 13 run).
set -u
cd "$(dirname "$0")/.."
O=${O:-build}
export O KTRACE_BIN=${KTRACE_BIN:-$PWD/$O/ktrace-extract}
pass=0 fail=0 skip=0
failed_names=()
times=()

# wanted NAME: true when NAME is to run
wanted() {
	[ -z "${KTRACE_TESTS:-}" ] && return 0
	case " $KTRACE_TESTS " in *" $1 "*) return 0 ;; esac
	return 1
}

run_one() {
	local name=$1; shift
	local out rc np nf ns t0=$SECONDS
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
	echo "[$name] took $((SECONDS - t0)) s"
	times+=("$((SECONDS - t0)) $name")
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
	wanted "$(basename "$t")" || wanted units || continue
	echo "== $(basename "$t")"
	run_one "$(basename "$t")" "$t"
done
for t in tests/t-*.sh; do
	[ -f "$t" ] || continue
	wanted "$(basename "$t" .sh)" || continue
	echo "== $t"
	run_one "$(basename "$t" .sh)" bash "$t"
done
echo "slowest: $(printf '%s\n' "${times[@]}" | sort -rn | head -5 | awk '{ printf "%s%s %ss", (NR > 1 ? ", " : ""), $2, $1 }')"
[ ${#failed_names[@]} -gt 0 ] && echo "failed: ${failed_names[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
