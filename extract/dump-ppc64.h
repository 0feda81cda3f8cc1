/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Linux/ppc64 address translation where libkdumpfile sets up none (4 KiB
 * pages): dump-ppc64.c.
 */
#ifndef KTRACE_EXTRACT_DUMP_PPC64_H
#define KTRACE_EXTRACT_DUMP_PPC64_H

#include <stdint.h>
#include <libkdumpfile/kdumpfile.h>

struct kx_symtab;

/* What the page-table walk needs; it lives as long as the contexts it is set on. */
struct kx_ppc64 {
	uint64_t vmalloc_start;	/* the first address walked */
	uint64_t kern_end;	/* the last */
	uint64_t linear_size;	/* bytes of the linear map at 0xc000000000000000 */
	uint64_t pgd;		/* swapper_pg_dir, physical; 0: no walk (why) */
	unsigned int page_shift;
	unsigned int index[4];	/* the kernel's pte, pmd, pud, pgd index sizes */
	char why[128];		/* why addresses past the linear map are not translated */
};

/*
 * A ppc64 context whose translation libkdumpfile left unset (4 KiB pages),
 * or set for another layout (64 KiB pages, a kernel with vmalloc at
 * 0xc008...)?
 */
int kx_ppc64__wanted(kdump_ctx_t *c);
/*
 * Learn the layout from @c (vmcoreinfo, the kernel's variables through the
 * linear map) and set it on @c's translation system. 0 or -errno; what is
 * not known is said in @p->why, and only the linear map is translated.
 */
int kx_ppc64__init(struct kx_ppc64 *p, kdump_ctx_t *c, const struct kx_symtab *symtab,
		   uint64_t kaslr, unsigned int page_shift);
/* Set @p's layout on another context of the same dump. 0 or -errno. */
int kx_ppc64__install(struct kx_ppc64 *p, kdump_ctx_t *c);

#endif /* KTRACE_EXTRACT_DUMP_PPC64_H */
