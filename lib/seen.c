// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The addresses a walk over a kernel list has visited. A list in a dump
 * can loop anywhere, not only back to its head; a node met twice means
 * the walk is going round, and every node after it was already seen. An
 * open-addressing set: 8 bytes per node, nothing per byte of data.
 */
#include <stdlib.h>
#include "internal.h"

static size_t slot_of(uint64_t addr, size_t cap)
{
	/* kernel addresses share their high bits: mix before masking */
	addr ^= addr >> 33;
	addr *= 0xff51afd7ed558ccdULL;
	addr ^= addr >> 33;
	return (size_t)addr & (cap - 1);
}

static int grow(struct kt_seen *set)
{
	size_t cap = set->cap ? set->cap * 2 : 64, i, j;
	uint64_t *n = calloc(cap, sizeof(*n));

	if (!n)
		return -ENOMEM;
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
