// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Types of the crashed kernel from its BTF (CONFIG_DEBUG_INFO_BTF): the
 * answers to the target's member(), type_size() and enumerator(), for
 * every BTF a source holds: /sys/kernel/btf/vmlinux or a vmlinux's .BTF
 * (layout profiles, profile-btf.c) and the BTF inside the dump
 * (__start_BTF..__stop_BTF, indump.c). Parsed with libbpf's btf API.
 *
 * What BTF cannot answer as DWARF does: an enumerator is looked up in the
 * whole kernel, not in one compilation unit (BTF deduplicates types
 * across units and keeps no unit boundaries). Where two enums of the
 * kernel define one name with different values, the first in the BTF is
 * taken and kx_btf__enumerator() says how many values there were.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "btf.h"

struct benum {
	const char *name;	/* in the BTF string section */
	int64_t value;
	unsigned int seq;
};

struct kx_btf {
	struct btf *btf;
	struct benum *enums;	/* sorted by name, then order in the BTF */
	size_t nenums, enums_cap;
};

const void *kx_btf__raw(const struct kx_btf *b, uint32_t *size)
{
	return btf__raw_data(b->btf, size);
}

/* "struct foo", "union foo", "enum foo", or a typedef or base type name */
static int find_type(const struct btf *btf, const char *spelled)
{
	static const struct {
		const char *prefix;
		int kind;
	} kw[] = {
		{ "struct ", BTF_KIND_STRUCT },
		{ "union ", BTF_KIND_UNION },
		{ "enum ", BTF_KIND_ENUM },
	};
	size_t i;
	int id;

	for (i = 0; i < sizeof(kw) / sizeof(kw[0]); i++) {
		size_t len = strlen(kw[i].prefix);

		if (strncmp(spelled, kw[i].prefix, len))
			continue;
		id = btf__find_by_name_kind(btf, spelled + len, kw[i].kind);
		if (id < 0 && kw[i].kind == BTF_KIND_ENUM)
			id = btf__find_by_name_kind(btf, spelled + len,
						    BTF_KIND_ENUM64);
		return id < 0 ? -ENOENT : id;
	}
	id = btf__find_by_name_kind(btf, spelled, BTF_KIND_TYPEDEF);
	if (id < 0)
		id = btf__find_by_name_kind(btf, spelled, BTF_KIND_INT);
	return id < 0 ? -ENOENT : id;
}

/* @name (@len bytes) in aggregate @id, through anonymous members */
static int find_member(const struct btf *btf, int id, const char *name,
		       size_t len, uint64_t *bitoff, const struct btf_type **agg,
		       int *midx)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;
	int i;

	if (!t || !btf_is_composite(t))
		return -EINVAL;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *mn = btf__name_by_offset(btf, m->name_off);
		uint64_t sub;

		if (mn && *mn) {
			if (strlen(mn) == len && !strncmp(mn, name, len)) {
				*bitoff = btf_member_bit_offset(t, i);
				*agg = t;
				*midx = i;
				return 0;
			}
			continue;
		}
		/* an anonymous struct or union: its members are ours */
		if (!find_member(btf, btf__resolve_type(btf, m->type), name, len,
				 &sub, agg, midx)) {
			*bitoff = btf_member_bit_offset(t, i) + sub;
			return 0;
		}
	}
	return -ENOENT;
}

int kx_btf__member(struct kx_btf *bs, const char *type, const char *member,
		   uint64_t *offset, uint64_t *size)
{
	const struct btf_type *agg = NULL;
	const struct btf_member *m = NULL;
	uint64_t total = 0, bitoff;
	const char *p = member;
	int id = find_type(bs->btf, type), midx, ret;
	long long sz;

	if (id < 0)
		return id;
	for (;;) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);

		id = btf__resolve_type(bs->btf, id);
		if (id < 0)
			return -EIO;
		if (!len)
			return -EINVAL;
		ret = find_member(bs->btf, id, p, len, &bitoff, &agg, &midx);
		if (ret)
			return ret;
		m = btf_members(agg) + midx;
		if (!dot) {
			uint32_t bits = btf_member_bitfield_size(agg, midx);

			*offset = total + bitoff / 8;
			if (bits)
				sz = (bitoff % 8 + bits + 7) / 8;
			else
				sz = btf__resolve_size(bs->btf, m->type);
			if (sz < 0)
				return -EIO;
			if (size)
				*size = (uint64_t)sz;
			return 0;
		}
		total += bitoff / 8;
		id = m->type;
		p = dot + 1;
	}
}

int kx_btf__size(struct kx_btf *bs, const char *type, uint64_t *size)
{
	int id = find_type(bs->btf, type);
	long long sz;

	if (id < 0)
		return id;
	sz = btf__resolve_size(bs->btf, id);
	if (sz < 0)
		return -EIO;
	*size = (uint64_t)sz;
	return 0;
}

/* Visit every enumerator: (name, value) to @cb; stop at a non-zero return */
static int walk_enums(const struct btf *btf,
		      int (*cb)(void *arg, const char *name, int64_t value),
		      void *arg)
{
	unsigned int id, n = btf__type_cnt(btf);
	int i, ret;

	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (btf_is_enum(t)) {
			const struct btf_enum *e = btf_enum(t);

			for (i = 0; i < btf_vlen(t); i++, e++) {
				/* kflag: signed enum (else the 32 bits are unsigned) */
				int64_t v = btf_kflag(t) ? (int64_t)(int32_t)e->val :
							   (int64_t)(uint32_t)e->val;

				ret = cb(arg, btf__name_by_offset(btf, e->name_off), v);
				if (ret)
					return ret;
			}
		} else if (btf_is_enum64(t)) {
			const struct btf_enum64 *e = btf_enum64(t);

			for (i = 0; i < btf_vlen(t); i++, e++) {
				ret = cb(arg, btf__name_by_offset(btf, e->name_off),
					 (int64_t)btf_enum64_value(e));
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

static int enum_add(void *arg, const char *name, int64_t value)
{
	struct kx_btf *bs = arg;

	if (!name || !*name)
		return 0;
	if (bs->nenums == bs->enums_cap) {
		size_t nc = bs->enums_cap ? 2 * bs->enums_cap : 16384;
		struct benum *ne = realloc(bs->enums, nc * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		bs->enums = ne;
		bs->enums_cap = nc;
	}
	bs->enums[bs->nenums].name = name;
	bs->enums[bs->nenums].value = value;
	bs->enums[bs->nenums].seq = (unsigned int)bs->nenums;
	bs->nenums++;
	return 0;
}

static int cmp_benum(const void *a, const void *b)
{
	const struct benum *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->seq < y->seq ? -1 : x->seq > y->seq;
}

int kx_btf__enumerator(struct kx_btf *bs, const char *name, int64_t *value,
		       unsigned int *nvalues)
{
	size_t lo = 0, hi = bs->nenums, i;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(bs->enums[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == bs->nenums || strcmp(bs->enums[lo].name, name))
		return -ENOENT;
	*value = bs->enums[lo].value;
	if (nvalues) {
		/* other enums with an enumerator of that name and another value */
		*nvalues = 1;
		for (i = lo + 1; i < bs->nenums && !strcmp(bs->enums[i].name, name); i++)
			if (bs->enums[i].value != *value)
				(*nvalues)++;
	}
	return 0;
}

struct enum_names {
	int (*cb)(void *arg, const char *name);
	void *arg;
};

static int enum_name(void *arg, const char *name, int64_t value)
{
	struct enum_names *en = arg;

	return name && *name ? en->cb(en->arg, name) : 0;
}

int kx_btf__enumerators(struct kx_btf *bs, int (*cb)(void *arg, const char *name),
			void *arg)
{
	struct enum_names en = { cb, arg };

	return walk_enums(bs->btf, enum_name, &en);
}

int kx_btf__new(struct btf *btf, struct kx_btf **out)
{
	struct kx_btf *bs = calloc(1, sizeof(*bs));
	int ret;

	*out = NULL;
	if (!bs) {
		btf__free(btf);
		return -ENOMEM;
	}
	bs->btf = btf;
	ret = walk_enums(bs->btf, enum_add, bs);
	if (ret) {
		kx_btf__free(bs);
		return ret;
	}
	if (bs->nenums)	/* qsort(NULL, 0, ...) is undefined: a BTF without enums */
		qsort(bs->enums, bs->nenums, sizeof(*bs->enums), cmp_benum);
	*out = bs;
	return 0;
}

void kx_btf__free(struct kx_btf *bs)
{
	if (!bs)
		return;
	free(bs->enums);
	btf__free(bs->btf);
	free(bs);
}

unsigned int kx_btf__type_cnt(const struct kx_btf *bs)
{
	return btf__type_cnt(bs->btf);
}
