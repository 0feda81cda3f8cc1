#!/bin/bash
# The library's edge: libktrace.so exports exactly the functions the public
# headers (include/ktrace/*.h) declare, as the compiler reads them
# (gcc -aux-info, not the Makefile's own list), each under the version
# KTRACE_0, and nothing else: lib/'s internal kt_* functions and whatever
# it links stay inside. A program built against the headers links to the
# shared library and runs; one that calls an internal function does not
# link. (The options structs' checks are tests/unit/test-opts.c.)
. "$(dirname "$0")/lib.sh"
src=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-build}
command -v gcc >/dev/null || { echo "skip - gcc missing"; exit 77; }
# the sanitized build's objects need their runtime: the exports are the
# plain build's, checked there
[ -n "${KTRACE_SANITIZE:-}" ] && { echo "skip - the exports are checked on the plain build (make check)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src" || exit 1
make -s O="$O" "$O/libktrace.so" >"$tmp/make.log" 2>&1 ||
	{ nok "make $O/libktrace.so failed: $(tail -n 3 "$tmp/make.log")"; finish; }
case $O in /*) so=$O/libktrace.so ;; *) so=$src/$O/libktrace.so ;; esac

printf '#include "ktrace/ktrace.h"\n' >"$tmp/h.c"
gcc -Iinclude $(pkg-config --cflags libtraceevent) -fsyntax-only -aux-info "$tmp/h.aux" "$tmp/h.c" ||
	{ nok "gcc -aux-info of the public headers failed"; finish; }
grep " include/ktrace/[a-z]*\.h:" "$tmp/h.aux" | sed -n 's/.*[ *]\(kt_[a-z0-9_]*\) (.*/\1/p' | sort -u >"$tmp/public"
npub=$(wc -l <"$tmp/public")
[ "$npub" -gt 50 ] || { nok "only $npub public functions read from the headers"; finish; }

nm -D --defined-only "$so" | awk '$2 ~ /^[A-Za-z]$/ && $3 != "KTRACE_0" { print $3 }' >"$tmp/exports"
sed 's/@.*//' "$tmp/exports" | sort -u >"$tmp/names"
if cmp -s "$tmp/public" "$tmp/names"; then
	ok "libktrace.so exports exactly the $npub functions of include/ktrace/*.h"
else
	nok "libktrace.so's exports differ from the public headers' functions: $(diff "$tmp/public" "$tmp/names" | grep '^[<>]' | head -n 5 | tr '\n' ' ')"
fi
unversioned=$(grep -vc '@@KTRACE_0$' "$tmp/exports")
if [ "$unversioned" = 0 ]; then
	ok "every export has the version KTRACE_0"
else
	nok "$unversioned exports without the version KTRACE_0: $(grep -v '@@KTRACE_0$' "$tmp/exports" | head -n 3 | tr '\n' ' ')"
fi
internal=$(nm --defined-only "$O/libktrace.a" 2>/dev/null | awk '$2 == "T" && $3 ~ /^kt_/ { print $3 }' | sort -u | comm -23 - "$tmp/public" | wc -l)
if [ "$internal" -gt 0 ] && ! nm -D --defined-only "$so" | grep -q ' kt_err$\| kt_err@'; then
	ok "the $internal internal kt_* functions of libktrace.a are not exported (kt_err among them)"
else
	nok "internal functions: $internal in libktrace.a, kt_err exported: $(nm -D --defined-only "$so" | grep -c ' kt_err')"
fi

# a user of the public API links and runs
cat >"$tmp/user.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include "ktrace/ktrace.h"
int main(void)
{
	uint64_t mask[KT_CPUMASK_WORDS];
	int n = kt_cpumask__parse("0-2,5", mask);
	printf("%d %s\n", n, kt_last_error());
	return n < 0;
}
EOF
# linked by its soname, as an installed libktrace.so.0 would be
mkdir -p "$tmp/lib" && ln -s "$so" "$tmp/lib/libktrace.so" && ln -s "$so" "$tmp/lib/libktrace.so.0"
if gcc -Iinclude $(pkg-config --cflags libtraceevent) -o "$tmp/user" "$tmp/user.c" -L"$tmp/lib" -lktrace \
	-Wl,-rpath,"$tmp/lib" 2>"$tmp/user.err" && "$tmp/user" >"$tmp/user.out" 2>&1; then
	ok "a program of the public API links to libktrace.so and runs ($(cat "$tmp/user.out"))"
else
	nok "a program of the public API: $(head -n 3 "$tmp/user.err" "$tmp/user.out" | tr '\n' ' ')"
fi
# ... and one that calls an internal function does not link
cat >"$tmp/inner.c" <<'EOF'
int kt_err(int err, const char *fmt, ...);
int main(void) { return kt_err(1, "x") == 0; }
EOF
if gcc -o "$tmp/inner" "$tmp/inner.c" -L"$tmp/lib" -lktrace 2>"$tmp/inner.err"; then
	nok "a program calling the internal kt_err() linked to libktrace.so"
elif grep -q "undefined reference to .kt_err" "$tmp/inner.err"; then
	ok "a program calling the internal kt_err() does not link: undefined reference"
else
	nok "a program calling kt_err(): the link failed otherwise: $(head -n 2 "$tmp/inner.err" | tr '\n' ' ')"
fi
finish
