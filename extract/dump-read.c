// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reading the crashed kernel's memory through libkdumpfile, and telling
 * the reasons a read fails apart, as include/ktrace/target.h asks:
 *
 *   -EFAULT   no translation for the address, or the physical page is not
 *             RAM (not in the dump because there was nothing to dump);
 *   -ENODATA  the page is RAM but makedumpfile left it out (dump level),
 *             known from the dump's RAM bitmap (memory.pagemap);
 *   -EIO      the file could not be read or a page not decompressed,
 *             e.g. past the end of a truncated dump.
 *
 * libkdumpfile reports both of the first two cases of a KVADDR read as
 * KDUMP_ERR_NODATA, so on that error the address is translated again
 * and its pfn looked up in the RAM bitmap.
 */
#include <errno.h>
#include <stdbool.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/uio.h>
#include <libkdumpfile/addrxlat.h>

#include "dump-private.h"
#include "flat.h"
#include "kdump-compat.h"

static int classify_nodata(struct kx_dump *d, uint64_t kvaddr)
{
	addrxlat_fulladdr_t fa = { .addr = kvaddr, .as = ADDRXLAT_KVADDR };
	kdump_addr_t pfn, idx;

	if (!d->axctx || !d->axsys ||
	    addrxlat_fulladdr_conv(&fa, ADDRXLAT_KPHYSADDR, d->axctx,
				   d->axsys) != ADDRXLAT_OK)
		return -EFAULT;
	/* an ELF dump has no RAM bitmap: mapped but absent means filtered */
	if (!d->ram)
		return -ENODATA;
	pfn = fa.addr >> d->page_shift;
	idx = pfn;
	if (kdump_bmp_find_set(d->ram, &idx) == KDUMP_OK && idx == pfn)
		return -ENODATA;
	return -EFAULT;
}

/* In a truncated ELF dump, is all of [kvaddr, kvaddr + len) in the file? */
static int elf_present(struct kx_dump *d, uint64_t kvaddr, size_t len)
{
	uint64_t page = 1ULL << d->page_shift, addr, end = kvaddr + len;
	size_t i;

	for (addr = kvaddr; addr < end; addr = (addr | (page - 1)) + 1) {
		addrxlat_fulladdr_t fa = { .addr = addr, .as = ADDRXLAT_KVADDR };

		if (addrxlat_fulladdr_conv(&fa, ADDRXLAT_KPHYSADDR, d->axctx,
					   d->axsys) != ADDRXLAT_OK)
			return 0;
		for (i = 0; i < d->elf_nok; i++)
			if (fa.addr >= d->elf_ok_start[i] &&
			    fa.addr < d->elf_ok_end[i])
				break;
		if (i == d->elf_nok)
			return 0;
	}
	return 1;
}

/*
 * The segment holding physical [pa, pa + len), or NULL: the first in
 * program header order, as libkdumpfile takes it (a dump has a handful)
 */
static const struct kx_seg *seg_of(const struct kx_dump *d, uint64_t pa, size_t len)
{
	size_t i;

	for (i = 0; i < d->nseg; i++)
		if (pa >= d->seg[i].pa && pa < d->seg[i].end)
			return len <= d->seg[i].end - pa ? &d->seg[i] : NULL;
	return NULL;
}

/*
 * The file offset of the @chunk bytes at @kvaddr (within one page): the
 * address translated by libkdumpfile's own translation system, then
 * found in a segment's file bytes. UINT64_MAX when either fails.
 */
static uint64_t page_file_offset(struct kx_dump *d, uint64_t kvaddr, size_t chunk)
{
	addrxlat_fulladdr_t fa = { .addr = kvaddr, .as = ADDRXLAT_KVADDR };
	const struct kx_seg *s;

	if (addrxlat_fulladdr_conv(&fa, ADDRXLAT_KPHYSADDR, d->axctx, d->axsys) != ADDRXLAT_OK) {
		addrxlat_ctx_clear_err(d->axctx);
		return UINT64_MAX;
	}
	s = seg_of(d, fa.addr, chunk);
	return s ? s->off + (fa.addr - s->pa) : UINT64_MAX;
}

/*
 * A whole ELF dump read directly: each page's kernel address translated
 * by libkdumpfile's own translation system, the bytes read with pread(2),
 * one read per run of pages contiguous in the file. Returns 0 when all
 * of it was read so; -1 when anything was not plain (no translation, not
 * in a segment's file bytes, a short read): then kdump_read() does it
 * all again and says why, as before.
 */
static int direct_read(struct kx_dump *d, uint64_t kvaddr, void *buf, size_t len)
{
	uint64_t page = 1ULL << d->page_shift, run_off = 0;
	size_t run_len = 0;
	char *p = buf, *run_buf = buf;

	while (len) {
		size_t chunk = page - (kvaddr & (page - 1));
		uint64_t off;

		if (chunk > len)
			chunk = len;
		off = page_file_offset(d, kvaddr, chunk);
		if (off == UINT64_MAX)
			return -1;
		if (run_len && off != run_off + run_len) {
			if (pread(d->fd, run_buf, run_len, (off_t)run_off) != (ssize_t)run_len)
				return -1;
			run_len = 0;
		}
		if (!run_len) {
			run_buf = p;
			run_off = off;
		}
		run_len += chunk;
		p += chunk;
		kvaddr += chunk;
		len -= chunk;
	}
	if (run_len && pread(d->fd, run_buf, run_len, (off_t)run_off) != (ssize_t)run_len)
		return -1;
	return 0;
}

/*
 * Where in the file the block [kvaddr, kvaddr + len) is, read as
 * direct_read() would: each page translated, all of them contiguous in
 * one segment's file bytes. UINT64_MAX when not (read() then does it).
 */
static uint64_t block_offset(struct kx_dump *d, uint64_t kvaddr, size_t len)
{
	uint64_t page = 1ULL << d->page_shift, first = UINT64_MAX, next = 0;

	if (!len || kvaddr < d->kernel_min || kvaddr + len - 1 < kvaddr)
		return UINT64_MAX;
	while (len) {
		size_t chunk = page - (kvaddr & (page - 1));
		uint64_t off;

		if (chunk > len)
			chunk = len;
		off = page_file_offset(d, kvaddr, chunk);
		if (off == UINT64_MAX)
			return UINT64_MAX;
		if (first == UINT64_MAX)
			first = off;
		else if (off != next)
			return UINT64_MAX;
		next = off + chunk;
		kvaddr += chunk;
		len -= chunk;
	}
	return first;
}

/*
 * A context of libkdumpfile's of its own on the dump's file, set up as
 * the first one (kx_dump__open()), or NULL.
 */
static kdump_ctx_t *open_ctx(struct kx_dump *d)
{
	kdump_ctx_t *c = kdump_new();
	const char *arch = NULL;

	if (!c)
		return NULL;
	kdump_set_number_attr(c, KDUMP_ATTR_FILE_MMAP_POLICY, KDUMP_MMAP_NEVER);
	kdump_set_number_attr(c, "cache.size", KX_KDUMP_CACHE);
	/* the image the first one read: repaired or re-blocked, never the raw one */
	if (kdump_open_fd(c, d->image) != KDUMP_OK)
		goto fail;
	/* the architecture the first one was told, when the dump names none */
	if (kdump_get_string_attr(c, KDUMP_ATTR_ARCH_NAME, &arch) != KDUMP_OK || !arch) {
		kdump_clear_err(c);
		if (kdump_get_string_attr(d->ctx, KDUMP_ATTR_ARCH_NAME, &arch) != KDUMP_OK ||
		    !arch || kdump_set_string_attr(c, KDUMP_ATTR_ARCH_NAME, arch) != KDUMP_OK)
			goto fail;
	}
	if (kdump_set_string_attr(c, KDUMP_ATTR_OSTYPE, "linux") != KDUMP_OK)
		goto fail;
	if (d->ppc64_own && kx_ppc64__install(&d->ppc64, c))
		goto fail;
	if (d->s390x_own && kx_s390x__install(&d->s390x, c))
		goto fail;
	return c;
fail:
	kdump_free(c);
	return NULL;
}

/*
 * After a failed read, @d's context @c is not to be read with again:
 * libkdumpfile 0.5.1 (Debian 12's) turns the cache entry of a failed
 * read into a "missed" entry, and reusing it later takes a data buffer
 * from the wrong partition of the cache: NULL, so the next inflate
 * fails ("Decompresion failed: error -2") or a read writes through NULL
 * (SIGSEGV). Upstream fixed it in 0.5.4 (commit e63dab4, "cache: Get
 * data buffer before adjusting ghost partition size"). Pages known to be
 * absent are never asked for (page_absent()); for any other failure the
 * context is replaced by a new one. Returns the new context, or @c when
 * none could be made (then the reads that follow may fail).
 */
static kdump_status ctx_refs(struct kx_dump *d, kdump_ctx_t *c);
static void ctx_unref(struct kx_dump *d);

static kdump_ctx_t *renew_ctx(struct kx_dump *d, kdump_ctx_t *c)
{
	kdump_ctx_t *n = open_ctx(d);
	bool main_ctx = c == d->ctx, had = d->axsys != NULL;

	if (!n)
		return c;
	/* the main one's translation and bitmaps are its own: taken from the new one */
	if (main_ctx && had) {
		ctx_unref(d);
		if (ctx_refs(d, n) != KDUMP_OK) {
			/* keep the spoiled one rather than none */
			kdump_free(n);
			ctx_refs(d, c);
			return c;
		}
	}
	kdump_free(c);
	d->renewed++;
	return n;
}

/*
 * This thread's context of @d (made on its first call), or NULL: a
 * context of its own on the same file, so that readers share no cache
 * and no lock in libkdumpfile (clones of one context share both: two
 * readers then spent a fifth of their time waking each other, and a
 * failed read on one would spoil the cache of all). At most
 * KX_OWN_CTX_MAX of them (each has its own cache and tables, ~6 MiB);
 * other threads get NULL and read through kx_dump__read().
 */
#define KX_OWN_CTX_MAX	2

static __thread unsigned long tl_id;
static __thread size_t tl_slot;

static kdump_ctx_t *thread_ctx(struct kx_dump *d)
{
	kdump_ctx_t **n, *c = NULL;

	if (tl_id == d->id)
		return tl_slot < d->nclones ? d->clones[tl_slot] : NULL;
	pthread_mutex_lock(&d->lock);
	tl_slot = SIZE_MAX;
	if (d->nclones < KX_OWN_CTX_MAX) {
		n = realloc(d->clones, (d->nclones + 1) * sizeof(*n));
		if (n) {
			d->clones = n;
			c = open_ctx(d);
		}
		if (c) {
			tl_slot = d->nclones;
			d->clones[d->nclones++] = c;
		}
	}
	pthread_mutex_unlock(&d->lock);
	tl_id = d->id;
	return c;
}

/*
 * Is a page of [kvaddr, kvaddr + len) absent from a compressed dump
 * (not in its file.pagemap)? Then its address, else UINT64_MAX. Called
 * under @d's lock; without a file pagemap (ELF) nothing is known absent.
 */
static uint64_t page_absent(struct kx_dump *d, uint64_t kvaddr, size_t len)
{
	uint64_t page = 1ULL << d->page_shift, addr, end = kvaddr + len;

	if (!d->filemap || !d->axctx || !d->axsys)
		return UINT64_MAX;
	for (addr = kvaddr; addr < end; addr = (addr | (page - 1)) + 1) {
		addrxlat_fulladdr_t fa = { .addr = addr, .as = ADDRXLAT_KVADDR };
		kdump_addr_t pfn, idx;

		if (addrxlat_fulladdr_conv(&fa, ADDRXLAT_KPHYSADDR, d->axctx, d->axsys) !=
		    ADDRXLAT_OK) {
			addrxlat_ctx_clear_err(d->axctx);
			return addr;
		}
		idx = pfn = fa.addr >> d->page_shift;
		if (kdump_bmp_find_set(d->filemap, &idx) != KDUMP_OK || idx != pfn)
			return addr;
	}
	return UINT64_MAX;
}

/*
 * A dump libkdumpfile reads (compressed: each page inflated), block by
 * block, on the dump's context on the thread that opened it (under the
 * lock), on one of this thread's own elsewhere: readers on several
 * threads inflate pages side by side. What fails is left to read().
 */
static int read_blocks_lib(struct kx_dump *d, const uint64_t *kvaddrs, size_t n, size_t len,
			   void *buf, unsigned char *ok)
{
	bool own = pthread_equal(pthread_self(), d->owner);
	kdump_ctx_t *c = own ? d->ctx : thread_ctx(d);
	size_t i;

	if (!c)
		return -ENOTSUP;
	if (own)
		pthread_mutex_lock(&d->lock);
	for (i = 0; i < n; i++) {
		size_t got = len;

		uint64_t absent;

		if (kvaddrs[i] < d->kernel_min || kvaddrs[i] + len - 1 < kvaddrs[i])
			continue;
		if (!own)
			pthread_mutex_lock(&d->lock);
		absent = page_absent(d, kvaddrs[i], len);
		if (!own)
			pthread_mutex_unlock(&d->lock);
		if (absent != UINT64_MAX)
			continue;	/* read() says why */
		if (kdump_read(c, KDUMP_KVADDR, kvaddrs[i], (char *)buf + i * len, &got) ==
			    KDUMP_OK &&
		    got == len) {
			ok[i] = 1;
			continue;
		}
		kdump_clear_err(c);
		if (own) {
			c = d->ctx = renew_ctx(d, c);
		} else {
			pthread_mutex_lock(&d->lock);
			c = d->clones[tl_slot] = renew_ctx(d, c);
			pthread_mutex_unlock(&d->lock);
		}
	}
	if (own)
		pthread_mutex_unlock(&d->lock);
	return 0;
}

/*
 * Blocks whose file bytes follow each other, in the order asked or in
 * the reverse order (the kernel allocates a ring's pages from the top of
 * a free block down), are read with one preadv(2) straight into their
 * places in @buf.
 */
#define KX_READ_BLOCKS_RUN 256

int kx_dump__read_blocks(void *priv, const uint64_t *kvaddrs, size_t n, size_t len,
			 void *buf, unsigned char *ok)
{
	struct kx_dump *d = priv;
	uint64_t off[KX_READ_BLOCKS_RUN];
	struct iovec iov[KX_READ_BLOCKS_RUN];
	size_t i, j, k, base, m;
	int dir;

	memset(ok, 0, n);
	if (!d->seg && !d->elf_ok_start)
		return read_blocks_lib(d, kvaddrs, n, len, buf, ok);
	if (!d->seg || !d->axctx || !d->axsys)
		return -ENOTSUP;
	for (base = 0; base < n; base += m) {
		m = n - base < KX_READ_BLOCKS_RUN ? n - base : KX_READ_BLOCKS_RUN;
		/* the translation under the lock, the reads beside other threads' */
		pthread_mutex_lock(&d->lock);
		for (i = 0; i < m; i++)
			off[i] = block_offset(d, kvaddrs[base + i], len);
		pthread_mutex_unlock(&d->lock);
		for (i = 0; i < m; i = j) {
			if (off[i] == UINT64_MAX) {
				j = i + 1;
				continue;
			}
			dir = 0;
			for (j = i + 1; j < m && off[j] != UINT64_MAX; j++) {
				if (dir >= 0 && off[j] == off[j - 1] + len)
					dir = 1;
				else if (dir <= 0 && off[j] == off[j - 1] - len)
					dir = -1;
				else
					break;
			}
			for (k = 0; k < j - i; k++) {
				size_t b = dir < 0 ? j - 1 - k : i + k;

				iov[k].iov_base = (char *)buf + (base + b) * len;
				iov[k].iov_len = len;
			}
			if (preadv(d->fd, iov, (int)(j - i), (off_t)off[dir < 0 ? j - 1 : i]) !=
			    (ssize_t)((j - i) * len))
				continue;	/* read() says what is wrong */
			memset(ok + base + i, 1, j - i);
		}
	}
	return 0;
}

static int read_locked(struct kx_dump *d, uint64_t kvaddr, void *buf, size_t len)
{
	size_t got = len;
	kdump_status ks;
	uint64_t at;
	int ret;

	if (!len)
		return 0;
	if (kvaddr < d->kernel_min || kvaddr + len - 1 < kvaddr) {
		snprintf(d->last_error, sizeof(d->last_error),
			 "read(0x%llx, %zu bytes): not a kernel address",
			 (unsigned long long)kvaddr, len);
		return -EFAULT;
	}
	if (d->seg && d->axctx && d->axsys && !direct_read(d, kvaddr, buf, len))
		return 0;
	at = page_absent(d, kvaddr, len);
	if (at != UINT64_MAX) {
		ret = classify_nodata(d, at);
		snprintf(d->last_error, sizeof(d->last_error),
			 "KVADDR 0x%llx: not in the dump's pages (%s)", (unsigned long long)at,
			 ret == -ENODATA ? "page filtered out of the dump" :
					   "not mapped or not in the dump");
		return ret;
	}
	/* kdump_read() crosses page boundaries and reports how far it got */
	ks = kdump_read(d->ctx, KDUMP_KVADDR, kvaddr, buf, &got);
	if (ks == KDUMP_OK && got == len) {
		if (!d->elf_ok_start || elf_present(d, kvaddr, len))
			return 0;
		snprintf(d->last_error, sizeof(d->last_error),
			 "kdump_read(KVADDR 0x%llx): past the end of the "
			 "truncated dump", (unsigned long long)kvaddr);
		return -EIO;
	}
	at = kvaddr + (got < len ? got : 0);
	switch (ks) {
	case KDUMP_OK:		/* short read without an error */
	case KDUMP_ERR_EOF:
		ret = -EIO;
		break;
	case KDUMP_ERR_ADDRXLAT:
		ret = -EFAULT;
		break;
	case KDUMP_ERR_NODATA:
		ret = classify_nodata(d, at);
		break;
	default:
		ret = -EIO;
		break;
	}
	snprintf(d->last_error, sizeof(d->last_error),
		 "kdump_read(KVADDR 0x%llx): %s (%s)", (unsigned long long)at,
		 ks == KDUMP_OK ? "short read" : kdump_get_err(d->ctx),
		 ret == -ENODATA ? "page filtered out of the dump" :
		 ret == -EFAULT	 ? "not mapped or not in the dump" :
				   "read error");
	kdump_clear_err(d->ctx);
	if (ks != KDUMP_OK && ks != KDUMP_ERR_ADDRXLAT)
		d->ctx = renew_ctx(d, d->ctx);
	return ret;
}

int kx_dump__read(void *priv, uint64_t kvaddr, void *buf, size_t len)
{
	struct kx_dump *d = priv;
	int ret;

	pthread_mutex_lock(&d->lock);
	ret = read_locked(d, kvaddr, buf, len);
	if (ret == -ENODATA)
		d->filtered++;
	pthread_mutex_unlock(&d->lock);
	return ret;
}

void kx_dump__report(const struct kx_dump *d, FILE *f)
{
	/*
	 * makedumpfile 1.7.4 to 1.7.8 (and master at b7587f1): its
	 * ppc64_vtop_level4() reads a page-table level as the table's first
	 * page, so with a PGD larger than a page (a radix kernel with 4 KiB
	 * pages: 2^13 entries) vmemmap's entry is read as the linear map's,
	 * the struct pages are read in the kernel's first MiBs, and pages in
	 * use are left out as "Hwpoison pages" (docs/libkdumpfile.md). A hash
	 * kernel's PGD is one page, and a 64 KiB kernel's too.
	 */
	if (!d || !d->filtered || !d->ppc64_own || d->page_shift != 12 || !d->ppc64.pgd ||
	    d->ppc64.index[3] + 3 <= d->page_shift)
		return;
	fprintf(f, "ktrace-extract: %lu read%s fell on pages this dump left out. It is a dump of "
		   "a ppc64 radix kernel with 4 KiB pages (its page directory is larger than a "
		   "page): makedumpfile 1.7.4 to 1.7.8 read such a kernel's struct pages in the "
		   "wrong place and leave out pages in use as hwpoisoned (its report counts "
		   "\"Hwpoison pages\"); a copy of /proc/vmcore, or a makedumpfile with the fix "
		   "described in ktrace's docs/libkdumpfile.md, keeps them\n",
		d->filtered, d->filtered == 1 ? "" : "s");
}

/*
 * Where the kernel half of the address space starts, on architectures
 * that split it by the top bit. Reads below it are refused: the core
 * only reads kernel memory, and libkdumpfile maps QEMU's ELF segments
 * (p_vaddr 0) at virtual address 0, so a stray user-space pointer would
 * otherwise read physical memory.
 */
static uint64_t kernel_min(struct kx_dump *d)
{
	static const char *const split[] = {
		KDUMP_ARCH_X86_64, KDUMP_ARCH_AARCH64, KDUMP_ARCH_PPC64,
	};
	const char *arch = NULL;
	size_t i;

	if (kdump_get_string_attr(d->ctx, KDUMP_ATTR_ARCH_NAME, &arch) !=
	    KDUMP_OK || !arch)
		return 0;
	for (i = 0; i < sizeof(split) / sizeof(split[0]); i++)
		if (!strcmp(arch, split[i]))
			return 1ULL << 63;
	return 0;
}

/*
 * The translation and the bitmaps of @c, @d's main context, referenced
 * in @d; ctx_unref() drops them, before @c is freed: a bitmap's last
 * reference takes a lock inside its context (kdump_bmp_decref() hung on
 * a context freed before it).
 */
static kdump_status ctx_refs(struct kx_dump *d, kdump_ctx_t *c)
{
	kdump_status ks;

	ks = kdump_get_addrxlat(c, &d->axctx, &d->axsys);
	if (ks != KDUMP_OK)
		return ks;
	if (kx_kdump_get_bitmap_attr(c, KDUMP_ATTR_MEMORY_PAGEMAP, &d->ram) == KDUMP_OK)
		kdump_bmp_incref(d->ram);
	/* an ELF dump's file.pagemap is its RAM: only a compressed dump's leaves pages out */
	if (strcmp(d->format, "elf") &&
	    kx_kdump_get_bitmap_attr(c, KDUMP_ATTR_FILE_PAGEMAP, &d->filemap) == KDUMP_OK)
		kdump_bmp_incref(d->filemap);
	kdump_clear_err(c);
	return KDUMP_OK;
}

static void ctx_unref(struct kx_dump *d)
{
	if (d->ram)
		kdump_bmp_decref(d->ram);
	if (d->filemap)
		kdump_bmp_decref(d->filemap);
	if (d->axsys)
		addrxlat_sys_decref(d->axsys);
	if (d->axctx)
		addrxlat_ctx_decref(d->axctx);
	d->ram = d->filemap = NULL;
	d->axsys = NULL;
	d->axctx = NULL;
}

enum kx_error kx_dump__init_xlat(struct kx_dump *d, char *msg, size_t msglen)
{
	kdump_num_t shift;
	kdump_status ks;

	ks = kdump_get_number_attr(d->ctx, KDUMP_ATTR_PAGE_SHIFT, &shift);
	if (ks != KDUMP_OK) {
		snprintf(msg, msglen, "vmcore %s: kdump_get_number_attr(%s): %s",
			 d->path, KDUMP_ATTR_PAGE_SHIFT, kdump_get_err(d->ctx));
		return KX_ERR_DUMP;
	}
	d->page_shift = (unsigned int)shift;
	d->kernel_min = kernel_min(d);
	if (kx_ppc64__wanted(d->ctx)) {
		if (kx_ppc64__init(&d->ppc64, d->ctx, d->vms ? d->vms->symtab : NULL, d->kaslr_offset,
				   d->page_shift)) {
			snprintf(msg, msglen, "vmcore %s: setting up ppc64 address translation: "
				 "out of memory", d->path);
			return KX_ERR_NOMEM;
		}
		d->ppc64_own = 1;
		if (d->verbose)
			fprintf(stderr, "dump: ppc64 with %u KiB pages: libkdumpfile %s has no "
				"translation of this kernel's layout; the linear map and %s "
				"(dump-ppc64.c)\n",
				1u << (d->page_shift - 10), KDUMPFILE_VERSION_STRING,
				d->ppc64.pgd ? "swapper_pg_dir walked" : "nothing else");
		if (!d->ppc64.pgd)
			fprintf(stderr, "warning: vmcore %s: addresses past the linear map "
				"(vmalloc, modules) cannot be read: %s\n", d->path, d->ppc64.why);
	}
	if (kx_s390x__wanted(d->ctx)) {
		if (kx_s390x__init(&d->s390x, d->ctx, d->vms ? d->vms->symtab : NULL, d->kaslr_offset)) {
			snprintf(msg, msglen, "vmcore %s: setting up s390x address translation: "
				 "out of memory", d->path);
			return KX_ERR_NOMEM;
		}
		d->s390x_own = 1;
		if (d->verbose)
			fprintf(stderr, "dump: s390x with the kernel image apart (_stext 0x%llx at "
				"physical 0x%llx): libkdumpfile %s does not know this layout; the "
				"image, the identity map and %s (dump-s390x.c)\n",
				(unsigned long long)d->s390x.image_first,
				(unsigned long long)d->s390x.image_phys, KDUMPFILE_VERSION_STRING,
				d->s390x.pgd ? "swapper_pg_dir walked" : "nothing else");
		if (!d->s390x.pgd)
			fprintf(stderr, "warning: vmcore %s: addresses past the kernel image and "
				"the identity map (vmalloc, modules) cannot be read: %s\n",
				d->path, d->s390x.why);
	}
	ks = ctx_refs(d, d->ctx);
	if (ks != KDUMP_OK) {
		snprintf(msg, msglen, "vmcore %s: kdump_get_addrxlat: %s",
			 d->path, kdump_get_err(d->ctx));
		return KX_ERR_DUMP;
	}
	return KX_OK;
}

void kx_dump__fini_xlat(struct kx_dump *d)
{
	free(d->seg);
	d->seg = NULL;
	d->nseg = 0;
	free(d->elf_ok_start);
	free(d->elf_ok_end);
	d->elf_ok_start = d->elf_ok_end = NULL;
	ctx_unref(d);
}

/*
 * Is the dump whole? An ELF dump is when its segments' bytes are all in
 * the file. makedumpfile writes the pages of a kdump-compressed dump in
 * pfn order, so the last page the dump says it holds (file.pagemap) is
 * at the end of the file: if it cannot be read, the file was cut short
 * (disk full, interrupted copy). That is an error unless --force, which
 * keeps the pages that are there (reads past the end fail with -EIO).
 */
/*
 * An ELF dump is whole when every PT_LOAD's file bytes are in the file.
 * Return 1 when it is, 0 when truncated (message in @msg), -errno.
 */
static int elf_whole(struct kx_dump *d, char *msg, size_t msglen)
{
	uint64_t size = d->file_size;
	size_t n, i, nok = 0;
	int whole = 1, ret;
	GElf_Phdr ph;
	Elf *elf;

	if (!size)
		return 1;
	elf_version(EV_CURRENT);
	elf = elf_begin(d->fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_getphdrnum(elf, &n)) {
		ret = 1;	/* libkdumpfile read it; not ours to judge */
		goto out;
	}
	d->elf_ok_start = calloc(n + 1, sizeof(uint64_t));
	d->elf_ok_end = calloc(n + 1, sizeof(uint64_t));
	if (!d->elf_ok_start || !d->elf_ok_end) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		uint64_t have;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		have = ph.p_offset >= size ? 0 :
		       size - ph.p_offset < ph.p_filesz ? size - ph.p_offset :
							  ph.p_filesz;
		if (have < ph.p_filesz && whole) {
			whole = 0;
			snprintf(msg, msglen,
				 "vmcore %s: truncated: %llu bytes, but its "
				 "segment at physical 0x%llx ends at file offset "
				 "%llu",
				 d->path, (unsigned long long)size,
				 (unsigned long long)ph.p_paddr,
				 (unsigned long long)(ph.p_offset + ph.p_filesz));
		}
		d->elf_ok_start[nok] = ph.p_paddr;
		d->elf_ok_end[nok++] = ph.p_paddr + have;
	}
	d->elf_nok = nok;
	ret = whole;
	/* whole: its segments, to be read directly */
	if (whole && !getenv("KTRACE_NO_DIRECT_ELF")) {
		d->seg = calloc(n + 1, sizeof(*d->seg));
		for (i = 0; d->seg && i < n; i++) {
			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
			    !ph.p_filesz)
				continue;
			d->seg[d->nseg].pa = ph.p_paddr;
			d->seg[d->nseg].end = ph.p_paddr + ph.p_filesz;
			d->seg[d->nseg++].off = ph.p_offset;
		}
		if (d->seg && !d->nseg) {
			free(d->seg);
			d->seg = NULL;
		}
	}
out:
	if (ret != 0) {
		free(d->elf_ok_start);
		free(d->elf_ok_end);
		d->elf_ok_start = d->elf_ok_end = NULL;
	}
	if (elf)
		elf_end(elf);
	return ret;
}

enum kx_error kx_dump__check_whole(struct kx_dump *d, char *msg, size_t msglen)
{
	kdump_addr_t idx = 0, last = 0, pfn;
	kdump_num_t shift;
	kdump_bmp_t *filemap;
	kdump_status ks;
	unsigned char page[64];
	size_t len = sizeof(page);
	int found = 0, ret;

	/* flat.c saw the end mark of a flattened dump: it is whole */
	if (d->flat)
		return KX_OK;
	/* one libkdumpfile reads: its record headers walked to the end mark */
	if (d->flat_by_lib) {
		if (!kx_flat__check(d->fd, d->path, msg, msglen))
			return KX_OK;
		goto truncated;
	}
	if (!strcmp(d->format, "elf")) {
		ret = elf_whole(d, msg, msglen);
		if (ret < 0)
			return KX_ERR_NOMEM;
		if (ret)
			return KX_OK;
		goto truncated;
	}
	if (kx_kdump_get_bitmap_attr(d->ctx, KDUMP_ATTR_FILE_PAGEMAP, &filemap) !=
		    KDUMP_OK ||
	    kdump_get_number_attr(d->ctx, KDUMP_ATTR_PAGE_SHIFT, &shift) !=
		    KDUMP_OK) {
		kdump_clear_err(d->ctx);
		return KX_OK;
	}
	/* walk the runs of set bits to the last one */
	while (kdump_bmp_find_set(filemap, &idx) == KDUMP_OK) {
		found = 1;
		pfn = idx;
		if (kdump_bmp_find_clear(filemap, &idx) != KDUMP_OK) {
			/* set up to the end of the bitmap */
			kdump_num_t max_pfn;

			last = kdump_get_number_attr(d->ctx, "max_pfn",
						     &max_pfn) == KDUMP_OK &&
					       max_pfn > pfn ?
				       max_pfn - 1 :
				       pfn;
			break;
		}
		last = idx - 1;
	}
	kdump_clear_err(d->ctx);
	if (!found)
		return KX_OK;
	ks = kdump_read(d->ctx, KDUMP_KPHYSADDR, last << shift, page, &len);
	/* only a failed file read means the file is short */
	if (ks != KDUMP_ERR_EOF && ks != KDUMP_ERR_SYSTEM &&
	    ks != KDUMP_ERR_CORRUPT) {
		kdump_clear_err(d->ctx);
		if (ks != KDUMP_OK)
			d->ctx = renew_ctx(d, d->ctx);
		return KX_OK;
	}
	snprintf(msg, msglen,
		 "vmcore %s: %s: %llu bytes, cannot read its last page "
		 "(pfn 0x%llx): %s",
		 d->path, d->repaired >= 0 ? "damaged (its page descriptors lie)" : "truncated",
		 (unsigned long long)d->file_size,
		 (unsigned long long)last, kdump_get_err(d->ctx));
	kdump_clear_err(d->ctx);
	d->ctx = renew_ctx(d, d->ctx);
truncated:
	if (!d->force)
		return KX_ERR_DUMP;
	fprintf(stderr, "warning: %s\n", msg);
	msg[0] = '\0';
	return KX_OK;
}
