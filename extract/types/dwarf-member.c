// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Walks over one type's DIE: member offsets along a dotted path, through
 * anonymous structs and unions, and sizes as the C compiler sees them.
 */
#include <dwarf.h>
#include <errno.h>
#include <string.h>

#include "dwarf-index.h"

/* Follow typedef, const, volatile, restrict and _Atomic to the real type. */
static int strip_type(Dwarf_Die *die)
{
	int depth;

	for (depth = 0; depth < 64; depth++) {
		Dwarf_Attribute attr;

		switch (dwarf_tag(die)) {
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
			/* "const void" has no DW_AT_type */
			if (!dwarf_attr_integrate(die, DW_AT_type, &attr))
				return -ENOENT;
			if (!dwarf_formref_die(&attr, die))
				return -EIO;
			break;
		default:
			return 0;
		}
	}
	return -ELOOP;
}

static int die_type(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute attr;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr))
		return -ENOENT;
	return dwarf_formref_die(&attr, type) ? 0 : -EIO;
}

static int is_aggregate(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);

	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type;
}

/*
 * Byte offset of @member in its parent. Union members and the first
 * members of some structs have no DW_AT_data_member_location: offset 0.
 * A bit-field is reported at the byte that holds its first bit.
 */
static int member_offset(Dwarf_Die *member, uint64_t *offset)
{
	Dwarf_Attribute attr;
	Dwarf_Word w;

	if (dwarf_attr_integrate(member, DW_AT_data_member_location, &attr)) {
		if (dwarf_formudata(&attr, &w))
			return -EIO;	/* a location expression: not in C */
		*offset = w;
		return 0;
	}
	if (dwarf_attr_integrate(member, DW_AT_data_bit_offset, &attr)) {
		if (dwarf_formudata(&attr, &w))
			return -EIO;
		*offset = w / 8;
		return 0;
	}
	*offset = 0;
	return 0;
}

/*
 * Find the member named @name (@len bytes) in aggregate @agg, looking
 * into unnamed struct and union members as C does. On success *@offset
 * is its offset in @agg and *@member its DIE.
 */
static int find_member(Dwarf_Die *agg, const char *name, size_t len,
		       int depth, uint64_t *offset, Dwarf_Die *member)
{
	Dwarf_Die child;
	int ret;

	if (depth > 32)
		return -ELOOP;
	if (dwarf_child(agg, &child))
		return -ENOENT;
	do {
		const char *mname;
		Dwarf_Die inner;
		uint64_t off, inner_off;

		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		mname = dwarf_diename(&child);
		if (mname) {
			if (strncmp(mname, name, len) || mname[len])
				continue;
			ret = member_offset(&child, &off);
			if (ret)
				return ret;
			*offset = off;
			*member = child;
			return 0;
		}
		/* anonymous struct or union */
		if (die_type(&child, &inner) || strip_type(&inner) ||
		    !is_aggregate(&inner))
			continue;
		ret = find_member(&inner, name, len, depth + 1, &inner_off,
				  member);
		if (ret == -ENOENT)
			continue;
		if (ret)
			return ret;
		ret = member_offset(&child, &off);
		if (ret)
			return ret;
		*offset = off + inner_off;
		return 0;
	} while (!dwarf_siblingof(&child, &child));
	return -ENOENT;
}

/*
 * An array without DW_AT_count or DW_AT_upper_bound in one of its
 * dimensions is a flexible array member: size 0.
 */
static int is_flexible_array(Dwarf_Die *array)
{
	Dwarf_Die sub;

	if (dwarf_child(array, &sub))
		return 1;
	do {
		if (dwarf_tag(&sub) != DW_TAG_subrange_type)
			continue;
		if (!dwarf_hasattr(&sub, DW_AT_count) &&
		    !dwarf_hasattr(&sub, DW_AT_upper_bound))
			return 1;
	} while (!dwarf_siblingof(&sub, &sub));
	return 0;
}

int kx_dwarf_type_size(Dwarf_Die *type, uint64_t *size)
{
	Dwarf_Die die = *type;
	Dwarf_Word w;
	int ret;

	ret = strip_type(&die);
	if (ret)
		return ret;
	if (dwarf_tag(&die) == DW_TAG_array_type && is_flexible_array(&die)) {
		*size = 0;
		return 0;
	}
	/* pointers: gcc and clang give DW_AT_byte_size */
	if (dwarf_aggregate_size(&die, &w))
		return -EIO;
	*size = w;
	return 0;
}

int kx_dwarf_member(Dwarf_Die *type, const char *path, uint64_t *offset,
		    uint64_t *size)
{
	Dwarf_Die agg = *type, member, mtype;
	uint64_t total = 0;
	const char *p = path;
	int ret;

	for (;;) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);
		uint64_t off;

		ret = strip_type(&agg);
		if (ret)
			return ret;
		if (!is_aggregate(&agg))
			return -EINVAL;
		if (!len)
			return -EINVAL;
		ret = find_member(&agg, p, len, 0, &off, &member);
		if (ret)
			return ret;
		total += off;
		ret = die_type(&member, &mtype);
		if (ret)
			return ret == -ENOENT ? -EIO : ret;
		if (!dot)
			break;
		agg = mtype;
		p = dot + 1;
	}
	if (size) {
		Dwarf_Attribute attr;
		Dwarf_Word bits;

		/* a bit-field: the bytes that its bits touch */
		if (dwarf_attr_integrate(&member, DW_AT_bit_size, &attr) &&
		    !dwarf_formudata(&attr, &bits)) {
			*size = (bits + 7) / 8;
		} else {
			ret = kx_dwarf_type_size(&mtype, size);
			if (ret)
				return ret;
		}
	}
	*offset = total;
	return 0;
}
