/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A kdump-compressed dump's page descriptors, checked (kdump-desc.c). */
#ifndef KTRACE_EXTRACT_KDUMP_DESC_H
#define KTRACE_EXTRACT_KDUMP_DESC_H

#include <stddef.h>
#include <stdint.h>

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
