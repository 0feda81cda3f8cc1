// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Linux/ppc64 address translation where libkdumpfile sets up none.
 *
 * libkdumpfile 0.5.1 (Debian 12's; sid's 0.5.6 and upstream's master are
 * the same here) knows one Linux/ppc64 layout, in src/addrxlat/ppc64.c,
 * map_linux_ppc64(): 64 KiB pages, the PTE format of hash-MMU kernels
 * before 4.7 (the RPN at bit 30), vmalloc at 0xd000000000000000. Any other
 * page size it refuses ("Unsupported page shift: 12") before it sets any
 * map: the context's translation system stays empty, and every KVADDR or
 * KPHYSADDR read says "No way to translate". Debian's powerpc64le flavour
 * has 4 KiB pages since trixie.
 *
 * The empty system of such a context (kdump_get_addrxlat() still hands it
 * out) is filled here with the kernel's own layout, as
 * arch/powerpc/include/asm/book3s/64/ (radix.h, hash.h, pgtable.h) has it
 * since 5.2, hash and radix MMU alike:
 *
 *   0xc000000000000000 .. VMALLOC_START - 1: the linear map, physical +
 *       0xc000000000000000 (kernel image, direct map, the first percpu
 *       chunk: all of the ring buffers), up to the dump's last page;
 *   VMALLOC_START .. 0xc00fffffffffffff (vmalloc and modules, I/O, radix's
 *       vmemmap): swapper_pg_dir walked, its entries big-endian whatever
 *       the kernel's byte order, each table's size the kernel's own
 *       __{pgd,pud,pmd,pte}_index_size (read from the dump), leaves at the
 *       PUD or PMD level taken as the huge pages they are;
 *   kernel physical = machine physical.
 *
 * Anything else has no translation (read as -EFAULT, "not mapped").
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libkdumpfile/kdumpfile.h>

#include "dump-ppc64.h"
#include "xlat.h"
#include "symbols.h"

#define PPC64_LINEAR	0xc000000000000000ULL
/* the end of the kernel's 0xc region since 5.2 (vmalloc, I/O, vmemmap) */
#define PPC64_KERN_END	0xc00fffffffffffffULL
#define PPC64_VMALLOC	0xc008000000000000ULL
/* book3s64's _PAGE_PRESENT, _PAGE_PTE (a leaf) and _PAGE_INVALID */
#define PPC64_PRESENT	0x8000000000000000ULL
#define PPC64_LEAF	0x4000000000000000ULL
#define PPC64_INVALID	0x2000000000000000ULL
/* an upper level's entry: the next table's physical address, PMD_MASKED_BITS off */
#define PPC64_TABLE_MASK (~0xc0000000000000ffULL)
/* a leaf's physical address: bits _PAGE_PA_MAX (53) and up are flags */
#define PPC64_PA_MASK	((1ULL << 53) - 1)

/* NUMBER(VMALLOC_START) of vmcoreinfo (5.x and later), or 0 */
static uint64_t vmalloc_start(kdump_ctx_t *c)
{
	uint64_t v = 0;

	kx_xlat__vmcoreinfo_hex(c, "NUMBER(VMALLOC_START)", &v);
	return v;
}

int kx_ppc64__wanted(kdump_ctx_t *c)
{
	const char *arch = NULL;
	addrxlat_sys_t *sys = NULL;
	addrxlat_map_t *map;
	uint64_t vs;
	int wanted;

	if (kdump_get_string_attr(c, KDUMP_ATTR_ARCH_NAME, &arch) != KDUMP_OK || !arch ||
	    strcmp(arch, KDUMP_ARCH_PPC64)) {
		kdump_clear_err(c);
		return 0;
	}
	sys = kx_xlat__sys(c);
	if (!sys)
		return 0;
	map = addrxlat_sys_get_map(sys, ADDRXLAT_SYS_MAP_KV_PHYS);
	vs = vmalloc_start(c);
	/*
	 * None (4 KiB pages), or libkdumpfile's layout (64 KiB pages) on a
	 * kernel whose vmalloc it maps linearly: the modules of 5.2 and later
	 */
	wanted = !map || (vs > PPC64_LINEAR && vs <= PPC64_KERN_END &&
			  addrxlat_map_search(map, vs) == ADDRXLAT_SYS_METH_DIRECT);
	addrxlat_sys_decref(sys);
	return wanted;
}

/* 8 bytes of physical memory, as addrxlat reads its own page tables */
static addrxlat_status read_phys64(addrxlat_step_t *step, uint64_t pa, uint64_t *val)
{
	const addrxlat_cb_t *cb = addrxlat_ctx_get_cb(step->ctx);
	unsigned long caps = cb->read_caps ? cb->read_caps(cb) : 0;
	addrxlat_buffer_t buf;
	addrxlat_status st;
	uint64_t raw;

	memset(&buf, 0, sizeof(buf));
	buf.addr.addr = pa;
	buf.addr.as = caps & ADDRXLAT_CAPS(ADDRXLAT_MACHPHYSADDR) ? ADDRXLAT_MACHPHYSADDR :
								       ADDRXLAT_KPHYSADDR;
	st = cb->get_page(cb, &buf);
	if (st != ADDRXLAT_OK)
		return st;
	if (!buf.ptr || pa < buf.addr.addr || buf.size < 8 || pa - buf.addr.addr > buf.size - 8) {
		if (buf.put_page)
			buf.put_page(&buf);
		return addrxlat_ctx_err(step->ctx, ADDRXLAT_ERR_NODATA,
					"ppc64 page table entry at 0x%llx: not read",
					(unsigned long long)pa);
	}
	memcpy(&raw, (const char *)buf.ptr + (pa - buf.addr.addr), 8);
	if (buf.put_page)
		buf.put_page(&buf);
	/* book3s64's page tables are big-endian on either kind of kernel */
	*val = be64toh(raw);
	return ADDRXLAT_OK;
}

/*
 * The whole walk in the first step; the step then stands as a linear one
 * (the page's physical address plus the offset), as addrxlat finishes it.
 */
static addrxlat_status walk_first(addrxlat_step_t *step, addrxlat_addr_t addr)
{
	static const char *const level[] = { "pte", "pmd", "pud", "pgd" };
	const struct kx_ppc64 *p = step->meth->param.custom.data;
	uint64_t table = p->pgd, val = 0, pa;
	unsigned int shift[4], i;
	addrxlat_status st;
	int l;

	if (!p->pgd)
		return addrxlat_ctx_err(step->ctx, ADDRXLAT_ERR_NOMETH,
					"ppc64 page tables unknown (%s)", p->why);
	shift[0] = p->page_shift;
	for (i = 1; i < 4; i++)
		shift[i] = shift[i - 1] + p->index[i - 1];
	for (l = 3; l >= 0; l--) {
		uint64_t idx = (addr >> shift[l]) & ((1ULL << p->index[l]) - 1);

		st = read_phys64(step, table + idx * 8, &val);
		if (st != ADDRXLAT_OK)
			return st;
		if (!val || !(val & (PPC64_PRESENT | PPC64_INVALID)))
			return addrxlat_ctx_err(step->ctx, ADDRXLAT_ERR_NOTPRESENT,
						"%s[%llu] is none", level[l],
						(unsigned long long)idx);
		if (!l || (val & PPC64_LEAF))
			break;
		table = val & PPC64_TABLE_MASK;
	}
	if (l < 0)
		l = 0;
	/* a leaf at level l maps 1 << shift[l] bytes */
	pa = val & PPC64_PA_MASK & ~((1ULL << shift[l]) - 1);
	step->base.as = step->meth->target_as;
	step->base.addr = pa;
	step->remain = 1;
	step->elemsz = 1;
	step->idx[0] = addr & ((1ULL << shift[l]) - 1);
	return ADDRXLAT_OK;
}

static addrxlat_status walk_next(addrxlat_step_t *step)
{
	/* never reached: walk_first() leaves one step, which addrxlat does */
	return addrxlat_ctx_err(step->ctx, ADDRXLAT_ERR_NOTIMPL, "ppc64: unexpected step");
}

int kx_ppc64__install(struct kx_ppc64 *p, kdump_ctx_t *c)
{
	addrxlat_meth_t m;
	addrxlat_sys_t *sys = NULL;
	uint64_t first[2], last[2];
	addrxlat_sys_meth_t meth[2];
	int ret;

	sys = kx_xlat__sys(c);
	if (!sys)
		return -EINVAL;
	memset(&m, 0, sizeof(m));
	m.kind = ADDRXLAT_LINEAR;
	m.target_as = ADDRXLAT_KPHYSADDR;
	m.param.linear.off = -PPC64_LINEAR;
	addrxlat_sys_set_meth(sys, ADDRXLAT_SYS_METH_DIRECT, &m);
	memset(&m, 0, sizeof(m));
	m.kind = ADDRXLAT_CUSTOM;
	m.target_as = ADDRXLAT_KPHYSADDR;
	m.param.custom.first_step = walk_first;
	m.param.custom.next_step = walk_next;
	m.param.custom.data = p;
	addrxlat_sys_set_meth(sys, ADDRXLAT_SYS_METH_PGT, &m);

	ret = kx_xlat__phys_identity(sys, PPC64_PA_MASK);
	first[0] = PPC64_LINEAR;
	last[0] = PPC64_LINEAR + p->linear_size - 1;
	meth[0] = ADDRXLAT_SYS_METH_DIRECT;
	first[1] = p->vmalloc_start;
	last[1] = p->kern_end;
	meth[1] = ADDRXLAT_SYS_METH_PGT;
	if (!ret)
		ret = kx_xlat__set_map(sys, ADDRXLAT_SYS_MAP_KV_PHYS, first, last, meth, 2);
	addrxlat_sys_decref(sys);
	return ret;
}

/* An unsigned long of the kernel's, by its symbol, through the linear map. */
static int read_ulong(kdump_ctx_t *c, const struct kx_symtab *symtab, uint64_t kaslr,
		      const char *name, uint64_t *val)
{
	uint64_t addr;
	size_t len = 8;
	int reloc;

	if (!symtab || kx_symtab__lookup(symtab, name, &addr, &reloc))
		return -ENOENT;
	if (reloc)
		addr += kaslr;
	if (kdump_read(c, KDUMP_KVADDR, addr, val, &len) != KDUMP_OK || len != 8) {
		kdump_clear_err(c);
		return -EIO;
	}
	return 0;
}

int kx_ppc64__init(struct kx_ppc64 *p, kdump_ctx_t *c, const struct kx_symtab *symtab,
		   uint64_t kaslr, unsigned int page_shift)
{
	static const char *const names[] = {
		"__pte_index_size", "__pmd_index_size", "__pud_index_size", "__pgd_index_size",
	};
	kdump_num_t max_pfn = 0, order;
	kdump_addr_t pgd;
	char *s = NULL;
	uint64_t v;
	int i, ret, radix = -1;

	memset(p, 0, sizeof(*p));
	p->page_shift = page_shift;
	p->vmalloc_start = vmalloc_start(c);
	if (!p->vmalloc_start)
		p->vmalloc_start = PPC64_VMALLOC;
	if (p->vmalloc_start <= PPC64_LINEAR || p->vmalloc_start > PPC64_KERN_END) {
		/* before 5.2, hash: vmalloc at 0xd000...; not walked */
		snprintf(p->why, sizeof(p->why), "VMALLOC_START 0x%llx, not this layout",
			 (unsigned long long)p->vmalloc_start);
		p->vmalloc_start = PPC64_VMALLOC;
	}
	p->kern_end = PPC64_KERN_END;
	p->linear_size = p->vmalloc_start - PPC64_LINEAR;
	/* the linear map covers RAM: no further than the dump's last page */
	if (kdump_get_number_attr(c, "max_pfn", &max_pfn) == KDUMP_OK && max_pfn &&
	    max_pfn < (p->linear_size >> page_shift))
		p->linear_size = (uint64_t)max_pfn << page_shift;
	kdump_clear_err(c);
	ret = kx_ppc64__install(p, c);
	if (ret)
		return ret;
	if (p->why[0])
		return 0;

	/* the linear map works now: the kernel's table sizes, read */
	for (i = 0; i < 4; i++) {
		if (read_ulong(c, symtab, kaslr, names[i], &v))
			break;
		if (kdump_get_number_attr(c, KDUMP_ATTR_BYTE_ORDER, &order) == KDUMP_OK &&
		    order == KDUMP_BIG_ENDIAN)
			v = be64toh(v);
		else
			v = le64toh(v);
		if (!v || v > 16)
			break;
		p->index[i] = (unsigned int)v;
	}
	kdump_clear_err(c);
	if (i < 4) {
		/* no vmlinux (or no such variables): radix's sizes are fixed by the MMU */
		if (kdump_vmcoreinfo_line(c, "NUMBER(RADIX_MMU)", &s) == KDUMP_OK && s)
			radix = atoi(s);
		kdump_clear_err(c);
		free(s);
		if (radix == 1 && (page_shift == 12 || page_shift == 16)) {
			p->index[0] = page_shift == 12 ? 9 : 5;
			p->index[1] = p->index[2] = 9;
			p->index[3] = 13;
		} else {
			snprintf(p->why, sizeof(p->why),
				 "no __pte_index_size ... in the vmlinux, and %s",
				 radix == 0 ? "a hash MMU" : "no NUMBER(RADIX_MMU) in vmcoreinfo");
			return 0;
		}
	}
	if (p->page_shift + p->index[0] + p->index[1] + p->index[2] + p->index[3] > 64) {
		snprintf(p->why, sizeof(p->why), "table sizes %u %u %u %u make no sense",
			 p->index[3], p->index[2], p->index[1], p->index[0]);
		return 0;
	}
	if (kdump_vmcoreinfo_symbol(c, "swapper_pg_dir", &pgd) != KDUMP_OK) {
		kdump_clear_err(c);
		if (!symtab || kx_symtab__lookup(symtab, "swapper_pg_dir", &v, &i)) {
			snprintf(p->why, sizeof(p->why), "swapper_pg_dir unknown");
			return 0;
		}
		pgd = v + (i ? kaslr : 0);
	}
	if (pgd < PPC64_LINEAR || pgd - PPC64_LINEAR >= p->linear_size) {
		snprintf(p->why, sizeof(p->why), "swapper_pg_dir 0x%llx not in the linear map",
			 (unsigned long long)pgd);
		return 0;
	}
	p->pgd = pgd - PPC64_LINEAR;
	return 0;
}
