// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Symbols from a text list: System.map of the kernel (link-time
 * addresses) or /proc/kallsyms of the running one (run-time addresses,
 * moved back by the running kernel's KASLR offset). Used with BTF, which
 * has types but no symbols: for layout profiles, and for dumps of kernels
 * before v6.0, whose VMCOREINFO does not list the kallsyms tables.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysmap.h"

struct msym {
	char *name;
	uint64_t addr;
	unsigned int line;
	uint8_t rank;		/* 3 global, 2 weak, 1 local */
	uint8_t reloc;
};

struct kx_sysmap {
	struct msym *syms;	/* sorted by name, then rank, then line */
	size_t nsyms;
};

static int cmp_msym(const void *a, const void *b)
{
	const struct msym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->rank != y->rank)
		return y->rank - x->rank;
	return x->line < y->line ? -1 : x->line > y->line;
}

/*
 * "ffffffff82a0b000 D global_trace" lines. Ranks as kx_symtab__lookup()
 * chooses among symbols of one name: global, then weak, then the first
 * local. Absolute symbols and x86_64 per-CPU ones (zero-based, below the
 * kernel half) are not moved by KASLR.
 */
static int load_map(struct kx_sysmap *map, const char *path, char *msg,
		    size_t msglen)
{
	FILE *f = fopen(path, "re");
	char line[512], name[256], type;
	unsigned long long addr, text = 0;
	size_t i;
	size_t cap = 0;
	unsigned int lineno = 0;
	int kallsyms = !strcmp(path, "/proc/kallsyms"), nonzero = 0;

	if (!f) {
		snprintf(msg, msglen, "symbols %s: %s", path, strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f)) {
		struct msym *m;

		lineno++;
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (strchr(line, '['))	/* a module's symbol (kallsyms) */
			continue;
		if (map->nsyms == cap) {
			size_t nc = cap ? 2 * cap : 65536;
			struct msym *ns = realloc(map->syms, nc * sizeof(*ns));

			if (!ns) {
				fclose(f);
				return -ENOMEM;
			}
			map->syms = ns;
			cap = nc;
		}
		m = &map->syms[map->nsyms];
		m->name = strdup(name);
		if (!m->name) {
			fclose(f);
			return -ENOMEM;
		}
		m->addr = addr;
		m->line = lineno;
		m->rank = isupper((unsigned char)type) ? 3 : 1;
		if (type == 'w' || type == 'W' || type == 'v' || type == 'V')
			m->rank = 2;
		m->reloc = type != 'a' && type != 'A';
		nonzero |= addr != 0;
		if (!strcmp(name, "_text"))
			text = addr;
		map->nsyms++;
	}
	fclose(f);
	if (!map->nsyms || !nonzero) {
		snprintf(msg, msglen, "symbols %s: %s", path,
			 map->nsyms ? "every address is 0 (kptr_restrict; run as root)" :
				     "no symbols");
		return -EINVAL;
	}
	/*
	 * What KASLR moves: the image, from _text up. Below it are x86_64's
	 * per-CPU offsets (0x0...: not moved); s390x links the image at 0
	 * (_text 0x100000) and ppc64 at 0xc000000000000000, so the kernel
	 * half (0xffff8...) is the bound only where a map has no _text.
	 */
	for (i = 0; i < map->nsyms; i++)
		if (map->syms[i].reloc)
			map->syms[i].reloc = text ? map->syms[i].addr >= text
						  : map->syms[i].addr >= 0xffff800000000000ULL;
	/*
	 * Debian's linux-image packages ship a one-line placeholder ("The
	 * real System.map is in the linux-image-<version>-dbg package").
	 */
	if (map->nsyms < 1000) {
		snprintf(msg, msglen,
			 "symbols %s: only %zu symbols, not a kernel's symbol map (a "
			 "placeholder? Debian ships the real System.map in the -dbg "
			 "package; use /proc/kallsyms of the running kernel)",
			 path, map->nsyms);
		return -EINVAL;
	}
	if (kallsyms) {
		/*
		 * Run-time addresses: x86_64 links _text at __START_KERNEL,
		 * 0xffffffff81000000 with the default CONFIG_PHYSICAL_START;
		 * the difference is this boot's KASLR offset.
		 */
		uint64_t off = text - 0xffffffff81000000ULL;

		if (!text) {
			snprintf(msg, msglen, "symbols %s: no _text", path);
			return -EINVAL;
		}
		for (i = 0; i < map->nsyms; i++)
			if (map->syms[i].reloc)
				map->syms[i].addr -= off;
	}
	if (map->nsyms)	/* qsort(NULL, 0, ...) is undefined */
		qsort(map->syms, map->nsyms, sizeof(*map->syms), cmp_msym);
	return 0;
}

int kx_sysmap__load(const char *path, struct kx_sysmap **out, char *msg, size_t msglen)
{
	struct kx_sysmap *m = calloc(1, sizeof(*m));
	int ret;

	*out = NULL;
	if (!m)
		return -ENOMEM;
	ret = load_map(m, path, msg, msglen);
	if (ret) {
		if (ret == -ENOMEM)
			snprintf(msg, msglen, "symbols %s: out of memory", path);
		kx_sysmap__free(m);
		return ret;
	}
	*out = m;
	return 0;
}

void kx_sysmap__free(struct kx_sysmap *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nsyms; i++)
		free(m->syms[i].name);
	free(m->syms);
	free(m);
}

size_t kx_sysmap__count(const struct kx_sysmap *m)
{
	return m->nsyms;
}

int kx_sysmap__lookup(const struct kx_sysmap *map, const char *name, uint64_t *addr,
		      int *reloc)
{
	size_t lo = 0, hi = map->nsyms;

	/* the first entry of that name: the best ranked */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(map->syms[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == map->nsyms || strcmp(map->syms[lo].name, name))
		return -ENOENT;
	*addr = map->syms[lo].addr;
	*reloc = map->syms[lo].reloc;
	return 0;
}
