/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Private to dump*.c: the state of one open dump. */
#ifndef KTRACE_EXTRACT_DUMP_PRIVATE_H
#define KTRACE_EXTRACT_DUMP_PRIVATE_H

/* entries in libkdumpfile's page cache (see kx_dump__open) */
#define KX_KDUMP_CACHE 64

#include <pthread.h>
#include <stdint.h>
#include <libkdumpfile/kdumpfile.h>

#include "dump.h"
#include "dump-ppc64.h"
#include "dump-s390x.h"
#include "types/vmsrc.h"

struct kx_flat;

struct kx_dump {
	char *path;
	int fd;			/* the vmcore, O_RDONLY */
	uint64_t file_size;	/* 0 when not a regular file */
	struct kx_flat *flat;	/* rearranged image of a flattened file */
	int flat_by_lib;	/* a flattened file libkdumpfile reads itself */
	int kdump_signed;	/* it has a kdump-compressed file's signature */
	int repaired;		/* memfd: the image with lying page descriptors zeroed, or -1 */
	int reblocked;		/* memfd: the image in pages, not blocks (kdump-reblock.c), or -1 */
	int image;		/* what libkdumpfile reads: fd, the flat image, or a memfd */
	kdump_ctx_t *ctx;
	const char *format;

	/* from vmcoreinfo */
	char *osrelease;
	char *build_id;		/* NULL before v5.9 */
	uint64_t kaslr_offset;
	int have_kaslr_offset;

	/* for telling a filtered page (-ENODATA) from a hole (-EFAULT) */
	addrxlat_ctx_t *axctx;
	addrxlat_sys_t *axsys;
	kdump_bmp_t *ram;	/* memory.pagemap: pfns that are RAM */
	kdump_bmp_t *filemap;	/* file.pagemap of a compressed dump: pfns it holds */
	unsigned long renewed;	/* contexts replaced after a failed read (renew_ctx()) */
	unsigned long filtered;	/* reads that failed on a page the dump left out (-ENODATA) */
	unsigned int page_shift;
	/* ppc64 with pages libkdumpfile does not know: our layout on every context */
	int ppc64_own;
	struct kx_ppc64 ppc64;
	/* s390x of 6.10 and later (the image apart): our layout on every context */
	int s390x_own;
	struct kx_s390x s390x;
	uint64_t kernel_min;	/* lowest kernel address on this arch */
	/*
	 * A truncated ELF dump opened with force: libkdumpfile reads the
	 * missing tail of a segment as zeros, so reads are checked against
	 * the physical ranges [elf_ok_start[i], elf_ok_end[i]) really there.
	 */
	uint64_t *elf_ok_start, *elf_ok_end;
	size_t elf_nok;
	/*
	 * A whole ELF dump's PT_LOAD segments, in program header order, for
	 * reading it with pread(2) ourselves (kx_dump__read): libkdumpfile's
	 * read(2) path costs ~7.5 us a page, the translation ~0.4 us.
	 */
	struct kx_seg {
		uint64_t pa, end;	/* [p_paddr, p_paddr + p_filesz) */
		uint64_t off;		/* p_offset */
	} *seg;
	size_t nseg;

	/*
	 * the vmlinux (types and symbols, types/vmsrc.h): opened and checked
	 * against the dump in its second stage, NULL when it is alone; the
	 * dump's own target serves memory only
	 */
	struct kx_vmsrc *vms;
	char *why_alone;	/* no vmlinux: the reason, with alone_if_no_vmlinux */

	int verbose;
	int force;
	char last_error[256];
	/*
	 * Held by kx_dump__read() and by kx_dump__read_blocks() while it
	 * translates: libkdumpfile's and libaddrxlat's contexts (and
	 * last_error) are for one thread at a time; the preadv(2) of the
	 * blocks is done outside it (KT_TARGET_BLOCKS_MT).
	 */
	pthread_mutex_t lock;
	/*
	 * Contexts of libkdumpfile's on the same file (or kdump_clone()s of
	 * @ctx), one per other thread that called kx_dump__read_blocks() on a
	 * dump not read directly (a compressed one), so pages are inflated on
	 * several threads (thread_ctx() in dump-read.c). Freed with @ctx.
	 */
	kdump_ctx_t **clones;
	size_t nclones;
	unsigned long id;	/* tells this dump from an earlier one at the same address */
	pthread_t owner;	/* the thread that opened it: it reads with @ctx */
};

enum kx_error kx_dump__check_whole(struct kx_dump *d, char *msg, size_t msglen);
enum kx_error kx_dump__init_xlat(struct kx_dump *d, char *msg, size_t msglen);
void kx_dump__fini_xlat(struct kx_dump *d);
int kx_dump__read(void *priv, uint64_t kvaddr, void *buf, size_t len);
int kx_dump__read_blocks(void *priv, const uint64_t *kvaddrs, size_t n, size_t len,
			 void *buf, unsigned char *ok);

#endif /* KTRACE_EXTRACT_DUMP_PRIVATE_H */
