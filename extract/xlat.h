/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the translations ktrace sets on libkdumpfile's own system share
 * (dump-ppc64.c, dump-s390x.c): the context's system, vmcoreinfo numbers,
 * address maps, kernel physical = machine physical.
 */
#ifndef KX_XLAT_H
#define KX_XLAT_H

#include <stdint.h>
#include <libkdumpfile/kdumpfile.h>

/*
 * The context's translation system. A revalidation that failed (ppc64's
 * "Unsupported page shift") leaves it empty but no longer "dirty": asked
 * again, libkdumpfile hands it out. NULL: none.
 */
addrxlat_sys_t *kx_xlat__sys(kdump_ctx_t *c);
/* a hexadecimal number of vmcoreinfo ("KERNELOFFPHYS"): 0, or -ENOENT (*val set when it began as one) */
int kx_xlat__vmcoreinfo_hex(kdump_ctx_t *c, const char *key, uint64_t *val);
/* map @idx of @sys: [@first[i], @last[i]] by @meth[i], in order (a later range wins); 0, -ENOMEM */
int kx_xlat__set_map(addrxlat_sys_t *sys, addrxlat_sys_map_t idx, const uint64_t *first,
		     const uint64_t *last, const addrxlat_sys_meth_t *meth, int n);
/* kernel physical = machine physical over [0, @last]: both methods and both maps; 0, -ENOMEM */
int kx_xlat__phys_identity(addrxlat_sys_t *sys, uint64_t last);

#endif
