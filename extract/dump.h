/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The standalone extractor's memory: a vmcore read through libkdumpfile
 * (memory, address translation, vmcoreinfo), opened with the crashed
 * kernel's vmlinux, which it checks and keeps as a type and symbol source
 * of its own (types/vmsrc.h: libdw's types, libelf's symbols).
 */
#ifndef KTRACE_EXTRACT_DUMP_H
#define KTRACE_EXTRACT_DUMP_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <ktrace/target.h>

/* Why kx_dump__open() failed; main maps these to exit statuses. */
enum kx_error {
	KX_OK = 0,
	KX_ERR_DUMP,       /* cannot open or recognise the vmcore */
	KX_ERR_DEBUGINFO,  /* cannot open vmlinux or it has no usable DWARF */
	KX_ERR_MISMATCH,   /* vmlinux is not the crashed kernel's */
	KX_ERR_NOMEM,
};

struct kx_dump;
struct kx_vmsrc;

struct kx_dump_opts {
	size_t sz;
	/* vmlinux with DWARF, or a separate debug file; NULL: not given */
	const char *vmlinux;
	/*
	 * accept a vmlinux whose build-id/release differ from the dump's,
	 * and a truncated dump (reads past its end fail with -EIO); each
	 * is reported on stderr as a warning
	 */
	int force;
	/* print what was resolved and how long it took, to stderr */
	int verbose;
	/*
	 * open the dump alone: no vmlinux, no symbols or types (the caller
	 * answers those, e.g. from a layout profile) and no check that they
	 * match; @arch names the architecture when the dump does not
	 */
	int no_vmlinux;
	const char *arch;
	/*
	 * no vmlinux given, and none found or the one found has no DWARF:
	 * open the dump alone as with @no_vmlinux instead of failing, and
	 * keep why (kx_dump__why_alone()); the caller then answers from the
	 * dump itself (types/indump.h)
	 */
	int alone_if_no_vmlinux;
};

/*
 * Open @vmcore read-only and @opts->vmlinux, check that they belong
 * together. On failure return NULL, set *@err to the class and write a
 * message naming the object and cause into @msg.
 */
struct kx_dump *kx_dump__open(const char *vmcore, const struct kx_dump_opts *opts,
			      enum kx_error *err, char *msg, size_t msglen);
void kx_dump__close(struct kx_dump *d);

/*
 * Fill @t with callbacks reading this dump: memory and the platform (page
 * size, byte order); no symbol or type (each -ENOENT), a type source's
 * (kx_vmsrc__target() of kx_dump__vmsrc()). Valid until close.
 */
void kx_dump__target(struct kx_dump *d, struct kt_target *t);
/* the vmlinux opened with the dump, as a type and symbol source; NULL when alone */
struct kx_vmsrc *kx_dump__vmsrc(const struct kx_dump *d);

/*
 * Once, at the end (or when the session could not open): what the dump is
 * known to lose, where reads fell on pages it left out and the kind of
 * dump names a cause (a ppc64 radix kernel with 4 KiB pages filtered by
 * makedumpfile 1.7.4 to 1.7.8). Nothing otherwise.
 */
void kx_dump__report(const struct kx_dump *d, FILE *f);

/* vmcoreinfo OSRELEASE of the dump, or NULL */
const char *kx_dump__osrelease(const struct kx_dump *d);
/* dump format as libkdumpfile names it ("elf", "diskdump", "flattened") */
const char *kx_dump__format(const struct kx_dump *d);

/* a vmcoreinfo line ("BUILD-ID", "SYMBOL(init_uts_ns)"), malloc'ed; or NULL */
char *kx_dump__vmcoreinfo_line(const struct kx_dump *d, const char *key);

/*
 * vmcoreinfo's SYMBOL(@name): a run-time address, KASLR applied. Since
 * v6.0 these include the kallsyms tables. 0 or -ENOENT.
 */
int kx_dump__vmcoreinfo_symbol(const struct kx_dump *d, const char *name, uint64_t *addr);

/* KASLR offset added to vmlinux symbols (0 without KASLR) */
uint64_t kx_dump__kaslr_offset(const struct kx_dump *d);
/* path of the vmlinux in use (given or found); NULL when opened alone */
const char *kx_dump__vmlinux(const struct kx_dump *d);

/* why no vmlinux is in use (alone_if_no_vmlinux), or NULL */
const char *kx_dump__why_alone(const struct kx_dump *d);
/* vmcore path as given */
const char *kx_dump__path(const struct kx_dump *d);
/*
 * Why the last failed target read failed, naming address and cause:
 * "kdump_read(KVADDR 0x...): <libkdumpfile's reason> (<class>)".
 * "" when none failed.
 */
const char *kx_dump__last_error(const struct kx_dump *d);

#endif /* KTRACE_EXTRACT_DUMP_H */
