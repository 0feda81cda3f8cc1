/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkdumpfile's API where it differs between the versions ktrace builds
 * against: 0.5.1 (Debian 12), 0.5.4 (Debian 13), 0.5.6 (sid).
 *
 * 0.5.5 reworked the lifetime of attribute values (the soname went from
 * libkdumpfile.so.10 to .so.12) and changed kdump_get_typed_attr(): the
 * expected type became an argument of its own and the value a
 * kdump_attr_value_t; a value of another type is refused with
 * KDUMP_ERR_INVALID and leaves the output alone (before 0.5.5 it was
 * filled anyway). Its rule of lifetime stayed: the value of this "simple"
 * API is the context's, no reference is taken (only kdump_attr_ref_get()
 * gives one, to drop with kdump_attr_discard(), new in 0.5.5), so a bitmap
 * kept is kdump_bmp_incref()ed by its caller, on every version.
 * kdump_get_number_attr() and kdump_get_string_attr() are inline in the
 * header and follow it by themselves.
 */
#ifndef KX_KDUMP_COMPAT_H
#define KX_KDUMP_COMPAT_H

#include <libkdumpfile/kdumpfile.h>

/* The bitmap attribute @key of @ctx (no reference taken), in *@bmp. */
static inline kdump_status kx_kdump_get_bitmap_attr(kdump_ctx_t *ctx, const char *key,
						    kdump_bmp_t **bmp)
{
	kdump_status ks;
#if KDUMPFILE_VERSION >= KDUMPFILE_MKVER(0, 5, 5)
	kdump_attr_value_t val;

	ks = kdump_get_typed_attr(ctx, key, KDUMP_BITMAP, &val);
	if (ks == KDUMP_OK)
		*bmp = val.bitmap;
#else
	kdump_attr_t attr = { .type = KDUMP_BITMAP };

	ks = kdump_get_typed_attr(ctx, key, &attr);
	if (ks == KDUMP_OK)
		*bmp = attr.val.bitmap;
#endif
	return ks;
}

#endif
