/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A kdump-compressed dump's page descriptors, checked (kdump-desc.c). */
#ifndef KTRACE_EXTRACT_KDUMP_DESC_H
#define KTRACE_EXTRACT_KDUMP_DESC_H

#include <stddef.h>
#include <stdint.h>

/*
 * A kdump-compressed header as libkdumpfile reads it (try_header() of its
 * diskdump.c): tried as 32-bit then 64-bit, little then big endian.
 */
struct kx_kdhdr {
	int big, width;		/* byte order, 4 or 8 (pointer size) */
	uint32_t block;		/* block_size: libkdumpfile takes it for the page size */
	size_t block_at;	/* where block_size lies in the header */
	int32_t version, sub_blocks;
	uint32_t bitmap_blocks, max_mapnr;
};

/* the blobs struct kdump_sub_header points to: where the fields lie, their values */
struct kx_kdsub {
	int split;
	unsigned vmcoreinfo_at, notes_at, eraseinfo_at, max_mapnr_at;	/* 0: none */
	uint64_t vmcoreinfo_off, vmcoreinfo_size, notes_off, notes_size;
	uint64_t eraseinfo_off, eraseinfo_size;
};

/* @raw: the file's first 512 bytes. 1 if libkdumpfile takes it for a header */
int kx_kdhdr__parse(const unsigned char *raw, struct kx_kdhdr *h);
/* @sub: the sub-header's first 104 bytes (at @h->block) */
void kx_kdhdr__sub(const struct kx_kdhdr *h, const unsigned char *sub, struct kx_kdsub *s);
uint32_t kx_kdhdr__get32(const struct kx_kdhdr *h, const void *p);
uint64_t kx_kdhdr__get64(const struct kx_kdhdr *h, const void *p);

struct kx_kdesc {
	int kdump;		/* the file has a kdump-compressed signature */
	uint64_t descs;		/* descriptors checked */
	uint64_t *zero;		/* file offsets of the descriptors to zero */
	size_t nzero, cap;
	size_t nlying;		/* of them: claiming a compressed page beyond the block */
	size_t ncut;		/* of them: whose data is not in the file (@filled) */
	uint32_t block;		/* the dump's block (page) size */
	uint32_t first_size;	/* the size the first lying one claims */
};

/*
 * Check every page descriptor of the kdump-compressed image in @fd (@size
 * bytes); with @filled, also those whose data @filled(@arg, offset, size)
 * says is not in the image (a truncated flattened file's holes). 0 (a
 * file that is not kdump-compressed, or one libkdumpfile refuses, is left
 * alone: @out->descs 0), or -errno with @msg.
 */
int kx_kdesc__scan(int fd, uint64_t size, int (*filled)(const void *, uint64_t, uint64_t),
		   const void *arg, struct kx_kdesc *out, char *msg, size_t msglen);
/*
 * A sealed memfd copy of the image with the lying descriptors zeroed, as
 * sparse as the image: 0 with *@repaired, -EFBIG when the image holds more
 * than @cap bytes of data, -ENOMEM or -EIO; @msg says why.
 */
int kx_kdesc__repair(int fd, uint64_t size, const struct kx_kdesc *k, uint64_t cap,
		     int *repaired, char *msg, size_t msglen);
void kx_kdesc__free(struct kx_kdesc *k);

#endif /* KTRACE_EXTRACT_KDUMP_DESC_H */
