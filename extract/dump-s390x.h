/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Linux/s390x address translation where libkdumpfile's is wrong (6.10 and
 * later: the kernel image mapped apart from the identity map):
 * dump-s390x.c.
 */
#ifndef KTRACE_EXTRACT_DUMP_S390X_H
#define KTRACE_EXTRACT_DUMP_S390X_H

#include <stdint.h>
#include <libkdumpfile/kdumpfile.h>

struct kx_symtab;

/* The kernel's layout, from vmcoreinfo and the vmlinux; set on every context of the dump. */
struct kx_s390x {
	uint64_t ident_base;	/* IDENTITYBASE: identity map VA = PA + ident_base */
	uint64_t ident_size;	/* bytes of it translated linearly: the dump's memory */
	uint64_t image_first;	/* the kernel image's first and last address (_stext, _end - 1) */
	uint64_t image_last;	/*   linear to ... */
	uint64_t image_phys;	/*   ... this physical address of image_first */
	uint64_t pgd;		/* swapper_pg_dir, physical; 0: no walk (why) */
	unsigned int virt_bits;	/* 42 (a region-3 table first), 53 or 64 */
	char why[128];		/* why the rest (vmalloc, modules) is not translated */
};

/* An s390x context of a kernel that maps its image apart (KERNELOFFPHYS in vmcoreinfo)? */
int kx_s390x__wanted(kdump_ctx_t *c);
/*
 * Learn the layout from @c's vmcoreinfo (and @symtab's _end when there is
 * one, @kaslr its KASLR offset) and set it on @c's translation system.
 * 0 or -errno; what is not known is said in @p->why, and only the linear
 * ranges are translated.
 */
int kx_s390x__init(struct kx_s390x *p, kdump_ctx_t *c, const struct kx_symtab *symtab,
		   uint64_t kaslr);
/* Set @p's layout on another context of the same dump. 0 or -errno. */
int kx_s390x__install(const struct kx_s390x *p, kdump_ctx_t *c);

#endif /* KTRACE_EXTRACT_DUMP_S390X_H */
