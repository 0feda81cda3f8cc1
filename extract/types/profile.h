/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Layout profiles: the answers libktrace needs about one kernel build
 * (member offsets and sizes, absent members, type sizes, enumerator
 * values, link-time symbol addresses), saved while the kernel's DWARF or
 * BTF is at hand, so that a capture kernel without debuginfo can still
 * read the trace. Keyed by the kernel's GNU build-id and release.
 *
 * The file is text, one answer a line, fields separated by tabs:
 *
 *   ktrace-profile	1
 *   release	6.1.0-28-cloud-amd64
 *   build-id	3b43fad5...
 *   arch	x86_64
 *   source	dwarf /usr/lib/debug/boot/vmlinux-6.1.0-28-cloud-amd64
 *   enumerators	upper	(every enumerator without a lower-case letter)
 *   sym	global_trace	ffffffff82a0b000	r	(r: moved by KASLR, a: not)
 *   nosym	kallsyms_addresses
 *   member	struct trace_array	name	16	8
 *   member	struct ring_buffer	buffers	-	(absent)
 *   size	struct buffer_page	56
 *   enum	TRACE_FLAG_NMI	64
 *   end	<lines>	<FNV-1a 64 of every byte before this line>
 */
#ifndef KTRACE_EXTRACT_PROFILE_H
#define KTRACE_EXTRACT_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <ktrace/target.h>

#include "../dump.h"

struct kx_profile;

/*
 * Read and verify profile @path. Return 0, or -ENOENT/-EACCES (cannot
 * open), -EINVAL (not a profile, corrupted, truncated), -ENOMEM; with a
 * message naming the file, the line and the cause in @msg.
 */
int kx_profile__load(const char *path, struct kx_profile **out, char *msg,
		     size_t msglen);
void kx_profile__free(struct kx_profile *p);

/* the file it was loaded from */
const char *kx_profile__path(const struct kx_profile *p);
const char *kx_profile__release(const struct kx_profile *p);
/* "" when the profile has none */
const char *kx_profile__build_id(const struct kx_profile *p);
/* libkdumpfile's architecture name, "" when unknown */
const char *kx_profile__arch(const struct kx_profile *p);

/*
 * Is @p the profile of the kernel in dump @d? Compares build-id and
 * release with the dump's vmcoreinfo, takes the KASLR offset from
 * KERNELOFFSET (or from SYMBOL(init_uts_ns) when there is none) and
 * checks init_uts_ns against vmcoreinfo. KX_OK, or KX_ERR_MISMATCH with
 * a message.
 */
enum kx_error kx_profile__check(struct kx_profile *p, struct kx_dump *d,
				int force, char *msg, size_t msglen);

/*
 * Fill @t: memory from dump @d, everything else from @p. A question the
 * profile has no line for is answered -ENOENT and reported once on @log
 * (the profile is older than this ktrace: regenerate it).
 */
void kx_profile__target(struct kx_profile *p, struct kx_dump *d,
			FILE *log, struct kt_target *t);
/* questions asked that the profile could not answer */
unsigned int kx_profile__unknown(const struct kx_profile *p);

/*
 * --profile, in two steps around the dump's opening (types/resolve.c).
 * kx_profile__open(): load profile @path, or with @release (@path is a
 * directory) its <release>.profile. kx_profile__attach(): check that @p
 * is the kernel of dump @d (opened without a vmlinux) and fill @t. Each
 * returns -1 on success, otherwise the exit status (KT_EXIT_DEBUGINFO
 * for an unreadable or corrupted profile, KT_EXIT_MISMATCH for another
 * kernel's), the cause said on stderr. Free the profile after closing
 * the dump.
 */
int kx_profile__open(const char *path, const char *release, struct kx_profile **p);
int kx_profile__attach(struct kx_profile *p, struct kx_dump *d, int force, int verbose,
		       struct kt_target *t);

/* What --make-profile is given. */
struct kx_profile_make_opts {
	size_t sz;
	const char *output;
	const char *vmlinux;	/* DWARF (and symbols) from this vmlinux */
	const char *btf;	/* or BTF: raw (/sys/kernel/btf/vmlinux) or ELF .BTF */
	const char *system_map;	/* symbols with BTF: System.map or /proc/kallsyms */
	const char *release;	/* with BTF, when the BTF file cannot tell */
	const char *build_id;	/* with BTF, when the BTF file cannot tell */
	const char *vmcore;	/* optional reference dump: record a full run too */
	int verbose;
	/*
	 * optional: the DWARF of out-of-tree modules (krec.ko, lttng-modules)
	 * answers what the kernel's does not; a capture then reads their
	 * recorders with the profile alone. Their layouts are those modules'
	 * build: the profile is made again when they are rebuilt.
	 */
	const char *module_debuginfo;
};

/* --make-profile: returns an exit status (KT_EXIT_*) */
int kx_profile__make(const struct kx_profile_make_opts *opts);

#endif /* KTRACE_EXTRACT_PROFILE_H */
