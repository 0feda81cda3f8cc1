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
#include <stdio.h>
#include <string.h>
#include <libkdumpfile/addrxlat.h>

#include "dump-private.h"

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

int kx_dump__read(void *priv, uint64_t kvaddr, void *buf, size_t len)
{
	struct kx_dump *d = priv;
	size_t got = len;
	kdump_status ks;
	uint64_t at;
	int ret;

	if (!len)
		return 0;
	/* kdump_read() crosses page boundaries and reports how far it got */
	ks = kdump_read(d->ctx, KDUMP_KVADDR, kvaddr, buf, &got);
	if (ks == KDUMP_OK && got == len)
		return 0;
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
	return ret;
}

enum kx_error kx_dump__init_xlat(struct kx_dump *d, char *msg, size_t msglen)
{
	kdump_num_t shift;
	kdump_attr_t attr;
	kdump_status ks;

	ks = kdump_get_number_attr(d->ctx, KDUMP_ATTR_PAGE_SHIFT, &shift);
	if (ks != KDUMP_OK) {
		snprintf(msg, msglen, "vmcore %s: kdump_get_number_attr(%s): %s",
			 d->path, KDUMP_ATTR_PAGE_SHIFT, kdump_get_err(d->ctx));
		return KX_ERR_DUMP;
	}
	d->page_shift = (unsigned int)shift;
	ks = kdump_get_addrxlat(d->ctx, &d->axctx, &d->axsys);
	if (ks != KDUMP_OK) {
		snprintf(msg, msglen, "vmcore %s: kdump_get_addrxlat: %s",
			 d->path, kdump_get_err(d->ctx));
		return KX_ERR_DUMP;
	}
	attr.type = KDUMP_BITMAP;
	if (kdump_get_typed_attr(d->ctx, KDUMP_ATTR_MEMORY_PAGEMAP, &attr) ==
	    KDUMP_OK) {
		d->ram = attr.val.bitmap;
		kdump_bmp_incref(d->ram);
	}
	kdump_clear_err(d->ctx);
	return KX_OK;
}

void kx_dump__fini_xlat(struct kx_dump *d)
{
	if (d->ram)
		kdump_bmp_decref(d->ram);
	if (d->axsys)
		addrxlat_sys_decref(d->axsys);
	if (d->axctx)
		addrxlat_ctx_decref(d->axctx);
	d->ram = NULL;
	d->axsys = NULL;
	d->axctx = NULL;
}

/*
 * Both makedumpfile and the kernel's /proc/vmcore write pages in pfn
 * order, so the last page that the dump says it holds (file.pagemap) is
 * at the end of the file: if it cannot be read, the file was cut short
 * (disk full, interrupted copy). That is an error unless --force, which
 * keeps the pages that are there (reads past the end fail with -EIO).
 */
enum kx_error kx_dump__check_whole(struct kx_dump *d, char *msg, size_t msglen)
{
	kdump_addr_t idx = 0, last = 0, pfn;
	kdump_num_t shift;
	kdump_attr_t attr;
	kdump_status ks;
	unsigned char page[64];
	size_t len = sizeof(page);
	int found = 0;

	attr.type = KDUMP_BITMAP;
	if (kdump_get_typed_attr(d->ctx, KDUMP_ATTR_FILE_PAGEMAP, &attr) !=
		    KDUMP_OK ||
	    kdump_get_number_attr(d->ctx, KDUMP_ATTR_PAGE_SHIFT, &shift) !=
		    KDUMP_OK) {
		kdump_clear_err(d->ctx);
		return KX_OK;
	}
	/* walk the runs of set bits to the last one */
	while (kdump_bmp_find_set(attr.val.bitmap, &idx) == KDUMP_OK) {
		found = 1;
		pfn = idx;
		if (kdump_bmp_find_clear(attr.val.bitmap, &idx) != KDUMP_OK) {
			last = pfn;	/* set up to the end of the bitmap */
			break;
		}
		last = idx - 1;
	}
	kdump_clear_err(d->ctx);
	if (!found)
		return KX_OK;
	ks = kdump_read(d->ctx, KDUMP_KPHYSADDR, last << shift, page, &len);
	if (ks == KDUMP_OK || ks == KDUMP_ERR_NODATA) {
		kdump_clear_err(d->ctx);
		return KX_OK;
	}
	snprintf(msg, msglen,
		 "vmcore %s: truncated: %llu bytes, cannot read its last page "
		 "(pfn 0x%llx): %s",
		 d->path, (unsigned long long)d->file_size,
		 (unsigned long long)last, kdump_get_err(d->ctx));
	kdump_clear_err(d->ctx);
	if (!d->force)
		return KX_ERR_DUMP;
	fprintf(stderr, "warning: %s\n", msg);
	msg[0] = '\0';
	return KX_OK;
}
