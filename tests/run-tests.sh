#!/bin/bash
# Run every test: C unit programs in $O/tests/ and shell tests tests/t-*.sh.
# A test prints TAP-like lines: "ok - what", "not ok - what", "skip - why".
# Exit status of a script: 0 pass, 77 skip, anything else fail.
# The last line is the summary: "N passed, N failed, N skipped".
# KTRACE_TESTS="units t-truth ...": only the tests named (unit programs and
# shell tests by name, "units" for every unit program; the Debian 13 run).
# KTRACE_TIER=full (make check-full): every test. Otherwise (make check)
# the tests of FULL_ONLY are left out, each counted as a skip with the
# reason: whole guests booted, package builds and Debian roots, crash and
# makedumpfile checked against our fixtures: minutes each, and none of it
# is the core's rendering, which the other tests cover on every fixture.
# "run-tests.sh --full-only" lists them (.ci/run runs one of them a run).
set -u
cd "$(dirname "$0")/.."
O=${O:-build}
export O KTRACE_BIN=${KTRACE_BIN:-$PWD/$O/ktrace-extract}
pass=0 fail=0 skip=0
failed_names=()
times=()

FULL_ONLY="t-kdump-e2e t-kdump-e2e-trixie t-deb t-trixie t-qemu t-fixtures"

[ "${1:-}" = --full-only ] && { printf '%s\n' $FULL_ONLY; exit 0; }

# tiered NAME: true when the tier leaves NAME out (said as a skip); a test
# named in KTRACE_TESTS runs whatever the tier
tiered() {
	[ "${KTRACE_TIER:-core}" = full ] && return 1
	[ -n "${KTRACE_TESTS:-}" ] && return 1
	case " $FULL_ONLY " in *" $1 "*) return 0 ;; esac
	return 1
}

# wanted NAME: true when NAME is to run
wanted() {
	[ -z "${KTRACE_TESTS:-}" ] && return 0
	case " $KTRACE_TESTS " in *" $1 "*) return 0 ;; esac
	return 1
}

run_one() {
	local name=$1; shift
	local out rc np nf ns t0=$SECONDS
	# a hang is a failure, not the end of the run (KTRACE_TEST_TIMEOUT s each)
	out=$(timeout --kill-after=30 "${KTRACE_TEST_TIMEOUT:-2400}" "$@" 2>&1); rc=$?
	[ "$rc" = 124 ] && out="$out
not ok - timed out after ${KTRACE_TEST_TIMEOUT:-2400} s"
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
		# a test that says nothing has shown nothing
		nf=1
		echo "[$name] not ok - exited 0 without a result line"
	fi
	pass=$((pass + np)); fail=$((fail + nf)); skip=$((skip + ns))
	echo "[$name] took $((SECONDS - t0)) s"
	times+=("$((SECONDS - t0)) $name")
	[ "$nf" != 0 ] && failed_names+=("$name")
}

if [ -z "${KTRACE_NO_FIXTURES:-}" ] && [ -x scripts/make-vmcores ]; then
	echo "== generating missing vmcore fixtures"
	# a fixture that cannot be made is a failure, not tests that skip
	if ! scripts/make-vmcores; then
		echo "[make-vmcores] not ok - fixture generation failed (its messages above); the tests of the missing cases skip"
		fail=$((fail + 1))
		failed_names+=(make-vmcores)
	fi
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
	if tiered "$(basename "$t" .sh)"; then
		echo "[$(basename "$t" .sh)] skip - in make check-full only (make check leaves it out: boots, packages or third-party tools; .ci/run runs a shard of them)"
		skip=$((skip + 1))
		continue
	fi
	echo "== $t"
	run_one "$(basename "$t" .sh)" bash "$t"
done
echo "slowest: $(printf '%s\n' "${times[@]}" | sort -rn | head -5 | awk '{ printf "%s%s %ss", (NR > 1 ? ", " : ""), $2, $1 }')"
[ ${#failed_names[@]} -gt 0 ] && echo "failed: ${failed_names[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
