// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Ring-buffer sub-buffers kept in memory after their first read, so that
 * a caller writing several outputs (the ticket: text, JSON, trace.dat)
 * reads each page of the dump once. Off unless asked for; bounded: past
 * the limit pages are read from the dump again, as without a cache.
 * Failed reads are not kept (they are counted by the reader each time).
 */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"

struct kt_pagecache {
	uint64_t *addr;		/* 0: empty slot */
	uint8_t **data;
	uint32_t *len;
	size_t cap, n;
	uint64_t bytes, max_bytes;
	uint64_t hits, misses;
};

static size_t slot_of(uint64_t addr, size_t cap)
{
	return (size_t)((addr >> 12) * 0x9e3779b97f4a7c15ull) & (cap - 1);
}

static int grow(struct kt_pagecache *c)
{
	size_t cap = c->cap ? c->cap * 2 : 1024, i, j;
	uint64_t *addr = calloc(cap, sizeof(*addr));
	uint8_t **data = calloc(cap, sizeof(*data));
	uint32_t *len = calloc(cap, sizeof(*len));

	if (!addr || !data || !len) {
		free(addr);
		free(data);
		free(len);
		return -ENOMEM;
	}
	for (i = 0; i < c->cap; i++) {
		if (!c->addr[i])
			continue;
		for (j = slot_of(c->addr[i], cap); addr[j]; j = (j + 1) & (cap - 1))
			;
		addr[j] = c->addr[i];
		data[j] = c->data[i];
		len[j] = c->len[i];
	}
	free(c->addr);
	free(c->data);
	free(c->len);
	c->addr = addr;
	c->data = data;
	c->len = len;
	c->cap = cap;
	return 0;
}

int kt_session__cache_pages(struct kt_session *s, uint64_t max_bytes)
{
	if (!max_bytes) {
		kt_pagecache__free(s);
		return 0;
	}
	if (!s->pagecache) {
		s->pagecache = calloc(1, sizeof(*s->pagecache));
		if (!s->pagecache)
			return -ENOMEM;
	}
	s->pagecache->max_bytes = max_bytes;
	return 0;
}

void kt_session__cache_stats(const struct kt_session *s, uint64_t *hits, uint64_t *misses)
{
	*hits = s->cache_hits + (s->pagecache ? s->pagecache->hits : 0);
	*misses = s->cache_misses + (s->pagecache ? s->pagecache->misses : 0);
}

void kt_pagecache__free(struct kt_session *s)
{
	struct kt_pagecache *c = s->pagecache;
	size_t i;

	if (!c)
		return;
	s->cache_hits += c->hits;
	s->cache_misses += c->misses;
	for (i = 0; i < c->cap; i++)
		free(c->data[i]);
	free(c->addr);
	free(c->data);
	free(c->len);
	free(c);
	s->pagecache = NULL;
}

int kt_read_page(struct kt_session *s, uint64_t addr, void *buf, uint32_t len)
{
	struct kt_pagecache *c = s->pagecache;
	size_t i;
	int err;

	if (!c || !addr)
		return kt_read(s, addr, buf, len);
	if (c->cap) {
		for (i = slot_of(addr, c->cap); c->addr[i]; i = (i + 1) & (c->cap - 1)) {
			if (c->addr[i] == addr && c->len[i] == len) {
				memcpy(buf, c->data[i], len);
				c->hits++;
				return 0;
			}
		}
	}
	c->misses++;
	err = kt_read(s, addr, buf, len);
	if (err || c->bytes + len > c->max_bytes)
		return err;
	if ((c->n + 1) * 2 > c->cap && grow(c))
		return 0;
	for (i = slot_of(addr, c->cap); c->addr[i]; i = (i + 1) & (c->cap - 1))
		;
	c->data[i] = malloc(len);
	if (!c->data[i])
		return 0;
	memcpy(c->data[i], buf, len);
	c->addr[i] = addr;
	c->len[i] = len;
	c->n++;
	c->bytes += len;
	return 0;
}
