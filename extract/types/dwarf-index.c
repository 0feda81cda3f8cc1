// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The per-session index of DIEs already met: every named struct, union,
 * enum, typedef and base type at the top of a unit read once, and every
 * enumerator. The first complete definition of a name wins; declarations
 * (DW_AT_declaration, "struct foo;") are never indexed.
 */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf-index.h"

struct kx_dentry {
	const char *name;	/* NULL: empty slot */
	uint32_t hash;
	enum kx_dkind kind;
	Dwarf_Die die;
};

static uint32_t entry_hash(enum kx_dkind kind, const char *s)
{
	uint32_t h = 2166136261u ^ (uint32_t)kind;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

int kx_dindex__init(struct kx_dindex *ix)
{
	size_t cap = 4096;

	ix->slots = calloc(cap, sizeof(*ix->slots));
	if (!ix->slots)
		return -ENOMEM;
	ix->mask = cap - 1;
	ix->count = 0;
	return 0;
}

void kx_dindex__fini(struct kx_dindex *ix)
{
	free(ix->slots);
	ix->slots = NULL;
}

static struct kx_dentry *probe(struct kx_dentry *slots, size_t mask,
			       enum kx_dkind kind, const char *name,
			       uint32_t h)
{
	size_t i = h & mask;

	for (;;) {
		struct kx_dentry *e = &slots[i];

		if (!e->name || (e->hash == h && e->kind == kind &&
				 !strcmp(e->name, name)))
			return e;
		i = (i + 1) & mask;
	}
}

static int grow(struct kx_dindex *ix)
{
	size_t cap = 2 * (ix->mask + 1), i;
	struct kx_dentry *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i <= ix->mask; i++) {
		struct kx_dentry *e = &ix->slots[i];

		if (e->name)
			*probe(slots, cap - 1, e->kind, e->name, e->hash) = *e;
	}
	free(ix->slots);
	ix->slots = slots;
	ix->mask = cap - 1;
	return 0;
}

static int insert(struct kx_dindex *ix, enum kx_dkind kind, const char *name,
		  Dwarf_Die *die)
{
	uint32_t h = entry_hash(kind, name);
	struct kx_dentry *e;

	if (2 * (ix->count + 1) > ix->mask + 1) {
		int ret = grow(ix);

		if (ret)
			return ret;
	}
	e = probe(ix->slots, ix->mask, kind, name, h);
	if (e->name)
		return 0;
	*e = (struct kx_dentry){ name, h, kind, *die };
	ix->count++;
	return 0;
}

int kx_dindex__find(const struct kx_dindex *ix, enum kx_dkind kind,
		    const char *name, Dwarf_Die *die)
{
	const struct kx_dentry *e;

	e = probe(ix->slots, ix->mask, kind, name, entry_hash(kind, name));
	if (!e->name)
		return -ENOENT;
	*die = e->die;
	return 0;
}

int kx_dindex__each(const struct kx_dindex *ix, enum kx_dkind kind,
		    int (*cb)(void *arg, const char *name), void *arg)
{
	size_t i;
	int ret;

	for (i = 0; i <= ix->mask; i++) {
		const struct kx_dentry *e = &ix->slots[i];

		if (e->name && e->kind == kind) {
			ret = cb(arg, e->name);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int add_enumerators(struct kx_dindex *ix, Dwarf_Die *enumdie)
{
	Dwarf_Die child;
	int ret;

	if (dwarf_child(enumdie, &child))
		return 0;
	do {
		const char *name;

		if (dwarf_tag(&child) != DW_TAG_enumerator)
			continue;
		name = dwarf_diename(&child);
		if (!name)
			continue;
		ret = insert(ix, KX_DENUMERATOR, name, &child);
		if (ret)
			return ret;
	} while (!dwarf_siblingof(&child, &child));
	return 0;
}

int kx_dindex__add_cu(struct kx_dindex *ix, Dwarf_Die *cudie)
{
	Dwarf_Die die;
	int ret;

	if (dwarf_child(cudie, &die))
		return 0;
	do {
		enum kx_dkind kind;
		const char *name;

		switch (dwarf_tag(&die)) {
		case DW_TAG_structure_type:
			kind = KX_DSTRUCT;
			break;
		case DW_TAG_union_type:
			kind = KX_DUNION;
			break;
		case DW_TAG_enumeration_type:
			kind = KX_DENUM;
			break;
		case DW_TAG_typedef:
		case DW_TAG_base_type:
			kind = KX_DTYPEDEF;
			break;
		default:
			continue;
		}
		if (dwarf_hasattr(&die, DW_AT_declaration))
			continue;
		if (kind == KX_DENUM) {
			ret = add_enumerators(ix, &die);
			if (ret)
				return ret;
		}
		name = dwarf_diename(&die);
		if (!name)
			continue;
		ret = insert(ix, kind, name, &die);
		if (ret)
			return ret;
	} while (!dwarf_siblingof(&die, &die));
	return 0;
}
