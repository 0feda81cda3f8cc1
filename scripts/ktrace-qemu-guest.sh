# shellcheck shell=bash
# ktrace-qemu: the guest's initramfs (sourced by ktrace-qemu, not run).
# busybox, /init (qemu-panic-init.sh), the modules to load at boot, the
# reproducer and its files, and /workload.env that tells /init what to do.

q() { printf "%s='%s'\n" "$1" "$(printf %s "$2" | sed "s/'/'\\\\''/g")"; }

# add_modules DIR: copy DIR's .ko files and append their load order (from
# DIR/modules.load, ../modules.load as fetch-kernel keeps it, or else the
# names in alphabetical order) to the guest's /lib/modules.load
add_modules() {
	local d=$1 r=$work/root
	cp "$d"/*.ko "$r/lib/modules/" 2>/dev/null || true
	if [ -e "$d/modules.load" ]; then
		cat "$d/modules.load"
	elif [ -e "$d/../modules.load" ]; then
		cat "$d/../modules.load"
	else
		(cd "$d" && ls -- *.ko 2>/dev/null) || true
	fi >>"$r/lib/modules.load"
}

make_initramfs() {
	local r=$work/root rand bb
	rand=$(od -An -N4 -tx4 /dev/urandom | tr -d ' ')
	last_global="ktrace-last-marker $case $rand"
	last_instance="ktrace-last-marker-$instance $case $rand"
	mkdir -p "$r"/{bin,lib/modules,proc,sys,dev,truth,ktrace/files}
	: >"$r/lib/modules.load"
	# the guest's architecture's (arm64: Debian's, unpacked into the cache)
	bb=$(ktrace_guest_busybox "$arch") || die "no busybox for $arch"
	cp "$bb" "$r/bin/busybox"
	if readelf -l "$r/bin/busybox" 2>/dev/null | grep -q 'program interpreter'; then
		die "$bb is dynamically linked: install busybox-static"
	fi
	ln -s busybox "$r/bin/sh"
	cp "$libdir/qemu-panic-init.sh" "$r/init"
	chmod +x "$r/init"
	[ -n "$series_modules" ] && [ -d "$series_modules" ] && add_modules "$series_modules"
	[ -n "$modules" ] && add_modules "$modules"
	if [ -n "$run" ]; then
		cp "$run" "$r/ktrace/run"
		chmod 0755 "$r/ktrace/run"
	fi
	[ -n "$files" ] && cp -a "$files/." "$r/ktrace/files/"
	{
		q CASE "$case"
		q BUFFER_KB "$buffer_kb"
		q EVENTS "$events"
		q INSTANCE "$instance"
		q INSTANCE_EVENTS "$instance_events"
		q MARKERS "$markers"
		q INSTANCE_MARKERS "$instance_markers"
		q INSTANCE_BUFFER_KB "$instance_buffer_kb"
		q NO_TRACE "$no_trace"
		q TRACER "$tracer"
		q FTRACE_FILTER "$ftrace_filter"
		q OPTIONS "$options"
		q INSTANCE_OPTIONS "$instance_options"
		q MARKER_BYTES "$marker_bytes"
		q SUBBUF_KB "$subbuf_kb"
		q CLOCK "$clock"
		q LAST_MARKER_GLOBAL "$last_global"
		q LAST_MARKER_INSTANCE "$last_instance"
		q RUN "${run:+/ktrace/run}"
		q RUN_SETUP "$run_setup"
		q CRASH_AFTER_RUN "$crash_after_run"
		q TRUTH_DISK "$truth_disk"
	} >"$r/workload.env"
	(cd "$r" && find . | cpio -o -H newc --quiet) >"$work/initrd" || die "cannot make the initramfs"
}
