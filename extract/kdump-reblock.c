// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A kdump-compressed dump whose blocks are larger than the kernel's pages,
 * written again with one block per page, for libkdumpfile.
 *
 * QEMU's dump-guest-memory (formats kdump-zlib, -lzo, -snappy; QEMU 7.2
 * and later) writes an arm64 guest's memory in blocks of 64 KiB, the
 * largest arm64 page (target/arm/arch_dump.c: page_size = 1 << 16),
 * whatever the guest's page size, and names no machine in the header's
 * utsname. The header's block_size says 65536, the VMCOREINFO note it
 * carries says PAGESIZE=4096 (or 16384).
 *
 * libkdumpfile (0.5.1, Debian 12's; the same code in 0.5.4 to 0.5.6)
 * takes block_size for the page size (diskdump.c, try_header():
 * set_page_size(ctx, block_size)), reads the bitmaps and descriptors in
 * 64 KiB units, then sets the page size again from VMCOREINFO's PAGESIZE
 * line while it reads the notes (vmcoreinfo.c, lines_post_hook()). From
 * then on the dump is read in 4 KiB pages through a layout of 64 KiB
 * blocks: pfns are looked up 16 times too high in the bitmaps and
 * descriptors, and 0.5.1 reads a compressed block's bytes (up to 64 KiB,
 * checked only against its MAX_PAGE_SIZE, 256 KiB) into its buffer for
 * compressed data, which diskdump_realloc_compressed() has just shrunk to
 * the new 4 KiB page: it writes the file's bytes past that buffer
 * (valgrind: a write 0 bytes after a block of 4096; glibc "double free or
 * corruption", SIGABRT, or "munmap_chunk(): invalid pointer"). 0.5.4
 * maps compressed data from its file cache instead ("diskdump: Map
 * compressed data directly from file cache", e403ac1): no overflow, but
 * still the wrong pages.
 *
 * Nothing set before or after kdump_open() helps: the page size is both
 * the file's block and the kernel's page to libkdumpfile (the page cache,
 * KVADDR reads split at it, the arch's translation takes its page shift
 * from it). So the dump is written again in a sealed memfd, with the
 * block the kernel's page size: the header and the sub-header's blobs
 * (VMCOREINFO, notes, eraseinfo) as they are, each bit of both bitmaps
 * repeated once per page of its block, each block inflated and cut into
 * pages, each page deflated again on its own (zlib, level 1; stored as is
 * when that is not smaller), pages of zeros sharing one stored page. The
 * dump itself is only read. A block whose descriptor is unreadable, lies
 * or does not inflate to a block gets descriptors of size 0 for its
 * pages: libkdumpfile refuses those ("Wrong page size: 0"), ktrace counts
 * them unreadable (as kdump-desc.c does with lying descriptors).
 *
 * On k6.12-arm64 (a 256 MiB guest, a 15 MiB dump): a 17 MiB memfd, about
 * 1.5 s (docs/libkdumpfile.md).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "io.h"
#include "kdump-desc.h"
#include "kdump-reblock.h"

#define KD_DESC_SIZE 24u
#define KD_ZLIB 0x1u
#define KD_LZO 0x2u
#define KD_SNAPPY 0x4u
#define KD_ZSTD 0x20u
#define KD_MAX_BLOB (64u << 20)	/* notes, VMCOREINFO, eraseinfo: a few KiB */
#define KD_OUT_CHUNK (1u << 20)

/* A "PAGESIZE=" line of VMCOREINFO text, or 0 */
static uint64_t pagesize_of(const char *text, size_t len)
{
	static const char key[] = "PAGESIZE=";
	const char *p = text, *end = text + len;
	uint64_t v = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *eol = nl ? nl : end;

		if ((size_t)(eol - p) > sizeof(key) - 1 && !memcmp(p, key, sizeof(key) - 1)) {
			const char *q = p + sizeof(key) - 1;

			for (v = 0; q < eol && *q >= '0' && *q <= '9' && v < (1u << 30); q++)
				v = v * 10 + (uint64_t)(*q - '0');
			return q == eol ? v : 0;
		}
		p = eol + 1;
	}
	return 0;
}

/* The VMCOREINFO note's PAGESIZE among ELF notes (4-byte aligned), or 0 */
static uint64_t notes_pagesize(const struct kx_kdhdr *h, const unsigned char *n, size_t len)
{
	size_t off = 0;

	while (off <= len && len - off >= 12) {
		uint64_t namesz = kx_kdhdr__get32(h, n + off), descsz = kx_kdhdr__get32(h, n + off + 4);
		uint64_t name = off + 12, desc = name + ((namesz + 3) & ~3ull);

		if (desc > len || descsz > len - desc)
			return 0;
		if (namesz >= 10 && !memcmp(n + name, "VMCOREINFO", 10))
			return pagesize_of((const char *)n + desc, descsz);
		off = desc + ((descsz + 3) & ~3ull);
	}
	return 0;
}

struct out {
	int fd;
	uint64_t cap, data;		/* bytes of page data allowed, written */
	unsigned char *descs;		/* KD_OUT_CHUNK of descriptors not yet written */
	size_t ndescs;
	uint64_t desc_at, data_at;	/* where the next ones go */
};

static int flush_descs(struct out *o)
{
	int err = kx_pwrite_full(o->fd, o->descs, o->ndescs, o->desc_at);

	o->desc_at += o->ndescs;
	o->ndescs = 0;
	return err;
}

static void put32(const struct kx_kdhdr *h, unsigned char *p, uint32_t v)
{
	v = h->big ? htobe32(v) : htole32(v);
	memcpy(p, &v, 4);
}

static void put64(const struct kx_kdhdr *h, unsigned char *p, uint64_t v)
{
	v = h->big ? htobe64(v) : htole64(v);
	memcpy(p, &v, 8);
}

/* a descriptor: offset, size, flags, page_flags (makedumpfile's page_desc_t) */
static int add_desc(struct out *o, const struct kx_kdhdr *h, uint64_t off, uint32_t size,
		    uint32_t flags)
{
	unsigned char *d;

	if (o->ndescs + KD_DESC_SIZE > KD_OUT_CHUNK && flush_descs(o))
		return -EIO;
	d = o->descs + o->ndescs;
	put64(h, d, off);
	put32(h, d + 8, size);
	put32(h, d + 12, flags);
	put64(h, d + 16, 0);
	o->ndescs += KD_DESC_SIZE;
	return 0;
}

/* One page of data, deflated when that makes it smaller: its descriptor */
static int add_page(struct out *o, const struct kx_kdhdr *h, const unsigned char *page,
		    uint32_t psize, unsigned char *zbuf, uLong zcap)
{
	uLongf zlen = zcap;
	uint32_t flags = 0, size = psize;
	const unsigned char *src = page;
	int err;

	if (compress2(zbuf, &zlen, page, psize, 1) == Z_OK && zlen < psize) {
		src = zbuf;
		size = (uint32_t)zlen;
		flags = KD_ZLIB;
	}
	if (o->data + size > o->cap)
		return -EFBIG;
	err = kx_pwrite_full(o->fd, src, size, o->data_at);
	if (err)
		return err;
	err = add_desc(o, h, o->data_at, size, flags);
	o->data_at += size;
	o->data += size;
	return err;
}

/* Inflate one block into @out (@block bytes): 0, or -1 when it is not one */
static int inflate_block(uint32_t flags, const unsigned char *in, size_t len, unsigned char *out,
			 uint32_t block)
{
	if (flags & KD_ZLIB) {
		uLongf got = block;

		return uncompress(out, &got, in, len) == Z_OK && got == block ? 0 : -1;
	}
	if (flags & KD_ZSTD) {
		size_t got = ZSTD_decompress(out, block, in, len);

		return !ZSTD_isError(got) && got == block ? 0 : -1;
	}
	if (len != block)
		return -1;
	memcpy(out, in, block);
	return 0;
}

/* Each bit of @in (@nbits) @ratio times into @out (zeroed) */
static void spread_bits(const unsigned char *in, uint64_t nbits, unsigned ratio, unsigned char *out)
{
	uint64_t i, j;

	for (i = 0; i < nbits; i++) {
		if (!(in[i / 8] >> (i & 7) & 1))
			continue;
		for (j = i * ratio; j < (i + 1) * ratio; j++)
			out[j / 8] |= (unsigned char)(1u << (j & 7));
	}
}

static int read_blob(int fd, uint64_t size, uint64_t off, uint64_t len, unsigned char **out)
{
	if (!len || len > KD_MAX_BLOB || off > size || len > size - off)
		return -EINVAL;
	*out = malloc(len);
	if (!*out)
		return -ENOMEM;
	if (kx_pread_full(fd, *out, len, off)) {
		free(*out);
		*out = NULL;
		return -EIO;
	}
	return 0;
}

/* Is [off, off + size) within [start, end)? (nothing is) */
static int in_sub(uint64_t off, uint64_t size, uint64_t start, uint64_t end)
{
	return !size || (off >= start && off <= end && size <= end - off);
}

int kx_kreblock__probe(int fd, uint64_t size, struct kx_kreblock *r, char *msg, size_t msglen)
{
	unsigned char raw[512], sub[104], *blob = NULL;
	struct kx_kdhdr h;
	struct kx_kdsub s;
	uint64_t page = 0;

	memset(r, 0, sizeof(*r));
	if (kx_pread_full(fd, raw, sizeof(raw), 0) || !kx_kdhdr__parse(raw, &h) || h.version < 3)
		return 0;
	if (kx_pread_full(fd, sub, sizeof(sub), h.block))
		return 0;
	kx_kdhdr__sub(&h, sub, &s);
	/* what libkdumpfile reads VMCOREINFO from: the notes (4+) or its own blob (3) */
	if (s.notes_at && s.notes_size) {
		if (read_blob(fd, size, s.notes_off, s.notes_size, &blob))
			return 0;	/* kdump-desc.c says what is wrong */
		page = notes_pagesize(&h, blob, s.notes_size);
	} else if (!s.notes_at && s.vmcoreinfo_size) {
		if (read_blob(fd, size, s.vmcoreinfo_off, s.vmcoreinfo_size, &blob))
			return 0;
		page = pagesize_of((const char *)blob, s.vmcoreinfo_size);
	}
	free(blob);
	r->block = h.block;
	r->page = (uint32_t)page;
	/* a page size libkdumpfile refuses (not a power of 2) changes nothing */
	if (!page || page >= h.block || (page & (page - 1)))
		return 0;
	if (page < 4096) {
		snprintf(msg, msglen, "its VMCOREINFO says PAGESIZE=%llu, smaller than any "
			 "kernel's page (its blocks are %u bytes)", (unsigned long long)page, h.block);
		return -EINVAL;
	}
	if (s.split) {
		snprintf(msg, msglen, "a split dump (one file of several) in blocks of %u bytes "
			 "and pages of %llu: not re-blocked", h.block, (unsigned long long)page);
		return -ENOTSUP;
	}
	r->needed = 1;
	return 0;
}

int kx_kreblock__write(int fd, uint64_t size, int (*filled)(const void *, uint64_t, uint64_t),
		       const void *arg, uint64_t cap, struct kx_kreblock *r, char *msg, size_t msglen)
{
	unsigned char raw[512], sub[104], *hdr = NULL, *subr = NULL, *bits = NULL, *nbits = NULL;
	unsigned char *in = NULL, *blk = NULL, *zbuf = NULL, *zero = NULL, d[KD_DESC_SIZE];
	uint64_t max_pfn, bm_off, bm_half, ram_off, dump_off, desc_off, pfn, ndesc = 0;
	uint64_t nbm_half, nsub_bytes, nbm_off, ndesc_off, zero_at, i, sub_bytes, shift, navail;
	const char *what = "reading the dump";
	struct kx_kdhdr h;
	struct kx_kdsub s;
	struct out o = { .fd = -1 };
	uint32_t ratio, pg;
	uLong zcap;
	int err = 0, mfd = -1;

	if (kx_pread_full(fd, raw, sizeof(raw), 0) || !kx_kdhdr__parse(raw, &h) ||
	    kx_pread_full(fd, sub, sizeof(sub), h.block))
		return -EIO;
	kx_kdhdr__sub(&h, sub, &s);
	pg = r->page;
	ratio = h.block / pg;
	max_pfn = s.max_mapnr_at ? kx_kdhdr__get64(&h, sub + s.max_mapnr_at) : h.max_mapnr;
	/* the bitmaps as libkdumpfile's read_bitmap() finds them */
	if (h.sub_blocks < 0 || (uint64_t)h.bitmap_blocks * h.block > size)
		goto corrupt;
	sub_bytes = (uint64_t)h.sub_blocks * h.block;
	bm_off = h.block + sub_bytes;
	bm_half = (uint64_t)h.bitmap_blocks * h.block;
	ram_off = dump_off = bm_off;
	if (max_pfn <= bm_half * 8 / 2) {
		bm_half = (uint64_t)(h.bitmap_blocks / 2) * h.block;
		dump_off = bm_off + bm_half;
	}
	if (max_pfn > bm_half * 8)
		max_pfn = bm_half * 8;
	desc_off = bm_off + (uint64_t)h.bitmap_blocks * h.block;
	if (bm_off > size || desc_off > size)
		goto corrupt;
	/* the sub-header itself is patched: it must be in its blocks */
	if (sub_bytes < sizeof(sub))
		goto corrupt;
	/* the blobs must lie in the sub-header's blocks, which are copied whole */
	if (!in_sub(s.vmcoreinfo_off, s.vmcoreinfo_size, h.block, bm_off) ||
	    !in_sub(s.notes_off, s.notes_size, h.block, bm_off) ||
	    !in_sub(s.eraseinfo_off, s.eraseinfo_size, h.block, bm_off)) {
		snprintf(msg, msglen, "its sub-header's notes or VMCOREINFO lie outside its "
			 "sub-header blocks: not re-blocked");
		return -ENOTSUP;
	}
	/* the new layout: header, sub-header blocks, two bitmaps, descriptors, data */
	nsub_bytes = sub_bytes;		/* a multiple of pg: pg divides the block */
	nbm_half = (max_pfn * ratio + 7) / 8;
	nbm_half = (nbm_half + pg - 1) / pg * pg;
	if (!nbm_half)
		nbm_half = pg;
	if (nbm_half * 2 / pg > UINT32_MAX || nsub_bytes / pg > INT32_MAX)
		goto corrupt;
	if (nbm_half * 2 + sub_bytes > cap) {
		err = -EFBIG;
		goto big;
	}
	nbm_off = pg + nsub_bytes;
	ndesc_off = nbm_off + 2 * nbm_half;

	what = "malloc";
	err = -ENOMEM;
	hdr = calloc(1, pg);
	subr = malloc(sub_bytes ? sub_bytes : 1);
	bits = malloc(bm_half ? bm_half : 1);
	nbits = calloc(1, nbm_half);
	zcap = compressBound(pg);
	in = malloc((size_t)h.block * 2);
	blk = malloc(h.block);
	zbuf = malloc(zcap);
	zero = calloc(1, pg);
	o.descs = malloc(KD_OUT_CHUNK);
	if (!hdr || !subr || !bits || !nbits || !in || !blk || !zbuf || !zero || !o.descs)
		goto fail;

	what = "reading the dump";
	err = kx_pread_full(fd, hdr, pg < 4096 ? pg : 4096, 0);
	if (!err)
		err = kx_pread_full(fd, subr, sub_bytes, h.block);
	if (err)
		goto fail;
	/* header: block_size, sub_hdr_size, bitmap_blocks, max_mapnr */
	put32(&h, hdr + h.block_at, pg);
	put32(&h, hdr + h.block_at + 4, (uint32_t)(nsub_bytes / pg));
	put32(&h, hdr + h.block_at + 8, (uint32_t)(nbm_half * 2 / pg));
	put32(&h, hdr + h.block_at + 12, max_pfn * ratio > UINT32_MAX ? UINT32_MAX :
					 (uint32_t)(max_pfn * ratio));
	/* sub-header: the blobs moved with their blocks; max_mapnr_64 (6+) */
	shift = h.block - pg;
	if (s.vmcoreinfo_size)
		put64(&h, subr + s.vmcoreinfo_at, s.vmcoreinfo_off - shift);
	if (s.notes_size)
		put64(&h, subr + s.notes_at, s.notes_off - shift);
	if (s.eraseinfo_size)
		put64(&h, subr + s.eraseinfo_at, s.eraseinfo_off - shift);
	if (s.max_mapnr_at)
		put64(&h, subr + s.max_mapnr_at, max_pfn * ratio);

	mfd = memfd_create("ktrace-kdump-reblocked", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (mfd < 0) {
		err = -errno;
		what = "memfd_create";
		goto fail;
	}
	o.fd = mfd;
	o.cap = cap;
	what = "writing the copy";
	err = kx_pwrite_full(mfd, hdr, pg, 0);
	if (!err)
		err = kx_pwrite_full(mfd, subr, sub_bytes, pg);
	/* the RAM bitmap (memory.pagemap), then the dumpable one */
	for (i = 0; !err && i < 2; i++) {
		what = "reading the dump's bitmap";
		err = kx_pread_full(fd, bits, bm_half, i ? dump_off : ram_off);
		if (err)
			break;
		memset(nbits, 0, nbm_half);
		spread_bits(bits, max_pfn, ratio, nbits);
		what = "writing the copy";
		err = kx_pwrite_full(mfd, nbits, nbm_half, nbm_off + i * nbm_half);
	}
	if (err)
		goto fail;
	/* bits now holds the dumpable bitmap: one descriptor per set bit */
	for (pfn = 0; pfn < max_pfn; pfn++)
		ndesc += bits[pfn / 8] >> (pfn & 7) & 1;
	/* descriptors past the end of the file: their pages get size 0 */
	navail = (size - desc_off) / KD_DESC_SIZE;
	if (ndesc * ratio * KD_DESC_SIZE > cap) {
		err = -EFBIG;
		goto big;
	}
	o.desc_at = ndesc_off;
	zero_at = ndesc_off + ndesc * ratio * KD_DESC_SIZE;
	zero_at = (zero_at + pg - 1) / pg * pg;
	err = kx_pwrite_full(mfd, zero, pg, zero_at);
	if (err)
		goto fail;
	o.data_at = zero_at + pg;
	r->blocks = ndesc;
	for (i = 0; i < ndesc; i++) {
		uint64_t doff;
		uint32_t dsize, flags, k;
		int bad;

		what = "reading the dump's page descriptors";
		if (i >= navail)
			memset(d, 0, sizeof(d));
		else if ((err = kx_pread_full(fd, d, KD_DESC_SIZE, desc_off + i * KD_DESC_SIZE)))
			goto fail;
		doff = kx_kdhdr__get64(&h, d);
		dsize = kx_kdhdr__get32(&h, d + 8);
		flags = kx_kdhdr__get32(&h, d + 12);
		if (flags & (KD_LZO | KD_SNAPPY)) {
			snprintf(msg, msglen, "its blocks of %u bytes hold pages of %u, and they are "
				 "compressed with %s, which ktrace does not inflate to re-block them "
				 "(zlib and zstd it does)", h.block, pg,
				 flags & KD_LZO ? "lzo" : "snappy");
			err = -ENOTSUP;
			goto out;
		}
		bad = i >= navail || dsize > (uint64_t)h.block * 2 || doff > size || dsize > size - doff ||
		      (filled && !filled(arg, doff, dsize));
		what = "reading the dump's pages";
		if (!bad)
			bad = kx_pread_full(fd, in, dsize, doff) ||
			      inflate_block(flags, in, dsize, blk, h.block);
		if (bad) {
			/* size 0: a page libkdumpfile refuses, counted unreadable */
			r->bad++;
			for (k = 0; k < ratio && !err; k++)
				err = add_desc(&o, &h, 0, 0, 0);
			if (err)
				goto fail;
			continue;
		}
		what = "writing the copy";
		for (k = 0; k < ratio && !err; k++) {
			const unsigned char *p = blk + (size_t)k * pg;

			if (!memcmp(p, zero, pg))
				err = add_desc(&o, &h, zero_at, pg, 0);
			else
				err = add_page(&o, &h, p, pg, zbuf, zcap);
		}
		if (err == -EFBIG)
			goto big;
		if (err)
			goto fail;
	}
	if (o.ndescs && (err = flush_descs(&o)))
		goto fail;
	what = "sealing the copy";
	err = kx_memfd_seal(mfd);
	if (err)
		goto fail;
	r->fd = mfd;
	r->memory = o.data_at;
	mfd = -1;
	err = 0;
	goto out;
big:
	snprintf(msg, msglen, "written again in pages (bitmaps, descriptors, pages deflated one "
		 "by one) it takes more than %llu MiB of memory", (unsigned long long)(cap >> 20));
	goto out;
corrupt:
	snprintf(msg, msglen, "its kdump header's bitmap or sub-header sizes do not fit the "
		 "file (%llu bytes): not re-blocked", (unsigned long long)size);
	return -EINVAL;
fail:
	snprintf(msg, msglen, "re-blocking it in memory: %s: %s", what,
		 err == -ENODATA ? "end of file" : strerror(-err));
	err = err == -ENOMEM ? -ENOMEM : -EIO;
out:
	if (mfd >= 0)
		close(mfd);
	free(hdr);
	free(subr);
	free(bits);
	free(nbits);
	free(in);
	free(blk);
	free(zbuf);
	free(zero);
	free(o.descs);
	return err;
}
