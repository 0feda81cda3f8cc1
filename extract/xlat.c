// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xlat.h"

addrxlat_sys_t *kx_xlat__sys(kdump_ctx_t *c)
{
	addrxlat_sys_t *sys = NULL;

	if (kdump_get_addrxlat(c, NULL, &sys) == KDUMP_OK)
		return sys;
	kdump_clear_err(c);
	if (kdump_get_addrxlat(c, NULL, &sys) == KDUMP_OK)
		return sys;
	kdump_clear_err(c);
	return NULL;
}

int kx_xlat__vmcoreinfo_hex(kdump_ctx_t *c, const char *key, uint64_t *val)
{
	char *s = NULL, *end;
	int ret = -ENOENT;

	if (kdump_vmcoreinfo_line(c, key, &s) == KDUMP_OK && s && *s) {
		*val = strtoull(s, &end, 16);
		if (!*end)
			ret = 0;
	}
	kdump_clear_err(c);
	free(s);
	return ret;
}

int kx_xlat__set_map(addrxlat_sys_t *sys, addrxlat_sys_map_t idx, const uint64_t *first,
		     const uint64_t *last, const addrxlat_sys_meth_t *meth, int n)
{
	addrxlat_map_t *map = addrxlat_map_new();
	int i;

	if (!map)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		addrxlat_range_t r = { .endoff = last[i] - first[i], .meth = meth[i] };

		if (addrxlat_map_set(map, first[i], &r) != ADDRXLAT_OK) {
			addrxlat_map_decref(map);
			return -ENOMEM;
		}
	}
	addrxlat_sys_set_map(sys, idx, map);
	addrxlat_map_decref(map);
	return 0;
}

int kx_xlat__phys_identity(addrxlat_sys_t *sys, uint64_t last)
{
	addrxlat_meth_t m;
	uint64_t first = 0;
	addrxlat_sys_meth_t meth = ADDRXLAT_SYS_METH_MACHPHYS_KPHYS;
	int ret;

	memset(&m, 0, sizeof(m));
	m.kind = ADDRXLAT_LINEAR;
	m.target_as = ADDRXLAT_KPHYSADDR;
	addrxlat_sys_set_meth(sys, ADDRXLAT_SYS_METH_MACHPHYS_KPHYS, &m);
	m.target_as = ADDRXLAT_MACHPHYSADDR;
	addrxlat_sys_set_meth(sys, ADDRXLAT_SYS_METH_KPHYS_MACHPHYS, &m);
	ret = kx_xlat__set_map(sys, ADDRXLAT_SYS_MAP_MACHPHYS_KPHYS, &first, &last, &meth, 1);
	meth = ADDRXLAT_SYS_METH_KPHYS_MACHPHYS;
	return ret ? ret : kx_xlat__set_map(sys, ADDRXLAT_SYS_MAP_KPHYS_MACHPHYS, &first, &last,
					    &meth, 1);
}
