# shellcheck shell=bash
# Shared helpers of the ktrace operational scripts (sourced, not run).
#
# KTRACE_CACHE    where kernels, tools and vmcores are cached (~/.cache/ktrace)
# KTRACE_MIRROR   Debian mirror for the private apt configuration; defaults to
#                 the host named in this machine's own apt sources

KTRACE_CACHE=${KTRACE_CACHE:-$HOME/.cache/ktrace}

die() { printf '%s: %s\n' "${0##*/}" "$*" >&2; exit 1; }
note() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }

# The Debian mirror this machine already uses (first deb.debian.org-like
# http(s) URI in /etc/apt/sources.list*), so that we reuse its host.
ktrace_mirror()
{
	local uri
	if [ -n "${KTRACE_MIRROR:-}" ]; then
		echo "$KTRACE_MIRROR"
		return
	fi
	uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null |
		grep -Eo 'https?://[^ ]+/debian/?( |$)' | head -n1 | tr -d ' ')
	echo "${uri:-http://deb.debian.org/debian}" | sed 's:/*$::'
}

# Set up a private apt configuration for Debian SUITE (bullseye, bookworm,
# trixie) and architecture ARCH (amd64 by default) under
# $KTRACE_CACHE/apt/SUITE (amd64) or $KTRACE_CACHE/apt/SUITE-ARCH (any other:
# its own lists, amd64's cached state left alone) and fill APT_OPTS with the
# options that make apt-get use it. The machine's own sources are never touched.
# KTRACE_APT_NOSECURITY=1 leaves out SUITE-security (own directory).
# Runs 'apt-get update' on it when its lists are missing or older than a day.
APT_OPTS=()
ktrace_apt_setup()
{
	local suite=$1 arch=${2:-amd64} dir mirror
	dir=$KTRACE_CACHE/apt/$suite
	[ "$arch" = amd64 ] || dir=$dir-$arch
	dir=$dir${KTRACE_APT_NOSECURITY:+-nosecurity}
	mirror=$(ktrace_mirror)
	mkdir -p "$dir/state/lists/partial" "$dir/cache/archives/partial" "$dir/etc"
	: >"$dir/status"
	cat >"$dir/etc/sources.list.new" <<EOS
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main
EOS
	# sid and backports have no security archive of their own
	case $suite in sid | unstable | experimental | *-backports) ;; *)
	[ -n "${KTRACE_APT_NOSECURITY:-}" ] ||
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${mirror%/debian}/debian-security $suite-security main" \
			>>"$dir/etc/sources.list.new" ;;
	esac
	if ! cmp -s "$dir/etc/sources.list.new" "$dir/etc/sources.list"; then
		mv "$dir/etc/sources.list.new" "$dir/etc/sources.list"
		rm -f "$dir/state/updated"
	else
		rm -f "$dir/etc/sources.list.new"
	fi
	APT_OPTS=(-o "Dir::Etc::SourceList=$dir/etc/sources.list"
		-o Dir::Etc::SourceParts=/dev/null
		-o "Dir::Etc::Preferences=/dev/null"
		-o "Dir::Etc::PreferencesParts=/dev/null"
		-o "Dir::State=$dir/state"
		-o "Dir::State::status=$dir/status"
		-o "Dir::Cache=$dir/cache"
		-o "APT::Architecture=$arch"
		-o "APT::Architectures::=$arch"
		-o Acquire::Languages=none
		-o Debug::NoLocking=1
		-o APT::Sandbox::User=root)
	if [ -z "$(find "$dir/state/updated" -mmin -1440 2>/dev/null)" ]; then
		note "apt-get update ($suite${dir##*/$suite}, private configuration)"
		if ! apt-get -qq "${APT_OPTS[@]}" update >"$dir/update.log" 2>&1; then
			# a security archive the mirror serves half-synced (seen:
			# trixie-security's ppc64el Packages.xz older than its
			# InRelease, "File has unexpected size"): the suite alone,
			# in its own directory
			if [ -z "${KTRACE_APT_NOSECURITY:-}" ] && grep -q -- '-security ' "$dir/etc/sources.list"; then
				note "apt-get update failed with $suite-security ($(grep -m1 '^E:' "$dir/update.log" | cut -c1-100)): $suite without it"
				KTRACE_APT_NOSECURITY=1 ktrace_apt_setup "$suite" "$arch"
				return
			fi
			cat "$dir/update.log" >&2
			die "apt-get update failed for $suite $arch"
		fi
		touch "$dir/state/updated"
	fi
}

# Print the candidate version of PACKAGE in the private configuration.
ktrace_apt_version()
{
	apt-cache "${APT_OPTS[@]}" policy "$1" 2>/dev/null |
		awk '/Candidate:/ { print $2 }' | grep -v '(none)'
}

# Debian suite of a kernel series. An amd64 series is the suite's cloud
# kernel (5.10, 6.1, 6.12, sid, trixie-backports) or its rt one (6.1-rt,
# 6.12-rt); an arm64 series is one of those bases with -arm64 (Debian's
# cloud-arm64 flavour, 4 KiB pages) or -arm64-16k (the arm64-16k flavour,
# 16 KiB pages) after it: 6.12-arm64, 6.12-arm64-16k, sid-arm64...; a
# ppc64el series one with -ppc64el (Debian's powerpc64le flavour, 4 KiB
# pages since trixie) or -ppc64el-64k (powerpc64le-64k, 64 KiB pages); an
# s390x series one with -s390x (Debian's s390x flavour, big-endian, 4 KiB
# pages): 6.12-s390x, sid-s390x.
ktrace_series_suite()
{
	case $1 in
	5.10) echo bullseye ;;
	6.1 | 6.1-rt) echo bookworm ;;
	6.12 | 6.12-rt) echo trixie ;;
	# today's kernels: the newest of the suite, whatever it is (the mirror
	# keeps no other); fetch-kernel resolves it each day
	sid | trixie-backports) echo "$1" ;;
	# sid's PREEMPT_RT kernel (7.x's latency tracers)
	sid-rt) echo sid ;;
	# a kernel series of trixie-backports that Debian ships without a -dbg
	# package (6.16 to 6.19): its newest release there, read from the dump
	# alone (ktrace_series_nodbg)
	6.1[6-9]) echo trixie-backports ;;
	*-arm64 | *-arm64-16k | *-ppc64el | *-ppc64el-64k | *-s390x)
		case $1 in *-rt-*) return 1 ;; esac
		ktrace_series_suite "$(ktrace_series_base "$1")" ;;
	*) return 1 ;;
	esac
}

# The series without its architecture and flavour (6.12-arm64-16k,
# 6.12-ppc64el-64k, 6.12-s390x: 6.12).
ktrace_series_base()
{
	local s=${1%-16k}
	case $s in *-ppc64el | *-ppc64el-64k) s=${s%-64k} s=${s%-ppc64el} ;; esac
	s=${s%-s390x}
	echo "${s%-arm64}"
}

# The Debian architecture of a kernel series: amd64, arm64, ppc64el or s390x.
ktrace_series_arch()
{
	case $1 in
	*-arm64 | *-arm64-16k) echo arm64 ;;
	*-ppc64el | *-ppc64el-64k) echo ppc64el ;;
	*-s390x) echo s390x ;;
	*) echo amd64 ;;
	esac
}

# The Debian kernel flavour of a series, as in linux-image-FLAVOUR (the
# meta-package) and linux-image-RELEASE (RELEASE ends with it):
# cloud-amd64, rt-amd64, cloud-arm64, arm64-16k, powerpc64le,
# powerpc64le-64k or s390x.
ktrace_series_flavour()
{
	case $1 in
	*-s390x) echo s390x ;;
	*-ppc64el-64k) echo powerpc64le-64k ;;
	*-ppc64el) echo powerpc64le ;;
	*-arm64-16k) echo arm64-16k ;;
	*-arm64) echo cloud-arm64 ;;
	*-rt) echo rt-amd64 ;;
	*) echo cloud-amd64 ;;
	esac
}

# Whether a series is a kernel without a -dbg package (no DWARF vmlinux):
# 6.16 to 6.19 of trixie-backports. fetch-kernel keeps its image alone and
# the fixtures read its dumps with --from-dump (BTF and the kallsyms tables
# VMCOREINFO lists, 6.0+).
ktrace_series_nodbg()
{
	case $(ktrace_series_base "$1") in 6.1[6-9]) return 0 ;; esac
	return 1
}

# The release prefix a series asks for within its suite ("6.18." for 6.18,
# 6.18-arm64...), or nothing when the series is the suite's meta-package
# (5.10, 6.12, sid, trixie-backports...).
ktrace_series_version()
{
	local b
	b=$(ktrace_series_base "$1")
	case $b in 6.1[6-9]) echo "$b." ;; esac
}

# Whether a series names the newest kernel of a suite (sid,
# trixie-backports, sid-arm64...), which fetch-kernel resolves each day.
ktrace_series_moves()
{
	local base
	base=$(ktrace_series_base "$1")
	base=${base%-rt}
	[ "$(ktrace_series_suite "$base" 2>/dev/null)" = "$base" ]
}

# Path of a static busybox for a guest of Debian architecture ARCH: the
# host's own (busybox-static) for the host's architecture; for another,
# Debian trixie's busybox-static of ARCH through the private apt
# configuration, unpacked once into $KTRACE_CACHE/busybox/ARCH/.
ktrace_guest_busybox()
{
	local arch=$1 dir deb b
	if [ "$arch" = "$(dpkg --print-architecture)" ]; then
		command -v busybox
		return
	fi
	dir=$KTRACE_CACHE/busybox/$arch
	if [ ! -x "$dir/busybox" ]; then
		ktrace_apt_setup trixie "$arch"
		rm -rf "$dir.tmp"
		mkdir -p "$dir.tmp/x"
		(cd "$dir.tmp" && apt-get -qq "${APT_OPTS[@]}" download busybox-static) ||
			die "cannot download busybox-static ($arch)"
		deb=$(ls "$dir.tmp"/busybox-static_*.deb)
		dpkg-deb -x "$deb" "$dir.tmp/x"
		for b in "$dir.tmp/x/usr/bin/busybox" "$dir.tmp/x/bin/busybox"; do
			[ -x "$b" ] && break
		done
		[ -x "$b" ] || die "no busybox in $deb"
		mkdir -p "$dir"
		mv "$b" "$dir/busybox.tmp"
		dpkg-deb -f "$deb" Version >"$dir/version"
		mv "$dir/busybox.tmp" "$dir/busybox"
		rm -rf "$dir.tmp"
		note "busybox-static $(cat "$dir/version") ($arch) kept in $dir"
	fi
	echo "$dir/busybox"
}

# Path of helper NAME built from scripts/tools/NAME.c into the cache, as
# NAME-HASH (HASH: the source's): checkouts that share the cache (a branch's
# worktree beside main) each run their own source's build, never another's.
ktrace_tool()
{
	local src bin
	src=$(dirname "${BASH_SOURCE[0]}")/tools/$1.c
	bin=$KTRACE_CACHE/tools/$1-$(sha256sum "$src" | cut -c1-12)
	if [ ! -x "$bin" ]; then
		mkdir -p "$KTRACE_CACHE/tools"
		${CC:-cc} -O2 -Wall -Wextra -o "$bin.tmp" "$src" || die "cannot build $src"
		mv "$bin.tmp" "$bin"
	fi
	echo "$bin"
}
