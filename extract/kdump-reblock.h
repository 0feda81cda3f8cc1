/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A kdump-compressed dump in blocks larger than the kernel's pages (QEMU's
 * of an arm64 guest: 64 KiB), written again in pages (kdump-reblock.c).
 */
#ifndef KTRACE_EXTRACT_KDUMP_REBLOCK_H
#define KTRACE_EXTRACT_KDUMP_REBLOCK_H

#include <stddef.h>
#include <stdint.h>

struct kx_kreblock {
	int needed;		/* blocks larger than VMCOREINFO's PAGESIZE */
	uint32_t block, page;	/* the header's block_size, PAGESIZE (0: none) */
	int fd;			/* the sealed memfd written, or -1 */
	uint64_t blocks;	/* blocks re-blocked */
	uint64_t bad;		/* of them: unreadable (their pages get size 0) */
	uint64_t memory;	/* bytes of the memfd */
};

/*
 * Does the kdump-compressed image @fd (@size bytes) need re-blocking? 0
 * with @r->needed (0 for any other file, or one libkdumpfile refuses),
 * or -errno with @msg for one that cannot be re-blocked (a split dump).
 */
int kx_kreblock__probe(int fd, uint64_t size, struct kx_kreblock *r, char *msg, size_t msglen);
/*
 * Write it again in pages into a sealed memfd (@r->fd), holding at most
 * @cap bytes of pages; @filled as for kx_kdesc__scan(). 0, -EFBIG over
 * @cap, -ENOTSUP (pages compressed with lzo or snappy), -ENOMEM, -EINVAL
 * or -EIO, with @msg.
 */
int kx_kreblock__write(int fd, uint64_t size, int (*filled)(const void *, uint64_t, uint64_t),
		       const void *arg, uint64_t cap, struct kx_kreblock *r, char *msg, size_t msglen);

#endif /* KTRACE_EXTRACT_KDUMP_REBLOCK_H */
