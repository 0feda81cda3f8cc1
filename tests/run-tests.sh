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
# KTRACE_JOBS=N: shell tests N at a time (default: the online CPUs), the
# longest first; each test's lines are printed together when it ends.
set -u
cd "$(dirname "$0")/.."
O=${O:-build}
case $O in /*) bin=$O/ktrace-extract ;; *) bin=$PWD/$O/ktrace-extract ;; esac
export O KTRACE_BIN=${KTRACE_BIN:-$bin}
pass=0 fail=0 skip=0
failed_names=()
# every "not ok" line, printed again before the summary: a log cut in the
# middle (CI keeps its head and tail) still says what failed and why
failures=()
times=()

FULL_ONLY="t-kdump-e2e t-kdump-e2e-trixie t-kdump-e2e-bpo t-deb t-deb-arm64 t-trixie t-qemu t-fixtures"

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
# a test's time limit: make check-full reads every case (t-crash: all 139
# under crash took over 2400 s beside other tests in session 24)
if [ "${KTRACE_TIER:-core}" = full ]; then test_timeout=${KTRACE_TEST_TIMEOUT:-7200}
else test_timeout=${KTRACE_TEST_TIMEOUT:-2400}; fi

wanted() {
	[ -z "${KTRACE_TESTS:-}" ] && return 0
	case " $KTRACE_TESTS " in *" $1 "*) return 0 ;; esac
	return 1
}

# start_one NAME CMD...: run a test in the background, its output, status
# and time in $work/NAME.{out,rc,time}
start_one() {
	local name=$1; shift
	(
		t0=$SECONDS
		# a hang is a failure, not the end of the run (KTRACE_TEST_TIMEOUT s each)
		timeout --kill-after=30 "$test_timeout" "$@" >"$work/$name.out" 2>&1
		rc=$?
		[ "$rc" = 124 ] && echo "not ok - timed out after $test_timeout s" >>"$work/$name.out"
		echo $((SECONDS - t0)) >"$work/$name.time"
		echo "$rc" >"$work/$name.rc.tmp" && mv "$work/$name.rc.tmp" "$work/$name.rc"
	) &
}

# report NAME: print a finished test's output and count its results
report() {
	local name=$1 rc np nf ns tt se
	rc=$(cat "$work/$name.rc") tt=$(cat "$work/$name.time")
	# the shell's own error ("t-x.sh: line 44: f: command not found", an
	# unbound variable, a syntax error; not its warnings): the script did not run as
	# written, whatever it concluded (t-target's tier choice ran a missing
	# function for sessions, and read only the s390x cases)
	se=$(grep -E '^[^ ]*\.sh: line [0-9]+: ' "$work/$name.out" | grep -m 1 -v ': warning: ')
	[ -n "$se" ] && echo "not ok - the shell said: $se" >>"$work/$name.out"
	sed "s|^|[$name] |" "$work/$name.out"
	np=$(grep -c '^ok - ' "$work/$name.out")
	nf=$(grep -c '^not ok - ' "$work/$name.out")
	ns=$(grep -c '^skip - ' "$work/$name.out")
	if [ "$rc" = 77 ]; then
		[ "$ns" = 0 ] && ns=1
	elif [ "$rc" != 0 ] && [ "$nf" = 0 ]; then
		nf=1
		echo "not ok - exited with status $rc" >>"$work/$name.out"
		echo "[$name] not ok - exited with status $rc"
	elif [ "$rc" = 0 ] && [ $((np + nf + ns)) = 0 ]; then
		# a test that says nothing has shown nothing
		nf=1
		echo "not ok - exited 0 without a result line" >>"$work/$name.out"
		echo "[$name] not ok - exited 0 without a result line"
	fi
	mapfile -t -O "${#failures[@]}" failures < <(grep '^not ok - ' "$work/$name.out" | cut -c1-400 | sed "s|^|[$name] |")
	pass=$((pass + np)); fail=$((fail + nf)); skip=$((skip + ns))
	echo "[$name] took $tt s"
	times+=("$tt $name")
	[ "$nf" != 0 ] && failed_names+=("$name")
	rm -f "$work/$name".*
}

# run_all NAME=CMD...: the tests, KTRACE_JOBS at a time (default: the
# online CPUs), each reported whole when it ends
run_all() {
	local jobs=${KTRACE_JOBS:-$(nproc)} running=() next f name still
	[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
	while [ $# -gt 0 ] || [ ${#running[@]} -gt 0 ]; do
		while [ $# -gt 0 ] && [ ${#running[@]} -lt "$jobs" ]; do
			next=$1; shift
			name=${next%%=*}
			echo "== $name"
			# shellcheck disable=SC2086
			start_one "$name" ${next#*=}
			running+=("$name")
		done
		wait -n 2>/dev/null || sleep 1
		still=()
		for name in "${running[@]}"; do
			if [ -f "$work/$name.rc" ]; then report "$name"; else still+=("$name"); fi
		done
		running=("${still[@]}")
	done
	wait
}

if [ -z "${KTRACE_NO_FIXTURES:-}" ] && [ -x scripts/make-vmcores ]; then
	# the tier's pick (make check: tests/lib.sh tier_recipes), every
	# recipe in make check-full
	picked=$(. tests/lib.sh && tier_recipes) || picked=
	echo "== generating missing vmcore fixtures ($(echo "$picked" | wc -w) of $(scripts/make-vmcores --list | wc -l) cases: the ${KTRACE_TIER:-core} tier's)"
	# a fixture that cannot be made is a failure, not tests that skip
	# shellcheck disable=SC2086
	if [ -z "$picked" ] || ! scripts/make-vmcores $picked; then
		echo "[make-vmcores] not ok - fixture generation failed (its messages above); the tests of the missing cases skip"
		failures+=("[make-vmcores] not ok - fixture generation failed")
		fail=$((fail + 1))
		failed_names+=(make-vmcores)
	fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the extractions tests share (tests/lib.sh's kx), for this run only
export KTRACE_SHARED=$work/shared
mkdir -p "$KTRACE_SHARED"

# what tests share is made before they run side by side: the crash
# extensions several of them build, the damaged dumps (each made by one
# test, but made here once so that no two makes meet)
if [ "${KTRACE_JOBS:-$(nproc)}" != 1 ]; then
	if [ -z "${KTRACE_SANITIZE:-}" ] && command -v crash >/dev/null && [ -f /usr/include/crash/defs.h ]; then
		make -s O="$O" "$O/ktrace.so" >/dev/null 2>&1
		for x in 8.0.6:crash806 sid:crashsid; do
			defs=${KTRACE_CACHE:-$HOME/.cache/ktrace}/crash-${x%:*}/root/usr/include/crash/defs.h
			[ -f "$defs" ] && make -s O="$O-${x#*:}" CRASH_DEFS="$defs" "$O-${x#*:}/ktrace.so" >/dev/null 2>&1
		done
	fi
fi
# t-jobs reads the damaged dumps t-damaged makes: made here first, or a cold
# run's t-jobs (started before t-damaged) would find none and compare less
# than a warm one (a failure to make them is t-damaged's to say)
if { wanted t-jobs || wanted t-damaged; } && [ -d "${KTRACE_CACHE:-$HOME/.cache/ktrace}/vmcores/k6.1" ]; then
	scripts/make-damaged >/dev/null 2>&1 || true
fi

units=()
for t in "$O"/tests/*; do
	[ -x "$t" ] || continue
	case "$t" in *.sh) continue;; esac
	# unit programs named probe-* need arguments; their shell test drives them
	case "$(basename "$t")" in probe-*) continue;; esac
	wanted "$(basename "$t")" || wanted units || continue
	units+=("$(basename "$t")=$t")
done
KTRACE_JOBS=1 run_all "${units[@]}"

# the longest first (their last measured times), so that the workers end together
LONGEST="t-crash t-btf t-dmesg t-lttng t-ticket t-jobs t-fuzz-smoke t-profile t-target t-tracedat t-latency t-fastfmt t-truth"
shells=()
for n in $LONGEST; do
	[ -f "tests/$n.sh" ] && shells+=("tests/$n.sh")
done
for t in tests/t-*.sh; do
	case " $LONGEST " in *" $(basename "$t" .sh) "*) continue ;; esac
	shells+=("$t")
done
tests=()
for t in "${shells[@]}"; do
	[ -f "$t" ] || continue
	wanted "$(basename "$t" .sh)" || continue
	if tiered "$(basename "$t" .sh)"; then
		echo "[$(basename "$t" .sh)] skip - in make check-full only (make check leaves it out: boots, packages or third-party tools; .ci/run runs a shard of them)"
		skip=$((skip + 1))
		continue
	fi
	tests+=("$(basename "$t" .sh)=bash $t")
done
run_all "${tests[@]}"
echo "slowest: $(printf '%s\n' "${times[@]}" | sort -rn | head -5 | awk '{ printf "%s%s %ss", (NR > 1 ? ", " : ""), $2, $1 }')"
if [ ${#failed_names[@]} -gt 0 ]; then
	echo "failures (again, each line cut at 400 characters):"
	printf '%s\n' "${failures[@]}" | head -n 40
	[ ${#failures[@]} -gt 40 ] && echo "... and $(( ${#failures[@]} - 40 )) more"
	echo "failed: ${failed_names[*]}"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
