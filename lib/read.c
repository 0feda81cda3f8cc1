// SPDX-License-Identifier: LGPL-2.1-or-later
/* Reading the crashed kernel through the target. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/*
 * The layout, the event table and the kernel log are read a few bytes at a
 * time: a member here, a string there, thousands of them on neighbouring
 * addresses. Each read through the target pays its full cost (address
 * translation in libkdumpfile, or a read(2) of /proc/vmcore in the capture
 * kernel, where every instruction is dear). So reads that stay inside one
 * page are served from a small direct-mapped cache of whole pages. A page
 * that cannot be read whole (a dump segment ending inside it) is not
 * cached: the read then goes to the target as asked, and fails or succeeds
 * exactly as it would have without the cache. The dump does not change
 * under us, so a cached page is never stale.
 */
#define KT_RC_PAGE 4096u
#define KT_RC_SLOTS 256u

struct kt_rcache {
	uint64_t tag[KT_RC_SLOTS];	/* page address + 1; 0: empty */
	uint8_t data[KT_RC_SLOTS][KT_RC_PAGE];
};

/* the cached page holding @addr, or NULL (not cacheable, or unreadable) */
static const uint8_t *rcache_page(struct kt_session *s, uint64_t addr)
{
	struct kt_rcache *c = s->rcache;
	uint64_t page = addr & ~(uint64_t)(KT_RC_PAGE - 1);
	unsigned int slot = (unsigned int)(page / KT_RC_PAGE) % KT_RC_SLOTS;

	if (!c) {
		c = s->rcache = calloc(1, sizeof(*c));
		if (!c)
			return NULL;
	}
	if (c->tag[slot] == page + 1)
		return c->data[slot];
	c->tag[slot] = 0;
	if (!page || s->t.read(s->t.priv, page, c->data[slot], KT_RC_PAGE))
		return NULL;
	c->tag[slot] = page + 1;
	return c->data[slot];
}

void kt_rcache__free(struct kt_session *s)
{
	free(s->rcache);
	s->rcache = NULL;
}

int kt_read(struct kt_session *s, uint64_t addr, void *buf, size_t len)
{
	size_t off = addr & (KT_RC_PAGE - 1);
	const uint8_t *page;
	int err;

	if (!addr)
		return -EFAULT;
	kt_lock(s);
	/* whole pages (ring pages, tables) go straight through */
	if (len && len < KT_RC_PAGE && off + len <= KT_RC_PAGE) {
		page = rcache_page(s, addr);
		if (page) {
			memcpy(buf, page + off, len);
			kt_unlock(s);
			return 0;
		}
	}
	err = s->t.read(s->t.priv, addr, buf, len);
	kt_unlock(s);
	return err;
}

void kt_order(bool be, void *p, size_t n, unsigned int size)
{
	uint8_t *w = p;
	size_t i;

	if (be == (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__))
		return;
	for (i = 0; i < n; i++, w += size) {
		uint64_t v = kt_getn(be, w, size);

		switch (size) {
		case 2: { uint16_t x = (uint16_t)v; memcpy(w, &x, 2); break; }
		case 4: { uint32_t x = (uint32_t)v; memcpy(w, &x, 4); break; }
		default: memcpy(w, &v, 8); break;
		}
	}
}

int kt_read_u64(struct kt_session *s, uint64_t addr, uint64_t *v)
{
	uint8_t b[8];
	int err = kt_read(s, addr, b, 8);

	if (!err)
		*v = kt_get64(s->l.be, b);
	return err;
}

int kt_read_u32(struct kt_session *s, uint64_t addr, uint32_t *v)
{
	uint8_t b[4];
	int err = kt_read(s, addr, b, 4);

	if (!err)
		*v = kt_get32(s->l.be, b);
	return err;
}

int kt_read_member(struct kt_session *s, uint64_t base, const struct kt_member *m,
		   uint64_t *v)
{
	uint8_t b[8] = { 0 };
	int err;

	if (!m->present)
		return -ENOENT;
	if (m->size != 1 && m->size != 2 && m->size != 4 && m->size != 8)
		return -EINVAL;
	err = kt_read(s, base + m->off, b, m->size);
	if (err)
		return err;
	*v = kt_getn(s->l.be, b, m->size);
	return 0;
}

/*
 * Strings are read in chunks that do not cross a page boundary, so a
 * string at the end of a mapped page before an unmapped one still reads.
 */
int kt_read_string(struct kt_session *s, uint64_t addr, size_t max, char **out)
{
	size_t len = 0, cap = 64;
	char *buf = malloc(cap);
	int err;

	if (!buf)
		return -ENOMEM;
	while (len < max) {
		size_t chunk = 4096 - ((addr + len) & 4095);
		const uint8_t *page;
		char tmp[4096];
		const char *nul;
		size_t take;

		if (chunk > max - len)
			chunk = max - len;
		/* from the cached page: up to the NUL, under the lock (threads) */
		kt_lock(s);
		page = rcache_page(s, addr + len);
		if (page) {
			const uint8_t *at = page + ((addr + len) & 4095);
			const uint8_t *z = memchr(at, 0, chunk);

			memcpy(tmp, at, z ? (size_t)(z - at) + 1 : chunk);
		}
		kt_unlock(s);
		if (!page) {
			err = kt_read(s, addr + len, tmp, chunk);
			if (err) {
				free(buf);
				return err;
			}
		}
		nul = memchr(tmp, 0, chunk);
		/* grow for what the string holds, not for the page's rest */
		take = nul ? (size_t)(nul - tmp) : chunk;
		if (len + take + 1 > cap) {
			char *n;

			while (len + take + 1 > cap)
				cap *= 2;
			n = realloc(buf, cap);
			if (!n) {
				free(buf);
				return -ENOMEM;
			}
			buf = n;
		}
		memcpy(buf + len, tmp, take);
		len += take;
		if (nul) {
			buf[len] = 0;
			*out = buf;
			return 0;
		}
	}
	free(buf);
	return -E2BIG;
}

int kt_symbol(struct kt_session *s, const char *name, uint64_t *addr)
{
	return s->t.symbol(s->t.priv, name, addr);
}
