// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The page descriptors of a kdump-compressed dump, checked before
 * libkdumpfile reads any page through them.
 *
 * libkdumpfile 0.5.1 (Debian 12's; fixed in 0.5.4 by "diskdump: Map
 * compressed data directly from file cache", e403ac1) reads a compressed
 * page's bytes into a buffer of one page, trusting the descriptor's size
 * up to 256 KiB: a descriptor that says a compressed page is larger than
 * a page makes it write the file's bytes past the buffer, into our heap
 * (seen: SIGSEGV, or a whole trace with exit 0 over an 835-byte heap
 * overwrite). It reads pages on its own too (page tables, the kernel
 * image it probes at open), so checking only the pages we ask for is not
 * enough: every descriptor of the file is checked once, at open.
 *
 * The walk is libkdumpfile's own (diskdump.c, 0.5.1 to 0.5.6): the header
 * is tried as 32-bit then 64-bit, little then big endian, the first whose
 * block size and bitmap pass try_header() wins; descriptors follow the
 * bitmaps, one per set bit of the dumpable bitmap from start_pfn on.
 * Reading them costs 24 bytes per dumped page (about 1% of a compressed
 * dump), read sequentially.
 *
 * In a flattened file cut short and read with --force (flat.c), the
 * descriptors whose data was in the lost part are zeroed the same way:
 * the image holds zeros there, which would otherwise be read as a page.
 *
 * A lying descriptor is made harmless in a copy of the image in memory
 * (memfd) with its size and flags zeroed: libkdumpfile then refuses that
 * page ("Wrong page size: 0"), which ktrace counts as unreadable when it
 * needs it. The dump itself is only ever read.
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

#include "io.h"
#include "kdump-desc.h"

#define KD_MIN_BLOCK 4096u		/* libkdumpfile's MIN_PAGE_SIZE */
#define KD_MAX_BLOCK (256u << 10)	/* and MAX_PAGE_SIZE */
/* DUMP_DH_COMPRESSED_ZLIB | _LZO | _SNAPPY | _ZSTD */
#define KD_COMPRESSED (0x1u | 0x2u | 0x4u | 0x20u)
#define KD_DESC_SIZE 24u
#define KD_CHUNK (1u << 20)

#define kd_hdr kx_kdhdr

static uint32_t get32(const struct kd_hdr *h, const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return h->big ? be32toh(v) : le32toh(v);
}

static uint64_t get64(const struct kd_hdr *h, const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return h->big ? be64toh(v) : le64toh(v);
}

uint32_t kx_kdhdr__get32(const struct kx_kdhdr *h, const void *p)
{
	return get32(h, p);
}

uint64_t kx_kdhdr__get64(const struct kx_kdhdr *h, const void *p)
{
	return get64(h, p);
}

/* an unsigned long of the dumped machine */
static uint64_t get_long(const struct kd_hdr *h, const unsigned char *p)
{
	return h->width == 4 ? get32(h, p) : get64(h, p);
}

/*
 * Where struct kdump_sub_header's fields lie for a 32-bit and a 64-bit
 * machine (makedumpfile's diskdump_mod.h): the split flag (int), the
 * split's start and end pfns (longs; from version 6 the 64-bit ones with
 * max_mapnr_64 after them), and the offset (off_t) and size (long) of the
 * vmcoreinfo (version 3), of the notes (4+) and of the eraseinfo (5+).
 */
static const struct kd_sub_at {
	unsigned split, split_start, vmcoreinfo, notes, eraseinfo, split_start64;
} kd_sub_at[2] = {
	{ 8, 12, 20, 32, 44, 56 },	/* 32-bit */
	{ 12, 16, 32, 48, 64, 80 },	/* 64-bit */
};

/* try_header() of libkdumpfile, on one of the four readings of the header */
static int try_header(const unsigned char *raw, int width, int big, struct kd_hdr *h)
{
	/* block_size: after signature, version, utsname (390), pad, timeval, status */
	size_t at = width == 4 ? 416 : 428;
	uint32_t block;

	h->big = big;
	h->width = width;
	h->block_at = at;
	block = get32(h, raw + at);
	if (block < KD_MIN_BLOCK || block > KD_MAX_BLOCK)
		return 0;
	h->block = block;
	h->version = (int32_t)get32(h, raw + 8);
	h->sub_blocks = (int32_t)get32(h, raw + at + 4);
	h->bitmap_blocks = get32(h, raw + at + 8);
	h->max_mapnr = get32(h, raw + at + 12);
	return (uint64_t)8 * h->bitmap_blocks * block >= h->max_mapnr;
}

int kx_kdhdr__parse(const unsigned char *raw, struct kx_kdhdr *h)
{
	if (memcmp(raw, "KDUMP   ", 8) && memcmp(raw, "DISKDUMP", 8))
		return 0;
	return try_header(raw, 4, 0, h) || try_header(raw, 4, 1, h) ||
	       try_header(raw, 8, 0, h) || try_header(raw, 8, 1, h);
}

void kx_kdhdr__sub(const struct kx_kdhdr *h, const unsigned char *sub, struct kx_kdsub *s)
{
	const struct kd_sub_at *at = &kd_sub_at[h->width == 8];

	memset(s, 0, sizeof(*s));
	s->split = h->version >= 2 && get32(h, sub + at->split);
	if (h->version >= 3) {
		s->vmcoreinfo_at = at->vmcoreinfo;
		s->vmcoreinfo_off = get64(h, sub + at->vmcoreinfo);
		s->vmcoreinfo_size = get_long(h, sub + at->vmcoreinfo + 8);
	}
	if (h->version >= 4) {
		s->notes_at = at->notes;
		s->notes_off = get64(h, sub + at->notes);
		s->notes_size = get_long(h, sub + at->notes + 8);
	}
	if (h->version >= 5) {
		s->eraseinfo_at = at->eraseinfo;
		s->eraseinfo_off = get64(h, sub + at->eraseinfo);
		s->eraseinfo_size = get_long(h, sub + at->eraseinfo + 8);
	}
	s->max_mapnr_at = h->version >= 6 ? at->split_start64 + 16 : 0;
}

static int add_zeroed(struct kx_kdesc *out, uint64_t at)
{
	if (out->nzero == out->cap) {
		size_t cap = out->cap ? out->cap * 2 : 16;
		uint64_t *p = realloc(out->zero, cap * sizeof(*p));

		if (!p)
			return -1;
		out->zero = p;
		out->cap = cap;
	}
	out->zero[out->nzero++] = at;
	return 0;
}

int kx_kdesc__scan(int fd, uint64_t size, int (*filled)(const void *, uint64_t, uint64_t),
		   const void *arg, struct kx_kdesc *out, char *msg, size_t msglen)
{
	unsigned char raw[512], sub[104], *bits = NULL, *descs = NULL;
	uint64_t max_pfn, start = 0, end = UINT64_MAX, off, bitmap_bytes, bitmap_pfns;
	uint64_t desc_off, pfn, ndesc = 0, i;
	struct kd_hdr h;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (kx_pread_full(fd, raw, sizeof(raw), 0) ||
	    (memcmp(raw, "KDUMP   ", 8) && memcmp(raw, "DISKDUMP", 8)))
		return 0;	/* not ours to check: libkdumpfile says what it is */
	out->kdump = 1;
	if (!try_header(raw, 4, 0, &h) && !try_header(raw, 4, 1, &h) &&
	    !try_header(raw, 8, 0, &h) && !try_header(raw, 8, 1, &h))
		return 0;	/* libkdumpfile refuses it */
	max_pfn = h.max_mapnr;
	if (h.version >= 1) {
		uint64_t noff = 0, nsize = 0;

		if (kx_pread_full(fd, sub, sizeof(sub), h.block))
			return 0;
		const struct kd_sub_at *at = &kd_sub_at[h.width == 8];

		/* the notes (4+) or the vmcoreinfo (3) libkdumpfile reads whole */
		if (h.version >= 4) {
			noff = get64(&h, sub + at->notes);
			nsize = get_long(&h, sub + at->notes + 8);
		} else if (h.version == 3) {
			noff = get64(&h, sub + at->vmcoreinfo);
			nsize = get_long(&h, sub + at->vmcoreinfo + 8);
		}
		if (nsize && (noff > size || nsize > size - noff)) {
			snprintf(msg, msglen, "its kdump header puts %llu bytes of %s at %llu, "
				 "beyond the file's %llu", (unsigned long long)nsize,
				 h.version >= 4 ? "notes" : "vmcoreinfo", (unsigned long long)noff,
				 (unsigned long long)size);
			return -EINVAL;
		}
		if (h.version >= 2 && get32(&h, sub + at->split)) {
			start = get_long(&h, sub + at->split_start);
			end = get_long(&h, sub + at->split_start + h.width);
		}
		if (h.version >= 6) {
			if (get32(&h, sub + at->split)) {
				start = get64(&h, sub + at->split_start64);
				end = get64(&h, sub + at->split_start64 + 8);
			}
			max_pfn = get64(&h, sub + at->split_start64 + 16);
		}
	}
	/* read_bitmap(): a partial dump's bitmap is the second half */
	if (h.sub_blocks < 0) {
		snprintf(msg, msglen, "its kdump header has a negative sub-header size (%d)",
			 h.sub_blocks);
		return -EINVAL;
	}
	off = (1 + (uint64_t)h.sub_blocks) * h.block;
	desc_off = off + (uint64_t)h.bitmap_blocks * h.block;
	bitmap_bytes = (uint64_t)h.bitmap_blocks * h.block;
	bitmap_pfns = bitmap_bytes * 8;
	if (max_pfn <= bitmap_pfns / 2) {
		bitmap_bytes = (uint64_t)(h.bitmap_blocks / 2) * h.block;
		off += bitmap_bytes;
		bitmap_pfns = bitmap_bytes * 8;
	}
	if (end > bitmap_pfns)
		end = bitmap_pfns;
	if (off >= size || bitmap_bytes > size - off || desc_off > size) {
		/* libkdumpfile cannot read it either, after a malloc() of its size */
		snprintf(msg, msglen, "its kdump header puts a page bitmap of %llu bytes at "
			 "%llu, beyond the file's %llu", (unsigned long long)bitmap_bytes,
			 (unsigned long long)off, (unsigned long long)size);
		return -EINVAL;
	}
	out->block = h.block;
	if (filled && !filled(arg, off, bitmap_bytes)) {
		snprintf(msg, msglen, "the page bitmap (%llu bytes at %llu) is not all in the file",
			 (unsigned long long)bitmap_bytes, (unsigned long long)off);
		return -EIO;
	}
	bits = malloc(bitmap_bytes ? bitmap_bytes : 1);
	if (!bits)
		goto nomem;
	if (kx_pread_full(fd, bits, bitmap_bytes, off)) {
		snprintf(msg, msglen, "cannot read the page bitmap at %llu: %s",
			 (unsigned long long)off, strerror(errno ? errno : EIO));
		goto out;
	}
	for (pfn = start; pfn < end; pfn++) {
		if (!(pfn & 63) && pfn + 64 <= end) {
			uint64_t w;

			memcpy(&w, bits + pfn / 8, 8);
			ndesc += (uint64_t)__builtin_popcountll(w);
			pfn += 63;
			continue;
		}
		ndesc += bits[pfn / 8] >> (pfn & 7) & 1;
	}
	free(bits);
	bits = NULL;
	/* descriptors past the end of the file cannot be read: nothing to fear */
	if (ndesc > (size - desc_off) / KD_DESC_SIZE)
		ndesc = (size - desc_off) / KD_DESC_SIZE;
	out->descs = ndesc;
	descs = malloc(KD_CHUNK);
	if (!descs)
		goto nomem;
	for (i = 0; i < ndesc;) {
		uint64_t n = ndesc - i < KD_CHUNK / KD_DESC_SIZE ? ndesc - i : KD_CHUNK / KD_DESC_SIZE, k;

		if (kx_pread_full(fd, descs, n * KD_DESC_SIZE, desc_off + i * KD_DESC_SIZE)) {
			snprintf(msg, msglen, "cannot read page descriptors at %llu",
				 (unsigned long long)(desc_off + i * KD_DESC_SIZE));
			goto out;
		}
		for (k = 0; k < n; k++, i++) {
			const unsigned char *d = descs + k * KD_DESC_SIZE;
			uint64_t at = desc_off + i * KD_DESC_SIZE, doff = get64(&h, d);
			uint32_t dsize = get32(&h, d + 8), flags = get32(&h, d + 12);

			if ((flags & KD_COMPRESSED) && dsize > h.block) {
				if (!out->nlying)
					out->first_size = dsize;
				out->nlying++;
			} else if (filled && !filled(arg, at, KD_DESC_SIZE)) {
				/* lost itself: zeros, which libkdumpfile refuses */
				out->ncut++;
				continue;
			} else if (filled && !filled(arg, doff, dsize)) {
				/* its data was in the part of the file that is lost */
				out->ncut++;
			} else {
				continue;
			}
			if (add_zeroed(out, at))
				goto nomem;
		}
	}
	ret = 0;
	goto out;
nomem:
	snprintf(msg, msglen, "out of memory checking the page descriptors");
	ret = -ENOMEM;
out:
	free(bits);
	free(descs);
	if (ret < 0 && ret != -ENOMEM && ret != -EINVAL)
		ret = -EIO;
	if (ret < 0)
		kx_kdesc__free(out);
	return ret;
}

int kx_kdesc__repair(int fd, uint64_t size, const struct kx_kdesc *k, uint64_t cap,
		     int *repaired, char *msg, size_t msglen)
{
	static const unsigned char zero[8];
	uint64_t off, start, end, data = 0;
	char *buf = NULL;
	const char *what;
	size_t i;
	int mfd, err = 0;

	*repaired = -1;
	/*
	 * Only the data is copied (a flattened dump's image is a sparse memfd
	 * whose end may lie anywhere its records say): the copy is as sparse,
	 * and @cap bounds the bytes copied, not the image's length.
	 */
	for (off = 0; kx_data_extent(fd, off, size, &start, &end) > 0; off = end)
		data += end - start;
	if (data > cap) {
		snprintf(msg, msglen, "its %llu MiB of data are more than can be copied "
			 "into memory (%llu MiB)", (unsigned long long)(data >> 20),
			 (unsigned long long)(cap >> 20));
		return -EFBIG;
	}
	mfd = memfd_create("ktrace-kdump-repaired", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (mfd < 0) {
		snprintf(msg, msglen, "memfd_create: %s", strerror(errno));
		return -errno;
	}
	what = "sizing the copy";
	off = 0;
	if (ftruncate(mfd, (off_t)size)) {
		err = -errno;
		goto fail;
	}
	what = "malloc";
	buf = malloc(KD_CHUNK);
	if (!buf) {
		err = -ENOMEM;
		goto fail;
	}
	for (off = 0; kx_data_extent(fd, off, size, &start, &end) > 0; off = end) {
		for (off = start; off < end;) {
			size_t n = end - off < KD_CHUNK ? (size_t)(end - off) : KD_CHUNK;

			what = "reading the dump";
			err = kx_pread_full(fd, buf, n, off);
			if (err)
				goto fail;
			what = "writing the copy";
			err = kx_pwrite_full(mfd, buf, n, off);
			if (err)
				goto fail;
			off += n;
		}
	}
	/* size and flags (bytes 8..15 of the descriptor) zeroed */
	what = "repairing the copy";
	for (i = 0; i < k->nzero; i++) {
		off = k->zero[i] + 8;
		err = kx_pwrite_full(mfd, zero, sizeof(zero), off);
		if (err)
			goto fail;
	}
	what = "sealing the copy";
	err = kx_memfd_seal(mfd);
	if (err)
		goto fail;
	free(buf);
	*repaired = mfd;
	return 0;
fail:
	snprintf(msg, msglen, "copying the dump into memory to repair it: %s at %llu: %s",
		 what, (unsigned long long)off,
		 err == -ENODATA ? "end of file" : strerror(-err));
	free(buf);
	close(mfd);
	return err == -ENOMEM ? -ENOMEM : -EIO;
}

void kx_kdesc__free(struct kx_kdesc *k)
{
	free(k->zero);
	k->zero = NULL;
	k->nzero = k->nlying = k->ncut = k->cap = 0;
}
