// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The addresses a walk over a kernel list has visited. A list in a dump
 * can loop anywhere, not only back to its head; a node met twice means
 * the walk is going round, and every node after it was already seen. An
 * open-addressing set: 8 bytes per node, nothing per byte of data.
 */
#include <stdlib.h>
#include "internal.h"

/*
 * Nodes of one list are mostly allocated one after the other, a few dozen
 * to a slab page (a ring's buffer_pages are, in ring order): the page is
 * mixed to a random block of 64 slots, and the cache line of the node
 * picks its slot in the block. A walk then fills neighbouring slots, not
 * a random one of a table of megabytes each time (a cache miss per node
 * on a ring of 1 GiB).
 */
static size_t slot_of(uint64_t addr, size_t cap)
{
	uint64_t page = addr >> 12;

	/* kernel addresses share their high bits: mix before masking */
	page ^= page >> 33;
	page *= 0xff51afd7ed558ccdULL;
	page ^= page >> 33;
	return (size_t)(page * 64 + ((addr >> 6) & 63)) & (cap - 1);
}

static int grow_to(struct kt_seen *set, size_t cap)
{
	size_t i, j;
	uint64_t *n = calloc(cap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	/*
	 * Each page stored to first: a large calloc() is fresh mapped
	 * memory, and the first look at a slot would map the shared zero
	 * page, the first store then copy it and flush the TLB of every CPU
	 * running a thread of ours (a ring of 1 GiB: 6% of trace.dat's time
	 * with reader threads). (A memset() after malloc() is turned back
	 * into calloc() by the compiler.)
	 */
	for (i = 0; i < cap; i += 4096 / sizeof(*n))
		((volatile uint64_t *)n)[i] = 0;
	for (i = 0; i < set->cap; i++) {
		if (!set->slots[i])
			continue;
		for (j = slot_of(set->slots[i], cap); n[j]; j = (j + 1) & (cap - 1))
			;
		n[j] = set->slots[i];
	}
	free(set->slots);
	set->slots = n;
	set->cap = cap;
	return 0;
}

static int grow(struct kt_seen *set)
{
	return grow_to(set, set->cap ? set->cap * 2 : 64);
}

/*
 * Room for @n nodes without growing: a walk that knows its length (a
 * ring's nr_pages) does not rehash the set as it goes. A length read from
 * the dump is a hint, so what is set aside is bounded.
 */
int kt_seen__reserve(struct kt_seen *set, size_t n)
{
	size_t cap = 64;

	if (n > KT_SEEN_RESERVE_MAX)
		n = KT_SEEN_RESERVE_MAX;
	while (cap < 2 * n)
		cap *= 2;
	return cap > set->cap ? grow_to(set, cap) : 0;
}

int kt_seen__add(struct kt_seen *set, uint64_t addr)
{
	size_t i;

	if (!addr)
		return 1;	/* NULL is never a node; treat as met before */
	if ((set->n + 1) * 2 > set->cap && grow(set))
		return -ENOMEM;
	for (i = slot_of(addr, set->cap); set->slots[i]; i = (i + 1) & (set->cap - 1))
		if (set->slots[i] == addr)
			return 1;
	set->slots[i] = addr;
	set->n++;
	return 0;
}

void kt_seen__free(struct kt_seen *set)
{
	free(set->slots);
	set->slots = NULL;
	set->cap = set->n = 0;
}
