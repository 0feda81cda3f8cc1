// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: a kdump-compressed or flattened dump file, as hostile
 * as it gets, through what ktrace-extract does before and while
 * libkdumpfile reads it: flat.c rearranges a flattened file (with --force,
 * so a cut one is kept), kdump-reblock.c writes one in blocks larger than
 * its VMCOREINFO's page size again in pages, kdump-desc.c checks every page descriptor and
 * repairs the lying ones in a copy, then libkdumpfile opens the image and
 * every page its file pagemap lists is read (at most 64).
 *
 * libkdumpfile itself is not instrumented, but ASan's interceptors see
 * its pread() and memcpy() into our heap: a descriptor that still reached
 * it with a size beyond its one-page buffer is reported here. Seeds: small
 * synthetic dumps (tests/fuzz/make-seeds, kdump/).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libkdumpfile/kdumpfile.h>

#include "../../extract/flat.h"
#include "../../extract/kdump-desc.h"
#include "../../extract/kdump-compat.h"
#include "../../extract/kdump-reblock.h"

/*
 * A header's sizes make libkdumpfile ask malloc() for terabytes; it copes
 * with NULL (an error), as a plain build's malloc() returns it
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

static int flat_filled(const void *flat, uint64_t off, uint64_t len)
{
	return kx_flat__filled(flat, off, len);
}

static void read_pages(int fd)
{
	kdump_ctx_t *ctx = kdump_new();
	kdump_bmp_t *filemap;
	kdump_num_t shift;
	kdump_addr_t idx = 0;
	char buf[1 << 16];
	int n = 0;

	if (!ctx)
		return;
	kdump_set_number_attr(ctx, KDUMP_ATTR_FILE_MMAP_POLICY, KDUMP_MMAP_NEVER);
	kdump_set_number_attr(ctx, "cache.size", 64);
	if (kdump_open_fd(ctx, fd) != KDUMP_OK)
		return;	/* left unfreed: 0.5.1's kdump_free() crashes here (extract/dump.c) */
	if (kdump_get_number_attr(ctx, KDUMP_ATTR_PAGE_SHIFT, &shift) == KDUMP_OK && shift <= 16 &&
	    kx_kdump_get_bitmap_attr(ctx, KDUMP_ATTR_FILE_PAGEMAP, &filemap) == KDUMP_OK) {
		while (n++ < 64 && kdump_bmp_find_set(filemap, &idx) == KDUMP_OK) {
			size_t len = (size_t)1 << shift;

			/* a failed read spoils 0.5.1's cache: stop there, as dump-read.c renews */
			if (kdump_read(ctx, KDUMP_MACHPHYSADDR, idx << shift, buf, &len) != KDUMP_OK)
				break;
			idx++;
		}
	}
	kdump_free(ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len)
{
	struct kx_flat *flat = NULL;
	struct kx_kdesc k;
	struct kx_kreblock r;
	struct stat st;
	char msg[512];
	int fd, img, repaired = -1;

	r.fd = -1;

	fd = memfd_create("fuzz-kdump", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (len && write(fd, in, len) != (ssize_t)len)
		goto out;
	if (kx_flat__open(fd, "fuzz", 1, &flat, msg, sizeof(msg)) < 0)
		goto out;
	img = flat ? kx_flat__fd(flat) : fd;
	if (fstat(img, &st) || st.st_size <= 0)
		goto out;
	/* refused unless re-blocked, as extract/dump.c does */
	if (kx_kreblock__probe(img, (uint64_t)st.st_size, &r, msg, sizeof(msg)) < 0)
		goto out;
	if (r.needed) {
		r.fd = -1;
		if (kx_kreblock__write(img, (uint64_t)st.st_size,
				       kx_flat__truncated(flat) ? flat_filled : NULL, flat, 64u << 20, &r,
				       msg, sizeof(msg)))
			goto out;
		img = r.fd;
		if (fstat(img, &st) || st.st_size <= 0)
			goto out;
	}
	if (kx_kdesc__scan(img, (uint64_t)st.st_size,
			   kx_flat__truncated(flat) && r.fd < 0 ? flat_filled : NULL, flat, &k, msg,
			   sizeof(msg)) < 0)
		goto out;
	if (kx_flat__truncated(flat) && r.fd < 0 && !k.kdump) {
		kx_kdesc__free(&k);
		goto out;	/* refused, as extract/dump.c does */
	}
	if (k.nzero && kx_kdesc__repair(img, (uint64_t)st.st_size, &k, 64u << 20, &repaired, msg,
					sizeof(msg))) {
		kx_kdesc__free(&k);
		goto out;
	}
	/*
	 * libkdumpfile only when the walk found descriptors (a header it takes):
	 * a failed open is left unfreed (0.5.1), megabytes an input
	 */
	if (k.descs)
		read_pages(repaired >= 0 ? repaired : img);
	kx_kdesc__free(&k);
out:
	if (repaired >= 0)
		close(repaired);
	if (r.fd >= 0)
		close(r.fd);
	kx_flat__close(flat);
	close(fd);
	return 0;
}
