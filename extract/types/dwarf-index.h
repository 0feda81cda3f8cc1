/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private to types*.c: the per-session index of DIEs already met, and
 * the walks over one type's DIE (members, sizes).
 */
#ifndef KTRACE_EXTRACT_TYPES_DWARF_INDEX_H
#define KTRACE_EXTRACT_TYPES_DWARF_INDEX_H

#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>

enum kx_dkind {
	KX_DSTRUCT = 1,
	KX_DUNION,
	KX_DENUM,
	KX_DTYPEDEF,	/* typedefs and base types: names without a keyword */
	KX_DENUMERATOR,
};

struct kx_dentry;

/* (kind, name) -> DIE; names point into .debug_str, nothing is copied */
struct kx_dindex {
	struct kx_dentry *slots;
	size_t mask;
	size_t count;
};

int kx_dindex__init(struct kx_dindex *ix);
/* @cb with the name of every entry of @kind, in no order; stops at its first non-zero */
int kx_dindex__each(const struct kx_dindex *ix, enum kx_dkind kind,
		    int (*cb)(void *arg, const char *name), void *arg);
void kx_dindex__fini(struct kx_dindex *ix);
/* Add the named types and the enumerators defined at the top of @cudie. */
int kx_dindex__add_cu(struct kx_dindex *ix, Dwarf_Die *cudie);
/* 0 and *@die, or -ENOENT */
int kx_dindex__find(const struct kx_dindex *ix, enum kx_dkind kind,
		    const char *name, Dwarf_Die *die);

/* target.h member() and type_size() on a type's DIE */
int kx_dwarf_member(Dwarf_Die *type, const char *path, uint64_t *offset,
		    uint64_t *size);
int kx_dwarf_type_size(Dwarf_Die *type, uint64_t *size);

#endif /* KTRACE_EXTRACT_TYPES_DWARF_INDEX_H */
