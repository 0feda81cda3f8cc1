// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Linux/s390x address translation for kernels that map their image apart
 * from the identity map (6.10 and later).
 *
 * libkdumpfile 0.5.1 (Debian 12's; sid's 0.5.6 and upstream's master are
 * the same here) knows one Linux/s390x layout, src/addrxlat/s390x.c,
 * sys_s390x(): every kernel address translated by the page tables, their
 * root the value of SYMBOL(swapper_pg_dir) taken as a physical address.
 * That holds while the kernel runs at its physical address. Since 6.10
 * (the series that made the image relocatable apart from the identity
 * map: __kaslr_offset, __kaslr_offset_phys, __identity_base, vm_layout)
 * the image runs at __kaslr_offset, near
 * the top of the address space (0x3fffe7f8000 on a 6.12 guest), loaded at
 * __kaslr_offset_phys, and the identity map starts at __identity_base;
 * vmcoreinfo says all three (KERNELOFFSET, KERNELOFFPHYS, IDENTITYBASE:
 * arch/s390/kernel/vmcore_info.c). libkdumpfile reads vmcoreinfo's
 * swapper_pg_dir (0x3fffff40000) as a physical address past the end of
 * RAM, cannot read the root table, leaves the kernel's addresses
 * unmapped (it clears the error), and every KVADDR read says "No way to
 * translate".
 *
 * The context's translation system is then set here to the kernel's
 * layout, as arch/s390/boot/startup.c (setup_kernel_memory_layout(),
 * startup_kernel()) and vmem.c (setup_vmem()) make it, 6.10 to 7.x:
 *
 *   the kernel image, _stext (link address TEXT_OFFSET) .. _end - 1, plus
 *       KERNELOFFSET: linear to the link address plus KERNELOFFPHYS
 *       (POPULATE_KERNEL, __kernel_pa()); without a vmlinux, to the end
 *       of swapper_pg_dir (in .bss, before _end), the rest walked;
 *   the identity map, IDENTITYBASE .. + the dump's memory: physical +
 *       IDENTITYBASE (POPULATE_IDENTITY, __identity_pa());
 *   everything else below the ASCE limit (vmalloc, modules, vmemmap, the
 *       lowcore and amode31 mappings): libkdumpfile's own s390x
 *       page-table method (ADDRXLAT_PTE_S390X), its root swapper_pg_dir's
 *       physical address by the image's rule above, its depth taken from
 *       the first valid entry of the root table, as libkdumpfile does;
 *   kernel physical = machine physical.
 *
 * The linear ranges are what the page tables say too; they are not
 * walked because a walk costs three or four reads of the tables.
 * Kernels before 6.10 (no KERNELOFFPHYS) keep libkdumpfile's own
 * translation.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libkdumpfile/kdumpfile.h>

#include "dump-s390x.h"
#include "xlat.h"
#include "symbols.h"

/* swapper_pg_dir and the other region and segment tables: PAGE_SIZE << CRST_ALLOC_ORDER */
#define S390X_CRST_SIZE		(4096 * 4)
#define S390X_CRST_ENTRIES	(S390X_CRST_SIZE / 8)
/* a region or segment table entry: _REGION_ENTRY_INVALID, _REGION_ENTRY_TYPE_MASK */
#define S390X_ENTRY_INVALID	0x20ULL
#define S390X_ENTRY_TYPE(e)	(((e) >> 2) & 3)
/* a segment (1 MiB, 20 bits) plus 11 bits per table above it */
#define S390X_SEGMENT_BITS	20
#define S390X_TABLE_BITS	11

int kx_s390x__wanted(kdump_ctx_t *c)
{
	const char *arch = NULL;
	uint64_t v;

	if (kdump_get_string_attr(c, KDUMP_ATTR_ARCH_NAME, &arch) != KDUMP_OK || !arch ||
	    strcmp(arch, KDUMP_ARCH_S390X)) {
		kdump_clear_err(c);
		return 0;
	}
	return !kx_xlat__vmcoreinfo_hex(c, "KERNELOFFPHYS", &v);
}

int kx_s390x__install(const struct kx_s390x *p, kdump_ctx_t *c)
{
	static const addrxlat_paging_form_t pf = {
		.pte_format = ADDRXLAT_PTE_S390X,
		/* page, page table (256 entries), segment, region 3, 2, 1 tables */
		.fieldsz = { 12, 8, 11, 11, 11, 11 },
	};
	addrxlat_sys_t *sys = kx_xlat__sys(c);
	uint64_t first[3], last[3];
	addrxlat_sys_meth_t meth[3];
	addrxlat_meth_t m;
	int n = 0, ret;

	if (!sys)
		return -EINVAL;
	memset(&m, 0, sizeof(m));
	m.kind = ADDRXLAT_LINEAR;
	m.target_as = ADDRXLAT_KPHYSADDR;
	m.param.linear.off = -p->ident_base;
	addrxlat_sys_set_meth(sys, ADDRXLAT_SYS_METH_DIRECT, &m);
	m.param.linear.off = p->image_phys - p->image_first;
	addrxlat_sys_set_meth(sys, ADDRXLAT_SYS_METH_KTEXT, &m);
	if (p->pgd) {
		memset(&m, 0, sizeof(m));
		m.kind = ADDRXLAT_PGT;
		m.target_as = ADDRXLAT_MACHPHYSADDR;
		m.param.pgt.root.as = ADDRXLAT_KPHYSADDR;
		m.param.pgt.root.addr = p->pgd;
		m.param.pgt.pf = pf;
		m.param.pgt.pf.nfields =
			2 + (p->virt_bits - S390X_SEGMENT_BITS) / S390X_TABLE_BITS;
		addrxlat_sys_set_meth(sys, ADDRXLAT_SYS_METH_PGT, &m);
	}

	ret = kx_xlat__phys_identity(sys, ~0ULL);
	if (p->pgd) {
		first[n] = 0;
		last[n] = p->virt_bits >= 64 ? ~0ULL : (1ULL << p->virt_bits) - 1;
		meth[n++] = ADDRXLAT_SYS_METH_PGT;
	}
	if (p->ident_size) {
		first[n] = p->ident_base;
		last[n] = p->ident_base + p->ident_size - 1;
		meth[n++] = ADDRXLAT_SYS_METH_DIRECT;
	}
	first[n] = p->image_first;
	last[n] = p->image_last;
	meth[n++] = ADDRXLAT_SYS_METH_KTEXT;
	if (!ret)
		ret = kx_xlat__set_map(sys, ADDRXLAT_SYS_MAP_KV_PHYS, first, last, meth, n);
	addrxlat_sys_decref(sys);
	return ret;
}

/*
 * The depth of the kernel's page tables, from the first valid entry of
 * its root table (as libkdumpfile's get_virt_bits_from_pgt()): 0 when
 * none is, or the table cannot be read.
 */
static unsigned int root_virt_bits(kdump_ctx_t *c, uint64_t pgd)
{
	uint64_t *tab = malloc(S390X_CRST_SIZE);
	size_t len = S390X_CRST_SIZE, i;
	unsigned int bits = 0;

	if (!tab)
		return 0;
	if (kdump_read(c, KDUMP_KPHYSADDR, pgd, tab, &len) == KDUMP_OK && len == S390X_CRST_SIZE) {
		for (i = 0; i < S390X_CRST_ENTRIES; i++) {
			uint64_t e = be64toh(tab[i]);

			if (!(e & S390X_ENTRY_INVALID)) {
				bits = S390X_SEGMENT_BITS +
				       S390X_TABLE_BITS * (S390X_ENTRY_TYPE(e) + 1);
				break;
			}
		}
	}
	kdump_clear_err(c);
	free(tab);
	return bits;
}

int kx_s390x__init(struct kx_s390x *p, kdump_ctx_t *c, const struct kx_symtab *symtab,
		   uint64_t kaslr)
{
	uint64_t offphys = 0, link, pgd_va = 0, end;
	kdump_num_t max_pfn = 0, shift = 12;
	int reloc, have_pgd, ret;

	memset(p, 0, sizeof(*p));
	kx_xlat__vmcoreinfo_hex(c, "KERNELOFFPHYS", &offphys);
	/* KERNELOFFSET is __kaslr_offset: the image's virtual link base */
	kx_xlat__vmcoreinfo_hex(c, "KERNELOFFSET", &kaslr);
	/* absent: the identity map at 0, as before 6.10 */
	kx_xlat__vmcoreinfo_hex(c, "IDENTITYBASE", &p->ident_base);
	if (kdump_get_number_attr(c, KDUMP_ATTR_PAGE_SHIFT, &shift) != KDUMP_OK ||
	    kdump_get_number_attr(c, "max_pfn", &max_pfn) != KDUMP_OK)
		max_pfn = 0;
	kdump_clear_err(c);
	p->ident_size = (uint64_t)max_pfn << shift;

	/* the image: _stext .. _end - 1 of the vmlinux, else of vmcoreinfo */
	if (symtab && !kx_symtab__lookup(symtab, "_stext", &link, &reloc))
		p->image_first = link + kaslr;
	else if (kx_xlat__vmcoreinfo_hex(c, "SYMBOL(_stext)", &p->image_first))
		/* TEXT_OFFSET, where the kernel's linker script starts it */
		p->image_first = kaslr + 0x100000;
	p->image_phys = p->image_first - kaslr + offphys;
	have_pgd = !kx_xlat__vmcoreinfo_hex(c, "SYMBOL(swapper_pg_dir)", &pgd_va);
	if (!have_pgd && symtab && !kx_symtab__lookup(symtab, "swapper_pg_dir", &link, &reloc)) {
		pgd_va = link + kaslr;
		have_pgd = 1;
	}
	if (symtab && !kx_symtab__lookup(symtab, "_end", &link, &reloc) &&
	    link + kaslr > p->image_first)
		end = link + kaslr;
	else if (have_pgd && pgd_va > p->image_first)
		/* in .bss, which ends the image: the rest of it is walked */
		end = pgd_va + S390X_CRST_SIZE;
	else
		end = p->image_first + (1ULL << shift);
	p->image_last = end - 1;

	ret = kx_s390x__install(p, c);
	if (ret)
		return ret;
	if (!have_pgd) {
		snprintf(p->why, sizeof(p->why), "swapper_pg_dir unknown");
		return 0;
	}
	if (pgd_va < p->image_first || pgd_va > p->image_last) {
		snprintf(p->why, sizeof(p->why), "swapper_pg_dir 0x%llx not in the kernel image",
			 (unsigned long long)pgd_va);
		return 0;
	}
	p->pgd = pgd_va - p->image_first + p->image_phys;
	p->virt_bits = root_virt_bits(c, p->pgd);
	if (!p->virt_bits) {
		snprintf(p->why, sizeof(p->why),
			 "swapper_pg_dir at physical 0x%llx unreadable or empty",
			 (unsigned long long)p->pgd);
		p->pgd = 0;
		return 0;
	}
	return kx_s390x__install(p, c);
}
