# Helpers for shell tests. Source it: . "$(dirname "$0")/lib.sh"
KTRACE_CACHE=${KTRACE_CACHE:-$HOME/.cache/ktrace}
VMCORES=$KTRACE_CACHE/vmcores
KTRACE_BIN=${KTRACE_BIN:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/ktrace-extract}
ok()   { echo "ok - $*"; }
nok()  { echo "not ok - $*"; FAILED=1; }
skip() { echo "skip - $*"; }
FAILED=0
# cases: every generated case directory with a case.env and a trace in it
# (the tracing-off case, NOTRACE=1, has its own test: t-notrace.sh; so do
# the cases of another recorder, RING_TRUTH=name: t-krec.sh)
cases() {
	local d
	for d in "$VMCORES"/*/case.env; do
		[ -f "$d" ] || continue
		grep -q '^NOTRACE=1' "$d" && continue
		grep -q '^RING_TRUTH=' "$d" && continue
		basename "$(dirname "$d")"
	done
}
# all_cases: every generated case, the tracing-off one included
all_cases() {
	local d
	for d in "$VMCORES"/*/case.env; do
		[ -f "$d" ] && basename "$(dirname "$d")"
	done
}
finish() { [ "$FAILED" = 0 ]; exit $?; }
# ring_cases NAME: the cases whose truth is recorder NAME's own rendering
ring_cases() {
	local d
	for d in "$VMCORES"/*/case.env; do
		[ -f "$d" ] && grep -q "^RING_TRUTH=$1\$" "$d" && basename "$(dirname "$d")"
	done
}
