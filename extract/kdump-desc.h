/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A kdump-compressed dump's page descriptors, checked (kdump-desc.c). */
#ifndef KTRACE_EXTRACT_KDUMP_DESC_H
#define KTRACE_EXTRACT_KDUMP_DESC_H

#include <stddef.h>
#include <stdint.h>

struct kx_kdesc {
	int kdump;		/* the file has a kdump-compressed signature */
	uint64_t descs;		/* descriptors checked */
	uint64_t *lying;	/* file offsets of those claiming more than a page */
	size_t nlying, cap;
	uint32_t block;		/* the dump's block (page) size */
	uint32_t first_size;	/* the size the first lying one claims */
};

/*
 * Check every page descriptor of the kdump-compressed image in @fd (@size
 * bytes). 0 (a file that is not kdump-compressed, or one libkdumpfile
 * refuses, is left alone: @out->descs 0), or -errno with @msg.
 */
int kx_kdesc__scan(int fd, uint64_t size, struct kx_kdesc *out, char *msg, size_t msglen);
/* A sealed memfd copy of the image with the lying descriptors zeroed. */
int kx_kdesc__repair(int fd, uint64_t size, const struct kx_kdesc *k, int *repaired,
		     char *msg, size_t msglen);
void kx_kdesc__free(struct kx_kdesc *k);

#endif /* KTRACE_EXTRACT_KDUMP_DESC_H */
