# Helpers for shell tests. Source it: . "$(dirname "$0")/lib.sh"
KTRACE_CACHE=${KTRACE_CACHE:-$HOME/.cache/ktrace}
VMCORES=$KTRACE_CACHE/vmcores
KTRACE_BIN=${KTRACE_BIN:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/ktrace-extract}
ok()   { echo "ok - $*"; }
# NOK_WHO: said before each failure (t-truth: the kernel's release of
# today's kernels, so that the day the mirror moves on names what broke)
nok()  { echo "not ok - ${NOK_WHO:+$NOK_WHO }$*"; FAILED=1; }
skip() { echo "skip - $*"; }
FAILED=0
# signalled RC: a status that says the process died of a signal that is a
# crash (SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGSYS; not the
# SIGPIPE of a reader that closed early, nor a timeout's SIGTERM/SIGKILL).
# A crash fails a test whatever it is compared with.
signalled() {
	case $1 in 132 | 133 | 134 | 135 | 136 | 139 | 159) return 0 ;; esac
	return 1
}
# kx OUT ERR ARGS...: "$KTRACE_BIN" ARGS with stdout to OUT and stderr to
# ERR (either may be /dev/null or /dev/stdout); its status is returned.
# The tests of one run share their extractions: the first to ask for one
# runs it, under a lock, into run-tests.sh's $KTRACE_SHARED; the others
# (t-btf, t-profile and t-fastfmt read the same DWARF outputs; t-truth,
# t-dmesg and t-ticket the same texts) copy what it wrote. The key is the
# binary (path, size, time), the arguments, the working directory and the
# environment ktrace-extract reads. ARGS must not name a file the run
# writes (-o, --ticket, --relay...) or -v (its times): those run each
# time, as does everything when KTRACE_SHARED is unset (a test by hand).
kx() {
	local out=$1 err=$2 key d
	shift 2
	local a writes=
	for a in "$@"; do
		case $a in -o | --output* | -T | --ticket* | --blktrace* | --relay* | --lttng* | \
			--make-profile* | -v | --verbose | --time-limit*) writes=1 ;; esac
	done
	if [ -n "$writes" ] || [ -z "${KTRACE_SHARED:-}" ] || [ ! -d "$KTRACE_SHARED" ]; then
		"$KTRACE_BIN" "$@" >"$out" 2>"$err"
		return
	fi
	key=$({ printf '%s\0' "$KTRACE_BIN" "$(stat -c '%s %Y' "$KTRACE_BIN")" "$PWD" "$@"
		env | grep -E '^(HOME|KTRACE_[A-Z_]+)=' | grep -Ev '^KTRACE_(TESTS|CASES|SHARED)=' | sort
	      } | sha1sum | cut -c1-40)
	d=$KTRACE_SHARED/$key
	(
		flock 9
		if [ ! -f "$d.rc" ]; then
			"$KTRACE_BIN" "$@" >"$d.out" 2>"$d.err"
			echo $? >"$d.rc.tmp" && mv "$d.rc.tmp" "$d.rc"
		fi
	) 9>"$d.lock"
	cat "$d.out" >"$out"
	cat "$d.err" >"$err"
	return "$(cat "$d.rc")"
}
# cases: every generated case directory with a case.env and a trace in it
# (the tracing-off case, NOTRACE=1, has its own test: t-notrace.sh; so do
# the cases of another recorder, RING_TRUTH=name: t-krec.sh; and the
# kernels without a vmlinux, DUMP_ALONE=1: dump_alone_cases, which t-truth
# and t-dumpalone.sh read with --from-dump)
# Only cases whose recipe is in this tree count: the cache is shared with
# other checkouts (a branch's experiments, an older tree), and a case left
# there without its recipe here says nothing about this code.
KTRACE_RECIPES=$(cd "$(dirname "${BASH_SOURCE[0]}")/vmcores" && pwd)
# EXPLICIT=1 cases (big, made for the benchmark on request) are not tested.
# KTRACE_CASES="k6.1 k6.12": only those (to run one test on one case).
# recipe_wanted CASE: a recipe in this tree, not EXPLICIT, in KTRACE_CASES if set
recipe_wanted() {
	local r=$KTRACE_RECIPES/$1.recipe
	[ -f "$r" ] && ! grep -q '^EXPLICIT=1' "$r" || return 1
	[ -z "${KTRACE_CASES:-}" ] || [[ " $KTRACE_CASES " == *" $1 "* ]]
}
# has_recipe DIR/case.env: recipe_wanted of that case
has_recipe() { recipe_wanted "$(basename "$(dirname "$1")")"; }
# In make check (and under the sanitizers, make check-sanitize) one case
# per feature: every series' base case, and of the others (k6.1-opts2,
# k6.12-opts2, ...) one per feature name, the 6.1 one when there is one.
# Each code path still runs; make check-full (KTRACE_TIER=full) takes
# every case. CI has 90 minutes.
sanitize_pick() {
	local c=$1 f s
	[ -n "${KTRACE_SANITIZE:-}" ] || [ "${KTRACE_TIER:-core}" != full ] || return 0
	[ -z "${KTRACE_CASES:-}" ] || return 0
	# a recipe that says so (today's kernels' copies of 6.12's feature cases;
	# TIER=core: a copy that shows what its kernel changed, k6.18-sysc)
	grep -q '^TIER=full' "$KTRACE_RECIPES/$c.recipe" 2>/dev/null && return 1
	grep -q '^TIER=core' "$KTRACE_RECIPES/$c.recipe" 2>/dev/null && return 0
	# under the sanitizers, a feature case of today's kernels (ksid-opts,
	# kbpo-arm64-16k) whose feature another series has a case of
	# (k6.1-opts, k6.12-arm64-16k) is left to make check: the code the
	# sanitizers watch is the same; what is 7.x's own (ksid-fargs) stays
	if [ -n "${KTRACE_SANITIZE:-}" ]; then
		case $c in
		ksid-* | kbpo-*)
			f=${c#*-}
			for s in 6.1 6.12 5.10; do
				[ -f "$KTRACE_RECIPES/k$s-$f.recipe" ] && return 1
			done
			return 0
			;;
		esac
	fi
	# a flavour's base case (k6.12-rt) is a kernel of its own
	case $c in k[0-9]*.[0-9]*-rt) return 0 ;; k[0-9]*.[0-9]*-*) ;; *) return 0 ;; esac
	f=${c#*-}
	[ -f "$KTRACE_RECIPES/k6.1-$f.recipe" ] && { [ "$c" = "k6.1-$f" ]; return; }
	# no 6.1 variant: the first series that has one
	for s in 5.10 6.12; do
		[ -f "$KTRACE_RECIPES/k$s-$f.recipe" ] && { [ "$c" = "k$s-$f" ]; return; }
	done
	return 0
}
# crash_ext_for SERIES: "CRASH KTRACE.SO [OPTION...]", a crash for dumps of
# SERIES, this tree's extension built for it and the options crash needs,
# or status 1 (no such crash, or under the sanitizers: crash cannot load an
# ASan build), or 2 (the extension does not build against its defs.h). Debian 12's crash 8.0.2 opens up to 6.1; 6.12 and the rt kernels
# get trixie's 8.0.6, 7.x sid's 9.0 (scripts/fetch-crash), each unpacked
# privately, the extension built against its defs.h in $O-crash806 or
# $O-crashsid ($O: the caller's, absolute). crash 9.0.2 stops at struct
# module's num_gpl_syms, which 7.x no longer has: --no_modules (the
# extension reads module symbols itself).
crash_ext_for() {
	local root dir out opts=
	root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	[ -n "${KTRACE_SANITIZE:-}" ] && return 1
	case $1 in
	# Debian's crash reads its own architecture's dumps only (another
	# one needs a crash built with target=ARM64 etc., which Debian does not ship)
	*-arm64* | *-ppc64el* | *-s390x*) return 1 ;;
	[1-5].* | 6.[01])
		command -v "${CRASH:-crash}" >/dev/null && [ -f /usr/include/crash/defs.h ] || return 1
		make -s -C "$root" O="$O" "$O/ktrace.so" >/dev/null 2>&1 || return 2
		echo "$(command -v "${CRASH:-crash}") $O/ktrace.so"
		return 0
		;;
	sid | sid-rt | trixie-backports) dir=$KTRACE_CACHE/crash-sid out=$O-crashsid opts=--no_modules ;;
	*) dir=$KTRACE_CACHE/crash-8.0.6 out=$O-crash806 ;;
	esac
	[ -x "$dir/bin/crash" ] && [ -f "$dir/root/usr/include/crash/defs.h" ] || return 1
	make -s -C "$root" O="$out" CRASH_DEFS="$dir/root/usr/include/crash/defs.h" \
		"$out/ktrace.so" >/dev/null 2>&1 || return 2
	echo "$dir/bin/crash $out/ktrace.so $opts"
}
# kdumpfile_version: the libkdumpfile $KTRACE_BIN was built with (its
# --version says it), else the system's (pkg-config): what it reads itself
# (flattened files from 0.5.4) is the binary's, not the system's business
kdumpfile_version() {
	local v
	v=$("$KTRACE_BIN" --version 2>/dev/null | sed -n 's/.*(libkdumpfile \([0-9][0-9.]*\)).*/\1/p')
	[ -n "$v" ] || v=$(pkg-config --modversion libkdumpfile 2>/dev/null)
	echo "${v:-0}"
}
# is_base_case CASE: a kernel's base fixture (k6.1, k6.1-rt, ksid, kbpo), not
# a feature case; make check reads these in every dump format
# formats_of CASE: the dump formats to read of CASE (its case.env's
# FORMATS, sourced): all of them for a kernel's base case (every format of
# every kernel is read there), in make check-full and with KTRACE_CASES;
# a feature case's first (its ELF dump) otherwise: the format is the
# reader's business, the same for every feature. Under the sanitizers
# (make check-sanitize) every format is read on k6.1 and ksid (a 5.x/6.x
# and a 7.x kernel: each container reader and the filtered -d 31 dump of
# both ages, where libkdumpfile's faults were met), the other kernels'
# base cases in their first format: the code the sanitizers watch is the
# same, and the plain pass reads every format of every kernel
formats_of() {
	if [ -n "${KTRACE_SANITIZE:-}" ] && [ -z "${KTRACE_CASES:-}" ] &&
		[ "${KTRACE_TIER:-core}" != full ] && [ "$1" != k6.1 ] && [ "$1" != ksid ]; then
		echo "${FORMATS%% *}"
	elif [ "${KTRACE_TIER:-core}" = full ] || [ -n "${KTRACE_CASES:-}" ] || is_base_case "$1"; then
		echo "$FORMATS"
	else
		echo "${FORMATS%% *}"
	fi
}
# source_formats_of CASE: the formats a test that compares type and
# symbol sources (DWARF, the dump's BTF and kallsyms, a profile: t-btf,
# t-profile) reads: what they compare does not depend on the container,
# which t-truth, t-tracedat and t-dmesg read in every format of every base
# case, so make check reads the first (the ELF dump) and a d31 dump where
# the case has one (filtered pages: the dump-alone reader's own loss);
# make check-full and KTRACE_CASES every format
source_formats_of() {
	local f d31=
	if [ "${KTRACE_TIER:-core}" = full ] || [ -n "${KTRACE_CASES:-}" ]; then
		echo "$FORMATS"
		return
	fi
	for f in $FORMATS; do [ "$f" = d31 ] && d31=d31; done
	echo "${FORMATS%% *} $d31"
}
# is_machine_case CASE: a kernel's base case or another machine's (k6.12-arm64,
# k6.12-arm64-16k, k6.12-ppc64el-64k, k6.12-s390x, kbpo-arm64-16k): one
# fixture per kernel x architecture x page size
is_machine_case() {
	is_base_case "$1" || [[ $1 =~ ^k([0-9]+\.[0-9]+|sid|bpo)-(arm64|ppc64el|s390x)(-16k|-64k|-va48)?$ ]]
}
# sanitize_subject CASE [PATTERN...]: status 1 when, under the sanitizers
# (make check-sanitize, no KTRACE_CASES, not check-full), a test whose
# subject is the kernel and not the workload (the kernel log, the type
# and symbol sources, the ticket, -J's workers) leaves CASE out: it reads
# every kernel's and machine's base case, and of the feature cases those
# matching a PATTERN (the features that reach its code: function
# arguments from BTF in t-btf, say). The other feature cases' code is the
# same code, run under the sanitizers by t-truth, t-fastfmt, t-profile...
# on every case; make check runs the test on all of them
sanitize_subject() {
	[ -n "${KTRACE_SANITIZE:-}" ] || return 0
	kernel_subject "$@"
}
# kernel_subject CASE [PATTERN...]: sanitize_subject's pick in make check
# too, for a test whose every case costs a run of its own that the other
# tests do not share (t-ticket: a DWARF profile made and trace-cmd run four
# times a case); make check-full and KTRACE_CASES read every case
kernel_subject() {
	local c=$1 p
	shift
	[ -z "${KTRACE_CASES:-}" ] && [ "${KTRACE_TIER:-core}" != full ] || return 0
	is_machine_case "$c" && return 0
	for p in "$@"; do
		# shellcheck disable=SC2053
		[[ $c == $p ]] && return 0
	done
	return 1
}
is_base_case() {
	[[ $1 =~ ^k([0-9]+\.[0-9]+(-rt)?|sid|bpo)$ ]]
}
cases() {
	local d
	for d in "$VMCORES"/*/case.env; do
		[ -f "$d" ] || continue
		has_recipe "$d" || continue
		sanitize_pick "$(basename "$(dirname "$d")")" || continue
		grep -q '^NOTRACE=1' "$d" && continue
		grep -q '^RING_TRUTH=' "$d" && continue
		grep -q '^DUMP_ALONE=1' "$d" && continue
		basename "$(dirname "$d")"
	done
}
# dump_alone_cases: the cases of a kernel Debian ships no -dbg package of
# (DUMP_ALONE=1 in case.env, VMLINUX empty: read with --from-dump), which
# cases() and all_cases() leave out
dump_alone_cases() {
	local d
	for d in "$VMCORES"/*/case.env; do
		[ -f "$d" ] && has_recipe "$d" && grep -q '^DUMP_ALONE=1' "$d" || continue
		sanitize_pick "$(basename "$(dirname "$d")")" || continue
		basename "$(dirname "$d")"
	done
}
# read_mode: RD, the arguments that give ktrace-extract the kernel's types
# and symbols for the case whose case.env was sourced: its vmlinux, or the
# dump alone (--from-dump: its BTF and kallsyms) for a DUMP_ALONE=1 case
read_mode() {
	if [ "${DUMP_ALONE:-}" = 1 ]; then RD=(--from-dump); else RD=(-x "$VMLINUX"); fi
}
# kdump_case: the first of cases() with a kdump-compressed dump (an amd64
# case: another machine's fixtures are ELF alone); nothing when none has one
kdump_case() {
	local x
	for x in $(cases); do
		[ -f "$VMCORES/$x/vmcore.kdump" ] && { echo "$x"; return; }
	done
}
# all_cases: every generated case, the tracing-off one included, but the
# dump-alone ones (no vmlinux: dump_alone_cases)
# (make check: the same pick as cases(); make check-full: all of them)
all_cases() {
	local d
	for d in "$VMCORES"/*/case.env; do
		[ -f "$d" ] && has_recipe "$d" || continue
		grep -q '^DUMP_ALONE=1' "$d" && continue
		sanitize_pick "$(basename "$(dirname "$d")")" || continue
		basename "$(dirname "$d")"
	done
}
finish() { [ "$FAILED" = 0 ]; exit $?; }
# ring_cases NAME: the cases whose truth is recorder NAME's own rendering
# (the tier's pick, as cases())
ring_cases() {
	local d
	for d in "$VMCORES"/*/case.env; do
		[ -f "$d" ] && has_recipe "$d" && grep -q "^RING_TRUTH=$1\$" "$d" || continue
		sanitize_pick "$(basename "$(dirname "$d")")" || continue
		basename "$(dirname "$d")"
	done
}
# tier_recipes: the recipes the tier's tests read (made or not): what
# tests/run-tests.sh asks scripts/make-vmcores for, so that make check on
# a fresh machine makes its pick and not every case of make check-full
tier_recipes() {
	local r c
	for r in "$KTRACE_RECIPES"/*.recipe; do
		c=$(basename "$r" .recipe)
		recipe_wanted "$c" && sanitize_pick "$c" && echo "$c"
	done
	return 0
}

# loss_agrees TEXT JSON: the "# ktrace:" counts of each buffer in TEXT (the
# text output) against the "loss" of that buffer's trailer in JSON (the
# --json output of the same read); prints the first disagreement, or
# "N buffers" when every count agrees. Status 1 on a disagreement.
loss_agrees() {
	perl -e '
		my ($text, $json) = @ARGV;
		my %map = ("pages read" => "pages_total", "unreadable" => "pages_unreadable",
			"filtered from the dump" => "pages_filtered", "corrupt (skipped)" => "pages_corrupt",
			"zero-filled" => "pages_zero", "page-list anomalies" => "list_anomalies",
			"events overwritten by the kernel" => "events_overrun",
			"dropped by the kernel" => "events_dropped",
			"pages flagged missed-events" => "events_missed_pages",
			"unknown event ids" => "events_unknown",
			"in-flight bytes (reserved, not committed)" => "inflight_bytes");
		my (@t, @j);
		open(my $T, "<", $text) or die; my %cur;
		while (<$T>) {
			next unless s/^# ktrace: //;
			if (/^pages read:/ && %cur) { push @t, {%cur}; %cur = (); }
			for my $kv (split /, /) { chomp $kv; my ($k, $v) = $kv =~ /^(.*): (\d+)$/ or next;
				$cur{$map{$k}} = $v if exists $map{$k}; }
		}
		push @t, {%cur} if %cur;
		open(my $J, "<", $json) or die;
		while (<$J>) {
			next unless /^\{"buffer_end":"((?:[^"\\]|\\.)*)","loss":\{(.*)\}\}$/;
			my %l = $2 =~ /"(\w+)":(\d+)/g; $l{_name} = $1; push @j, \%l;
		}
		if (@t != @j) { print scalar(@t), " buffers in the text, ", scalar(@j), " trailers in the JSON\n"; exit 1; }
		for my $i (0 .. $#t) {
			for my $k (sort keys %{$t[$i]}) {
				next if $t[$i]{$k} == $j[$i]{$k};
				print "buffer $j[$i]{_name}: $k is $t[$i]{$k} in the text, $j[$i]{$k} in the JSON\n"; exit 1;
			}
		}
		print scalar(@t), " buffers\n";
	' "$1" "$2"
}
