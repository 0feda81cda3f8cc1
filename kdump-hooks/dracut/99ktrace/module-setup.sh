#!/bin/bash
# dracut module 99ktrace: ktrace in the kdump initramfs (RHEL/Fedora
# kexec-tools or kdump-utils). Saves the crashed kernel's ftrace buffers
# from /proc/vmcore before the dump is written (kdump_pre, /etc/kdump/pre.d).

# Only in the kdump initramfs: mkdumprd exports IN_KDUMP=1.
check() {
	[[ $IN_KDUMP == 1 ]] || return 1
	require_binaries "${KTRACE_EXTRACT:-ktrace-extract}" || return 1
	return 0
}

depends() {
	return 0
}

# KTRACE_EXTRACT, KTRACE_PROFILES, KTRACE_LIBDIR: other places than the
# installed ones (tests).
install() {
	local profiles=${KTRACE_PROFILES:-/var/lib/ktrace/profiles}
	local lib=${KTRACE_LIBDIR:-/usr/lib/ktrace}

	# the extractor and its libraries (libkdumpfile, libdw, libbpf, ...)
	inst_binary "${KTRACE_EXTRACT:-$(command -v ktrace-extract)}" /usr/bin/ktrace-extract
	inst_multiple stat tail sed cut date sync mkdir mv rm awk grep
	inst_multiple -o logger sha256sum xargs ls
	inst_script "$lib/ktrace-kdump-save" /usr/lib/ktrace/ktrace-kdump-save
	inst_script "$lib/kdump-pre-ktrace" /usr/lib/ktrace/kdump-pre-ktrace
	# settings, read by the pre script
	[[ -f /etc/ktrace.conf ]] && inst_simple /etc/ktrace.conf
	# the layout profile of the kernel this initramfs captures for
	if [[ -f $profiles/$kernel.profile ]]; then
		inst_simple "$profiles/$kernel.profile" "/var/lib/ktrace/profiles/$kernel.profile"
	else
		dwarn "ktrace: no layout profile $profiles/$kernel.profile (run ktrace-profile-update $kernel); the trace will not be saved"
	fi
}
